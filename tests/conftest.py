"""Shared test setup: hypothesis profiles and small position builders.

The ``ci`` profile is loaded unless ``HYPOTHESIS_PROFILE`` names another one;
it is derandomized so every run tries the same examples (tests must be
deterministic), and has no deadline because shared CI machines stall.
``dev`` explores fresh random examples for local bug hunting:
``HYPOTHESIS_PROFILE=dev pytest tests``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    print_blob=True,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# ``--doctest-modules`` would import this file a second time under the name
# ``conftest``, which tests/browser/conftest.py also uses (its tests import it
# by that name); this file has no doctests, so keep it out of collection.
collect_ignore = ["conftest.py"]
