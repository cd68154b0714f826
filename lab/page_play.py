"""The page bench's play figures: card clicks, the CPU levels' decisions and a whole-game save's load.

Part of ``python -m lab.page_bench`` (:mod:`lab.page_bench`): its default run
takes the click and CPU-turn figures from :func:`measure_actions` and the
save-load figure from :func:`run_save_load`; ``--levels-only`` is
:func:`run_levels` and ``--save-load-only`` :func:`run_save_load`.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from engine.codes import GameCode
from tools.page_driver import (
    CHROMIUM_ARGS,
    PROBE_JS,
    SETTLED_JS,
    TIMEOUT_MS,
    click_first,
    context_options,
    find_chromium,
    serve,
)
from tools.serve import Traffic

CARD_SAMPLES_PER_RUN = 24

# Click on a card (not an 8: that one opens the suit chooser) -> first change of #hand.
ACTION_SCRIPT = """
(() => {
  window.__actions = [];
  window.__t0 = null;
  addEventListener("click", (e) => {
    const card = e.target.closest && e.target.closest("#hand button.card");
    window.__t0 = card && !card.dataset.card.startsWith("8") ? performance.now() : null;
  }, true);
  addEventListener("DOMContentLoaded", () => {
    new MutationObserver((records) => {
      // The pressed look the page gives a tapped card at once is not the answer: wait for the move.
      const pressed = (r) => r.type === "attributes" && r.target.classList.contains("pressed");
      if (records.every(pressed)) return;
      if (window.__t0 !== null) {
        window.__actions.push(performance.now() - window.__t0);
        window.__t0 = null;
      }
    }).observe(document.getElementById("hand"), {subtree: true, childList: true, attributes: true});
  });
})();
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


# A task counts as a CPU turn's when the page was in state ``cpu`` as it began: the
# observer is told after the task, when the state may have changed either way, so
# every change of ``data-state`` is kept with its time and each task is placed by its start.
LONGTASK_SCRIPT = """
(() => {
  window.__longest_cpu_task = 0;
  if (!window.PerformanceObserver) return;
  const states = [];
  const note = () => states.push([performance.now(), document.body.dataset.state]);
  const watch = () => {
    note();
    new MutationObserver(note).observe(document.body, {attributes: true, attributeFilter: ["data-state"]});
  };
  if (document.body) watch(); else document.addEventListener("DOMContentLoaded", watch);
  const stateAt = (time) => {
    let state = null;
    for (const [when, name] of states) { if (when > time) break; state = name; }
    return state;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (stateAt(entry.startTime) !== "cpu") continue;
      window.__longest_cpu_task = Math.max(window.__longest_cpu_task, entry.duration);
    }
  }).observe({type: "longtask"});
})();
"""


def measure_actions(
    browser: Any, url: str, code: str, level: str | None = None
) -> tuple[list[float], list[float]]:
    """Play scripted hands; (click->DOM ms of card plays, CPU decision ms).

    With ``level``, the game is played against that CPU level («Rival», stored
    as the player's preference before the page loads).
    """
    ctx = browser.new_context(**context_options())
    try:
        ctx.set_default_timeout(TIMEOUT_MS)
        ctx.add_init_script(PROBE_JS)
        ctx.add_init_script(ACTION_SCRIPT)
        ctx.add_init_script(LONGTASK_SCRIPT)
        if level is not None:
            ctx.add_init_script(f"localStorage.setItem('ocho-loco:nivel', {json.dumps(level)});")
        page = ctx.new_page()
        page.goto(url + f"#partida={code}&mesa={code[1]}", wait_until="commit")
        page.wait_for_function("() => document.body && document.body.dataset.ready === '1'")
        moves = 0
        while moves < 400:
            page.wait_for_function(SETTLED_JS)
            samples = int(page.evaluate("() => window.__actions.length"))
            if samples >= CARD_SAMPLES_PER_RUN:
                break
            state = page.evaluate("() => document.body.dataset.state")
            if state == "human":
                played = click_first(
                    page,
                    [
                        "#hand button.card.legal:not([data-card^='8'])",
                        "#hand button.card.legal",
                        "#main-btn:not([disabled])",
                    ],
                )
                if not played:
                    raise RuntimeError("nothing to click in state 'human'")
            elif state == "chooser":
                page.click('#suit-dialog button[data-suit="H"]')
            elif state == "results":
                page.click("#next-hand-btn")
            elif state == "gameover":
                page.click("#final-btn")  # the last count's «Ver el final», then the end's «Nueva partida»
                page.click("#new-game-btn")
            elif state == "setup":
                page.click("#deal-btn")
            moves += 1
            # Wait for this move's effect before reading the state again.
            page.wait_for_function("(s) => document.body.dataset.state !== s || s === 'human'", arg=state)
        actions = [float(x) for x in page.evaluate("() => window.__actions")]
        cpu = [float(x) for x in page.evaluate("() => Array.from(window.ochoLocoProbe.timing)")]
        LONGEST_CPU_TASK.append(float(page.evaluate("() => window.__longest_cpu_task")))
    finally:
        ctx.close()
    return actions, cpu


