"""What the totals are worth at a three-player table: the chance to win the game from them.

The game ends once a total reaches 100, and the lowest total wins (rule 12;
a shared lowest total is a win for each). Between hands, how likely a seat
is to win depends on its total and the other two, and not linearly: ten
points behind matter far more when someone is near 100 than at the start.
:func:`equity` gives that chance, from a table made by
``python -m lab.make_equity``: for totals on a grid every ``STEP``
points, the share of a fixed set of simulated game endings the seat wins
(each ending a run of hands whose penalties are drawn from hands the cpu
played against itself), read between grid points by trilinear
interpolation. It is what the hard level's search values a playout by at
three players (:attr:`engine.bots.DificilParams.equity`).

Everything is integer arithmetic on the stored table, so the same totals
give the same value on every Python.

>>> equity(0, 0, 0) in range(3000, 3700)  # three equal totals: about one game in three
True
>>> equity(100, 50, 60), equity(40, 100, 60), equity(60, 60, 100)  # a total at 100 ends the game
(0, 10000, 10000)
"""

from __future__ import annotations

import base64
from array import array

from .equity_table import BINS, STEP, TABLE
from .game import TARGET

# A won game, in the units of :func:`equity` (basis points: 10,000 = certain).
WHOLE = 10_000

_CELLS: array[int] = array("H", base64.b64decode(TABLE))
_PAIRS = BINS * (BINS + 1) // 2  # the grid points of the two others' totals, in either order
if len(_CELLS) != BINS * _PAIRS:  # the table module and this one must agree
    raise ValueError("the equity table has the wrong size")
TOP = 65_535  # a stored cell's value for a certain win
# The weights' sum: STEP per axis.
_SCALE = STEP**3 * TOP


def cell(mine: int, x: int, y: int) -> int:
    """The stored value at grid point ``(mine, x, y)`` (indexes, not totals), out of :data:`TOP`."""
    if x > y:
        x, y = y, x
    return _CELLS[mine * _PAIRS + y * (y + 1) // 2 + x]


def equity(mine: int, a: int, b: int) -> int:
    """Seat's chance to win the game, in basis points, with total ``mine`` and the others ``a`` and ``b``.

    When a total has reached 100 the game is over: 10,000 for the lowest
    total (shared or not), 0 otherwise.
    """
    if mine >= TARGET or a >= TARGET or b >= TARGET:
        return WHOLE if mine <= a and mine <= b else 0
    i, ri = divmod(mine, STEP)
    j, rj = divmod(a, STEP)
    k, rk = divmod(b, STEP)
    # The grid reaches the highest total below 100 (a multiple of STEP), so i + 1 exists when ri > 0.
    total = 0
    for di, wi in ((0, STEP - ri), (1, ri)):
        if not wi:
            continue
        for dj, wj in ((0, STEP - rj), (1, rj)):
            if not wj:
                continue
            w = wi * wj
            for dk, wk in ((0, STEP - rk), (1, rk)):
                if wk:
                    total += w * wk * cell(i + di, j + dj, k + dk)
    return (total * WHOLE + _SCALE // 2) // _SCALE


__all__ = ["STEP", "TOP", "WHOLE", "cell", "equity"]
