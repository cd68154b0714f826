"""Which of the table's sounds an event makes (:data:`ui.screen.SoundName`; assets/sound.js plays it).

A deal, a draw, a card, an 8 naming a suit, a reshuffle; «te toca» after the CPUs' turns; a hand or
a game won or lost, for you. The table sends the name only while «Sonido» is on.
"""

from __future__ import annotations

from engine.actions import DRAW, PASS, Action
from engine.game import GAME_OVER, Game

from .screen import SoundName

HUMAN = 0


def move_sound(action: Action, reshuffled: bool) -> SoundName | None:
    """The sound of a move (a reshuffle first: the stock was made again for this draw); a pass has none.

    >>> move_sound(DRAW, False), move_sound(DRAW, True), move_sound(PASS, False)
    ('draw', 'shuffle', None)
    """
    if reshuffled:
        return "shuffle"
    if action == DRAW:
        return "draw"
    if action.suit is not None:
        return "eight"
    return None if action == PASS else "play"


def end_sound(game: Game) -> SoundName | None:
    """The end of a hand, or of the game: won or lost, for you (None before any end)."""
    result = game.result
    if result is None:
        return None
    if game.phase == GAME_OVER:
        return "game-won" if HUMAN in result.winners else "game-lost"
    return "hand-won" if result.winner == HUMAN else "hand-lost"
