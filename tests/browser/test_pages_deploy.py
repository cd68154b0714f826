"""The built folder is exactly what GitHub Pages serves, under a sub-path.

A plain static file server (the standard library's, nothing of
tools/serve.py) serves the built site at ``/ocho-loco/``, as Pages serves a
project site at ``https://<user>.github.io/ocho-loco/``. The page must boot,
deal and play with every request answered (no 404) and none leaving the
origin, including the service worker's own precache requests.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import play_a_move, wait_controlled, wait_for_python, wait_state

CODE = "A2C6-P4JZ"


class RecordingHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler that remembers (status, path) of every request."""

    log: list[tuple[int, str]]
    extensions_map = {  # noqa: RUF012 - the stdlib's own class attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
    }

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.log.append((int(code) if str(code).isdigit() else 0, self.path))

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def pages_url(built_site, tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "ocho-loco").symlink_to(Path(built_site), target_is_directory=True)
    log: list[tuple[int, str]] = []
    handler = type("Handler", (RecordingHandler,), {"log": log})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(root))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/ocho-loco/", log
    server.shutdown()
    server.server_close()


def test_the_built_folder_holds_only_what_is_deployed(built_site):
    files = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*") if p.is_file())
    assert "index.html" in files
    assert "sw.js" in files
    assert "manifest.webmanifest" in files
    assert "app.zip.xz" in files
    for name in files:
        assert not name.startswith(("node_modules/", "tests/", "engine/", "ui/", "tools/", ".")), name
        # The Python ships in app.zip.xz; the one .py beside it is the worker mode's three-line entry.
        assert not name.endswith((".map", ".py", ".pyc")) or name == "assets/worker-start.py", name
        assert "/." not in name, name


def test_served_under_a_sub_path_it_plays_with_no_404_and_nothing_external(browser, pages_url):
    base, server_log = pages_url
    context = browser.new_context(locale="es-ES", reduced_motion="reduce")
    context.set_default_timeout(30_000)
    requests: list[str] = []
    bad: list[str] = []
    context.on("request", lambda req: requests.append(req.url))
    context.on("response", lambda res: bad.append(f"{res.status} {res.url}") if res.status >= 400 else None)
    context.on("requestfailed", lambda req: bad.append(f"failed {req.url}"))
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        # The address without the final slash, as people type it.
        page.goto(base.rstrip("/") + f"#partida={CODE}&mesa=2")
        wait_for_python(page)
        assert wait_state(page) == "human"
        assert page.url.startswith(base)

        play_a_move(page)
        wait_state(page, "human", "results", "gameover")

        # The worker installs after the page's load event; wait until it is active.
        wait_controlled(page)
        keys = page.evaluate("() => Object.keys(localStorage)")
    finally:
        context.close()

    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base))
    external = [
        u
        for u in requests
        if not u.startswith(("data:", "blob:")) and "{0.scheme}://{0.netloc}".format(urlsplit(u)) != origin
    ]
    assert external == []
    assert bad == []
    assert errors == []
    served = [(code, path) for code, path in server_log if code >= 400]
    assert served == []
    assert all(path.startswith("/ocho-loco") for _, path in server_log), server_log
    # The precache was filled through the same server: the worker fetched sw.js.
    assert any(path.startswith("/ocho-loco/sw.js") for _, path in server_log)
    # Everything the page keeps carries the project prefix (one origin hosts many Pages sites).
    assert keys
    assert all(k.startswith("ocho-loco:") for k in keys), keys
