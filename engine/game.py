"""The Ocho Loco table: one game of hands played to 100 penalty points.

House rules (numbered as in the README and the tests ``test_rule_NN_*``):

1. 52 French cards, no jokers. 2 seats deal 7 each, 3 seats deal 5 each; the
   rest is the stock and one card is turned up to start the discard pile.
2. Turn order is fixed, seat 0 (the person), 1, 2, 0, ...; no card skips,
   reverses or makes anyone draw.
3. Seat 0 leads the first hand; the winner of a hand leads the next one.
4. A card is legal when it is an 8, matches the active suit, or matches the
   rank of the top card.
5. An 8 names a suit (any of the four, its own included), active until the
   next card; an 8 may go on an 8.
6. A turned-up starting 8 makes its own suit active; nobody names one.
7. At most 3 draws a turn; after a draw the player may play any legal card or
   draw again up to the cap; drawing is allowed while holding a legal card.
8. Pass only with no legal card and either 3 draws used or nothing to draw.
9. Drawing from an empty stock first shuffles every discard but the top card
   into a new stock (top card and active suit stay). With an empty stock and a
   one-card pile there is nothing to draw.
10. Playing the last card wins the hand, also with an 8 (no suit is named).
11. Losers score their cards: 8 = 50, J/Q/K = 10, A = 1, others face value.
12. Totals add up; after a hand where a total reaches 100 the game ends and
    the lowest total wins (ties share the win).

Encoding: internally cards are ints 0..51 (see :mod:`engine.cards`); the stock
is a list with its top card at the *end* (``pop()``), the pile a list with its
top card at the end. Actions are the interned values of :mod:`engine.actions`.
``apply`` always checks legality and raises :class:`IllegalAction` with a
reason a player understands (in Spanish, the product's language).

>>> game = Game.new(GameCode.build(2, "K7QM9"))
>>> [str(c) for c in game.hands[0]], str(game.top)
(['3H', 'AS', 'QD', '2H', '10D', '9S', '5H'], '10C')
>>> [str(a) for a in game.legal_actions()]
['10D', 'draw']
>>> game.apply(Action.parse("3H"))
Traceback (most recent call last):
...
engine.game.IllegalAction: No vale: hace falta un trébol, un 10 o un 8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .actions import DRAW, DRAW_KIND, PASS, PASS_KIND, PLAY, PLAY8, PLAY_KIND, Action
from .cards import CARDS, EIGHT, POINTS, RANK_OF, SUIT_OF, TEXT, Card, Suit
from .codes import GameCode, deal_rng, reshuffle_rng, shuffled
from .names import card_name, needed_phrase, rank_with_article, suit_name

HAND_SIZE = {2: 7, 3: 5}
MAX_DRAWS = 3
TARGET = 100
# Random-vs-random hands can run to several thousand actions (longest seen: 6,606);
# this bound only stops a driver loop spinning on a bug, in well under a second.
MAX_ACTIONS_PER_HAND = 100_000

# Every hand gives each loser at least 1 point (a loser holds a card, and the
# cheapest card, an ace, is worth 1), so the totals' sum grows by at least
# players - 1 a hand and someone passes 99 within this many hands (2 seats:
# 199; 3 seats: 149). Records longer than the rules allow are refused with it.
MAX_HANDS = 2 * (TARGET - 1) + 1


class Phase(StrEnum):
    """What the table waits for; the values are the texts the page and the event log use."""

    PLAYING = "play"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


PLAYING = Phase.PLAYING
HAND_OVER = Phase.HAND_OVER
GAME_OVER = Phase.GAME_OVER


class Move(NamedTuple):
    """One entry of the history: who did what (``reshuffled`` when the draw emptied the pile first).

    >>> str(Move(1, DRAW, reshuffled=True)), str(Move(0, PLAY[5]))
    ('1:draw*', '0:6S')
    """

    seat: int
    action: Action
    reshuffled: bool = False

    def __str__(self) -> str:
        return f"{self.seat}:{self.action.text}" + ("*" if self.reshuffled else "")


def fits(card: int, active_suit: int, top_rank: int) -> bool:
    """Rule 4, the one definition: an 8, the active suit, or the top card's rank.

    The hot loops in :meth:`Game.legal_cards` and :meth:`Game.legal_actions`
    inline this test; ``tests/test_rules.py`` checks they agree with it.
    """
    rank = RANK_OF[card]
    return rank in (EIGHT, top_rank) or SUIT_OF[card] == active_suit


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(err)`` is a sentence for the player."""


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: who went out, what everyone else held and scored."""

    hand: int
    winner: int
    leftovers: tuple[tuple[Card, ...], ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    game_over: bool
    winners: tuple[int, ...]


def game_winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Who wins with these totals (rule 12): the lowest, shared or not, once one reaches 100; else nobody."""
    if max(totals) < TARGET:
        return ()
    low = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == low)


