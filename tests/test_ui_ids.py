"""One place for page ids (ui/ids.py): every id the Python uses exists in index.html, and is named there."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fake_screen import FakeScreen
from support import code_nodes

from ui.ids import PAGE_IDS

ROOT = Path(__file__).resolve().parents[1]
SCREEN_METHODS = {"html", "text", "attr", "dialog", "focus", "_el"}


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name == "name" and value and tag in {"input", "select", "textarea", "button"}:
                self.names.add(value)


def _page() -> _Ids:
    parser = _Ids()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    return parser


def page_ids() -> set[str]:
    return _page().ids


def _text(node: ast.expr) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def ids_in_code() -> dict[str, set[str]]:
    """String ids passed to the screen or to getElementById, and button ids the click handler compares."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "ui").glob("*.py")):
        names: set[str] = set()
        for node in code_nodes(path):
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                first = node.args[0]
                if name in SCREEN_METHODS and _text(first):
                    names.add(_text(first))
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "ident":
                for comp in node.comparators:
                    values = comp.elts if isinstance(comp, ast.Tuple) else [comp]
                    names |= {_text(v) for v in values if _text(v)}
        found[path.name] = names
    return found


def test_every_id_named_in_ui_ids_is_on_the_page() -> None:
    missing = PAGE_IDS - page_ids()
    assert not missing, f"ui/ids.py names ids that index.html lacks: {sorted(missing)}"


def test_every_id_the_code_uses_is_named_in_ui_ids() -> None:
    found = ids_in_code()
    for module, names in found.items():
        unknown = names - PAGE_IDS
        assert not unknown, f"ui/{module} uses ids not in ui/ids.py: {sorted(unknown)}"
    assert found["table.py"], "the scan finds the table's ids"


def test_the_fake_screen_refuses_an_id_the_page_does_not_have() -> None:
    screen = FakeScreen()
    screen.text("status", "ok")
    with pytest.raises(AssertionError, match="no-such-id"):
        screen.text("no-such-id", "x")


def test_form_control_names_exist_and_never_reuse_an_id() -> None:
    """``name="table-size"`` (the radios) is not ``id="mesa"`` (the table): one word, one thing."""
    page = _page()
    assert "table-size" in page.names
    assert not page.names & page.ids, f"names that are also ids: {sorted(page.names & page.ids)}"
    selector = re.compile(r"""\[name=["']?([\w-]+)""")
    for path in (ROOT / "assets" / "inline" / "first-paint.js", ROOT / "assets" / "intents.js"):
        used = set(selector.findall(path.read_text(encoding="utf-8")))
        assert used, f"{path.name} reads the table size by the radios' name"
        assert used <= page.names, f"{path.name} selects names the page lacks: {sorted(used - page.names)}"


def test_the_loading_words_send_to_the_rules_where_they_are() -> None:
    """Issue 47, seam 4: «puedes leer las reglas más abajo» while the rules were behind «Reglas»."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    detail = re.search(r'<p class="loading-detail" id="loading-detail">(.*?)</p>', page)
    assert detail is not None
    assert "más abajo" not in detail.group(1) and "en «Reglas»" in detail.group(1)
    assert re.search(
        r'<button type="button" class="bar-btn" aria-controls="textos"[^>]*>Reglas</button>', page
    )
