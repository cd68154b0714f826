"""The trimmed standard library (tools/stdlib_trim.py): what it keeps and why."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import needs
import pytest

from tools import build as site_build
from tools import stdlib_trim

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / stdlib_trim.PYODIDE_STDLIB


def test_imports_are_read_from_every_form_of_import_statement():
    source = (
        "import os, sys as system\n"
        "from json import (\n    loads,\n    dumps as d,\n)\n"
        "if x: import random; from html import escape\n"
        "mod = importlib.import_module('string')\n"
        "def f():\n    import heapq\n"
    )
    found = stdlib_trim.imports_in(source)
    expected = {"os", "sys", "json", "json.loads", "json.dumps", "random", "html", "html.escape"}
    expected |= {"string", "heapq"}
    assert expected <= found


def test_relative_imports_resolve_against_the_module_and_its_package():
    assert "engine.cards" in stdlib_trim.imports_in("from .cards import Card\n", "engine.game")
    assert "engine.cards" in stdlib_trim.imports_in("from . import cards\n", "engine", is_package=True)
    assert "a.c" in stdlib_trim.imports_in("from ..c import x\n", "a.b.m")


def test_the_eager_part_leaves_out_function_bodies_and_blocks_that_never_run_in_the_page():
    source = (
        "import a\n"
        "def f():\n    import b\n"
        "class C:\n    import c\n    def m(self):\n        import d\n"
        "if __name__ == '__main__':\n    import e\n"
        "if sys.platform == 'win32':\n    import f\nelse:\n    import g\n"
        "try:\n    import h\nexcept ImportError:\n    pass\n"
    )
    found = stdlib_trim.imports_in(stdlib_trim.eager_part(source))
    assert {"a", "c", "g", "h"} <= found
    assert not {"b", "d", "e", "f"} & found


@pytest.mark.slow  # about 1-2 s: the full run's, not the edit loop's
def test_the_kept_modules_cover_what_the_page_imports_and_what_a_real_session_loaded():
    needs.require_pyodide_files()
    archive = stdlib_trim.Archive(ARCHIVE)
    keep = stdlib_trim.needed(archive, stdlib_trim.app_sources(ROOT, site_build.PY_PACKAGES))
    # Every standard-library module the game's own Python imports, anywhere in it.
    for module, text, is_package in stdlib_trim.app_sources(ROOT, site_build.PY_PACKAGES):
        for name in stdlib_trim.imports_in(text, module, is_package):
            if name in archive.files:
                assert name in keep, (module, name)
    # Every module the probe saw in a real game (those not built into the interpreter).
    seen = [m for m in stdlib_trim.seen_modules() if m in archive.files]
    assert len(seen) > 100
    assert set(seen) <= keep
    # A module's packages come with it.
    for name in keep:
        parts = name.split(".")
        for i in range(1, len(parts)):
            parent = ".".join(parts[:i])
            assert parent not in archive.files or parent in keep, name
    # And it is a real cut: the test runner, the debugger, e-mail and HTTP stay out.
    assert not {"unittest", "pdb", "doctest", "email", "http.client", "multiprocessing", "tkinter"} & keep
    assert len(keep) < len(archive.files) / 2


def test_a_pure_python_stand_in_stays_out_when_the_page_never_loads_it():
    needs.require_pyodide_files()
    archive = stdlib_trim.Archive(ARCHIVE)
    keep = stdlib_trim.needed(archive, stdlib_trim.app_sources(ROOT, site_build.PY_PACKAGES))
    # datetime, abc and threading import these only when their C module is missing.
    assert {"datetime", "abc", "threading"} <= keep
    assert not set(stdlib_trim.C_FALLBACKS) & keep
    # Reached only through them: left out too.
    assert "_pydatetime" in archive.files and "_strptime" not in keep and "calendar" not in keep
    # A stand-in a session did load would be kept (a seed is never skipped).
    assert "_py_abc" in stdlib_trim.closure(archive, ["abc", "_py_abc"], skip=stdlib_trim.C_FALLBACKS)
    assert "_py_abc" not in stdlib_trim.closure(archive, ["abc"], skip=stdlib_trim.C_FALLBACKS)


@pytest.mark.pyodide
def test_the_c_modules_whose_stand_ins_are_left_out_are_built_into_pyodide():
    wanted = sorted(set(stdlib_trim.C_FALLBACKS.values()))
    done = subprocess.run(
        [
            "node",
            "tools/pyodide_run.mjs",
            "--no-engine",
            "-c",
            f"import sys; print(sorted(set({wanted!r}) - set(sys.builtin_module_names)))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.slow  # about 1-2 s: the full run's, not the edit loop's
def test_the_trimmed_archive_holds_the_kept_files_unchanged(tmp_path):
    needs.require_pyodide_files()
    dest = tmp_path / "python_stdlib.zip"
    kept = stdlib_trim.trim_stdlib(ROOT, dest, site_build.PY_PACKAGES, compile_pyc=False)
    archive = stdlib_trim.Archive(ARCHIVE)
    with zipfile.ZipFile(dest) as small, zipfile.ZipFile(ARCHIVE) as full:
        names = set(small.namelist())
        for module in kept:
            name = archive.files[module]
            assert name in names
            assert small.read(name) == full.read(name)
        assert small.testzip() is None
    assert dest.stat().st_size < ARCHIVE.stat().st_size * 0.5


def test_the_lock_file_keeps_its_version_information_and_lists_no_packages():
    needs.require_pyodide_files()
    source = ROOT / site_build.PYODIDE_DIST / "pyodide-lock.json"
    original = json.loads(source.read_text(encoding="utf-8"))
    trimmed = json.loads(site_build.trimmed_lock(source))
    assert trimmed["info"] == original["info"]
    assert trimmed["packages"] == {}


@pytest.mark.pyodide
def test_the_shipped_archive_is_bytecode_compiled_by_the_pages_own_python(tmp_path):
    dest = tmp_path / "python_stdlib.zip"
    kept = stdlib_trim.trim_stdlib(ROOT, dest, site_build.PY_PACKAGES)
    archive = stdlib_trim.Archive(ARCHIVE)
    with zipfile.ZipFile(dest) as small:
        names = set(small.namelist())
        assert not any(name.endswith(".py") for name in names), "no source left to compile in the page"
        for module in kept:
            data = small.read(archive.files[module] + "c")
            # The header: Pyodide's magic number (3.14: 3600 and up), then flags 0b01,
            # a hash-based pyc that is never checked against a source.
            assert int.from_bytes(data[:2], "little") >= 3600 and data[2:4] == b"\r\n"
            assert int.from_bytes(data[4:8], "little") == 1
