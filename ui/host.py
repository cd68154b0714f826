"""What the rooms beside the table see of it, and the one question they may ask through it.

The replace question («¿La cambias por …?») has one pending answer at a
time: a :data:`Pending` value says which game «Sí» would put on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.challenge import Challenge
from engine.codes import GameCode

from .storage import Saved


@dataclass(frozen=True)
class NewTable:
    """«Otra partida» during a game (or over a save that cannot be opened): a new table of ``players``."""

    players: int


@dataclass(frozen=True)
class LinkGame:
    """The game of a link, or the deal of the day: ``code`` from its first hand."""

    code: GameCode


@dataclass(frozen=True)
class ChallengeGame:
    """A challenge checked and accepted: its game, against its level."""

    challenge: Challenge


@dataclass(frozen=True)
class ImportedGame:
    """The game in progress that an imported file brought."""

    saved: Saved


Pending = NewTable | LinkGame | ChallengeGame | ImportedGame
