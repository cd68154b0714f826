"""The seam declared once (ui/protocol.py): both sides hold to it, and the page's types follow it.

tsc --checkJs (tools/test.sh) checks assets/page.js and its rooms against assets/protocol.d.ts:
the intents it sends (their fields and enumerations), the operations it handles
(every one, by a `never` check) and the start call's fields; mypy checks the
worker's answer table against the same dataclasses. These tests tie that file to
the Python side: it is exactly what ui/protocol.py writes, the worker answers
exactly the declared events, the page's controls carry declared intents, and the
page's radios spell the enumerations as their homes do.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.cards import SUIT_LETTERS
from engine.levels import NAMES
from tools.protocol import TYPES, main, typescript
from ui.prefs import PACES
from ui.protocol import (
    EARLY_INTENTS,
    EVENTS,
    INTENTS,
    OPS,
    ChoosePace,
    Deal,
    StoreFailed,
    check_op,
    decode,
    encode,
)
from ui.replay import REPLAY_STEPS
from ui.worker import Session

ROOT = Path(__file__).resolve().parent.parent
# assets/page.js and its rooms (the modules it imports that send events and apply operations).
ROOMS = ("page", "batches", "operations", "focus", "sheets", "intents", "storage", "dom")
PAGE = "".join((ROOT / "assets" / f"{name}.js").read_text(encoding="utf-8") for name in ROOMS)
HTML = (ROOT / "index.html").read_text(encoding="utf-8")


def test_the_pages_types_are_written_from_the_declarations() -> None:
    assert TYPES.read_text(encoding="utf-8") == typescript(), "run python -m tools.protocol"
    assert main(["--check"]) == 0


def test_the_worker_answers_every_declared_event_and_no_other() -> None:
    session = Session()
    assert set(session.handlers) == set(EVENTS.values())
    assert set(session.early) == set(EARLY_INTENTS)


def test_every_control_carries_a_declared_intent_and_every_intent_is_sent() -> None:
    """From a button to its handler the meaning is one name: index.html's and ui/render's controls
    carry ``data-intent``; the page sends the rest (keys, radios, files, panels) by their kind."""
    drawn = "".join(
        path.read_text(encoding="utf-8")
        for name in ("render*.py", "history_html.py")
        for path in (ROOT / "ui").glob(name)
    )
    carried = set(re.findall(r'data-intent="([a-z-]+)"', HTML + drawn))
    sent = set(re.findall(r'kind: "([a-z-]+)"', PAGE))
    assert carried <= {cls.kind for cls in INTENTS}, carried - {cls.kind for cls in INTENTS}
    assert carried | sent == set(EVENTS)


def test_the_page_handles_every_declared_operation() -> None:
    handled = set(
        re.findall(r'case "([a-z-]+)":', PAGE.split("function applyAll", 1)[1].split("\n}\n", 1)[0])
    )
    assert handled == set(OPS)


def test_the_pages_radios_and_controls_spell_the_enumerations_as_their_homes_do() -> None:
    assert re.findall(r'name="ritmo" value="(\w+)"', HTML) == list(PACES)
    assert re.findall(r'name="level" value="(\w+)"', HTML) == list(NAMES)
    assert re.findall(r'data-intent="replay-step" data-where="(\w+)"', HTML) == list(REPLAY_STEPS)
    assert "".join(re.findall(r'data-intent="choose-suit" data-suit="(\w)"', HTML)) == SUIT_LETTERS


def test_an_event_decodes_once_into_its_typed_value_and_back() -> None:
    assert decode({"kind": "deal", "players": 3, "today": "2026-12-04"}) == Deal(players=3)
    assert decode(encode(ChoosePace("pausado"))) == ChoosePace("pausado")
    failed = StoreFailed(keys=("ocho-loco:partida",), storage=None)
    assert decode(encode(failed)) == failed
    for data, why in (
        ({"kind": "click", "id": "deal-btn"}, "undeclared event"),
        ({"kind": "deal"}, "no players"),
        ({"kind": "deal", "players": 4}, "players should be TableSize"),
        ({"kind": "deal", "players": "3"}, "players should be TableSize"),
        ({"kind": "next-hand", "by_key": 1}, "by_key should be bool"),
        ({"kind": "pace", "pace": "lento"}, "pace should be Pace"),
        ({"kind": "level", "level": "imposible"}, "level should be LevelName"),
        ({"kind": "replay-step", "where": "back"}, "where should be ReplayStep"),
        ({"kind": "choose-suit", "suit": "s"}, "suit should be SuitLetter"),
        ({"kind": "review-go", "step": True}, "step should be int"),
        ({"kind": "store-failed", "keys": [1], "storage": None}, "keys should be tuple"),
        ({"kind": "hint", "bykey": True}, "undeclared fields"),
        (["hint"], "an event is an object"),
    ):
        with pytest.raises(ValueError, match=why):
            decode(data)


def test_an_operation_of_the_wrong_type_or_an_undeclared_one_is_caught() -> None:
    check_op(["dialog", "suit-dialog", True])
    with pytest.raises(ValueError, match="show should be bool"):
        check_op(["dialog", "suit-dialog", "yes"])
    with pytest.raises(ValueError, match="undeclared operation"):
        check_op(["timing", 1.5])
