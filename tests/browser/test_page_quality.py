"""Page qualities beyond the rules: offline, accessible, readable without colour, screenshots.

- no request leaves the site's origin, also when served under /ocho-loco/;
- axe-core finds no serious or critical problem mid-hand, with the suit
  chooser open and with the results panel open;
- in grayscale the four suit shapes still differ clearly (decoded from
  Chromium's PNG screenshots with the standard library only);
- screenshots of the table (2 and 3 players, a 375 px phone, results) go to
  test-artifacts/ for people to look at.
"""

from __future__ import annotations

import struct
import zlib
from functools import partial
from itertools import combinations

import pytest
from helpers import (
    EIGHT_CODE,
    PLAIN_CODE,
    act,
    boot,
    envelope,
    hand,
    link,
    more_options,
    one_card_to_go_out,
    put_storage,
    reach,
    resize,
    saved_game,
    see_the_end,
    wait_state,
)

from engine.codes import GameCode

SERIOUS = ("serious", "critical")


def results_position():
    """A real game where the person holds one card that fits: one click ends the hand."""
    return reach(one_card_to_go_out)


# ------------------------------------------------------------------ offline


@pytest.mark.parametrize("prefixed", [False, True], ids=["root", "ocho-loco"])
def test_no_request_leaves_the_origin(  # noqa: PLR0917 (pytest fixtures)
    prefixed, fast_page, request_recorder, page_log, site_url, site_url_prefixed
):
    page = fast_page
    base = site_url_prefixed if prefixed else site_url
    boot(page, link(base, PLAIN_CODE), "human")
    act(page, partial(page.click, '#hand button.card[data-card="10D"]'), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    assert saved_game(page)["history"][0] == "0:10D"
    assert page.url.startswith(base)

    assert request_recorder.external(base) == []
    assert request_recorder.failed == []
    paths = request_recorder.paths(base)
    # Everything under the base path (the worker mode's worker starts from a blob: of this page).
    assert len(paths) == len([u for u in request_recorder.urls if not u.startswith("blob:")])
    assert "app.zip.xz" in paths and "vendor/pyodide/pyodide.asm.wasm" in paths
    assert page_log.errors == []
    assert page_log.console_errors() == []


# ------------------------------------------------------------ accessibility


def axe_problems(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    out = []
    for violation in results.response["violations"]:
        if violation.get("impact") in SERIOUS:
            targets = [" ".join(map(str, n.get("target", []))) for n in violation["nodes"]]
            out.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets[:5]}")
    return out


def test_accessibility_scan(fast_page, site_url, screenshot):
    page = fast_page
    assert boot(page, site_url) == "setup"
    assert axe_problems(page) == []
    # The link arrives as a hash change: the same page deals it.
    page.evaluate("(hash) => { location.hash = hash; }", link("", EIGHT_CODE))
    wait_state(page, "human")
    act(page, partial(page.click, "#main-btn"), "human")
    assert page.inner_text("#game-code") == EIGHT_CODE.pretty()
    assert axe_problems(page) == []
    screenshot("table-2-players")

    act(page, partial(page.click, '#hand button.card[data-card="8S"]'), "chooser")
    assert axe_problems(page) == []
    screenshot("suit-chooser", full_page=False)

    game = results_position()
    put_storage(page, site_url, {"ocho-loco:partida": envelope(game)})
    boot(page, site_url, "human")
    act(page, partial(page.click, f'#hand button.card[data-card="{game.hands[0][0]}"]'), "results")
    page.wait_for_function("() => !!document.querySelector('#results-body .result-totals')")
    assert page.locator("#results-dialog").evaluate("d => d.open")
    assert axe_problems(page) == []
    screenshot("results", full_page=False)


# --------------------------------------------------------------- grayscale


def decode_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """Width, height, unfiltered rows and bytes per pixel of an 8-bit RGB/RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = bpp = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def shape_mask(png: bytes) -> tuple[list[list[bool]], bool]:
    """Pixels that differ from the background (the corner), and whether the image is gray."""
    width, _height, rows, bpp = decode_png(png)
    gray = True
    lum: list[list[float]] = []
    for row in rows:
        line = []
        for x in range(width):
            r, g, b = row[x * bpp : x * bpp + 3]
            if max(r, g, b) - min(r, g, b) > 3:
                gray = False
            line.append((r + g + b) / 3)
        lum.append(line)
    background = lum[0][0]
    return [[abs(v - background) > 40 for v in line] for line in lum], gray


def unlikeness(a: list[list[bool]], b: list[list[bool]], reach: int = 2) -> float:
    """Share of the two shapes' union they disagree on, at their best alignment.

    Shifting one mask by up to ``reach`` pixels first means a shape never
    looks different from itself just because it is drawn a pixel off.
    """
    height, width = len(a), len(a[0])
    best = 1.0
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            differ = union = 0
            for y in range(height):
                for x in range(width):
                    yy, xx = y + dy, x + dx
                    other = 0 <= yy < height and 0 <= xx < width and b[yy][xx]
                    mine = a[y][x]
                    differ += mine != other
                    union += mine or other
            best = min(best, differ / max(union, 1))
    return best


def test_suit_shapes_differ_in_grayscale(fast_page, site_url, screenshot):
    page = fast_page
    boot(page, link(site_url, EIGHT_CODE), "human")
    act(page, partial(page.click, '#hand button.card[data-card="8S"]'), "chooser")
    page.mouse.move(0, 0)  # no hover colour on a suit button
    # The dialog sits in the top layer, outside <html>'s filter: grey it too.
    page.add_style_tag(content="html, dialog { filter: grayscale(1) !important; }")
    masks = {}
    for letter in "SHDC":
        icon = page.locator(f'#suit-dialog .suit-btn[data-suit="{letter}"] svg.suit')
        mask, gray = shape_mask(icon.screenshot(animations="disabled"))
        assert gray, f"suit {letter} is not rendered in grayscale"
        share = sum(map(sum, mask)) / (len(mask) * len(mask[0]))
        assert 0.15 < share < 0.95, (letter, share)  # a real shape, not blank or solid
        masks[letter] = mask
    screenshot("grayscale-chooser", full_page=False)
    sizes = {(len(m), len(m[0])) for m in masks.values()}
    assert len(sizes) == 1, sizes
    scores = {a + b: unlikeness(masks[a], masks[b]) for a, b in combinations("SHDC", 2)}
    print("grayscale unlikeness:", {k: round(v, 2) for k, v in scores.items()})
    # Identical shapes score 0; the closest real pair (spade, club) ~0.15.
    assert all(v > 0.1 for v in scores.values()), scores


# ------------------------------------------------------------- screenshots


def test_three_players_and_phone_width(fast_page, site_url, screenshot):
    page = fast_page
    code = GameCode.build(3, "K7QM9")
    boot(page, link(site_url, code), "human")
    assert len(hand(page)) == 5
    assert page.locator("#opponents .opponent").count() == 2
    assert page.locator("#mode-3").is_checked()  # the table-size choice follows the link
    screenshot("table-3-players", full_page=False)

    resize(page, 375, 740)
    overflow = page.evaluate("() => document.documentElement.scrollWidth")
    assert overflow <= 375, f"the page scrolls sideways at 375 px ({overflow} px wide)"
    for selector in ("#hand button.card", "#main-btn", "#opponents .opponent", "#discard .card"):
        boxes = page.locator(selector).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
        )
        assert boxes, selector
        assert all(left >= 0 and right <= 375 for left, right in boxes), (selector, boxes)
    page.evaluate("() => document.getElementById('mesa').scrollIntoView()")
    screenshot("phone-375", full_page=False)
    act(page, partial(page.click, "#main-btn"), "human")
    screenshot("phone-375-after-draw", full_page=False)


AXE_VIEWPORTS = {
    "360x640": {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True},
    # 1280×800 at 200 % zoom: the page lays out in 640×400 CSS pixels.
    "zoom-200": {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2},
}


@pytest.mark.parametrize("viewport", list(AXE_VIEWPORTS))
def test_axe_finds_nothing_serious_in_any_state_on_a_phone_and_at_200_percent(viewport, browser, site_url):
    """Issue 25: every data-state, the replay viewer («Ver la mano») included."""
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **AXE_VIEWPORTS[viewport])
    page = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        assert boot(page, site_url) == "setup"
        found["setup"] = axe_problems(page)
        page.evaluate("(hash) => { location.hash = hash; }", link("", EIGHT_CODE))
        wait_state(page, "human")
        act(page, partial(page.click, "#main-btn"), "human")
        found["human"] = axe_problems(page)
        act(page, partial(page.click, '#hand button.card[data-card="8S"]'), "chooser")
        found["chooser"] = axe_problems(page)
        page.click("#suit-cancel")
        wait_state(page, "human")
        page.evaluate("(hash) => { location.hash = hash; }", link("", PLAIN_CODE))
        wait_state(page, "replace")
        found["replace"] = axe_problems(page)
        page.click("#replace-no")

        game = reach(one_card_to_go_out, 3)
        put_storage(page, site_url, {"ocho-loco:partida": envelope(game)})
        boot(page, site_url, "human")
        act(page, partial(page.click, f'#hand button.card[data-card="{game.hands[0][0]}"]'), "results")
        page.locator("#next-hand-btn").wait_for(state="visible")
        found["results"] = axe_problems(page)
        page.click("#replay-btn")
        wait_state(page, "replay")
        found["replay"] = axe_problems(page)
        page.click("#replay-last")
        found["replay, last step"] = axe_problems(page)
        page.click("#replay-close")

        end = reach(lambda g: one_card_to_go_out(g) and g.totals[1] >= 95, games=3000)
        put_storage(page, site_url, {"ocho-loco:partida": envelope(end)})
        boot(page, site_url, "human")
        act(page, partial(page.click, f'#hand button.card[data-card="{end.hands[0][0]}"]'), "gameover")
        page.locator("#final-btn").wait_for(state="visible")
        found["gameover, the last count"] = axe_problems(page)
        see_the_end(page)
        page.click("#gameover-body .race-numbers summary")  # the race's table, unfolded
        page.click("#gameover-challenge-btn")  # and the challenge's form
        page.wait_for_function("() => document.activeElement.id === 'challenge-name'")
        found["gameover"] = axe_problems(page)
    finally:
        context.close()
    bad = {where: problems for where, problems in found.items() if problems}
    assert bad == {}, f"{viewport}: {bad}"


@pytest.mark.parametrize(
    ("felt", "back"), [("verde", "medallon"), ("azul", "rombos"), ("granate", "cuadros")]
)
def test_each_felt_and_back_is_chosen_remembered_and_clean_for_axe(fast_page, site_url, felt, back):
    """Issue 46: three felts and three backs, chosen in «Opciones» by their radios, remembered over a
    reload, drawn on the page's root, and axe finds nothing serious on the table with each."""
    page = fast_page
    boot(page, link(site_url, EIGHT_CODE), "human")
    page.click('.bar-btn[aria-controls="setup"]')
    more_options(page)
    page.check(f"#felt-{felt}")
    page.check(f"#back-{back}")
    page.wait_for_function(
        "([felt, back]) => (document.documentElement.dataset.felt || 'verde') === felt"
        " && (document.documentElement.dataset.back || 'rombos') === back",
        arg=[felt, back],
    )
    page.keyboard.press("Escape")
    assert axe_problems(page) == [], f"{felt}, {back}"
    page.reload()
    wait_state(page, "human")
    assert (page.evaluate("() => document.documentElement.dataset.felt") or "verde") == felt, "remembered"
    assert (page.evaluate("() => document.documentElement.dataset.back") or "rombos") == back
