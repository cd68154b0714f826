"""«Tus partidas»: every finished or abandoned game kept on the device as its record, nothing taken on trust.

Each game is one entry of a key-value store (:class:`Games`): in the page,
IndexedDB, reached from the worker; in tests, a plain dict. The key is the
record's text and the value this device's note of it (:mod:`ui.kept`: the
date, the order, the status and the outcome of the check). Nothing is ever
folded into a summary or dropped, and statistics come only from games
checked on this device.

A hand's review («Repaso», :mod:`engine.review`) is kept in the same store
under a key of its own (:func:`review_key`, ``@repaso:<version>:<first
move>:<record up to the hand's end>``), so a second look is instant; it is
not a game, is never exported, and a broken one is simply made again.

Export file (``ocho-loco-partidas-<date>.json``), format version 1::

    {"app": "ocho-loco", "format": "partidas", "version": 1, "exported": "2025-01-31",
     "games": [{"record": "r2.…", "date": "2025-01-30"}, …],
     "current": {"app": "ocho-loco", "version": 2, "record": "r1.…", "ui": {…}} | null}

An import reads only ``record`` and ``date`` of each game (an ``older``
summary or a cached ``o`` in a file from an earlier page is ignored), and
checks every new record like a game played here, in slices
(:class:`ui.history_file.ImportJob`), before it is kept.

The history an earlier page kept in localStorage (``ocho-loco:partidas``) is
taken in once (:meth:`History.migrate`): its games are kept and checked like
the others; its ``older`` summary, which has no records, is kept apart as a
figure of the past (:class:`Past`) and never enters the statistics.
"""

from __future__ import annotations

import contextlib
import heapq
import json
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Generator, Iterator, MutableMapping
from operator import attrgetter
from typing import TYPE_CHECKING

from engine.codes import TABLE_SIZES as TABLES
from engine.daily import daily_code, day_text
from engine.record import FORMAT, MARKED_FORMATS, Record, RecordError

from .history_file import (
    APP,
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_DEPTH,
    MAX_IMPORT_CHARS,
    Imported,
    ImportJob,
    nesting,
    read_export,
    read_item,
)
from .kept import (
    BROKEN,
    CHECKED,
    FORMAT_PREFIX,
    MAX_PENDING,
    NEWER,
    PENDING,
    REFUSED,
    Entry,
    NotAGame,
    Past,
    checked,
    envelope,
    identity,
    identity_of,
    kept_text,
    later_texts,
    rank,
    refused_for_good,
    stored,
    stored_later,
)
from .prefs import PREFIX
from .storage import Backend

if TYPE_CHECKING:
    from engine.stats import Outcome, Stats

LEGACY_KEY = PREFIX + "partidas"  # where an earlier page kept the history, in localStorage
HISTORY_KEY = LEGACY_KEY
MIGRATED_KEY = "migrado"  # in the games store: the localStorage history has been taken in
PAST_KEY = "pasado"  # in the games store: the earlier page's summary of older games
REVIEW_PREFIX = "@repaso:"  # in the games store: a hand's review, beside its game (never a game)
# What :meth:`History.keep_unchecked` did with a game it could not check.
KEPT, ALREADY, FULL, REFUSED_TEXT = "kept", "already", "full", "refused"
STORE_NAME = "ocho-loco-partidas"  # the IndexedDB store's name (pyscript.storage prefixes it)
RECENT = 20
SORT_KEY = attrgetter("date", "order", "text")  # Entry.sort_key, made in C: a visit sorts every game
LOAD_SLICE = 500  # games read from the store between two yields (a few ms in the page)


NOTICE_FULL = "No se ha podido guardar tu historial de partidas (el almacenamiento está lleno o bloqueado)."


# The storage medium of the kept games: ``pyscript.storage`` hands Python a ``dict`` subclass
# that writes every change through to IndexedDB; tests use a plain dict.
Games = MutableMapping[str, object]


