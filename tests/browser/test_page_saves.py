"""Saving, resuming and share links on the real page.

Covers reloads mid-turn (draws used, an open suit chooser), the same link in
two browsers, tampered links, unreadable saves set aside, the question
before a link replaces an unfinished game, and a browser that refuses or
runs out of storage.
"""

from __future__ import annotations

import json
from functools import partial

import pytest
from helpers import (
    ASIDE_PREFIX,
    EIGHT_CODE,
    PLAIN_CODE,
    SAVE_KEY,
    act,
    boot,
    envelope,
    hand,
    link,
    main_text,
    notice_text,
    put_storage,
    raw_save,
    saved_game,
    storage_items,
    top_card,
    wait_for_python,
    wait_state,
)

from engine.codes import CodeError, GameCode
from engine.game import Game

TAMPERED = "A2K7-QM93"  # A2K7-QM92 with its last character changed


def table_snapshot(page) -> dict[str, object]:
    return {
        "hand": hand(page),
        "top": top_card(page),
        "stock": page.inner_text("#stock-count"),
        "main": main_text(page),
        "suit": page.get_attribute("#active-suit", "data-suit"),
        "code": page.inner_text("#game-code"),
    }


def notice(page) -> str:
    return notice_text(page)


def reopen(page, url: str, *states: str) -> str:
    """Load ``url`` as a new page load (not just a hash change)."""
    page.goto("about:blank")
    return boot(page, url, *states)


def test_reload_mid_turn_restores_everything(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    before = table_snapshot(page)
    assert before["main"] == "Robar (2)"
    assert len(before["hand"]) == 8
    saved = raw_save(page)

    page.reload()
    wait_for_python(page)
    assert wait_state(page) == "human"
    assert table_snapshot(page) == before
    assert raw_save(page) == saved
    assert saved_game(page)["draws"] == 1

    # An open suit chooser comes back open after a reload.
    put_storage(page, site_url, {})
    boot(page, link(site_url, EIGHT_CODE), "human")
    act(page, partial(page.click, '#hand button.card[data-card="8S"]'), "chooser")
    assert json.loads(raw_save(page) or "{}")["ui"]["chooser"] == "8S"
    page.reload()
    wait_for_python(page)
    assert wait_state(page) == "chooser"
    assert page.locator("#suit-dialog").evaluate("d => d.open")
    assert "8S" in hand(page)
    act(page, partial(page.click, '#suit-dialog .suit-btn[data-suit="C"]'))
    assert "0:8S:C" in saved_game(page)["history"]


def test_tampered_link_keeps_the_saved_game(fast_page, site_url):
    page = fast_page
    with pytest.raises(CodeError):
        GameCode.parse(TAMPERED)
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    before, saved = table_snapshot(page), raw_save(page)

    # Opened fresh.
    reopen(page, f"{site_url}#partida={TAMPERED}&mesa=2", "human")
    assert notice(page).startswith("El enlace no sirve")
    assert notice(page).endswith("Sigues con tu partida.")
    assert page.locator("#notice").is_visible()
    assert table_snapshot(page) == before
    assert raw_save(page) == saved
    assert page.url.endswith(f"#partida={PLAIN_CODE.pretty()}&mesa=2")

    # Pasted into the address bar while the page is open (only the hash changes).
    page.evaluate("() => { document.getElementById('notice').replaceChildren(); }")
    page.evaluate("() => { location.hash = '#partida=A2K7-QM92&mesa=3'; }")
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('no cuadra')")
    assert table_snapshot(page) == before
    assert raw_save(page) == saved


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("{esto no es JSON", "Los datos no se pueden leer."),
        (
            json.dumps({"app": "ocho-loco", "version": 9, "game": {}, "ui": {}}),
            "otra versión",
        ),
    ],
    ids=["garbage", "wrong-version"],
)
def test_unreadable_save_is_set_aside(raw, reason, fast_page, site_url):
    page = fast_page
    put_storage(page, site_url, {SAVE_KEY: raw})
    assert boot(page, site_url) == "setup"
    text = notice(page)
    assert text.startswith("La partida guardada no se ha podido abrir")
    assert reason in text
    assert "aparte" in text
    items = storage_items(page)
    aside = {k: v for k, v in items.items() if k.startswith(ASIDE_PREFIX)}
    assert list(aside.values()) == [raw]
    assert SAVE_KEY not in items

    act(page, partial(page.click, "#deal-btn"), "human")
    assert len(hand(page)) == 7
    assert saved_game(page)["hand"] == 0
    assert storage_items(page)[next(iter(aside))] == raw  # still kept


