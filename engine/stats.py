"""Statistics of the person's games (seat 0), derived from the games' records.

Every figure comes from replaying records (:func:`outcome`), never from a
counter kept on the side, so the whole table can be recomputed at any time.
A game is either **finished** (someone reached 100) or **abandoned** (a new
game was dealt over it). Definitions:

- played: every game; won: finished games whose lowest total includes you,
  a shared win (a tie at the bottom) counts as won and is also counted as
  shared; abandoned games are played and not won;
- win %: won / played;
- streaks: consecutive won games (shared wins included) in the order they
  were played; a lost or an abandoned game ends the current streak;
- best total: the lowest final total of a finished game;
- average per hand: your penalty points over every finished hand, abandoned
  games included (a hand cut short does not count).

>>> from engine.game import Game
>>> tally = Tally()
>>> tally.add(outcome(Record.of(Game.new("A2K7QM92"))))
>>> tally.played, tally.won, tally.abandoned
(1, 0, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace

from .codes import TABLE_SIZES
from .game import GAME_OVER, HAND_OVER
from .record import Record, RecordError

ME = 0


@dataclass(frozen=True)
class Outcome:
    """What one game gives the statistics, read from its replay.

    ``penalties`` holds seat 0's penalty for each finished hand, in order
    (for hand-by-hand comparisons). ``totals`` are the final totals (the running ones for an
    abandoned game) and ``winners`` is empty unless the game finished.
    """

    players: int
    finished: bool
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    penalties: tuple[int, ...]

    @property
    def won(self) -> bool:
        return ME in self.winners

    @property
    def shared(self) -> bool:
        return self.won and len(self.winners) > 1

    @property
    def total(self) -> int:
        return self.totals[ME]

    @property
    def result(self) -> str:
        """``ganada``, ``compartida``, ``perdida`` or ``abandonada``."""
        if not self.finished:
            return "abandonada"
        if self.shared:
            return "compartida"
        return "ganada" if self.won else "perdida"


def outcome(record: Record) -> Outcome:
    """Replay ``record`` and read its outcome; :class:`RecordError` if it does not replay.

    A record that starts part-way (an old save with unverified totals) is
    refused: it must never count.
    """
    if not record.verified:
        raise RecordError("La partida viene de una versión anterior y sus puntos no se pueden comprobar.")
    penalties: list[int] = []
    game = record.first_game()
    for state in record.games(game):
        result = state.result
        # The result of the hand just finished; it stays until the next hand ends.
        if state.phase in (HAND_OVER, GAME_OVER) and result is not None and result.hand == len(penalties):
            penalties.append(result.penalties[ME])
    finished = game.phase == GAME_OVER
    return Outcome(
        players=game.players,
        finished=finished,
        totals=tuple(game.totals),
        winners=tuple(game.winners) if finished else (),
        penalties=tuple(penalties),
    )


@dataclass
class Tally:
    """Running statistics over games added in the order they were played."""

    played: int = 0
    won: int = 0
    shared: int = 0
    abandoned: int = 0
    streak: int = 0
    best_streak: int = 0
    best_total: int | None = None
    hands: int = 0
    penalty: int = 0

    def add(self, game: Outcome) -> None:
        self.played += 1
        self.hands += len(game.penalties)
        self.penalty += sum(game.penalties)
        if not game.finished:
            self.abandoned += 1
        if game.finished and (self.best_total is None or game.total < self.best_total):
            self.best_total = game.total
        if game.won:
            self.won += 1
            self.shared += game.shared
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0

    @property
    def win_rate(self) -> float | None:
        """Won / played, or None before any game."""
        return self.won / self.played if self.played else None

    @property
    def average(self) -> float | None:
        """Your penalty points per finished hand, or None before any."""
        return self.penalty / self.hands if self.hands else None

    def copy(self) -> Tally:
        return replace(self)

    def to_json(self) -> dict[str, int | None]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


TABLES = TABLE_SIZES


@dataclass
class Stats:
    """Tallies per table size (2, 3) and overall."""

    by_table: dict[int, Tally] = field(default_factory=lambda: {n: Tally() for n in TABLES})
    overall: Tally = field(default_factory=Tally)

    def add(self, game: Outcome) -> None:
        self.by_table[game.players].add(game)
        self.overall.add(game)


def compute(games: Iterable[Outcome]) -> Stats:
    """Statistics of ``games``, oldest first (nothing else: no summary is ever carried in)."""
    stats = Stats()
    for game in games:
        stats.add(game)
    return stats


__all__ = ["Outcome", "Stats", "Tally", "compute", "outcome"]
