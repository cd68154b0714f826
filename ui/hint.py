"""«Pista»: during your turn, the hard CPU's choice from your seat, once a turn.

The same search as the hard level's (:class:`engine.bots.DificilBot`, the
current settings), run from your seat's view only, in slices of the
screen's timer like a CPU turn. When it ends, the card it would play is
raised in your hand (``data-hint``) and named on the status line, or it
says «Roba». Asking marks the game: its record says hints were asked
(:attr:`engine.record.Record.hints`), and so do «Tus partidas» and a
challenge made from it («con pistas»).
"""

from __future__ import annotations

from engine.actions import Action
from engine.bots import DificilBot, Search
from engine.game import PLAYING
from engine.review import phrase

from . import render
from .host import Host

HUMAN = 0
# Playouts a slice, as the CPU's own turns (ui.cpu.SEARCH_SLICE).
HINT_SLICE = 12
THINKING = "Buscando una pista…"
NOT_YOUR_TURN = "La pista es para tu turno."
ONE_A_TURN = "Ya has pedido la pista de este turno: hay una por turno."


def hint_text(action: Action) -> str:
    """«Pista: Roba.», «Pista: juega el 7 de corazones.», «… y pide tréboles.»."""
    return f"Pista: {phrase(action, 'imperative')}."


class Hints:
    """The hint of the turn on the table: asked at most once a turn, searched in slices."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.turn: tuple[int, int, int] | None = None  # (generation, hand, first move) of the turn asked
        self.position = -1  # the moves played when it was asked: a move since makes the answer stale
        self.answer: Action | None = None
        self.search: Search | None = None

    def _turn(self) -> tuple[int, int, int] | None:
        """Your turn on the table as (generation, hand, its first move), or None; draws stay in the turn."""
        game = self.host.game
        if game is None or game.phase != PLAYING or game.turn != HUMAN:
            return None
        start = len(game.history)
        while start > game.hand_start and game.history[start - 1].seat == HUMAN:
            start -= 1  # your draws so far this turn
        return (self.host.generation, game.hand_no, start)

    def _position(self) -> int:
        game = self.host.game
        return -1 if game is None else len(game.history)

    def ask(self) -> bool:
        """«Pista» pressed: start the search (True), or say why not / the answer again (False)."""
        host, turn = self.host, self._turn()
        if turn is None:
            host.screen.status(NOT_YOUR_TURN)
            return False
        if turn == self.turn:  # one a turn: the same answer again while it still holds
            if self.answer is not None and self.position == self._position():
                self._show(self.answer)
            else:
                host.screen.status(ONE_A_TURN)
            return False
        self.turn, self.position, self.answer = turn, self._position(), None
        self.search = DificilBot().start(host.view())
        host.screen.status(THINKING)
        host.screen.later(0, lambda: self._step(turn))
        return True

    def _step(self, turn: tuple[int, int, int]) -> None:
        if self.turn != turn or self._turn() != turn or self.position != self._position() or not self.search:
            return  # you moved, or another game: the hint is of no use any more
        action = self.search.step(HINT_SLICE)
        if action is None:
            self.host.screen.later(0, lambda: self._step(turn))
            return
        self.search = None
        self.answer = action
        self._show(action)

    def _show(self, action: Action) -> None:
        screen = self.host.screen
        if action.card is not None:
            screen.attr(render.card_id(action.card), "data-hint", "1")
        screen.status(hint_text(action))
