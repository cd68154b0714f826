"""A click made on the stored picture of the table before Python was ready (Table.early_click).

index.html remembers at most one click; assets/page.js sends it with the start
call (``early``) and the worker hands it to the table once the save is loaded.
It is applied like a live click when it still fits the position, and
otherwise ignored with a message.
"""

from __future__ import annotations

from fake_screen import make_table
from support import position

from engine import save
from engine.game import Game
from ui.storage import MemoryBackend
from ui.table import EARLY_CLICK_IGNORED


def resumed(game: Game):
    """A table showing ``game`` (a hand-made position, so it is put on the table, not loaded)."""
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    table.game = game
    table.resume()
    table._save()
    return table, screen, backend


def test_an_early_click_on_a_legal_card_plays_it_once():
    table, screen, _backend = resumed(position(["3C 7H", "4D 5D"], pile="9H"))
    table.early_click("7H")
    assert table.game is not None
    assert screen.hand_cards() == ["3C"]
    assert len(table.game.hands[0]) == 1
    assert screen.body == "cpu"


def test_an_early_click_on_a_card_that_does_not_fit_is_refused_with_the_reason():
    table, screen, backend = resumed(position(["3C 7H", "4D 5D"], pile="9H"))
    before = backend.getItem("ocho-loco:partida")
    table.early_click("3C")
    assert screen.last_status == "No vale: hace falta un corazón, un 9 o un 8."
    assert backend.getItem("ocho-loco:partida") == before


def test_an_early_click_that_no_longer_applies_is_ignored_with_a_message():
    game = position(["3C 7H", "4D 5D"], pile="9H", turn=1)  # the CPU is on turn
    table, screen, _backend = resumed(game)
    before = save.dump(game)
    table.early_click("7H")
    assert screen.last_status == EARLY_CLICK_IGNORED
    table.early_click("QS")  # not in the hand (a picture older than the save)
    assert screen.last_status == EARLY_CLICK_IGNORED
    assert table.game is not None and save.dump(table.game) == before


def test_an_early_click_on_robar_draws():
    table, screen, _backend = resumed(position(["3C 7H", "4D 5D"], pile="9H", stock="KS 2D"))
    table.early_click(None)
    assert table.game is not None
    assert len(table.game.hands[0]) == 3
    assert len(screen.hand_cards()) == 3


def test_an_early_click_without_a_game_is_ignored_with_a_message():
    table, screen, _backend = make_table()
    table.early_click("7H")
    assert screen.last_status == EARLY_CLICK_IGNORED
    assert table.game is None


def test_table_size_and_rival_checked_early_are_kept_for_the_next_game():
    table, screen, backend = make_table()
    table.bar.early_choice(3, "dificil")
    assert screen.attrs[("mode-3", "checked")] == "" and ("mode-2", "checked") not in screen.attrs
    assert screen.attrs[("level-dificil", "checked")] == ""
    table.request_deal(table.setup.players)
    assert table.game is not None and table.game.players == 3 and table.level == "dificil"
    again, _screen, _ = make_table(backend)  # and they are the player's preferences from now on
    assert (again.setup.players, again.setup.level) == (3, "dificil")


def test_a_choice_made_early_never_changes_a_game_under_way():
    table, _screen, _backend = resumed(position(["3C 7H", "4D 5D"], pile="9H"))
    level = table.level
    table.bar.early_choice(3, "facil" if level != "facil" else "dificil")
    assert table.game is not None and table.game.players == 2 and table.level == level
    assert table.setup.players == 2


def test_an_unknown_level_from_the_early_page_is_ignored():
    table, _screen, _backend = make_table()
    table.bar.early_choice(2, "imposible")
    assert table.setup.level == "normal"
