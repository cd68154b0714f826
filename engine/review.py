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

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .actions import DRAW, PASS, Action
from .bots import (
    DificilBot,
    DificilParams,
    World,
    candidates,
    decision_rng,
    playout_worth,
    read_evidence,
    read_history,
    same_move,
    sample_world,
    world_playout,
)
from .names import SUIT_PLURAL, card_name
from .record import ACTION_OF, NUMBER_OF, Record
from .verify import level_bot
from .view import SeatView, seat_view

HUMAN = 0
# Playouts per step: a few milliseconds in the page, as a Difícil search's slice.
PLAYOUTS_PER_STEP = 12

BIEN = "Bien"
IGUAL = "Igual de buena"


@dataclass(frozen=True)
class ReviewSettings:
    """One version of the review's search at one table size.

    The search is the hard CPU's of ``base`` (level ``dificil`` at that
    version: its evidence, sampler and the cpu its playouts model) with
    ``playouts``, ``max_actions`` and ``deal_cost`` of its own; ``threshold``
    is the margin, in points, that a better move must beat to call the move
    played a mistake (the search's noise at these settings, ``docs/review.md``).
    """

    base: int
    playouts: int
    max_actions: int
    deal_cost: int
    threshold: float

    def params(self, players: int) -> DificilParams:
        bot = level_bot("dificil", self.base, players)
        assert isinstance(bot, DificilBot) and bot.params is not None
        return replace(
            bot.params,
            playouts=self.playouts,
            max_actions=self.max_actions,
            deal_cost=self.deal_cost,
            equity=False,
            value=None,
        )


# Every shipped version, by table size: a stored review names its version, so these never change.
VERSIONS: tuple[dict[int, ReviewSettings], ...] = (
    {
        2: ReviewSettings(base=1, playouts=1000, max_actions=50_000, deal_cost=0, threshold=5.0),
        3: ReviewSettings(base=1, playouts=1000, max_actions=50_000, deal_cost=8, threshold=4.0),
    },
)
CURRENT = len(VERSIONS)


def settings(version: int, players: int) -> ReviewSettings:
    """Version ``version``'s settings for ``players`` seats; KeyError when there is no such version."""
    if not 1 <= version <= len(VERSIONS):
        raise KeyError(f"no review version {version}")
    return VERSIONS[version - 1][players]


# -- words -------------------------------------------------------------------------------


# The page says an action in three forms: what to do («robar»), what you did («Robaste») and what a
# hint tells you («Roba»): (draw, pass, play, ask for a suit) in each.
FORMS = {
    "infinitive": ("robar", "pasar", "jugar", "pedir"),
    "past": ("Robaste", "Pasaste", "Jugaste", "pediste"),
    "imperative": ("Roba", "Pasa", "juega", "pide"),
}


def phrase(action: Action, form: str = "infinitive") -> str:
    """The action in one of ``FORMS``: «jugar el 7 de corazones», «… y pedir tréboles», «Robaste»."""
    draw, pass_, play, ask = FORMS[form]
    if action is DRAW:
        return draw
    if action is PASS:
        return pass_
    assert action.card is not None
    text = f"{play} {card_name(action.card, article=True)}"
    if action.suit is not None:
        text += f" y {ask} {SUIT_PLURAL[int(action.suit)]}"
    return text


def action_phrase(action: Action) -> str:
    """The action as an infinitive: «robar», «jugar el 7 de corazones», «… y pedir tréboles»."""
    return phrase(action, "infinitive")


def done_phrase(action: Action) -> str:
    """What the person did: «Robaste», «Jugaste el 7 de corazones», «… y pediste tréboles»."""
    return phrase(action, "past")


def points_phrase(points: float) -> str:
    """«unos 6 puntos», «alrededor de 1 punto»."""
    n = max(1, round(points))
    return "alrededor de 1 punto" if n == 1 else f"unos {n} puntos"


