"""The PNG icons: the right sizes, listed in the manifest, written by tools/make_icons.py's encoder."""

from __future__ import annotations

import json
from pathlib import Path

from pngread import read_png

from tools import make_icons

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "assets" / "icons"


def test_each_icon_has_the_size_in_its_name() -> None:
    for size in make_icons.SIZES:
        width, height, *_ = read_png((ICONS / make_icons.png_name(size)).read_bytes())
        assert (width, height) == (size, size)


def test_the_manifest_lists_the_icons_with_their_real_sizes() -> None:
    manifest = json.loads((ROOT / "manifest.webmanifest").read_text(encoding="utf-8"))
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    names = {f"assets/icons/{make_icons.png_name(size)}" for size in make_icons.SIZES}
    assert {icon["src"] for icon in pngs} == names
    for icon in pngs:
        width, height, *_ = read_png((ROOT / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{width}x{height}"


def test_the_encoder_keeps_the_pixels_within_two_levels() -> None:
    size = 3
    pixels = [(14, 90, 54), (255, 253, 247), (163, 21, 31)] * size
    rgba = bytes(v for p in pixels for v in (*p, 255))
    width, height, colour, palette, raw = read_png(make_icons.encode_png(size, rgba))
    assert (width, height, colour) == (size, size, 3)  # indexed
    rows = [raw[y * (size + 1) : (y + 1) * (size + 1)] for y in range(size)]
    assert all(row[0] == 0 for row in rows)
    decoded = [tuple(palette[3 * i : 3 * i + 3]) for row in rows for i in row[1:]]
    assert len(decoded) == len(pixels)
    for got, want in zip(decoded, pixels, strict=True):
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 2, (got, want)
