"""Measure how long checking a challenge's CPU moves takes: the longest Difícil games, CPython and the page.

Plays ``--games`` Difícil games per table size (the person as the Normal
CPU, the other seats as Difícil, current version), keeps the longest of each
size (most CPU decisions to re-run) and times :func:`engine.verify.check` on
it in CPython (process time, median of ``--runs``, and the longest single step
of :func:`engine.verify.check_steps`). With ``--page`` it also opens each as a
challenge link in headless Chromium (the built site, reduced motion) and
reports the time from the page being ready to the challenge banner, and the
longest main-thread task seen meanwhile (PerformanceObserver ``longtask``,
which reports tasks over 50 ms). Prints JSON, with the load average before
and after. Usage::

    python -m tools.verify_bench [--games 6] [--runs 3] [--page] [--site _site]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from engine.bots import CpuBot
from engine.codes import GameCode, stream
from engine.game import GAME_OVER, HAND_OVER, Game
from engine.record import Record
from engine.stats import outcome
from engine.verify import HUMAN, check, check_steps, level_bot
from tools import build as site_build
from tools import chromium as site_chromium
from tools import serve as site_serve
from ui.links import challenge_hash


def play(code: GameCode) -> Record:
    game = Game.new(code)
    person = CpuBot()
    cpu = level_bot("dificil", 0, code.players)
    while game.phase != GAME_OVER:
        if game.phase == HAND_OVER:
            game.next_hand()
            continue
        bot = person if game.turn == HUMAN else cpu
        game.apply(bot.choose(game.view(game.turn)))
    return game.record("dificil")


def cpu_decisions(record: Record) -> int:
    count = 0
    for index, game in record.positions():
        count += game.turn != HUMAN and len(game.legal_actions()) > 1
        record.play(game, index)
    return count


def longest(players: int, games: int) -> Record:
    rng = stream("verify-bench", players)
    records = [play(GameCode.random(players, rng)) for _ in range(games)]
    return max(records, key=cpu_decisions)


def time_cpython(record: Record, runs: int) -> dict[str, Any]:
    totals = []
    for _ in range(runs):
        started = time.process_time()
        check(record)
        totals.append(time.process_time() - started)
    steps = []
    last = time.process_time()
    for _ in check_steps(record):
        now = time.process_time()
        steps.append(now - last)
        last = now
    return {
        "check_s": round(statistics.median(totals), 3),
        "runs_s": [round(t, 3) for t in totals],
        "steps": len(steps),
        "longest_step_ms": round(max(steps) * 1000, 2),
    }


PAGE_JS_WATCH = """
window.__longtasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
  }).observe({type: "longtask", buffered: true});
} catch (e) {}
"""


def time_page(records: dict[str, Record], site: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        if site is None:
            site = site_build.build(Path(tmp) / "_site", quiet=True).out
        server, url = site_serve.start_background(site)
        out: dict[str, Any] = {}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=site_chromium.find())
                for name, record in records.items():
                    context = browser.new_context(reduced_motion="reduce", locale="es-ES")
                    page = context.new_page()
                    page.add_init_script(PAGE_JS_WATCH)
                    page.goto(url + challenge_hash(str(record), outcome(record).total, "Bench"))
                    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=180_000)
                    ready = page.evaluate("() => performance.now()")
                    page.wait_for_function(
                        "() => !document.getElementById('challenge-banner').hidden",
                        timeout=900_000,
                        polling=50,
                    )
                    shown = page.evaluate("() => performance.now()")
                    tasks = page.evaluate("() => window.__longtasks")
                    during = [d for start, d in tasks if start >= ready - 1]
                    out[name] = {
                        "ready_to_banner_s": round((shown - ready) / 1000, 2),
                        "tasks_over_50ms_during_check": len(during),
                        "longest_task_during_check_ms": round(max(during), 1) if during else "<50",
                        "longest_task_whole_load_ms": round(max((d for _, d in tasks), default=0), 1),
                    }
                    context.close()
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=6, help="Difícil games played per table size")
    parser.add_argument("--runs", type=int, default=3, help="CPython runs per record (median)")
    parser.add_argument("--page", action="store_true", help="also measure the page in headless Chromium")
    parser.add_argument("--site", type=Path, help="an already built site (default: build one)")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load_before": os.getloadavg()}
    records = {f"{n}p": longest(n, args.games) for n in (2, 3)}
    for name, record in records.items():
        report[name] = {
            "record": str(record)[:20] + "…",
            "moves": len(record),
            "cpu_decisions": cpu_decisions(record),
            "cpython": time_cpython(record, args.runs),
        }
    if args.page:
        for name, figures in time_page(records, args.site).items():
            report[name]["page"] = figures
    report["load_after"] = os.getloadavg()
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
