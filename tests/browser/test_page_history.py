"""«Tus partidas», the deal of the day and challenges on the real page.

Games are real: records from the simulator (cpu against cpu, the page's own
CPU), saved one move from their end as version-2 saves, or played move by
move from a challenger's record.
"""

from __future__ import annotations

import datetime
import functools
import json

from helpers import (
    SAVE_KEY,
    boot,
    more_options,
    open_panel,
    put_storage,
    raw_save,
    see_the_end,
    wait_for_python,
    wait_state,
)
from test_page_quality import axe_problems

from engine.daily import daily_code
from engine.record import Record
from engine.stats import outcome
from lab.simulate import run
from ui.links import challenge_hash


@functools.cache
def cpu_games(players: int = 2, count: int = 40) -> tuple[Record, ...]:
    out: list[Record] = []
    run(players, ["cpu"] * players, count, "navegador", records=out)
    return tuple(out)


def ends_with_you() -> Record:
    """A finished game whose last move is yours (a card played)."""
    return next(r for r in cpu_games() if r.prefix(len(r) - 1).replay().turn == 0)


def shortest() -> Record:
    return min(cpu_games(), key=len)


def envelope(record: Record) -> str:
    return json.dumps({"app": "ocho-loco", "version": 2, "record": str(record), "ui": {"chooser": None}})


def saved_moves(page) -> int:
    raw = raw_save(page)
    return 0 if raw is None else len(Record.parse(json.loads(raw)["record"]))


def play_move(page, record: Record) -> None:
    """Play the record's next move of yours on the page and wait until the table settles again."""
    move = record.moves[saved_moves(page)]
    before = raw_save(page)
    if move.kind in ("draw", "pass"):
        page.click("#main-btn")
    else:
        page.click(f'#hand button[data-card="{move.card}"]')
        if move.suit is not None:
            wait_state(page, "chooser")
            before = raw_save(page)  # the open chooser is saved too: the move is the save after it
            page.click(f'#suit-dialog button[data-suit="{"SHDC"[move.suit]}"]')
    page.wait_for_function(
        "([key, before]) => window.localStorage.getItem(key) !== before", arg=[SAVE_KEY, before]
    )
    wait_state(page)


def play_through(page, record: Record) -> None:
    """Play ``record``'s moves of yours until the game is over (the page's CPU plays the others)."""
    while (state := wait_state(page)) != "gameover":
        if state == "results":
            page.click("#next-hand-btn")
            page.wait_for_function("() => document.body.dataset.state !== 'results'")
        else:
            assert state == "human", state
            play_move(page, record)


def stats_text(page) -> str:
    return page.inner_text("#stats-table")


def wait_all_checked(page) -> None:
    """Until the games store is open and every kept game has been checked on this device."""
    page.wait_for_function(
        """() => document.getElementById('partidas').dataset.store === 'ready'
            && !document.getElementById('partidas-body').textContent.includes('Sin comprobar')
            && document.getElementById('import-progress-box').hidden""",
        timeout=60_000,
    )


def test_finished_game_shows_in_your_games(fast_page, site_url, screenshot) -> None:
    record = ends_with_you()
    put_storage(fast_page, site_url, {SAVE_KEY: envelope(record.prefix(len(record) - 1))})
    boot(fast_page, site_url, "human")
    play_move(fast_page, record)
    assert wait_state(fast_page) == "gameover"
    wait_all_checked(fast_page)
    row = fast_page.locator(f'#recent-table tr[data-code="{record.code.text}"]')
    expect_text = outcome(record)
    assert row.count() == 1
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == record.code.pretty() and cells[3] == str(expect_text.total)
    played = fast_page.locator("#stats-table tr", has_text="Partidas jugadas").locator("td").all_inner_texts()
    assert played == ["1", "0", "1"]
    see_the_end(fast_page)
    fast_page.click("#see-partidas-btn")  # «Ver «Tus partidas»»: the game-over view gives way to the list
    fast_page.wait_for_function(
        "() => document.activeElement.id === 'partidas' && !document.getElementById('gameover-dialog').open"
    )
    assert fast_page.locator("#recent-table").is_visible()
    assert axe_problems(fast_page) == []  # «Tus partidas» as shown, with this game in it
    screenshot("tus-partidas")


