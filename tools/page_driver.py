"""Drive the built page in headless Chromium: serve a site folder, open a browser, click.

Shared by the site tooling (``python -m tools.stdlib --probe``) and the page
benchmarks (:mod:`lab.page_bench`, :mod:`lab.review_page_bench`, …), so the
build never imports a benchmark.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tools import chromium as site_chromium
from tools import serve as site_serve
from tools.serve import Traffic
from ui.storage import SAVE_KEY

PREFIX = "/ocho-loco/"
CHROMIUM_ARGS = site_chromium.ARGS
TIMEOUT_MS = 120_000
# crypto.getRandomValues from a seed (xorshift32): with it the page deals, and its CPUs play, the
# same game every time (``% seed`` before use, an init script of the browser context).
# The page's one switch for tests and benchmarks (assets/page.js): set before the page's scripts,
# the page records its figures in this object and asks the worker for its own.
PROBE_JS = "window.ochoLocoProbe = {applied: [], timing: [], warm: []};"

SEEDED_CRYPTO_JS = """
(() => {
  let s = %d >>> 0 || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  const fill = function (array) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = next() & 255;
    return array;
  };
  Object.defineProperty(Crypto.prototype, "getRandomValues", { value: fill, configurable: true });
})();
"""

# True once the page waits for the person, or shows a dialog, the results or the setup screen, and has
# shown its answer to the last click (the probe's count of answers pending, where the probe is on).
SETTLED_JS = (
    "() => ['human','chooser','results','gameover','setup'].includes(document.body.dataset.state)"
    " && !(window.ochoLocoProbe && window.ochoLocoProbe.answering)"
)


@contextmanager
def serve(directory: Path, traffic: Traffic, *, compress: bool = False) -> Iterator[str]:
    """Serve ``directory`` under ``PREFIX`` (``compress``: gzip as GitHub Pages does, not counted)."""
    handler = site_serve.GzipHandler if compress else site_serve.counting(traffic)
    server, url = site_serve.start_background(directory, prefix=PREFIX, handler=handler)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def find_chromium() -> str:
    """The Chromium to drive; exits with a message when there is none."""
    path = site_chromium.find()
    if path is None:
        raise SystemExit("Chromium not found: set CHROMIUM_PATH or install chromium")
    return path


def context_options() -> dict[str, Any]:
    """A Spanish desktop window with reduced motion (the CPU answers at once)."""
    return {"locale": "es-ES", "viewport": {"width": 1280, "height": 800}, "reduced_motion": "reduce"}


def click_first(page: Any, selectors: list[str], *, attempts: int = 20) -> bool:
    """Click the first element that one of ``selectors`` finds, in order; False when none does.

    The table may redraw between finding an element and clicking it (a card replaced, a button
    disabled): a click that cannot happen within 2 s is not made, and the selectors are tried again.
    """
    for _ in range(attempts):
        for selector in selectors:
            found = page.locator(selector).first
            if found.count():
                try:
                    found.click(timeout=2_000)
                except PlaywrightError:
                    break  # redrawn under the click: look again
                return True
        else:
            return False
    return False


def play_a_move(page: Any, suit: str = "H", *, timeout: float | None = TIMEOUT_MS) -> None:
    """Make one move of the person's, then wait until the page has saved it.

    In the suit chooser, name ``suit``; else play the first raised card, or
    press the main button (draw or pass). The page saves after every move,
    so a changed save is the move's answer. ``timeout`` in ms (None: the
    page's own default, as the tests set it).
    """
    before = page.evaluate("(key) => window.localStorage.getItem(key)", SAVE_KEY)
    if page.evaluate("() => document.body.dataset.state") == "chooser":
        page.click(f'#suit-dialog .suit-btn[data-suit="{suit}"]')
    else:
        legal = page.query_selector("#hand button.card.legal")
        if legal is not None:
            legal.click()
        else:
            page.click("#main-btn")
    page.wait_for_function(
        "([key, before]) => window.localStorage.getItem(key) !== before",
        arg=[SAVE_KEY, before],
        timeout=timeout,
    )
