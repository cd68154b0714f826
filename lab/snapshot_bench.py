"""A return visit to a playable table, Python started from scratch or restored from its snapshot.

Usage::

    python -m lab.snapshot_bench [--site DIR] [--rounds 5] [--throttle 4] [--against DIR]

Builds the site (or serves ``--site``) under ``/ocho-loco/`` and opens it in one
fresh headless Chromium profile. The first visit (the bare address, no game:
the page never makes a snapshot in the player's turn) makes the snapshot
(``assets/snapshot-keeper.js``), and the main thread's tasks over 50 ms while
it was being made are counted (a ``longtask`` observer). A game is then dealt
from a share link and one move played. Each round then opens the bare address
twice more, the saved game resuming, in alternation: once with the snapshot
kept (restored) and once with it set aside in another cache (normal). Each
visit times, from navigation start, the playable hand (``body[data-ready]``
with the player to move: ``lab.page_bench``'s figure) and says how Python
started (the probe's ``snapshot``). Each round also reloads ``lab.page_bench``'s
bare page (the same PyScript and Pyodide setting a flag, in a profile of its
own, HTTP cache warm): the issue's yardstick. ``--throttle`` slows the page's CPU with
``Emulation.setCPUThrottlingRate`` (4: the phone case). Prints JSON, with the
medians, their ratio and the machine's load before and after. ``--against``
names a second built site (another commit, say) given a profile of its own:
its return visits alternate with ``--site``'s in every round, the order
turning each round, against the same bare page.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from lab.page_bench import LOAD_CODE, READY_SCRIPT, make_baseline
from tools import build as site_build
from tools.page_driver import CHROMIUM_ARGS, PROBE_JS, TIMEOUT_MS, context_options, find_chromium, serve
from tools.serve import Traffic

ROOT = Path(__file__).resolve().parents[1]
CACHE = "ocho-loco-snapshot"
ASIDE = "bench-aside"
LONG_TASKS_JS = """
window.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({type: "longtask", buffered: true});
} catch (err) {}
"""
# Move the kept snapshot from one cache to another (the page's own address names it).
MOVE_JS = """async ([from, to]) => {
  const url = new URL('snapshot', location.href).href;
  const source = await caches.open(from);
  const found = await source.match(url);
  if (!found) return false;
  await (await caches.open(to)).put(url, found);
  await source.delete(url);
  return true;
}"""


def load_avg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def visit(ctx: Any, url: str, throttle: float, *, keep: bool = False) -> Any:
    page = ctx.new_page()
    if keep:
        page.add_init_script("window.ochoLocoProbe.keepSnapshot = true;")
    if throttle > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url, wait_until="commit")
    ready = "() => document.body.dataset.ready === '1'" if keep else "() => !!window.__benchReady"
    page.wait_for_function(ready, timeout=TIMEOUT_MS)  # a first visit has no hand to play
    return page


def first_visit(ctx: Any, url: str, throttle: float) -> dict[str, Any]:
    """Make the snapshot on a first visit; then deal the bench's game and play a move."""
    page = visit(ctx, url, throttle, keep=True)
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => !!window.ochoLocoProbe.snapshotMade", timeout=TIMEOUT_MS)
    made = page.evaluate("() => window.ochoLocoProbe.snapshotMade")
    begun, ended = page.evaluate(
        "() => [window.ochoLocoProbe.snapshotBegun, window.ochoLocoProbe.snapshotEnded]"
    )
    tasks = [d for start, d in page.evaluate("() => window.__longTasks") if begun <= start <= ended]
    page.goto(f"{url}#partida={LOAD_CODE}&mesa=2")
    page.wait_for_function("() => document.body.dataset.state === 'human'", timeout=TIMEOUT_MS)
    before = page.evaluate("() => localStorage.getItem('ocho-loco:partida')")
    page.click("#hand button.card.legal")
    page.wait_for_function("(b) => localStorage.getItem('ocho-loco:partida') !== b", arg=before)
    page.close()
    return {
        "made": made,
        "making_window_ms": round(ended - begun),
        "long_tasks_while_making": len(tasks),
        "longest_task_while_making_ms": round(max(tasks, default=0)),
    }


def return_visit(ctx: Any, url: str, throttle: float, restored: bool) -> tuple[float, float, float]:
    """ms to a playable hand, of Pyodide's own start in the worker, and of reading the snapshot."""
    page = visit(ctx, url, throttle)
    ready = float(page.evaluate("() => window.__benchReady"))
    page.wait_for_function("() => !!window.ochoLocoProbe.snapshot")
    started = page.evaluate("() => window.ochoLocoProbe.snapshot")
    how = str(started.get("start"))
    if how != ("restored" if restored else "normal"):
        raise SystemExit(f"a {'restored' if restored else 'normal'} visit started {started}")
    # Set the snapshot aside before a normal visit, bring it back before a restored one.
    page.evaluate(MOVE_JS, [CACHE, ASIDE] if restored else [ASIDE, CACHE])
    page.close()
    return ready, float(started.get("ms", 0)), float(started.get("read", 0))


