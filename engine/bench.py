"""Benchmark the engine and the bots in this Python: ``python -m engine.bench``.

Three measurements, each printed as a line, then all of them as one JSON
object on the last line:

* ``random``: random-vs-random games driven the way OpenSpiel's random
  driver does it (``legal_actions()``, a uniform pick, ``apply``; no views),
  in actions and hands per second;
* ``cpu``: cpu-vs-cpu games through :func:`engine.simulate.run`, which builds
  a :class:`~engine.view.SeatView` for every decision;
* ``decision``: how long one ``CpuBot.choose`` call takes (median, p95, max,
  in milliseconds) over every cpu decision of cpu-vs-random games at both
  table sizes; the page makes one such call per CPU action.

Figures depend on the machine; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from .actions import Action
from .bots import Bot, CpuBot, make_bot
from .codes import stream
from .game import GAME_OVER, MAX_ACTIONS_PER_HAND, PLAYING, Game
from .simulate import game_code, run
from .view import SeatView


def bench_random(players: int, games: int, seed: object = "bench") -> dict[str, float]:
    """Random-vs-random games with no views: the engine's raw speed."""
    actions = hands = 0
    began = time.perf_counter()
    for index in range(games):
        game = Game.new(game_code(players, seed, index))
        rand = stream(seed, "random", index).random
        while True:
            legal_actions = game.legal_actions
            apply = game.apply
            for _ in range(MAX_ACTIONS_PER_HAND):
                legal = legal_actions()
                apply(legal[int(rand() * len(legal))])
                if game.phase != PLAYING:
                    break
            else:
                raise RuntimeError(
                    f"hand {game.hand_no} of {game.code.text} passed {MAX_ACTIONS_PER_HAND} actions"
                )
            actions += game.actions_this_hand
            hands += 1
            if game.phase == GAME_OVER:
                break
            game.next_hand()
    seconds = time.perf_counter() - began
    return {
        "players": players,
        "games": games,
        "hands": hands,
        "actions": actions,
        "seconds": round(seconds, 3),
        "actions_per_second": round(actions / seconds),
        "hands_per_second": round(hands / seconds, 1),
    }


def bench_cpu(players: int, games: int, seed: object = "bench") -> dict[str, float]:
    """Cpu-vs-cpu games through the simulator (a view built for every decision)."""
    tally = run(players, ["cpu"] * players, games, seed)
    seconds = max(tally.seconds, 1e-9)
    return {
        "players": players,
        "games": tally.games,
        "hands": tally.hands,
        "actions": tally.actions,
        "seconds": round(tally.seconds, 3),
        "actions_per_second": round(tally.actions / seconds),
        "hands_per_second": round(tally.hands / seconds, 1),
    }


class _TimedCpu:
    """A cpu bot that records how long each of its decisions takes."""

    def __init__(self, times: list[float]) -> None:
        self.bot = CpuBot()
        self.times = times

    def choose(self, view: SeatView) -> Action:
        began = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - began)
        return action


def bench_decisions(games: int, seed: object = "bench") -> dict[str, float]:
    """Time every cpu decision of cpu-vs-random games, 2 and 3 at the table."""
    times: list[float] = []
    for players in (2, 3):

        def factory(index: int, seat: int) -> Bot:
            if seat == 0:
                return _TimedCpu(times)
            return make_bot("random", (seed, index, seat))

        run(players, factory, games, seed)
    times.sort()
    n = len(times)
    return {
        "decisions": n,
        "median_ms": round(times[n // 2] * 1000, 4),
        "p95_ms": round(times[min(n - 1, int(n * 0.95))] * 1000, 4),
        "max_ms": round(times[-1] * 1000, 4),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--random-games", type=int, default=200, help="random-vs-random games per table size")
    parser.add_argument("--cpu-games", type=int, default=300, help="cpu-vs-cpu games per table size")
    parser.add_argument("--decision-games", type=int, default=200, help="cpu-vs-random games per table size")
    parser.add_argument("--seed", default="7")
    args = parser.parse_args(argv)
    figures: dict[str, object] = {"python": sys.version.split()[0]}
    runs = (
        ("random", "random vs random", bench_random, args.random_games),
        ("cpu", "cpu vs cpu", bench_cpu, args.cpu_games),
    )
    for key, label, bench, games in runs:
        for players in (2, 3):
            result = bench(players, games, args.seed)
            figures[f"{key}_{players}p"] = result
            print(
                f"{label}, {players} players: {result['actions_per_second']:,} actions/s, "
                f"{result['hands_per_second']:,} hands/s "
                f"({result['games']} games, {result['actions']:,} actions)"
            )
    decisions = bench_decisions(args.decision_games, args.seed)
    figures["cpu_decision"] = decisions
    print(
        f"cpu decision: median {decisions['median_ms']} ms, p95 {decisions['p95_ms']} ms, "
        f"max {decisions['max_ms']} ms over {decisions['decisions']:,} decisions"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
