"""A held key (issue 23, part 5): only its first press counts.

Holding Enter on «Otra partida» or «Partida del día» used to open the
question, answer it with the focused «Seguir con la mía» on the first
repeat, open it again on the next, and so on. Key events with ``repeat``
set never press a button or answer a question now. Playwright's
``keyboard.down`` on a key already down sends it with ``repeat`` set.
"""

from __future__ import annotations

from functools import partial

import pytest
from helpers import PLAIN_CODE, act, boot, link, more_options, open_panel, raw_save, state, wait_state

COUNT_CLOSES = """() => {
  window.__closed = 0;
  document.getElementById('replace-dialog').addEventListener('close', () => { window.__closed += 1; });
}"""


def focused(page) -> str:
    return page.evaluate("() => document.activeElement ? document.activeElement.id : ''")


@pytest.mark.parametrize("button", ["deal-btn", "daily-btn"], ids=["otra-partida", "partida-del-dia"])
def test_holding_enter_asks_once_and_answers_nothing(button, fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")  # a move: there is a game to lose
    saved = raw_save(page)
    page.evaluate(COUNT_CLOSES)
    open_panel(page, "setup")  # in play, both are on the «Opciones» sheet
    if button == "daily-btn":
        more_options(page)
    page.focus(f"#{button}")
    page.keyboard.down("Enter")
    assert wait_state(page, "replace") == "replace", PLAIN_CODE.pretty()
    for _ in range(3):
        page.keyboard.down("Enter")  # held: each of these is a repeat
    page.keyboard.up("Enter")
    assert page.evaluate("() => window.__closed") == 0, "a repeat answered the question"
    assert state(page) == "replace" and focused(page) == "replace-no"
    page.keyboard.press("Enter")  # a new press answers: «Seguir con la mía»
    assert wait_state(page, "human") == "human"
    # The panel's close event comes in a task of its own, after the close: wait for it, then count.
    page.wait_for_function("() => window.__closed >= 1")
    assert page.evaluate("() => window.__closed") == 1
    assert raw_save(page) == saved
