"""Computer players: ``random`` and ``basic`` (yardsticks) and the page's three levels.

The levels (:data:`LEVEL_BOTS`): ``facil`` (follows at random, spends 8s
early), ``cpu`` (level «Normal»: rules of thumb) and ``dificil``
(determinized search with ``cpu`` playouts over worlds dealt to fit the
public moves, runnable in slices).

A bot sees the table only through a :class:`~engine.view.SeatView` and answers
with one legal :class:`~engine.actions.Action` at a time: a draw, then a later
decision once the drawn card is in its hand.

The cpu's rules of thumb, each kept because it measured better with
``python -m engine.simulate`` (and a seat-rotating match harness):

* follow with a non-8 card when one fits, never draw by choice: drawing to
  save an 8 measured far worse (60% instead of 84% against ``basic``);
* among the cards that fit, keep the hand connected and shed points: score
  = cards of the same suit kept + 0.2 x the card's points + a bonus when the
  next player showed (by drawing or passing on it) that it lacks that suit;
* with no other card, spend an 8 and name the suit held most, preferring one
  the next player lacks;
* when an opponent is down to one card, shed the costliest card that fits
  (8s included, naming a suit that opponent lacks).

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

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from .actions import DRAW, PASS, PLAY, PLAY8, PLAY_KIND, Action
from .cards import EIGHT, POINTS, RANK_OF, SUIT_OF
from .codes import shuffled, stream
from .equity import equity
from .game import MAX_ACTIONS_PER_HAND, MAX_DRAWS, game_winners
from .view import SeatView

BOT_NAMES = ("random", "basic", "facil", "cpu", "dificil")


class Bot(Protocol):
    """Anything that picks an action for the seat a view belongs to."""

    def choose(self, view: SeatView) -> Action:
        """One legal action for ``view.seat``; only called on that seat's turn."""
        ...


class RandomBot:
    """A uniformly random legal action: the yardstick every other bot is measured against.

    It owns its generator (never the module-level :mod:`random` functions), so
    a seeded bot replays the same game.
    """

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Action:
        return self.pick(view.legal)

    def pick(self, legal: list[Action] | tuple[Action, ...]) -> Action:
        """A uniform choice among ``legal`` (what :meth:`choose` does with ``view.legal``)."""
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[int(self.rng.random() * len(legal))]


class BasicBot:
    """A stricter yardstick: never draws while it can play; otherwise uniformly random.

    Plays a uniformly random legal card (an 8 naming a random suit), draws only
    with nothing to play, passes only when it must: how a casual player who
    just "follows" plays. It wins far more than :class:`RandomBot`, which often
    draws by choice and lets its hand grow.
    """

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        plays = [a for a in legal if a.kind == PLAY_KIND]
        if plays:
            return plays[int(self.rng.random() * len(plays))]
        return legal[0]


# -- what the public record of a hand tells -------------------------------------


@dataclass(frozen=True)
class Reading:
    """What a seat can infer from its view: who seems to lack which suits, what is out of play.

    ``short[s][suit]`` is ``None`` when nothing is known, else the number of
    cards seat ``s`` has drawn since it showed it had no card of ``suit``
    (a draw or a pass while that suit was active).
    """

    short: tuple[tuple[int | None, ...], ...]
    pile: frozenset[int]


def read_history(view: SeatView) -> Reading:
    """Replay the public history of the hand from ``view``'s chair."""
    players = view.players
    short: list[list[int | None]] = [[None, None, None, None] for _ in range(players)]
    pile: set[int] = set()
    active: int | None = None  # unknown until the first card of the hand is played
    last: int | None = None
    for seat, action, reshuffled in view.history:
        if reshuffled:  # every discard but the top card went back into the stock
            pile = {last} if last is not None else set()
        row = short[seat]
        card = action.card
        if card is None:  # a draw or a pass: no card of the active suit in hand
            if active is not None:
                row[active] = 0
            if action is DRAW:
                for suit in range(4):
                    count = row[suit]
                    if count is not None:
                        row[suit] = count + 1
            continue
        row[SUIT_OF[card]] = None
        pile.add(card)
        last = card
        active = SUIT_OF[card] if action.suit is None else int(action.suit)
    return Reading(tuple(tuple(r) for r in short), frozenset(pile))


# -- the cpu player -------------------------------------------------------------


@dataclass(frozen=True)
class CpuParams:
    """The knobs of :class:`CpuBot`; the defaults are the measured best (see ``engine.simulate``)."""

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
        top_rank = RANK_OF[view.top]
        move = _cpu_card(
            view.hand, top_rank, view.active_suit, threat, lack_row, p=self.params, can_draw=view.can_draw
        )
        if move is None:
            return DRAW if view.can_draw else PASS
        card, suit = move
        return PLAY[card] if suit < 0 else PLAY8[card][suit]


