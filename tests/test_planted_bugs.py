"""The planted-bug table (lab/planted_bugs.py) still fits the code: each bug's line is where it says.

A file split or a line moved leaves a bug that plants nothing; the table would then report a bug
"caught" by a run that never had it.
"""

from __future__ import annotations

from pathlib import Path

from lab.planted_bugs import BUGS

ROOT = Path(__file__).resolve().parent.parent


def test_every_planted_bug_finds_its_line_once() -> None:
    counts = {
        (bug.name, path): (ROOT / path).read_text(encoding="utf-8").count(old)
        for bug in BUGS
        for path, old, _ in bug.edits()
    }
    assert len(counts) >= 17
    assert {key: n for key, n in counts.items() if n != 1} == {}
