"""Actions: play a card (an 8 also names a suit), draw one card, or pass.

Every action is one of a fixed set of interned values with a text form:

>>> Action.parse("10H"), Action.parse("8s:h"), Action.parse("draw"), Action.parse("pass")
(Action('10H'), Action('8S:H'), Action('draw'), Action('pass'))
>>> Action.parse("8C").suit is None   # an 8 as a last card names no suit
True
"""

from __future__ import annotations

from .cards import CARDS, EIGHT, RANK_OF, SUITS, TEXT, Card, Suit

PLAY_KIND = "play"
DRAW_KIND = "draw"
PASS_KIND = "pass"


class Action:
    """An immutable action; compare with ``is`` or ``==``, print with ``str``."""

    __slots__ = ("card", "kind", "suit", "text")

    kind: str
    card: Card | None
    suit: Suit | None
    text: str

    def __init__(self, kind: str, card: Card | None = None, suit: Suit | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "suit", suit)
        if kind == PLAY_KIND:
            assert card is not None
            text = TEXT[card] + (f":{suit.letter}" if suit is not None else "")
        else:
            text = kind
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (self.text,))

    @property
    def is_play(self) -> bool:
        return self.kind == PLAY_KIND

    @staticmethod
    def play(card: Card | int, suit: Suit | int | None = None) -> Action:
        """The interned action that plays ``card`` (naming ``suit`` if it is an 8)."""
        if suit is None:
            return PLAY[card]
        if RANK_OF[card] != EIGHT:
            raise ValueError(f"only an 8 names a suit, not {TEXT[card]}")
        return PLAY8[card][suit]

    @staticmethod
    def parse(text: str) -> Action:
        """Read ``10H``, ``8S:H``, ``draw`` or ``pass`` (any case)."""
        action = BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if action is None:
            raise ValueError(f"unknown action: {text!r}")
        return action


DRAW = Action(DRAW_KIND)
PASS = Action(PASS_KIND)
PLAY: tuple[Action, ...] = tuple(Action(PLAY_KIND, c) for c in CARDS)
# PLAY8[card][suit]: the 8 ``card`` naming ``suit`` (empty tuple for non-eights).
PLAY8: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(PLAY_KIND, c, s) for s in SUITS) if RANK_OF[c] == EIGHT else () for c in CARDS
)
ALL_ACTIONS: tuple[Action, ...] = (DRAW, PASS, *PLAY, *(a for row in PLAY8 for a in row))
BY_TEXT: dict[str, Action] = {a.text.upper(): a for a in ALL_ACTIONS}
