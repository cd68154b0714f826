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
from pathlib import Path

import pytest
from conftest import PREFIX, wait_for_python
from helpers import SAVE_KEY, play_a_move, wait_controlled, wait_state

from tools import build as site_build

CODE = "A2C6-P4JZ"  # a 1-against-1 deal
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def ctx(browser):
    context = browser.new_context(
        locale="es-ES", viewport={"width": 1280, "height": 800}, reduced_motion="reduce"
    )
    context.set_default_timeout(30_000)
    yield context
    context.close()


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
    assert "app.zip" in text
