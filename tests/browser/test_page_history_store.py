"""«Tus partidas» in the real page: every game kept in IndexedDB (``pyscript.storage``), checked on
this device before it counts, the localStorage history of earlier pages taken in once, and an import
that shows its progress.

Games are real: the simulator plays cpu against cpu, the «normal» level's own bot, so each record's
CPU moves check out; each test prints the codes it used in its failure messages.
"""

from __future__ import annotations

import functools
import json

from conftest import wait_for_python
from helpers import SAVE_KEY, boot, install_recorder, put_storage, recorded, storage_items, wait_state
from test_page_history import envelope, play_move

from engine.record import Record
from engine.stats import outcome
from lab.history_bench import FILL, flatted
from lab.simulate import run
from ui.history import MIGRATED_KEY
from ui.kept import CHECKED, Entry

LEGACY_KEY = "ocho-loco:partidas"
DAY = "2025-03-14"


@functools.cache
def cpu_games(count: int = 12) -> tuple[Record, ...]:
    out: list[Record] = []
    run(2, ["cpu", "cpu"], count, "almacen", records=out)
    return tuple(out)


def ends_with_you() -> Record:
    return next(r for r in cpu_games() if r.prefix(len(r) - 1).replay().turn == 0)


def wait_checked(page, rows: int, codes: str) -> None:
    """Until the IndexedDB store is open, ``rows`` games are listed and none is waiting for its check."""
    (
        page.wait_for_function(
            """(rows) => {
            const box = document.getElementById('partidas');
            const body = document.getElementById('recent-table');
            return box.dataset.store === 'ready' && body
                && body.querySelectorAll('tbody tr').length === rows
                && !body.textContent.includes('Sin comprobar')
                && document.getElementById('import-progress-box').hidden;
        }""",
            arg=rows,
            timeout=60_000,
        ),
        codes,
    )


def played_row(page) -> list[str]:
    return page.locator("#stats-table tr", has_text="Partidas jugadas").locator("td").all_inner_texts()


def idb_names(page) -> list[str]:
    return page.evaluate("async () => (await indexedDB.databases()).map(d => d.name)")


def test_a_finished_game_is_kept_in_indexeddb_and_survives_a_reload(fast_page, site_url) -> None:
    record = ends_with_you()
    codes = f"code {record.code.pretty()}"
    put_storage(fast_page, site_url, {SAVE_KEY: envelope(record.prefix(len(record) - 1))})
    boot(fast_page, site_url, "human")
    play_move(fast_page, record)
    assert wait_state(fast_page) == "gameover", codes
    wait_checked(fast_page, 1, codes)
    assert played_row(fast_page) == ["1", "0", "1"], codes
    assert LEGACY_KEY not in storage_items(fast_page), "games are no longer kept in localStorage"
    assert any("ocho-loco-partidas" in name for name in idb_names(fast_page)), codes
    fast_page.reload()
    wait_for_python(fast_page)
    wait_checked(fast_page, 1, codes)
    row = fast_page.locator(f'#recent-table tr[data-code="{record.code.text}"]')
    assert row.count() == 1, codes
    assert row.locator("td").all_inner_texts()[3] == str(outcome(record).total), codes
    assert played_row(fast_page) == ["1", "0", "1"], codes


def test_the_old_local_history_is_taken_in_once_losing_nothing(fast_page, site_url) -> None:
    games = cpu_games()[:3]
    codes = ", ".join(r.code.pretty() for r in games)
    older = {"played": 40, "won": 15, "shared": 0, "abandoned": 2, "streak": 0}
    older |= {"best_streak": 4, "best_total": 31, "hands": 200, "penalty": 3000}
    legacy = {
        "app": "ocho-loco",
        "version": 1,
        "games": [{"record": str(r), "date": DAY, "o": [1, [0, 0], [0], [0]]} for r in games],
        "older": {"2": older},
    }
    put_storage(fast_page, site_url, {LEGACY_KEY: json.dumps(legacy)})
    boot(fast_page, site_url, "setup")
    wait_checked(fast_page, 3, codes)
    assert played_row(fast_page) == ["3", "0", "3"], codes  # the old summary is not counted
    won = sum(outcome(r).won for r in games)
    assert fast_page.locator("#stats-table tr", has_text="Ganadas").locator("td").all_inner_texts()[2] == str(
        won
    ), codes
    past = fast_page.inner_text("#past-line")
    assert "40 jugadas, 15 ganadas" in past and "cifra del pasado" in past
    # The games now live in IndexedDB: the page finds them with the old text gone.
    fast_page.evaluate("(key) => localStorage.removeItem(key)", LEGACY_KEY)
    fast_page.reload()
    wait_for_python(fast_page)
    wait_checked(fast_page, 3, codes)
    assert played_row(fast_page) == ["3", "0", "3"], codes


