"""Nothing lost, nothing forged: the record on the real page.

Each test follows a reproduction from the issues: a forged record, two tabs on
one save, safe answers to every question, storage that is full or holds
unreadable saves, a double click, a save nested 10,000 deep, the results
dismissed with Escape, a cleared save under a mid-game link, and focus after
«Pasar» and after the third draw.
"""

from __future__ import annotations

import json
from functools import partial

import pytest
from helpers import (
    ASIDE_PREFIX,
    PLAIN_CODE,
    SAVE_KEY,
    STUCK_CODE,
    THE_END_JS,
    act,
    boot,
    envelope,
    hand,
    human_to_play,
    legal_cards,
    link,
    main_text,
    notice_text,
    open_panel,
    put_storage,
    raw_save,
    reach,
    saved_game,
    state,
    storage_items,
    wait_for_python,
    wait_state,
)

from engine.actions import Action
from engine.cards import CARDS
from engine.record import Record
from ui.storage import read


def notice(page) -> str:
    return notice_text(page)


def focused(page) -> str:
    return page.evaluate(
        "() => { const el = document.activeElement;"
        " return el === document.body ? 'BODY' : (el.dataset.card || el.id || el.tagName); }"
    )


def saved_record(page) -> Record:
    raw = raw_save(page)
    assert raw is not None
    return Record.parse(json.loads(raw)["record"])


# -- a forged record ----------------------------------------------------------------------


def test_a_save_edited_to_play_a_card_not_held_is_set_aside_and_not_played(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, '#hand button.card[data-card="10D"]'), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    record = saved_record(page)
    game = record.replay()
    # Change the person's first move to a card the person never held.
    stranger = next(c for c in CARDS if c not in game.hands[0] and c not in record.replay().pile)
    forged = Record(record.code, (Action.play(stranger), *record.moves[1:]), record.level)
    data = json.loads(raw_save(page) or "{}")
    data["record"] = str(forged)
    forged_raw = json.dumps(data)
    put_storage(page, site_url, {SAVE_KEY: forged_raw})
    assert boot(page, site_url) == "setup", "the forged position is not played"
    text = notice(page)
    assert text.startswith("La partida guardada no se ha podido abrir: La jugada 1")
    assert "No tienes" in text and "aparte" in text
    items = storage_items(page)
    assert items.get(ASIDE_PREFIX + "1") == forged_raw
    assert SAVE_KEY not in items


# -- two tabs on one save -------------------------------------------------------------------


def _second_tab(context, url: str):
    other = context.new_page()
    other.emulate_media(reduced_motion="reduce")
    other.goto(url)
    wait_for_python(other)
    wait_state(other, "human")
    return other


def _play_turn(page) -> None:
    """One move of the person's (a fitting card, else a draw), then wait for the table to settle."""
    wait_state(page, "human")
    fits = [c for c in legal_cards(page) if not c.startswith("8")]
    if fits:
        act(page, partial(page.click, f'#hand button.card[data-card="{fits[0]}"]'))
    else:
        act(page, partial(page.click, "#main-btn"))
    wait_state(page, "human", "results", "gameover")


def test_two_tabs_never_overwrite_each_others_moves(context, fast_page, site_url):
    a = fast_page
    boot(a, link(site_url, PLAIN_CODE), "human")
    b = _second_tab(context, link(site_url, PLAIN_CODE))
    _play_turn(a)
    _play_turn(a)
    after_a = str(saved_record(a))
    # B hears of A's moves at once (storage event) and says so.
    b.wait_for_function(
        "(text) => document.getElementById('notice').textContent.includes(text)", arg="otra pestaña"
    )
    assert b.inner_text("#game-code") == a.inner_text("#game-code")
    _play_turn(b)
    after_b = saved_record(b)
    assert after_b.extends(Record.parse(after_a)), "B went on from A's position"
    assert len(after_b) > len(Record.parse(after_a))
    a.reload()
    wait_for_python(a)
    wait_state(a)
    assert str(saved_record(a)) == str(after_b), "reloading A keeps A's two turns and B's one"
    b.close()


