"""Helpers for the end-to-end tests of the page (tests/browser/test_page_*.py).

The page tells what it waits for in ``document.body.dataset.state``
(setup, human, chooser, cpu, results, gameover, replace) and saves the game
after every action under ``ocho-loco:partida``; the helpers wait on those,
never on fixed sleeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from support import human_to_play, reach

from engine.bots import make_bot
from engine.cards import Card
from engine.codes import GameCode
from engine.game import PLAYING, Game
from engine.save import dump
from engine.view import seat_view
from tools import page_driver as driver
from ui.storage import Store, read

__all__ = ["human_to_play", "reach"]

PREFIX = "/ocho-loco/"  # the sub-path a project site is served under on GitHub Pages
SAVE_KEY = "ocho-loco:partida"
PICTURE_KEY = "ocho-loco:dibujo"  # the picture of the table index.html draws at first paint

# JS expression true once the app's Python has finished booting.
READY_JS = "() => !!document.body && document.body.dataset.ready === '1'"
# ... or once PyScript has shown an error box instead.
READY_OR_ERROR_JS = (
    "() => (!!document.body && document.body.dataset.ready === '1') || !!document.querySelector('.py-error')"
)
STAND_IN = '<!doctype html><html lang="es"><head><link rel="icon" href="data:,"><title>-</title></head>'
ASIDE_PREFIX = "ocho-loco:aparte:"

# States in which nothing is pending: the page waits for the person.
SETTLED = ("setup", "human", "chooser", "results", "gameover", "replace")

# Deals checked with the engine (see the tests that use them):
# A2K7-QM92: hand 3H AS QD 2H 10D 9S 5H on 10C, only 10D is legal.
PLAIN_CODE = GameCode.build(2, "K7QM9")
# A222-224R: 8S in hand, 7D on top.
EIGHT_CODE = GameCode.parse("A222-224R")
# A222-776Y: no legal card, and three draws bring none either.
STUCK_CODE = GameCode.parse("A222-776Y")
# A222-255J: no legal card on 9C; the first two draws bring none, the third brings one (then «Robar (0)»).
THIRD_DRAW_CODE = GameCode.parse("A222-255J")
# A222-232G: the 8 of diamonds turned up at the deal, you to play (rule 6: nobody asked for a suit).
OPENING_EIGHT_CODE = GameCode.parse("A222-232G")


def wait_for_python(page, timeout_ms: int = 90_000) -> None:
    """Wait for ``document.body.dataset.ready == "1"``; fail on a PyScript error box."""
    page.wait_for_function(READY_OR_ERROR_JS, timeout=timeout_ms)
    error = page.query_selector(".py-error")
    if error is not None and page.evaluate(READY_JS) is False:
        pytest.fail("PyScript error while booting:\n" + error.inner_text())


def link(base: str, code: GameCode) -> str:
    return f"{base}#partida={code.pretty()}&mesa={code.players}"


def state(page) -> str:
    return page.evaluate("() => document.body.dataset.state || ''")


def wait_state(page, *states: str, timeout: int = 30_000) -> str:
    """Wait until the table's state is one of ``states`` (default: any settled one).

    In the worker mode the answer to a click comes a moment after it: the state is read once no
    answer is on its way (the probe's ``answering``), so the state before the click is not taken
    for the state after it.
    """
    wanted = list(states or SETTLED)
    try:
        page.wait_for_function(
            "(wanted) => wanted.includes(document.body.dataset.state) && !window.ochoLocoProbe.answering",
            arg=wanted,
            timeout=timeout,
        )
    except PlaywrightTimeout as error:  # say what the page was doing instead
        raise AssertionError(f"waited for {wanted}; the page: {page_now(page)}") from error
    return state(page)


# What a test that waited in vain prints: the state, the answers under way, the status line, what
# has the focus, and the last batches the page applied (the probe's, with their kinds).
PAGE_NOW_JS = """() => {
  const probe = window.ochoLocoProbe || {};
  const active = document.activeElement;
  return {
    state: document.body.dataset.state, answering: probe.answering,
    status: (document.getElementById('status') || {}).textContent,
    focus: active ? active.id || active.tagName : null,
    batches: (probe.applied || []).slice(-4).map(([ms, kinds]) => kinds.slice(0, 300)),
  };
}"""


def page_now(page) -> object:
    try:
        return page.evaluate(PAGE_NOW_JS)
    except PlaywrightError as error:
        return f"unreadable ({error})"


# Resolves two frames from now: by then the page has laid out a new window size and measured the
# hand's row for it (a ResizeObserver, which runs before the frame is painted: no frame is painted
# with the old measure, but a script reading the layout in between would read it).
TWO_FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def resize(page, width: int, height: int) -> None:
    """Turn the phone or resize the window, and wait until the page has measured its new rows."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("(width) => window.innerWidth === width", arg=width)
    page.evaluate(TWO_FRAMES_JS)


def boot(page, url: str, *states: str, timeout: int = 30_000) -> str:
    """Open ``url``, wait for Python and then for a settled state (one of ``states`` if given)."""
    page.goto(url)
    wait_for_python(page)
    return wait_state(page, *states, timeout=timeout)


def wait_for_picture_of_the_save(page) -> None:
    """Wait until the stored picture of the table (``ocho-loco:dibujo``) was drawn from the current save."""
    page.wait_for_function(
        "([save, picture]) => (JSON.parse(localStorage.getItem(picture) || 'null') || {}).save"
        " === localStorage.getItem(save)",
        arg=[SAVE_KEY, PICTURE_KEY],
    )


def open_panel(page, name: str) -> None:
    """In play, open the sheet ``name`` (setup, marcador, partidas, textos) with its button on the bar.

    Outside play (the first screen) these parts are on the page itself, and nothing is clicked.
    """
    folded = page.evaluate(
        "(id) => document.documentElement.classList.contains('at-table')"
        " && !document.getElementById(id).classList.contains('open')",
        name,
    )
    if folded:
        page.click(f'.bar-btn[aria-controls="{name}"]')
        page.wait_for_function("(id) => document.getElementById(id).classList.contains('open')", arg=name)


def notice_text(page) -> str:
    """The notice's words, without its «Entendido» button (shown in play)."""
    return page.evaluate(
        "() => [...document.getElementById('notice').childNodes]"
        ".filter((n) => n.nodeName !== 'BUTTON').map((n) => n.textContent).join(' ').trim()"
    )


def more_options(page) -> None:
    """Open «Más opciones» (the disclosure under «Repartir») if it is folded, as a person would: a click."""
    # A test that acts before Python is ready may come straight from a navigation's commit: the
    # parser may not have reached the disclosure yet.
    page.wait_for_selector("#more-options", state="attached")
    open_panel(page, "setup")  # in play, on the «Opciones» sheet
    if not page.evaluate("() => document.getElementById('more-options').open"):
        page.click("#more-options > summary")
        page.wait_for_function("() => document.getElementById('more-options').open")


def play_a_move(page, suit: str = "H") -> None:
    """Play the first raised card (naming ``suit`` for an 8), or press the main button; wait for the save."""
    driver.play_a_move(page, suit, timeout=None)
    if wait_state(page) == "chooser":  # the open chooser is saved too: the 8 is the save after it
        driver.play_a_move(page, suit, timeout=None)
        wait_state(page)


def wait_controlled(page) -> None:
    """Wait until the service worker is active and controls the page."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def raw_save(page) -> str | None:
    return page.evaluate("(key) => window.localStorage.getItem(key)", SAVE_KEY)


def saved_record(page) -> str:
    """The saved game's record, once it is written: the state can show a moment before its save."""
    handle = page.wait_for_function(
        "(key) => (JSON.parse(window.localStorage.getItem(key) || '{}') || {}).record", arg=SAVE_KEY
    )
    return str(handle.json_value())


def saved_game(page) -> dict[str, Any]:
    """The saved game, replayed through the engine, as a readable position (``engine.save.dump``)."""
    raw = raw_save(page)
    assert raw is not None, "no saved game in localStorage"
    return dump(read(raw).game)


def hand(page) -> list[str]:
    return page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)")


