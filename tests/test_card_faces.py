"""Each face-up card wears its face: pips for A–10 in the classic patterns, a figure for J, Q and K.

The card's markup (``ui.render.card_face``) names one symbol of index.html's sprite,
``face-10H``; the sprite is what ``tools/faces.py`` draws. These tests read the
sprite from index.html itself, as the page ships it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.cards import CARDS, RANK_OF, RANK_TEXT, SUIT_LETTERS, TEXT
from tools import faces
from ui import render

PAGE = (Path(__file__).resolve().parents[1] / "index.html").read_text(encoding="utf-8")
FIELD_CENTRE = (faces.CENTRE, faces.MIDDLE)  # the pips' centre: turned about it, a pattern is the same


def symbol(name: str) -> str:
    """The inside of index.html's ``<symbol id=name>``."""
    found = re.findall(rf'<symbol id="{re.escape(name)}" viewBox="0 0 100 144">(.*?)</symbol>', PAGE, re.S)
    assert len(found) == 1, f"index.html has {len(found)} symbols {name}"
    return found[0]


def uses(markup: str) -> list[dict[str, str]]:
    """The attributes of each ``<use>`` in ``markup``."""
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', tag)) for tag in re.findall(r"<use [^>]*>", markup)]


def test_every_card_names_its_face_for_the_eye_only() -> None:
    for card in CARDS:
        markup = render.card_face(card)
        faces_in = re.findall(r'<svg class="face"[^>]*>(.*?)</svg>', markup)
        assert len(faces_in) == 1, markup
        assert '<svg class="face" aria-hidden="true" focusable="false">' in markup, (
            "decorative: the label names it"
        )
        assert uses(faces_in[0]) == [{"href": f"#face-{TEXT[card]}"}]
        assert markup.startswith(f'<span class="rank">{RANK_TEXT[RANK_OF[card] - 1]}</span>'), (
            "the rank stays text"
        )


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_a_court_card_wears_its_figure_and_its_suit(rank: str) -> None:
    figure = symbol(f"figure-{rank}")
    assert figure.count("<path") >= 3, "a drawn figure, not a letter"
    assert 'fill="#' not in figure and 'stroke="#' not in figure, (
        "only currentColor: forced colours, suit colours"
    )
    for suit in SUIT_LETTERS:
        drawn = uses(symbol(f"face-{rank}{suit}"))
        assert [u["href"] for u in drawn] == [f"#figure-{rank}", f"#suit-{suit}"]
    assert len({symbol(f"figure-{r}") for r in "JQK"}) == 3, "three different figures"


def test_an_ace_is_one_large_pip() -> None:
    for suit in SUIT_LETTERS:
        drawn = uses(symbol(f"face-A{suit}"))
        assert [u["href"] for u in drawn] == [f"#suit-{suit}"]
        assert float(drawn[0]["width"]) >= 2.5 * faces.PIP, "larger than any pip of 2–10"


@pytest.mark.parametrize("rank", range(2, 11))
def test_a_number_card_has_its_count_of_pips_in_the_classic_pattern(rank: int) -> None:
    for suit in SUIT_LETTERS:
        drawn = uses(symbol(f"face-{rank}{suit}"))
        assert len(drawn) == rank
        assert {u["href"] for u in drawn} <= {f"#pip-{suit}", f"#pip-{suit}-r"}
        at = [(float(u["x"]), float(u["y"]), u["href"].endswith("-r")) for u in drawn]
        # Upside down below the middle, as printed.
        assert all(turned == (y > FIELD_CENTRE[1]) for _, y, turned in at), at
        # Three columns; the sides in pairs, the centre column holds what is odd.
        columns = Counter(x for x, _, _ in at)
        assert set(columns) <= {faces.LEFT, faces.CENTRE, faces.RIGHT}, columns
        assert columns[faces.LEFT] == columns[faces.RIGHT]
        assert sorted(y for x, y, _ in at if x == faces.LEFT) == sorted(
            y for x, y, _ in at if x == faces.RIGHT
        )
        assert columns[faces.CENTRE] == {2: 2, 3: 3, 4: 0, 5: 1, 6: 0, 7: 1, 8: 2, 9: 1, 10: 2}[rank]
        # Turned half a circle the pattern is the same (the 7's odd pip sits above the middle).
        if rank != 7:
            cx, cy = FIELD_CENTRE
            assert sorted((round(2 * cx - x, 1), round(2 * cy - y, 1)) for x, y, _ in at) == sorted(
                (x, y) for x, y, _ in at
            )
        # Every pip whole, on the card, clear of the corner index and of each other.
        half = faces.PIP / 2
        for x, y, _ in at:
            assert half <= x <= faces.WIDTH - half and half <= y <= faces.HEIGHT - half
            assert x - half >= faces.INDEX[2] or y - half >= faces.INDEX[3], (x, y)
        for i, (x1, y1, _) in enumerate(at):
            for x2, y2, _ in at[i + 1 :]:
                assert math.dist((x1, y1), (x2, y2)) >= faces.PIP, ((x1, y1), (x2, y2))


def test_the_sprite_is_what_tools_faces_draws() -> None:
    assert faces.with_sprite(PAGE) == PAGE, "run python -m tools.faces"
    assert len(re.findall(r'<symbol id="face-', PAGE)) == len(CARDS) == 52
    assert all(f'id="face-{TEXT[c]}"' in PAGE for c in CARDS)
