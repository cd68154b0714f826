"""The seam declared once (ui/protocol.py): both sides hold to it, and the page's types follow it.

tsc --checkJs (tools/test.sh) checks assets/page.js against assets/protocol.d.ts:
the events it sends, the operations it handles (every one, by a `never`
check) and the start call's fields. These tests tie that file to the Python
side: it is exactly what ui/protocol.py writes, the worker answers exactly the
declared events, and the page sends each of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools.protocol import TYPES, main
from ui.protocol import EVENTS, OPS, check_event, check_op, typescript
from ui.worker import Session

ROOT = Path(__file__).resolve().parent.parent


def test_the_pages_types_are_written_from_the_declarations() -> None:
    assert TYPES.read_text(encoding="utf-8") == typescript(), "run python -m tools.protocol"
    assert main(["--check"]) == 0


def test_the_worker_answers_every_declared_event_and_no_other() -> None:
    assert set(Session().handlers) == set(EVENTS)


def test_the_page_sends_every_declared_event() -> None:
    page = (ROOT / "assets" / "page.js").read_text(encoding="utf-8")
    sent = set(re.findall(r'kind: "([a-z-]+)"', page))
    assert sent == set(EVENTS)


def test_the_page_handles_every_declared_operation() -> None:
    page = (ROOT / "assets" / "page.js").read_text(encoding="utf-8")
    handled = set(re.findall(r'case "([a-z-]+)":', page))
    assert handled == set(OPS)


def test_a_field_of_the_wrong_type_or_an_undeclared_one_is_caught() -> None:
    check_op(["dialog", "suit-dialog", True])
    with pytest.raises(ValueError, match="show should be bool"):
        check_op(["dialog", "suit-dialog", "yes"])
    with pytest.raises(ValueError, match="undeclared operation"):
        check_op(["timing", 1.5])
    check_event({"kind": "storage", "key": "ocho-loco:partida", "value": None, "today": "2026-12-04"})
    with pytest.raises(ValueError, match="undeclared fields"):
        check_event({"kind": "click", "id": "deal-btn", "bykey": True})
    with pytest.raises(ValueError, match="players should be int"):
        check_event({"kind": "click", "id": "deal-btn", "players": "3"})