def legal_cards(page) -> list[str]:
    return page.eval_on_selector_all("#hand button.card.legal", "els => els.map(e => e.dataset.card)")


def top_card(page) -> str:
    return page.get_attribute("#discard [data-card]", "data-card") or ""


def main_text(page) -> str:
    return page.inner_text("#main-btn").strip()


def status(page) -> str:
    return page.inner_text("#status").strip()


def act(page, do: Callable[[], None], *states: str) -> str:
    """Run ``do`` (a click or key press) and wait until the save changed and the table settled."""
    before = raw_save(page)
    do()
    page.wait_for_function(
        "([key, before]) => window.localStorage.getItem(key) !== before",
        arg=[SAVE_KEY, before],
    )
    return wait_state(page, *states)


# True once the end of a game is open with the focus on its verdict (ui/results.py).
THE_END_JS = (
    "() => document.getElementById('gameover-dialog').open"
    " && document.activeElement && document.activeElement.id === 'gameover-title'"
)


def see_the_end(page) -> None:
    """«Ver el final» once the last hand is counted: the end of the game opens, its verdict focused."""
    page.locator("#final-btn").wait_for(state="visible")
    page.click("#final-btn")
    page.wait_for_function(THE_END_JS)


def envelope(game: Game, chooser: str | None = None) -> str:
    """The page's save of ``game`` (a real game: a save is its record, replayed on load)."""
    return Store.payload(game, chooser=None if chooser is None else Card.parse(chooser))


