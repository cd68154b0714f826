"""Write ``assets/protocol.d.ts`` from :mod:`ui.protocol` (the page's side of the seam, typed).

python -m tools.protocol           write it
python -m tools.protocol --check   exit 1 if the file differs from what ui/protocol.py declares
"""

from __future__ import annotations

import enum
import json
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from ui.frozen import Value, fields_of
from ui.protocol import (
    CALLS,
    EARLY_INTENTS,
    ENUMS,
    EVENTS,
    INTENTS,
    NOTICES,
    OPS,
    Early,
    EarlyChoice,
    Event,
    Start,
    op_fields,
)

TYPES = Path(__file__).resolve().parent.parent / "assets" / "protocol.d.ts"

# The types of the calls' and start's fields, as ui.protocol writes them.
_TS = {"str": "string", "int": "number", "bool": "boolean", "str?": "string | null"}
_TS |= {"Start": "string", "Event": "string"}


def ts_type(typ: object) -> str:
    """An event field's Python type as a TypeScript type (an enumeration by its name in :data:`ENUMS`)."""
    for name, declared in ENUMS.items():
        if typ == declared:
            return name
    if isinstance(typ, type) and issubclass(typ, Value):
        return typ.__name__  # an event, or a part of start: an interface of the same name
    origin = get_origin(typ)
    if origin is Literal:
        return " | ".join(json.dumps(arg) for arg in get_args(typ))
    if origin in (Union, types.UnionType):
        return " | ".join(ts_type(arg) for arg in get_args(typ))
    if origin is tuple:
        return f"{ts_type(get_args(typ)[0])}[]"
    if origin is dict:
        return f"Record<string, {ts_type(get_args(typ)[1])}>"
    if typ is Any:
        return "unknown"
    if isinstance(typ, type) and issubclass(typ, enum.Enum):
        return " | ".join(json.dumps(member.value) for member in typ)
    named = {type(None): "null", bool: "boolean", int: "number", str: "string"}
    if isinstance(typ, type) and typ in named:
        return named[typ]
    raise TypeError(f"no TypeScript type for {typ!r}")


def _interface(cls: type[Value], doc: str) -> list[str]:
    fields = fields_of(cls)
    return [
        f"/** {doc} */",
        f"export interface {cls.__name__} {{",
        *(f"  {n}: {ts_type(t)};" for n, t in fields.items()),
        "}",
        "",
    ]


def values(declared: object) -> list[object]:
    """The values of an enumeration: a Literal's, or an Enum's members' values."""
    if isinstance(declared, type) and issubclass(declared, enum.Enum):
        return [member.value for member in declared]
    return list(get_args(declared))


def _union(name: str, members: Sequence[type[Event]]) -> list[str]:
    return [
        f"export type {name} =",
        *(f"  | {cls.__name__}" for cls in members[:-1]),
        f"  | {members[-1].__name__};",
    ]


def typescript() -> str:
    """``assets/protocol.d.ts``: the same declarations as TypeScript types, for ``tsc --checkJs``."""
    lines = [
        "// Written by `python -m tools.protocol` from ui/protocol.py: edit that file, not this one.",
        "",
        "// The enumerations, each from its one home (engine.levels, ui.prefs.PACES, ui.replay...).",
        *(
            f"export type {name} = {' | '.join(json.dumps(value) for value in values(e))};"
            for name, e in ENUMS.items()
        ),
        "",
        *_interface(Start, "What the page gives the worker's `start` call."),
        *_interface(Early, "What was done before Python was ready (index.html's first paint)."),
        *_interface(EarlyChoice, "The table size and «Rival» checked before Python was ready."),
        "// The events the page sends (each with `today`, the local date): the player's intents and notices.",
    ]
    for cls in EVENTS.values():
        body = "".join(f" {name}: {ts_type(typ)};" for name, typ in fields_of(cls).items())
        lines.append(f'export interface {cls.__name__} {{ kind: "{cls.kind}";{body} }}')
    lines += ["", *_union("Intent", INTENTS), *_union("Notice", NOTICES)]
    lines += ["export type PageEvent = Intent | Notice;", *_union("EarlyIntent", EARLY_INTENTS)]
    lines += ["", "/** The operations of a batch. */", "export type Op ="]
    for kind in OPS:
        items = "".join(f", {name}: {ts_type(typ)}" for name, typ in op_fields(kind).items())
        lines.append(f'  | [kind: "{kind}"{items}]')
    lines[-1] += ";"
    lines += ["", "/** The worker's calls, as PyScript's `sync` object exposes them. */"]
    lines.append("export interface Calls {")
    for name, fields in CALLS.items():
        args = ", ".join(f"{arg}: {_TS[typ]}" for arg, typ in fields)
        lines.append(f"  {name}({args}): Promise<string>;")
    lines += ["}", ""]
    return "\n".join(lines)


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
