"""The setup bar: table size, «Rival» and «Ritmo» for the next game, one :class:`ui.storage.Setup`.

The choices live in one place, the store's preferences
(:meth:`ui.storage.Store.setup`): read from there, written there, never
copied. A game under way keeps its own size and level (the radios are off).
"""

from __future__ import annotations

from engine.bots import LEVEL_BOTS
from engine.game import GAME_OVER

from . import board, render
from .host import Host
from .storage import PACES


class SetupBar:
    """The choices for the next game, taken from the page and drawn on it."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def remember(
        self, *, players: int | None = None, level: str | None = None, pace: str | None = None
    ) -> None:
        store = self.host.store
        store.set_setup(store.setup().with_(players=players, level=level, pace=pace))

    def draw(self) -> None:
        host = self.host
        board.draw_setup(host.screen, host.game, host.level, host.store.setup())

    def _under_way(self) -> bool:
        game = self.host.game
        return game is not None and game.phase != GAME_OVER

    def choose_size(self, players: int) -> None:
        """The table size for the next game, remembered at once (a game under way keeps its own)."""
        if not self._under_way():
            self.remember(players=players)
            players = self.host.store.setup().players
            self.host.screen.status(f"Mesa: {render.TABLE_NAMES[players]}. Pulsa «Repartir» para empezar.")
        self.draw()  # never changes the game being played

    def choose_level(self, level: str) -> None:
        """«Rival»: the level for the next game (a game under way keeps its own; the radios are off)."""
        if level not in LEVEL_BOTS:
            return
        if not self._under_way():
            self.remember(level=level)
            self.host.screen.status(f"Rival: {render.LEVEL_NAMES[level]}. Pulsa «Repartir» para empezar.")
        self.draw()

    def set_pace(self, pace: str) -> None:
        """«Ritmo»: how long each CPU action and each turned card stays before the next."""
        if pace in PACES:
            self.remember(pace=pace)
            self.host.screen.attr(f"pace-{pace}", "checked", "")

    def early_choice(self, players: int, level: str) -> None:
        """The table size and «Rival» checked before the page was ready: kept for the next game.

        A game under way keeps its own (its radios are shown off once the live table is up).
        """
        if not self._under_way():
            self.remember(players=players, level=level)
            self.draw()
