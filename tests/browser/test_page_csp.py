"""The page's Content-Security-Policy and its picture of the table, in Chromium.

A returning player's table is drawn at first paint from a picture stored in
localStorage, which any page of the same origin can write (on GitHub Pages,
every project page of the same owner). The picture is data rebuilt with DOM
methods, never HTML, and the policy (``<meta http-equiv>``, hashes written by
tools/build.py) refuses inline event handlers and scripts from elsewhere. The
game itself must boot and play under the policy without a single violation,
through the service worker too.

Violations are recorded from ``securitypolicyviolation`` events (an init
script), besides the console.
"""

from __future__ import annotations

import json

import pytest
from helpers import SAVE_KEY, boot, play_a_move, wait_controlled, wait_for_python, wait_state

CODE = "A2C6-P4JZ"  # a 1-against-1 deal
PICTURE_KEY = "ocho-loco:dibujo"
OLD_PICTURE_KEY = "ocho-loco:mesa-html"  # the first version stored the table as HTML
HAND_JS = "() => [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card)"
RECORD_VIOLATIONS = """
window.ochoLocoViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.ochoLocoViolations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""
VIOLATIONS_JS = "() => window.ochoLocoViolations"


@pytest.fixture
def ctx(ctx):
    """The shared reduced-motion 1280×800 context (conftest), recording CSP violations."""
    ctx.add_init_script(RECORD_VIOLATIONS)
    return ctx


def csp_console(messages: list[str]) -> list[str]:
    return [m for m in messages if "Content Security Policy" in m or "Content-Security-Policy" in m]


def test_the_game_boots_and_plays_under_its_policy_without_a_violation(ctx, site_url_prefixed):
    page = ctx.new_page()
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{site_url_prefixed}#partida={CODE}&mesa=2")
    wait_for_python(page)
    assert page.evaluate("() => !!document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]')")
    assert wait_state(page) == "human", f"code {CODE}"
    play_a_move(page)
    wait_state(page, "human")
    wait_controlled(page)  # the service worker registered and installed under the policy
    assert page.evaluate(VIOLATIONS_JS) == [], f"code {CODE}"

    page.reload()  # through the worker, with the stored picture drawn at first paint
    wait_for_python(page)
    assert wait_state(page) == "human", f"code {CODE}"
    play_a_move(page)
    assert page.evaluate(VIOLATIONS_JS) == [], f"code {CODE}"
    page.wait_for_function("(key) => localStorage.getItem(key) !== null", arg=PICTURE_KEY)
    prefs = page.evaluate("() => localStorage.getItem('ocho-loco:mesa')")
    assert prefs in (None, "2"), f"the picture must not take the table size's key (it holds {prefs!r})"
    assert csp_console(console) == []
    assert errors == []


def malicious_pictures(save: str, picture: str | None) -> dict[str, str]:
    """The issue's HTML picture under the old key, and the stored data picture plus an ``<img onerror>``."""
    bad = {
        OLD_PICTURE_KEY: json.dumps({"save": save, "board": "<img src=x onerror='window.ochoLocoPwned = 1'>"})
    }
    if picture is not None:  # (a page from before the fix stores only the old key)
        data = json.loads(picture)
        data["parts"]["hand"]["c"].append(["img", {"src": "x", "onerror": "window.ochoLocoPwned = 1"}])
        bad[PICTURE_KEY] = json.dumps(data)
    return bad


