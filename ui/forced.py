"""Forced moves play themselves: a draw or a pass the rules leave no choice about.

While no card of your hand fits, the only legal action is to draw (rule 7,
up to three a turn), and once the draws are spent, or there is nothing left
to draw, to pass (rule 8). Card apps play those moves for the player; so does
this table, after a short beat at the chosen pace, saying why on the status
line («No tienes carta que valga: robas el 5 de picas.»). It stops as soon as
the player has a choice: a drawn card that fits is one (play it, or draw
again). The moves are the same actions a tap would make, so the record is the
same; a forced move is not a decision, so it asks no hint and adds nothing to
«Repaso». The option «Jugadas forzadas solas» in «Opciones» turns it off
(:attr:`ui.prefs.Setup.forced`).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import DRAW, PASS, Action
from engine.game import MAX_DRAWS, PLAYING, Game

from .host import Host
from .results import PACE_DELAYS

HUMAN = 0
# Why the table moved for the player: said before what the move did.
WHY_DRAW = "No tienes carta que valga"
WHY_PASS_SPENT = f"Ya robaste {MAX_DRAWS}"  # rule 7's bound, from the engine
WHY_PASS_EMPTY = "No queda nada que robar"


def forced_action(game: Game) -> Action | None:
    """The one action the rules leave the player (a draw or a pass), or None when there is a choice."""
    if game.phase != PLAYING or game.turn != HUMAN:
        return None
    legal = game.legal_actions()
    if len(legal) == 1 and legal[0] in (DRAW, PASS):
        return legal[0]
    return None


def why(game: Game, action: Action) -> str:
    """Why ``action`` is forced in ``game``, as the first words of the sentence that says it."""
    if action == DRAW:
        return WHY_DRAW
    return WHY_PASS_SPENT if game.draws >= MAX_DRAWS else WHY_PASS_EMPTY


class Forced:
    """Plays the player's forced draws and passes after a beat, while the option is on."""

    def __init__(self, host: Host, held: Callable[[], bool] = lambda: False) -> None:
        self.host = host
        self.held = held  # forced moves wait for the tap meanwhile («Aprende jugando»'s steps)

    def due(self) -> bool:
        """Whether the position on the table is a forced move that the table will play."""
        host = self.host
        game = host.game
        return (
            game is not None
            and host.setup.forced
            and not self.held()
            and host.chooser is None
            and host.pending is None
            and forced_action(game) is not None
        )

    def follow(self) -> None:
        """After the player's turn is announced: if its move is forced, play it after a beat."""
        if not self.due():
            return
        host = self.host
        generation, moves = host.generation, len(host.game.history) if host.game is not None else 0
        delay = 0 if host.fast else PACE_DELAYS[host.setup.pace][0]
        host.screen.later(delay, lambda: self._step(generation, moves))

    def _step(self, generation: int, moves: int) -> None:
        host = self.host
        game = host.game
        # Anything that happened meanwhile (a move by hand, a new game, another tab) cancels the beat.
        if game is None or generation != host.generation or len(game.history) != moves or not self.due():
            return
        action = forced_action(game)
        assert action is not None
        host.play(action, because=why(game, action))