# -- one decision -------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of the person and the search's judgment of it.

    ``index`` is the move's number in the record (0-based), ``hand_no`` its
    hand; ``moves`` the moves weighed, ``totals`` each one's summed worth over
    ``worlds`` worlds (in points of lead over the average opponent, times
    ``players - 1``); ``played`` and ``best`` index ``moves``. A decision
    with a single move worth weighing has ``worlds`` 0 and no totals.
    """

    index: int
    hand_no: int
    players: int
    moves: tuple[Action, ...]
    totals: tuple[int, ...]
    worlds: int
    played: Action
    threshold: float

    def value(self, move: int) -> float:
        """Move ``move``'s mean worth, in points of lead over the average opponent."""
        if not self.worlds:
            return 0.0
        return self.totals[move] / self.worlds / (self.players - 1)

    @property
    def played_at(self) -> int:
        found = same_move(self.played, list(self.moves))
        assert found is not None
        return self.moves.index(found)

    @property
    def best_at(self) -> int:
        """The move with the best total (the first in order on a tie); the played one if it ties it."""
        if not self.worlds:
            return self.played_at
        top = max(self.totals)
        if self.totals[self.played_at] == top:
            return self.played_at
        return self.totals.index(top)

    @property
    def best(self) -> Action:
        return self.moves[self.best_at]

    @property
    def margin(self) -> float:
        """How many points a decision the best move is worth more than the one played (0 when it is it)."""
        return self.value(self.best_at) - self.value(self.played_at)

    @property
    def mistake(self) -> bool:
        return self.margin > self.threshold

    @property
    def verdict(self) -> str:
        if self.best_at == self.played_at:
            return BIEN
        if not self.mistake:
            return IGUAL
        return f"Mejor: {action_phrase(self.best)} (ahorras {points_phrase(self.margin)} de media)"

    @property
    def cpu_move(self) -> Action:
        """What the hard CPU would have done: the move played, as played, when it is the best."""
        return self.best if self.best_at != self.played_at else self.played

    def text(self) -> str:
        """The whole item, as a sentence a screen reader can say."""
        return f"{done_phrase(self.played)}. La CPU difícil: {action_phrase(self.cpu_move)}. {self.verdict}."

    def pack(self) -> list[int]:
        """Plain numbers for storage: index, hand, played, worlds, then (move, total) pairs."""
        out = [self.index, self.hand_no, NUMBER_OF[self.played], self.worlds]
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
        """«2 decisiones mejorables; te habrían ahorrado unos 9 puntos de media» (or none, or no choice)."""
        if not self.decisions:
            return "No tuviste que elegir nada: cada jugada tuya era la única posible."
        wrong = self.mistakes
        if not wrong:
            return "Ninguna decisión mejorable: jugaste como la CPU difícil."
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
        return {
            "v": self.version,
            "record": self.record,
            "first": self.first,
            "last": self.last,
            "decisions": [d.pack() for d in self.decisions],
        }

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
        threshold = settings(version, players).threshold
        rows = data.get("decisions")
        if not isinstance(rows, list):
            raise ValueError("a stored review lists its decisions")
        out: list[Decision] = []
        for row in rows:
            if not (isinstance(row, list) and len(row) >= 6 and len(row) % 2 == 0):
                raise ValueError("a stored decision is a list of numbers")
            if not all(type(n) is int for n in row) or min(row[:4] + row[4::2]) < 0:
                raise ValueError("a stored decision is a list of numbers")
            index, hand_no, played, worlds = row[:4]
            if max([played, *row[4::2]]) >= len(ACTION_OF):
                raise ValueError("a stored decision names a move that does not exist")
            moves = tuple(ACTION_OF[n] for n in row[4::2])
            totals = tuple(row[5::2]) if worlds else ()
            if same_move(ACTION_OF[played], list(moves)) is None:
                raise ValueError("a stored decision does not weigh the move played")
            out.append(Decision(index, hand_no, players, moves, totals, worlds, ACTION_OF[played], threshold))
        return cls(record, version, first, last, tuple(out))


