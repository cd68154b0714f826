#!/usr/bin/env python3
"""Check a simulator log move by move, without trusting (or importing) the engine.

Usage: ``python tests/referee.py LOG.jsonl [--skip-shuffles]``

The log is the JSON Lines file ``python -m lab.simulate --log`` writes. This
referee knows the house rules on its own, in a few lines each, and replays
every game from its records: each deal must use all 52 cards once with the
right hand sizes (and, unless ``--skip-shuffles``, be the very deal the game
code fixes), each play must be legal, nobody draws more than 3 cards in a
turn or a card that is not on top of the stock, a pass only comes with no
playable card and no draw left, a reshuffle happens only on a draw from an
empty stock and keeps the top card, and every hand's scoring, the running
totals and the end of the game add up.

Prints ``OK ...`` and exits 0, or one line per problem (``line N: ...``) and
exits 1. Stdlib only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"
# Canonical deck order: ace to king of spades, then hearts, diamonds, clubs.
DECK = [rank + suit for suit in SUITS for rank in RANKS]
INDEX = {card: i for i, card in enumerate(DECK)}
HAND_SIZE = {2: 7, 3: 5}
MAX_DRAWS = 3
TARGET = 100


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def points(card: str) -> int:
    r = rank(card)
    if r == "8":
        return 50
    if r in ("J", "Q", "K"):
        return 10
    if r == "A":
        return 1
    return int(r)


def shuffle_order(cards: list[str], *parts: object) -> list[str]:
    """The documented shuffle: Fisher-Yates on a generator seeded from SHA-256 of the parts."""
    key = "/".join(str(p) for p in ("ocho-loco", *parts))
    rng = random.Random(int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest(), "big"))
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


class Foul(Exception):
    """One broken rule; the message says which."""


@dataclass
class Table:
    """The referee's own copy of one game."""

    index: int
    code: str
    players: int
    totals: list[int]
    hand_no: int = -1
    hands: list[list[str]] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)  # top first
    pile: list[str] = field(default_factory=list)  # top last
    active: str = ""
    turn: int = 0
    draws: int = 0
    reshuffles: int = 0
    reshuffled: bool = False  # a reshuffle record waits for its draw
    state: str = "play"  # play | hand_over | game_over | ended
    last_winner: int = 0

    def legal(self, card: str) -> bool:
        top = self.pile[-1]
        return rank(card) == "8" or suit(card) == self.active or rank(card) == rank(top)

    def nothing_to_draw(self) -> bool:
        return not self.stock and len(self.pile) <= 1


