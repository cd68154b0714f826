"""A first visit starts Python at once and downloads every file once: Python's worker and the
service worker's precache share them.

Bytes are counted at the server (tools/serve.py's counting handler), so
whatever the browser does with its caches, what went over the wire is what
is summed. A Playwright context is a fresh private profile: its HTTP cache
lives in memory and keeps no file as large as the runtime's wasm, so only the
handoff (assets/runtime.js, tools/sw-src.mjs) keeps the service worker's
install from downloading it again. The visit ends once the service worker
controls the page, which it does only after its precache is complete.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from helpers import PREFIX, wait_controlled, wait_for_python, wait_state

from tools import serve as site_serve

CODE = "A2C6-P4JZ"
# What Python's worker reads of the runtime (assets/runtime.js tells the page of each).
RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "app.zip.xz",
)


def test_a_first_visit_downloads_each_file_once(browser, built_site: Path):
    traffic = site_serve.Traffic()
    handler = site_serve.counting(traffic)
    server, base = site_serve.start_background(built_site, prefix=PREFIX, handler=handler)
    context = browser.new_context(locale="es-ES", reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{base}#partida={CODE}&mesa=2")
        wait_for_python(page)
        assert wait_state(page) == "human"
        started = page.evaluate("() => window.ochoLocoProbe.worker")
        wait_controlled(page)
        sent = traffic.snapshot()
    finally:
        context.close()
        server.shutdown()
        server.server_close()

    # The folder's address and its index.html are one file.
    sent = [
        (path + "index.html" if path.endswith("/") else path, status, size) for path, status, size in sent
    ]
    total = sum(size for _, _, size in sent)
    unique = {path: size for path, status, size in sent if status == 200}
    full_downloads = Counter(path for path, status, size in sent if status == 200 and size > 0)
    twice = sorted(path for path, n in full_downloads.items() if n > 1)
    assert twice == [], f"downloaded more than once: {twice}"
    assert total <= sum(unique.values()) * 1.02, (total, sum(unique.values()))
    assert any(path.endswith("pyodide.asm.wasm") for path in unique)
    # Python's worker did not wait for the service worker, and each runtime file came once.
    assert started["controlled"] is False, started
    runtime = Counter(path.rsplit("/", 1)[-1] for path, status, _ in sent if status == 200)
    assert {file: runtime[file] for file in RUNTIME} == dict.fromkeys(RUNTIME, 1), sent


def test_a_first_visit_reads_the_runtime_in_a_worker_not_on_the_page(browser, site_url: str):
    """12 MB of responses read on the page made long tasks of the browser's own work on its main
    thread (docs/worker.md): a first visit's runtime is read in Python's worker, and the loading
    box still hears of each file."""
    context = browser.new_context(locale="es-ES", reduced_motion="reduce")  # a first visit
    try:
        page = context.new_page()
        page.goto(site_url)
        wait_for_python(page)
        wait_controlled(page)  # the service worker waited for the copies of the big files
        on_page = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        told = page.evaluate("() => (window.ochoLocoFetched || []).map((f) => [f.file, f.bytes])")
    finally:
        context.close()

    read_here = sorted(url for url in on_page if url.split("?")[0].split("/")[-1] in RUNTIME)
    assert read_here == [], f"read on the page's main thread: {read_here}"
    assert sorted(file for file, _ in told) == sorted(RUNTIME), told
    assert all(size > 0 for _, size in told), told
