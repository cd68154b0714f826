"""Every result kept once and never refused for good by a page that only could not read it (issue 38).

- One game, one entry: the hints are not part of a game's identity; of two copies the one with its
  hints is kept (item 1).
- A game this page cannot check (a CPU version it does not know, a check that broke) stays pending,
  shown and not counted, and every page that can checks it again (item 2).
- A challenge refused by the CPU check is set aside and leaves the address (item 6).
- «Tus partidas» says «Cargando tus partidas…» while its store is read (item 7).

Each drives the page's :class:`ui.table.Table` over a :class:`FakeScreen`, or :class:`ui.history.History`
over a dict standing for the IndexedDB store; games are real (the simulator's cpu bot plays the CPU).
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fake_screen import make_table, plain
from test_ui_worker import Page

import ui.kept
from engine import levels
from engine.record import Record
from engine.stats import outcome
from lab.simulate import run
from ui.history import History
from ui.kept import CHECKED, PENDING, REFUSED
from ui.links import challenge_hash
from ui.outside import ASIDE_PREFIX
from ui.results import record_line
from ui.storage import MemoryBackend

DAY = "2026-12-01"
# The file: one game twice, once with the hint flag (r3) and once without (r2).
PLAIN = "r2.A27TGUUM.n1.akIkEfEiRIo6JEiPYhGJEJHwolgjNIgqxy8BikkREaiRBpYcY"
FLAGGED = "r3.A27TGUUM.n1p.akIkEfEiRIo6JEiPYhGJEJHwolgjNIgqxy8BikkREaiRBpYcY"
TWIN_FILE = json.dumps(
    {
        "app": "ocho-loco",
        "format": "partidas",
        "version": 1,
        "exported": DAY,
        "games": [{"record": PLAIN, "date": DAY}, {"record": FLAGGED, "date": DAY}],
        "current": None,
    }
)


@functools.cache
def honest(count: int = 3) -> tuple[Record, ...]:
    out: list[Record] = []
    run(2, ["cpu", "cpu"], count, "una-vez", records=out)
    return tuple(out)


def export_of(*texts: str) -> str:
    games = [{"record": text, "date": DAY} for text in texts]
    data = {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": DAY, "games": games}
    return json.dumps(data | {"current": None})


# -- item 1: one game, one entry ----------------------------------------------------------------


def test_the_twin_file_counts_one_game_and_keeps_its_mark() -> None:
    table, screen, _ = make_table()
    table.transfer.import_text(TWIN_FILE)
    screen.run_timers()
    said = screen.texts["partidas-status"]
    assert said.startswith("Importadas 1 partida.") and "1 partida ya estaba en tu historial." in said, said
    assert table.history.stats().overall.played == 1
    assert [e.text for e in table.history.entries] == [FLAGGED], "the copy with its hint is kept"
    assert "(con pistas)" in plain(screen.htmls["partidas-body"])


@pytest.mark.parametrize("order", ["plain first", "hinted first"])
def test_merging_two_devices_exports_never_counts_a_game_twice(order: str) -> None:
    record = honest()[0]
    hinted = record.with_hint(0)
    first, second = (record, hinted) if order == "plain first" else (hinted, record)
    a, b = History(MemoryBackend(), {}), History(MemoryBackend(), {})
    a.add(first, DAY)
    b.add(second, DAY)
    a.check_all()
    b.check_all()
    for mine, theirs in ((a, b), (b, a)):
        result = mine.import_text(theirs.export(None, DAY))
        assert (result.added, result.duplicates) == (0, 1)
        again = mine.import_text(mine.export(None, DAY))
        assert (again.added, again.duplicates) == (0, 1)
        assert [e.text for e in mine.entries] == [str(hinted)], order
        assert mine.stats().overall.played == 1
        assert mine.entries[0].status == CHECKED, "a result checked here is not lost in the merge"


def test_a_store_holding_both_copies_lists_one_game_and_keeps_the_hinted_one() -> None:
    record = honest()[1]
    hinted = record.with_hint(0)
    games: dict[str, object] = {}
    History(MemoryBackend(), games).add(record, DAY)
    games[str(hinted)] = json.dumps(["2026-12-02", 5, PENDING, None])  # an earlier page kept both
    history = History(MemoryBackend(), games)
    assert [e.text for e in history.entries] == [str(hinted)]
    assert history.entries[0].date == DAY, "the first copy's date and order stay"
    assert str(record) not in games, "the copy without the hint is folded into the other"
    history.check_all()
    assert history.stats().overall.played == 1


def test_a_game_played_here_again_after_importing_it_with_its_hint_counts_once() -> None:
    record = honest()[2]
    history = History(MemoryBackend(), {})
    history.import_text(export_of(str(record.with_hint(0))))
    assert not history.add(record, DAY)
    assert [e.text for e in history.entries] == [str(record.with_hint(0))]


# -- item 2: nothing refused for good that was only unreadable here ------------------------------


@contextlib.contextmanager
def newer_page() -> Iterator[None]:
    """A page whose «normal» level has a version 2 (the same CPU as version 1, as a redeploy may ship)."""
    versions = levels.NORMAL.versions
    object.__setattr__(levels.NORMAL, "versions", (*versions, versions[-1]))
    try:
        yield
    finally:
        object.__setattr__(levels.NORMAL, "versions", versions)


def test_a_rollback_then_a_roll_forward_keeps_the_result() -> None:
    record = honest()[0]
    games: dict[str, object] = {}
    with newer_page():
        newer = replace(record, version=2)
        text = str(newer)
        assert ".n2." in text
        History(MemoryBackend(), games).add(newer, DAY)  # kept by the newer page, not checked yet
    # A rolled-back deploy, or an old tab: it cannot read version 2 of «normal».
    older = History(MemoryBackend(), games)
    older.check_all()
    assert json.loads(str(games[text]))[2] == PENDING, "not stored as a refusal"
    assert older.stats().overall.played == 0 and not older.pending(), "shown, not counted, not checked again"
    table, screen, _ = make_table()
    table.transfer.attach_games(games)
    screen.run_timers()
    body = plain(screen.htmls["partidas-body"])
    assert "1 partida de una versión más nueva: se contarán cuando la página se actualice." in body, body
    assert "Pendiente: es de una versión más nueva" in body
    # The roll forward: the newer page checks it and counts it.
    with newer_page():
        again = History(MemoryBackend(), games)
        again.check_all()
        assert again.stats().overall.played == 1
        assert json.loads(str(games[text]))[2] == CHECKED


def test_a_newer_pages_export_is_kept_pending_by_an_older_page_and_counted_by_a_newer_one() -> None:
    record = honest()[1]
    with newer_page():
        text = str(replace(record, version=2))
    older = History(MemoryBackend(), {})
    result = older.import_text(export_of(text, "r2.A2K7QM92.n1.RxB"))  # the second no page reads
    assert (result.added, result.later, result.refused) == (0, 1, 1)
    assert "Guardadas sin contar 1 partida que esta página no puede comprobar" in result.message()
    assert older.waiting() == {ui.kept.NEWER: 1} and older.stats().overall.played == 0
    with newer_page():
        newer = History(MemoryBackend(), older.games)
        newer.check_all()
        assert newer.stats().overall.played == 1


def test_a_refusal_stored_by_an_earlier_page_is_checked_again() -> None:
    record = honest()[1]
    games: dict[str, object] = {str(record): json.dumps([DAY, 0, REFUSED, None])}
    history = History(MemoryBackend(), games)
    history.check_all()
    assert history.stats().overall.played == 1


def test_a_check_that_breaks_leaves_the_game_pending(monkeypatch: pytest.MonkeyPatch) -> None:
    record = honest()[2]
    games: dict[str, object] = {}
    history = History(MemoryBackend(), games)
    history.add(record, DAY)

    def broken(_record: Record) -> Iterator[float]:
        raise MemoryError

    monkeypatch.setattr(ui.kept, "_cpu_checked", broken)
    history.check_all()
    assert json.loads(str(games[str(record)]))[2] == PENDING
    assert history.waiting() == {ui.kept.BROKEN: 1}
    monkeypatch.undo()
    again = History(MemoryBackend(), games)
    again.check_all()
    assert again.stats().overall.played == 1


def test_a_refusal_for_good_is_still_stored_as_one() -> None:
    record = honest()[0]
    forged = replace(record, moves=(*record.moves[:-1], record.moves[-2]))
    games: dict[str, object] = {str(forged): json.dumps([DAY, 0, PENDING, None])}
    history = History(MemoryBackend(), games)
    history.check_all()
    assert json.loads(str(games[str(forged)]))[2] == REFUSED
    assert history.waiting() == {}


# -- item 6: a challenge refused by the CPU check is set aside like the others -------------------


def test_a_challenge_refused_by_the_cpu_check_leaves_the_address_and_is_set_aside() -> None:
    out: list[Record] = []
    run(2, ["cpu", "random"], 1, "no-es-la-cpu", records=out)  # the CPU seat played at random
    theirs = out[0]
    fragment = challenge_hash(str(theirs), outcome(theirs).total, "Mallory")
    table, screen, backend = make_table(fragment=fragment)
    screen.run_timers()
    assert (screen.last_notice or "").startswith("El reto no cuadra: la CPU no jugó así"), screen.last_notice
    assert "reto=" not in screen.hash, "the refused link leaves the address (not read again on reload)"
    assert backend.getItem(ASIDE_PREFIX + "1") == fragment, "the link's game is kept aside"
    assert table.game is None and table.challenges.challenge is None


# -- item 7: loading says so -----------------------------------------------------------------------


def test_tus_partidas_says_it_is_loading_until_the_store_is_read() -> None:
    page = Page()
    page.start()
    body = [op[2] for op in page.ops if op[:2] == ["html", "partidas-body"]][-1]
    assert "Cargando tus partidas…" in body and "aparecerán aquí" not in body, body
    record = honest()[0]
    games = {str(record): json.dumps([DAY, 0, PENDING, None])}
    page.apply(page.session.attach_games(games, None))
    page.settle()
    body = [op[2] for op in page.ops if op[:2] == ["html", "partidas-body"]][-1]
    assert "Cargando" not in body and "Partidas jugadas" in plain(body)


def test_without_a_store_the_loading_line_gives_way() -> None:
    page = Page()
    page.start()
    page.apply(page.session.games_unavailable())
    body = [op[2] for op in page.ops if op[:2] == ["html", "partidas-body"]][-1]
    assert "Cargando" not in body


def test_a_game_with_a_hint_counts_once_in_the_line_that_ends_it() -> None:
    from test_ui_hint import finished_after_a_hint, your_last_move

    record = your_last_move()
    table, _screen = finished_after_a_hint(record)
    assert [e.text for e in table.history.entries] == [str(record.with_hint(len(record) - 1))]
    assert table.history.entries[0].outcome is not None, "checked on this device"
    assert table.game is not None
    said = record_line(table.history, Record.of(table.game, table.level))  # as the results panel asks
    assert said.endswith(" de 1."), said
