"""Time the review («Repaso») of whole hands here or inside Pyodide: p50 and p95 a hand.

Usage (the same module under both interpreters)::

    python -m lab.review_bench [HANDS]                                      # CPython
    node tools/pyodide_run.mjs --mount lab=lab lab/review_bench.py [HANDS]  # Pyodide under Node.js

Deals ``HANDS`` first hands (default 50; half at two players, half at three,
seed ``review-bench``), seat 0 played by the learner stand-in
(:class:`lab.review_learner.Learner`: fácil that also draws by choice now
and then, and spends 8s early) and the others by Normal, and reviews each
hand as the page does (:class:`engine.review.Reviewer`, current version),
timing every hand. Prints one JSON line: per table size and in all, the
decisions a hand and the CPU and wall seconds a hand (p50, p95, max).
Under Node the CPU clock is read from ``process.cpuUsage()``.
"""

from __future__ import annotations

import json
import sys
import time

from engine.bots import CpuBot
from engine.game import PLAYING, Game
from engine.record import Record
from engine.review import Reviewer
from engine.view import seat_view
from lab.review_learner import Learner
from lab.simulate import game_code


def _node_cpu_seconds() -> float:
    import js  # noqa: PLC0415  # only exists inside Pyodide

    usage = js.process.cpuUsage()
    return float(usage.user + usage.system) / 1e6


def first_hand(players: int, index: int) -> Record:
    """The first hand of a game of seed ``review-bench``, seat 0 as the learner, the others as Normal."""
    game = Game.new(game_code(players, "review-bench", index))
    person, cpu = Learner(), CpuBot()
    while game.phase == PLAYING:
        bot = person if game.turn == 0 else cpu
        game.apply(bot.choose(seat_view(game, game.turn)))
    return Record.of(game)


def _quantiles(values: list[float]) -> list[float]:
    ordered = sorted(values)
    n = len(ordered)
    return [round(ordered[min(n - 1, int(q * n))], 3) for q in (0.5, 0.95)] + [round(ordered[-1], 3)]


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    clock = _node_cpu_seconds if sys.platform == "emscripten" else time.process_time
    rows: dict[str, list[tuple[int, float, float]]] = {"2": [], "3": []}
    for n in range(hands):
        players = 2 + n % 2
        record = first_hand(players, n // 2)
        cpu0, wall0 = clock(), time.perf_counter()
        review = Reviewer(record).run()
        rows[str(players)].append((len(review.decisions), clock() - cpu0, time.perf_counter() - wall0))
    rows["all"] = rows["2"] + rows["3"]
    out: dict[str, object] = {"python": sys.version.split()[0], "platform": sys.platform, "hands": hands}
    for key, items in rows.items():
        decisions = [float(d) for d, _, _ in items]
        out[key] = {
            "hands": len(items),
            "decisions_p50_max": [_quantiles(decisions)[0], max(decisions)],
            "cpu_s_p50_p95_max": _quantiles([c for _, c, _ in items]),
            "wall_s_p50_p95_max": _quantiles([w for _, _, w in items]),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
