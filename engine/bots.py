"""Computer players: ``random`` (the baseline), ``basic`` and ``cpu`` (the opponent people meet).

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
>>> game = Game.new("A2K7QM92")
>>> bot = make_bot("cpu")
>>> action = bot.choose(game.view(0))
>>> action in game.legal_actions()
True
>>> bot.choose(game.view(0)) is action   # same view, same answer
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from .actions import DRAW, PASS, PLAY, PLAY8, PLAY_KIND, Action
from .cards import EIGHT, POINTS, RANK_OF, SUIT_OF, Card
from .codes import stream
from .view import SeatView

BOT_NAMES = ("random", "basic", "cpu")


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
        p = self.params
        hand = view.hand
        me = view.seat
        threat = min(view.hand_counts[s] for s in range(view.players) if s != me)
        plays = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
        eights = [c for c in hand if RANK_OF[c] == EIGHT]
        if not plays and not (eights and (p.eight_over_draw or not view.can_draw)):
            return DRAW if view.can_draw else PASS
        lack = self._lack(view, read_history(view))
        if threat <= p.danger:
            card = max(plays + eights, key=lambda c: (POINTS[c], -c))
            if RANK_OF[card] == EIGHT:
                return self._eight(view, card, lack, threat)
            return PLAY[card]
        if plays:
            return PLAY[self._best_play(hand, plays, lack)]
        return self._eight(view, eights[0], lack, threat)

    def _lack(self, view: SeatView, reading: Reading) -> list[float]:
        """For each suit, how sure we are that the next player has none of it (0..1)."""
        out = [0.0, 0.0, 0.0, 0.0]
        nxt = (view.seat + 1) % view.players
        row = reading.short[nxt]
        decay = self.params.decay
        for suit in range(4):
            drawn = row[suit]
            if drawn is not None:
                out[suit] = decay ** max(drawn - 1, 0)
        return out

    def _best_play(self, hand: tuple[Card, ...], plays: list[Card], lack: list[float]) -> Card:
        p = self.params
        suit_count = [0, 0, 0, 0]
        rank_count = [0] * 14
        for c in hand:
            if RANK_OF[c] != EIGHT:
                suit_count[SUIT_OF[c]] += 1
                rank_count[RANK_OF[c]] += 1

        def score(c: Card) -> tuple[float, int]:
            suit = SUIT_OF[c]
            value = (
                p.w_suit * (suit_count[suit] - 1)
                + p.w_rank * (rank_count[RANK_OF[c]] - 1)
                + p.w_points * POINTS[c]
                + p.w_short * lack[suit]
            )
            return (value, -c)

        return max(plays, key=score)

    def _eight(self, view: SeatView, card: Card, lack: list[float], threat: int) -> Action:
        if len(view.hand) == 1:
            return PLAY[card]
        p = self.params
        weight = p.w_avoid_danger if threat <= p.danger else p.w_avoid
        count = [weight * lack[suit] for suit in range(4)]
        points = [0, 0, 0, 0]
        for c in view.hand:
            if c != card and RANK_OF[c] != EIGHT:
                count[SUIT_OF[c]] += 1
                points[SUIT_OF[c]] += POINTS[c]
        suit = max(range(4), key=lambda s: (count[s], points[s], -s))
        return PLAY8[card][suit]


def make_bot(name: str, seed: object = 0) -> Bot:
    """The bot called ``name``: ``"random"``, ``"basic"`` or ``"cpu"``.

    ``seed`` fixes the generator of the random and basic bots (any value with
    a stable text form, e.g. ``(7, 12, 1)``); the cpu bot is deterministic
    and ignores it.
    """
    if name == "random":
        return RandomBot(stream("bot", name, seed))
    if name == "basic":
        return BasicBot(stream("bot", name, seed))
    if name == "cpu":
        return CpuBot()
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")


__all__ = [
    "BOT_NAMES",
    "BasicBot",
    "Bot",
    "CpuBot",
    "CpuParams",
    "RandomBot",
    "Reading",
    "make_bot",
    "read_history",
]
