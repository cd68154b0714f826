"""What the ``dificil`` search's choices lose to the real hidden hands: ``python -m lab.dificil_regret``.

Usage::

    python -m lab.dificil_regret --players 3 --games 30 --oracle 400 [--jobs 2] [--variant NAME ...]

A win share over a few hundred games cannot tell two settings of the search
apart (each figure is within about four points of noise). This measures one
decision at a time instead, with far less noise:

1. it plays ``--games`` dificil-vs-cpu games (seats rotated, seed
   ``regret``, so none of the deals of ``lab.match``'s seed 7) and keeps
   every position where the search weighed more than one candidate, with the
   real hidden hands;
2. it values each candidate of each position by ``--oracle`` playouts from
   the *real* hands (only the stock's order shuffled), the cpu's rules
   playing on for every seat, and the playout worth the search uses;
3. each variant decides every position from the seat's view alone; its
   figure is the mean oracle value of the moves it chose, minus that of the
   best candidate (the regret, in the search's points a decision).

The real hidden hands are one draw from what the view allows, so the mean
oracle value of a variant's choices estimates what they are worth; every
variant is scored on the same positions, so the differences are paired.
What this cannot see: how the search's own later moves (played here by the
cpu's rules) and the playout worth itself change the result of a game.
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
from engine.bots import (
    DIFICIL_PARAMS,
    CpuBot,
    DificilBot,
    DificilParams,
    candidates,
    move_of,
    playout,
    read_history,
    same_move,
)
from engine.codes import shuffled, stream
from engine.game import GAME_OVER, PLAYING, Game
from engine.view import SeatView, seat_view
from lab.simulate import game_code
from lab.valuation import GameGaps, worth

# The variants measured by name (a name's settings replace the table's measured ones).
VARIANTS: dict[str, dict[str, object]] = {
    "now": {},
    "margin0": {"margin": 0},
    "margin2": {"margin": 2},
    "margin5": {"margin": 5},
    "p600": {"playouts": 600, "max_actions": 30_000},
    "p600b": {"playouts": 600, "max_actions": 25_000},
    "p800": {"playouts": 800, "max_actions": 40_000},
    "p800b": {"playouts": 800, "max_actions": 25_000},
    "p1600": {"playouts": 1600, "max_actions": 80_000},
    "tries4": {"tries": 4},
    "tries16": {"tries": 16},
    "dealer2": {"dealer": 2},
    "gaps": {"equity": False, "value": GameGaps(40), "margin": 3},
    "scale30": {"equity": False, "value": GameGaps(30), "margin": 3},
    "scale60": {"equity": False, "value": GameGaps(60), "margin": 3},
    "equity50": {"equity": True, "margin": 50},
    "equity75": {"equity": True, "margin": 75},
    "equity100": {"equity": True, "margin": 100},
    "equity150": {"equity": True, "margin": 150},
    "equity200": {"equity": True, "margin": 200},
}


def collect(players: int, games: int) -> list[tuple[SeatView, Game]]:
    """The searched positions of dificil-vs-cpu games, each with a copy of the real game."""
    out: list[tuple[SeatView, Game]] = []
    for index in range(games):
        hero = index % players
        game = Game.new(game_code(players, "regret", index))
        hard = DificilBot()
        cpu = CpuBot()
        while True:
            while game.phase == PLAYING:
                seat = game.turn
                view = seat_view(game, seat)
                if seat == hero:
                    search = hard.start(view)
                    if search.playouts:
                        out.append((view, game.copy()))
                    action = search.run()
                else:
                    action = cpu.choose(view)
                game.apply(action)
            if game.phase == GAME_OVER:
                break
            game.next_hand()
    return out


def oracle(view: SeatView, game: Game, playouts: int, scale: int, by_equity: bool = False) -> list[float]:
    """Each candidate's mean worth from the real hands, the stock reshuffled for each playout."""
    known = any(m.action.card is not None for m in view.history)

    def value(hands: list[list[int]], winner: int) -> float:
        return worth(hands, winner, view.totals, view.seat, scale, by_equity=by_equity)

    return real_hands(view, game, candidates(view), playouts, label="regret-oracle", known=known, value=value)


