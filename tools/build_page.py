"""The build's work on the page itself: tools/build.py runs it on the built ``index.html``.

* :func:`inline_stylesheet`: the styles (``assets/style.css`` and the rooms
  of ``assets/css/`` it imports, :func:`stylesheet`) written into one
  ``<style>`` in the page's head;
* :func:`inline_scripts`: the classic scripts of ``assets/inline/`` written
  into the page where it names them;
* :func:`content_security_policy`: the SHA-256 of each inline script of the
  built page written into its Content-Security-Policy;
* :func:`preload_modules`: every module of the page's static import graph
  linked from its head, so that the browser asks for all of them at once.

Stdlib only.
"""

from __future__ import annotations

import base64
import hashlib
import posixpath
import re
import shutil
from pathlib import Path


class BuildError(RuntimeError):
    pass


STYLESHEET = "assets/style.css"
STYLESHEET_LINK = f'<link rel="stylesheet" href="{STYLESHEET}">'
# The stylesheet's rooms: STYLESHEET names each, in cascade order, as ``@import "css/NAME.css";``.
STYLE_ROOMS = "assets/css"
_ROOM_IMPORT = re.compile(r'@import "css/(?P<name>[a-z0-9-]+\.css)";')


def stylesheet(base: Path) -> str:
    """The page's styles as one text: the rooms ``assets/style.css`` imports, in its order.

    ``assets/style.css`` holds comments and ``@import "css/NAME.css";`` lines only; ``base`` is the
    repository or a built site. Raises BuildError for anything else in it, a room it names twice or
    that is missing, and a room of ``assets/css/`` it does not name.
    """
    rooms = base / STYLE_ROOMS
    entry = re.sub(r"/\*.*?\*/", "", (base / STYLESHEET).read_text(encoding="utf-8"), flags=re.DOTALL)
    names: list[str] = []
    for line in entry.splitlines():
        if not line.strip():
            continue
        match = _ROOM_IMPORT.fullmatch(line.strip())
        if not match:
            raise BuildError(
                f'{STYLESHEET} may hold comments and @import "css/NAME.css"; lines only: {line!r}'
            )
        names.append(match["name"])
    if len(set(names)) != len(names):
        raise BuildError(f"{STYLESHEET} names a room twice")
    missing = [name for name in names if not (rooms / name).is_file()]
    if missing:
        raise BuildError(f"{STYLESHEET} names rooms that are not in {STYLE_ROOMS}/: {', '.join(missing)}")
    unnamed = sorted(p.name for p in rooms.glob("*.css") if p.name not in names) if rooms.is_dir() else []
    if unnamed:
        raise BuildError(f"rooms of {STYLE_ROOMS}/ that {STYLESHEET} does not name: {', '.join(unnamed)}")
    return "\n".join((rooms / name).read_text(encoding="utf-8").strip() for name in names)


def inline_stylesheet(out: Path) -> None:
    """Put the page's styles inside the built page instead of files of their own.

    A linked stylesheet holds up the page's scripts and first paint until it
    has arrived: one more request, and on a slow line one more round trip,
    before «Repartir» takes a click (and its rooms, imported, one more each).
    Inlined, the page paints from its own bytes. The sources stay in
    ``assets/style.css`` and the rooms it imports (:func:`stylesheet`); the
    site ships neither. The styles use no ``url()`` or ``@import`` of their own
    (which would resolve against the page instead of ``assets/``): the build
    refuses them.
    """
    page = out / "index.html"
    sheet = out / STYLESHEET
    if not page.is_file() or not sheet.is_file():
        return
    html = page.read_text(encoding="utf-8")
    css = stylesheet(out)
    if html.count(STYLESHEET_LINK) != 1:
        raise BuildError(f"index.html must link {STYLESHEET} exactly once, as {STYLESHEET_LINK}")
    if "url(" in css or "@import" in css or "</style" in css:
        raise BuildError(f"{STYLESHEET} uses url(), @import or '</style': it cannot be inlined in the page")
    page.write_text(html.replace(STYLESHEET_LINK, f"<style>\n{css.strip()}\n</style>"), encoding="utf-8")
    sheet.unlink()
    if (out / STYLE_ROOMS).is_dir():
        shutil.rmtree(out / STYLE_ROOMS)


