"""The Pages workflow deploys the very _site/ it built and tested, only after the CI command passed."""

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


def steps(block: str) -> list[str]:
    """A job's steps, each as its text (steps start with ``      - `` under ``steps:``)."""
    listed = block.split("\n    steps:\n", 1)[1]
    return [step for step in re.split(r"^      - ", listed, flags=re.MULTILINE) if step.strip()]


def needs(block: str) -> str:
    match = re.search(r"^    needs: *(\S+)", block, flags=re.MULTILINE)
    return match.group(1) if match else ""


def step_index(job: list[str], pattern: str) -> int:
    found = [i for i, step in enumerate(job) if re.search(pattern, step, flags=re.MULTILINE)]
    assert len(found) == 1, f"one step matching {pattern!r}, found {len(found)}"
    return found[0]


def test_one_job_builds_tests_and_uploads_the_same_site_and_the_deploy_publishes_it():
    blocks = jobs()
    building = [name for name, block in blocks.items() if "tools/build.py" in block]
    assert building == ["test"], "the site is built once, in the job that tests it"
    testing = [name for name, block in blocks.items() if re.search(r"run: *bash \.ci/run\s*$", block, re.M)]
    assert testing == ["test"]
    uploading = [name for name, block in blocks.items() if "upload-pages-artifact" in block]
    assert uploading == ["test"]
    assert needs(blocks["deploy"]) == "test"
    assert "deploy-pages" in blocks["deploy"]
    assert re.search(r'CI: *"?true"?', blocks["test"])

    job = steps(blocks["test"])
    build = step_index(job, r"python3 tools/build\.py --out (\S+)")
    run = step_index(job, r"run: *bash \.ci/run\s*$")
    upload = step_index(job, r"uses: actions/upload-pages-artifact@")
    assert build < run < upload
    out = re.search(r"tools/build\.py --out (\S+)", job[build])
    tested = re.search(r"OCHO_SITE_DIR: *(\S+)", job[run])
    uploaded = re.search(r"path: *(\S+)", job[upload])
    assert out and tested and uploaded
    assert out.group(1) == tested.group(1) == uploaded.group(1), (
        "the tested folder is the built and uploaded one"
    )
    check = step_index(job, r"sha256sum --check")
    assert run < check < upload, "no test changed the folder between the build and the upload"


def test_ci_runs_the_readme_test_command():
    assert "bash tools/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
