"""Nothing on the table moves when Python takes over from the first paint.

A ``layout-shift`` PerformanceObserver, installed before the page's own scripts,
adds up every shift not caused by the person's input (``hadRecentInput`` false)
from the first paint until the page is ready and settled, on a phone-sized
window (412×823). The loading box used to sit in the flow above «Elige mesa»
and the board, so hiding it moved both up by its height (a score of about
0.17). The score is a property of the layout, not of timing: whichever frame
Python's start lands in, the boxes must stay where they were painted. (A scroll is no layout shift:
that the first screen is not scrolled either is checked at five windows in test_page_seams.py.)
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from helpers import play_a_move, wait_for_picture_of_the_save, wait_for_python, wait_state

from engine.codes import GameCode
from tools import serve as site_serve

PHONE = {"width": 412, "height": 823}
LIMIT = 0.02  # the target for the whole load (Lighthouse's "good" is 0.1)
CODE = GameCode.parse("A2C6-P4JZ")  # a 1-against-1 deal

# Collects the shifts and where each moved box was and went (for the failure message).
OBSERVER_JS = """
(() => {
  window.__shifts = [];
  const name = (node) => node && node.nodeType === 1
    ? node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
    : String(node && node.nodeName);
  const moved = (s) => `${name(s.node)} y ${Math.round(s.previousRect.y)} -> ${Math.round(s.currentRect.y)}`;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        moved: (entry.sources || []).map(moved),
      });
    }
  }).observe({type: "layout-shift", buffered: true});
  // When the first-paint script has drawn a returning player's stored picture (the probe's
  // picture; the board is marked busy in the same step).
  window.__pictureAt = null;
  new MutationObserver(() => {
    if (window.__pictureAt === null && window.ochoLocoProbe.picture === true) {
      window.__pictureAt = -1;  // drawn; its own frame is painted two frames later
      requestAnimationFrame(() => requestAnimationFrame(() => { window.__pictureAt = performance.now(); }));
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["aria-busy"]});
})();
"""
# The stored picture is drawn, or Python's table is there.
DRAWN_JS = "() => window.ochoLocoProbe.picture === true || document.body.dataset.ready === '1'"
# True two frames after the call: any shift of the frame Python finished in has been reported.
FRAMES_JS = """
() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
  () => setTimeout(() => done(true), 0),
)))
"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(locale="es-ES", viewport=PHONE, reduced_motion="reduce")
    context.set_default_timeout(60_000)
    context.add_init_script(OBSERVER_JS)
    yield context
    context.close()


def shift_after_ready(page) -> tuple[float, list[dict]]:
    """Wait for Python and a settled table, then two frames; the total score and the shifts."""
    wait_for_python(page)
    wait_state(page)
    page.evaluate(FRAMES_JS)
    shifts = page.evaluate("() => window.__shifts")
    return sum(s["value"] for s in shifts), shifts


def test_first_visit_layout_does_not_shift_when_python_takes_over(phone, site_url_prefixed):
    page = phone.new_page()
    page.goto(site_url_prefixed)
    score, shifts = shift_after_ready(page)
    assert page.evaluate("() => document.getElementById('loading').hidden"), (
        "the loading box is gone once ready"
    )
    assert score <= LIMIT, f"first visit (no game code): layout shift {score:.3f} > {LIMIT}: {shifts}"


def test_a_game_link_deals_without_moving_the_setup_bar(phone, site_url_prefixed):
    """A shared link deals at once: the setup bar has a game's layout from the first paint."""
    page = phone.new_page()
    page.goto(f"{site_url_prefixed}#partida={CODE.pretty()}&mesa={CODE.players}")
    score, shifts = shift_after_ready(page)
    assert wait_state(page) == "human"
    assert score <= LIMIT, f"game link {CODE.pretty()}: layout shift {score:.3f} > {LIMIT}: {shifts}"


def test_returning_player_table_does_not_shift_when_python_takes_over(phone, site_url_prefixed):
    page = phone.new_page()
    page.goto(f"{site_url_prefixed}#partida={CODE.pretty()}&mesa={CODE.players}")
    wait_for_python(page)
    wait_state(page, "human")
    play_a_move(page)
    wait_state(page, "human")
    wait_for_picture_of_the_save(page)
    page.goto(site_url_prefixed)  # back to the page: the stored picture, then Python's table
    page.wait_for_function(DRAWN_JS)
    _, shifts = shift_after_ready(page)
    # From the stored picture to Python's table: the takeover this test is about. (Drawing the picture
    # itself can still move the setup bar when the first frame is painted before the picture script
    # runs, as on a cold load: a known gap, not measured here.)
    drawn = page.evaluate("() => window.__pictureAt")
    assert drawn is not None and drawn >= 0, f"game {CODE.pretty()}: the picture was drawn at first paint"
    takeover = [shift for shift in shifts if shift["at"] >= drawn]
    score = sum(shift["value"] for shift in takeover)
    assert score <= LIMIT, (
        f"returning player (game {CODE.pretty()}): layout shift {score:.3f} > {LIMIT}: {takeover}"
    )


# The table's markup is parsed and the stylesheet applies: what a browser needs to paint it.
STYLED_TABLE_JS = """() => !!document.getElementById('status')
  && getComputedStyle(document.querySelector('.site-header')).display === 'flex'"""
# Polling while the page may not paint yet (its first paint held): by time, not by animation frame.
POLL_MS = 20
# The built page's first-paint script begins with this line: a cold load is cut just before it.
FIRST_PAINT_MARK = b"<script>\n// Before Python is ready"


class _Held:
    """A switch the test flips: until then the cold-load server holds the rest of the page."""

    def __init__(self) -> None:
        self.go = threading.Event()


def _cold_handler(held: _Held) -> type[site_serve.SiteHandler]:
    class ColdLoad(site_serve.SiteHandler):
        """Sends the page up to its first-paint script, then waits for the test before the rest.

        The browser parses and paints what it has, as on a slow network or a busy phone.
        """

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path not in ("/", "/index.html"):
                super().do_GET()
                return
            page = Path(self.directory, "index.html").read_bytes()
            cut = page.index(FIRST_PAINT_MARK)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page[:cut])
            self.wfile.flush()
            held.go.wait(60)
            self.wfile.write(page[cut:])
            self.wfile.flush()

    return ColdLoad


def test_returning_player_cold_load_paints_no_table_before_the_picture(phone, built_site):
    """On a cold load the page's tail comes late: no shift either, whenever the first paint comes.

    The server holds the page's tail, from the first-paint script on, until the
    browser has parsed and styled the table's markup, then sends the rest.
    """
    held = _Held()
    server, base = site_serve.start_background(built_site, handler=_cold_handler(held))
    try:
        page = phone.new_page()
        held.go.set()  # the first visit: sent whole
        page.goto(f"{base}#partida={CODE.pretty()}&mesa={CODE.players}")
        wait_for_python(page)
        wait_state(page, "human")
        play_a_move(page)
        wait_state(page, "human")
        wait_for_picture_of_the_save(page)
        held.go.clear()
        page.goto(base, wait_until="commit")
        # The table's markup is parsed and styled, the first-paint script not yet here. (The head may
        # hold the first paint until that script has run: polled by time, not by animation frame.)
        page.wait_for_function(STYLED_TABLE_JS, polling=POLL_MS)
        held.go.set()
        page.wait_for_function(DRAWN_JS, polling=POLL_MS)
        score, shifts = shift_after_ready(page)
        assert score <= LIMIT, f"returning player, cold load: layout shift {score:.3f} > {LIMIT}: {shifts}"
    finally:
        held.go.set()
        server.shutdown()
        server.server_close()