def test_export_then_import_in_a_fresh_context_gives_the_same_numbers(
    fast_page, site_url, browser, tmp_path
) -> None:
    record = ends_with_you()
    put_storage(fast_page, site_url, {SAVE_KEY: envelope(record.prefix(len(record) - 1))})
    boot(fast_page, site_url, "human")
    play_move(fast_page, record)
    see_the_end(fast_page)
    fast_page.click("#new-game-btn")  # one more game, then abandoned for the deal of the day
    wait_state(fast_page, "human")
    fast_page.click("#main-btn")  # a draw: the new game has a move, so leaving it counts
    fast_page.wait_for_function("() => !document.getElementById('main-btn').textContent.includes('(3)')")
    wait_state(fast_page)
    more_options(fast_page)
    fast_page.click("#daily-btn")
    wait_state(fast_page, "replace")
    fast_page.click("#replace-yes")
    wait_state(fast_page, "human")
    wait_all_checked(fast_page)
    before = stats_text(fast_page)
    assert "Abandonadas\t0\t0\t0" not in before
    with fast_page.expect_download() as info:
        open_panel(fast_page, "partidas")
        fast_page.click("#export-btn")
    path = tmp_path / "partidas.json"
    info.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["format"] == "partidas" and len(data["games"]) == 2 and data["current"] is not None

    ctx = browser.new_context(locale="es-ES")
    try:
        other = ctx.new_page()
        other.emulate_media(reduced_motion="reduce")
        boot(other, site_url, "setup")
        other.set_input_files("#import-file", str(path))
        other.wait_for_function(
            "() => document.getElementById('partidas-status').textContent.includes('Importadas')"
        )
        assert "Importadas 2 partidas" in other.inner_text("#partidas-status")
        wait_all_checked(other)
        assert stats_text(other) == before
        # No game was under way here, so the file's current game is the one on the table now.
        wait_state(other, "human")
        assert other.inner_text("#game-code") == fast_page.inner_text("#game-code")
    finally:
        ctx.close()


def test_two_browsers_get_the_same_daily_code_on_the_same_date(browser, site_url) -> None:
    day = datetime.datetime(2025, 6, 15, 10, 30)
    codes = []
    for _ in range(2):
        ctx = browser.new_context(locale="es-ES")
        try:
            page = ctx.new_page()
            page.clock.set_fixed_time(day)
            boot(page, site_url, "setup")
            page.click("#mode-3")
            more_options(page)
            page.click("#daily-btn")
            wait_state(page, "human")
            codes.append(page.inner_text("#game-code"))
            assert "15 de junio" in page.inner_text("#daily-note")
        finally:
            ctx.close()
    assert codes == [daily_code("2025-06-15", 3).pretty()] * 2


def test_challenge_link_shows_the_total_and_compares_at_the_end(fast_page, site_url) -> None:
    theirs = shortest()
    total = outcome(theirs).total
    fast_page.goto(site_url + challenge_hash(str(theirs), total, "Ana <b>"))
    wait_for_python(fast_page)
    wait_state(fast_page, "human")
    banner = fast_page.locator("#challenge-banner")
    assert banner.is_visible()
    assert banner.inner_text() == f"Te reta Ana <b>: {total} puntos con este reparto."
    assert fast_page.inner_text("#game-code") == theirs.code.pretty()
    play_through(fast_page, theirs)
    see_the_end(fast_page)  # the comparison is part of the end of the game
    compare = fast_page.locator("#challenge-compare")
    assert compare.is_visible()
    assert "Empate en el reto" in compare.inner_text()  # the same moves against the same CPU
    assert compare.locator("tbody tr").count() == len(outcome(theirs).penalties) + 1
    assert axe_problems(fast_page) == []


def test_forged_challenge_link_is_refused(fast_page, site_url) -> None:
    theirs = shortest()
    total = outcome(theirs).total
    fast_page.goto(site_url + challenge_hash(str(theirs), total + 7, "Mallory"))
    wait_for_python(fast_page)
    wait_state(fast_page, "setup")
    notice = fast_page.locator("#notice").inner_text()
    assert "El reto no cuadra" in notice
    assert not fast_page.locator("#challenge-banner").is_visible()
    assert "Mallory" not in fast_page.inner_text("body")
    assert raw_save(fast_page) is None


def test_challenge_link_asks_before_replacing_a_game_in_progress(fast_page, site_url) -> None:
    theirs = shortest()
    mine = next(r for r in cpu_games() if r.code != theirs.code)
    put_storage(fast_page, site_url, {SAVE_KEY: envelope(mine.prefix(len(mine) // 2))})
    fast_page.goto(site_url + challenge_hash(str(theirs), outcome(theirs).total, "Ana"))
    wait_for_python(fast_page)
    assert wait_state(fast_page, "replace") == "replace"
    assert fast_page.inner_text("#replace-yes") == "Aceptar el reto"
    # The safe choice has the focus: Enter keeps the game in progress.
    assert fast_page.evaluate("() => document.activeElement.id") == "replace-no"
    fast_page.keyboard.press("Enter")
    wait_state(fast_page, "human", "cpu")
    assert fast_page.inner_text("#game-code") == mine.code.pretty()
    kept = Record.parse(json.loads(raw_save(fast_page) or "{}")["record"])
    assert kept.extends(mine.prefix(len(mine) // 2))  # the same game, perhaps a CPU move further on
    assert not fast_page.locator("#challenge-banner").is_visible()
