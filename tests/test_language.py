"""The language policy (README, "Contributing"): what a player reads is Spanish, the rest English.

A heuristic, kept strict enough to catch a Spanish sentence: accented letters, inverted
marks or common Spanish function words, outside «…» (where the product's own words,
such as a button's label, are quoted on purpose).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support import code_nodes

ROOT = Path(__file__).resolve().parents[1]

SPANISH = re.compile(
    r"[áéíóúñ¿¡]|\b(el|la|los|las|del|en|que|con|una|para|por|sin|hay|pero|todavía|sobre)\b", re.IGNORECASE
)
QUOTED = re.compile(r"«[^»]*»")

# Messages a player reads on the page: these stay Spanish.
PLAYER_FACING = frozenset(
    {"IllegalAction", "CodeError", "RecordError", "SaveError", "LinkError"}
    | {"ChallengeError", "HistoryFileError"}
)


def spanish(text: str) -> bool:
    return bool(SPANISH.search(QUOTED.sub("", text)))


def test_the_heuristic_tells_the_languages_apart() -> None:
    assert spanish("palos: cuatro colores, pero la forma es la que manda")
    assert spanish("Sitio construido en _site")
    assert not spanish("the tick is for the eye only: screen readers say «seleccionado»")
    assert not spanish("Site built in _site (40 files, 13.8 MB)")


def test_css_comments_are_english() -> None:
    css = "".join(
        path.read_text(encoding="utf-8")
        for path in [ROOT / "assets" / "style.css", *(ROOT / "assets" / "css").glob("*.css")]
    )
    comments = re.findall(r"/\*.*?\*/", css, re.DOTALL)
    assert len(comments) > 20
    assert [c for c in comments if spanish(c)] == []


def test_html_and_inline_script_comments_are_english() -> None:
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    comments = re.findall(r"<!--.*?-->", page, re.DOTALL)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.DOTALL)
    # The page's classic scripts live in assets/inline/ (the build writes them into the page).
    scripts += [
        path.read_text(encoding="utf-8") for path in sorted((ROOT / "assets" / "inline").glob("*.js"))
    ]
    assert comments and scripts
    for script in scripts:
        comments += re.findall(r"(?<![:\"'])//[^\n]*|/\*.*?\*/", script, re.DOTALL)
    assert [c for c in comments if spanish(c)] == []


def _calls(path: Path) -> list[tuple[str, int, str]]:
    """(called name, line, text) for every string constant passed to a call in ``path``."""
    found = []
    for node in code_nodes(path):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        for arg in node.args:
            for part in ast.walk(arg):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.append((name, node.lineno, part.value))
    return found


@pytest.mark.parametrize("folder", ["tools", "engine", "ui"])
def test_logs_and_developer_exceptions_are_english(folder: str) -> None:
    """Console output and exceptions meant for developers; the page's own messages are exempt."""
    checked = 0
    offenders = []
    for path in sorted((ROOT / folder).glob("*.py")):
        for name, line, text in _calls(path):
            raised = name.endswith(("Error", "Exception")) and name not in PLAYER_FACING
            if raised or name in {"print", "log"}:
                checked += 1
                if spanish(text):
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {name}({text!r})")
    assert checked > 0
    assert offenders == []
