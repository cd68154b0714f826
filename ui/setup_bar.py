"""The setup bar: table size, «Rival» and «Ritmo» for the next game, one :class:`ui.prefs.Setup`.

The choices live in one place, the store's preferences
(:meth:`ui.storage.Store.setup`): read from there, written there, never
copied. A game under way keeps its own size and level (the radios are off).
The table size and «Repartir» come first; «Rival», «Ritmo» and «Partida del
día» are folded under «Más opciones» (a ``<details>``, opened and closed by the
page alone), whose summary names any choice that is not the usual one, so a
folded choice is never a hidden one.
"""

from __future__ import annotations

from engine.game import GAME_OVER
from engine.levels import DEFAULT_LEVEL, is_level

from . import board, render
from .host import Host
from .prefs import PACES, Pace, Setup

PACE_NAMES: dict[Pace, str] = {"pausado": "Pausado", "normal": "Normal", "rapido": "Rápido"}
assert set(PACE_NAMES) == set(PACES)


def more_summary(setup: Setup, *, playing: bool) -> str:
    """«Más opciones», with the folded choices that are not the usual ones: «Más opciones (Rival: Difícil)».

    During a game its level is on the bar already («Partida en curso: …»): only «Ritmo» is named.
    """
    named = []
    if setup.level != DEFAULT_LEVEL and not playing:
        named.append(f"Rival: {render.LEVEL_NAMES[setup.level]}")
    if setup.pace != "normal":
        named.append(f"Ritmo: {PACE_NAMES[setup.pace]}")
    return "Más opciones" + (f" ({', '.join(named)})" if named else "")


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
        setup = host.store.setup()
        board.draw_setup(host.screen, host.game, host.level, setup)
        host.screen.text("more-summary", more_summary(setup, playing=self._under_way()))

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
        if not is_level(level):
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
            summary = more_summary(self.host.store.setup(), playing=self._under_way())
            self.host.screen.text("more-summary", summary)

    def set_forced(self, on: bool) -> None:
        """«Jugadas forzadas solas»: forced draws and passes play themselves (ui.forced), remembered."""
        store = self.host.store
        store.set_setup(store.setup().with_(forced=on))
        self.draw()
        words = "La mesa robará y pasará por ti" if on else "Robarás y pasarás tú"
        self.host.screen.status(f"{words} cuando ninguna carta valga.")

    def toggle_sound(self) -> None:
        """«Sonido» on the table's bar: on or off, remembered, said."""
        store = self.host.store
        on = not store.setup().sound
        store.set_setup(store.setup().with_(sound=on))
        self.draw()
        self.host.screen.status("Sonido activado." if on else "Sonido desactivado.")

    def set_felt(self, felt: str) -> None:
        """«Tapete»: the felt's colour, remembered."""
        store = self.host.store
        store.set_setup(store.setup().with_(felt=felt))
        self.draw()

    def set_back(self, back: str) -> None:
        """«Dorso de las cartas»: the backs' pattern, remembered."""
        store = self.host.store
        store.set_setup(store.setup().with_(back=back))
        self.draw()

    def early_choice(self, players: int, level: str) -> None:
        """The table size and «Rival» checked before the page was ready: kept for the next game.

        A game under way keeps its own (its radios are shown off once the live table is up).
        """
        if not self._under_way():
            self.remember(players=players, level=level)
            self.draw()
