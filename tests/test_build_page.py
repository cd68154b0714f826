"""The built page (tools/build.py): its styles travel inside it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tools import build as site_build
from tools import build_page as page_build

ROOT = Path(__file__).resolve().parent.parent


def make_site(tmp_path: Path, css: str, entry: str = '@import "css/all.css";\n') -> Path:
    """A site folder with the real page and a stylesheet of one room, ``css``."""
    (tmp_path / page_build.STYLE_ROOMS).mkdir(parents=True)
    (tmp_path / page_build.STYLE_ROOMS / "all.css").write_text(css, encoding="utf-8")
    (tmp_path / page_build.STYLESHEET).write_text("/* the rooms */\n" + entry, encoding="utf-8")
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    return tmp_path


def test_the_page_links_its_stylesheet_once_so_the_build_can_inline_it():
    assert (ROOT / "index.html").read_text(encoding="utf-8").count(page_build.STYLESHEET_LINK) == 1


def test_the_styles_are_inlined_in_the_head_in_their_rooms_order_and_not_shipped_twice(tmp_path):
    site = make_site(tmp_path, "")
    shutil.copyfile(ROOT / page_build.STYLESHEET, site / page_build.STYLESHEET)
    shutil.rmtree(site / page_build.STYLE_ROOMS)
    shutil.copytree(ROOT / page_build.STYLE_ROOMS, site / page_build.STYLE_ROOMS)
    page_build.inline_stylesheet(site)
    html = (site / "index.html").read_text(encoding="utf-8")
    assert page_build.STYLESHEET_LINK not in html
    head = html[: html.index("</head>")]
    named = re.findall(
        r'@import "css/([a-z-]+\.css)";', (ROOT / page_build.STYLESHEET).read_text(encoding="utf-8")
    )
    rooms = [(ROOT / page_build.STYLE_ROOMS / name).read_text(encoding="utf-8").strip() for name in named]
    assert named and f"<style>\n{chr(10).join(rooms)}\n</style>" in head
    assert not (site / page_build.STYLESHEET).exists() and not (site / page_build.STYLE_ROOMS).exists()


@pytest.mark.parametrize(
    "css", ["a { background: url(x.png); }", "@import 'more.css';", "p::after { content: '</style>'; }"]
)
def test_styles_that_cannot_move_into_the_page_are_refused(tmp_path, css):
    site = make_site(tmp_path, css)
    with pytest.raises(page_build.BuildError):
        page_build.inline_stylesheet(site)
    assert (site / "assets" / "style.css").exists()


@pytest.mark.parametrize(
    "entry",
    [
        "",  # all.css named by no one: it would be left out without a word
        '@import "css/all.css";\n@import "css/more.css";\n',  # a room that is not there
        '@import "css/all.css";\n@import "css/all.css";\n',
        '@import "css/all.css";\nbody { margin: 0; }\n',  # styles of its own
    ],
)
def test_a_stylesheet_that_does_not_name_its_rooms_each_once_is_refused(tmp_path, entry):
    site = make_site(tmp_path, "p { margin: 0; }", entry)
    with pytest.raises(page_build.BuildError):
        page_build.inline_stylesheet(site)


def test_the_first_paint_waits_for_the_first_paint_script():
    """The head holds rendering (``rel="expect"``) until the marker just after the first-paint script:
    a returning player's table comes in the first paint, not in a frame of its own after it."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    head, body = page.split("</head>", 1)
    assert '<link rel="expect" href="#first-paint-done" blocking="render">' in head
    script = body.index('<script src="assets/inline/first-paint.js"></script>')
    marker = body.index('<span id="first-paint-done" hidden></span>')
    assert body.index("</script>", script) < marker < body.index('<div id="textos" class="content"')
    assert body[body.index("</script>", script) + len("</script>") : marker].strip() == ""


def test_pyscript_turns_off_the_same_unused_plugins_for_both_of_its_script_types():
    """index.html's <py-config> and <mpy-config> (PyScript reads a config per script type, even with no
    such script on the page) name the same plugins to leave out: with one missing, it loads them all."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    found = re.findall(r"<(?:m?py)-config hidden>(.*?)</m?py-config>", page)
    configs = [json.loads(text) for text in found]
    assert len(configs) == 2 and configs[0] == configs[1]
    assert "!py-editor" in configs[0]["plugins"]
    assert "!error" not in configs[0]["plugins"]  # Python's errors still reach the page


ICON_LINK = re.compile(r"""<link\s+rel="(?:icon|apple-touch-icon)"[^>]*\shref="([^"]+)\"""")


def test_the_page_and_its_manifest_name_png_icons_only():
    # A browser draws an SVG icon by building a whole document for it on the page's main thread
    # (the favicon and the manifest's icon, each 50–70 ms at 4× on a first visit: docs/worker.md).
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    manifest = json.loads((ROOT / "manifest.webmanifest").read_text(encoding="utf-8"))
    named = ICON_LINK.findall(page) + [icon["src"] for icon in manifest["icons"]]
    assert len(ICON_LINK.findall(page)) >= 2
    assert named and all(src.endswith(".png") for src in named), named
    assert all(icon["type"] == "image/png" for icon in manifest["icons"])


def test_the_icon_drawing_stays_a_source_and_is_not_shipped(tmp_path):
    site = make_site(tmp_path, "body { margin: 0; }")
    (site / "assets" / "icons").mkdir()
    (site / "assets" / "icons" / "icon.svg").write_text("<svg/>", encoding="utf-8")
    (site / "assets" / "icons" / "icon-192.png").write_bytes(b"png")
    out = tmp_path / "site"
    site_build.copy_assets(site, out)
    assert (out / "assets" / "icons" / "icon-192.png").exists()
    assert not (out / "assets" / "icons" / "icon.svg").exists()


def test_no_script_written_in_the_page_is_over_twenty_lines():
    """The page's code lives in assets/ (tsc's strict checks and eslint read it there), not in index.html."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    bodies = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page, re.DOTALL)
    assert [len(body.strip().splitlines()) for body in bodies if len(body.strip().splitlines()) > 20] == []


