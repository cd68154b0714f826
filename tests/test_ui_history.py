"""«Tus partidas» storage, export and import (ui.history) and the page flow around them (ui.table).

Games are real: records from the simulator, and a save one move from the end
built from a finished record (``record.prefix(len(record) - 1)``).
"""

from __future__ import annotations

import functools
import json

import pytest
from fake_screen import FakeScreen, make_table, plain, play_to_the_end
from test_stats import abandoned, lost2, records, shared3, won2

from engine.daily import daily_code
from engine.game import GAME_OVER, PLAYING, Game
from engine.record import Record
from engine.stats import outcome
from ui.challenges import keep_challenge
from ui.history import HISTORY_KEY, History
from ui.history_file import HistoryFileError
from ui.links import challenge_hash, read_challenge
from ui.storage import SAVE_KEY, MemoryBackend
from ui.table import Table

DAY = "2025-03-14"


def envelope(record: Record) -> str:
    """The page's version-2 save of ``record``."""
    return json.dumps({"app": "ocho-loco", "version": 2, "record": str(record), "ui": {"chooser": None}})


def near_end(record: Record) -> MemoryBackend:
    """Storage whose saved game is ``record`` one move from its end."""
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, envelope(record.prefix(len(record) - 1)))
    return backend


# -- storage, export, import --------------------------------------------------------------------


@functools.cache
def honest(count: int = 20, seed: str = "h") -> tuple[Record, ...]:
    """Finished 2-player games whose CPU seat played the «normal» level's moves (seat 0 too: cpu)."""
    return records(2, ("cpu", "cpu"), count, seed)


def honest_won() -> Record:
    return next(r for r in honest() if outcome(r).won)


def honest_lost() -> Record:
    return next(r for r in honest() if not outcome(r).won)


def test_history_keeps_each_game_once_and_reloads_it() -> None:
    store: dict[str, object] = {}
    history = History(MemoryBackend(), store)
    assert history.add(honest_won(), DAY)
    assert not history.add(honest_won(), DAY)  # the same record again: kept once
    assert history.add(abandoned(lost2()), DAY)
    assert not history.add(Record.of(Game.new("A2K7QM92")), DAY)  # no move at all: nothing played
    history.check_all()
    again = History(MemoryBackend(), store)
    assert [e.text for e in again.entries] == [str(honest_won()), str(abandoned(lost2()))]
    assert again.stats() == history.stats()
    assert again.stats().overall.abandoned == 1


def test_a_stored_value_that_does_not_fit_is_checked_again() -> None:
    store: dict[str, object] = {}
    history = History(None, store)
    history.add(honest_won(), DAY)
    history.check_all()
    store[str(honest_won())] = json.dumps(
        [DAY, 0, "ok", [1, [0, 0, 0, 0], [5], []]]
    )  # not this table's shape
    again = History(None, store)
    assert again.pending() and again.stats().overall.played == 0
    again.check_all()
    assert again.entries[0].outcome == outcome(honest_won())


def test_an_unreadable_old_history_is_left_where_it_was() -> None:
    backend = MemoryBackend()
    backend.setItem(HISTORY_KEY, "{nope")
    history = History(backend, {})
    assert history.entries == []
    assert backend.getItem(HISTORY_KEY) == "{nope"


def test_export_import_round_trip_into_a_fresh_device() -> None:
    source = History(MemoryBackend(), {})
    for r in (honest_won(), abandoned(lost2()), honest_lost()):
        source.add(r, DAY)
    source.check_all()
    current = envelope(lost2().prefix(10))
    text = source.export(current, DAY)
    data = json.loads(text)
    assert (data["app"], data["format"], data["version"]) == ("ocho-loco", "partidas", 1)
    assert data["current"] == json.loads(current)
    fresh = History(MemoryBackend(), {})
    result = fresh.import_text(text)
    assert (result.added, result.duplicates, result.refused) == (3, 0, 0)
    assert result.current is not None and json.loads(result.current) == json.loads(current)
    assert fresh.stats() == source.stats()
    # Importing the same file again adds nothing.
    again = fresh.import_text(text)
    assert (again.added, again.duplicates, again.refused) == (0, 3, 0)
    assert len(fresh.entries) == 3


def test_import_refuses_tampered_records_and_merges_without_duplicates() -> None:
    source = History(MemoryBackend(), {})
    for r in (honest_won(), lost2()):
        source.add(r, DAY)
    data = json.loads(source.export(None, DAY))
    text = data["games"][1]["record"]
    data["games"][1]["record"] = text[:-3] + ("AAA" if text[-3:] != "AAA" else "BBB")  # a forged move
    data["games"].append({"record": "r1.A2K7QM92.n.zzzz", "date": DAY})
    data["games"].append({"record": str(honest_lost()), "date": "ayer"})
    target = History(MemoryBackend(), {})
    target.add(honest_won(), "2025-03-01")
    result = target.import_text(json.dumps(data))
    assert (result.added, result.duplicates, result.refused) == (0, 1, 3)
    assert "Rechazadas 3 partidas" in result.message()
    assert [e.text for e in target.entries] == [str(honest_won())]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"app": "otra"}',
        '{"app": "ocho-loco", "format": "partidas", "version": 9}',
        '{"app": "ocho-loco", "format": "otra", "version": 1, "games": []}',
        "[" * 50,
    ],
)
def test_import_refuses_files_that_are_not_an_export(text: str) -> None:
    with pytest.raises(HistoryFileError):
        History(MemoryBackend()).import_text(text)


