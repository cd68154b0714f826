"""The table's Python without a browser: ui.worker.Session answering with ui.batch's operations.

The page (assets/page.js) applies each batch; here the tests play the page's
part: they run the timers and the lock the batches ask for, and apply the
``store`` operations to a dict standing for localStorage. Every operation the
session answers with, and every event sent to it, must fit its declaration in
ui.protocol (the page's side is checked against the same declarations by tsc).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.codes import GameCode
from engine.game import Game
from engine.record import Record
from ui.batch import BatchScreen, Mirror
from ui.history_file import FILE_TOO_LARGE, MAX_IMPORT_CHARS
from ui.outside import ASIDE_PREFIX
from ui.protocol import Start, check_op, decode
from ui.screen import TableState
from ui.storage import NOTICE_FULL, SAVE_KEY
from ui.worker import Session, WorkerGames, from_flat, to_flat

CODE = GameCode.parse("A2K7-QM92")  # only 10D is legal at first


class Page:
    """The page's side: localStorage as a dict, the timers and the lock run when a test says so."""

    def __init__(self, storage: dict[str, str] | None = None, *, locks: bool = True) -> None:
        self.storage = dict(storage or {})
        self.locks = locks
        self.session = Session()
        self.ops: list[list[Any]] = []
        self.waiting: list[list[Any]] = []

    def apply(self, text: str) -> list[list[Any]]:
        ops = json.loads(text)
        for op in ops:
            check_op(op)
            if op[0] == "store":
                if op[2] is None:
                    self.storage.pop(op[1], None)
                else:
                    self.storage[op[1]] = op[2]
            elif op[0] in ("later", "lock"):
                self.waiting.append(op)
        self.ops.extend(ops)
        return ops

    def start(self, fragment: str = "", **extra: Any) -> list[list[Any]]:
        data = {
            "storage": self.storage,
            "writable": True,
            "locks": self.locks,
            "hash": fragment,
            "url": "http://localhost/",
            "today": "2026-12-02",
            "reduced": True,
            "seed": [1, 2, 3, 4],
            "early": None,
            "probe": False,
            **extra,
        }
        assert set(data) == set(Start._fields), "start's fields as ui.protocol declares them"
        return self.apply(self.session.start(json.dumps(data)))

    def event(self, *, unchecked: bool = False, **data: Any) -> list[list[Any]]:
        if not unchecked:
            decode(data)
        return self.apply(self.session.event(json.dumps(data)))

    def settle(self, limit: int = 10_000) -> None:
        """Run the timers and the lock the batches asked for, in order, until none is left."""
        for _ in range(limit):
            if not self.waiting:
                return
            op = self.waiting.pop(0)
            if op[0] == "later":
                self.apply(self.session.fire(op[2]))
            else:
                self.apply(self.session.locked(op[1], json.dumps(self.storage)))
        raise AssertionError("the page kept being asked for timers")

    def last(self, kind: str) -> list[Any]:
        return [op for op in self.ops if op[0] == kind][-1]


def test_every_screen_call_becomes_one_operation_in_order():
    screen = BatchScreen()
    screen.html("hand", "<button>")
    screen.text("stock-count", "30")
    screen.attr("main-btn", "disabled", None)
    screen.dialog("suit-dialog", True)
    screen.state(TableState.HUMAN)
    screen.notice(None)
    screen.set_hash("#partida=A2K7-QM92")
    screen.copy_text("enlace")
    screen.focus("deal-btn")
    screen.timing(1.23456)  # a probe: sent only when the page's probe switch is on
    screen.probing = True
    screen.timing(1.23456)
    assert screen.take() == [
        ["html", "hand", "<button>"],
        ["text", "stock-count", "30"],
        ["attr", "main-btn", "disabled", None],
        ["dialog", "suit-dialog", True],
        ["state", "human", True],
        ["notice", None],
        ["hash", "#partida=A2K7-QM92"],
        ["copy", "enlace"],
        ["focus", "deal-btn"],
        ["probe", "timing", 1.235],
    ]
    assert screen.take() == []


