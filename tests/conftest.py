"""Shared test setup: importing ``tests/profiles.py`` registers and loads the hypothesis profiles."""

from __future__ import annotations

import profiles  # noqa: F401

# ``--doctest-modules`` would import this file a second time under the name
# ``conftest``, which tests/browser/conftest.py also uses (its tests import it
# by that name); this file has no doctests, so keep it out of collection.
collect_ignore = ["conftest.py"]
