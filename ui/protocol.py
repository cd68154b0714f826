"""The seam between the page and the table's Python, declared once.

The table's Python runs in a Web Worker (:mod:`ui.worker`); ``assets/page.js`` and its rooms are the
only code that writes the document. They speak in JSON through six calls (:data:`CALLS`): the page
forwards events, and every call answers with a batch of operations (:data:`OPS`, arrays whose first
item is their kind).

An event is a frozen value declared here: the player's intents (:data:`Intent`: play a card, name a
suit, deal, next hand, hint, a replay step…) and what the page itself reports (:data:`Notice`).
Their fields are typed, and the enumerations come from their one home (levels from
:mod:`engine.levels`, paces from :data:`ui.prefs.PACES`, replay steps from
:data:`ui.replay.REPLAY_STEPS`, suits from :mod:`engine.cards`). The worker decodes each event once
(:func:`decode`) and answers it from one table by its type, so a renamed field fails mypy there.

This module is the one definition of every call (its arguments: ``int``, ``str``, or the JSON text
of a :class:`Start` or an event), event and operation (:mod:`ui.batch` builds each through it).
``python -m tools.protocol`` writes ``assets/protocol.d.ts`` from it, which ``tsc --checkJs``
checks the page's scripts against; ``tests/test_protocol.py`` fails when that file is stale or
either side leaves a declaration.

>>> OPS["attr"]._fields
('id', 'name', 'value')
>>> check_op(["attr", "stock", "disabled", None])
>>> check_op(["attr", "stock", "disabled"])
Traceback (most recent call last):
...
ValueError: operation attr takes 3 fields (id, name, value), got 2
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from typing import (
    Any,
    ClassVar,
    Literal,
    NamedTuple,
    get_args,
    get_type_hints,
)

from engine.cards import SuitLetter
from engine.levels import LevelName

from .frozen import Value, fields_of, fits_type
from .prefs import Back, Felt, Pace
from .replay import ReplayStep
from .screen import SoundName, TableState

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


# -- events: what the page tells the worker -----------------------------------------------------
#
# Each event is a frozen dataclass: its ``kind`` (the JSON's ``kind``) and its typed fields. The page
# sends an object with these fields and ``today`` (the local date); :func:`decode` turns it into the
# value once, and the worker answers each event type from one table (ui/worker.py). Most are the
# player's intents: a control of the page carries its intent's kind in ``data-intent`` (index.html,
# ui/render.py), so from the button to the Table method the meaning is one name.

TableSize = Literal[2, 3]


class PlayCard(Value):
    """A card of your hand pressed (``card`` its text, such as ``10D``)."""

    kind: ClassVar[str] = "play-card"
    card: str


class ChooseSuit(Value):
    """The suit your 8 names, in the suit chooser."""

    kind: ClassVar[str] = "choose-suit"
    suit: SuitLetter


class CancelSuit(Value):
    """The suit chooser's «Cancelar» (or Escape): the 8 stays in your hand."""

    kind: ClassVar[str] = "cancel-suit"


class DrawOrPass(Value):
    """«Robar» or «Pasar» (the main button, or the stock)."""

    kind: ClassVar[str] = "draw-or-pass"


class Deal(Value):
    """«Repartir» (during a game, «Otra partida»), at the table size checked."""

    kind: ClassVar[str] = "deal"
    players: TableSize


class Daily(Value):
    """«Partida del día», at the table size checked."""

    kind: ClassVar[str] = "daily"
    players: TableSize


class NextHand(Value):
    """«Siguiente mano» (``by_key``: pressed with a key, which a grace may hold back)."""

    kind: ClassVar[str] = "next-hand"
    by_key: bool


class NewGame(Value):
    """«Nueva partida» at the end of a game (``by_key`` as for :class:`NextHand`)."""

    kind: ClassVar[str] = "new-game"
    by_key: bool


class SeeFinal(Value):
    """«Ver el final» after the last hand's count (``by_key`` as for :class:`NextHand`)."""

    kind: ClassVar[str] = "see-final"
    by_key: bool


class SkipCount(Value):
    """«Saltar la cuenta», or any key while the results are counted."""

    kind: ClassVar[str] = "skip-count"


class ToggleChallenge(Value):
    """«Retar a alguien» at the end of a game: its form opens or closes."""

    kind: ClassVar[str] = "toggle-challenge"


class ChallengeLink(Value):
    """«Copiar el enlace del reto», with the name written in its form."""

    kind: ClassVar[str] = "challenge-link"
    name: str


class CopyLink(Value):
    """«Copiar enlace»: the game's link."""

    kind: ClassVar[str] = "copy-link"


