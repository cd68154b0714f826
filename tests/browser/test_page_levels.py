"""«Rival»: each CPU level plays a whole hand on the page, and the saved game keeps its level."""

from __future__ import annotations

import json

import pytest
from conftest import wait_for_python
from helpers import SAVE_KEY, boot, raw_save, wait_state
from test_page_play import play_hand

LETTERS = {"facil": "f", "normal": "n", "dificil": "d"}


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
