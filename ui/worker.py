"""The table's Python in a Web Worker, answering the page with batches.

The page (``assets/page.js``) starts this module in a worker with PyScript's
``PyWorker`` and calls it with ``await sync.<name>(json)``; every call returns
the batch of operations (:mod:`ui.batch`) the page applies in one frame. No
call touches the page: the DOM, localStorage, the Web Lock, the clipboard,
the address and files are the page's, asked for by operations. The calls,
the events and the operations, with their fields, are declared once in
:mod:`ui.protocol`.

:class:`Session` is pure Python (the tests drive it); :func:`main` binds it in
the worker.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, TypeVar

from .batch import BatchScreen, Mirror
from .history_file import FILE_TOO_LARGE, MAX_IMPORT_CHARS
from .outside import ASIDE_PREFIX
from .protocol import (
    CancelSuit,
    ChallengeLink,
    ChooseBack,
    ChooseFelt,
    ChooseForced,
    ChooseLevel,
    ChoosePace,
    ChooseSize,
    ChooseSuit,
    ClearAside,
    CloseReplay,
    Config,
    CopyLink,
    Daily,
    Deal,
    DrawOrPass,
    Early,
    Event,
    Export,
    ForgetGame,
    ForgetUnreadable,
    GameoverClosed,
    HashChanged,
    Hint,
    Import,
    KeepGame,
    Learn,
    NewGame,
    NextHand,
    OpenReplay,
    PlayCard,
    ReplaceGame,
    ResultsClosed,
    ReviewGo,
    SeeFinal,
    SeePartidas,
    SkipCount,
    SkipLesson,
    StepReplay,
    StorageChanged,
    StoreFailed,
    ToggleChallenge,
    ToggleSound,
    decode,
    decode_start,
    op,
)
from .storage import SAVE_KEY, Store
from .table import Table

E = TypeVar("E", bound=Event)
Handler = Callable[[Table, Any], None]


def on(kind: type[E], handler: Callable[[Table, E], None]) -> tuple[type[Any], Handler]:
    """One row of the answer table: events of type ``kind`` go to ``handler`` (typed by mypy)."""
    return kind, handler


def _text(value: object) -> str:
    """A text field as the page sent it; anything else (missing, a number, null) reads as ""."""
    return value if isinstance(value, str) else ""


class Session:
    """One page's table in the worker: start, events, timers and the lock, each answered by a batch."""

    def __init__(self) -> None:
        self.screen = BatchScreen()
        self.table: Table | None = None
        self.store: Store | None = None
        self.today = ""
        # One handler per event type that ui.protocol declares (tests/test_protocol.py checks both ways).
        self.handlers: dict[type[Any], Handler] = dict(
            [
                on(PlayCard, lambda table, e: table.click_card(e.card)),
                on(ChooseSuit, lambda table, e: table.choose_suit(e.suit)),
                on(CancelSuit, lambda table, _: table.cancel_chooser()),
                on(DrawOrPass, lambda table, _: table.main_button()),
                on(Deal, lambda table, e: table.request_deal(e.players)),
                on(Daily, lambda table, e: table.daily.request(e.players)),
                on(NextHand, lambda table, e: table.next_hand(by_key=e.by_key)),
                on(NewGame, lambda table, e: table.new_game_after_end(by_key=e.by_key)),
                on(SeeFinal, lambda table, e: table.results.open_final(by_key=e.by_key)),
                on(SkipCount, lambda table, _: table.results.skip()),
                on(ToggleChallenge, lambda table, _: table.results.toggle_challenge()),
                on(ChallengeLink, lambda table, e: table.challenges.link(e.name)),
                on(CopyLink, lambda table, _: table.arrivals.copy()),
                on(ReplaceGame, lambda table, _: table.answer_replace(True)),
                on(KeepGame, lambda table, _: table.answer_replace(False)),
                on(Export, lambda table, _: self.screen.download(*table.transfer.export_text())),
                on(Import, self._import),
                on(ClearAside, lambda table, _: table.saves.clear_aside()),
                on(OpenReplay, lambda table, _: table.results.open_replay()),
                on(StepReplay, lambda table, e: table.results.replay_go(e.where)),
                on(CloseReplay, lambda table, _: table.results.close_replay()),
                on(ReviewGo, lambda table, e: table.results.review_jump(e.step)),
                on(SeePartidas, lambda table, _: table.results.see_partidas()),
                on(Hint, lambda table, _: table.ask_hint()),
                on(Learn, lambda table, _: table.lesson.start()),
                on(SkipLesson, lambda table, _: table.lesson.skip()),
                on(ChoosePace, lambda table, e: table.bar.set_pace(e.pace)),
                on(ChooseLevel, lambda table, e: table.bar.choose_level(e.level)),
                on(ChooseSize, lambda table, e: table.bar.choose_size(e.players)),
                on(ForgetGame, lambda table, e: table.transfer.ask_forget(e.key)),
                on(ForgetUnreadable, lambda table, _: table.transfer.ask_forget(None)),
                on(ToggleSound, lambda table, _: table.bar.toggle_sound()),
                on(ChooseForced, lambda table, e: table.bar.set_forced(e.on)),
                on(ChooseFelt, lambda table, e: table.bar.set_felt(e.felt)),
                on(ChooseBack, lambda table, e: table.bar.set_back(e.back)),
                on(ResultsClosed, lambda table, _: table.results.dismissed()),
                on(GameoverClosed, lambda table, _: table.results.final_dismissed()),
                on(HashChanged, lambda table, e: table.arrivals.open(e.hash)),
                on(StorageChanged, self._storage),
                on(StoreFailed, self._store_failed),
            ]
        )
        # The click remembered before Python was ready is answered as the early table says.
        self.early: dict[type[Any], Handler] = dict(
            [
                on(Deal, lambda table, e: table.request_deal(e.players)),
                on(Daily, lambda table, e: table.daily.request(e.players)),
                on(Learn, lambda table, _: table.lesson.start()),
                on(PlayCard, lambda table, e: table.early_click(e.card)),
                on(DrawOrPass, lambda table, _: table.early_click(None)),
            ]
        )

    def _batch(self) -> str:
        return json.dumps(self.screen.take(), ensure_ascii=False)

    def start(self, raw: str) -> str:
        """Resume, open or prepare a game from what the page gives (:class:`ui.protocol.Start`)."""
        begun = decode_start(json.loads(raw))
        screen = self.screen
        backend = None
        if begun.storage is not None:
            backend = Mirror(begun.storage, screen.emit)
            screen.mirror = backend
        lock = screen.lock if backend is not None and begun.locks else None
        store = Store(backend, writable=begun.writable, lock=lock)
        self.store = store
        self.today = begun.today
        rng = random.Random(json.dumps(begun.seed)) if begun.seed else random.Random()
        table = Table(screen, store, fast=begun.reduced, rng=rng, today=lambda: self.today)
        self.table = table
        screen.probing = begun.probe
        table.transfer.expect_games()  # the page asks for the games' store next (games())
        screen.emit(op(Config(MAX_IMPORT_CHARS)))
        screen.attr("mode-3", "checked", "" if store.setup().players == 3 else None)
        screen.attr("pace-" + table.setup.pace, "checked", "")
        table.start(begun.hash, begun.url.split("#", 1)[0])
        screen.probe("saveLoadMs", round(store.load_ms, 2))  # read by python -m lab.page_play
        if begun.early is not None:
            self._early(table, begun.early)
        return self._batch()

    def _early(self, table: Table, early: Early) -> None:
        """Apply the choice and the click (an :data:`ui.protocol.EarlyIntent`) index.html remembered."""
        table.render_setup()  # «Barajando…» gives way to the label the table calls for
        if early.choice is not None:
            table.bar.early_choice(early.choice.players, early.choice.level)
        if early.click is not None:
            self.early[type(early.click)](table, early.click)

    def event(self, raw: str) -> str:
        """One event the page forwarded; the batch it leads to (none for an event that does not decode)."""
        data = json.loads(raw)
        table = self.table
        if table is None or not isinstance(data, dict):
            return "[]"
        if isinstance(data.get("today"), str):
            self.today = data["today"]
        try:
            event = decode(data)
        except ValueError as error:
            print("Ocho Loco: an event refused:", error)  # a page out of step with this worker
            return self._batch()
        self.handlers[type(event)](table, event)
        return self._batch()

    def _import(self, table: Table, event: Import) -> None:
        if event.size > MAX_IMPORT_CHARS:
            self.screen.text("partidas-status", FILE_TOO_LARGE)
        else:
            table.transfer.import_text(event.text)

    def _storage(self, table: Table, event: StorageChanged) -> None:
        """Another tab wrote a key: the copy follows; a new save is compared under the lock."""
        key = event.key
        store = self.store
        if store is None or self.screen.mirror is None or not key:
            return
        self.screen.mirror.changed(key, event.value)
        if key == SAVE_KEY:
            store.locked(lambda: table.saves.changed(store.stored()))

    def _store_failed(self, table: Table, event: StoreFailed) -> None:
        """The page could not write what the worker wrote (storage full): the save is tried again, failing.

        The copy goes back to what is stored; the table's save then fails as a
        refused write does (:meth:`ui.storage.Store.save`), with the same notice. An unreadable save that
        could not be set aside at start is read again the same way: it stays in
        its slot (the page made no removal after the refused write) and the
        notice says so.
        """
        store, mirror = self.store, self.screen.mirror
        if store is None or mirror is None or event.storage is None:
            return
        mirror.refresh(event.storage)
        refused = list(event.keys)
        aside = [key for key in refused if key.startswith(ASIDE_PREFIX)]
        if aside and table.game is None and store.known is None and mirror.getItem(SAVE_KEY) is not None:
            # The unreadable save could not be set aside at start (the page kept it in its slot): it is
            # read again with those writes refused, so it stays in place and the notice says so.
            mirror.refuse.update(aside)
            store.load()
            mirror.refuse.difference_update(aside)
            self.screen.notice(store.notice)
            table.show_aside()
            return
        if SAVE_KEY in refused and table.game is not None:
            store.known = mirror.getItem(SAVE_KEY)
            mirror.refuse.add(SAVE_KEY)
            table.saves.save()

    def fire(self, token: int) -> str:
        self.screen.fire(int(token))
        return self._batch()

    def locked(self, token: int, raw: str) -> str:
        stored = json.loads(raw) if raw else None
        self.screen.run_locked(int(token), stored if isinstance(stored, dict) else None)
        return self._batch()

    def attach_games(self, games: Any, flush: Any) -> str:
        if self.table is not None:
            self.table.transfer.attach_games(games, flush)
        return self._batch()

    def games_unavailable(self) -> str:
        if self.table is not None:
            self.table.transfer.games_unavailable()
        return self._batch()

    def games_closed(self, written: bool) -> str:
        """The store was deleted under this tab (another tab's ``deleteDatabase``) and written again.

        ``written``: every game this tab holds was written back (False: the store could not be
        opened again, and the games stay in memory only). Said on the notice line, never silently.
        """
        kept = len(self.table.history.known) if self.table is not None else 0
        if not written:
            text = (
                f"{GAMES_DELETED} No se han podido guardar otra vez: las de esta pestaña se pierden al "
                "cerrarla. Descárgalas con «Descargar mis partidas»."
            )
        else:
            games = "la partida" if kept == 1 else f"las {kept} partidas"
            text = f"{GAMES_DELETED} Esta pestaña ha vuelto a guardar {games} que tenía."
        self.screen.notice(text)
        return self._batch()


