"""Load-time and responsiveness benchmark of the built page (a benchmark, not a test).

Usage::

    python -m lab.page_bench [--runs 5] [--site DIR] [--out bench.json]

One run of headless Chromium on localhost measures, and prints as JSON:

* ``baseline_cold_ms`` / ``app_cold_ms``: from navigation to "ready" in a
  fresh browser (new process, new profile). The baseline is a bare page that
  only starts the same PyScript + Pyodide and sets a flag: the floor the game
  stands on. The game is opened with a share link (``#partida=…&mesa=2``),
  which deals at once; it is ready when its hand is dealt and playable
  (``data-state="human"`` or a legal card in ``#hand``). ``cold_ratio`` is
  app / baseline.
* ``baseline_warm_ms`` / ``app_warm_ms`` / ``warm_ratio``: the same on the
  second load (HTTP cache, and the game's service worker, in place; the
  game resumes from its save).
* ``first_paint_ms``: first contentful paint of the game (cold): the table's
  static HTML, long before Python is ready.
* ``action_ms_p50`` / ``action_ms_p95``: from a click on one of the person's
  cards to the DOM showing the move (a MutationObserver on ``#hand``; the
  pressed look the page gives the card at once is not counted), over
  scripted hands with reduced motion (the CPU answers at once).
* ``cpu_turn_ms_p95``: time the CPU players spend deciding, measured inside
  the page (``window.ochoLocoProbe.timing``, the probe switch's record of ``Screen.timing``).
* ``throttled_<profile>_...``: the cold load on an emulated slow line (10
  Mbit/s with 40 ms, 1.6 Mbit/s with 150 ms), every server compressing as
  GitHub Pages does. ``_ratio``: the game's playable hand over the bare page
  on the site's own runtime files (the floor: the same bytes minus the
  game); ``_stock_ratio``: over the bare page on the runtime as its packages
  ship it (whole standard library and lock file), which is what a page that
  only starts PyScript and Pyodide would send.
* ``first_visit_bytes``: bytes the server sent for the first visit, precaching
  included; ``app_bytes``: the part outside ``vendor/`` (not PyScript or Pyodide).

Every figure is the median over ``--runs`` runs (percentiles are taken per
run, then the median of those). Needs Chromium (``$CHROMIUM_PATH`` or a
system one) and the ``playwright`` package.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from engine.codes import GameCode
from lab.page_play import log, measure_actions, median, percentile, run_levels, run_save_load
from lab.report import report
from tools import build as site_build
from tools import serve as site_serve
from tools.page_driver import (
    CHROMIUM_ARGS,
    PREFIX,
    TIMEOUT_MS,
    context_options,
    find_chromium,
    serve,
)
from tools.serve import Traffic

LOAD_CODE = "A2C6-P4JZ"  # the share link opened for the load figures (1 against 1)
THROTTLED_TIMEOUT_MS = 600_000

TARGETS = {
    "cold_ratio": 1.10,
    "warm_ratio": 1.10,
    "first_paint_ms": 300,
    "action_ms_p95": 50,
    "cpu_turn_ms_p95": 100,
    "app_bytes": 150_000,
    "setup_usable_ms": 300,
    "returning_table_visible_ms": 300,
    "first_visit_bytes": 14_000_000,
    "first_visit_bytes_gzip": 5_000_000,
    # A dealt hand on a slow line, against the bare page on the runtime as shipped by its packages.
    "throttled_10mbit_40ms_stock_ratio": 1.0,
    "throttled_1.6mbit_150ms_stock_ratio": 1.0,
}

BASELINE_HTML = """<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<title>baseline</title>
<link rel="icon" href="data:,">
<script type="module" src="vendor/pyscript/core.js"></script>
</head>
<body>
<script type="py" config="pyscript.json">
from pyscript import document
document.body.dataset.ready = "1"
</script>
</body>
</html>
"""
BASELINE_CONFIG = '{"interpreter": "./vendor/pyodide/pyodide.mjs"}\n'
# The site's runtime files that differ from the packages' (the stock baseline takes these from npm).
STOCK_FILES = ("python_stdlib.zip", "pyodide-lock.json")

# Records performance.now() (ms since navigation start) when the page is ready,
# when «Repartir» can take a click, when the person's cards are drawn, and the
# longest main-thread task (PerformanceObserver "longtask") until ready.
READY_SCRIPT = """
(() => {
  const want = %s;
  window.__benchLongest = 0;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!window.__benchReady) window.__benchLongest = Math.max(window.__benchLongest, e.duration);
      }
    }).observe({type: "longtask", buffered: true});
  } catch (err) {}
  const check = () => {
    const body = document.body;
    if (!body) return;
    const now = performance.now();
    const deal = document.getElementById("deal-btn");
    const early = window.ochoLocoEarly || body.dataset.ready === "1";
    if (!window.__benchUsable && deal && !deal.disabled && early) {
      window.__benchUsable = now;
    }
    if (!window.__benchCards && document.querySelector("#hand [data-card]")) window.__benchCards = now;
    if (window.__benchReady) return;
    // The app: Python has taken over (the stored picture of the table does not count).
    const ok = body.dataset.ready === "1" && (want !== "app"
      || body.dataset.state === "human" || !!document.querySelector("#hand .card.legal"));
    if (ok) window.__benchReady = now;
  };
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, attributes: true,
    attributeFilter: ["data-ready", "data-state", "class", "disabled"],
  });
})();
"""

CONTROLLED_JS = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
FCP_JS = "() => (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: null}).startTime"


# ---------------------------------------------------------------------- server


def write_bare_page(dest: Path) -> None:
    """The bare page and its config in ``dest`` (the runtime files are linked in by the caller)."""
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "index.html").write_text(BASELINE_HTML, encoding="utf-8")
    (dest / "pyscript.json").write_text(BASELINE_CONFIG, encoding="utf-8")


def make_baseline(site: Path, dest: Path) -> Path:
    """A bare page next to a link to the site's vendor/ folder."""
    write_bare_page(dest)
    vendor = dest / "vendor"
    if not vendor.exists():
        vendor.symlink_to(site / "vendor", target_is_directory=True)
    return dest


