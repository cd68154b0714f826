"""Issue 25, item 7: CPU turns leave your hand alone when your cards did not change."""

from __future__ import annotations

import itertools

from helpers import PLAIN_CODE, boot, link, play_a_move, state

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
