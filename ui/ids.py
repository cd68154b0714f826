"""Every element id of index.html that the Python touches, in one place.

``ui/table.py`` and its parts name elements by these ids (through the
``Screen`` protocol, whose operations ``assets/page.js`` applies), and
``ui/worker.py`` dispatches the page's clicks on button ids. ``tests/test_ui_ids.py`` parses
index.html and fails if an id named here is missing from the page, or if
any id the code uses is not named here; the fake screen of the tests refuses
an id that is not in :data:`PAGE_IDS`, so a typo fails under pytest, not only
in Chromium.
"""

from __future__ import annotations

from .prefs import BACKS, FELTS, LEVELS, PACES

PAGE_IDS: frozenset[str] = frozenset(
    {
        # the table
        "mesa",
        "setup",
        "mode-choice",
        "mode-2",
        "mode-3",
        "table-now",
        "level-choice",
        *(f"level-{level}" for level in LEVELS),
        "deal-btn",
        # «Aprende jugando»
        "learn-btn",
        "learn-rules-btn",
        "lesson",
        "lesson-step",
        "lesson-skip",
        "more-options",
        "more-summary",
        "notice",
        "aside-info",
        "aside-count",
        "clear-aside-btn",
        "loading",
        "status",
        "opponents",
        "pile",
        "discard",
        "active-suit",
        "stock",
        "stock-count",
        "my-hand",
        "hand-title",
        "hand",
        "main-btn",
        "scoreboard",
        "game-code",
        "copy-link-btn",
        "log-panel",
        "move-log",
        "pace-choice",
        *(f"pace-{pace}" for pace in PACES),
        "raiz",
        "forced-on",
        "sound-btn",
        *(f"felt-{felt}" for felt in FELTS),
        *(f"back-{back}" for back in BACKS),
        # the suit chooser
        "suit-dialog",
        "suit-choices",
        "suit-cancel",
        # the results
        "results-dialog",
        "results-title",
        "results-sub",
        "results-live",
        "results-body",
        "results-skip",
        "next-hand-btn",
        "new-game-btn",
        "replay-btn",
        "results-record",
        "see-partidas-btn",
        "final-btn",
        # the end of a game
        "gameover-dialog",
        "gameover-title",
        "gameover-sub",
        "gameover-body",
        "gameover-replay-btn",
        "gameover-challenge-btn",
        # «Ver la mano»
        "replay-dialog",
        "replay-title",
        "replay-step",
        "replay-table",
        "replay-first",
        "replay-prev",
        "replay-next",
        "replay-last",
        "replay-close",
        "hint-btn",
        "review",
        "review-title",
        "review-summary",
        "review-jump",
        "review-progress",
        "review-list",
        # «Partida del día», «Tus partidas», challenges
        "daily-btn",
        "daily-note",
        "challenge-banner",
        "partidas",
        "partidas-body",
        "partidas-status",
        "export-btn",
        "import-btn",
        "import-file",
        "import-progress",
        "import-progress-box",
        "import-progress-label",
        "challenge-box",
        "challenge-name",
        "challenge-btn",
        "challenge-status",
        "challenge-url",
        # the replace question
        "replace-dialog",
        "replace-title",
        "replace-sub",
        "replace-yes",
        "replace-no",
    }
)

# Ids that ui/render.py gives elements it draws (``card-10H``: a card of the person's hand).
RENDERED_PREFIXES = ("card-", "review-go-")


def is_page_id(el_id: str) -> bool:
    """Whether ``el_id`` is an element of the page: one of :data:`PAGE_IDS` or one ui/render.py draws."""
    return el_id in PAGE_IDS or el_id.startswith(RENDERED_PREFIXES)


__all__ = ["PAGE_IDS", "RENDERED_PREFIXES", "is_page_id"]