class Game:
    """A whole game: hands dealt from a :class:`GameCode` until someone reaches 100.

    Mutable and fast: ``apply`` changes the game in place (like a chess board's
    ``push``). Use :meth:`copy`, or :mod:`engine.save` to keep a position.
    """

    __slots__ = (
        "actions_this_hand",
        "active_suit",
        "code",
        "draws",
        "hand_no",
        "hand_start",
        "hands",
        "history",
        "leader",
        "opening",
        "origin",
        "phase",
        "pile",
        "players",
        "reshuffles",
        "result",
        "stock",
        "totals",
        "turn",
    )

    code: GameCode
    players: int
    hand_no: int
    leader: int
    turn: int
    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]
    active_suit: int
    draws: int
    reshuffles: int
    totals: list[int]
    phase: Phase
    result: HandResult | None
    history: list[Move]
    hand_start: int
    actions_this_hand: int
    origin: tuple[int, int, tuple[int, ...]] | None

    # -- construction -------------------------------------------------------

    @classmethod
    def new(cls, code: GameCode | str, origin: tuple[int, int, tuple[int, ...]] | None = None) -> Game:
        """Start a game from ``code`` with its first hand dealt, led by seat 0.

        ``origin`` = (hand, leader, totals) instead deals that hand, led by that
        seat, over totals carried from earlier hands that are not known move by
        move (only saves of the page's first version need it; see
        :mod:`engine.record`).
        """
        if not isinstance(code, GameCode):
            code = GameCode.parse(code)
        game = cls.__new__(cls)
        game.code = code
        game.players = code.players
        game.result = None
        game.history = []
        game.origin = origin
        if origin is None:
            game.totals = [0] * code.players
            game._deal(0, leader=0)
        else:
            hand, leader, totals = origin
            if len(totals) != code.players or not 0 <= leader < code.players:
                raise ValueError("origin does not fit the table")
            game.totals = list(totals)
            game._deal(hand, leader)
        return game

    def _deal(self, hand_no: int, leader: int) -> None:
        order = deal_order(self.code, hand_no)
        n = HAND_SIZE[self.players]
        p = self.players
        self.hand_no = hand_no
        self.leader = leader
        self.turn = leader
        self.hands = [order[seat : n * p : p] for seat in range(p)]
        top = order[n * p]
        self.pile = [top]
        self.opening: Card | None = top
        rest = order[n * p + 1 :]
        rest.reverse()  # top of stock at the end
        self.stock = rest
        # Rule 6: a starting 8 keeps its own suit; nobody names one.
        self.active_suit = SUIT_OF[top]
        self.draws = 0
        self.reshuffles = 0
        self.phase = PLAYING
        self.hand_start = len(self.history)
        self.actions_this_hand = 0

    def copy(self) -> Game:
        """An independent copy of this game."""
        other = Game.__new__(Game)
        other.code = self.code
        other.players = self.players
        other.hand_no = self.hand_no
        other.leader = self.leader
        other.turn = self.turn
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.opening = self.opening
        other.active_suit = self.active_suit
        other.draws = self.draws
        other.reshuffles = self.reshuffles
        other.totals = list(self.totals)
        other.phase = self.phase
        other.result = self.result
        other.history = list(self.history)
        other.hand_start = self.hand_start
        other.origin = self.origin
        other.actions_this_hand = self.actions_this_hand
        return other

    # -- what the position is -----------------------------------------------

    @property
    def top(self) -> Card:
        return self.pile[-1]

    @property
    def hand_history(self) -> list[Move]:
        """The moves of the hand being played (or just finished)."""
        return self.history[self.hand_start :]

    def nothing_to_draw(self) -> bool:
        """Rule 9: an empty stock and a pile of just the top card leave nothing to draw."""
        return not self.stock and len(self.pile) <= 1

    @property
    def can_draw(self) -> bool:
        """The draw condition, written once: rule 7's cap and rule 9's supply.

        :meth:`legal_actions` inlines it; a test checks they agree.
        """
        return self.phase == PLAYING and self.draws < MAX_DRAWS and not self.nothing_to_draw()

    def is_legal_card(self, card: int) -> bool:
        """Rule 4 for ``card`` on the current table (see :func:`fits`)."""
        return fits(card, self.active_suit, RANK_OF[self.pile[-1]])

    def legal_cards(self, seat: int | None = None) -> list[Card]:
        """Cards of ``seat`` (default: the player on turn) that rule 4 allows now."""
        hand = self.hands[self.turn if seat is None else seat]
        active = self.active_suit
        top_rank = RANK_OF[self.pile[-1]]
        return [c for c in hand if RANK_OF[c] == EIGHT or SUIT_OF[c] == active or RANK_OF[c] == top_rank]

    def legal_actions(self) -> list[Action]:
        """Every action the player on turn may take, in a stable order.

        Plays come in hand order (an 8 once per suit it can name, or once with
        no suit when it is the last card), then ``draw`` if allowed, else
        ``pass`` if allowed. Empty when the hand is over.
        """
        if self.phase != PLAYING:
            return []
        hand = self.hands[self.turn]
        active = self.active_suit
        top_rank = RANK_OF[self.pile[-1]]
        out: list[Action] = []
        for c in hand:
            rank = RANK_OF[c]
            if rank == EIGHT:
                if len(hand) == 1:
                    out.append(PLAY[c])
                else:
                    out.extend(PLAY8[c])
            elif SUIT_OF[c] == active or rank == top_rank:
                out.append(PLAY[c])
        if self.draws < MAX_DRAWS and (self.stock or len(self.pile) > 1):
            out.append(DRAW)
        elif not out:
            out.append(PASS)
        return out

    def can_pass(self) -> bool:
        """Rule 8: no legal card, and 3 draws used or nothing left to draw."""
        return self.phase == PLAYING and not self.can_draw and not self.legal_cards()

    # -- checking and applying ----------------------------------------------

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` saying why, unless ``action`` is legal now."""
        if not isinstance(action, Action):
            raise IllegalAction("Eso no es una jugada.")
        if self.phase != PLAYING:
            raise IllegalAction("La mano ha terminado.")
        kind = action.kind
        if kind == DRAW_KIND:
            if self.draws >= MAX_DRAWS:
                raise IllegalAction(f"Ya has robado {MAX_DRAWS} cartas en este turno.")
            if self.nothing_to_draw():
                raise IllegalAction("No queda nada que robar.")
            return
        if kind == PASS_KIND:
            legal = self.legal_cards()
            if legal:
                best = min(legal, key=lambda c: (RANK_OF[c] == EIGHT, c))
                raise IllegalAction(
                    f"No puedes pasar: tienes carta que vale ({card_name(best, article=True)})."
                )
            if self.can_draw:
                left = MAX_DRAWS - self.draws
                raise IllegalAction(
                    "No puedes pasar: aún puedes robar " + ("1 carta." if left == 1 else f"{left} cartas.")
                )
            return
        card = action.card
        if kind != PLAY_KIND or card is None:
            raise IllegalAction("Eso no es una jugada.")
        hand = self.hands[self.turn]
        if card not in hand:
            raise IllegalAction(f"No tienes {card_name(card, article=True)}.")
        if not self.is_legal_card(card):
            raise IllegalAction(
                "No vale: hace falta " + needed_phrase(self.active_suit, RANK_OF[self.pile[-1]]) + "."
            )
        if RANK_OF[card] == EIGHT:
            if len(hand) == 1:
                if action.suit is not None:
                    raise IllegalAction("Con tu última carta no hace falta pedir palo.")
            elif action.suit is None:
                raise IllegalAction("Al tirar un 8 tienes que pedir un palo.")
        elif action.suit is not None:
            raise IllegalAction(f"Solo un 8 pide palo; {rank_with_article(RANK_OF[card], definite=True)} no.")

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> Card | None:
        """Check ``action`` and carry it out; return the card drawn, if any.

        Raises :class:`IllegalAction` (leaving the game untouched) when the
        rules refuse it.
        """
        self.check(action)
        self.actions_this_hand += 1
        seat = self.turn
        kind = action.kind
        if kind == DRAW_KIND:
            stock = self.stock
            reshuffled = not stock
            if reshuffled:
                self._reshuffle()
                stock = self.stock
            drawn = stock.pop()
            self.hands[seat].append(drawn)
            self.draws += 1
            self.history.append(Move(seat, action, reshuffled))
            return drawn
        if kind == PASS_KIND:
            self.history.append(Move(seat, action))
            self.draws = 0
            self.turn = (seat + 1) % self.players
            return None
        card = action.card
        assert card is not None
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.active_suit = SUIT_OF[card] if action.suit is None else int(action.suit)
        self.history.append(Move(seat, action))
        self.draws = 0
        if not hand:
            self._end_hand(seat)
        else:
            self.turn = (seat + 1) % self.players
        return None

    def _reshuffle(self) -> None:
        """Rule 9: every discard but the top card becomes a new, shuffled stock."""
        top = self.pile[-1]
        # Sorted first, so the new stock depends only on which cards are there
        # and on (code, hand, reshuffle number), never on the order of play.
        cards = sorted(self.pile[:-1])
        self.reshuffles += 1
        order = shuffled(cards, reshuffle_rng(self.code, self.hand_no, self.reshuffles))
        order.reverse()  # the shuffle lists the new stock top first
        self.stock = order
        self.pile = [top]

    def _end_hand(self, winner: int) -> None:
        penalties = tuple(0 if s == winner else sum(POINTS[c] for c in h) for s, h in enumerate(self.hands))
        for s, p in enumerate(penalties):
            self.totals[s] += p
        winners = game_winners(self.totals)
        game_over = bool(winners)
        self.result = HandResult(
            hand=self.hand_no,
            winner=winner,
            leftovers=tuple(tuple(h) for h in self.hands),
            penalties=penalties,
            totals=tuple(self.totals),
            game_over=game_over,
            winners=winners,
        )
        self.phase = GAME_OVER if game_over else HAND_OVER
        self.turn = winner

    def next_hand(self) -> None:
        """Deal the next hand, led by the winner of the last one (rule 3)."""
        if self.phase != HAND_OVER or self.result is None:
            raise IllegalAction(
                "La partida ha terminado." if self.phase == GAME_OVER else "La mano aún no ha terminado."
            )
        self._deal(self.hand_no + 1, leader=self.result.winner)

    # -- convenience ----------------------------------------------------------

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won the game (lowest total, ties share); empty until it ends."""
        return self.result.winners if self.phase == GAME_OVER and self.result else ()

    def all_cards(self) -> list[Card]:
        """Every card on the table (hands, stock, pile): always the 52, once each."""
        out: list[Card] = [c for h in self.hands for c in h]
        out.extend(self.stock)
        out.extend(self.pile)
        return out

    def __repr__(self) -> str:
        return (
            f"<Game {self.code.text} hand {self.hand_no} {self.phase} turn {self.turn} "
            f"top {TEXT[self.pile[-1]]} suit {Suit(self.active_suit).letter} draws {self.draws}>"
        )


def deal_order(code: GameCode, hand_no: int) -> list[Card]:
    """The shuffled deck for hand ``hand_no`` of ``code``, top card first."""
    return shuffled(CARDS, deal_rng(code, hand_no))


__all__ = [
    "GAME_OVER",
    "HAND_OVER",
    "HAND_SIZE",
    "MAX_ACTIONS_PER_HAND",
    "MAX_DRAWS",
    "MAX_HANDS",
    "PLAYING",
    "TARGET",
    "Game",
    "HandResult",
    "IllegalAction",
    "Move",
    "Phase",
    "deal_order",
    "fits",
    "game_winners",
    "suit_name",
]
