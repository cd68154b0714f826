"""Geometry of every state of the page: the focused control in view and uncovered, no sideways scroll.

Issue 25 (items 5, 6, 11, 12 and «a table worth looking at»). Every state the
page tells in ``body[data-state]`` is reached from a fixed code or a real game
(``support.reach``) at 360×640 and 390×844 (phones), 1280×800 (laptop) and
320×256 (1280×1024 at 400 % zoom). In each, the focused control and, inside an
open dialog, every control a Tab reaches must lie inside the window and be the
element found at its corners and centre (WCAG 2.2 § 2.4.11: not hidden under a
sticky bar or another card). Cards in an overlapped hand need only show their
rank corner.
"""

from __future__ import annotations

from functools import partial

import pytest
from helpers import (
    EIGHT_CODE,
    PLAIN_CODE,
    SAVE_KEY,
    act,
    boot,
    envelope,
    link,
    more_options,
    one_card_to_go_out,
    put_storage,
    reach,
    resize,
    see_the_end,
    state,
    wait_for_python,
    wait_state,
)
from support import human_to_play

from engine.codes import GameCode
from engine.game import HAND_OVER, Game

VIEWPORTS = {
    "360x640": {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True},
    "390x844": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    # 1280×1024 at 400 % zoom lays the page out in 320×256 CSS pixels.
    "320x256": {"viewport": {"width": 320, "height": 256}},
}

# What covers the focused control, if anything; "" when it is in view and uncovered.
COVERED_JS = """(el) => {
  const describe = (n) => !n ? 'nothing'
    : n.id ? '#' + n.id : n.tagName.toLowerCase() + '.' + [...n.classList].join('.');
  const r = el.getBoundingClientRect();
  const w = window.innerWidth, h = window.innerHeight;
  if (r.width < 1 || r.height < 1) return describe(el) + ' has no size';
  if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
    return `${describe(el)} out of the ${w}×${h} window at `
      + [r.left, r.top, r.right, r.bottom].map(Math.round);
  const inHand = el.matches('#hand .card');
  const points = inHand ? [[0.15, 0.12]] : [[0.5, 0.5], [0.08, 0.1], [0.92, 0.1], [0.08, 0.9], [0.92, 0.9]];
  for (const [fx, fy] of points) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit)))
      return `${describe(el)} covered at (${Math.round(x)}, ${Math.round(y)}) by ${describe(hit)}`;
  }
  return '';
}"""
SIDEWAYS_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
# Every control a Tab reaches inside the open dialog, in order.
DIALOG_STOPS_JS = """() => {
  const open = [...document.querySelectorAll('dialog')].filter(d => d.open);
  const focused = document.activeElement;
  const dialog = (focused && focused.closest('dialog[open]')) || open[open.length - 1];
  if (!dialog) return [];
  return [...dialog.querySelectorAll('button, input, [tabindex="0"], a[href]')]
    .filter(e => !e.disabled && e.offsetParent !== null);
}"""


def problems(page, where: str) -> list[str]:
    """What is wrong with the focused control (and every Tab stop of an open dialog) right now."""
    found = []
    sideways = page.evaluate(SIDEWAYS_JS)
    if sideways > 0:
        found.append(f"{where}: the page scrolls sideways by {sideways} px")
    focused = page.evaluate_handle("() => document.activeElement")
    if page.evaluate("(el) => el === document.body || el === null", focused):
        return found
    covered = page.evaluate(COVERED_JS, focused)
    if covered:
        found.append(f"{where}: {covered}")
    stops = page.evaluate_handle(DIALOG_STOPS_JS)
    for i in range(page.evaluate("(stops) => stops.length", stops)):
        # focus() scrolls the control into view as a Tab does
        stop = page.evaluate_handle("([stops, i]) => { stops[i].focus(); return stops[i]; }", [stops, i])
        covered = page.evaluate(COVERED_JS, stop)
        if covered:
            found.append(f"{where}, stop {i + 1}: {covered}")
    return found


def game_over_position() -> Game:
    """Your turn, one card that fits, and a CPU at 95 or more: the card ends the game."""
    return reach(
        lambda g: human_to_play(g) and len(g.hands[0]) == 1 and bool(g.legal_cards()) and g.totals[1] >= 95,
        games=3000,
    )


def open_saved(page, url: str, game: Game, *states: str) -> str:
    put_storage(page, url, {SAVE_KEY: envelope(game)})
    page.goto(url)
    wait_for_python(page)
    return wait_state(page, *states)


