"""Spanish names of suits and cards, for messages, the page and screen readers.

>>> card_name(Card.parse("6H")), card_name(Card.parse("JS"), article=True)
('6 de corazones', 'la jota de picas')
>>> needed_phrase(Suit.H, 6)
'un corazón, un 6 o un 8'
"""

from __future__ import annotations

from .cards import EIGHT, RANK_OF, SUIT_OF, Card, Suit

SUIT_PLURAL = ("picas", "corazones", "diamantes", "tréboles")
SUIT_SINGULAR = ("una pica", "un corazón", "un diamante", "un trébol")
SUIT_TITLE = ("Picas", "Corazones", "Diamantes", "Tréboles")
SUIT_SYMBOL = ("\u2660", "\u2665", "\u2666", "\u2663")

# Rank words used in speech; numbers stay as digits.
_RANK_WORD = {1: "as", 11: "jota", 12: "reina", 13: "rey"}
_RANK_FEMININE = {11, 12}


def suit_name(suit: int) -> str:
    """Plural lower-case name: ``picas``, ``corazones``, ``diamantes``, ``tréboles``."""
    return SUIT_PLURAL[suit]


def rank_word(rank: int) -> str:
    return _RANK_WORD.get(rank, str(rank))


def rank_with_article(rank: int, definite: bool = False) -> str:
    """``un 6``, ``un as``, ``una jota`` (or ``el 6``, ``la jota`` when definite)."""
    feminine = rank in _RANK_FEMININE
    article = ("la" if feminine else "el") if definite else ("una" if feminine else "un")
    return f"{article} {rank_word(rank)}"


def card_name(card: Card | int, article: bool = False) -> str:
    """``6 de corazones``, ``as de picas``; with ``article``: ``el 6 de corazones``."""
    rank, suit = RANK_OF[card], SUIT_OF[card]
    base = f"{rank_word(rank)} de {SUIT_PLURAL[suit]}"
    if not article:
        return base
    return ("la " if rank in _RANK_FEMININE else "el ") + base


def needed_phrase(active_suit: Suit | int, top_rank: int) -> str:
    """What a legal card must be: ``un corazón, un 6 o un 8`` (or ``un corazón o un 8``)."""
    suit = SUIT_SINGULAR[active_suit]
    if top_rank == EIGHT:
        return f"{suit} o un 8"
    return f"{suit}, {rank_with_article(top_rank)} o un 8"
