"""Research valuations of a playout for the hard CPU's search: the game's saturating gaps.

Before the equity table, the three-player search valued a playout by the
game rather than the hand: :func:`game_value` of the totals after the hand.
The shipped search no longer does (:data:`engine.bots.DIFICIL_PARAMS`
values the hand at two players and the chance to win the game at three), so
this lives here, for ``lab.dificil_regret``'s ``gaps`` and ``scale*``
variants. A search uses it through :attr:`engine.bots.DificilParams.value`::

    DificilBot(replace(DIFICIL_PARAMS[3], equity=False, value=GameGaps(40), margin=3))

>>> game_value([90, 100, 95], 0, 40)
80
>>> GameGaps(40)([[1], [], [2]], 1, [10, 20, 30], 0) == game_value([12, 20, 33], 0, 40)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.bots import playout_worth
from engine.cards import POINTS
from engine.game import game_winners


def game_value(after: Sequence[int], me: int, scale: int) -> int:
    """A playout's worth to seat ``me`` for the game, from the totals ``after`` its hand.

    When a total reaches 100 the game is over: ``scale`` x (players - 1) if
    ``me`` has the lowest total (shared or not, the rules make it a winner),
    minus that otherwise. Else the sum of the others' leads on it, each
    saturating at ``scale`` (:func:`_lead`): ten points matter more in a close
    game than in one already far ahead or behind.
    """
    winners = game_winners(after)
    if winners:
        return scale * (len(after) - 1) * (1 if me in winners else -1)
    mine = after[me]
    return sum(_lead(t - mine, scale) for seat, t in enumerate(after) if seat != me)


@lru_cache(maxsize=4096)
def _lead(gap: int, scale: int) -> int:
    """``scale`` x tanh(gap / scale) in whole points (integers: the same sums on every runtime)."""
    return round(scale * math.tanh(gap / scale))


@dataclass(frozen=True)
class GameGaps:
    """A playout value (:data:`engine.bots.search.PlayoutValue`): :func:`game_value` with ``scale``."""

    scale: int

    def __call__(self, hands: Sequence[Sequence[int]], winner: int, totals: Sequence[int], me: int) -> int:
        penalties = [0 if s == winner else sum(POINTS[c] for c in hand) for s, hand in enumerate(hands)]
        return game_value([t + p for t, p in zip(totals, penalties, strict=True)], me, self.scale)


def worth(
    hands: Sequence[Sequence[int]],
    winner: int,
    totals: Sequence[int],
    me: int,
    scale: int,
    *,
    by_equity: bool = False,
) -> int:
    """A playout's worth as the search values it: with ``scale`` the game's gaps, else the shipped worth."""
    if scale and not by_equity:
        return GameGaps(scale)(hands, winner, totals, me)
    return playout_worth(hands, winner, totals, me, by_equity=by_equity)