def _cpu_card(
    hand: Sequence[int],
    top_rank: int,
    active: int,
    threat: int,
    lack_row: Sequence[int | None],
    *,
    p: CpuParams,
    can_draw: bool = True,
) -> tuple[int, int] | None:
    """The cpu's rules on bare values: ``(card, suit)``, or ``None`` to draw or pass.

    ``suit`` is -1 unless the card is an 8 that names one (not as the last card).

    ``threat`` is the smallest hand among the other seats and ``lack_row`` the
    next seat's row of :attr:`Reading.short`.
    """
    plays: list[int] = []
    eights: list[int] = []
    for c in hand:
        if RANK_OF[c] == EIGHT:
            eights.append(c)
        elif RANK_OF[c] == top_rank or SUIT_OF[c] == active:
            plays.append(c)
    if not plays and not (eights and (p.eight_over_draw or not can_draw)):
        return None
    if threat <= p.danger:
        card = max(plays + eights, key=lambda c: (POINTS[c], -c))
    elif len(plays) == 1:
        card = plays[0]
    elif plays:
        # The best (score, -card): the cards kept of its suit (and rank), its points, and how
        # sure the cpu is that the next player has none of its suit.
        suit_count = [0, 0, 0, 0]
        rank_count = [0] * 14
        for c in hand:
            if RANK_OF[c] != EIGHT:
                suit_count[SUIT_OF[c]] += 1
                rank_count[RANK_OF[c]] += 1
        card = -1
        best = 0.0
        for c in plays:
            suit = SUIT_OF[c]
            value = (
                p.w_suit * (suit_count[suit] - 1)
                + p.w_rank * (rank_count[RANK_OF[c]] - 1)
                + p.w_points * POINTS[c]
                + p.w_short * _lack(lack_row[suit], p.decay)
            )
            if card < 0 or value > best or (value == best and c < card):
                card, best = c, value
    else:
        card = eights[0]
    if RANK_OF[card] != EIGHT or len(hand) == 1:
        return (card, -1)
    weight = p.w_avoid_danger if threat <= p.danger else p.w_avoid
    count = [weight * _lack(k, p.decay) for k in lack_row]
    points = [0, 0, 0, 0]
    for c in hand:
        if c != card and RANK_OF[c] != EIGHT:
            count[SUIT_OF[c]] += 1
            points[SUIT_OF[c]] += POINTS[c]
    return (card, max(range(4), key=lambda s: (count[s], points[s], -s)))


def _lack(k: int | None, decay: float) -> float:
    """How sure the cpu is (0..1) that a seat has none of a suit, from its row of :attr:`Reading.short`."""
    return 0.0 if k is None else decay ** max(k - 1, 0)


# -- the easy level ---------------------------------------------------------------


def decision_rng(name: str, view: SeatView) -> random.Random:
    """A generator fixed by the game and the position, so a game replays from its record.

    It is derived from the code, the hand, how many moves the hand has had and
    the seat; nothing hidden goes into it.
    """
    return stream(name, view.code, view.hand_no, len(view.history), view.seat)


@dataclass(frozen=True)
class FacilParams:
    """The knobs of :class:`FacilBot` (the defaults are tuned to lose about 3 games in 4 to ``cpu``)."""

    # Chance of spending an 8 while a non-8 card also fits (1.0 measured cpu 78.5 %, 0.5 76 %, 0 62.5 %).
    eager_eight: float = 0.4


class FacilBot:
    """The easy level: follows sensibly, plans nothing.

    * with a non-8 card that fits, it plays one of them at random (it never
      draws while holding one); with ``eager_eight`` it may spend an 8 first;
    * with only 8s, it plays one and names a suit it holds, picked at random
      (any suit when it holds nothing but 8s);
    * with nothing to play it draws, and passes only when it must.

    Its choices come from :func:`decision_rng`, so the same view always gives
    the same action and a game replays from its record.
    """

    __slots__ = ("params",)

    def __init__(self, params: FacilParams | None = None) -> None:
        self.params = params or FacilParams()

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        plays = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
        eights = [c for c in view.hand if RANK_OF[c] == EIGHT]
        if not plays and not eights:
            return DRAW if view.can_draw else PASS
        rand = decision_rng("facil", view).random
        p = self.params
        if plays and not (eights and rand() < p.eager_eight):
            return PLAY[plays[int(rand() * len(plays))]]
        card = eights[0]
        if len(view.hand) == 1:
            return PLAY[card]
        held = sorted({SUIT_OF[c] for c in view.hand if RANK_OF[c] != EIGHT})
        suits = held or [0, 1, 2, 3]
        return PLAY8[card][suits[int(rand() * len(suits))]]