def test_a_new_game_started_in_another_tab_survives_an_old_tab(context, fast_page, site_url):
    a = fast_page
    boot(a, link(site_url, PLAIN_CODE), "human")
    b = _second_tab(context, site_url)
    old_code = a.inner_text("#game-code")
    open_panel(b, "setup")  # in play, «Otra partida» is on the «Opciones» sheet
    b.click("#deal-btn")  # «Otra partida»
    wait_state(b, "replace")
    b.click("#replace-yes")  # back to choosing a table
    wait_state(b, "setup")
    act(b, partial(b.click, "#deal-btn"), "human", "cpu")
    new_code = b.inner_text("#game-code")
    assert new_code != old_code
    # A hears of it: it follows the new game instead of writing the old one over it.
    a.wait_for_function("(code) => document.getElementById('game-code').textContent === code", arg=new_code)
    assert "otra partida" in notice(a)
    b.reload()
    wait_for_python(b)
    wait_state(b)
    assert b.inner_text("#game-code") == new_code, "B's new game is still there"
    b.close()


# -- questions keep the game by default -------------------------------------------------------


@pytest.mark.parametrize("key", ["Enter", " ", "Escape"], ids=["enter", "space", "escape"])
def test_every_question_keeps_the_game_on_enter_space_and_escape(key, fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    saved = raw_save(page)
    open_panel(page, "setup")
    page.click("#deal-btn")
    wait_state(page, "replace")
    assert focused(page) == "replace-no", "the safe answer has the focus"
    page.keyboard.press(key)
    wait_state(page, "human")
    assert raw_save(page) == saved
    # The same from a share link opened over the game.
    page.evaluate("(h) => { location.hash = h; }", "#partida=A222-224R&mesa=2")
    wait_state(page, "replace")
    assert focused(page) == "replace-no"
    page.keyboard.press(key)
    wait_state(page, "human")
    assert raw_save(page) == saved


def test_a_double_click_on_repartir_does_not_throw_the_game_away(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    saved = raw_save(page)
    open_panel(page, "setup")
    box = page.locator("#deal-btn").bounding_box()
    assert box is not None
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # The first click asks; the second lands on the question (or its backdrop) and never says yes.
    if wait_state(page, "replace", "human") == "replace":
        page.keyboard.press("Enter")
        wait_state(page, "human")
    assert raw_save(page) == saved


# -- input honoured once ------------------------------------------------------------------------


def test_a_double_click_on_a_card_plays_no_second_card(fast_page, site_url):
    page = fast_page
    game = reach(
        lambda g: (
            human_to_play(g)
            and len([c for c in g.legal_cards() if c.rank != 8]) >= 1
            and len(g.hands[0]) >= 5
        )
    )
    put_storage(page, site_url, {SAVE_KEY: envelope(game)})
    boot(page, site_url, "human")
    first = next(str(c) for c in game.legal_cards() if c.rank != 8)
    box = page.locator(f'#hand button.card[data-card="{first}"]').bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = len(game.history)
    # The second click lands on whatever card slid under the pointer.
    act(page, lambda: page.mouse.dblclick(x, y), "human", "results", "gameover")
    page.wait_for_function("() => !document.querySelector('#hand .arriving')")
    played = read(raw_save(page) or "").game
    mine = [m for m in played.history[before:] if m.seat == 0]
    assert [str(m.action) for m in mine][:1] == [first]
    assert len(mine) == 1, f"one card played, not two: {[str(m) for m in mine]}"


# -- storage that is full or holds unreadable saves ------------------------------------------------

QUOTA_FOR_NEW_KEYS = """
(() => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (this.getItem(key) === null && key !== 'ocho-loco:prueba') {
      throw new DOMException('full', 'QuotaExceededError');
    }
    return setItem.call(this, key, value);
  };
})();
"""

QUOTA_FOR_EVERYTHING = """
(() => {
  Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };
})();
"""


def test_a_corrupt_save_that_cannot_be_set_aside_stays_and_the_notice_says_so(fast_page, site_url):
    page = fast_page
    put_storage(page, site_url, {SAVE_KEY: "{roto"})
    page.add_init_script(QUOTA_FOR_NEW_KEYS)
    assert boot(page, site_url) == "setup"
    text = notice(page)
    assert "sigue guardada tal cual" in text and "se ha guardado aparte" not in text
    page.click("#deal-btn")
    wait_state(page, "replace")
    assert focused(page) == "replace-no"
    page.keyboard.press("Enter")
    wait_state(page, "setup")
    assert raw_save(page) == "{roto", "still there, untouched"


def test_a_sixth_unreadable_save_gets_its_own_key(fast_page, site_url):
    page = fast_page
    older = {f"{ASIDE_PREFIX}{n}": f"vieja {n}" for n in range(1, 6)}
    put_storage(page, site_url, {**older, SAVE_KEY: "{sexta"})
    assert boot(page, site_url) == "setup"
    items = storage_items(page)
    for key, value in older.items():
        assert items[key] == value, "saves set aside are never overwritten"
    assert items[ASIDE_PREFIX + "6"] == "{sexta"
    assert "Hay 6 partidas guardadas aparte" in page.inner_text("#aside-info")
    page.click("#clear-aside-btn")
    page.wait_for_function("() => document.getElementById('aside-info').hidden")
    assert not [k for k in storage_items(page) if k.startswith(ASIDE_PREFIX)]


def test_a_save_nested_ten_thousand_deep_is_set_aside_and_the_page_starts(fast_page, site_url):
    page = fast_page
    deep = "[" * 10_000 + "]" * 10_000
    put_storage(page, site_url, {SAVE_KEY: deep})
    assert boot(page, site_url) == "setup"
    assert notice(page).startswith("La partida guardada no se ha podido abrir")
    assert storage_items(page)[ASIDE_PREFIX + "1"] == deep
    act(page, partial(page.click, "#deal-btn"), "human")


def test_full_storage_still_opens_and_plays_the_saved_game(fast_page, site_url):
    page = fast_page
    game = reach(human_to_play)
    put_storage(page, site_url, {SAVE_KEY: envelope(game)})
    page.add_init_script(QUOTA_FOR_EVERYTHING)
    assert boot(page, site_url) == "human"
    assert sorted(hand(page)) == sorted(str(c) for c in game.hands[0])
    assert "no se guardarán hasta que haya espacio" in notice(page)
    page.click("#main-btn")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#hand button.card').length > n", arg=len(game.hands[0])
    )


def test_a_long_version_string_is_never_echoed(fast_page, site_url):
    page = fast_page
    junk = "x" * 2000
    put_storage(page, site_url, {SAVE_KEY: json.dumps({"app": "ocho-loco", "version": junk})})
    assert boot(page, site_url) == "setup"
    text = notice(page)
    assert "otra versión" in text and "xxx" not in text and len(text) < 300


# -- stuck states -----------------------------------------------------------------------------------


def test_escape_twice_never_leaves_the_table_stuck_between_hands(fast_page, site_url):
    page = fast_page
    game = reach(lambda g: human_to_play(g) and len(g.hands[0]) == 1 and bool(g.legal_cards()))
    put_storage(page, site_url, {SAVE_KEY: envelope(game)})
    boot(page, site_url, "human")
    act(
        page, partial(page.click, f'#hand button.card[data-card="{game.hands[0][0]}"]'), "results", "gameover"
    )
    for _ in range(3):
        page.keyboard.press("Escape")
    page.wait_for_function("() => document.getElementById('results-dialog').open")
    button = "#final-btn" if state(page) == "gameover" else "#next-hand-btn"
    page.wait_for_function("(sel) => !document.querySelector(sel).hidden", arg=button)
    page.click(button)
    if button == "#final-btn":  # the end of the game: Escape neither leaves it stuck
        page.wait_for_function(THE_END_JS)
        for _ in range(3):
            page.keyboard.press("Escape")
        page.wait_for_function(THE_END_JS)
        page.click("#new-game-btn")
    wait_state(page, "human", "cpu")


def test_a_cleared_save_under_a_mid_game_link_says_it_starts_over(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    wait_for_python(page)
    wait_state(page, "human")
    assert page.inner_text("#status").startswith("Reparto del enlace"), "said where it starts"
    assert saved_game(page)["history"] == []


# -- focus ------------------------------------------------------------------------------------------


def test_focus_never_falls_to_the_body_after_the_third_draw_or_pasar(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, STUCK_CODE), "human")
    for _ in range(3):
        page.focus("#main-btn")
        page.keyboard.press("Enter")
        wait_state(page, "human")
        assert focused(page) != "BODY"
    assert main_text(page) == "Pasar"
    page.focus("#main-btn")
    page.keyboard.press("Enter")
    wait_state(page, "human", "results", "gameover")
    assert focused(page) != "BODY", "after «Pasar» the focus stays on the table"


def test_focus_moves_on_when_the_third_draw_disables_robar(fast_page, site_url):
    page = fast_page
    game = reach(
        lambda g: (
            human_to_play(g)
            and g.draws == 2
            and bool(g.stock)
            and g.is_legal_card(g.stock[-1])
            and not g.legal_cards()
        )
    )
    put_storage(page, site_url, {SAVE_KEY: envelope(game)})
    boot(page, site_url, "human")
    page.focus("#main-btn")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('main-btn').disabled")
    wait_state(page)  # the answer shown whole: the focus moves once the table is written
    assert focused(page) != "BODY"
    assert focused(page) == str(game.stock[-1]), "focus goes to the card that now fits"
