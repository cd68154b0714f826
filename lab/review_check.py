"""The review («Repaso») checked: its noise, and its margins fitted and checked against the real hands.

Usage::

    python -m lab.review_check noise    --players 2 --games 40 [--seeds 3] [--jobs 1]
    python -m lab.review_check fit      --players 2 --games 30 [--oracle 200] [--out a.json] [--rows b.json]
    python -m lab.review_check validate --players 2 --games 100 --start 1000 [--oracle 200] [--jobs 1]

All play games where seat 0, the stand-in for a person, is the learner
(:class:`lab.review_learner.Learner`: fácil, which follows with a random
card that fits and spends 8s early, and which also draws by choice now and
then) against ``cpu`` opponents (seed ``review-check``), and keep every
decision of seat 0 with more than one legal action, with the real hidden
hands.

``noise`` (version 1) re-runs the review's search on the same positions with
other seeds (``review-noise-1``, ...) and prints quantiles of how much one
move's margin over another changes from one seed to another: version 1's
threshold was chosen from them (``docs/review.md``).

``fit`` (version 2 on) judges every decision as the review does; where the
move played is not the review's choice it keeps the second sample's margin
and its standard error, and the margin of the two moves measured from the
*real* hands (``--oracle`` playouts each; only the stock's order shuffled;
the cpu's rules play on for every seat; points of lead over the average
opponent). From those it fits the prior the stated margin is shrunk towards
(a grid of margins and weights, by expectation-maximisation) and the scale
that brings the shrunk margins to the real hands', and prints them for
``engine/review.py``.

``validate`` does the same on other games (``--start``) with the shipped
settings and prints, per band of stated margin (4–5, 5–10, 10–20, 20+ points
for «Mejor», and below the threshold for «Igual de buena»), the decisions,
the mean stated margin and the mean margin measured against the real hands.
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
from engine.bots import CpuBot, read_history
from engine.cards import POINTS
from engine.game import GAME_OVER, PLAYING, Game
from engine.judge import Weighing, settings
from engine.review import CURRENT, Decision, judge, weighed
from engine.view import SeatView, seat_view
from lab.dificil_regret import real_hands
from lab.review_learner import STAND_INS
from lab.simulate import game_code

SEED = "review-check"
HUMAN = 0


def collect(
    players: int, start: int, games: int, *, weighing: bool = False, learner: str = "learner"
) -> list[tuple[SeatView, Game, Action]]:
    """Seat 0's decisions in learner-vs-``cpu`` games: more than one legal action, not a winning last card.

    ``learner`` names the stand-in (:data:`lab.review_learner.STAND_INS`). With ``weighing``
    (version 1), only the decisions with more than one move worth weighing.
    """
    out: list[tuple[SeatView, Game, Action]] = []
    for index in range(start, start + games):
        game = Game.new(game_code(players, SEED, index))
        person, cpu = STAND_INS[learner](), CpuBot()
        while True:
            while game.phase == PLAYING:
                seat = game.turn
                view = seat_view(game, seat)
                action = (person if seat == HUMAN else cpu).choose(view)
                if seat == HUMAN and len(view.legal) > 1:
                    last_card_wins = len(view.hand) == 1 and action.card is not None
                    if (len(weighed(view, action)) > 1 or not weighing) and not last_card_wins:
                        out.append((view, game.copy(), action))
                game.apply(action)
            if game.phase == GAME_OVER:
                break
            game.next_hand()
    return out


# Other playouts per decision (and an action budget in proportion), to measure other settings' noise.
OVERRIDE: dict[str, int] = {}


def judge_v1(view: SeatView, played: Action, seed: str = "review") -> Decision:
    """Version 1's decision on one position, its search seeded by ``seed``."""
    s = settings(1, view.players)
    if OVERRIDE:
        s = replace(s, **OVERRIDE)  # type: ignore[arg-type]
    moves = weighed(view, played)
    weighing = Weighing(view, moves, s.params(view.players), seed)
    while not weighing.step(10_000):
        pass
    totals = tuple(weighing.totals)
    return Decision(0, view.hand_no, view.players, tuple(moves), totals, weighing.worlds, played, s)


