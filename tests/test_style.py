"""The style sheet says each thing once: suit colours come from one custom property."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSS = (ROOT / "assets" / "style.css").read_text(encoding="utf-8")
SUITS = "SHDC"


def rules(css: str) -> list[tuple[str, str]]:
    """(selector, declarations) of every innermost rule, comments removed."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    return [(sel.strip(), body) for sel, body in re.findall(r"([^{}]*)\{([^{}]*)\}", css)]


def test_no_rule_sets_a_property_twice() -> None:
    for selector, body in rules(CSS):
        names = [d.split(":", 1)[0].strip() for d in body.split(";") if ":" in d]
        doubled = {n for n in names if names.count(n) > 1}
        assert not doubled, f"{selector} sets {sorted(doubled)} twice"


def test_each_suit_colour_is_picked_in_one_rule() -> None:
    for suit in SUITS:
        picks = [sel for sel, body in rules(CSS) if re.search(rf"color:\s*var\(--suit-{suit}\)", body)]
        assert picks == [f'[data-suit="{suit}"], .card[data-card$="{suit}"]'], picks
        assert CSS.count(f"--suit-{suit}:") == 1  # its value, in :root


def test_suit_shapes_take_their_colour_from_the_custom_property() -> None:
    for selector, body in rules(CSS):
        if "color:" in body and re.search(r"\[data-suit=", selector):
            assert "--suit-color" in body, selector
    for shape in (".active-suit .suit", ".suit-mark .suit", ".suit-btn .suit"):
        first = next(body for selector, body in rules(CSS) if selector == shape)
        assert "color: var(--suit-color" in first, shape
