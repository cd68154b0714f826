"""Read a PNG's header, palette and scanlines (8-bit, no interlace), for the icon tests."""

from __future__ import annotations

import struct
import zlib


def read_png(data: bytes) -> tuple[int, int, int, bytes, bytes]:
    """(width, height, colour type, palette, filtered scanlines) of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, palette, idat = 8, b"", b""
    width = height = colour = 0
    while pos < len(data):
        length, tag = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if tag == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8
        elif tag == b"PLTE":
            palette = body
        elif tag == b"IDAT":
            idat += body
    return width, height, colour, palette, zlib.decompress(idat)
