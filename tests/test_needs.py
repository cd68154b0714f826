"""Under CI a missing Chromium or Node fails the run; elsewhere the tests that need it skip, loudly."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import needs
import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_pytest(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest on ``args`` in a child process, with ``env`` over this one's and no CI unless given."""
    environ = {k: v for k, v in os.environ.items() if k != "CI"} | env
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow  # a child pytest each
def test_under_ci_a_missing_node_fails_the_pyodide_tests(tmp_path: Path) -> None:
    # Node is found on PATH: an empty folder as PATH hides it.
    done = run_pytest(tmp_path, "tests/test_pyodide.py", "-x", PATH=str(tmp_path), CI="true")
    assert done.returncode != 0, done.stdout
    assert "CI: Node.js" in done.stdout


@pytest.mark.slow  # a child pytest each
def test_without_ci_a_missing_node_skips_the_pyodide_tests_and_says_so_last(tmp_path: Path) -> None:
    done = run_pytest(tmp_path, "tests/test_pyodide.py", PATH=str(tmp_path))
    assert done.returncode == 0, done.stdout
    assert "passed" not in done.stdout
    assert re.search(r"\d+ tests did not run: a tool is missing on this machine \(CI fails\)", done.stdout)


@pytest.mark.slow  # a child pytest each
def test_under_ci_a_missing_chromium_fails_the_browser_tests(tmp_path: Path) -> None:
    # An empty prebuilt site: the test fails on Chromium before it would open a page.
    done = run_pytest(
        tmp_path,
        "tests/browser/test_page_quality.py",
        "-k",
        "accessibility",
        CI="true",
        CHROMIUM_PATH=str(tmp_path / "no-chromium"),
        OCHO_SITE_DIR=str(tmp_path),
    )
    assert done.returncode != 0, done.stdout
    assert "CI: Chromium" in done.stdout


def test_a_missing_tool_fails_under_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI: Chromium"):
        monkeypatch.setenv("CHROMIUM_PATH", "/nonexistent/chromium")
        needs.require_chromium()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match=needs.MISSING):
        needs.require_chromium()
