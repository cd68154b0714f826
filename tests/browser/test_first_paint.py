"""The table works from the first paint, before Python is ready.

The test server holds back Pyodide's wasm until the test opens a gate, so
"before Python is ready" is a state the test controls, not a race: the early
part of the page (index.html) must remember a click on «Repartir», a card or
«Robar», and show a returning player their own table from the picture stored
beside the save; once Python runs, it deals or plays exactly once.
"""

from __future__ import annotations

import datetime
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import (
    PICTURE_KEY,
    PREFIX,
    SAVE_KEY,
    more_options,
    play_a_move,
    wait_for_picture_of_the_save,
    wait_for_python,
    wait_state,
)

from engine.daily import daily_code
from engine.record import Record
from tools import serve as site_serve

CODE = "A2C6-P4JZ"  # a 1-against-1 deal
WASM = "pyodide.asm.wasm"
HAND_JS = "() => [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card)"
NOT_READY_JS = "() => document.body.dataset.ready !== '1'"
# Each card of the hand and the pile with the face it wears (tools/faces.py): "10H #face-10H".
FACES_JS = """() => [...document.querySelectorAll('#hand [data-card], #discard [data-card]')]
    .map(e => e.dataset.card + ' ' + e.querySelector('svg.face use')?.getAttribute('href'))"""