# -- fast playouts: the cpu's rules of thumb on a bare position ------------------------

# Moves inside a playout: a card number, DRAW_MOVE or PASS_MOVE; suits -1 (none) or 0..3.
DRAW_MOVE = -1
PASS_MOVE = -2
# The cpu's certainty that a seat lacks a suit, by the cards it drew since it showed it (decay 0.5).
_LACK = tuple(0.5 ** max(k - 1, 0) for k in range(64))


def _lack_of(k: int | None) -> float:
    if k is None:
        return 0.0
    return _LACK[k] if k < 64 else 0.5 ** (k - 1)


# For the playout: the non-8 cards that follow each top card and active suit
# (``_FITS[top * 4 + active][card]``), which cards are 8s, and each card's
# suit with the 8s apart (index 4).
_IS_EIGHT: tuple[bool, ...] = tuple(RANK_OF[c] == EIGHT for c in range(52))
_FITS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(not _IS_EIGHT[c] and (RANK_OF[c] == RANK_OF[top] or SUIT_OF[c] == active) for c in range(52))
    for top in range(52)
    for active in range(4)
)
_BUCKET: tuple[int, ...] = tuple(4 if _IS_EIGHT[c] else SUIT_OF[c] for c in range(52))


def playout(
    hands: list[list[int]],
    stock: list[int],
    pile: list[int],
    *,
    active: int,
    turn: int,
    draws: int,
    short: list[list[int | None]],
    known: bool,
    rng: random.Random | int,
    first: tuple[int, int] | None = None,
) -> tuple[int, int]:
    """Play the hand out with the cpu's rules for every seat; return the winner and the actions taken.

    The lists change as the hand is played.

    This is :class:`CpuBot` with its default params, written out on bare
    lists because a search plays thousands of these (a test checks move by
    move that both agree). Moves are ``(card, suit)`` pairs, with
    ``DRAW_MOVE`` or ``PASS_MOVE`` in place of a card and suit -1 for none;
    ``first`` is the move of the seat on turn before the rules take over.
    ``short`` and ``known`` carry :func:`read_history`'s reading (``known``:
    a card has been played this hand, so draws and passes tell something).
    A reshuffle sorts the discards and shuffles them with ``rng`` (an int
    seeds a generator at the first reshuffle, as most playouts have none),
    as the rules do with the code's generator.

    A seat with nothing to play draws, and the cpu plays the first card it
    draws that fits: every other card in its hand was already unplayable on
    the same top card and suit, so only the new card needs a look.
    """
    players = len(hands)
    suit_of = SUIT_OF
    points_of = POINTS
    lack_of = _LACK
    fits = _FITS
    is_eight = _IS_EIGHT
    bucket = _BUCKET
    after = _NEXT[players]
    top = pile[-1]
    actions = 0
    move = first
    while True:
        hand = hands[turn]
        row = short[turn]
        if move is not None:
            card, suit = move
            move = None
            if card < 0:  # the first move is a draw or a pass: the rules go on from there
                actions += 1
                if card == DRAW_MOVE:
                    if not stock:
                        rng = _reshuffle(stock, pile, rng)
                    hand.append(stock.pop())
                    draws += 1
                    if known:
                        _lacks_suit(row, active)
                else:
                    if known:
                        row[active] = 0
                    draws = 0
                    turn = after[turn]
                continue
        else:
            fit = fits[top * 4 + active]
            plays = [c for c in hand if fit[c]]
            eight = -1  # with nothing else that fits, the first 8 in hand order
            if not plays:
                for c in hand:
                    if is_eight[c]:
                        eight = c
                        break
            suit = -1
            if plays or eight >= 0:
                lack_row = short[after[turn]]
                if players == 2:
                    threat = len(hands[1 - turn])
                else:
                    a = len(hands[after[turn]])
                    b = len(hands[after[after[turn]]])
                    threat = a if a < b else b
                if threat <= 1:
                    # Shed the costliest card: an 8 is worth 50, the most; ties go to the lowest number.
                    eights = [c for c in hand if is_eight[c]]
                    card = min(eights) if eights else max(plays, key=lambda c: (points_of[c], -c))
                elif len(plays) == 1:
                    card = plays[0]
                elif plays:
                    suit_count = [0, 0, 0, 0, 0]  # by suit, and the 8s last
                    for c in hand:
                        suit_count[bucket[c]] += 1
                    card = -1
                    best = -1e9
                    for c in plays:  # the best key (value, -card)
                        s = suit_of[c]
                        k = lack_row[s]
                        value = (suit_count[s] - 1) + 0.2 * points_of[c]
                        if k is not None:  # _lack_of(k), written out: this loop is the hottest
                            value += lack_of[k] if k < 64 else 0.5 ** (k - 1)
                        if value > best or (value == best and c < card):
                            best = value
                            card = c
                else:
                    card = eight
            else:
                card = -1
                while card < 0:  # nothing to play: draw until a card fits, or pass
                    actions += 1
                    if draws < MAX_DRAWS and (stock or len(pile) > 1):
                        if not stock:
                            rng = _reshuffle(stock, pile, rng)
                        c = stock.pop()
                        hand.append(c)
                        draws += 1
                        if known:  # _lacks_suit(row, active), written out
                            row[active] = 0
                            for s in range(4):
                                k = row[s]
                                if k is not None:
                                    row[s] = k + 1
                        if fit[c] or is_eight[c]:
                            card = c
                    else:
                        if known:
                            row[active] = 0
                        draws = 0
                        turn = after[turn]
                        if actions > MAX_ACTIONS_PER_HAND:
                            raise RuntimeError(f"a playout passed {MAX_ACTIONS_PER_HAND} actions")
                        break
                if card < 0:
                    continue
            if is_eight[card] and len(hand) > 1:
                lack_row = short[after[turn]]
                count = [_lack_of(k) for k in lack_row]
                points = [0, 0, 0, 0]
                for c in hand:
                    if c != card and not is_eight[c]:
                        count[suit_of[c]] += 1
                        points[suit_of[c]] += points_of[c]
                suit = max(range(4), key=lambda s: (count[s], points[s], -s))
        actions += 1
        hand.remove(card)
        pile.append(card)
        top = card
        active = suit_of[card] if suit < 0 else suit
        row[suit_of[card]] = None
        known = True
        draws = 0
        if not hand:
            return turn, actions
        turn = after[turn]


