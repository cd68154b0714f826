"""The game-equity table: the chance to win a three-player game from the totals (rule 12)."""

from __future__ import annotations

import hashlib
import random
import sys
from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import position

from engine import equity_table
from engine.bots import DificilBot, DificilParams, playout_worth
from engine.cards import POINTS
from engine.equity import STEP, TOP, WHOLE, cell, decode, equity
from engine.game import TARGET
from engine.view import seat_view
from lab import make_equity

totals = st.integers(0, TARGET - 1)


def test_a_total_of_100_ends_the_game_and_the_lowest_wins() -> None:
    assert equity(100, 40, 60) == 0
    assert equity(40, 100, 60) == equity(40, 60, 130) == WHOLE
    assert equity(60, 60, 100) == WHOLE  # a shared lowest total is a win for each
    assert equity(70, 60, 100) == 0


@given(totals, totals, totals)
def test_the_others_are_alike(mine: int, a: int, b: int) -> None:
    assert equity(mine, a, b) == equity(mine, b, a)


@given(totals, totals, totals, st.integers(1, 40))
def test_more_points_never_make_a_win_likelier(mine: int, a: int, b: int, more: int) -> None:
    # In every simulated ending, a seat that wins from a total also wins from a lower one.
    assert equity(min(mine + more, TARGET - 1), a, b) <= equity(mine, a, b)


@given(totals, totals, totals)
def test_someone_wins_every_game(x: int, y: int, z: int) -> None:
    # Someone wins each game (more than one on a shared lowest total): the chances add up to about 1
    # or a little more. About: each seat's chance comes from its own run of the simulated endings.
    shares = equity(x, y, z) + equity(y, x, z) + equity(z, x, y)
    assert WHOLE * 0.95 <= shares <= WHOLE * 1.1
    assert min(equity(x, y, z), equity(y, x, z), equity(z, x, y)) >= 0


def test_grid_points_are_the_stored_cells_and_between_them_the_value_is_blended() -> None:
    assert equity(3 * STEP, 6 * STEP, 2 * STEP) == round(cell(3, 6, 2) * WHOLE / TOP)
    low, high = equity(30, 45, 60), equity(30 + STEP, 45, 60)
    assert min(low, high) <= equity(31, 45, 60) <= max(low, high)


def test_equal_totals_give_about_a_third() -> None:
    assert 3_300 <= equity(0, 0, 0) <= 3_700
    # Far ahead near the end: almost sure; far behind: almost lost.
    assert equity(20, 95, 96) > 9_500 and equity(95, 20, 30) < 300


COMMITTED = Path(equity_table.__file__)
# The SHA-256 of the committed cells (16-bit, little-endian) as the table was made, before it was
# stored as differences: the stored form changed, the values did not.
CELLS_SHA256 = "5a46845c4427953a59b7f6459144460224ad1dda43dc7f7f7b8db72c67729e76"


def little_endian(cells: array[int]) -> bytes:
    """The bytes of 16-bit ``cells`` as the table tool writes them."""
    out = array("H", cells)
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()


def committed_bytes() -> bytes:
    return little_endian(decode(equity_table.DELTAS))


def test_the_stored_differences_give_back_the_tables_cells_exactly() -> None:
    cells = committed_bytes()
    assert hashlib.sha256(cells).hexdigest() == CELLS_SHA256
    assert make_equity.encode(cells) == equity_table.DELTAS


def test_any_table_of_the_right_size_comes_back_exactly_even_a_rough_one() -> None:
    rng = random.Random(44)  # no smoothness at all: differences wrap around 16 bits
    cells = array(
        "H", [rng.choice((0, TOP, rng.randrange(TOP + 1))) for _ in range(len(decode(equity_table.DELTAS)))]
    )
    assert decode(make_equity.encode(little_endian(cells))) == cells
    with pytest.raises(ValueError, match="wrong size"):
        decode(equity_table.DELTAS[:-2])
    with pytest.raises(ValueError, match="wrong size"):
        make_equity.encode(little_endian(cells)[:-2])


