"""One kept game of «Tus partidas»: its identity, its check, and the value this device stores for it.

The key of a kept game is its record's text, which is the game's identity
(code, CPU level and version, every move; :func:`identity` leaves out the
hint marks, so a game is kept once however its copies were marked). The value
is a short JSON text written by this device only::

    "r2.A2K7QM92.n1.…": '["2025-01-31", 17, "ok", [1, [12, 104], [0], [0, 12]]]'
                          date          order status  outcome (finished, totals, winners, your penalties)

Status ``?`` (:data:`PENDING`): kept, not yet checked on this device. ``ok``
(:data:`CHECKED`): replayed here through the rules with every CPU move checked
against the bot of its level and CPU version (:func:`checked`); the outcome is
what that replay gave. ``no`` (:data:`REFUSED`): the record does not check
out; it is kept and never counted. :mod:`ui.history` keeps the entries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from engine.codes import GameCode
from engine.record import (
    FLAG_FORMAT,
    FORMAT,
    HINTS_FORMAT,
    LEGACY_FORMAT,
    MAX_TEXT,
    Record,
    RecordError,
)

if TYPE_CHECKING:
    from engine.stats import Outcome

FORMAT_PREFIX = FORMAT + "."

PENDING, CHECKED, REFUSED = "?", "ok", "no"
# Why a pending game could not be checked on this page (it stays pending, for a page that can).
NEWER, BROKEN = "newer", "broken"
# At most this many games wait, kept unchecked, for a later page (an import beyond it says how many it left).
MAX_PENDING = 200


def _cpu_checked(record: Record) -> Iterator[float]:
    """Replay ``record``, each CPU move checked for its level and version (engine.verify); yield progress."""
    from engine.verify import check_steps  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    return check_steps(record)


def identity(record: Record) -> str:
    """A game's identity as a text: code, level, CPU version and moves, in the current form, no hints.

    A record of the first text form (``r1``, version 1 implied), the same game written as ``r2``,
    and the same moves with the hints asked (``r3``, ``r4``) are one game, kept once.
    """
    return str(record.plain())


def kept_text(record: Record) -> str:
    """The text a game is kept under: its record in the current form, hints included."""
    return str(replace(record, legacy=False)) if record.legacy else str(record)


def identity_of(text: str, known: bool = True) -> str:
    """:func:`identity` of a kept key: cheap for the usual ``r2`` key; a key that is no record is its own.

    ``known=False`` says the key's form is a later one (:attr:`Envelope.known`): it is its own too.
    """
    if text.startswith(FORMAT_PREFIX) or not known:
        return text
    try:
        return identity(Record.parse(text))
    except RecordError:
        return text


def rank(text: str) -> int:
    """Which of two copies of a game is kept: the one with hints in place, then the one with the flag."""
    return 2 if text.startswith(HINTS_FORMAT + ".") else 1 if text.startswith(FLAG_FORMAT + ".") else 0


class NeverCounts(RecordError):
    """A game no page can count, whatever its version: a partial record, or one without a move."""


def refused_for_good(err: BaseException) -> bool:
    """Whether a failed check is the game's own fault, the same on every page.

    A move the rules refuse (a :class:`RecordError` naming it), a CPU move that is not the CPU's
    (:class:`NotPlayedByCpu`) and :class:`NeverCounts` are. Anything else (a text or a CPU version
    this page cannot read, a check that broke) is this page's limit: the game waits for one that can.
    """
    from engine.verify import NotPlayedByCpu  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    return isinstance(err, (NotPlayedByCpu, NeverCounts)) or (
        isinstance(err, RecordError) and err.index is not None
    )


def checked(record: Record) -> Generator[float, None, Outcome]:
    """Check ``record`` in steps (yielding the fraction done) and return its outcome.

    Raises :class:`RecordError` or another ``ValueError`` when it does not
    check out: a partial record, one without a move (:class:`NeverCounts`), an
    illegal move, or a CPU move its level's bot does not choose.
    """
    if not record.verified:
        raise NeverCounts("La partida viene de una versión anterior y sus puntos no se pueden comprobar.")
    if not record.moves:
        raise NeverCounts("La partida no tiene ninguna jugada.")
    yield from _cpu_checked(record)
    from engine.stats import outcome  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    return outcome(record)


def check_now(record: Record) -> Outcome:
    """:func:`checked` run to the end at once."""
    steps = checked(record)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: Outcome = done.value
            return result


class Entry(NamedTuple):
    """One kept game: its record's text and code, the local date it ended on, its order, status, outcome.

    ``outcome`` is set only for a game checked on this device (status ``ok``). (A named tuple, as
    :class:`Envelope`: a visit makes one per kept game.)
    """

    text: str
    date: str
    order: int
    status: str
    outcome: Outcome | None = None

    @property
    def record(self) -> Record:
        return Record.parse(self.text)

    @property
    def code(self) -> GameCode:
        """The game's code, read from its envelope (an entry is only made of a text whose envelope reads)."""
        return envelope(self.text).code

    @property
    def counted(self) -> bool:
        return self.status == CHECKED and self.outcome is not None

    def value(self) -> str:
        o = self.outcome
        cached = None if o is None else [int(o.finished), list(o.totals), list(o.winners), list(o.penalties)]
        return json.dumps([self.date, self.order, self.status, cached], separators=(",", ":"))

    def sort_key(self) -> tuple[str, int, str]:
        return (self.date, self.order, self.text)


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)
# A pending game's note exactly as Entry.value writes it: read without the JSON parser.
_PENDING_VALUE = re.compile(r'\["([0-9]{4}-[0-9]{2}-[0-9]{2})",(0|[1-9][0-9]{0,15}),"\?",null\]', re.ASCII)


