"""Time «Repaso» in the built page, in headless Chromium: p50 and p95 of a whole hand's review.

Usage::

    python -m lab.review_page_bench [--hands 50] [--site DIR]

Builds the site (or serves ``--site``), opens one page and plays games of
fixed codes (seed ``review-page-bench``; two and three players in turn). The
person is the review's learner stand-in (:mod:`lab.review_learner`: fácil that
draws by choice now and then and spends 8s early), its move read from the
page's save and clicked by selector, so a hand redrawn meanwhile is no race.
After every hand it opens «Ver la mano» and times, in the page's own clock,
from the click to the moment the review's summary replaces «Repasando…»;
it records the longest main-thread task (PerformanceObserver ``longtask``)
in that time, then closes the replay and goes on. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from engine.cards import TEXT
from engine.game import HAND_OVER
from engine.record import Record
from engine.view import seat_view
from lab.review_learner import Learner
from lab.simulate import game_code
from tools import build as site_build
from tools.page_driver import CHROMIUM_ARGS, PROBE_JS, context_options, find_chromium, serve
from tools.serve import Traffic
from ui.storage import SAVE_KEY

STATE = "() => document.body.dataset.state"
HAND = "() => [...document.querySelectorAll('#hand button.card')].map((b) => b.dataset.card)"
OBSERVE = """
(() => {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
  }).observe({type: "longtask"});
})()
"""
DONE = (
    "() => { const s = document.getElementById('review-summary').textContent;"
    " return s && !s.startsWith('Repasando') ? performance.now() : false; }"
)


def wait_state(page: Any, *states: str) -> str:
    want = list(states) or ["human", "chooser", "results", "gameover"]
    page.wait_for_function(
        f"() => {json.dumps(want)}.includes(document.body.dataset.state) && !window.ochoLocoProbe.answering",
        timeout=120_000,
    )
    return str(page.evaluate(STATE))


def learner_move(page: Any, learner: Learner) -> None:
    """Make the learner's move in the page, then wait until the page has saved it."""
    for _ in range(100):  # the save and the drawn hand agree once the page's answer has landed
        before = page.evaluate("(key) => window.localStorage.getItem(key)", SAVE_KEY)
        game = Record.parse(json.loads(before)["record"]).replay()
        if game.phase == HAND_OVER:  # «Siguiente mano» deals without a move of its own
            game.next_hand()
        shown = page.evaluate(HAND)
        if game.turn == 0 and sorted(shown) == sorted(TEXT[c] for c in game.hands[0]):
            break
        page.wait_for_function(
            "([key, before]) => window.localStorage.getItem(key) !== before",
            arg=[SAVE_KEY, before],
            timeout=5_000,
        )
    else:
        raise SystemExit("the page's hand never matched its save")
    action = learner.choose(seat_view(game, 0))
    if action.is_play:
        assert action.card is not None
        page.click(f'#hand button.card[data-card="{TEXT[action.card]}"]')
        if action.suit is not None:  # an 8: the chooser opens, then the suit
            wait_state(page, "chooser")
            page.click(f'#suit-dialog .suit-btn[data-suit="{action.suit.letter}"]')
    else:  # draw or pass: the main button says which
        page.click("#main-btn")
    page.wait_for_function(
        "([key, before]) => window.localStorage.getItem(key) !== before",
        arg=[SAVE_KEY, before],
        timeout=120_000,
    )


def play_hand(page: Any, learner: Learner) -> None:
    """Play the person's turns to the end of the hand."""
    for _ in range(600):
        if wait_state(page) in ("results", "gameover"):
            return
        learner_move(page, learner)
    raise SystemExit("a hand did not end")


def review_once(page: Any) -> tuple[float, float, int]:
    """Open «Ver la mano», wait for the review; its time (ms), the longest task in it, its items."""
    page.evaluate("window.__longest = 0")
    page.wait_for_selector("#replay-btn", state="visible", timeout=120_000)  # after the count
    started = float(page.evaluate("() => performance.now()"))
    page.click("#replay-btn")
    handle = page.wait_for_function(DONE, timeout=120_000, polling=10)
    ended = float(handle.json_value())
    items = int(page.locator("#review-list > li").count())
    longest = float(page.evaluate("window.__longest"))
    page.click("#replay-close")
    wait_state(page, "results", "gameover")
    return ended - started, longest, items


def quantiles(values: list[float]) -> list[float]:
    ordered = sorted(values)
    n = len(ordered)
    return [round(ordered[min(n - 1, int(q * n))], 1) for q in (0.5, 0.95)] + [round(ordered[-1], 1)]


def run(site: Path, hands: int) -> dict[str, Any]:
    rows: list[tuple[float, float, int]] = []
    learner = Learner()
    with serve(site, Traffic()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        game = 0
        while len(rows) < hands:
            code = game_code(2 + game % 2, "review-page-bench", game)
            context = browser.new_context(**context_options())
            context.add_init_script(PROBE_JS)  # the probe says when the page's answer is on its way
            page = context.new_page()
            page.goto(f"{url}#partida={code.pretty()}&mesa={code.players}")
            page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=120_000)
            wait_state(page)
            page.evaluate(OBSERVE)
            while len(rows) < hands:
                play_hand(page, learner)
                rows.append(review_once(page))
                print(
                    f"hand {len(rows)}: {rows[-1][0]:.0f} ms, longest task {rows[-1][1]:.0f} ms",
                    file=sys.stderr,
                )
                if page.evaluate(STATE) == "gameover":
                    break
                page.wait_for_selector("#next-hand-btn", state="visible", timeout=120_000)
                page.click("#next-hand-btn")
            context.close()
            game += 1
        browser.close()
    return {
        "hands": len(rows),
        "decisions_p50_max": [quantiles([float(r[2]) for r in rows])[0], max(r[2] for r in rows)],
        "review_ms_p50_p95_max": quantiles([r[0] for r in rows]),
        "longest_task_ms_max": round(max(r[1] for r in rows), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.review_page_bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--site", help="an already built site folder (default: build one now)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ocho-review-bench-") as tmp:
        site = Path(args.site) if args.site else site_build.build(Path(tmp) / "_site", quiet=True).out
        print(json.dumps(run(site, args.hands)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
