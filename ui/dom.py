"""The page's side of the :class:`ui.screen.Screen` and of the storage: the DOM, localStorage, Web Locks.

With :mod:`ui.main`, the only modules that touch the browser (``js`` / ``pyscript``).
"""

from __future__ import annotations

import traceback
from collections import deque
from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from .storage import PICTURE_KEY, SAVE_KEY, Backend, Lock

PROXIES: list[Any] = []  # keep event-handler proxies alive for the page's lifetime

# The picture of the table drawn from the save (index.html shows it at first paint
# while Python starts, only if its "save" is still the saved game). A picture only:
# Python always draws the live table from the save itself. It is data, not HTML
# (``ochoLocoPicture`` in index.html writes and reads it, allowing a fixed list of
# tags and attributes); the first version, ``ocho-loco:mesa-html``, was HTML and is
# removed unread.
PICTURED_STATES = frozenset({"human", "chooser", "cpu", "results", "gameover"})


def element(el_id: str) -> Any:
    return document.getElementById(el_id)


def attr_text(el: Any, name: str) -> str:
    """An attribute's text, or "" when absent (JavaScript's null is not None here)."""
    value = el.getAttribute(name) if el and hasattr(el, "getAttribute") else None
    return value if isinstance(value, str) else ""


class DomScreen:
    """The :class:`ui.screen.Screen` over the real page."""

    def __init__(self, storage: Backend | None = None, lock: Lock | None = None) -> None:
        self.storage = storage
        self.lock = lock
        self._picture_due = False
        # The hand as last drawn (markup, cards): a CPU action that leaves your cards as they were
        # must not redraw them, or a screen reader hears the focused card again between moves.
        self._hand_drawn: tuple[str, int] | None = None

    def html(self, el_id: str, html: str) -> None:
        el = element(el_id)
        if el_id == "hand":
            if self._hand_drawn == (html, int(el.childElementCount)):
                return
            _before_redraw()
            self._replace_keeping_focus(el, html)
            self._hand_drawn = (html, int(el.childElementCount))
            self._rescue_focus()
            return
        _before_redraw()
        el.innerHTML = html
        self._rescue_focus()

    def _rescue_focus(self) -> None:
        """Never leave the focus on ``<body>`` or on a control that was just disabled or removed."""
        active = document.activeElement
        disabled = bool(getattr(active, "disabled", False)) if active else True
        if active and active != document.body and not disabled and active.isConnected:
            return
        for selector in (
            "#hand button.card.legal",
            "#main-btn:not([disabled])",
            "#hand button.card",
            "#mesa",
        ):
            target = document.querySelector(selector)
            if target:
                target.focus()
                return

    def _replace_keeping_focus(self, el: Any, html: str) -> None:
        if _update_in_place(el, html):
            return  # the same cards: their attributes follow, the elements (and the focus) stay
        active = document.activeElement
        card = None
        index = -1
        if active and el.contains(active) and attr_text(active, "data-card"):
            card = attr_text(active, "data-card")
            buttons = el.querySelectorAll("button.card")
            for i in range(buttons.length):
                if buttons.item(i) == active:
                    index = i
        el.innerHTML = html
        if card is None:
            return
        target = el.querySelector(f'button[data-card="{card}"]')
        if not target:
            buttons = el.querySelectorAll("button.card")
            if buttons.length:
                target = buttons.item(min(max(index, 0), buttons.length - 1))
        if not target:
            target = element("main-btn")
        target.focus()

    def text(self, el_id: str, text: str) -> None:
        element(el_id).textContent = text

    def attr(self, el_id: str, name: str, value: str | None) -> None:
        el = element(el_id)
        if name == "checked":  # the live state of a radio, not its default
            el.checked = value is not None
        elif value is None:
            el.removeAttribute(name)
        else:
            el.setAttribute(name, value)
            if name in ("disabled", "hidden"):
                self._rescue_focus()

    def dialog(self, el_id: str, show: bool) -> None:
        el = element(el_id)
        if show and not el.open:
            el.showModal()
            el.scrollTop = 0  # a tall panel on a phone opens at its title
        elif not show and el.open:
            el.close()

    def state(self, name: str) -> None:
        document.body.dataset.state = name
        if name == "human" and _at_the_table():
            _show_table()  # «Te toca»: the pile, the hand and the button in view, also on phones
        if name in PICTURED_STATES and self.storage is not None and not self._picture_due:
            self._picture_due = True  # once the current event has drawn everything
            if self.lock is not None:
                self.lock(self._store_picture)  # after the save this event asked for
            else:
                window.setTimeout(create_once_callable(self._store_picture), 0)

    def _store_picture(self) -> None:
        self._picture_due = False
        storage = self.storage
        if storage is None or str(document.body.dataset.state) not in PICTURED_STATES:
            return
        try:
            save = storage.getItem(SAVE_KEY)
            picture = getattr(window, "ochoLocoPicture", None)
            if save is not None and picture is not None:
                storage.setItem(PICTURE_KEY, str(picture.take(save)))
        except Exception:
            pass  # storage full or gone: the picture is a nicety, the save is what counts

    def status(self, text: str) -> None:
        element("status").textContent = text

    def notice(self, text: str | None) -> None:
        el = element("notice")
        if text:
            p = document.createElement("p")
            p.setAttribute("role", "alert")
            p.textContent = text
            el.replaceChildren(p)
            el.hidden = False
        else:
            el.replaceChildren()
            el.hidden = True

    def later(self, ms: int, fn: Callable[[], None]) -> None:
        window.setTimeout(create_once_callable(fn), ms)

    def set_hash(self, fragment: str) -> None:
        if str(window.location.hash) != fragment:
            # An empty fragment drops the hash: the page's own address without one.
            where = fragment or str(window.location.pathname) + str(window.location.search)
            window.history.replaceState(None, "", where)

    def copy_text(self, text: str) -> None:
        try:
            promise = window.navigator.clipboard.writeText(text)
            promise.catch(create_once_callable(lambda _err: None))
        except Exception:
            pass  # no clipboard here: the status bar shows the link to copy by hand

    def timing(self, cpu_ms: float) -> None:
        """Append one CPU decision's milliseconds to ``window.ochoLocoTimings`` (read by lab.page_bench)."""
        try:
            window.ochoLocoTimings.push(cpu_ms)
        except AttributeError:  # the first one creates the array
            window.ochoLocoTimings = window.Array.of(cpu_ms)

    def focus(self, el_id: str) -> None:
        el = element(el_id)
        if not el:
            return
        felt = el.closest(".felt")
        if el.closest(".dialog-actions"):
            # A panel's buttons stick to its bottom: focusing one leaves the panel at its
            # title (the verdict, the totals) unless the buttons are out of sight.
            el.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
            _keep_in_view(el, el.closest("dialog"))
            return
        if not felt:
            el.focus()
            _keep_in_view(el)
            return
        # On the table (after a deal): bring the whole felt into view rather
        # than just the focused card, so the pile, the hand and the button show together.
        el.focus(to_js({"preventScroll": True}, dict_converter=window.Object.fromEntries))
        _show_table()
        _keep_in_view(el)


