"""The review («Repaso») checked: its noise, and its verdicts against the real hidden hands.

Usage::

    python -m lab.review_check noise    --players 2 --games 40 [--seeds 3] [--jobs 1]
    python -m lab.review_check validate --players 2 --games 150 [--oracle 200] [--jobs 1]

Both play games where seat 0, the stand-in for a person, is the ``facil``
bot (it follows with a random card that fits and spends 8s early, so it makes
both good and poor choices) against ``cpu`` opponents (seed
``review-check``, none of the deals of ``lab.match``'s seed 7), and keep
every decision of seat 0 with more than one legal action, with the real
hidden hands. Only the decisions the review actually weighs (more than one
move worth weighing) are measured.

``noise`` re-runs the review's search on the same positions with other
seeds (``review-noise-1``, ...) and prints quantiles of how much one move's
margin over another changes from one seed to another: the review's
threshold is chosen from them (``docs/review.md``).

``validate`` reviews every decision from seat 0's view alone, then values
every weighed move by ``--oracle`` playouts from the *real* hands (only the
stock's order shuffled; the cpu's rules play on for every seat; the same
worth as the review's, points of lead over the average opponent). A
decision's regret is the best move's oracle value minus the played move's.
It prints the mean regret of the decisions by verdict («Bien», «Igual de
buena», «Mejor: …»); the review is trusted when «Mejor» decisions lose at
least twice what «Bien» decisions lose.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.bots import CpuBot, FacilBot, read_history
from engine.cards import POINTS
from engine.game import GAME_OVER, PLAYING, Game
from engine.review import BIEN, CURRENT, IGUAL, Decision, Weighing, settings, weighed
from engine.view import SeatView, seat_view
from lab.dificil_regret import real_hands
from lab.simulate import game_code

SEED = "review-check"
HUMAN = 0


def collect(players: int, start: int, games: int) -> list[tuple[SeatView, Game, Action]]:
    """Seat 0's decisions (more than one move worth weighing) in ``facil``-vs-``cpu`` games."""
    out: list[tuple[SeatView, Game, Action]] = []
    for index in range(start, start + games):
        game = Game.new(game_code(players, SEED, index))
        facil, cpu = FacilBot(), CpuBot()
        while True:
            while game.phase == PLAYING:
                seat = game.turn
                view = seat_view(game, seat)
                action = (facil if seat == HUMAN else cpu).choose(view)
                if seat == HUMAN and len(view.legal) > 1:
                    last_card_wins = len(view.hand) == 1 and action.card is not None
                    if len(weighed(view, action)) > 1 and not last_card_wins:
                        out.append((view, game.copy(), action))
                game.apply(action)
            if game.phase == GAME_OVER:
                break
            game.next_hand()
    return out


# Other playouts per decision (and an action budget in proportion), to measure other settings' noise.
OVERRIDE: dict[str, int] = {}


def judge(view: SeatView, played: Action, seed: str = "review") -> Decision:
    """The review's decision on one position, its search seeded by ``seed``."""
    s = settings(CURRENT, view.players)
    if OVERRIDE:
        s = replace(s, **OVERRIDE)
    moves = weighed(view, played)
    weighing = Weighing(view, moves, s.params(view.players), seed)
    while not weighing.step(10_000):
        pass
    totals = tuple(weighing.totals)
    return Decision(0, view.hand_no, view.players, tuple(moves), totals, weighing.worlds, played, s.threshold)


def oracle(view: SeatView, game: Game, moves: Sequence[Action], playouts: int) -> list[float]:
    """Each move's mean worth from the real hands (points of lead over the average opponent)."""
    me, players = view.seat, view.players

    def lead(hands: list[list[int]], winner: int) -> float:
        pen = [0 if s == winner else sum(POINTS[c] for c in h) for s, h in enumerate(hands)]
        return (sum(pen) - players * pen[me]) / (players - 1)

    return real_hands(
        view, game, moves, playouts, label="review-oracle", known=read_history(view).known, value=lead
    )


def kind(decision: Decision) -> str:
    verdict = decision.verdict
    return verdict if verdict in (BIEN, IGUAL) else "Mejor"


