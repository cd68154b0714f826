"""lab.review_reasons rows: a margin sample of another size measures the same decisions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.judge import CURRENT, settings
from lab.review_reasons import _rows_chunk


@pytest.mark.slow  # two games' reviews with their real-hands playouts, about 2 s: the full run's
def test_a_larger_margin_sample_keeps_the_decisions_and_the_real_hands_and_narrows_the_margin() -> None:
    worlds = settings(CURRENT, 3).measure_worlds
    usual = _rows_chunk(("high", 3, 3420, 1, 20, worlds))
    finer = _rows_chunk(("high", 3, 3420, 1, 20, 4 * worlds))

    def same(row: dict[str, Any]) -> tuple[Any, ...]:
        return (row["followed"], row["played"], row["best"], row.get("real"))

    assert [same(r) for r in usual] == [same(r) for r in finer], "the pilot reads both on the same decisions"
    errors = [(u["se"], f["se"]) for u, f in zip(usual, finer, strict=True) if not u["followed"]]
    assert errors, "the game has decisions the review would not make"
    assert sum(f for _u, f in errors) < 0.6 * sum(u for u, _f in errors), "4x the worlds, half the error"