def test_engine_refusal_of_a_save_is_set_aside_too(fast_page, site_url):
    page = fast_page
    game = Game.new(PLAIN_CODE)
    record = json.loads(envelope(game))
    record["version"] = 7
    bad = json.dumps(record)
    put_storage(page, site_url, {SAVE_KEY: bad, ASIDE_PREFIX + "1": "older"})
    assert boot(page, site_url) == "setup"
    assert "otra versión" in notice(page)
    items = storage_items(page)
    assert items[ASIDE_PREFIX + "1"] == "older"
    assert items[ASIDE_PREFIX + "2"] == bad
    act(page, partial(page.click, "#deal-btn"), "human")


def test_link_to_another_game_asks_first(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    before, saved = table_snapshot(page), raw_save(page)

    # «Seguir con la mía»: nothing changes.
    reopen(page, link(site_url, EIGHT_CODE), "replace")
    dialog = page.get_by_role("dialog", name="Tienes una partida a medias. ¿La cambias por la del enlace?")
    assert dialog.is_visible()
    page.click("#replace-no")
    assert wait_state(page, "human") == "human"
    assert not page.locator("#replace-dialog").evaluate("d => d.open")
    assert table_snapshot(page) == before
    assert raw_save(page) == saved
    assert page.url.endswith(f"#partida={PLAIN_CODE.pretty()}&mesa=2")

    # «Jugar la del enlace»: the linked deal replaces it.
    reopen(page, link(site_url, EIGHT_CODE), "replace")
    act(page, partial(page.click, "#replace-yes"), "human")
    expected = Game.new(EIGHT_CODE)
    assert page.inner_text("#game-code") == EIGHT_CODE.pretty()
    assert sorted(hand(page)) == sorted(str(c) for c in expected.hands[0])
    assert main_text(page) == "Robar (3)"
    assert saved_game(page)["code"] == EIGHT_CODE.text


NO_STORAGE = """
Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() { throw new DOMException('denied', 'SecurityError'); },
});
"""

FULL_STORAGE = """
(() => {
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
        if (String(key) === 'ocho-loco:partida') {
            throw new DOMException('full', 'QuotaExceededError');
        }
        return original.call(this, key, value);
    };
})();
"""


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (NO_STORAGE, "Este navegador no deja guardar datos"),
        (FULL_STORAGE, "No se ha podido guardar la partida"),
    ],
    ids=["unavailable", "full"],
)
def test_play_without_storage(script, message, fast_page, page_log, site_url):
    page = fast_page
    page.add_init_script(script)
    boot(page, link(site_url, PLAIN_CODE), "human")
    assert notice(page).startswith(message)
    assert len(hand(page)) == 7

    page.click("#main-btn")
    page.wait_for_function("() => document.getElementById('main-btn').textContent === 'Robar (2)'")
    assert len(hand(page)) == 8
    page.click('#hand button.card[data-card="10D"]')
    page.wait_for_function(
        "() => document.body.dataset.state === 'human'"
        " && !document.querySelector('#hand [data-card=\"10D\"]')"
    )
    assert main_text(page) == "Robar (3)"
    assert notice(page).startswith(message)
    assert page_log.errors == []
    if script is FULL_STORAGE:
        assert page.evaluate("(key) => localStorage.getItem(key)", SAVE_KEY) is None
