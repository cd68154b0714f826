"""The focus and your hand: CPU turns leave the hand alone when your cards did not change (issue 25,
item 7); a card played never drops the focus to the page (issue 37). The focus after «Repartir», a
suit named and «Saltar la cuenta» (issue 47, seam 6), at five windows: test_page_seams.py."""

from __future__ import annotations

import itertools
from functools import partial

from helpers import (
    FOCUS_SAMPLES_JS,
    PLAIN_CODE,
    act,
    boot,
    link,
    play_a_move,
    state,
)

HAND_LOG_JS = """() => {
  window.__hands = [];
  const hand = document.getElementById('hand');
  const read = () => [...hand.querySelectorAll('button.card')]
      .map(b => b.dataset.card + (b.classList.contains('legal') ? '*' : '')).join(' ');
  window.__focusins = [];
  hand.addEventListener('focusin', () => window.__focusins.push(document.body.dataset.state));
  new MutationObserver(() => window.__hands.push(read())).observe(hand, {childList: true});
}"""


def test_cpu_turns_do_not_redraw_a_hand_that_did_not_change(fast_page, site_url):
    page = fast_page
    code = PLAIN_CODE.pretty()
    boot(page, link(site_url, PLAIN_CODE), "human")
    page.evaluate(HAND_LOG_JS)
    for _ in range(6):
        if state(page) != "human":
            break
        play_a_move(page)
    hands = page.evaluate("() => window.__hands")
    assert len(hands) >= 3, f"{code}: the hand changed as moves were made"
    again = [h for before, h in itertools.pairwise(hands) if h == before]
    assert again == [], f"{code}: the hand was drawn again with the same cards: {again}"


def test_the_focus_never_falls_to_the_page_when_a_card_is_played_by_keyboard(fast_page, site_url):
    """Issue 37: a card played with Enter leaves; the focus goes to the card in its place, never to
    the page's body, not even for the frame between the hand's redraw and the focus move."""
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")
    page.locator("#hand button.card").first.focus()  # the player's focus is on the table from here
    page.evaluate(FOCUS_SAMPLES_JS)
    played = 0
    for _ in range(12):
        if state(page) != "human" or played == 3:
            break
        legal = page.locator('#hand button.card.legal:not([data-card^="8"])')
        if legal.count() == 0:
            play_a_move(page)  # a draw (or an 8 and its suit): not what is watched here
            continue
        legal.first.focus()
        act(page, partial(page.keyboard.press, "Enter"))
        played += 1
        focused = page.evaluate("() => document.activeElement.id || document.activeElement.dataset.card")
        assert focused, f"{PLAIN_CODE.pretty()}: nothing focused after the card"
    assert played >= 2, f"{PLAIN_CODE.pretty()}: the test played {played} cards"
    assert page.evaluate("() => window.__onBody") == [], PLAIN_CODE.pretty()
