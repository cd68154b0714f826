"""A half-online host: the page and ``sw.js`` answer, the runtime files under ``vendor/`` never do.

A captive portal, a broken mirror or an outage of a CDN in front of the site
can answer some paths and hold others open forever, while the browser says it
is online. After one visit the service worker holds every file of the game,
and PyScript's and Pyodide's files are pinned versions (their revision is
their SHA-256), so the worker answers them from its precache first: the game
starts and plays without the host ever answering ``vendor/``.

The server is the test's own (threaded, like ``tools/serve.py``), with a flag
that makes it hold every ``vendor/`` request without a reply. Requests are only
observed (``page.on("request")``); routing them would hang start-up under a
service worker.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from helpers import PREFIX, SAVE_KEY, play_a_move, wait_controlled, wait_for_python, wait_state

from tools import serve as site_serve

CODE = "A2C6-P4JZ"  # a 1-against-1 deal


class VendorHangs(site_serve.SiteHandler):
    """Answers everything until ``hang`` is set; then holds every ``vendor/`` request open, never replying."""

    hang = threading.Event()
    release = threading.Event()
    held: ClassVar[list[str]] = []  # vendor/ paths asked for while hanging

    def do_GET(self) -> None:
        if self.hang.is_set() and "/vendor/" in self.path:
            self.held.append(self.path)
            self.release.wait(120)
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture
def half_online(built_site: Path) -> Iterator[tuple[str, type[VendorHangs]]]:
    VendorHangs.hang.clear()
    VendorHangs.release.clear()
    VendorHangs.held = []
    server, base = site_serve.start_background(built_site, prefix=PREFIX, handler=VendorHangs)
    yield base, VendorHangs
    VendorHangs.release.set()
    server.shutdown()
    server.server_close()


def hand(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card)")


def test_a_host_that_answers_the_page_but_never_vendor_still_starts_the_game(ctx, half_online):
    base, server = half_online
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}#partida={CODE}&mesa=2")
    wait_for_python(page)
    assert wait_state(page) == "human", f"code {CODE}"
    play_a_move(page)
    wait_state(page, "human")
    wait_controlled(page)  # installed: every file is in the precache
    cards = hand(page)
    save = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)

    server.hang.set()  # from now on vendor/ is held open; the page and sw.js still answer
    requested: list[str] = []
    page.on("request", lambda req: requested.append(req.url))
    page.reload(wait_until="commit")  # "load" would wait on the held files themselves
    wait_for_python(page, timeout_ms=60_000)
    assert wait_state(page) == "human", f"code {CODE}: the saved game resumes"
    assert hand(page) == cards, f"code {CODE}"
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == save
    assert any("/vendor/pyodide/pyodide.asm.wasm" in url for url in requested), "the runtime was loaded"
    assert server.held == [], (
        f"the worker asked the host for {server.held}: pinned files come from the precache"
    )
    play_a_move(page)
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) != save, (
        f"code {CODE}: a move was saved"
    )
    assert errors == []
