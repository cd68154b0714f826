"""Challenges: a finished game's record sent to someone else, verified before any score is shown.

A challenge carries the challenger's whole record (code, CPU level and
version, every move), the total they claim and an optional name.
:func:`verify` replays the record through the rules first: a record that
does not read or does not replay, a game that did not finish, an old partial
record whose totals were never checked, or a claimed total that differs from
the replay's is refused with :class:`ChallengeError`. Then it checks that
every CPU move is the one the CPU of that level and version plays there
(:func:`engine.verify.check`): a record whose CPU moves were edited, say to
draw whenever they may, is refused with «El reto no cuadra: la CPU no jugó
así.». The score shown is always the replay's, so editing a link can only
change the person's own moves, which is playing a different game.

:class:`ChallengeError` wraps :class:`engine.verify.NotPlayedByCpu` (same
sentence, with a full stop like the other refusals; the original is its
``__cause__``), so a caller catches one error type. The page runs the two
parts apart, to show progress while a Difícil game is checked: :func:`replayed`
(rules and claim, fast) and then :func:`cpu_steps` (the CPU moves, in small
steps); :func:`verify` is both at once.

>>> from lab.simulate import run
>>> records = []
>>> _ = run(2, ["cpu", "cpu"], 1, seed=7, records=records)
>>> from engine.stats import outcome
>>> mine = outcome(records[0])
>>> verify(str(records[0]), mine.total, " Ana ").name
'Ana'
>>> verify(str(records[0]), mine.total + 1, "Ana")
Traceback (most recent call last):
...
engine.challenge.ChallengeError: El reto no cuadra: los puntos que dice no son los de la partida.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .record import Record, RecordError

if TYPE_CHECKING:
    from .stats import Outcome

MAX_NAME = 20
REFUSED = "El reto no cuadra"
UNPLAYABLE = "las jugadas no son posibles con el reparto de ese código."


class ChallengeError(ValueError):
    """A challenge that cannot be trusted; the message is a Spanish sentence with no text from the link."""


@dataclass(frozen=True)
class Challenge:
    """A verified challenge: the record, the challenger's name and the replayed outcome."""

    record: Record
    name: str
    outcome: Outcome

    @property
    def total(self) -> int:
        return self.outcome.total


def clean_name(raw: object) -> str:
    """A name as plain text: control characters dropped, spaces collapsed, at most 20 characters.

    >>> clean_name("  Ana\\n  María <b> ")
    'Ana María <b>'
    """
    if not isinstance(raw, str):
        return ""
    text = "".join(ch if ch.isprintable() else " " for ch in raw[: 4 * MAX_NAME])
    return " ".join(text.split())[:MAX_NAME].strip()


def verify(record_text: object, claimed: object, name: object = "") -> Challenge:
    """Replay a challenge's record, check its claim and its CPU moves.

    :class:`ChallengeError` if anything is off.
    """
    challenge = replayed(record_text, claimed, name)
    for _ in cpu_steps(challenge):
        pass
    return challenge


def reverify(record_text: object, name: object = "") -> Challenge:
    """Replay a challenge's record, whole and finished, and check its CPU moves, with no claim to check.

    For a challenge kept on the device after :func:`verify` accepted it.
    """
    challenge = replayed_kept(record_text, name)
    for _ in cpu_steps(challenge):
        pass
    return challenge


def cpu_steps(challenge: Challenge) -> Iterator[float]:
    """Check the challenge's CPU moves step by step, yielding the fraction done (see :mod:`engine.verify`).

    Raises :class:`ChallengeError` «El reto no cuadra: la CPU no jugó así.» at
    the first CPU move that is not the CPU's own.
    """
    from .verify import MESSAGE, NotPlayedByCpu, check_steps  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    try:
        yield from check_steps(challenge.record)
    except NotPlayedByCpu as err:
        raise ChallengeError(f"{MESSAGE}.") from err
    except RecordError:  # pragma: no cover - replayed() replayed the record already
        raise ChallengeError(f"{REFUSED}: {UNPLAYABLE}") from None


def replayed(record_text: object, claimed: object, name: object = "") -> Challenge:
    """A challenge whose record replays, finished, to the claimed total; its CPU moves still unchecked.

    Only a step of :func:`verify`: nothing is shown of it before :func:`cpu_steps` ends.
    """
    challenge = replayed_kept(record_text, name)
    if not (
        isinstance(claimed, str) and claimed.isascii() and claimed.isdigit() and len(claimed) <= 3
    ) and not (type(claimed) is int and claimed >= 0):
        raise ChallengeError(f"{REFUSED}: falta el total de puntos.")
    if int(claimed) != challenge.total:
        raise ChallengeError(f"{REFUSED}: los puntos que dice no son los de la partida.")
    return challenge


def replayed_kept(record_text: object, name: object = "") -> Challenge:
    """A challenge whose record replays whole and finished, no claim checked; CPU moves unchecked."""
    try:
        record = Record.parse(record_text)
    except RecordError:
        raise ChallengeError(f"{REFUSED}: el enlace no lleva una partida que se pueda leer.") from None
    if not record.verified:
        raise ChallengeError(f"{REFUSED}: la partida no se puede comprobar entera.")
    from .stats import outcome  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    try:
        result = outcome(record)
    except RecordError:
        raise ChallengeError(f"{REFUSED}: {UNPLAYABLE}") from None
    if not result.finished:
        raise ChallengeError(f"{REFUSED}: la partida del reto no está terminada.")
    return Challenge(record, clean_name(name), result)


@dataclass(frozen=True)
class Row:
    """One hand of a comparison: the challenger's and your penalty (None if that hand was not played)."""

    hand: int
    theirs: int | None
    mine: int | None


def compare(theirs: Outcome, mine: Outcome) -> list[Row]:
    """Both games hand by hand (a game can last more hands than the other)."""
    count = max(len(theirs.penalties), len(mine.penalties))
    return [
        Row(
            i + 1,
            theirs.penalties[i] if i < len(theirs.penalties) else None,
            mine.penalties[i] if i < len(mine.penalties) else None,
        )
        for i in range(count)
    ]


def verdict(theirs: int, mine: int, name: str) -> str:
    """Who wins the challenge, in Spanish (lower is better)."""
    who = name or "quien te retó"
    if mine < theirs:
        return f"¡Ganas el reto! {mine} puntos contra {theirs} de {who}."
    if mine > theirs:
        return f"Gana {who} el reto: {theirs} puntos contra tus {mine}."
    return f"Empate en el reto: {mine} puntos cada uno."


__all__ = [
    "MAX_NAME",
    "Challenge",
    "ChallengeError",
    "Row",
    "clean_name",
    "compare",
    "cpu_steps",
    "replayed",
    "replayed_kept",
    "reverify",
    "verdict",
    "verify",
]
