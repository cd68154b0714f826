"""Shared fixtures for browser tests (Playwright sync API + system Chromium).

Session-scoped:
    repo_root             Path of the repository.
    built_site            Path of a freshly built site (tools/build.py), built once
                          per session into a temp dir (or $OCHO_SITE_DIR if set,
                          used as-is without rebuilding).
    site_url              base URL of built_site served at "/",
                          e.g. "http://127.0.0.1:41234/".
    site_url_prefixed     base URL of built_site served under "/ocho-loco/",
                          e.g. "http://127.0.0.1:41235/ocho-loco/".
    serve_dir             factory serve_dir(directory, prefix="/") -> base URL;
                          serves any folder for the rest of the session.
    chromium_path         str; $CHROMIUM_PATH or a system Chromium (none: fails
                          under CI, skips loudly elsewhere; see tests/needs.py).
    browser               playwright Browser (headless Chromium, fixed flags).

Function-scoped:
    context               fresh BrowserContext (new profile state, es-ES locale).
    page                  Page in that context.
    page_log              PageLog: console messages and page errors of `page`.
    fast_page             `page` with reduced motion (CPU moves and result reveals
                          at once); fails the test on any script or console error.
    request_recorder      RequestRecorder: every request URL `page` makes.
    screenshot            screenshot(name="shot") -> Path, saves a PNG of `page`
                          into test-artifacts/ (git-ignored).

    wait_ready            wait_ready(timeout_ms=90000): waits until the app's
                          Python signals readiness on `page`
                          (``document.body.dataset.ready == "1"``, set by the
                          app's main script as its last step); fails early with
                          PyScript's error text if an error box (``.py-error``)
                          appears instead.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import needs
import pytest

from tools import build as site_build
from tools import chromium as site_chromium
from tools import serve as site_serve

REPO_ROOT = Path(__file__).resolve().parents[2]

PREFIX = "/ocho-loco/"
ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"

CHROMIUM_ARGS = site_chromium.ARGS

# JS expression true once the app's Python has finished booting.
READY_JS = "() => !!document.body && document.body.dataset.ready === '1'"
# ... or once PyScript has shown an error box instead.
READY_OR_ERROR_JS = (
    "() => (!!document.body && document.body.dataset.ready === '1') || !!document.querySelector('.py-error')"
)


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def find_chromium() -> str | None:
    return site_chromium.find()


def wait_for_python(page, timeout_ms: int = 90_000) -> None:
    """Wait for ``document.body.dataset.ready == "1"``; fail on a PyScript error box."""
    page.wait_for_function(READY_OR_ERROR_JS, timeout=timeout_ms)
    error = page.query_selector(".py-error")
    if error is not None and page.evaluate(READY_JS) is False:
        pytest.fail("PyScript error while booting:\n" + error.inner_text())


@dataclass
class RequestRecorder:
    """Collects every request URL made by a page (observation only, no routing)."""

    urls: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def attach(self, page) -> RequestRecorder:
        page.on("request", lambda req: self.urls.append(req.url))
        page.on("requestfailed", lambda req: self.failed.append(req.url))
        return self

    def clear(self) -> None:
        self.urls.clear()
        self.failed.clear()

    def external(self, base_url: str) -> list[str]:
        """Request URLs whose origin differs from base_url's (data:/blob: allowed)."""
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
        return [
            u
            for u in self.urls
            if not u.startswith(("data:", "blob:"))
            and "{0.scheme}://{0.netloc}".format(urlsplit(u)) != origin
        ]

    def paths(self, base_url: str) -> list[str]:
        """Same-origin request paths relative to base_url (e.g. 'vendor/pyodide/pyodide.mjs')."""
        return [u[len(base_url) :] for u in self.urls if u.startswith(base_url)]


@dataclass
class PageLog:
    console: list[tuple[str, str]] = field(default_factory=list)  # (type, text)
    errors: list[str] = field(default_factory=list)  # uncaught page errors

    def attach(self, page) -> PageLog:
        page.on("console", lambda msg: self.console.append((msg.type, msg.text)))
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return self

    def console_errors(self) -> list[str]:
        return [text for kind, text in self.console if kind == "error"]


# --------------------------------------------------------------------------- site


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    prebuilt = os.environ.get("OCHO_SITE_DIR")
    if prebuilt:
        path = Path(prebuilt).resolve()
        assert path.is_dir(), f"OCHO_SITE_DIR={prebuilt} is not a directory"
        return path
    out = tmp_path_factory.mktemp("site") / "_site"
    return site_build.build(out, root=REPO_ROOT, quiet=True).out


@pytest.fixture(scope="session")
def serve_dir():
    servers = []

    def _serve(directory, prefix: str = "/") -> str:
        server, url = site_serve.start_background(directory, prefix=prefix)
        servers.append(server)
        return url

    yield _serve
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(built_site, serve_dir) -> str:
    return serve_dir(built_site, "/")


@pytest.fixture(scope="session")
def site_url_prefixed(built_site, serve_dir) -> str:
    return serve_dir(built_site, PREFIX)


# ------------------------------------------------------------------------ browser


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return needs.require_chromium()


@pytest.fixture(scope="session")
def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # a setup problem, not a reason to skip
        pytest.fail("Python package 'playwright' is not installed (pip install playwright)")
    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="session")
def browser(_playwright, chromium_path):
    # Playwright gives every launch a fresh temporary profile.
    browser = _playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(locale="es-ES", viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(30_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def page_log(page) -> PageLog:
    return PageLog().attach(page)


@pytest.fixture
def fast_page(page, page_log):
    """The test's page with reduced motion; afterwards, no script error may have happened."""
    from helpers import assert_no_errors

    page.emulate_media(reduced_motion="reduce")
    yield page
    assert_no_errors(page_log)


@pytest.fixture
def request_recorder(page) -> RequestRecorder:
    return RequestRecorder().attach(page)


@pytest.fixture
def wait_ready(page):
    """wait_ready(timeout_ms=90000): wait for the app's Python on `page`."""

    def _wait(timeout_ms: int = 90_000) -> None:
        wait_for_python(page, timeout_ms)

    return _wait


@pytest.fixture
def screenshot(page, request):
    """screenshot(name="shot", full_page=True) -> Path in test-artifacts/."""
    test_name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def _shot(name: str = "shot", full_page: bool = True) -> Path:
        ARTIFACTS_DIR.mkdir(exist_ok=True)
        path = ARTIFACTS_DIR / f"{test_name}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return _shot


# Re-exported for test modules: `from conftest import ...` works under pytest's
# rootdir-relative imports, but fixtures above are the preferred interface.
__all__ = [
    "CHROMIUM_ARGS",
    "PREFIX",
    "PageLog",
    "RequestRecorder",
    "find_chromium",
    "wait_for_python",
]