# The seat after each seat, by table size.
_NEXT: dict[int, tuple[int, ...]] = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 3)}


def _lacks_suit(row: list[int | None], active: int) -> None:
    """A seat drew on ``active``: it had none of that suit, and one more draw since each older sign."""
    row[active] = 0
    for s in range(4):
        k = row[s]
        if k is not None:
            row[s] = k + 1


def _reshuffle(stock: list[int], pile: list[int], rng: random.Random | int) -> random.Random:
    """Turn the discards under the top card into the stock, shuffled as the rules do; return the generator.

    An int seeds a new generator, which the playout keeps for its later reshuffles.
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    order = shuffled(sorted(pile[:-1]), rng)
    order.reverse()
    stock[:] = order
    del pile[:-1]
    return rng


def _move_of(action: Action) -> tuple[int, int]:
    """An action as a playout move ``(move, suit)``."""
    if action.card is None:
        return (DRAW_MOVE if action is DRAW else PASS_MOVE, -1)
    return (int(action.card), -1 if action.suit is None else int(action.suit))


# -- the hard level: determinized search ---------------------------------------------


@dataclass(frozen=True)
class DificilParams:
    """The knobs of :class:`DificilBot`; :data:`DIFICIL_PARAMS` holds the measured choice per table size."""

    # Playouts per decision, shared among the candidate moves (each sampled
    # world is played out once per candidate).
    playouts: int = 400
    # At least this many sampled worlds, however many candidates there are.
    min_worlds: int = 12
    # Value of a playout for the searching seat. 0: the hand alone, the others'
    # penalties minus (players - 1) x its own. Otherwise the game: with the
    # totals after the hand, ``game_scale`` x (players - 1) for a won game and
    # minus that for a lost one, and while it goes on, the sum over the others
    # of their lead on it, saturating at ``game_scale`` (:func:`game_value`).
    game_scale: int = 0
    # Trust in the cpu's own choice: another move must beat it by this many
    # points a world on average (sampling noise otherwise swaps a good move
    # for a lucky one).
    margin: int = 3
    # Actions (draws, passes, plays) over all playouts, after which no new world is
    # started: long hands, full of draws and reshuffles, cost the most to play out.
    max_actions: int = 20_000
    # Deals tried per sampled world to find one where the others' past plays
    # are what the cpu's rules would have chosen (see :class:`Evidence`).
    tries: int = 8
    # Actions charged to ``max_actions`` for each hand the sampler deals (and
    # checks): with many checks to pass, dealing costs as much as playing out.
    deal_cost: int = 0
    # At three players only: value a playout by the chance to win the game
    # from the totals after its hand (:func:`engine.equity.equity`, in basis
    # points) instead of ``game_scale``; ``margin`` is then in basis points too.
    equity: bool = False


# The measured settings for each table size (see the README). Two players: 300
# playouts and a 15,000-action budget win as often as 400 and 20,000 did, and keep
# the page within its time budget. Three players: 600 playouts and a 25,000-action
# budget chose better than 400 and 20,000 (tools/dificil_regret.py), within the
# page's budget; dealing is charged to the budget, because its slowest decisions
# are the ones whose worlds are hard to deal. A playout is valued by the chance to
# win the game (the equity table), which chose better than the saturating gaps
# (game_scale 40, margin 3) move by move, and the margin is 100 basis points.
DIFICIL_PARAMS: dict[int, DificilParams] = {
    2: DificilParams(playouts=300, max_actions=15_000),
    3: DificilParams(playouts=600, max_actions=25_000, margin=100, deal_cost=8, equity=True),
}


def game_value(after: Sequence[int], me: int, scale: int) -> int:
    """A playout's worth to seat ``me`` for the game, from the totals ``after`` its hand.

    When a total reaches 100 the game is over: ``scale`` x (players - 1) if
    ``me`` has the lowest total (shared or not, the rules make it a winner),
    minus that otherwise. Else the sum of the others' leads on it, each
    saturating at ``scale`` (:func:`_lead`): ten points matter more in a close
    game than in one already far ahead or behind.
    """
    winners = game_winners(after)
    if winners:
        return scale * (len(after) - 1) * (1 if me in winners else -1)
    mine = after[me]
    return sum(_lead(t - mine, scale) for seat, t in enumerate(after) if seat != me)


def playout_worth(
    hands: Sequence[Sequence[int]],
    winner: int,
    totals: Sequence[int],
    me: int,
    scale: int,
    *,
    by_equity: bool = False,
) -> int:
    """What a playout that ``winner`` won, leaving ``hands``, is worth to seat ``me``.

    With ``by_equity`` (three players), the chance to win the game from the
    totals after the hand, in basis points (:func:`engine.equity.equity`).
    Else with ``scale`` 0 the hand alone: the others' penalties minus
    (players - 1) x its own; otherwise the game, from ``totals`` before the
    hand (:func:`game_value`).
    """
    penalties = [0 if s == winner else sum(POINTS[c] for c in hand) for s, hand in enumerate(hands)]
    if by_equity:
        mine = totals[me] + penalties[me]
        a, b = (t + p for s, (t, p) in enumerate(zip(totals, penalties, strict=True)) if s != me)
        return equity(mine, a, b)
    if scale:
        return game_value([t + p for t, p in zip(totals, penalties, strict=True)], me, scale)
    return sum(penalties) - len(hands) * penalties[me]


@lru_cache(maxsize=4096)
def _lead(gap: int, scale: int) -> int:
    """``scale`` x tanh(gap / scale) in whole points (integers: the same sums on every runtime)."""
    return round(scale * math.tanh(gap / scale))


def candidates(view: SeatView) -> list[Action]:
    """The legal actions worth weighing.

    8s are alike, so one 8 per named suit is enough; and no draw while a
    non-8 card fits (drawing by choice measured far worse for the cpu, and
    leaving it out often leaves a single move, which needs no search).
    """
    out: list[Action] = []
    seen_eight_suits: set[int | None] = set()
    follows = any(RANK_OF[c] != EIGHT for c in view.legal_cards())
    for action in view.legal:
        if action is DRAW and follows:
            continue
        card = action.card
        if card is not None and RANK_OF[card] == EIGHT:
            suit = None if action.suit is None else int(action.suit)
            if suit in seen_eight_suits:
                continue
            seen_eight_suits.add(suit)
        out.append(action)
    return out


def _same_move(action: Action, moves: list[Action]) -> Action | None:
    """``action`` or the move among ``moves`` that is alike (another 8 naming the same suit)."""
    if action in moves:
        return action
    card = action.card
    if card is not None and RANK_OF[card] == EIGHT:
        for move in moves:
            if move.card is not None and RANK_OF[move.card] == EIGHT and move.suit == action.suit:
                return move
    return None


# -- what the others' moves tell the search about their hands --------------------------

# Sets of cards as bit masks (bit ``c`` for card ``c``): the non-8 cards of a
# suit, the cards of a rank (RANK_CARDS[EIGHT] is the 8s).
SUIT_CARDS: tuple[int, ...] = tuple(
    sum(1 << c for c in range(52) if SUIT_OF[c] == suit and RANK_OF[c] != EIGHT) for suit in range(4)
)
RANK_CARDS: tuple[int, ...] = tuple(
    sum(1 << c for c in range(52) if RANK_OF[c] == rank) for rank in range(14)
)


_CPU = CpuParams()


def cpu_move(
    hand: list[int], top_rank: int, active: int, threat: int, lack_row: Sequence[int | None]
) -> tuple[int, int] | None:
    """The cpu's move from ``hand`` on bare values: ``(card, suit)``, or ``None`` for a draw or pass.

    ``threat`` is the smallest hand among the other seats and ``lack_row`` the
    next seat's row of :attr:`Reading.short`. An 8 comes back as ``(-1,
    suit)``: every 8 is alike, and ``suit`` is -1 when it is the last card.
    """
    move = _cpu_card(hand, top_rank, active, threat, lack_row, p=_CPU)
    if move is None or RANK_OF[move[0]] != EIGHT:
        return move
    return (-1, move[1])


@dataclass(frozen=True)
class Check:
    """A past play by another seat whose hand at the time follows from its hand now.

    The seat has drawn nothing since, so its hand then was its hand now plus
    ``since`` (the cards it has played from then on, this one first). Read
    with the cpu's rules, ``move`` (as :func:`cpu_move` gives it) is what that
    hand chose with ``top_rank``, ``active``, ``threat`` and ``lack`` as they
    were.
    """

    seat: int
    since: tuple[int, ...]
    move: tuple[int, int]
    top_rank: int
    active: int
    threat: int
    lack: tuple[int | None, ...]

    def holds(self, hand: list[int]) -> bool:
        """Whether a seat now holding ``hand`` would have made this move."""
        move = cpu_move(hand + list(self.since), self.top_rank, self.active, self.threat, self.lack)
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

    * the cpu draws or passes only with no card that fits and no 8;
    * it spends an 8 only when no other card fits (unless an opponent is
      down to one card, and then it sheds an 8 first if it has one);
    * a reshuffle turns every discard but the top into the stock, so nobody
      holds any of them (this one holds for every player, cpu or not).

    ``stock`` is that set after the hand's last reshuffle (the stock holds
    nothing else), or ``None``. ``checks`` are the plays whose whole hand
    is known (:class:`Check`).

    The search deals worlds that keep to the limits and prefers those that
    pass every check. A person who plays otherwise only makes some of it
    untrue: a limit a play breaks is dropped, a limit no deal can meet is
    filled anyway, and the worlds that fail the fewest checks are used.
    """

    limits: tuple[tuple[tuple[int, int], ...], ...]
    stock: int | None
    checks: tuple[Check, ...]

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


