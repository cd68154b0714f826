"""The saved game in localStorage, with every failure turned into a message.

The page saves after every action. A save is the engine's versioned dump
wrapped with the page's own state (an open suit chooser)::

    {"app": "ocho-loco", "version": 1, "game": {...engine save...},
     "ui": {"chooser": "8S" | null}}

Keys carry the ``ocho-loco:`` prefix because every GitHub Pages project of
one user shares a single origin. A save that cannot be read is never thrown
away: it is moved to ``ocho-loco:aparte:<n>`` and the player is told.
"""

from __future__ import annotations

import contextlib
import json
from typing import Protocol

from engine.cards import BY_TEXT, EIGHT, RANK_OF
from engine.game import PLAYING, Game
from engine.save import SaveError, dump, load

PREFIX = "ocho-loco:"
SAVE_KEY = PREFIX + "partida"
ASIDE_PREFIX = PREFIX + "aparte:"
PREFS_KEY = PREFIX + "mesa"
APP = "ocho-loco"
VERSION = 1
MAX_ASIDE = 5


class Backend(Protocol):
    """The part of the Web Storage API that is used (``localStorage`` fits)."""

    def getItem(self, key: str) -> str | None: ...
    def setItem(self, key: str, value: str) -> None: ...
    def removeItem(self, key: str) -> None: ...


class MemoryBackend:
    """A dict in place of localStorage when the browser gives none."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.data[key] = value

    def removeItem(self, key: str) -> None:
        self.data.pop(key, None)


NOTICE_NO_STORAGE = (
    "Este navegador no deja guardar datos: puedes jugar, pero la partida no se guardará al cerrar la pestaña."
)
NOTICE_FULL = (
    "No se ha podido guardar la partida (el almacenamiento está lleno o bloqueado). "
    "Puedes seguir jugando; se volverá a intentar en la próxima jugada."
)


class Store:
    """Load and save the game; ``notice`` holds the latest problem worth telling."""

    def __init__(self, backend: Backend | None) -> None:
        self.persistent = backend is not None
        self.backend: Backend = backend if backend is not None else MemoryBackend()
        self.notice: str | None = None if self.persistent else NOTICE_NO_STORAGE
        self.failed = False

    def save(self, game: Game, chooser: str | None = None) -> bool:
        """Write the game; False (and a notice) if the browser refused."""
        payload = {"app": APP, "version": VERSION, "game": dump(game), "ui": {"chooser": chooser}}
        try:
            self.backend.setItem(SAVE_KEY, json.dumps(payload, separators=(",", ":")))
        except Exception:  # quota exceeded, storage disabled mid-session, ...
            if not self.failed:
                self.notice = NOTICE_FULL
            self.failed = True
            return False
        if self.failed:
            self.failed = False
            self.notice = None
        return True

    def load(self) -> tuple[Game, str | None] | None:
        """The saved game and open chooser, or None if there is none or it was set aside."""
        try:
            raw = self.backend.getItem(SAVE_KEY)
        except Exception:
            self.notice = NOTICE_NO_STORAGE
            return None
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("app") != APP:
                raise SaveError("Los datos guardados no son una partida de Ocho Loco.")
            version = data.get("version")
            if type(version) is not int or version != VERSION:  # True == 1 in Python
                raise SaveError("La partida guardada es de otra versión de la página.")
            game = load(data.get("game"))
            ui = data.get("ui")
            chooser = ui.get("chooser") if isinstance(ui, dict) else None
            if chooser is not None and not _chooser_fits(game, chooser):
                chooser = None
        # ValueError covers bad JSON; anything else (absurdly nested JSON hits the
        # recursion limit) must not stop the page either: set it aside the same way.
        except Exception as err:
            self._set_aside(raw)
            reason = str(err) if isinstance(err, SaveError) else "Los datos no se pueden leer."
            self.notice = (
                f"La partida guardada no se ha podido abrir: {reason} "
                "Se ha guardado aparte sin borrarla y empieza una partida nueva."
            )
            return None
        return game, chooser

    def _set_aside(self, raw: str) -> None:
        try:
            for n in range(1, MAX_ASIDE + 1):
                if self.backend.getItem(ASIDE_PREFIX + str(n)) is None:
                    break
            else:
                n = MAX_ASIDE
            self.backend.setItem(ASIDE_PREFIX + str(n), raw)
            self.backend.removeItem(SAVE_KEY)
        except Exception:
            # Could not copy it: leave the original where it is rather than lose it.
            pass

    def clear(self) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(SAVE_KEY)

    def table_size(self) -> int:
        try:
            raw = self.backend.getItem(PREFS_KEY)
        except Exception:
            return 2
        return 3 if raw == "3" else 2

    def set_table_size(self, players: int) -> None:
        with contextlib.suppress(Exception):
            self.backend.setItem(PREFS_KEY, str(players))


def _chooser_fits(game: Game, chooser: object) -> bool:
    """An open suit chooser is only kept for an 8 the person could play now."""
    card = BY_TEXT.get(chooser) if isinstance(chooser, str) else None
    hand = game.hands[0]
    return (
        card is not None
        and RANK_OF[card] == EIGHT
        and game.phase == PLAYING
        and game.turn == 0
        and card in hand
        and len(hand) > 1  # a last 8 is played at once, with no suit
    )
