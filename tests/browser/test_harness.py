"""The browser suite's own harness: a page whose Chromium process dies is told apart.

Chromium's page process can die under a test for reasons of its own (no assertion of the
test failed). pyproject's ``only_rerun`` runs such a test once more, and only such a test:
these checks hold that pattern to the error Playwright really raises and to the page log's
own record of the crash (checked again at the test's teardown), and show that the session's
browser still opens pages after one of its pages crashed.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from conftest import REPO_ROOT, PageLog
from playwright.sync_api import Error

pytest_plugins = ["pytester"]


def pytest_options() -> dict:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["pytest"]["ini_options"]


def rerun_patterns() -> list[str]:
    return pytest_options()["only_rerun"]


def rerun_count() -> int:
    return pytest_options()["reruns"]


def test_only_a_crashed_page_is_run_again(browser):
    context = browser.new_context()
    page = context.new_page()
    page_log = PageLog().attach(page)
    with pytest.raises(Error):  # the navigation is aborted by the crash
        page.goto("chrome://crash", timeout=10_000)
    with pytest.raises(Error) as raised:
        page.wait_for_function("() => true", timeout=10_000)
    message = f"{type(raised.value).__name__}: {raised.value}"
    assert page_log.errors == [PageLog.CRASHED], "Chromium did not report the page's crash"
    for said in (message, f"AssertionError: {page_log.errors}"):  # the test, then its teardown
        assert any(re.search(p, said) for p in rerun_patterns()), said
    for failure in ("AssertionError: assert 1 == 2", "TimeoutError: Page.wait_for_function: Timeout"):
        assert not any(re.search(p, failure) for p in rerun_patterns()), failure
    context.close()

    after = browser.new_context()
    assert after.new_page().evaluate("() => 6 * 7") == 42
    after.close()


CRASHING_TEST = """
import pathlib

import pytest

RUNS = pathlib.Path("runs.txt")


@pytest.fixture
def fast_page():
    RUNS.write_text(RUNS.read_text() + "x" if RUNS.exists() else "x")
    first = RUNS.read_text() == "x"
    yield
    if first:  # the page log saw the crash, as PageLog.attach records it
        raise AssertionError([{crash_message!r}])


def test_page(fast_page):
    if RUNS.read_text() == "x":
        raise Exception("Page.wait_for_function: Target crashed")
"""


def test_a_crashed_page_reported_by_its_test_and_its_teardown_runs_again(pytester):
    """A crash fails the test's call and then the page-log check at teardown; both match."""
    pytester.makepyfile(test_crash=CRASHING_TEST.format(crash_message=PageLog.CRASHED))
    options = [f"--only-rerun={p}" for p in rerun_patterns()]
    result = pytester.runpytest(f"--reruns={rerun_count()}", *options)
    outcomes = result.parseoutcomes()
    # The one rerun attempt lists both failed reports (call and teardown) as rerun.
    assert outcomes.get("passed") == 1 and outcomes.get("rerun"), outcomes
    assert not outcomes.get("failed") and not outcomes.get("errors"), outcomes
