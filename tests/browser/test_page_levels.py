"""«Rival»: each CPU level plays a whole hand on the page, and the saved game keeps its level."""

from __future__ import annotations

import json

import pytest
from helpers import SAVE_KEY, boot, more_options, raw_save, saved_record, wait_for_python, wait_state
from test_page_play import play_hand

OPEN_KEY = "ocho-loco:opciones"  # "1" while «Más opciones» is left open
LETTERS = {"facil": "f1", "normal": "n1", "dificil": "d1"}  # the level and its CPU version


# In the page, the hard level (its search in slices of the timer); every level plays on the fake
# screen (tests/test_ui_levels.py) and in Pyodide (tests/test_pyodide.py).
@pytest.mark.parametrize("level", ["dificil"])
def test_each_level_plays_a_hand_and_is_kept_in_the_saved_game(level, fast_page, site_url):
    page = fast_page
    boot(page, site_url, "setup")
    more_options(page)
    page.check(f"#level-{level}")
    page.click("#deal-btn")
    wait_state(page, "human", "cpu")
    play_hand(page)
    raw = raw_save(page)
    assert raw is not None
    assert json.loads(raw)["record"].split(".")[2] == LETTERS[level]
    page.reload()
    wait_for_python(page)
    wait_state(page)
    assert (
        json.loads(page.evaluate("(k) => localStorage.getItem(k)", SAVE_KEY))["record"]
        == json.loads(raw)["record"]
    )
    assert page.locator(f"#level-{level}").is_checked(), "the table shows the game's level"
    if page.evaluate("() => document.body.dataset.state") != "gameover":
        assert page.locator(f"#level-{level}").is_disabled(), "no level change while the game goes on"


@pytest.mark.parametrize("how", ["mouse", "keys"])
def test_choosing_the_rival_after_the_table_size_keeps_the_size(how, fast_page, site_url):
    """«3 en la mesa», then «Más opciones» and «Difícil», then «Repartir» deals three players (it used to
    deal two); the rival chosen still applies with «Más opciones» folded again, and its summary says it."""
    page = fast_page
    boot(page, site_url, "setup")
    assert not page.evaluate("() => document.getElementById('more-options').open"), "a first visit: folded"
    assert not page.locator("#level-normal").is_visible() and page.locator("#deal-btn").is_visible()
    if how == "mouse":
        page.click("label:has(#mode-3)")
        more_options(page)
        page.click("label:has(#level-dificil)")
        page.click("#more-options > summary")  # folded again
    else:
        page.focus("#mode-2")
        page.keyboard.press("ArrowRight")  # the radio group moves to «3 en la mesa»
        page.keyboard.press("Tab")  # «Repartir»
        page.keyboard.press("Tab")  # «Aprende jugando» (a first visit)
        page.keyboard.press("Tab")  # «Más opciones»
        assert page.evaluate("() => document.activeElement.localName") == "summary"
        assert page.get_attribute("#more-options > summary", "aria-expanded") is None  # native state
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('more-options').open")
        page.keyboard.press("Tab")  # «Rival», on its checked «Normal»
        page.keyboard.press("ArrowRight")  # «Difícil»
        page.focus("#more-options > summary")
        page.keyboard.press("Space")  # folded again
    page.wait_for_function("() => document.querySelector('#level-dificil').checked")
    page.wait_for_function("() => !document.getElementById('more-options').open")
    # The summary follows the choice a moment later in the worker mode: wait for it.
    page.wait_for_function(
        "() => document.getElementById('more-summary').textContent.endsWith('(Rival: Difícil)')"
    )
    assert page.locator("#mode-3").is_checked(), "choosing the rival leaves the table size alone"
    page.click("#deal-btn")
    wait_state(page, "human", "cpu")
    record = saved_record(page)
    assert record.split(".")[1][1] == "3" and record.split(".")[2] == "d1", record


def test_mas_opciones_opens_as_the_player_last_left_it(fast_page, site_url):
    """A first visit finds «Más opciones» folded; a player who opened it finds it open on the next visit,
    from the first paint (before Python), and folded again once they fold it."""
    page = fast_page
    boot(page, site_url, "setup")
    more_options(page)
    page.wait_for_function(f"() => localStorage.getItem('{OPEN_KEY}') === '1'")  # the toggle event's
    page.reload()
    assert page.evaluate("() => document.getElementById('more-options').open"), "open from the first paint"
    wait_for_python(page)
    page.click("#more-options > summary")
    page.wait_for_function(f"() => localStorage.getItem('{OPEN_KEY}') === null")
    page.reload()
    wait_for_python(page)
    assert not page.evaluate("() => document.getElementById('more-options').open")
