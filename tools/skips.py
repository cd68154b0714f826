"""Say how many browser tests pytest skipped, and why (read from its JUnit XML report).

Usage (tools/test.sh runs it after pytest)::

    python -m tools.skips REPORT.xml

Prints nothing and exits 0 when no browser test was skipped. Otherwise it
prints one loud line naming the count and the reasons, and exits 1 when the
``CI`` environment variable is set (CI must never pass without its browser
tests), 0 locally.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

BROWSER_PREFIX = "tests.browser."


def browser_skips(report: Path) -> Counter[str]:
    """Skipped browser tests in a JUnit XML report, counted by reason."""
    reasons: Counter[str] = Counter()
    for case in ET.parse(report).getroot().iter("testcase"):
        if not case.get("classname", "").startswith(BROWSER_PREFIX):
            continue
        skipped = case.find("skipped")
        if skipped is not None:
            reasons[(skipped.get("message") or "no reason given").strip()] += 1
    return reasons


def summary(reasons: Counter[str]) -> str:
    """The loud line, or "" when nothing was skipped."""
    total = sum(reasons.values())
    if not total:
        return ""
    why = "; ".join(f"{reason} ({n})" for reason, n in reasons.most_common())
    noun = "test was" if total == 1 else "tests were"
    return f"!!! {total} browser {noun} SKIPPED: {why}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m tools.skips REPORT.xml", file=sys.stderr)
        return 2
    report = Path(args[0])
    if not report.is_file():  # pytest stopped before writing it: its own output says why
        return 0
    line = summary(browser_skips(report))
    if not line:
        return 0
    if os.environ.get("CI"):
        print(line + " (not allowed under CI)", file=sys.stderr)
        return 1
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
