"""The table's Python in a Web Worker (docs/worker.md); assets/page.js is the only DOM writer.

What only a browser shows of it: Python started in a worker, play with no
service worker at all (no cross-origin isolation, no reload), a Spanish message
when the worker cannot start, the runtime's files fetched off the page on a
first visit, the results panel warmed up while Python starts, and PyScript
started without the plugins the page never uses.
"""

from __future__ import annotations

import re

import pytest
from helpers import SAVE_KEY, play_a_move, wait_for_python, wait_state

CODE = "A2C6-P4JZ"  # a 1-against-1 deal


@pytest.fixture
def worker_context(browser):
    def make(**options):
        context = browser.new_context(locale="es-ES", reduced_motion="reduce", **options)
        context.set_default_timeout(30_000)
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
    assert [w.url.split(":", 1)[0] for w in page.workers] == ["blob"]  # PyScript's worker
    play_a_move(page)
    assert wait_state(page) == "human"
    assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    assert errors == []


def test_the_game_plays_with_the_service_worker_blocked(worker_context, site_url):
    """No isolation, no reload: the worker mode needs no service worker (a private window may refuse it)."""
    page = worker_context(service_workers="block").new_page()
    open_game(page, site_url)
    assert page.evaluate("() => navigator.serviceWorker.controller") is None
    play_a_move(page)
    page.reload()
    wait_for_python(page)
    assert wait_state(page) == "human"  # the saved game resumes


