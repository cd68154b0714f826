"""The saved game in localStorage, with every failure turned into a message.

The page saves after every action. A save is the game's record (its code,
the CPU level and every move, :mod:`engine.record`) plus the little the page
needs to reopen exactly (an open suit chooser, a next hand already dealt)::

    {"app": "ocho-loco", "version": 2, "record": "r1.A2K7QM92.n.RxA",
     "ui": {"chooser": "8S" | null, "next_hand": false}}

Loading replays the record through the rules, so an edited save can only be
another legal game or be refused; nothing else in the save is trusted.
Version-1 saves (a snapshot of the position, :mod:`engine.save`) still load
once, if replaying their own moves gives exactly their position, and are
written back as version 2 by the next save.

Keys carry the ``ocho-loco:`` prefix because every GitHub Pages project of
one user shares a single origin. A save that cannot be read is never thrown
away: it is moved to ``ocho-loco:aparte:<n>`` and the player is told.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Protocol

from engine.cards import BY_TEXT, Card
from engine.game import HAND_OVER, Game
from engine.record import Record, RecordError
from engine.save import SaveError, legacy_record, load

PREFIX = "ocho-loco:"
SAVE_KEY = PREFIX + "partida"
ASIDE_PREFIX = PREFIX + "aparte:"
PREFS_KEY = PREFIX + "mesa"
PACE_KEY = PREFIX + "ritmo"
PACES = ("pausado", "normal", "rapido")
APP = "ocho-loco"
VERSION = 2
MAX_ASIDE = 5
# A whole game's record is one or two thousand characters; anything far
# larger is refused before it is parsed at all.
MAX_SAVE_CHARS = 200_000
# The save is an object holding strings and a small object: no deeper.
MAX_DEPTH = 4


class Backend(Protocol):
    """The part of the Web Storage API that is used (``localStorage`` fits)."""

    def getItem(self, key: str) -> str | None: ...
    def setItem(self, key: str, value: str) -> None: ...
    def removeItem(self, key: str) -> None: ...


class MemoryBackend:
    """A dict in place of localStorage when the browser gives none."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.data[key] = value

    def removeItem(self, key: str) -> None:
        self.data.pop(key, None)


NOTICE_NO_STORAGE = (
    "Este navegador no deja guardar datos: puedes jugar, pero la partida no se guardará al cerrar la pestaña."
)
NOTICE_FULL = (
    "No se ha podido guardar la partida (el almacenamiento está lleno o bloqueado). "
    "Puedes seguir jugando; se volverá a intentar en la próxima jugada."
)


@dataclass(frozen=True)
class Saved:
    """A save read back: the replayed game, its level, an open chooser, and where it came from."""

    game: Game
    level: str = "normal"
    chooser: Card | None = None
    legacy: bool = False  # read from a version-1 snapshot (written back as version 2 on the next save)


