"""«Repaso»: the hard CPU's search reviews every decision of the person's seat, from the record alone.

For each position of a record where seat 0 (the person) had more than one
legal action, the review asks what the hard CPU's search makes of it from
that seat's view alone (:func:`~engine.view.seat_view`: its own hand, the
face-up pile, the public moves; never the hidden hands). It weighs the
search's candidates (:func:`~engine.bots.candidates`) and the move actually
played, if that is not one of them (say, a draw while a card fitted), in the
same sampled worlds, each world played out to the end of the hand with the
cpu's rules in every seat. A world is worth, to the seat, its lead in
penalty points over the average opponent at the end of the hand, so every
figure of the review is in points at both table sizes.

The verdict compares the move played with the best one:

- «Bien»: the move played is the best (or alike: another 8 naming the same suit);
- «Igual de buena»: another move came out ahead, but by no more than the
  search's own noise at these settings (:attr:`ReviewSettings.threshold`);
- «Mejor: robar (ahorras unos 6 puntos de media)»: the best move beat it by
  more than that.

How the threshold was measured is in ``docs/review.md``. Every figure is
deterministic: the worlds come from a generator seeded by the position
(:func:`~engine.bots.decision_rng` with the name ``review``), the playouts
are counted, never timed, so CPython and Pyodide give the same review. The
settings are versioned (:data:`VERSIONS`), like the CPU levels, and a
review names the version that made it.

The work is a fixed sequence of small steps (:meth:`Reviewer.steps`, a few
playouts each), so a page can run it in slices.

>>> review = review_record("r2.A2K7QM92.n1.RxA")
>>> [(d.played.text, d.verdict) for d in review.decisions]
[('10D', 'Bien')]
>>> review.summary()
'Ninguna decisión mejorable: jugaste como la CPU difícil.'
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from .actions import Action
from .advice import action_phrase, done_phrase, even_why, points_phrase, with_why
from .bots import (
    candidates,
    same_move,
)
from .judge import (
    CURRENT,
    HUMAN,
    PLAYOUTS_PER_STEP,
    Because,
    Choice,
    ReviewSettings,
    Weighing,
    settings,
)
from .record import ACTION_OF, NUMBER_OF, Record
from .view import SeatView, seat_view

BIEN = "Bien"
IGUAL = "Igual de buena"
EVEN = "las dos salen casi igual"


# -- one decision -------------------------------------------------------------------------


def measured(measure: tuple[int, int, int], players: int) -> tuple[float, float]:
    """The second sample's (worlds, sum, sum of squares) as a mean margin and its standard error (points)."""
    n, total, squares = measure
    mean = total / n / (players - 1) if n else 0.0
    if n < 2:
        return (mean, 0.0)
    variance = max(squares - total * total / n, 0) / (n - 1)
    return (mean, math.sqrt(variance / n) / (players - 1))


