"""The cpu player (level «Normal»): its rules of thumb, written once, and the reading of the hand they use.

The rules, each kept because it measured better with ``python -m
lab.simulate`` (and a seat-rotating match harness):

* follow with a non-8 card when one fits, never draw by choice: drawing to
  save an 8 measured far worse (60% instead of 84% against ``basic``);
* among the cards that fit, keep the hand connected and shed points: score
  = cards of the same suit kept + 0.2 x the card's points + a bonus when the
  next player showed (by drawing or passing on it) that it lacks that suit;
* with no other card, spend an 8 and name the suit held most, preferring one
  the next player lacks;
* when an opponent is down to one card, shed the costliest card that fits
  (8s included, naming a suit that opponent lacks).

:func:`cpu_card` and :func:`cpu_suit` are those rules on bare values, the
only copy: :class:`CpuBot` reads a view with them, the search's playouts
(:mod:`engine.bots.playout`) play every seat with them, and its evidence
(:mod:`engine.bots.evidence`) checks the others' past plays against them.
Each takes a :class:`CpuRules`, the :class:`CpuParams` made ready for play
(:func:`rules_of`). :class:`HandReader` is the one reader of a hand's public
history they rely on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..actions import DRAW, PASS, PLAY, PLAY8, Action
from ..cards import EIGHT, POINTS, RANK_OF, SUIT_OF
from ..view import SeatView

# -- what the public record of a hand tells -------------------------------------


@dataclass(frozen=True)
class Reading:
    """What a seat can infer from its view: who seems to lack which suits, what is out of play.

    ``short[s][suit]`` is ``None`` when nothing is known, else the number of
    cards seat ``s`` has drawn since it showed it had no card of ``suit``
    (a draw or a pass while that suit was active). ``known``: a card has
    been played this hand, so draws and passes tell something.
    """

    short: tuple[tuple[int | None, ...], ...]
    pile: frozenset[int]
    known: bool = False


class HandReader:
    """The public moves of a hand, read one at a time: what :class:`Reading` holds, as it grows.

    ``active`` is ``None`` until the first card of the hand is played (the
    suit asked of the first player says nothing about the others).
    """

    __slots__ = ("active", "last", "pile", "short")

    def __init__(self, players: int) -> None:
        self.short: list[list[int | None]] = [[None, None, None, None] for _ in range(players)]
        self.pile: set[int] = set()
        self.active: int | None = None
        self.last: int | None = None

    def note(self, seat: int, action: Action, reshuffled: bool) -> None:
        """Read one move of the history."""
        if reshuffled:  # every discard but the top card went back into the stock
            self.pile = {self.last} if self.last is not None else set()
        row = self.short[seat]
        card = action.card
        if card is None:  # a draw or a pass: no card of the active suit in hand
            if self.active is not None:
                row[self.active] = 0
            if action is DRAW:
                for suit in range(4):
                    count = row[suit]
                    if count is not None:
                        row[suit] = count + 1
            return
        row[SUIT_OF[card]] = None
        self.pile.add(card)
        self.last = card
        self.active = SUIT_OF[card] if action.suit is None else int(action.suit)

    def reading(self) -> Reading:
        """What has been read so far."""
        return Reading(tuple(tuple(r) for r in self.short), frozenset(self.pile), self.active is not None)


def read_history(view: SeatView) -> Reading:
    """Replay the public history of the hand from ``view``'s chair."""
    reader = HandReader(view.players)
    for seat, action, reshuffled in view.history:
        reader.note(seat, action, reshuffled)
    return reader.reading()


# -- the rules ------------------------------------------------------------------


@dataclass(frozen=True)
class CpuParams:
    """The knobs of :class:`CpuBot`; the defaults are the measured best (see ``lab.simulate``)."""

    # Eights: play one rather than draw when no other card fits.
    eight_over_draw: bool = True
    # Opponent this close to going out: shed the most expensive legal card.
    danger: int = 1
    # Score of a non-eight play: weight of same-suit cards kept, of the card's points,
    # of same-rank cards kept (they follow the top card whatever suit is asked).
    w_suit: float = 1.0
    w_points: float = 0.2
    w_rank: float = 0.0
    # Bonus for leaving active a suit the next player showed it lacks (by drawing or passing on it).
    w_short: float = 1.0
    # Nomination: bonus for a suit the next player lacks (always, and more when it is nearly out).
    w_avoid: float = 1.0
    w_avoid_danger: float = 1.0
    # How fast that evidence fades with each card the opponent draws afterwards.
    decay: float = 0.5


