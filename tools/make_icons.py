"""Rasterise the app icon ``assets/icons/icon.svg`` into the PNG icons, with Chromium.

The SVG is the one drawing of the icon (a white card with a red "8" made of
two rings, on the table's green felt); ``icon-192.png`` and ``icon-512.png``
are that SVG as Chromium paints it on a canvas, square, at exactly those
sizes. The felt fills the whole square and the card stays inside the central
safe zone, so the 512 px PNG also serves as the "maskable" icon of the web
manifest.

The pixels are written as an indexed PNG: each channel is rounded to a
multiple of 4 (at most 2 levels off, which no eye sees), which leaves fewer
than 256 colours, and the file is about 40 % of the size of Chromium's own
RGB screenshot. The icons are precached on a first visit, so bytes count.

Usage, after editing the SVG (needs Playwright from the ``test`` extra and a
Chromium, see ``tools/chromium.py``)::

    .venv/bin/python -m tools.make_icons
"""

from __future__ import annotations

import base64
import struct
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from tools import chromium

ICONS = Path(__file__).resolve().parent.parent / "assets" / "icons"
SOURCE = "icon.svg"
SIZES = (192, 512)
STEP = 4  # channel rounding for the palette

# Paints the SVG (given its pixel size) on a canvas and returns its RGBA pixels, base64.
PAINT = """async ([svg, size]) => {
  const image = new Image();
  image.src = "data:image/svg+xml;base64," + btoa(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0, size, size);
  const data = context.getImageData(0, 0, size, size).data;
  let text = "";
  for (let i = 0; i < data.length; i += 0x8000) {
    text += String.fromCharCode(...data.subarray(i, i + 0x8000));
  }
  return btoa(text);
}"""


def png_name(size: int) -> str:
    return f"icon-{size}.png"


def paint(svg: str, sizes: Iterable[int], browser: Browser | None = None) -> dict[int, bytes]:
    """RGBA pixels (row by row) of ``svg`` painted by Chromium at ``size`` x ``size``, for each size.

    Launches a headless Chromium unless ``browser`` is given.
    """
    if browser is not None:
        page = browser.new_page()
        try:
            return {size: _paint_one(page, svg, size) for size in sizes}
        finally:
            page.close()
    browser_path = chromium.find()
    if browser_path is None:
        raise SystemExit("Chromium not found: set CHROMIUM_PATH or install chromium")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=browser_path, headless=True, args=chromium.ARGS)
        try:
            return paint(svg, sizes, launched)
        finally:
            launched.close()


def _paint_one(page: Page, svg: str, size: int) -> bytes:
    sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
    return base64.b64decode(page.evaluate(PAINT, [sized, size]))


def _chunk(tag: bytes, data: bytes) -> bytes:
    body = tag + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode_png(size: int, rgba: bytes) -> bytes:
    """An opaque ``size`` x ``size`` PNG of ``rgba``: indexed when the rounded colours fit 256, else RGB."""
    rgb = [
        tuple(min(255, (rgba[i + k] + STEP // 2) // STEP * STEP) for k in range(3))
        for i in range(0, len(rgba), 4)
    ]
    colours = sorted(set(rgb))
    if len(colours) <= 256:
        index = {colour: i for i, colour in enumerate(colours)}
        rows = [bytes(index[c] for c in rgb[y * size : (y + 1) * size]) for y in range(size)]
        header = struct.pack(">IIBBBBB", size, size, 8, 3, 0, 0, 0)
        extra = _chunk(b"PLTE", bytes(v for colour in colours for v in colour))
    else:
        rows = [bytes(v for c in rgb[y * size : (y + 1) * size] for v in c) for y in range(size)]
        header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
        extra = b""
    raw = b"".join(b"\0" + row for row in rows)  # filter 0: compresses best on flat colours
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + extra
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def main(folder: Path = ICONS) -> int:
    svg = (folder / SOURCE).read_text(encoding="utf-8")
    for size, rgba in paint(svg, SIZES).items():
        data = encode_png(size, rgba)
        (folder / png_name(size)).write_bytes(data)
        print(f"{png_name(size)}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
