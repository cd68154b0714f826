"""The game-equity table: the chance to win a three-player game from the totals (rule 12)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import position

from engine import equity_table
from engine.bots import DificilBot, DificilParams, playout_worth
from engine.cards import POINTS
from engine.equity import STEP, WHOLE, cell, equity
from engine.game import TARGET
from tools import make_equity

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
    assert equity(3 * STEP, 6 * STEP, 2 * STEP) == round(cell(3, 6, 2) * WHOLE / 65_535)
    low, high = equity(30, 45, 60), equity(30 + STEP, 45, 60)
    assert min(low, high) <= equity(31, 45, 60) <= max(low, high)


def test_equal_totals_give_about_a_third() -> None:
    assert 3_300 <= equity(0, 0, 0) <= 3_700
    # Far ahead near the end: almost sure; far behind: almost lost.
    assert equity(20, 95, 96) > 9_500 and equity(95, 20, 30) < 300


@pytest.mark.slow
def test_the_committed_table_is_what_the_tool_makes() -> None:
    # The penalties and endings of the committed table, then a few of its rows made again.
    penalties = make_equity.hand_penalties(equity_table.HANDS)
    runs = make_equity.endings(penalties, equity_table.ENDINGS)
    for row in (0, 17, equity_table.BINS - 1):
        cells = make_equity._row((row, runs))
        assert cells == [cell(row, x, y) for y in range(equity_table.BINS) for x in range(y + 1)]


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
    search = DificilBot(DificilParams(playouts=60, min_worlds=3, equity=True)).start(game.view(0))
    search.run()
    assert all(0 <= t <= WHOLE * search.worlds for t in search.totals)
    two = position(["3H 4H 9C", "2S 5D 6D"], pile="7H")
    with pytest.raises(ValueError, match="three players"):
        DificilBot(DificilParams(equity=True)).start(two.view(0))