# The envelope of a kept text: the fields every record form, this page's and a later one's, begins with.
# form r1 … r99 (a later form is plausible, r999 is not); the code; the level (n, n1, d12, n1p, a later
# one); the moves and a partial record's start, URL-safe.
_KEPT = re.compile(
    r"(?P<form>r(?P<number>[1-9][0-9]?))\.(?P<code>[^.]{8})\.(?P<level>[a-z](?:[1-9][0-9]{0,2})?[a-z]?)"
    r"\.(?P<moves>[A-Za-z0-9_~-]*)(?:\.[A-Za-z0-9_~-]*)?",
    re.ASCII,
)
KNOWN_FORMS = (LEGACY_FORMAT, FORMAT, FLAG_FORMAT, HINTS_FORMAT)
_LEVEL_OF = {
    LEGACY_FORMAT: re.compile(r"[a-z]", re.ASCII),
    FORMAT: re.compile(r"[a-z][1-9][0-9]{0,2}", re.ASCII),
    FLAG_FORMAT: re.compile(r"[a-z][1-9][0-9]{0,2}p", re.ASCII),
    HINTS_FORMAT: re.compile(r"[a-z][1-9][0-9]{0,2}", re.ASCII),
}
# A later form is kept pending only a few numbers ahead of this page's last one.
LATER_FORMS = 5


_CODES: dict[str, GameCode] = {}  # codes read lately (loading thousands of games meets many twice)


class NotAGame(ValueError):
    """A kept key or an imported text whose envelope does not read: no page of this game wrote it."""


class Envelope(NamedTuple):
    """What every kept text says before its moves: its form, its game code and its CPU level field.

    Read by :func:`envelope`, the one reader of kept texts: nothing else cuts a text at fixed places.
    (A named tuple: a visit makes one per kept game, and a frozen dataclass costs several times more.)
    """

    form: str
    code: GameCode
    level: str
    moves: bool  # the moves field holds at least one symbol

    @property
    def known(self) -> bool:
        """Whether this page reads the form (a later form waits, pending, for a page that does)."""
        return self.form in KNOWN_FORMS

    @property
    def fits(self) -> bool:
        """Whether the level field has the shape the form gives it (``n`` in ``r1``, ``n1p`` in ``r3``…).

        Only such a text can have been checked on this device: a note saying so of any other is not
        taken (:func:`stored`).
        """
        shape = _LEVEL_OF.get(self.form)
        return shape is not None and shape.fullmatch(self.level) is not None and self.moves

    @property
    def players(self) -> int:
        return self.code.players