@pytest.mark.slow
def test_the_committed_table_is_made_again_from_its_hands_and_endings() -> None:
    # The tool's defaults: the same hands and endings, and three of the table's rows (the first,
    # the middle and the last total of the seat) made again are the committed bytes. A whole table
    # takes about a minute of CPU: ``python -m lab.make_equity`` makes it, byte for byte.
    runs = make_equity.endings(make_equity.hand_penalties(make_equity.HANDS), make_equity.ENDINGS)
    committed = decode(equity_table.DELTAS)
    width = make_equity.BINS * (make_equity.BINS + 1) // 2  # cells in a row
    for row in (0, make_equity.BINS // 2, make_equity.BINS - 1):
        assert array("H", make_equity._row((row, runs))) == committed[row * width : (row + 1) * width], row
    assert len(committed) == make_equity.BINS * width


def test_the_tools_defaults_are_the_committed_tables_settings_and_its_header_names_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The table's rows are made again by the slow test above; here, what the tool is asked to make
    # with no arguments and the file it writes around the committed table's cells.
    asked: list[tuple[int, int]] = []

    def committed_cells(hands: int, count: int, jobs: int) -> tuple[bytes, dict[str, object]]:
        asked.append((hands, count))
        return committed_bytes(), {}

    monkeypatch.setattr(make_equity, "make_table", committed_cells)
    out = tmp_path / "equity_table.py"
    assert make_equity.main(["--out", str(out)]) == 0
    assert asked == [(equity_table.HANDS, equity_table.ENDINGS)]
    assert out.read_bytes() == COMMITTED.read_bytes()
    assert "``python -m lab.make_equity``" in COMMITTED.read_text(encoding="utf-8").splitlines()[0]
    assert COMMITTED.resolve() == make_equity.OUT


def test_a_table_of_other_settings_names_them_in_its_header() -> None:
    assert make_equity.command(600, 60) == "python -m lab.make_equity --hands 600 --endings 60"
    assert make_equity.command(make_equity.HANDS, make_equity.ENDINGS) == "python -m lab.make_equity"


def test_the_table_module_is_written_as_the_engine_reads_it() -> None:
    data, figures = make_equity.make_table(hands=30, count=4, jobs=1)
    text = make_equity.module_text(data, 30, 4)
    space: dict[str, object] = {}
    exec(compile(text, "equity_table.py", "exec"), space)  # the tool's own output
    assert space["STEP"] == STEP and space["BINS"] == equity_table.BINS and space["HANDS"] == 30
    assert figures["cells"] == equity_table.BINS * equity_table.BINS * (equity_table.BINS + 1) // 2


def test_the_search_values_a_playout_by_the_chance_to_win_the_game() -> None:
    # Seat 0 went out: its total stays 90, the others add what they hold.
    hands = [[], [0, 1], [2]]
    worth = playout_worth(hands, 0, [90, 80, 85], 0, by_equity=True)
    assert worth == equity(90, 80 + POINTS[0] + POINTS[1], 85 + POINTS[2])
    game = position(["3H 4H 9C KD", "2S 5D 6D", "2D 5S 6C"], pile="7H", totals=[10, 20, 30])
    search = DificilBot(DificilParams(playouts=60, min_worlds=3, equity=True)).start(seat_view(game, 0))
    search.run()
    assert all(0 <= t <= WHOLE * search.worlds for t in search.totals)
    two = position(["3H 4H 9C", "2S 5D 6D"], pile="7H")
    with pytest.raises(ValueError, match="three players"):
        DificilBot(DificilParams(equity=True)).start(seat_view(two, 0))


def test_git_knows_the_table_is_generated() -> None:
    attributes = (Path(__file__).resolve().parents[1] / ".gitattributes").read_text(encoding="utf-8")
    assert ["engine/equity_table.py", "linguist-generated=true"] in [
        line.split() for line in attributes.splitlines()
    ]
