"""The local server's GitHub Pages mode (tools/serve.py GzipHandler), used to time slow networks."""

from __future__ import annotations

import gzip
import urllib.request
from pathlib import Path

from tools import serve as site_serve


def fetch(url: str, encoding: str | None) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding} if encoding else {})
    with urllib.request.urlopen(request, timeout=10) as response:  # a local test server
        return dict(response.headers.items()), response.read()


def test_text_and_wasm_go_out_gzipped_to_a_browser_that_accepts_it_and_images_as_they_are(tmp_path: Path):
    (tmp_path / "index.html").write_text("<!doctype html>" + "hola " * 500, encoding="utf-8")
    (tmp_path / "x.wasm").write_bytes(b"\0asm" + bytes(4000))
    (tmp_path / "icon.png").write_bytes(b"\x89PNG" + bytes(4000))
    server, base = site_serve.start_background(tmp_path, prefix="/ocho-loco/", handler=site_serve.GzipHandler)
    try:
        for name in ("index.html", "x.wasm"):
            headers, body = fetch(base + name, "gzip, deflate")
            assert headers["Content-Encoding"] == "gzip"
            assert int(headers["Content-Length"]) == len(body) < (tmp_path / name).stat().st_size
            assert gzip.decompress(body) == (tmp_path / name).read_bytes()
        headers, body = fetch(base, "gzip")  # the site's address itself: its index.html, compressed
        assert headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(body) == (tmp_path / "index.html").read_bytes()
        assert fetch(base + "x.wasm", "gzip")[0]["Content-Type"] == "application/wasm"
        headers, body = fetch(base + "icon.png", "gzip")
        assert "Content-Encoding" not in headers and body == (tmp_path / "icon.png").read_bytes()
        headers, body = fetch(base + "index.html", None)
        assert "Content-Encoding" not in headers and body == (tmp_path / "index.html").read_bytes()
    finally:
        server.shutdown()
        server.server_close()
