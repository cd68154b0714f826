"""Issue 47, «the seams a new player hits», at the five windows of its «Done when».

360×640 and 390×844 (phones), 1280×800, and 1280×800 at 200 % (640×400 CSS pixels) and 400 %
(320×200). One page a window walks the seams whose outcome depends on the window, in the order a new
player meets them, with axe (nothing serious or critical) in each state a seam concerns:

- seam 3: a fresh profile's first screen does not move (scrollY, «Repartir») when Python is ready;
- seam 6: the focus never falls to the page after «Repartir», after naming a suit and after «Saltar
  la cuenta», and the control that has it lies in the window under nothing else;
- seam 1: a game opened from a link (three players) shows no notice, and nothing lies over a seat,
  a card of the hand, the pile, the stock or the main button (each scrolled to, where the window
  scrolls: 200 % and 400 %);
- seams 2 and 5: an open sheet («Opciones», «Marcador», «Tus partidas», «Reglas») lies over neither
  its own bar button nor a card of the hand; where the window scrolls at 400 %, the hand is reached
  below the sheet instead.

The seams of words alone are tested once, where they are made, at no window: seam 4 (the loading
words and «salió primero») in tests/test_ui_ids.py and tests/test_ui_render.py, seam 7 (no nested
brackets in speech) in tests/test_review_words.py, and seam 1's words («Reparto del enlace», at most
8 words) in tests/test_ui_links.py. tests/browser/test_page_viewport.py checks the table owns the
screen (nothing over a seat, the pile, the stock, the main button) at 360×640 … 1920×1080.
"""

from __future__ import annotations

from functools import partial

import pytest
from axe_playwright_python.sync_playwright import Axe, AxeResults
from helpers import (
    FOCUS_SAMPLES_JS,
    SAVE_KEY,
    act,
    envelope,
    link,
    one_card_to_go_out,
    put_storage,
    reach,
    wait_for_python,
    wait_state,
)
from test_page_quality import SERIOUS

from engine.codes import GameCode

# name: (width, height, device scale): the zoomed windows are 1280×800 at 200 % and 400 %
WINDOWS = {
    "360x640": (360, 640, 1),
    "390x844": (390, 844, 1),
    "1280x800": (1280, 800, 1),
    "zoom-200": (640, 400, 2),
    "zoom-400": (320, 200, 4),
}
# Three players; your turn at the deal, with the 8 of diamonds playable among five cards.
LINK_CODE = GameCode.parse("A3HK-ATS5")
EIGHT = "8D"
SHEETS = ("setup", "marcador", "partidas", "textos")
# A window this short scrolls (400 %): an open sheet may hang over the hand, reached by scrolling.
SCROLLS = 300

# Every animation of the page has ended.
STILL_JS = "() => document.getAnimations().every((a) => a.playState === 'finished')"
TWO_FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

# What is wrong with the focus: on the page, out of the window, or under something else.
FOCUS_FAULT_JS = """() => {
  const on = document.activeElement;
  if (!on || on === document.body) return 'on the page';
  const name = on.id ? '#' + on.id
    : on.tagName.toLowerCase() + (on.dataset.card ? '[' + on.dataset.card + ']' : '');
  const r = on.getBoundingClientRect();
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  if (right - left < 1 || bottom - top < 1) {
    return name + ' out of the window at ' + [r.left, r.top, r.right, r.bottom].map(Math.round);
  }
  const at = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
  if (!at || !(on.contains(at) || at.contains(on))) {
    return name + ' under ' + (at ? at.id || at.className : 'nothing');
  }
  return '';
}"""

# What lies over a part a turn needs, each part scrolled into the window first (the window scrolls
# at 200 % and 400 %): the element at its centre is not it nor inside it (the hand's cards may lie
# over each other: a card's centre shows a card of the hand).
COVERED_JS = """() => {
  const describe = (e) => e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + [...e.classList].join('.')
    + (e.dataset.card ? '[' + e.dataset.card + ']' : '');
  const parts = [...document.querySelectorAll('#opponents .opponent .opp-name')].map((e) => [e, e])
    .concat(['stock', 'main-btn', 'pile'].map((id) => document.getElementById(id)).map((e) => [e, e]))
    .concat([...document.querySelectorAll('#hand .card')].map((e) => [e, document.getElementById('hand')]));
  const out = [];
  for (const [part, owner] of parts) {
    part.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
    const r = part.getBoundingClientRect();
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!top || !(owner.contains(top) || top.contains(part))) {
      out.push(describe(part) + ' under ' + (top ? describe(top) : 'nothing'));
    }
  }
  scrollTo(0, 0);
  return out;
}"""

# What an open sheet lies over: its own bar button, any card of the hand (rectangles that meet).
SHEET_FAULTS_JS = """(id) => {
  const sheet = document.getElementById(id).getBoundingClientRect();
  const meets = (r) => r.left < sheet.right - 1 && r.right > sheet.left + 1 && r.top < sheet.bottom - 1
    && r.bottom > sheet.top + 1;
  const faults = [];
  const button = document.querySelector(`.bar-btn[aria-controls="${id}"]`);
  if (meets(button.getBoundingClientRect())) faults.push('its button');
  for (const card of document.querySelectorAll('#hand .card')) {
    if (meets(card.getBoundingClientRect())) faults.push(card.dataset.card);
  }
  return faults;
}"""
# The hand reached by scrolling, the sheet still open: a card's centre shows the card.
REACH_JS = """() => {
  const card = document.querySelector('#hand .card');
  card.scrollIntoView({block: 'center'});
  const r = card.getBoundingClientRect();
  return card.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
}"""


