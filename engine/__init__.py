"""Ocho Loco rules engine: pure Python, standard library only.

Runs unchanged on CPython 3.11+ and on Pyodide. The house rules are written
out at the top of :mod:`engine.game`; where each one lives:

- :mod:`engine.cards`   cards, suits, penalty points (rule 1, rule 11)
- :mod:`engine.codes`   game codes and the seeded shuffles (deals, rule 9)
- :mod:`engine.actions` play / draw / pass values and their text forms
- :mod:`engine.game`    the table: legality, turns, draws, scoring (rules 2-12)
- :mod:`engine.record`  a game as its code and every move, replayed through the rules
- :mod:`engine.view`    what one seat may see (for the page and the bots)
- :mod:`engine.save`    version-1 position snapshots (old saves, test positions)
- :mod:`engine.names`   Spanish names of cards and suits
- :mod:`engine.bots`    the players: ``random``, ``basic``, ``facil``, ``cpu``, ``dificil``
- :mod:`lab.simulate` / :mod:`lab.replay` / :mod:`lab.match` / :mod:`lab.engine_bench`  tools
"""

from .actions import DRAW, PASS, Action
from .cards import CARDS, SUITS, Card, Suit, penalty
from .codes import CodeError, GameCode
from .game import GAME_OVER, HAND_OVER, PLAYING, Game, HandResult, IllegalAction, Move, Phase
from .record import Record, RecordError
from .save import SaveError
from .view import SeatView

__all__ = [
    "CARDS",
    "DRAW",
    "GAME_OVER",
    "HAND_OVER",
    "PASS",
    "PLAYING",
    "SUITS",
    "Action",
    "Card",
    "CodeError",
    "Game",
    "GameCode",
    "HandResult",
    "IllegalAction",
    "Move",
    "Phase",
    "Record",
    "RecordError",
    "SaveError",
    "SeatView",
    "Suit",
    "penalty",
]
