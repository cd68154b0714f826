"""The export file of «Tus partidas»: its shape read and bounded, and its games imported in steps.

The file's format is described in :mod:`ui.history`; an import keeps a game
only after it has been checked here like a game played here, in steps the
page runs in slices (:class:`ImportJob`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.daily import day_text
from engine.record import Record, RecordError

if TYPE_CHECKING:
    from engine.stats import Outcome

from .kept import MAX_PENDING

APP = "ocho-loco"
EXPORT_FORMAT = "partidas"
EXPORT_VERSION = 1
MAX_IMPORT_CHARS = 5_000_000
MAX_DEPTH = 6
FILE_TOO_LARGE = "El archivo es demasiado grande para ser un historial de Ocho Loco."


class Keeper(Protocol):
    """Where the imported games go (:class:`ui.history.History`)."""

    def has(self, record: Record) -> bool: ...
    def merge(self, record: Record) -> None: ...
    def keep_unchecked(self, text: str, date: str, err: Exception) -> str: ...
    def check(self, record: Record) -> Generator[float, None, Outcome]: ...
    def keep_checked(self, record: Record, date: str, result: Outcome) -> bool: ...
    def flush(self) -> None: ...


@dataclass(frozen=True)
class Imported:
    """What an import did: games added, already kept, refused, kept unchecked; the file's current save."""

    added: int
    duplicates: int
    refused: int
    current: str | None
    later: int = 0
    full: int = 0  # games a later page may read, not kept: too many wait already (ui.kept.MAX_PENDING)

    def message(self) -> str:
        def games(n: int) -> str:
            return "1 partida" if n == 1 else f"{thousands(n)} partidas"

        parts = [f"Importadas {games(self.added)}."]
        if self.duplicates:
            were = "ya estaba" if self.duplicates == 1 else "ya estaban"
            parts.append(f"{games(self.duplicates).capitalize()} {were} en tu historial.")
        if self.later:
            parts.append(
                f"Guardadas sin contar {games(self.later)} que esta página no puede comprobar: se contarán "
                "cuando la página se actualice."
            )
        if self.full:
            parts.append(
                f"No se han guardado {games(self.full)} que esta página no puede comprobar: ya hay "
                f"{MAX_PENDING} esperando a una versión más nueva."
            )
        if self.refused:
            parts.append(f"Rechazadas {games(self.refused)} que no cuadran con las reglas o con la CPU.")
        return " ".join(parts)


def thousands(n: int) -> str:
    """Spanish digit grouping: ``12.650``."""
    return f"{n:,}".replace(",", ".")


class HistoryFileError(ValueError):
    """A file that is not an export of «Tus partidas»; the message is Spanish."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting(text: str) -> int:
    """How deep ``[`` and ``{`` nest in a JSON text, outside strings (as :func:`ui.storage.nesting`).

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


def read_export(text: str) -> tuple[list[object], str | None]:
    """The games list and the current save (as JSON text) of an export file; HistoryFileError if none."""
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
    current = data.get("current")
    return games, json.dumps(current) if isinstance(current, dict) else None


def item_fields(item: object) -> tuple[str, str]:
    """The record's text and the day of one game of a file (only those two fields); ValueError if bad."""
    if not isinstance(item, dict):
        raise ValueError("not a game")
    text, date = item.get("record"), item.get("date")
    if not isinstance(text, str) or not isinstance(date, str):
        raise ValueError("no record or no date")
    return text, day_text(date)


def read_item(item: object) -> tuple[Record, str]:
    """The record and date of one game of a file (only those two fields are read); ValueError if bad."""
    text, day = item_fields(item)
    return Record.parse(text), day


class ImportJob:
    """One import: every game of the file checked here before it is kept, in small steps."""

    def __init__(self, history: Keeper, games: list[object], current: str | None) -> None:
        self.history = history
        self.games = games
        self.current = current
        self.total = len(games)
        self.done = 0
        self.added = self.duplicates = self.refused = self.later = self.full = 0

    def steps(self) -> Iterator[int]:
        """Yield after each step of work (a few moves checked), with the games done so far."""
        history = self.history
        for item in self.games:
            record: Record | None = None
            try:
                text, date = item_fields(item)
                record = Record.parse(text)
            except RecordError as err:  # a later page's text is kept for a page that can read it
                self._count(history.keep_unchecked(text, date, err))
                self.done += 1
                yield self.done
                continue
            except ValueError:
                record = None
            if record is None:
                self.refused += 1
            elif history.has(record):
                history.merge(record)  # a copy with hints gives the kept one its hints
                self.duplicates += 1
            else:
                try:
                    steps = history.check(record)
                    while True:
                        try:
                            next(steps)
                        except StopIteration as end:
                            result: Outcome = end.value
                            break
                        yield self.done
                except Exception as err:  # refused by the rules or the CPU check, or a check that broke
                    self._count(history.keep_unchecked(str(record), date, err))
                else:
                    if history.has(record):  # kept meanwhile (a game ended during the import)
                        history.merge(record)
                        self.duplicates += 1
                    elif history.keep_checked(record, date, result):
                        self.added += 1
            self.done += 1
            yield self.done
        history.flush()

    def _count(self, kept: str) -> None:
        """Count what :meth:`Keeper.keep_unchecked` did (``kept``, ``already``, ``full`` or ``refused``)."""
        if kept == "kept":
            self.later += 1
        elif kept == "already":
            self.duplicates += 1
        elif kept == "full":
            self.full += 1
        else:
            self.refused += 1

    def result(self) -> Imported:
        return Imported(self.added, self.duplicates, self.refused, self.current, self.later, self.full)