def test_a_timer_runs_once_when_the_page_fires_its_token():
    screen = BatchScreen()
    ran: list[int] = []
    screen.later(0, lambda: ran.append(1))
    [[_, _, token]] = screen.take()
    screen.fire(token)
    screen.fire(token)
    screen.fire(999)
    assert ran == [1]


def test_the_lock_runs_its_function_on_the_keys_the_page_read_under_it():
    screen = BatchScreen()
    mirror = Mirror({"ocho-loco:partida": "old"}, screen.emit)
    screen.mirror = mirror
    seen: list[str | None] = []
    screen.lock(lambda: seen.append(mirror.getItem("ocho-loco:partida")))
    [[kind, token]] = screen.take()
    assert kind == "lock" and seen == []
    screen.run_locked(token, {"ocho-loco:partida": "written by another tab", "other-site": "x"})
    assert seen == ["written by another tab"]
    assert mirror.getItem("other-site") is None  # only the site's own keys are copied


def test_the_mirror_writes_reach_the_page_as_store_operations():
    screen = BatchScreen()
    mirror = Mirror({}, screen.emit)
    mirror.setItem("ocho-loco:ritmo", "rapido")
    mirror.removeItem("ocho-loco:ritmo")
    assert screen.take() == [["store", "ocho-loco:ritmo", "rapido"], ["store", "ocho-loco:ritmo", None]]
    assert mirror.getItem("ocho-loco:ritmo") is None


def test_a_linked_game_is_dealt_and_saved_through_the_lock():
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    assert page.last("state") == ["state", "human", True]
    page.settle()
    assert SAVE_KEY in page.storage
    hand = page.last("html")
    assert hand[0] == "html"


def test_a_click_on_a_legal_card_plays_it_and_the_save_follows():
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    page.settle()
    before = page.storage[SAVE_KEY]
    page.event(kind="play-card", card="10D")
    page.settle()
    assert page.storage[SAVE_KEY] != before
    game = Game.new(CODE)
    assert json.loads(page.storage[SAVE_KEY])["record"].startswith("r2.A2K7QM92")
    assert game.hands[0]  # the engine's own deal, unchanged by the page


def test_without_web_locks_the_save_is_written_in_the_same_batch():
    page = Page(locks=False)
    ops = page.start(f"#partida={CODE.pretty()}&mesa=2")
    assert not any(op[0] == "lock" for op in ops)
    assert any(op[0] == "store" and op[1] == SAVE_KEY for op in ops)


def test_a_save_from_another_tab_is_compared_under_the_lock():
    other = Page()
    other.start(f"#partida={CODE.pretty()}&mesa=2")
    other.settle()
    other.event(kind="play-card", card="10D")
    other.settle()
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    page.settle()
    page.storage[SAVE_KEY] = other.storage[SAVE_KEY]  # the other tab wrote it
    page.event(kind="storage", key=SAVE_KEY, value=other.storage[SAVE_KEY])
    page.settle()
    assert page.last("notice")[1]  # the table says it followed the other tab
    assert page.storage[SAVE_KEY] == other.storage[SAVE_KEY]


def test_the_deal_of_a_seeded_page_is_the_same_every_time():
    codes = []
    for _ in range(2):
        page = Page()
        page.start()
        page.event(kind="deal", players=2)
        page.settle()
        codes.append(json.loads(page.storage[SAVE_KEY])["record"])
    assert codes[0] == codes[1]


def test_an_early_deal_click_deals_at_the_table_chosen_early():
    page = Page()
    page.start(early={"choice": {"players": 3, "level": "dificil"}, "click": {"kind": "deal", "players": 3}})
    page.settle()
    record = json.loads(page.storage[SAVE_KEY])["record"]
    assert record.split(".")[1].startswith("A3")


def test_an_export_is_a_download_the_page_makes():
    page = Page()
    page.start()
    ops = page.event(kind="export")
    [download] = [op for op in ops if op[0] == "download"]
    assert download[1].endswith(".json") and json.loads(download[2])


