"""«Rival»: each CPU level plays a whole hand on the page, and the saved game keeps its level."""

from __future__ import annotations

import json

import pytest
from conftest import wait_for_python
from helpers import SAVE_KEY, boot, raw_save, wait_state
from test_page_play import play_hand

LETTERS = {"facil": "f1", "normal": "n1", "dificil": "d1"}  # the level and its CPU version


@pytest.mark.parametrize("level", ["facil", "normal", "dificil"])
def test_each_level_plays_a_hand_and_is_kept_in_the_saved_game(level, fast_page, site_url):
    page = fast_page
    boot(page, site_url, "setup")
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
    """«3 en la mesa», then «Difícil», then «Repartir» deals three players (it used to deal two)."""
    page = fast_page
    boot(page, site_url, "setup")
    if how == "mouse":
        page.click("label:has(#mode-3)")
        page.click("label:has(#level-dificil)")
    else:
        page.focus("#mode-2")
        page.keyboard.press("ArrowRight")  # the radio group moves to «3 en la mesa»
        page.focus("#level-normal")
        page.keyboard.press("ArrowRight")  # «Difícil»
    page.wait_for_function("() => document.querySelector('#level-dificil').checked")
    assert page.locator("#mode-3").is_checked(), "choosing the rival leaves the table size alone"
    page.click("#deal-btn")
    wait_state(page, "human", "cpu")
    record = json.loads(raw_save(page) or "{}")["record"]
    assert record.split(".")[1][1] == "3" and record.split(".")[2] == "d1", record
