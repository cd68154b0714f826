"""Where the page's long tasks come from in a game, for one or more builds side by side.

Usage::

    python -m lab.long_tasks --sites OLD_SITE NEW_SITE [--rounds 2] [--throttle 4] [--hands 0]
                             [--seed 26] [--motion] [--no-trace] [--keep-traces DIR] [--out f.json]

Each ``--sites`` folder is a built site (``python tools/build.py --out DIR`` at the
commit to measure). In every round each site in turn is served gzip-compressed
and a whole 3 en la mesa game against Difícil is played on it (as
``lab.worker_bench`` plays it: the first raised card, else «Robar» / «Pasar»), in
the page's own mode, at 412×823, the CPU throttled ``--throttle`` times, with
reduced motion unless ``--motion``. The page's randomness comes from ``--seed``
plus the round: in one round every site deals and plays the same game, so the
sites are compared on the same moves. Chromium traces the page's main thread
from the deal to the end of the game.

For each game: the number of main-thread tasks over 50 ms (also per 100 taps)
and the longest (the page's ``longtask`` observer), the tap and answer times of
``lab.worker_bench``,
and, from the trace, what the long tasks were made of: the style and layout
work each forced, named by the page's function that asked for it (its top
JavaScript frame), ``frame`` for the browser's own rendering update, ``paint``
for its painting, and ``script`` for the rest (JavaScript, parsing HTML).
Tracing slows the page down (each style and layout notes its stack): the
figures of record are those of a run with ``--no-trace``. Prints one JSON document:
medians per site, the causes summed over the rounds, the load average before
and after. Compare sites within one run: absolute times depend on the machine.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from lab.report import report
from lab.worker_bench import LONG_MS, PHONE, TIMEOUT_MS, WATCH_JS, game_figures, play_game
from tools.page_driver import CHROMIUM_ARGS, SEEDED_CRYPTO_JS, find_chromium, serve
from tools.serve import Traffic

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.stack",
    "v8.execute",
]
RENDERING = ("UpdateLayoutTree", "Layout")
PAINTING = ("Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer")


def causes(trace: dict[str, Any] | list[Any], over_ms: float = LONG_MS) -> dict[str, float]:
    """Milliseconds of the main thread's tasks over ``over_ms``, by what they were spent on."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    mains = [key for key, name in names.items() if name == "CrRendererMain"]
    if not mains:
        return {}
    busiest = collections.Counter((e.get("pid"), e.get("tid")) for e in events)
    main = max(mains, key=lambda key: busiest[key])
    thread = sorted(
        (e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"),
        key=lambda e: e["ts"],
    )
    starts = [e["ts"] for e in thread]
    spent: collections.Counter[str] = collections.Counter()
    for task in (e for e in thread if e["name"] == "RunTask" and e.get("dur", 0) > over_ms * 1000):
        end = task["ts"] + task["dur"]
        counted = 0
        covered = task["ts"]  # events inside one already counted are part of it
        for e in thread[bisect.bisect_left(starts, task["ts"]) :]:
            if e["ts"] > end:
                break
            if e["ts"] < covered or e["name"] not in RENDERING + PAINTING:
                continue
            stack = (e.get("args", {}).get("beginData") or {}).get("stackTrace") or []
            if e["name"] in PAINTING:
                cause = "paint"
            else:
                cause = str(stack[0].get("functionName") or "(anonymous)") if stack else "frame"
            spent[cause] += e["dur"]
            counted += e["dur"]
            covered = e["ts"] + e["dur"]
        spent["script"] += task["dur"] - counted
    return {cause: round(us / 1000, 1) for cause, us in spent.most_common()}


def traced_game(
    pw: Any,
    chromium: str,
    url: str,
    *,
    seed: int,
    throttle: float,
    hands: int,
    motion: bool,
    trace: Path | None,
) -> dict[str, Any]:
    browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
    try:
        ctx = browser.new_context(
            locale="es-ES", viewport=PHONE, reduced_motion="no-preference" if motion else "reduce"
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        ctx.add_init_script(SEEDED_CRYPTO_JS % seed)
        ctx.add_init_script(WATCH_JS)
        page = ctx.new_page()
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})

        def begin() -> None:  # the game only: what came before the deal is not counted
            page.evaluate("() => { window.__bench.long = []; }")
            if trace is not None:
                browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)

        played = play_game(page, url, hands=hands, before_deal=begin)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))")
        if trace is not None:
            browser.stop_tracing()
        w = page.evaluate("() => window.__bench")
    finally:
        browser.close()
    figures: dict[str, Any] = dict(game_figures(w, played))
    figures["causes"] = causes(json.loads(trace.read_text(encoding="utf-8"))) if trace is not None else {}
    return figures


def run(
    sites: list[Path],
    rounds: int,
    *,
    seed: int,
    throttle: float,
    hands: int,
    motion: bool,
    traced: bool,
    keep: Path | None,
) -> dict[str, Any]:
    chromium = find_chromium()
    result: dict[str, Any] = {
        "load_before": os.getloadavg(),
        "throttle": throttle,
        "motion": motion,
        "traced": traced,
        "seed": seed,
    }
    games: dict[str, list[dict[str, Any]]] = {str(site): [] for site in sites}
    with tempfile.TemporaryDirectory(prefix="ocho-long-") as tmp, sync_playwright() as pw:
        for i in range(rounds):
            for n, site in enumerate(sites):
                trace = (keep or Path(tmp)) / f"round{i + 1}-site{n + 1}.json" if traced else None
                with serve(site, Traffic(), compress=True) as url:
                    game = traced_game(
                        pw,
                        chromium,
                        url,
                        seed=seed + i,
                        throttle=throttle,
                        hands=hands,
                        motion=motion,
                        trace=trace,
                    )
                games[str(site)].append(game)
                print(f"round {i + 1} {site}: {game}", file=sys.stderr)
    result["sites"] = {}
    for name, samples in games.items():
        figures: dict[str, Any] = {
            key: round(statistics.median(s[key] for s in samples), 1) for key in samples[0] if key != "causes"
        }
        summed: collections.Counter[str] = collections.Counter()
        for s in samples:
            summed.update(s["causes"])
        figures["causes_ms"] = {cause: round(ms, 1) for cause, ms in summed.most_common()}
        result["sites"][name] = figures
    result["load_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The page's long tasks in a game, builds side by side.")
    parser.add_argument("--sites", nargs="+", required=True, help="built site folders")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--throttle", type=float, default=4.0, help="CDP CPU throttling rate")
    parser.add_argument("--hands", type=int, default=0, help="hands per game (0: the whole game)")
    parser.add_argument("--seed", type=int, default=26, help="the first round's seed")
    parser.add_argument("--motion", action="store_true", help="cards travel (default: reduced motion)")
    parser.add_argument("--no-trace", action="store_true", help="untraced: the figures of record")
    parser.add_argument("--keep-traces", help="write the traces into this folder")
    parser.add_argument("--out", help="also write the JSON to this file")
    args = parser.parse_args(argv)
    keep = Path(args.keep_traces) if args.keep_traces else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    sites = [Path(site).resolve() for site in args.sites]
    result = run(
        sites,
        args.rounds,
        seed=args.seed,
        throttle=args.throttle,
        hands=args.hands,
        motion=args.motion,
        traced=not args.no_trace,
        keep=keep,
    )
    return report(result, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
