"""The trimmed standard library as a command: what is kept, and what a real session imports.

Usage::

    python3 -m tools.stdlib [--list] [--out FILE]   # what is kept, and its size
    python3 -m tools.stdlib --probe                 # play in Chromium, rewrite tools/stdlib_seen.txt

The trimming itself is :mod:`tools.stdlib_trim` (the build calls it); this
module builds the site to measure it, so the build does not import it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tools import build as site_build
from tools import page_driver
from tools.serve import Traffic
from tools.stdlib_trim import PYODIDE_STDLIB, ROOT, SEEN, trim_stdlib

# Added to a copy of the page by --probe: lists the standard-library modules loaded so far.
PROBE_SCRIPT = """
<script type="py">
import sys
from pyodide.ffi import create_proxy, to_js
import js

def _stdlib_modules():
    names = []
    for name, module in list(sys.modules.items()):
        where = str(getattr(module, "__file__", "") or "")
        if where.startswith(sys.prefix + "/lib/python") or where.startswith("/lib/python"):
            names.append(name)
    return to_js(sorted(names))

js.window.ochoStdlibModules = create_proxy(_stdlib_modules)
</script>
"""


def probe(out: Path) -> list[str]:
    """Play in Chromium on an untrimmed build and return the standard-library modules loaded.

    The session: a game against the hard CPU dealt from a link (the search,
    the record, the save), every person's turn played by clicking, an 8 with
    its suit named, the results counted, «Ver la mano» stepped through, the
    next hand, a page reload that restores the save, and the history panel.
    """
    from playwright.sync_api import sync_playwright  # noqa: PLC0415  # only the probe drives a browser

    with tempfile.TemporaryDirectory(prefix="ocho-probe-") as tmp:
        site = site_build.build(Path(tmp) / "site", quiet=True, trim=False).out
        index = site / "index.html"
        html = index.read_text(encoding="utf-8")
        index.write_text(html.replace("</body>", PROBE_SCRIPT + "</body>"), encoding="utf-8")
        found: set[str] = set()
        with page_driver.serve(site, Traffic()) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=page_driver.find_chromium(), headless=True, args=page_driver.CHROMIUM_ARGS
            )
            ctx = browser.new_context(**page_driver.context_options())
            ctx.set_default_timeout(page_driver.TIMEOUT_MS)
            ctx.add_init_script("localStorage.setItem('ocho-loco:nivel', 'dificil');")
            page = ctx.new_page()
            page.goto(url + "#partida=A27G-BNNZ&mesa=2")
            ready = "() => document.body.dataset.ready === '1' && !!window.ochoStdlibModules"
            page.wait_for_function(ready)
            hands = 0
            for _ in range(600):
                page.wait_for_function(page_driver.SETTLED_JS)
                state = page.evaluate("() => document.body.dataset.state")
                if state == "human":
                    page_driver.click_first(page, ["#hand button.card.legal", "#main-btn:not([disabled])"])
                elif state == "chooser":
                    page.click('#suit-dialog button[data-suit="S"]')
                elif state in ("results", "gameover"):
                    page.wait_for_selector("#replay-btn:not([hidden])")
                    if hands == 0:
                        page.click("#replay-btn")
                        for _ in range(5):
                            page.click("#replay-next")
                        page.click("#replay-close")
                    hands += 1
                    if hands == 2 or state == "gameover":
                        break
                    page.click("#next-hand-btn")
                elif state == "setup":
                    page.click("#deal-btn")
                page.wait_for_function("(s) => document.body.dataset.state !== s || s === 'human'", arg=state)
            found.update(page.evaluate("() => window.ochoStdlibModules()"))
            page.reload()
            page.wait_for_function(ready)
            page.wait_for_function(page_driver.SETTLED_JS)
            found.update(page.evaluate("() => window.ochoStdlibModules()"))
            browser.close()
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print the kept modules")
    parser.add_argument("--out", default="", help="also write the trimmed archive here")
    parser.add_argument("--probe", action="store_true", help=f"play in Chromium and rewrite {SEEN}")
    args = parser.parse_args(argv)
    if args.probe:
        names = probe(ROOT)
        header = "# Standard-library modules a game in the page loaded (python -m tools.stdlib --probe).\n"
        (ROOT / SEEN).write_text(header + "".join(f"{n}\n" for n in names), encoding="utf-8")
        print(f"{len(names)} modules written to {SEEN}")
    dist = ROOT / site_build.PYSCRIPT_DIST
    js_files = [dist / n for n in site_build.pyscript_files(dist, toml=False) if n.endswith(".js")]
    dest = Path(args.out) if args.out else Path("/tmp") / "python_stdlib.trimmed.zip"
    keep = trim_stdlib(ROOT, dest, site_build.PY_PACKAGES, js_files, compile_pyc=False)
    full = (ROOT / PYODIDE_STDLIB).stat().st_size
    size = dest.stat().st_size
    print(f"kept {len(keep)} modules: {size:,} of {full:,} bytes as source")
    if args.list:
        for name in sorted(keep):
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