class ReplaceGame(Value):
    """«Sí» to the replace question: the game it offers goes on the table."""

    kind: ClassVar[str] = "replace-game"


class KeepGame(Value):
    """«No» to the replace question (or Escape): the game on the table stays."""

    kind: ClassVar[str] = "keep-game"


class Export(Value):
    """«Descargar mis partidas»."""

    kind: ClassVar[str] = "export"


class Import(Value):
    """A file chosen for «Importar»: its text, or "" when its ``size`` is over the page's limit."""

    kind: ClassVar[str] = "import"
    size: int
    text: str


class ClearAside(Value):
    """«Borrar las apartadas»: the saves set aside."""

    kind: ClassVar[str] = "clear-aside"


class OpenReplay(Value):
    """«Ver la mano», from the results or the end of the game."""

    kind: ClassVar[str] = "open-replay"


class StepReplay(Value):
    """A step of «Ver la mano» (its buttons, or the arrow keys, Home and End)."""

    kind: ClassVar[str] = "replay-step"
    where: ReplayStep


class CloseReplay(Value):
    """«Volver a los resultados» / «Volver al final» (or Escape) in «Ver la mano»."""

    kind: ClassVar[str] = "close-replay"


class ReviewGo(Value):
    """An item of «Repaso» chosen: the replay goes to its ``step``."""

    kind: ClassVar[str] = "review-go"
    step: int


class SeePartidas(Value):
    """«Ver «Tus partidas»» at the end of a game."""

    kind: ClassVar[str] = "see-partidas"


class Hint(Value):
    """«Pista»."""

    kind: ClassVar[str] = "hint"


class Learn(Value):
    """«Aprende jugando» (the first screen, «Reglas»): the lesson's hand is dealt."""

    kind: ClassVar[str] = "learn"


class SkipLesson(Value):
    """«Saltar la lección»: the lesson ends at a normal table."""

    kind: ClassVar[str] = "lesson-skip"


class ChoosePace(Value):
    """«Ritmo» checked."""

    kind: ClassVar[str] = "pace"
    pace: Pace


class ChooseLevel(Value):
    """«Rival» checked."""

    kind: ClassVar[str] = "level"
    level: LevelName


class ChooseSize(Value):
    """The table size checked."""

    kind: ClassVar[str] = "size"
    players: TableSize


class ForgetGame(Value):
    """«Borrar» on a row of «Tus partidas»: the game kept under ``key`` (asked first)."""

    kind: ClassVar[str] = "forget-game"
    key: str


class ForgetUnreadable(Value):
    """«Borrar estas líneas»: every kept line that is no game (asked first)."""

    kind: ClassVar[str] = "forget-unreadable"


class ToggleSound(Value):
    """«Sonido» on the table's bar: the sounds on or off."""

    kind: ClassVar[str] = "sound"


class ChooseForced(Value):
    """«Jugadas forzadas solas» checked or not (ui.forced)."""

    kind: ClassVar[str] = "forced"
    on: bool


class ChooseFelt(Value):
    """«Tapete» checked."""

    kind: ClassVar[str] = "felt"
    felt: Felt


class ChooseBack(Value):
    """«Dorso de las cartas» checked."""

    kind: ClassVar[str] = "back"
    back: Back


# What the page itself reports (no control of the player's names these).


class ResultsClosed(Value):
    """The browser closed the results panel on its own (Escape twice)."""

    kind: ClassVar[str] = "results-closed"


class GameoverClosed(Value):
    """The browser closed the end of a game's panel on its own (Escape twice)."""

    kind: ClassVar[str] = "gameover-closed"


class HashChanged(Value):
    """The address's fragment changed (a link followed in this tab)."""

    kind: ClassVar[str] = "hash"
    hash: str


class StorageChanged(Value):
    """Another tab wrote one of the site's keys (``value`` None: removed)."""

    kind: ClassVar[str] = "storage"
    key: str
    value: str | None


class StoreFailed(Value):
    """The browser refused these writes (storage full); ``storage``: the site's keys as they are."""

    kind: ClassVar[str] = "store-failed"
    keys: tuple[str, ...]
    storage: dict[str, str] | None


