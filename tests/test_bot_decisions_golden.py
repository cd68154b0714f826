"""Golden decisions: ``facil``, ``cpu`` and ``dificil`` answer every stored position as they always have.

``tests/golden/bot_decisions.txt`` holds positions of dificil-vs-cpu games
(seed ``regret``, seats rotated: the positions of ``dificil_regret``, every
one where the search weighed more than one candidate). A line is::

    <record text> <seat> <facil> <cpu> <dificil>

the record replays to the position, ``seat`` is on turn, and the last three
are the actions each level chose there. The first :data:`FAST` lines of each
table size run in the fast loop, the whole file under the ``slow`` mark.

Playouts have their own golden file, ``tests/golden/playouts.txt``: from the
same positions, the playout of every candidate with a fixed seed, as
``<record text> <candidate> <seed> <winner> <actions> <hands>``.

Both files were written by the code before ``engine/bots`` was split into a
package and must never change: rewrite them (``PYTHONPATH=.
python tests/test_bot_decisions_golden.py``) only for a change meant to alter the
bots' play, and say so in the commit.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.actions import DRAW, Action
from engine.bots import CpuBot, DificilBot, FacilBot, candidates, playout, read_history
from engine.codes import GameCode, stream
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from engine.record import Record
from engine.view import seat_view

GOLDEN = Path(__file__).parent / "golden" / "bot_decisions.txt"
PLAYOUTS = Path(__file__).parent / "golden" / "playouts.txt"
GAMES = {2: 6, 3: 6}  # dificil-vs-cpu games per table size
FAST = 4  # positions per table size in the fast loop
FAST_PLAYOUTS = 40  # playout lines in the fast loop


def positions(players: int, games: int) -> Iterator[Game]:
    """The searched positions of dificil-vs-cpu games (a copy of each game), in play order."""
    for index in range(games):
        hero = index % players
        game = Game.new(GameCode.random(players, stream("regret", "game", index)))
        hard, cpu = DificilBot(), CpuBot()
        while game.phase != GAME_OVER:
            while game.phase == PLAYING:
                view = seat_view(game, game.turn)
                if game.turn == hero:
                    search = hard.start(view)
                    if search.playouts:
                        yield game.copy()
                    action = search.run()
                else:
                    action = cpu.choose(view)
                game.apply(action)
            if game.phase != GAME_OVER:
                game.next_hand()


def decisions(game: Game) -> tuple[Action, Action, Action]:
    """What ``facil``, ``cpu`` and ``dificil`` choose for the seat on turn."""
    view = seat_view(game, game.turn)
    return FacilBot().choose(view), CpuBot().choose(view), DificilBot().choose(view)


def playout_line(game: Game, action: Action, seed: int) -> str:
    """The playout of ``action`` from ``game``'s real hands with ``seed``, as a golden line."""
    view = seat_view(game, game.turn)
    reading = read_history(view)
    known = any(m.action.card is not None for m in view.history)
    hands = [[int(c) for c in h] for h in game.hands]
    if action.card is None:
        first = (-1 if action is DRAW else -2, -1)
    else:
        first = (int(action.card), -1 if action.suit is None else int(action.suit))
    winner, actions = playout(
        hands,
        [int(c) for c in game.stock],
        [int(c) for c in game.pile],
        active=game.active_suit,
        turn=game.turn,
        draws=game.draws,
        short=[list(r) for r in reading.short],
        known=known,
        rng=seed,
        first=first,
    )
    shown = "/".join(".".join(str(c) for c in h) for h in hands)
    return f"{Record.of(game)} {action} {seed} {winner} {actions} {shown}"


def replay(record: str) -> Game:
    """The position a golden record stops at (a record that ends a hand stops at the next deal)."""
    game = Record.parse(record).replay()
    if game.phase == HAND_OVER:
        game.next_hand()
    return game


def _lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _by_size(rows: list[list[str]], fast: bool) -> list[list[str]]:
    if not fast:
        return rows
    out: list[list[str]] = []
    for players in (2, 3):
        out += [row for row in rows if Record.parse(row[0]).code.players == players][:FAST]
    return out


def _check_decisions(fast: bool) -> None:
    rows = _by_size(_lines(GOLDEN), fast)
    assert len(rows) >= (2 * FAST if fast else 300)
    for record, seat, *expected in rows:
        game = replay(record)
        assert game.turn == int(seat), record
        got = [str(a) for a in decisions(game)]
        assert got == expected, f"{record} seat {seat}: facil, cpu, dificil chose {got}, golden {expected}"


def test_levels_decide_as_the_golden_positions_say() -> None:
    _check_decisions(fast=True)


@pytest.mark.slow
def test_levels_decide_as_every_golden_position_says() -> None:
    _check_decisions(fast=False)


def _check_playouts(fast: bool) -> None:
    rows = _lines(PLAYOUTS)
    if fast:
        rows = rows[:FAST_PLAYOUTS]
    assert rows
    for record, action, seed, *_ in rows:
        game = replay(record)
        got, *rest = playout_line(game, Action.parse(action), int(seed)).split()
        assert Record.parse(got) == Record.parse(record), f"{record}: the same position"
        assert rest == [action, seed, *_], f"{record} {action} seed {seed}"


def test_playouts_end_as_the_golden_file_says() -> None:
    _check_playouts(fast=True)


@pytest.mark.slow
def test_every_golden_playout_ends_the_same() -> None:
    _check_playouts(fast=False)


def write() -> None:
    """Rewrite both golden files from the code as it is (see the module docstring)."""
    lines: list[str] = []
    outs: list[str] = []
    for players, games in GAMES.items():
        for n, game in enumerate(positions(players, games)):
            facil, cpu, dificil = decisions(game)
            lines.append(f"{Record.of(game)} {game.turn} {facil} {cpu} {dificil}")
            if n % 8 == 0:
                view = seat_view(game, game.turn)
                for j, action in enumerate(candidates(view)):
                    outs.append(playout_line(game, action, 1000 * n + j))
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    PLAYOUTS.write_text("\n".join(outs) + "\n", encoding="utf-8")
    print(f"{len(lines)} positions, {len(outs)} playouts")


if __name__ == "__main__":  # PYTHONPATH=. python tests/test_bot_decisions_golden.py
    write()
