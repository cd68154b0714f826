"""How «Tus partidas» scales: storage for 10,000 kept games and the time to show their statistics.

Usage::

    python -m lab.history_bench [--games 10000] [--pending 0] [--runs 5] [--pyodide] [--page] [--site DIR]

Prints JSON with:

* ``store_chars`` / ``store_mb_utf16``: what the games take in IndexedDB
  (each key, the record's text, plus its value as ``pyscript.storage`` writes
  it, a Flatted text; IndexedDB keeps strings as UTF-16), and the average
  per game;
* ``cpython_load_ms`` / ``cpython_stats_ms`` / ``cpython_html_ms``: reading
  the games from the store (:class:`ui.history.History`), computing the
  statistics, drawing «Tus partidas» (median of ``--runs``);
  ``cpython_visit_cpu_ms``: the CPU time of a whole visit's work on the
  store (read it, check what is pending, draw the list);
* with ``--pyodide``, the same under Pyodide in Node (the page's runtime);
* with ``--page``, in headless Chromium with the games written straight into
  IndexedDB: ``page_ready_ms`` (navigation to a playable page; the store
  opens after it), ``page_store_ready_ms`` (navigation to «Tus partidas»
  drawn from the store with its statistics) and ``page_longest_task_ms``
  (the longest main-thread task up to then, PerformanceObserver
  ``longtask``; ``_after_ready``: only tasks that began once the page was
  playable, i.e. not Pyodide's own start); ``page_worker_cpu_ms``: the CPU
  time of Python's worker thread from the reload to the list drawn (a trace's
  thread clock: Pyodide's start, the first table, the store's read and list).

``--pending N`` adds N texts of a later record form (``r5.<code>.n1.<hex>``),
kept pending as an import of a later page's file keeps them, or as a writer
of the same origin could plant them: this page never checks them.

The games are real: ``--games / 50`` games of cpu against cpu, each kept with
its last 50 prefixes (distinct records of nearly a whole game's length),
stored as checked games with their outcome, as the page stores them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.record import Record
from engine.stats import outcome
from lab.simulate import run
from ui import history_html
from ui.history import MIGRATED_KEY, STORE_NAME, History
from ui.kept import CHECKED, Entry

ROOT = Path(__file__).resolve().parent.parent
PER_GAME = 50


def stored_games(count: int) -> dict[str, str]:
    """``count`` entries as the page keeps them: record text -> the value :class:`Entry` writes."""
    games: list[Record] = []
    run(2, ["cpu", "cpu"], -(-count // PER_GAME), "historial", records=games)
    store: dict[str, str] = {}
    order = 0
    for game in games:
        result = outcome(game)
        for cut in range(PER_GAME):
            record = game.prefix(len(game) - cut)
            entry = Entry(str(record), "2025-03-14", order, CHECKED, result)
            store[entry.text] = entry.value()
            order += 1
            if len(store) == count:
                return store
    return store


def pending_texts(count: int) -> dict[str, str]:
    """``count`` texts of a later record form, kept pending (no page of today can check them)."""
    return {
        f"r5.A2K7QM92.n1.{n:040x}": json.dumps(["2026-12-01", 10**6 + n, "?", None], separators=(",", ":"))
        for n in range(count)
    }


def flatted(value: str) -> str:
    """What ``pyscript.storage`` writes to IndexedDB for a string value (Flatted of ``["generic", v]``)."""
    return json.dumps([["1", "2"], "generic", value], separators=(",", ":"))


def median_ms(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        fn()
        times.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(times), 1)


def visit(store: dict[str, str]) -> None:
    """What a visit does with the store: read it, check what is pending, draw «Tus partidas»."""
    history = History(None, dict(store))
    history.check_all()
    history_html.history_html(
        history.stats(),
        history.recent(),
        "2025-03-14",
        history.daily("2025-03-14"),
        waiting_entries=history.waiting_entries(),
        unreadable=len(history.unreadable),
    )


def cpu_ms(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.process_time()
        fn()
        times.append((time.process_time() - began) * 1000)
    return round(statistics.median(times), 1)


def python_figures(store: dict[str, str], runs: int, prefix: str) -> dict[str, float]:
    history = History(None, dict(store))
    return {
        f"{prefix}_visit_cpu_ms": cpu_ms(lambda: visit(store), runs),
        f"{prefix}_load_ms": median_ms(lambda: History(None, dict(store)), runs),
        f"{prefix}_stats_ms": median_ms(history.stats, runs),
        f"{prefix}_html_ms": median_ms(
            lambda: history_html.history_html(
                history.stats(), history.recent(), "2025-03-14", history.daily("2025-03-14")
            ),
            runs,
        ),
    }


PYODIDE_SCRIPT = """
import json
from benchdata.store_data import STORE
from lab.history_bench import python_figures
print(json.dumps(python_figures(STORE, RUNS, "pyodide")))
"""


def pyodide_figures(store: dict[str, str], runs: int) -> dict[str, float]:
    """The same figures under Pyodide in Node (the store is handed over as a Python module)."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "benchdata"
        data.mkdir()
        (data / "__init__.py").write_text("")
        (data / "store_data.py").write_text(f"STORE = {store!r}\n")
        script = Path(tmp) / "run.py"
        script.write_text(PYODIDE_SCRIPT.replace("RUNS", str(runs)))
        mounts = [f"ui={ROOT / 'ui'}", f"lab={ROOT / 'lab'}", f"benchdata={data}"]
        command = ["node", str(ROOT / "tools" / "pyodide_run.mjs")]
        for mount in mounts:
            command += ["--mount", mount]
        out = subprocess.run([*command, str(script)], check=True, capture_output=True, text=True, cwd=ROOT)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