@dataclass(frozen=True)
class Decision:
    """One decision of the person and the search's judgment of it.

    ``index`` is the move's number in the record (0-based), ``hand_no`` its
    hand; ``moves`` the moves weighed, ``totals`` each one's summed worth over
    ``worlds`` worlds (in points of lead over the average opponent, times
    ``players - 1``). A decision with a single move worth weighing has
    ``worlds`` 0 and no totals.

    Version 1 weighed the move played among the others and stated the margin
    from the same totals. From version 2, ``moves`` are the search's
    candidates only (the choice «Pista» makes), and when the move played is
    not the choice, ``measure`` holds the second sample: its worlds, the sum
    of (choice - played) a world, and the sum of its squares; ``reason`` says why.
    """

    index: int
    hand_no: int
    players: int
    moves: tuple[Action, ...]
    totals: tuple[int, ...]
    worlds: int
    played: Action
    settings: ReviewSettings
    measure: tuple[int, int, int] = (0, 0, 0)
    reason: str = ""

    @property
    def threshold(self) -> float:
        return self.settings.threshold

    def value(self, move: int) -> float:
        """Move ``move``'s mean worth, in points of lead over the average opponent."""
        if not self.worlds:
            return 0.0
        return self.totals[move] / self.worlds / (self.players - 1)

    @property
    def played_at(self) -> int | None:
        """Where the move played is among ``moves`` (None: not weighed by the choice, version 2 on)."""
        found = same_move(self.played, list(self.moves))
        return None if found is None else self.moves.index(found)

    @property
    def best_at(self) -> int:
        """The move with the best total (the first in order on a tie); the played one if it ties it."""
        played = self.played_at
        if not self.worlds:
            return 0 if played is None or self.settings.measures else played
        top = max(self.totals)
        if played is not None and self.totals[played] == top:
            return played
        return self.totals.index(top)

    @property
    def best(self) -> Action:
        return self.moves[self.best_at]

    @property
    def followed(self) -> bool:
        """The move played is the search's choice (or alike)."""
        return self.best_at == self.played_at

    @property
    def raw_margin(self) -> float:
        """The margin as measured: version 1 from the choosing totals, later from the second sample."""
        if self.followed:
            return 0.0
        if not self.settings.measures:
            played = self.played_at
            assert played is not None
            return self.value(self.best_at) - self.value(played)
        return measured(self.measure, self.players)[0]

    @property
    def standard_error(self) -> float:
        """The second sample's standard error of the margin, in points (0 without one)."""
        return measured(self.measure, self.players)[1]

    @property
    def margin(self) -> float:
        """How many points a decision the best move is worth more than the one played, as stated.

        0 when it is it; from version 2, the second sample's margin shrunk by
        its noise (:meth:`ReviewSettings.stated`).
        """
        if self.followed:
            return 0.0
        if not self.settings.measures:
            return self.raw_margin
        return self.settings.stated(self.raw_margin, self.standard_error, self.played, self.best)

    @property
    def mistake(self) -> bool:
        return self.margin > self.threshold

    @property
    def verdict(self) -> str:
        """«Bien», «Igual de buena» or «Mejor: robar (ahorras unos 6 puntos de media)».

        From version 3, «Igual de buena» says that both are about as good, and why when the moves
        show a plain why («Igual de buena: las dos salen casi igual, porque las dos son un 7»).
        """
        if self.followed:
            return BIEN
        if not self.mistake:
            if not self.settings.checks:
                return IGUAL
            even = even_why(self.best, self.played)
            return f"{IGUAL}: {EVEN}, porque {even}" if even else f"{IGUAL}: {EVEN}"
        return f"Mejor: {action_phrase(self.best)} (ahorras {points_phrase(self.margin)} de media)"

    def cpu_words(self) -> str:
        """What the hard CPU would have done, with its reason: «jugar el 9 de picas, porque guardas el 8».

        Version 3 words the reason in prose after the move (:func:`~engine.advice.tail`); earlier
        versions in brackets.
        """
        if self.settings.checks:
            return action_phrase(self.cpu_move) + self.reason
        return with_why(action_phrase(self.cpu_move), self.reason)

    @property
    def cpu_move(self) -> Action:
        """What the hard CPU would have done: the move played, as played, when it is the best."""
        return self.played if self.followed else self.best

    def text(self) -> str:
        """The whole item, as a sentence a screen reader can say."""
        return f"{done_phrase(self.played)}. La CPU difícil: {self.cpu_words()}. {self.verdict}."

    def pack(self) -> list[int]:
        """Plain numbers for storage: index, hand, played, worlds, [the second sample's three numbers,
        version 2 on], then (move, total) pairs."""
        out = [self.index, self.hand_no, NUMBER_OF[self.played], self.worlds]
        if self.settings.measures:
            out += list(self.measure)
        for move, total in zip(self.moves, self.totals or (0,) * len(self.moves), strict=True):
            out += [NUMBER_OF[move], total]
        return out