def finish_with_last_card(page, game: Game, *states: str) -> None:
    act(page, partial(page.click, f'#hand button.card[data-card="{game.hands[0][0]}"]'), *states)
    # focus on the way on («Siguiente mano» / «Ver el final») means the count is over
    page.wait_for_function("() => ['next-hand-btn', 'final-btn'].includes(document.activeElement.id)")


def visit_every_state(page, base: str) -> list[str]:
    """Reach each ``data-state`` and collect what :func:`problems` finds in it."""
    found: list[str] = []
    assert boot(page, base, "setup") == "setup"
    found += problems(page, "setup")
    for code in (PLAIN_CODE, GameCode.build(3, "K7QM9")):
        put_storage(page, base, {})
        boot(page, link(base, code), "human")
        found += problems(page, f"human, {code.pretty()}")
    put_storage(page, base, {})
    boot(page, link(base, EIGHT_CODE), "human")
    act(page, partial(page.click, "#main-btn"), "human")
    act(page, partial(page.click, '#hand button.card[data-card="8S"]'), "chooser")
    found += problems(page, f"chooser, {EIGHT_CODE.pretty()}")
    page.click("#suit-cancel")
    wait_state(page, "human")
    # a link to another game while this one is under way asks first
    page.evaluate("(hash) => { location.hash = hash; }", link("", PLAIN_CODE))
    wait_state(page, "replace")
    found += problems(page, "replace")
    page.click("#replace-no")

    game = reach(one_card_to_go_out, 3)
    open_saved(page, base, game, "human")
    finish_with_last_card(page, game, "results")
    found += problems(page, "results, 3 players")
    page.click("#replay-btn")
    wait_state(page, "replay")
    found += problems(page, "replay, 3 players")
    page.click("#replay-close")
    wait_state(page, "results")

    game = game_over_position()
    open_saved(page, base, game, "human")
    finish_with_last_card(page, game, "gameover")
    found += problems(page, "gameover")
    see_the_end(page)
    found += problems(page, "gameover, the end")
    return found


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_focused_control_is_in_view_and_uncovered_in_every_state(viewport, browser, site_url):
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS[viewport])
    page = context.new_page()
    try:
        found = visit_every_state(page, site_url)
    finally:
        context.close()
    assert found == [], "\n".join(found)


MUST_SHOW = ("#discard .card", "#active-suit", "#main-btn", "#hand button.card")
# Boxes of the table's parts that must show when it is your turn, outside the window or not.
BOXES_JS = """(selectors) => selectors.flatMap(sel => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect();
  return [sel + (e.dataset.card ? '[' + e.dataset.card + ']' : ''), r.top, r.bottom];
}))"""


def cpu_won_the_hand(game: Game) -> bool:
    """Three players, a hand just won by a CPU (so it leads the next), the game not over."""
    result = game.result
    return game.players == 3 and game.phase == HAND_OVER and result is not None and result.winner != 0


def off_screen(page) -> list[str]:
    height = page.viewport_size["height"]
    return [
        f"{name} at {round(top)}–{round(bottom)} px"
        for name, top, bottom in page.evaluate(BOXES_JS, list(MUST_SHOW))
        if top < -0.5 or bottom > height + 0.5
    ]


@pytest.mark.parametrize("replay", [False, True], ids=["straight-on", "after-replay"])
def test_the_table_is_in_view_when_your_turn_comes_after_a_cpu_leads(replay, browser, site_url):
    """Issue 25, item 11: at 360×640 with three players, «Siguiente mano» with a CPU leading."""
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS["360x640"])
    page = context.new_page()
    game = reach(cpu_won_the_hand, 3)
    try:
        open_saved(page, site_url, game, "results")
        page.wait_for_function("() => document.activeElement.id === 'next-hand-btn'")
        if replay:
            page.click("#replay-btn")
            wait_state(page, "replay")
            page.click("#replay-last")
            page.click("#replay-close")
            wait_state(page, "results")
        act(page, partial(page.click, "#next-hand-btn"), "human")
        missing = off_screen(page)
    finally:
        context.close()
    assert missing == [], f"{game.code.pretty()}: {missing}"


