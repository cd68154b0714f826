#!/usr/bin/env python3
"""Build the deployable static site folder (default ``_site/``).

Usage::

    python3 tools/build.py [--out _site] [--no-npm] [--quiet]

Stdlib only.  The output folder is exactly what gets deployed:

* ``index.html`` and a few optional root files (web manifest, favicon, ...);
  the page gets its styles and its classic scripts written into it, and the
  hashes of its inline scripts into its Content-Security-Policy
  (:mod:`tools.build_page`)
* ``assets/`` (if it exists), but for what the page took in (``style.css``,
  ``css/``, ``inline/``) and the types for tsc
* ``app.zip.xz``: the Python modules ``engine/**.py`` and ``ui/**.py`` as
  bytecode (``.pyc`` in place of each ``.py``, compiled by Pyodide under Node)
  in one deterministic zip, whole: the two packages are exactly what the page
  runs (research and measurement live in ``lab/``).  The zip stores its files
  as they are and the whole of it is xz-compressed, one stream for all the
  modules (a third fewer bytes than a zip deflating each file).  Python's worker
  fetches it while Pyodide loads, and ``assets/runtime.js`` unpacks it into
  Pyodide's working directory (``/home/pyodide``, which is on ``sys.path``).
* ``vendor/pyscript/``: only the PyScript chunks fetched at boot
* ``vendor/pyodide/``: only the Pyodide files fetched at boot, with a
  ``python_stdlib.zip`` cut down to the modules the page can import and
  compiled to bytecode by Pyodide under Node (:mod:`tools.stdlib_trim`), and a
  ``pyodide-lock.json`` without the package list (the page installs no
  packages)
* ``sw.js``: the service worker that precaches all of the above for offline
  play, generated last by ``node tools/sw.mjs`` (Workbox; each file's
  revision is a hash of its content)

No node_modules, tests, caches or source maps end up in the output.  If
``node_modules`` lacks the runtime packages, ``npm ci`` is run first.
The build is deterministic (sorted zip entries, fixed timestamps and modes, fixed xz settings),
so content hashes are stable across builds of the same sources.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import re
import shutil
import subprocess
import sys
import tokenize
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Started as a script, Python put tools/ on sys.path, not the repository: run again as
    # the module `python3 -m tools.build` from the repository root (``--out`` is relative to it anyway).
    import os

    os.chdir(Path(__file__).resolve().parent.parent)
    os.execv(sys.executable, [sys.executable, "-m", "tools.build", *sys.argv[1:]])

from tools.build_page import BuildError as BuildError  # noqa: PLC0414 (callers catch tools.build.BuildError)
from tools.build_page import content_security_policy, inline_scripts, inline_stylesheet, preload_modules
from tools.stdlib_trim import compile_with_pyodide, trim_stdlib

ROOT = Path(__file__).resolve().parent.parent

# Python packages shipped to the browser whole (inside APP_ARCHIVE).
PY_PACKAGES = ("engine", "ui")
APP_ARCHIVE = "app.zip.xz"
# The module that loads Pyodide in Python's worker and unpacks APP_ARCHIVE there.
RUNTIME_MODULE = "assets/runtime.js"
# Where the page's worker unpacks APP_ARCHIVE (Pyodide's working folder; tracebacks name it).
APP_IN_PAGE = "/home/pyodide"

# Config files, in order of preference (JSON avoids fetching the TOML parser). The page needs none:
# its <py-config> is inline in index.html and assets/page.js gives the worker its own.
CONFIG_FILES = ("pyscript.json", "pyscript.toml")

# Optional files copied from the repo root when present.
ROOT_FILES = ("index.html", "manifest.webmanifest", "favicon.ico", "favicon.svg", "robots.txt")
ASSET_DIRS = ("assets",)

SW_SCRIPT = Path("tools/sw.mjs")  # writes <out>/sw.js

PYSCRIPT_DIST = Path("node_modules/@pyscript/core/dist")
PYODIDE_DIST = Path("node_modules/pyodide")

# PyScript 0.7.x: entry files plus the hashed chunks that are fetched when
# PyScript starts on the page and starts a PyWorker (observed in Chromium).  Chunks are
# matched by name prefix so a re-hash of the same version still works; the
# static-import closure of these files is added automatically.
PYSCRIPT_ENTRY = ("core.js", "core.css")
PYSCRIPT_BOOT_CHUNKS = (
    "core-",
    "deprecations-manager-",
    "donkey-",
    "error-",
    "py-editor-",  # plugin stubs core imports unless a config turns them off (index.html's
    "py-game-",  # <py-config> and <mpy-config> do; small, still shipped; the heavy
    "py-terminal-",  # codemirror/xterm chunks they load lazily are NOT shipped)
)
PYSCRIPT_TOML_CHUNKS = ("toml-",)  # only fetched when the config is TOML

# Pyodide 0.29+/314.x: files fetched by loadPyodide() (observed in Chromium).
PYODIDE_BOOT_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

SKIP_DIRS = {"__pycache__", "tests", "test", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
SKIP_SUFFIXES = (".map", ".pyc", ".pyo")
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass
class BuildResult:
    out: Path
    files: list[Path] = field(default_factory=list)  # relative to out, sorted

    def total_bytes(self) -> int:
        return sum((self.out / f).stat().st_size for f in self.files)


def log(msg: str, quiet: bool) -> None:
    if not quiet:
        print(msg, flush=True)


def ensure_node_modules(root: Path = ROOT, quiet: bool = False) -> None:
    """Run ``npm ci`` if the runtime packages are not installed."""
    needed = [
        root / PYSCRIPT_DIST / "core.js",
        *(root / PYODIDE_DIST / f for f in PYODIDE_BOOT_FILES),
        root / "node_modules" / "workbox-build" / "package.json",
    ]
    if all(p.exists() for p in needed):
        return
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("node_modules is missing and npm is not installed (need Node 20 + npm)")
    log("node_modules is incomplete: running `npm ci` ...", quiet)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=root, check=True)
    missing = [str(p) for p in needed if not p.exists()]
    if missing:
        raise BuildError("still missing after npm ci: " + ", ".join(missing))


def _iter_files(base: Path) -> Iterator[Path]:
    """All files under base, sorted, skipping caches/tests/source maps."""
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if any(part in SKIP_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if path.is_file() and not path.name.endswith(SKIP_SUFFIXES):
            yield path


def _is_test_module(path: Path) -> bool:
    return path.name == "conftest.py" or path.name.startswith("test_") or path.name.endswith("_test.py")


def write_deterministic_zip(
    dest: Path | io.BytesIO, entries: list[tuple[str, bytes]], *, deflate: bool = True
) -> None:
    """Zip with sorted names, fixed timestamps/modes and fixed compression (none without ``deflate``)."""
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(dest, "w") as zf:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = method
            info.create_system = 3  # unix
            info.external_attr = (0o100644 & 0xFFFF) << 16
            zf.writestr(info, data, compress_type=method, compresslevel=9 if deflate else None)


# The app archive's xz settings: the strongest preset, with a dictionary of 1 MiB, which is more
# than the archive unpacked (about 0.8 MB) and all that unpacking it allocates. The preset's own
# 64 MiB dictionary would compress no better and make the decoder in the page ask for 64 MiB.
APP_XZ_FILTERS = ({"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 20},)


def write_app_archive(dest: Path, entries: list[tuple[str, bytes]]) -> None:
    """The app archive: a deterministic zip storing ``entries`` as they are, xz-compressed whole.

    One stream for every file compresses the modules together (they share names and code
    patterns), where a zip deflates each on its own; the page unpacks it with Python's own
    ``lzma`` and ``zipfile`` (``assets/runtime.js``). :func:`open_app_archive` reads it back.
    """
    plain = io.BytesIO()
    write_deterministic_zip(plain, entries, deflate=False)
    dest.write_bytes(
        lzma.compress(plain.getvalue(), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=APP_XZ_FILTERS)
    )


def open_app_archive(path: Path) -> zipfile.ZipFile:
    """The zip inside an app archive written by :func:`write_app_archive`."""
    return zipfile.ZipFile(io.BytesIO(lzma.decompress(path.read_bytes())))


def _ends_statement(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    while tokens[i].type == tokenize.COMMENT:
        i += 1
    return tokens[i].type in (tokenize.NEWLINE, tokenize.ENDMARKER)


def blank_comments_and_docstrings(source: str) -> str:
    r"""``source`` with its comments and docstrings blanked out, every line where it was.

    A docstring becomes ``""`` and a comment nothing, so the code and its
    line numbers (what a traceback in the page shows) stay the same while
    the shipped archive is about a third smaller. The page never reads a
    docstring. A string that is a whole statement counts as a docstring.

    >>> blank_comments_and_docstrings("def f():\n    'Doc,\\\n    two lines.'  # note\n    return 1  # one\n")
    'def f():\n    ""\n\n    return 1\n'
    """
    rows = [list(line) for line in source.splitlines()]
    cuts: list[tuple[tuple[int, int], tuple[int, int], str]] = []  # (start, end, put instead)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    statement_start = True
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.COMMENT:
            cuts.append((tok.start, tok.end, ""))
        elif tok.type == tokenize.STRING and statement_start and _ends_statement(tokens, i + 1):
            cuts.append((tok.start, tok.end, '""'))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            statement_start = tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    for (row, col), (end_row, end_col), instead in reversed(cuts):  # from the end: columns stay right
        if row == end_row:
            rows[row - 1][col:end_col] = list(instead)
            continue
        rows[row - 1][col:] = list(instead)
        for r in range(row, end_row - 1):
            rows[r] = []
        del rows[end_row - 1][:end_col]
    return "".join("".join(line).rstrip() + "\n" for line in rows)


def build_app_archive(
    root: Path, dest: Path, packages: tuple[str, ...] = PY_PACKAGES, *, compiled: bool = True
) -> list[str]:
    """Pack the Python packages' modules (tests left out) into ``dest``; returns their ``.py`` names.

    The archive is :func:`write_app_archive`'s. Comments and docstrings are blanked out
    (:func:`blank_comments_and_docstrings`).
    ``compiled`` (the site's archive) ships each module as bytecode only,
    ``name.pyc`` where ``name.py`` was, compiled by the pinned Pyodide's own
    Python (``tools/pyc.mjs``, at ``optimize=0``: asserts kept, as CPython runs
    them in the tests): Python imports a sourceless ``.pyc`` with no source to
    compile or date to check, and a traceback still names
    ``/home/pyodide/<name>.py`` and its line. Without ``compiled``, the blanked sources.
    """
    entries: list[tuple[str, bytes]] = []
    for pkg in packages:
        pkg_dir = root / pkg
        if not pkg_dir.is_dir():
            continue
        for path in _iter_files(pkg_dir):
            name = path.relative_to(root).as_posix()
            if path.suffix != ".py" or _is_test_module(path):
                continue
            text = blank_comments_and_docstrings(path.read_text(encoding="utf-8"))
            entries.append((name, text.encode("utf-8")))
    names = sorted(name for name, _ in entries)
    if compiled:
        code = compile_with_pyodide(root, dict(entries), APP_IN_PAGE, optimize=0)
        entries = [(name + "c", code[name]) for name, _ in entries]
    write_app_archive(dest, entries)
    return names


def pyscript_files(dist: Path, toml: bool) -> list[str]:
    """Names of the PyScript dist files needed at boot (static-import closure)."""
    names = sorted(p.name for p in dist.iterdir() if p.is_file())
    wanted: list[str] = list(PYSCRIPT_ENTRY)
    prefixes = PYSCRIPT_BOOT_CHUNKS + (PYSCRIPT_TOML_CHUNKS if toml else ())
    for prefix in prefixes:
        matches = [n for n in names if n.startswith(prefix) and n.endswith(".js")]
        if not matches:
            raise BuildError(f"PyScript chunk '{prefix}*.js' not found in {dist} (version changed?)")
        wanted.extend(matches)
    # Add anything statically imported by what we ship.
    seen: set[str] = set()
    queue = [n for n in wanted if n.endswith(".js")]
    while queue:
        name = queue.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (dist / name).read_text(encoding="utf-8")
        # Static imports only: `import ... from "./x.js"` / `import "./x.js"`.
        for match in re.finditer(r"""(?:\bfrom|\bimport)\s*["'](\./[^"']+\.js)["']""", text):
            dep = match.group(1)[2:]
            if dep not in seen and (dist / dep).exists():
                queue.append(dep)
    return sorted(set(wanted) | seen)


def generate_service_worker(root: Path, out: Path, quiet: bool = False) -> None:
    """Write ``out/sw.js`` with Workbox (``node tools/sw.mjs``)."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is not installed (need Node 20 to generate the service worker)")
    proc = subprocess.run(
        [node, str(root / SW_SCRIPT), str(out)], cwd=root, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise BuildError("service worker generation failed:\n" + proc.stderr.strip())
    log(f"sw.js: {proc.stdout.strip()}", quiet)


# Sources the site does not ship: the app icon's drawing, which tools/make_icons.py rasterises. The
# page and its manifest name the PNGs only: to draw an SVG icon (a favicon, the manifest's icon for
# installing), the browser builds a whole document on the page's main thread (docs/worker.md).
SOURCE_ONLY = ("assets/icons/icon.svg",)


def copy_assets(root: Path, out: Path) -> None:
    """Copy ``ASSET_DIRS`` into the site, but for ``SOURCE_ONLY``."""
    for dirname in ASSET_DIRS:
        src_dir = root / dirname
        if src_dir.is_dir():
            for path in _iter_files(src_dir):
                rel = path.relative_to(root)
                if rel.as_posix() in SOURCE_ONLY or rel.name.endswith(".d.ts"):  # types for tsc only
                    continue
                dest = out / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)


