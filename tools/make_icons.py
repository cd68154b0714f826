#!/usr/bin/env python3
"""Draw the app icons (assets/icons/) with the standard library only.

A white card with a red "8" made of two rings, on the table's green felt:

- ``assets/icons/icon.svg`` (vector, same geometry)
- ``assets/icons/icon-192.png`` and ``icon-512.png``

The background fills the whole square and the drawing stays inside the
central safe zone, so the PNGs also serve as "maskable" icons.

Usage: ``python3 tools/make_icons.py``
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

Colour = tuple[int, int, int]

FELT: Colour = (0x0E, 0x5A, 0x36)
FELT_RING: Colour = (0x0B, 0x4A, 0x2C)
CARD: Colour = (0xFF, 0xFD, 0xF7)
EDGE: Colour = (0x1B, 0x1B, 0x1B)
RED: Colour = (0xA3, 0x15, 0x1F)

# Geometry in 0..100 units (the SVG viewBox).
CARD_BOX = (27.0, 18.0, 73.0, 82.0)
CARD_R = 6.0
EDGE_W = 1.6
RINGS = [  # (cx, cy, outer radius, thickness)
    (50.0, 37.0, 10.5, 5.2),
    (50.0, 59.5, 12.5, 5.6),
]


def in_round_rect(x: float, y: float, box: tuple[float, float, float, float], r: float) -> bool:
    x0, y0, x1, y1 = box
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r and x0 <= x <= x1 and y0 <= y <= y1


def colour_at(x: float, y: float) -> Colour:
    if in_round_rect(x, y, CARD_BOX, CARD_R):
        x0, y0, x1, y1 = CARD_BOX
        inner = (x0 + EDGE_W, y0 + EDGE_W, x1 - EDGE_W, y1 - EDGE_W)
        if not in_round_rect(x, y, inner, CARD_R - EDGE_W):
            return EDGE
        for cx, cy, ro, w in RINGS:
            if ro - w <= math.hypot(x - cx, y - cy) <= ro:
                return RED
        return CARD
    # a soft ring on the felt
    if 44 <= math.hypot(x - 50, y - 50) <= 46:
        return FELT_RING
    return FELT


def render(size: int, ss: int) -> bytes:
    """Raw RGB scanlines (filter byte 0) with ``ss``x``ss`` supersampling."""
    rows = []
    step = 100.0 / size
    n = ss * ss
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            r = g = b = 0
            for sy in range(ss):
                y = (py + (sy + 0.5) / ss) * step
                for sx in range(ss):
                    c = colour_at((px + (sx + 0.5) / ss) * step, y)
                    r += c[0]
                    g += c[1]
                    b += c[2]
            row += bytes((r // n, g // n, b // n))
        rows.append(bytes(row))
    return b"".join(rows)


def _chunk(tag: bytes, data: bytes) -> bytes:
    body = tag + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(size: int, raw: bytes) -> bytes:
    ihdr = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def hexc(c: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def svg() -> str:
    rings = "".join(
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{ro - w / 2:g}" fill="none" stroke="{hexc(RED)}"'
        f' stroke-width="{w:g}"/>'
        for cx, cy, ro, w in RINGS
    )
    e = EDGE_W / 2
    x0, y0, x1, y1 = CARD_BOX
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{hexc(FELT)}"/>'
        f'<circle cx="50" cy="50" r="45" fill="none" stroke="{hexc(FELT_RING)}" stroke-width="2"/>'
        f'<rect x="{x0 + e:g}" y="{y0 + e:g}" width="{x1 - x0 - EDGE_W:g}" height="{y1 - y0 - EDGE_W:g}"'
        f' rx="{CARD_R - e:g}" fill="{hexc(CARD)}" stroke="{hexc(EDGE)}" stroke-width="{EDGE_W:g}"/>'
        + rings
        + "</svg>\n"
    )


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "assets" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    (out / "icon.svg").write_text(svg(), encoding="utf-8")
    for size, ss in ((192, 4), (512, 3)):
        (out / f"icon-{size}.png").write_bytes(png(size, render(size, ss)))
        print(f"icon-{size}.png")


if __name__ == "__main__":
    main()
