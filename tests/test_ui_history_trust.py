"""«Tus partidas» takes nothing on trust (issue 23, part 6): every game kept as its record, statistics
only from records replayed and checked on this device, CPU moves included.

Each test drives the page's :class:`ui.table.Table` over a :class:`FakeScreen`,
as the page does; checks and imports run in the screen's timer slices
(``screen.run_timers()``). Games are real: the simulator plays seat 0 with
the random bot and every other seat with ``cpu``, the bot of the «normal»
level, so their CPU moves check out.
"""

from __future__ import annotations

import functools
import json

import pytest
from fake_screen import FakeScreen, make_table, plain
from hypothesis import given
from hypothesis import strategies as st
from profiles import budget

import ui.history
from engine.record import Record
from engine.stats import outcome
from lab.simulate import run
from ui.history import History
from ui.history_file import HistoryFileError, thousands
from ui.storage import MemoryBackend
from ui.table import Table

DAY = "2025-03-14"
LATER = "2025-03-20"


def honest(count: int, seed: str = "fiel", players: int = 2) -> tuple[Record, ...]:
    """Finished games whose CPU seats played the «normal» level's own moves: the seed's first ``count``."""
    return tuple(honest_game(index, seed, players) for index in range(count))


@functools.cache
def honest_game(index: int, seed: str, players: int) -> Record:
    """Game ``index`` of the seed, played once whatever count of games a test asks for."""
    out: list[Record] = []
    run(players, ["random"] + ["cpu"] * (players - 1), 1, seed, start=index, records=out)
    return out[0]


def keep(table: Table, screen: FakeScreen, games: tuple[Record, ...] | list[Record], day: str = DAY) -> None:
    for record in games:
        assert table.history.add(record, day), record
    # As a game ending on the table does (a page without checks has nothing to start).
    table.transfer.start_work()
    screen.run_timers()


def played(table: Table) -> int:
    return table.history.stats().overall.played


def test_reimporting_an_old_export_counts_nothing_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    # Today's page folds games beyond KEEP into a summary; a small KEEP shows it with few games.
    monkeypatch.setattr(ui.history, "KEEP", 10, raising=False)
    games = honest(30)
    table, screen, _ = make_table()
    keep(table, screen, games[:10])
    _name, old_file = table.transfer.export_text()
    keep(table, screen, games[10:], LATER)
    assert played(table) == 30
    table.transfer.import_text(old_file)
    screen.run_timers()
    assert played(table) == 30, "the old file's games are the same games, counted once"
    status = screen.texts["partidas-status"]
    assert "Importadas 0 partidas" in status and "10 partidas ya estaban" in status


def test_a_summary_in_a_file_is_never_counted() -> None:
    games = honest(3)
    source, screen, _ = make_table()
    keep(source, screen, games)
    _name, text = source.transfer.export_text()
    data = json.loads(text)
    tally = {"played": 5000, "won": 5000, "shared": 0, "abandoned": 0, "streak": 5000}
    tally |= {"best_streak": 5000, "best_total": 0, "hands": 5000, "penalty": 0}
    data["older"] = {"2": tally, "3": dict(tally, played=999_999_999, won=999_999_999)}
    fresh, screen2, _ = make_table()
    fresh.transfer.import_text(json.dumps(data))
    screen2.run_timers()
    assert fresh.history.stats() == source.history.stats()
    assert played(fresh) == 3
    body = plain(screen2.htmls["partidas-body"])
    assert "5000" not in body and "999999999" not in body


FORGED = "r1.A2K7QM92.n.AAAA"


def test_cached_results_in_storage_are_never_taken() -> None:
    # The localStorage history of earlier pages, with a result that no replay gives.
    backend = MemoryBackend()
    stored = {
        "app": "ocho-loco",
        "version": 1,
        "games": [{"record": FORGED, "date": DAY, "o": [1, [0, 104], [0], [0]]}],
    }
    backend.setItem(ui.history.HISTORY_KEY, json.dumps(stored))
    table, screen, _ = make_table(backend)
    screen.run_timers()
    stats = table.history.stats().overall
    assert (stats.won, stats.best_total) == (0, None)
    assert "No cuadra" in plain(screen.htmls["partidas-body"]), "kept, and said not to count"


def test_cached_results_in_a_file_are_never_taken() -> None:
    data = {
        "app": "ocho-loco",
        "format": "partidas",
        "version": 1,
        "games": [{"record": FORGED, "date": DAY, "o": [1, [0, 104], [0], [0]]}],
    }
    table, screen, _ = make_table()
    table.transfer.import_text(json.dumps(data))
    screen.run_timers()
    assert table.history.stats().overall.won == 0
    assert "Rechazadas 1 partida" in screen.texts["partidas-status"]


def test_a_game_with_its_level_changed_is_refused() -> None:
    game = honest(1)[0]
    table, screen, _ = make_table()
    keep(table, screen, [game])
    _name, text = table.transfer.export_text()
    data = json.loads(text)
    hard = str(Record(game.code, game.moves, "dificil"))
    assert hard != str(game)
    data["games"][0]["record"] = hard
    table.transfer.import_text(json.dumps(data))
    screen.run_timers()
    assert played(table) == 1, "the same game under another level letter is not another game"
    assert "Rechazadas 1 partida" in screen.texts["partidas-status"]


