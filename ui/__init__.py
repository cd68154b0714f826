"""The page's Python: the table's flow, between :mod:`engine` and the page (``assets/page.js``).

``assets/page.js`` is the only code that writes the document; nothing here touches the DOM.

- :mod:`ui.render`       pure functions: a :class:`engine.SeatView` in, HTML and Spanish text out
- :mod:`ui.render_replay` «Ver la mano» and its «Repaso»: HTML and Spanish text of a finished hand
- :mod:`ui.render_gameover` the end of a game: verdict, standings, the race to 100 (SVG and table)
- :mod:`ui.links`        share links (``#partida=...``) read and written
- :mod:`ui.outside`      the one boundary for outside data: a failure is a Spanish notice, never a crash
- :mod:`ui.storage`      the saved game in localStorage, with every failure handled
- :mod:`ui.prefs`        the choices kept between games: the setup bar's and the table's own (one Setup)
- :mod:`ui.history`      «Tus partidas»: the finished and abandoned games kept on the device
- :mod:`ui.kept`         one kept game: its identity, its check, and the value this device stores
- :mod:`ui.history_file` the export file of «Tus partidas»: read, bounded, imported in steps
- :mod:`ui.history_html` HTML for «Tus partidas» and for a challenge's comparison
- :mod:`ui.replay`       «Ver la mano»: a finished hand replayed move by move
- :mod:`ui.ids`          every element id of index.html that the Python touches
- :mod:`ui.host`         the table as its rooms see it, and the replace question's one pending answer
- :mod:`ui.screen`       what the table and its rooms need from the page (a Protocol)
- :mod:`ui.table`        the flow of play (whose turn, CPU pacing, dialogs); no DOM, no rules
- :mod:`ui.board`        the table drawn on the screen: cards, scoreboard, the setup bar
- :mod:`ui.setup_bar`    size, «Rival» and «Ritmo» for the next game: one Setup, kept in the store
- :mod:`ui.cpu`          the CPU seats' decisions, the hard level's search in slices
- :mod:`ui.hint`         «Pista»: the hard CPU's choice for your turn, once a turn, in slices
- :mod:`ui.forced`       forced draws and passes played for the person after a beat, said with why
- :mod:`ui.sounds`       which of the table's sounds an event makes (the page plays it)
- :mod:`ui.saves`        the game's save under the lock, and other tabs' saves followed
- :mod:`ui.results`      the end of a hand and of a game: the results count, the game's end, «Ver la mano»
- :mod:`ui.slices`       stepwise work (the review, a challenge's checks) in slices of the timer
- :mod:`ui.arrivals`     what the address brings: a game's link or a challenge's; «Copiar enlace»
- :mod:`ui.challenges`   challenges: a link checked and shown, the one being played, «Retar a alguien»
- :mod:`ui.daily`        «Partida del día»
- :mod:`ui.lesson`       «Aprende jugando»: a first hand that teaches, step by step, never kept
- :mod:`ui.transfer`     «Tus partidas» on the page: drawn, exported, imported, checked in slices
- :mod:`ui.idb`          the kept games' IndexedDB database, read at once from the worker
- :mod:`ui.protocol`     the seam with the page declared once: calls, intents and events, operations
- :mod:`ui.frozen`       frozen records of typed fields without per-class code generation (the seam's)
- :mod:`ui.batch`        the Screen: DOM operations in batches, timers and the lock as tokens
- :mod:`ui.worker`       the table in a Web Worker: the page's calls and events answered with batches

No rule lives here: legality, turns and scores all come from :mod:`engine`.
"""
