"""A smaller ``python_stdlib.zip``: only the standard-library modules the page can import.

The build (:mod:`tools.build`) calls :func:`trim_stdlib`; the command
``python -m tools.stdlib`` (:mod:`tools.stdlib`) lists what is kept and
plays a game in Chromium to find what a session imports.

Pyodide's archive holds the whole standard library (about 2.5 MB, already
deflated, so gzip wins nothing on it). The game needs a small part of it. The
build (:mod:`tools.build`) calls :func:`trim_stdlib` to write an archive with
only the modules reachable by ``import`` from:

* the page's own Python (``engine/`` and ``ui/``, as shipped in ``app.zip.xz``);
* PyScript's Python package and the Python snippets inside the PyScript and
  polyscript JavaScript files that are shipped;
* Pyodide's own packages (``pyodide``, ``_pyodide``) and what Python itself
  imports by name while starting or reporting an error (``STARTUP``);
* the modules a real session imported (``SEEN``: written by ``python -m tools.stdlib --probe``,
  which plays a game in Chromium on an untrimmed build and lists
  ``sys.modules``).

"Reachable" is found by reading the sources as text (:func:`imports_in`):
every ``import`` and ``from ... import`` plus ``importlib.import_module("...")``
and ``__import__("...")`` with a literal name. In the page's own Python and
PyScript's, imports anywhere count, inside functions too; inside the standard
library only those that run when a module is imported (:func:`eager_part`),
because a library function that imports something when called (``pdb`` for
``breakpoint()``, ``email`` for an HTTP header) only matters if the game calls
it, and then the probe sees it. Left out even when an import reaches them:
the pure-Python stand-ins for C modules Pyodide builds in (``C_FALLBACKS``,
such as ``_pydatetime``), which load only when the C module is missing. The
text is read with regular expressions, not ``ast``, because the archive is
Python 3.14 source and the build may run on an older Python. The whole
browser suite runs against the trimmed archive.

The kept modules are shipped as bytecode, not source: ``node tools/pyc.mjs``
compiles them with Pyodide's own Python (so the bytecode fits it exactly),
without docstrings, asserts and column positions (``optimize=2`` and
``PYTHONNODEBUGRANGES``). Compiling the standard library's source was most of
the page's longest start-up task: with bytecode it is about a third as long
(see the README). The cost is bytes: 1.0 MB instead of 0.8 MB of source, still
well under the 2.5 MB of the whole library.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_STDLIB = Path("node_modules/pyodide/python_stdlib.zip")
PYSCRIPT_PY = Path("node_modules/@pyscript/core/src/stdlib/pyscript")
SEEN = Path("tools/stdlib_seen.txt")
# Where Pyodide mounts the archive (the file names in tracebacks).
STDLIB_IN_PAGE = "/lib/python314.zip"

# Imported by name, not by an import statement the scan can see: the
# interpreter's start-up and error reporting, the codec search (encodings.*
# by name; not "idna", which only names hosts for sockets), and Pyodide's
# loader. Not ``_strptime`` (only ``strptime`` imports it, and the page never
# parses dates that way) nor sysconfig's ``_sysconfigdata_*`` (only
# ``sysconfig``, which the page does not load, reads it).
STARTUP = (
    "site",
    "sitecustomize",
    "os",
    "io",
    "abc",
    "codecs",
    "stat",
    "posixpath",
    "genericpath",
    "_collections_abc",
    "_sitebuiltins",
    "importlib",
    "importlib._bootstrap",
    "importlib._bootstrap_external",
    "importlib.machinery",
    "importlib.util",
    "zipimport",
    "copyreg",
    "warnings",
    "traceback",
    "linecache",
    "tokenize",
    "_colorize",
    "__future__",
    "encodings",
    "encodings.aliases",
    "encodings.ascii",
    "encodings.latin_1",
    "encodings.utf_8",
    "encodings.utf_8_sig",
    "encodings.utf_16",
    "encodings.utf_16_le",
    "encodings.utf_16_be",
    "encodings.utf_32",
    "encodings.raw_unicode_escape",
    "encodings.unicode_escape",
    "encodings.charmap",
    "encodings.cp437",
    "pyodide",
    "_pyodide",
)

# Pure-Python stand-ins a module imports only when a C module is missing
# (``try: from _datetime import * / except ImportError: from _pydatetime
# import *``). Pyodide builds the C module into its interpreter (a test checks
# ``sys.builtin_module_names`` under Pyodide), so the stand-in never loads.
C_FALLBACKS = {"_pydatetime": "_datetime", "_py_abc": "_abc", "_threading_local": "_thread"}

_STATEMENT = re.compile(
    r"(?:^|[;:])[ \t]*(?:from[ \t]+(?P<base>[.\w]+)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n#;]+)"
    r"|import[ \t]+(?P<modules>[^\n#;]+))",
    re.MULTILINE,
)
_BY_NAME = re.compile(r"(?:import_module|__import__)\(\s*['\"]([\w.]+)['\"]")
_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
_BLOCK = re.compile(r"^[ \t]*(async[ \t]+def|def|class)\b")
# Blocks that never run in the page: a script's main part, Windows-only code.
_NEVER = re.compile(
    r"^[ \t]*if[ \t]+(?:__name__[ \t]*==[ \t]*['\"]__main__['\"]"
    r"|_?sys\.platform[ \t]*==[ \t]*['\"]win32['\"]|_?os\.name[ \t]*==[ \t]*['\"]nt['\"])[ \t]*:"
)


def eager_part(source: str) -> str:
    r"""``source`` without the bodies of functions: the lines that run when the module is imported.

    Indentation decides what is inside a ``def`` (a class body runs at import,
    its methods do not). Blocks that cannot run in the page (``if __name__ ==
    "__main__":``, ``if sys.platform == "win32":``) are left out as well.
    Lines of a multi-line string are kept whatever their indentation, which
    can only keep more.

    >>> eager_part("import a\ndef f():\n    import b\nclass C:\n    import c\n")
    'import a\ndef f():\nclass C:\n    import c'
    """
    out: list[str] = []
    blocks: list[tuple[int, bool]] = []  # (indent, skipped: a function or a block that never runs)
    for line in source.splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        while blocks and blocks[-1][0] >= indent:
            blocks.pop()
        if not any(skipped for _, skipped in blocks):
            out.append(line)
        m = _BLOCK.match(line)
        if m:
            blocks.append((indent, m.group(1) != "class"))
        elif _NEVER.match(line):
            blocks.append((indent, True))
    return "\n".join(out)


def imports_in(source: str, module: str = "", is_package: bool = False) -> set[str]:
    r"""Every module name ``source`` may import, resolved against ``module`` for relative imports.

    For ``from a import b`` both ``a`` and ``a.b`` are returned (``b`` may be
    a submodule); names that are not modules are dropped later.

    >>> sorted(imports_in("import os, sys as s\nfrom . import cards\n", "engine.game"))
    ['engine', 'engine.cards', 'os', 'sys']
    """
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for m in _STATEMENT.finditer(source):
        if m.group("modules") is not None:
            for part in m.group("modules").split(","):
                name = part.split(" as ")[0].strip()
                if _NAME.match(name):
                    found.add(name)
            continue
        base = m.group("base")
        dots = len(base) - len(base.lstrip("."))
        if dots:
            parts = package.split(".") if package else []
            if dots - 1 > len(parts):
                continue
            anchor = ".".join(parts[: len(parts) - (dots - 1)])
            rest = base[dots:]
            base = ".".join(p for p in (anchor, rest) if p)
            if not base:
                continue
        found.add(base)
        for part in m.group("names").strip("()").replace("\n", " ").split(","):
            name = part.split(" as ")[0].strip()
            if name and name != "*" and _NAME.match(name):
                found.add(f"{base}.{name}")
    found.update(_BY_NAME.findall(source))
    return found


class Archive:
    """The modules of a standard-library zip, by dotted name, read in one pass."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files: dict[str, str] = {}  # module -> file name in the zip
        self.data: dict[str, bytes] = {}  # file name -> its source
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                name = info.filename
                if not name.endswith(".py"):
                    continue
                parts = list(PurePosixPath(name).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                self.files[".".join(parts)] = name
                self.data[name] = zf.read(info)

    def source(self, module: str) -> str:
        return self.data[self.files[module]].decode("utf-8", errors="replace")

    def is_package(self, module: str) -> bool:
        return self.files[module].endswith("/__init__.py")


def closure(archive: Archive, seeds: Iterable[str], skip: Iterable[str] = ()) -> set[str]:
    """The archive's modules reachable from ``seeds`` (module names), with their parent packages.

    A module in ``skip`` is not followed when an import reaches it, only
    when it is itself a seed.
    """
    keep: set[str] = set()
    seeds = set(seeds)
    skipped = set(skip) - seeds
    todo = list(seeds)
    while todo:
        name = todo.pop()
        # A module's parent packages are imported first.
        parts = name.split(".")
        if parts[0] in skipped:  # also "from _py_abc import ABCMeta", read as _py_abc.ABCMeta
            continue
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if prefix in archive.files and prefix not in keep:
                keep.add(prefix)
                source = eager_part(archive.source(prefix))
                todo.extend(imports_in(source, prefix, archive.is_package(prefix)))
    return keep


def app_sources(root: Path, packages: Iterable[str]) -> list[tuple[str, str, bool]]:
    """(module, source, is_package) of what the page runs: ``packages`` (app.zip.xz's) and PyScript's."""
    out: list[tuple[str, str, bool]] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if "/tests/" in rel:
                continue
            parts = list(PurePosixPath(rel).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            out.append((".".join(parts), path.read_text(encoding="utf-8"), is_package))
    for path in sorted((root / PYSCRIPT_PY).glob("*.py")):
        name = "pyscript" if path.stem == "__init__" else f"pyscript.{path.stem}"
        out.append((name, path.read_text(encoding="utf-8"), path.stem == "__init__"))
    return out


def needed(
    archive: Archive, sources: Iterable[tuple[str, str, bool]], scripts: Iterable[str] = ()
) -> set[str]:
    """The archive's modules the page may import (see the module docstring)."""
    seeds: set[str] = set(STARTUP)
    seeds.update(seen_modules())
    for module, text, is_package in sources:
        seeds.update(imports_in(text, module, is_package))
    for text in scripts:
        seeds.update(imports_in(text))
    return closure(archive, seeds, skip=C_FALLBACKS)


def seen_modules(root: Path = ROOT) -> list[str]:
    """The modules listed in ``SEEN`` (one per line; ``#`` starts a comment)."""
    path = root / SEEN
    if not path.is_file():
        return []
    lines = (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


def write_trimmed(
    archive: Archive, keep: set[str], dest: Path, compiled: dict[str, bytes] | None = None
) -> None:
    """Copy the kept modules' files (and their folders' entries) into ``dest``, in the archive's order.

    With ``compiled`` (file name in the archive -> bytecode), each kept
    ``name.py`` is written as ``name.pyc`` with that bytecode instead: Python
    imports it without compiling the source first.
    """
    wanted = {archive.files[m] for m in keep}
    folders = {str(PurePosixPath(f).parent) + "/" for f in wanted if "/" in f}
    with zipfile.ZipFile(archive.path) as src, zipfile.ZipFile(dest, "w") as out:
        for info in src.infolist():
            if info.filename in folders:
                out.writestr(info, src.read(info), compress_type=info.compress_type)
            elif info.filename in wanted:
                if compiled is None:
                    out.writestr(info, src.read(info), compress_type=info.compress_type)
                    continue
                entry = zipfile.ZipInfo(info.filename + "c", date_time=info.date_time)
                entry.external_attr = info.external_attr
                # Level 9: 16 KB less than the default, and as quick to inflate.
                out.writestr(
                    entry, compiled[info.filename], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9
                )


def compile_with_pyodide(
    root: Path, files: dict[str, bytes], runtime_prefix: str, optimize: int = 2
) -> dict[str, bytes]:
    """Bytecode for each source (relative name -> text), compiled by Pyodide's Python under Node.

    ``runtime_prefix`` is the folder the sources stand for in the page (the
    file names tracebacks show); ``optimize`` is ``py_compile``'s level. Runs
    ``node tools/pyc.mjs``.
    """
    import json  # noqa: PLC0415  # only the build compiles
    import subprocess  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="ocho-pyc-") as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        for name, data in files.items():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes(data)
        done = subprocess.run(
            ["node", str(root / "tools" / "pyc.mjs"), str(src), str(out), runtime_prefix, str(optimize)],
            cwd=root,
            check=True,
            capture_output=True,
            text=True,
        )
        report = json.loads(done.stdout.strip().splitlines()[-1])
        if report.get("compiled") != len(files):
            raise RuntimeError(f"tools/pyc.mjs compiled {report.get('compiled')} of {len(files)} files")
        return {name: (out / (name + "c")).read_bytes() for name in files}


def trim_stdlib(
    root: Path,
    dest: Path,
    packages: Iterable[str],
    js_files: Iterable[Path] = (),
    *,
    compile_pyc: bool = True,
) -> list[str]:
    """Write the trimmed archive to ``dest`` (as bytecode unless ``compile_pyc`` is false).

    ``packages`` are the page's own Python packages (shipped whole in
    ``app.zip.xz``); ``js_files`` are the shipped PyScript files and the page's
    ``assets/runtime.js``, scanned for the Python snippets they run. Returns
    the kept module names, sorted.
    """
    archive = Archive(root / PYODIDE_STDLIB)
    scripts = [path.read_text(encoding="utf-8") for path in js_files]
    keep = needed(archive, app_sources(root, packages), scripts)
    compiled = None
    if compile_pyc:
        files = {archive.files[m]: archive.data[archive.files[m]] for m in keep}
        compiled = compile_with_pyodide(root, files, STDLIB_IN_PAGE)
    write_trimmed(archive, keep, dest, compiled)
    return sorted(keep)
