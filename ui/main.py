"""Start the page: with :mod:`ui.dom`, the only modules that touch the browser (``js`` / ``pyscript``).

It builds the real :class:`ui.screen.Screen` (:class:`ui.dom.DomScreen`),
delegates every click from one stable container (cards are re-rendered, so
nothing binds to them), and hands events to :class:`ui.table.Table` and the
rooms it holds.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from .clicks import Click, dispatch
from .dom import PROXIES as _proxies
from .dom import DomScreen
from .dom import attr_text as _attr
from .dom import element as _el
from .dom import local_storage as _local_storage
from .dom import web_lock as _web_lock
from .history import STORE_NAME
from .history_file import FILE_TOO_LARGE, MAX_IMPORT_CHARS
from .storage import SAVE_KEY, Store
from .table import Table

# Keys that press a focused button or answer a dialog: held down, the browser repeats them.
ACTIVATION_KEYS = frozenset({"Enter", " ", "Spacebar", "Escape"})


def _on_key_repeat(event: Any) -> None:
    """A held key's repeats never press a button or answer a question again (only the first press does).

    Holding Enter on «Otra partida» would otherwise open the question, answer
    it with the focused «Seguir con la mía», then open it again, and so on.
    """
    if bool(getattr(event, "repeat", False)) and str(event.key) in ACTIVATION_KEYS:
        event.preventDefault()
        event.stopPropagation()


def _ask_to_keep_data() -> None:
    try:
        storage = window.navigator.storage
        if storage and storage.persist:
            storage.persist().catch(create_once_callable(lambda _err: None))
    except Exception:
        pass


_tasks: set[Any] = set()  # keep running tasks referenced until they end


def _games_class() -> Any:
    """``pyscript.storage``'s dict over IndexedDB, read in one go.

    Its own constructor decodes every value with a Flatted reader written in
    Python, a few hundred microseconds a game in the page: with thousands of
    games that was seconds in one task. Every value this page writes is a
    string, which Flatted writes as ``[["1","2"],"generic","<the string>"]``;
    here the whole store crosses from JavaScript as one JSON text and each
    value is read with ``json``. Anything else falls back to the stock
    decoder. Writes are the stock ones.
    """
    stock: Any = importlib.import_module("pyscript.storage")  # the page's runtime only, not CPython
    convert = stock._convert_from_idb  # the stock decoder, for values this page did not write

    class Games(stock.Storage):  # type: ignore[misc]  # pyscript has no type information
        def __init__(self, store: Any) -> None:
            began = window.performance.now()
            dict.__init__(self)
            self._store = store
            every = getattr(window.Array, "from")(store.entries())  # a Python keyword, hence getattr
            pairs = json.loads(str(window.JSON.stringify(every)))
            values = _from_idb([raw for _, raw in pairs], convert)
            for (key, _raw), value in zip(pairs, values, strict=True):
                dict.__setitem__(self, key, value)
            # Read by python -m tools.history_bench: this constructor's own share of opening the store.
            document.body.dataset.gamesReadMs = f"{float(window.performance.now() - began):.0f}"

    return Games


def _from_idb(raws: list[Any], fallback: Callable[[Any], Any]) -> list[Any]:
    """Stored values: the page's strings read by one ``json`` call for all, anything else by ``fallback``.

    Every value is a JSON text (Flatted's); joined with commas they are one JSON array.
    """
    try:
        texts = all(isinstance(raw, str) for raw in raws)
        decoded = json.loads("[" + ",".join(raws) + "]") if texts else None
    except ValueError:
        decoded = None
    if decoded is None or len(decoded) != len(raws):
        decoded = [None] * len(raws)
    out = []
    for raw, data in zip(raws, decoded, strict=True):
        flat = isinstance(data, list) and len(data) == 3 and data[:2] == [["1", "2"], "generic"]
        out.append(data[2] if flat and isinstance(data[2], str) else fallback(raw))
    return out


def _open_games(table: Table) -> None:
    """Open «Tus partidas»' IndexedDB store (``pyscript.storage``) and hand it to the table.

    First paint does not wait for it: until the store is open the table keeps
    games in memory, and :meth:`Table.attach_games` moves them in.
    """

    async def opening() -> None:
        try:
            from pyscript import storage  # noqa: PLC0415  # the page's runtime only, not CPython tests

            began = window.performance.now()
            games = await storage(STORE_NAME, storage_class=_games_class())
            opened = window.performance.now()
        except Exception:
            table.transfer.games_unavailable()
            return

        def flush() -> None:
            task = asyncio.ensure_future(games.sync())
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)

        table.transfer.attach_games(games, flush)
        # Read by python -m tools.history_bench: opening the store (its await included), then drawing.
        document.body.dataset.gamesOpenMs = f"{float(opened - began):.0f}"
        document.body.dataset.gamesAttachMs = f"{float(window.performance.now() - opened):.0f}"

    task = asyncio.ensure_future(opening())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def _chosen_players() -> int:
    checked = document.querySelector('input[name="table-size"]:checked')
    return 3 if checked and str(checked.value) == "3" else 2


class Clicks:
    """What a click means, honoured once: stray second clicks of a double click are dropped."""

    def __init__(self, table: Table, screen: DomScreen) -> None:
        self.table = table
        self.screen = screen

    def on_click(self, event: Any) -> None:
        target = event.target
        if not target or not hasattr(target, "closest"):
            return
        hit = target.closest("button")
        if not hit:
            if target.closest("#replace-dialog"):
                _el("replace-no").focus()  # a click beside the buttons leaves Enter on the safe answer
            return
        ident = _attr(hit, "id")
        if _attr(hit, "data-card") and hit.closest("#hand") and int(event.detail or 1) > 1:
            # The second click of a double click (the browser counts it in ``detail``) lands on
            # whatever card slid under the pointer after the first one was played: not a move.
            return
        elif ident == "replace-yes" and int(event.detail or 1) > 1:
            # Throwing a game away takes its own click, not the tail of a double click;
            # the focus that click moved goes back to the safe answer.
            _el("replace-no").focus()
            return
        # A click with ``detail`` 0 came from a key (Enter or Space on the focused button), not a pointer.
        _on_click(self.table, hit, by_key=int(event.detail or 0) == 0)


def _on_click(table: Table, hit: Any, *, by_key: bool = False) -> None:
    if _attr(hit, "id") == "import-btn":
        _el("import-file").click()
        return
    where = "hand" if hit.closest("#hand") else "suit" if hit.closest("#suit-dialog") else ""
    click = Click.of(
        {
            "id": _attr(hit, "id"),
            "card": _attr(hit, "data-card"),
            "suit": _attr(hit, "data-suit"),
            "where": where,
            "players": _chosen_players(),
            "name": str(_el("challenge-name").value),
            "step": _attr(hit, "data-step"),
            "by_key": by_key,
        }
    )
    dispatch(table, click, download=_download)


def _today() -> str:
    """The player's local calendar date, from the browser's clock and time zone."""
    now = window.Date.new()
    return f"{int(now.getFullYear()):04d}-{int(now.getMonth()) + 1:02d}-{int(now.getDate()):02d}"


def _download(name: str, text: str) -> None:
    """Save ``text`` as a file called ``name`` (a Blob and a temporary link; nothing leaves the device)."""
    options = to_js({"type": "application/json"}, dict_converter=window.Object.fromEntries)
    blob = window.Blob.new(to_js([text]), options)
    url = window.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = name
    document.body.append(link)
    link.click()
    link.remove()
    window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 1000)


def _on_import(table: Table, event: Any) -> None:
    """Read the chosen file as text and hand it to the table; the input is cleared for the next one."""
    field = event.target
    files = field.files
    if not files or not files.length:
        return
    chosen = files.item(0)
    field.value = ""
    if int(chosen.size) > MAX_IMPORT_CHARS:
        _el("partidas-status").textContent = FILE_TOO_LARGE
        return
    chosen.text().then(create_once_callable(lambda text: table.transfer.import_text(str(text))))


def _on_hand_key(event: Any) -> None:
    """Arrow keys, Home and End move the focus along the hand (Tab still works too)."""
    key = str(event.key)
    if key not in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"):
        return
    buttons = _el("hand").querySelectorAll("button.card")
    count = int(buttons.length)
    if not count:
        return
    current = -1
    for i in range(count):
        if buttons.item(i) == document.activeElement:
            current = i
    if current < 0:
        return
    if key == "Home":
        target = 0
    elif key == "End":
        target = count - 1
    elif key in ("ArrowLeft", "ArrowUp"):
        target = max(current - 1, 0)
    else:
        target = min(current + 1, count - 1)
    event.preventDefault()
    buttons.item(target).focus()


REPLAY_KEYS = {"ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last"}


def _on_replay_key(table: Table, event: Any) -> None:
    """Arrow keys step through the replay, Home and End jump to its ends."""
    where = REPLAY_KEYS.get(str(event.key))
    if where is not None:
        event.preventDefault()
        table.results.replay_go(where)


def _listen(el: Any, name: str, handler: Callable[[Any], None], *, capture: bool = False) -> None:
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    el.addEventListener(name, proxy, capture)


def start() -> Table:
    """Wire the page and resume, open or prepare a game."""
    reduced = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    backend, writable = _local_storage()
    lock = _web_lock() if backend is not None else None
    store = Store(backend, writable=writable, lock=lock)
    screen = DomScreen(backend, lock)
    table = Table(screen, store, fast=reduced, today=_today)
    clicks = Clicks(table, screen)

    # First of all key listeners (capture, on the window): a held key's repeats stop here.
    _listen(window, "keydown", _on_key_repeat, capture=True)

    _listen(_el("mesa"), "click", clicks.on_click)
    _listen(_el("hand"), "keydown", _on_hand_key)
    _listen(_el("import-file"), "change", lambda e: _on_import(table, e))

    def on_suit_cancel(event: Any) -> None:
        event.preventDefault()
        table.cancel_chooser()

    def on_results_cancel(event: Any) -> None:
        event.preventDefault()  # the buttons decide what comes next

    def on_results_key(event: Any) -> None:
        # While the points are being counted any key shows the whole count
        # (Tab and the modifier keys still move around the panel).
        if not table.results.counting or str(event.key) in (
            "Tab",
            "Shift",
            "Control",
            "Alt",
            "Meta",
            "Escape",
        ):
            return
        event.preventDefault()
        table.results.skip()

    def on_pace(event: Any) -> None:
        table.bar.set_pace(_attr(event.target, "value"))

    def on_size(event: Any) -> None:
        table.bar.choose_size(3 if _attr(event.target, "value") == "3" else 2)

    def on_level(event: Any) -> None:
        table.bar.choose_level(_attr(event.target, "value"))

    def on_replace_cancel(event: Any) -> None:
        event.preventDefault()
        table.answer_replace(False)

    _listen(_el("suit-dialog"), "cancel", on_suit_cancel)
    _listen(_el("results-dialog"), "cancel", on_results_cancel)
    _listen(_el("replace-dialog"), "cancel", on_replace_cancel)
    _listen(_el("results-dialog"), "keydown", on_results_key)
    _listen(_el("pace-choice"), "change", on_pace)
    _listen(_el("level-choice"), "change", on_level)
    _listen(_el("mode-choice"), "change", on_size)

    def on_replay_cancel(event: Any) -> None:
        event.preventDefault()
        table.results.close_replay()

    _listen(_el("replay-dialog"), "cancel", on_replay_cancel)
    # Chromium lets a second Escape close a dialog whose cancel was refused: the results come back.
    _listen(_el("results-dialog"), "close", lambda _e: table.results.dismissed())

    def on_storage(event: Any) -> None:
        # Compared under the lock with the save as stored by then (this tab's own pending save,
        # asked for earlier, is written first), not with the event's possibly older value.
        if str(event.key) == SAVE_KEY:
            store.locked(lambda: table.saves.changed(store.stored()))

    _listen(window, "storage", on_storage)
    _listen(_el("replay-dialog"), "keydown", lambda e: _on_replay_key(table, e))
    _listen(window, "hashchange", lambda _e: table.arrivals.open(str(window.location.hash)))

    if store.setup().players == 3:
        _el("mode-3").checked = True
    _el("pace-" + table.setup.pace).checked = True
    if window.matchMedia("(min-width: 900px)").matches:
        _el("log-panel").open = True  # on phones the move log starts folded
    for ident in ("deal-btn", "daily-btn", "export-btn", "import-btn"):
        _el(ident).disabled = False
    _el("loading").hidden = True
    page_url = str(window.location.href).split("#", 1)[0]
    table.start(str(window.location.hash), page_url)
    document.body.dataset.saveLoadMs = f"{store.load_ms:.2f}"  # read by python -m lab.page_bench
    _take_early_click(table)
    _ask_to_keep_data()
    _open_games(table)
    document.querySelector("#mesa .board").removeAttribute("aria-busy")
    document.body.removeAttribute("data-picture")
    document.body.dataset.ready = "1"
    return table


def _as_int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _take_early_click(table: Table) -> None:
    """Apply the click index.html remembered before Python was ready (at most one, once)."""
    early = getattr(window, "ochoLocoEarly", None)
    if early is None:
        return
    early.taken = True  # from now on the page's own listeners answer
    table.render_setup()  # «Barajando…» gives way to the label the table calls for
    choice = getattr(early, "choice", None)  # the radios checked; taken again with a deal click
    players = 3 if _as_int(getattr(choice, "players", 2)) == 3 else 2
    if choice is not None:
        table.bar.early_choice(players, str(getattr(choice, "level", "")))
    click = early.click
    kind = getattr(click, "kind", None)
    if kind == "deal":
        table.request_deal(players)
    elif kind == "daily":
        table.daily.request(players)
    elif kind == "card":
        card = getattr(click, "card", None)
        table.early_click(card if isinstance(card, str) else "")
    elif kind == "main":
        table.early_click(None)