def _update_in_place(el: Any, html: str) -> bool:
    """Give ``el``'s cards the attributes ``html`` has for the same cards; False if the cards differ."""
    template = document.createElement("template")
    template.innerHTML = html
    fresh = template.content.children
    old = el.children
    if fresh.length != old.length:
        return False
    pairs = [(old.item(i), fresh.item(i)) for i in range(old.length)]
    if any(
        attr_text(a, "data-card") != attr_text(b, "data-card") or a.tagName != b.tagName for a, b in pairs
    ):
        return False
    for now, wanted in pairs:
        if now.innerHTML != wanted.innerHTML:
            now.innerHTML = wanted.innerHTML  # a face drawn differently (never the element itself)
        names = {str(a.name) for a in wanted.attributes} | {str(a.name) for a in now.attributes}
        for name in names:
            value = wanted.getAttribute(name)
            if value is None:
                now.removeAttribute(name)
            elif now.getAttribute(name) != value:
                now.setAttribute(name, value)
    return True


def _before_redraw() -> None:
    """Let the page's motion script note where the cards are, so played and drawn cards can travel."""
    motion = getattr(window, "ochoLocoMotion", None)
    if motion is not None:
        motion.snap()


def _at_the_table() -> bool:
    """Whether the person is at the table (focus there or nowhere), not reading further down the page."""
    active = document.activeElement
    mesa = element("mesa")
    return not active or active == document.body or bool(mesa and mesa.contains(active))


