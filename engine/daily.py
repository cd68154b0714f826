"""The deal of the day: one game code per calendar day and table size, the same for everyone.

Rule (version A codes): take SHA-256 of the UTF-8 text
``ocho-loco/dia/<YYYY-MM-DD>/<players>``, read its first 8 bytes as a
big-endian integer ``n``, and write ``n`` in base 31 with the code alphabet,
least significant digit first, keeping 5 digits: that is the code's body,
and :meth:`GameCode.build` adds the version, the table size and the check
symbol. Nothing but the date goes in, so every device computes the same code,
offline too. The date is the player's local calendar date.

>>> daily_code("2025-01-01", 2).pretty()
'A2FR-S29P'
"""

from __future__ import annotations

import datetime
import hashlib

from .codes import ALPHABET, BODY_LENGTH, GameCode


def day_text(day: datetime.date | str) -> str:
    """``YYYY-MM-DD`` for a date, or the same text checked to be a real date."""
    if isinstance(day, datetime.date):
        return day.isoformat()
    parsed = datetime.date.fromisoformat(day)  # ValueError for anything else
    if parsed.isoformat() != day:
        raise ValueError(f"not a YYYY-MM-DD date: {day!r}")
    return day


def daily_code(day: datetime.date | str, players: int) -> GameCode:
    """The code of the deal of the day ``day`` for a table of ``players``."""
    key = f"ocho-loco/dia/{day_text(day)}/{players}".encode()
    n = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    body = []
    for _ in range(BODY_LENGTH):
        n, digit = divmod(n, len(ALPHABET))
        body.append(ALPHABET[digit])
    return GameCode.build(players, "".join(body))


__all__ = ["daily_code", "day_text"]
