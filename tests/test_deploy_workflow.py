"""The Pages workflow deploys only what passed the same test command as CI (.ci/run)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def jobs() -> dict[str, str]:
    """Each job's block of text, by name (the workflow's jobs are indented two spaces)."""
    text = WORKFLOW.read_text(encoding="utf-8")
    body = text.split("\njobs:\n", 1)[1]
    parts = re.split(r"^  ([A-Za-z_-]+):\n", body, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def needs(block: str) -> str:
    match = re.search(r"^    needs: *(\S+)", block, flags=re.MULTILINE)
    return match.group(1) if match else ""


def test_the_workflow_runs_the_ci_command_before_building_and_deploying():
    blocks = jobs()
    testing = [name for name, block in blocks.items() if re.search(r"run: *bash \.ci/run\s*$", block, re.M)]
    assert testing == ["test"]
    building = [name for name, block in blocks.items() if "tools/build.py" in block]
    assert building == ["build"]
    assert needs(blocks["build"]) == "test"
    assert needs(blocks["deploy"]) == "build"
    assert "deploy-pages" in blocks["deploy"]
    assert re.search(r'CI: *"?true"?', blocks["test"])


def test_ci_runs_the_readme_test_command():
    assert "bash tools/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
