"""Replay records: check every game of a file through the rules, and write its event log.

Command line::

    python -m lab.replay FILE [--log OUT]

``FILE`` holds one record text per line (what ``python -m lab.simulate
--records`` writes; blank lines are skipped). Every record is replayed with
:meth:`engine.record.Record.replay`; one line is printed per game and a JSON
summary last. The command stops with exit status 1 at the first record that
does not replay, naming its line and move. With ``--log`` it writes the same
JSON Lines event log as the simulator (see :mod:`lab.simulate`), so
``tests/referee.py`` can check a replay independently of this engine.

>>> from engine.game import Game
>>> [e["event"] for e in events(Record.of(Game.new("A2K7QM92")), index=0)]
['deal']
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from engine.actions import DRAW_KIND, PLAY_KIND
from engine.cards import SUIT_LETTERS, TEXT
from engine.game import GAME_OVER, HAND_OVER, Game
from engine.record import Record, RecordError


def _cards(cards: Sequence[int]) -> list[str]:
    return [TEXT[c] for c in cards]


def _deal_event(game: Game, index: int) -> dict[str, Any]:
    return {
        "event": "deal",
        "game": index,
        "hand": game.hand_no,
        "code": game.code.text,
        "leader": game.leader,
        "hands": [_cards(h) for h in game.hands],
        "stock": _cards(game.stock[::-1]),
        "top": TEXT[game.top],
        "active_suit": SUIT_LETTERS[game.active_suit],
    }


def _end_events(game: Game, index: int) -> Iterator[dict[str, Any]]:
    result = game.result
    assert result is not None, "a finished hand has a result"
    yield {
        "event": "hand_end",
        "game": index,
        "hand": game.hand_no,
        "winner": result.winner,
        "penalties": list(result.penalties),
        "totals": list(result.totals),
    }
    if game.phase == GAME_OVER:
        yield {"event": "game_end", "game": index, "winners": list(game.winners), "totals": list(game.totals)}


def events(record: Record, index: int = 0) -> Iterator[dict[str, Any]]:
    """The event log of ``record`` as game number ``index``: deals, actions, reshuffles, ends.

    Raises :class:`RecordError` (after yielding the events before it) at a move the rules refuse.
    """
    game = record.first_game()
    yield _deal_event(game, index)
    dealt: list[dict[str, Any]] = []
    for _ in record.games(game, on_deal=lambda g: dealt.append(_deal_event(g, index))):
        yield from dealt
        dealt.clear()
        move = game.history[-1]
        action = move.action
        event: dict[str, Any] = {
            "event": "action",
            "game": index,
            "hand": game.hand_no,
            "seat": move.seat,
            "action": action.kind,
        }
        if action.kind == DRAW_KIND:
            drawn = game.hands[move.seat][-1]
            if move.reshuffled:
                # The new stock as shuffled: the drawn card was its top.
                stock = [TEXT[drawn], *_cards(game.stock[::-1])]
                yield {"event": "reshuffle", "game": index, "hand": game.hand_no, "stock": stock}
            event["card"] = TEXT[drawn]
        elif action.kind == PLAY_KIND:
            assert action.card is not None
            event["card"] = TEXT[action.card]
            if action.suit is not None:
                event["suit"] = action.suit.letter
        yield event
        if game.phase in (HAND_OVER, GAME_OVER):
            yield from _end_events(game, index)


def _describe(game: Game) -> str:
    totals = ", ".join(str(t) for t in game.totals)
    if game.phase == GAME_OVER:
        winners = ", ".join(str(s) for s in game.winners)
        return f"game over after {game.hand_no + 1} hands; totals {totals}; winner seat {winners}"
    return f"unfinished, hand {game.hand_no + 1} ({game.phase}); totals {totals}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="one record text per line")
    parser.add_argument("--log", default=None, help="write the JSON Lines event log to this file")
    args = parser.parse_args(argv)
    out = open(args.log, "w", encoding="utf-8") if args.log else None  # noqa: SIM115 - closed below
    began = time.perf_counter()
    games = finished = moves = hands = 0
    try:
        with open(args.file, encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                text = line.strip()
                if not text:
                    continue
                try:
                    record = Record.parse(text)
                    if out is None:
                        game = record.replay()
                    else:
                        for event in events(record, index=games):
                            out.write(json.dumps(event, separators=(",", ":")) + "\n")
                        game = record.replay()  # the same moves again, for the summary line
                except RecordError as err:
                    where = "" if err.index is None else f" (move {err.index + 1})"
                    print(f"line {number}{where}: {err}", file=sys.stderr)
                    return 1
                print(f"line {number}: {record.code.text}, {len(record)} moves, {_describe(game)}")
                games += 1
                moves += len(record)
                hands += game.hand_no + 1
                finished += game.phase == GAME_OVER
    finally:
        if out is not None:
            out.close()
    summary = {
        "records": games,
        "finished": finished,
        "hands": hands,
        "moves": moves,
        "seconds": round(time.perf_counter() - began, 3),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
