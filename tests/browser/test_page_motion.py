"""Cards that travel (issue 25, «a table worth looking at»; issue 36, «cards that travel»).

The deal flies each card from the stock to its seat, a draw from the stock to
the hand (face down to a CPU's fan), a played card from the hand or from a
CPU's seat to the pile, a reshuffle gathers the pile into the stock, and at
the results each leftover card turns over as it is counted. A card travels in
150–300 ms, by transform (and opacity, while a dealt card waits its turn).
With reduced motion nothing moves at all: no Web Animation, no CSS animation
or transition starts, and the status line says in words what happened.

The performance note (frames during a card's travel with the CPU slowed 4×
through the DevTools protocol) prints figures and asserts nothing timed.
"""

from __future__ import annotations

import itertools
from functools import partial

import pytest
from helpers import (
    PLAIN_CODE,
    SAVE_KEY,
    STUCK_CODE,
    TWO_FRAMES_JS,
    act,
    assert_no_errors,
    boot,
    envelope,
    hand,
    link,
    put_storage,
    reach,
    status,
    wait_state,
)

from engine.actions import DRAW, PASS, Action
from engine.bots import make_level_bot
from engine.cards import EIGHT, RANK_OF
from engine.game import PLAYING, Game
from engine.levels import DEFAULT_LEVEL
from engine.view import seat_view
from ui.prefs import PACE_KEY

