"""What opening a panel costs the main thread, three ways: modal, non-modal, and as a popover.

Usage::

    python -m lab.modal_cost --site SITE [--rounds 3] [--opens 8] [--throttle 4] [--out f.json]

``SITE`` is a built site (``python tools/build.py --out DIR``), served gzip-compressed.
In every round, each way in turn gets a fresh browser profile at 412×823 with reduced
motion, opens a 3 en la mesa game link (``lab.worker_bench.LOAD_CODE``), waits for the
hand, and then opens and closes the suit chooser (``#suit-dialog``) the chosen way:

* ``modal``: ``showModal()`` and ``close()``, as the page does (the rest of the page
  turns inert: focus, pointer and assistive technology stay in the panel);
* ``non-modal``: ``show()`` and ``close()`` (the page behind stays live);
* ``popover``: the same element as a manual popover, ``showPopover()`` and
  ``hidePopover()`` (in the top layer, the page behind stays live).

First, untraced and unthrottled, one opening and one closing are traced to count the
elements the browser styled for each (the largest ``UpdateLayoutTree`` of the page's
main thread): a count does not depend on the machine's speed. Then, with the CPU
throttled ``--throttle`` times and untraced, each of ``--opens`` openings and closings is
timed from the call until the page is laid out again (``performance.now()`` around the
call and a forced layout), one animation frame apart; the first opening of a page is
reported apart, since it costs more. Prints one JSON document: per way, the elements
styled and the median and longest times over the rounds, with the load average before
and after. Compare the ways within one run: absolute times depend on the machine.
"""

from __future__ import annotations

import argparse
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
from lab.worker_bench import LOAD_CODE, phone_context
from tools.page_driver import find_chromium, serve
from tools.serve import Traffic

WAYS: dict[str, tuple[str, str]] = {
    "modal": ("d.showModal()", "d.close()"),
    "non-modal": ("d.show()", "d.close()"),
    "popover": ("d.showPopover()", "d.hidePopover()"),
}
HAND_JS = "() => document.body.dataset.state === 'human'"
POPOVER_JS = "() => { document.getElementById('suit-dialog').popover = 'manual'; }"
# One step (open or close) ``n`` times, an animation frame and a timer apart; its times in ms.
STEPS_JS = """async ([open, close, n]) => {
  const d = document.getElementById('suit-dialog');
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
  const timed = (step) => {
    const t = performance.now();
    step();
    document.body.offsetHeight;  // laid out again
    return performance.now() - t;
  };
  const opens = [], closes = [];
  for (let i = 0; i < n; i++) {
    await frame(); opens.push(timed(() => eval(open)));
    await frame(); closes.push(timed(() => eval(close)));
  }
  return {opens, closes};
}"""


def styled_elements(trace: dict[str, Any] | list[Any]) -> int:
    """The most elements one style update of the page's main thread went through."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    mains = {key for key, name in names.items() if name == "CrRendererMain"}
    counts = [
        int(e.get("args", {}).get("elementCount") or 0)
        for e in events
        if e.get("name") == "UpdateLayoutTree" and (e.get("pid"), e.get("tid")) in mains
    ]
    return max(counts, default=0)


def _traced(browser: Any, page: Any, step: str) -> int:
    """Elements styled by one ``step`` (JavaScript on ``d``, the suit chooser), traced."""
    browser.start_tracing(page=page, categories=["devtools.timeline"])
    page.evaluate(
        "async (step) => { const d = document.getElementById('suit-dialog');"
        " await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));"
        " eval(step); document.body.offsetHeight; }",
        step,
    )
    return styled_elements(json.loads(browser.stop_tracing()))


def measure(pw: Any, chromium: str, url: str, way: str, *, opens: int, throttle: float) -> dict[str, Any]:
    open_js, close_js = WAYS[way]
    with tempfile.TemporaryDirectory(prefix="ocho-modal-") as profile:
        ctx, page = phone_context(pw, chromium, profile)
        try:
            page.goto(f"{url}#partida={LOAD_CODE}&mesa=3")
            page.wait_for_function(HAND_JS)
            if way == "popover":
                page.evaluate(POPOVER_JS)
            browser = ctx.browser
            styled = {"open": _traced(browser, page, open_js), "close": _traced(browser, page, close_js)}
            page.reload()  # the timed openings start from a page that never opened the panel
            page.wait_for_function(HAND_JS)
            if way == "popover":
                page.evaluate(POPOVER_JS)
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            times = page.evaluate(STEPS_JS, [open_js, close_js, opens])
        finally:
            ctx.close()
    return {"styled": styled, "opens": times["opens"], "closes": times["closes"]}


def run(site: Path, rounds: int, opens: int, throttle: float) -> dict[str, Any]:
    chromium = find_chromium()
    result: dict[str, Any] = {"load_before": os.getloadavg(), "throttle": throttle, "opens": opens}
    samples: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    with sync_playwright() as pw, serve(site, Traffic(), compress=True) as url:
        for i in range(rounds):
            for way in WAYS:
                sample = measure(pw, chromium, url, way, opens=opens, throttle=throttle)
                samples[way].append(sample)
                print(f"round {i + 1} {way}: {sample}", file=sys.stderr)
    result["ways"] = {}
    for way, got in samples.items():
        later_opens = [ms for s in got for ms in s["opens"][1:]]
        closes = [ms for s in got for ms in s["closes"]]
        result["ways"][way] = {
            "elements_styled_open": sorted({s["styled"]["open"] for s in got}),
            "elements_styled_close": sorted({s["styled"]["close"] for s in got}),
            "first_open_ms": [round(s["opens"][0], 1) for s in got],
            "open_ms_median": round(statistics.median(later_opens), 1),
            "open_ms_max": round(max(later_opens), 1),
            "close_ms_median": round(statistics.median(closes), 1),
            "close_ms_max": round(max(closes), 1),
        }
    result["load_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="What opening a panel costs: modal, non-modal, popover.")
    parser.add_argument("--site", required=True, help="a built site folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--opens", type=int, default=8, help="openings and closings timed per page")
    parser.add_argument("--throttle", type=float, default=4.0, help="CDP CPU throttling rate")
    parser.add_argument("--out", help="also write the JSON to this file")
    args = parser.parse_args(argv)
    return report(run(Path(args.site).resolve(), args.rounds, args.opens, args.throttle), args.out)


if __name__ == "__main__":
    raise SystemExit(main())
