"""Write the card faces' sprite into ``index.html``: pips for A–10, a drawn figure for J, Q and K.

python -m tools.faces           write it (between the ``faces`` markers after the suit sprite)
python -m tools.faces --check   exit 1 if index.html's sprite differs from what this module draws

Every face-up card carries one ``<svg class="face"><use href="#face-10H"/></svg>``
(``ui/render.py``'s ``card_face``); the symbol it names is drawn here once, in the
card's own coordinates (``viewBox 0 0 100 144``, the card's 1 : 1.44), so it scales
with the card. The top-left corner is the card's index (the rank as text, the suit
shape under it: ``assets/css/table.css``); the faces keep clear of it (``INDEX``).

- A: one large pip.
- 2–10: the classic arrangement in three columns (``LEFT``, ``CENTRE``, ``RIGHT``),
  the pips below the middle turned upside down as on a printed card.
- J, Q, K: a figure (a jack with a feathered cap and a halberd, a queen with long
  hair, a small crown and a bell-shaped gown, a bearded king with a tall crown, a
  robe and a sceptre), the suit shape on its chest.

Everything is painted in ``currentColor`` (the suit's colour, or the forced colour),
never in a second colour, so forced colours and the four-suit colouring need nothing
here. Drawn for this project; no art is copied.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from engine.cards import RANK_TEXT, SUIT_LETTERS

PAGE = Path(__file__).resolve().parent.parent / "index.html"
BEGIN = "<!-- faces: written by python -m tools.faces; edit tools/faces.py, not this block -->"
END = "<!-- /faces -->"

WIDTH, HEIGHT = 100, 144
# The corner index: the rank ("10" is the widest) and the small suit under it, in card units.
INDEX = (0.0, 0.0, 46.0, 64.0)
PIP = 18  # side of a pip, 2–10
ACE = 54  # side of the ace's one pip
LEFT, CENTRE, RIGHT = 57.0, 71.5, 86.0
TOP, BOTTOM = 19.0, 126.0
MIDDLE = (TOP + BOTTOM) / 2


def _row(fraction: float) -> float:
    return TOP + (BOTTOM - TOP) * fraction


# Pip centres (x, y) of each rank, the classic patterns: pairs in the side columns, the odd ones
# in the centre column.
_SIDES_3 = [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)]
_SIDES_4 = [(x, _row(i / 3)) for i in range(4) for x in (LEFT, RIGHT)]
PIPS: dict[str, list[tuple[float, float]]] = {
    "2": [(CENTRE, TOP), (CENTRE, BOTTOM)],
    "3": [(CENTRE, TOP), (CENTRE, MIDDLE), (CENTRE, BOTTOM)],
    "4": [(x, y) for y in (TOP, BOTTOM) for x in (LEFT, RIGHT)],
    "5": [(x, y) for y in (TOP, BOTTOM) for x in (LEFT, RIGHT)] + [(CENTRE, MIDDLE)],
    "6": _SIDES_3,
    "7": [*_SIDES_3, (CENTRE, (TOP + MIDDLE) / 2)],
    "8": [*_SIDES_3, (CENTRE, (TOP + MIDDLE) / 2), (CENTRE, (MIDDLE + BOTTOM) / 2)],
    "9": [*_SIDES_4, (CENTRE, MIDDLE)],
    "10": [*_SIDES_4, (CENTRE, _row(1 / 6)), (CENTRE, _row(5 / 6))],
}
ACE_AT = (60.0, 94.0)

# The figures, in card units; outlines are strokes 3 wide, the rest filled. Each leaves a clear
# box on its chest for the suit shape (FIGURE_SUIT).
_LINE = 'fill="none" stroke="currentColor" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"'
FIGURES: dict[str, str] = {
    # The jack: a flat cap with a feather, a bob of hair, a belted tunic, legs, a halberd.
    "J": (
        '<path d="M51 33c0-9 8-13 15-13s14 4 15 11l1 3H51Z"/>'
        '<path d="M78 27c3-9 9-16 17-19-4 6-8 13-13 20Z"/>'
        '<path fill-rule="evenodd" d="M52 35h26v14l-4 4V38H56v15l-4-4Z"/>'
        '<circle cx="61.5" cy="44" r="1.6"/><circle cx="68.5" cy="44" r="1.6"/>'
        '<rect x="50" y="88" width="30" height="6" rx="1"/>'
        f"<g {_LINE}>"
        '<circle cx="65" cy="44" r="9"/>'
        '<path d="M53 58h24l5 46H48Z"/>'
        '<path d="M59 104v30m12-30v30m-17 0h9m4 0h9"/>'
        '<path d="M90 36v100"/>'
        "</g>"
        '<path d="M90 18l4 8-4 12-4-12Z"/><path d="M91 30c6 2 7 8 5 13l-5-4Z"/>'
    ),
    # The queen: a low crown of pearls, long hair, a gown with a bodice and a bell skirt.
    "Q": (
        '<path d="M55 31l2-8 4 5 4-7 4 7 4-5 2 8Z"/>'
        '<circle cx="57" cy="22" r="2.2"/><circle cx="65" cy="19.5" r="2.2"/>'
        '<circle cx="73" cy="22" r="2.2"/>'
        # the hair, with the face cut out of it
        '<path fill-rule="evenodd" d="M51 64c-3-14-1-31 14-31s17 17 14 31l-7-4V38H58v22Z'
        'M57 43a8 8 0 1 0 16 0a8 8 0 1 0-16 0Z"/>'
        '<circle cx="61.5" cy="43" r="1.6"/><circle cx="68.5" cy="43" r="1.6"/>'
        '<path d="M36 134c4-20 10-34 20-46h18c10 12 16 26 20 46Z" fill-opacity=".22"/>'
        f"<g {_LINE}>"
        '<circle cx="65" cy="43" r="8"/>'
        '<path d="M54 60h22l-2 28H56Z"/>'
        '<path d="M56 88c-10 12-16 26-20 46h58c-4-20-10-34-20-46"/>'
        '<path d="M47 66v-8"/>'
        "</g>"
        '<circle cx="47" cy="54" r="3.5"/><circle cx="43.5" cy="57" r="2.5"/>'
        '<circle cx="50.5" cy="57" r="2.5"/>'
    ),
    # The king: a tall crown of three points, a pointed beard, a long robe, a sceptre.
    "K": (
        '<path d="M52 31V15l6.5 7L65 10l6.5 12 6.5-7v16Z"/>'
        '<circle cx="52" cy="13" r="2.4"/><circle cx="65" cy="8" r="2.4"/><circle cx="78" cy="13" r="2.4"/>'
        '<path d="M55 45c1 10 5 17 10 21 5-4 9-11 10-21-3 5-7 7-10 7s-7-2-10-7Z"/>'
        '<circle cx="61.5" cy="41" r="1.6"/><circle cx="68.5" cy="41" r="1.6"/>'
        '<path d="M41 134l6-64h36l6 64Z" fill-opacity=".22"/>'
        f"<g {_LINE}>"
        '<circle cx="65" cy="42" r="9"/>'
        '<path d="M50 62h30l9 72H41Z"/>'
        '<path d="M41 126h48"/>'
        '<path d="M41 60v62M41 44v7m-3-4h6"/>'
        "</g>"
        '<circle cx="41" cy="55" r="4.5"/>'
    ),
}
# Where each figure wears its suit: (x, y, side).
FIGURE_SUIT: dict[str, tuple[float, float, float]] = {
    "J": (57.0, 64.0, 16.0),
    "Q": (58.0, 63.0, 14.0),
    "K": (56.0, 74.0, 18.0),
}


def _n(value: float) -> str:
    """A coordinate with no needless digits: 19, 54.7."""
    return f"{round(value, 1):g}"


def _suit(suit: str, x: float, y: float, side: float, name: str = "") -> str:
    """The suit's shape, ``side`` wide, its top left corner at (x, y)."""
    named = f'id="{name}" ' if name else ""
    return f'<use {named}href="#suit-{suit}" x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}"/>'