def oracle(view: SeatView, game: Game, moves: Sequence[Action], playouts: int) -> list[float]:
    """Each move's mean worth from the real hands (points of lead over the average opponent)."""
    me, players = view.seat, view.players

    def lead(hands: list[list[int]], winner: int) -> float:
        pen = [0 if s == winner else sum(POINTS[c] for c in h) for s, h in enumerate(hands)]
        return (sum(pen) - players * pen[me]) / (players - 1)

    return real_hands(
        view, game, moves, playouts, label="review-oracle", known=read_history(view).known, value=lead
    )


def _noise_chunk(args: tuple[int, int, int, int, dict[str, int]]) -> list[list[float]]:
    """For each position, each move's margin over the played one under every seed (version 1)."""
    players, start, games, seeds, override = args
    OVERRIDE.update(override)
    rows: list[list[float]] = []
    for view, _game, played in collect(players, start, games, weighing=True):
        runs = [judge_v1(view, played, "review" if n == 0 else f"review-noise-{n}") for n in range(seeds)]
        at = runs[0].played_at
        assert at is not None
        for j in range(len(runs[0].moves)):
            if j != at:
                rows.append([r.value(j) - r.value(at) for r in runs])
    return rows


def _measure_chunk(args: tuple[int, int, int, int, dict[str, int]]) -> list[list[float]]:
    """Per decision: [followed, raw margin, its se, stated margin, margin from the real hands, worlds]."""
    players, start, games, playouts, _override = args
    out: list[list[float]] = []
    for view, game, played in collect(players, start, games):
        decision = judge(view, played)
        if decision.followed:
            out.append([1, 0.0, 0.0, 0.0, 0.0, 0])
            continue
        values = oracle(view, game, [decision.best, played], playouts)
        out.append(
            [
                0,
                round(decision.raw_margin, 4),
                round(decision.standard_error, 4),
                round(decision.margin, 4),
                round(values[0] - values[1], 4),
                decision.measure[0],
            ]
        )
    return out


# Bands of stated margin (points): below the threshold, then the «Mejor» bands.
BANDS = ((-1e9, 2.0), (2.0, 4.0), (4.0, 5.0), (5.0, 10.0), (10.0, 20.0), (20.0, 1e9))


def band_name(low: float, high: float) -> str:
    if low < -1e8:
        return f"< {high:g}"
    return f"{low:g}+" if high > 1e8 else f"{low:g}–{high:g}"


def band_table(rows: list[list[float]]) -> list[dict[str, object]]:
    """Per band of stated margin, of the decisions where you did not make the choice."""
    table: list[dict[str, object]] = []
    for low, high in BANDS:
        inside = [r for r in rows if not r[0] and low <= r[3] < high]
        stated = _mean_se([r[3] for r in inside])[0]
        measured, se = _mean_se([r[4] for r in inside])
        ratio = round(measured / stated, 2) if inside and stated > 0 else None
        table.append(
            {
                "band": band_name(low, high),
                "decisions": len(inside),
                "stated": stated,
                "measured": measured,
                "se": se,
                "ratio": ratio,
            }
        )
    return table


# The grid of margins (points) the prior is fitted on.
GRID = tuple(float(x) for x in range(-10, 81))


