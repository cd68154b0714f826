"""The hypothesis profiles: ci is deterministic, dev really explores more, budgets never pin a count."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import budget

TESTS = Path(__file__).resolve().parent


def examples_tried(profile: str) -> int:
    """How many examples a property with ``@budget(4)`` tries under ``profile``'s scale."""
    calls: list[int] = []

    @budget(4, profile=profile)
    @given(st.integers())
    def prop(x: int) -> None:
        calls.append(x)

    prop()
    return len(calls)


def test_the_dev_profile_tries_more_examples_than_ci_and_fast_fewer() -> None:
    assert examples_tried("ci") == 4
    assert examples_tried("dev") == 4 * 5
    assert examples_tried("fast") == 1


def test_the_profile_comes_from_the_environment() -> None:
    code = "import profiles; from hypothesis import settings; print(settings().max_examples)"
    env = {**os.environ, "HYPOTHESIS_PROFILE": "dev", "PYTHONPATH": str(TESTS)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert int(done.stdout) == 500


def test_ci_and_fast_are_derandomized_with_no_deadline() -> None:
    for name in ("ci", "fast"):
        profile = settings.get_profile(name)
        assert profile.derandomize and profile.deadline is None
    assert budget(60, profile="ci").max_examples == 60 < budget(60, profile="dev").max_examples


def test_no_test_pins_max_examples_past_the_profile() -> None:
    pinned = []
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if path.name == "profiles.py" or "max_examples" not in source:
            continue  # a keyword argument is spelt out in the text: only such files need parsing
        for node in ast.walk(ast.parse(source)):
            is_settings = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "settings"
            if is_settings and any(k.arg == "max_examples" for k in node.keywords):
                pinned.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert pinned == [], "use profiles.budget(n) so that the dev profile scales it"