def bare_visit(ctx: Any, url: str, throttle: float) -> float:
    """The bare page reloaded: ms to its flag."""
    page = ctx.new_page()
    if throttle > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => !!window.__benchReady", timeout=TIMEOUT_MS)
    ready = float(page.evaluate("() => window.__benchReady"))
    page.close()
    return ready


def summary(
    normal: list[tuple[float, float, float]], restored: list[tuple[float, float, float]], bare: float
) -> dict[str, Any]:
    """One site's return visits: every sample, the medians, their ratios to each other and the bare page."""
    med_normal = statistics.median(visit[0] for visit in normal)
    med_restored = statistics.median(visit[0] for visit in restored)
    return {
        "return_normal_ms": [round(visit[0]) for visit in normal],
        "return_restored_ms": [round(visit[0]) for visit in restored],
        "pyodide_start_normal_ms": [round(visit[1]) for visit in normal],
        "pyodide_start_restored_ms": [round(visit[1]) for visit in restored],
        "snapshot_read_and_checked_ms": [round(visit[2]) for visit in restored],
        "median_normal_ms": round(med_normal),
        "median_restored_ms": round(med_restored),
        "restored_over_normal": round(med_restored / med_normal, 2),
        "restored_over_bare": round(med_restored / bare, 2),
        "normal_over_bare": round(med_normal / bare, 2),
    }


def run(site: Path, rounds: int, throttle: float, against: Path | None = None) -> dict[str, Any]:
    """``site``'s return visits (and ``against``'s, alternated with them) and the bare page's."""
    load_before = load_avg()
    sites = [site, *([against] if against else [])]
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        urls = [stack.enter_context(serve(each, Traffic())) for each in sites]
        bare_url = stack.enter_context(serve(make_baseline(site, Path(tmp) / "bare"), Traffic()))
        pw = stack.enter_context(sync_playwright())

        def browser(name: str) -> Any:
            ctx = pw.chromium.launch_persistent_context(
                str(Path(tmp) / name),
                executable_path=find_chromium(),
                headless=True,
                args=CHROMIUM_ARGS,
                **context_options(),
            )
            stack.callback(ctx.close)
            ctx.set_default_timeout(TIMEOUT_MS)
            return ctx

        bare_ctx = browser("bare-profile")
        bare_ctx.add_init_script(READY_SCRIPT % json.dumps("bare"))
        bare_visit(bare_ctx, bare_url, throttle)  # the first visit: the HTTP cache filled
        bare: list[float] = []
        ctxs = []
        firsts = []
        for i, url in enumerate(urls):
            ctx = browser(f"profile-{i}")
            ctx.add_init_script(PROBE_JS)
            ctx.add_init_script(LONG_TASKS_JS)
            ctx.add_init_script(READY_SCRIPT % json.dumps("app"))
            firsts.append(first_visit(ctx, url, throttle))
            ctxs.append(ctx)
        normal: list[list[tuple[float, float, float]]] = [[] for _ in sites]
        restored: list[list[tuple[float, float, float]]] = [[] for _ in sites]
        for round_ in range(rounds):
            order = list(range(len(sites)))
            if round_ % 2:
                order.reverse()  # neither site always first
            for i in order:
                restored[i].append(return_visit(ctxs[i], urls[i], throttle, True))
                normal[i].append(return_visit(ctxs[i], urls[i], throttle, False))
            bare.append(bare_visit(bare_ctx, bare_url, throttle))
    med_bare = statistics.median(bare)
    out: dict[str, Any] = {
        "throttle": throttle,
        "rounds": rounds,
        "load_before": load_before,
        "load_after": load_avg(),
        "first_visit": firsts[0],
        **summary(normal[0], restored[0], med_bare),
        "bare_page_ms": [round(x) for x in bare],
        "median_bare_ms": round(med_bare),
    }
    if against:
        out["against"] = {
            "site": str(against),
            "first_visit": firsts[1],
            **summary(normal[1], restored[1], med_bare),
        }
        out["restored_over_against_restored"] = round(
            out["median_restored_ms"] / out["against"]["median_restored_ms"], 2
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site folder (default: build one)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--throttle", type=float, default=1.0, help="CPU slowdown (4: a phone)")
    parser.add_argument(
        "--against", type=Path, help="another built site, its visits alternated with --site's"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as build_dir:
        site = args.site or site_build.build(Path(build_dir) / "_site", root=ROOT, quiet=True).out
        print(json.dumps(run(site, args.rounds, args.throttle, args.against), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
