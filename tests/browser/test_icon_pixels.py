"""The PNG icons are the one SVG as Chromium paints it (tools/make_icons.py)."""

from __future__ import annotations

from pathlib import Path

from pngread import read_png

from tools import make_icons

ICONS = Path(__file__).resolve().parents[2] / "assets" / "icons"

HALVES = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    '<rect width="5" height="10" fill="#ff0000"/><rect x="5" width="5" height="10" fill="#0000ff"/></svg>'
)


def pixel(rgba: bytes, size: int, x: int, y: int) -> tuple[int, ...]:
    at = 4 * (y * size + x)
    return tuple(rgba[at : at + 4])


def test_make_icons_paints_the_svg_it_is_given(browser) -> None:
    painted = make_icons.paint(HALVES, [16, 40], browser)
    for size, rgba in painted.items():
        assert len(rgba) == size * size * 4
        assert pixel(rgba, size, 1, size // 2) == (255, 0, 0, 255)
        assert pixel(rgba, size, size - 2, size // 2) == (0, 0, 255, 255)


def test_the_committed_pngs_are_the_svg_painted(browser) -> None:
    """Fails when icon.svg changes and ``python -m tools.make_icons`` was not run."""
    svg = (ICONS / make_icons.SOURCE).read_text(encoding="utf-8")
    painted = make_icons.paint(svg, make_icons.SIZES, browser)
    for size in make_icons.SIZES:
        width, height, colour, palette, raw = read_png((ICONS / make_icons.png_name(size)).read_bytes())
        assert (width, height, colour) == (size, size, 3)
        far = 0
        for y in range(size):
            row = raw[y * (size + 1) + 1 : (y + 1) * (size + 1)]
            for x, index in enumerate(row):
                fresh = pixel(painted[size], size, x, y)
                if max(abs(palette[3 * index + k] - fresh[k]) for k in range(3)) > 8:
                    far += 1
        # Rounding moves a channel by 2 at most; allow another Chromium's anti-aliasing at the edges.
        assert far <= size * size // 100, f"icon-{size}.png: {far} pixels differ from the SVG"