# -- the page flow ---------------------------------------------------------------------------------


def finish(
    record: Record, fragment: str = "", backend: MemoryBackend | None = None
) -> tuple[Table, FakeScreen, MemoryBackend]:
    """A table resumed one move before ``record``'s end, then that last move played."""
    backend = backend if backend is not None else near_end(record)
    table, screen, backend = make_table(backend, fragment=fragment)
    table.today = lambda: DAY
    assert table.game is not None
    last = record.moves[-1]
    if table.game.turn == 0:
        table.play(last)
    else:
        screen.run_timers()
    screen.run_timers()
    assert table.game.phase == GAME_OVER
    assert str(Record.of(table.game)) == str(record), "the CPU played the record's last move"
    return table, screen, backend


def cpu_ends(record: Record) -> bool:
    return record.prefix(len(record) - 1).replay().turn != 0


def test_a_finished_game_shows_in_your_games() -> None:
    record = honest_won()
    table, screen, _backend = finish(record)
    body = plain(screen.htmls["partidas-body"])
    assert "Partidas jugadas" in body and record.code.pretty() in body
    assert table.history.entries[-1].text == str(record)
    assert "Ganada" in body


def test_a_game_abandoned_for_a_new_one_counts_as_played_not_won() -> None:
    table, screen, _backend = make_table(near_end(lost2()))
    table.request_deal(2)
    assert screen.body == "replace"
    table.answer_replace(True)
    screen.run_timers()
    entries = table.history.entries
    assert len(entries) == 1 and entries[0].outcome is not None
    assert entries[0].outcome.result == "abandonada"
    assert "Abandonada" in plain(screen.htmls["partidas-body"])


def test_daily_button_deals_todays_code_and_asks_before_replacing() -> None:
    table, screen, _ = make_table()
    table.today = lambda: DAY
    table.daily.request(3)
    assert table.game is not None and table.game.code == daily_code(DAY, 3)
    table.daily.request(2)
    assert screen.body == "replace" and screen.focused != "replace-yes"
    table.answer_replace(False)
    assert table.game.code == daily_code(DAY, 3)
    table.daily.request(2)
    table.answer_replace(True)
    assert table.game.code == daily_code(DAY, 2)
    assert daily_code(DAY, 2).pretty() in plain(screen.htmls["partidas-body"])


def test_daily_note_says_the_day_in_words_and_leaves_the_codes_to_tus_partidas() -> None:
    """#25 item 13: «Hoy (2025-03-14, fecha de tu dispositivo): 1 contra 1: A2QE-DK6U · …» meant nothing."""
    table, screen, _ = make_table()
    table.today = lambda: DAY
    table.transfer.render()
    note = screen.texts["daily-note"]
    assert "14 de marzo" in note and "mismo reparto" in note
    assert DAY not in note and all(daily_code(DAY, n).pretty() not in note for n in (2, 3))
    line = plain(screen.htmls["partidas-body"])
    assert "Partida del día de hoy, 14 de marzo" in line
    for n, name in ((2, "1 contra 1"), (3, "3 en la mesa")):
        assert f"{name}, sin jugar todavía (código {daily_code(DAY, n).pretty()})" in line


def test_challenge_link_round_trip_and_comparison() -> None:
    theirs = records(2, ("cpu", "cpu"), 1, "7")[0]  # the page's CPU is the cpu bot: same moves, same game
    total = outcome(theirs).total
    fragment = challenge_hash(str(theirs), total, "Ana <b>")
    table, screen, _backend = make_table(fragment=fragment)
    screen.run_timers()  # the CPU moves are checked on the timer first
    assert screen.texts["challenge-banner"] == f"Te reta Ana <b>: {total} puntos con este reparto."
    assert screen.get_attr("challenge-banner", "hidden") is None
    assert table.game is not None and table.game.code == theirs.code
    # The receiver plays the very same moves: the comparison has both totals, hand by hand.
    play_to_the_end(table, screen, lambda game: theirs.moves[len(Record.of(game))])
    assert table.game.phase == GAME_OVER
    table.results.open_final()  # «Ver el final»: the comparison is part of the end of the game
    comparison = table.challenges.comparison()
    assert comparison and screen.htmls["gameover-body"].endswith(comparison)
    compare = plain(comparison)
    assert "El reto, mano a mano" in compare and "Empate en el reto" in compare
    assert compare.count("Mano ") == len(outcome(theirs).penalties)


