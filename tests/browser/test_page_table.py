"""Issue 11 on the real page: phones and zoom, screen readers, CPU turns, no contradictions.

Positions are real games (``support.reach``) seeded as version-2 saves, or
plain deals. Geometry is read with ``bounding_box()``; what a screen reader
gets is read from Chromium's accessibility tree (``aria_snapshot``).
"""

from __future__ import annotations

import itertools
import json
from functools import partial

import pytest
from helpers import (
    SAVE_KEY,
    act,
    assert_no_errors,
    open_panel,
    put_storage,
    see_the_end,
    wait_for_python,
    wait_state,
)
from support import human_to_play, reach

from engine.codes import GameCode
from engine.game import Game
from engine.record import Record
from ui import render
from ui.render_gameover import verdict

VIEWPORTS = {
    "phone-360": {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True},
    "phone-390": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 3,
    },
    # 1280×800 at 200 % zoom: the page lays out in 640×400 CSS pixels.
    "zoom-200": {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2},
}
MUST_SHOW = ("#discard .card", "#active-suit", "#main-btn", "#hand button.card")


def envelope(game: Game) -> str:
    record = str(Record.of(game))
    return json.dumps(
        {"app": "ocho-loco", "version": 2, "record": record, "ui": {"chooser": None, "next_hand": False}}
    )


def open_page(page, url: str, game: Game | None = None) -> None:
    put_storage(page, url, {SAVE_KEY: envelope(game)} if game is not None else {})
    page.goto(url)
    wait_for_python(page)
    wait_state(page)


def assert_in_view(page, label: str) -> None:
    size = page.viewport_size
    assert size is not None
    for selector in MUST_SHOW:
        boxes = page.locator(selector).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })"
        )
        assert boxes, (label, selector)
        for left, top, right, bottom in boxes:
            assert (
                left >= 0 and top >= 0 and right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5
            ), (
                label,
                selector,
                (left, top, right, bottom),
                size,
            )
    # Touch targets: each card shows at least 24 px of itself before the next one covers it.
    lefts = page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().left)"
    )
    steps = [b - a for a, b in itertools.pairwise(lefts)]
    assert all(step >= 23.9 for step in steps), (label, steps)
    box = page.locator("#main-btn").bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_after_a_deal_the_pile_the_hand_and_the_button_fit_on_screen(viewport, browser, site_url):
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS[viewport])
    page = context.new_page()
    try:
        for players, size in ((3, 5), (2, 7)):
            open_page(page, site_url)
            page.click(f"#mode-{players}")
            page.click("#deal-btn")
            wait_state(page, "human")
            assert page.locator("#hand button.card").count() == size
            assert_in_view(page, f"{viewport}, {size} cards")
            # Focus went to the first playable card (or the main button), not «Repartir».
            focused = page.evaluate("() => document.activeElement.id")
            first = page.locator("#hand button.card.legal").first
            expected = first.get_attribute("id") if first.count() else "main-btn"
            assert focused == expected
            # The setup bar is compact during play: one line, radios out of the way.
            assert not page.locator("#mode-3").is_visible()
        for players in (2, 3):
            game = reach(lambda g: human_to_play(g) and len(g.hands[0]) == 13, players, games=2000)
            open_page(page, site_url, game)
            # A resumed game does not scroll by itself: bring the table up as a deal does.
            page.evaluate(
                "() => document.querySelector('.felt').scrollIntoView({block: 'end', behavior: 'instant'})"
            )
            assert page.locator("#hand button.card").count() == 13
            assert_in_view(page, f"{viewport}, 13 cards, {players} players")
    finally:
        context.close()


def test_repartir_turns_the_page_into_the_table_in_the_taps_own_frame(fast_page, site_url):
    """The switch to the table (the whole page restyled) and the deal's first frame are two frames,
    not one long one: the tap adds ``at-table`` at once, before the worker's answer can arrive."""
    open_page(fast_page, site_url)
    assert wait_state(fast_page) == "setup"
    at_once = fast_page.evaluate(
        "() => { document.getElementById('deal-btn').click();"
        " return document.documentElement.classList.contains('at-table'); }"
    )
    assert at_once
    assert wait_state(fast_page, "human", "cpu") in ("human", "cpu")
    assert fast_page.evaluate("() => document.documentElement.classList.contains('at-table')")


