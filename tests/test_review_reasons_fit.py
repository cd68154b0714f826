"""lab.review_reasons fit: version 4's shrinkage, one prior per kind of decision, fitted from row files."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import DRAW, PLAY, PLAY8, Action
from engine.cards import Card
from engine.record import NUMBER_OF
from lab.review_reasons import fit

SEVEN = PLAY[Card.parse("7H")]
NINE = PLAY[Card.parse("9H")]
EIGHT = PLAY8[Card.parse("8S")][1]


def _rows() -> list[dict[str, Any]]:
    """A fixed sample: 8s spent where a card was better (large margins, understated by the search),
    draws while a card fitted (small margins, overstated), a few cards played where another card was
    better (overstated), and decisions followed."""
    rows: list[dict[str, Any]] = []

    def add(played: Action, best: Action, raw: float, se: float, real: float) -> None:
        rows.append(
            {"followed": False, "played": NUMBER_OF[played], "best": NUMBER_OF[best], "raw": raw, "se": se,
             "real": real}
        )  # fmt: skip

    for i in range(80):
        raw = 4.0 + (i * 7) % 9
        add(EIGHT, SEVEN, raw, 1.5 + (i % 3) * 0.5, 1.25 * raw + (i % 5) - 2)
    for i in range(70):
        raw = (i * 5) % 7 - 1.0
        add(DRAW, SEVEN, raw, 2.0 + (i % 2), 0.75 * raw + (i % 3) - 1)
    for i in range(20):
        add(NINE, SEVEN, 5.0 + i % 4, 2.0, 0.5 * (5.0 + i % 4))
    rows += [{"followed": True, "played": NUMBER_OF[SEVEN], "best": NUMBER_OF[SEVEN]}] * 10
    return rows


def test_fit_by_choice_gives_each_common_kind_of_decision_its_prior_and_scale() -> None:
    s = fit(_rows(), 2, "choice", scale_per_kind=True)
    assert s.by_choice
    assert [name for name, _prior in s.priors] == ["ocho>carta", "robar>carta"], "carta>carta: 20, pooled"
    assert s.scales == (("ocho>carta", 1.277),), "the other kinds have too few margins over 3 points"
    assert s.scale == 1.153, "the pooled scale: all margins stated over 3 points"
    assert dict(s.priors)["ocho>carta"] == (
        (5.0, 0.1877), (6.0, 0.1965), (7.0, 0.0289), (8.0, 0.0156), (9.0, 0.3036), (10.0, 0.2677),
    )  # fmt: skip
    eight = s.stated(8.0, 2.0, EIGHT, SEVEN)
    assert eight == pytest.approx(10.50212600963888, abs=1e-9)
    assert s.stated(8.0, 2.0, EIGHT, DRAW) != eight, "ocho>robar is not in the sample: the pooled prior"


def test_fit_by_choice_refuses_rows_without_the_choice() -> None:
    rows = [{"followed": False, "played": NUMBER_OF[DRAW], "raw": 1.0, "se": 1.0, "real": 1.0}]
    with pytest.raises(SystemExit, match="--by played"):
        fit(rows, 2, "choice")