def make_stock_baseline(site: Path, dest: Path, root: Path = site_build.ROOT) -> Path:
    """The bare page on the runtime as its packages ship it (whole standard library and lock file).

    What a page that only starts PyScript and Pyodide would send; the site
    sends a cut library and an empty lock (tools/stdlib.py), so on a slow
    line the game can be ready before this page is.
    """
    write_bare_page(dest)
    pyodide = dest / "vendor" / "pyodide"
    pyodide.mkdir(parents=True, exist_ok=True)
    if not (dest / "vendor" / "pyscript").exists():
        (dest / "vendor" / "pyscript").symlink_to(site / "vendor" / "pyscript", target_is_directory=True)
    for shipped in sorted((site / "vendor" / "pyodide").iterdir()):
        link = pyodide / shipped.name
        stock = root / site_build.PYODIDE_DIST / shipped.name
        if not link.exists():
            link.symlink_to(stock if shipped.name in STOCK_FILES else shipped)
    return dest


# --------------------------------------------------------------------- browser


@dataclass
class LoadSample:
    cold_ms: float
    warm_ms: float
    fcp_ms: float | None = None
    first_visit_bytes: int = 0
    first_visit_bytes_gzip: int = 0
    app_bytes: int = 0
    setup_usable_ms: float = 0.0
    returning_table_visible_ms: float = 0.0
    longest_task_cold_ms: float = 0.0
    longest_task_warm_ms: float = 0.0


GZIP_SUFFIXES = site_serve.GZIP_SUFFIXES  # what GitHub Pages compresses; images and zips go as they are


@functools.cache
def gzip_size(path: Path) -> int:
    data = path.read_bytes()
    return len(gzip.compress(data, 6, mtime=0)) if path.suffix in GZIP_SUFFIXES else len(data)


def sent_gzip_bytes(site: Path, sent: list[tuple[str, int, int]]) -> int:
    """The bytes of ``sent`` had each file been sent gzip-compressed as GitHub Pages does."""
    total = 0
    for path, _status, size in sent:
        rel = path.removeprefix(PREFIX).lstrip("/") or "index.html"
        file = site / rel
        total += gzip_size(file) if size and file.is_file() and size == file.stat().st_size else size
    return total