def read_evidence(view: SeatView) -> Evidence:
    """Replay the public moves of the hand from ``view``'s chair (nothing hidden is read)."""
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
    short: list[list[int | None]] = [[None, None, None, None] for _ in range(players)]  # as read_history
    seen_active: int | None = None
    limits: list[list[list[int]]] = [[] for _ in range(players)]
    stock: int | None = None
    plays: list[tuple[int, int, Check]] = []  # (index in history, the seat's draws before it, check)

    def follows() -> int:  # the cards that fit, 8s aside: the active suit and the top card's rank
        assert top is not None
        return SUIT_CARDS[active] | (0 if RANK_OF[top] == EIGHT else RANK_CARDS[RANK_OF[top]])

    for index, (seat, action, reshuffled) in enumerate(history):
        mine = limits[seat]
        threat = min(counts[s] for s in range(players) if s != seat)
        card: int | None = action.card
        if card is None:
            if top is not None:
                _lacks(mine, follows() | RANK_CARDS[EIGHT])
            row = short[seat]
            if seen_active is not None:
                row[seen_active] = 0
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
                for limit in mine:
                    limit[1] += 1
                for suit in range(4):
                    k = row[suit]
                    if k is not None:
                        row[suit] = k + 1
            continue
        card = int(card)
        if seat != me and top is not None:
            suit = -1 if action.suit is None else int(action.suit)
            move = (-1, suit) if RANK_OF[card] == EIGHT else (card, -1)
            lack = tuple(short[(seat + 1) % players])
            plays.append((index, drawn[seat], Check(seat, (), move, RANK_OF[top], active, threat, lack)))
        bit = 1 << card
        for limit in mine:
            if limit[0] & bit:
                limit[1] -= 1
        mine[:] = [g for g in mine if g[1] >= 0]  # below zero: it did not play like the cpu
        if top is not None:
            if RANK_OF[card] != EIGHT:
                if threat <= 1:  # it would have shed an 8 first
                    _lacks(mine, RANK_CARDS[EIGHT])
            elif threat > 1:  # an 8 while nothing else fits
                _lacks(mine, follows())
        counts[seat] -= 1
        short[seat][SUIT_OF[card]] = None
        top = card
        if pile is not None:
            pile.append(card)
        active = seen_active = SUIT_OF[card] if action.suit is None else int(action.suit)
    checks: list[Check] = []
    for index, draws_before, check in plays:
        seat = check.seat
        if draws_before == drawn[seat]:
            since = tuple(
                int(m.action.card) for m in history[index:] if m.seat == seat and m.action.card is not None
            )
            checks.append(replace(check, since=since))
    return Evidence(tuple(tuple((g[0], g[1]) for g in mine) for mine in limits), stock, tuple(checks))


