"""A :class:`ui.screen.Screen` that records what the page would show.

Timers never fire on their own: ``later`` queues the callback and a test
runs the queue explicitly (``run_timers``), so every flow is deterministic
and a test can look at the page between two CPU actions.
"""

from __future__ import annotations

import html as html_lib
import random
import re
from collections.abc import Callable
from pathlib import Path

from engine.actions import Action
from engine.game import GAME_OVER, HAND_OVER, Game
from ui.frozen import fields_of
from ui.ids import is_page_id
from ui.protocol import EVENTS, decode
from ui.screen import TableState
from ui.storage import MemoryBackend, Store
from ui.table import Table
from ui.worker import Session


class FakeScreen:
    """Records html/text/attributes/dialogs/state/status/notice/hash/focus; queues timers."""

    def __init__(self) -> None:
        self.cpu_ms: list[float] = []
        self.htmls: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self.attrs: dict[tuple[str, str], str] = {}
        self.dialogs: dict[str, bool] = {}
        self.body: str | None = None
        self.statuses: list[str] = []
        self.notices: list[str | None] = []
        self.hash = ""
        self.copied: list[str] = []
        self.focused: str | None = None
        self.sounds: list[str] = []
        self.timers: list[tuple[int, Callable[[], None]]] = []
        self.ticks = 0  # timers run so far

    # -- the Screen protocol ---------------------------------------------------

    def html(self, el_id: str, html: str) -> None:
        assert is_page_id(el_id), f"index.html has no element with id {el_id!r}"
        self.htmls[el_id] = html

    def text(self, el_id: str, text: str) -> None:
        assert is_page_id(el_id), f"index.html has no element with id {el_id!r}"
        self.texts[el_id] = text

    def attr(self, el_id: str, name: str, value: str | None) -> None:
        assert is_page_id(el_id), f"index.html has no element with id {el_id!r}"
        if value is None:
            self.attrs.pop((el_id, name), None)
        else:
            self.attrs[(el_id, name)] = value

    def dialog(self, el_id: str, show: bool) -> None:
        assert is_page_id(el_id), f"index.html has no element with id {el_id!r}"
        self.dialogs[el_id] = show

    def sound(self, name: str) -> None:
        self.sounds.append(name)

    def state(self, state: TableState) -> None:
        assert isinstance(state, TableState), f"not a table state: {state!r}"
        self.body = state.value

    def status(self, text: str) -> None:
        self.statuses.append(text)

    def notice(self, text: str | None) -> None:
        self.notices.append(text)

    def later(self, ms: int, fn: Callable[[], None]) -> None:
        assert ms >= 0
        self.timers.append((ms, fn))

    def set_hash(self, fragment: str) -> None:
        self.hash = fragment

    def copy_text(self, text: str) -> None:
        self.copied.append(text)

    def timing(self, cpu_ms: float) -> None:
        self.cpu_ms.append(cpu_ms)

    def focus(self, el_id: str) -> None:
        assert is_page_id(el_id), f"index.html has no element with id {el_id!r}"
        self.focused = el_id

    # -- helpers for tests ---------------------------------------------------------

    @property
    def last_status(self) -> str:
        return self.statuses[-1] if self.statuses else ""

    @property
    def last_notice(self) -> str | None:
        return self.notices[-1] if self.notices else None

    def is_open(self, dialog: str) -> bool:
        return self.dialogs.get(dialog, False)

    def get_attr(self, el_id: str, name: str) -> str | None:
        return self.attrs.get((el_id, name))

    def run_one(self) -> bool:
        """Fire the oldest queued timer; False when none is queued."""
        if not self.timers:
            return False
        _ms, fn = self.timers.pop(0)
        self.ticks += 1
        fn()
        return True

    def run_timers(self, limit: int = 5000) -> int:
        """Fire timers until none is left (at most ``limit``); return how many ran."""
        ran = 0
        while self.timers:
            assert ran < limit, f"timers still queued after {limit} runs"
            self.run_one()
            ran += 1
        return ran

    def hand_cards(self) -> list[str]:
        """``data-card`` of every card button in the rendered hand, in order."""
        return re.findall(r'data-card="([^"]+)"', self.htmls.get("hand", ""))

    def hand_buttons(self) -> dict[str, str]:
        """Each rendered hand button's opening tag, by card text."""
        tags = re.findall(r"<button [^>]*>", self.htmls.get("hand", ""))
        out = {}
        for tag in tags:
            match = re.search(r'data-card="([^"]+)"', tag)
            assert match, tag
            out[match.group(1)] = tag
        return out


class ClockScreen(FakeScreen):
    """A fake screen whose ``later`` keeps time: timers run in the order they fall due, and :attr:`now`
    (ms since the start) moves to each one's time; every status line is kept with the time it was said."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0
        self.said: list[tuple[int, str]] = []

    def later(self, ms: int, fn: Callable[[], None]) -> None:
        assert ms >= 0
        self.timers.append((self.now + ms, fn))  # the time it falls due, not its delay

    def status(self, text: str) -> None:
        super().status(text)
        self.said.append((self.now, text))

    def run_one(self) -> bool:
        if not self.timers:
            return False
        due, fn = min(self.timers, key=lambda timer: timer[0])  # the first queued among equals
        self.timers.remove((due, fn))
        self.now = max(self.now, due)
        self.ticks += 1
        fn()
        return True

    def advance(self, ms: int) -> None:
        """Let ``ms`` pass, running every timer that falls due meanwhile."""
        end = self.now + ms
        while self.timers and min(due for due, _fn in self.timers) <= end:
            self.run_one()
        self.now = end


def plain(markup: str) -> str:
    """Markup with tags removed and entities decoded (what a reader would see)."""
    return html_lib.unescape(re.sub(r"<[^>]+>", "", markup))


def make_table(
    backend: MemoryBackend | None = None, *, fast: bool = True, fragment: str = ""
) -> tuple[Table, FakeScreen, MemoryBackend]:
    """A started table over a fresh (or the given) in-memory storage."""
    backend = backend if backend is not None else MemoryBackend()
    screen = FakeScreen()
    table = Table(screen, Store(backend), fast=fast, rng=random.Random(1))
    table.start(fragment, "https://example.org/ocho/")
    return table, screen, backend


def play_to_the_end(table: Table, screen: FakeScreen, move: Callable[[Game], Action] | None = None) -> None:
    """Play the table's game until its last hand ends: your move is ``move(game)`` (default: your first
    legal action), the page's CPU answers on the timer, and each hand's count runs before the next."""
    game = table.game
    assert game is not None
    while game.phase != GAME_OVER:
        if game.phase == HAND_OVER:
            screen.run_timers()
            table.next_hand()
        elif game.turn == 0:
            table.play(move(game) if move is not None else game.legal_actions()[0])
        else:
            assert screen.run_one()


_PAGE = (Path(__file__).resolve().parents[1] / "index.html").read_text(encoding="utf-8")
# The intent each control of index.html carries, by the control's id.
INTENT_OF = dict(re.findall(r'id="([\w-]+)" data-intent="([\w-]+)"', _PAGE))


def press(table: Table, ident: str, *, by_key: bool = False, **fields: object) -> None:
    """Press index.html's control ``ident``: its intent (``data-intent``), answered as the worker does."""
    kind = INTENT_OF[ident]
    data: dict[str, object] = {"kind": kind, **fields}
    if "by_key" in fields_of(EVENTS[kind]):
        data["by_key"] = by_key
    event = decode(data)
    Session().handlers[type(event)](table, event)
