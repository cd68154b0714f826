"""The worker's start imports only what its first batch draws: the rest loads on first use.

Each start runs in a fresh CPython process, as the page's worker starts: ``ui.worker``
imported, a :class:`ui.worker.Session` started as the page starts it, and the project's modules
then in ``sys.modules`` listed. The review («Repaso») with its judge and words, the statistics and
the check of a record's CPU moves are not among them, nor the CPU players while the person has the
first turn; a hint, a review, «Tus partidas» or the CPU's first turn imports them when first asked
for (the tests of those features use them).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Not needed to draw the first table.
ON_FIRST_USE = (
    "engine.review",
    "engine.judge",
    "engine.advice",
    "engine.stats",
    "engine.verify",
    "engine.bots",
)

START = r"""
import json, sys
from ui.worker import Session
fragment = sys.argv[1]
Session().start(json.dumps({
    "storage": {}, "writable": True, "locks": True, "hash": fragment, "url": "http://localhost/",
    "today": "2026-12-02", "reduced": True, "seed": [1, 2, 3, 4], "early": None, "probe": False,
}))
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in ("engine", "ui"))))
"""


def started(fragment: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", START, fragment], cwd=ROOT, capture_output=True, text=True, check=True
    )
    modules: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return modules


@pytest.mark.parametrize("fragment", ["", "#partida=A2K7-QM92&mesa=3"], ids=["first screen", "game link"])
def test_the_first_batch_imports_none_of_the_modules_used_later(fragment: str) -> None:
    modules = started(fragment)
    assert "ui.table" in modules and "engine.game" in modules  # the start did run
    assert [name for name in ON_FIRST_USE if name in modules] == []
