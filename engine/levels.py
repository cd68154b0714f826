"""The CPU levels, declared once: name, Spanish label, record letter, bot, and every shipped version.

A record names the level it was played against and the version of that
level's CPU (:mod:`engine.record`), and :mod:`engine.verify` checks every CPU
move of a record against the bot of that level and version. So a version's
settings never change once it has shipped: a change that would alter a
decision (new settings, or new code in :mod:`engine.bots`) ships as the next
version, and the old one stays here, whole, for the records played with it.
The golden records in ``tests/golden/records.json`` pin one whole game per
level and version; they fail when code changes an old version's decisions.

Each version's settings are written out field by field for each table size
(2 and 3 seats): the knobs of the level's bot (:class:`~engine.bots.FacilParams`,
:class:`~engine.bots.CpuParams`, :class:`~engine.bots.DificilParams`), so
that a changed default in :mod:`engine.bots` cannot change an old version.
This module imports nothing from the engine (records read their letters
from it, and the bots depend on the game, which depends on records).

>>> level("dificil").letter, by_letter("n").label, FACIL.current
('d', 'Normal', 1)
>>> [lv.name for lv in LEVELS]
['facil', 'normal', 'dificil']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

# The levels' names, as a type (the page's «Rival» intent, ui.protocol): one per level below.
LevelName = Literal["facil", "normal", "dificil"]

# One version's settings: for each table size, the keyword values of the bot's params.
Settings = Mapping[int, Mapping[str, object]]


def _same_for_both(values: dict[str, object]) -> Settings:
    frozen = MappingProxyType(values)
    return MappingProxyType({2: frozen, 3: frozen})


@dataclass(frozen=True)
class Level:
    """One CPU level of the page: how it is named, written in a record, played and versioned.

    ``bot`` is the :func:`engine.bots.make_bot` name of the bot that plays it
    and ``versions[n - 1]`` the settings of version ``n``; the last one is
    what the page plays today (:attr:`current`).
    """

    name: LevelName
    label: str
    letter: str
    bot: str
    versions: tuple[Settings, ...]

    @property
    def current(self) -> int:
        """The version new games are played with: the last one shipped."""
        return len(self.versions)

    def settings(self, version: int, players: int) -> Mapping[str, object]:
        """Version ``version``'s settings for a table of ``players``; KeyError if there is none."""
        if not 1 <= version <= len(self.versions):
            raise KeyError(f"{self.name} has no version {version}")
        return self.versions[version - 1][players]


FACIL = Level(
    name="facil",
    label="Fácil",
    letter="f",
    bot="facil",
    versions=(
        # Version 1 (the first page with levels): FacilParams as first shipped.
        _same_for_both({"eager_eight": 0.4}),
    ),
)

# CpuParams of Normal's version 1; Difícil's version 1 models this cpu in its playouts too.
_CPU_V1: dict[str, object] = {
    "eight_over_draw": True,
    "danger": 1,
    "w_suit": 1.0,
    "w_points": 0.2,
    "w_rank": 0.0,
    "w_short": 1.0,
    "w_avoid": 1.0,
    "w_avoid_danger": 1.0,
    "decay": 0.5,
}

NORMAL = Level(
    name="normal",
    label="Normal",
    letter="n",
    bot="cpu",
    versions=(
        # Version 1: CpuParams as first shipped.
        _same_for_both(_CPU_V1),
    ),
)

# Version 1 values a playout by the hand (two seats) or the equity table (three), never by a
# research valuation, and models Normal's version-1 cpu (a nested mapping of CpuParams).
_DIFICIL_V1_COMMON: dict[str, object] = {
    "min_worlds": 12,
    "tries": 8,
    "dealer": 1,
    "value": None,
    "cpu": MappingProxyType(_CPU_V1),
}

DIFICIL = Level(
    name="dificil",
    label="Difícil",
    letter="d",
    bot="dificil",
    versions=(
        # Version 1: DIFICIL_PARAMS as first shipped (the equity table at three seats).
        MappingProxyType(
            {
                2: MappingProxyType(
                    {
                        **_DIFICIL_V1_COMMON,
                        "playouts": 300,
                        "margin": 3,
                        "max_actions": 15_000,
                        "deal_cost": 0,
                        "equity": False,
                    }
                ),
                3: MappingProxyType(
                    {
                        **_DIFICIL_V1_COMMON,
                        "playouts": 600,
                        "margin": 100,
                        "max_actions": 25_000,
                        "deal_cost": 8,
                        "equity": True,
                    }
                ),
            }
        ),
    ),
)

LEVELS: tuple[Level, ...] = (FACIL, NORMAL, DIFICIL)
NAMES: tuple[LevelName, ...] = tuple(lv.name for lv in LEVELS)
assert get_args(LevelName) == NAMES, "LevelName names every level, in order"
_BY_NAME: dict[str, Level] = {lv.name: lv for lv in LEVELS}
_BY_LETTER = {lv.letter: lv for lv in LEVELS}
# The level a new player meets, and the one a record or save from before the levels was played at.
DEFAULT_LEVEL: str = NORMAL.name


def is_level(name: str) -> bool:
    """Whether ``name`` is one of the page's CPU levels."""
    return name in _BY_NAME


def level(name: str) -> Level:
    """The level called ``name`` (``facil``, ``normal``, ``dificil``); KeyError otherwise."""
    return _BY_NAME[name]


def by_letter(letter: str) -> Level:
    """The level a record writes as ``letter`` (``f``, ``n``, ``d``); KeyError otherwise."""
    return _BY_LETTER[letter]


__all__ = [
    "DEFAULT_LEVEL",
    "DIFICIL",
    "FACIL",
    "LEVELS",
    "NAMES",
    "NORMAL",
    "Level",
    "Settings",
    "by_letter",
    "is_level",
    "level",
]
