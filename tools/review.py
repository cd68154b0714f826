"""Print the hard CPU's review («Repaso») of a game: ``python -m tools.review "<record text>"``.

Usage::

    python -m tools.review "r2.A2K7QM92.n1.RxA"     # the record's text
    python -m tools.review --file partida.txt       # a file holding it (``-``: standard input)
    python -m tools.review --hand 2 "r2...."        # only the second hand
    python -m tools.review --json "r2...."          # the stored form, as the page keeps it

The review is :mod:`engine.review`'s, the same the page shows in «Ver la
mano»: one line per decision of seat 0 with more than one legal action.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.game import HAND_OVER
from engine.record import Record, RecordError
from engine.review import CURRENT, Reviewer


def hand_moves(record: Record, hand: int) -> tuple[int, int]:
    """The moves of hand ``hand`` (1-based) as ``(first, last)`` indices; ValueError if it has none."""
    first = last = None
    for index, game in record.positions():
        if game.hand_no + 1 == hand and game.phase != HAND_OVER:
            first = index if first is None else first
            last = index + 1
        record.play(game, index)
    if first is None or last is None:
        raise ValueError(f"the record has no hand {hand}")
    return first, last


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.review", description=__doc__.split("\n\n")[0])
    parser.add_argument("record", nargs="?", help="the record's text")
    parser.add_argument("--file", help="read the record from this file (- for standard input)")
    parser.add_argument("--hand", type=int, help="review only this hand (1 is the first)")
    parser.add_argument("--json", action="store_true", help="print the stored form instead of the lines")
    args = parser.parse_args(argv)
    if args.file is not None:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    elif args.record is not None:
        text = args.record
    else:
        parser.error("give a record's text or --file")
    try:
        record = Record.parse(text.strip())
        first, last = (0, len(record.moves)) if args.hand is None else hand_moves(record, args.hand)
        review = Reviewer(record, first, last, CURRENT).run()
    except (RecordError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(review.to_json(), separators=(",", ":")))
    else:
        print(f"Repaso (version {review.version})")
        print("\n".join(review.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
