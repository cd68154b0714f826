"""The style sheet says each thing once: suit colours come from one custom property."""

from __future__ import annotations

import re
from pathlib import Path

from tools import build_page as page_build

ROOT = Path(__file__).resolve().parents[1]
# The styles as the built page has them: assets/style.css's rooms (assets/css/), in its order.
CSS = page_build.stylesheet(ROOT)
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


def rule(selector: str) -> str:
    """The declarations of the first rule whose selector is exactly ``selector``."""
    return next(body for sel, body in rules(CSS) if sel == selector)


def test_the_hand_sizes_its_cards_to_its_row_and_overlaps_only_when_they_do_not_fit() -> None:
    hand = rule(".hand")
    assert "--card-w: max(44px, min(var(--fit), var(--card-max)))" in hand  # touch targets stay 44 px
    # a long hand (15 cards and more) overlaps down to 12 px a card, and stays one row in view
    assert "--step: max(12px, min(calc(var(--card-w) + var(--gap)), var(--squeeze)))" in hand
    assert "--overlap" not in CSS  # no fixed overlap: side by side whenever the row allows


def test_nothing_moves_with_reduced_motion() -> None:
    reduced = CSS[CSS.index("@media (prefers-reduced-motion: reduce)") :]
    assert "animation: none !important;" in reduced[: reduced.index("}\n}")]
    assert "transition: none !important;" in reduced[: reduced.index("}\n}")]


def test_keyframes_move_cards_by_transform_only() -> None:
    for name, body in re.findall(r"@keyframes\s+([\w-]+)\s*\{((?:[^{}]*\{[^{}]*\})*)\s*\}", CSS):
        props = {d.split(":", 1)[0].strip() for d in re.findall(r"\{([^{}]*)\}", body) for d in d.split(";")}
        assert props - {""} <= {"transform", "opacity"}, (name, props)


def test_dialogs_keep_the_focused_control_clear_of_their_sticky_buttons() -> None:
    assert "scroll-padding-block" in rule(".dialog")
    short = CSS[CSS.index("@media (max-height: 480px)") :]
    assert ".dialog-actions { position: static;" in short[: short.index("\n}\n")]


def test_the_results_status_region_is_heard_not_shown() -> None:
    live = rule(".results-live")
    assert "position: absolute" in live and "clip-path: inset(50%)" in live and "display: none" not in live


def test_forced_colours_mark_playable_cards_by_their_frame_not_only_the_lift() -> None:
    forced = CSS[CSS.index("@media (forced-colors: active)") :]
    forced = forced[: forced.index("}\n}")]
    legal = next(body for sel, body in rules(forced) if sel == ".card.legal")
    dim = next(body for sel, body in rules(forced) if sel == ".card.dim")
    style = re.compile(r"border:\s*\S+\s+(solid|double|dashed|dotted)")
    legal_style, dim_style = style.search(legal), style.search(dim)
    assert legal_style and dim_style, "both kinds of card have a frame of their own in forced colours"
    assert legal_style.group(1) != dim_style.group(1), "told apart by the frame's shape, not its colour"


def test_the_hinted_card_says_pista_in_words() -> None:
    badge = rule("#hand .card[data-hint]::after")
    assert 'content: "Pista"' in badge


def test_the_review_list_scrolls_in_a_box_of_its_own_only_on_tall_wide_screens() -> None:
    """At 400 % zoom 40vh was an 80-px box: a focused item (106 px) was mostly hidden."""
    assert "overflow" not in rule(".review-list")
    boxed = CSS[CSS.index("@media (min-height: 600px) and (min-width: 561px)") :]
    assert "overflow-y: auto" in boxed[: boxed.index("}\n}")]


def test_every_class_the_sheet_styles_is_written_by_the_page_or_its_code() -> None:
    """A rule for a class nobody writes is dead weight in every first visit."""
    sources = [ROOT / "index.html", *(ROOT / "assets").rglob("*.js"), *(ROOT / "ui").glob("*.py")]
    text = "".join(path.read_text(encoding="utf-8") for path in sources)
    styled = {name for selector, _ in rules(CSS) for name in re.findall(r"\.([a-zA-Z][\w-]*)", selector)}
    assert sorted(name for name in styled if name not in text) == []


def test_the_sprites_are_out_of_the_render_tree() -> None:
    """Their symbols are only read by <use>: drawn or styled, every restyle of the page pays for them."""
    assert [body.strip() for selector, body in rules(CSS) if selector == ".sprite"] == ["display: none;"]


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def custom_properties(body: str) -> dict[str, str]:
    return dict(re.findall(r"(--[a-z-]+):\s*(#[0-9a-fA-F]{6})", body))


FELTS = ("verde", "azul", "granate")
BACKS = ("rombos", "cuadros", "medallon")


def test_every_felt_keeps_its_words_readable() -> None:
    """Issue 46: three felts, each keeping WCAG AA for the text and the gold marks drawn on it."""
    base = custom_properties(rule(":root"))
    for felt in FELTS:
        colours = base | (custom_properties(rule(f'[data-felt="{felt}"]')) if felt != "verde" else {})
        for ground in ("--felt", "--felt-dark", "--felt-deep"):
            for word in ("--on-felt", "--on-felt-muted", "--gold"):
                ratio = contrast(colours[word], colours[ground])
                assert ratio >= 4.5, f"{felt}: {word} on {ground} is {ratio:.2f}:1"


def test_every_back_is_drawn_and_keeps_its_white_edge() -> None:
    assert "border: 3px solid #fff" in rule(".card.back")
    for back in BACKS[1:]:
        assert "background:" in rule(f'[data-back="{back}"] .card.back, .card.back[data-back="{back}"]'), back
