"""Outside data on the real page (issue 23, part 2): one character never stops the page.

Each test follows the issue's reproduction with a superscript two: in the
save at start-up, in a challenge link (its total or its record), in the
challenge kept across reloads, in an import file's current save and in a
save another tab writes. After each: a Spanish notice, the item kept under
``ocho-loco:aparte:<n>``, the page playable (no script error: ``fast_page``
fails on any), and a reload that is clean.
"""

from __future__ import annotations

import json
from functools import partial

from conftest import wait_for_python
from helpers import (
    ASIDE_PREFIX,
    PLAIN_CODE,
    SAVE_KEY,
    STAND_IN,
    act,
    boot,
    envelope,
    notice_text,
    put_storage,
    raw_save,
    storage_items,
    wait_state,
)
from test_stats import records

from engine.game import Game
from engine.record import Record
from engine.stats import outcome
from ui.challenges import CHALLENGE_KEY
from ui.links import challenge_hash

PICTURE_KEY = "ocho-loco:dibujo"  # the picture index.html shows at first paint
BAD_RECORD = "r1.A2K7QM92.n.RxA.²-0-0-0"
BAD_SAVE = json.dumps({"app": "ocho-loco", "version": 2, "record": BAD_RECORD, "ui": {}}, ensure_ascii=False)


def notice(page) -> str:
    return notice_text(page)


def aside(page) -> list[str]:
    items = storage_items(page)
    numbers = sorted(int(k.removeprefix(ASIDE_PREFIX)) for k in items if k.startswith(ASIDE_PREFIX))
    return [items[ASIDE_PREFIX + str(n)] for n in numbers]


def finished_record() -> str:
    return str(records(2, ("cpu", "cpu"), 1, "7")[0])


def reload_clean(page, *states: str) -> str:
    """Reload; no notice, and nothing more set aside."""
    before = aside(page)
    page.reload()
    wait_for_python(page)
    state = wait_state(page, *states)
    assert notice(page) == "", notice(page)
    assert aside(page) == before
    return state


def test_a_save_with_a_superscript_digit_is_set_aside_and_the_page_plays(fast_page, site_url):
    page = fast_page
    put_storage(page, site_url, {SAVE_KEY: BAD_SAVE})
    assert boot(page, site_url) == "setup"
    text = notice(page)
    assert text.startswith("La partida guardada no se ha podido abrir") and "aparte" in text, text
    assert aside(page) == [BAD_SAVE]
    assert raw_save(page) is None
    act(page, partial(page.click, "#deal-btn"), "human", "cpu")
    assert reload_clean(page) in ("human", "cpu")


def test_a_challenge_link_with_a_superscript_digit_is_refused_and_kept(fast_page, site_url):
    page = fast_page
    record = finished_record()
    links = [
        challenge_hash(record, 0, "Ana").replace("pts=0", "pts=%C2%B2"),
        f"#reto={record}.%C2%B2-0-0-0&pts=0&de=Ana",
    ]
    for number, fragment in enumerate(links, start=1):
        page.goto("about:blank")
        assert boot(page, site_url + fragment) == "setup", fragment
        text = notice(page)
        assert text.startswith("El reto no cuadra") and "No se muestra ningún punto suyo" in text, text
        assert "Ana" not in text
        assert len(aside(page)) == number and "reto=" in aside(page)[-1], "the link's game is kept"
        assert page.evaluate("() => location.hash") == "", "a reload does not read the link again"
        assert reload_clean(page) == "setup"
    act(page, partial(page.click, "#deal-btn"), "human", "cpu")


def test_kept_challenge_import_and_other_tab_with_a_superscript_digit_leave_the_game_alone(
    context, fast_page, site_url
):
    page = fast_page
    game = Game.new(PLAIN_CODE)
    mine = envelope(game)
    kept = json.dumps({"record": finished_record() + ".²-0-0-0", "de": "Ana"}, ensure_ascii=False)
    put_storage(page, site_url, {SAVE_KEY: mine, CHALLENGE_KEY: kept, PICTURE_KEY: "{roto"})
    assert boot(page, site_url) == "human"
    text = notice(page)
    assert "El reto que estabas jugando no se ha podido comprobar" in text, text
    # The picture is only a drawing of the save: the first paint drops a bad one and Python redraws.
    assert sorted(aside(page)) == [kept]
    items = storage_items(page)
    assert CHALLENGE_KEY not in items and items.get(PICTURE_KEY) != "{roto", "a fresh picture or none"
    assert raw_save(page) == mine

    # An import file whose current save has the same character.
    export = {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": "2025-03-14"}
    export |= {"games": [], "older": None, "current": json.loads(BAD_SAVE)}
    page.set_input_files(
        "#import-file",
        files=[
            {"name": "partidas.json", "mimeType": "application/json", "buffer": json.dumps(export).encode()}
        ],
    )
    page.wait_for_function(
        "() => document.getElementById('partidas-status').textContent.includes('en curso del archivo')"
    )
    status = page.inner_text("#partidas-status")
    assert "no se ha podido abrir" in status and "aparte" in status, status
    assert len(aside(page)) == 2 and json.loads(aside(page)[-1]) == json.loads(BAD_SAVE)
    assert wait_state(page) == "human" and raw_save(page) == mine

    # Another tab writes the same save into the slot: this tab keeps it aside and puts its own back.
    other = context.new_page()
    blank = site_url + "__other__.html"
    other.route(blank, lambda route: route.fulfill(content_type="text/html", body=STAND_IN))
    other.goto(blank)
    other.evaluate("([key, value]) => localStorage.setItem(key, value)", [SAVE_KEY, BAD_SAVE])
    page.wait_for_function(
        "() => document.getElementById('notice').textContent.startsWith('Otra pestaña ha dejado')"
    )
    page.wait_for_function("([key, mine]) => localStorage.getItem(key) === mine", arg=[SAVE_KEY, mine])
    assert aside(page)[2:] == [BAD_SAVE], "kept aside once (the file's copy is written another way)"
    other.close()
    act(page, partial(page.click, "#main-btn"), "human")  # still playable
    assert reload_clean(page) == "human"


def test_a_forged_challenge_total_shows_no_points_for_a_valid_record(fast_page, site_url):
    """The same record with an honest total is accepted: the refusal above is the character's."""
    page = fast_page
    record = finished_record()
    total = outcome(Record.parse(record)).total
    # The page checks the challenge's moves in slices before it deals, the table still at «setup»:
    # wait for the dealt table itself (a refused challenge would stay at «setup» and time out here).
    link = site_url + challenge_hash(record, total, "Ana")
    assert boot(page, link, "human", "cpu", timeout=120_000) in ("human", "cpu")
    assert page.locator("#challenge-banner").is_visible()
    assert aside(page) == []
