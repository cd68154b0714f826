"""The decision-quality tool: it scores the search on real positions against the real hidden hands."""

from __future__ import annotations

import json

import pytest

from engine.bots import candidates
from engine.view import seat_view
from lab.dificil_regret import collect, main, oracle


def test_regret_positions_are_searched_decisions_of_real_games() -> None:
    positions = collect(3, 1)
    assert positions
    for view, game in positions[:10]:
        assert seat_view(game, view.seat) == view  # the copy is the game the view was taken from
        assert len(candidates(view)) > 1


@pytest.mark.slow
def test_the_oracle_values_every_candidate_the_same_way_every_time() -> None:
    view, game = collect(3, 1)[0]
    hands = [list(h) for h in game.hands]
    values = oracle(view, game, 20, 40)
    assert len(values) == len(candidates(view))
    assert oracle(view, game, 20, 40) == values
    assert game.hands == hands  # the real game is left as it was


@pytest.mark.slow  # a research tool's whole report: the longest test of the edit loop, run by the full suite
def test_regret_reports_the_cpu_and_each_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--players", "2", "--games", "1", "--oracle", "8", "--variant", "now", "--variant", "margin0"])
        == 0
    )
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["positions"] > 0
    for name in ("cpu", "now", "margin0"):
        assert summary[name]["regret"][0] >= 0
    assert summary["now"]["minus_first"] == [0.0, 0.0]
