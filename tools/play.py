#!/usr/bin/env python3
"""Build and serve the game locally: ``python3 tools/play.py`` (or ``python3 -m tools.play``).

Runs ``npm ci`` if needed, builds ``_site/`` and serves it on
http://127.0.0.1:8000/ (``--port``/``--prefix`` to change).  Stdlib only.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

if __name__ == "__main__" and not __package__:
    # Started as a script, Python put tools/ on sys.path, not the repository: run again as
    # the module `python3 -m tools.play` from the repository root, where `tools` is a package.
    os.chdir(Path(__file__).resolve().parent.parent)
    os.execv(sys.executable, [sys.executable, "-m", "tools.play", *sys.argv[1:]])

from tools import build as site_build
from tools import serve as site_serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build _site/ and serve it locally.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="sub-path, e.g. /ocho-loco/")
    parser.add_argument("--out", default="_site")
    args = parser.parse_args(argv)
    try:
        result = site_build.build(args.out)
    except site_build.BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    print()
    print("Open the game in your browser:")
    site_serve.serve_forever(result.out, port=args.port, prefix=args.prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