# Card tables: which cards are 8s, the non-8 cards that follow each top card
# and active suit (``FITS[top * 4 + active][card]``), and each card's suit
# with the 8s apart (index 4).
IS_EIGHT: tuple[bool, ...] = tuple(RANK_OF[c] == EIGHT for c in range(52))
FITS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(not IS_EIGHT[c] and (RANK_OF[c] == RANK_OF[top] or SUIT_OF[c] == active) for c in range(52))
    for top in range(52)
    for active in range(4)
)
BUCKET: tuple[int, ...] = tuple(4 if IS_EIGHT[c] else SUIT_OF[c] for c in range(52))
# The certainty table covers this many draws; past it, it is computed.
LACK_TABLE = 64


class CpuRules:
    """:class:`CpuParams` ready for play: its fields, and the certainty table its ``decay`` makes.

    ``lack[k]`` is how sure the cpu is (0..1) that a seat lacks a suit when
    it has drawn ``k`` cards since it showed it (``k`` below :data:`LACK_TABLE`;
    :meth:`certainty` for any row entry).
    """

    __slots__ = (
        "card",
        "danger",
        "decay",
        "eight_over_draw",
        "lack",
        "params",
        "w_avoid",
        "w_avoid_danger",
        "w_points",
        "w_rank",
        "w_short",
        "w_suit",
    )

    def __init__(self, params: CpuParams) -> None:
        self.params = params
        self.eight_over_draw = params.eight_over_draw
        self.danger = params.danger
        self.w_suit = params.w_suit
        self.w_points = params.w_points
        self.w_rank = params.w_rank
        self.w_short = params.w_short
        self.w_avoid = params.w_avoid
        self.w_avoid_danger = params.w_avoid_danger
        self.decay = params.decay
        self.lack: tuple[float, ...] = tuple(params.decay ** max(k - 1, 0) for k in range(LACK_TABLE))
        self.card = _card_rule(self)

    def certainty(self, k: int | None) -> float:
        """How sure the cpu is (0..1) that a seat lacks a suit, from an entry of :attr:`Reading.short`."""
        if k is None:
            return 0.0
        return self.lack[k] if k < LACK_TABLE else self.decay ** max(k - 1, 0)


@lru_cache(maxsize=64)
def rules_of(params: CpuParams) -> CpuRules:
    """The rules for ``params`` (made once per distinct params)."""
    return CpuRules(params)


def cpu_card(
    hand: Sequence[int],
    fit: Sequence[bool],
    threat: int,
    lack_row: Sequence[int | None],
    rules: CpuRules,
    *,
    can_draw: bool = True,
) -> int:
    """The card the cpu plays from ``hand``, or -1 to draw (or pass, when it cannot draw).

    ``fit`` is the row of :data:`FITS` for the top card and the active suit,
    ``threat`` the smallest hand among the other seats and ``lack_row`` the
    next seat's row of :attr:`Reading.short`. (This is ``rules.card``, the
    rule :func:`_card_rule` made for those params.)
    """
    return rules.card(hand, fit, threat, lack_row, can_draw)


CardRule = Callable[[Sequence[int], Sequence[bool], int, Sequence[int | None], bool], int]


def _card_rule(rules: CpuRules) -> CardRule:
    """The cpu's choice of card for ``rules``, with the params' values bound (see :func:`cpu_card`).

    A playout calls it once a turn, so its settings are closed over rather
    than looked up, and the products of weights and table entries come from
    tables made here (the same products, so the same sums, as written out).
    """
    eight_over_draw = rules.eight_over_draw
    danger = rules.danger
    w_rank = rules.w_rank
    # w_suit x (cards of the suit kept), by the count of the suit in hand (the card itself included).
    by_suit = tuple(rules.w_suit * (n - 1) for n in range(14))
    by_rank = tuple(w_rank * (n - 1) for n in range(14))
    by_points = tuple(rules.w_points * POINTS[c] for c in range(52))
    by_lack = tuple(rules.w_short * x for x in rules.lack)
    w_short = rules.w_short
    certainty = rules.certainty
    is_eight = IS_EIGHT
    bucket = BUCKET
    suit_of = SUIT_OF
    rank_of = RANK_OF
    points = POINTS

    def card_rule(
        hand: Sequence[int], fit: Sequence[bool], threat: int, lack_row: Sequence[int | None], can_draw: bool
    ) -> int:
        plays: list[int] = []
        for c in hand:  # a loop, not a comprehension: faster on a few cards (the playout's hottest line)
            if fit[c]:
                plays.append(c)
        if not plays:
            if can_draw and not eight_over_draw:
                return -1
            if threat <= danger:  # the costliest 8 (they all cost 50): the lowest number
                eights = [c for c in hand if is_eight[c]]
                return min(eights) if eights else -1
            for c in hand:  # else the first 8 in hand order
                if is_eight[c]:
                    return c
            return -1
        if threat <= danger:
            # Shed the costliest card: an 8 is worth 50, the most; ties go to the lowest number.
            eights = [c for c in hand if is_eight[c]]
            return min(eights) if eights else max(plays, key=lambda c: (points[c], -c))
        if len(plays) == 1:
            return plays[0]
        # The best (score, -card): the cards kept of its suit (and rank), its points, and how
        # sure the cpu is that the next player has none of its suit.
        suit_count = [0, 0, 0, 0, 0]  # by suit, and the 8s last
        for c in hand:
            suit_count[bucket[c]] += 1
        rank_count: list[int] = []
        if w_rank:
            rank_count = [0] * 14
            for c in hand:
                if not is_eight[c]:
                    rank_count[rank_of[c]] += 1
        card = -1
        best = 0.0
        for c in plays:
            s = suit_of[c]
            # Adding 0.0 changes no sum: the rank term is left out when its weight is 0, and
            # the lack term when there is no evidence.
            if w_rank:
                value = by_suit[suit_count[s]] + by_rank[rank_count[rank_of[c]]] + by_points[c]
            else:
                value = by_suit[suit_count[s]] + by_points[c]
            k = lack_row[s]
            if k is not None:
                value += by_lack[k] if k < LACK_TABLE else w_short * certainty(k)
            if card < 0 or value > best or (value == best and c < card):
                card, best = c, value
        return card

    return card_rule


