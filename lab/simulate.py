"""Play whole games between bots, tally the results and optionally log every event.

Command line::

    python -m lab.simulate --players 2 --bots cpu,random --games 1000 --seed 7 \
        [--log FILE] [--records FILE]

The last line printed is one JSON object with the tallies (see :class:`Tally`).
Game ``i`` of seed ``s`` is dealt from the code drawn from
``stream(s, "game", i)`` whatever the bots are, so two runs with the same seed
and different bots play the same deals; a random bot in seat ``k`` of game
``i`` is seeded with ``(s, i, k)``.

``--records FILE`` writes each game's record (:mod:`engine.record`), one text
per line, which ``python -m lab.replay FILE`` checks again.

The log (``--log``) is JSON Lines, one record per event, in order; it holds
everything an independent referee (``tests/referee.py``) needs to replay and
check every move::

    {"event": "deal", "game": 0, "hand": 0, "code": "A2...", "leader": 0,
     "hands": [["3H", ...], ...], "stock": ["4C", ...], "top": "10C", "active_suit": "C"}
    {"event": "action", "game": 0, "hand": 0, "seat": 0, "action": "play", "card": "8S", "suit": "H"}
    {"event": "action", "game": 0, "hand": 0, "seat": 1, "action": "draw", "card": "QD"}
    {"event": "reshuffle", "game": 0, "hand": 0, "stock": ["2C", ...]}
    {"event": "action", "game": 0, "hand": 0, "seat": 1, "action": "pass"}
    {"event": "hand_end", "game": 0, "hand": 0, "winner": 0, "penalties": [0, 23], "totals": [0, 23]}
    {"event": "game_end", "game": 0, "winners": [0], "totals": [40, 104]}

Stocks are listed top card first; a ``reshuffle`` record comes right before
the draw that caused it and lists the new stock before that draw takes its
top card. An 8 played as a last card has no ``suit``.

>>> tally = run(2, ["cpu", "random"], games=2, seed=1)
>>> tally.games, len(tally.wins)
(2, 2)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from engine.bots import BOT_NAMES, Bot, RandomBot, make_bot
from engine.codes import GameCode, stream
from engine.game import GAME_OVER, MAX_ACTIONS_PER_HAND, PLAYING, Game
from engine.record import Record
from engine.view import seat_view
from lab.replay import events

# A bot for (game index, seat).
BotFactory = Callable[[int, int], Bot]
Logger = Callable[[dict[str, Any]], None]


@dataclass
class Tally:
    """Totals over a run of games; ``wins`` counts a shared win for each winner."""

    players: int
    games: int = 0
    hands: int = 0
    actions: int = 0
    wins: list[int] = field(default_factory=list)
    penalty: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players
        if not self.penalty:
            self.penalty = [0] * self.players

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.hands += other.hands
        self.actions += other.actions
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.penalty = [a + b for a, b in zip(self.penalty, other.penalty, strict=True)]

    def summary(self, **extra: object) -> dict[str, object]:
        """The JSON-ready figures the command line prints last."""
        games = max(self.games, 1)
        hands = max(self.hands, 1)
        seconds = max(self.seconds, 1e-9)
        out: dict[str, object] = dict(extra)
        out.update(
            games=self.games,
            hands=self.hands,
            actions=self.actions,
            wins=self.wins,
            win_rate=[round(w / games, 4) for w in self.wins],
            mean_hand_penalty=[round(p / hands, 3) for p in self.penalty],
            seconds=round(self.seconds, 3),
            hands_per_second=round(self.hands / seconds, 1),
            actions_per_second=round(self.actions / seconds, 1),
        )
        return out


def game_code(players: int, seed: object, index: int) -> GameCode:
    """The code of game ``index`` of a run seeded with ``seed`` (independent of the bots)."""
    return GameCode.random(players, stream(seed, "game", index))


def named_factory(names: Sequence[str], seed: object) -> BotFactory:
    """Bots by name; seat ``k`` of game ``i`` gets the seed ``(seed, i, k)``."""
    for name in names:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")

    def factory(index: int, seat: int) -> Bot:
        return make_bot(names[seat], (seed, index, seat))

    return factory


def play_game(
    code: GameCode,
    bots: Sequence[Bot],
    *,
    index: int = 0,
    log: Logger | None = None,
    records: list[Record] | None = None,
) -> Tally:
    """Play one game of ``code`` to its end; return its tally (``seconds`` left at 0).

    ``log`` receives the game's events (built by replaying its record, see
    :func:`lab.replay.events`); ``records`` gets the game's record appended.
    """
    game = Game.new(code)
    players = game.players
    if len(bots) != players:
        raise ValueError(f"{players} seats need {players} bots, got {len(bots)}")
    tally = Tally(players, games=1)
    while True:
        _play_hand(game, bots)
        tally.hands += 1
        tally.actions += game.actions_this_hand
        result = game.result
        assert result is not None, "a finished hand has a result"
        tally.penalty = [a + b for a, b in zip(tally.penalty, result.penalties, strict=True)]
        if game.phase == GAME_OVER:
            break
        game.next_hand()
    for seat in game.winners:
        tally.wins[seat] += 1
    if log is not None:
        for event in events(Record.of(game), index):
            log(event)
    if records is not None:
        records.append(Record.of(game))
    return tally


def _play_hand(game: Game, bots: Sequence[Bot]) -> None:
    while game.phase == PLAYING:
        if game.actions_this_hand >= MAX_ACTIONS_PER_HAND:
            raise RuntimeError(
                f"hand {game.hand_no} of {game.code.text} passed {MAX_ACTIONS_PER_HAND} actions"
            )
        seat = game.turn
        bot = bots[seat]
        # A random bot makes the same choice from legal_actions() as from a view, so skip the view.
        action = (
            bot.pick(game.legal_actions()) if type(bot) is RandomBot else bot.choose(seat_view(game, seat))
        )
        game.apply(action)


def run(
    players: int,
    bots: Sequence[str] | BotFactory,
    games: int,
    seed: object = 0,
    *,
    start: int = 0,
    log: Logger | None = None,
    records: list[Record] | None = None,
) -> Tally:
    """Play games ``start .. start+games-1`` of ``seed`` and tally them (records appended to ``records``)."""
    factory = named_factory(bots, seed) if not callable(bots) else bots
    if not callable(bots) and len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    tally = Tally(players)
    began = time.perf_counter()
    for index in range(start, start + games):
        seats = [factory(index, seat) for seat in range(players)]
        code = game_code(players, seed, index)
        tally.add(play_game(code, seats, index=index, log=log, records=records))
    tally.seconds = time.perf_counter() - began
    return tally


def _run_chunk(args: tuple[int, list[str], int, int, object]) -> Tally:
    players, names, start, games, seed = args
    return run(players, names, games, seed, start=start)


def run_parallel(players: int, names: Sequence[str], games: int, seed: object, jobs: int) -> Tally:
    """:func:`run` split over ``jobs`` processes; the tallies are the same as one process gives."""
    if jobs <= 1:
        return run(players, names, games, seed)
    from multiprocessing import Pool  # noqa: PLC0415  # only the command line forks; Pyodide cannot

    size = -(-games // jobs)
    chunks = [(players, list(names), s, min(size, games - s), seed) for s in range(0, games, size)]
    began = time.perf_counter()
    tally = Tally(players)
    with Pool(jobs) as pool:
        for part in pool.map(_run_chunk, chunks):
            tally.add(part)
    tally.seconds = time.perf_counter() - began
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument(
        "--bots", default=None, help="comma-separated, one per seat (default: cpu,random[,random])"
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="7", help="any text; fixes the deals")
    parser.add_argument("--log", default=None, help="write a JSON Lines event log to this file")
    parser.add_argument("--records", default=None, help="write each game's record text, one per line")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (not with --log)")
    args = parser.parse_args(argv)
    names = args.bots.split(",") if args.bots else ["cpu"] + ["random"] * (args.players - 1)
    if len(names) != args.players:
        parser.error(f"--players {args.players} needs {args.players} bots, got {len(names)}")
    for name in names:
        if name not in BOT_NAMES:
            parser.error(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    seed: object = int(args.seed) if args.seed.isdigit() else args.seed
    records: list[Record] | None = [] if args.records else None
    if args.log:
        with open(args.log, "w", encoding="utf-8") as out:
            tally = run(args.players, names, args.games, seed, log=_writer(out), records=records)
    elif records is not None:
        tally = run(args.players, names, args.games, seed, records=records)
    else:
        tally = run_parallel(args.players, names, args.games, seed, args.jobs)
    if args.records and records is not None:
        with open(args.records, "w", encoding="utf-8") as out:
            out.writelines(str(record) + "\n" for record in records)
    summary = tally.summary(players=args.players, bots=names, seed=seed)
    for seat, name in enumerate(names):
        mean = tally.penalty[seat] / max(tally.hands, 1)
        won = f"won {tally.wins[seat]}/{tally.games} games"
        print(f"seat {seat} {name:>6}: {won}, mean penalty {mean:.2f} a hand")
    print(json.dumps(summary))
    return 0


def _writer(out: IO[str]) -> Logger:
    def write(record: dict[str, Any]) -> None:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")

    return write


if __name__ == "__main__":
    sys.exit(main())
