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
away: it is moved to ``ocho-loco:aparte:<n>`` and the player is told. Every
read of a save this tab did not just write (at start-up, from another tab)
goes through :func:`ui.outside.take`, so no reader bug can stop the page.

Two tabs on one save: every read-compare-write of the save runs inside
:meth:`Store.locked`. In the page that is one Web Lock held across tabs (the
page takes it for the worker's ``lock`` operation, :mod:`ui.batch`), so two
tabs acting in the same instant compare and write one after the other; here,
and where the browser has no Web Locks, it runs at once, as before.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.cards import BY_TEXT, Card
from engine.game import HAND_OVER, Game
from engine.levels import DEFAULT_LEVEL
from engine.record import Record, RecordError
from engine.save import SaveError, legacy_record, load
from engine.view import seat_view

from .outside import ASIDE_PREFIX, SOURCE_PICTURE, SOURCE_SAVE, SOURCE_TAB, Refused, set_aside, take
from .prefs import (  # the keys of the choices kept, beside the save's
    BACK_KEY,
    BACKS,
    FELT_KEY,
    FELTS,
    FORCED_KEY,
    LEVEL_KEY,
    LEVELS,
    PACE_KEY,
    PACES,
    PREFIX,
    PREFS_KEY,
    SOUND_KEY,
    Setup,
    pace_of,
)

SAVE_KEY = PREFIX + "partida"
# The picture of the table index.html shows at first paint (written by assets/page.js).
PICTURE_KEY = PREFIX + "dibujo"  # the table as data, drawn at first paint (index.html)
MAX_PICTURE_CHARS = 400_000
# The picture is a tree of elements (index.html draws at most 8 levels of them, each a list
# holding an attribute object): deeper JSON than this is not a picture.
MAX_PICTURE_DEPTH = 32
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
NOTICE_DIVERGED_NOT_KEPT = (
    "Esta partida se ha jugado a la vez en dos pestañas: sigue la versión con más jugadas. "
    "La otra no se ha podido guardar aparte porque el almacenamiento está lleno."
)
NOTICE_MINE_ASIDE = " La que tenías en esta pestaña se ha guardado aparte."
NOTICE_TAB_UNREADABLE = "Otra pestaña ha dejado una partida guardada que no se puede abrir: {why} "
NOTICE_PICTURE = "La imagen guardada de la mesa no se podía usar: {why} Se ha guardado aparte."

# Runs a function with the save locked against other tabs (now or later, but in call order).
Lock = Callable[[Callable[[], None]], None]


def _at_once(fn: Callable[[], None]) -> None:
    fn()


def _diverged(kept: bool) -> str:
    """The notice for two versions of one game, true to whether the other version was kept."""
    return NOTICE_DIVERGED if kept else NOTICE_DIVERGED_NOT_KEPT


@dataclass(frozen=True)
class Saved:
    """A save read back: the replayed game, its level, an open chooser, and where it came from."""

    game: Game
    level: str = DEFAULT_LEVEL
    chooser: Card | None = None
    legacy: bool = False  # read from a version-1 snapshot (written back as version 2 on the next save)
    hints: tuple[int, ...] = ()  # where a hint («Pista») was asked: moves played before each

    @property
    def record(self) -> Record:
        return Record.of(self.game, self.level, self.hints)


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

    def __init__(self, backend: Backend | None, *, writable: bool = True, lock: Lock | None = None) -> None:
        self.persistent = backend is not None
        # Web Locks in the page (ui.batch's lock operation); a plain call here and where the browser has none.
        self.locked: Lock = lock if lock is not None else _at_once
        self.backend: Backend = backend if backend is not None else MemoryBackend()
        self.notice: str | None = None if self.persistent else NOTICE_NO_STORAGE
        if self.persistent and not writable:
            self.notice = NOTICE_READ_ONLY
        self.failed = False
        self.known: str | None = None
        # An unreadable save that could not be set aside stays in place; nothing
        # is written over it until the player chooses to start another game.
        self.kept_bad = False
        # The hints this tab's game took from another tab's save of the same game (:meth:`_reconcile`):
        # the table adopts them, so its next save keeps them too.
        self.merged_hints: tuple[int, ...] | None = None
        self.load_ms = 0.0  # how long reading and replaying the save took (the load benchmark reads it)

    @staticmethod
    def payload(
        game: Game, level: str = DEFAULT_LEVEL, chooser: Card | None = None, hints: tuple[int, ...] = ()
    ) -> str:
        """The stored text for ``game``: its record and the page's own state."""
        ui = {"chooser": None if chooser is None else str(chooser), "next_hand": False}
        record = Record.of(game, level, hints)
        if game.hand_start == len(game.history) and game.hand_no > 0 and game.history:
            # A hand dealt but not yet begun: the record ends with the last hand's
            # final move, and the page remembers that the next hand is on the table.
            ui["next_hand"] = True
        data = {"app": APP, "version": VERSION, "record": str(record), "ui": ui}
        return json.dumps(data, separators=(",", ":"))

    def save(
        self,
        game: Game,
        level: str = DEFAULT_LEVEL,
        chooser: Card | None = None,
        *,
        replace: bool = False,
        hints: tuple[int, ...] = (),
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
        text = self.payload(game, level, chooser, hints)
        if not replace:
            try:
                current = self.backend.getItem(SAVE_KEY)
            except Exception:
                current = self.known
            if current is not None and current not in (self.known, text):
                follow = self._reconcile(current, text, Record.of(game, level, hints))
                if follow is not None:
                    self.known = self.stored()  # the other tab's save, or it with this tab's hints
                    return follow
                if self.merged_hints is not None:
                    text = self.payload(game, level, chooser, self.merged_hints)
        if not self._write(text):
            return None
        self.kept_bad = False
        return None

    def _reconcile(self, current: str, text: str, mine: Record) -> Follow | None:
        """Decide between the stored text (written by another tab) and this tab's game."""
        try:
            other = take(SOURCE_TAB, current, read)
        except Refused:
            self._set_aside(current)  # something unreadable took the slot: keep it, then write ours
            return None
        theirs = other.record
        if theirs.extends(mine):
            return Follow(other, NOTICE_FOLLOWED)
        if mine.extends(theirs):
            return None
        merged = tuple(sorted({*mine.hints, *theirs.hints}))
        if mine.plain().extends(theirs.plain()):
            # «Pista» in the other tab as this one moved on: the same game, this tab's moves, both hints.
            self.merged_hints = merged
            return None
        if theirs.plain().extends(mine.plain()):
            together = Saved(other.game, other.level, other.chooser, hints=merged)
            self._write(self.payload(together.game, together.level, together.chooser, merged))
            return Follow(together, NOTICE_FOLLOWED)
        if theirs.code == mine.code and theirs.start == mine.start:
            if len(mine) >= len(theirs):
                self.notice = _diverged(self._set_aside(current))
                return None
            return Follow(other, _diverged(self._set_aside(text)))
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

    def stored(self) -> str | None:
        """The stored save's text as it is now (None if there is none or storage fails)."""
        try:
            return self.backend.getItem(SAVE_KEY)
        except Exception:
            return None

    def changed(self, raw: str | None) -> Follow | None:
        """Another tab wrote ``raw`` (a ``storage`` event): what this tab should show, if anything.

        A readable save that is not what this tab already knows is followed;
        when it went on from an earlier position than this tab's, this tab's
        version is set aside first. An unreadable one is set aside and this
        tab's last save is written back in its place (``notice`` says so).
        Call it inside :attr:`locked`, with the stored text read there.
        """
        if raw is None or raw == self.known or self.kept_bad:
            return None
        try:
            other = take(SOURCE_TAB, raw, read)
        except Refused as err:
            kept = self._set_aside(raw)
            self.notice = NOTICE_TAB_UNREADABLE.format(why=err)
            if not kept:
                self.notice += NOTICE_KEPT_IN_PLACE
                return None
            self.notice += "Se ha guardado aparte y esta pestaña sigue con la suya."
            if self.known is not None:
                self._write(self.known)
            else:
                self.clear()
            return None
        mine_text = self.known
        self.known = raw
        if mine_text is None:
            return Follow(other, NOTICE_FOLLOWED)
        try:
            mine = take(SOURCE_SAVE, mine_text, read).record
        except Refused:
            return Follow(other, NOTICE_FOLLOWED)
        theirs = other.record
        if theirs.extends(mine):
            return Follow(other, NOTICE_FOLLOWED)
        if theirs.code == mine.code and theirs.start == mine.start:
            if mine.extends(theirs):
                return Follow(other, NOTICE_FOLLOWED)
            # Both went on from one position and the other tab's write won: keep this tab's version.
            return Follow(other, _diverged(self._set_aside(mine_text)))
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
        self._check_picture()
        started = time.perf_counter()
        try:
            return take(SOURCE_SAVE, raw, read)
        except Refused as err:
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

    def _check_picture(self) -> None:
        """Set aside a stored picture of the table that is not one (index.html would try to show it)."""
        try:
            raw = self.backend.getItem(PICTURE_KEY)
        except Exception:
            return
        if raw is None:
            return
        try:
            take(SOURCE_PICTURE, raw, read_picture)
        except Refused as err:
            if set_aside(self.backend, raw):
                with contextlib.suppress(Exception):
                    self.backend.removeItem(PICTURE_KEY)
                self.notice = NOTICE_PICTURE.format(why=err)

    def _set_aside(self, raw: str, *, remove: bool = False) -> bool:
        """Keep ``raw`` under ``ocho-loco:aparte:<n>`` (:func:`ui.outside.set_aside`); True if kept.

        With ``remove`` the save slot is emptied once the copy is made, and
        only then, and only if it still holds ``raw``.
        """
        if not set_aside(self.backend, raw):
            return False
        if remove:
            with contextlib.suppress(Exception):
                if self.backend.getItem(SAVE_KEY) == raw:
                    self.backend.removeItem(SAVE_KEY)
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

    # -- the player's preferences: the setup bar, one value over three small keys ---------------

    def setup(self) -> Setup:
        """The choices for the next game (size, «Rival», «Ritmo»); any that does not read is its default."""
        players = 3 if self._pref(PREFS_KEY, ("2", "3"), "2") == "3" else 2
        return Setup(
            players,
            self._pref(LEVEL_KEY, LEVELS, DEFAULT_LEVEL),
            pace_of(self._pref(PACE_KEY, PACES, "normal")) or "normal",
            self._pref(FORCED_KEY, ("si", "no"), "si") == "si",
            self._pref(SOUND_KEY, ("si", "no"), "si") == "si",
            next((f for f in FELTS if f == self._pref(FELT_KEY, FELTS, "verde")), "verde"),
            next((b for b in BACKS if b == self._pref(BACK_KEY, BACKS, "rombos")), "rombos"),
        )

    def set_setup(self, setup: Setup) -> None:
        """Remember the choices; a browser that refuses just forgets them (the game is unaffected)."""
        for key, value in (
            (PREFS_KEY, str(setup.players)),
            (LEVEL_KEY, setup.level),
            (PACE_KEY, setup.pace),
            (FORCED_KEY, "si" if setup.forced else "no"),
            (SOUND_KEY, "si" if setup.sound else "no"),
            (FELT_KEY, setup.felt),
            (BACK_KEY, setup.back),
        ):
            with contextlib.suppress(Exception):
                if self.backend.getItem(key) != value:
                    self.backend.setItem(key, value)

    def _pref(self, key: str, allowed: tuple[str, ...], default: str) -> str:
        try:
            raw = self.backend.getItem(key)
        except Exception:
            return default
        return raw if raw in allowed else default


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
        level, legacy = DEFAULT_LEVEL, True
        hints: tuple[int, ...] = ()
        legacy_record(game)
    elif type(version) is int and version == VERSION:
        try:
            record = Record.parse(data.get("record"))
            game = record.replay()
        except RecordError as err:
            raise SaveError(str(err)) from None
        level, legacy, hints = record.level, False, record.hints
        if ui.get("next_hand") is True and game.phase == HAND_OVER:
            game.next_hand()
    else:
        raise SaveError("La partida guardada es de otra versión de la página.")
    chooser = _chooser(game, ui.get("chooser"))
    return Saved(game, level, chooser, legacy, hints)


def read_picture(raw: str) -> dict[str, object]:
    """A stored picture of the table: a JSON object naming the save it was drawn from.

    Only its shape is checked here; index.html shows it only when its save
    is the stored save. :class:`SaveError` for anything else.
    """
    if len(raw) > MAX_PICTURE_CHARS:
        raise SaveError("Es demasiado grande.")
    # Few brackets in all cannot nest deep; counting
    # them is C-fast, while walking a picture's tens of kB character by character costs milliseconds.
    if raw.count("[") + raw.count("{") > MAX_PICTURE_DEPTH and nesting(raw) > MAX_PICTURE_DEPTH:
        raise SaveError("Está mal formada.")
    try:
        data = json.loads(raw)
    except ValueError:
        raise SaveError("No se puede leer.") from None
    if not isinstance(data, dict) or not isinstance(data.get("save"), str):
        raise SaveError("No dice de qué partida es.")
    return data


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
    plays = seat_view(game, 0).plays_of(card)
    return card if any(a.suit is not None for a in plays) else None
