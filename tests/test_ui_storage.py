"""The saved game in localStorage (:mod:`ui.storage`): every failure becomes a notice.

A save that cannot be read is moved aside, never deleted; a browser that
refuses to store lets the game go on; no storage at all is said once.
"""

from __future__ import annotations

import json

import pytest
from fake_screen import FakeScreen, make_table
from support import position

from engine import save
from engine.codes import GameCode
from engine.game import Game
from ui.storage import (
    ASIDE_PREFIX,
    MAX_ASIDE,
    NOTICE_FULL,
    NOTICE_NO_STORAGE,
    PREFS_KEY,
    SAVE_KEY,
    MemoryBackend,
    Store,
)
from ui.table import Table

CODE = GameCode.build(2, "K7QM9")


class FullBackend(MemoryBackend):
    """Storage that reads fine but refuses to write (quota exceeded)."""

    def __init__(self) -> None:
        super().__init__()
        self.full = True

    def setItem(self, key: str, value: str) -> None:
        if self.full:
            raise OSError("QuotaExceededError")
        super().setItem(key, value)


class BrokenBackend(MemoryBackend):
    """Storage that throws on every call (disabled by the browser mid-session)."""

    def getItem(self, key: str) -> str | None:
        raise OSError("SecurityError")

    def setItem(self, key: str, value: str) -> None:
        raise OSError("SecurityError")

    def removeItem(self, key: str) -> None:
        raise OSError("SecurityError")


def record(game_data: object, **changes: object) -> str:
    data: dict[str, object] = {"app": "ocho-loco", "version": 1, "game": game_data, "ui": {"chooser": None}}
    data.update(changes)
    return json.dumps(data)


def test_memory_backend_round_trip_restores_the_game_exactly() -> None:
    backend = MemoryBackend()
    game = Game.new(CODE)
    game.apply(game.legal_actions()[-1])  # draw: a mid-turn position
    store = Store(backend)
    assert store.save(game) is True
    assert store.notice is None
    loaded = Store(backend).load()
    assert loaded is not None
    again, chooser = loaded
    assert save.dump(again) == save.dump(game)
    assert chooser is None
    assert json.loads(backend.data[SAVE_KEY])["app"] == "ocho-loco"
    backend.removeItem("missing")  # removing a missing key is fine, like localStorage


def test_nothing_saved_loads_as_none_without_a_notice() -> None:
    store = Store(MemoryBackend())
    assert store.load() is None and store.notice is None


def test_open_chooser_round_trips_only_for_a_playable_eight() -> None:
    game = position(["8S 3C 4D", "5D 6D"], pile="9H")
    backend = MemoryBackend()
    Store(backend).save(game, "8S")
    loaded = Store(backend).load()
    assert loaded is not None and loaded[1] == "8S" and save.dump(loaded[0]) == save.dump(game)
    for bad in ["3C", "8H", "ZZ", 7, ["8S"]]:
        backend.setItem(SAVE_KEY, record(save.dump(game), ui={"chooser": bad}))
        loaded = Store(backend).load()
        assert loaded is not None and loaded[1] is None, bad
    last = position(["8S", "5D 6D"], pile="9H")
    Store(backend).save(last, "8S")
    loaded = Store(backend).load()
    assert loaded is not None and loaded[1] is None, "a last 8 never waits for a suit"
    cpu_turn = position(["8S 3C", "5D 6D"], pile="9H", turn=1)
    Store(backend).save(cpu_turn, "8S")
    loaded = Store(backend).load()
    assert loaded is not None and loaded[1] is None


BAD_SAVES = {
    "corrupt_json": ("{not json", "Los datos no se pueden leer."),
    "not_an_object": ("[1, 2, 3]", "no son una partida de Ocho Loco"),
    "wrong_app": (record({}, app="otra-app"), "no son una partida de Ocho Loco"),
    "wrong_version": (record({}, version=2), "otra versión"),
    "version_true": (record({}, version=True), "otra versión"),
    "engine_save_error": (record({"format": "ocho-loco/save", "version": 1}), "Falta el dato"),
    "cards_missing": ("ENGINE_MISSING_CARD", "faltan cartas"),
    "deeply_nested": ("[" * 100_000 + "]" * 100_000, "Los datos no se pueden leer."),
}