# The page's classic scripts that must run where they stand, before the first paint: each is a file of
# INLINE_DIR (checked by tsc and eslint as the rest of assets/), named by index.html as
# ``<script src="assets/inline/NAME.js"></script>``, and written into the built page in its place.
INLINE_DIR = "assets/inline"
_INLINE_SCRIPT = re.compile(r'<script src="(?P<src>assets/inline/[a-z0-9-]+\.js)"></script>')


def inline_scripts(out: Path) -> list[str]:
    """Write the page's classic scripts of ``assets/inline/`` into the built page; return their names.

    A classic script with ``src`` stops the parser until it has arrived: one request more before the
    first paint, which waits for the first-paint script (index.html's ``rel="expect"``). Inlined, it
    runs from the page's own bytes, exactly where its ``<script src>`` stood, and the Content-Security-
    Policy allows it by its hash (:func:`content_security_policy`, which runs after this). The sources
    stay in ``assets/inline/``; the site does not ship them separately. The build refuses a script
    that the HTML parser would not end where it ends (one holding ``</script`` or ``<!--``), and a
    file of ``assets/inline/`` that the page does not name.
    """
    page = out / "index.html"
    folder = out / INLINE_DIR
    if not page.is_file():
        return []
    html = page.read_text(encoding="utf-8")
    names: list[str] = []

    def put(match: re.Match[str]) -> str:
        source = out / match["src"]
        if not source.is_file():
            raise BuildError(f"index.html names {match['src']}, which is not there")
        body = source.read_text(encoding="utf-8")
        lowered = body.lower()
        if "</script" in lowered or "<!--" in lowered:
            raise BuildError(f"{match['src']} holds '</script' or '<!--': it cannot be inlined")
        names.append(match["src"])
        return f"<script>\n{body.strip()}\n</script>"

    html = _INLINE_SCRIPT.sub(put, html)
    if len(set(names)) != len(names):
        raise BuildError("index.html names a script of assets/inline/ twice")
    if folder.is_dir():
        unnamed = sorted(
            p.relative_to(out).as_posix()
            for p in folder.iterdir()
            if p.relative_to(out).as_posix() not in names
        )
        if unnamed:
            raise BuildError("scripts of assets/inline/ that index.html does not name: " + ", ".join(unnamed))
        shutil.rmtree(folder)
    page.write_text(html, encoding="utf-8")
    return names


CSP_HASHES = "INLINE-SCRIPT-HASHES"
_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.DOTALL | re.IGNORECASE)
_HANDLER = re.compile(r"""<[a-z][^>]*?(\son[a-z]+\s*=|=\s*["']?\s*javascript:)""", re.IGNORECASE)


