"""Python off the main thread: three architectures measured side by side (a prototype bench).

Usage::

    python -m lab.worker_proto [--rounds 3] [--throttle 4] [--out worker.json]

Builds the site into a temporary folder (:func:`tools.build.build`) and adds
throw-away pages beside it, on the same pinned PyScript and Pyodide, that the
site never ships:

* ``A``: the built site itself (Python on the main thread), opened with a link
  ``#partida=<CODE>&mesa=3`` that deals at once, «Rival» set to Difícil.
* ``B``: ``engine/`` and ``ui/render.py`` (from the site's ``app.zip``) in a
  PyScript worker (``<script type="py" worker>``) that deals the same code and
  drives the DOM through ``pyscript.document``; a click listener registered
  from the worker plays the card and the CPU turn. The page is made
  cross-origin isolated by the test server's COOP/COEP/CORP headers.
* ``Bsw``: the same page on a server without those headers; a service worker
  of a few lines adds them and the page reloads once on its first visit
  (times count from the first navigation).
* ``C``: the same engine code in a worker behind async calls (``PyWorker`` and
  ``pyscript.sync``, no isolation needed) that returns HTML strings; the
  table is drawn by a few lines of JavaScript on the main thread.

The pages are opened alternately (A B Bsw C A B Bsw C …), each in a fresh
browser process and profile, and the same round is repeated with the CPU
throttled ``--throttle`` times (CDP ``Emulation.setCPUThrottlingRate``, which
slows the page's main thread; whether it slows a worker too is read from the
worker's own figures). Per page load:

* ``python_ms``: navigation to Python ready; ``hand_ms``: to a playable hand.
* ``start_longtasks``: main-thread long tasks (``longtask`` observer) before
  the hand: count, longest, and the blocking sum (each task's part over 50 ms).
* ``turn_ms`` and ``turn_longtasks``: from a click on a legal card until the
  two Difícil CPUs have played and it is the person's turn again.
* ``write_ms`` / ``batch_ms``: B: one proxied ``dataset`` write from the
  worker (mean of 200) and one ``innerHTML`` of 300 list items; C: one async
  call into the worker and back (mean of 50) and one call returning those 300
  items plus their ``innerHTML``; A: the same writes in JavaScript on the main
  thread (the floor; the page's Python is not reachable from outside).

Prints one JSON document: medians per page and the ratios to A, with the load
(``os.getloadavg``) before and after. A benchmark, not a test: figures depend
on the machine and its load; compare the pages within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from engine.actions import PLAY_KIND
from engine.cards import EIGHT, RANK_OF
from engine.codes import GameCode
from engine.game import Game
from tools import build as site_build
from tools import serve as site_serve
from tools.page_driver import CHROMIUM_ARGS, PREFIX, find_chromium

ROOT = Path(__file__).resolve().parent.parent
PYSCRIPT_DIST = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
TIMEOUT_MS = 240_000
PAGES = ("A", "B", "Bsw", "C")

# The worker's game: the real engine and ui/render (from app.zip), no DOM here.
CORE_PY = """
import json
import time

from engine.actions import PLAY
from engine.bots import make_level_bot
from engine.cards import BY_TEXT
from engine.codes import GameCode
from engine.game import PLAYING, Game
from engine.view import seat_view
from ui import render

GAME = None


def parts():
    view = seat_view(GAME, 0)
    return [
        ["opponents", render.opponents_html(view)],
        ["discard", render.discard_html(view)],
        ["stock-count", render.stock_count(view)],
        ["move-log", render.move_log_html(view)],
        ["hand", render.hand_html(view)],
    ]


def deal(code):
    global GAME
    GAME = Game.new(GameCode.parse(code))
    return json.dumps(parts())


def play(text):
    GAME.apply(PLAY[BY_TEXT[text]])
    return json.dumps([parts(), GAME.phase != PLAYING or GAME.turn == 0])


