"""What one seat may see: its own hand, and only counts for everything hidden.

Bots and the page are given a :class:`SeatView`, never the :class:`Game`, so
neither can peek at another hand or at the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import RANK_OF, SUIT_OF, Card, sort_key
from .game import MAX_DRAWS, Game, HandResult


@dataclass(frozen=True)
class SeatView:
    """A snapshot of the table from ``seat``'s chair.

    ``history`` is the public record of this hand: ``"1:draw"``, ``"0:7H"``,
    ``"2:8S:C"`` (an 8 naming clubs), ``"1:pass"`` or ``"reshuffle"``; which
    card a draw took is not in it. ``legal`` is empty unless it is ``seat``'s
    turn.
    """

    seat: int
    players: int
    code: str
    hand_no: int
    leader: int
    phase: str
    turn: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    pile_count: int
    top: Card
    active_suit: int
    draws_used: int
    can_draw: bool
    can_pass: bool
    legal: tuple[Action, ...]
    totals: tuple[int, ...]
    history: tuple[str, ...]
    result: HandResult | None

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase == "play"

    @property
    def draws_left(self) -> int:
        return MAX_DRAWS - self.draws_used

    @property
    def top_rank(self) -> int:
        return RANK_OF[self.top]

    def sorted_hand(self) -> list[Card]:
        """The hand by suit (S, H, D, C) then rank, as the page shows it."""
        return sorted(self.hand, key=sort_key)

    def legal_cards(self) -> tuple[Card, ...]:
        """Cards of this hand that rule 4 allows on the current top card."""
        top_rank = RANK_OF[self.top]
        return tuple(
            c
            for c in self.hand
            if RANK_OF[c] == 8 or SUIT_OF[c] == self.active_suit or RANK_OF[c] == top_rank
        )


def seat_view(game: Game, seat: int) -> SeatView:
    """Build the view of ``game`` for ``seat``."""
    if not 0 <= seat < game.players:
        raise ValueError(f"no hay asiento {seat} en una mesa de {game.players}")
    on_turn = game.turn == seat and game.phase == "play"
    return SeatView(
        seat=seat,
        players=game.players,
        code=game.code.text,
        hand_no=game.hand_no,
        leader=game.leader,
        phase=game.phase,
        turn=game.turn,
        hand=tuple(game.hands[seat]),
        hand_counts=tuple(len(h) for h in game.hands),
        stock_count=len(game.stock),
        pile_count=len(game.pile),
        top=game.pile[-1],
        active_suit=game.active_suit,
        draws_used=game.draws,
        can_draw=on_turn and game.can_draw,
        can_pass=on_turn and game.can_pass(),
        legal=tuple(game.legal_actions()) if on_turn else (),
        totals=tuple(game.totals),
        history=tuple(game.history),
        result=game.result,
    )
