"""The built page's Content-Security-Policy (tools/build.py): only the page's own scripts run.

The browser side (the game boots under the policy, an injected ``onerror``
does not run) is tests/browser/test_page_csp.py.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
from pathlib import Path

import pytest

from tools import build_page as page_build

ROOT = Path(__file__).resolve().parent.parent
META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def built_page(tmp_path: Path, page: str | None = None) -> Path:
    """A site folder with the page (the real one by default) and its styles and scripts, as built."""
    (tmp_path / "assets").mkdir()
    shutil.copyfile(ROOT / page_build.STYLESHEET, tmp_path / page_build.STYLESHEET)
    shutil.copytree(ROOT / page_build.STYLE_ROOMS, tmp_path / page_build.STYLE_ROOMS)
    text = (ROOT / "index.html").read_text(encoding="utf-8") if page is None else page
    (tmp_path / "index.html").write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / page_build.INLINE_DIR, tmp_path / page_build.INLINE_DIR)
    page_build.inline_stylesheet(tmp_path)
    page_build.inline_scripts(tmp_path)
    page_build.content_security_policy(tmp_path)
    return tmp_path / "index.html"


def directives(html: str) -> dict[str, list[str]]:
    found = META.findall(html)
    assert len(found) == 1, "one policy"
    policy: dict[str, list[str]] = {}
    for part in found[0].split(";"):
        name, *sources = part.split()
        policy[name] = sources
    return policy


def test_the_policy_comes_first_in_the_head_before_any_script(tmp_path):
    html = built_page(tmp_path).read_text(encoding="utf-8")
    assert html.index("Content-Security-Policy") < html.index("<script")
    assert html.index("Content-Security-Policy") < html.index("</head>")


def test_every_inline_script_of_the_built_page_and_no_other_is_allowed_by_its_hash(tmp_path):
    html = built_page(tmp_path).read_text(encoding="utf-8")
    bodies = [
        m.group(2)
        for m in re.finditer(r"<script([^>]*)>(.*?)</script>", html, re.DOTALL)
        if "src=" not in m.group(1) and 'type="py"' not in m.group(1)
    ]
    assert len(bodies) >= 3, "the head's, the first paint's and the worker's registration"
    wanted = {
        "'sha256-" + base64.b64encode(hashlib.sha256(b.encode()).digest()).decode() + "'" for b in bodies
    }
    script_src = directives(html)["script-src"]
    assert {s for s in script_src if s.startswith("'sha256-")} == wanted
    assert page_build.CSP_HASHES not in html


def test_the_policy_forbids_inline_handlers_and_other_origins(tmp_path):
    policy = directives(built_page(tmp_path).read_text(encoding="utf-8"))
    assert policy["default-src"] == ["'self'"]
    script_src = policy["script-src"]
    assert "'unsafe-inline'" not in script_src and "'unsafe-hashes'" not in script_src
    assert "'strict-dynamic'" not in script_src
    assert [s for s in script_src if not s.startswith("'sha256-")] == [
        "'self'",
        "'wasm-unsafe-eval'",
        "'unsafe-eval'",
    ]
    assert not any(
        s in ("*", "http:", "https:", "data:", "blob:")
        for name, sources in policy.items()
        if name != "worker-src"
        for s in sources
    )
    # PyScript starts the worker mode's worker from a blob: address (its worker code is in core-*.js).
    assert policy["worker-src"] == ["'self'", "blob:"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert "child-src" not in policy, "workers are allowed by worker-src alone"


def test_the_source_page_has_no_inline_handler(tmp_path):
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    assert not re.search(
        r"<[a-z][^>]*\son[a-z]+\s*=", re.sub(r"<script.*?</script>", "", page, flags=re.DOTALL)
    )


@pytest.mark.parametrize(
    "body",
    [
        '<img src="x.png" onerror="go()">',
        '<button type="button" onclick="go()">Robar</button>',
        '<a href="javascript:go()">Reglas</a>',
    ],
)
def test_a_page_with_an_inline_handler_is_refused(tmp_path, body):
    page = (ROOT / "index.html").read_text(encoding="utf-8").replace("</main>", body + "</main>", 1)
    with pytest.raises(page_build.BuildError, match="inline event handler"):
        built_page(tmp_path, page)


def test_a_page_without_the_placeholder_is_refused(tmp_path):
    page = (ROOT / "index.html").read_text(encoding="utf-8").replace(page_build.CSP_HASHES, "")
    with pytest.raises(page_build.BuildError, match="exactly once"):
        built_page(tmp_path, page)
