"""Research and measurement: what the page never runs, kept out of the shipped ``engine/`` and ``ui/``.

Every module but :mod:`lab.page_play` (part of the page bench), :mod:`lab.report` (the JSON
that ends every benchmark) and :mod:`lab.valuation` is a command, ``python -m lab.<name>``:

- :mod:`lab.simulate`        whole games between bots, tallies, event logs and records
- :mod:`lab.replay`          records replayed through the rules, written as an event log
- :mod:`lab.match`           one bot against another with the seats rotated (win share, interval)
- :mod:`lab.engine_bench`    the engine's and the bots' speed in this Python
- :mod:`lab.dificil_bench`   the hard CPU's decisions timed, in CPython or in Pyodide under Node
- :mod:`lab.dificil_regret`  what the hard CPU's choices lose to the real hidden hands
- :mod:`lab.make_equity`     makes ``engine/equity_table.py`` (no arguments: the committed table)
- :mod:`lab.challenge_sizes` how long challenge links are
- :mod:`lab.page_bench`      the built page's load and response times in Chromium
- :mod:`lab.page_play`       the page bench's play figures: clicks, CPU levels, a whole-game save's load
- :mod:`lab.verify_bench`    the time to check a challenge's CPU moves, in CPython and in the page
- :mod:`lab.make_golden_records` the golden whole games per level and version (``tests/golden/records.json``)
- :mod:`lab.history_bench`   «Tus partidas» with 10,000 games stored: size, load and statistics times
- :mod:`lab.first_minute`    the controls a first visit sees without scrolling (#25's first minute)
- :mod:`lab.review_check`    the review («Repaso»): its noise; its margins fitted and checked
- :mod:`lab.review_reasons`  the review's reasons and margins against the real hands, per kind of learner
- :mod:`lab.review_learner`  the stand-ins for a person learning the game that the review's tools play
- :mod:`lab.review_bench`    the review of whole hands timed, in CPython or in Pyodide under Node
- :mod:`lab.review_page_bench` a whole hand's review timed in the built page, in Chromium
- :mod:`lab.make_golden_reviews` the golden reviews of fixed records (``tests/golden/reviews.json``)
- :mod:`lab.worker_bench`    issue 26's targets (Lighthouse, taps in a whole game, the hand) per page mode
- :mod:`lab.long_tasks`      the page's long tasks in a game, and what forced each, builds side by side
- :mod:`lab.load_tasks`      the page's long tasks while it loads and the cause of each, builds side by side
- :mod:`lab.modal_cost`      what opening a panel costs: modal, non-modal, popover (elements styled, times)
- :mod:`lab.snapshot_bench`  a return visit to a playable table, Python restored from its snapshot or not
- :mod:`lab.valuation`       the game-gap valuation the three-player search used before the equity table
- :mod:`lab.lesson_deal`     the deal of «Aprende jugando»: codes whose first hand shows every step at once
- :mod:`lab.planted_bugs`    known bugs planted one at a time in the shipped code: which test catches each
"""
