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
import time
from dataclasses import dataclass
from typing import Protocol

from engine.cards import BY_TEXT, Card
from engine.game import HAND_OVER, Game
from engine.levels import NAMES
from engine.record import Record, RecordError
from engine.save import SaveError, legacy_record, load

PREFIX = "ocho-loco:"
SAVE_KEY = PREFIX + "partida"
ASIDE_PREFIX = PREFIX + "aparte:"
PREFS_KEY = PREFIX + "mesa"
PACE_KEY = PREFIX + "ritmo"
LEVEL_KEY = PREFIX + "nivel"
LEVELS = NAMES  # engine.levels declares the CPU levels once
PACES = ("pausado", "normal", "rapido")
APP = "ocho-loco"
VERSION = 2
# More saves set aside than this and the page offers to clear them.
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
NOTICE_READ_ONLY = (
    "El almacenamiento de este navegador está lleno: tu partida se ha abierto, pero las jugadas nuevas "
    "no se guardarán hasta que haya espacio (por ejemplo, borrando datos de otros sitios)."
)
NOTICE_KEPT_IN_PLACE = (
    "Tampoco se ha podido apartar, porque el almacenamiento está lleno, así que sigue guardada tal cual. "
    "Puedes jugar, pero no se guardará nada hasta que decidas empezar otra partida."
)
NOTICE_FOLLOWED = "La partida ha seguido en otra pestaña: esta muestra ya la última jugada."
NOTICE_OTHER_GAME = "En otra pestaña se ha empezado otra partida: esta pestaña sigue con ella."
NOTICE_DIVERGED = (
    "Esta partida se ha jugado a la vez en dos pestañas: sigue la versión con más jugadas, "
    "y la otra se ha guardado aparte."
)
NOTICE_MINE_ASIDE = " La que tenías en esta pestaña se ha guardado aparte."


@dataclass(frozen=True)
class Saved:
    """A save read back: the replayed game, its level, an open chooser, and where it came from."""

    game: Game
    level: str = "normal"
    chooser: Card | None = None
    legacy: bool = False  # read from a version-1 snapshot (written back as version 2 on the next save)

    @property
    def record(self) -> Record:
        return self.game.record(self.level)


@dataclass(frozen=True)
class Follow:
    """Another tab moved the stored game on: show ``saved`` instead of this tab's game, and say ``notice``."""

    saved: Saved
    notice: str