def measure_load(
    pw: Any, chromium: str, url: str, kind: str, traffic: Traffic, *, site: Path | None = None
) -> LoadSample:
    """Cold load in a fresh browser profile, then the second (warm) load."""
    with tempfile.TemporaryDirectory(prefix="ocho-bench-") as profile:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS, **context_options()
        )
        try:
            ctx.set_default_timeout(TIMEOUT_MS)
            ctx.add_init_script(READY_SCRIPT % json.dumps(kind))
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            traffic.clear()
            first = url + f"#partida={LOAD_CODE}&mesa=2" if kind == "app" else url
            page.goto(first, wait_until="commit")
            page.wait_for_function("() => !!window.__benchReady", timeout=TIMEOUT_MS)
            cold = float(page.evaluate("() => window.__benchReady"))
            usable = float(page.evaluate("() => window.__benchUsable || 0"))
            longest_cold = float(page.evaluate("() => window.__benchLongest"))
            fcp = page.evaluate(FCP_JS)
            if kind == "app":
                # The visit is over once the worker has precached everything.
                page.evaluate("async () => { await navigator.serviceWorker.ready; }")
                page.wait_for_function(CONTROLLED_JS)
            else:
                page.wait_for_load_state("load")
            sent = traffic.snapshot()
            page.close()

            page = ctx.new_page()
            page.goto(url, wait_until="commit")  # app: the saved game resumes
            page.wait_for_function("() => !!window.__benchReady", timeout=TIMEOUT_MS)
            warm = float(page.evaluate("() => window.__benchReady"))
            cards = float(page.evaluate("() => window.__benchCards || 0"))
            longest_warm = float(page.evaluate("() => window.__benchLongest"))
        finally:
            ctx.close()
    return LoadSample(
        cold_ms=cold,
        warm_ms=warm,
        fcp_ms=float(fcp) if fcp is not None else None,
        first_visit_bytes=sum(size for _, _, size in sent),
        first_visit_bytes_gzip=sent_gzip_bytes(site, sent) if site else 0,
        app_bytes=sum(size for path, _, size in sent if not is_vendor(path)),
        setup_usable_ms=usable,
        returning_table_visible_ms=cards,
        longest_task_cold_ms=longest_cold,
        longest_task_warm_ms=longest_warm,
    )


def measure_early_deal(pw: Any, chromium: str, url: str) -> float:
    """First visit with no link: click «Repartir» as soon as it takes a click; ms to a playable hand."""
    with tempfile.TemporaryDirectory(prefix="ocho-bench-") as profile:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS, **context_options()
        )
        try:
            ctx.set_default_timeout(TIMEOUT_MS)
            ctx.add_init_script(READY_SCRIPT % json.dumps("app"))
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(url, wait_until="commit")
            page.wait_for_function("() => !!window.__benchUsable")
            page.click("#deal-btn", no_wait_after=True)
            page.wait_for_function("() => !!window.__benchReady", timeout=TIMEOUT_MS)
            return float(page.evaluate("() => window.__benchReady"))
        finally:
            ctx.close()


# Chromium's network emulation: (name, download bits/s, latency ms).
PROFILES = (("10mbit_40ms", 10_000_000, 40), ("1.6mbit_150ms", 1_600_000, 150))


def measure_throttled(pw: Any, chromium: str, url: str, kind: str, *, bits: int, latency: int) -> float:
    """Cold load on an emulated network: ms to ready (the app: a dealt, playable hand)."""
    with tempfile.TemporaryDirectory(prefix="ocho-bench-") as profile:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_ARGS, **context_options()
        )
        try:
            ctx.set_default_timeout(THROTTLED_TIMEOUT_MS)
            ctx.add_init_script(READY_SCRIPT % json.dumps(kind))
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": latency,
                    "downloadThroughput": bits / 8,
                    "uploadThroughput": bits / 8,
                },
            )
            first = url + f"#partida={LOAD_CODE}&mesa=2" if kind == "app" else url
            page.goto(first, wait_until="commit")
            page.wait_for_function("() => !!window.__benchReady", timeout=THROTTLED_TIMEOUT_MS)
            return float(page.evaluate("() => window.__benchReady"))
        finally:
            ctx.close()


