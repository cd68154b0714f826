"""The built page (tools/build.py): its styles travel inside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import build as site_build

ROOT = Path(__file__).resolve().parent.parent


def make_site(tmp_path: Path, css: str) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "style.css").write_text(css, encoding="utf-8")
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    return tmp_path


def test_the_page_links_its_stylesheet_once_so_the_build_can_inline_it():
    assert (ROOT / "index.html").read_text(encoding="utf-8").count(site_build.STYLESHEET_LINK) == 1


def test_the_styles_are_inlined_in_the_head_and_not_shipped_twice(tmp_path):
    css = (ROOT / "assets" / "style.css").read_text(encoding="utf-8")
    site = make_site(tmp_path, css)
    site_build.inline_stylesheet(site)
    html = (site / "index.html").read_text(encoding="utf-8")
    assert site_build.STYLESHEET_LINK not in html
    head = html[: html.index("</head>")]
    assert f"<style>\n{css.strip()}\n</style>" in head
    assert not (site / "assets" / "style.css").exists()


@pytest.mark.parametrize(
    "css", ["a { background: url(x.png); }", "@import 'more.css';", "p::after { content: '</style>'; }"]
)
def test_styles_that_cannot_move_into_the_page_are_refused(tmp_path, css):
    site = make_site(tmp_path, css)
    with pytest.raises(site_build.BuildError):
        site_build.inline_stylesheet(site)
    assert (site / "assets" / "style.css").exists()