def to_flat(value: object) -> str:
    """A kept value as ``pyscript.storage`` writes it (Flatted's text of ``["generic", value]``).

    The store was first written through ``pyscript.storage`` (which encodes
    with Flatted) and is read and written here by :class:`ui.idb.KeptStore`,
    which stores the text as given; the games kept keep that encoding. Every
    value kept is a string.

    >>> to_flat('{"a":1}')
    '[["1","2"],"generic","{\\"a\\":1}"]'
    """
    if not isinstance(value, str) or value == "generic":  # Flatted would share that one string
        raise TypeError("only strings are kept")
    return json.dumps([["1", "2"], "generic", value], ensure_ascii=False, separators=(",", ":"))


def from_flat(raw: object) -> str | None:
    """The string a stored value holds, or None for anything this page does not write."""
    try:
        data = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    if not (isinstance(data, list) and len(data) == 3 and data[:2] == [["1", "2"], "generic"]):
        return None
    return data[2] if isinstance(data[2], str) else None


_HEAD, _TAIL = '[["1","2"],"generic","', '"]'  # a kept string's Flatted text, around its JSON body
_FLATS_AT_ONCE = 2048


def from_flats(raws: list[object]) -> list[str | None]:
    """:func:`from_flat` of every value, read as one JSON text per :data:`_FLATS_AT_ONCE` values.

    A visit reads every kept value. When each is a Flatted text as this page writes it, their bodies
    joined are the body of one JSON array of strings, parsed at once (a store of 100,000 games is read
    in one JSON parse per block, not one each). The array must come out with exactly one string per
    value, which only happens when each value was such a text; otherwise that block is read value by
    value.
    """
    out: list[str | None] = []
    for start in range(0, len(raws), _FLATS_AT_ONCE):
        block = raws[start : start + _FLATS_AT_ONCE]
        values: object = None
        if set(map(type, block)) == {str}:
            joined = "\x00".join(block)  # type: ignore[arg-type]  # every one a str, checked above
            if joined.startswith(_HEAD) and joined.endswith(_TAIL):
                body = joined[len(_HEAD) : -len(_TAIL)].replace(_TAIL + "\x00" + _HEAD, '","')
                with contextlib.suppress(ValueError):  # a raw NUL left in the text fails the parse
                    values = json.loads('["' + body + '"]')
        if isinstance(values, list) and len(values) == len(block) and set(map(type, values)) == {str}:
            out.extend(values)
        else:
            out.extend(map(from_flat, block))
    return out