def site_with_scripts(tmp_path: Path, page: str, scripts: dict[str, str]) -> Path:
    (tmp_path / page_build.INLINE_DIR).mkdir(parents=True)
    for name, text in scripts.items():
        (tmp_path / page_build.INLINE_DIR / name).write_text(text, encoding="utf-8")
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    return tmp_path


def test_the_scripts_of_assets_inline_are_written_into_the_page_where_they_stand(tmp_path):
    page = (
        '<p>a</p><script src="assets/inline/one.js"></script><p>b</p><script src="assets/page.js"></script>'
    )
    site = site_with_scripts(tmp_path, page, {"one.js": "// one\ngo();\n"})
    assert page_build.inline_scripts(site) == ["assets/inline/one.js"]
    html = (site / "index.html").read_text(encoding="utf-8")
    assert html == '<p>a</p><script>\n// one\ngo();\n</script><p>b</p><script src="assets/page.js"></script>'
    assert not (site / page_build.INLINE_DIR).exists(), "not shipped twice"


def test_the_real_page_names_every_script_of_assets_inline(tmp_path):
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    scripts = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / page_build.INLINE_DIR).glob("*.js")}
    site = site_with_scripts(tmp_path, page, scripts)
    assert sorted(page_build.inline_scripts(site)) == sorted(f"assets/inline/{name}" for name in scripts)
    assert '<script src="assets/inline/' not in (site / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("page", "scripts"),
    [
        ('<script src="assets/inline/one.js"></script>', {"one.js": "s = '</script>';"}),
        ('<script src="assets/inline/one.js"></script>', {"one.js": "s = '<!--';"}),
        ('<script src="assets/inline/one.js"></script>', {"one.js": "go();", "two.js": "go();"}),
        ('<script src="assets/inline/two.js"></script>', {}),
    ],
)
def test_a_script_that_cannot_move_into_the_page_is_refused(tmp_path, page, scripts):
    site = site_with_scripts(tmp_path, page, scripts)
    with pytest.raises(page_build.BuildError):
        page_build.inline_scripts(site)


def test_the_pages_code_is_in_rooms_under_600_lines():
    """assets/page.js imports its rooms and assets/style.css names its own: no file grows without rooms.

    The Python written here too (the engine, ui/, the tools and the lab; not the generated equity
    table, nor tests/): every hand-written code file is 600 lines at most (issue 45).
    """
    python = [
        path
        for folder in ("engine", "ui", "tools", "lab")
        for path in (ROOT / folder).rglob("*.py")
        if "generated" not in path.read_text(encoding="utf-8")[:600].lower()
    ]
    files = [*(ROOT / "assets").rglob("*.js"), *(ROOT / "assets").rglob("*.css"), *python]
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in files
    }
    assert "assets/page.js" in sizes and "assets/css/table.css" in sizes
    assert {name: lines for name, lines in sizes.items() if lines > 600} == {}


def test_the_built_page_asks_for_every_module_of_its_graph_at_once(tmp_path):
    # The real page and assets/, PyScript's bundle as the build copies it: the head links page.js,
    # each module it imports (and theirs) and PyScript's chunk behind core.js, each once.
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    shutil.copyfile(ROOT / "index.html", tmp_path / "index.html")
    pyscript = tmp_path / "vendor" / "pyscript"
    pyscript.mkdir(parents=True)
    for name in site_build.pyscript_files(ROOT / site_build.PYSCRIPT_DIST, toml=False):
        shutil.copyfile(ROOT / site_build.PYSCRIPT_DIST / name, pyscript / name)
    graph = page_build.preload_modules(tmp_path)
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    head = html[: html.index("</head>")]
    linked = re.findall(r'<link rel="modulepreload" href="([^"]+)">', head)
    ours = sorted(f"assets/{p.name}" for p in (ROOT / "assets").glob("*.js"))
    page_imports = {
        "assets/" + m
        for m in re.findall(
            r'^import .*?"\./([a-z-]+\.js)";', (ROOT / "assets/page.js").read_text(encoding="utf-8"), re.M
        )
    }
    assert linked == graph and len(set(linked)) == len(linked)
    assert {"assets/page.js", "vendor/pyscript/core.js"} <= set(linked)
    assert page_imports <= set(linked)
    assert any(
        re.fullmatch(r"vendor/pyscript/core-[\w-]+\.js", name) for name in linked
    )  # the bundle's chunk
    assert all(name in ours or name.startswith("vendor/pyscript/") for name in linked)
    assert page_build.MODULES_MARK not in html


def test_a_module_graph_naming_a_missing_module_is_refused(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "page.js").write_text('import { a } from "./gone.js";\n', encoding="utf-8")
    with pytest.raises(page_build.BuildError, match=r"gone\.js"):
        page_build.module_graph(tmp_path)