class Store:
    """Load and save the game, never writing over what another tab saved after this one looked.

    ``known`` is the stored text as this tab last read or wrote it. Before
    every write the stored text is read again; if another tab changed it, the
    two records decide (:meth:`save`). ``notice`` holds the latest problem
    worth telling.
    """

    def __init__(self, backend: Backend | None, *, writable: bool = True) -> None:
        self.persistent = backend is not None
        self.backend: Backend = backend if backend is not None else MemoryBackend()
        self.notice: str | None = None if self.persistent else NOTICE_NO_STORAGE
        if self.persistent and not writable:
            self.notice = NOTICE_READ_ONLY
        self.failed = False
        self.known: str | None = None
        # An unreadable save that could not be set aside stays in place; nothing
        # is written over it until the player chooses to start another game.
        self.kept_bad = False
        self.load_ms = 0.0  # how long reading and replaying the save took (the load benchmark reads it)

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

    def save(
        self, game: Game, level: str = "normal", chooser: Card | None = None, *, replace: bool = False
    ) -> Follow | None:
        """Write the game, unless another tab moved on: then return what to follow instead.

        When the stored text changed since this tab last looked:

        * the stored record extends this tab's (the same game, further on):
          nothing is written, and this tab follows it;
        * this tab's record extends the stored one: it is written;
        * both moved on from a common position: the longer record is kept in
          place and the other one is set aside;
        * another game was started elsewhere: this tab follows it, and its
          own game is set aside.

        ``replace`` is for a new game the player chose to start: it is
        written over whatever is stored. A refused write (quota) leaves
        ``failed`` and a notice.
        """
        if self.kept_bad and not replace:
            return None
        text = self.payload(game, level, chooser)
        if not replace:
            try:
                current = self.backend.getItem(SAVE_KEY)
            except Exception:
                current = self.known
            if current is not None and current not in (self.known, text):
                follow = self._reconcile(current, text, game.record(level))
                if follow is not None:
                    self.known = current
                    return follow
        if not self._write(text):
            return None
        self.kept_bad = False
        return None

    def _reconcile(self, current: str, text: str, mine: Record) -> Follow | None:
        """Decide between the stored text (written by another tab) and this tab's game."""
        try:
            other = read(current)
        except SaveError:
            self._set_aside(current)  # something unreadable took the slot: keep it, then write ours
            return None
        theirs = other.record
        if theirs.extends(mine):
            return Follow(other, NOTICE_FOLLOWED)
        if mine.extends(theirs):
            return None
        if theirs.code == mine.code and theirs.start == mine.start:
            if len(mine) >= len(theirs):
                self._set_aside(current)
                self.notice = NOTICE_DIVERGED
                return None
            self._set_aside(text)
            return Follow(other, NOTICE_DIVERGED)
        aside = NOTICE_MINE_ASIDE if self._set_aside(text) else ""
        return Follow(other, NOTICE_OTHER_GAME + aside)

    def _write(self, text: str) -> bool:
        try:
            self.backend.setItem(SAVE_KEY, text)
        except Exception:  # quota exceeded, storage disabled mid-session, ...
            if not self.failed:
                self.notice = NOTICE_FULL
            self.failed = True
            return False
        self.known = text
        if self.failed:
            self.failed = False
            self.notice = None
        return True

    def changed(self, raw: str | None) -> Follow | None:
        """Another tab wrote ``raw`` (a ``storage`` event): what this tab should show, if anything.

        Only a readable save that is not what this tab already knows is
        followed; anything else waits for this tab's next write, which
        reconciles the two.
        """
        if raw is None or raw == self.known or self.kept_bad:
            return None
        try:
            other = read(raw)
        except SaveError:
            return None
        mine_text = self.known
        self.known = raw
        if mine_text is None:
            return Follow(other, NOTICE_FOLLOWED)
        try:
            mine = read(mine_text).record
        except SaveError:
            return Follow(other, NOTICE_FOLLOWED)
        theirs = other.record
        if theirs.extends(mine):
            return Follow(other, NOTICE_FOLLOWED)
        if theirs.code == mine.code and theirs.start == mine.start:
            return Follow(other, NOTICE_DIVERGED if not mine.extends(theirs) else NOTICE_FOLLOWED)
        return Follow(other, NOTICE_OTHER_GAME)

    def load(self) -> Saved | None:
        """The saved game, or None if there is none or it was set aside (``notice`` says why)."""
        try:
            raw = self.backend.getItem(SAVE_KEY)
        except Exception:
            self.notice = NOTICE_NO_STORAGE
            return None
        self.known = raw
        if raw is None:
            return None
        started = time.perf_counter()
        try:
            return read(raw)
        except SaveError as err:
            head = f"La partida guardada no se ha podido abrir: {err} "
            if self._set_aside(raw, remove=True):
                self.notice = head + "Se ha guardado aparte sin borrarla y empieza una partida nueva."
                self.known = None
            else:
                self.kept_bad = True
                self.notice = head + NOTICE_KEPT_IN_PLACE
            return None
        finally:
            self.load_ms = (time.perf_counter() - started) * 1000

    def _set_aside(self, raw: str, *, remove: bool = False) -> bool:
        """Copy ``raw`` to the first free ``ocho-loco:aparte:<n>`` (never over another); True if done.

        With ``remove`` the save slot is emptied once the copy is made, and
        only then.
        """
        try:
            n = 1
            while self.backend.getItem(ASIDE_PREFIX + str(n)) is not None:
                n += 1
            self.backend.setItem(ASIDE_PREFIX + str(n), raw)
            if self.backend.getItem(ASIDE_PREFIX + str(n)) != raw:
                return False
            if remove:
                self.backend.removeItem(SAVE_KEY)
        except Exception:
            return False
        return True

    def aside_count(self) -> int:
        """How many saves are kept aside."""
        try:
            n = 0
            while self.backend.getItem(ASIDE_PREFIX + str(n + 1)) is not None:
                n += 1
        except Exception:
            return 0
        return n

    def clear_aside(self) -> None:
        """Delete every save kept aside (the player asked for it)."""
        for n in range(self.aside_count(), 0, -1):
            with contextlib.suppress(Exception):
                self.backend.removeItem(ASIDE_PREFIX + str(n))

    def discard_bad(self) -> None:
        """Let the next save replace an unreadable save that could not be set aside (player's choice)."""
        if self.kept_bad:
            self.kept_bad = False
            self.known = None

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

    def level(self) -> str:
        """The CPU level for new games («Rival»), ``normal`` unless the player chose another."""
        return self.pref(LEVEL_KEY, LEVELS, "normal")

    def set_level(self, level: str) -> None:
        if level in LEVELS:
            self.set_pref(LEVEL_KEY, level)

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