def cpu_suit(
    hand: Sequence[int], card: int, threat: int, lack_row: Sequence[int | None], rules: CpuRules
) -> int:
    """The suit the cpu names with the 8 ``card`` (still in ``hand``, not its last card).

    The suit it holds most (8s aside) plus a bonus for one the next seat
    lacks, then the most points, then the first in ``S H D C`` order.
    """
    weight = rules.w_avoid_danger if threat <= rules.danger else rules.w_avoid
    count = [weight * rules.certainty(k) for k in lack_row]
    points = [0, 0, 0, 0]
    for c in hand:
        if c != card and not IS_EIGHT[c]:
            count[SUIT_OF[c]] += 1
            points[SUIT_OF[c]] += POINTS[c]
    return max(range(4), key=lambda s: (count[s], points[s], -s))


DEFAULT_CPU = CpuParams()
DEFAULT_RULES = rules_of(DEFAULT_CPU)


def cpu_play(
    hand: Sequence[int],
    top: int,
    active: int,
    threat: int,
    lack_row: Sequence[int | None],
    *,
    rules: CpuRules,
    can_draw: bool = True,
) -> tuple[int, int] | None:
    """The cpu's move as ``(card, suit)``, or ``None`` to draw or pass.

    ``suit`` is -1 unless the card is an 8 that names one (not as the last card).
    """
    card = cpu_card(hand, FITS[top * 4 + active], threat, lack_row, rules, can_draw=can_draw)
    if card < 0:
        return None
    if not IS_EIGHT[card] or len(hand) == 1:
        return (card, -1)
    return (card, cpu_suit(hand, card, threat, lack_row, rules))


def cpu_move(
    hand: list[int],
    top_rank: int,
    active: int,
    threat: int,
    lack_row: Sequence[int | None],
    *,
    params: CpuParams | None = None,
) -> tuple[int, int] | None:
    """The cpu's move from ``hand`` on bare values: ``(card, suit)``, or ``None`` for a draw or pass.

    ``threat`` is the smallest hand among the other seats and ``lack_row`` the
    next seat's row of :attr:`Reading.short`. An 8 comes back as ``(-1,
    suit)``: every 8 is alike, and ``suit`` is -1 when it is the last card.
    """
    rules = DEFAULT_RULES if params is None else rules_of(params)
    top = (top_rank - 1) % 13  # a card of that rank: only the rank of the top card matters here
    move = cpu_play(hand, top, active, threat, lack_row, rules=rules)
    if move is None or not IS_EIGHT[move[0]]:
        return move
    return (-1, move[1])


class CpuBot:
    """The computer opponent: plain rules of thumb, each one kept because it measured better.

    Deterministic: the same view always gives the same action.
    """

    __slots__ = ("params",)

    def __init__(self, params: CpuParams | None = None) -> None:
        self.params = params or CpuParams()

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        threat = min(view.hand_counts[s] for s in range(view.players) if s != me)
        lack_row = read_history(view).short[(me + 1) % view.players]
        rules = rules_of(self.params)
        move = cpu_play(
            view.hand, view.top, view.active_suit, threat, lack_row, rules=rules, can_draw=view.can_draw
        )
        if move is None:
            return DRAW if view.can_draw else PASS
        card, suit = move
        return PLAY[card] if suit < 0 else PLAY8[card][suit]
