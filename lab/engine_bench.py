"""Benchmark the engine and the bots in this Python: ``python -m lab.engine_bench``.

Four measurements, each printed as a line, then all of them as one JSON
object on the last line:

* ``random``: random-vs-random games driven the way OpenSpiel's random
  driver does it (``legal_actions()``, a uniform pick, ``apply``; no views),
  in actions and hands per second;
* ``cpu``: cpu-vs-cpu games through :func:`lab.simulate.run`, which builds
  a :class:`~engine.view.SeatView` for every decision;
* ``decision``: how long one ``CpuBot.choose`` call takes (median, p95, max,
  in milliseconds) over every cpu decision of cpu-vs-random games at both
  table sizes; the page makes one such call per CPU action;
* ``dificil``: the same for ``DificilBot.choose`` (the searching level) over
  every decision it takes in dificil-vs-cpu games at both table sizes, also
  counted over only the decisions that searched (the others are forced
  moves, answered at once).

Figures depend on the machine; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from engine.actions import Action
from engine.bots import Bot, CpuBot, DificilBot, make_bot
from engine.codes import stream
from engine.game import GAME_OVER, MAX_ACTIONS_PER_HAND, PLAYING, Game
from engine.view import SeatView
from lab.simulate import game_code, run


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


class _Timed:
    """A bot that records how long each of its decisions takes."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: SeatView) -> Action:
        began = time.perf_counter()
        action = self.bot.choose(view)
        self.times.append(time.perf_counter() - began)
        return action


def _spread(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    n = len(times)
    if not n:
        return {"decisions": 0}
    return {
        "decisions": n,
        "median_ms": round(times[n // 2] * 1000, 4),
        "p95_ms": round(times[min(n - 1, int(n * 0.95))] * 1000, 4),
        "max_ms": round(times[-1] * 1000, 4),
    }


def bench_decisions(games: int, seed: object = "bench") -> dict[str, float]:
    """Time every cpu decision of cpu-vs-random games, 2 and 3 at the table."""
    times: list[float] = []
    for players in (2, 3):

        def factory(index: int, seat: int) -> Bot:
            if seat == 0:
                return _Timed(CpuBot(), times)
            return make_bot("random", (seed, index, seat))

        run(players, factory, games, seed)
    return _spread(times)


class _TimedSearch:
    """A dificil bot that times each decision (wall and CPU clocks) and notes which ones searched."""

    def __init__(self, times: dict[str, list[float]]) -> None:
        self.bot = DificilBot()
        self.times = times

    def choose(self, view: SeatView) -> Action:
        wall, cpu = time.perf_counter(), time.process_time()
        search = self.bot.start(view)
        action = search.run()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.times["wall"].append(wall)
        self.times["cpu"].append(cpu)
        if search.playouts:
            self.times["searched_wall"].append(wall)
            self.times["searched_cpu"].append(cpu)
        return action


def bench_dificil(games: int, seed: object = "bench") -> dict[str, dict[str, float]]:
    """Time every dificil decision of dificil-vs-cpu games (seat 0), 2 and 3 at the table.

    Each decision is timed on the wall clock (what a person waits) and on the
    process's CPU clock (steadier on a busy machine; in Pyodide both are the
    same clock). ``searched_*`` counts only the decisions that searched.
    """
    times: dict[str, list[float]] = {"wall": [], "cpu": [], "searched_wall": [], "searched_cpu": []}
    for players in (2, 3):

        def factory(index: int, seat: int) -> Bot:
            return _TimedSearch(times) if seat == 0 else CpuBot()

        run(players, factory, games, seed)
    return {key: _spread(values) for key, values in times.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.engine_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--random-games", type=int, default=200, help="random-vs-random games per table size")
    parser.add_argument("--cpu-games", type=int, default=300, help="cpu-vs-cpu games per table size")
    parser.add_argument("--decision-games", type=int, default=200, help="cpu-vs-random games per table size")
    parser.add_argument("--dificil-games", type=int, default=10, help="dificil-vs-cpu games per table size")
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
    if args.dificil_games > 0:
        dificil = bench_dificil(args.dificil_games, args.seed)
        figures["dificil_decision"] = dificil
        for key in ("wall", "cpu", "searched_wall", "searched_cpu"):
            d = dificil[key]
            print(
                f"dificil decision ({key.replace('_', ', ')} clock): median {d.get('median_ms')} ms, "
                f"p95 {d.get('p95_ms')} ms, max {d.get('max_ms')} ms over {d['decisions']:,} decisions"
            )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
