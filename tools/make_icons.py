#!/usr/bin/env python3
"""Genera los iconos de Ocho Loco (assets/icons/) solo con la biblioteca estándar.

Dibuja sobre el tapete verde una carta blanca con un «8» rojo hecho de dos
anillos, y escribe:
  assets/icons/icon.svg      (vectorial, misma geometría)
  assets/icons/icon-192.png
  assets/icons/icon-512.png
El fondo ocupa todo el cuadrado y el dibujo queda dentro de la zona segura
central, así que los PNG sirven también como iconos «maskable».

Uso:  python3 tools/make_icons.py
"""
import math
import struct
import zlib
from pathlib import Path

FELT = (0x0E, 0x5A, 0x36)
FELT_RING = (0x0B, 0x4A, 0x2C)
CARD = (0xFF, 0xFD, 0xF7)
EDGE = (0x1B, 0x1B, 0x1B)
RED = (0xA3, 0x15, 0x1F)

# Geometría en unidades de 0..100 (igual que el viewBox del SVG).
CARD_X0, CARD_Y0, CARD_X1, CARD_Y1, CARD_R = 27.0, 18.0, 73.0, 82.0, 6.0
EDGE_W = 1.6
RINGS = [  # (cx, cy, radio exterior, grosor)
    (50.0, 37.0, 10.5, 5.2),
    (50.0, 59.5, 12.5, 5.6),
]


def in_round_rect(x, y, x0, y0, x1, y1, r):
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r and x0 <= x <= x1 and y0 <= y <= y1


def colour_at(x, y):
    if in_round_rect(x, y, CARD_X0, CARD_Y0, CARD_X1, CARD_Y1, CARD_R):
        inner = in_round_rect(x, y, CARD_X0 + EDGE_W, CARD_Y0 + EDGE_W,
                              CARD_X1 - EDGE_W, CARD_Y1 - EDGE_W, CARD_R - EDGE_W)
        if not inner:
            return EDGE
        for cx, cy, ro, w in RINGS:
            d = math.hypot(x - cx, y - cy)
            if ro - w <= d <= ro:
                return RED
        return CARD
    # anillo suave del tapete
    d = math.hypot(x - 50, y - 50)
    if 44 <= d <= 46:
        return FELT_RING
    return FELT


def render(size, ss):
    rows = []
    step = 100.0 / size
    n = ss * ss
    for py in range(size):
        row = bytearray([0])  # filtro PNG: ninguno
        for px in range(size):
            r = g = b = 0
            for sy in range(ss):
                y = (py + (sy + 0.5) / ss) * step
                for sx in range(ss):
                    x = (px + (sx + 0.5) / ss) * step
                    c = colour_at(x, y)
                    r += c[0]; g += c[1]; b += c[2]
            row += bytes((r // n, g // n, b // n))
        rows.append(bytes(row))
    return b"".join(rows)


def png(size, raw):
    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # RGB de 8 bits
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def hexc(c):
    return "#%02x%02x%02x" % c


def svg():
    rings = "".join(
        '<circle cx="%g" cy="%g" r="%g" fill="none" stroke="%s" stroke-width="%g"/>'
        % (cx, cy, ro - w / 2, hexc(RED), w) for cx, cy, ro, w in RINGS)
    e = EDGE_W / 2
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<rect width="100" height="100" fill="%s"/>' % hexc(FELT)
        + '<circle cx="50" cy="50" r="45" fill="none" stroke="%s" stroke-width="2"/>' % hexc(FELT_RING)
        + '<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" stroke="%s" stroke-width="%g"/>'
        % (CARD_X0 + e, CARD_Y0 + e, CARD_X1 - CARD_X0 - EDGE_W, CARD_Y1 - CARD_Y0 - EDGE_W,
           CARD_R - e, hexc(CARD), hexc(EDGE), EDGE_W)
        + rings + "</svg>\n")


def main():
    out = Path(__file__).resolve().parent.parent / "assets" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    (out / "icon.svg").write_text(svg(), encoding="utf-8")
    for size, ss in ((192, 4), (512, 3)):
        (out / ("icon-%d.png" % size)).write_bytes(png(size, render(size, ss)))
        print("icon-%d.png" % size)


if __name__ == "__main__":
    main()
