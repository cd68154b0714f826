"""Shared test setup: the hypothesis profiles, and what the ``pyodide`` tests need from the machine.

Importing ``tests/profiles.py`` registers and loads the hypothesis profiles.
A test marked ``pyodide`` needs Node.js and Pyodide's files: without them it
fails under CI and is skipped loudly elsewhere (:mod:`needs`); the session's
last lines count every test skipped for want of a tool.
"""

from __future__ import annotations

import needs
import profiles  # noqa: F401

# ``--doctest-modules`` would import this file a second time under the name
# ``conftest``, which tests/browser/conftest.py also uses (its tests import it
# by that name); this file has no doctests, so keep it out of collection.
collect_ignore = ["conftest.py"]


def pytest_collection_modifyitems(config, items):
    """The long tests first (marked ``slow``, then ``pyodide``), in a stable order otherwise.

    pytest-xdist hands the tests out in this order: the long ones start while every worker is free
    and the short ones fill the end, instead of one long test running on alone after the rest (the
    browser tests, collected first from ``tests/browser/``, would otherwise push them to the end).
    """
    items.sort(
        key=lambda item: (item.get_closest_marker("slow") is None, item.get_closest_marker("pyodide") is None)
    )


def pytest_runtest_setup(item):
    if item.get_closest_marker("pyodide") is not None:
        needs.require_node_and_pyodide()


def pytest_terminal_summary(terminalreporter):
    reports = terminalreporter.stats.get("skipped", [])
    lacking = [r for r in reports if needs.MISSING in str(r.longrepr)]
    if lacking:
        terminalreporter.write_sep(
            "!", f"{len(lacking)} tests did not run: a tool is missing on this machine (CI fails)", red=True
        )