def test_focus_ring_never_hides_the_next_cards_rank(browser, site_url):
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS["zoom-200"])
    page = context.new_page()
    try:
        open_page(page, site_url)
        page.click("#deal-btn")
        wait_state(page, "human")
        cards = page.locator("#hand button.card")
        for i in range(cards.count() - 1):
            cards.nth(i).focus()
            page.keyboard.press("Shift")  # keyboard modality: the ring is :focus-visible
            hidden = cards.nth(i + 1).evaluate(
                """el => { const r = el.querySelector('.rank').getBoundingClientRect();
                    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                    return !el.contains(hit); }"""
            )
            assert not hidden, f"the ring of card {i} covers the rank of card {i + 1}"
    finally:
        context.close()


def test_size_radios_are_off_during_a_game_and_deal_is_secondary(fast_page, site_url):
    page = fast_page
    open_page(page, site_url)
    assert page.locator("#deal-btn").get_attribute("class") == "btn btn-primary"
    assert page.get_by_role("radio", name="1 contra 1, 7 cartas").is_checked()  # no tick in the name
    page.click("#deal-btn")
    wait_state(page, "human")
    assert page.locator("#mode-3").is_disabled() and page.locator("#mode-2").is_checked()
    assert page.inner_text("#table-now") == "Partida en curso: 1 contra 1, rival Normal"
    open_panel(page, "setup")  # in play, «Otra partida» is on the «Opciones» sheet
    deal = page.locator("#deal-btn")
    assert deal.inner_text() == "Otra partida" and "btn-secondary" in (deal.get_attribute("class") or "")
    deal.click()
    wait_state(page, "replace")
    assert "enlace" not in page.inner_text("#replace-dialog")
    page.click("#replace-yes")
    wait_state(page, "setup")
    assert page.locator("#mode-3").is_enabled()
    page.click("#mode-3")
    page.click("#deal-btn")
    wait_state(page, "human")
    assert page.locator("#opponents .opponent").count() == 2


def test_results_and_verdict_are_in_the_accessibility_tree_while_the_dialog_is_open(fast_page, site_url):
    page = fast_page
    game = reach(
        lambda g: human_to_play(g) and len(g.hands[0]) == 1 and bool(g.legal_cards()) and g.totals[1] >= 95,
        games=3000,
    )
    last = game.legal_cards()[0]
    open_page(page, site_url, game)
    act(page, partial(page.click, f'#hand button[data-card="{last}"]'), "gameover")
    page.locator("#final-btn").wait_for(state="visible")
    tree = page.locator("#results-dialog").aria_snapshot()
    after = game.copy()
    after.apply(next(a for a in after.legal_actions() if a.card == last))
    result = after.result
    assert result is not None and result.game_over
    assert render.results_title(result) in tree
    assert render.game_over_text(result) in tree
    assert f"Puntos de castigo: CPU 1 {result.penalties[1]}" in tree
    # The live text is the button's description: focusing it reads the scores.
    assert page.evaluate("() => document.activeElement.id") == "final-btn"
    described = page.locator("#final-btn").get_attribute("aria-describedby")
    assert described == "results-live"
    # «Ver el final»: the verdict, the standings, the race by its name and its table, the way on.
    see_the_end(page)
    tree = page.locator("#gameover-dialog").aria_snapshot()
    assert f'heading "{verdict(result.winners)}"' in tree, tree
    assert 'list "Clasificación final' in tree and 'img "La carrera a 100' in tree, tree
    assert "Los puntos, mano a mano" in tree, tree
    for name in ("Nueva partida", "Ver la mano", "Retar a alguien"):
        assert f'button "{name}"' in tree, tree


