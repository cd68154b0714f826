"""Actions: the fixed set of interned values and their text forms."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.actions import ALL_ACTIONS, DRAW, PASS, PLAY, PLAY8, Action
from engine.cards import CARDS, EIGHTS, SUITS, Card, Suit


def test_all_actions_are_distinct_and_counted() -> None:
    # draw, pass, 52 plain plays, and each 8 naming one of 4 suits.
    assert len(ALL_ACTIONS) == 2 + 52 + 4 * 4
    assert len({a.text for a in ALL_ACTIONS}) == len(ALL_ACTIONS)
    assert len(set(ALL_ACTIONS)) == len(ALL_ACTIONS)
    assert [len(row) for row in PLAY8] == [4 if c.is_eight else 0 for c in CARDS]


def test_text_round_trip_is_the_same_object() -> None:
    for action in ALL_ACTIONS:
        assert Action.parse(action.text) is action
        assert Action.parse(action.text.lower()) is action
        assert Action.parse(f" {action.text} ") is action
        assert str(action) == action.text and repr(action) == f"Action({action.text!r})"
        assert pickle.loads(pickle.dumps(action)) is action
        assert copy.deepcopy(action) == action


def test_kinds_cards_and_suits() -> None:
    assert (DRAW.kind, DRAW.card, DRAW.suit, DRAW.is_play) == ("draw", None, None, False)
    assert (PASS.kind, PASS.card, PASS.suit, PASS.is_play) == ("pass", None, None, False)
    ten = Action.parse("10H")
    assert (ten.kind, ten.card, ten.suit, ten.is_play) == ("play", Card.parse("10H"), None, True)
    eight = Action.parse("8s:h")
    assert (eight.text, eight.card, eight.suit) == ("8S:H", Card.parse("8S"), Suit.H)
    assert Action.parse("8C").suit is None, "a last-card 8 names no suit"


def test_play_constructor_returns_interned_values() -> None:
    for card in CARDS:
        assert Action.play(card) is PLAY[card]
    for card in EIGHTS:
        for suit in SUITS:
            assert Action.play(card, suit) is PLAY8[card][suit]
            assert Action.play(int(card), int(suit)) is PLAY8[card][suit]
    with pytest.raises(ValueError, match="only an 8 names a suit"):
        Action.play(Card.parse("9H"), Suit.S)


@pytest.mark.parametrize("text", ["", "robar", "8S:X", "8S:", "9S:H", "pass!", "11H", "draw draw"])
def test_unknown_action_texts_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="unknown action"):
        Action.parse(text)


def test_actions_are_immutable_and_hashable() -> None:
    action = Action.parse("QH")
    with pytest.raises(AttributeError):
        action.text = "KH"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        action.other = 1  # type: ignore[attr-defined]
    assert {action: 1}[Action.parse("qh")] == 1
    assert action != "QH" and action == Action("play", Card.parse("QH"))
    with pytest.raises(ValueError, match="unknown action"):
        Action.parse(None)  # type: ignore[arg-type]
