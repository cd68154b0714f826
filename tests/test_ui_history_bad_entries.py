"""No line of data breaks «Tus partidas» (issue 43, item 1): a bad entry never hides a result or stops a deal.

An entry reaches the games store in two ways: an imported file, or a writer of
the same origin planting it straight in IndexedDB. Either way the list still
draws, counts every good game exactly, and «Otra partida» still deals. Every
kept text is read through one reader, :func:`ui.kept.envelope`; a key that
does not read is listed apart, never taken for a game.
"""

from __future__ import annotations

import contextlib
import json

from fake_screen import FakeScreen, make_table, plain
from hypothesis import given
from hypothesis import strategies as st
from profiles import budget
from test_ui_history import honest

from engine.game import PLAYING
from engine.record import Record
from ui import history_html
from ui.history import RECENT, History, review_key
from ui.kept import CHECKED, MAX_PENDING, Entry, NotAGame, envelope, later_texts
from ui.storage import MemoryBackend
from ui.table import Table

DAY = "2026-12-01"
# The line of the issue's file: a later form with a code this page does not deal.
BAD_CODE = "r5.X2abcdef.n1.AA"
# A four-character form field: a fixed slice of the text read the wrong code from it.
FAR_FORM = "r999.A2K7QM92.x.y"


def export_file(*records: str) -> str:
    games = [{"record": text, "date": DAY} for text in records]
    data = {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": DAY, "current": None}
    return json.dumps(data | {"games": games})


def checked_store(records: tuple[Record, ...]) -> dict[str, object]:
    """A games store holding ``records`` as this device keeps them once checked."""
    history = History(MemoryBackend(), {})
    for record in records:
        history.add(record, DAY)
    history.check_all()
    return dict(history.games)


def opened(store: dict[str, object]) -> tuple[Table, FakeScreen]:
    """A table whose page opened ``store`` as its games store and read it."""
    table, screen, _ = make_table()
    table.transfer.attach_games(store)
    screen.run_timers()
    return table, screen


def deals_again(table: Table, screen: FakeScreen) -> None:
    """«Otra partida» with a game under way, «Sí», then «Repartir»: a new game is on the table."""
    table.request_deal(2)
    if screen.body == "replace":
        table.answer_replace(True)
        table.request_deal(2)
    screen.run_timers()
    assert table.game is not None and table.game.phase == PLAYING and not table.game.history


def test_the_issues_file_is_refused_line_by_line_and_the_list_still_draws() -> None:
    good = honest()[0]
    table, screen, _ = make_table()
    table.request_deal(2)
    table.transfer.import_text(export_file(str(good), BAD_CODE))
    screen.run_timers()
    assert "Importadas 1 partida" in screen.texts["partidas-status"]
    assert table.history.stats().overall.played == 1
    body = plain(screen.htmls["partidas-body"])
    assert good.code.pretty() in body and "Cargando" not in body
    deals_again(table, screen)


def test_a_far_later_form_is_not_a_game_a_later_page_wrote() -> None:
    table, screen, _ = make_table()
    table.transfer.import_text(export_file(FAR_FORM))
    screen.run_timers()
    assert "Rechazadas 1 partida" in screen.texts["partidas-status"]
    assert not table.history.entries


def test_the_envelope_reads_the_fields_not_fixed_places() -> None:
    assert envelope("r2.A2K7QM92.n1.RxA").code.text == "A2K7QM92"
    assert envelope("r7.A2K7QM92.q3.anything_new").code.players == 2
    for text in (BAD_CODE, FAR_FORM, "r2.a2k7qm92.n1.RxA", "r2.A2K7QM93.n1.RxA", "r2.A2K7QM92.N1.RxA"):
        try:
            envelope(text)
        except NotAGame:
            continue
        raise AssertionError(f"{text!r} read as a game")


def test_bad_keys_planted_in_the_store_are_listed_apart_and_never_break_a_command() -> None:
    good = honest()[:2]
    store = checked_store(good)
    planted = [BAD_CODE, FAR_FORM, "r2.A2K7QM92", "<img src=x onerror=alert(1)>", "r2." + "A" * 5000]
    for key in planted:
        store[key] = json.dumps([DAY, 0, CHECKED, [1, [0, 50], [0], [0, 50]]])
    table, screen = opened(store)
    history = table.history
    assert history.stats().overall.played == 2 and len(history.entries) == 2
    assert sorted(history.unreadable) == sorted(planted)
    body = plain(screen.htmls["partidas-body"])
    assert all(record.code.pretty() in body for record in good)
    assert "onerror" not in screen.htmls["partidas-body"].replace("&lt;img src=x onerror", "")
    _name, text = table.transfer.export_text()
    assert [g["record"] for g in json.loads(text)["games"]] == [str(r) for r in good]
    table.daily.request(3)
    assert table.game is not None and table.game.players == 3
    deals_again(table, screen)


def test_pending_games_never_push_checked_ones_out_of_the_list() -> None:
    good = honest()[0]
    store = checked_store((good,))
    for n in range(40):
        store[f"r5.A2K7QM92.n1.{n:04x}"] = json.dumps(["2026-12-31", 100 + n, "?", None])
    table, screen = opened(store)
    assert [e.text for e in table.history.recent()] == [str(good)]
    assert table.history.waiting_count() == 40
    assert good.code.pretty() in plain(screen.htmls["partidas-body"])


def test_pending_games_are_capped_and_the_import_says_how_many_it_left() -> None:
    table, screen, _ = make_table()
    later = [f"r5.A2K7QM92.n1.{n:04x}" for n in range(MAX_PENDING + 7)]
    table.transfer.import_text(export_file(*later))
    screen.run_timers()
    assert table.history.waiting_count() == MAX_PENDING
    status = screen.texts["partidas-status"]
    assert f"No se han guardado 7 partidas que esta página no puede comprobar: ya hay {MAX_PENDING}" in status


def test_reimporting_a_pending_game_says_it_was_kept_already_not_refused() -> None:
    table, screen, _ = make_table()
    table.transfer.import_text(export_file("r5.A2K7QM92.n1.AA"))
    screen.run_timers()
    table.transfer.import_text(export_file("r5.A2K7QM92.n1.AA"))
    screen.run_timers()
    status = screen.texts["partidas-status"]
    assert "1 partida ya estaba en tu historial" in status and "Rechazada" not in status


# -- any entry at all ----------------------------------------------------------------------------------

SYMBOLS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789abcdefxyz-_.<>\"'&é🂡\x00 "
FORMS = st.sampled_from(["r1", "r2", "r3", "r4", "r5", "r9", "r10", "r99", "r999", "x2", "r", "R2", "r02"])
CODES = st.sampled_from(["A2K7QM92", "A3TX7URW", "X2abcdef", "A2K7QM93", "a2k7qm92", "A2K7-QM92", ""])
LEVELS = st.sampled_from(["n1", "d12", "f1", "n", "n1p", "q3", "N1", "n0", "n1000", "", "é"])
FIELD = st.text(alphabet=SYMBOLS, max_size=30)
KEYS = st.one_of(
    st.builds(lambda *parts: ".".join(parts), FORMS, CODES, LEVELS, FIELD),
    st.builds(lambda *parts: ".".join(parts), FORMS, CODES, LEVELS, FIELD, FIELD),
    st.text(alphabet=SYMBOLS, max_size=60),
    st.builds(lambda n: "r2.A2K7QM92.n1." + "A" * n, st.integers(0, 4000)),
)
VALUES = st.one_of(
    st.just(json.dumps([DAY, 3, CHECKED, [1, [0, 40], [0], [0, 40]]])),
    st.builds(json.dumps, st.lists(st.one_of(st.integers(-5, 2000), st.text(max_size=12)), max_size=5)),
    st.text(max_size=40),
    st.none(),
    st.integers(),
)


@budget(30)
@given(bad=st.dictionaries(KEYS, VALUES, max_size=12))
def test_any_entry_leaves_the_list_counting_every_good_game_and_every_command_answering(
    bad: dict[str, object],
) -> None:
    good = honest()[:2]
    store = checked_store(good)
    good_keys = set(store)
    for key, value in bad.items():
        if key in good_keys or key.startswith("@"):
            continue
        with contextlib.suppress(NotAGame):
            if envelope(key).fits and CHECKED in str(value):
                # This device's own note of a game it checked is taken as written (it is never exported):
                # a writer that forges one for a text that reads fools this device only.
                continue
        store[key] = value
    table, screen = opened(store)
    history = table.history
    assert history.stats().overall.played == 2, sorted(bad)
    shown = plain(screen.htmls["partidas-body"])
    assert all(record.code.pretty() in shown for record in good)
    for entry in history.entries:
        assert isinstance(entry, Entry) and envelope(entry.text).code == entry.code
    history.keep_review(review_key(str(good[0]), 0, 1), {"items": []})
    table.transfer.export_text()
    table.transfer.import_text(export_file(*bad))
    screen.run_timers()
    assert history.stats().overall.played == 2
    deals_again(table, screen)


@budget(60)
@given(keys=st.lists(st.one_of(KEYS, st.builds(lambda a, b: a + "\n" + b, KEYS, KEYS)), max_size=12))
def test_the_later_texts_read_at_once_are_exactly_those_the_envelope_reads_as_later(keys: list[str]) -> None:
    def later(key: str) -> bool:
        try:
            return not envelope(key).known
        except NotAGame:
            return False

    assert later_texts(keys) == {key for key in keys if later(key)}


class Watched(dict[str, object]):
    """A store that remembers which values were read."""

    def __init__(self, data: dict[str, object]) -> None:
        super().__init__(data)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> object:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:
        self.read.add(key)
        return super().get(key, default)

    def items(self):  # type: ignore[override]
        self.read.update(self)
        return super().items()


def test_a_visit_reads_only_the_keys_of_later_texts_and_lists_the_first_by_their_text() -> None:
    good = honest()[0]
    store = Watched(checked_store((good,)))
    later = [f"r5.A2K7QM92.n1.{n:04x}" for n in range(RECENT + 5)]
    for n, text in enumerate(reversed(later)):  # the last text is the oldest: they list by text, not by date
        store[text] = json.dumps([f"2026-12-{1 + n % 28:02d}", n, "?", None])
    history = History(None, store)
    assert not store.read & set(later), "a later text's note is read only to be shown"
    assert history.waiting_count() == len(later) and len(history.known) == len(later) + 1
    shown = history.waiting_entries()
    assert [e.text for e in shown] == later[:RECENT]
    assert store.read & set(later) == set(later[:RECENT])
    assert shown[0].date == f"2026-12-{1 + (len(later) - 1) % 28:02d}"
    body = plain(history_html.waiting_table(shown, history.later))
    assert f"{RECENT} de las {len(later)} partidas que esperan a una versión más nueva" in body
    exported = json.loads(history.export(None, DAY))["games"]
    assert [g["record"] for g in exported] == [str(good), *later]
    assert history.delete(later[0]) and later[0] not in store and history.waiting_count() == len(later) - 1


# -- the player can remove one game, and every line that is no game ----------------------------------


def test_borrar_asks_first_keeps_the_game_on_no_and_removes_it_on_yes() -> None:
    good = honest()[:2]
    store = checked_store(good)
    table, screen = opened(store)
    key = str(good[0])
    assert f'data-intent="forget-game" data-key="{key}"' in screen.htmls["partidas-body"]
    table.transfer.ask_forget(key)
    assert screen.is_open("replace-dialog") and screen.focused == "replace-no", "the default keeps it"
    assert good[0].code.pretty() in screen.texts["replace-title"]
    table.answer_replace(False)
    assert key in store and table.history.stats().overall.played == 2
    table.transfer.ask_forget(key)
    table.answer_replace(True)
    assert key not in store and table.history.stats().overall.played == 1
    assert screen.texts["partidas-status"] == "Partida borrada."
    assert good[0].code.pretty() not in plain(screen.htmls["partidas-body"])
    again = History(MemoryBackend(), store)
    assert [e.text for e in again.entries] == [str(good[1])], "gone from the store too"


def test_the_lines_that_are_no_game_are_removed_together_or_one_by_one() -> None:
    store = checked_store(honest()[:1])
    for key in (BAD_CODE, FAR_FORM, "<b>1</b>"):
        store[key] = "[]"
    table, screen = opened(store)
    assert 'data-intent="forget-unreadable"' in screen.htmls["partidas-body"]
    table.transfer.ask_forget(FAR_FORM)
    table.answer_replace(True)
    assert FAR_FORM not in store and len(table.history.unreadable) == 2
    table.transfer.ask_forget(None)
    assert "las 2 líneas que no se pueden leer" in screen.texts["replace-title"]
    table.answer_replace(True)
    assert not table.history.unreadable and BAD_CODE not in store and "<b>1</b>" not in store
    assert screen.texts["partidas-status"] == "Borradas 2 líneas."
    assert "unreadable-line" not in screen.htmls["partidas-body"]
    assert table.history.stats().overall.played == 1