def fit_prior(rows: list[list[float]], rounds: int = 200) -> list[tuple[float, float]]:
    """The weights on :data:`GRID` that best explain the measured margins and their errors (EM).

    A margin's likelihood is kept on the grid points within 8 standard errors of the nearest one
    (farther ones weigh under e^-32 of it), which makes a fit on tens of thousands of decisions
    a few times faster and leaves the rounded weights as they were.
    """
    import math  # noqa: PLC0415

    data = [(r[1], max(r[2], 0.25)) for r in rows if not r[0]]
    weights = [1.0 / len(GRID)] * len(GRID)
    windows: list[tuple[int, list[float]]] = []
    for m, se in data:
        z2 = [((m - x) / se) ** 2 for x in GRID]
        near = min(z2)
        inside = [j for j, z in enumerate(z2) if z - near <= 64.0]
        lo, hi = inside[0], inside[-1] + 1
        windows.append((lo, [math.exp(-0.5 * z2[j]) / se for j in range(lo, hi)]))
    for _ in range(rounds):
        new = [0.0] * len(GRID)
        for lo, like in windows:
            post = [w * lk for w, lk in zip(weights[lo : lo + len(like)], like, strict=True)]
            total = sum(post) or 1.0
            for k, p in enumerate(post):
                new[lo + k] += p / total
        weights = [w / len(data) for w in new]
    kept = [(x, w) for x, w in zip(GRID, weights, strict=True) if w >= 1e-3]
    norm = sum(w for _x, w in kept)
    return [(x, round(w / norm, 4)) for x, w in kept]


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


def report(rows: list[list[float]], what: str, summary: dict[str, object]) -> None:
    """Print the band table (and, for ``fit``, the prior and the scale) and add them to ``summary``."""
    other = [r for r in rows if not r[0]]
    summary["decisions"] = len(rows)
    summary["not_the_choice"] = len(other)
    if what == "fit":
        prior = fit_prior(rows)
        s = settings(CURRENT, int(summary["players"]))  # type: ignore[call-overload]
        fitted = replace(s, prior=tuple(prior), scale=1.0)
        shrunk = [fitted.stated(r[1], r[2]) for r in other]
        top = [(p, r[4]) for p, r in zip(shrunk, other, strict=True) if p > 3.0]
        scale = sum(o for _p, o in top) / sum(p for p, _o in top) if top else 1.0
        summary["prior"] = prior
        summary["scale"] = round(scale, 3)
        print(f"prior: {tuple(prior)}")
        print(f"scale: {scale:.3f} (from {len(top)} decisions whose shrunk margin is over 3 points)")
        for r, p in zip(other, shrunk, strict=True):
            r[3] = p * scale
    table = band_table(rows)
    summary["bands"] = table
    print(f"{len(rows)} decisions, {len(other)} where the move played was not the review's choice")
    for line in table:
        print(
            f"  stated {line['band']:>6}: {line['decisions']:5d} decisions, stated {line['stated']:6.2f}, "
            f"real hands {line['measured']:6.2f} (se {line['se']:.2f}), ratio {line['ratio']}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    doc = __doc__.split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m lab.review_check", description=doc)
    parser.add_argument("what", choices=("noise", "fit", "validate"))
    parser.add_argument("--start", type=int, default=0, help="the first game's number")
    parser.add_argument("--out", help="fit, validate: write every decision's numbers to this JSON file")
    parser.add_argument(
        "--rows", nargs="*", default=[], help="fit: also the decisions of earlier runs (their --out files)"
    )
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=3, help="noise: searches per position")
    parser.add_argument(
        "--oracle", type=int, default=200, help="fit, validate: playouts a move, from the real hands"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--playouts", type=int, help="other playouts per decision (budget 50 actions each)")
    args = parser.parse_args(argv)
    override = {}
    if args.playouts is not None:
        override = {"playouts": args.playouts, "max_actions": 50 * args.playouts}

    began = time.perf_counter()
    chunks = [(args.start + s, n) for s, n in _chunks(args.games, args.jobs)]
    summary: dict[str, object] = {
        "players": args.players,
        "games": args.games,
        "start": args.start,
        "version": 1 if args.what == "noise" else CURRENT,
    }
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
            args.jobs, _measure_chunk, [(args.players, s, n, args.oracle, override) for s, n in chunks]
        )
        rows = [row for part in parts for row in part]
        for path in args.rows if args.what == "fit" else []:
            with open(path, encoding="utf-8") as f:
                rows += json.load(f)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(rows, f)
        report(rows, args.what, summary)
        summary["oracle"] = args.oracle
    summary["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