def envelope(text: object) -> Envelope:
    """The envelope of a kept text; :class:`NotAGame` unless it reads.

    A text reads when it is at most :data:`~engine.record.MAX_TEXT` long and has four or five fields:
    a record form (one this page knows, or a later one at most :data:`LATER_FORMS` ahead), a game code
    this page deals (canonical, its check symbol right), a CPU level (a lowercase letter, the CPU
    version, a flag), then URL-safe symbols. Only the moves of a later form may mean something this
    page cannot read.
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise NotAGame("not a record")
    fields = _KEPT.fullmatch(text)  # one pass over the text: thousands are read at every visit
    if fields is None:
        raise NotAGame("not a record")
    form, number, code_text, level, moves = fields.group("form", "number", "code", "level", "moves")
    if int(number) > int(HINTS_FORMAT[1:]) + LATER_FORMS:
        raise NotAGame("not a record form")
    code = _code(code_text)
    if code is None:
        raise NotAGame("not a game code")
    return Envelope(form, code, level, bool(moves))


# Texts of a later form, a line each, as :func:`envelope` reads them: the same fields, the form a few
# numbers ahead; the code is checked apart (:func:`_code`).
_LATER_FORM = "".join(str(int(HINTS_FORMAT[1:]) + n) for n in range(1, LATER_FORMS + 1))  # one digit each
LATER_PREFIXES = tuple(f"r{digit}." for digit in _LATER_FORM)  # every text of a later form begins so
_LATER_LINES = re.compile(
    rf"^(r[{_LATER_FORM}]\.([^.\n]{{8}})\.[a-z](?:[1-9][0-9]{{0,2}})?[a-z]?\.[\w~-]*(?:\.[\w~-]*)?)$",
    re.ASCII | re.MULTILINE,
)


def later_texts(keys: list[str]) -> set[str]:
    """The keys whose envelope reads (:func:`envelope`) and whose form is a later one, read all at once.

    A visit reads every kept key, and a store may hold any number of later texts (a writer of the same
    origin can plant them): they are found by one matcher over the keys, a line each, and each code
    is checked once, not key by key in Python (``tests/test_ui_history_bad_entries.py`` holds this to
    :func:`envelope`).
    """
    lines = "\n".join(keys)
    if lines.count("\n") != len(keys) - 1 or (keys and max(map(len, keys)) > MAX_TEXT):
        return {key for key in keys if _is_later(key)}  # a key of two lines, or too long: one by one
    found = dict(_LATER_LINES.findall(lines))  # text -> its code
    bad = {code for code in set(found.values()) if _code(code) is None}
    return {text for text, code in found.items() if code not in bad} if bad else set(found)


def _is_later(key: str) -> bool:
    try:
        return not envelope(key).known
    except NotAGame:
        return False


def _code(text: str) -> GameCode | None:
    """The game code ``text`` names when it is canonical (its check symbol right), else None; cached."""
    code = _CODES.get(text)
    if code is None:
        code = GameCode.canonical(text)
        if code is None:
            return None
        if len(_CODES) >= 4096:
            _CODES.clear()
        _CODES[text] = code
    return code


def players_of(text: str) -> int:
    """The table size of a kept game's key; :class:`NotAGame` (a ValueError) if the key is not a record's."""
    return envelope(text).players


def _outcome_from(data: object, players: int) -> Outcome | None:
    """This device's cached outcome if it is well formed for a table of ``players``, else None."""
    if not (isinstance(data, list) and len(data) == 4):
        return None
    finished, totals, winners, penalties = data
    if finished not in (0, 1) or not (type(totals) is type(winners) is type(penalties) is list):
        return None
    numbers = totals + winners + penalties
    if numbers and (set(map(type, numbers)) != {int} or min(numbers) < 0 or max(numbers) >= 1000):
        return None
    if len(totals) != players or (winners and max(winners) >= players):
        return None
    from engine.stats import Outcome  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    return Outcome(players, bool(finished), tuple(totals), tuple(winners), tuple(penalties))


def stored_later(text: str, raw: object) -> Entry:
    """A later form's entry, pending (no page of today checks it); its usual note read without JSON."""
    if type(raw) is str and (quick := _PENDING_VALUE.fullmatch(raw)) is not None:
        return Entry(text, quick[1], int(quick[2]), PENDING)
    return stored(text, raw)


def stored(text: str, raw: object, wrapper: Envelope | None = None) -> Entry:
    """A game as this device stored it; anything odd in the value makes it pending (checked again).

    A refusal is checked again too: the page that stored it may have refused what it could not read
    (an older page, a check that broke), and a refusal for good costs one more check per visit.
    ``wrapper`` is the text's :func:`envelope` when the caller has read it already.
    """
    wrapper = wrapper or envelope(text)
    players = wrapper.players
    if isinstance(raw, str) and (quick := _PENDING_VALUE.fullmatch(raw)) is not None:
        return Entry(text, quick.group(1), int(quick.group(2)), PENDING)  # the usual pending note
    try:
        date, order, status, cached = json.loads(raw) if isinstance(raw, str) else raw  # type: ignore[misc]
        if not (isinstance(date, str) and _DAY.fullmatch(date)):
            raise ValueError("bad date")
        if type(order) is not int or status not in (PENDING, CHECKED, REFUSED):
            raise ValueError("bad entry")
    except (ValueError, TypeError):
        return Entry(text, "0000-00-00", 0, PENDING)
    result = _outcome_from(cached, players) if status == CHECKED else None
    if status == REFUSED or (status == CHECKED and (result is None or not wrapper.fits)):
        status, result = PENDING, None
    return Entry(text, date, order, status, result)


@dataclass(frozen=True)
class Past:
    """The summary an earlier page kept of games it no longer had: shown as a figure of the past only."""

    played: int
    won: int

    @classmethod
    def read(cls, data: object) -> Past | None:
        """The old ``older`` field (a tally per table size), or None when it holds nothing sane."""
        if not isinstance(data, dict):
            return None
        played = won = 0
        for key in ("2", "3"):
            tally = data.get(key)
            if tally is None:
                continue
            if not isinstance(tally, dict):
                return None
            p, w = tally.get("played"), tally.get("won")
            if type(p) is not int or type(w) is not int or not 0 <= w <= p < 10**9:
                return None
            played, won = played + p, won + w
        return cls(played, won) if played else None