def test_a_stored_picture_with_script_does_not_run_and_the_game_still_starts(ctx, site_url_prefixed):
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{site_url_prefixed}#partida={CODE}&mesa=2")
    wait_for_python(page)
    wait_state(page, "human")
    play_a_move(page)
    wait_state(page, "human")
    page.wait_for_function(
        "([save, keys]) => keys.some((key) =>"
        " (JSON.parse(localStorage.getItem(key) || 'null') || {}).save === localStorage.getItem(save))",
        arg=[SAVE_KEY, [PICTURE_KEY, OLD_PICTURE_KEY]],
    )
    cards = page.evaluate(HAND_JS)
    save = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    picture = page.evaluate("(key) => localStorage.getItem(key)", PICTURE_KEY)
    for key, value in malicious_pictures(save, picture).items():
        page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, value])

    for attempt in range(2):  # the bad pictures are dropped once, not met on every load
        page.reload(wait_until="load")  # after "load", an <img src=x> has failed and any onerror has run
        assert page.evaluate("() => window.ochoLocoPwned") is None, (
            f"load {attempt + 1}: the stored picture ran script"
        )
        assert page.query_selector("#hand") is not None, "the table's own elements are never replaced"
        wait_for_python(page)
        assert wait_state(page) == "human", f"code {CODE}, load {attempt + 1}"
        assert page.evaluate(HAND_JS) == cards, f"code {CODE}: Python drew the table from the save"
        assert page.evaluate("(key) => localStorage.getItem(key)", OLD_PICTURE_KEY) is None
        stored = page.evaluate("(key) => localStorage.getItem(key)", PICTURE_KEY) or ""
        assert "onerror" not in stored

    # An element with an inline handler put into the page by script: the policy refuses the handler.
    page.evaluate(
        """() => new Promise((done) => {
            const img = document.createElement("img");
            img.setAttribute("onerror", "window.ochoLocoPwned = 1");
            img.addEventListener("error", () => setTimeout(done, 0));  // a listener, not inline: allowed
            img.src = "no-such-picture.png";
            document.getElementById("hand").append(img);
        })"""
    )
    assert page.evaluate("() => window.ochoLocoPwned") is None
    assert any(v.startswith("script-src-attr") for v in page.evaluate(VIOLATIONS_JS))
    play_a_move(page)
    assert errors == []


def test_a_picture_that_is_not_data_is_ignored_and_removed(ctx, site_url_prefixed):
    page = ctx.new_page()
    page.goto(f"{site_url_prefixed}#partida={CODE}&mesa=2")
    wait_for_python(page)
    wait_state(page, "human")
    wait_controlled(page)
    save = page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY)
    for bad in (
        "{not json",
        json.dumps({"save": save, "parts": {"hand": {"a": {}, "c": [["script", {}, "x"]]}}}),
    ):
        page.evaluate("([key, value]) => localStorage.setItem(key, value)", [PICTURE_KEY, bad])
        page.goto(site_url_prefixed, wait_until="commit")
        page.wait_for_function("() => document.readyState !== 'loading'")
        assert page.evaluate("() => window.ochoLocoProbe.picture") is not True, bad
        assert page.evaluate("(key) => localStorage.getItem(key)", PICTURE_KEY) != bad, "removed"
        wait_for_python(page)
        assert wait_state(page) == "human", f"code {CODE}"
        assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) == save


INJECT = """() => new Promise((done) => {
    const box = document.createElement("div");
    box.id = "injected";
    const py = (form) => `import js; js.window.ochoLocoPwned = "${form}"`;
    box.innerHTML = `<script type="py">${py("script type=py")}</script>`
      + `<script type="mpy">${py("script type=mpy")}</script>`
      + `<py-script>${py("py-script")}</py-script>`
      + `<mpy-script>${py("mpy-script")}</mpy-script>`
      + `<button type="button" py-click="print">py-click</button>`
      + `<button type="button" mpy-click="print">mpy-click</button>`;
    document.body.append(box);
    const made = document.createElement("script");  // a script element made and added by script
    made.type = "py";
    made.textContent = py("createElement");
    document.body.append(made);
    const there = document.getElementById("deal-btn");  // an attribute put on an element already there
    there.setAttribute("py-click", "print");
    setTimeout(() => done([...box.querySelectorAll("button")].map((b) => b.disabled)), 0);
})"""


def test_python_written_into_the_page_runs_nothing(ctx, site_url_prefixed):
    """Issue 38, item 3: PyScript's discovery of markup is off in the page's (worker) mode.

    Had PyScript's observer seen the injected nodes, it would disable the buttons with a ``py-*`` or
    ``mpy-*`` attribute at once (until an interpreter is ready) and start Python on this thread.
    """
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    assert boot(page, f"{site_url_prefixed}#partida={CODE}&mesa=2", "human") == "human", f"code {CODE}"
    disabled = page.evaluate(INJECT)
    assert disabled == [False, False], "PyScript saw the injected py-*/mpy-* attributes"
    for button in page.locator("#injected button").all():
        button.click()
    play_a_move(page)  # a round trip through the worker after the injection
    wait_state(page, "human")
    assert page.evaluate("() => window.ochoLocoPwned") is None
    assert (
        page.evaluate("() => document.querySelectorAll('script-py, mpy-script[id], py-script[id]').length")
        == 0
    )
    assert errors == [], "a py-click listener looked for an interpreter"