FILL = """async ([name, entries]) => {
    const db = await new Promise((ok, no) => {
        const req = indexedDB.open(name);
        req.onupgradeneeded = () => req.result.createObjectStore("entries");
        req.onsuccess = () => ok(req.result);
        req.onerror = () => no(req.error);
    });
    await new Promise((ok, no) => {
        const t = db.transaction("entries", "readwrite");
        const store = t.objectStore("entries");
        for (const [k, v] of entries) store.put(v, k);
        t.oncomplete = ok;
        t.onerror = () => no(t.error);
    });
    db.close();
}"""

WATCH = """
window.__tasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
new MutationObserver(() => {
  if (document.body && document.body.dataset.ready === '1' && window.__readyAt === undefined)
    window.__readyAt = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"]});
"""
LONGEST = """(after) => Math.max(0, ...window.__tasks
    .filter(([start]) => !after || start >= window.__readyAt).map(([, d]) => d))"""


def page_figures(store: dict[str, str], site: Path | None) -> dict[str, float]:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415  # only with --page

    from tools import build as site_build  # noqa: PLC0415
    from tools import page_driver as bench  # noqa: PLC0415  # Chromium and the server, as the benches use them
    from tools.serve import Traffic  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = site_build.build(Path(tmp) / "site", root=ROOT, quiet=True, run_npm=False).out
        with bench.serve(site, Traffic()) as url, sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"),
                executable_path=bench.find_chromium(),
                headless=True,
                args=bench.CHROMIUM_ARGS,
            )
            try:
                page = ctx.new_page()
                page.goto(url)
                page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=120_000)
                entries = [[k, flatted(v)] for k, v in store.items()]
                entries.append([MIGRATED_KEY, flatted("1")])
                page.evaluate(FILL, [f"IDBMap/@pyscript/{STORE_NAME}", entries])
                page.add_init_script(WATCH)
                cdp = ctx.new_cdp_session(page)
                events: list[dict[str, Any]] = []
                ended: list[bool] = []
                cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
                cdp.on("Tracing.tracingComplete", lambda _params: ended.append(True))
                cdp.send("Tracing.start", {"categories": "toplevel", "transferMode": "ReportEvents"})
                page.reload()
                page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=120_000)
                ready = page.evaluate("() => performance.now()")
                page.wait_for_function(
                    "() => document.getElementById('partidas').dataset.store === 'ready'", timeout=300_000
                )
                stored = page.evaluate("() => performance.now()")
                cdp.send("Tracing.end")
                while not ended:  # the trace's events arrive after its end is asked
                    page.wait_for_timeout(50)
                longest = page.evaluate(LONGEST, False)
                longest_after = page.evaluate(LONGEST, True)
                played = (
                    page.locator("#stats-table tr", has_text="Partidas jugadas")
                    .locator("td")
                    .all_inner_texts()
                )
            finally:
                ctx.close()
    return {
        "page_ready_ms": round(ready),
        "page_store_ready_ms": round(stored),
        "page_longest_task_ms": round(longest),
        "page_longest_task_after_ready_ms": round(longest_after),
        "page_played_shown": int(played[2]) if played else -1,
        "page_worker_cpu_ms": worker_cpu_ms(events),
    }


def worker_cpu_ms(events: list[dict[str, Any]]) -> int:
    """The CPU time of Python's worker in a trace: its thread's top-level tasks, by thread clock.

    From the reload to «Tus partidas» drawn: Pyodide's start, the first table, the store read and
    its list. The machine's load stretches wall times, not this (the thread's own clock).
    """
    workers = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e.get("args", {}).get("name") == "DedicatedWorker thread"
    }
    # A task nested in another (a trace's events nest) is counted with it.
    micros, end = 0, dict[tuple[object, object], int]()
    for e in sorted((e for e in events if e.get("ph") == "X"), key=lambda e: (e["ts"], -e.get("dur", 0))):
        thread = (e.get("pid"), e.get("tid"))
        if thread in workers and e["ts"] >= end.get(thread, 0):
            micros += e.get("tdur", 0)
            end[thread] = e["ts"] + e.get("dur", 0)
    return int(micros) // 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pending", type=int, default=0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pyodide", action="store_true")
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--site", type=Path)
    args = parser.parse_args(argv)
    store = stored_games(args.games) if args.games else {}
    store |= pending_texts(args.pending)
    chars = sum(len(k) + len(flatted(v)) for k, v in store.items())
    out: dict[str, Any] = {
        "games": len(store),
        "store_chars": chars,
        "store_mb_utf16": round(chars * 2 / 1e6, 2),
        "chars_per_game": round(chars / max(len(store), 1)),
    }
    out |= python_figures(store, args.runs, "cpython")
    if args.pyodide:
        out |= pyodide_figures(store, args.runs)
    if args.page:
        out |= page_figures(store, args.site)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
