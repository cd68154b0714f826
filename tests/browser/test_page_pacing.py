"""#25 items 8 and 9 in Chromium: CPU sentences paced to speech; a key as the count ends is held back."""

from __future__ import annotations

import itertools

import pytest
from helpers import (
    SAVE_KEY,
    THE_END_JS,
    boot,
    envelope,
    one_card_to_go_out,
    play_a_move,
    put_storage,
    reach,
    state,
    wait_for_python,
    wait_state,
)

from engine.game import GAME_OVER, HAND_OVER, Game
from ui.cpu import speech_gap

# Every text the status line shows, with the time it arrived (a MutationObserver, installed before load).
STATUS_LOG_JS = """
(() => {
  window.__said = [];
  addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("status");
    new MutationObserver(() => window.__said.push([performance.now(), el.textContent])).observe(
      el, {childList: true, characterData: true, subtree: true});
  });
})();
"""


def test_three_players_at_normal_pace_no_cpu_sentence_comes_before_the_last_is_said(page, site_url):
    """«CPU 1 …» and «CPU 2 …» used to arrive 0.7–0.9 s apart, faster than they can be spoken.

    Timers never fire early, so the gaps measured are at least the ones asked for, whatever the load.
    """
    page.add_init_script(STATUS_LOG_JS)
    boot(page, site_url, "setup")
    page.click("label:has(#mode-3)")
    page.click("#deal-btn")
    wait_state(page, "human")
    for _ in range(4):  # your move (a card, or draws until one), then both CPUs
        play_a_move(page)
        wait_state(page, "human", "results", "gameover")
        said = [(t, text) for t, text in page.evaluate("() => window.__said") if text]
        if sum(text.startswith("CPU") for _, text in said) >= 2:
            break
    code = page.inner_text("#game-code")
    cpu = [i for i, (_, text) in enumerate(said) if text.startswith("CPU")]
    assert len(cpu) >= 2, (code, said)
    for (t1, first), (t2, second) in itertools.pairwise(said):
        if second.startswith("CPU"):  # a CPU sentence: the one before it has been said by then
            # (two milliseconds for the rounding between the timer and performance.now())
            assert t2 - t1 >= speech_gap(first, "normal") - 2, (code, first, second, t2 - t1)


def _finishing(game_over: bool) -> Game:
    ends = GAME_OVER if game_over else HAND_OVER

    def after(g: Game) -> object:
        h = g.copy()
        h.apply(h.legal_actions()[0])
        return h.phase

    return reach(lambda g: one_card_to_go_out(g) and after(g) == ends, games=3000)


# Resolves once the count is over and the focus has moved on its own: right then, in the same task,
# the button gets a keyboard-style click (``click()`` has ``detail`` 0, as Enter and Space do).
# Presses the button the moment the focus is on it and the table says so: on a change of state or
# grace, or when the focus arrives (the worker mode's page moves it a frame after writing the table;
# checked once the script that moved it is done, as a key could come no sooner).
PRESS_AS_FOCUS_ARRIVES_JS = """
() => { window.__pressed = new Promise((done) => {
  let pressed = false;
  const check = () => {
    const el = document.activeElement;
    if (pressed || !el || !["next-hand-btn", "final-btn"].includes(el.id)) return pressed;
    pressed = true;
    const grace = el.dataset.grace === "1";
    el.click();
    done({id: el.id, grace, state: document.body.dataset.state});
    return true;
  };
  if (check()) return;
  const watch = new MutationObserver(() => { if (check()) watch.disconnect(); });
  const which = {attributes: true, subtree: true, attributeFilter: ["data-state", "data-grace"]};
  watch.observe(document.body, which);
  document.addEventListener("focusin", () => queueMicrotask(check));
}); }
"""


@pytest.mark.parametrize("game_over", [False, True], ids=["hand", "game"])
def test_a_key_pressed_as_the_focus_arrives_does_not_start_the_next_hand_or_game(
    game_over, fast_page, site_url
):
    """Focus moves to «Siguiente mano» or «Ver el final» when the count ends; a key pressed just then
    used to start the next hand or a new game. A key pressed after the grace does."""
    page = fast_page
    game = _finishing(game_over)
    put_storage(page, site_url, {SAVE_KEY: envelope(game)})
    page.goto(site_url)
    wait_for_python(page)
    assert wait_state(page, "human") == "human"
    page.evaluate(PRESS_AS_FOCUS_ARRIVES_JS)  # armed, not awaited
    page.click(f'#hand button.card[data-card="{game.hands[0][0]}"]')
    got = page.evaluate("() => window.__pressed")
    ended = "gameover" if game_over else "results"
    assert got == {"id": "final-btn" if game_over else "next-hand-btn", "grace": True, "state": ended}
    assert state(page) == ended, "the key pressed as the focus arrived was held back"
    page.wait_for_function("(id) => !document.getElementById(id).hasAttribute('data-grace')", arg=got["id"])
    assert page.evaluate("() => document.activeElement.id") == got["id"]
    page.keyboard.press("Enter")
    if game_over:
        page.wait_for_function(THE_END_JS)  # a key after the grace counts: the end of the game opens
    else:
        assert wait_state(page, "human", "cpu") in ("human", "cpu"), "a key after the grace counts"
