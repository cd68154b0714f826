"""Make the game-equity table of :mod:`engine.equity`: ``python -m lab.make_equity``.

Usage::

    python -m lab.make_equity [--hands 6000] [--endings 6000] [--jobs 2] [--out engine/equity_table.py]

With no arguments it rebuilds the committed ``engine/equity_table.py`` byte
for byte (about half a minute of CPU time on two jobs; the number of jobs
never changes the table). Other ``--hands`` or ``--endings`` make another
table, and its header names the command that made it.

1. It plays ``--hands`` three-player hands of cpu against cpu (deals of the
   seed ``equity``) and keeps each hand's penalties: the distribution of
   what one hand adds to the three totals.
2. It draws ``--endings`` endings, each a run of hands taken from those at
   random, every hand's seats shuffled (who deals or leads is left out).
3. For every grid point (a seat's total and the other two, every ``STEP``
   points from 0 to 99) it plays each ending from those totals until one
   reaches 100, and stores the share of endings the seat wins (the lowest
   total, shared or not) as a 16-bit number.

Every grid point meets the same endings, so nearby points differ by what
their totals change, not by luck: the table is smooth where the search
compares totals. The output is written as a Python module that the engine
reads: the cells' differences (:func:`encode`), which compress far better than
the cells, in a bytes literal; the same arguments always make the same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from engine.bots import CpuBot
from engine.codes import shuffled, stream
from engine.equity import TOP
from engine.game import PLAYING, TARGET, Game
from engine.view import seat_view
from lab.simulate import game_code

STEP = 3
# The committed table's settings: running the tool with no arguments makes it again.
HANDS = 6000
ENDINGS = 6000
OUT = Path(__file__).resolve().parent.parent / "engine" / "equity_table.py"
BINS = (TARGET - 1) // STEP + 1  # 0, 3, ..., 99
ENDING_HANDS = 60  # more than an ending takes (a run that needs more starts again from its first hand)


def hand_penalties(hands: int, seed: object = "equity") -> list[tuple[int, int, int]]:
    """The penalties of ``hands`` cpu-vs-cpu hands at three players."""
    out: list[tuple[int, int, int]] = []
    cpu = CpuBot()
    index = 0
    while len(out) < hands:
        game = Game.new(game_code(3, seed, index))
        index += 1
        while game.phase == PLAYING:
            game.apply(cpu.choose(seat_view(game, game.turn)))
        assert game.result is not None
        a, b, c = game.result.penalties
        out.append((a, b, c))
    return out


def endings(
    penalties: Sequence[tuple[int, int, int]], count: int, seed: object = "equity"
) -> list[list[int]]:
    """``count`` runs of hands, flattened: mine, first other, second other, hand after hand."""
    rng = stream(seed, "endings")
    out: list[list[int]] = []
    for _ in range(count):
        flat: list[int] = []
        for _ in range(ENDING_HANDS):
            flat.extend(shuffled(penalties[int(rng.random() * len(penalties))], rng))
        out.append(flat)
    return out


def _wins(mine: int, a: int, b: int, runs: list[list[int]]) -> int:
    """How many of ``runs`` the seat wins from these totals."""
    won = 0
    for flat in runs:
        m, x, y = mine, a, b
        i = 0
        while m < TARGET and x < TARGET and y < TARGET:
            m += flat[i]
            x += flat[i + 1]
            y += flat[i + 2]
            i = (i + 3) % len(flat)
        if m <= x and m <= y:
            won += 1
    return won


def _row(args: tuple[int, list[list[int]]]) -> list[int]:
    """The cells of one total of the seat: every pair of the others' grid points, in table order."""
    i, runs = args
    cells: list[int] = []
    for y in range(BINS):
        for x in range(y + 1):
            won = _wins(i * STEP, x * STEP, y * STEP, runs)
            cells.append((won * TOP * 2 + len(runs)) // (2 * len(runs)))
    return cells


def make_table(hands: int, count: int, jobs: int) -> tuple[bytes, dict[str, object]]:
    began = time.perf_counter()
    penalties = hand_penalties(hands)
    runs = endings(penalties, count)
    with ExitStack() as stack:
        mapper: Callable[..., Iterable[Any]] = map
        if jobs > 1:
            from multiprocessing import Pool  # noqa: PLC0415

            mapper = stack.enter_context(Pool(jobs)).map
        rows = list(mapper(_row, [(i, runs) for i in range(BINS)]))
    cells = array("H", [c for row in rows for c in row])
    if sys.byteorder != "little":
        cells.byteswap()
    figures: dict[str, object] = {
        "hands": hands,
        "endings": count,
        "mean_penalty": round(sum(map(sum, penalties)) / (3 * len(penalties)), 2),
        "cells": len(cells),
        "seconds": round(time.perf_counter() - began, 1),
    }
    return cells.tobytes(), figures


def command(hands: int, count: int) -> str:
    """The command that makes the table of ``hands`` and ``count`` endings (no arguments: the defaults)."""
    args = "" if (hands, count) == (HANDS, ENDINGS) else f" --hands {hands} --endings {count}"
    return f"python -m lab.make_equity{args}"


def encode(data: bytes) -> bytes:
    """The stored form of the cells ``data`` (16-bit, little-endian) that :func:`engine.equity.decode` reads.

    Each cell less the one above it, then each such difference less the one before it in its row
    (the steps are written down in ``decode``), modulo 2**16: the smooth table turns into small
    numbers that compress to about half the bytes of the cells themselves, and come back exactly.
    """
    cells = array("H", data)
    if sys.byteorder != "little":
        cells.byteswap()
    pairs = BINS * (BINS + 1) // 2
    if len(cells) != BINS * pairs:
        raise ValueError("the equity table has the wrong size")
    steps: array[int] = array("H")
    at = 0
    corner = [0]
    for _mine in range(BINS):
        above = corner
        for y in range(BINS):
            row = cells[at : at + y + 1].tolist()
            at += y + 1
            base = above if y == 0 else [*above, above[-1]]
            down = [c - b for c, b in zip(row, base, strict=True)]
            steps.extend((d - before) & 0xFFFF for d, before in zip(down, [0, *down[:-1]], strict=True))
            above = row
            if y == 0:
                corner = row
    if sys.byteorder != "little":
        steps.byteswap()
    return steps.tobytes()


def bytes_lines(data: bytes, width: int = 100) -> list[str]:
    """``data`` as lines of bytes literals, each at most ``width`` characters."""
    lines: list[str] = []
    line = ""
    for byte in data:
        piece = repr(bytes([byte]))[2:-1]
        if len(line) + len(piece) + 3 > width:
            lines.append(f'b"{line}"')
            line = ""
        line += piece if piece != '"' else "\\x22"  # the formatter would turn the quotes round
    lines.append(f'b"{line}"')
    return lines


def module_text(data: bytes, hands: int, count: int) -> str:
    body = "\n".join(f"    {line}" for line in bytes_lines(encode(data)))
    return (
        f'"""The game-equity table read by :mod:`engine.equity`: generated by ``{command(hands, count)}``,\n'
        f'do not edit by hand."""\n\n'
        f"HANDS = {hands}\n"
        f"ENDINGS = {count}\n"
        f"STEP = {STEP}\n"
        f"BINS = {BINS}\n"
        f"# {BINS} x {BINS * (BINS + 1) // 2} cells of 16 bits, stored as engine.equity.decode reads them.\n"
        f"DELTAS = (\n{body}\n)\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.make_equity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=HANDS, help=f"cpu hands played (default {HANDS})")
    parser.add_argument("--endings", type=int, default=ENDINGS, help=f"endings drawn (default {ENDINGS})")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2; the table is the same)")
    parser.add_argument(
        "--out", type=Path, default=OUT, help="where to write (default engine/equity_table.py)"
    )
    args = parser.parse_args(argv)
    data, figures = make_table(args.hands, args.endings, args.jobs)
    args.out.write_text(module_text(data, args.hands, args.endings), encoding="utf-8")
    print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = [
    "BINS",
    "ENDINGS",
    "HANDS",
    "OUT",
    "STEP",
    "command",
    "encode",
    "endings",
    "hand_penalties",
    "make_table",
    "module_text",
]
