"""«Rival: Fácil · Normal · Difícil» on the page: chosen between games, kept by each game, in its record."""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest
from fake_screen import FakeScreen, make_table
from support import play_out, reach

from engine.bots import make_level_bot
from engine.codes import GameCode
from engine.daily import daily_code
from engine.game import GAME_OVER, PLAYING, Game
from engine.view import seat_view
from ui.cpu import SEARCH_SLICE
from ui.prefs import Setup
from ui.storage import SAVE_KEY, MemoryBackend, Store
from ui.table import Table


def test_the_level_is_chosen_between_games_remembered_and_kept_in_the_record() -> None:
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    assert table.setup.level == "normal" and screen.get_attr("level-normal", "checked") == ""
    table.bar.choose_level("dificil")
    assert Store(backend).setup().level == "dificil", "remembered with the player's preferences"
    table.request_deal(2)
    assert table.level == "dificil"
    assert json.loads(backend.data[SAVE_KEY])["record"].split(".")[2] == "d1"  # Difícil, CPU version 1
    assert screen.get_attr("level-choice", "disabled") == "", "no level change during a game"
    assert "rival Difícil" in screen.texts["table-now"]
    table.bar.choose_level("facil")  # refused while the game goes on
    assert table.level == "dificil"
    again, screen2, _ = make_table(backend)
    assert again.level == "dificil", "a reload keeps the game's level"
    assert screen2.get_attr("level-dificil", "checked") == ""


def test_unknown_levels_change_nothing() -> None:
    table, _screen, backend = make_table()
    table.bar.choose_level("imposible")
    assert table.setup.level == "normal" and Store(backend).setup().level == "normal"


def test_the_hard_cpu_thinks_in_slices_and_plays_what_its_search_chooses() -> None:
    game = reach(lambda g: g.phase == PLAYING and g.turn == 1 and len(g.legal_actions()) > 2)
    expected = make_level_bot("dificil").choose(seat_view(game, 1))
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


DAY = "2026-03-14"


@functools.cache
def _finished(players: int) -> Game:
    """A finished game of ``players`` (played once; dealing a new one over it leaves it as it is)."""
    finished = Game.new(GameCode.random(players, random.Random(players)))
    play_out(finished, random.Random(players))
    assert finished.phase == GAME_OVER
    return finished


def _dealt_from_the_radios(table: Table, screen: FakeScreen, *, daily: bool = False) -> None:
    """«Repartir» (or «Partida del día») as the page does it: the size is read from the radio checked."""
    players = 3 if screen.get_attr("mode-3", "checked") == "" else 2
    if daily:
        table.daily.request(players)
    else:
        table.request_deal(players)


@pytest.mark.parametrize("order", list(itertools.permutations(("size", "level", "pace"))))
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("level", ["facil", "normal", "dificil"])
@pytest.mark.parametrize("pace", ["pausado", "rapido"])
@pytest.mark.parametrize("deal", ["repartir", "daily"])
@pytest.mark.parametrize("after_a_game", [False, True])
def test_every_setup_choice_in_any_order_deals_the_table_chosen(
    order: tuple[str, ...], players: int, level: str, pace: str, *, deal: str, after_a_game: bool
) -> None:
    """Size, «Rival» and «Ritmo» in any order, then «Repartir» or «Partida del día»: the game
    dealt has the size, level and pace chosen, and the daily deal the day's code for that size."""
    backend = MemoryBackend()
    screen = FakeScreen()
    table = Table(screen, Store(backend), fast=True, rng=random.Random(1), today=lambda: DAY)
    table.start("", "https://example.org/ocho/")
    if after_a_game:  # a finished game of the other size is still on the table
        table.game = _finished(5 - players)
    steps = {
        "size": lambda: table.bar.choose_size(players),
        "level": lambda: table.bar.choose_level(level),
        "pace": lambda: table.bar.set_pace(pace),
    }
    for step in order:
        steps[step]()
        if step == "size":
            assert "Mesa: " in screen.last_status, "choosing the size is said, as choosing the rival is"
    checked = "mode-3" if players == 3 else "mode-2"
    assert screen.get_attr(checked, "checked") == "", f"{order}: the size radio keeps the choice"
    # Folded under «Más opciones», a choice that is not the usual one is still named on the page.
    summary = screen.texts["more-summary"]
    assert summary.startswith("Más opciones") and ("Rival: " in summary) == (level != "normal"), summary
    assert "Ritmo: " in summary, summary
    _dealt_from_the_radios(table, screen, daily=deal == "daily")
    game = table.game
    assert game is not None and game.phase == PLAYING
    assert (game.players, table.level, table.setup.pace) == (players, level, pace), order
    if deal == "daily":
        code = daily_code(DAY, players)
        assert game.code == code, f"{order}: the day's code {code.pretty()}, dealt {game.code.pretty()}"
    again, _screen2, _ = make_table(backend)
    assert again.setup == Setup(players, level, pace), order


def test_mas_opciones_names_the_folded_choices_only_when_they_are_not_the_usual_ones() -> None:
    """#25 item 2: «Rival» and «Ritmo» fold under «Más opciones», whose summary says what they are."""
    table, screen, _ = make_table()
    assert screen.texts["more-summary"] == "Más opciones", "a first visit: nothing to name"
    table.bar.choose_level("dificil")
    assert screen.texts["more-summary"] == "Más opciones (Rival: Difícil)"
    table.bar.set_pace("pausado")
    assert screen.texts["more-summary"] == "Más opciones (Rival: Difícil, Ritmo: Pausado)"
    table.request_deal(2)
    assert table.level == "dificil", "a folded choice still applies"
    # During a game its level is on the bar already («Partida en curso: …, rival Difícil»).
    assert screen.texts["more-summary"] == "Más opciones (Ritmo: Pausado)"
    table.bar.set_pace("normal")
    assert screen.texts["more-summary"] == "Más opciones"