Intent = (
    PlayCard
    | ChooseSuit
    | CancelSuit
    | DrawOrPass
    | Deal
    | Daily
    | NextHand
    | NewGame
    | SeeFinal
    | SkipCount
    | ToggleChallenge
    | ChallengeLink
    | CopyLink
    | ReplaceGame
    | KeepGame
    | Export
    | Import
    | ClearAside
    | OpenReplay
    | StepReplay
    | CloseReplay
    | ReviewGo
    | SeePartidas
    | Hint
    | Learn
    | SkipLesson
    | ChoosePace
    | ChooseLevel
    | ChooseSize
    | ForgetGame
    | ForgetUnreadable
    | ToggleSound
    | ChooseForced
    | ChooseFelt
    | ChooseBack
)
Notice = ResultsClosed | GameoverClosed | HashChanged | StorageChanged | StoreFailed
Event = Intent | Notice
# The click the first-paint script remembers before Python is ready (index.html): one of these.
EarlyIntent = Deal | Daily | Learn | PlayCard | DrawOrPass

INTENTS: tuple[type[Intent], ...] = get_args(Intent)
NOTICES: tuple[type[Notice], ...] = get_args(Notice)
EARLY_INTENTS: tuple[type[EarlyIntent], ...] = get_args(EarlyIntent)
# Every event the page may send, by its kind.
EVENTS: dict[str, type[Event]] = {cls.kind: cls for cls in (*INTENTS, *NOTICES)}
assert len(EVENTS) == len(INTENTS) + len(NOTICES), "one kind per event"
# The enumerations the page's types name (protocol.d.ts), each from its one home.
ENUMS: dict[str, object] = {
    "TableSize": TableSize,
    "SuitLetter": SuitLetter,
    "LevelName": LevelName,
    "Pace": Pace,
    "ReplayStep": ReplayStep,
    "TableState": TableState,
    "Felt": Felt,
    "Back": Back,
    "SoundName": SoundName,
}


def _named(typ: object) -> str:
    """A field's type as an error message names it (an enumeration by its name in :data:`ENUMS`)."""
    return next(
        (name for name, declared in ENUMS.items() if declared == typ), getattr(typ, "__name__", str(typ))
    )


def decode(data: object) -> Event:
    """The event the page sent as ``data`` (its JSON, read): a declared kind with exactly its fields.

    ValueError, saying what does not fit, for anything else (an unknown kind, a missing field, one
    of another type or not declared); the page's ``today`` goes beside every event and is not read
    here.

    >>> decode({"kind": "pace", "pace": "rapido", "today": "2026-12-04"})
    ChoosePace(pace='rapido')
    >>> decode({"kind": "pace", "value": "rapido"})
    Traceback (most recent call last):
    ...
    ValueError: event pace: undeclared fields ['value']
    """
    if not isinstance(data, Mapping):
        raise ValueError("an event is an object")
    kind = data.get("kind")
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"undeclared event {kind!r}")
    fields = fields_of(cls)
    extra = set(data) - set(fields) - {"kind", "today"}
    if extra:
        raise ValueError(f"event {kind}: undeclared fields {sorted(extra)}")
    values: dict[str, Any] = {}
    for name, typ in fields.items():
        if name not in data:
            raise ValueError(f"event {kind}: no {name}")
        value = data[name]
        if not fits_type(value, typ):
            raise ValueError(f"event {kind}: {name} should be {_named(typ)}, got {value!r}")
        values[name] = tuple(value) if isinstance(value, list) else value
    return cls(**values)


def encode(event: Event) -> dict[str, Any]:
    """``event`` as the page sends it (without ``today``): the inverse of :func:`decode`.

    >>> encode(Deal(players=3))
    {'kind': 'deal', 'players': 3}
    """
    fields = {name: getattr(event, name) for name in event._fields}
    return {"kind": event.kind, **{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}}


# -- start: what the page gives the worker once -------------------------------------------------


class EarlyChoice(Value):
    """The table size and «Rival» checked before Python was ready (``level`` "" when none)."""

    players: TableSize
    level: str


class Early(Value):
    """What index.html's first-paint script remembered before Python was ready: each part, or None."""

    choice: EarlyChoice | None
    click: EarlyIntent | None


class Start(Value):
    """What ``start`` is given: the page's storage, address and preferences, and what was done early."""

    storage: dict[str, str] | None = None  # the site's localStorage keys, or null when refused
    writable: bool = False  # a test write succeeded
    locks: bool = False  # the page has Web Locks
    hash: str = ""  # location.hash
    url: str = ""  # location.href
    today: str = ""  # the local date, YYYY-MM-DD
    reduced: bool = False  # prefers-reduced-motion
    seed: Any = None  # the page's random numbers for Python's random.Random
    early: Early | None = None
    probe: bool = False  # the probe switch is on: send figures for tests and benchmarks (probe ops)