@dataclass
class Report:
    games: int = 0
    hands: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class Referee:
    """Feed it records in order with :meth:`record`; read the verdict from :attr:`report`."""

    def __init__(self, check_shuffles: bool = True) -> None:
        self.check_shuffles = check_shuffles
        self.table: Table | None = None
        self.report = Report()
        self.skipping = False  # after a foul, wait for the next game's first deal

    def record(self, line: int, rec: dict[str, Any]) -> None:
        event = rec.get("event")
        if event == "deal" and rec.get("hand") == 0:
            try:
                self._finish_game()
            except Foul as foul:
                self.report.errors.append(f"line {line}: {foul}")
            self.skipping = False
        try:
            if event == "deal" and rec.get("hand") == 0:
                self._new_game(rec)
            if self.skipping:
                return
            if event == "deal":
                self._deal(rec)
            elif event == "action":
                self._action(rec)
            elif event == "reshuffle":
                self._reshuffle(rec)
            elif event == "hand_end":
                self._hand_end(rec)
            elif event == "game_end":
                self._game_end(rec)
            else:
                raise Foul(f"unknown event {event!r}")
        except Foul as foul:
            self.report.errors.append(f"line {line}: {foul}")
            self.skipping = True
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            self.report.errors.append(f"line {line}: malformed record ({type(exc).__name__}: {exc})")
            self.skipping = True

    def finish(self, line: int) -> Report:
        try:
            self._finish_game()
        except Foul as foul:
            self.report.errors.append(f"line {line}: {foul}")
        return self.report

    # -- events -------------------------------------------------------------------

    def _finish_game(self) -> None:
        table = self.table
        if table is not None and not self.skipping and table.state != "ended":
            self.table = None
            raise Foul(f"game {table.index} stops before its game_end")

    def _new_game(self, rec: dict[str, Any]) -> None:
        code = str(rec["code"])
        if len(code) != 8 or code[1] not in "23":
            raise Foul(f"bad game code {code!r}")
        previous = self.table
        if previous is not None and rec["game"] != previous.index + 1:
            raise Foul(f"game {rec['game']} follows game {previous.index}")
        players = int(code[1])
        self.table = Table(index=int(rec["game"]), code=code, players=players, totals=[0] * players)
        self.report.games += 1

    def _table(self, rec: dict[str, Any]) -> Table:
        table = self.table
        if table is None:
            raise Foul("record before the first deal")
        if rec.get("game", table.index) != table.index:
            raise Foul(f"record of game {rec.get('game')} inside game {table.index}")
        if "hand" in rec and rec["hand"] != table.hand_no:
            raise Foul(f"record of hand {rec['hand']} inside hand {table.hand_no}")
        return table

    def _deal(self, rec: dict[str, Any]) -> None:
        table = self.table
        if table is None:
            raise Foul("deal of a game that never started")
        hand_no = int(rec["hand"])
        if hand_no == 0:
            if table.hand_no != -1:
                raise Foul("second first deal")
            leader = 0
        else:
            if table.state != "hand_over":
                raise Foul("new deal before the hand or game ended properly")
            if hand_no != table.hand_no + 1:
                raise Foul(f"hand {hand_no} dealt after hand {table.hand_no}")
            leader = table.last_winner
        if rec["code"] != table.code:
            raise Foul("the code changed within a game")
        if rec["leader"] != leader:
            raise Foul(f"hand {hand_no} led by seat {rec['leader']}, should be seat {leader}")
        hands = [list(h) for h in rec["hands"]]
        stock = list(rec["stock"])
        top = str(rec["top"])
        if len(hands) != table.players:
            raise Foul(f"{len(hands)} hands dealt at a table of {table.players}")
        size = HAND_SIZE[table.players]
        if any(len(h) != size for h in hands):
            raise Foul(f"hands of {[len(h) for h in hands]} cards, should be {size} each")
        everything = [c for h in hands for c in h] + stock + [top]
        if sorted(everything, key=lambda c: INDEX.get(c, -1)) != DECK:
            raise Foul("the deal is not the 52 cards once each")
        if rec["active_suit"] != suit(top):
            raise Foul("the starting suit is not the turned-up card's suit")
        if self.check_shuffles:
            order = shuffle_order(DECK, table.code, "deal", hand_no)
            p = table.players
            expected = [order[s : size * p : p] for s in range(p)]
            if hands != expected or top != order[size * p] or stock != order[size * p + 1 :]:
                raise Foul(f"hand {hand_no} is not the deal code {table.code} fixes")
        table.hand_no = hand_no
        table.hands = hands
        table.stock = stock
        table.pile = [top]
        table.active = suit(top)
        table.turn = leader
        table.draws = 0
        table.reshuffles = 0
        table.reshuffled = False
        table.state = "play"
        self.report.hands += 1

    def _reshuffle(self, rec: dict[str, Any]) -> None:
        table = self._table(rec)
        if table.state != "play":
            raise Foul("reshuffle outside play")
        if table.stock:
            raise Foul("reshuffle while the stock still has cards")
        if len(table.pile) <= 1:
            raise Foul("reshuffle with nothing under the top card")
        if table.draws >= MAX_DRAWS:
            raise Foul("reshuffle for a fourth draw")
        stock = list(rec["stock"])
        under = table.pile[:-1]
        if sorted(stock) != sorted(under):
            raise Foul("the reshuffled stock is not the discards under the top card")
        table.reshuffles += 1
        if self.check_shuffles:
            canonical = sorted(under, key=INDEX.__getitem__)
            expected = shuffle_order(canonical, table.code, "reshuffle", table.hand_no, table.reshuffles)
            if stock != expected:
                raise Foul("the reshuffle is not the one the game code fixes")
        table.stock = stock
        table.pile = table.pile[-1:]
        table.reshuffled = True

    def _action(self, rec: dict[str, Any]) -> None:
        table = self._table(rec)
        if table.state != "play":
            raise Foul("action after the hand ended")
        seat = rec["seat"]
        if seat != table.turn:
            raise Foul(f"seat {seat} acts on seat {table.turn}'s turn")
        kind = rec["action"]
        hand = table.hands[seat]
        self.report.actions += 1
        if table.reshuffled and kind != "draw":
            raise Foul("a reshuffle not followed by a draw")
        if kind == "draw":
            if table.draws >= MAX_DRAWS:
                raise Foul(f"draw number {table.draws + 1} in one turn")
            if not table.stock:
                raise Foul("draw from an empty stock without a reshuffle")
            card = rec["card"]
            if card != table.stock[0]:
                raise Foul(f"drew {card}, but the top of the stock is {table.stock[0]}")
            table.stock.pop(0)
            hand.append(card)
            table.draws += 1
            table.reshuffled = False
        elif kind == "pass":
            playable = [c for c in hand if table.legal(c)]
            if playable:
                raise Foul(f"pass while holding a playable card ({playable[0]})")
            if table.draws < MAX_DRAWS and not table.nothing_to_draw():
                raise Foul(f"pass after {table.draws} draws with cards left to draw")
            self._next_turn(table)
        elif kind == "play":
            card = rec["card"]
            named = rec.get("suit")
            if card not in hand:
                raise Foul(f"seat {seat} plays {card}, which it does not hold")
            if not table.legal(card):
                raise Foul(f"{card} does not follow {table.pile[-1]} with {table.active} active")
            if rank(card) == "8" and len(hand) > 1:
                if named not in tuple(SUITS):
                    raise Foul(f"the 8 names no valid suit ({named!r})")
            elif named is not None:
                raise Foul(f"{card} names a suit it may not name")
            hand.remove(card)
            table.pile.append(card)
            table.active = named or suit(card)
            if hand:
                self._next_turn(table)
            else:
                table.state = "hand_over"
                table.last_winner = seat
        else:
            raise Foul(f"unknown action {kind!r}")

    def _next_turn(self, table: Table) -> None:
        table.draws = 0
        table.turn = (table.turn + 1) % table.players

    def _hand_end(self, rec: dict[str, Any]) -> None:
        table = self._table(rec)
        if table.state != "hand_over":
            raise Foul("hand_end while nobody has gone out")
        if rec["winner"] != table.last_winner:
            raise Foul(f"hand won by seat {table.last_winner}, log says {rec['winner']}")
        penalties = [sum(points(c) for c in h) for h in table.hands]
        if list(rec["penalties"]) != penalties:
            raise Foul(f"penalties {rec['penalties']}, should be {penalties}")
        table.totals = [t + p for t, p in zip(table.totals, penalties, strict=True)]
        if list(rec["totals"]) != table.totals:
            raise Foul(f"totals {rec['totals']}, should be {table.totals}")
        if max(table.totals) >= TARGET:
            table.state = "game_over"

    def _game_end(self, rec: dict[str, Any]) -> None:
        table = self._table(rec)
        if table.state != "game_over":
            raise Foul(
                "game_end before anyone reached 100" if table.state == "hand_over" else "game_end mid-hand"
            )
        low = min(table.totals)
        winners = [s for s, t in enumerate(table.totals) if t == low]
        if list(rec["winners"]) != winners:
            raise Foul(f"winners {rec['winners']}, should be {winners}")
        if list(rec["totals"]) != table.totals:
            raise Foul(f"final totals {rec['totals']}, should be {table.totals}")
        table.state = "ended"