def inline_script_hashes(html: str) -> list[str]:
    """The CSP sources (``'sha256-…'``) of the page's inline scripts, in page order.

    An inline script is a ``<script>`` without ``src``; ``<script type="py">``
    is Python that PyScript reads as text, not a script the browser runs.

    >>> inline_script_hashes('<script>go()</script><script type="py">x</script><script src="a.js"></script>')
    ["'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"]
    """
    found = []
    for match in _SCRIPT.finditer(html):
        attrs = match.group("attrs").lower()
        if re.search(r"\bsrc\s*=", attrs) or re.search(r"""\btype\s*=\s*["']?py\b""", attrs):
            continue
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        found.append(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return found


def content_security_policy(out: Path) -> list[str]:
    """Write the hashes of the built page's inline scripts into its Content-Security-Policy.

    The policy is the ``<meta http-equiv="Content-Security-Policy">`` of
    ``index.html``; its ``script-src`` names ``INLINE-SCRIPT-HASHES``, which the
    build replaces with the SHA-256 of each inline script of the built page (the
    stylesheet is inlined first, which leaves the scripts as they are). Any
    other inline script, and every inline event handler (``onerror=``...), is
    refused by the browser. What else it allows, measured in Chromium by
    reading the ``securitypolicyviolation`` events of a strict policy:

    * ``'self'``: every file comes from the site itself, the service worker
      included. No ``data:`` is used.
    * ``worker-src 'self' blob:``: in the worker mode (``assets/page.js``)
      PyScript's ``PyWorker`` starts its worker from a ``blob:`` address (the
      worker's code is bundled in ``core-*.js``); the worker then loads Pyodide
      and the app from the site itself. Nothing else may start from ``blob:``.
    * ``'wasm-unsafe-eval'``: Pyodide compiles ``pyodide.asm.wasm``. The
      snapshot adds nothing: ``assets/snapshot.js`` is imported from ``'self'``,
      its maker is a ``'self'`` module worker, and Cache Storage is outside CSP.
    * ``'unsafe-eval'``: PyScript's core (0.7.x, ``core-*.js``) builds its
      plugins' lifecycle hooks from their source text with ``Function()`` at
      start-up, even with no worker; without it PyScript stops before Python
      starts. It evaluates PyScript's own code, never the page's data.
      Pyodide itself needs no ``'unsafe-eval'``.
    * ``style-src 'unsafe-inline'``: the stylesheet is inlined in the page and
      the hand sets its card count as a style attribute (``--n``). Styles do not
      run script.

    The build refuses a page without exactly one placeholder, or with an
    inline event handler or a ``javascript:`` address (the policy would block
    them in the browser, silently). Returns the hashes.
    """
    page = out / "index.html"
    if not page.is_file():
        return []
    html = page.read_text(encoding="utf-8")
    if html.count(CSP_HASHES) != 1:
        raise BuildError(f"index.html must name {CSP_HASHES} exactly once, in its Content-Security-Policy")
    body = _SCRIPT.sub("", html)  # scripts may mention "on...=" in their code
    handler = _HANDLER.search(body)
    if handler:
        raise BuildError(
            f"index.html has an inline event handler or a javascript: address: {handler.group(0)!r}"
        )
    hashes = inline_script_hashes(html)
    page.write_text(html.replace(CSP_HASHES, " ".join(hashes)), encoding="utf-8")
    return hashes


# The page's module graph, asked for at once. The browser finds a module's static imports only once the
# file naming them has arrived and been read: assets/page.js's own modules one round trip after it,
# PyScript's bundle (behind vendor/pyscript/core.js) one after that, and Python's worker waits for all
# of them. The built page's head links each module of the graph as rel="modulepreload" where
# index.html has MODULES_MARK.
MODULES_MARK = "<!-- MODULES -->"
PAGE_MODULE = "assets/page.js"
_STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["'](?P<path>\.{1,2}/[^"']+\.m?js)["']""")


def module_graph(out: Path, entry: str = PAGE_MODULE) -> list[str]:
    """``entry`` and every module its static imports reach, as paths under ``out``, in the order met."""
    seen = [entry]
    for name in seen:  # grows as it goes: a breadth-first walk
        text = (out / name).read_text(encoding="utf-8")
        for match in _STATIC_IMPORT.finditer(text):
            found = posixpath.normpath(posixpath.join(posixpath.dirname(name), match["path"]))
            if not (out / found).is_file():
                raise BuildError(f"{name} imports {match['path']}, which is not there")
            if found not in seen:
                seen.append(found)
    return seen


def preload_modules(out: Path) -> list[str]:
    """Link every module of the page's graph (:func:`module_graph`) from the built page; return them."""
    page = out / "index.html"
    html = page.read_text(encoding="utf-8")
    if html.count(MODULES_MARK) != 1:
        raise BuildError(f"index.html must hold {MODULES_MARK} exactly once, in its head")
    graph = module_graph(out)
    links = "\n".join(f'<link rel="modulepreload" href="{name}">' for name in graph)
    page.write_text(html.replace(MODULES_MARK, links), encoding="utf-8")
    return graph