# -- the search ---------------------------------------------------------------------------


def weighed(view: SeatView, played: Action) -> list[Action]:
    """The moves to weigh: the search's candidates, and the move played if none of them is alike."""
    moves = candidates(view)
    if same_move(played, moves) is None:
        moves.append(played)
    return moves


class Weighing:
    """One decision's search over sampled worlds, in steps (the same loop as the hard CPU's).

    ``totals[j]`` sums move ``j``'s worth over the worlds: the others' penalties
    minus ``players`` times the seat's own, i.e. ``players - 1`` times its lead
    over the average opponent.
    """

    def __init__(
        self, view: SeatView, moves: list[Action], params: DificilParams, seed: str = "review"
    ) -> None:
        self.view = view
        self.moves = moves
        self.params = params
        k = len(moves)
        self.totals = [0] * k
        self.worlds = max(params.min_worlds, params.playouts // k)
        self.playouts = self.worlds * k
        self.done = 0
        self.actions = 0
        # Seeded by the position (``seed`` is another name only for measuring the search's noise).
        self.rng = decision_rng(seed, view)
        self._reading = read_history(view)
        self._evidence = read_evidence(view, params.cpu)
        self._world: World | None = None

    def step(self, max_playouts: int) -> bool:
        """Play up to ``max_playouts`` more playouts; True once the weighing is over."""
        view, params = self.view, self.params
        k = len(self.moves)
        me = view.seat
        while max_playouts > 0 and self.done < self.playouts:
            j = self.done % k
            if j == 0:
                hands, stock, dealt = sample_world(view, self._evidence, self.rng, params.tries)
                self.actions += params.deal_cost * dealt
                self._world = (hands, stock, int(self.rng.random() * (1 << 53)))
            assert self._world is not None
            copy, winner, actions = world_playout(view, self._reading, self._world, self.moves[j], params.cpu)
            self.totals[j] += playout_worth(copy, winner, view.totals, me)
            self.actions += actions
            self.done += 1
            max_playouts -= 1
            worlds, part = divmod(self.done, k)
            if self.actions >= params.max_actions and not part and worlds >= params.min_worlds:
                self.worlds = worlds
                self.playouts = self.done
        return self.done >= self.playouts


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
        players = self.record.code.players
        params = self.settings.params(players)
        out: list[Decision] = []
        total = max(len(found), 1)
        for n, (index, view) in enumerate(found):
            played = self.record.moves[index]
            moves = weighed(view, played)
            worlds = 0
            totals: tuple[int, ...] = ()
            last_card_wins = len(view.hand) == 1 and played.card is not None
            if len(moves) > 1 and not last_card_wins:
                weighing = Weighing(view, moves, params)
                while not weighing.step(PLAYOUTS_PER_STEP):
                    yield min((n + weighing.done / max(weighing.playouts, 1)) / total, 0.999)
                worlds, totals = weighing.worlds, tuple(weighing.totals)
            decision = Decision(
                index, view.hand_no, players, tuple(moves), totals, worlds, played, self.settings.threshold
            )
            out.append(decision)
            yield min((n + 1) / total, 0.999)
        self.result = Review(str(self.record), self.version, self.first, self.last, tuple(out))
        yield 1.0

    def run(self) -> Review:
        for _ in self.steps():
            pass
        assert self.result is not None
        return self.result


def review_record(text: str, first: int = 0, last: int | None = None, version: int = 0) -> Review:
    """The whole review of a record's text at once (:class:`~engine.record.RecordError` if it is bad)."""
    return Reviewer(Record.parse(text), first, last, version).run()


__all__ = [
    "BIEN",
    "CURRENT",
    "IGUAL",
    "VERSIONS",
    "Decision",
    "Review",
    "ReviewSettings",
    "Reviewer",
    "Weighing",
    "action_phrase",
    "done_phrase",
    "phrase",
    "review_record",
    "settings",
    "weighed",
]
