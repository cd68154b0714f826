"""What the table reveals about the hidden cards, and worlds dealt to fit it, for the search.

:func:`read_evidence` reads the public moves of a hand as the cpu's rules
would have made them (:class:`Evidence`); :func:`sample_world` deals the
cards a seat cannot see into the other hands and the stock so that they fit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache

from ..actions import DRAW
from ..cards import EIGHT, RANK_OF, SUIT_OF
from ..codes import shuffled
from ..view import SeatView
from .cpu import CpuParams, HandReader, cpu_move

# Sets of cards as bit masks (bit ``c`` for card ``c``): the non-8 cards of a
# suit, the cards of a rank (RANK_CARDS[EIGHT] is the 8s).
SUIT_CARDS: tuple[int, ...] = tuple(
    sum(1 << c for c in range(52) if SUIT_OF[c] == suit and RANK_OF[c] != EIGHT) for suit in range(4)
)
RANK_CARDS: tuple[int, ...] = tuple(
    sum(1 << c for c in range(52) if RANK_OF[c] == rank) for rank in range(14)
)


@dataclass(frozen=True)
class Check:
    """A past play by another seat whose hand at the time follows from its hand now.

    The seat has drawn nothing since, so its hand then was its hand now plus
    ``since`` (the cards it has played from then on, this one first). Read
    with the cpu's rules (``cpu``), ``move`` (as :func:`~engine.bots.cpu.cpu_move`
    gives it) is what that hand chose with ``top_rank``, ``active``, ``threat`` and ``lack`` as they
    were.
    """

    seat: int
    since: tuple[int, ...]
    move: tuple[int, int]
    top_rank: int
    active: int
    threat: int
    lack: tuple[int | None, ...]
    cpu: CpuParams | None = None  # the rules read with (None: the defaults)

    def holds(self, hand: list[int]) -> bool:
        """Whether a seat now holding ``hand`` would have made this move."""
        move = cpu_move(
            hand + list(self.since), self.top_rank, self.active, self.threat, self.lack, params=self.cpu
        )
        if move is None or move[0] != self.move[0]:
            return False
        return move[0] >= 0 or self.move[1] < 0 or move[1] < 0 or move[1] == self.move[1]


@dataclass(frozen=True)
class Evidence:
    """What the public moves of a hand tell about the hidden cards, if the others play like the cpu.

    ``limits[s]`` lists ``(cards, most)``: seat ``s`` holds at most ``most``
    of the cards in the bit mask ``cards``. Each comes from a moment the
    seat held none of them, and from then on every card it draws raises
    ``most`` by one and every one of them it plays lowers it:

    * the cpu draws or passes only with no card that fits and no 8 (with
      ``eight_over_draw`` off, a draw says nothing of its 8s);
    * it spends an 8 only when no other card fits (unless an opponent is
      within ``danger`` cards of going out, and then it sheds an 8 first if
      it has one);
    * a reshuffle turns every discard but the top into the stock, so nobody
      holds any of them (this one holds for every player, cpu or not).

    ``stock`` is that set after the hand's last reshuffle (the stock holds
    nothing else), or ``None``. ``checks`` are the plays whose whole hand
    is known (:class:`Check`). ``dealer`` is how the table was read and how
    :func:`sample_world` deals (:func:`read_evidence`).

    The search deals worlds that keep to the limits and prefers those that
    pass every check. A person who plays otherwise only makes some of it
    untrue: a limit a play breaks is dropped, a limit no deal can meet is
    filled anyway, and the worlds that fail the fewest checks are used.
    """

    limits: tuple[tuple[tuple[int, int], ...], ...]
    stock: int | None
    checks: tuple[Check, ...]
    dealer: int = 1

    def misfits(self, hands: list[list[int]]) -> int:
        """How many checks ``hands`` fail."""
        return sum(self.fails(seat, hand) for seat, hand in enumerate(hands))

    def fails(self, seat: int, hand: list[int], most: int | None = None) -> int:
        """How many of ``seat``'s checks ``hand`` fails, counting no further than ``most``."""
        count = 0
        for check in self.checks:
            if check.seat == seat and not check.holds(hand):
                count += 1
                if count == most:
                    break
        return count


def _lacks(limits: list[list[int]], cards: int) -> None:
    """A seat showed it holds none of ``cards``: a new limit of 0 (older ones inside it go)."""
    limits[:] = [g for g in limits if g[0] & ~cards] + [[cards, 0]]