# A35M-8NT2: the person holds only 8s that fit, so after drawing three cards an 8 must be played.
@pytest.mark.parametrize("code", [None, "A35M-8NT2"])
def test_reduced_motion_loses_no_cpu_turn_and_the_log_has_them_all(fast_page, site_url, code):
    page = fast_page
    listen = """() => { window.__said = [];
            const status = document.getElementById('status');
            new MutationObserver(() => window.__said.push(status.textContent))
                .observe(status, {childList: true, characterData: true, subtree: true}); }"""
    if code is None:  # a new deal at a table of three
        open_page(page, site_url)
        page.click("#mode-3")
        page.evaluate(listen)
        page.click("#deal-btn")
    else:
        open_page(page, site_url, Game.new(GameCode.parse(code)))
        page.evaluate(listen)
    wait_state(page, "human")
    # Until the CPUs have had turns: a deal may start with draws (three of them, then a pass).
    for moves in range(12):
        if wait_state(page) != "human":
            break
        if moves >= 4 and any(t.startswith("CPU ") for t in page.locator("#move-log li").all_inner_texts()):
            break
        legal = page.locator("#hand button.card.legal:not([data-card^='8'])")
        eights = page.locator("#hand button.card.legal[data-card^='8']")
        if legal.count():
            act(page, partial(legal.first.click))
        elif page.locator("#main-btn").is_enabled():
            act(page, partial(page.click, "#main-btn"))
        elif eights.count():  # three cards drawn and only an 8 fits: it must be played, naming a suit
            eights.first.click()
            wait_state(page, "chooser")
            suits = page.get_by_role("dialog", name="¿Qué palo pides?").get_by_role("button")
            act(page, partial(suits.first.click))
        else:
            break
    said = page.evaluate("() => window.__said")
    log = page.locator("#move-log li").all_inner_texts()
    cpu_turns = [t for t in log if t.startswith("CPU ")]
    assert cpu_turns, log
    for turn in cpu_turns:
        if turn.endswith("…"):
            continue
        assert any(turn in message for message in said), (turn, said)


def test_results_turn_each_card_once_and_skip_shows_all(page, page_log, site_url):
    # Normal motion: the count runs with its animations.
    game = reach(
        lambda g: (
            human_to_play(g)
            and len(g.hands[0]) == 1
            and bool(g.legal_cards())
            and len(g.hands[1]) >= 4
            and max(g.totals) < 60
        ),
        games=3000,
    )
    last = game.legal_cards()[0]
    open_page(page, site_url, game)
    page.evaluate(
        # Each card drawn turning over (the class that runs its flip): counted when the page puts it
        # there, not when the compositor starts the animation, which a busy machine may skip.
        """() => { window.__flips = []; window.__boards = [];
            new MutationObserver(records => {
                for (const record of records) for (const node of record.addedNodes) {
                    if (!(node instanceof Element)) continue;
                    const turning = [node, ...node.querySelectorAll('*')]
                        .filter(el => el.matches('.card.reveal.turning'));
                    for (const el of turning) {
                        window.__flips.push(el.dataset.card);
                        window.__boards.push(document.getElementById('scoreboard').innerText);
                    }
                }
            }).observe(document.body, {childList: true, subtree: true}); }"""
    )
    board_before = page.inner_text("#scoreboard")
    page.click(f'#hand button[data-card="{last}"]')
    wait_state(page, "results")
    # The dialog opens at its top; the scoreboard behind it keeps the old totals during the count.
    assert page.locator("#results-dialog").evaluate("d => d.scrollTop") == 0
    page.wait_for_function(
        "() => document.querySelector('#results-body .result-sum')?.dataset.done === '1'", timeout=30_000
    )
    page.locator("#next-hand-btn").wait_for(state="visible")
    flips = page.evaluate("() => window.__flips")
    assert sorted(flips) == sorted(str(c) for c in game.hands[1]), flips
    assert len(flips) == len(set(flips)), "a card turned more than once"
    boards = page.evaluate("() => window.__boards")
    assert all(board == board_before for board in boards), "no new total shows while cards still turn"
    assert page.inner_text("#scoreboard") != board_before, "the totals arrive when the count ends"

    # Next time, a key skips the count at once.
    open_page(page, site_url, game)
    page.click(f'#hand button[data-card="{last}"]')
    wait_state(page, "results")
    page.keyboard.press("x")
    page.locator("#next-hand-btn").wait_for(state="visible")
    assert page.locator("#results-skip").is_hidden()
    assert page.locator("#results-body .result-totals").count() == 1
    assert_no_errors(page_log)


def test_accessibility_scan_on_a_phone_with_the_log_open(browser, site_url):
    from test_page_quality import axe_problems

    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS["phone-390"])
    page = context.new_page()
    try:
        open_page(page, site_url)
        assert axe_problems(page) == []
        page.click("#deal-btn")
        wait_state(page, "human")
        act(page, partial(page.click, "#main-btn"), "human")
        open_panel(page, "marcador")  # in play, «Jugadas» is on the «Marcador» sheet
        page.click("#log-panel summary")
        assert axe_problems(page) == []
        open_panel(page, "setup")
        page.click("#deal-btn")
        wait_state(page, "replace")
        assert axe_problems(page) == []
    finally:
        context.close()