def test_challenge_link_asks_before_replacing_a_game_in_progress() -> None:
    theirs = lost2()  # a challenge's CPU seat plays as the page's CPU (won2's is a random bot)
    backend = near_end(shared3())  # another game, one move from its end
    table, screen, _ = make_table(backend, fragment=challenge_hash(str(theirs), outcome(theirs).total, "Ana"))
    screen.run_timers()
    assert screen.body == "replace"
    assert screen.texts["replace-yes"] == "Aceptar el reto"
    table.answer_replace(False)
    assert table.game is not None and table.game.code == shared3().code
    assert screen.get_attr("challenge-banner", "hidden") == ""
    table.arrivals.open(challenge_hash(str(theirs), outcome(theirs).total, "Ana"))
    screen.run_timers()
    table.answer_replace(True)
    assert table.game.code == theirs.code


@pytest.mark.parametrize("forge", ["total", "move", "code"])
def test_forged_challenge_is_refused_without_showing_a_score(forge: str) -> None:
    theirs = won2()
    text, total = str(theirs), outcome(theirs).total
    if forge == "total":
        total -= 1
    elif forge == "move":
        text = text[:-2] + ("AA" if text[-2:] != "AA" else "BB")
    else:
        text = text.replace(theirs.code.text, "A2ABCDE" + text[9])
    table, screen, _ = make_table(fragment=challenge_hash(text, total, "Mallory"))
    screen.run_timers()
    notice = screen.last_notice or ""
    assert notice.startswith("El reto no cuadra")
    assert "Mallory" not in notice and str(total) not in notice
    assert "challenge-banner" not in screen.texts
    assert table.game is None


def test_challenge_survives_a_reload() -> None:
    theirs = lost2()
    _table, screen, backend = make_table(fragment=challenge_hash(str(theirs), outcome(theirs).total, "Ana"))
    screen.run_timers()
    table2, screen2, _ = make_table(backend)
    screen2.run_timers()
    assert table2.challenges.challenge is not None and table2.challenges.challenge.name == "Ana"
    assert screen2.get_attr("challenge-banner", "hidden") is None
    keep_challenge(backend, "basura")
    table3, _screen3, _ = make_table(backend)
    assert table3.challenges.challenge is None


def test_retar_copies_a_link_that_verifies() -> None:
    record = records(2, ("cpu", "cpu"), 1, "7")[0]  # the page's CPU in seat 1, as on the page
    table, screen, _ = finish(record)
    table.challenges.link("  Bea  ")
    screen.run_timers()  # your own game's CPU moves are checked before the link is offered
    url = screen.copied[-1]
    raw = read_challenge(url.split("#", 1)[1])
    assert raw == (str(record), str(outcome(record).total), "Bea")
    # Said inside the results panel that is open, never as a raw link in the layout (issue 25, item 4).
    said = screen.texts["challenge-status"]
    assert said.startswith("Enlace del reto copiado") and url not in said, said
    assert url not in screen.last_status
    assert screen.get_attr("challenge-url", "value") == url, "the link to copy by hand, in a field"
    assert screen.get_attr("challenge-url", "hidden") is None


def test_import_never_replaces_a_game_in_progress_without_asking() -> None:
    source = History(MemoryBackend(), {})
    source.add(honest_won(), DAY)
    text = source.export(envelope(honest_lost().prefix(20)), DAY)
    mine = next(r for r in honest() if not cpu_ends(r))  # nothing for the CPU to play meanwhile
    table, screen, _backend = make_table(near_end(mine))
    table.transfer.import_text(text)
    screen.run_timers()
    assert screen.body == "replace" and "archivo" in screen.texts["replace-title"]
    assert "Importadas 1 partida" in screen.texts["partidas-status"]
    table.answer_replace(False)
    assert table.game is not None and str(Record.of(table.game)) == str(mine.prefix(len(mine) - 1))
    table.transfer.import_text(text)
    screen.run_timers()
    table.answer_replace(True)
    assert str(Record.of(table.game)) == str(honest_lost().prefix(20))


def test_game_over_says_where_the_game_went_and_your_record_and_opens_tus_partidas() -> None:
    """#25 item 12: the end of a game names «Tus partidas» and your record there, with a way to open it."""
    table, screen, _ = make_table()
    won = 0
    for played in (1, 2):
        table.request_deal(2)
        play_to_the_end(table, screen)
        assert table.game is not None and screen.body == "gameover"
        table.results.open_final()  # «Ver el final»
        assert screen.is_open("gameover-dialog")
        won += outcome(Record.of(table.game, table.level)).won
        wins = "1 ganada" if won == 1 else f"{won} ganadas"
        line = f"Esta partida ya está en «Tus partidas»: llevas {wins} de {played}."
        assert screen.texts["results-record"] == line, "counted at once, before its check on this device"
        screen.run_timers()  # its check on this device ends meanwhile
        assert table.history.stats().overall.played == played
    table.results.see_partidas()
    assert not screen.is_open("gameover-dialog") and screen.focused == "partidas"
    assert screen.body == "setup"
    table.results.final_dismissed()  # the browser's close event of the panel just closed
    assert not screen.is_open("gameover-dialog"), "left for «Tus partidas», the panel stays closed"
    code = table.game.code
    table.request_deal(2)
    assert table.game.phase == PLAYING and table.game.code != code