# Longest main-thread task seen while the CPU was on turn, one figure per measure_actions run.
LONGEST_CPU_TASK: list[float] = []


def run_levels(site: Path, runs: int) -> dict[str, Any]:
    """Each CPU level in the page, at 2 and 3 players: decision ms (p50, p95, max) and the longest task.

    The figures for a level over both table sizes are under its name; ``NAME_2p``
    and ``NAME_3p`` hold each size on its own.
    """
    chromium = find_chromium()
    out: dict[str, Any] = {}
    with serve(site, Traffic()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            for level in ("facil", "normal", "dificil"):
                every: list[float] = []
                longest: list[float] = []
                for players in (2, 3):
                    decisions: list[float] = []
                    LONGEST_CPU_TASK.clear()
                    for i in range(runs):
                        code = GameCode.random(players, random.Random(100 + i)).pretty()
                        _actions, cpu = measure_actions(browser, url, code, level)
                        decisions += cpu
                    out[f"{level}_{players}p"] = _level_figures(decisions, LONGEST_CPU_TASK)
                    log(f"level {level}, {players} players: {out[f'{level}_{players}p']}")
                    every += decisions
                    longest += LONGEST_CPU_TASK
                out[level] = _level_figures(every, longest)
                log(f"level {level}: {out[level]}")
        finally:
            browser.close()
    return {"levels": out}


def _level_figures(decisions: list[float], longest: list[float]) -> dict[str, Any]:
    return {
        "decisions": len(decisions),
        "decision_ms_p50": round(percentile(decisions, 50), 2),
        "decision_ms_p95": round(percentile(decisions, 95), 2),
        "decision_ms_max": round(max(decisions), 2) if decisions else None,
        "longest_task_during_cpu_turns_ms": round(max(longest), 1) if longest else None,
    }


def whole_game_save() -> str:
    """The page's save of the longest of 20 finished cpu-vs-cpu games (a whole game to 100)."""
    from lab.simulate import run as simulate  # noqa: PLC0415 - only this figure needs it
    from ui.storage import Store  # noqa: PLC0415

    records: list[Any] = []
    simulate(2, ["cpu", "cpu"], 20, "bench-save", records=records)
    longest = max(records, key=len)
    return Store.payload(longest.replay())


def measure_save_load(browser: Any, url: str, save: str) -> float:
    """Milliseconds the page's Python takes to read and replay ``save`` (the probe's ``saveLoadMs``)."""
    ctx = browser.new_context(**context_options())
    try:
        ctx.set_default_timeout(TIMEOUT_MS)
        ctx.add_init_script(PROBE_JS)
        ctx.add_init_script(
            "if (!sessionStorage.getItem('seeded')) {"
            f" localStorage.setItem('ocho-loco:partida', {json.dumps(save)});"
            " sessionStorage.setItem('seeded', '1'); }"
        )
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function("() => document.body && document.body.dataset.ready === '1'")
        return float(page.evaluate("() => window.ochoLocoProbe.saveLoadMs"))
    finally:
        ctx.close()


def run_save_load(site: Path, runs: int) -> dict[str, Any]:
    """Only the save-load figure: a whole game replayed from its record in the page."""
    chromium = find_chromium()
    save = whole_game_save()
    moves = len(json.loads(save)["record"])
    with serve(site, Traffic()) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            times = [measure_save_load(browser, url, save) for _ in range(runs)]
        finally:
            browser.close()
    return {
        "save_load_ms": round(median(times), 2),
        "save_load_ms_max": round(max(times), 2),
        "save_record_chars": moves,
        "samples": {"save_load_ms": [round(t, 2) for t in times]},
    }
