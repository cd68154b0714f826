"""Measure challenge links: the record text and the whole link of cpu-vs-cpu games.

    python -m lab.challenge_sizes [--games 1000] [--seed 7]

Plays ``--games`` cpu-vs-cpu games at each table size (the simulator's
games, so the same seed gives the same games), builds each game's challenge
link under a GitHub Pages style address with a 20-character name, and prints
the sizes, then one JSON line. A benchmark of sizes, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics

from engine.record import Record
from engine.stats import outcome
from lab.simulate import run
from ui.links import MAX_LINK, challenge_url

BASE = "https://usuario.github.io/ocho-loco/"
NAME = "Ana María de la Peña"  # 20 characters, two of them outside ASCII


def measure(players: int, games: int, seed: str) -> dict[str, object]:
    records: list[Record] = []
    run(players, ["cpu"] * players, games, seed, records=records)
    texts = [str(r) for r in records]
    links = [challenge_url(BASE, str(r), outcome(r).total, NAME) for r in records]
    longest = max(range(len(links)), key=lambda i: len(links[i]))
    return {
        "players": players,
        "games": games,
        "record_chars_mean": round(statistics.mean(len(t) for t in texts), 1),
        "record_chars_max": max(len(t) for t in texts),
        "moves_max": max(len(r) for r in records),
        "link_chars_mean": round(statistics.mean(len(u) for u in links), 1),
        "link_chars_max": len(links[longest]),
        "over_limit": sum(len(u) > MAX_LINK for u in links),
        "longest_code": records[longest].code.pretty(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="7")
    args = parser.parse_args(argv)
    results = [measure(players, args.games, args.seed) for players in (2, 3)]
    for r in results:
        print(
            f"{r['players']} players, {r['games']} games: record {r['record_chars_mean']} chars mean, "
            f"{r['record_chars_max']} max ({r['moves_max']} moves); link {r['link_chars_mean']} mean, "
            f"{r['link_chars_max']} max ({r['longest_code']}); over {MAX_LINK}: {r['over_limit']}"
        )
    print(json.dumps({"base": BASE, "name": NAME, "limit": MAX_LINK, "tables": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
