"""What some tests need from the machine (Chromium, Node, Pyodide): under CI a failure, else a loud skip.

CI (the ``CI`` environment variable set, as in ``.github/workflows/pages.yml``)
must never pass with the browser or Pyodide tests left out, so there a missing
tool fails every test that needs it. On a developer's machine the test is
skipped instead, with a reason that starts with :data:`MISSING`; the
session's last lines count those skips (``tests/conftest.py``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest

from tools import chromium

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "node_modules" / "pyodide"
MISSING = "MISSING ON THIS MACHINE:"


def under_ci() -> bool:
    return bool(os.environ.get("CI"))


def missing(what: str) -> NoReturn:
    """Stop the test for want of ``what``: fail under CI, skip loudly elsewhere."""
    if under_ci():
        pytest.fail(f"CI: {what}; these tests must run under CI.", pytrace=False)
    pytest.skip(f"{MISSING} {what} (under CI this fails)")


def require_chromium() -> str:
    """The Chromium the browser tests drive."""
    path = chromium.find()
    if path is None:
        missing("Chromium (set CHROMIUM_PATH or install Debian's chromium: apt-get install -y chromium)")
    return path


def require_pyodide_files() -> None:
    """node_modules/pyodide: the runtime and standard library the page ships."""
    if not (PYODIDE / "pyodide.mjs").is_file() or not (PYODIDE / "python_stdlib.zip").is_file():
        missing("node_modules/pyodide (run npm ci)")


def require_node_and_pyodide() -> None:
    """Node.js and node_modules/pyodide, which run Python as the page does."""
    if shutil.which("node") is None:
        missing("Node.js (the Pyodide tests run Python under node)")
    require_pyodide_files()
