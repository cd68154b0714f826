"""The page's long tasks while it loads, for one or more builds side by side, each named by its cause.

Usage::

    python -m lab.load_tasks --sites OLD_SITE NEW_SITE [--rounds 3] [--throttle 4]
                             [--visits first return link] [--after 3000] [--out f.json]

Each ``--sites`` folder is a built site (``python tools/build.py --out DIR`` at the
commit to measure), served gzip-compressed. In every round each site in turn
is loaded in a fresh browser profile at 412×823, the CPU throttled
``--throttle`` times, reduced motion, once per ``--visits`` kind:

* ``first``: a first visit to the bare address (no service worker yet, nothing
  stored), until the page is ready and ``--after`` ms more (the warm-up);
* ``link``: a first visit through a game link (3 en la mesa), until its hand
  is playable and ``--after`` ms more;
* ``return``: the same game link played once (not throttled), then the bare
  address again, throttled (the service worker's precache, the stored table
  drawn at first paint), until the hand is playable and ``--after`` ms more.

For each load: every main-thread task over 50 ms after the first contentful
paint (the page's ``longtask`` observer), and what the browser's Long Animation
Frames API says of the frame that held it (the scripts that ran in it, by
their invoker, with the style and layout they forced, and the frame's own
style, layout and paint). Untraced: these are the figures of record. Prints
one JSON document: per site and kind of visit, the count of such tasks per
load, the longest, and each task with its cause, and the load average before
and after. Compare sites within one run: absolute times depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from lab.report import report
from lab.worker_bench import LOAD_CODE, LONG_MS, phone_context, read_quietly, wait_quietly
from tools.page_driver import find_chromium, serve
from tools.serve import Traffic

VISITS = ("first", "link", "return")
READY_JS = "() => document.body.dataset.ready === '1'"
HAND_JS = "() => window.__bench.hand > 0"
# Installed with lab.worker_bench's watch: the long animation frames, and what each idle step took.
FRAMES_JS = """
(() => {
  const frames = window.__frames = [];
  const idle = window.__idle = [];
  try {
    new PerformanceObserver((list) => list.getEntries().forEach((e) => frames.push({
      start: e.startTime, ms: e.duration,
      render_ms: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
      scripts: e.scripts.map((s) => ({
        invoker: s.invoker.split("/").pop().slice(0, 60), type: s.invokerType,
        source: (s.sourceURL || "").split("/").pop(), ms: s.duration,
        forced_ms: s.forcedStyleAndLayoutDuration,
      })),
    }))).observe({type: "long-animation-frame", buffered: true});
  } catch (err) {}
  const ask = window.requestIdleCallback;
  if (ask) window.requestIdleCallback = (fn, options) => ask((deadline) => {
    const began = performance.now();
    try { return fn(deadline); } finally { idle.push(performance.now() - began); }
  }, options);
})();
"""
READ_JS = """() => [
  (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: 0}).startTime,
  window.__bench.long, window.__frames, window.__idle,
]"""


def cause(start: float, frames: list[dict[str, Any]]) -> str:
    """What the long animation frame holding a task starting at ``start`` spent its time on."""
    for frame in frames:
        if frame["start"] <= start + 1 and start < frame["start"] + frame["ms"]:
            parts = [
                f"{s['type']} {s['invoker'] or s['source']} {s['ms']:.0f} ms"
                + (f" (forced style and layout {s['forced_ms']:.0f})" if s["forced_ms"] >= 1 else "")
                for s in frame["scripts"]
                if s["ms"] >= 5
            ]
            if frame["render_ms"] >= 5:
                parts.append(f"frame's style, layout and paint {frame['render_ms']:.0f} ms")
            return "; ".join(parts) or "no script, no rendering (the browser's own work)"
    return "no long animation frame"


def load(pw: Any, chromium: str, url: str, visit: str, *, throttle: float, after_ms: int) -> dict[str, Any]:
    """One load of ``visit`` kind; its long tasks after the first contentful paint."""
    game = f"{url}#partida={LOAD_CODE}&mesa=3"
    with tempfile.TemporaryDirectory(prefix="ocho-load-") as profile:
        ctx, page = phone_context(pw, chromium, profile)
        try:
            ctx.add_init_script(FRAMES_JS)
            if visit == "return":
                page.goto(game)
                page.wait_for_function(HAND_JS)
                page.wait_for_timeout(after_ms)  # its warm-up and picture done, as a player leaves it
                page.goto("about:blank")
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.goto(game if visit == "link" else url)
            # Without Playwright's injected script, evaluated on the page's main thread (worker_bench).
            wait_quietly(cdp, READY_JS if visit == "first" else HAND_JS)
            page.wait_for_timeout(after_ms)
            fcp, long, frames, idle = read_quietly(cdp, f"({READ_JS})()")
        finally:
            ctx.close()
    tasks = [(start, ms) for start, ms in long if start >= fcp]
    return {
        "fcp_ms": round(fcp),
        "tasks_over_50": len([1 for _, ms in tasks if ms > LONG_MS]),
        "longest_ms": round(max((ms for _, ms in tasks), default=0.0)),
        "idle_steps_ms": [round(ms) for ms in idle],
        "tasks": [
            {"at_ms": round(start), "ms": round(ms), "cause": cause(start, frames)}
            for start, ms in tasks
            if ms > LONG_MS
        ],
    }


def run(sites: list[Path], rounds: int, visits: list[str], throttle: float, after_ms: int) -> dict[str, Any]:
    chromium = find_chromium()
    result: dict[str, Any] = {"load_before": os.getloadavg(), "throttle": throttle, "visits": visits}
    loads: dict[str, dict[str, list[dict[str, Any]]]] = {str(s): {v: [] for v in visits} for s in sites}
    with sync_playwright() as pw:
        for i in range(rounds):
            for visit in visits:
                for site in sites:
                    with serve(site, Traffic(), compress=True) as url:
                        one = load(pw, chromium, url, visit, throttle=throttle, after_ms=after_ms)
                    loads[str(site)][visit].append(one)
                    tasks = [(t["ms"], t["cause"]) for t in one["tasks"]]
                    print(f"round {i + 1} {visit} {site.name}: {tasks}", file=sys.stderr)
    result["sites"] = {
        name: {
            visit: {
                "tasks_over_50_per_load": [s["tasks_over_50"] for s in samples],
                "longest_ms": [s["longest_ms"] for s in samples],
                "longest_ms_median": statistics.median(s["longest_ms"] for s in samples),
                "fcp_ms_median": statistics.median(s["fcp_ms"] for s in samples),
                "idle_step_ms_max": max((max(s["idle_steps_ms"], default=0) for s in samples), default=0),
                "loads": samples,
            }
            for visit, samples in by_visit.items()
        }
        for name, by_visit in loads.items()
    }
    result["load_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The page's long tasks while it loads, builds side by side.")
    parser.add_argument("--sites", nargs="+", required=True, help="built site folders")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=4.0, help="CDP CPU throttling rate")
    parser.add_argument("--visits", nargs="+", choices=VISITS, default=list(VISITS))
    parser.add_argument("--after", type=int, default=3000, help="ms watched after the page is ready")
    parser.add_argument("--out", help="also write the JSON to this file")
    args = parser.parse_args(argv)
    sites = [Path(site).resolve() for site in args.sites]
    return report(run(sites, args.rounds, args.visits, args.throttle, args.after), args.out)


if __name__ == "__main__":
    raise SystemExit(main())