def put_storage(page, base: str, items: dict[str, str]) -> None:
    """Replace the site origin's localStorage with ``items``, without booting the app.

    A stand-in page on the same origin (answered by Playwright, never by the
    server) does the writing.
    """
    blank = base + "__storage__.html"
    page.route(blank, lambda route: route.fulfill(content_type="text/html", body=STAND_IN))
    page.goto(blank)
    page.unroute(blank)
    page.evaluate(
        """(items) => {
            localStorage.clear();
            for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
        }""",
        items,
    )


def storage_items(page) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))"
    )


def cpu_then_you_go_out(game: Game) -> bool:
    """CPU 1 is on turn, will draw at least twice (its bot is deterministic), and then your one card fits."""
    if game.phase != PLAYING or game.turn != 1 or game.players != 2:
        return False
    after = game.copy()
    bot = make_bot("cpu", 1)
    draws = 0
    while after.phase == PLAYING and after.turn == 1:
        action = bot.choose(seat_view(after, 1))
        after.apply(action)
        draws += action.kind == "draw"
    return (
        draws >= 2
        and after.phase == PLAYING
        and len(after.hands[0]) == 1
        and bool(after.legal_cards())
        and len(after.hands[1]) >= 3
    )


def one_card_to_go_out(game: Game) -> bool:
    """Your turn, one card left, and it fits: one click ends the hand."""
    return human_to_play(game) and len(game.hands[0]) == 1 and bool(game.legal_cards())


def install_recorder(page, selector: str, probe: str) -> None:
    """Record ``probe`` (a JS expression) every time ``selector``'s subtree changes.

    Mutation observers run after each task, so every render the page makes
    in its own task (a CPU move, a reveal step) shows up as one entry.
    """
    page.evaluate(
        """([selector, probe]) => {
            const read = new Function('return (' + probe + ');');
            window.__snaps = [read()];
            new MutationObserver(() => window.__snaps.push(read())).observe(
                document.querySelector(selector),
                {subtree: true, childList: true, characterData: true, attributes: true},
            );
        }""",
        [selector, probe],
    )


def recorded(page) -> list[Any]:
    return page.evaluate("() => window.__snaps")


def assert_no_errors(page_log) -> None:
    """No uncaught script error and nothing logged as a console error."""
    assert page_log.errors == [], page_log.errors
    assert page_log.console_errors() == [], page_log.console_errors()


# Samples the focus in every frame before it is painted and after every task the page runs: any
# sample on <body> is a moment a screen reader hears the focus leave the table.
FOCUS_SAMPLES_JS = """() => {
  window.__onBody = [];
  const look = (when) => {
    const on = document.activeElement;
    if (on === document.body || on === null) window.__onBody.push(when);
  };
  const frame = () => { look('frame'); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  new MutationObserver(() => queueMicrotask(() => look('write'))).observe(
    document.getElementById('hand'), {childList: true});
}"""
