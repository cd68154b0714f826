"""How the project's own modules import each other: what ships stands apart, and nothing goes round.

Read as an outsider reads the code: every ``import`` anywhere in a file counts,
function-local ones included (they are how a circle hides).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from support import code_nodes

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "ui", "lab", "tools")
SHIPPED = ("engine", "ui")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {
        module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
    }


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` imports (a name imported from a module counts as the module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in code_nodes(path):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            module = target
            while module and module not in known:
                module = module.rpartition(".")[0]
            if module and module != name:
                found.add(module)
    return found


@cache  # read once for the two tests that ask (neither changes it)
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that reach each other (a package's face importing its own modules aside)."""
    reach = {name: set[str]() for name in edges}
    for start, targets in edges.items():
        todo = list(targets)
        while todo:
            name = todo.pop()
            if name not in reach[start]:
                reach[start].add(name)
                todo.extend(edges[name])
    groups: list[list[str]] = []
    for name in sorted(edges):
        group = sorted({name} | {other for other in reach[name] if name in reach[other]})
        own_face = all(member == group[0] or member.startswith(group[0] + ".") for member in group)
        if len(group) > 1 and group not in groups and not own_face:
            groups.append(group)
    return groups


def test_the_circle_finder_finds_a_circle_hidden_in_a_function() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"engine": {"engine.game"}, "engine.game": {"engine"}}) == []


def test_no_import_circle_among_the_project_modules() -> None:
    assert circles(graph()) == []


def test_the_shipped_packages_import_neither_the_tooling_nor_the_lab() -> None:
    leaks = {
        name: sorted(target for target in targets if target.split(".")[0] not in SHIPPED)
        for name, targets in graph().items()
        if name.split(".")[0] in SHIPPED
    }
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_shipped_packages_have_no_command_line_entry_point() -> None:
    found = [
        path.relative_to(ROOT).as_posix()
        for package in SHIPPED
        for path in sorted((ROOT / package).rglob("*.py"))
        if any(
            word in path.read_text(encoding="utf-8") for word in ('__name__ == "__main__"', "import argparse")
        )
    ]
    assert found == []


def test_each_package_docstring_names_every_module_of_it() -> None:
    unnamed = {
        package: [
            path.stem
            for path in sorted((ROOT / package).glob("*.py"))
            if path.stem != "__init__" and f":mod:`{package}.{path.stem}`" not in doc
        ]
        for package in ("engine", "ui", "lab")
        for doc in [ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text("utf-8"))) or ""]
    }
    assert unnamed == {"engine": [], "ui": [], "lab": []}
