"""«Rival: Fácil · Normal · Difícil» on the page: chosen between games, kept by each game, in its record."""

from __future__ import annotations

import json

from fake_screen import make_table
from support import reach

from engine.bots import make_level_bot
from engine.game import PLAYING
from ui.storage import SAVE_KEY, MemoryBackend, Store
from ui.table import SEARCH_SLICE


def test_the_level_is_chosen_between_games_remembered_and_kept_in_the_record() -> None:
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    assert table.level_choice == "normal" and screen.get_attr("level-normal", "checked") == ""
    table.choose_level("dificil")
    assert Store(backend).level() == "dificil", "remembered with the player's preferences"
    table.request_deal(2)
    assert table.level == "dificil"
    assert json.loads(backend.data[SAVE_KEY])["record"].split(".")[2] == "d"
    assert screen.get_attr("level-choice", "disabled") == "", "no level change during a game"
    assert "rival Difícil" in screen.texts["table-now"]
    table.choose_level("facil")  # refused while the game goes on
    assert table.level == "dificil"
    again, screen2, _ = make_table(backend)
    assert again.level == "dificil", "a reload keeps the game's level"
    assert screen2.get_attr("level-dificil", "checked") == ""


def test_unknown_levels_change_nothing() -> None:
    table, _screen, backend = make_table()
    table.choose_level("imposible")
    assert table.level_choice == "normal" and Store(backend).level() == "normal"


def test_the_hard_cpu_thinks_in_slices_and_plays_what_its_search_chooses() -> None:
    game = reach(lambda g: g.phase == PLAYING and g.turn == 1 and len(g.legal_actions()) > 2)
    expected = make_level_bot("dificil").choose(game.view(1))
    table, screen, _ = make_table()
    table.level = "dificil"
    table.game = game
    before = len(game.history)
    table.resume()
    slices = 0
    while len(game.history) == before:
        assert screen.run_one(), "the CPU keeps thinking until it plays"
        slices += 1
    assert game.history[before].action == expected, "sliced or in one go, the same move"
    assert slices >= 1 and SEARCH_SLICE > 0
    assert screen.cpu_ms, "the whole decision's time is reported once it is made"
