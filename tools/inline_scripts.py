"""Write index.html's inline scripts to files, so that tsc and eslint check them as they check assets/.

    python -m tools.inline_scripts [OUT]   (default: .cache/inline/)

Each classic ``<script>`` without ``src`` becomes ``index-<n>.js``, in page
order. They run as classic scripts sharing one global scope, which is how tsc
reads files that are not modules; ``tsconfig.inline.json`` checks them with
the names they share declared in ``assets/globals.d.ts``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)


def inline_scripts(page: str) -> list[str]:
    """The bodies of the page's inline classic scripts, in order.

    >>> inline_scripts('<script>a()</script><script type="module" src="m.js"></script><script>b()</script>')
    ['a()', 'b()']
    """
    classic = (m for m in _SCRIPT.finditer(page) if "src=" not in m["attrs"] and "type=" not in m["attrs"])
    return [m["body"] for m in classic]


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / ".cache" / "inline"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("index-*.js"):
        old.unlink()
    bodies = inline_scripts((ROOT / "index.html").read_text(encoding="utf-8"))
    for n, body in enumerate(bodies, 1):
        head = f"// index.html's inline script {n} (tools/inline_scripts.py)\n"
        (out / f"index-{n}.js").write_text(head + body, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