def read_evidence(view: SeatView, cpu: CpuParams | None = None, dealer: int = 1) -> Evidence:
    """Replay the public moves of the hand from ``view``'s chair (nothing hidden is read).

    The others' moves are read as the cpu with ``cpu`` (the defaults when
    ``None``) would have made them. With ``dealer`` 1 (as first shipped) a
    card played lowers only the limits that hold it; from ``dealer`` 2 a card
    played straight after the seat's own draw is the card drawn (the cpu
    draws only when nothing fits), so every limit goes back to where it stood
    before that draw; and :func:`sample_world` deals newest card first.
    """
    params = cpu or CpuParams()
    danger = params.danger
    players = view.players
    me = view.seat
    history = view.history
    counts = list(view.hand_counts)
    drawn = [0] * players
    for seat, action, _ in history:
        if action.card is not None:
            counts[seat] += 1
        elif action is DRAW:
            counts[seat] -= 1
    top: int | None = view.opening
    pile: list[int] | None = None if top is None else [top]  # every face-up card since the deal or reshuffle
    active = 0 if top is None else SUIT_OF[top]
    reader = HandReader(players)  # what read_history reads, move by move
    limits: list[list[list[int]]] = [[] for _ in range(players)]
    stock: int | None = None
    plays: list[tuple[int, int, Check]] = []  # (index in history, the seat's draws before it, check)
    drew = -1  # the seat whose draw was the last action, if any (dealer 2 on)

    def follows() -> int:  # the cards that fit, 8s aside: the active suit and the top card's rank
        assert top is not None
        return SUIT_CARDS[active] | (0 if RANK_OF[top] == EIGHT else RANK_CARDS[RANK_OF[top]])

    for index, (seat, action, reshuffled) in enumerate(history):
        mine = limits[seat]
        threat = min(counts[s] for s in range(players) if s != seat)
        card: int | None = action.card
        if card is None:
            if top is not None:
                shown = follows()
                if action is not DRAW or params.eight_over_draw:
                    shown |= RANK_CARDS[EIGHT]
                _lacks(mine, shown)
            if action is DRAW:
                if reshuffled:
                    stock = None
                    if pile is not None:
                        stock = sum(1 << c for c in pile[:-1])
                        for other in limits:
                            _lacks(other, stock)
                    pile = None if top is None else [top]
                counts[seat] += 1
                drawn[seat] += 1
                drew = seat
                for limit in mine:
                    limit[1] += 1
            else:
                drew = -1
            reader.note(seat, action, reshuffled)
            continue
        card = int(card)
        if seat != me and top is not None:
            suit = -1 if action.suit is None else int(action.suit)
            move = (-1, suit) if RANK_OF[card] == EIGHT else (card, -1)
            lack = tuple(reader.short[(seat + 1) % players])
            check = Check(seat, (), move, RANK_OF[top], active, threat, lack, cpu)
            plays.append((index, drawn[seat], check))
        bit = 1 << card
        the_drawn_card = dealer >= 2 and drew == seat and top is not None
        drew = -1
        for limit in mine:
            if the_drawn_card or limit[0] & bit:
                limit[1] -= 1
        mine[:] = [g for g in mine if g[1] >= 0]  # below zero: it did not play like the cpu
        if top is not None:
            if RANK_OF[card] != EIGHT:
                if threat <= danger:  # it would have shed an 8 first
                    _lacks(mine, RANK_CARDS[EIGHT])
            elif threat > danger:  # an 8 while nothing else fits
                _lacks(mine, follows())
        counts[seat] -= 1
        reader.note(seat, action, reshuffled)
        top = card
        if pile is not None:
            pile.append(card)
        active = SUIT_OF[card] if action.suit is None else int(action.suit)
    checks: list[Check] = []
    for index, draws_before, check in plays:
        seat = check.seat
        if draws_before == drawn[seat]:
            since = tuple(
                int(m.action.card) for m in history[index:] if m.seat == seat and m.action.card is not None
            )
            checks.append(replace(check, since=since))
    return Evidence(tuple(tuple((g[0], g[1]) for g in mine) for mine in limits), stock, tuple(checks), dealer)