def test_a_file_too_large_is_refused_with_a_spanish_message_unread():
    page = Page()
    page.start()
    assert page.last("config")[1] == MAX_IMPORT_CHARS
    ops = page.event(kind="import", size=MAX_IMPORT_CHARS + 1, text="")
    assert ["text", "partidas-status", FILE_TOO_LARGE] in ops


def test_an_event_before_start_or_not_an_object_changes_nothing():
    session = Session()
    assert session.event(json.dumps({"kind": "deal", "players": 2})) == "[]"
    page = Page()
    page.start()
    assert page.session.event(json.dumps([1, 2])) == "[]"


class FakeIdb:
    """polyscript.storage's map: set, delete and clear, the texts as given."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def set(self, key: str, value: str) -> None:
        self.data[key] = value

    def delete(self, key: str) -> None:
        self.data.pop(key, None)

    def clear(self) -> None:
        self.data.clear()


def test_kept_games_are_written_as_pyscript_storage_wrote_them_so_earlier_games_still_read():
    idb = FakeIdb()
    games = WorkerGames(idb, [])
    games["r2.A2K7QM92.n1.RpA"] = '["2026-12-02",0,"won",null]'
    # pyscript.storage (which first wrote the store) writes Flatted's text of ["generic", value]:
    assert json.loads(idb.data["r2.A2K7QM92.n1.RpA"]) == [
        ["1", "2"],
        "generic",
        '["2026-12-02",0,"won",null]',
    ]
    again = WorkerGames(idb, list(idb.data.items()))
    assert dict(again) == {"r2.A2K7QM92.n1.RpA": '["2026-12-02",0,"won",null]'}
    del again["r2.A2K7QM92.n1.RpA"]
    assert idb.data == {}


def test_a_stored_value_this_page_did_not_write_is_left_unread():
    assert from_flat('[["1","2"],"generic","x"]') == "x"
    assert from_flat('[["1"],"null"]') is None
    assert from_flat("not json") is None
    assert from_flat(7) is None
    games = WorkerGames(FakeIdb(), [["a", "{"], ["b", to_flat("kept")], [3, to_flat("no key")]])
    assert dict(games) == {"b": "kept"}


def test_a_later_forms_values_stay_as_read_until_one_is_asked_for_and_go_back_as_they_came():
    flats = [to_flat('["2026-12-01",7,"?",null]'), "not this page's", to_flat("c")]
    unread = (["r5.a", "r5.b", "r5.c"], flats)
    games = WorkerGames(FakeIdb(), [["r2.A2K7QM92.n1.RpA", to_flat("kept")]], unread)
    assert len(games) == 4 and list(games) == ["r2.A2K7QM92.n1.RpA", "r5.a", "r5.b", "r5.c"]
    assert "r5.b" in games and games["r5.a"] == '["2026-12-01",7,"?",null]'
    assert games["r5.b"] is None, "a value no page wrote reads as nothing"
    games["r5.c"] = "new"
    del games["r5.a"]
    assert "r5.a" not in games and games.store.data == {"r5.c": to_flat("new")}
    again = FakeIdb()
    games.reopen(again)
    assert again.data == {
        "r2.A2K7QM92.n1.RpA": to_flat("kept"),
        "r5.b": "not this page's",
        "r5.c": to_flat("new"),
    }


def test_only_strings_are_kept():
    with pytest.raises(TypeError):
        to_flat({"a": 1})


def test_a_refused_save_is_said_as_on_the_main_thread():
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    page.settle()
    kept = page.storage[SAVE_KEY]
    page.event(kind="play-card", card="10D")
    page.settle()
    page.storage[SAVE_KEY] = kept  # the browser refused the write: storage full
    page.event(kind="store-failed", keys=[SAVE_KEY], storage=page.storage)
    page.settle()
    assert page.last("notice")[1] == NOTICE_FULL
    assert page.storage[SAVE_KEY] == kept


def test_the_hint_button_answers_in_the_worker_as_on_the_main_thread():
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    page.settle()
    page.event(kind="hint")
    page.settle()
    statuses = [op[1] for op in page.ops if op[0] == "status"]
    # The only card that fits: the search weighs nothing against it, so no reason is claimed.
    assert "Pista: juega el 10 de diamantes." in statuses


def test_an_intent_reaches_the_table_with_its_fields_and_one_that_does_not_decode_nothing(monkeypatch):
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    table = page.session.table
    assert table is not None
    seen: list[object] = []
    monkeypatch.setattr(table, "next_hand", lambda *, by_key: seen.append(("next", by_key)))
    monkeypatch.setattr(table.results, "review_jump", lambda step: seen.append(("review", step)))
    page.event(kind="next-hand", by_key=True)
    page.event(kind="review-go", step=3)
    page.event(
        kind="review-go", step="x", unchecked=True
    )  # refused by the decoder: nothing reaches the table
    page.event(kind="review-go", unchecked=True)
    page.event(kind="click", id="next-hand-btn", unchecked=True)  # the old generic click is no event now
    assert seen == [("next", True), ("review", 3)]


def test_a_replay_key_reaches_the_replay_with_its_direction(monkeypatch):
    page = Page()
    page.start(f"#partida={CODE.pretty()}&mesa=2")
    table = page.session.table
    assert table is not None
    seen: list[str] = []
    monkeypatch.setattr(table.results, "replay_go", seen.append)
    page.event(kind="replay-step", where="next")
    page.event(kind="replay-step", where="first")
    assert seen == ["next", "first"]


def test_an_unreadable_save_that_cannot_be_set_aside_stays_and_the_notice_says_so():
    page = Page({SAVE_KEY: "{roto"})
    page.start()
    assert page.storage.get(ASIDE_PREFIX + "1") == "{roto"  # what the worker asked the page to write
    page.storage = {SAVE_KEY: "{roto"}  # the browser refused the copy, and the page kept the save
    page.event(kind="store-failed", keys=[ASIDE_PREFIX + "1"], storage=page.storage)
    page.settle()
    text = page.last("notice")[1]
    assert "sigue guardada tal cual" in text and "se ha guardado aparte" not in text
    assert page.last("attr") == ["attr", "aside-info", "hidden", ""]
    page.event(kind="deal", players=2)
    page.settle()
    assert page.last("state") == ["state", "replace", False]
    assert page.storage[SAVE_KEY] == "{roto" and ASIDE_PREFIX + "1" not in page.storage


def test_a_store_deleted_under_the_page_gets_every_game_back_writes_in_between_included():
    old = FakeIdb()
    games = WorkerGames(old, [])
    games["r2.A2K7QM92.n1.RpA"] = '["2026-12-02",0,"?",null]'
    assert games.close() is old
    old.data.clear()  # another tab's deleteDatabase went through
    games["r2.A2K7QM92.n1.RxA"] = '["2026-12-02",1,"?",null]'  # a game ends meanwhile
    assert old.data == {}, "nothing is written to the store being deleted"
    new = FakeIdb()
    games.reopen(new)
    assert {k: from_flat(v) for k, v in new.data.items()} == dict(games)
    assert len(new.data) == 2


def test_the_page_is_told_when_its_games_were_deleted_and_written_again():
    page = Page()
    page.start()
    page.apply(page.session.games_closed(True))
    assert page.last("notice")[1].startswith("Otra pestaña ha borrado tus partidas. Esta pestaña ha vuelto")
    page.apply(page.session.games_closed(False))
    assert "No se han podido guardar otra vez" in page.last("notice")[1]


def test_one_game_written_again_is_la_partida_not_las_1_partida():
    """Issue 43, item 5: the deletion notice read «las 1 partida»."""
    page = Page()
    page.start()
    page.session.table.history.add(Record.parse("r2.A2K7QM92.n1.RxA"), "2026-12-02")
    page.apply(page.session.games_closed(True))
    assert page.last("notice")[1].endswith("ha vuelto a guardar la partida que tenía."), page.last("notice")
