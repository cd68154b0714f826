"""Research and measurement: what ships to the browser is engine/ and ui/; this is how it was tuned."""
