"""Time the ``dificil`` level's decisions here or inside Pyodide, to compare the two runtimes.

Usage (the same module under both interpreters)::

    python -m lab.dificil_bench [GAMES]                                      # CPython
    node tools/pyodide_run.mjs --mount lab=lab lab/dificil_bench.py [GAMES]  # Pyodide under Node.js

Runs :func:`lab.engine_bench.bench_dificil` (``GAMES`` dificil-vs-cpu games per
table size, default 4) and prints one JSON line. Both runtimes play the same
games move for move, so the decisions timed are the same ones. Under Node the
CPU clock is read from ``process.cpuUsage()`` (Pyodide's own ``process_time``
is the wall clock), so a busy machine inflates the ``wall`` figures, not the
``cpu`` ones.
"""

from __future__ import annotations

import json
import sys
import time

from lab.engine_bench import bench_dificil


def _node_cpu_seconds() -> float:
    import js  # noqa: PLC0415  # only exists inside Pyodide

    usage = js.process.cpuUsage()
    return float(usage.user + usage.system) / 1e6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    if sys.platform == "emscripten":
        time.process_time = _node_cpu_seconds
    figures = bench_dificil(games, "dificil-bench")
    print(json.dumps({"python": sys.version.split()[0], "platform": sys.platform, "dificil": figures}))


if __name__ == "__main__":
    main()