def is_vendor(path: str) -> bool:
    """True for PyScript's and Pyodide's files (the server logs paths with or without the prefix)."""
    return path.startswith(("/vendor/", PREFIX + "vendor/"))


# ------------------------------------------------------------------------ main


def run(
    site: Path, runs: int, throttled_runs: int = 5, progress: Callable[[str], None] = log
) -> dict[str, Any]:
    chromium = find_chromium()
    traffic = Traffic()
    with (
        tempfile.TemporaryDirectory(prefix="ocho-bench-base-") as base_tmp,
        serve(site, traffic) as app_url,
        serve(make_baseline(site, Path(base_tmp)), Traffic()) as base_url,
        sync_playwright() as pw,
    ):
        base_samples: list[LoadSample] = []
        app_samples: list[LoadSample] = []
        early_deals: list[float] = []
        for i in range(runs):
            order = [("baseline", base_url), ("app", app_url)]
            if i % 2:
                order.reverse()
            for kind, url in order:
                if kind == "app":
                    sample = measure_load(pw, chromium, url, kind, traffic, site=site)
                    early_deals.append(measure_early_deal(pw, chromium, url))
                else:
                    sample = measure_load(pw, chromium, url, kind, Traffic())
                (app_samples if kind == "app" else base_samples).append(sample)
                progress(
                    f"run {i + 1}/{runs} {kind}: cold {sample.cold_ms:.0f} ms, warm {sample.warm_ms:.0f} ms"
                )

        throttled: dict[str, dict[str, list[float]]] = {}
        # On an emulated slow network the servers compress as GitHub Pages does: the bytes
        # that cross the wire are the ones a visitor would wait for.
        # "stock": the bare page on the runtime as the packages ship it.
        with (
            tempfile.TemporaryDirectory(prefix="ocho-bench-stock-") as stock_tmp,
            serve(site, Traffic(), compress=True) as app_gz,
            serve(make_baseline(site, Path(base_tmp)), Traffic(), compress=True) as base_gz,
            serve(make_stock_baseline(site, Path(stock_tmp)), Traffic(), compress=True) as stock_gz,
        ):
            for name, bits, latency in PROFILES:
                times: dict[str, list[float]] = {"baseline": [], "stock": [], "app": []}
                for i in range(throttled_runs):
                    order = [("baseline", base_gz), ("stock", stock_gz), ("app", app_gz)]
                    order = order[i % 3 :] + order[: i % 3]
                    if i % 2:
                        order.reverse()
                    for kind, url in order:
                        times[kind].append(
                            measure_throttled(
                                pw,
                                chromium,
                                url,
                                "app" if kind == "app" else "baseline",
                                bits=bits,
                                latency=latency,
                            )
                        )
                        progress(
                            f"throttled {name} run {i + 1}/{throttled_runs} {kind}: {times[kind][-1]:.0f} ms"
                        )
                throttled[name] = times

        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            p50s: list[float] = []
            p95s: list[float] = []
            cpu95s: list[float] = []
            all_actions: list[float] = []
            all_cpu: list[float] = []
            for i in range(runs):
                code = GameCode.random(3, random.Random(i)).pretty()
                actions, cpu = measure_actions(browser, app_url, code)
                p50s.append(percentile(actions, 50))
                p95s.append(percentile(actions, 95))
                cpu95s.append(percentile(cpu, 95))
                all_actions += actions
                all_cpu += cpu
                progress(
                    f"run {i + 1}/{runs} play: {len(actions)} card clicks p95 {p95s[-1]:.1f} ms, "
                    f"{len(cpu)} CPU decisions p95 {cpu95s[-1]:.2f} ms"
                )
        finally:
            browser.close()

    def med(samples: list[LoadSample], name: str) -> float:
        return round(median([float(getattr(s, name)) for s in samples]), 1)

    fcps = [s.fcp_ms for s in app_samples if s.fcp_ms is not None]
    result: dict[str, Any] = {
        "runs": runs,
        "baseline_cold_ms": med(base_samples, "cold_ms"),
        "app_cold_ms": med(app_samples, "cold_ms"),
        "baseline_warm_ms": med(base_samples, "warm_ms"),
        "app_warm_ms": med(app_samples, "warm_ms"),
        "first_paint_ms": round(median(fcps), 1),
        "action_ms_p50": round(median(p50s), 2),
        "action_ms_p95": round(median(p95s), 2),
        "cpu_turn_ms_p95": round(median(cpu95s), 3),
        "first_visit_bytes": int(median([float(s.first_visit_bytes) for s in app_samples])),
        "first_visit_bytes_gzip": int(median([float(s.first_visit_bytes_gzip) for s in app_samples])),
        "setup_usable_ms": med(app_samples, "setup_usable_ms"),
        "dealt_after_early_click_ms": round(median(early_deals), 1),
        "returning_table_visible_ms": med(app_samples, "returning_table_visible_ms"),
        "returning_playable_ms": med(app_samples, "warm_ms"),
        "longest_task_cold_ms": med(app_samples, "longest_task_cold_ms"),
        "longest_task_warm_ms": med(app_samples, "longest_task_warm_ms"),
        "baseline_longest_task_cold_ms": med(base_samples, "longest_task_cold_ms"),
        "baseline_longest_task_warm_ms": med(base_samples, "longest_task_warm_ms"),
        "app_bytes": int(median([float(s.app_bytes) for s in app_samples])),
    }
    result["cold_ratio"] = round(result["app_cold_ms"] / result["baseline_cold_ms"], 3)
    result["warm_ratio"] = round(result["app_warm_ms"] / result["baseline_warm_ms"], 3)
    for name, times in throttled.items():
        app_ms, base_ms = round(median(times["app"]), 1), round(median(times["baseline"]), 1)
        result[f"throttled_{name}_app_ms"] = app_ms
        result[f"throttled_{name}_baseline_ms"] = base_ms
        result[f"throttled_{name}_ratio"] = round(app_ms / base_ms, 3) if base_ms else None
        stock_ms = round(median(times["stock"]), 1)
        result[f"throttled_{name}_stock_ms"] = stock_ms
        result[f"throttled_{name}_stock_ratio"] = round(app_ms / stock_ms, 3) if stock_ms else None
    result["targets"] = TARGETS
    result["met"] = {
        name: result[name] <= limit for name, limit in TARGETS.items() if result.get(name) is not None
    }
    result["samples"] = {
        "baseline_cold_ms": [round(s.cold_ms) for s in base_samples],
        "app_cold_ms": [round(s.cold_ms) for s in app_samples],
        "baseline_warm_ms": [round(s.warm_ms) for s in base_samples],
        "app_warm_ms": [round(s.warm_ms) for s in app_samples],
        "first_paint_ms": [round(x) for x in fcps],
        "dealt_after_early_click_ms": [round(x) for x in early_deals],
        "setup_usable_ms": [round(s.setup_usable_ms) for s in app_samples],
        "returning_table_visible_ms": [round(s.returning_table_visible_ms) for s in app_samples],
        "throttled": {
            name: {k: [round(x) for x in v] for k, v in t.items()} for name, t in throttled.items()
        },
        "card_clicks": len(all_actions),
        "cpu_decisions": len(all_cpu),
        "cpu_turn_ms_max": round(max(all_cpu), 3) if all_cpu else None,
    }
    return result


