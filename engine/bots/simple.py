"""The simple players: ``random`` and ``basic`` (yardsticks) and the easy level, ``facil``.

A bot sees the table only through a :class:`~engine.view.SeatView` and answers
with one legal :class:`~engine.actions.Action` at a time (:class:`Bot`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..actions import DRAW, PASS, PLAY, PLAY8, PLAY_KIND, Action
from ..cards import EIGHT, RANK_OF, SUIT_OF
from ..codes import stream
from ..view import SeatView


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


class BasicBot:
    """A stricter yardstick: never draws while it can play; otherwise uniformly random.

    Plays a uniformly random legal card (an 8 naming a random suit), draws only
    with nothing to play, passes only when it must: how a casual player who
    just "follows" plays. It wins far more than :class:`RandomBot`, which often
    draws by choice and lets its hand grow.
    """

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        plays = [a for a in legal if a.kind == PLAY_KIND]
        if plays:
            return plays[int(self.rng.random() * len(plays))]
        return legal[0]


def decision_rng(name: str, view: SeatView) -> random.Random:
    """A generator fixed by the game and the position, so a game replays from its record.

    It is derived from the code, the hand, how many moves the hand has had and
    the seat; nothing hidden goes into it.
    """
    return stream(name, view.code, view.hand_no, len(view.history), view.seat)


@dataclass(frozen=True)
class FacilParams:
    """The knobs of :class:`FacilBot` (the defaults are tuned to lose about 3 games in 4 to ``cpu``)."""

    # Chance of spending an 8 while a non-8 card also fits (1.0 measured cpu 78.5 %, 0.5 76 %, 0 62.5 %).
    eager_eight: float = 0.4


class FacilBot:
    """The easy level: follows sensibly, plans nothing.

    * with a non-8 card that fits, it plays one of them at random (it never
      draws while holding one); with ``eager_eight`` it may spend an 8 first;
    * with only 8s, it plays one and names a suit it holds, picked at random
      (any suit when it holds nothing but 8s);
    * with nothing to play it draws, and passes only when it must.

    Its choices come from :func:`decision_rng`, so the same view always gives
    the same action and a game replays from its record.
    """

    __slots__ = ("params",)

    def __init__(self, params: FacilParams | None = None) -> None:
        self.params = params or FacilParams()

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        plays = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
        eights = [c for c in view.hand if RANK_OF[c] == EIGHT]
        if not plays and not eights:
            return DRAW if view.can_draw else PASS
        rand = decision_rng("facil", view).random
        p = self.params
        if plays and not (eights and rand() < p.eager_eight):
            return PLAY[plays[int(rand() * len(plays))]]
        card = eights[0]
        if len(view.hand) == 1:
            return PLAY[card]
        held = sorted({SUIT_OF[c] for c in view.hand if RANK_OF[c] != EIGHT})
        suits = held or [0, 1, 2, 3]
        return PLAY8[card][suits[int(rand() * len(suits))]]
