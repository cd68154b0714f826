"""The choices kept between games, in localStorage: the setup bar's and the table's own.

The table size, «Rival» and «Ritmo» for the next game, and the table's own choices (forced moves
played for you, «Sonido», the felt and the card back): one :class:`Setup`, read and written only
through :meth:`ui.storage.Store.setup` and :meth:`ui.storage.Store.set_setup`, each choice under a
key of its own. The enumerations are declared here once (ui.protocol's intents and the page's types
read them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from engine.levels import DEFAULT_LEVEL, NAMES

PREFIX = "ocho-loco:"  # every key of the site's localStorage
PREFS_KEY = PREFIX + "mesa"
PACE_KEY = PREFIX + "ritmo"
LEVEL_KEY = PREFIX + "nivel"
FORCED_KEY = PREFIX + "forzadas"  # «si» or «no»: forced draws and passes play themselves
LEVELS = NAMES  # engine.levels declares the CPU levels once
# «Ritmo», the CPU's pace: its one declaration (ui.protocol's pace intent and the page's types read it).
Pace = Literal["pausado", "normal", "rapido"]
PACES: tuple[Pace, ...] = get_args(Pace)


# The table's looks, chosen in «Opciones» (assets/style.css draws each: html[data-felt], html[data-back]).
Felt = Literal["verde", "azul", "granate"]
FELTS: tuple[Felt, ...] = get_args(Felt)
Back = Literal["rombos", "cuadros", "medallon"]
BACKS: tuple[Back, ...] = get_args(Back)
SOUND_KEY = PREFIX + "sonido"  # «si» or «no»
FELT_KEY = PREFIX + "tapete"
BACK_KEY = PREFIX + "dorso"


def pace_of(text: object) -> Pace | None:
    """``text`` as a pace of :data:`PACES`, or None when it is none of them."""
    return next((pace for pace in PACES if pace == text), None)


@dataclass(frozen=True)
class Setup:
    """The setup bar's choices for the next game: table size, «Rival» and «Ritmo».

    Built only from allowed values (:meth:`with_` refuses the rest), and
    kept in one place, :meth:`Store.setup`; a game under way keeps its own.
    """

    players: int = 2
    level: str = DEFAULT_LEVEL
    pace: Pace = "normal"
    forced: bool = True  # forced draws and passes play themselves (ui.forced)
    sound: bool = True  # the table's sounds (assets/sound.js), after the person's first tap
    felt: Felt = "verde"
    back: Back = "rombos"

    def with_(
        self,
        *,
        players: int | None = None,
        level: str | None = None,
        pace: str | None = None,
        forced: bool | None = None,
        sound: bool | None = None,
        felt: str | None = None,
        back: str | None = None,
    ) -> Setup:
        """This setup with the choices given changed; an unknown level, pace or look changes nothing."""
        return Setup(
            self.players if players is None else (3 if players == 3 else 2),
            level if level in LEVELS else self.level,
            pace_of(pace) or self.pace,
            self.forced if forced is None else forced,
            self.sound if sound is None else sound,
            next((f for f in FELTS if f == felt), self.felt),
            next((b for b in BACKS if b == back), self.back),
        )
