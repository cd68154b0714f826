"""Cards and suits: text forms, ranks, suits, points, ordering, Spanish names."""

from __future__ import annotations

import pickle

import pytest

from engine.cards import (
    CARDS,
    EIGHTS,
    POINTS,
    RANK_OF,
    SUIT_OF,
    SUITS,
    TEXT,
    Card,
    Suit,
    full_deck,
    make_card,
    penalty,
    sort_key,
)
from engine.names import SUIT_SYMBOL, SUIT_TITLE, card_name, needed_phrase, rank_with_article, suit_name


def test_52_distinct_cards_with_a_text_round_trip() -> None:
    assert len(CARDS) == 52 and full_deck() == list(CARDS)
    for i, card in enumerate(CARDS):
        assert int(card) == i and isinstance(card, Card)
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card
        assert Card.parse(f"  {card} ") is card
        assert repr(card) == f"Card({str(card)!r})"
        assert make_card(card.rank, card.suit) is card
        assert card.rank == RANK_OF[i] and card.suit == SUIT_OF[i] and str(card) == TEXT[i]
    assert [str(c) for c in CARDS[:13]] == [f"{r}S" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"]]
    assert {c.suit for c in CARDS} == set(SUITS) and [str(s) for s in SUITS] == ["S", "H", "D", "C"]


@pytest.mark.parametrize("text", ["", "1S", "11H", "8X", "ZZ", "10", "S8", "8 S", "joker"])
def test_unknown_card_texts_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse(text)


def test_non_text_card_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown card"):
        Card.parse(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no card has rank"):
        make_card(14, 0)
    with pytest.raises(ValueError, match="no card has rank"):
        make_card(1, 4)


def test_suits_parse_and_print() -> None:
    for suit in SUITS:
        assert Suit.parse(suit.letter) is suit and Suit.parse(suit.letter.lower()) is suit
    for bad in ("", "X", "SH", None, 1):
        with pytest.raises(ValueError, match="unknown suit"):
            Suit.parse(bad)  # type: ignore[arg-type]


def test_points_and_penalty() -> None:
    assert [POINTS[c] for c in CARDS[:13]] == [1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10]
    assert all(POINTS[c] == POINTS[c % 13] for c in CARDS)
    assert penalty(Card.parse(t) for t in ("8S", "QH", "AD", "5C")) == 66
    assert penalty([]) == 0
    assert penalty(CARDS) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 50 + 9 + 10 + 30)
    assert [str(c) for c in EIGHTS] == ["8S", "8H", "8D", "8C"] and all(c.is_eight for c in EIGHTS)
    assert sum(c.is_eight for c in CARDS) == 4
    assert Card.parse("KC").points == 10


def test_sort_key_orders_by_suit_then_rank() -> None:
    shuffled = [Card.parse(t) for t in ("KC", "AS", "10H", "2S", "8D", "AH")]
    assert [str(c) for c in sorted(shuffled, key=sort_key)] == ["AS", "2S", "AH", "10H", "8D", "KC"]


def test_cards_survive_pickling_as_the_same_values() -> None:
    card = Card.parse("QH")
    assert pickle.loads(pickle.dumps(card)) == card


def test_spanish_names() -> None:
    assert card_name(Card.parse("6H")) == "6 de corazones"
    assert card_name(Card.parse("AS"), article=True) == "el as de picas"
    assert card_name(Card.parse("QD"), article=True) == "la reina de diamantes"
    assert card_name(Card.parse("JC"), article=True) == "la jota de tréboles"
    assert card_name(Card.parse("KC"), article=True) == "el rey de tréboles"
    assert [suit_name(s) for s in SUITS] == ["picas", "corazones", "diamantes", "tréboles"]
    assert SUIT_TITLE[Suit.D] == "Diamantes" and SUIT_SYMBOL[Suit.H] == "♥"
    assert rank_with_article(12) == "una reina" and rank_with_article(1, definite=True) == "el as"
    assert needed_phrase(Suit.H, 6) == "un corazón, un 6 o un 8"
    assert needed_phrase(Suit.S, 8) == "una pica o un 8"
    assert needed_phrase(Suit.C, 11) == "un trébol, una jota o un 8"
