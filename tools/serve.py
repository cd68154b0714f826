#!/usr/bin/env python3
"""Serve a static folder (by default ``_site/``) for local play and tests.

Usage::

    python3 tools/serve.py [--dir _site] [--port 8000] [--prefix /ocho-loco/]

Stdlib only.  Serves correct MIME types for the PyScript/Pyodide runtime
(``.wasm`` must be ``application/wasm`` for streaming compilation), can mount
the site under a sub-path prefix (as on a project page host), is threaded and
logs quietly.

Importable helper for tests::

    from tools.serve import start_background
    server, base_url = start_background("_site", prefix="/ocho-loco/")
    ...
    server.shutdown(); server.server_close()
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import posixpath
import sys
import threading
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".xz": "application/x-xz",
    ".whl": "application/zip",
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}


def normalize_prefix(prefix: str | None) -> str:
    """Return ``"/"`` or ``"/something/"`` (always leading and trailing slash)."""
    prefix = (prefix or "/").strip()
    if not prefix.startswith("/"):
        prefix = "/" + prefix
    if not prefix.endswith("/"):
        prefix += "/"
    return prefix


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static handler with fixed MIME types, optional prefix and quiet logs."""

    prefix = "/"
    verbose = False
    # HTTP/1.1 keep-alive makes the ~15 boot requests noticeably faster.
    protocol_version = "HTTP/1.1"

    def __init__(
        self, *args: Any, directory: str, prefix: str = "/", verbose: bool = False, **kwargs: Any
    ) -> None:
        self.prefix = prefix
        self.verbose = verbose
        super().__init__(*args, directory=directory, **kwargs)

    def _strip_prefix(self) -> bool:
        """Rewrite self.path relative to the prefix; False if outside it."""
        if self.prefix == "/":
            return True
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        if path == self.prefix.rstrip("/"):
            # "/ocho-loco" -> "/ocho-loco/" so relative URLs resolve correctly.
            self.send_response(301)
            self.send_header("Location", self.prefix + (("?" + parsed.query) if parsed.query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self.send_error(404, "Not under prefix " + self.prefix)
            return False
        rest = "/" + path[len(self.prefix) :]
        self.path = urllib.parse.urlunsplit(("", "", rest, parsed.query, ""))
        return True

    def do_GET(self) -> None:
        if self._strip_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._strip_prefix():
            super().do_HEAD()

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        ext = posixpath.splitext(str(path))[1].lower()
        if ext in MIME_TYPES:
            return MIME_TYPES[ext]
        return super().guess_type(path)

    def end_headers(self) -> None:
        # Local dev/test server: always revalidate so rebuilds show up at once.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if self.verbose:
            super().log_message(format, *args)

    def log_error(self, format: str, *args: Any) -> None:
        # Errors go to stderr; a 404 (a probe for a missing file) only when verbose.
        if self.verbose or not (args and args[0] == 404):
            super().log_error(format, *args)


# What GitHub Pages sends gzip-compressed to a browser that accepts it: text types and wasm.
GZIP_SUFFIXES = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".txt", ".wasm")


class GzipHandler(SiteHandler):
    """:class:`SiteHandler` that compresses as GitHub Pages does (for timing slow networks).

    Files with a suffix in ``GZIP_SUFFIXES`` go out gzip-compressed when the
    request accepts it; the rest, and every other request, as before.
    """

    _compressed: ClassVar[dict[tuple[str, float], bytes]] = {}  # shared by every request

    def do_GET(self) -> None:
        if not self._strip_prefix():
            return
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")  # the page itself, compressed as Pages sends it
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.endswith(GZIP_SUFFIXES) and os.path.isfile(path)):
            super(SiteHandler, self).do_GET()
            return
        key = (path, os.path.getmtime(path))
        body = self._compressed.get(key)
        if body is None:
            body = gzip.compress(Path(path).read_bytes(), 6, mtime=0)
            self._compressed[key] = body
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)