def test_when_the_worker_cannot_start_the_loading_box_says_so_in_spanish(worker_context, site_url):
    context = worker_context(service_workers="block")
    context.route("**/assets/worker-start.py", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{site_url}#partida={CODE}&mesa=2")
    title = "() => document.querySelector('#loading .loading-title').textContent"
    page.wait_for_function(f"() => ({title})().includes('no puede')")
    assert page.is_visible("#loading")
    said = page.inner_text("#loading") + page.inner_text("#status")
    assert "Este navegador no puede arrancar el juego" in said, said
    assert "Tu partida guardada sigue aquí" in said
    assert not any(word in said.lower() for word in ("worker", "error", "exception")), said


def test_a_keyboard_click_reaches_the_worker_as_one_move(worker_context, site_url):
    page = worker_context().new_page()
    open_game(page, site_url)
    before = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    page.locator("#hand button.card.legal, #main-btn").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("([key, before]) => localStorage.getItem(key) !== before", arg=[SAVE_KEY, before])
    assert wait_state(page) in ("human", "chooser", "results", "gameover")


# Records, from the page's own scripts, each call that makes the browser work out the page's style
# and layout there and then, with the number of DOM writes still pending in the same task.
FORCED_JS = """
(() => {
  const seen = window.__forced = [];
  const writes = new MutationObserver(() => {});
  // A dialog's own open or close is the step itself, not a write before it (nor is the autofocus
  // that opens it on the control its batch asks for).
  const opening = (r) => r.type === "attributes" && ["open", "autofocus"].includes(r.attributeName);
  const pending = () => writes.takeRecords().filter((r) => !opening(r)).length;
  addEventListener("DOMContentLoaded", () => writes.observe(document.body,
    {subtree: true, childList: true, attributes: true, characterData: true}));
  const dialog = HTMLDialogElement.prototype;
  const calls = [[dialog, "showModal"], [dialog, "close"], [HTMLElement.prototype, "focus"],
    [Element.prototype, "getBoundingClientRect"], [Element.prototype, "scrollIntoView"]];
  // Set by a modal opening, cleared by the first timer after it: a call made meanwhile is in its task.
  let modalTask = false;
  for (const [proto, name] of calls) {
    const original = proto[name];
    proto[name] = function (...args) {
      if (document.body && document.body.dataset.ready === "1") seen.push([name, pending(), modalTask]);
      if (name === "showModal") {
        modalTask = true;
        setTimeout(() => { modalTask = false; }, 0);
      }
      return original.apply(this, args);
    };
  }
})();
"""


def test_dialogs_and_focus_wait_for_the_frame_that_shows_the_writes(worker_context, site_url):
    """A batch's writes go out in one task; its dialogs, focus and scrolling in a later one.

    Opening a dialog, moving the focus or measuring makes the browser lay the page out at once:
    done in the task that wrote the table (and a modal dialog restyles the whole page), every move
    made one long task, during which a tap got no answer (issue 26).
    """
    forced = forced_in_a_hand(worker_context, site_url)
    assert any(name == "showModal" for name, *_ in forced), forced
    assert any(name == "focus" for name, *_ in forced), forced
    assert [call for call in forced if call[1]] == [], f"forced in the task that wrote the table ({CODE})"


def test_a_modal_panel_opens_in_a_task_of_its_own(worker_context, site_url):
    """Opening a modal panel restyles the whole page (the rest turns inert): its batch's focus and
    scrolling wait for the next task, which would otherwise add their own work to that long one."""
    forced = forced_in_a_hand(worker_context, site_url)
    assert any(name == "showModal" for name, *_ in forced), forced
    assert [call for call in forced if call[2] and call[0] != "showModal"] == [], (
        f"measured or focused in the task that opened a panel ({CODE}): {forced}"
    )


def forced_in_a_hand(worker_context, site_url) -> list[list]:
    """FORCED_JS's record of a hand of CODE played to its results."""
    context = worker_context()
    context.add_init_script(FORCED_JS)
    page = context.new_page()
    open_game(page, site_url)
    for _ in range(150):
        if wait_state(page) in ("results", "gameover"):
            break
        play_a_move(page)
    assert wait_state(page) in ("results", "gameover"), f"the hand of {CODE} did not end"
    return page.evaluate("() => window.__forced")


FOCUS_LOG_JS = """
(() => {
  const log = window.__focusLog = [];
  const name = (el) => el.id || el.className || el.tagName;
  const note = (kind) => (event) => log.push([kind, name(event.target)]);
  addEventListener("focusin", note("in"), true);
  addEventListener("focusout", note("out"), true);
})();
"""
WARMED_JS = "(step) => window.ochoLocoProbe.warm.includes(step)"
TRACES_JS = """() => [document.querySelectorAll('.warm-up').length,
  document.querySelectorAll('dialog[open]').length,
  document.activeElement === document.body ? 'body' : document.activeElement.id]"""


# What each warm-up step lays out: the parts of a made-up results list in it (0: none).
LAID_OUT_JS = """
(() => {
  const laidOut = window.__laidOut = [];
  const measure = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    if (this.classList.contains("warm-up")) {
      const list = this.querySelector(".results-body");
      laidOut.push(list ? list.children.length : 0);
    }
    return measure.call(this);
  };
})();
"""


def test_the_page_warms_up_its_results_panel_while_python_starts_leaving_no_trace(worker_context, site_url):
    """The first results panel costs the browser the most: the page lays out a made-up one while it
    waits for Python, a part at a time (the end of the game, each player's row, the totals: the first
    time a text size is met is what costs), then the rest of the panel, each in an idle moment, and
    nothing of it is left: no element, no open panel, no focus moved."""
    page = worker_context().new_page()
    page.add_init_script(FOCUS_LOG_JS)
    page.add_init_script(LAID_OUT_JS)
    page.goto(site_url)
    page.wait_for_function(WARMED_JS, arg="panel")
    wait_for_python(page)
    assert page.evaluate("() => window.ochoLocoProbe.warm") == ["results", "panel"]
    parts = page.evaluate("() => document.getElementById('results-sample').content.children.length")
    assert page.evaluate("() => window.__laidOut") == [1] * parts + [0]  # then the panel around a list
    assert page.evaluate(TRACES_JS) == [0, 0, "deal-btn"]  # where the page itself puts it
    log = page.evaluate("() => window.__focusLog")
    assert [entry for entry in log if "warm-up" in entry[1]] == [], log


# PyScript's plugins for what this page never shows: code editors, terminals, games, its own notices.
UNUSED_PLUGINS = re.compile(r"/vendor/pyscript/(py-editor|py-terminal|py-game|donkey|deprecations-manager)-")


def test_pyscript_starts_without_the_plugins_the_page_never_uses(worker_context, site_url):
    """index.html's <py-config> and <mpy-config> turn them off: PyScript neither fetches nor runs
    them on the page (each was a module evaluated on the main thread while the page loads). Its
    error plugin stays."""
    page = worker_context().new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{site_url}#partida={CODE}&mesa=2")
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert [url for url in asked if UNUSED_PLUGINS.search(url)] == []
    assert [url for url in asked if "/vendor/pyscript/error-" in url], asked
