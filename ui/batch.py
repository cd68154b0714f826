"""The table's :class:`ui.screen.Screen`: operations in a batch for the page to write, not the DOM.

Python runs in a Web Worker (:mod:`ui.worker`) and the page
(``assets/page.js``) writes the DOM. Everything the table asks of the screen
becomes one operation in a batch, a JSON list the page applies in one frame,
such as ``["html", id, html]`` or ``["attr", id, name, value | null]``; each is
built from its declaration in :mod:`ui.protocol` (:func:`ui.protocol.op`), the one
place its kind and fields are written.

A timer (``later``) and the lock on the save (``lock``) are tokens: the page
sets the timer, or waits for the Web Lock and reads localStorage, and then
calls the worker back with the token (:meth:`BatchScreen.fire`,
:meth:`BatchScreen.run_locked`), whose batch it applies in turn.

localStorage exists only on the page: :class:`Mirror` is the worker's copy of
the site's keys (the page passes them in at start, again under each lock, and
on every ``storage`` event), and each write becomes a ``store`` operation. A
read-compare-write under the lock sees the keys as they are at that moment.

Pure Python: the tests drive it with no browser.

>>> screen = BatchScreen()
>>> screen.status("Te toca.")
>>> screen.later(300, lambda: screen.text("stock-count", "30"))
>>> screen.take()
[['status', 'Te toca.'], ['later', 300, 1]]
>>> screen.fire(1)
>>> screen.take()
[['text', 'stock-count', '30']]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .prefs import PREFIX
from .protocol import (
    Attr,
    Copy,
    Dialog,
    Download,
    Focus,
    Hash,
    Html,
    Later,
    Lock,
    NoticeLine,
    Probe,
    Sound,
    State,
    Status,
    StoreKey,
    Text,
    op,
)
from .screen import SoundName, TableState

Op = list[Any]  # an operation as the batch carries it (ui.protocol.op)


class Mirror:
    """The worker's copy of the site's localStorage keys; every write is also a ``store`` operation."""

    def __init__(self, data: dict[str, str], out: Callable[[Op], None]) -> None:
        self.data = dict(data)
        self.out = out
        # Keys whose next write fails here: the page could not write them (storage full).
        self.refuse: set[str] = set()

    def getItem(self, key: str) -> str | None:
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        if key in self.refuse:
            self.refuse.discard(key)
            raise OSError("the page could not write " + key)
        self.data[key] = value
        self.out(op(StoreKey(key, value)))

    def removeItem(self, key: str) -> None:
        self.data.pop(key, None)
        self.out(op(StoreKey(key, None)))

    def refresh(self, data: dict[str, str]) -> None:
        """The keys as the page read them just now (under the lock, or after another tab wrote)."""
        self.data = {key: value for key, value in data.items() if key.startswith(PREFIX)}

    def changed(self, key: str, value: str | None) -> None:
        """Another tab wrote one key (the page's ``storage`` event)."""
        if value is None:
            self.data.pop(key, None)
        else:
            self.data[key] = value


class BatchScreen:
    """The :class:`ui.screen.Screen` of the worker: operations appended to a batch."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self._next = 0
        self._timers: dict[int, Callable[[], None]] = {}
        self._locked: dict[int, Callable[[], None]] = {}
        self.mirror: Mirror | None = None
        self.probing = False  # the page's probe switch is on (tests and benchmarks): send figures

    def emit(self, data: Op) -> None:
        """Append one operation as :func:`ui.protocol.op` writes it (the store's writes, the worker's)."""
        self.ops.append(data)

    def take(self) -> list[Op]:
        """The batch so far, emptied: what the page applies next."""
        ops, self.ops = self.ops, []
        return ops

    def _token(self) -> int:
        self._next += 1
        return self._next

    # -- the Screen protocol -------------------------------------------------------

    def html(self, el_id: str, html: str) -> None:
        self.ops.append(op(Html(el_id, html)))

    def text(self, el_id: str, text: str) -> None:
        self.ops.append(op(Text(el_id, text)))

    def attr(self, el_id: str, name: str, value: str | None) -> None:
        self.ops.append(op(Attr(el_id, name, value)))

    def dialog(self, el_id: str, show: bool) -> None:
        self.ops.append(op(Dialog(el_id, show)))

    def state(self, state: TableState) -> None:
        self.ops.append(op(State(state, state.pictured)))

    def status(self, text: str) -> None:
        self.ops.append(op(Status(text)))

    def notice(self, text: str | None) -> None:
        self.ops.append(op(NoticeLine(text)))

    def later(self, ms: int, fn: Callable[[], None]) -> None:
        token = self._token()
        self._timers[token] = fn
        self.ops.append(op(Later(ms, token)))

    def set_hash(self, fragment: str) -> None:
        self.ops.append(op(Hash(fragment)))

    def copy_text(self, text: str) -> None:
        self.ops.append(op(Copy(text)))

    def focus(self, el_id: str) -> None:
        self.ops.append(op(Focus(el_id)))

    def sound(self, name: SoundName) -> None:
        self.ops.append(op(Sound(name)))

    def download(self, name: str, text: str) -> None:
        """Have the page save ``text`` as a file called ``name`` (an export)."""
        self.ops.append(op(Download(name, text)))

    def timing(self, cpu_ms: float) -> None:
        self.probe("timing", round(cpu_ms, 3))

    def probe(self, name: str, value: object) -> None:
        """A figure for tests and benchmarks, sent only when the page's probe switch is on."""
        if self.probing:
            self.ops.append(op(Probe(name, value)))

    # -- what the page calls back ------------------------------------------------------

    def fire(self, token: int) -> None:
        """The page's timer ``token`` went off: run what was scheduled (once; an unknown token is nothing)."""
        fn = self._timers.pop(token, None)
        if fn is not None:
            fn()

    def lock(self, fn: Callable[[], None]) -> None:
        """:data:`ui.storage.Lock`: run ``fn`` once the page holds the Web Lock on the save."""
        token = self._token()
        self._locked[token] = fn
        self.ops.append(op(Lock(token)))

    def run_locked(self, token: int, stored: dict[str, str] | None) -> None:
        """The page holds the lock and read ``stored`` (the site's keys now): run what waited for it.

        The ``store`` operations it writes are applied by the page before it
        lets the lock go.
        """
        fn = self._locked.pop(token, None)
        if fn is None:
            return
        if stored is not None and self.mirror is not None:
            self.mirror.refresh(stored)
        fn()
