"""«Tus partidas»: every finished or abandoned game kept on the device as its record, with its date.

Stored under ``ocho-loco:partidas`` (the current game's save, ``ocho-loco:partida``,
is :mod:`ui.storage`'s and is not touched here)::

    {"app": "ocho-loco", "version": 1,
     "games": [{"record": "r1.A2K7QM92.n.…", "date": "2025-01-31", "o": [1, [12, 104], [0], [0, 12]]}],
     "older": {"2": {…tally…}, "3": {…tally…}}}

``games`` are oldest first. ``o`` caches what replaying the record gives
(finished, totals, winners, your penalty per hand): it is recomputed from
the record whenever it is missing or does not fit, and an import always
recomputes it, so the statistics stay a function of the records. The last
:data:`KEEP` games are kept in full; older ones are folded into ``older``, a
summary per table size (:class:`engine.stats.Tally`).

Export file (``ocho-loco-partidas-<date>.json``), format version 1::

    {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": "2025-01-31",
     "games": [{"record": "r1.…", "date": "2025-01-30"}, …],
     "older": {"2": {…}, "3": {…}} | null,
     "current": {"app": "ocho-loco", "version": 2, "record": "r1.…", "ui": {…}} | null}

Import replays every record (one that does not replay is refused and
counted), skips records already kept, and keeps the dates it reads.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass

from engine.codes import CODE_LENGTH, CodeError, GameCode
from engine.daily import daily_code, day_text
from engine.record import FORMAT, MAX_TEXT, Record, RecordError
from engine.stats import TABLES, Outcome, Stats, Tally, compute, outcome

from .storage import PREFIX, Backend

FORMAT_PREFIX = FORMAT + "."
HISTORY_KEY = PREFIX + "partidas"
ASIDE_KEY = PREFIX + "partidas:aparte"
APP = "ocho-loco"
VERSION = 1
EXPORT_FORMAT = "partidas"
EXPORT_VERSION = 1
KEEP = 300  # games kept in full; about 400 characters each (measured), so about 120 kB
RECENT = 20
MAX_IMPORT_CHARS = 5_000_000
MAX_DEPTH = 6

FILE_TOO_LARGE = "El archivo es demasiado grande para ser un historial de Ocho Loco."
NOTICE_UNREADABLE = (
    "Tu historial de partidas no se ha podido leer: se ha guardado aparte sin borrarlo y empieza uno nuevo."
)
NOTICE_FULL = "No se ha podido guardar tu historial de partidas (el almacenamiento está lleno o bloqueado)."


@dataclass(frozen=True)
class Entry:
    """One kept game: its record's text and code, the local date it ended on and its replayed outcome.

    The record is parsed again only when needed: loading a few hundred kept
    games at start-up reads their codes and cached outcomes, nothing more.
    """

    text: str
    code: GameCode
    date: str
    outcome: Outcome

    @classmethod
    def of(cls, record: Record, date: str, result: Outcome) -> Entry:
        return cls(str(record), record.code, date, result)

    @property
    def record(self) -> Record:
        return Record.parse(self.text)


@dataclass(frozen=True)
class Imported:
    """What an import did: games added, already kept, refused; the file's current save, if any."""

    added: int
    duplicates: int
    refused: int
    current: str | None

    def message(self) -> str:
        def games(n: int) -> str:
            return "1 partida" if n == 1 else f"{n} partidas"

        parts = [f"Importadas {games(self.added)}."]
        if self.duplicates:
            parts.append(f"{games(self.duplicates).capitalize()} ya estaban en tu historial.")
        if self.refused:
            parts.append(f"Rechazadas {games(self.refused)} que no cuadran con las reglas.")
        return " ".join(parts)