def _noise_chunk(args: tuple[int, int, int, int, dict[str, int]]) -> list[list[float]]:
    """For each position, each move's margin over the played one under every seed."""
    players, start, games, seeds, override = args
    OVERRIDE.update(override)
    rows: list[list[float]] = []
    for view, _game, played in collect(players, start, games):
        runs = [judge(view, played, "review" if n == 0 else f"review-noise-{n}") for n in range(seeds)]
        for j in range(len(runs[0].moves)):
            if j == runs[0].played_at:
                continue
            rows.append([r.value(j) - r.value(r.played_at) for r in runs])
    return rows


def _validate_chunk(args: tuple[int, int, int, int, dict[str, int]]) -> list[tuple[str, float, float, int]]:
    """For each position: verdict kind, the review's margin, the oracle's regret, the worlds."""
    players, start, games, playouts, override = args
    OVERRIDE.update(override)
    out: list[tuple[str, float, float, int]] = []
    for view, game, played in collect(players, start, games):
        decision = judge(view, played)
        values = oracle(view, game, decision.moves, playouts)
        regret = max(values) - values[decision.played_at]
        out.append((kind(decision), decision.margin, regret, decision.worlds))
    return out


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / max(n - 1, 1)) ** 0.5
    return round(mean, 2), round(sd / n**0.5, 2)


def _map(jobs: int, fn: Callable[[Any], Any], chunks: list[Any]) -> list[Any]:
    with ExitStack() as stack:
        mapper: Callable[..., Iterable[Any]] = map
        if jobs > 1:
            from multiprocessing import Pool  # noqa: PLC0415  # only the command line forks

            mapper = stack.enter_context(Pool(jobs)).map
        return list(mapper(fn, chunks))


def _chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = -(-games // max(jobs * 4, 1))
    return [(s, min(size, games - s)) for s in range(0, games, size)]


def main(argv: Sequence[str] | None = None) -> int:
    doc = __doc__.split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m lab.review_check", description=doc)
    parser.add_argument("what", choices=("noise", "validate"))
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=3, help="noise: searches per position")
    parser.add_argument(
        "--oracle", type=int, default=200, help="validate: playouts a move, from the real hands"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--playouts", type=int, help="other playouts per decision (budget 50 actions each)")
    args = parser.parse_args(argv)
    override = {}
    if args.playouts is not None:
        override = {"playouts": args.playouts, "max_actions": 50 * args.playouts}

    began = time.perf_counter()
    chunks = _chunks(args.games, args.jobs)
    summary: dict[str, object] = {"players": args.players, "games": args.games, "version": CURRENT}
    summary.update(override)
    if args.what == "noise":
        parts = _map(args.jobs, _noise_chunk, [(args.players, s, n, args.seeds, override) for s, n in chunks])
        rows = [row for part in parts for row in part]
        diffs = [abs(a - b) for row in rows for i, a in enumerate(row) for b in row[i + 1 :]]
        summary["pairs"] = len(rows)
        summary["differences"] = len(diffs)
        quantiles = {f"q{int(q * 100)}": round(_quantile(diffs, q), 2) for q in (0.5, 0.8, 0.9, 0.95, 0.99)}
        summary.update(quantiles)
        print(
            f"{len(rows)} move pairs, {len(diffs)} seed-to-seed differences of a margin (points): "
            + ", ".join(f"{name} {value}" for name, value in quantiles.items())
        )
    else:
        parts = _map(
            args.jobs, _validate_chunk, [(args.players, s, n, args.oracle, override) for s, n in chunks]
        )
        items = [item for part in parts for item in part]
        summary["positions"] = len(items)
        summary["oracle"] = args.oracle
        table: dict[str, object] = {}
        for name in (BIEN, IGUAL, "Mejor"):
            regrets = [r for k, _m, r, _w in items if k == name]
            margins = [m for k, m, _r, _w in items if k == name]
            mean, se = _mean_se(regrets)
            table[name] = {"decisions": len(regrets), "regret": [mean, se], "margin": _mean_se(margins)[0]}
            print(
                f"{name:>15}: {len(regrets):5d} decisions, regret {mean:.2f} (se {se:.2f}) points, "
                f"the review's margin {_mean_se(margins)[0]:.2f}"
            )
        summary["table"] = table
        bien = table[BIEN]["regret"][0]  # type: ignore[index]
        mejor = table["Mejor"]["regret"][0]  # type: ignore[index]
        summary["ratio"] = round(mejor / bien, 2) if bien else None
        print(f"«Mejor» / «Bien» regret: {summary['ratio']}")
    summary["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
