"""The build's side of the snapshot (tools/build.py): Pyodide's private API checked, the key stamped.

The browser takes the snapshot path in tests/browser/test_snapshot.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import needs
import pytest

from tools import build as site_build

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pinned(tmp_path) -> Path:
    """A copy of the pinned Pyodide's files that the snapshot depends on."""
    needs.require_pyodide_files()
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in ("pyodide.mjs", "pyodide.asm.mjs"):
        shutil.copyfile(needs.PYODIDE / name, folder / name)
    (folder / "pyodide.asm.wasm").symlink_to(needs.PYODIDE / "pyodide.asm.wasm")  # read only, 9.6 MB
    return folder


def test_the_pinned_pyodide_has_the_snapshot_api_and_restores_a_30_mib_heap(pinned):
    assert site_build.check_snapshot_api(pinned) == 30 * 1024 * 1024


@pytest.mark.parametrize(("name", "needle"), [(name, needle) for name, needle, _ in site_build.SNAPSHOT_API])
def test_a_runtime_without_a_part_of_the_snapshot_api_fails_the_build(pinned, name, needle):
    path = pinned / name
    path.write_text(path.read_text(encoding="utf-8").replace(needle, "gone"), encoding="utf-8")
    with pytest.raises(site_build.BuildError, match="snapshot"):
        site_build.check_snapshot_api(pinned)


def test_a_runtime_whose_wasm_imports_its_memory_fails_the_build(pinned):
    # A module with no memory section of its own: only a type section (id 1) holding no type.
    (pinned / "pyodide.asm.wasm").unlink()  # the link, not the pinned file
    (pinned / "pyodide.asm.wasm").write_bytes(b"\0asm\1\0\0\0" + bytes([1, 1, 0]))
    with pytest.raises(site_build.BuildError, match="declares no memory"):
        site_build.check_snapshot_api(pinned)


def stamped(tmp_path: Path, pinned: Path, app: bytes) -> str:
    out = tmp_path / "site"
    shutil.rmtree(out, ignore_errors=True)
    (out / "assets").mkdir(parents=True)
    for name in site_build.SNAPSHOT_SOURCES:
        shutil.copyfile(ROOT / name, out / name)
    shutil.copytree(pinned, out / "vendor" / "pyodide", symlinks=True)
    (out / site_build.APP_ARCHIVE).write_bytes(app)
    key = site_build.stamp_snapshot(out, out / "vendor" / "pyodide")
    module = (out / site_build.SNAPSHOT_MODULE).read_text(encoding="utf-8")
    assert f'KEY = "{key}"' in module
    assert 'MAX_HEAP = Number("31457280")' in module
    return key


def test_the_snapshot_key_follows_the_app_and_nothing_else(tmp_path, pinned):
    first = stamped(tmp_path, pinned, b"app one")
    assert stamped(tmp_path, pinned, b"app one") == first  # a build of the same files: the same key
    assert stamped(tmp_path, pinned, b"app two") != first  # a new app.zip.xz: the old snapshot is stale