def cpu_step():
    # In a worker the hard CPU may think in one go: no slices needed to keep the page alive.
    started = time.perf_counter()
    seat = GAME.turn
    GAME.apply(make_level_bot("dificil").choose(seat_view(GAME, seat)))
    think = (time.perf_counter() - started) * 1000
    return json.dumps([parts(), GAME.phase != PLAYING or GAME.turn == 0, think])


def list_html(n):
    return "<ul>" + "".join(f"<li>{i}</li>" for i in range(n)) + "</ul>"


def ping():
    return 0
"""

# B: the worker drives the page's DOM through pyscript.document (needs isolation).
B_TAIL_PY = """
from pyodide.ffi import create_proxy
from pyscript import document, window

body = document.body
body.dataset.python = str(window.performance.now())
thinking = []


def draw(items):
    for ident, html in items:
        document.getElementById(ident).innerHTML = html


draw(json.loads(deal(str(body.dataset.code))))
body.dataset.state = "human"


def on_click(event):
    button = event.target.closest("button[data-card]")
    if button is None or body.dataset.state != "human":
        return
    body.dataset.state = "cpu"
    items, done = json.loads(play(str(button.dataset.card)))
    draw(items)
    while not done:
        items, done, think = json.loads(cpu_step())
        thinking.append(think)
        draw(items)
    body.dataset.think = str(sum(thinking))
    body.dataset.state = "human"


def on_bench(_event):
    box = document.getElementById("bench-box")
    started = time.perf_counter()
    for i in range(200):
        box.dataset.n = str(i)
    write = (time.perf_counter() - started) * 1000 / 200
    html = list_html(300)
    started = time.perf_counter()
    box.innerHTML = html
    batch = (time.perf_counter() - started) * 1000
    body.dataset.bench = json.dumps({"write_ms": write, "batch_ms": batch})


document.getElementById("hand").addEventListener("click", create_proxy(on_click))
document.getElementById("bench-btn").addEventListener("click", create_proxy(on_bench))
body.dataset.listening = "1"
"""

# C: the worker only answers calls; nothing here touches the page.
C_TAIL_PY = """
try:
    from pyscript import sync
except ImportError:  # PyWorker from JavaScript, with no <script type="py"> on the page
    from polyscript import xworker

    sync = xworker.sync

sync.deal = deal
sync.play = play
sync.cpu_step = cpu_step
sync.list_html = list_html
sync.ping = ping
"""

TABLE_HTML = """
<div id="opponents"></div><div id="discard"></div><span id="stock-count"></span>
<div id="hand"></div><ol id="move-log"></ol>
<button type="button" id="bench-btn">bench</button><div id="bench-box"></div>
"""

# Times on a page that reloaded once for isolation count from the first navigation.
ORIGIN_JS = """
const first = Number(sessionStorage.getItem("proto-t0") || performance.timeOrigin);
sessionStorage.setItem("proto-t0", String(first));
document.documentElement.dataset.offset = String(performance.timeOrigin - first);
"""

B_HTML = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>B</title><link rel="icon" href="data:,">
<script>{origin}</script>
<script type="module" src="vendor/pyscript-all/core.js"></script>
</head><body data-code="{code}">{table}
<script type="py" worker config="proto.json" src="proto-b.py"></script>
</body></html>
"""