def check_lines(lines: Iterable[str], check_shuffles: bool = True) -> Report:
    """Check a log given as its lines; the report lists every problem found."""
    referee = Referee(check_shuffles)
    number = 0
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as exc:
            referee.report.errors.append(f"line {number}: not JSON ({exc.msg})")
            referee.skipping = True
            continue
        if not isinstance(rec, dict):
            referee.report.errors.append(f"line {number}: not a JSON object")
            referee.skipping = True
            continue
        referee.record(number, rec)
    report = referee.finish(number)
    if report.games == 0:
        report.errors.append("no game in the log")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a lab.simulate log, move by move.")
    parser.add_argument("log", help="JSON Lines file written by python -m lab.simulate --log")
    parser.add_argument("--skip-shuffles", action="store_true", help="do not re-derive deals from the codes")
    args = parser.parse_args(argv)
    with open(args.log, encoding="utf-8") as handle:
        report = check_lines(handle, check_shuffles=not args.skip_shuffles)
    for error in report.errors[:50]:
        print(error)
    if len(report.errors) > 50:
        print(f"... and {len(report.errors) - 50} more")
    verdict = "OK" if report.ok else f"FAIL ({len(report.errors)} problems)"
    print(f"{verdict}: {report.games} games, {report.hands} hands, {report.actions} actions checked")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
