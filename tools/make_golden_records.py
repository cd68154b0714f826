"""Write ``tests/golden/records.json``: whole games played by each CPU level and version, as record texts.

Seat 0 (the person) is played by the Normal CPU's rules; every other seat by
the level's bot at that version (:func:`engine.verify.level_bot`). The test
``tests/test_verify.py`` checks that :func:`engine.verify.check` accepts
every record and refuses any one CPU move changed, so a code change that
alters an old version's decisions fails it. A new version adds its games;
old entries are never rewritten. Usage::

    python -m tools.make_golden_records [--out tests/golden/records.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.bots import CpuBot
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, Game
from engine.levels import LEVELS
from engine.record import Record
from engine.verify import level_bot

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "records.json"
# (level, players, game code body): one game per level and table size.
GAMES = (
    ("facil", 2, "K7QM9"),
    ("facil", 3, "K7QM9"),
    ("normal", 2, "HXB4R"),
    ("normal", 3, "P9T3W"),
    ("dificil", 2, "K7QM9"),
    ("dificil", 3, "K7QM9"),
)


def play(level: str, version: int, code: GameCode) -> Record:
    """A whole game of ``code``: the person as the Normal CPU, the other seats as the level's bot."""
    game = Game.new(code)
    person = CpuBot()
    cpu = level_bot(level, version, code.players)
    while game.phase != GAME_OVER:
        if game.phase == HAND_OVER:
            game.next_hand()
            continue
        bot = person if game.turn == 0 else cpu
        game.apply(bot.choose(game.view(game.turn)))
    return Record(code, game.record().moves, level, version=version)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    old = json.loads(args.out.read_text()) if args.out.exists() else {}
    out: dict[str, list[str]] = {}
    for lv in LEVELS:
        for version in range(1, lv.current + 1):
            key = f"{lv.name}{version}"
            if key in old:
                out[key] = old[key]  # a shipped version's games are never rewritten
                continue
            out[key] = [
                str(play(lv.name, version, GameCode.build(players, body)))
                for name, players, body in GAMES
                if name == lv.name
            ]
            print(key, [len(Record.parse(t)) for t in out[key]], file=sys.stderr)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