def trimmed_lock(source: Path) -> bytes:
    """Pyodide's lock file without its package list: the page loads no package from it.

    The ``info`` part (Pyodide's version, Python's, the platform) stays: the
    loader checks it. With no packages listed, an ``import`` of something not
    shipped fails as any missing module does.
    """
    lock = json.loads(source.read_text(encoding="utf-8"))
    lock["packages"] = {}
    return json.dumps(lock, separators=(",", ":"), sort_keys=True).encode("utf-8")


# The memory snapshot of a returning player's Python (assets/snapshot.js, docs/worker.md). Pyodide's
# snapshot API is private in the pinned 314.0.7: the build checks that the pinned files still have
# what the module relies on, and fails loudly instead of letting a runtime bump slow every return
# visit down without a word.
SNAPSHOT_MODULE = "assets/snapshot.js"
SNAPSHOT_SOURCES = (SNAPSHOT_MODULE, "assets/snapshot-maker.js", RUNTIME_MODULE)
SNAPSHOT_KEY = "OCHO-SNAPSHOT-KEY"
SNAPSHOT_MAX_HEAP = "OCHO-SNAPSHOT-MAX-HEAP"
# (file, what it must contain, why)
SNAPSHOT_API = (
    ("pyodide.mjs", "_loadSnapshot", "loadPyodide's option to restore a snapshot"),
    ("pyodide.asm.mjs", "_makeSnapshot", "loadPyodide's option to make one"),
    ("pyodide.asm.mjs", "makeMemorySnapshot(", "the call that makes it"),
    ("pyodide.asm.mjs", "API.restoreSnapshot=", "the restore"),
    ("pyodide.asm.mjs", "Snapshot build id mismatch", "the check that a snapshot is of this build"),
    ("pyodide.asm.mjs", "=1886286592,", "the snapshot's magic number (assets/snapshot.js reads its header)"),
)
_SNAPSHOT_HEADER = re.compile(r"\b(\w+)=1886286592,(\w+)=48[,;]")