class History:
    """The kept games of this device, over a :class:`Games` store; ``notice`` holds a problem worth telling.

    ``flush`` is called after writes (the page asks IndexedDB to commit).
    """

    def __init__(
        self, backend: Backend | None, games: Games | None = None, flush: Callable[[], None] | None = None
    ) -> None:
        self.backend = backend
        self.games: Games = games if games is not None else {}
        self.flush = flush or (lambda: None)
        self.entries: list[Entry] = []
        self.known: set[str] = set()
        self.ids: dict[str, str] = {}  # a game's identity (identity()) -> the key it is kept under
        # Pending games this page could not check (NEWER or BROKEN), by key: shown, not counted, not
        # checked again in this visit; the next page (or visit) checks them again.
        self.later: dict[str, str] = {}
        # Keys of the store that are no game's text (planted, or written by no page of this game): never
        # read as games, listed apart so the player can remove them (:meth:`delete`).
        self.unreadable: list[str] = []
        self.past: Past | None = None
        self.notice: str | None = None
        self._next = 0
        self._load()
        self.migrate()

    def _load(self) -> None:
        for _ in self._load_steps():
            pass

    def _load_steps(self) -> Iterator[None]:
        """Read the store, yielding every :data:`LOAD_SLICE` games (a game kept meanwhile is not lost)."""
        twins: list[tuple[str, Entry]] = []
        later, unreadable, known, ids, entries = (
            self.later,
            self.unreadable,
            self.known,
            self.ids,
            self.entries,
        )
        top = self._next
        games = self.games
        keys = list(games)
        for start in range(0, len(keys), LOAD_SLICE):
            if start:
                self._next = top
                yield
            chunk = keys[start : start + LOAD_SLICE]
            waiting = later_texts([key for key in chunk if type(key) is str]) - known
            if waiting:  # texts of a later form: only their keys are read, never checked here
                known.update(waiting)
                ids.update(zip(waiting, waiting, strict=True))  # a later form's key is its own identity
                later.update(dict.fromkeys(waiting, NEWER))
                chunk = [key for key in chunk if key not in waiting]
            for key in chunk:
                raw = games.get(key)
                if key == PAST_KEY:
                    with contextlib.suppress(ValueError, TypeError):
                        self.past = Past.read(json.loads(raw) if isinstance(raw, str) else None)
                    continue
                if key in known or key == MIGRATED_KEY or key.startswith(REVIEW_PREFIX):
                    continue  # kept again while the store was being read, or not a game
                try:
                    wrapper = envelope(key)
                except NotAGame:
                    unreadable.append(key)
                    continue
                entry = stored(key, raw, wrapper)  # of a form this page reads: later_texts took the rest
                if entry.order >= top:
                    top = entry.order + 1
                # identity_of, inlined: the usual r2 key is its own identity
                ident = key if key.startswith(FORMAT_PREFIX) else identity_of(key)
                twin = ids.get(ident)
                if twin is not None:  # one game kept twice (by an earlier page): one entry, the marked copy
                    twins.append((twin, entry))
                    continue
                entries.append(entry)
                known.add(key)
                ids[ident] = key
        self._next = top
        entries.sort(key=SORT_KEY)
        for twin, entry in twins:
            self._merge(next(e for e in self.entries if e.text == self.ids[identity_of(twin)]), entry)

    def _put(self, entry: Entry) -> bool:
        """Write ``entry`` to the store and the list (replacing an older version of it)."""
        try:
            self.games[entry.text] = entry.value()
        except Exception:
            self.notice = NOTICE_FULL
            return False
        if entry.text in self.known:
            # The same game again (its check done, its hints merged): in place when it keeps its place
            # in the order, which a check always does (no list rebuilt per game: a visit is O(n)).
            at = bisect_left(self.entries, entry.sort_key(), key=SORT_KEY)
            if at < len(self.entries) and self.entries[at].text == entry.text:
                self.entries[at] = entry
                return True
            self.entries = [e for e in self.entries if e.text != entry.text]
        self.known.add(entry.text)
        self.ids[identity_of(entry.text)] = entry.text
        insort(self.entries, entry, key=SORT_KEY)
        self._next = max(self._next, entry.order + 1)
        return True

    # -- reviews («Repaso») kept beside the games ---------------------------------------------

    def kept_review(self, key: str) -> object | None:
        """The review kept under ``key`` (:func:`review_key`), as read from JSON, or None."""
        try:
            raw = self.games.get(key)
            return json.loads(raw) if isinstance(raw, str) else None
        except (ValueError, TypeError):
            return None

    def keep_review(self, key: str, data: object) -> None:
        """Keep a finished review (a second look is then instant); a full store only loses the cache."""
        try:
            self.games[key] = json.dumps(data, separators=(",", ":"))
        except Exception:
            return
        self.flush()

    def attach(self, games: Games, flush: Callable[[], None] | None = None) -> None:
        for _ in self.attach_steps(games, flush):
            pass

    def attach_steps(self, games: Games, flush: Callable[[], None] | None = None) -> Iterator[None]:
        """Switch to the page's real store once it is open, keeping what was kept in the meantime.

        Reading thousands of games is done in steps (the page runs them in slices of its timer).
        """
        early, early_waiting = self.entries, self._waiting_texts()
        kept_early = {text: self.games.get(text) for text in early_waiting}
        self.games, self.flush = games, flush or (lambda: None)
        self.entries, self.known, self.ids, self._next = [], set(), {}, 0
        self.later, self.unreadable = {}, []
        yield from self._load_steps()
        self.migrate()
        for text, value in kept_early.items():
            if text not in self.known and isinstance(value, str):
                self._keep_later(text, value)
        for entry in early:
            twin = self.ids.get(identity_of(entry.text))
            if twin is None:
                self._put(entry)
            else:
                self._merge(next(e for e in self.entries if e.text == twin), entry)
        self.flush()

    def migrate(self) -> None:
        """Take in, once, the history an earlier page kept in localStorage (nothing in it is trusted)."""
        if self.backend is None or MIGRATED_KEY in self.games:
            return
        try:
            raw = self.backend.getItem(LEGACY_KEY)
        except Exception:
            return
        if raw is not None:
            try:
                if len(raw) > MAX_IMPORT_CHARS or nesting(raw) > MAX_DEPTH:
                    raise ValueError("too large")
                data = json.loads(raw)
            except ValueError:
                data = None
            games = data.get("games") if isinstance(data, dict) else None
            for item in games if isinstance(games, list) else ():
                with contextlib.suppress(ValueError):  # RecordError is one too: the game never counted
                    record, date = read_item(item)
                    self._keep(record, date, PENDING)
            past = Past.read(data.get("older")) if isinstance(data, dict) else None
            if past is not None:
                self.past = past
                with contextlib.suppress(Exception):
                    self.games[PAST_KEY] = json.dumps({"2": {"played": past.played, "won": past.won}})
        # The old text stays in localStorage: it is the copy a reader of earlier pages would find.
        with contextlib.suppress(Exception):
            self.games[MIGRATED_KEY] = "1"
        self.flush()

    def _keep(self, record: Record, date: str, status: str, result: Outcome | None = None) -> bool:
        """Keep a game not kept yet; a twin of a kept one only gives it its hints (False either way)."""
        entry = Entry(kept_text(record), date, self._next, status, result)
        twin = self.ids.get(identity(record))
        if twin is not None:
            self._merge(next(e for e in self.entries if e.text == twin), entry)
            return False
        return self._put(entry)

    def _merge(self, kept: Entry, other: Entry) -> None:
        """Two copies of one game: one entry, under the copy with its hints (the kept one if they tie).

        The date and order stay the kept entry's; a result checked on this device is never lost.
        """
        if rank(other.text) <= rank(kept.text):
            if other.text != kept.text and other.text not in self.known:
                with contextlib.suppress(Exception):  # a twin left in the store by an earlier page
                    if other.text in self.games:
                        del self.games[other.text]
            return
        status, result = (
            (kept.status, kept.outcome) if kept.status != PENDING else (other.status, other.outcome)
        )
        if not self._put(Entry(other.text, kept.date, kept.order, status, result)):
            return
        self.entries = [e for e in self.entries if e.text != kept.text]
        self.known.discard(kept.text)
        self.later.pop(kept.text, None)
        with contextlib.suppress(Exception):
            del self.games[kept.text]

    def has(self, record: Record) -> bool:
        return identity(record) in self.ids

    def keep_unchecked(self, text: str, date: str, err: Exception) -> str:
        """Keep an imported game this page could not check (``err``), pending, for a page that can.

        Only a text whose envelope reads (:func:`ui.kept.envelope`) and that a later page may read
        (:attr:`RecordError.newer`), or whose check broke here, is kept, and only while fewer than
        :data:`MAX_PENDING` games wait. Returns what happened: :data:`KEPT`, :data:`ALREADY` (kept
        before), :data:`FULL` (too many wait) or :data:`REFUSED_TEXT` (no page will count it).
        """
        if (isinstance(err, RecordError) and not err.newer) or refused_for_good(err):
            return REFUSED_TEXT
        try:
            wrapper = envelope(text)
        except NotAGame:
            return REFUSED_TEXT
        with contextlib.suppress(RecordError):
            text = kept_text(Record.parse(text))  # a game that reads is kept in the current form
        if text in self.known or identity_of(text) in self.ids:
            return ALREADY
        if self.waiting_count() >= MAX_PENDING:
            return FULL
        if not wrapper.known:  # a later form: kept as it came, listed apart (as _load_steps reads it)
            if not self._keep_later(text, Entry(text, date, self._next, PENDING).value()):
                return FULL
            self._next += 1
            return KEPT
        if not self._put(Entry(text, date, self._next, PENDING)):
            return FULL
        self.later[text] = NEWER if isinstance(err, RecordError) else BROKEN
        return KEPT

    def _keep_later(self, text: str, value: str) -> bool:
        """Keep a text of a later form: in the store and in :attr:`later`, never among the entries."""
        try:
            self.games[text] = value
        except Exception:
            self.notice = NOTICE_FULL
            return False
        self.known.add(text)
        self.ids[text], self.later[text] = text, NEWER
        return True

    def _waiting_listed(self) -> dict[str, Entry]:
        """The waiting games that are entries (a check broke here), by text; a later form's text is none."""
        return {e.text: e for e in self.entries if e.text in self.later}

    def _waiting_texts(self) -> list[str]:
        """The texts of a later form kept (in :attr:`later` and not among the entries), in text order."""
        listed = self._waiting_listed()
        return sorted(text for text in self.later if text not in listed)

    def _later_entry(self, text: str) -> Entry:
        """A later form's text as an entry, its note read from the store now."""
        return stored_later(text, self.games.get(text))

    def waiting_count(self) -> int:
        """How many kept games wait for a page that can check them (:meth:`waiting`, summed)."""
        return len(self.later)  # a key leaves ``later`` whenever it leaves ``known`` (_merge, delete)

    def merge(self, record: Record) -> None:
        """A copy of a game kept already: the kept entry takes its hints if it has none (nothing is added)."""
        self._keep(record, "0000-00-00", PENDING)

    def check(self, record: Record) -> Generator[float, None, Outcome]:
        """:func:`checked`: ``record`` checked in steps, its outcome at the end."""
        return checked(record)

    def keep_checked(self, record: Record, date: str, result: Outcome) -> bool:
        """Keep a game checked here (an import's); False if it was kept already."""
        return self._keep(record, date, CHECKED, result)

    def add(self, record: Record, date: str) -> bool:
        """Keep a finished or abandoned game (once), to be checked; False if kept already or not a game."""
        if not record.verified or not record.moves:
            return False
        if self.has(record):
            self.merge(record)
            self.flush()
            return False
        try:
            day = day_text(date)
        except ValueError:
            return False
        kept = self._keep(record, day, PENDING)
        self.flush()
        return kept

    # -- checking on this device -------------------------------------------------------------

    def pending(self) -> list[Entry]:
        """The games still to check in this visit (not those this page already found it cannot check)."""
        return [e for e in self.entries if e.status == PENDING and e.text not in self.later]

    def waiting(self) -> dict[str, int]:
        """How many kept games this page could not check, by why (:data:`NEWER`, :data:`BROKEN`)."""
        return dict(Counter(self.later.values()))  # every game in ``later`` is pending

    def check_steps(self) -> Iterator[tuple[int, int]]:
        """Check every pending game, yielding (games done, games to do) after each step of work.

        Only a refusal for good (:func:`refused_for_good`) is stored as one; a game this page
        cannot check stays pending (stored ``?``), shown as such, for a page that can.
        """
        todo = self.pending()
        for done, entry in enumerate(todo):
            status, result, why = REFUSED, None, ""
            try:
                steps = checked(entry.record)
                while True:
                    try:
                        next(steps)
                    except StopIteration as end:
                        status, result = CHECKED, end.value
                        break
                    yield done, len(todo)
            except Exception as err:  # refused by the rules or the CPU check, or not checkable here
                if not refused_for_good(err):
                    status = PENDING
                    why = NEWER if isinstance(err, RecordError) and err.newer else BROKEN
            if entry.text in self.known:
                if why:
                    self.later[entry.text] = why
                self._put(Entry(entry.text, entry.date, entry.order, status, result))
            yield done + 1, len(todo)
        if todo:
            self.flush()

    def check_all(self) -> None:
        for _ in self.check_steps():
            pass

    # -- what is shown -----------------------------------------------------------------------

    def counted(self) -> list[Entry]:
        return [e for e in self.entries if e.counted]

    def stats(self) -> Stats:
        """Statistics of the games checked on this device, in the order they were played."""
        from engine.stats import compute  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

        return compute(e.outcome for e in self.entries if e.outcome is not None and e.status == CHECKED)

    def recent(self) -> list[Entry]:
        """The last :data:`RECENT` games this page reads, newest first (checked or not: each says which).

        A game waiting for a later page is listed apart (:meth:`waiting_entries`), so any number of
        them never pushes a game of this page out of the list.
        """
        out: list[Entry] = []
        for entry in reversed(self.entries):
            if entry.status == PENDING and entry.text in self.later:
                continue
            out.append(entry)
            if len(out) == RECENT:
                break
        return out

    def entry(self, text: str) -> Entry | None:
        """The kept game of ``text`` (a later form's too), or None."""
        if text not in self.known:
            return None
        found = next((e for e in self.entries if e.text == text), None)
        return found or self._later_entry(text)

    def waiting_entries(self) -> list[Entry]:
        """The first :data:`RECENT` games waiting for a page that can check them, in the order of their texts.

        A later form's note is read only here, for the games shown: a visit reads no more of them
        than their keys (:meth:`_load_steps`), however many were planted in the store.
        """
        listed = self._waiting_listed()
        return [listed.get(text) or self._later_entry(text) for text in heapq.nsmallest(RECENT, self.later)]

    def delete(self, key: str) -> bool:
        """Remove one kept game, or one unreadable key, from this device; False if it was not kept."""
        if key in self.unreadable:
            self.unreadable.remove(key)
        elif key in self.known:
            self.known.discard(key)
            self.entries = [e for e in self.entries if e.text != key]
            self.later.pop(key, None)
            ident = identity_of(key)
            if self.ids.get(ident) == key:
                del self.ids[ident]
        else:
            return False
        with contextlib.suppress(Exception):
            del self.games[key]
        self.flush()
        return True

    def delete_unreadable(self) -> int:
        """Remove every key that is no game (:attr:`unreadable`); how many went."""
        keys, self.unreadable = self.unreadable, []
        for key in keys:
            with contextlib.suppress(Exception):
                del self.games[key]
        if keys:
            self.flush()
        return len(keys)

    def daily(self, date: str) -> dict[int, Entry | None]:
        """Per table size, your first checked finished game of ``date``'s deal of the day, or None."""
        out: dict[int, Entry | None] = {}
        for players in TABLES:
            code = daily_code(date, players).text
            starts = tuple(f"{form}.{code}." for form in (FORMAT, *MARKED_FORMATS))  # with hints or not
            out[players] = next(
                (
                    e
                    for e in self.entries
                    if e.text.startswith(starts) and e.outcome is not None and e.outcome.finished
                ),
                None,
            )
        return out

    # -- export and import ------------------------------------------------------------------

    def export(self, current: str | None, date: str) -> str:
        """The export file's text: every kept record with its date, and the current save."""
        save: object = None
        if current is not None:
            with contextlib.suppress(ValueError):
                save = json.loads(current)
        data = {
            "app": APP,
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported": date,
            "games": [{"record": e.text, "date": e.date} for e in self.entries]
            + [{"record": t, "date": self._later_entry(t).date} for t in self._waiting_texts()],
            "current": save,
        }
        return json.dumps(data, ensure_ascii=False, indent=1)

    def importer(self, text: str) -> ImportJob:
        """An import of an export file, to be run in steps; :class:`HistoryFileError` if it is not one."""
        games, current = read_export(text)
        return ImportJob(self, games, current)

    def import_text(self, text: str) -> Imported:
        """An import run to the end at once (tests and tools; the page runs :meth:`importer` in slices)."""
        job = self.importer(text)
        for _ in job.steps():
            pass
        return job.result()


# -- where a review is kept ------------------------------------------------------------------------


def review_key(record: str, first: int, version: int) -> str:
    """Where the review of moves ``first``.. of ``record`` (the game up to the hand's end) is kept.

    Not a record's text (it starts with ``@``), so loading the games passes it by.
    """
    return f"{REVIEW_PREFIX}{version}:{first}:{record}"


__all__ = [
    "HISTORY_KEY",
    "RECENT",
    "Entry",
    "Games",
    "History",
    "Past",
]