def test_import_shows_its_progress_and_keeps_the_earlier_games(fast_page, site_url, tmp_path) -> None:
    earlier = cpu_games()[:2]
    game = cpu_games()[5]
    prefixes = [game.prefix(n) for n in range(1, len(game) + 1)]
    codes = f"codes {', '.join(r.code.pretty() for r in earlier)}; prefixes of {game.code.pretty()}"
    legacy = {"app": "ocho-loco", "version": 1, "games": [{"record": str(r), "date": DAY} for r in earlier]}
    put_storage(fast_page, site_url, {LEGACY_KEY: json.dumps(legacy)})
    boot(fast_page, site_url, "setup")
    wait_checked(fast_page, 2, codes)
    data = {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": DAY, "current": None}
    data["games"] = [{"record": str(r), "date": "2025-03-15"} for r in prefixes]
    path = tmp_path / "partidas.json"
    path.write_text(json.dumps(data))
    install_recorder(
        fast_page,
        "#partidas",
        "document.getElementById('import-progress-box').hidden ? '' "
        ": document.getElementById('import-progress-label').textContent",
    )
    fast_page.set_input_files("#import-file", str(path))
    fast_page.wait_for_function(
        "() => document.getElementById('partidas-status').textContent.includes('Importadas')", timeout=120_000
    )
    labels = [s for s in recorded(fast_page) if s]
    assert labels and all(s.startswith("Importando ") for s in labels), (codes, labels)
    assert labels[-1].endswith(f"de {len(prefixes)}…") or len(labels) >= 1, (codes, labels)
    assert f"Importadas {len(prefixes)} partidas" in fast_page.inner_text("#partidas-status"), codes
    assert played_row(fast_page)[2] == str(2 + len(prefixes)), codes
    assert fast_page.get_attribute("#import-progress-label", "role") == "status"


GAMES_DB = "IDBMap/@pyscript/ocho-loco-partidas"
STAND_IN = "<!doctype html><title>otra pestaña</title>"


def test_a_blocked_delete_from_another_tab_loses_no_result(fast_page, site_url) -> None:
    """Issue 38, item 5: another tab deletes the games' database while this one holds it open."""
    record = ends_with_you()
    codes = f"code {record.code.pretty()}"
    put_storage(fast_page, site_url, {SAVE_KEY: envelope(record.prefix(len(record) - 1))})
    boot(fast_page, site_url, "human")
    fast_page.wait_for_function("() => document.getElementById('partidas').dataset.store === 'ready'")
    other = fast_page.context.new_page()
    blank = site_url + "__otra__.html"
    other.route(blank, lambda route: route.fulfill(content_type="text/html", body=STAND_IN))
    other.goto(blank)
    other.evaluate(
        """(name) => {
            window.deletion = "asked";
            const request = indexedDB.deleteDatabase(name);
            request.onblocked = () => { window.blocked = true; };
            request.onsuccess = () => { window.deletion = "done"; };
            request.onerror = () => { window.deletion = "failed"; };
        }""",
        GAMES_DB,
    )
    play_move(fast_page, record)  # a result written after the deletion was asked for
    assert wait_state(fast_page) == "gameover", codes
    fast_page.wait_for_function(
        "(text) => document.getElementById('notice').textContent.includes(text)",
        arg="Otra pestaña ha borrado tus partidas",
        timeout=60_000,
    )
    assert other.evaluate("() => window.deletion") == "done", "the page let the deletion through"
    wait_checked(fast_page, 1, codes)
    fast_page.reload()
    wait_for_python(fast_page)
    wait_checked(fast_page, 1, codes)
    assert played_row(fast_page) == ["1", "0", "1"], codes
    other.close()


def bad_keys(count: int) -> list[str]:
    """Lines no page of this game wrote: codes of no deal, far forms, fields cut short, markup."""
    shapes = (
        "r5.X2abcd{n:02d}.n1.AA",
        "r999.A2K7QM92.x.y{n}",
        "r2.A2K7QM92.{n}",
        "<b>{n}</b>",
        "r2.A2K7QM92Z{n}.n1.RxA",
        "r{n}..n1.",
    )
    return [shape.format(n=n) for n in range(count // len(shapes) + 1) for shape in shapes][:count]


def test_a_thousand_bad_lines_planted_in_indexeddb_hide_no_game_and_stop_no_deal(fast_page, site_url) -> None:
    """Issue 43, item 1: one planted line stopped «Tus partidas» and «Otra partida» for good."""
    record = ends_with_you()
    codes = f"code {record.code.pretty()}"
    boot(fast_page, site_url)
    fast_page.wait_for_function("() => document.getElementById('partidas').dataset.store === 'ready'")
    good = Entry(str(record), DAY, 0, CHECKED, outcome(record))
    claim = flatted(json.dumps([DAY, 1, CHECKED, [1, [0, 9], [0], [0, 9]]]))  # each line says «won»
    entries = [[key, claim] for key in bad_keys(1000)]
    entries += [[good.text, flatted(good.value())], [MIGRATED_KEY, flatted("1")]]
    later = [f"r5.A2K7QM92.n1.{n}" for n in ("AA", "AB", "AC")]  # a later form: its notes stay unread
    entries += [[text, flatted(json.dumps([DAY, 5, "?", None]))] for text in later]
    fast_page.evaluate(FILL, [GAMES_DB, entries])  # as the store bench writes its games
    fast_page.reload()
    wait_for_python(fast_page)
    wait_checked(fast_page, 1, codes)
    assert played_row(fast_page) == ["1", "0", "1"], codes
    assert fast_page.locator(f'#recent-table tr[data-code="{record.code.text}"]').count() == 1, codes
    assert "1000 líneas guardadas no son una partida" in fast_page.inner_text("#unreadable-line"), codes
    assert fast_page.inner_text("#waiting-caption") == "Las 3 partidas que esperan a una versión más nueva"
    assert DAY in fast_page.inner_text("#waiting-table"), codes
    fast_page.click(f'#waiting-table button[data-key="{later[0]}"]')  # on the first screen, unfolded
    wait_state(fast_page, "replace")
    fast_page.click("#replace-yes")
    fast_page.wait_for_function(
        "() => document.getElementById('waiting-caption')?.textContent.startsWith('Las 2 partidas')"
    )
    fast_page.click("#deal-btn")
    assert wait_state(fast_page, "human", "cpu") in ("human", "cpu"), codes
