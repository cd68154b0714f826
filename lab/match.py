"""Measure one bot against another with the seats rotated: ``python -m lab.match``.

Command line::

    python -m lab.match --players 2 --bot dificil --against cpu --deals 1000 --seed 7 [--jobs 2]
    python -m lab.match ... --deals 1000 --start 1000  # the next 1000 deals

Every deal (game ``i`` of the seed, the same codes as :mod:`lab.simulate`)
is played once with the measured bot in each seat and the other seats taken
by ``--against``, so ``deals`` deals make ``players x deals`` games and no
bot gains from a lucky seat or deal. It prints the measured bot's share of
games won with a 95 % Wilson interval (a shared win counts as a win), then
one JSON object as the last line. The interval treats the games as
independent; the rotated games of one deal are, if anything, negatively
correlated, so it errs on the wide side. ``--start N`` begins at deal ``N``:
a measurement of deals 0..999 is extended by another run with ``--start
1000``, and the two counts add up to one over every deal.

>>> result = match(2, "cpu", "random", deals=2, seed=1)
>>> result.games, result.wins
(4, 4)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bots import BOT_NAMES, make_bot
from lab.simulate import game_code, play_game


@dataclass
class MatchResult:
    """How often the measured bot won, over ``games`` rotated games."""

    players: int
    bot: str
    against: str
    games: int = 0
    wins: int = 0
    hands: int = 0
    seconds: float = 0.0

    def add(self, other: MatchResult) -> None:
        self.games += other.games
        self.wins += other.wins
        self.hands += other.hands

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win share."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.share
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def summary(self, **extra: object) -> dict[str, object]:
        low, high = self.interval()
        out: dict[str, object] = dict(extra)
        out.update(
            players=self.players,
            bot=self.bot,
            against=self.against,
            games=self.games,
            wins=self.wins,
            share=round(self.share, 4),
            interval95=[round(low, 4), round(high, 4)],
            hands=self.hands,
            seconds=round(self.seconds, 1),
        )
        return out


def match(
    players: int, bot: str, against: str, deals: int, seed: object = 7, *, start: int = 0
) -> MatchResult:
    """Play deals ``start .. start+deals-1``, each with ``bot`` in every seat in turn."""
    for name in (bot, against):
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
    result = MatchResult(players, bot, against)
    began = time.perf_counter()
    for index in range(start, start + deals):
        code = game_code(players, seed, index)
        for hero in range(players):
            names = [bot if seat == hero else against for seat in range(players)]
            seats = [make_bot(name, (seed, index, seat)) for seat, name in enumerate(names)]
            tally = play_game(code, seats, index=index)
            result.games += 1
            result.hands += tally.hands
            result.wins += tally.wins[hero]
    result.seconds = time.perf_counter() - began
    return result


def _chunk(args: tuple[int, str, str, int, object, int]) -> MatchResult:
    players, bot, against, deals, seed, start = args
    return match(players, bot, against, deals, seed, start=start)


def match_parallel(
    players: int, bot: str, against: str, deals: int, seed: object, *, jobs: int, start: int = 0
) -> MatchResult:
    """:func:`match` split over ``jobs`` processes (the same result as one process)."""
    if jobs <= 1:
        return match(players, bot, against, deals, seed, start=start)
    from multiprocessing import Pool  # noqa: PLC0415  # only the command line forks; Pyodide cannot

    # Small chunks keep both workers busy to the end (games differ a lot in length).
    size = max(1, min(10, -(-deals // jobs)))
    chunks = [(players, bot, against, min(size, deals - s), seed, start + s) for s in range(0, deals, size)]
    began = time.perf_counter()
    result = MatchResult(players, bot, against)
    with Pool(jobs) as pool:
        for part in pool.imap(_chunk, chunks):
            result.add(part)
            low, high = result.interval()
            print(
                f"... {result.wins}/{result.games} = {100 * result.share:.1f} % "
                f"({100 * low:.1f}-{100 * high:.1f} %)",
                file=sys.stderr,
                flush=True,
            )
    result.seconds = time.perf_counter() - began
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.match", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--bot", default="dificil", choices=BOT_NAMES, help="the bot measured")
    parser.add_argument("--against", default="cpu", choices=BOT_NAMES, help="the bot in every other seat")
    parser.add_argument("--deals", type=int, default=1000, help="deals; each is played once per seat")
    parser.add_argument("--seed", default="7", help="any text; fixes the deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--start", type=int, default=0, help="the first deal (to extend an earlier run)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.start < 0:
        parser.error("--start cannot be negative")
    seed: object = int(args.seed) if args.seed.isdigit() else args.seed
    result = match_parallel(
        args.players, args.bot, args.against, args.deals, seed, jobs=args.jobs, start=args.start
    )
    low, high = result.interval()
    print(
        f"{args.bot} vs {args.against}, {args.players} players: won {result.wins}/{result.games} games "
        f"= {100 * result.share:.1f} % (95 % interval {100 * low:.1f}-{100 * high:.1f} %)"
    )
    print(json.dumps(result.summary(seed=seed, deals=[args.start, args.start + args.deals])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
