"""The one boundary for text the page did not just write: read it, or refuse it and keep it.

Text reaches the page from outside in a few places: the save at start-up
(``ocho-loco:partida``), a game link or a challenge link in the URL hash, an
import file and the save it carries, a ``storage`` event written by another
tab, the challenge kept across reloads (``ocho-loco:reto``) and the picture
of the table kept for the first paint (``ocho-loco:dibujo``). Each of them
is read through :func:`take` with the reader that knows its format.

The readers raise their own error type with a Spanish message (``SaveError``,
``LinkError``, ``ChallengeError``, ``HistoryFileError``), but a reader is code,
and code has bugs: ``"²".isdigit()`` is true and ``int("²")`` is not a number.
So :func:`take` turns *any* exception into :class:`Refused`, whose message is
a Spanish sentence that never repeats the outside text, and the caller says
it in the notice and goes on. What was refused is never thrown away:
:func:`set_aside` copies it to the first free ``ocho-loco:aparte:<n>`` (the
same keys a bad save has always gone to), once, however often it comes back.

>>> take(SOURCE_CHALLENGE, "r1", lambda text: int("²"))
Traceback (most recent call last):
...
ui.outside.Refused: El enlace del reto no se ha podido leer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from engine.challenge import ChallengeError
from engine.codes import CodeError
from engine.record import RecordError
from engine.save import SaveError

from .links import LinkError

A = TypeVar("A")
R = TypeVar("R")

ASIDE_PREFIX = "ocho-loco:aparte:"

# What each source is called in a sentence («… no se ha podido leer.»).
SOURCE_SAVE = "La partida guardada"
SOURCE_LINK = "El enlace"
SOURCE_CHALLENGE = "El enlace del reto"
SOURCE_IMPORT = "El archivo"
SOURCE_IMPORT_CURRENT = "La partida en curso del archivo"
SOURCE_TAB = "La partida que ha guardado otra pestaña"
SOURCE_KEPT_CHALLENGE = "El reto guardado"
SOURCE_PICTURE = "La imagen guardada de la mesa"


class Refused(Exception):
    """Outside text the page will not use; ``str()`` is a Spanish sentence with no outside text in it."""


class Storage(Protocol):
    """The part of the Web Storage API :func:`set_aside` uses (``ui.storage.Backend`` fits)."""

    def getItem(self, key: str) -> str | None: ...
    def setItem(self, key: str, value: str) -> None: ...


# The readers' own error types: their messages are Spanish sentences meant for the player.
OWN_ERRORS: tuple[type[Exception], ...] = (SaveError, RecordError, ChallengeError, CodeError, LinkError)


def take(source: str, raw: A, reader: Callable[[A], R], own: tuple[type[Exception], ...] = ()) -> R:
    """``reader(raw)``, or :class:`Refused` for whatever it raises (the page goes on either way).

    A reader's own error (:data:`OWN_ERRORS`, plus ``own``) keeps its
    message; any other exception, a bug in the reader, gets a sentence
    naming the ``source`` (one of ``SOURCE_*``).
    """
    try:
        return reader(raw)
    except OWN_ERRORS + own as err:
        raise Refused(str(err)) from None
    except Exception:
        raise Refused(f"{source} no se ha podido leer.") from None


def set_aside(storage: Storage, raw: str) -> bool:
    """Keep ``raw`` under the first free ``ocho-loco:aparte:<n>``; True once it is kept (now or before).

    Nothing kept aside is ever written over, and the same text is kept once
    however often it is refused (a link reloaded, a save seen by two tabs).
    """
    try:
        n = 1
        while (kept := storage.getItem(ASIDE_PREFIX + str(n))) is not None:
            if kept == raw:
                return True
            n += 1
        storage.setItem(ASIDE_PREFIX + str(n), raw)
        return storage.getItem(ASIDE_PREFIX + str(n)) == raw
    except Exception:  # storage full or gone: the caller says it could not be kept
        return False


__all__ = [
    "ASIDE_PREFIX",
    "SOURCE_CHALLENGE",
    "SOURCE_IMPORT",
    "SOURCE_IMPORT_CURRENT",
    "SOURCE_KEPT_CHALLENGE",
    "SOURCE_LINK",
    "SOURCE_PICTURE",
    "SOURCE_SAVE",
    "SOURCE_TAB",
    "Refused",
    "set_aside",
    "take",
]
