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
    browser               headless Chromium (fixed flags); every context it opens
                          deals from the running test's fixed seed, so «Repartir»
                          deals the same game on every run, and a failed test's
                          report names the codes its pages dealt.

Function-scoped:
    context               fresh BrowserContext (new profile state, es-ES locale).
    page                  Page in that context.
    page_log              PageLog: console messages and page errors of `page`.
    fast_page             `page` with reduced motion (CPU moves and result reveals
                          at once); fails the test on any script or console error.
    ctx                   a fresh reduced-motion 1280x800 BrowserContext (es-ES,
                          30 s default timeout), for tests that open several pages.
    request_recorder      RequestRecorder: every request URL `page` makes.
    screenshot            screenshot(name="shot") -> Path, saves a PNG of `page`
                          into test-artifacts/ (git-ignored).

    wait_ready            wait_ready(timeout_ms=90000): waits until the app's
                          Python signals readiness on `page`
                          (``document.body.dataset.ready == "1"``, set by the
                          app's main script as its last step); fails early with
                          PyScript's error text if an error box (``.py-error``)
                          appears instead.

Waits and page helpers live in helpers.py; tests import them from there.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

import needs
import pytest
from helpers import PREFIX, assert_no_errors, wait_for_python

from tools import build as site_build
from tools import chromium as site_chromium
from tools import serve as site_serve
from tools.page_driver import PROBE_JS, SEEDED_CRYPTO_JS  # every test page has the probe switch on

# Forced moves by hand unless the test chose (the key absent): see SeededBrowser.new_context.
BY_HAND_JS = """
try {
  if (location.protocol.startsWith("http") && localStorage.getItem("ocho-loco:forzadas") === null) {
    localStorage.setItem("ocho-loco:forzadas", "no");
  }
} catch (err) { /* no storage here: the page says so itself */ }
"""

REPO_ROOT = Path(__file__).resolve().parents[2]

ARTIFACTS_DIR = REPO_ROOT / "test-artifacts"

# The tests' Chromium compiles the runtime's WebAssembly with V8's baseline compiler only
# (Liftoff): by default every fresh page also recompiles the hot part of the 9.6 MB module with
# the optimizing compiler (TurboFan) on background threads, about 1.2–1.5 s of CPU per page start,
# which a test rarely lives long enough to win back. The tier does not change what the code does.
# Test-only: the benchmarks (tools/page_driver.py) measure the browser as a visitor runs it.
# Side by side (docs/measurements.md, "The full suite"): a third less CPU per browser test.
CHROMIUM_ARGS = [*site_chromium.ARGS, "--js-flags=--liftoff-only"]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def find_chromium() -> str | None:
    return site_chromium.find()


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
    # Worded so that pyproject's only_rerun matches it: a crash fails the test's call and
    # then this log's check at teardown, and both must read as a crash to be run again.
    CRASHED: ClassVar[str] = "Page crashed (Chromium's page process died)"

    console: list[tuple[str, str]] = field(default_factory=list)  # (type, text)
    errors: list[str] = field(default_factory=list)  # uncaught page errors

    def attach(self, page) -> PageLog:
        page.on("console", lambda msg: self.console.append((msg.type, msg.text)))
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("crash", lambda _page: self.errors.append(self.CRASHED))
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
    # Under pytest-xdist every worker runs this: the first builds the site into the run's shared
    # temporary folder, holding a lock, and the others wait for it and take the same site.
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    out = shared / "site" / "_site"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out.parent / "built").exists():
            site_build.build(out, root=REPO_ROOT, quiet=True)
            (out.parent / "built").touch()
    return out


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


# Every page deals from a fixed code: the page's randomness (Python's ``random.Random()`` is
# seeded from ``crypto.getRandomValues`` in Pyodide) comes from a generator seeded by the running
# test's name, so «Repartir» deals the same game on every run. A failure prints the codes dealt.
CODES_JS = """() => {
  const shown = document.querySelector("#game-code");
  let saved = "";
  try {
    const record = JSON.parse(localStorage.getItem("ocho-loco:partida") || "{}").record || "";
    saved = record.split(".")[1] || "";
  } catch (err) { saved = "?"; }
  return [shown ? shown.textContent.trim() : "", saved];
}"""


def seed_of(nodeid: str) -> int:
    """A test's fixed seed: the same on every run and every machine."""
    return int.from_bytes(hashlib.sha256(nodeid.encode()).digest()[:4], "big")


@dataclass
class RunningTest:
    """What the pages of the running test share: its fixed seed."""

    seed: int = 1


RUNNING = RunningTest()


class SeededBrowser:
    """The session's Chromium; every context it opens deals from the running test's seed."""

    def __init__(self, launch) -> None:
        self._launch = launch
        self._browser = launch()
        self.contexts: list = []

    def relaunch_if_gone(self) -> None:
        """A new Chromium if the last one died (a crashed test runs again: see pyproject)."""
        if not self._browser.is_connected():
            self._browser = self._launch()

    def close(self) -> None:
        self._browser.close()

    def new_context(self, **kwargs):
        """A context dealing from the test's seed, with the page's probe switch on.

        Its pages leave forced draws and passes to the test (ui.forced's option off, unless a test
        stored «ocho-loco:forzadas» itself): a test that taps «Robar» must not race the table's own
        draw. tests/browser/test_page_play.py plays a hand with the option on.
        """
        ctx = self._browser.new_context(**kwargs)
        ctx.add_init_script(SEEDED_CRYPTO_JS % RUNNING.seed)
        ctx.add_init_script(PROBE_JS)
        ctx.add_init_script(BY_HAND_JS)
        self.contexts.append(ctx)
        return ctx

    def dealt_codes(self) -> list[str]:
        """The game codes shown or saved by every page still open (for a failure report)."""
        codes: list[str] = []
        for ctx in self.contexts:
            for page in getattr(ctx, "pages", []):
                try:
                    shown, saved = page.evaluate(CODES_JS)
                except Exception:
                    continue  # a closed or crashed page has nothing to tell
                for code in (shown, saved):
                    pretty = code.replace("-", "")
                    pretty = f"{pretty[:4]}-{pretty[4:]}" if len(pretty) == 8 else code
                    if code and pretty not in codes:
                        codes.append(pretty)
        return codes

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


_SEEDED: list[SeededBrowser] = []


@pytest.fixture(scope="session")
def browser(_playwright, chromium_path):
    # Playwright gives every launch a fresh temporary profile.
    seeded = SeededBrowser(
        lambda: _playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
    )
    _SEEDED.append(seeded)
    yield seeded
    _SEEDED.remove(seeded)
    seeded.close()


@pytest.fixture(autouse=True)
def _fixed_deals(request):
    """Seed the pages of this test; forget the contexts of the test before."""
    RUNNING.seed = seed_of(request.node.nodeid)
    for seeded in _SEEDED:
        seeded.contexts.clear()
        seeded.relaunch_if_gone()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed and _SEEDED:
        codes = _SEEDED[0].dealt_codes()
        seed = seed_of(item.nodeid)
        report.sections.append(
            ("dealt games", f"seed {seed}; codes on the open pages: {', '.join(codes) or 'none'}")
        )


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
    page.emulate_media(reduced_motion="reduce")
    yield page
    assert_no_errors(page_log)


@pytest.fixture
def ctx(browser):
    """A fresh reduced-motion 1280×800 context, for tests that open pages of their own."""
    context = browser.new_context(
        locale="es-ES", viewport={"width": 1280, "height": 800}, reduced_motion="reduce"
    )
    context.set_default_timeout(30_000)
    yield context
    context.close()


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
