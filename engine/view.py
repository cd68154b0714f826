"""What one seat may see: its own hand, and only counts for everything hidden.

Bots and the page are given a :class:`SeatView`, never the :class:`Game`, so
neither can peek at another hand or at the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import PLAY_KIND, Action
from .cards import RANK_OF, Card, sort_key
from .game import MAX_DRAWS, PLAYING, Game, HandResult, Move, Phase


@dataclass(frozen=True)
class SeatView:
    """A snapshot of the table from ``seat``'s chair.

    ``history`` is the public record of this hand, one
    :class:`~engine.game.Move` per action (printed ``1:draw``, ``0:7H``,
    ``2:8S:C`` for an 8 naming clubs, ``1:pass``; ``1:draw*`` when the pile was
    reshuffled into a new stock first); which card a draw took is not in it.
    ``pile`` is the discard pile bottom to top (its last card is ``top``):
    the card turned up at the deal or left on top by the last reshuffle, then
    every card played since. All of it was face up for everyone, so it is
    public; a bot that remembers what it saw needs it (the view has no other
    way to learn the turned-up card once it is covered). ``opening`` is the
    card turned up at the deal, also public (``None`` when a game restored
    from an old snapshot no longer shows it).
    ``legal`` is empty unless it is ``seat``'s turn. ``result`` is this
    hand's result once it is over, and ``None`` while it is played (the game
    keeps the previous hand's result into the next; a view never shows it).
    """

    seat: int
    players: int
    code: str
    hand_no: int
    leader: int
    phase: Phase
    turn: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    pile_count: int
    pile: tuple[Card, ...]
    top: Card
    opening: Card | None
    active_suit: int
    draws_used: int
    can_draw: bool
    can_pass: bool
    legal: tuple[Action, ...]
    totals: tuple[int, ...]
    history: tuple[Move, ...]
    result: HandResult | None

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase == PLAYING

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
        """Cards this seat may play now (from ``legal``: empty when it is not its turn), once each."""
        out: list[Card] = []
        for action in self.legal:
            if action.kind == PLAY_KIND and action.card is not None and action.card not in out:
                out.append(action.card)
        return tuple(out)

    def plays_of(self, card: Card) -> tuple[Action, ...]:
        """The legal actions that play ``card``: one, four for an 8 that names a suit, or none."""
        return tuple(a for a in self.legal if a.card == card)


def seat_view(game: Game, seat: int) -> SeatView:
    """Build the view of ``game`` for ``seat``."""
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} at a table of {game.players}")
    on_turn = game.turn == seat and game.phase == PLAYING
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
        pile=tuple(game.pile),
        top=game.pile[-1],
        opening=game.opening,
        active_suit=game.active_suit,
        draws_used=game.draws,
        can_draw=on_turn and game.can_draw,
        can_pass=on_turn and game.can_pass(),
        legal=tuple(game.legal_actions()) if on_turn else (),
        totals=tuple(game.totals),
        history=tuple(game.hand_history),
        result=game.result if game.phase != PLAYING else None,
    )