@dataclass
class Traffic:
    """What a server sent: ``(path, status, body bytes)`` per response, in order."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    entries: list[tuple[str, int, int]] = field(default_factory=list)

    def add(self, path: str, status: int, size: int) -> None:
        with self.lock:
            self.entries.append((path, status, size))

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()

    def snapshot(self) -> list[tuple[str, int, int]]:
        with self.lock:
            return list(self.entries)


class CountingHandler(SiteHandler):
    """:class:`SiteHandler` that records every response in ``traffic`` (set by :func:`counting`)."""

    traffic: Traffic
    _status = 0

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

    def copyfile(self, source: Any, outputfile: Any) -> None:
        start = source.tell()
        super().copyfile(source, outputfile)
        self.traffic.add(self.path, self._status, source.tell() - start)

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if str(code) != "200":  # 200s are counted with their bodies in copyfile
            self.traffic.add(self.path, int(code) if str(code).isdigit() else 0, 0)
        super().log_request(code, size)


def counting(traffic: Traffic) -> type[CountingHandler]:
    """A :class:`CountingHandler` class that records into ``traffic``."""
    return type("Counting", (CountingHandler,), {"traffic": traffic})


class QuietThreadingHTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Browsers drop keep-alive connections all the time; don't spam tracebacks.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionResetError, BrokenPipeError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def make_server(
    directory: str | os.PathLike[str] = "_site",
    host: str = "127.0.0.1",
    port: int = 8000,
    prefix: str = "/",
    verbose: bool = False,
    *,
    handler: type[SiteHandler] = SiteHandler,
) -> QuietThreadingHTTPServer:
    """Create (but do not start) the server. ``port=0`` picks a free port.

    ``handler`` is :class:`SiteHandler` or a subclass of it (the load benchmark
    and the byte-count test pass one that counts what is sent).
    """
    directory = str(Path(directory).resolve())
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"No such directory to serve: {directory}")
    factory = functools.partial(
        handler, directory=directory, prefix=normalize_prefix(prefix), verbose=verbose
    )
    return QuietThreadingHTTPServer((host, port), factory)


def base_url(server: http.server.HTTPServer, prefix: str = "/") -> str:
    host, port = server.server_address[:2]
    if isinstance(host, bytes):
        host = host.decode()
    return f"http://{host}:{port}{normalize_prefix(prefix)}"


STOP_POLL = 0.05  # seconds between the background server's looks at a shutdown request


def start_background(
    directory: str | os.PathLike[str] = "_site",
    prefix: str = "/",
    host: str = "127.0.0.1",
    port: int = 0,
    verbose: bool = False,
    *,
    handler: type[SiteHandler] = SiteHandler,
) -> tuple[QuietThreadingHTTPServer, str]:
    """Start serving ``directory`` in a daemon thread on a free port.

    Returns ``(server, base_url)``; ``base_url`` ends with the prefix and a
    slash, e.g. ``http://127.0.0.1:41234/ocho-loco/``.  Stop it with
    ``server.shutdown(); server.server_close()``.
    """
    server = make_server(directory, host=host, port=port, prefix=prefix, verbose=verbose, handler=handler)
    # shutdown() waits for the loop to look at its flag again: every 50 ms, not the default 0.5 s.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, name="site-server", daemon=True
    )
    thread.start()
    return server, base_url(server, prefix)


def serve_forever(
    directory: str | os.PathLike[str] = "_site",
    host: str = "127.0.0.1",
    port: int = 8000,
    prefix: str = "/",
    verbose: bool = False,
) -> None:
    server = make_server(directory, host=host, port=port, prefix=prefix, verbose=verbose)
    print(f"Serving {Path(directory).resolve()} at:", flush=True)
    print(f"  {base_url(server, prefix)}", flush=True)
    print("Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the built static site.")
    parser.add_argument("--dir", default="_site", help="folder to serve (default: _site)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="sub-path to mount the site at, e.g. /ocho-loco/")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    serve_forever(args.dir, host=args.host, port=args.port, prefix=args.prefix, verbose=args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
