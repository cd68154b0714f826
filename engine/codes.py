"""Game codes and the seeded shuffles they fix.

A game code is 8 characters from a 31-symbol alphabet with no look-alikes
(no ``0 O 1 I L``)::

    A 3 K7QM9 X
    | | |     `- check symbol: catches a typo or a tampered character
    | | `------- five random symbols: the game's seed (31**5 = 28.6 million)
    | `--------- table size: 2 (1 contra 1) or 3 (3 en la mesa)
    `----------- format version: ``A`` = version 1 of the shuffle

Codes are read case-insensitively and spaces or dashes are ignored, so
``a3-k7qm-9x`` is the same code.  Every shuffle of a game is a function of
(code, hand number, reshuffle number) only.  Shuffles are built on
``random.Random.random()`` seeded with an integer taken from SHA-256, the one
part of :mod:`random` that Python promises to keep reproducible; version ``A``
must keep dealing the same cards forever, so a change to this file that alters
a deal needs a new version letter (a golden test pins the deals).

>>> GameCode.parse(GameCode.build(2, "K7QM9").text).players
2
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
VERSION = "A"
BODY_LENGTH = 5
CODE_LENGTH = 3 + BODY_LENGTH
TABLE_SIZES = (2, 3)

T = TypeVar("T")


class CodeError(ValueError):
    """A game code that cannot be used; the message says why, in Spanish."""


_INDEX = {ch: i for i, ch in enumerate(ALPHABET)}


def _check_symbol(head: str) -> str:
    total = sum((i + 1) * ALPHABET.index(ch) for i, ch in enumerate(head))
    return ALPHABET[total % len(ALPHABET)]


@dataclass(frozen=True)
class GameCode:
    """A validated game code; ``text`` is its canonical 8-character form."""

    text: str

    @property
    def players(self) -> int:
        return int(self.text[1])

    @property
    def version(self) -> str:
        return self.text[0]

    def __str__(self) -> str:
        return self.text

    def pretty(self) -> str:
        """Grouped for reading aloud: ``A3K7-QM9X``."""
        return f"{self.text[:4]}-{self.text[4:]}"

    @classmethod
    def build(cls, players: int, body: str) -> GameCode:
        """The code for ``players`` seats with the 5-symbol ``body``."""
        if players not in TABLE_SIZES:
            raise CodeError("La mesa es de 2 o de 3 jugadores.")
        body = body.upper()
        if len(body) != BODY_LENGTH or any(ch not in ALPHABET for ch in body):
            raise CodeError("El cuerpo del código no es válido.")
        head = f"{VERSION}{players}{body}"
        return cls(head + _check_symbol(head))

    @classmethod
    def random(cls, players: int, rng: random.Random) -> GameCode:
        """A fresh code drawn from ``rng`` (the caller owns the generator)."""
        body = "".join(ALPHABET[int(rng.random() * len(ALPHABET))] for _ in range(BODY_LENGTH))
        return cls.build(players, body)

    @classmethod
    def canonical(cls, text: str) -> GameCode | None:
        """The code written exactly in its canonical form (as records keep it), else None; cheap.

        >>> GameCode.canonical("A2K7QM92"), GameCode.canonical("a2k7-qm92")
        (GameCode(text='A2K7QM92'), None)
        """
        if len(text) != CODE_LENGTH or text[0] != VERSION or text[1] not in "23":
            return None
        try:
            total = sum(i * _INDEX[ch] for i, ch in enumerate(text[:-1], 1))
        except KeyError:
            return None
        return cls(text) if _INDEX.get(text[-1]) == total % len(ALPHABET) else None

    @classmethod
    def parse(cls, text: object) -> GameCode:
        """Validate a code typed or pasted by a person; raise :class:`CodeError` if it is not one."""
        if not isinstance(text, str):
            raise CodeError("El código de partida tiene que ser texto.")
        clean = "".join(ch for ch in text.strip().upper() if ch not in " -_")
        if not clean:
            raise CodeError("Falta el código de partida.")
        if len(clean) != CODE_LENGTH:
            raise CodeError(f"El código de partida tiene {CODE_LENGTH} caracteres y este tiene {len(clean)}.")
        if any(ch not in ALPHABET for ch in clean):
            # Say which symbols codes never use, never echo what was typed or linked.
            raise CodeError(
                "El código de partida lleva caracteres que no se usan: los códigos solo tienen letras "
                "y números, sin 0, O, 1, I ni L."
            )
        if clean[0] != VERSION:
            raise CodeError("Este código es de otra versión del juego y no se puede abrir aquí.")
        if clean[1] not in "23":
            raise CodeError("El código no indica una mesa de 2 o de 3 jugadores.")
        if _check_symbol(clean[:-1]) != clean[-1]:
            raise CodeError("El código de partida no es correcto: algún carácter está cambiado.")
        return cls(clean)


def stream(*parts: object) -> random.Random:
    """A generator seeded from the parts' text through SHA-256 (stable across Python versions)."""
    key = "/".join(str(p) for p in ("ocho-loco", *parts))
    seed = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest(), "big")
    return random.Random(seed)


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """Fisher-Yates on ``rng.random()`` alone (``Random.shuffle`` may change between versions)."""
    out = list(items)
    rand = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(rand() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def deal_rng(code: GameCode, hand: int) -> random.Random:
    """The generator for the deal of hand ``hand`` (0-based) of ``code``."""
    return stream(code.text, "deal", hand)


def reshuffle_rng(code: GameCode, hand: int, reshuffle: int) -> random.Random:
    """The generator for reshuffle number ``reshuffle`` (1-based) within hand ``hand``."""
    return stream(code.text, "reshuffle", hand, reshuffle)