@dataclass(frozen=True)
class Review:
    """The review of a stretch of a record: its decisions in order and the settings that made them."""

    record: str
    version: int
    first: int
    last: int
    decisions: tuple[Decision, ...]

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.mistake)

    def summary(self) -> str:
        """«2 decisiones mejorables; te habrían ahorrado unos 9 puntos de media» (or none, or no choice).

        It never says you played as the hard CPU when an item below names another move.
        """
        if not self.decisions:
            return "No tuviste que elegir nada: cada jugada tuya era la única posible."
        wrong = self.mistakes
        if not wrong:
            other = sum(1 for d in self.decisions if not d.followed)
            if not other:
                return "Ninguna decisión mejorable: jugaste como la CPU difícil."
            where = "en 1 decisión" if other == 1 else f"en {other} decisiones"
            said = f"{where} la CPU difícil habría hecho otra cosa, igual de buena"
            return f"Ninguna decisión mejorable: {said}."
        saved = points_phrase(sum(d.margin for d in wrong))
        if len(wrong) == 1:
            return f"1 decisión mejorable; te habría ahorrado {saved} de media."
        return f"{len(wrong)} decisiones mejorables; te habrían ahorrado {saved} de media."

    def lines(self) -> list[str]:
        """The summary, then one numbered line per decision (what the CLI prints)."""
        out = [self.summary()]
        for n, d in enumerate(self.decisions, 1):
            out.append(f"{n}. Mano {d.hand_no + 1}, jugada {d.index + 1}: {d.text()}")
        return out

    def to_json(self) -> dict[str, object]:
        """A plain form for storage (:meth:`from_json` reads it back)."""
        out: dict[str, object] = {
            "v": self.version,
            "record": self.record,
            "first": self.first,
            "last": self.last,
            "decisions": [d.pack() for d in self.decisions],
        }
        if self.version >= 2:
            out["why"] = [d.reason for d in self.decisions]
        return out

    @classmethod
    def from_json(cls, data: object) -> Review:
        """A stored review; ValueError (or KeyError for an unknown version) for anything else."""
        if not isinstance(data, dict):
            raise ValueError("a stored review is an object")
        version, record, first, last = data.get("v"), data.get("record"), data.get("first"), data.get("last")
        if not (type(version) is int and isinstance(record, str)):
            raise ValueError("a stored review names its version and record")
        if not (type(first) is int and type(last) is int):
            raise ValueError("a stored review names its moves")
        players = Record.parse(record).code.players
        setting = settings(version, players)
        head = 7 if setting.measures else 4
        rows = data.get("decisions")
        if not isinstance(rows, list):
            raise ValueError("a stored review lists its decisions")
        reasons = data.get("why", [""] * len(rows))
        if not (isinstance(reasons, list) and len(reasons) == len(rows)):
            raise ValueError("a stored review gives a reason for each decision")
        if not all(isinstance(r, str) and len(r) < 120 for r in reasons):
            raise ValueError("a stored reason is a short text")
        out: list[Decision] = []
        for row, reason in zip(rows, reasons, strict=True):
            if not (isinstance(row, list) and len(row) >= head + 2 and (len(row) - head) % 2 == 0):
                raise ValueError("a stored decision is a list of numbers")
            if not all(type(n) is int for n in row):
                raise ValueError("a stored decision is a list of numbers")
            index, hand_no, played, worlds = row[:4]
            # (the second sample's sum may be negative: the move played may do better there)
            numbers = [index, hand_no, played, worlds, *row[4:head:2], *row[head::2]]
            if min(numbers) < 0:
                raise ValueError("a stored decision is a list of numbers")
            if max([played, *row[head::2]]) >= len(ACTION_OF):
                raise ValueError("a stored decision names a move that does not exist")
            moves = tuple(ACTION_OF[n] for n in row[head::2])
            totals = tuple(row[head + 1 :: 2]) if worlds else ()
            measure = (row[4], row[5], row[6]) if setting.measures else (0, 0, 0)
            if not setting.measures and same_move(ACTION_OF[played], list(moves)) is None:
                raise ValueError("a stored decision does not weigh the move played")
            out.append(
                Decision(
                    index,
                    hand_no,
                    players,
                    moves,
                    totals,
                    worlds,
                    ACTION_OF[played],
                    setting,
                    measure,
                    reason,
                )
            )
        return cls(record, version, first, last, tuple(out))


# -- the review ---------------------------------------------------------------------------


def weighed(view: SeatView, played: Action) -> list[Action]:
    """Version 1's moves to weigh: the search's candidates, and the move played if none is alike."""
    moves = candidates(view)
    if same_move(played, moves) is None:
        moves.append(played)
    return moves