def run_compare(sites: list[Path], runs: int, progress: Callable[[str], None] = log) -> dict[str, Any]:
    """Start-up only, several builds side by side with the bare page (on the first site's runtime).

    Each round loads the bare page and every site (cold, then warm) and, for each
    site, a first visit's early «Repartir»; the order turns round by round, so
    each is measured in the same minutes as the others. Reports each figure's
    median, the ratios to the bare page's medians and every sample.
    """
    chromium = find_chromium()
    names = ["baseline", *(f"site{n}" for n in range(1, len(sites) + 1))]
    loads: dict[str, list[LoadSample]] = {name: [] for name in names}
    early: dict[str, list[float]] = {name: [] for name in names[1:]}
    with contextlib.ExitStack() as stack:
        base_tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="ocho-bench-base-"))
        urls = {"baseline": stack.enter_context(serve(make_baseline(sites[0], Path(base_tmp)), Traffic()))}
        traffic = {name: Traffic() for name in names}
        for name, site in zip(names[1:], sites, strict=True):
            urls[name] = stack.enter_context(serve(site, traffic[name]))
        pw = stack.enter_context(sync_playwright())
        for i in range(runs):
            order = names[i % len(names) :] + names[: i % len(names)]
            if i % 2:
                order.reverse()
            for name in order:
                if name == "baseline":
                    sample = measure_load(pw, chromium, urls[name], "baseline", Traffic())
                else:
                    site = sites[names.index(name) - 1]
                    sample = measure_load(pw, chromium, urls[name], "app", traffic[name], site=site)
                    early[name].append(measure_early_deal(pw, chromium, urls[name]))
                loads[name].append(sample)
                times = f"cold {sample.cold_ms:.0f} ms, warm {sample.warm_ms:.0f} ms"
                progress(f"run {i + 1}/{runs} {name}: {times}")

    def med(values: list[float]) -> float:
        return round(median(values), 1)

    base_cold = med([s.cold_ms for s in loads["baseline"]])
    base_warm = med([s.warm_ms for s in loads["baseline"]])
    result: dict[str, Any] = {
        "runs": runs,
        "baseline": {"cold_ms": base_cold, "warm_ms": base_warm},
        "samples": {
            "baseline": {
                "cold_ms": [round(s.cold_ms) for s in loads["baseline"]],
                "warm_ms": [round(s.warm_ms) for s in loads["baseline"]],
            }
        },
    }
    for name, site in zip(names[1:], sites, strict=True):
        cold, warm = med([s.cold_ms for s in loads[name]]), med([s.warm_ms for s in loads[name]])
        result[name] = {
            "site": str(site),
            "cold_ms": cold,
            "warm_ms": warm,
            "cold_ratio": round(cold / base_cold, 3),
            "warm_ratio": round(warm / base_warm, 3),
            "dealt_after_early_click_ms": med(early[name]),
            "returning_table_visible_ms": med([s.returning_table_visible_ms for s in loads[name]]),
            "first_visit_bytes_gzip": int(median([float(s.first_visit_bytes_gzip) for s in loads[name]])),
        }
        result["samples"][name] = {
            "cold_ms": [round(s.cold_ms) for s in loads[name]],
            "warm_ms": [round(s.warm_ms) for s in loads[name]],
            "dealt_after_early_click_ms": [round(x) for x in early[name]],
        }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure load time and responsiveness of the page.")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median is reported)")
    parser.add_argument("--site", help="an already built site folder (default: build one now)")
    parser.add_argument("--out", help="also write the JSON to this file")
    parser.add_argument(
        "--throttled-runs", type=int, default=5, help="runs per throttled profile (0: skip them)"
    )
    parser.add_argument(
        "--save-load-only", action="store_true", help="only time loading a whole-game save in the page"
    )
    parser.add_argument(
        "--levels-only", action="store_true", help="only the CPU levels: decision times and long tasks"
    )
    parser.add_argument(
        "--compare",
        nargs="+",
        metavar="SITE",
        help="start-up only: these built sites and the bare page, alternated in one run",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.compare:
        result = run_compare([Path(site).resolve() for site in args.compare], max(1, args.runs))
        result["bench_seconds"] = round(time.monotonic() - started)
        return report(result, args.out)
    with tempfile.TemporaryDirectory(prefix="ocho-bench-site-") as tmp:
        if args.site:
            site = Path(args.site).resolve()
        else:
            log("building the site ...")
            site = site_build.build(Path(tmp) / "_site", quiet=True).out
        if args.save_load_only:
            result = run_save_load(site, max(1, args.runs))
        elif args.levels_only:
            result = run_levels(site, max(1, args.runs))
        else:
            result = run(site, max(1, args.runs), max(0, args.throttled_runs))
            result.update(run_save_load(site, max(1, args.runs)) | {"samples": result["samples"]})
        if not args.site:
            shutil.rmtree(site, ignore_errors=True)
    result["bench_seconds"] = round(time.monotonic() - started)
    return report(result, args.out)


if __name__ == "__main__":
    sys.exit(main())
