"""Computer players: ``random`` and ``basic`` (yardsticks) and the page's three levels.

The levels (declared in :mod:`engine.levels`): ``facil`` (follows at random, spends 8s
early), ``cpu`` (level «Normal»: rules of thumb) and ``dificil``
(determinized search with ``cpu`` playouts over worlds dealt to fit the
public moves, runnable in slices).

A bot sees the table only through a :class:`~engine.view.SeatView` and answers
with one legal :class:`~engine.actions.Action` at a time: a draw, then a later
decision once the drawn card is in its hand.

The modules, each one job:

- :mod:`engine.bots.simple`    ``random``, ``basic`` and ``facil``
- :mod:`engine.bots.cpu`       the cpu's rules of thumb (written once) and the hand's history read
- :mod:`engine.bots.playout`   a hand played out on bare lists by those rules, for the search
- :mod:`engine.bots.evidence`  what the table reveals of the hidden cards, and worlds dealt to fit it
- :mod:`engine.bots.search`    ``dificil``: the search and its settings

Measured over 2,000 games each, seed 7, cpu in seat 0: 100% of 2-player
games and 98.3% of 3-player games against ``random``; 85.8% (2 players) and
57.6% (3 players, par 33%) against the stricter ``basic``.

>>> from engine.game import Game
>>> from engine.view import seat_view
>>> game = Game.new("A2K7QM92")
>>> bot = make_bot("cpu")
>>> action = bot.choose(seat_view(game, 0))
>>> action in game.legal_actions()
True
>>> bot.choose(seat_view(game, 0)) is action   # same view, same answer
True
"""

from __future__ import annotations

from .. import levels
from ..codes import stream
from .cpu import (
    CpuBot,
    CpuParams,
    CpuRules,
    HandReader,
    Reading,
    cpu_card,
    cpu_move,
    cpu_play,
    cpu_suit,
    read_history,
    rules_of,
)
from .evidence import RANK_CARDS, SUIT_CARDS, Check, Evidence, read_evidence, sample_world
from .playout import DRAW_MOVE, PASS_MOVE, move_of, playout
from .search import (
    DIFICIL_PARAMS,
    DificilBot,
    DificilParams,
    PlayoutValue,
    Search,
    World,
    candidates,
    playout_worth,
    same_move,
    world_playout,
)
from .simple import BasicBot, Bot, FacilBot, FacilParams, RandomBot, decision_rng

BOT_NAMES = ("random", "basic", "facil", "cpu", "dificil")

# -- choosing a bot by name ---------------------------------------------------------


def make_bot(name: str, seed: object = 0) -> Bot:
    """The bot called ``name`` (one of :data:`BOT_NAMES`).

    ``seed`` fixes the generator of the random and basic bots (any value with
    a stable text form, e.g. ``(7, 12, 1)``); ``cpu``, ``facil`` and
    ``dificil`` ignore it: their choices depend on the view alone (the last
    two draw from :func:`decision_rng`), so a game replays from its record.
    """
    if name == "random":
        return RandomBot(stream("bot", name, seed))
    if name == "basic":
        return BasicBot(stream("bot", name, seed))
    if name == "cpu":
        return CpuBot()
    if name == "facil":
        return FacilBot()
    if name == "dificil":
        return DificilBot()
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")


def make_level_bot(level: str) -> Bot:
    """The opponent for a CPU level of the page (:mod:`engine.levels`: ``facil``, ``normal``, ``dificil``)."""
    if not levels.is_level(level):
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(levels.NAMES)}")
    return make_bot(levels.level(level).bot)


__all__ = [
    "BOT_NAMES",
    "DIFICIL_PARAMS",
    "DRAW_MOVE",
    "PASS_MOVE",
    "RANK_CARDS",
    "SUIT_CARDS",
    "BasicBot",
    "Bot",
    "Check",
    "CpuBot",
    "CpuParams",
    "CpuRules",
    "DificilBot",
    "DificilParams",
    "Evidence",
    "FacilBot",
    "FacilParams",
    "HandReader",
    "PlayoutValue",
    "RandomBot",
    "Reading",
    "Search",
    "World",
    "candidates",
    "cpu_card",
    "cpu_move",
    "cpu_play",
    "cpu_suit",
    "decision_rng",
    "make_bot",
    "make_level_bot",
    "move_of",
    "playout",
    "playout_worth",
    "read_evidence",
    "read_history",
    "rules_of",
    "same_move",
    "sample_world",
    "world_playout",
]