def test_cpu_moves_that_are_not_the_cpus_never_count() -> None:
    # Seat 1 played the random bot: legal moves, but not the «normal» CPU's (issue 23, part 1).
    forged: list[Record] = []
    run(2, ["cpu", "random"], 3, "tramposo", records=forged)
    table, screen, _ = make_table()
    keep(table, screen, forged)
    assert played(table) == 0
    assert len(table.history.entries) == 3, "kept as records, never counted"
    assert plain(screen.htmls["partidas-body"]).count("No cuadra") == 3


def test_every_game_is_kept_as_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ui.history, "KEEP", 10, raising=False)
    games = honest(30)
    table, screen, _ = make_table()
    keep(table, screen, games)
    _name, text = table.transfer.export_text()
    assert [g["record"] for g in json.loads(text)["games"]] == [str(r) for r in games]
    assert "older" not in json.loads(text)
    assert played(table) == 30


def test_kept_games_survive_a_reload_from_the_games_store() -> None:
    games = honest(4)
    store: dict[str, object] = {}
    backend = MemoryBackend()
    first = History(backend, store)
    for record in games:
        first.add(record, DAY)
    first.check_all()
    assert set(store) >= {str(r) for r in games}
    again = History(backend, store)
    assert [e.text for e in again.entries] == [str(r) for r in games]
    assert again.stats() == first.stats() and not again.pending()


def test_two_tabs_keep_each_others_games() -> None:
    store: dict[str, object] = {}
    first, second = History(None, store), History(None, store)
    a, b = honest(2)
    assert first.add(a, DAY)
    assert second.add(b, DAY)
    assert {e.text for e in History(None, store).entries} == {str(a), str(b)}


def test_import_runs_in_slices_with_progress_and_drops_nothing() -> None:
    earlier = honest(10)
    table, screen, _ = make_table()
    keep(table, screen, earlier)
    game = honest(1, "largo")[0]
    prefixes = [game.prefix(n) for n in range(1, len(game) + 1)]  # every one a valid (abandoned) game
    data = {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": DAY, "current": None}
    data["games"] = [{"record": str(r), "date": LATER} for r in prefixes]
    table.transfer.import_text(json.dumps(data))
    assert played(table) == 10, "nothing is replayed before the first slice"
    labels: list[str] = []
    while screen.timers:
        screen.run_one()
        if screen.get_attr("import-progress-box", "hidden") is None:
            labels.append(screen.texts["import-progress-label"])
    assert labels and labels[0].startswith("Importando ") and labels[-1].endswith(f"de {len(prefixes)}…")
    assert screen.get_attr("import-progress-box", "hidden") == ""
    assert played(table) == 10 + len(prefixes)
    assert {str(r) for r in earlier} <= {e.text for e in table.history.entries}
    assert f"Importadas {len(prefixes)} partidas" in screen.texts["partidas-status"]


def test_spanish_thousands_in_the_progress_label() -> None:
    assert thousands(12650) == "12.650"


def test_old_local_history_is_migrated_once_losing_nothing() -> None:
    games = honest(5)
    older = {"played": 40, "won": 15, "shared": 0, "abandoned": 2, "streak": 0}
    older |= {"best_streak": 4, "best_total": 31, "hands": 200, "penalty": 3000}
    stored = {
        "app": "ocho-loco",
        "version": 1,
        "games": [{"record": str(r), "date": DAY, "o": [0, [0, 0], [], []]} for r in games],
        "older": {"2": older},
    }
    backend = MemoryBackend()
    backend.setItem(ui.history.HISTORY_KEY, json.dumps(stored))
    table, screen, _ = make_table(backend)
    screen.run_timers()
    assert [e.text for e in table.history.entries] == [str(r) for r in games]
    assert table.history.stats().overall.played == 5, "the old summary is not in the statistics"
    assert table.history.stats().overall.won == sum(outcome(r).won for r in games)
    body = plain(screen.htmls["partidas-body"])
    assert "40 jugadas, 15 ganadas" in body and "cifra del pasado" in body
    # Once: a second start over the same store takes nothing in again.
    store = table.history.games
    again = History(backend, store)
    assert len(again.entries) == 5 and again.past is not None


@given(st.text())
@budget(200)
def test_the_import_reader_raises_only_its_own_error(text: str) -> None:
    history = History(None, {})
    try:
        job = history.importer(text)
    except HistoryFileError:
        return
    for _ in job.steps():
        pass


@given(st.lists(st.fixed_dictionaries({"record": st.text(), "date": st.text()}), max_size=5))
@budget(100)
def test_games_of_any_text_are_refused_one_by_one(games: list[dict[str, str]]) -> None:
    history = History(None, {})
    text = json.dumps({"app": "ocho-loco", "format": "partidas", "version": 1, "games": games})
    result = history.import_text(text)
    assert result.refused + result.added + result.duplicates == len(games)