def decode_start(data: object) -> Start:
    """What the page gave ``start``, each field as declared; one that does not fit reads as its
    default (a page that sends less still opens the saved game), and so does each part of ``early``.

    >>> start = decode_start({"hash": "#x", "writable": "yes", "early": {"click": {"kind": "hint"}}})
    >>> start.hash, start.writable, start.early
    ('#x', False, Early(choice=None, click=None))
    """
    given = data if isinstance(data, Mapping) else {}
    values: dict[str, Any] = {}
    for name, typ in fields_of(Start).items():
        value = given.get(name)
        if name == "early":
            values[name] = _early(value) if isinstance(value, Mapping) else None
        elif fits_type(value, typ):
            values[name] = value
    return Start(**values)


def _early(data: Mapping[str, Any]) -> Early:
    choice = data.get("choice")
    chosen = None
    if isinstance(choice, Mapping) and fits_type(choice.get("players"), TableSize):
        level = choice.get("level")
        chosen = EarlyChoice(3 if choice["players"] == 3 else 2, level if isinstance(level, str) else "")
    try:
        intent = decode(data.get("click"))
    except ValueError:
        intent = None  # no click, or one the first paint does not make
    return Early(chosen, intent if isinstance(intent, EARLY_INTENTS) else None)


# -- operations: what a batch asks the page to do --------------------------------------------------
#
# Each is a named tuple of its typed fields; in the batch, a JSON array whose first item is its kind
# (:data:`OPS`, the one place a kind is spelt). ui.batch builds every one through these (:func:`op`).

Html = NamedTuple("Html", [("id", str), ("html", str)])
Text = NamedTuple("Text", [("id", str), ("text", str)])
Attr = NamedTuple("Attr", [("id", str), ("name", str), ("value", str | None)])
Dialog = NamedTuple("Dialog", [("id", str), ("show", bool)])
# The table's state (sent as its value), and whether a picture of the table shows it.
State = NamedTuple("State", [("name", TableState), ("pictured", bool)])
Status = NamedTuple("Status", [("text", str)])
NoticeLine = NamedTuple("NoticeLine", [("text", str | None)])
Later = NamedTuple("Later", [("ms", int), ("token", int)])
Hash = NamedTuple("Hash", [("fragment", str)])
Copy = NamedTuple("Copy", [("text", str)])
Focus = NamedTuple("Focus", [("id", str)])
Sound = NamedTuple("Sound", [("name", SoundName)])
StoreKey = NamedTuple("StoreKey", [("key", str), ("value", str | None)])
Lock = NamedTuple("Lock", [("token", int)])
Download = NamedTuple("Download", [("name", str), ("text", str)])
Config = NamedTuple("Config", [("max_import", int)])
# Figures for tests and benchmarks (docs/worker.md).
Probe = NamedTuple("Probe", [("name", str), ("value", Any)])

Op = (
    Html | Text | Attr | Dialog | State | Status | NoticeLine | Later | Hash | Copy | Focus | StoreKey | Lock
) | (Download | Config | Probe | Sound)
# Every operation by its kind, in the order the page's switch lists them.
OPS: dict[str, type[Op]] = {
    "html": Html,
    "text": Text,
    "attr": Attr,
    "dialog": Dialog,
    "state": State,
    "status": Status,
    "notice": NoticeLine,
    "later": Later,
    "hash": Hash,
    "copy": Copy,
    "focus": Focus,
    "store": StoreKey,
    "lock": Lock,
    "download": Download,
    "config": Config,
    "probe": Probe,
    "sound": Sound,
}
KIND_OF = {cls: kind for kind, cls in OPS.items()}


@functools.cache
def op_fields(kind: str) -> dict[str, Any]:
    """An operation's fields, by name, with their types, in order."""
    return get_type_hints(OPS[kind])


def op(value: Op) -> list[Any]:
    """``value`` as the batch carries it: its kind, then its fields in order.

    >>> op(Attr("stock", "disabled", None)), op(State(TableState.HUMAN, True))
    (['attr', 'stock', 'disabled', None], ['state', 'human', True])
    """
    return [KIND_OF[type(value)], *(v.value if isinstance(v, enum.Enum) else v for v in value)]


def check_op(data: Sequence[Any]) -> None:
    """Raise ValueError unless ``data`` is a declared operation with fields of the declared types."""
    kind = data[0] if data else None
    if kind not in OPS:
        raise ValueError(f"undeclared operation {kind!r}")
    fields = op_fields(kind)
    if len(data) - 1 != len(fields):
        names = ", ".join(fields)
        raise ValueError(f"operation {kind} takes {len(fields)} fields ({names}), got {len(data) - 1}")
    for (name, typ), value in zip(fields.items(), data[1:], strict=True):
        if not fits_type(value, typ):
            raise ValueError(f"operation {kind}: {name} should be {_named(typ)}, got {value!r}")
