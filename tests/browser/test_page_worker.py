"""The worker mode (docs/worker.md): the table's Python in a Web Worker, the page only writes the DOM.

The worker mode is the page's default. Whatever mode the rest of the suite
runs in (``OCHO_MOTOR``), these tests open the page in the worker mode
(``window.ochoLocoMotor = "worker"`` before the page's scripts) and check what
only that mode has: Python started in a worker, play with no service worker at
all (the mode needs no cross-origin isolation and no reload), and the quiet
fallback to the main-thread mode when the worker cannot start; and that the
address alone chooses the mode (nothing: the worker; ``?motor=main``: the page).
"""

from __future__ import annotations

import pytest
from helpers import SAVE_KEY, play_a_move, wait_for_python, wait_state

CODE = "A2C6-P4JZ"  # a 1-against-1 deal
WORKER_MODE_JS = "window.ochoLocoMotor = 'worker';"


@pytest.fixture
def worker_context(browser):
    def make(**options):
        context = browser.new_context(locale="es-ES", reduced_motion="reduce", **options)
        context.set_default_timeout(30_000)
        context.add_init_script(WORKER_MODE_JS)
        made.append(context)
        return context

    made: list = []
    yield make
    for context in made:
        context.close()


def open_game(page, base: str) -> None:
    page.goto(f"{base}#partida={CODE}&mesa=2")
    wait_for_python(page)
    assert wait_state(page) == "human"


def test_the_table_runs_in_a_worker_and_plays(worker_context, site_url):
    page = worker_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_game(page, site_url)
    assert page.evaluate("() => document.body.dataset.motor") == "worker"
    assert [w.url.split(":", 1)[0] for w in page.workers] == ["blob"]  # PyScript's worker
    play_a_move(page)
    assert wait_state(page) == "human"
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    assert errors == []


def test_the_page_runs_python_in_a_worker_unless_the_address_asks_otherwise(browser, site_url):
    """The worker mode is the page's default; ``?motor=main`` runs today's main-thread mode, and plays."""
    for query, motor in (("", "worker"), ("?motor=main", "main")):
        # The session's own context: no test-wide choice of mode (OCHO_MOTOR) is added to it.
        context = browser._browser.new_context(locale="es-ES", reduced_motion="reduce")
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        open_game(page, site_url + query)
        assert page.evaluate("() => document.body.dataset.motor") == motor, query
        assert len(page.workers) == (1 if motor == "worker" else 0), query
        play_a_move(page)
        assert wait_state(page) == "human"
        assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
        assert errors == [], query
        context.close()


def test_the_game_plays_with_the_service_worker_blocked(worker_context, site_url):
    """No isolation, no reload: the worker mode needs no service worker (a private window may refuse it)."""
    page = worker_context(service_workers="block").new_page()
    open_game(page, site_url)
    assert page.evaluate("() => document.body.dataset.motor") == "worker"
    assert page.evaluate("() => navigator.serviceWorker.controller") is None
    play_a_move(page)
    page.reload()
    wait_for_python(page)
    assert wait_state(page) == "human"  # the saved game resumes


def test_when_the_worker_cannot_start_the_page_plays_on_the_main_thread(worker_context, site_url):
    context = worker_context(service_workers="block")
    context.route("**/assets/worker-start.py", lambda route: route.abort())
    page = context.new_page()
    open_game(page, site_url)
    assert page.evaluate("() => document.body.dataset.motor") == "main"
    said = page.inner_text("#notice") + page.inner_text("#status")
    assert not any(word in said.lower() for word in ("worker", "error", "fall")), said  # nothing alarming
    play_a_move(page)
    assert wait_state(page) == "human"


def test_a_keyboard_click_reaches_the_worker_as_one_move(worker_context, site_url):
    page = worker_context().new_page()
    open_game(page, site_url)
    before = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    page.locator("#hand button.card.legal, #main-btn").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("([key, before]) => localStorage.getItem(key) !== before", arg=[SAVE_KEY, before])
    assert wait_state(page) in ("human", "chooser", "results", "gameover")
