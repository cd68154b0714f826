"""The page's own Python as shipped (tools/build.py's app.zip.xz): the same code, fewer bytes."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import types
from pathlib import Path

import pytest

from tools import build as site_build

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(path for package in site_build.PY_PACKAGES for path in (ROOT / package).rglob("*.py"))


def same_code(a: object, b: object) -> bool:
    """Same bytecode, names, constants and line numbers, all the way down."""
    if isinstance(a, types.CodeType):
        return (
            isinstance(b, types.CodeType)
            and a.co_code == b.co_code
            and a.co_names == b.co_names
            and a.co_varnames == b.co_varnames
            and list(a.co_lines()) == list(b.co_lines())
            and len(a.co_consts) == len(b.co_consts)
            and all(same_code(x, y) for x, y in zip(a.co_consts, b.co_consts, strict=True))
        )
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_blanking_comments_and_docstrings_keeps_every_module_the_same_code_on_the_same_lines(path):
    source = path.read_text(encoding="utf-8")
    shipped = site_build.blank_comments_and_docstrings(source)
    assert shipped.count("\n") == source.count("\n")
    assert not any(line.lstrip().startswith("#") for line in shipped.splitlines())
    # What the page runs: docstrings are not kept anyway (optimize=2), the rest must match.
    assert same_code(
        compile(source, str(path), "exec", optimize=2), compile(shipped, str(path), "exec", optimize=2)
    )


def test_a_string_inside_code_is_not_a_docstring_and_stays():
    source = 'x = "# not a comment"\ncall("""two\nlines""")\n"""bare"""  # gone\n'
    assert (
        site_build.blank_comments_and_docstrings(source)
        == 'x = "# not a comment"\ncall("""two\nlines""")\n""\n'
    )


@pytest.mark.slow  # about 1-2 s: the full run's, not the edit loop's
def test_the_archive_ships_the_blanked_sources_and_is_much_smaller(tmp_path):
    dest = tmp_path / "app.zip.xz"
    names = site_build.build_app_archive(ROOT, dest, compiled=False)
    assert "engine/game.py" in names and "ui/worker.py" in names
    with site_build.open_app_archive(dest) as zf:
        game = zf.read("engine/game.py").decode("utf-8")
        raw = sum(len((ROOT / n).read_bytes()) for n in names)
        packed = sum(zf.getinfo(n).file_size for n in names)
    assert game == site_build.blank_comments_and_docstrings(
        (ROOT / "engine/game.py").read_text(encoding="utf-8")
    )
    assert packed < raw * 0.85


def test_the_archive_ships_engine_and_ui_whole_with_no_exclusion_list(tmp_path):
    # engine/ and ui/ are exactly what the page runs: every module of theirs is shipped, and the
    # build keeps no list of files to leave out (research and measurement live in lab/).
    names = site_build.build_app_archive(ROOT, tmp_path / "app.zip.xz", compiled=False)
    assert names == sorted(path.relative_to(ROOT).as_posix() for path in SHIPPED)
    assert not hasattr(site_build, "APP_EXCLUDE")


# Run under Pyodide (tools/pyodide_run.mjs): the built archive unpacked by the page's own code
# (assets/runtime.js's UNPACK, given the archive as a JavaScript Uint8Array as the page gives it: its
# zip written as one file on sys.path), the worker's module imported, and what the import did
# reported as JSON.
IMPORTED_JS = r"""
import base64, builtins, json, os, sys, traceback
from pyodide.ffi import to_js
os.chdir("/home/pyodide")
exec(UNPACK, {"archive": to_js(base64.b64decode(ARCHIVE))})
compiled = []
original = builtins.compile
def counting(source, filename, *args, **kwargs):
    compiled.append(str(filename))
    return original(source, filename, *args, **kwargs)
builtins.compile = counting
import ui.worker
builtins.compile = original
ours = {name: type(module.__spec__.loader).__name__ for name, module in sys.modules.items()
        if name.split(".")[0] in ("engine", "ui")}
from engine.actions import Action
from engine.codes import GameCode
from engine.game import Game
try:
    Game.new(GameCode.parse("a2k7-qm92")).apply(Action.parse("3H"))
except Exception as err:
    frame = traceback.extract_tb(err.__traceback__)[-1]
    where = [frame.filename, frame.lineno, frame.name]
print(json.dumps({"loaders": ours, "compiled": compiled, "where": where}))
"""


@pytest.mark.pyodide
def test_the_page_imports_its_own_code_as_bytecode_and_tracebacks_name_file_and_line(tmp_path):
    """app.zip.xz ships bytecode compiled by the pinned Pyodide: unpacked as the page unpacks it,
    importing the worker compiles none of engine/ or ui/, and an error raised in the engine still
    names its file and line."""
    dest = tmp_path / "app.zip.xz"
    site_build.build_app_archive(ROOT, dest)
    runtime = (ROOT / site_build.RUNTIME_MODULE).read_text(encoding="utf-8")
    unpack = re.search(r"^const UNPACK = `(.*?)`;$", runtime, re.MULTILINE | re.DOTALL)
    assert unpack, "assets/runtime.js names no UNPACK"
    script = IMPORTED_JS.replace("UNPACK", repr(unpack.group(1)))  # first: the archive's text is long
    script = script.replace("ARCHIVE", repr(base64.b64encode(dest.read_bytes()).decode("ascii")))
    done = subprocess.run(
        ["node", str(ROOT / "tools" / "pyodide_run.mjs"), "--no-engine", "-"],
        input=script,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    loaders = report["loaders"]
    assert loaders and set(loaders.values()) == {"zipimporter"}, loaders  # from the zip as it is
    assert [name for name in report["compiled"] if name.startswith("/home/pyodide")] == []
    filename, line, function = report["where"]
    assert filename == "/home/pyodide/engine/game.py"
    source = (ROOT / "engine" / "game.py").read_text(encoding="utf-8").splitlines()
    assert "raise IllegalAction" in source[line - 1], (line, function)
