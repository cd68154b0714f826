"""The table drawn on the :class:`ui.screen.Screen`: the cards, the scoreboard and the setup bar.

What to draw comes from a :class:`engine.SeatView` and :mod:`ui.render`'s
pure functions; :class:`ui.table.Table` decides when.
"""

from __future__ import annotations

from engine.cards import SUIT_LETTERS, Card
from engine.game import GAME_OVER, PLAYING, TARGET, Game
from engine.levels import NAMES as LEVEL_NAMES
from engine.view import seat_view

from . import render
from .prefs import BACKS, FELTS, Setup
from .screen import Screen

HUMAN = 0


def draw(s: Screen, game: Game, *, arriving: Card | None = None, counting: bool = False) -> None:
    """The person's seat at ``game``; while ``counting``, the scoreboard keeps the totals before the hand."""
    view = seat_view(game, HUMAN)
    s.html("opponents", render.opponents_html(view))
    s.html("discard", render.discard_html(view))
    s.html("active-suit", render.active_suit_html(view))
    s.attr("active-suit", "data-suit", SUIT_LETTERS[view.active_suit])
    s.text("stock-count", render.stock_count(view))
    s.html("hand", render.hand_html(view, arriving=arriving))
    s.attr("hand", "style", f"--n: {len(view.hand)}")
    s.text("hand-title", render.hand_title(view))
    s.attr("my-hand", "data-turn", "1" if view.my_turn else None)
    label, name, enabled = render.main_button(view)
    s.text("main-btn", label)
    s.attr("main-btn", "aria-label", name if name != label else None)
    s.attr("main-btn", "disabled", None if enabled else "")
    action = "pass" if view.can_pass else ("draw" if view.my_turn else "wait")
    s.attr("main-btn", "data-action", action)
    s.attr("stock", "disabled", None if (enabled and label != "Pasar") else "")
    s.attr("stock", "aria-label", render.stock_name(view))
    totals = view.totals
    result = view.result
    if result is not None and game.phase != PLAYING and counting:
        totals = tuple(t - p for t, p in zip(result.totals, result.penalties, strict=True))
    s.html("scoreboard", render.scoreboard_html(totals, view.leader, started=bool(view.history)))
    s.html("move-log", render.move_log_html(view))
    s.text("game-code", game.code.pretty())
    s.attr("copy-link-btn", "disabled", None)


def clear(s: Screen) -> None:
    """No game on the table: an empty seat, waiting for a deal."""
    s.html("opponents", "")
    s.html("discard", '<span class="card slot" aria-hidden="true"></span>')
    s.text("active-suit", "Manda: —")
    s.attr("active-suit", "data-suit", None)
    s.text("stock-count", "—")
    s.attr("stock", "disabled", "")
    s.attr("stock", "aria-label", None)
    s.html("hand", "")
    s.text("hand-title", "Tu mano")
    s.attr("my-hand", "data-turn", None)
    s.text("main-btn", "Robar")
    s.attr("main-btn", "aria-label", None)
    s.attr("main-btn", "disabled", "")
    no_points = f"Todavía no hay puntos. Se acaba al llegar alguien a {TARGET}."
    s.html("scoreboard", f'<p class="muted">{no_points}</p>')
    s.html("move-log", '<li class="log-empty">Todavía no ha jugado nadie en esta mano.</li>')
    s.text("game-code", "—")
    s.attr("copy-link-btn", "disabled", "")


def draw_looks(s: Screen, setup: Setup) -> None:
    """The table's own choices: felt and card back (on the page's root), sound, forced moves."""
    s.attr("raiz", "data-felt", None if setup.felt == "verde" else setup.felt)
    s.attr("raiz", "data-back", None if setup.back == "rombos" else setup.back)
    for felt in FELTS:
        s.attr(f"felt-{felt}", "checked", "" if felt == setup.felt else None)
    for back in BACKS:
        s.attr(f"back-{back}", "checked", "" if back == setup.back else None)
    s.attr("forced-on", "checked", "" if setup.forced else None)
    s.attr("sound-btn", "aria-pressed", "true" if setup.sound else "false")


def draw_setup(s: Screen, game: Game | None, level: str, setup: Setup) -> None:
    """The setup bar: the next game's ``setup`` between games; during one, which table it is (``level``)."""
    playing = game is not None and game.phase != GAME_OVER
    # Between games the radios show the next game's choice, never the last game's size.
    players = game.players if game is not None and playing else setup.players
    s.attr("mode-2", "checked", "" if players == 2 else None)
    s.attr("mode-3", "checked", "" if players == 3 else None)
    s.attr("mode-choice", "disabled", "" if playing else None)
    checked = level if playing else setup.level
    for name in LEVEL_NAMES:
        s.attr(f"level-{name}", "checked", "" if name == checked else None)
    s.attr("level-choice", "disabled", "" if playing else None)
    draw_looks(s, setup)
    s.attr("setup", "data-playing", "1" if playing else None)
    s.text("table-now", render.table_now(players, level) if playing else "")
    s.text("deal-btn", "Otra partida" if playing else "Repartir")
    s.attr("deal-btn", "class", "btn btn-secondary" if playing else "btn btn-primary")
