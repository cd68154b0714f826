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

import sys
from array import array
from itertools import accumulate

from .equity_table import BINS, DELTAS, STEP
from .game import TARGET

# A won game, in the units of :func:`equity` (basis points: 10,000 = certain).
WHOLE = 10_000

_PAIRS = BINS * (BINS + 1) // 2  # the grid points of the two others' totals, in either order
TOP = 65_535  # a stored cell's value for a certain win


def decode(deltas: bytes) -> array[int]:
    """The table's cells from its stored form, ``DELTAS`` (written by ``lab.make_equity``'s ``encode``).

    The cells are in table order: for each total of the seat (``mine``), the rows ``y`` of the
    others' grid points, each row ``x = 0 .. y``. The table is smooth, so what is stored is small:
    each cell less the one above it (``y - 1``; the row's last cell, which has none, less the
    last one above), and of those differences, each less the one before it in the row. A row
    ``y = 0`` stands below the previous ``mine``'s first cell (0 for the first). All of it is
    16-bit arithmetic modulo 2**16, little-endian, so every cell comes back exactly.
    """
    steps = array("H", deltas)
    if sys.byteorder != "little":
        steps.byteswap()
    if len(steps) != BINS * _PAIRS:  # the table module and this one must agree
        raise ValueError("the equity table has the wrong size")
    cells: array[int] = array("H")
    at = 0
    corner = [0]
    for _mine in range(BINS):
        above = corner
        for y in range(BINS):
            base = above if y == 0 else [*above, above[-1]]
            row = [(b + d) & 0xFFFF for b, d in zip(base, accumulate(steps[at : at + y + 1]), strict=True)]
            at += y + 1
            cells.extend(row)
            above = row
            if y == 0:
                corner = row
    return cells


_CELLS: array[int] = array("H")  # the decoded table, filled on first use (decoding takes a few ms)


def _cells() -> array[int]:
    if not _CELLS:
        _CELLS.extend(decode(DELTAS))
    return _CELLS


# The weights' sum: STEP per axis.
_SCALE = STEP**3 * TOP


def cell(mine: int, x: int, y: int) -> int:
    """The stored value at grid point ``(mine, x, y)`` (indexes, not totals), out of :data:`TOP`."""
    if x > y:
        x, y = y, x
    return (_CELLS or _cells())[mine * _PAIRS + y * (y + 1) // 2 + x]


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


__all__ = ["STEP", "TOP", "WHOLE", "cell", "decode", "equity"]
