"""Computer players: ``random`` (the baseline) and ``cpu`` (the opponent people meet).

A bot sees the table only through a :class:`~engine.view.SeatView` and answers
with one legal :class:`~engine.actions.Action` at a time: a draw, then a later
decision once the drawn card is in its hand.

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

from .actions import DRAW, PASS, PLAY, PLAY8, Action
from .cards import BY_TEXT, EIGHT, POINTS, RANK_OF, SUIT_OF, Card
from .codes import stream
from .view import SeatView

BOT_NAMES = ("random", "cpu")


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
    for entry in view.history:
        if entry == "reshuffle":
            pile = {last} if last is not None else set()
            continue
        seat_text, _, what = entry.partition(":")
        seat = int(seat_text)
        row = short[seat]
        if what in {"draw", "pass"}:
            if active is not None:
                row[active] = 0
            if what == "draw":
                for suit in range(4):
                    count = row[suit]
                    if count is not None:
                        row[suit] = count + 1
            continue
        card_text, _, named = what.partition(":")
        card = BY_TEXT[card_text]
        row[SUIT_OF[card]] = None
        pile.add(card)
        last = card
        active = "SHDC".index(named) if named else SUIT_OF[card]
    return Reading(tuple(tuple(r) for r in short), frozenset(pile))


# -- the cpu player -------------------------------------------------------------


@dataclass(frozen=True)
class CpuParams:
    """The knobs of :class:`CpuBot`; the defaults are the measured best (see ``engine.simulate``)."""

    # Eights: play one rather than draw when no other card fits.
    eight_over_draw: bool = True
    # Opponent this close to going out: shed the most expensive legal card.
    danger: int = 2
    # Score of a non-eight play: weight of same-suit cards kept, of the card's points,
    # of same-rank cards kept (they follow the top card whatever suit is asked).
    w_suit: float = 1.0
    w_points: float = 0.05
    w_rank: float = 0.5
    # Nomination: how much to avoid a suit a nearly-out opponent is thought to have.
    w_avoid: float = 2.0


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
        others = [view.hand_counts[s] for s in range(view.players) if s != me]
        threat = min(others)
        plays = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
        eights = [c for c in hand if RANK_OF[c] == EIGHT]
        reading: Reading | None = None

        if threat <= p.danger:
            reading = read_history(view)
            candidates = plays + eights
            if candidates:
                card = max(candidates, key=lambda c: (POINTS[c], -c))
                if RANK_OF[card] == EIGHT:
                    return self._eight(view, card, reading)
                return PLAY[card]
        if plays:
            return PLAY[self._best_play(hand, plays)]
        if eights and (p.eight_over_draw or not view.can_draw):
            return self._eight(view, eights[0], reading or read_history(view))
        if view.can_draw:
            return DRAW
        return PASS

    def _best_play(self, hand: tuple[Card, ...], plays: list[Card]) -> Card:
        p = self.params
        suit_count = [0, 0, 0, 0]
        rank_count = [0] * 14
        for c in hand:
            if RANK_OF[c] != EIGHT:
                suit_count[SUIT_OF[c]] += 1
                rank_count[RANK_OF[c]] += 1

        def score(c: Card) -> tuple[float, int]:
            value = (
                p.w_suit * (suit_count[SUIT_OF[c]] - 1)
                + p.w_rank * (rank_count[RANK_OF[c]] - 1)
                + p.w_points * POINTS[c]
            )
            return (value, -c)

        return max(plays, key=score)

    def _eight(self, view: SeatView, card: Card, reading: Reading) -> Action:
        if len(view.hand) == 1:
            return PLAY[card]
        return PLAY8[card][self._nominate(view, card, reading)]

    def _nominate(self, view: SeatView, played: Card, reading: Reading) -> int:
        p = self.params
        count = [0.0, 0.0, 0.0, 0.0]
        points = [0, 0, 0, 0]
        for c in view.hand:
            if c != played and RANK_OF[c] != EIGHT:
                count[SUIT_OF[c]] += 1
                points[SUIT_OF[c]] += POINTS[c]
        for s in range(view.players):
            if s == view.seat or view.hand_counts[s] > p.danger:
                continue
            for suit in range(4):
                drawn = reading.short[s][suit]
                # A suit they showed they lack (and drew little since) is the one to ask for.
                if drawn is None or drawn > 1:
                    count[suit] -= p.w_avoid * 0.5
        best = max(range(4), key=lambda suit: (count[suit], points[suit], -suit))
        return best


def make_bot(name: str, seed: object = 0) -> Bot:
    """The bot called ``name`` (``"random"`` or ``"cpu"``).

    ``seed`` fixes the random bot's generator (any value with a stable text
    form, e.g. ``(7, 12, 1)``); the cpu bot is deterministic and ignores it.
    """
    if name == "random":
        return RandomBot(stream("bot", name, seed))
    if name == "cpu":
        return CpuBot()
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "CpuBot", "CpuParams", "RandomBot", "Reading", "make_bot", "read_history"]
