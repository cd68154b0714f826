"""«Repaso» and «Pista» on the real page: the hard CPU's review of your decisions, and its hint.

A fixed code's first hand is played with a fixed policy; the review the page
shows must be :mod:`engine.review`'s, run here in CPython on the same record:
the heading, the summary, one list item per decision (its verdict in its
text), a jump to that moment by click and by keyboard.
"""

from __future__ import annotations

from functools import partial

from helpers import act, boot, legal_cards, link, resize, saved_game, wait_state

from engine.actions import Action
from engine.codes import GameCode
from engine.game import Game
from engine.judge import Choice
from engine.record import Record
from engine.review import Reviewer
from engine.stats import outcome
from engine.view import seat_view
from lab.simulate import run
from ui import render_replay
from ui.hint import hint_text, hinted_label
from ui.links import challenge_hash

CODE = GameCode.build(2, "K7QM9")
CARD = '#hand button.card[data-card="{}"]'


def play_first_hand(page) -> None:
    """The person plays the last raised card (a policy with some poor choices), naming hearts."""
    for _ in range(500):
        now = wait_state(page)
        if now in ("results", "gameover"):
            return
        if now == "chooser":
            act(page, partial(page.click, '#suit-dialog .suit-btn[data-suit="H"]'))
            continue
        legal = legal_cards(page)
        if legal:
            act(page, partial(page.click, CARD.format(legal[-1])))
        else:
            act(page, partial(page.click, "#main-btn"))
    raise AssertionError("the hand did not end")


def hand_record(history: list[str]) -> Record:
    game = Game.new(CODE)
    for entry in history:
        if entry == "reshuffle":
            continue
        game.apply(Action.parse(entry.split(":", 1)[1]))
    return Record.of(game)


def wait_reviewed(page) -> None:
    page.wait_for_function(
        "() => { const s = document.getElementById('review-summary').textContent;"
        " return s && !s.startsWith('Repasando'); }",
        timeout=120_000,
    )


IN_VIEW_JS = """(id) => {
  const box = document.getElementById(id).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_repaso_lists_each_decision_and_jumps_to_it_by_click_and_keyboard(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, CODE), "human")
    play_first_hand(page)
    record = hand_record(saved_game(page)["history"])
    expected = Reviewer(record, 0, len(record.moves)).run()
    assert expected.decisions, "the fixed hand has decisions to review"

    resize(page, 390, 844)  # a phone: the review is in view when «Ver la mano» opens
    page.click("#replay-btn")
    wait_state(page, "replay")
    assert page.locator("#review h3").inner_text() == "Repaso"
    wait_reviewed(page)
    assert page.locator("#review-summary").inner_text() == expected.summary()
    assert page.evaluate(IN_VIEW_JS, "review-summary"), f"{CODE}: the review's summary is out of view"
    assert page.evaluate(IN_VIEW_JS, "review-jump"), f"{CODE}: no way to the list in view"
    page.click("#review-jump")  # the visible way to the list: its first item, focused and in view
    assert page.evaluate("() => document.activeElement.id") == "review-go-0"
    page.wait_for_function(IN_VIEW_JS, arg="review-go-0")
    resize(page, 1280, 800)
    items = page.locator("#review-list > li")
    assert items.count() == len(expected.decisions)
    buttons = page.locator("#review-list > li > button")
    for n, decision in enumerate(expected.decisions):
        name = buttons.nth(n).evaluate("b => b.textContent")
        assert name.endswith(f"{decision.verdict}."), name  # the verdict is part of the accessible name
        assert name.startswith(f"Jugada {decision.index + 1}: ")

    last = len(record.moves)
    target = expected.decisions[-1].index
    buttons.nth(len(expected.decisions) - 1).click()
    page.wait_for_function(  # the click's answer may come a moment later (the worker mode)
        "() => document.getElementById('replay-title').textContent === "
        f"{render_replay.replay_title(0, target, last)!r}"
    )
    assert buttons.nth(len(expected.decisions) - 1).get_attribute("aria-current") == "step"

    # The keyboard path: Tab from the last control of the replay reaches the first item; Enter jumps.
    page.focus("#replay-close")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "review-go-0"
    page.keyboard.press("Enter")
    first = expected.decisions[0].index
    page.wait_for_function(
        "() => document.getElementById('replay-title').textContent === "
        f"{render_replay.replay_title(0, first, last)!r}"
    )
    page.keyboard.press("Tab")
    if len(expected.decisions) > 1:
        assert page.evaluate("() => document.activeElement.id") == "review-go-1"
        page.keyboard.press(" ")
        second = expected.decisions[1].index
        page.wait_for_function(
            "() => document.getElementById('replay-title').textContent === "
            f"{render_replay.replay_title(0, second, last)!r}"
        )

    # A second look comes from «Tus partidas»: the list is there at once, with no «Repasando…».
    page.click("#replay-close")
    wait_state(page, "results", "gameover")
    page.click("#replay-btn")
    wait_state(page, "replay")
    assert page.locator("#review-summary").inner_text() == expected.summary()
    assert page.locator("#review-list > li").count() == len(expected.decisions)


def test_a_hint_raises_the_reviews_card_and_the_save_says_hints_were_asked(fast_page, site_url):
    page = fast_page
    code = GameCode.build(2, "HXB4R")
    boot(page, link(site_url, code), "human")
    game = Game.new(code)
    choice = Choice(seat_view(game, 0))  # the review's own choice: one judge for «Pista» and «Repaso»
    expected = choice.run()
    page.click("#hint-btn")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Pista:')")
    assert page.inner_text("#status") == hint_text(expected, choice.reason())
    if expected.card is not None:
        hinted = page.locator(f'#hand button.card[data-card="{expected.card}"]')
        assert hinted.get_attribute("data-hint") == "1"
        assert hinted.get_attribute("aria-label") == hinted_label(expected)
    page.wait_for_function(
        "() => JSON.parse(window.localStorage.getItem('ocho-loco:partida')).record.startsWith('r4.')"
    )


def test_a_challenge_from_a_game_with_hints_shows_con_pistas(fast_page, site_url):
    records: list[Record] = []
    run(2, ["cpu", "cpu"], 1, seed=7, records=records)
    record = records[0].with_hint(0)
    total = outcome(record).total
    fast_page.goto(site_url + challenge_hash(str(record), total, "Ana"))
    fast_page.wait_for_function("() => !document.getElementById('challenge-banner').hidden", timeout=180_000)
    assert (
        fast_page.inner_text("#challenge-banner")
        == f"Te reta Ana: {total} puntos con este reparto (con pistas, según su enlace)."
    )
