"""The browser suite's own harness: a page whose Chromium process dies is told apart.

Chromium's page process can die under a test for reasons of its own (no assertion of the
test failed). pyproject's ``only_rerun`` runs such a test once more, and only such a test:
these checks hold that pattern to the error Playwright really raises, and show that the
session's browser still opens pages after one of its pages crashed.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from conftest import REPO_ROOT
from playwright.sync_api import Error


def rerun_patterns() -> list[str]:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["pytest"]["ini_options"]["only_rerun"]


def test_only_a_crashed_page_is_run_again(browser):
    context = browser.new_context()
    page = context.new_page()
    crashes: list[bool] = []
    page.on("crash", lambda _page: crashes.append(True))
    with pytest.raises(Error):  # the navigation is aborted by the crash
        page.goto("chrome://crash", timeout=10_000)
    with pytest.raises(Error) as raised:
        page.wait_for_function("() => true", timeout=10_000)
    message = f"{type(raised.value).__name__}: {raised.value}"
    assert crashes, "Chromium did not report the page's crash"
    assert any(re.search(p, message) for p in rerun_patterns()), message
    for failure in ("AssertionError: assert 1 == 2", "TimeoutError: Page.wait_for_function: Timeout"):
        assert not any(re.search(p, failure) for p in rerun_patterns()), failure
    context.close()

    after = browser.new_context()
    assert after.new_page().evaluate("() => 6 * 7") == 42
    after.close()
