"""Seat views: everything a seat may know, and nothing it may not."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import budget
from support import choose, position, texts

from engine.actions import Action
from engine.cards import Card
from engine.codes import ALPHABET, GameCode
from engine.game import GAME_OVER, HAND_OVER, HAND_SIZE, PLAYING, Game, deal_order
from engine.view import SeatView, seat_view

codes = st.builds(GameCode.build, st.sampled_from([2, 3]), st.text(alphabet=ALPHABET, min_size=5, max_size=5))


def test_view_fields_from_the_seats_chair() -> None:
    game = position(["5H KC 8D", "3C 4C", "9S"], pile="2D 6H", stock="JD QD", draws=1)
    view = seat_view(game, 0)
    assert view.seat == 0 and view.players == 3 and view.code == game.code.text
    assert view.hand == tuple(game.hands[0]) and view.hand_counts == (3, 2, 1)
    assert view.stock_count == len(game.stock) and view.pile_count == len(game.pile)
    assert view.top == Card.parse("6H") and view.top_rank == 6 and view.active_suit == 1
    assert view.draws_used == 1 and view.draws_left == 2 and view.can_draw and not view.can_pass
    assert view.my_turn and view.legal == tuple(game.legal_actions())
    assert texts(view.legal_cards()) == ["5H", "8D"] == texts(game.legal_cards())
    assert texts(view.sorted_hand()) == ["5H", "8D", "KC"]
    assert view.totals == (0, 0, 0) and view.phase == PLAYING and view.result is None
    other = seat_view(game, 1)
    assert other.hand == tuple(game.hands[1]) and not other.my_turn
    assert other.legal == () and not other.can_draw and not other.can_pass
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 1  # type: ignore[misc]
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="no seat"):
            seat_view(game, seat)


def test_history_is_public_and_draws_do_not_show_the_card() -> None:
    game = position(["KC 2C 8D", "3C 4C"], pile="6H", stock="JD QD")
    for word in ("draw", "8D:C", "3C"):
        game.apply(Action.parse(word))
    assert texts(seat_view(game, 1).history) == ["0:draw", "0:8D:C", "1:3C"]
    assert all("JD" not in str(entry) for entry in seat_view(game, 1).history)


def test_finished_hand_shows_everyones_leftovers() -> None:
    game = position(["3H", "5C 9D"], pile="6H")
    game.apply(Action.parse("3H"))
    view = seat_view(game, 1)
    assert view.phase == HAND_OVER and not view.my_turn and view.legal == ()
    assert view.result is not None and texts(view.result.leftovers[1]) == ["5C", "9D"]


def cards_in(value: object) -> set[int]:
    """Every card value found anywhere inside a view field."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, Action):
        return {value.card} if value.card is not None else set()
    if isinstance(value, tuple | list):
        return set().union(*map(cards_in, value)) if value else set()
    return set()


def random_position(code: GameCode, seed: int, steps: int) -> Game:
    """A position after ``steps`` random actions; odd seeds stop at a hand's end."""
    game, rng = Game.new(code), random.Random(seed)
    for _ in range(steps):
        if game.phase == HAND_OVER:
            if seed % 2:
                break
            game.next_hand()
        elif game.phase == GAME_OVER:
            break
        else:
            game.apply(choose(game, rng))
    return game


@budget(60)
@given(codes, st.integers(0, 2**32), st.integers(0, 600))
def test_a_view_holds_no_card_of_another_hand(code: GameCode, seed: int, steps: int) -> None:
    game = random_position(code, seed, steps)
    for seat in range(game.players):
        view = seat_view(game, seat)
        hidden = {c for s, h in enumerate(game.hands) if s != seat for c in h} | set(game.stock)
        for field in dataclasses.fields(SeatView):
            # The turned-up card was face up for everyone at the deal; after a reshuffle
            # it may be in the stock or a hand, but the view says only which card it was.
            if field.name in {"history", "result", "opening"}:
                continue
            leaked = cards_in(getattr(view, field.name)) & hidden
            assert not leaked, f"view.{field.name} of seat {seat} shows {texts(sorted(leaked))}"
        # The history names only plays (public), never what a draw took.
        for entry in view.history:
            assert isinstance(entry.action, Action)
            assert entry.action.card is None or entry.action.is_play, "only plays name a card"
        # A result on show is either this finished hand's or the previous hand's.
        if view.result is not None:
            finished = view.phase != PLAYING and view.result.hand == view.hand_no
            assert finished or view.result.hand == view.hand_no - 1


@budget(60)
@given(codes, st.integers(0, 2**32), st.integers(0, 600), st.randoms(use_true_random=False))
def test_a_view_does_not_change_when_only_hidden_cards_move(
    code: GameCode, seed: int, steps: int, shuffler: random.Random
) -> None:
    game = random_position(code, seed, steps)
    for seat in range(game.players):
        before = seat_view(game, seat)
        # Deal every hidden card out again: the other hands and the stock keep
        # their sizes but get different cards in a different order.
        other = game.copy()
        others = [s for s in range(game.players) if s != seat]
        hidden = [c for s in others for c in other.hands[s]] + other.stock
        shuffler.shuffle(hidden)
        for s in others:
            size = len(other.hands[s])
            other.hands[s], hidden = hidden[:size], hidden[size:]
        other.stock = hidden
        assert sorted(other.all_cards()) == sorted(game.all_cards())
        assert seat_view(other, seat) == before


@budget(60)
@given(codes, st.integers(0, 2**32), st.integers(0, 600))
def test_the_pile_in_a_view_is_what_everyone_saw_face_up(code: GameCode, seed: int, steps: int) -> None:
    """``view.pile`` = the turned-up card (or the top left by the last reshuffle), then the plays since."""
    game = random_position(code, seed, steps)
    view = seat_view(game, 0)
    assert len(view.pile) == view.pile_count and view.pile[-1] == view.top
    since = 0
    for n, move in enumerate(view.history):
        if move.reshuffled:
            since = n
    plays = [m.action.card for m in view.history[since:] if m.action.card is not None]
    if not any(m.reshuffled for m in view.history):
        n_dealt = HAND_SIZE[game.players] * game.players
        assert view.pile[0] == deal_order(game.code, game.hand_no)[n_dealt], "the turned-up card"
        assert list(view.pile[1:]) == plays
    else:
        assert list(view.pile[1:]) == plays, "after a reshuffle: the old top, then the plays since"
