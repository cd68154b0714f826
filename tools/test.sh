#!/usr/bin/env bash
# Run every check and test: lint and types (Python and JavaScript), engine tests, Pyodide and browser tests.
# Installs what it needs into .venv and node_modules on first use (again when
# pyproject.toml or package-lock.json change). Extra arguments go to pytest.
#
#   bash tools/test.sh --fast   the edit-test loop: lint, types, and the engine and UI-flow
#                               tests (no browser, Pyodide or slow marks), hypothesis's `fast` profile
set -euo pipefail
cd "$(dirname "$0")/.."

fast=""
if [ "${1:-}" = "--fast" ]; then
    fast=1
    shift
fi

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
    touch .venv/.installed
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
fi

# The static checks run side by side, each into a log of its own, printed in this order once all
# are done. In the fast loop they run beside pytest (one core each); in the full run, before it.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
check() {  # check NAME COMMAND...: run COMMAND in the background, its output kept under NAME
    local name=$1
    shift
    ( "$@" >"$logs/$name" 2>&1 || echo "FAILED: $*" >>"$logs/$name" ) &
}
# ruff and mypy keep caches of their own; tsc and eslint keep theirs under .cache/ (git-ignored),
# keyed on the files' contents, so an unchanged file is not checked again (a fresh clone has none).
static_checks() {
    check 1-ruff .venv/bin/ruff check .
    check 2-format .venv/bin/ruff format --check .
    check 3-mypy .venv/bin/mypy
    check 4-tsc node_modules/.bin/tsc -p tsconfig.json --incremental --tsBuildInfoFile .cache/tsc/page.tsbuildinfo
    check 5-eslint node_modules/.bin/eslint --no-ignore --cache --cache-strategy content \
        --cache-location .cache/eslint/ assets tools/*.mjs
}
report() {  # print the logs; fail if any check failed
    wait
    local failed=""
    for log in "$logs"/*; do
        echo "== ${log##*/[0-9]-}"
        cat "$log"
        if grep -q "^FAILED: " "$log"; then failed=1; fi
    done
    if [ -n "$failed" ]; then
        echo "static checks failed" >&2
        return 1
    fi
}

if [ -n "$fast" ]; then
    static_checks
    echo "== pytest (fast: no browser, Pyodide or slow tests; the static checks beside it)"
    export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-fast}"
    # The loop compiles the same files again and again: let Python and pytest's assertion
    # rewriting keep their caches (__pycache__/, git-ignored), even where the shell forbids it.
    unset PYTHONDONTWRITEBYTECODE
    status=0
    .venv/bin/python -m pytest -p no:cacheprovider -q -m "not browser and not pyodide and not slow" \
        --ignore=tests/browser "$@" || status=$?
    report || status=1
    exit "$status"
fi

static_checks
report
echo "== pytest"
# Under CI (the CI variable set) a missing Chromium, Node or Pyodide fails the tests that need
# it; elsewhere they are skipped and the last lines say how many (tests/needs.py).
# Four pytest-xdist workers (TEST_WORKERS to change it; 0 runs in this process). The browser part
# keeps both cores of a 2-core machine busy (Chromium's processes counted, docs/measurements.md,
# "The full suite"): what shortens it is less CPU per page start, not more workers.
exec .venv/bin/python -m pytest -p no:cacheprovider -n "${TEST_WORKERS:-4}" "$@"
