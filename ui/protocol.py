"""The seam between the page and the table's Python, declared once.

The table's Python runs in a Web Worker (:mod:`ui.worker`); ``assets/page.js``
is the only code that writes the document. They speak in JSON through five
calls (:data:`CALLS`): the page forwards events (:data:`EVENTS`, objects with a
``kind``), and every call answers with a batch of operations (:data:`OPS`,
arrays whose first item is their kind).

This module is the one definition of every call, event and operation with its
fields. ``python -m tools.protocol`` writes ``assets/protocol.d.ts`` from it,
the types ``assets/page.js`` is checked against (``tsc --checkJs`` in
``tools/test.sh``); ``tests/test_protocol.py`` fails when the file is stale,
when the worker answers an event not declared here, or emits an operation
that does not fit its declaration.

Field types: ``str``, ``int``, ``bool``, ``str?`` (a text or null), ``[str]``
(a list of texts), ``{str}`` (the site's localStorage keys: an object of
texts, or null), ``any`` (a value read with care on the other side).

>>> OPS["attr"]
(('id', 'str'), ('name', 'str'), ('value', 'str?'))
>>> check_op(["attr", "stock", "disabled", None])
>>> check_op(["attr", "stock", "disabled"])
Traceback (most recent call last):
...
ValueError: operation attr takes 3 fields (id, name, value), got 2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Fields = tuple[tuple[str, str], ...]

# The page calls these on the worker; each answers with a batch (a JSON list of operations).
CALLS: dict[str, Fields] = {
    "start": (("data", "Start"),),  # once, when the page is ready for the table
    "event": (("data", "Event"),),  # one event of the page (EVENTS)
    "fire": (("token", "int"),),  # a ``later`` timer went off
    "locked": (("token", "int"), ("storage", "str")),  # the page holds the Web Lock; the keys as JSON
    "games": (),  # open «Tus partidas»' IndexedDB store (awaited after start)
    # Another tab asked to delete that store (its versionchange): close it, let the deletion
    # through, and write back every game held (awaited).
    "gamesClosed": (),
}

# What ``start`` is given: the page's storage, address and preferences, and the click made early.
START: Fields = (
    ("storage", "{str}"),  # the site's localStorage keys, or null when the browser refuses storage
    ("writable", "bool"),  # a test write succeeded
    ("locks", "bool"),  # the page has Web Locks
    ("hash", "str"),  # location.hash
    ("url", "str"),  # location.href
    ("today", "str"),  # the local date, YYYY-MM-DD
    ("reduced", "bool"),  # prefers-reduced-motion
    ("seed", "any"),  # the page's random numbers for Python's random.Random
    ("early", "any"),  # {choice, click} remembered before Python was ready, or null
    ("probe", "bool"),  # the probe switch is on: send figures for tests and benchmarks (probe ops)
)

# Events the page forwards (every one also carries ``today``, the local date).
EVENTS: dict[str, Fields] = {
    "click": (
        ("id", "str"),  # the button's id ("" for a card or a suit)
        ("card", "str"),  # a card's text, such as "10D"
        ("suit", "str"),  # a suit letter, for the suit chooser
        ("where", "str"),  # "hand", "suit" or ""
        ("players", "int"),  # the table size checked in the setup
        ("name", "str"),  # the challenge's name field
        ("step", "str"),  # a «Repaso» item's replay step
        ("by_key", "bool"),  # a keyboard activation
    ),
    "suit-cancel": (),
    "replace-cancel": (),
    "results-key": (),
    "results-close": (),
    "gameover-close": (),  # the browser closed the end of a game's panel (Escape twice)
    "replay-cancel": (),
    "replay-key": (("where", "str"),),  # "prev", "next", "first" or "last"
    "pace": (("value", "str"),),
    "level": (("value", "str"),),
    "size": (("value", "str"),),
    "hash": (("hash", "str"),),
    "storage": (("key", "str"), ("value", "str?")),  # another tab wrote a key
    "store-failed": (("keys", "[str]"), ("storage", "{str}")),  # the browser refused these writes
    "import": (("size", "int"), ("text", "str")),  # a file's text ("" when too large to read)
}

# Operations of a batch, in the order the page applies them.
OPS: dict[str, Fields] = {
    "html": (("id", "str"), ("html", "str")),
    "text": (("id", "str"), ("text", "str")),
    "attr": (("id", "str"), ("name", "str"), ("value", "str?")),
    "dialog": (("id", "str"), ("show", "bool")),
    "state": (("name", "str"), ("pictured", "bool")),  # ui.screen.TableState: its value, and whether pictured
    "status": (("text", "str"),),
    "notice": (("text", "str?"),),
    "later": (("ms", "int"), ("token", "int")),
    "hash": (("fragment", "str"),),
    "copy": (("text", "str"),),
    "focus": (("id", "str"),),
    "store": (("key", "str"), ("value", "str?")),
    "lock": (("token", "int"),),
    "download": (("name", "str"), ("text", "str")),
    "config": (("max_import", "int"),),
    "probe": (("name", "str"), ("value", "any")),  # figures for tests and benchmarks (docs/worker.md)
}


def fits(value: object, kind: str) -> bool:
    """Whether ``value`` (read from JSON) is of the declared field type ``kind``."""
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str?":
        return value is None or isinstance(value, str)
    if kind == "[str]":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "{str}":
        return value is None or (isinstance(value, dict) and all(isinstance(v, str) for v in value.values()))
    return kind == "any"


def check_op(op: Sequence[Any]) -> None:
    """Raise ValueError unless ``op`` is a declared operation with fields of the declared types."""
    kind = op[0] if op else None
    if kind not in OPS:
        raise ValueError(f"undeclared operation {kind!r}")
    fields = OPS[kind]
    if len(op) - 1 != len(fields):
        names = ", ".join(name for name, _ in fields)
        raise ValueError(f"operation {kind} takes {len(fields)} fields ({names}), got {len(op) - 1}")
    for (name, typ), value in zip(fields, op[1:], strict=True):
        if not fits(value, typ):
            raise ValueError(f"operation {kind}: {name} should be {typ}, got {value!r}")


def check_event(data: Mapping[str, Any]) -> None:
    """Raise ValueError unless ``data`` is a declared event with exactly its fields (and ``today``)."""
    kind = data.get("kind")
    if kind not in EVENTS:
        raise ValueError(f"undeclared event {kind!r}")
    fields = dict(EVENTS[kind])
    extra = set(data) - set(fields) - {"kind", "today"}
    if extra:
        raise ValueError(f"event {kind}: undeclared fields {sorted(extra)}")
    for name, typ in fields.items():
        if name in data and not fits(data[name], typ):
            raise ValueError(f"event {kind}: {name} should be {typ}, got {data[name]!r}")


# -- the JavaScript side's types -----------------------------------------------------------------

_TS = {"str": "string", "int": "number", "bool": "boolean", "str?": "string | null", "[str]": "string[]"}
_TS |= {"{str}": "Record<string, string> | null", "any": "unknown", "Start": "string", "Event": "string"}


def typescript() -> str:
    """``assets/protocol.d.ts``: the same declarations as TypeScript types, for ``tsc --checkJs``."""
    lines = [
        "// Written by `python -m tools.protocol` from ui/protocol.py: edit that file, not this one.",
        "",
        "/** What the page gives the worker's `start` call. */",
        "export interface Start {",
        *(f"  {name}: {_TS[typ]};" for name, typ in START),
        "}",
        "",
        "/** The events the page forwards (each with `today`, the local date). */",
        "export type PageEvent =",
    ]
    for kind, fields in EVENTS.items():
        body = "".join(f" {name}: {_TS[typ]};" for name, typ in fields)
        lines.append(f'  | {{ kind: "{kind}";{body} }}')
    lines[-1] += ";"
    lines += ["", "/** The operations of a batch. */", "export type Op ="]
    for kind, fields in OPS.items():
        items = "".join(f", {name}: {_TS[typ]}" for name, typ in fields)
        lines.append(f'  | [kind: "{kind}"{items}]')
    lines[-1] += ";"
    lines += ["", "/** The worker's calls, as PyScript's `sync` object exposes them. */"]
    lines.append("export interface Calls {")
    for name, fields in CALLS.items():
        args = ", ".join(f"{arg}: {_TS[typ]}" for arg, typ in fields)
        lines.append(f"  {name}({args}): Promise<string>;")
    lines += ["}", ""]
    return "\n".join(lines)