def sample_world(
    view: SeatView, evidence: Evidence, rng: random.Random, tries: int = 1
) -> tuple[list[list[int]], list[int], int]:
    """Deal the cards this seat cannot see into the other hands and the stock, at random.

    The unseen cards are the 52 minus its own hand and the face-up pile.
    After a reshuffle the stock is dealt first, from the old discards only
    (:attr:`Evidence.stock`). Then each other seat, the most limited first,
    gets as many as it holds and, card by card, no more of a set than
    :attr:`Evidence.limits` allow; when the limits cannot be met (a person
    may draw while holding a card that fits) the seat is filled with
    whatever is left. A seat with :attr:`Evidence.checks` is dealt up to
    ``tries`` times from what is left, and the first hand that passes all of
    them is kept (else the one that fails fewest): a rejection sampler, seat
    by seat, so each hand comes in proportion to how well it explains that
    seat's plays. The rest, in random order, is the stock.

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
    for s in others:
        need = view.hand_counts[s]
        checked = any(check.seat == s for check in evidence.checks)
        best: tuple[int, list[int], list[int]] | None = None
        for attempt in range(max(tries, 1) if checked else 1):
            if attempt:
                pool = shuffled(pool, rng)
            taken, rest = _deal_within(pool, need, limits[s])
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


@lru_cache(maxsize=256)
def _limit_groups(limits: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """For each card, the limits it counts against; and the cards of the limits already reached."""
    groups = tuple(tuple(g for g, (cards, _most) in enumerate(limits) if (cards >> c) & 1) for c in range(52))
    blocked = 0
    for cards, most in limits:
        if most <= 0:
            blocked |= cards
    return groups, blocked


class Search:
    """One decision of :class:`DificilBot`, run in slices: ``step`` until it returns an action.

    ``step(n)`` plays at most ``n`` more playouts and returns ``None`` while
    the search is unfinished, then the chosen action (and the same action on
    every later call). The work is a fixed sequence: world 0 played out with
    every candidate in turn, then world 1, ..., all drawn from one generator
    in that order, so the answer is the same however the playouts are sliced
    (``choose`` runs it in one go). ``playouts`` is the total it will play;
    ``done`` how many it has.
    """

    __slots__ = (
        "_evidence",
        "_reading",
        "_world",
        "actions",
        "candidates",
        "done",
        "params",
        "playouts",
        "result",
        "rng",
        "totals",
        "view",
        "worlds",
    )

    def __init__(self, view: SeatView, params: DificilParams) -> None:
        if not view.my_turn:
            raise ValueError("the search needs a view of the seat on turn")
        if params.equity and view.players != 3:
            raise ValueError("the equity table is for three players")
        self.view = view
        self.params = params
        self.candidates = candidates(view)
        self.totals = [0] * len(self.candidates)
        self.done = 0
        self.actions = 0
        self.result: Action | None = None
        self._world: tuple[list[list[int]], list[int], int] | None = None
        self._reading = read_history(view)
        self._evidence = read_evidence(view)
        self.rng = decision_rng("dificil", view)
        k = len(self.candidates)
        self.worlds = max(params.min_worlds, params.playouts // max(k, 1))
        self.playouts = self.worlds * k
        # A card that empties the hand wins it: nothing to weigh.
        if len(view.hand) == 1 and view.legal_cards():
            self.result = PLAY[view.hand[0]]
        elif k == 1:
            self.result = self.candidates[0]
        if self.result is not None:
            self.playouts = 0

    def step(self, max_playouts: int) -> Action | None:
        """Play up to ``max_playouts`` more playouts; the chosen action once all are played."""
        if self.result is not None:
            return self.result
        view = self.view
        k = len(self.candidates)
        me = view.seat
        known = any(m.action.card is not None for m in view.history)
        scale = self.params.game_scale
        by_equity = self.params.equity
        budget = max_playouts
        while budget > 0 and self.done < self.playouts:
            j = self.done % k
            if j == 0:
                hands, stock, dealt = sample_world(view, self._evidence, self.rng, self.params.tries)
                self.actions += self.params.deal_cost * dealt
                # An int seed: Random(float) seeds differently from one Python version to another.
                self._world = (hands, stock, int(self.rng.random() * (1 << 53)))
            world = self._world
            assert world is not None
            hands, stock, seed = world
            action = self.candidates[j]
            first = _move_of(action)
            copy = [list(h) for h in hands]
            winner, actions = playout(
                copy,
                list(stock),
                list(view.pile),
                active=view.active_suit,
                turn=me,
                draws=view.draws_used,
                short=[list(r) for r in self._reading.short],
                known=known,
                rng=seed,
                first=first,
            )
            self.totals[j] += playout_worth(copy, winner, view.totals, me, scale, by_equity=by_equity)
            self.actions += actions
            self.done += 1
            budget -= 1
            # A world is weighed with every candidate or not at all; past the budget, no new world.
            worlds, part = divmod(self.done, k)
            over = self.actions >= self.params.max_actions
            if over and not part and worlds >= self.params.min_worlds:
                self.worlds = worlds
                self.playouts = self.done
        if self.done < self.playouts:
            return None
        self.result = self._pick()
        return self.result

    def _pick(self) -> Action:
        """The best total, unless the cpu's own choice is within the margin; ties in legal order."""
        preferred = _same_move(CpuBot().choose(self.view), self.candidates)
        best = max(self.totals)
        first_best = self.candidates[self.totals.index(best)]
        if preferred is None:
            return first_best
        own = self.totals[self.candidates.index(preferred)]
        return first_best if best - own > self.params.margin * self.worlds else preferred

    def run(self) -> Action:
        """Finish the search in one go."""
        action = self.step(self.playouts - self.done + 1)
        assert action is not None
        return action


