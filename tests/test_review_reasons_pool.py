"""lab.review_reasons report pools the row files of one stand-in, each game counted once."""

from __future__ import annotations

import pytest

from lab.review_reasons import pooled


def _file(learner: str, start: int, games: int, rows: list[int]) -> dict:
    return {"meta": {"learner": learner, "start": start, "games": games}, "rows": rows}


def test_the_files_of_one_stand_in_are_one_table_named_by_its_runs_of_games() -> None:
    files = [
        _file("eights", 3020, 20, [2]),
        _file("high", 3000, 20, [9]),
        _file("eights", 3000, 20, [1]),
        _file("eights", 3100, 10, [3]),
    ]
    assert pooled(files) == {"eights games 3000–3039, 3100–3109": [1, 2, 3], "high games 3000–3019": [9]}


def test_a_game_in_two_files_is_refused() -> None:
    with pytest.raises(SystemExit, match="3010"):
        pooled([_file("drawer", 3000, 20, [1]), _file("drawer", 3010, 20, [2])])
