"""Write ``tests/golden/reviews.json``: the review («Repaso») of fixed records, as the page must show it.

Seat 0 (the stand-in for a person) is the ``facil`` bot, so its play has
both good and poor choices; the other seats are the Normal CPU. For each
game the first hands are reviewed with the current review version.
``tests/test_review.py`` checks the reviews in CPython and, marked
``pyodide``, inside Pyodide. A new review version adds its entries; old
ones are never rewritten. Usage::

    python -m lab.make_golden_reviews [--out tests/golden/reviews.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.bots import CpuBot, FacilBot
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, Game
from engine.record import Record
from engine.review import CURRENT, Reviewer
from engine.view import seat_view

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "reviews.json"
# (players, game code body, hands to review).
GAMES = ((2, "K7QM9", 2), (3, "22222", 1))


def play(code: GameCode, hands: int) -> tuple[Record, int]:
    """The first ``hands`` hands of ``code``, seat 0 as fácil; the record and where the last hand ends."""
    game = Game.new(code)
    person, cpu = FacilBot(), CpuBot()
    while True:
        if game.phase == HAND_OVER and game.hand_no + 1 < hands:
            game.next_hand()
            continue
        if game.phase in (HAND_OVER, GAME_OVER):
            break
        bot = person if game.turn == 0 else cpu
        game.apply(bot.choose(seat_view(game, game.turn)))
    record = Record.of(game)
    return record, len(record.moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    old: list[dict[str, object]] = json.loads(args.out.read_text()) if args.out.exists() else []
    out = [entry for entry in old if entry["version"] != CURRENT]
    for players, body, hands in GAMES:
        record, last = play(GameCode.build(players, body), hands)
        review = Reviewer(record, 0, last, CURRENT).run()
        out.append({"version": CURRENT, "stored": review.to_json(), "lines": review.lines()})
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} reviews to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