def test_results_show_the_totals_first_and_the_end_of_a_game_is_a_moment(browser, site_url):
    """Issue 25, item 12, at 1280×800 with three players."""
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS["1280x800"])
    page = context.new_page()
    found: list[str] = []
    hand = reach(lambda g: one_card_to_go_out(g) and max(g.totals) < 50, 3)
    end = reach(lambda g: one_card_to_go_out(g) and max(g.totals) >= 95 and g.totals[0] < 70, 3, games=3000)
    try:
        for game, state in ((hand, "results"), (end, "gameover")):
            open_saved(page, site_url, game, "human")
            finish_with_last_card(page, game, state)
            where = f"{state}, {game.code.pretty()}"
            totals = page.locator("#results-body .result-totals")
            if state == "results":
                covered = page.evaluate(COVERED_JS, totals.element_handle())
                found += [f"{where}: totals: {covered}"] if covered else []
            # the panel's status region is heard, not shown as a bold paragraph repeating the panel
            live = page.locator("#results-live")
            assert "Totales" in live.inner_text(), where
            box = live.bounding_box()
            if box is not None and box["height"] > 1:
                found.append(f"{where}: the status region shows as a {round(box['height'])} px paragraph")
            if state == "gameover":
                # The end of the game is a panel of its own, its verdict on top, its buttons in view.
                see_the_end(page)
                verdict = page.locator("#gameover-title").bounding_box()
                panel = page.locator("#gameover-dialog").bounding_box()
                if verdict is None or panel is None or verdict["y"] > panel["y"] + 80:
                    found.append(f"{where}: the end of the game does not open with its verdict")
                for button in ("#new-game-btn", "#gameover-replay-btn", "#gameover-challenge-btn"):
                    covered = page.evaluate(COVERED_JS, page.locator(button).element_handle())
                    found += [f"{where}: {button}: {covered}"] if covered else []
    finally:
        context.close()
    assert found == [], "\n".join(found)


HAND_JS = """() => {
  const hand = document.getElementById('hand');
  const boxes = [...hand.querySelectorAll('.card')].map(c => c.getBoundingClientRect());
  const steps = boxes.slice(1).map((r, i) => r.left - boxes[i].left);
  return {area: hand.clientWidth, width: boxes[0].width, span: boxes.at(-1).right - boxes[0].left,
          step: Math.min(...steps), n: boxes.length};
}"""
WIDTHS = (320, 360, 390, 768, 1024, 1280, 1920)


def test_cards_are_sized_to_the_table_and_overlap_only_when_they_do_not_fit(browser, site_url):
    """Issue 25, «a table worth looking at»: 5 and 7 cards from 320 to 1920 px wide."""
    found: list[str] = []
    sizes: dict[tuple[int, int], float] = {}
    # One page a deal, turned through every width: the hand follows its row when the window changes
    # size (the test below), so a resized page measures as a page opened at that size.
    for code in (PLAIN_CODE, GameCode.build(3, "K7QM9")):
        # (reduced motion: the deal's cards are measured where they land, not on their way there)
        context = browser.new_context(
            locale="es-ES", viewport={"width": WIDTHS[0], "height": 800}, reduced_motion="reduce"
        )
        page = context.new_page()
        try:
            boot(page, link(site_url, code), "human")
            for width in WIDTHS:
                resize(page, width, 1080 if width == 1920 else 800)
                hand = page.evaluate(HAND_JS)
                sizes[width, hand["n"]] = hand["width"]
                where = f"{width} px, {code.pretty()}, {hand}"
                fits = hand["n"] * 44 + (hand["n"] - 1) * 6 <= hand["area"] - 4
                if fits and hand["step"] < hand["width"]:
                    found.append(f"{where}: the cards overlap though they fit side by side")
                if hand["span"] > hand["area"] + 0.5 or page.evaluate(SIDEWAYS_JS) > 0:
                    found.append(f"{where}: the hand is wider than its row")
                if width >= 1024 and hand["span"] < 0.6 * hand["area"] and hand["n"] == 7:
                    found.append(f"{where}: seven cards fill less than 60 % of the row")
        finally:
            context.close()
    for n in (5, 7):
        row = [sizes[w, n] for w in WIDTHS]
        if row != sorted(row):
            found.append(f"{n} cards: narrower cards on a wider table: {dict(zip(WIDTHS, row, strict=True))}")
    assert found == [], "\n".join(found)


