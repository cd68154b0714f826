"""Issue 26's targets, measured on the page's two modes side by side (a benchmark, not a test).

Usage::

    python -m lab.worker_bench [--rounds 3] [--throttle 4] [--games 1] [--hands 0] [--lighthouse]
                               [--site DIR] [--out f.json]

Builds the site (or takes ``--site``), serves it gzip-compressed as GitHub Pages
does, and opens it in fresh Chromium processes and profiles at 412×823 with the
CPU throttled ``--throttle`` times (CDP ``Emulation.setCPUThrottlingRate``),
alternating in every round the page (``worker``: Python in a Web Worker, the
page's one mode) and, for the load, ``bare`` (a page that only starts the same
PyScript and Pyodide).

* **load**: a share link that deals at once; ``hand_ms``: navigation to a
  playable hand (for ``bare``: Python ready); ``hand_ratio``: over ``bare`` in
  the same round. From the page's own observers: first contentful paint,
  largest contentful paint, the layout-shift score (CLS), the main thread's
  longest task and the blocking time (each task's part over 50 ms after the
  first paint, until the hand: Lighthouse's total blocking time without its
  simulation).
* **game**: one whole 3 en la mesa game against Difícil per mode and round, in
  the first ``--games`` rounds (``--hands``: at most that many hands; 0: the
  whole game), reduced motion, the person playing the
  first raised card, else «Robar» / «Pasar». ``longest_task_ms``: the main
  thread's longest task after the first paint; ``tap_ms_max`` / ``tap_ms_p95``:
  from each tap on a card or «Robar» (the event's time stamp) to the frame that
  shows its first change to the table (a MutationObserver, then the next
  animation frame: the pressed look the page gives a tapped move at once);
  ``answer_ms_max`` / ``answer_ms_median``: the same to the frame that shows
  the table's answer (the move played); ``event_timing_max_ms``: the longest
  click by the Event Timing API (input to the paint after the handlers, which
  is before the answer comes back: the tap figure is the honest one).
* **lighthouse** (``--lighthouse``): Lighthouse 12.2.3, mobile preset, on the
  same gzip-served site, if it is installed in ``.cache/lighthouse`` (it is not
  a project dependency: ``npm install --prefix .cache/lighthouse
  lighthouse@12.2.3``); performance, total blocking time, CLS, LCP.

Prints one JSON document: medians per mode and figure, the load average before
and after (``os.getloadavg``). Absolute times depend on the machine and its
load; compare the modes within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from lab.page_bench import make_baseline
from lab.report import report
from tools import build as site_build
from tools.page_driver import CHROMIUM_ARGS, find_chromium, serve
from tools.serve import Traffic

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / ".cache" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
PHONE = {"width": 412, "height": 823}
LOAD_CODE = "A3S8-8M32"  # three at the table
TIMEOUT_MS = 600_000
MODES = ("worker",)  # the page has one mode since the main-thread fallback was dropped
LONG_MS = 50.0  # a long task, as the browser counts it

# Installed before the page's scripts: paints, shifts, long tasks, taps and their first visible change.
WATCH_JS = """
(() => {
  const w = window.__bench = {long: [], shifts: 0, lcp: 0, taps: [], answers: [], events: [], hand: 0};
  window.ochoLocoProbe = {applied: [], timing: [], warm: []};  // the page's probe switch: it notes each batch
  const observe = (type, fn) => {
    try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({type, buffered: true}); }
    catch (err) {}
  };
  observe("longtask", (e) => w.long.push([e.startTime, e.duration]));
  observe("layout-shift", (e) => { if (!e.hadRecentInput) w.shifts += e.value; });
  observe("largest-contentful-paint", (e) => { w.lcp = e.startTime; });
  try {
    new PerformanceObserver((l) => l.getEntries().forEach((e) => {
      if (e.name === "click" || e.name === "pointerdown" || e.name === "pointerup") w.events.push(e.duration);
    })).observe({type: "event", durationThreshold: 16, buffered: true});
  } catch (err) {}
  const check = () => {
    const body = document.body;
    if (!w.hand && body && body.dataset.ready === "1" && (body.dataset.state === "human"
        || document.querySelector("#hand .card.legal"))) w.hand = performance.now();
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
  document.addEventListener("click", (event) => {
    const hit = event.target.closest && event.target.closest("#hand button.card, #main-btn, #stock");
    if (!hit || !w.hand) return;
    const at = event.timeStamp;
    let first = true;
    const pressed = (r) => r.type === "attributes" && r.attributeName === "class" && r.target.classList
      && r.target.classList.contains("pressed");
    const seen = new MutationObserver((records) => {
      if (first) requestAnimationFrame(() => w.taps.push(performance.now() - at));
      first = false;
      if (records.every(pressed)) return;  // the worker mode's pressed look: the answer is still to come
      seen.disconnect();
      requestAnimationFrame(() => w.answers.push(performance.now() - at));
    });
    seen.observe(document.getElementById("mesa"), {subtree: true, childList: true, attributes: true,
      characterData: true});
  }, true);
})();
"""
FCP_JS = "() => (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: 0}).startTime"
BARE_READY_JS = "() => document.body && document.body.dataset.ready === '1'"


def phone_context(pw: Any, chromium: str, profile: str) -> tuple[Any, Any]:
    """Chromium on the fresh ``profile`` folder, phone-sized, reduced motion, watched (``WATCH_JS``)."""
    ctx = pw.chromium.launch_persistent_context(
        profile,
        executable_path=chromium,
        headless=True,
        args=CHROMIUM_ARGS,
        locale="es-ES",
        viewport=PHONE,
        reduced_motion="reduce",
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    ctx.add_init_script(WATCH_JS)
    return ctx, ctx.pages[0] if ctx.pages else ctx.new_page()


# Waits and reads through the DevTools protocol alone, for the load's figures. Playwright's own
# waits (``wait_for_function``, selectors) first put its injected script into the page, some
# 330 KB evaluated on the page's main thread: a traced first visit at 4× showed it as an 83 ms
# task after the first paint, the harness's work and not the page's.
QUIET_WAIT_JS = """new Promise((resolve, reject) => {
  const met = %s;
  const began = performance.now();
  const poll = () => {
    if (met()) return resolve(true);
    if (performance.now() - began > %d) return reject(new Error("not met: " + met));
    setTimeout(poll, 20);
  };
  poll();
})"""


def read_quietly(cdp: Any, expression: str, *, wait: bool = False) -> Any:
    """The value of a JavaScript ``expression`` in the page (a promise's, if ``wait``), read without
    Playwright's injected script."""
    asked = {"expression": expression, "awaitPromise": wait, "returnByValue": True}
    got = cdp.send("Runtime.evaluate", asked)
    if "exceptionDetails" in got:
        raise RuntimeError(got["exceptionDetails"].get("exception", {}).get("description") or str(got))
    return got["result"].get("value")


def wait_quietly(cdp: Any, condition_js: str, timeout_ms: int = TIMEOUT_MS) -> None:
    """Wait until ``condition_js`` (a function's source) holds in the page, polled every 20 ms."""
    read_quietly(cdp, QUIET_WAIT_JS % (condition_js, timeout_ms), wait=True)


def _page(pw: Any, chromium: str, profile: str, throttle: float) -> tuple[Any, Any, Any]:
    ctx, page = phone_context(pw, chromium, profile)
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    return ctx, page, cdp


def _blocking(long: list[list[float]], after: float, until: float) -> tuple[float, float]:
    """The longest task after ``after`` and the blocking time (parts over 50 ms) until ``until``."""
    tasks = [(start, ms) for start, ms in long if start >= after]
    longest = max((ms for _, ms in tasks), default=0.0)
    blocking = sum(max(ms - LONG_MS, 0) for start, ms in tasks if start <= until)
    return longest, blocking


def measure_load(pw: Any, chromium: str, url: str, mode: str, throttle: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ocho-wbench-") as profile:
        ctx, page, cdp = _page(pw, chromium, profile, throttle)
        try:
            if mode == "bare":
                page.goto(url)
                wait_quietly(cdp, BARE_READY_JS)
                hand = float(read_quietly(cdp, "performance.now()"))
            else:
                page.goto(f"{url}#partida={LOAD_CODE}&mesa=3")
                wait_quietly(cdp, "() => window.__bench.hand > 0")
                hand = float(read_quietly(cdp, "window.__bench.hand"))
            read_quietly(cdp, "new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))", wait=True)
            w = read_quietly(cdp, "window.__bench")
            fcp = float(read_quietly(cdp, f"({FCP_JS})()"))
        finally:
            ctx.close()
    longest, blocking = _blocking(w["long"], fcp, hand)
    return {
        "hand_ms": hand,
        "fcp_ms": fcp,
        "lcp_ms": float(w["lcp"]),
        "cls": float(w["shifts"]),
        "longest_task_ms": longest,
        "blocking_ms": blocking,
    }


def measure_game(
    pw: Any, chromium: str, url: str, mode: str, throttle: float, *, hands: int
) -> dict[str, float]:
    """One whole 3 en la mesa game against Difícil (at most ``hands`` hands if not 0)."""
    with tempfile.TemporaryDirectory(prefix="ocho-wbench-") as profile:
        ctx, page, _ = _page(pw, chromium, profile, throttle)
        try:
            played = play_game(page, url, hands=hands)
            w = page.evaluate("() => window.__bench")
            fcp = float(page.evaluate(FCP_JS))
            applied = sorted(page.evaluate("() => window.ochoLocoProbe.applied"), reverse=True)[:5]
            print(f"{mode}: longest tasks {sorted(w['long'], key=lambda t: -t[1])[:5]}", file=sys.stderr)
            print(f"{mode}: longest batches {applied}", file=sys.stderr)
        finally:
            ctx.close()
    return game_figures(w, played, after=fcp)


def game_figures(w: dict[str, Any], played: int, *, after: float = 0.0) -> dict[str, float]:
    """A played game's figures from ``WATCH_JS``'s record ``w``: its taps, answers and the long
    tasks that began at ``after`` (ms) or later."""
    longest, _ = _blocking(w["long"], after, float("inf"))
    over = sum(1 for start, ms in w["long"] if start >= after and ms > LONG_MS)
    taps = sorted(w["taps"]) or [0.0]
    answers = sorted(w["answers"]) or [0.0]
    return {
        "hands": played,
        "taps": len(w["taps"]),
        "tap_ms_max": taps[-1],
        "tap_ms_p95": taps[min(len(taps) - 1, int(0.95 * len(taps)))],
        "tap_ms_median": statistics.median(taps),
        "answer_ms_max": answers[-1],
        "answer_ms_median": statistics.median(answers),
        "event_timing_max_ms": max(w["events"], default=0.0),
        "longest_task_ms": longest,
        "long_tasks_over_50ms": over,
        "long_tasks_per_100_taps": round(100 * over / max(len(w["taps"]), 1), 1),
    }


def play_game(page: Any, url: str, *, hands: int, before_deal: Any = None) -> int:
    """Open ``url``, deal a 3 en la mesa game against Difícil and play it; the hands played.

    The person plays the first raised card, else «Robar» / «Pasar», names hearts
    for an 8, and waits for each move's save. ``hands``: stop at the results of
    that hand (0: play until the game is over). ``before_deal()``, if given, is
    called just before «Repartir» is clicked.
    """
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=TIMEOUT_MS)
    page.check("#mode-3", force=True)
    page.evaluate("() => { document.getElementById('more-options').open = true; }")  # «Más opciones»
    page.check('input[name="level"][value="dificil"]', force=True)
    if before_deal is not None:
        before_deal()
    page.click("#deal-btn")
    played = 1
    settled = "() => ['human','chooser','results','gameover'].includes(document.body.dataset.state)"
    for _ in range(5000):
        page.wait_for_function(settled, timeout=TIMEOUT_MS)
        state = page.evaluate("() => document.body.dataset.state")
        if state == "gameover" or (state == "results" and hands and played >= hands):
            break
        before = page.evaluate("() => localStorage.getItem('ocho-loco:partida')")
        if state == "results":
            page.click("#next-hand-btn")
            played += 1
        elif state == "chooser":
            page.click('#suit-dialog button[data-suit="H"]')
        else:
            legal = page.query_selector("#hand button.card.legal")
            (legal or page.query_selector("#main-btn")).click()
        page.wait_for_function(
            "(before) => localStorage.getItem('ocho-loco:partida') !== before", arg=before, timeout=TIMEOUT_MS
        )
    return played


def lighthouse(url: str, chromium: str) -> dict[str, float] | None:
    """One Lighthouse run (mobile preset, simulated throttling); None when it is not installed or fails."""
    if not LIGHTHOUSE.exists():
        return None
    try:
        return _lighthouse(url, chromium)
    except (subprocess.SubprocessError, OSError, KeyError, ValueError) as error:
        print(f"lighthouse failed on {url}: {error}", file=sys.stderr)
        return None


def _lighthouse(url: str, chromium: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ocho-lh-") as tmp:
        out = Path(tmp) / "report.json"
        env = dict(os.environ, CHROME_PATH=chromium)
        subprocess.run(
            [
                str(LIGHTHOUSE),
                url,
                "--quiet",
                "--only-categories=performance",
                "--output=json",
                f"--output-path={out}",
                "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
            ],
            check=True,
            env=env,
            timeout=600,
        )
        report = json.loads(out.read_text(encoding="utf-8"))
    audits = report["audits"]
    return {
        "performance": float(report["categories"]["performance"]["score"]),
        "tbt_ms": float(audits["total-blocking-time"]["numericValue"]),
        "cls": float(audits["cumulative-layout-shift"]["numericValue"]),
        "lcp_ms": float(audits["largest-contentful-paint"]["numericValue"]),
    }


def _medians(samples: list[dict[str, float]]) -> dict[str, float]:
    return (
        {key: round(statistics.median(s[key] for s in samples), 3) for key in samples[0]} if samples else {}
    )


def run(
    site: Path, rounds: int, throttle: float, *, hands: int, games_per_mode: int, with_lighthouse: bool
) -> dict[str, Any]:
    chromium = find_chromium()
    result: dict[str, Any] = {"load_before": os.getloadavg(), "throttle": throttle, "rounds": rounds}
    loads: dict[str, list[dict[str, float]]] = {mode: [] for mode in ("bare", *MODES)}
    games: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    lights: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory(prefix="ocho-wbench-bare-") as bare_dir:
        bare = make_baseline(site, Path(bare_dir))
        with serve(site, Traffic(), compress=True) as url, serve(bare, Traffic(), compress=True) as bare_url:
            with sync_playwright() as pw:
                for i in range(rounds):
                    for mode in ("bare", *MODES):
                        sample = measure_load(
                            pw, chromium, bare_url if mode == "bare" else url, mode, throttle
                        )
                        loads[mode].append(sample)
                        print(f"round {i + 1} load {mode}: {sample}", file=sys.stderr)
                    for mode in MODES if i < games_per_mode else ():
                        game = measure_game(pw, chromium, url, mode, throttle, hands=hands)
                        games[mode].append(game)
                        print(f"round {i + 1} game {mode}: {game}", file=sys.stderr)
            if with_lighthouse:
                for i in range(rounds):
                    for mode in MODES:  # the bare page paints nothing: Lighthouse refuses it (NO_FCP)
                        target = url
                        if not LIGHTHOUSE.exists():
                            result["lighthouse"] = "not installed in .cache/lighthouse"
                            break
                        light = lighthouse(target, chromium)
                        if light is not None:
                            lights[mode].append(light)
                        print(f"round {i + 1} lighthouse {mode}: {light}", file=sys.stderr)
    result["load"] = {mode: _medians(samples) for mode, samples in loads.items()}
    for mode in MODES:
        ratios = [s["hand_ms"] / b["hand_ms"] for s, b in zip(loads[mode], loads["bare"], strict=True)]
        result["load"][mode]["hand_ratio"] = round(statistics.median(ratios), 3)
    result["game"] = {mode: _medians(samples) for mode, samples in games.items()}
    if any(lights.values()):
        result["lighthouse"] = {mode: _medians(samples) for mode, samples in lights.items() if samples}
    result["load_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Issue 26's targets on the page's two modes, side by side.")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=4.0, help="CDP CPU throttling rate")
    parser.add_argument("--hands", type=int, default=0, help="hands per game (0: the whole game)")
    parser.add_argument("--games", type=int, default=1, help="whole games per mode (in the first rounds)")
    parser.add_argument(
        "--lighthouse", action="store_true", help="also run Lighthouse from .cache/lighthouse"
    )
    parser.add_argument("--site", help="an already built site folder (default: build one now)")
    parser.add_argument("--out", help="also write the JSON to this file")
    args = parser.parse_args(argv)
    tmp = None
    if args.site:
        site = Path(args.site).resolve()
    else:
        tmp = tempfile.mkdtemp(prefix="ocho-wbench-site-")
        site = site_build.build(Path(tmp) / "_site", quiet=True).out
    try:
        result = run(
            site,
            args.rounds,
            args.throttle,
            hands=args.hands,
            games_per_mode=args.games,
            with_lighthouse=args.lighthouse,
        )
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return report(result, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
