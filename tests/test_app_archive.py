"""The page's own Python as shipped (tools/build.py's app.zip): the same code, fewer bytes."""

from __future__ import annotations

import types
import zipfile
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
    dest = tmp_path / "app.zip"
    names = site_build.build_app_archive(ROOT, dest)
    assert "engine/game.py" in names and "ui/worker.py" in names
    with zipfile.ZipFile(dest) as zf:
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
    names = site_build.build_app_archive(ROOT, tmp_path / "app.zip")
    assert names == sorted(path.relative_to(ROOT).as_posix() for path in SHIPPED)
    assert not hasattr(site_build, "APP_EXCLUDE")