def test_the_hand_follows_its_row_when_the_window_changes_size(browser, site_url):
    """A phone turned, a window resized: the cards are sized to the row they are in now."""
    context = browser.new_context(
        locale="es-ES", viewport={"width": 1280, "height": 800}, reduced_motion="reduce"
    )
    page = context.new_page()
    try:
        boot(page, link(site_url, PLAIN_CODE), "human")
        wide = page.evaluate(HAND_JS)
        for width in (360, 1280):
            resize(page, width, 800)
            hand = page.evaluate(HAND_JS)
            assert hand["span"] <= hand["area"] + 0.5, (width, hand)
            if width == 360:
                assert hand["width"] < wide["width"], (width, hand, wide)
            else:
                assert hand == wide, (hand, wide)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_focused_control_is_in_view_and_uncovered_while_the_cpu_plays(viewport, browser, site_url):
    """The ``cpu`` state, with motion and the slowest pace (1.4 s a CPU action) to look at it.

    The page's clock is held once Python is up, and moved on only while the page shows the answer
    to the move: the CPU's paced action (a timer of the page) waits until the test has looked, on a
    busy machine as on a quiet one.
    """
    context = browser.new_context(locale="es-ES", **VIEWPORTS[viewport])
    page = context.new_page()
    try:
        boot(page, link(site_url, PLAIN_CODE), "human")
        more_options(page)
        page.click("#pace-pausado")
        page.keyboard.press("Escape")  # the «Opciones» sheet folds: back to the table
        page.clock.install()
        page.click('#hand button.card[data-card="10D"]')
        page.wait_for_function("() => document.body.dataset.state === 'cpu'")
        for _ in range(20):  # frames and zero-delay steps, far short of the CPU's 1.4 s
            if not page.evaluate("() => window.ochoLocoProbe.answering"):
                break
            page.clock.run_for(20)
        assert wait_state(page, "cpu", timeout=1_000) == "cpu"
        found = problems(page, f"cpu, {PLAIN_CODE.pretty()}")
        assert state(page) == "cpu", "the CPU waited for the look"
        page.clock.resume()
        assert wait_state(page) in ("human", "results", "gameover")
    finally:
        context.close()
    assert found == [], "\n".join(found)


def honest_game_over() -> Game:
    """A game the page's Normal CPU really played (a challenge checks it), one card from its end."""
    from engine.bots import make_level_bot
    from engine.game import GAME_OVER, PLAYING
    from engine.view import seat_view

    cpu = make_level_bot("normal")
    for n in range(200):
        game = Game.new(GameCode.build(2, f"RE{n:03d}".replace("0", "Z").replace("1", "Y")))
        while game.phase != GAME_OVER:
            if game.phase != PLAYING:
                game.next_hand()
                continue
            ending = game.turn == 0 and len(game.hands[0]) == 1 and bool(game.legal_cards())
            if ending and game.totals[1] >= 95:
                return game
            game.apply(cpu.choose(seat_view(game, game.turn)))
    raise AssertionError("no honest game over found")


@pytest.mark.parametrize("viewport", ["1280x800", "360x640"])
def test_retar_confirms_inside_the_open_panel_and_never_widens_the_page(viewport, browser, site_url):
    """Issue 25, item 4: the confirmation is heard and seen in the results panel, with no raw link."""
    context = browser.new_context(locale="es-ES", reduced_motion="reduce", **VIEWPORTS[viewport])
    page = context.new_page()
    game = honest_game_over()
    where = f"{viewport}, {game.code.pretty()}"
    try:
        open_saved(page, site_url, game, "human")
        finish_with_last_card(page, game, "gameover")
        see_the_end(page)
        page.click("#gameover-challenge-btn")
        page.wait_for_function("() => document.activeElement.id === 'challenge-name'")
        page.fill("#challenge-name", "Bea")
        page.click("#challenge-btn")
        page.wait_for_function(
            "() => document.getElementById('challenge-status').textContent.startsWith('Enlace del reto')"
        )
        status = page.locator("#challenge-status")
        assert status.get_attribute("role") == "status", where
        assert page.evaluate(
            "() => document.getElementById('gameover-dialog').contains("
            "document.getElementById('challenge-status'))"
        ), where
        assert "#reto=" not in status.inner_text(), f"{where}: no raw link in the sentence"
        assert "#reto=" not in page.inner_text("#status"), f"{where}: nothing behind the modal"
        assert page.locator("#challenge-url").is_visible(), where
        assert page.evaluate(SIDEWAYS_JS) <= 0, f"{where}: the page scrolls sideways"
    finally:
        context.close()