class Store:
    """Load and save the game; ``notice`` holds the latest problem worth telling."""

    def __init__(self, backend: Backend | None) -> None:
        self.persistent = backend is not None
        self.backend: Backend = backend if backend is not None else MemoryBackend()
        self.notice: str | None = None if self.persistent else NOTICE_NO_STORAGE
        self.failed = False

    @staticmethod
    def payload(game: Game, level: str = "normal", chooser: Card | None = None) -> str:
        """The stored text for ``game``: its record and the page's own state."""
        ui = {"chooser": None if chooser is None else str(chooser), "next_hand": False}
        record = game.record(level)
        if game.hand_start == len(game.history) and game.hand_no > 0 and game.history:
            # A hand dealt but not yet begun: the record ends with the last hand's
            # final move, and the page remembers that the next hand is on the table.
            ui["next_hand"] = True
        data = {"app": APP, "version": VERSION, "record": str(record), "ui": ui}
        return json.dumps(data, separators=(",", ":"))

    def save(self, game: Game, level: str = "normal", chooser: Card | None = None) -> bool:
        """Write the game; False (and a notice) if the browser refused."""
        try:
            self.backend.setItem(SAVE_KEY, self.payload(game, level, chooser))
        except Exception:  # quota exceeded, storage disabled mid-session, ...
            if not self.failed:
                self.notice = NOTICE_FULL
            self.failed = True
            return False
        if self.failed:
            self.failed = False
            self.notice = None
        return True

    def load(self) -> Saved | None:
        """The saved game, or None if there is none or it was set aside (``notice`` says why)."""
        try:
            raw = self.backend.getItem(SAVE_KEY)
        except Exception:
            self.notice = NOTICE_NO_STORAGE
            return None
        if raw is None:
            return None
        try:
            return read(raw)
        except SaveError as err:
            self._set_aside(raw)
            self.notice = (
                f"La partida guardada no se ha podido abrir: {err} "
                "Se ha guardado aparte sin borrarla y empieza una partida nueva."
            )
            return None

    def _set_aside(self, raw: str) -> None:
        try:
            for n in range(1, MAX_ASIDE + 1):
                if self.backend.getItem(ASIDE_PREFIX + str(n)) is None:
                    break
            else:
                n = MAX_ASIDE
            self.backend.setItem(ASIDE_PREFIX + str(n), raw)
            self.backend.removeItem(SAVE_KEY)
        except Exception:
            # Could not copy it: leave the original where it is rather than lose it.
            pass

    def clear(self) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(SAVE_KEY)

    def table_size(self) -> int:
        try:
            raw = self.backend.getItem(PREFS_KEY)
        except Exception:
            return 2
        return 3 if raw == "3" else 2

    def set_table_size(self, players: int) -> None:
        self.set_pref(PREFS_KEY, str(players))

    # -- the player's preferences: small strings, each under its own key ------------------

    def pref(self, key: str, allowed: tuple[str, ...], default: str) -> str:
        """The stored preference ``key`` if it is one of ``allowed``, else ``default``."""
        try:
            raw = self.backend.getItem(key)
        except Exception:
            return default
        return raw if raw in allowed else default

    def set_pref(self, key: str, value: str) -> None:
        """Remember a preference; a browser that refuses just forgets it (the game is unaffected)."""
        with contextlib.suppress(Exception):
            self.backend.setItem(key, value)

    def pace(self) -> str:
        """The CPU's pace chosen in «Ritmo»: ``pausado``, ``normal`` or ``rapido``."""
        return self.pref(PACE_KEY, PACES, "normal")

    def set_pace(self, pace: str) -> None:
        if pace in PACES:
            self.set_pref(PACE_KEY, pace)


def read(raw: str) -> Saved:
    """The game a stored text holds, replayed through the rules; :class:`SaveError` says what is wrong.

    Size and nesting are checked before parsing, so no stored text, however
    large or deep, can exhaust memory or the interpreter's stack.
    """
    if len(raw) > MAX_SAVE_CHARS:
        raise SaveError("Los datos guardados son demasiado grandes para ser una partida.")
    if nesting(raw) > MAX_DEPTH:
        raise SaveError("Los datos no se pueden leer.")
    try:
        data = json.loads(raw)
    except ValueError:
        raise SaveError("Los datos no se pueden leer.") from None
    if not isinstance(data, dict) or data.get("app") != APP:
        raise SaveError("Los datos guardados no son una partida de Ocho Loco.")
    version = data.get("version")
    ui = data.get("ui")
    ui = ui if isinstance(ui, dict) else {}
    if type(version) is int and version == 1:  # ``True == 1`` in Python: compare the type too
        game = load(data.get("game"))
        level, legacy = "normal", True
        legacy_record(game)
    elif type(version) is int and version == VERSION:
        try:
            record = Record.parse(data.get("record"))
            game = record.replay()
        except RecordError as err:
            raise SaveError(str(err)) from None
        level, legacy = record.level, False
        if ui.get("next_hand") is True and game.phase == HAND_OVER:
            game.next_hand()
    else:
        raise SaveError("La partida guardada es de otra versión de la página.")
    chooser = _chooser(game, ui.get("chooser"))
    return Saved(game, level, chooser, legacy)


def nesting(text: str) -> int:
    """How deep ``[`` and ``{`` nest in a JSON text (brackets inside strings do not count).

    >>> nesting('{"a": [1, "[[["], "b": {}}')
    2
    """
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _chooser(game: Game, text: object) -> Card | None:
    """An open suit chooser is kept only for an 8 the person could play now naming a suit."""
    card = BY_TEXT.get(text) if isinstance(text, str) else None
    if card is None:
        return None
    plays = game.view(0).plays_of(card)
    return card if any(a.suit is not None for a in plays) else None