class DificilBot:
    """The hard level: for each candidate move, play sampled worlds out to the end of the hand.

    Determinized search: it deals the cards it cannot see at random, but only
    in ways that fit what its seat has seen (:func:`sample_world` with
    :func:`read_evidence`: its own hand, the face-up pile, every hand's size,
    what the others' draws, passes, 8s and plays say about their hands read
    as the cpu's rules, and which old discards a reshuffle put back in the
    stock), never the real hidden cards; then it plays each candidate move
    in each world and lets the cpu's rules play every seat to the end of the
    hand, and keeps the move with the best total value (the others'
    penalties minus its own; at three players, the chance to win the game
    from the totals after the hand, :func:`engine.equity.equity`), unless
    the cpu's own choice comes within ``margin`` a world of it. It stops early, between worlds,
    once its playouts (and, at ``deal_cost`` each, the hands its sampler
    dealt) have taken ``max_actions`` actions. All its randomness
    comes from :func:`decision_rng`, so the same view always gives the same
    action and a game replays from its record on any Python.

    For the page, which must not block the browser for long: ``start(view)``
    returns a :class:`Search`; call ``search.step(n)`` with a small ``n``
    (each playout is a fraction of a millisecond) between frames until it
    returns the action. ``choose(view)`` is ``start(view).run()`` and gives
    the same action.
    """

    __slots__ = ("params",)

    def __init__(self, params: DificilParams | None = None) -> None:
        # None: the measured settings for the table's size (:data:`DIFICIL_PARAMS`).
        self.params = params

    def start(self, view: SeatView) -> Search:
        """A search for ``view``'s decision, to be run with :meth:`Search.step`."""
        return Search(view, self.params or DIFICIL_PARAMS[view.players])

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return self.start(view).run()


# -- choosing a bot by name ---------------------------------------------------------

# The page's three levels and the bot that plays each one.
LEVEL_BOTS = {"facil": "facil", "normal": "cpu", "dificil": "dificil"}


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
    """The opponent for a CPU level of the page: ``"facil"``, ``"normal"`` or ``"dificil"``."""
    if level not in LEVEL_BOTS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVEL_BOTS)}")
    return make_bot(LEVEL_BOTS[level])


__all__ = [
    "BOT_NAMES",
    "DIFICIL_PARAMS",
    "LEVEL_BOTS",
    "RANK_CARDS",
    "SUIT_CARDS",
    "BasicBot",
    "Bot",
    "Check",
    "CpuBot",
    "CpuParams",
    "DificilBot",
    "DificilParams",
    "Evidence",
    "FacilBot",
    "FacilParams",
    "RandomBot",
    "Reading",
    "Search",
    "candidates",
    "cpu_move",
    "decision_rng",
    "make_bot",
    "make_level_bot",
    "playout",
    "read_evidence",
    "read_history",
    "sample_world",
]
