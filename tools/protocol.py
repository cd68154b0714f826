"""Write ``assets/protocol.d.ts`` from :mod:`ui.protocol` (the page's side of the seam, typed).

python -m tools.protocol           write it
python -m tools.protocol --check   exit 1 if the file differs from what ui/protocol.py declares
"""

from __future__ import annotations

import sys
from pathlib import Path

from ui.protocol import typescript

TYPES = Path(__file__).resolve().parent.parent / "assets" / "protocol.d.ts"


def main(argv: list[str]) -> int:
    wanted = typescript()
    if "--check" in argv:
        if not TYPES.is_file() or TYPES.read_text(encoding="utf-8") != wanted:
            print(f"{TYPES.name} is stale: run python -m tools.protocol", file=sys.stderr)
            return 1
        return 0
    TYPES.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