# PyScript is started only once the page is isolated: a worker started before would find no document.
BSW_HTML = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Bsw</title><link rel="icon" href="data:,">
<script>{origin}
if (window.crossOriginIsolated) {{
  import("./vendor/pyscript-all/core.js");
}} else if (navigator.serviceWorker) {{
  navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
  navigator.serviceWorker.register("proto-coi-sw.js");
}}
</script>
</head><body data-code="{code}">{table}
<script type="py" worker config="proto.json" src="proto-b.py"></script>
</body></html>
"""

COI_SW_JS = """
// Adds the headers that make the page cross-origin isolated, to every response it serves.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  event.respondWith(fetch(request).then((response) => {
    if (response.status === 0) return response;
    const headers = new Headers(response.headers);
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    headers.set("Cross-Origin-Embedder-Policy", "require-corp");
    headers.set("Cross-Origin-Resource-Policy", "cross-origin");
    return new Response(response.body, {status: response.status, statusText: response.statusText, headers});
  }));
});
"""

C_HTML = """<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>C</title><link rel="icon" href="data:,">
<script>{origin}</script>
</head><body data-code="{code}">{table}
<script type="module">
import {{ PyWorker }} from "./vendor/pyscript-all/core.js";
const body = document.body;
const draw = (items) => {{ for (const [id, html] of items) document.getElementById(id).innerHTML = html; }};
const {{ sync }} = await PyWorker("./proto-c.py", {{
  config: {config}, version: new URL("./vendor/pyodide/pyodide.mjs", location.href).href,
}});
body.dataset.python = String(performance.now());
draw(JSON.parse(await sync.deal(body.dataset.code)));
body.dataset.state = "human";
let thinking = 0;
document.getElementById("hand").addEventListener("click", async (event) => {{
  const button = event.target.closest("button[data-card]");
  if (!button || body.dataset.state !== "human") return;
  body.dataset.state = "cpu";
  let [items, done] = JSON.parse(await sync.play(button.dataset.card));
  draw(items);
  while (!done) {{
    let think;
    [items, done, think] = JSON.parse(await sync.cpu_step());
    thinking += think;
    draw(items);
  }}
  body.dataset.think = String(thinking);
  body.dataset.state = "human";
}});
document.getElementById("bench-btn").addEventListener("click", async () => {{
  let started = performance.now();
  for (let i = 0; i < 50; i++) await sync.ping();
  const write = (performance.now() - started) / 50;
  started = performance.now();
  document.getElementById("bench-box").innerHTML = await sync.list_html(300);
  const batch = performance.now() - started;
  body.dataset.bench = JSON.stringify({{write_ms: write, batch_ms: batch}});
}});
body.dataset.listening = "1";
</script>
</body></html>
"""

PROTO_CONFIG = {"interpreter": "./vendor/pyodide/pyodide.mjs", "files": {"./app.zip": "./*"}}

# Installed before any page script: long tasks, Python ready, the hand, every change of state.
WATCH_JS = """
(() => {
  window.__long = [];
  window.__states = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
    }).observe({type: "longtask", buffered: true});
  } catch (err) {}
  const check = () => {
    const body = document.body;
    if (!body) return;
    const now = performance.now();
    if (!window.__python && (body.dataset.ready === "1" || body.dataset.python)) window.__python = now;
    const last = window.__states.length ? window.__states[window.__states.length - 1][1] : null;
    if (body.dataset.state !== last) window.__states.push([now, body.dataset.state]);
    if (!window.__hand && body.dataset.state === "human" && document.querySelector("#hand [data-card]")) {
      window.__hand = now;
    }
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
})();
"""

# A: the DOM writes of B and C done by JavaScript on the main thread (the floor).
A_BENCH_JS = """
() => {
  const box = document.createElement("div");
  document.body.append(box);
  let started = performance.now();
  for (let i = 0; i < 200; i++) box.dataset.n = String(i);
  const write = (performance.now() - started) / 200;
  const html = "<ul>" + Array.from({length: 300}, (_, i) => `<li>${i}</li>`).join("") + "</ul>";
  started = performance.now();
  box.innerHTML = html;
  box.getBoundingClientRect();
  const batch = performance.now() - started;
  box.remove();
  return {write_ms: write, batch_ms: batch};
}
"""

TURN_DONE_JS = """
(clicked) => {
  const after = window.__states.filter(([when]) => when >= clicked);
  const cpu = after.findIndex(([, state]) => state === "cpu");
  if (cpu < 0) return null;
  const settled = ["human", "results", "gameover", "chooser"];
  const back = after.slice(cpu + 1).find(([, state]) => settled.includes(state));
  return back ? back[0] : null;
}
"""
READY_JS = """
() => window.__hand && (document.body.dataset.ready === "1" || document.body.dataset.listening === "1")
"""
LEGAL = "#hand button.card.legal:not([data-card^='8'])"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pick_code(seed: int = 26) -> GameCode:
    """A three-player deal where the person starts with a legal card that is not an 8."""
    rng = random.Random(seed)
    while True:
        code = GameCode.random(3, rng)
        game = Game.new(code)
        plays = [a for a in game.legal_actions() if a.kind == PLAY_KIND and a.card is not None]
        if game.turn == 0 and any(RANK_OF[a.card] != EIGHT for a in plays if a.card is not None):
            return code


def add_prototypes(site: Path, code: GameCode) -> None:
    """Write pages B, Bsw and C, their Python and the whole PyScript dist (workers need more chunks)."""
    shutil.copytree(PYSCRIPT_DIST, site / "vendor" / "pyscript-all", ignore=shutil.ignore_patterns("*.map"))
    fill = {
        "origin": ORIGIN_JS,
        "code": code.pretty(),
        "table": TABLE_HTML,
        "config": json.dumps(PROTO_CONFIG),
    }
    (site / "proto-b.html").write_text(B_HTML.format(**fill))
    (site / "proto-bsw.html").write_text(BSW_HTML.format(**fill))
    (site / "proto-c.html").write_text(C_HTML.format(**fill))
    (site / "proto-coi-sw.js").write_text(COI_SW_JS)
    (site / "proto-b.py").write_text(CORE_PY + B_TAIL_PY)
    (site / "proto-c.py").write_text(CORE_PY + C_TAIL_PY)
    (site / "proto.json").write_text(json.dumps(PROTO_CONFIG))


class IsolatedHandler(site_serve.SiteHandler):
    """The site server, sending the headers that make a page cross-origin isolated."""

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
        super().end_headers()


@contextmanager
def servers(site: Path) -> Iterator[tuple[str, str]]:
    """A plain server (A, Bsw, C) and one sending isolation headers (B)."""
    plain, plain_url = site_serve.start_background(site, prefix=PREFIX)
    isolated, isolated_url = site_serve.start_background(site, prefix=PREFIX, handler=IsolatedHandler)
    try:
        yield plain_url, isolated_url
    finally:
        for server in (plain, isolated):
            server.shutdown()
            server.server_close()


def blocking(tasks: list[list[float]]) -> dict[str, float]:
    durations = [d for _start, d in tasks]
    return {
        "count": len(durations),
        "longest_ms": round(max(durations), 1) if durations else 0.0,
        "blocking_ms": round(sum(max(0.0, d - 50) for d in durations), 1),
    }


def measure(
    pw: Any, chromium: str, page_name: str, *, urls: tuple[str, str], code: GameCode, rate: float
) -> dict[str, Any]:
    """One cold load of ``page_name`` in a fresh browser: start-up, one CPU turn, the DOM costs."""
    plain, isolated = urls
    url = {
        "A": f"{plain}#partida={code.pretty()}&mesa=3",
        "B": f"{isolated}proto-b.html",
        "Bsw": f"{plain}proto-bsw.html",
        "C": f"{plain}proto-c.html",
    }[page_name]
    browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
    try:
        ctx = browser.new_context(
            locale="es-ES", viewport={"width": 412, "height": 823}, reduced_motion="reduce"
        )
        ctx.set_default_timeout(TIMEOUT_MS)
        ctx.add_init_script(WATCH_JS)
        ctx.add_init_script("localStorage.setItem('ocho-loco:nivel', 'dificil');")
        page = ctx.new_page()
        if rate > 1:
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(url, wait_until="commit")
        page.wait_for_function(READY_JS)
        if page_name == "Bsw" and rate > 1:
            # The reload for isolation is a new document: throttle it as well.
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        offset = float(page.evaluate("() => Number(document.documentElement.dataset.offset || 0)"))
        python_ms, hand_ms = page.evaluate("() => [window.__python, window.__hand]")
        isolated_now = bool(page.evaluate("() => window.crossOriginIsolated"))
        start_tasks = page.evaluate("(t) => window.__long.filter(([s]) => s <= t)", hand_ms)
        clicked = float(page.evaluate("() => performance.now()"))
        page.click(LEGAL)
        page.wait_for_function(TURN_DONE_JS, arg=clicked)
        done = float(page.evaluate(TURN_DONE_JS, clicked))
        turn_tasks = page.evaluate(
            "([a, b]) => window.__long.filter(([s]) => s >= a && s <= b)", [clicked, done]
        )
        if page_name == "A":
            dom = page.evaluate(A_BENCH_JS)
            think = sum(float(x) for x in page.evaluate("() => Array.from(window.ochoLocoTimings || [])"))
        else:
            page.click("#bench-btn")
            page.wait_for_function("() => document.body.dataset.bench")
            dom = json.loads(page.evaluate("() => document.body.dataset.bench"))
            think = float(page.evaluate("() => Number(document.body.dataset.think || 0)"))
        return {
            "python_ms": round(python_ms + offset, 1),
            "hand_ms": round(hand_ms + offset, 1),
            "isolated": isolated_now,
            "start_longtasks": blocking(start_tasks),
            "turn_ms": round(done - clicked, 1),
            "turn_think_ms": round(think, 1),
            "turn_longtasks": blocking(turn_tasks),
            "write_ms": round(float(dom["write_ms"]), 3),
            "batch_ms": round(float(dom["batch_ms"]), 2),
        }
    finally:
        browser.close()


FIGURES = (
    "python_ms",
    "hand_ms",
    "start_longtasks.count",
    "start_longtasks.longest_ms",
    "start_longtasks.blocking_ms",
    "turn_ms",
    "turn_think_ms",
    "turn_longtasks.count",
    "turn_longtasks.longest_ms",
    "turn_longtasks.blocking_ms",
    "write_ms",
    "batch_ms",
)


def pick(run: dict[str, Any], figure: str) -> float:
    value: Any = run
    for key in figure.split("."):
        value = value[key]
    return float(value)


def summarize(runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    medians = {
        name: {figure: round(statistics.median(pick(r, figure) for r in rs), 2) for figure in FIGURES}
        for name, rs in runs.items()
        if rs
    }
    ratios: dict[str, dict[str, float | None]] = {}
    base = medians.get("A")
    for name, figures in medians.items():
        if name == "A" or base is None:
            continue
        ratios[name] = {f: (round(v / base[f], 2) if base[f] else None) for f, v in figures.items()}
    return {"median": medians, "ratio_to_A": ratios}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of A B Bsw C at each CPU speed")
    parser.add_argument(
        "--throttle", type=float, default=4.0, help="CPU slow-down of the second set (1: none)"
    )
    parser.add_argument("--pages", default=",".join(PAGES), help="which pages, comma-separated")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    args = parser.parse_args(argv)
    names = [n for n in args.pages.split(",") if n]
    code = pick_code()
    chromium = find_chromium()
    result: dict[str, Any] = {"code": code.pretty(), "load_before": os.getloadavg(), "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="worker-proto-") as tmp:
        site = site_build.build(Path(tmp) / "_site", root=ROOT, quiet=True).out
        add_prototypes(site, code)
        rates = [1.0] + ([args.throttle] if args.throttle > 1 else [])
        with servers(site) as urls, sync_playwright() as pw:
            for rate in rates:
                runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
                for round_no in range(args.rounds):
                    for name in names:
                        started = time.perf_counter()
                        figures = measure(pw, chromium, name, urls=urls, code=code, rate=rate)
                        runs[name].append(figures)
                        took = time.perf_counter() - started
                        log(f"{rate:g}x round {round_no + 1} {name} ({took:.0f} s): {figures}")
                result[f"cpu_{rate:g}x"] = {"runs": runs, **summarize(runs)}
    result["load_after"] = os.getloadavg()
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