class Gate:
    """Opens and closes the way to Pyodide's wasm on the test server."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.open.set()

    def hold(self) -> None:
        self.open.clear()

    def release(self) -> None:
        self.open.set()


@pytest.fixture
def gated(built_site: Path) -> Iterator[tuple[str, Gate]]:
    gate = Gate()

    class Handler(site_serve.SiteHandler):
        def do_GET(self) -> None:
            if self.path.split("?")[0].endswith(WASM):
                gate.open.wait(timeout=120)
            super().do_GET()

    server, base = site_serve.start_background(built_site, prefix=PREFIX, handler=Handler)
    yield base, gate
    gate.release()
    server.shutdown()
    server.server_close()


@pytest.fixture
def ctx(browser):
    """A context whose pages no service worker serves: each start reads the wasm from the test server.

    A returning visit's runtime would otherwise come from the service worker's precache, past the gate,
    once the worker the last visit registered is in control: whether it was yet was a race (a full
    run saw the picture redrawn by Python under a test's click).
    """
    context = browser.new_context(
        locale="es-ES",
        viewport={"width": 1280, "height": 800},
        reduced_motion="reduce",
        service_workers="block",
    )
    context.set_default_timeout(30_000)
    yield context
    context.close()


def status(page) -> str:
    return page.inner_text("#status")


def test_repartir_clicked_before_python_is_ready_deals_exactly_once(ctx, gated):
    base, gate = gated
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    gate.hold()
    page.goto(base, wait_until="commit")
    page.click("label.mode:has(#mode-3)")
    page.click("#deal-btn")
    # the table is the screen from that tap on (the setup is folded away); a second, impatient
    # click (one already on its way) changes nothing
    assert not page.locator("#deal-btn").is_visible()
    page.dispatch_event("#deal-btn", "click")
    assert page.evaluate(NOT_READY_JS), "the test must click before Python is ready"
    assert page.inner_text("#deal-btn") == "Barajando…"
    assert status(page).startswith("Barajando…")
    progress = "() => /Descargando|Arrancando/.test(document.getElementById('status').textContent)"
    page.wait_for_function(progress)

    gate.release()
    wait_for_python(page)
    assert wait_state(page) == "human", "dealt once: a second deal would have asked to replace the game"
    assert not page.evaluate("() => document.getElementById('replace-dialog').open")
    assert page.inner_text("#deal-btn") == "Otra partida", "a game is under way"
    assert len(page.evaluate(HAND_JS)) == 5, "the table size chosen early is the one dealt"
    assert page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).app", SAVE_KEY) == "ocho-loco"
    assert errors == []


def start_a_saved_game(page, base: str) -> list[str]:
    """Open the game, play a move, wait for its picture to be stored; the person's cards."""
    page.goto(f"{base}#partida={CODE}&mesa=2")
    wait_for_python(page)
    wait_state(page, "human")
    play_a_move(page)
    wait_state(page, "human")
    wait_for_picture_of_the_save(page)
    return page.evaluate(HAND_JS)


def test_a_returning_player_sees_their_table_before_python_and_the_live_one_matches(ctx, gated):
    base, gate = gated
    page = ctx.new_page()
    cards = start_a_saved_game(page, base)
    top = page.get_attribute("#discard [data-card]", "data-card")

    gate.hold()
    page.goto(base, wait_until="commit")
    page.wait_for_function("() => window.ochoLocoProbe.picture === true")
    assert page.evaluate(NOT_READY_JS)
    assert page.evaluate(HAND_JS) == cards
    assert page.get_attribute("#discard [data-card]", "data-card") == top
    faces = sorted(page.evaluate(FACES_JS))
    assert faces == sorted(f"{card} #face-{card}" for card in [*cards, top]), "the picture keeps the faces"
    assert status(page) == "Preparando la mesa…"
    assert page.get_attribute("#mesa .board", "aria-busy") == "true"

    gate.release()
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert page.evaluate(HAND_JS) == cards
    assert page.get_attribute("#discard [data-card]", "data-card") == top
    assert page.get_attribute("#mesa .board", "aria-busy") is None
    assert page.evaluate("() => window.ochoLocoProbe.picture") is not True


def test_an_early_card_click_is_applied_once(ctx, gated):
    base, gate = gated
    page = ctx.new_page()
    cards = start_a_saved_game(page, base)
    gate.hold()
    page.goto(base, wait_until="commit")
    page.wait_for_function("() => window.ochoLocoProbe.picture === true")
    legal = page.query_selector("#hand button.card.legal:not([data-card^='8'])")
    if legal is None:
        pytest.skip("this deal has no plain legal card after the first move")
    card = legal.get_attribute("data-card")
    legal.click()
    assert page.evaluate(NOT_READY_JS)
    assert "en cuanto esté lista" in status(page)

    gate.release()
    wait_for_python(page)
    wait_state(page)
    after = page.evaluate(HAND_JS)
    assert card not in after
    assert sorted(after) == sorted(c for c in cards if c != card), "played once, nothing else"


def test_an_early_click_that_no_longer_fits_is_ignored_with_a_message(ctx, gated):
    base, gate = gated
    page = ctx.new_page()
    start_a_saved_game(page, base)
    # A card the person does not hold: as if the picture were older than the save.
    page.evaluate(
        """(key) => {
            const picture = JSON.parse(localStorage.getItem(key));
            const buttons = picture.parts.hand.c.filter((kid) => Array.isArray(kid) && kid[0] === "button");
            const button = buttons.find((kid) => /\blegal\b/.test(kid[1].class)) || buttons[0];
            button[1]["data-card"] = "KS";
            localStorage.setItem(key, JSON.stringify(picture));
        }""",
        PICTURE_KEY,
    )
    gate.hold()
    page.goto(base, wait_until="commit")
    page.wait_for_function("() => window.ochoLocoProbe.picture === true")
    before = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    page.click('#hand button[data-card="KS"]', force=True)  # maybe shown as not playable
    gate.release()
    wait_for_python(page)
    wait_state(page)
    assert status(page) == "Lo que pulsaste antes de que la mesa estuviera lista ya no vale: no se ha jugado."
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == before
    assert "KS" not in page.evaluate(HAND_JS), "the live table is drawn from the save"


def test_a_picture_that_disagrees_with_the_save_is_not_shown(ctx, gated):
    base, gate = gated
    page = ctx.new_page()
    cards = start_a_saved_game(page, base)
    page.evaluate("(key) => localStorage.setItem(key, localStorage.getItem(key) + ' ')", SAVE_KEY)
    gate.hold()
    page.goto(base, wait_until="commit")
    page.wait_for_selector("#status")
    page.wait_for_function("() => document.readyState !== 'loading'")
    assert page.evaluate(NOT_READY_JS)
    assert page.evaluate("() => window.ochoLocoProbe.picture") is not True
    assert page.evaluate(HAND_JS) == []
    gate.release()
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert page.evaluate(HAND_JS) == cards, "the save wins"


def test_partida_del_dia_and_rival_chosen_before_python_is_ready_are_kept(ctx, gated):
    base, gate = gated
    page = ctx.new_page()
    gate.hold()
    page.goto(base, wait_until="commit")
    more_options(page)  # a <details>: it opens before Python is ready
    page.check("#level-dificil")
    page.click("#daily-btn")  # usable from the first paint
    page.dispatch_event("#daily-btn", "click")  # a second click on its way changes nothing
    assert page.evaluate(NOT_READY_JS), "the test must click before Python is ready"
    assert page.inner_text("#daily-btn") == "Barajando…"
    assert status(page).startswith("Barajando…")

    gate.release()
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert not page.evaluate("() => document.getElementById('replace-dialog').open")
    record = Record.parse(json.loads(page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY))["record"])
    today = {str(daily_code(datetime.date.today() + datetime.timedelta(days=d), 2)) for d in (0, 1)}
    assert str(record.code) in today, "today's deal, dealt once"
    assert record.level == "dificil", "the level checked before Python was ready"
    assert page.locator("#level-dificil").is_checked()