def sample_world(
    view: SeatView, evidence: Evidence, rng: random.Random, tries: int = 1
) -> tuple[list[list[int]], list[int], int]:
    """Deal the cards this seat cannot see into the other hands and the stock, at random.

    The unseen cards are the 52 minus its own hand and the face-up pile.
    After a reshuffle the stock is dealt first, from the old discards only
    (:attr:`Evidence.stock`). Then each other seat, the most limited first,
    gets as many as it holds and, card by card, no more of a set than
    :attr:`Evidence.limits` allow (:func:`_deal_within`, or from
    :attr:`Evidence.dealer` 2 :func:`_deal_newest_first`); when the limits
    cannot be met (a person may draw while holding a card that fits) the
    seat is filled with whatever is left. A seat with :attr:`Evidence.checks`
    is dealt up to ``tries`` times from what is left, and the first hand
    that passes all of them is kept (else the one that fails fewest): a
    rejection sampler, seat by seat, so each hand comes in proportion to how
    well it explains that seat's plays. The rest, in random order, is the
    stock.

    Returns the hands, the stock and how many hands were dealt (the work done).
    """
    me = view.seat
    seen = set(view.hand)
    seen.update(view.pile)
    pool = shuffled([c for c in range(52) if c not in seen], rng)
    limits = evidence.limits
    others = [s for s in range(view.players) if s != me]
    others.sort(key=lambda s: (-len(limits[s]), s))
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[me] = list(view.hand)
    stock: list[int] = []
    if evidence.stock is not None:  # since a reshuffle the stock holds only old discards
        only = evidence.stock
        left: list[int] = []
        for c in pool:
            if len(stock) < view.stock_count and (only >> c) & 1:
                stock.append(c)
            else:
                left.append(c)
        pool = left
    dealt = 0
    deal = _deal_newest_first if evidence.dealer >= 2 else _deal_within
    for s in others:
        need = view.hand_counts[s]
        checked = any(check.seat == s for check in evidence.checks)
        best: tuple[int, list[int], list[int]] | None = None
        for attempt in range(max(tries, 1) if checked else 1):
            if attempt:
                pool = shuffled(pool, rng)
            taken, rest = deal(pool, need, limits[s])
            dealt += 1
            # No need to count past the best so far: a deal that fails as many is not kept.
            misfits = evidence.fails(s, taken, None if best is None else best[0])
            if best is None or misfits < best[0]:
                best = (misfits, taken, rest)
            if misfits == 0:
                break
        assert best is not None
        hands[s], pool = best[1], best[2]
    stock.extend(pool)
    return hands, stock, dealt


def _deal_within(
    pool: list[int], need: int, limits: tuple[tuple[int, int], ...]
) -> tuple[list[int], list[int]]:
    """The first ``need`` cards of ``pool`` within ``limits`` (topped up when they cannot be), the rest."""
    if not limits:
        return pool[:need], pool[need:]
    groups, blocked = _limit_groups(limits)  # blocked: the cards of every limit already reached
    room = [most for _cards, most in limits]
    taken: list[int] = []
    rest: list[int] = []
    for i, c in enumerate(pool):
        if (blocked >> c) & 1:
            rest.append(c)
            continue
        taken.append(c)
        for g in groups[c]:
            room[g] -= 1
            if room[g] <= 0:
                blocked |= limits[g][0]
        if len(taken) == need:
            rest.extend(pool[i + 1 :])
            break
    if len(taken) < need:
        short_by = need - len(taken)
        taken.extend(rest[:short_by])
        rest = rest[short_by:]
    return taken, rest


def _deal_newest_first(
    pool: list[int], need: int, limits: tuple[tuple[int, int], ...]
) -> tuple[list[int], list[int]]:
    """``need`` cards of ``pool``, dealt as the seat came by them (topped up past the limits), the rest.

    A limit ``(cards, most)`` says the seat held none of ``cards`` and has
    drawn ``most`` cards since: only its ``most`` newest cards may be of the
    set, each as likely as any unseen card. So the ``k``-th newest card
    (``k`` from 0) keeps out of every set whose limit is ``k`` or less; the
    cards are dealt newest first, and a card one of them passes over is held
    back from every later one too, so each gets any card its limits leave.
    :func:`_deal_within` instead takes a set's cards wherever they lie in
    ``pool`` until its limit is met, and meets limits far more often than
    the seats do (``docs/review.md``).
    """
    if not limits:
        return pool[:need], pool[need:]
    left = list(pool)
    taken: list[int] = []
    for k in range(need):
        held_back = 0
        for cards, most in limits:
            if most <= k:
                held_back |= cards
        at = next((i for i, c in enumerate(left) if not (held_back >> c) & 1), 0)
        taken.append(left.pop(at))
    return taken, left


@lru_cache(maxsize=256)
def _limit_groups(limits: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """For each card, the limits it counts against; and the cards of the limits already reached."""
    groups = tuple(tuple(g for g, (cards, _most) in enumerate(limits) if (cards >> c) & 1) for c in range(52))
    blocked = 0
    for cards, most in limits:
        if most <= 0:
            blocked |= cards
    return groups, blocked