def real_hands(
    view: SeatView,
    game: Game,
    moves: Sequence[Action],
    playouts: int,
    *,
    label: str,
    known: bool,
    value: Callable[[list[list[int]], int], float],
) -> list[float]:
    """Each move's mean ``value(hands, winner)`` over playouts from the *real* hidden hands.

    Every playout reshuffles the real stock (seeded by ``label`` and the position) and plays each
    move from the same world, so the moves are compared on the same deals.
    """
    reading = read_history(view)
    rng = stream(label, view.code, view.hand_no, len(view.history))
    totals = [0.0] * len(moves)
    for _ in range(playouts):
        stock = shuffled([int(c) for c in game.stock], rng)
        seed = int(rng.random() * (1 << 53))
        for j, action in enumerate(moves):
            hands = [[int(c) for c in h] for h in game.hands]
            winner, _ = playout(
                hands,
                list(stock),
                [int(c) for c in game.pile],
                active=view.active_suit,
                turn=view.seat,
                draws=view.draws_used,
                short=[list(r) for r in reading.short],
                known=known,
                rng=seed,
                first=move_of(action),
            )
            totals[j] += value(hands, winner)
    return [t / playouts for t in totals]


def params_of(players: int, name: str) -> DificilParams:
    return replace(DIFICIL_PARAMS[players], **VARIANTS[name])  # type: ignore[arg-type]


def _score(args: tuple[int, list[str], list[tuple[SeatView, list[float]]]]) -> dict[str, list[float]]:
    players, names, items = args
    out: dict[str, list[float]] = {name: [] for name in [*names, "cpu"]}
    out["seconds"] = []
    for view, values in items:
        moves = candidates(view)
        best = max(values)
        cpu = same_move(CpuBot().choose(view), moves)
        out["cpu"].append(best - (values[moves.index(cpu)] if cpu is not None else min(values)))
        for name in names:
            began = time.process_time()
            action = DificilBot(params_of(players, name)).choose(view)
            out["seconds"].append(time.process_time() - began)
            chosen = same_move(action, moves)
            assert chosen is not None
            out[name].append(best - values[moves.index(chosen)])
    return out


def _oracle_chunk(args: tuple[list[tuple[SeatView, Game]], int, int, bool]) -> list[list[float]]:
    items, playouts, scale, by_equity = args
    return [oracle(view, game, playouts, scale, by_equity) for view, game in items]


def _mean_se(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error, rounded for the report."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / max(n - 1, 1)) ** 0.5
    return round(mean, 3), round(sd / n**0.5, 3)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.dificil_regret", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--players", type=int, choices=(2, 3), default=3)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--oracle", type=int, default=400, help="playouts per candidate from the real hands")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="repeatable")
    parser.add_argument(
        "--judge",
        choices=("search", "equity"),
        default="search",
        help="what the oracle values a playout by: the table's own worth, or the chance to win the game",
    )
    args = parser.parse_args(argv)
    names = args.variant or ["now"]
    began = time.perf_counter()
    positions = collect(args.players, args.games)
    scale = 0  # the shipped search values the hand (or the equity), never the game's gaps
    chunks = [positions[i :: args.jobs] for i in range(args.jobs)]
    with ExitStack() as stack:
        mapper: Callable[..., Iterable[Any]] = map
        if args.jobs > 1:
            from multiprocessing import Pool  # noqa: PLC0415

            mapper = stack.enter_context(Pool(args.jobs)).map
        by_equity = args.judge == "equity" or DIFICIL_PARAMS[args.players].equity
        parts = mapper(_oracle_chunk, [(c, args.oracle, scale, by_equity) for c in chunks])
        items = [list(zip((v for v, _ in c), p, strict=True)) for c, p in zip(chunks, parts, strict=True)]
        scored = list(mapper(_score, [(args.players, names, it) for it in items]))
    merged: dict[str, list[float]] = {}
    for part in scored:
        for key, values in part.items():
            merged.setdefault(key, []).extend(values)
    summary: dict[str, object] = {
        "players": args.players,
        "positions": len(positions),
        "oracle": args.oracle,
        "judge": "equity" if by_equity else "search",
    }
    for name in ["cpu", *names]:
        regret, paired = merged[name], [r - b for r, b in zip(merged[name], merged[names[0]], strict=True)]
        (mean, se), (diff, diff_se) = _mean_se(regret), _mean_se(paired)
        best = sum(r == 0 for r in regret)
        summary[name] = {"regret": [mean, se], "best": best, "minus_first": [diff, diff_se]}
        print(
            f"{name:>10}: regret {mean:.3f} (se {se:.3f}) a decision, best move {best}/{len(positions)}; "
            f"minus {names[0]}: {diff:+.3f} (se {diff_se:.3f})"
        )
    cpu_time = merged["seconds"]
    summary["decision_ms_mean"] = round(1000 * sum(cpu_time) / max(len(cpu_time), 1), 1)
    summary["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
