"""What the rooms beside the table see of it (:class:`Host`), and the one question they ask through it.

The rooms (:mod:`ui.arrivals`, :mod:`ui.challenges`, :mod:`ui.daily`,
:mod:`ui.lesson`, :mod:`ui.results`, :mod:`ui.saves`, :mod:`ui.setup_bar`, :mod:`ui.transfer`)
are parts the :class:`ui.table.Table` holds; they see it through
:class:`Host`, so none imports :mod:`ui.table`. The replace question
(«¿La cambias por …?») has one pending answer at a time: a :data:`Pending`
value says which game «Sí» would put on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.actions import Action
from engine.cards import Card
from engine.challenge import Challenge
from engine.codes import GameCode
from engine.game import Game
from engine.view import SeatView

from .history import History
from .prefs import Setup
from .screen import Screen, TableState
from .storage import Saved, Store


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


@dataclass(frozen=True)
class Forget:
    """«Borrar» in «Tus partidas»: the game kept under ``key``, or (``key`` None) every unreadable line."""

    key: str | None


Pending = NewTable | LinkGame | ChallengeGame | ImportedGame | Forget


class Host(Protocol):
    """The table as its rooms see it: the game on it, the page, the store, and the moves of its flow."""

    screen: Screen
    store: Store
    history: History
    game: Game | None
    chooser: Card | None  # an 8 waiting for its suit
    pending: Pending | None  # what «Sí» in the replace question would put on the table
    level: str  # the game's own level (its record's)
    hints: tuple[int, ...]  # where a hint («Pista») was asked: moves played before each (its record says)
    state: TableState  # what the table waits for (set by its enter() only): the guards read it
    generation: int  # moves on with every new game, hand or question, so stale timers do nothing
    page_url: str
    fast: bool
    ending: str  # how the hand ended, said again inside the results panel
    today: Callable[[], str]

    @property
    def setup(self) -> Setup: ...
    def view(self) -> SeatView: ...
    def new_game(
        self,
        players: int | None = None,
        code: GameCode | None = None,
        level: str | None = None,
        *,
        origin: str = "",
        lesson: Game | None = None,
    ) -> None: ...
    def resume(self) -> None: ...
    def leave_game(self) -> None: ...
    def play(self, action: Action, *, because: str = "") -> None:
        """The person's ``action`` (``because``: why the table played it for them, said first)."""

    def show_setup(self) -> None: ...
    def carry_on(self) -> None:
        """Go on with the game on the table after a question or a check (its CPU turn restarts once)."""

    def ask_replace(self, title: str, yes: str, sub: str, pending: Pending) -> None: ...
    def adopt(self, saved: Saved) -> None: ...
    def follow(self, saved: Saved, notice: str | None) -> None:
        """Put the game another tab saved on the table, say ``notice``, and go on from there."""

    def show_aside(self) -> None: ...
    def enter(self, state: TableState) -> None:
        """Hold ``state`` as what the table waits for, and show it."""