def _leb128(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def wasm_initial_memory(wasm: bytes) -> int:
    r"""The bytes of memory a WebAssembly module starts with, from the memory it declares itself.

    Raises BuildError when the module imports its memory instead, or declares none.

    >>> wasm_initial_memory(b"\0asm\1\0\0\0" + bytes([5, 3, 1, 0, 2]))  # one memory, at least 2 pages
    131072
    """
    if wasm[:4] != b"\0asm":
        raise BuildError("not a WebAssembly module")
    at = 8
    while at < len(wasm):
        section = wasm[at]
        size, at = _leb128(wasm, at + 1)
        if section == 5:  # the memory section: a count, then each memory's flags and initial pages
            count, inner = _leb128(wasm, at)
            if count != 1:
                break
            pages, _ = _leb128(wasm, inner + 1)
            return pages * 65536
        at += size
    raise BuildError(
        "pyodide.asm.wasm declares no memory of its own (imported?): the snapshot's size check is void"
    )


def check_snapshot_api(pyodide_dir: Path) -> int:
    """Check the pinned Pyodide for the private snapshot API; return the largest heap it restores.

    The largest heap is the wasm module's initial memory: Pyodide 314 copies a snapshot into the
    heap a fresh start has, which never grows for it (Pyodide bug #6254).
    """
    for name, needle, why in SNAPSHOT_API:
        if needle not in (pyodide_dir / name).read_text(encoding="utf-8"):
            raise BuildError(
                f"{name} lacks {needle!r} ({why}): the pinned Pyodide changed its private snapshot API"
            )
    if not _SNAPSHOT_HEADER.search((pyodide_dir / "pyodide.asm.mjs").read_text(encoding="utf-8")):
        raise BuildError("pyodide.asm.mjs: the snapshot header is no longer 48 bytes after its magic number")
    return wasm_initial_memory((pyodide_dir / "pyodide.asm.wasm").read_bytes())


def stamp_snapshot(out: Path, pyodide_dir: Path) -> str:
    """Write the snapshot's key and largest heap into the built ``assets/snapshot.js``; return the key.

    The key is the SHA-256 of every file a snapshot depends on: ``app.zip.xz``, the shipped Pyodide
    files (the trimmed standard library among them) and the snapshot's own modules as written. A
    snapshot kept under another key is stale: the page drops it and starts Python from scratch.
    """
    max_heap = check_snapshot_api(pyodide_dir)
    module = out / SNAPSHOT_MODULE
    text = module.read_text(encoding="utf-8")
    if text.count(SNAPSHOT_KEY) != 1 or text.count(SNAPSHOT_MAX_HEAP) != 1:
        raise BuildError(f"{SNAPSHOT_MODULE} must name {SNAPSHOT_KEY} and {SNAPSHOT_MAX_HEAP} once each")
    digest = hashlib.sha256()
    parts = [out / APP_ARCHIVE, *sorted(pyodide_dir.iterdir()), *(out / name for name in SNAPSHOT_SOURCES)]
    for path in parts:
        digest.update(path.relative_to(out).as_posix().encode() + b"\0" + path.read_bytes())
    key = digest.hexdigest()
    module.write_text(
        text.replace(SNAPSHOT_KEY, key).replace(SNAPSHOT_MAX_HEAP, str(max_heap)), encoding="utf-8"
    )
    return key


def build(
    out: str | Path = "_site",
    root: str | Path = ROOT,
    run_npm: bool = True,
    quiet: bool = False,
    *,
    trim: bool = True,
) -> BuildResult:
    """Build the site into ``out`` (relative paths are relative to ``root``).

    ``trim=False`` ships Pyodide's standard library and lock file whole (for
    ``python -m tools.stdlib --probe``, which measures what the page imports).
    """
    root = Path(root).resolve()
    out = Path(out)
    if not out.is_absolute():
        out = root / out
    out = out.resolve()
    if out == root or root.is_relative_to(out):
        raise BuildError(f"refusing to use {out} as output folder")
    if run_npm:
        ensure_node_modules(root, quiet=quiet)

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    # Root files.
    if not (root / "index.html").exists():
        log("WARNING: there is no index.html yet; the site will have no main page.", quiet)
    for name in ROOT_FILES:
        src = root / name
        if src.is_file():
            shutil.copyfile(src, out / name)

    # Config: a PyScript config file at the root, if any (index.html carries the page's own inline).
    config = next((root / c for c in CONFIG_FILES if (root / c).is_file()), None)
    if config is not None:
        shutil.copyfile(config, out / config.name)

    # Assets.
    copy_assets(root, out)
    inline_stylesheet(out)
    inline_scripts(out)
    content_security_policy(out)

    # Python sources.
    py_names = build_app_archive(root, out / APP_ARCHIVE)
    log(f"{APP_ARCHIVE}: {len(py_names)} Python modules", quiet)

    # Vendor: PyScript.
    ps_dist = root / PYSCRIPT_DIST
    ps_out = out / "vendor" / "pyscript"
    ps_out.mkdir(parents=True)
    is_toml = config is not None and config.suffix == ".toml"
    for name in pyscript_files(ps_dist, toml=is_toml):
        shutil.copyfile(ps_dist / name, ps_out / name)
    preload_modules(out)  # the page's modules and PyScript's bundle, all asked for at once

    # Vendor: Pyodide.
    py_dist = root / PYODIDE_DIST
    py_out = out / "vendor" / "pyodide"
    py_out.mkdir(parents=True)
    for name in PYODIDE_BOOT_FILES:
        shutil.copyfile(py_dist / name, py_out / name)
    if trim:
        # PyScript's files, and assets/runtime.js: it unpacks the app with Python's lzma and zipfile.
        scanned = [*sorted(ps_out.glob("*.js")), out / RUNTIME_MODULE]
        kept = trim_stdlib(root, py_out / "python_stdlib.zip", PY_PACKAGES, scanned)
        (py_out / "pyodide-lock.json").write_bytes(trimmed_lock(py_dist / "pyodide-lock.json"))
        log(f"python_stdlib.zip: {len(kept)} modules kept", quiet)

    if (out / SNAPSHOT_MODULE).is_file():
        stamp_snapshot(out, py_out)
        log(f"{SNAPSHOT_MODULE}: stamped with the snapshot's key", quiet)

    # Service worker last: it precaches everything above.
    generate_service_worker(root, out, quiet)

    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    result = BuildResult(out=out, files=files)
    log(f"Site built in {out} ({len(files)} files, {result.total_bytes() / 1e6:.1f} MB)", quiet)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the static site folder.")
    parser.add_argument("--out", default="_site", help="output folder (default: _site)")
    parser.add_argument("--no-npm", action="store_true", help="never run npm ci")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--list", action="store_true", help="list the built files")
    parser.add_argument("--full-stdlib", action="store_true", help="ship Pyodide's whole standard library")
    args = parser.parse_args(argv)
    try:
        result = build(args.out, run_npm=not args.no_npm, quiet=args.quiet, trim=not args.full_stdlib)
    except (BuildError, subprocess.CalledProcessError) as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    if args.list:
        for f in result.files:
            print(f"{(result.out / f).stat().st_size:>10}  {f.as_posix()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