class HistoryFileError(ValueError):
    """A file that is not an export of «Tus partidas»; the message is Spanish."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting(text: str) -> int:
    """How deep ``[`` and ``{`` nest in a JSON text, outside strings (as :func:`ui.storage.nesting`).

    Strings and everything but brackets are dropped by regular expressions
    first, so a long history is checked in a fraction of a millisecond.

    >>> nesting('{"a": [1, "[[{"], "b": {}}')
    2
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _outcome_json(o: Outcome) -> list[object]:
    return [int(o.finished), list(o.totals), list(o.winners), list(o.penalties)]


def _outcome_from(data: object, players: int) -> Outcome | None:
    """A cached outcome if it is well formed for a table of ``players``, else None (recompute)."""
    if not (isinstance(data, list) and len(data) == 4):
        return None
    finished, totals, winners, penalties = data
    lists = (totals, winners, penalties)
    if finished not in (0, 1) or not all(isinstance(x, list) for x in lists):
        return None
    if not all(type(n) is int and 0 <= n < 1000 for x in lists for n in x):
        return None
    if len(totals) != players or not all(s < players for s in winners):
        return None
    return Outcome(players, bool(finished), tuple(totals), tuple(winners), tuple(penalties))


def _entry(item: object, cached: bool) -> Entry:
    """One stored or imported game; ValueError (or RecordError) if it cannot be kept.

    With ``cached``, a well-formed cached outcome is taken as it is (the
    record was replayed when it was kept); otherwise the record is replayed.
    """
    if not isinstance(item, dict):
        raise ValueError("not a game")
    text, date = item.get("record"), item.get("date")
    if not isinstance(text, str) or not isinstance(date, str):
        raise ValueError("no record or no date")
    day_text(date)
    # Four fields: a partial record (five) never counts, so it is replayed and refused below.
    if cached and text.startswith(FORMAT_PREFIX) and text.count(".") == 3 and len(text) <= MAX_TEXT:
        try:
            code = GameCode.parse(text[len(FORMAT_PREFIX) : len(FORMAT_PREFIX) + CODE_LENGTH])
        except CodeError:
            raise ValueError("bad code") from None
        known = _outcome_from(item.get("o"), code.players)
        if known is not None:
            return Entry(text, code, date, known)
    record = Record.parse(text)
    return Entry.of(record, date, outcome(record))


def _older(data: object) -> dict[int, Tally]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError("bad summary")
    return {int(k): Tally.from_json(v) for k, v in data.items() if k in ("2", "3")}


class History:
    """The kept games of this device; ``notice`` holds the latest problem worth telling."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.entries: list[Entry] = []
        self.older: dict[int, Tally] = {}
        self.notice: str | None = None
        self._load()

    def _load(self) -> None:
        try:
            raw = self.backend.getItem(HISTORY_KEY)
        except Exception:
            return
        if raw is None:
            return
        try:
            if len(raw) > MAX_IMPORT_CHARS or nesting(raw) > MAX_DEPTH:
                raise ValueError("too large")
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("app") != APP or data.get("version") != VERSION:
                raise ValueError("not a history")
            games = data.get("games")
            if not isinstance(games, list):
                raise ValueError("no games")
            self.older = _older(data.get("older"))
        except (ValueError, TypeError):
            with contextlib.suppress(Exception):
                self.backend.setItem(ASIDE_KEY, raw)
                self.backend.removeItem(HISTORY_KEY)
            self.notice = NOTICE_UNREADABLE
            return
        for item in games:
            # One bad game does not cost the others (it is left out, never rewritten away silently:
            # the stored text stays until the next game is added).
            with contextlib.suppress(ValueError, RecordError):
                self.entries.append(_entry(item, cached=True))

    def save(self) -> bool:
        data = {
            "app": APP,
            "version": VERSION,
            "games": [
                {"record": e.text, "date": e.date, "o": _outcome_json(e.outcome)} for e in self.entries
            ],
            "older": {str(k): v.to_json() for k, v in self.older.items()} or None,
        }
        try:
            self.backend.setItem(HISTORY_KEY, json.dumps(data, separators=(",", ":")))
        except Exception:
            self.notice = NOTICE_FULL
            return False
        return True

    def has(self, record: Record) -> bool:
        text = str(record)
        return any(e.text == text for e in self.entries)

    def add(self, record: Record, date: str) -> bool:
        """Keep a finished or abandoned game (once); False if it was kept already or cannot count."""
        if not record.verified or not record.moves or self.has(record):
            return False
        try:
            entry = Entry.of(record, day_text(date), outcome(record))
        except (ValueError, RecordError):
            return False
        self._reload()
        if self.has(record):
            return False
        self.entries.append(entry)
        self._trim()
        self.save()
        return True

    def _reload(self) -> None:
        """Take in what another tab kept since this one read the history, so no tab writes over it."""
        stored = History(self.backend)
        if stored.notice is not None:
            return
        mine = {e.text for e in self.entries}
        extra = [e for e in stored.entries if e.text not in mine]
        if extra:
            self.entries = sorted([*self.entries, *extra], key=lambda e: e.date)
        if not self.older and stored.older:
            self.older = stored.older

    def _trim(self) -> None:
        """Fold the games beyond :data:`KEEP` into the per-table summary."""
        extra = len(self.entries) - KEEP
        if extra <= 0:
            return
        for entry in self.entries[:extra]:
            players = entry.outcome.players
            self.older.setdefault(players, Tally()).add(entry.outcome)
        del self.entries[:extra]

    def stats(self) -> Stats:
        return compute((e.outcome for e in self.entries), self.older)

    def recent(self) -> list[Entry]:
        """The last :data:`RECENT` games, newest first."""
        return self.entries[-RECENT:][::-1]

    def daily(self, date: str) -> dict[int, Entry | None]:
        """Per table size, your first finished game of ``date``'s deal of the day (None if not yet)."""
        out: dict[int, Entry | None] = {}
        for players in TABLES:
            code = daily_code(date, players)
            out[players] = next((e for e in self.entries if e.code == code and e.outcome.finished), None)
        return out

    # -- export and import ------------------------------------------------------------------

    def export(self, current: str | None, date: str) -> str:
        """The export file's text: every kept record, the summary of older ones, the current save."""
        save: object = None
        if current is not None:
            with contextlib.suppress(ValueError):
                save = json.loads(current)
        data = {
            "app": APP,
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported": date,
            "games": [{"record": e.text, "date": e.date} for e in self.entries],
            "older": {str(k): v.to_json() for k, v in self.older.items()} or None,
            "current": save,
        }
        return json.dumps(data, ensure_ascii=False, indent=1)

    def import_text(self, text: str) -> Imported:
        """Merge an export file; :class:`HistoryFileError` if it is not one. Every record is replayed."""
        if len(text) > MAX_IMPORT_CHARS:
            raise HistoryFileError(FILE_TOO_LARGE)
        if nesting(text) > MAX_DEPTH:
            raise HistoryFileError("El archivo no es un historial de Ocho Loco.")
        try:
            data = json.loads(text)
        except ValueError:
            raise HistoryFileError("El archivo no se puede leer: no es un historial de Ocho Loco.") from None
        if not isinstance(data, dict) or data.get("app") != APP or data.get("format") != EXPORT_FORMAT:
            raise HistoryFileError("El archivo no es un historial de Ocho Loco.")
        if data.get("version") != EXPORT_VERSION:
            raise HistoryFileError("El archivo es de otra versión de la página y no se puede importar.")
        games = data.get("games")
        if not isinstance(games, list):
            raise HistoryFileError("El archivo no trae la lista de partidas.")
        self._reload()
        known = {e.text for e in self.entries}
        added: list[Entry] = []
        duplicates = refused = 0
        for item in games:
            try:
                entry = _entry(item, cached=False)
            except (ValueError, RecordError):
                refused += 1
                continue
            if entry.text in known:
                duplicates += 1
            else:
                known.add(entry.text)
                added.append(entry)
        if not self.older:
            # The summary of games no longer kept in full cannot be replayed; it is taken only by
            # a device that has none (a new browser), so it is never counted twice.
            with contextlib.suppress(ValueError, TypeError):
                self.older = _older(data.get("older"))
        if added:
            # Oldest first by date; a stable sort keeps each day's order.
            self.entries = sorted([*self.entries, *added], key=lambda e: e.date)
            self._trim()
        self.save()
        current = data.get("current")
        return Imported(
            len(added), duplicates, refused, json.dumps(current) if isinstance(current, dict) else None
        )


# -- an accepted challenge, kept while its game is played --------------------------------------

CHALLENGE_KEY = PREFIX + "reto"


def keep_challenge(backend: Backend, record: str | None, name: str = "") -> None:
    """Remember (or forget, with ``None``) the challenge being played, to survive a reload."""
    with contextlib.suppress(Exception):
        if record is None:
            backend.removeItem(CHALLENGE_KEY)
        else:
            backend.setItem(CHALLENGE_KEY, json.dumps({"record": record, "de": name}))


def kept_challenge(backend: Backend) -> tuple[str, str] | None:
    """The (record text, name) remembered by :func:`keep_challenge`; verified again by the caller."""
    try:
        raw = backend.getItem(CHALLENGE_KEY)
        data = json.loads(raw) if raw is not None and len(raw) < 10_000 else None
    except Exception:
        return None
    if not isinstance(data, dict):
        return None
    record, name = data.get("record"), data.get("de")
    if not isinstance(record, str) or not isinstance(name, str):
        return None
    return record, name


__all__ = ["HISTORY_KEY", "KEEP", "RECENT", "Entry", "History", "HistoryFileError", "Imported"]
