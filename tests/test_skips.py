"""tools/test.sh never skips browser tests silently (tools/skips.py reads pytest's report)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report_without_chromium(tmp_path_factory) -> Path:
    """A real pytest run of one browser test with no Chromium to be found."""
    tmp = tmp_path_factory.mktemp("skips")
    report = tmp / "report.xml"
    env = {**os.environ, "CHROMIUM_PATH": str(tmp / "no-chromium"), "OCHO_SITE_DIR": str(tmp)}
    env.pop("CI", None)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            f"--junitxml={report}",
            "tests/browser/test_first_visit_bytes.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return report


def run_skips(report: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "tools.skips", str(report)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_locally_skipped_browser_tests_end_with_a_loud_line(report_without_chromium):
    result = run_skips(report_without_chromium, ci=False)
    assert result.returncode == 0
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("!!! 1 browser test was SKIPPED")
    assert "Chromium not found" in last


def test_under_ci_skipped_browser_tests_fail(report_without_chromium):
    result = run_skips(report_without_chromium, ci=True)
    assert result.returncode == 1
    assert "SKIPPED" in result.stderr and "not allowed under CI" in result.stderr


def test_a_report_without_skips_says_nothing(tmp_path):
    report = tmp_path / "report.xml"
    report.write_text(
        '<testsuites><testsuite><testcase classname="tests.browser.test_x" name="test_y"/>'
        '<testcase classname="tests.test_rules" name="test_z"><skipped message="slow"/></testcase>'
        "</testsuite></testsuites>",
        encoding="utf-8",
    )
    result = run_skips(report, ci=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