class Reviewer:
    """The review of moves ``first``..``last - 1`` of a record, run in steps (:meth:`steps`).

    ``result`` is None until the last step has run.
    """

    def __init__(self, record: Record, first: int = 0, last: int | None = None, version: int = 0) -> None:
        self.record = record
        self.first = first
        self.last = len(record.moves) if last is None else last
        self.version = version or CURRENT
        self.settings = settings(self.version, record.code.players)
        self.result: Review | None = None

    def _positions(self) -> Iterator[tuple[int, SeatView]]:
        """Each decision of the person's seat in range, as (move index, view); the caller does not play."""
        record = self.record
        for index, game in record.positions():
            if index >= self.last:
                break
            if index >= self.first and game.turn == HUMAN and len(game.legal_actions()) > 1:
                yield index, seat_view(game, HUMAN)
            record.play(game, index)

    def steps(self) -> Iterator[float]:
        """Run the review, yielding the fraction done (0..1) after each small step; 1.0 comes last.

        Raises :class:`~engine.record.RecordError` if the record does not replay.
        """
        found = list(self._positions())
        yield 0.0
        out: list[Decision] = []
        total = max(len(found), 1)
        judge = self._judge_v1 if not self.settings.measures else self._judge
        for n, (index, view) in enumerate(found):
            made: list[Decision] = []
            for part in judge(index, view, made):
                yield min((n + part) / total, 0.999)
            out.append(made[0])
            yield min((n + 1) / total, 0.999)
        self.result = Review(str(self.record), self.version, self.first, self.last, tuple(out))
        yield 1.0

    def _judge_v1(self, index: int, view: SeatView, out: list[Decision]) -> Iterator[float]:
        """Version 1: the move played weighed among the candidates, the margin from the same worlds."""
        players = self.record.code.players
        played = self.record.moves[index]
        moves = weighed(view, played)
        worlds = 0
        totals: tuple[int, ...] = ()
        last_card_wins = len(view.hand) == 1 and played.card is not None
        if len(moves) > 1 and not last_card_wins:
            weighing = Weighing(view, moves, self.settings.params(players))
            while not weighing.step(PLAYOUTS_PER_STEP):
                yield weighing.done / max(weighing.playouts, 1)
            worlds, totals = weighing.worlds, tuple(weighing.totals)
        out.append(
            Decision(index, view.hand_no, players, tuple(moves), totals, worlds, played, self.settings)
        )

    def _judge(self, index: int, view: SeatView, out: list[Decision]) -> Iterator[float]:
        yield from judging(view, self.record.moves[index], self.version, index, out)

    def run(self) -> Review:
        for _ in self.steps():
            pass
        assert self.result is not None
        return self.result


def judging(view: SeatView, played: Action, version: int, index: int, out: list[Decision]) -> Iterator[float]:
    """Version 2 on: judge ``played`` from ``view``, yielding the fraction done; the decision goes to ``out``.

    The choice is made as «Pista» makes it (:class:`Choice`); if you did
    otherwise, the two moves are played in other worlds (``review-margin``)
    for the margin, which is then shrunk by its noise.
    """
    s = settings(version, view.players)
    choice = Choice(view, version, explain=False)
    while not choice.step(PLAYOUTS_PER_STEP):
        yield 0.5 * choice.done / max(choice.playouts, 1)
    best = choice.best
    measure = (0, 0, 0)
    followed = _followed(choice, played)
    if s.checks and followed:  # the reason against the runner-up, as «Pista» checks it
        because = choice.checking(choice.runner_up)
        while not because.step(PLAYOUTS_PER_STEP):
            yield 0.5
        reason = because.words()
    elif not s.checks:
        reason = choice.reason()
    if not followed:
        params = s.sample_params(view.players, s.measure_worlds, s.measure_actions)
        weighing = Weighing(view, [best, played], params, "review-margin")
        while not weighing.step(PLAYOUTS_PER_STEP):
            yield 0.5 + 0.5 * weighing.done / max(weighing.playouts, 1)
        measure = (weighing.worlds, weighing.diff_sum, weighing.diff_squares)
        if s.checks:
            # The margin's own sample backs the reason (or not); an «Igual de buena» argues no side.
            one_sided = s.stated(*measured(measure, view.players), played, best) > s.threshold
            reason = Because(view, best, played, s, weighing).words(one_sided)
        else:
            reason = choice.reason(played, weighing.seen(0, 1))
    out.append(
        Decision(
            index,
            view.hand_no,
            view.players,
            tuple(choice.moves),
            choice.totals,
            choice.worlds,
            played,
            s,
            measure,
            reason,
        )
    )


def _followed(choice: Choice, played: Action) -> bool:
    """The move played is the choice, or alike it, or ties it in the choice's totals."""
    found = same_move(played, list(choice.moves))
    if found is None:
        return False
    totals = choice.totals
    if not totals:
        return found is choice.moves[0]
    return totals[choice.moves.index(found)] == max(totals)


def judge(view: SeatView, played: Action, version: int = 0, index: int = 0) -> Decision:
    """:func:`judging` run in one go."""
    out: list[Decision] = []
    for _ in judging(view, played, version or CURRENT, index, out):
        pass
    return out[0]


def review_record(text: str, first: int = 0, last: int | None = None, version: int = 0) -> Review:
    """The whole review of a record's text at once (:class:`~engine.record.RecordError` if it is bad)."""
    return Reviewer(Record.parse(text), first, last, version).run()


__all__ = [
    "BIEN",
    "CURRENT",
    "IGUAL",
    "Decision",
    "Review",
    "Reviewer",
    "judge",
    "judging",
    "measured",
    "review_record",
    "weighed",
]
