"""The saved game in localStorage (:mod:`ui.storage`): every failure becomes a notice.

A save that cannot be read is moved aside, never deleted; a browser that
refuses to store lets the game go on; no storage at all is said once.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from fake_screen import FakeScreen, make_table
from support import human_to_play, position, reach

from engine import save
from engine.actions import Action
from engine.cards import CARDS, Card
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from engine.record import Record
from ui.storage import (
    ASIDE_PREFIX,
    MAX_ASIDE,
    NOTICE_FULL,
    NOTICE_NO_STORAGE,
    PREFS_KEY,
    SAVE_KEY,
    MemoryBackend,
    Setup,
    Store,
)
from ui.storage import _chooser as chooser_for
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
    assert store.save(game) is None and not store.failed
    assert store.notice is None
    loaded = Store(backend).load()
    assert loaded is not None
    assert save.dump(loaded.game) == save.dump(game)
    assert loaded.chooser is None and loaded.level == "normal" and not loaded.legacy
    stored = json.loads(backend.data[SAVE_KEY])
    assert stored == {
        "app": "ocho-loco",
        "version": 2,
        "record": str(Record.of(game)),
        "ui": {"chooser": None, "next_hand": False},
    }
    backend.removeItem("missing")  # removing a missing key is fine, like localStorage


def test_nothing_saved_loads_as_none_without_a_notice() -> None:
    store = Store(MemoryBackend())
    assert store.load() is None and store.notice is None


def test_open_chooser_round_trips_only_for_an_eight_that_must_name_a_suit() -> None:
    game = reach(lambda g: human_to_play(g) and any(a.suit is not None for a in g.legal_actions()))
    eight = next(a.card for a in game.legal_actions() if a.suit is not None)
    backend = MemoryBackend()
    Store(backend).save(game, chooser=eight)
    loaded = Store(backend).load()
    assert loaded is not None and loaded.chooser == eight and save.dump(loaded.game) == save.dump(game)
    not_held = next(c for c in CARDS if c.rank == 8 and c not in game.hands[0])
    for bad in ["3C", str(not_held), "ZZ", 7, ["8S"]]:
        data = json.loads(backend.data[SAVE_KEY])
        data["ui"]["chooser"] = bad
        backend.setItem(SAVE_KEY, json.dumps(data))
        loaded = Store(backend).load()
        assert loaded is not None and loaded.chooser is None, bad


def test_the_chooser_is_kept_only_when_the_legal_actions_ask_for_a_suit() -> None:
    assert chooser_for(position(["8S 3C 4D", "5D 6D"], pile="9H"), "8S") == Card.parse("8S")
    assert chooser_for(position(["8S", "5D 6D"], pile="9H"), "8S") is None, "a last 8 names no suit"
    assert chooser_for(position(["8S 3C", "5D 6D"], pile="9H", turn=1), "8S") is None, "not your turn"


def test_a_next_hand_already_dealt_is_reopened_dealt() -> None:
    table, screen, backend = make_table()
    table.request_deal(2)
    assert table.game is not None
    rng = random.Random(3)
    while table.game.phase == PLAYING:
        if table.game.turn == 0:
            fits = table.game.legal_cards()
            if fits:
                card = fits[0]
                table.click_card(str(card))
                if table.chooser is not None:
                    table.choose_suit(rng.choice("SHDC"))
            else:
                table.main_button()
        screen.run_timers()
    assert table.game.phase in (HAND_OVER, GAME_OVER)
    if table.game.phase == GAME_OVER:
        return
    table.next_hand()
    assert json.loads(backend.data[SAVE_KEY])["ui"]["next_hand"] is True
    again = Store(backend).load()
    assert again is not None and again.game.hand_no == 1 and again.game.phase == PLAYING
    assert save.dump(again.game) == save.dump(table.game)


BAD_SAVES = {
    "corrupt_json": ("{not json", "Los datos no se pueden leer."),
    "not_an_object": ("[1, 2, 3]", "no son una partida de Ocho Loco"),
    "wrong_app": (record({}, app="otra-app"), "no son una partida de Ocho Loco"),
    "wrong_version": (record({}, version=3), "otra versión"),
    "record_not_text": (json.dumps({"app": "ocho-loco", "version": 2, "record": 5}), "no es un texto"),
    "record_illegal_move": (
        json.dumps({"app": "ocho-loco", "version": 2, "record": "r1.A2K7QM92.n.JA"}),
        "La jugada 1 (6H) no vale: No tienes el 6 de corazones.",
    ),
    "too_large": ("x" * 300_000, "demasiado grandes"),
    "nested_6000": ("[" * 6000 + "]" * 6000, "Los datos no se pueden leer."),
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


def test_saves_set_aside_are_never_overwritten() -> None:
    backend = MemoryBackend()
    for n in range(1, MAX_ASIDE + 3):
        backend.setItem(SAVE_KEY, f"broken {n}")
        assert Store(backend).load() is None
    stored = [backend.getItem(ASIDE_PREFIX + str(n)) for n in range(1, MAX_ASIDE + 3)]
    assert stored == [f"broken {n}" for n in range(1, MAX_ASIDE + 3)], "the sixth and seventh get new keys"
    assert Store(backend).aside_count() == MAX_ASIDE + 2


def test_clearing_the_saves_set_aside_removes_only_them() -> None:
    backend = MemoryBackend()
    for n in range(3):
        backend.setItem(SAVE_KEY, f"broken {n}")
        Store(backend).load()
    store = Store(backend)
    store.set_setup(Setup(players=3))
    store.clear_aside()
    assert store.aside_count() == 0
    assert backend.getItem(PREFS_KEY) == "3"


class NearlyFullBackend(MemoryBackend):
    """Reads work, but there is no room for another copy (a new key)."""

    def setItem(self, key: str, value: str) -> None:
        if key not in self.data:
            raise OSError("QuotaExceededError")
        super().setItem(key, value)


def test_an_unreadable_save_that_cannot_be_set_aside_stays_in_place_and_nothing_overwrites_it() -> None:
    backend = NearlyFullBackend()
    backend.data[SAVE_KEY] = "{broken"
    table, screen, _ = make_table(backend)
    assert backend.data[SAVE_KEY] == "{broken", "kept, not lost"
    assert screen.last_notice is not None
    assert "sigue guardada tal cual" in screen.last_notice
    assert "se ha guardado aparte" not in screen.last_notice, "the notice tells the truth"
    table.request_deal(2)
    assert screen.body == "replace", "starting over asks first"
    assert screen.focused == "replace-no"
    table.answer_replace(False)
    assert backend.data[SAVE_KEY] == "{broken"
    table.request_deal(2)
    table.answer_replace(True)
    assert table.game is not None
    assert json.loads(backend.data[SAVE_KEY])["record"] == str(Record.of(table.game))


def test_page_with_a_corrupt_save_shows_the_notice_and_waits_to_deal() -> None:
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, "{oops")
    table, screen, _ = make_table(backend)
    assert screen.body == "setup" and backend.getItem(SAVE_KEY) is None
    assert screen.last_notice is not None and "aparte" in screen.last_notice
    assert backend.getItem(ASIDE_PREFIX + "1") == "{oops"
    table.request_deal(2)
    assert table.game is not None
    assert json.loads(backend.data[SAVE_KEY])["record"] == str(Record.of(table.game))
    assert backend.getItem(ASIDE_PREFIX + "1") == "{oops", "a new game never overwrites the copy"


def test_full_storage_makes_save_fail_with_a_notice_and_play_goes_on() -> None:
    backend = FullBackend()
    store = Store(backend)
    game = Game.new(CODE)
    assert store.save(game) is None and store.failed
    assert store.notice == NOTICE_FULL
    backend.full = False
    assert store.save(game) is None and not store.failed
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
    assert json.loads(backend.data[SAVE_KEY])["record"] == str(Record.of(table.game))


def test_no_storage_at_all_says_the_game_will_not_be_kept() -> None:
    store = Store(None)
    assert not store.persistent
    assert store.notice == NOTICE_NO_STORAGE
    assert "no se guardará" in NOTICE_NO_STORAGE
    assert store.load() is None
    game = Game.new(CODE)
    assert store.save(game) is None and not store.failed  # kept in memory for this tab only
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
    assert store.setup() == Setup()
    store.set_setup(Setup(3, "dificil", "rapido"))
    store.clear()
    assert store.save(Game.new(CODE)) is None and store.failed


def test_the_setup_choices_are_one_value_remembered_under_their_own_keys() -> None:
    backend = MemoryBackend()
    store = Store(backend)
    assert store.setup() == Setup(2, "normal", "normal")
    store.set_setup(store.setup().with_(players=3, level="dificil", pace="pausado"))
    assert backend.getItem(PREFS_KEY) == "3" and backend.getItem("ocho-loco:nivel") == "dificil"
    assert Store(backend).setup() == Setup(3, "dificil", "pausado")
    assert Setup().with_(level="imposible", pace="volando") == Setup(), "unknown choices change nothing"
    backend.setItem(PREFS_KEY, "7")
    backend.setItem("ocho-loco:ritmo", "volando")
    assert Store(backend).setup() == Setup(2, "dificil", "normal"), "what does not read is its default"


def test_clear_removes_only_the_save() -> None:
    backend = MemoryBackend()
    store = Store(backend)
    store.save(Game.new(CODE))
    store.set_setup(Setup(players=3))
    store.clear()
    assert backend.getItem(SAVE_KEY) is None and backend.getItem(PREFS_KEY) == "3"


# -- forged saves: edited as text, they replay to another legal game or are refused ------------


def _saved_record_game() -> tuple[MemoryBackend, Game]:
    game = reach(lambda g: human_to_play(g) and len(g.history) > 6 and len(g.hands[0]) > 2)
    backend = MemoryBackend()
    Store(backend).save(game)
    return backend, game


def _edit_record(backend: MemoryBackend, edit: Callable[[str], str]) -> None:
    data = json.loads(backend.data[SAVE_KEY])
    data["record"] = edit(data["record"])
    backend.setItem(SAVE_KEY, json.dumps(data))


def test_forged_save_that_sheds_cards_it_does_not_hold_is_set_aside() -> None:
    backend, game = _saved_record_game()
    stranger = [c for c in CARDS if c not in game.hands[0]][:3]
    _edit_record(backend, lambda text: str(Record.parse(text).added(Action.play(stranger[0]))))
    store = Store(backend)
    assert store.load() is None
    assert store.notice is not None and "no vale: No tienes" in store.notice
    assert backend.getItem(ASIDE_PREFIX + "1") is not None


def test_forged_save_that_changes_the_active_suit_is_set_aside() -> None:
    backend, game = _saved_record_game()
    eight = next(c for c in CARDS if c.rank == 8 and c not in game.hands[0])

    def name_a_suit(text: str) -> str:
        record = Record.parse(text)
        return str(Record(record.code, (*record.moves, Action.play(eight, 2)), record.level))

    _edit_record(backend, name_a_suit)
    assert Store(backend).load() is None


def test_forged_save_cannot_change_totals_without_losing_its_verification() -> None:
    """A verified record has no totals to edit; a forged start field makes it unverified and says so."""
    backend, _game = _saved_record_game()
    assert "totals" not in backend.data[SAVE_KEY]
    _edit_record(backend, lambda text: ".".join([*text.split(".")[:3], "", "1-0-0-99"]))
    table, screen, _ = make_table(backend)
    assert table.game is not None and not Record.of(table.game).verified
    assert screen.last_notice is not None and "no los puntos de las manos anteriores" in screen.last_notice


# -- two tabs over one storage ----------------------------------------------------------------


def two_tabs() -> tuple[MemoryBackend, Table, FakeScreen, Table, FakeScreen]:
    backend = MemoryBackend()
    a, screen_a, _ = make_table(backend)
    a.request_deal(2)
    b, screen_b, _ = make_table(backend)
    b.rng = random.Random(2)  # another tab draws other codes
    assert b.game is not None and a.game is not None and str(Record.of(b.game)) == str(Record.of(a.game))
    return backend, a, screen_a, b, screen_b


def play_turn(table: Table, screen: FakeScreen) -> None:
    """One sensible move of the person's, then the CPU's answer."""
    game = table.game
    assert game is not None and game.turn == 0
    fits = [c for c in game.legal_cards() if c.rank != 8]
    if fits:
        table.click_card(str(fits[0]))
    else:
        table.main_button()
    screen.run_timers()


def saved_record(backend: MemoryBackend) -> str:
    return json.loads(backend.data[SAVE_KEY])["record"]


def test_a_stale_tab_follows_the_other_tab_instead_of_overwriting_it() -> None:
    backend, a, screen_a, b, screen_b = two_tabs()
    play_turn(a, screen_a)
    play_turn(a, screen_a)
    ahead = saved_record(backend)
    play_turn(b, screen_b)  # B still shows the old position; no storage event reached it
    assert saved_record(backend) == ahead, "A's two turns are not overwritten"
    assert b.game is not None and str(Record.of(b.game)) == ahead, "B follows A's game"
    assert screen_b.last_notice == "La partida ha seguido en otra pestaña: esta muestra ya la última jugada."
    reloaded, _, _ = make_table(backend)
    assert reloaded.game is not None and str(Record.of(reloaded.game)) == ahead


def test_the_storage_event_makes_an_open_tab_follow_at_once() -> None:
    backend, a, screen_a, b, screen_b = two_tabs()
    play_turn(a, screen_a)
    b.saves.changed(backend.data[SAVE_KEY])
    assert b.game is not None and a.game is not None
    assert str(Record.of(b.game)) == str(Record.of(a.game))
    assert screen_b.last_notice is not None and "otra pestaña" in screen_b.last_notice
    play_turn(b, screen_b)
    a.saves.changed(backend.data[SAVE_KEY])
    assert str(Record.of(a.game)) == str(Record.of(b.game)) == saved_record(backend)


def test_a_new_game_started_in_another_tab_is_never_lost() -> None:
    backend, a, screen_a, b, _screen_b = two_tabs()
    b.request_deal(2)
    b.answer_replace(True)  # «Otra partida» in B: leave the game, back to choosing a table
    b.request_deal(2)  # «Repartir»
    assert b.game is not None
    new_game = str(Record.of(b.game))
    play_turn(a, screen_a)  # one move of the old game in A
    assert saved_record(backend) == new_game, "B's new game is still the save"
    assert a.game is not None and str(Record.of(a.game)) == new_game, "A follows B's new game"
    assert screen_a.last_notice is not None and "otra partida" in screen_a.last_notice
    assert "aparte" in screen_a.last_notice, "A's own move on the old game is kept aside"
    kept = [v for k, v in backend.data.items() if k.startswith(ASIDE_PREFIX)]
    assert len(kept) == 1 and json.loads(kept[0])["record"] != new_game
    reloaded, _, _ = make_table(backend)
    assert reloaded.game is not None and str(Record.of(reloaded.game)) == new_game


def test_two_tabs_that_moved_on_from_one_position_keep_the_longer_and_set_the_other_aside() -> None:
    backend, a, screen_a, b, screen_b = two_tabs()
    a.main_button()  # A draws: one move
    a_version = backend.data[SAVE_KEY]
    play_turn(b, screen_b)  # B, unaware, plays a card (and the CPU answers): B's version is longer
    assert b.game is not None and saved_record(backend) == str(Record.of(b.game))
    kept = [v for k, v in backend.data.items() if k.startswith(ASIDE_PREFIX)]
    assert kept == [a_version], "A's shorter version is set aside, not lost"
    assert screen_b.last_notice is not None and "dos pestañas" in screen_b.last_notice
    a.saves.changed(backend.data[SAVE_KEY])
    assert a.game is not None and str(Record.of(a.game)) == str(Record.of(b.game))
    assert screen_a.last_notice is not None and "dos pestañas" in screen_a.last_notice


def test_the_shorter_of_two_diverging_tabs_follows_the_longer() -> None:
    backend, a, screen_a, b, _screen_b = two_tabs()
    play_turn(a, screen_a)
    play_turn(a, screen_a)
    longer = saved_record(backend)
    b.main_button()  # B draws from the old position: one move, shorter
    assert saved_record(backend) == longer
    assert b.game is not None and str(Record.of(b.game)) == longer
    kept = [v for k, v in backend.data.items() if k.startswith(ASIDE_PREFIX)]
    assert len(kept) == 1 and json.loads(kept[0])["record"] != longer


def test_a_write_that_is_ahead_of_the_stored_game_goes_through() -> None:
    backend, a, screen_a, b, screen_b = two_tabs()
    play_turn(a, screen_a)
    b.saves.changed(backend.data[SAVE_KEY])
    play_turn(b, screen_b)
    assert b.game is not None and saved_record(backend) == str(Record.of(b.game))


def test_the_page_says_how_many_saves_are_kept_aside_and_clears_them_on_request() -> None:
    backend = MemoryBackend()
    for n in range(2):
        backend.setItem(SAVE_KEY, f"broken {n}")
        Store(backend).load()
    backend.setItem(SAVE_KEY, "broken again")
    table, screen, _ = make_table(backend)
    assert screen.get_attr("aside-info", "hidden") is None
    assert screen.texts["aside-count"] == "Hay 3 partidas guardadas aparte porque no se podían abrir."
    table.saves.clear_aside()
    assert screen.get_attr("aside-info", "hidden") == ""
    assert not [k for k in backend.data if k.startswith(ASIDE_PREFIX)]


def test_a_hint_asked_in_one_tab_as_the_other_moves_on_stays_in_the_save() -> None:
    """Issue 43, item 4: «Pista» in A at the instant B moves; B's save kept the move and lost the mark."""
    backend, a, screen_a, b, screen_b = two_tabs()
    a.ask_hint()
    screen_a.run_timers()
    place = a.hints[0]
    play_turn(b, screen_b)  # B, unaware of the hint, moves on from the same position
    saved = Record.parse(saved_record(backend))
    assert b.game is not None and saved.moves == Record.of(b.game).moves, "B's moves are the save"
    assert saved.hints == (place,) and b.hints == (place,), "and the hint asked in A is in it"
    play_turn(b, screen_b)
    assert Record.parse(saved_record(backend)).hints == (place,), "B's next save keeps it"
    assert not [k for k in backend.data if k.startswith(ASIDE_PREFIX)], "one game: nothing set aside"


def test_a_hint_asked_in_a_tab_behind_the_other_joins_the_longer_game() -> None:
    backend, a, screen_a, b, screen_b = two_tabs()
    play_turn(b, screen_b)  # B moves on first
    a.ask_hint()  # A, one move behind, asks for a hint at the old position
    screen_a.run_timers()
    saved = Record.parse(saved_record(backend))
    assert b.game is not None and saved.moves == Record.of(b.game).moves
    assert len(saved.hints) == 1 and a.hints == saved.hints, "A follows B's game, with its hint"
    b.saves.changed(backend.data[SAVE_KEY])
    assert b.hints == saved.hints, "B hears of the hint"
