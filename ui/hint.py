"""«Pista»: during your turn, the hard CPU's choice from your seat, once a turn.

The one judge of «Pista» and «Repaso»: the review's choice
(:class:`engine.judge.Choice`, the current review version: the same
settings, the same seed for the same position), run from your seat's view
only, in slices of the screen's timer like a CPU turn. So a move the hint
named is «Bien» in that hand's «Repaso». When it ends, the card it would
play is marked in your hand (``data-hint``: raised, with a «Pista» tag, and
its name says so to a screen reader) and named on the status line with the
reason (:class:`engine.judge.Because`: said only when a sample of its own
backs it), or it says «Roba». Asking marks the
game: its record says hints were asked (:attr:`engine.record.Record.hints`),
and so do «Tus partidas» and a challenge made from it («con pistas»).

A hint of «Roba» covers the turn: after the draw you may ask again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import DRAW, Action
from engine.names import card_name

from . import render
from .host import Host
from .screen import TableState

if TYPE_CHECKING:
    from engine.judge import Choice

HUMAN = 0
# The table's states in which it is your turn (the suit chooser too: a hint searched goes on under it).
YOUR_TURN = (TableState.HUMAN, TableState.CHOOSER)
# Playouts a slice, as the CPU's own turns (ui.cpu.SEARCH_SLICE).
HINT_SLICE = 12
THINKING = "Buscando una pista…"
NOT_YOUR_TURN = "La pista es para tu turno."
ONE_A_TURN = "Ya has pedido la pista de este turno: hay una por turno."


def hint_text(action: Action, reason: str = "") -> str:
    """«Pista: Roba.», «Pista: juega el 7 de corazones, porque te quedan más corazones.»…

    ``reason`` is what follows the move's words (:meth:`engine.judge.Choice.reason`), in prose:
    «: tienes 3» after an 8 naming picas («… y pide picas: tienes 3.»).
    """
    from engine.advice import phrase  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    return f"Pista: {phrase(action, 'imperative')}{reason}."


def hinted_label(action: Action) -> str:
    """The hinted card's name for a screen reader: «7 de corazones, la pista»."""
    assert action.card is not None
    return f"{card_name(action.card)}, la pista"


class Hints:
    """The hint of the turn on the table: asked at most once a turn, searched in slices."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.turn: tuple[int, int, int] | None = None  # (generation, hand, first move) of the turn asked
        self.position = -1  # the moves played when it was asked: a move since makes the answer stale
        self.answer: Action | None = None
        self.reason = ""
        self.search: Choice | None = None

    def _turn(self) -> tuple[int, int, int] | None:
        """Your turn on the table as (generation, hand, its first move), or None; draws stay in the turn."""
        game = self.host.game
        if self.host.state not in YOUR_TURN or game is None:
            return None
        start = len(game.history)
        while start > game.hand_start and game.history[start - 1].seat == HUMAN:
            start -= 1  # your draws so far this turn
        return (self.host.generation, game.hand_no, start)

    def _drew_as_told(self) -> bool:
        """The hint of this turn said «Roba» and you drew since: the next decision gets its own hint."""
        game = self.host.game
        return (
            self.answer is DRAW
            and game is not None
            and self._position() > self.position
            and game.history[self.position].action is DRAW
        )

    def _position(self) -> int:
        game = self.host.game
        return -1 if game is None else len(game.history)

    def ask(self) -> bool:
        """«Pista» pressed: start the search (True), or say why not / the answer again (False)."""
        host, turn = self.host, self._turn()
        if turn is None:
            host.screen.status(NOT_YOUR_TURN)
            return False
        if turn == self.turn and not self._drew_as_told():  # one a turn: the same answer while it holds
            if self.answer is not None and self.position == self._position():
                self._show(self.answer)
            else:
                host.screen.status(ONE_A_TURN)
            return False
        self.turn, self.position, self.answer, self.reason = turn, self._position(), None, ""
        from engine.judge import Choice  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

        self.search = Choice(host.view())
        host.screen.status(THINKING)
        host.screen.later(0, lambda: self._step(turn))
        return True

    def _step(self, turn: tuple[int, int, int]) -> None:
        if self.turn != turn or self._turn() != turn or self.position != self._position() or not self.search:
            return  # you moved, or another game: the hint is of no use any more
        if not self.search.step(HINT_SLICE):
            self.host.screen.later(0, lambda: self._step(turn))
            return
        choice, self.search = self.search, None
        self.answer, self.reason = choice.best, choice.reason()
        self._show(choice.best)

    def _show(self, action: Action) -> None:
        screen = self.host.screen
        if action.card is not None:
            card = render.card_id(action.card)
            screen.attr(card, "data-hint", "1")
            screen.attr(card, "aria-label", hinted_label(action))
        screen.status(hint_text(action, self.reason))
