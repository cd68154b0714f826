"""Offline play and updates: the service worker (sw.js, built by tools/build.py).

After one online visit every file of the game is in the worker's cache, so
the page loads and plays with the network off and the saved game resumes.
A new deployment takes over on the next load without losing the game.

The site is served under a sub-path (/ocho-loco/), as on GitHub Pages.
Contexts use reduced motion so the CPU answers at once.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

from helpers import PREFIX, SAVE_KEY, play_a_move, wait_controlled, wait_for_python, wait_state

from tools import build as site_build
from tools import serve as site_serve

CODE = "A2C6-P4JZ"  # a 1-against-1 deal
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def position(page) -> dict[str, object]:
    """What the person sees of the game, plus the saved game itself."""
    return page.evaluate(
        """(key) => ({
            hand: [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card),
            top: document.querySelector('#discard [data-card]')?.dataset.card ?? null,
            stock: document.getElementById('stock-count').textContent,
            code: document.getElementById('game-code').textContent,
            save: localStorage.getItem(key),
        })""",
        SAVE_KEY,
    )


def open_game(page, base: str) -> None:
    page.goto(f"{base}#partida={CODE}&mesa=2")
    wait_for_python(page)
    assert wait_state(page) == "human"


def test_after_one_visit_the_game_loads_and_plays_offline(ctx, site_url_prefixed):
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_game(page, site_url_prefixed)
    play_a_move(page)
    wait_state(page, "human")
    wait_controlled(page)
    before = position(page)
    assert before["save"] is not None

    ctx.set_offline(True)
    failed: list[str] = []
    page.on("requestfailed", lambda req: failed.append(req.url))
    page.goto(site_url_prefixed)  # the plain address: the save decides what shows
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert position(page) == before
    # The network really is off: a file that is not precached cannot be fetched.
    probe = "() => fetch('no-precache.txt', {cache: 'no-store'}).then(() => 'online', () => 'offline')"
    assert page.evaluate(probe) == "offline"
    failed.clear()
    play_a_move(page)
    assert position(page)["save"] != before["save"]
    assert failed == []
    assert errors == []


def test_a_new_deployment_takes_over_and_keeps_the_game(ctx, built_site, serve_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    base = serve_dir(site, PREFIX)
    page = ctx.new_page()
    open_game(page, base)
    play_a_move(page)
    wait_state(page, "human")
    wait_controlled(page)
    before = position(page)

    # Deploy a new version: a changed page and a regenerated worker.
    index = site / "index.html"
    index.write_text(
        index.read_text(encoding="utf-8").replace("</body>", '<p id="deploy-2" hidden></p>\n</body>'),
        encoding="utf-8",
    )
    site_build.generate_service_worker(site_build.ROOT, site, quiet=True)

    # The next load is still the cached version; the new worker installs in the
    # background, takes over and the page offers to reload.
    page.reload()
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert position(page) == before
    page.wait_for_selector("#update-notice button", state="visible")
    page.click("#update-notice button")
    page.wait_for_selector("#deploy-2", state="attached")
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert position(page) == before
    play_a_move(page)


def test_the_committed_v1_save_restores_in_the_page(ctx, site_url_prefixed):
    raw = (FIXTURES / "save-v1.json").read_text(encoding="utf-8")
    ctx.add_init_script(
        "if (!sessionStorage.getItem('seeded')) {"
        f" localStorage.setItem({json.dumps(SAVE_KEY)}, {json.dumps(raw)});"
        " sessionStorage.setItem('seeded', '1'); }"
    )
    page = ctx.new_page()
    page.goto(site_url_prefixed)
    wait_for_python(page)
    assert wait_state(page) == "human"
    seen = position(page)
    assert sorted(seen["hand"]) == sorted(["6H", "KC", "6C", "10H"])  # type: ignore[call-overload]
    assert seen["top"] == "10S"
    assert page.evaluate("() => document.querySelectorAll('#opponents .opponent').length") == 2
    play_a_move(page)


def test_the_worker_is_generated_deterministically(built_site, tmp_path):
    site = tmp_path / "copy"
    shutil.copytree(built_site, site)
    site_build.generate_service_worker(site_build.ROOT, site, quiet=True)
    assert (site / "sw.js").read_bytes() == (built_site / "sw.js").read_bytes()
    text = (site / "sw.js").read_text(encoding="utf-8")
    assert "importScripts" not in text  # Workbox is inlined: nothing from a CDN
    assert "vendor/pyodide/pyodide.asm.wasm" in text
    assert "app.zip.xz" in text


class HostThatStopsAnswering(site_serve.SiteHandler):
    """Answers normally until ``hang`` is set; then holds every request open without a reply.

    That is a host behind a captive portal or an outage while the browser
    still says it is online (``context.set_offline`` would be honest offline).
    """

    hang = threading.Event()
    release = threading.Event()

    def do_GET(self) -> None:
        if self.hang.is_set():
            self.release.wait(120)
            return
        super().do_GET()


class VendorUnavailable(site_serve.SiteHandler):
    """The page loads, but the runtime files under vendor/ fail (no network for them, no copy yet)."""

    def do_GET(self) -> None:
        if "/vendor/" in self.path:
            self.send_error(503)
            return
        super().do_GET()


def test_a_host_that_stops_answering_falls_back_to_the_precache(ctx, built_site):
    HostThatStopsAnswering.hang.clear()
    HostThatStopsAnswering.release.clear()
    server, base = site_serve.start_background(built_site, prefix=PREFIX, handler=HostThatStopsAnswering)
    try:
        page = ctx.new_page()
        open_game(page, base)
        play_a_move(page)
        wait_state(page, "human")
        wait_controlled(page)
        before = position(page)
        HostThatStopsAnswering.hang.set()  # the server stops answering; the browser stays "online"
        page.goto(base)
        wait_for_python(page)
        assert wait_state(page) == "human"
        assert position(page) == before
        play_a_move(page)
    finally:
        HostThatStopsAnswering.release.set()
        server.shutdown()
        server.server_close()


def test_without_network_or_a_copy_the_page_says_so(ctx, built_site):
    server, base = site_serve.start_background(built_site, prefix=PREFIX, handler=VendorUnavailable)
    try:
        page = ctx.new_page()
        page.goto(base)
        page.wait_for_function(
            "(title) => document.querySelector('#loading .loading-title').textContent === title",
            arg="No llega el motor del juego",
        )
        detail = page.inner_text("#loading-detail")
        assert "necesita conexión" in detail
        assert page.inner_text("#status").startswith("No se puede empezar todavía")
    finally:
        server.shutdown()
        server.server_close()
