"""Cards and suits: 52 interned values with a short text form each.

A card is a small ``int`` subclass (0..51, ``suit * 13 + rank - 1``) so that
hands, stock and pile are plain lists of ints in the hot path, while every
card still prints as ``10H``, ``QS`` or ``8C``.

>>> Card.parse("10H"), Card.parse("qs").rank, str(Card.parse("8c"))
(Card('10H'), 12, '8C')
>>> penalty([Card.parse(t) for t in ("8S", "QH", "AD", "5C")])
66
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Literal, get_args

RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# A suit's letter as a type (the suit chooser's intent, ui.protocol): the same four, in order.
SuitLetter = Literal["S", "H", "D", "C"]
SUIT_LETTERS = "".join(get_args(SuitLetter))
EIGHT = 8


class Suit(IntEnum):
    """The four French suits, with their one-letter text form."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    def __str__(self) -> str:
        return SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``S``, ``H``, ``D`` or ``C`` (any case)."""
        if not isinstance(text, str) or len(text.strip()) != 1:
            raise ValueError(f"unknown suit: {text!r}")
        index = SUIT_LETTERS.find(text.strip().upper())
        if index < 0:
            raise ValueError(f"unknown suit: {text!r}")
        return SUITS[index]


SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)


class Card(int):
    """One of the 52 cards; use :data:`CARDS` or :meth:`parse`, never ``Card(n)`` twice."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return SUITS[self // 13]

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king)."""
        return self % 13 + 1

    @property
    def is_eight(self) -> bool:
        return self % 13 == 7

    @property
    def points(self) -> int:
        return POINTS[self]

    def __str__(self) -> str:
        return TEXT[self]

    def __repr__(self) -> str:
        return f"Card({TEXT[self]!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card's text form, e.g. ``10H``, ``QS``, ``8c``."""
        card = BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise ValueError(f"unknown card: {text!r}")
        return card


def _points(rank: int) -> int:
    if rank == EIGHT:
        return 50
    if rank >= 11:
        return 10
    return rank


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
TEXT: tuple[str, ...] = tuple(RANK_TEXT[i % 13] + SUIT_LETTERS[i // 13] for i in range(52))
BY_TEXT: dict[str, Card] = {TEXT[i]: CARDS[i] for i in range(52)}
# Plain-int lookup tables for the hot path (indexing beats property calls).
RANK_OF: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
POINTS: tuple[int, ...] = tuple(_points(i % 13 + 1) for i in range(52))
EIGHTS: tuple[Card, ...] = tuple(CARDS[s * 13 + 7] for s in range(4))


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise ValueError(f"no card has rank {rank} and suit {suit}")
    return CARDS[suit * 13 + rank - 1]


def penalty(cards: Iterable[int]) -> int:
    """Penalty points of leftover cards: 8 = 50, J/Q/K = 10, A = 1, others face value."""
    return sum(POINTS[c] for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Order for showing a hand: by suit (S, H, D, C), then rank A..K."""
    return (SUIT_OF[card], RANK_OF[card])


def full_deck() -> list[Card]:
    """The 52 cards in their canonical order (AS..KS, AH.., AD.., AC..)."""
    return list(CARDS)
