"""How the code finds itself: pytest's ``pythonpath`` setting, never ``sys.path`` edits."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_test_or_tool_edits_sys_path() -> None:
    edits = re.compile(r"sys\.path\.(insert|append|extend)|sys\.path\s*=")
    found = [
        str(path.relative_to(ROOT))
        for folder in ("tests", "tools", "engine", "ui")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != Path(__file__).resolve() and edits.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_play_runs_as_a_script_from_any_folder(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "play.py"), "--help"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Build _site/ and serve it locally." in done.stdout
