"""The end of every benchmark: its result as one JSON document, printed, and written if asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def report(result: dict[str, Any], out: str | None) -> int:
    """Print ``result`` as indented JSON, write it to ``out`` too if given; the exit status (0)."""
    text = json.dumps(result, indent=2)
    print(text)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")
    return 0