def _pip(suit: str, x: float, y: float) -> str:
    # Below the middle the pip is turned upside down, as on a printed card.
    turned = "-r" if y > MIDDLE + 0.5 else ""
    return f'<use href="#pip-{suit}{turned}" x="{_n(x)}" y="{_n(y)}"/>'


def face_symbol(rank: str, suit: str) -> str:
    """The ``<symbol>`` of one card's face, ``face-10H``."""
    if rank == "A":
        x, y = ACE_AT
        half = ACE / 2
        body = _suit(suit, x - half, y - half, ACE)
    elif rank in FIGURES:
        x, y, side = FIGURE_SUIT[rank]
        body = f'<use href="#figure-{rank}"/>' + _suit(suit, x, y, side)
    else:
        body = "".join(_pip(suit, x, y) for x, y in PIPS[rank])
    return f'<symbol id="face-{rank}{suit}" viewBox="0 0 {WIDTH} {HEIGHT}">{body}</symbol>'


def sprite() -> str:
    """The whole block index.html carries, markers included."""
    half = PIP / 2
    lines = [
        BEGIN,
        '<svg class="sprite" width="0" height="0" aria-hidden="true" focusable="false">',
        "  <defs>",
    ]
    for suit in SUIT_LETTERS:
        lines.append(
            # a pip centred on (0, 0), and the same turned upside down
            "    "
            + _suit(suit, -half, -half, PIP, name=f"pip-{suit}")
            + f'<use id="pip-{suit}-r" href="#pip-{suit}" transform="rotate(180)"/>'
        )
    lines.append("  </defs>")
    for rank, art in FIGURES.items():
        lines.append(f'  <symbol id="figure-{rank}" viewBox="0 0 {WIDTH} {HEIGHT}">{art}</symbol>')
    for suit in SUIT_LETTERS:
        for rank in RANK_TEXT:
            lines.append("  " + face_symbol(rank, suit))
    lines += ["</svg>", END]
    return "\n".join(lines)


def with_sprite(page: str) -> str:
    """``page`` with its faces block replaced (or added after the suit sprite)."""
    block = sprite()
    found = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), page, re.S)
    if found:
        return page[: found.start()] + block + page[found.end() :]
    suits = page.index("</svg>", page.index('<symbol id="suit-C"')) + len("</svg>")
    return page[:suits] + "\n" + block + page[suits:]


def main(argv: list[str]) -> int:
    page = PAGE.read_text(encoding="utf-8")
    wanted = with_sprite(page)
    if "--check" in argv:
        if wanted != page:
            print("index.html's card faces are stale: run python -m tools.faces", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