# Counts every animation the page starts: Web Animations (element.animate) and CSS ones (and
# these by name: a results card turning over is a "card-flip").
COUNT_ANIMATIONS_JS = """
(() => {
  window.__moves = {animate: 0, css: 0};
  window.__named = {};
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    window.__moves.animate += 1;
    return animate.apply(this, args);
  };
  for (const kind of ["animationstart", "transitionstart"])
    addEventListener(kind, (event) => {
      window.__moves.css += 1;
      const name = event.animationName || event.propertyName;
      window.__named[name] = (window.__named[name] || 0) + 1;
    }, true);
})();
"""
# Every animation frame's time, for a few seconds.
FRAMES_JS = """() => {
  window.__frames = [];
  const tick = (t) => {
    window.__frames.push(t);
    if (window.__frames.length < 600) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""
FLIGHTS_JS = "() => window.ochoLocoProbe.flights.map(f => ({...f}))"
KINDS_JS = "(kinds) => kinds.every(k => window.ochoLocoProbe.flights.some(f => f.kind === k))"


def flights(page, kind: str | None = None) -> list[dict]:
    return [f for f in page.evaluate(FLIGHTS_JS) if kind is None or f["kind"] == kind]


def travels_as_a_card_does(flight: dict) -> bool:
    """150–300 ms of travel, by transform; a card that waits its turn in the deal waits unseen."""
    moved = ["opacity", "transform"] if flight["delay"] else ["transform"]
    return 150 <= flight["ms"] <= 300 and flight["properties"] == moved


def test_a_played_card_travels_from_the_hand_and_a_cpu_card_from_its_seat(page, site_url):
    page.context.add_init_script(COUNT_ANIMATIONS_JS)
    boot(page, link(site_url, PLAIN_CODE), "human")
    page.click('#hand button.card[data-card="10D"]')
    page.wait_for_function(KINDS_JS, arg=["play"])
    [first] = flights(page, "play")
    assert first["card"] == "10D" and first["from"] == "hand", (PLAIN_CODE.pretty(), first)
    assert 150 <= first["ms"] <= 300 and first["properties"] == ["transform"], first
    # The CPU answers: its card (or the card it draws) travels too.
    page.wait_for_function(
        "() => window.ochoLocoProbe.flights.some(f => f.from.includes('seat'))", timeout=30_000
    )
    wait_state(page, "human", "results", "gameover")
    moved = flights(page)
    assert all(travels_as_a_card_does(f) for f in moved), moved


def test_a_drawn_card_travels_from_the_stock_to_the_hand(page, site_url):
    boot(page, link(site_url, STUCK_CODE), "human")
    before = set(hand(page))
    page.click("#main-btn")  # nothing fits: «Robar»
    page.wait_for_function(KINDS_JS, arg=["draw"])
    drawn = flights(page, "draw")
    new = set(hand(page)) - before
    assert [f["card"] for f in drawn] == sorted(new) and len(new) == 1, (STUCK_CODE.pretty(), drawn, new)


def test_with_reduced_motion_no_card_moves_and_the_same_is_said(browser, site_url):
    said = {}
    for motion in ("reduce", "no-preference"):
        context = browser.new_context(locale="es-ES", reduced_motion=motion)
        context.add_init_script(COUNT_ANIMATIONS_JS)
        page = context.new_page()
        try:
            boot(page, link(site_url, STUCK_CODE), "human")
            act(page, partial(page.click, "#main-btn"), "human")
            said[motion] = status(page)
            moves = page.evaluate("() => ({...window.__moves})")
            left = page.evaluate("() => document.getAnimations().length")
            if motion == "reduce":
                assert moves == {"animate": 0, "css": 0} and left == 0, (STUCK_CODE.pretty(), moves, left)
                assert flights(page) == []
            else:
                assert moves["animate"] >= 1, moves  # the same steps do move cards without the setting
        finally:
            context.close()
    assert said["reduce"] == said["no-preference"], said


def test_performance_note_frames_while_a_card_travels_with_a_4x_slower_cpu(browser, site_url):
    """Reported, not asserted: run with ``-s`` to read the figures (normal CPU, then 4x slower)."""
    for rate in (1, 4):
        context = browser.new_context(locale="es-ES")
        page = context.new_page()
        try:
            boot(page, link(site_url, PLAIN_CODE), "human")
            page.wait_for_function("() => document.getAnimations().length === 0")  # the deal has landed
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            page.evaluate(FRAMES_JS)
            page.click('#hand button.card[data-card="10D"]')
            page.wait_for_function(KINDS_JS, arg=["play"])
            page.wait_for_function("() => document.getAnimations().length === 0")
            frames = page.evaluate("() => window.__frames")
            [flight] = flights(page, "play")
        finally:
            context.close()
        start, end = flight["at"], flight["at"] + flight["ms"]
        during = [t for t in frames if start <= t <= end + 20]
        gaps = [b - a for a, b in itertools.pairwise([start, *during])]
        print(
            f"\nCPU slowed {rate}x: {len(during)} frames during the {flight['ms']} ms travel of"
            f" {flight['card']} (60 Hz: {flight['ms'] // 17}); longest gap {max(gaps, default=0):.1f} ms"
        )
        assert flight["card"] == "10D"


def _your_line(game: Game) -> list[Action] | None:
    """Your clicks from ``game`` to the end of its hand, if you draw first and a CPU plays a card after.

    You play your first card that fits (never an 8: no suit to ask), else draw, else pass; the CPUs
    play as the page's default level does. None if the hand takes more than four clicks of yours.
    """
    game = game.copy()
    bot = make_level_bot(DEFAULT_LEVEL)
    clicks: list[Action] = []
    cpu_played = False
    while game.phase == PLAYING:
        if game.turn != 0:
            action = bot.choose(seat_view(game, game.turn))
            cpu_played = cpu_played or (action.is_play and bool(clicks))
        elif len(clicks) == 4:
            return None
        else:
            legal = game.legal_actions()
            plays = [a for a in legal if a.is_play and RANK_OF[a.card] != EIGHT]
            if not plays and any(a.is_play for a in legal):
                return None  # only an 8 fits
            action = plays[0] if plays else (DRAW if DRAW in legal else PASS)
            clicks.append(action)
        game.apply(action)
    return clicks if clicks[0] == DRAW and cpu_played else None


def _empty_stock_and_nothing_fits(game: Game) -> bool:
    """Your turn on an empty stock with no card that fits: «Robar» turns the pile into the stock."""
    return (
        game.phase == PLAYING
        and game.turn == 0
        and not game.stock
        and len(game.pile) > 3
        and game.draws == 0
        and not game.legal_cards()
        and _your_line(game) is not None
    )


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_deal_a_draw_a_cpu_card_the_reshuffle_and_the_count_each_move_unless_asked_not_to(
    motion, page, page_log, site_url
):
    """From an empty stock: «Robar» reshuffles and draws, a CPU plays, the hand ends and is counted,
    and the next hand is dealt. With motion each of these travels (or turns over); with reduced
    motion nothing does, and the status line says that the pile became the stock."""
    game = reach(_empty_stock_and_nothing_fits, 3, play_bias=0.3)
    clicks = _your_line(game)
    assert clicks is not None
    page.context.add_init_script(COUNT_ANIMATIONS_JS)
    page.emulate_media(reduced_motion=motion)
    put_storage(page, site_url, {SAVE_KEY: envelope(game), PACE_KEY: "rapido"})
    boot(page, site_url, "human")
    for i, action in enumerate(clicks):
        target = f'#hand button.card[data-card="{action.card}"]' if action.is_play else "#main-btn"
        act(page, partial(page.click, target), "human", "results")
        if i == 0:
            assert "Se barajan los descartes" in status(page), (game.code.pretty(), status(page))
    wait_state(page, "results")
    page.wait_for_selector("#next-hand-btn:not([hidden])")  # every leftover card counted
    page.click("#next-hand-btn")
    wait_state(page, "human", "cpu")
    if motion == "reduce":
        page.evaluate(TWO_FRAMES_JS)  # the frame in which the deal would have flown
        moves = page.evaluate("() => ({...window.__moves})")
        assert moves == {"animate": 0, "css": 0} and flights(page) == [], (game.code.pretty(), moves)
    else:
        page.wait_for_function(KINDS_JS, arg=["deal", "draw", "cpu-play", "reshuffle"])
        kinds = {f["kind"] for f in flights(page)}
        dealt = [f["from"] for f in flights(page, "deal")]
        assert "stock" in dealt and "stock to seat 1" in dealt and "stock to seat 2" in dealt, dealt
        assert page.evaluate("() => window.__named['card-flip'] || 0") >= 1, (
            kinds,
            page.evaluate("() => window.__named"),
        )
        assert all(travels_as_a_card_does(f) for f in flights(page) if f["kind"] != "reshuffle")
        # «Ritmo: Rápido» (saved above): each card travels quicker than at «Normal» (240 ms)
        assert max(f["ms"] for f in flights(page) if f["kind"] != "reshuffle") < 200, flights(page)
    assert_no_errors(page_log)