AXE = Axe()


def axe_problems(page, *parts: str) -> list[str]:
    """test_page_quality.axe_problems (serious and critical only), with axe injected once a page
    load rather than once a scan, and limited to ``parts`` (selectors) when named: an open sheet is
    scanned with the bar, the rest of the table having been scanned just before."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    context = {"include": [[part] for part in parts]} if parts else None
    results = AxeResults(
        page.evaluate("([context]) => axe.run(context || document, {resultTypes: ['violations']})", [context])
    )
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") in SERIOUS:
            targets = [" ".join(map(str, n.get("target", []))) for n in violation["nodes"]]
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets[:5]}")
    return found


def on_body(page) -> list[str]:
    return page.evaluate("() => window.__onBody")


@pytest.mark.parametrize("window", list(WINDOWS))
def test_the_seams_a_new_player_hits_at_each_window(window, browser, site_url_prefixed):
    width, height, scale = WINDOWS[window]
    base = site_url_prefixed
    context = browser.new_context(
        locale="es-ES",
        reduced_motion="reduce",
        viewport={"width": width, "height": height},
        device_scale_factor=scale,
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    found: list[str] = []
    axe: dict[str, list[str]] = {}

    def focus_fault(where: str) -> None:
        page.evaluate(TWO_FRAMES_JS)
        samples = on_body(page)
        if samples:
            found.append(f"{where}: the focus fell to the page ({samples})")
        fault = page.evaluate(FOCUS_FAULT_JS)
        if fault:
            found.append(f"{where}: the focus is {fault}")

    try:
        # Seam 3: a fresh profile's first screen, as painted and once Python is ready.
        page.goto(base)
        page.wait_for_selector("#deal-btn")
        page.evaluate(TWO_FRAMES_JS)  # painted
        read = "() => [scrollY, Math.round(document.getElementById('deal-btn').getBoundingClientRect().top)]"
        painted = page.evaluate(read)
        wait_for_python(page)
        wait_state(page, "setup")
        page.evaluate(TWO_FRAMES_JS)
        ready = page.evaluate(read)
        if ready != painted:
            found.append(
                f"first screen: scrollY and «Repartir»'s top {painted} when painted, {ready} once ready"
            )
        if page.evaluate("() => document.activeElement.id") != "deal-btn":
            found.append("first screen: «Repartir» has not the focus")
        axe["first screen"] = axe_problems(page)

        # Seam 6: «Repartir» by keyboard.
        page.evaluate(FOCUS_SAMPLES_JS)
        page.focus("#deal-btn")
        page.keyboard.press("Enter")
        wait_state(page, "human", "cpu")
        focus_fault("after «Repartir»")

        # Seam 1: a game opened from a link, on a fresh table.
        put_storage(page, base, {})
        page.goto(link(base, LINK_CODE))
        wait_for_python(page)
        wait_state(page, "human")
        if page.locator("#notice").is_visible():
            found.append(f"link {LINK_CODE.pretty()}: a notice shows over the table")
        found += [f"link {LINK_CODE.pretty()}: {f}" for f in page.evaluate(COVERED_JS)]
        axe["table from a link"] = axe_problems(page)

        # Seams 2 and 5: each sheet, opened from its button by keyboard.
        for sheet in SHEETS:
            page.focus(f'.bar-btn[aria-controls="{sheet}"]')
            page.keyboard.press("Enter")
            page.wait_for_selector(f"#{sheet}.open")
            faults = page.evaluate(SHEET_FAULTS_JS, sheet)
            if height < SCROLLS:  # the page scrolls: the hand is reached below the sheet
                faults = [f for f in faults if f == "its button"]
                if not page.evaluate(REACH_JS):
                    faults.append("the hand, scrolled to")
            found += [f"«{sheet}» lies over {f}" for f in faults]
            axe[f"«{sheet}» open"] = axe_problems(page, f"#{sheet}", ".table-bar")
            page.keyboard.press("Escape")
            page.wait_for_selector(f"#{sheet}:not(.open)", state="attached")

        # Seam 6: an 8 played by keyboard, its suit named by keyboard.
        page.focus(f'#hand button[data-card="{EIGHT}"]')
        page.keyboard.press("Enter")
        wait_state(page, "chooser")
        axe["suit chooser"] = axe_problems(page)
        page.evaluate(FOCUS_SAMPLES_JS)
        page.focus("#suit-dialog button[data-suit]")
        page.keyboard.press("Enter")
        wait_state(page, "human", "results")
        focus_fault(f"link {LINK_CODE.pretty()}, after naming a suit")

        # Seam 6: «Saltar la cuenta» (the count runs only with motion).
        game = reach(one_card_to_go_out)
        put_storage(page, base, {SAVE_KEY: envelope(game)})
        page.emulate_media(reduced_motion="no-preference")
        page.goto(base)
        wait_for_python(page)
        wait_state(page, "human")
        page.focus(f'#hand button[data-card="{game.legal_cards()[0]}"]')
        act(page, partial(page.keyboard.press, "Enter"), "results", "gameover")
        page.wait_for_selector("#results-skip:focus")
        page.evaluate(FOCUS_SAMPLES_JS)
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('results-skip').hidden")
        focus_fault(f"game {game.code.pretty()}, after «Saltar la cuenta»")
        page.wait_for_function(STILL_JS)  # the panel's own fade-in: axe reads the colours it ends with
        axe["results"] = axe_problems(page)
    finally:
        context.close()
    found += [f"axe, {where}: {problems}" for where, problems in axe.items() if problems]
    assert found == [], f"{window}:\n" + "\n".join(found)
