"""The kept games' IndexedDB database, from Python's worker: read at once, written in order.

``pyscript.storage`` made the database (``IDBMap/@pyscript/<name>``, one object store ``entries``,
every value a Flatted text), and its reader asks for each key in a transaction of its own: 100,000
keys took 5.5 s of the worker before «Tus partidas» could be drawn. :meth:`KeptStore.open` reads
every key and value with ``getAllKeys`` and ``getAll`` in one transaction, a few spans of keys,
and each span crosses into Python as one text. The values of a later form's texts (a page of today
only lists them) stay in JavaScript until one is asked for. Each write is a request of its own;
IndexedDB runs one database's read-write transactions in the order they were made, so a later
write never lands before an earlier one, and :meth:`KeptStore.sync` waits for all of them (a
read-only transaction waits for the writes made before it).

The worker's runtime only (Pyodide's ``js`` and ``pyodide.ffi``): the browser tests drive it
(``tests/browser/test_page_history_store.py``), ``python -m lab.history_bench --page`` times it.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from typing import Any

from .kept import LATER_PREFIXES

PREFIX = "IDBMap/"  # the database's name is PREFIX + the store's name, as pyscript.storage named it
OBJECTS = "entries"
SEPARATOR = "\x00"  # never in a JSON text: the values cross as one text, cut here


def _request(request: Any) -> asyncio.Future[Any]:  # pragma: no cover  # the worker's runtime only
    """A future of an IndexedDB request's result (its error as an :class:`OSError`)."""
    ffi: Any = importlib.import_module("pyodide.ffi")
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    handlers: list[Any] = []

    def settle(ok: bool) -> None:
        asyncio.get_event_loop().call_soon(lambda: [handler.destroy() for handler in handlers])
        if future.done():
            return
        if ok:
            future.set_result(request.result)
        else:
            future.set_exception(OSError(str(request.error)))

    handlers.extend(ffi.create_proxy(lambda _event, ok=ok: settle(ok)) for ok in (True, False))
    request.onsuccess, request.onerror = handlers
    return future


def _cross(array: Any) -> list[str]:  # pragma: no cover  # the worker's runtime only
    """A JavaScript array of strings as a Python list: joined into one text, cut again (as JSON when an
    item holds :data:`SEPARATOR`). An item that is not a string reads as text no page wrote."""
    count = int(array.length)
    cut = str(array.join(SEPARATOR)).split(SEPARATOR) if count else []
    if len(cut) != count:
        js: Any = importlib.import_module("js")
        cut = [str(item) for item in json.loads(str(js.JSON.stringify(array)))]
    return cut


def _concat(js: Any, arrays: list[Any]) -> Any:  # pragma: no cover  # the worker's runtime only
    """One JavaScript array of ``arrays``' items, in order (copied once, and only when there are several)."""
    full = [array for array in arrays if array.length]
    return full[0] if len(full) == 1 else js.Array.new() if not full else full[0].concat(*full[1:])


def _spans() -> list[tuple[str, str | None, bool]]:
    """Every string key in spans, in order: (from, to or None for the last string, of a later form).

    A later form's texts (:data:`ui.kept.LATER_PREFIXES`) are spans apart: their values stay in
    JavaScript until one is asked for.
    """
    spans, lower = [], ""
    for prefix in LATER_PREFIXES:  # "r5." … : "r5/" is the first text after all that begin with "r5."
        after = prefix[:-1] + "/"
        spans += [(lower, prefix, False), (prefix, after, True)]
        lower = after
    return [*spans, (lower, None, False)]


class KeptStore:  # pragma: no cover  # the worker's runtime only
    """One open IndexedDB database of kept games: ``set``, ``delete`` and ``clear`` write at once (in
    the order called), ``sync`` waits for them, ``close`` closes it after them."""

    def __init__(self, db: Any) -> None:
        self._db = db

    @classmethod
    async def open(cls, name: str) -> tuple[KeptStore, list[tuple[str, str]], tuple[list[str], Any]]:
        """Open (or make) the database of ``name`` and read it: the pairs, and a later form's texts apart
        (their keys, and their values as a JavaScript array, for :class:`ui.worker.WorkerGames`)."""
        js: Any = importlib.import_module("js")
        ffi: Any = importlib.import_module("pyodide.ffi")
        opening = js.indexedDB.open(PREFIX + name)

        def made(_event: Any) -> None:  # a new database: its one object store
            if not opening.result.objectStoreNames.length:
                opening.result.createObjectStore(OBJECTS)

        upgrade = ffi.create_proxy(made)
        opening.onupgradeneeded = upgrade
        try:
            db = await _request(opening)
        finally:
            opening.onupgradeneeded = None
            upgrade.destroy()
        objects = db.transaction(OBJECTS, "readonly").objectStore(OBJECTS)
        asked = []
        for lower, upper, later in _spans():  # string keys only: an IDBMap of this page keeps no other
            span = js.IDBKeyRange.bound(lower, js.ArrayBuffer.new(0) if upper is None else upper, False, True)
            asked.append((later, _request(objects.getAllKeys(span)), _request(objects.getAll(span))))
        pairs: list[tuple[str, str]] = []
        later_keys: list[str] = []
        later_values: list[Any] = []
        for later, keys, values in asked:
            if later:
                later_keys += _cross(await keys)
                later_values.append(await values)
            else:
                pairs += zip(_cross(await keys), _cross(await values), strict=True)
        return cls(db), pairs, (later_keys, _concat(js, later_values))

    def _write(self, act: str, *args: Any) -> None:
        objects = self._db.transaction(OBJECTS, "readwrite").objectStore(OBJECTS)
        getattr(objects, act)(*args)

    def set(self, key: str, value: str) -> None:
        self._write("put", value, key)

    def delete(self, key: str) -> None:
        self._write("delete", key)

    def clear(self) -> None:
        self._write("clear")

    async def sync(self) -> None:
        """Wait until every write made so far has ended (the browser says a failed one on the console)."""
        await _request(self._db.transaction(OBJECTS, "readonly").objectStore(OBJECTS).count())

    async def close(self) -> None:
        """Close the database once the writes made so far are done (a deletion waits for this)."""
        try:
            await self.sync()
        finally:
            self._db.close()
