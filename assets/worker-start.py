# The worker mode's entry (assets/page.js starts it in a PyWorker): the table answers the page's calls.
from ui.worker import main

main()