def _keep_in_view(el: Any, frame: Any = None) -> None:
    """Scroll the least that shows all of ``el`` in the window (and in ``frame``, a panel, if given)."""
    box = el.getBoundingClientRect()
    top, bottom = 0.0, float(window.innerHeight)
    if frame:
        edges = frame.getBoundingClientRect()
        top, bottom = max(top, float(edges.top)), min(bottom, float(edges.bottom))
    if float(box.top) < top or float(box.bottom) > bottom:
        where = {"block": "nearest", "behavior": "instant"}
        el.scrollIntoView(to_js(where, dict_converter=window.Object.fromEntries))


def _show_table() -> None:
    """Show the table from the pile to the main button: the felt whole when it fits, else its play part."""
    felt = document.querySelector(".felt")
    pile = element("pile")
    if not felt or not pile:
        return
    height = float(window.innerHeight)
    whole = felt.getBoundingClientRect()
    if float(whole.bottom) - float(whole.top) <= height:
        _show_whole(felt)
        return
    top, bottom = float(pile.getBoundingClientRect().top), float(whole.bottom)
    if top >= 0 and bottom <= height:
        return
    dy = bottom - height if bottom - top <= height else top
    window.scrollBy(to_js({"top": dy, "behavior": "instant"}, dict_converter=window.Object.fromEntries))


def _show_whole(el: Any) -> None:
    """Scroll the least that shows all of ``el`` (its top first when it is taller than the window)."""
    box = el.getBoundingClientRect()
    height = float(window.innerHeight)
    top, bottom = float(box.top), float(box.bottom)
    if top >= 0 and bottom <= height:
        return
    dy = bottom - height if (top >= 0 and bottom - top <= height) else top
    window.scrollBy(to_js({"top": dy, "behavior": "instant"}, dict_converter=window.Object.fromEntries))


class LocalStorage:
    """``window.localStorage`` with JavaScript's ``null`` read as ``None``."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    def getItem(self, key: str) -> str | None:
        value = self.storage.getItem(key)
        return value if isinstance(value, str) else None

    def setItem(self, key: str, value: str) -> None:
        self.storage.setItem(key, value)

    def removeItem(self, key: str) -> None:
        self.storage.removeItem(key)


def local_storage() -> tuple[Backend | None, bool]:
    """``localStorage`` and whether it takes writes; (None, False) when it cannot even be read.

    A full storage still reads: the saved game opens, and the notice says new
    moves cannot be saved until there is room.
    """
    try:
        storage = window.localStorage
    except Exception:
        return None, False
    try:
        probe = "ocho-loco:prueba"
        storage.setItem(probe, "1")
        storage.removeItem(probe)
    except Exception:
        try:
            storage.getItem("ocho-loco:partida")
        except Exception:
            return None, False
        return LocalStorage(storage), False
    return LocalStorage(storage), True


def web_lock() -> Lock | None:
    """Run functions holding the Web Lock ``ocho-loco:partida``, shared by every tab of the site.

    ``navigator.locks.request`` grants the lock later (in request order,
    across tabs) and calls back: the function then runs synchronously,
    reading and writing localStorage, and the lock is released when it
    returns. None where the browser has no Web Locks (an old browser): the
    store then runs everything at once, as before. A request the browser
    refuses (an opaque origin) runs its function at once, without the lock.
    """
    try:
        locks = window.navigator.locks
        if not locks or not hasattr(locks, "request"):
            return None
    except Exception:
        return None
    # This tab's requests are granted (or refused) in the order they were made.
    pending: deque[Callable[[], None]] = deque()

    def granted(_lock: Any) -> None:
        fn = pending.popleft()
        try:
            fn()
        except Exception:  # said on the console; the promise stays fulfilled (refused() is for refusals)
            window.console.error(traceback.format_exc())

    def refused(_error: Any) -> None:
        if pending:
            pending.popleft()()

    on_granted, on_refused = create_proxy(granted), create_proxy(refused)
    PROXIES.extend((on_granted, on_refused))

    def run(fn: Callable[[], None]) -> None:
        pending.append(fn)
        try:
            locks.request(SAVE_KEY, on_granted).catch(on_refused)
        except Exception:
            pending.pop()
            fn()

    return run
