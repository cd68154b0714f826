"""Hypothesis profiles, and per-test example budgets that the profile scales.

``ci`` is loaded unless ``HYPOTHESIS_PROFILE`` names another one. It is
derandomized, so every run tries the same examples (tests must be
deterministic), and has no deadline, because shared machines stall. ``fast``
(``bash tools/test.sh --fast``, the edit-test loop) is ``ci`` with a tenth of
the examples. ``dev`` explores fresh random examples for local bug hunting,
five times as many as ``ci`` tries (:data:`SCALES`)::

    HYPOTHESIS_PROFILE=dev .venv/bin/python -m pytest tests

A test that needs another budget than the profile's default asks for it with
``@budget(n)``, never with ``@settings(max_examples=n)``: an explicit
``max_examples`` would override the profile, and ``dev`` would explore no
more than ``ci``.
"""

from __future__ import annotations

import math
import os
from typing import Any

from hypothesis import HealthCheck, settings

SCALES = {"fast": 0.1, "ci": 1, "dev": 5}
DEFAULT_EXAMPLES = 100  # hypothesis's own default, for tests without a budget
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")

for name in ("fast", "ci"):
    settings.register_profile(
        name,
        derandomize=True,
        deadline=None,
        print_blob=True,
        database=None,
        max_examples=math.ceil(DEFAULT_EXAMPLES * SCALES[name]),
        suppress_health_check=[HealthCheck.too_slow],
    )
settings.register_profile(
    "dev",
    deadline=None,
    print_blob=True,
    max_examples=DEFAULT_EXAMPLES * SCALES["dev"],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(PROFILE)


def budget(max_examples: int, profile: str = PROFILE, **options: Any) -> settings:
    """Settings for a test that tries ``max_examples`` under ``ci``; the profile's scale multiplies it."""
    return settings(max_examples=math.ceil(max_examples * SCALES.get(profile, 1)), **options)