@pytest.mark.parametrize("name", list(BAD_SAVES))
def test_unreadable_save_is_set_aside_with_a_spanish_notice(name: str) -> None:
    raw, reason = BAD_SAVES[name]
    if raw == "ENGINE_MISSING_CARD":
        data = save.dump(Game.new(CODE))
        data["stock"] = data["stock"][1:]
        raw = record(data)
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, raw)
    store = Store(backend)
    assert store.load() is None
    assert backend.getItem(ASIDE_PREFIX + "1") == raw, "the raw text is kept, byte for byte"
    assert backend.getItem(SAVE_KEY) is None
    assert store.notice is not None
    assert store.notice.startswith("La partida guardada no se ha podido abrir")
    assert reason in store.notice
    assert "aparte" in store.notice


def test_set_aside_slots_fill_up_then_the_last_one_is_reused() -> None:
    backend = MemoryBackend()
    for n in range(1, MAX_ASIDE + 3):
        backend.setItem(SAVE_KEY, f"broken {n}")
        assert Store(backend).load() is None
    stored = [backend.getItem(ASIDE_PREFIX + str(n)) for n in range(1, MAX_ASIDE + 1)]
    assert stored[:4] == ["broken 1", "broken 2", "broken 3", "broken 4"]
    assert stored[4] == f"broken {MAX_ASIDE + 2}"
    assert backend.getItem(ASIDE_PREFIX + str(MAX_ASIDE + 1)) is None


def test_page_with_a_corrupt_save_shows_the_notice_and_waits_to_deal() -> None:
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, "{oops")
    table, screen, _ = make_table(backend)
    assert screen.body == "setup" and backend.getItem(SAVE_KEY) is None
    assert screen.last_notice is not None and "aparte" in screen.last_notice
    assert backend.getItem(ASIDE_PREFIX + "1") == "{oops"
    table.request_deal(2)
    assert table.game is not None
    assert json.loads(backend.data[SAVE_KEY])["game"] == save.dump(table.game)
    assert backend.getItem(ASIDE_PREFIX + "1") == "{oops", "a new game never overwrites the copy"


def test_full_storage_makes_save_fail_with_a_notice_and_play_goes_on() -> None:
    backend = FullBackend()
    store = Store(backend)
    game = Game.new(CODE)
    assert store.save(game) is False
    assert store.notice == NOTICE_FULL
    backend.full = False
    assert store.save(game) is True
    assert not store.notice, "the notice goes once saving works again"


def test_table_keeps_playing_when_the_save_is_refused() -> None:
    backend = FullBackend()
    backend.full = False
    table, screen, _ = make_table(backend)
    backend.full = True
    table.request_deal(2)
    assert screen.last_notice == NOTICE_FULL
    assert screen.body == "human"
    assert table.game is not None
    table.main_button()
    assert table.game.draws == 1, "the draw happened although it was not saved"
    assert screen.last_notice == NOTICE_FULL
    backend.full = False
    table.main_button()
    assert not screen.last_notice
    assert json.loads(backend.data[SAVE_KEY])["game"] == save.dump(table.game)


def test_no_storage_at_all_says_the_game_will_not_be_kept() -> None:
    store = Store(None)
    assert not store.persistent
    assert store.notice == NOTICE_NO_STORAGE
    assert "no se guardará" in NOTICE_NO_STORAGE
    assert store.load() is None
    game = Game.new(CODE)
    assert store.save(game) is True  # kept in memory for this tab only
    screen = FakeScreen()
    table = Table(screen, store)
    table.start("")
    assert screen.last_notice == NOTICE_NO_STORAGE
    table.request_deal(2)
    assert screen.last_notice == NOTICE_NO_STORAGE


def test_storage_that_throws_everywhere_never_stops_the_page() -> None:
    store = Store(BrokenBackend())
    assert store.load() is None
    assert store.notice == NOTICE_NO_STORAGE
    assert store.table_size() == 2
    store.set_table_size(3)
    store.clear()
    assert store.save(Game.new(CODE)) is False


def test_table_size_preference_is_remembered() -> None:
    backend = MemoryBackend()
    store = Store(backend)
    assert store.table_size() == 2
    store.set_table_size(3)
    assert backend.getItem(PREFS_KEY) == "3" and Store(backend).table_size() == 3
    backend.setItem(PREFS_KEY, "7")
    assert Store(backend).table_size() == 2


def test_clear_removes_only_the_save() -> None:
    backend = MemoryBackend()
    store = Store(backend)
    store.save(Game.new(CODE))
    store.set_table_size(3)
    store.clear()
    assert backend.getItem(SAVE_KEY) is None and backend.getItem(PREFS_KEY) == "3"
