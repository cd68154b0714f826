"""Smoke test of the vendored browser runtime, independent of the app.

Serves the built site's ``vendor/`` next to a tiny inline page that boots
PyScript + Pyodide from the local copies, unpacks a zipped package via the
``files`` config and writes into the DOM.  Checks that nothing is fetched
from another origin, also under the ``/ocho-loco/`` sub-path.
"""

from __future__ import annotations

import json
import shutil
import time

import pytest

from tools import build as site_build
from tools.build import write_deterministic_zip

CONFIG = {
    "interpreter": "./vendor/pyodide/pyodide.mjs",
    "files": {"./smoke.zip": "./*"},
}

PAGE = """<!doctype html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <title>Prueba de arranque</title>
  <link rel="icon" href="data:,">
  <link rel="modulepreload" href="./vendor/pyodide/pyodide.mjs">
  <link rel="preload" href="./vendor/pyodide/pyodide.asm.wasm" as="fetch" type="application/wasm" crossorigin>
  <link rel="preload" href="./vendor/pyodide/python_stdlib.zip" as="fetch" crossorigin>
  <link rel="stylesheet" href="./vendor/pyscript/core.css">
  <script type="module" src="./vendor/pyscript/core.js"></script>
</head>
<body>
  <p id="out">Cargando…</p>
  <script type="py" config="./pyscript.json">
import smokepkg
from pyscript import document
document.getElementById("out").textContent = smokepkg.greeting()
document.body.dataset.ready = "1"
  </script>
</body>
</html>
"""

SMOKE_INIT = b"""import sys


def greeting():
    v = sys.version_info
    return f"Hola desde Python {v.major}.{v.minor} ({sys.platform})"
"""


@pytest.fixture(scope="session")
def smoke_dir(built_site, tmp_path_factory):
    root = tmp_path_factory.mktemp("smoke")
    shutil.copytree(built_site / "vendor", root / "vendor")
    (root / "index.html").write_text(PAGE, encoding="utf-8")
    (root / "pyscript.json").write_text(json.dumps(CONFIG), encoding="utf-8")
    write_deterministic_zip(root / "smoke.zip", [("smokepkg/__init__.py", SMOKE_INIT)])
    return root


@pytest.mark.parametrize("prefix", ["/", "/ocho-loco/"])
def test_runtime_boots_offline(  # noqa: PLR0917 (pytest fixtures)
    prefix, smoke_dir, serve_dir, page, page_log, request_recorder, wait_ready, screenshot
):
    base = serve_dir(smoke_dir, prefix)
    start = time.monotonic()
    page.goto(base)
    wait_ready()
    boot_s = time.monotonic() - start
    print(f"boot under {prefix}: {boot_s:.2f}s")

    assert page.inner_text("#out") == "Hola desde Python 3.14 (emscripten)"
    assert request_recorder.external(base) == []
    assert request_recorder.failed == []
    assert page_log.errors == []
    assert page_log.console_errors() == []
    paths = request_recorder.paths(base)
    # Preloaded files must be reused, not fetched twice.
    assert len(paths) == len(set(paths)), paths
    for needed in ("vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/python_stdlib.zip", "smoke.zip"):
        assert needed in paths
    screenshot(prefix.strip("/") or "root")


def test_site_has_only_runtime_files(built_site):
    files = [p.relative_to(built_site).as_posix() for p in built_site.rglob("*") if p.is_file()]
    assert not [f for f in files if f.endswith(".map") or "node_modules" in f or "__pycache__" in f]
    vendor_pyodide = sorted(f for f in files if f.startswith("vendor/pyodide/"))
    assert vendor_pyodide == sorted(
        "vendor/pyodide/" + n
        for n in (
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
        )
    )
    assert "vendor/pyscript/core.js" in files and "vendor/pyscript/core.css" in files
    with site_build.open_app_archive(built_site / site_build.APP_ARCHIVE) as zf:
        names = zf.namelist()
    assert names == sorted(names)
    assert all(n.endswith(".pyc") and n.split("/")[0] in ("engine", "ui") for n in names)  # bytecode


def test_build_is_deterministic(repo_root, built_site, tmp_path):
    """A second build of the same checkout is the session's site, byte for byte."""
    from tools.build import build

    b = build(tmp_path / "b", root=repo_root, run_npm=False, quiet=True)
    files = sorted(p.relative_to(built_site) for p in built_site.rglob("*") if p.is_file())
    assert files == b.files
    for rel in files:
        assert (built_site / rel).read_bytes() == (b.out / rel).read_bytes(), rel
