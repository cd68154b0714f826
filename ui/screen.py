"""What the table and its rooms need from the page: :class:`Screen` (:class:`ui.batch.BatchScreen`)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Literal, Protocol, get_args

# The table's sounds: assets/sound.js makes each, a ``sound`` operation names one (ui.protocol).
SoundName = Literal[
    "deal", "draw", "play", "shuffle", "eight", "turn", "hand-won", "hand-lost", "game-won", "game-lost"
]
SOUNDS: tuple[SoundName, ...] = get_args(SoundName)


class TableState(enum.Enum):
    """What the table waits for, held by :class:`ui.table.Table` and shown as ``body[data-state]``.

    The browser tests and benchmarks wait on it; the page keeps a picture of
    the table for the next visit's first paint in the :attr:`pictured` ones.
    """

    SETUP = "setup"  # no game: choose a table and «Repartir»
    HUMAN = "human"  # your turn
    CHOOSER = "chooser"  # your 8 waits for its suit
    CPU = "cpu"  # a CPU's turn
    RESULTS = "results"  # a hand is over
    GAMEOVER = "gameover"  # the game is over
    REPLACE = "replace"  # the question «¿La cambias por …?» is open
    REPLAY = "replay"  # «Ver la mano» is open

    @property
    def pictured(self) -> bool:
        """A game is on the table, as the next visit's first paint can show it."""
        return self in _PICTURED


_PICTURED = frozenset(
    {TableState.HUMAN, TableState.CHOOSER, TableState.CPU, TableState.RESULTS, TableState.GAMEOVER}
)


class Screen(Protocol):
    """What the table needs from the page."""

    def html(self, el_id: str, html: str) -> None: ...
    def text(self, el_id: str, text: str) -> None: ...
    def attr(self, el_id: str, name: str, value: str | None) -> None: ...
    def dialog(self, el_id: str, show: bool) -> None: ...
    def state(self, state: TableState) -> None: ...
    def status(self, text: str) -> None: ...
    def notice(self, text: str | None) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> None: ...
    def set_hash(self, fragment: str) -> None: ...
    def copy_text(self, text: str) -> None: ...
    def focus(self, el_id: str) -> None: ...
    def sound(self, name: SoundName) -> None:
        """Play one of the table's sounds (sent only while «Sonido» is on)."""

    def timing(self, cpu_ms: float) -> None:
        """How long one CPU decision took (a probe: the benchmarks read these in the page)."""