GAMES_DELETED = "Otra pestaña ha borrado tus partidas."


class WorkerGames(MutableMapping[str, object]):
    """«Tus partidas» over the page's IndexedDB store (:class:`ui.idb.KeptStore`), every value held here.

    The values of texts of a later form stay as the store gave them (``unread``: keys and an array of
    their Flatted texts, one each) until one is asked for: a visit reads no more of them than their
    keys (:meth:`ui.history.History._load_steps`), however many were planted in the store. Such a value
    that does not read is None. When another tab deletes the database (:meth:`close`, then
    :meth:`reopen` on a store opened again), the writes in between stay here, and everything held is
    written back: a result written after a delete is never lost.
    """

    def __init__(self, store: Any, pairs: list[Any], unread: tuple[list[str], Any] = ([], [])) -> None:
        self._store: Any = store
        values = from_flats([raw for _, raw in pairs])
        read = zip(pairs, values, strict=True)
        self._read: dict[str, object] = {
            key: value for (key, _), value in read if type(key) is str and value is not None
        }
        keys, self._flats = unread
        self._unread: dict[str, int] = dict(zip(keys, range(len(keys)), strict=True))

    def __getitem__(self, key: str) -> object:
        at = self._unread.get(key)
        if at is None:
            return self._read[key]
        value = from_flat(str(self._flats[at]))
        if value is not None:  # read once; a value no page wrote stays as it came (written back so)
            del self._unread[key]
            self._read[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        yield from self._read
        yield from list(self._unread)

    def __len__(self) -> int:
        return len(self._read) + len(self._unread)

    def __contains__(self, key: object) -> bool:
        return key in self._read or key in self._unread

    def __setitem__(self, key: str, value: object) -> None:
        flat = to_flat(value)
        if self._store is not None:
            self._store.set(key, flat)
        self._unread.pop(key, None)
        self._read[key] = value

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        if self._store is not None:
            self._store.delete(key)
        self._unread.pop(key, None)
        self._read.pop(key, None)

    def clear(self) -> None:
        if self._store is not None:
            self._store.clear()
        self._read.clear()
        self._unread.clear()

    @property
    def store(self) -> Any:
        """The store written to now (None while its database is being deleted)."""
        return self._store

    def close(self) -> Any:
        """Stop writing to the store (its database is being deleted); the old store, to be closed."""
        store, self._store = self._store, None
        return store

    def reopen(self, store: Any) -> None:
        """Write everything held to ``store`` (the database made again) and keep writing there."""
        self._store = store
        for key, value in self._read.items():
            store.set(key, to_flat(value))
        for key, at in self._unread.items():
            store.set(key, str(self._flats[at]))  # as it was read


def main() -> None:  # pragma: no cover  # the worker's runtime only
    """Bind a :class:`Session` to the worker's ``sync`` object (Pyodide in a ``PyWorker`` only)."""
    import asyncio  # noqa: PLC0415
    import importlib  # noqa: PLC0415

    try:
        sync: Any = importlib.import_module("pyscript").sync
    except (ImportError, AttributeError):
        sync = importlib.import_module("polyscript").xworker.sync
    session = Session()
    tasks: set[Any] = set()
    opened: dict[str, WorkerGames] = {}

    from .history import STORE_NAME  # noqa: PLC0415
    from .idb import KeptStore  # noqa: PLC0415

    async def games() -> str:
        try:
            store, pairs, unread = await KeptStore.open("@pyscript/" + STORE_NAME)  # pyscript.storage's name
            games = WorkerGames(store, pairs, unread)
        except Exception as error:  # said on the console: the games of this visit stay in memory
            print("Ocho Loco: no IndexedDB for the kept games:", repr(error))
            return session.games_unavailable()

        def flush() -> None:
            current = games.store  # the store open now (another one after a deletion)
            if current is None:
                return
            task = asyncio.ensure_future(current.sync())
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        opened["games"] = games
        return session.attach_games(games, flush)

    async def games_closed() -> str:
        """Another tab deletes the store: close it (the deletion goes through), then write it again."""
        games = opened.get("games")
        if games is None:
            return "[]"
        old = games.close()
        try:
            if old is not None:
                await old.close()  # after the writes already queued: the deletion waits for this
            store, _, _ = await KeptStore.open("@pyscript/" + STORE_NAME)  # after the deletion
            games.reopen(store)
            await store.sync()
        except Exception as error:  # said on the page: the games stay in this tab's memory
            print("Ocho Loco: the kept games could not be written again:", repr(error))
            return session.games_closed(False)
        return session.games_closed(True)

    sync.start = session.start
    sync.event = session.event
    sync.fire = session.fire
    sync.locked = session.locked
    sync.games = games
    sync.gamesClosed = games_closed
