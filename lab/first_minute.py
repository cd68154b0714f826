"""What a first-time visitor can reach without scrolling: the controls above the fold, listed.

Usage::

    python -m lab.first_minute [--site DIR] [--width 390] [--height 844]

Builds the site (or serves ``--site``), opens it in a fresh headless Chromium
profile (no save, no history) at the given viewport, waits for the table to be
ready and prints, one a line, every visible focusable control whose box starts
above the fold (its accessible name as far as the DOM gives it), then the count.
Used for #25's "the first minute stays light" (figures in ``docs/measurements.md``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from tools import build as site_build
from tools.page_driver import CHROMIUM_ARGS, TIMEOUT_MS, find_chromium, serve
from tools.serve import Traffic

ROOT = Path(__file__).resolve().parents[1]

# Every visible, enabled-or-not focusable control whose top edge lies inside the first screen.
CONTROLS_JS = """(fold) => {
  const sel = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest("dialog:not([open])") || el.closest("[hidden]")) continue;
    if (el.closest("details:not([open])") && el.localName !== "summary") continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.bottom <= 0 || box.top >= fold) continue;
    if (el.classList.contains("skip-link")) continue;  // shown only while focused
    const label = el.getAttribute("aria-label") || (el.labels && el.labels[0] && el.labels[0].innerText)
      || el.innerText || el.value || el.id;
    out.push({tag: el.localName, id: el.id, name: label.replace(/\\s+/g, " ").trim(),
      top: Math.round(box.top), disabled: !!el.disabled});
  }
  return out;
}"""


def measure(url: str, width: int, height: int) -> list[dict[str, object]]:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        context = browser.new_context(locale="es-ES", viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => document.body.dataset.state === 'setup'", timeout=TIMEOUT_MS)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        controls: list[dict[str, object]] = page.evaluate(CONTROLS_JS, height)
        browser.close()
    return controls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site folder (default: build one)")
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or site_build.build(Path(tmp) / "_site", root=ROOT, quiet=True).out
        with serve(site, Traffic()) as url:
            controls = measure(url, args.width, args.height)
    print(f"first visit at {args.width}x{args.height}: controls above the fold")
    for c in controls:
        off = " (disabled)" if c["disabled"] else ""
        print(f"  {c['top']:>4} px  {c['tag']:<8} {c['name']}{off}")
    print(f"{len(controls)} controls ({sum(not c['disabled'] for c in controls)} enabled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
