"""Check that every CPU move of a record is the move its level's CPU plays in that position.

Replaying a record through the rules (:meth:`Record.replay
<engine.record.Record.replay>`) proves only that each move was legal: a
record could still have the person's moves good and the CPU's moves legal
but not the CPU's own (say, every CPU seat drawing whenever it may), for a
score that was never played. The CPU levels decide from their seat's view
alone, and their randomness comes from :func:`~engine.bots.decision_rng`
(the code, the hand, the move number and the seat), so the CPU's move in any
position can be asked again, on CPython or Pyodide alike. :func:`check` asks
it at every CPU decision of the record, with the bot of the record's level
*and version* (:mod:`engine.levels` keeps every shipped version's settings),
and refuses the record at the first move that differs.

Seat 0 is the person and is not checked; every other seat is the CPU. A
decision with a single legal action is not asked (the rules already forced
it). Difícil decisions re-run the whole search, so :func:`check_steps` runs
in small steps (a few playouts each) and yields how much is done, for a page
that must not freeze. A record that starts part-way (an old save) is checked
from where it starts.

>>> from engine.game import Game
>>> from engine.actions import Action
>>> game = Game.new("A2K7QM92")
>>> _ = game.apply(Action.parse("10D"))
>>> honest = game.record()
>>> check(honest)                  # the CPU (seat 1) played what Normal plays
>>> lazy = game.legal_actions()[-1]   # it could also have drawn, legally
>>> str(lazy), str(level_bot("normal").choose(game.view(1)))
('draw', 'JD')
>>> check(honest.added(lazy))
Traceback (most recent call last):
...
engine.verify.NotPlayedByCpu: El reto no cuadra: la CPU no jugó así
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any

from .actions import Action
from .bots import Bot, CpuBot, CpuParams, DificilBot, DificilParams, FacilBot, FacilParams
from .levels import level
from .record import Record

HUMAN = 0
# Playouts per step of a Difícil decision: a few milliseconds in the page (as its own search's slice).
PLAYOUTS_PER_STEP = 12
# Moves replayed per step while the rules are checked first.
MOVES_PER_STEP = 200
MESSAGE = "El reto no cuadra: la CPU no jugó así"


class NotPlayedByCpu(ValueError):
    """A CPU move of a record that is not the move its level's CPU plays there.

    The message is always :data:`MESSAGE` (a Spanish sentence); ``index`` is the
    0-based number of the move, ``seat`` its seat, ``played`` the record's
    move and ``expected`` the CPU's.
    """

    def __init__(self, index: int, seat: int, played: Action, expected: Action) -> None:
        super().__init__(MESSAGE)
        self.index = index
        self.seat = seat
        self.played = played
        self.expected = expected


def level_bot(name: str, version: int = 0, players: int = 2) -> Bot:
    """The bot of level ``name`` at ``version`` (0: the current one) for a table of ``players``.

    Built from the version's own settings (:mod:`engine.levels`), so an old
    record is checked with the CPU that played it.
    """
    lv = level(name)
    settings = lv.settings(version or lv.current, players)
    if lv.bot == "facil":
        return FacilBot(FacilParams(**_every_field(FacilParams, settings)))
    if lv.bot == "cpu":
        return CpuBot(CpuParams(**_every_field(CpuParams, settings)))
    if lv.bot == "dificil":
        return DificilBot(DificilParams(**_every_field(DificilParams, settings)))
    raise ValueError(f"no bot for level {name!r}")  # pragma: no cover - levels name only these


def _every_field(params: type[object], settings: Mapping[str, object]) -> dict[str, Any]:
    """``settings`` as keyword arguments, naming every field of ``params`` (no default may leak in)."""
    names = {f.name for f in fields(params)}  # type: ignore[arg-type]  # the bots' params are dataclasses
    if set(settings) != names:
        raise ValueError(f"{params.__name__} settings must name exactly {sorted(names)}")
    return dict(settings)


def _decisions(record: Record) -> Iterator[int | None]:
    """Replay ``record`` through the rules; yield the count of CPU decisions to check, or None on the way.

    Raises :class:`~engine.record.RecordError` for the first move the rules refuse.
    """
    count = 0
    for index, game in record.positions():
        if game.turn != HUMAN and len(game.legal_actions()) > 1:
            count += 1
        record.play(game, index)
        if index % MOVES_PER_STEP == MOVES_PER_STEP - 1:
            yield None
    yield count


def check_steps(record: Record) -> Iterator[float]:
    """Check ``record`` step by step, yielding the fraction done (0..1); 1.0 is the last value.

    First the rules (:class:`~engine.record.RecordError` for an illegal move,
    before any CPU move is asked), then each CPU decision in order
    (:class:`NotPlayedByCpu` at the first that differs). Each step is small:
    a few hundred moves replayed, one Fácil or Normal decision, or a few
    playouts of a Difícil search.
    """
    total = 0
    for counted in _decisions(record):
        if counted is None:
            yield 0.0
        else:
            total = counted
    bot = level_bot(record.level, record.version, record.code.players)
    done = 0
    for index, game in record.positions():
        seat = game.turn
        if seat != HUMAN and len(game.legal_actions()) > 1:
            view = game.view(seat)
            if isinstance(bot, DificilBot):
                # As the page plays it: a search started and run in slices (the same answer as in one go).
                search = bot.start(view)
                while (expected := search.step(PLAYOUTS_PER_STEP)) is None:
                    yield (done + search.done / max(search.playouts, 1)) / total
            else:
                expected = bot.choose(view)
            played = record.moves[index]
            if expected != played:
                raise NotPlayedByCpu(index, seat, played, expected)
            done += 1
            yield done / total if done < total else 0.999
        record.play(game, index)
    yield 1.0


def check(record: Record) -> None:
    """The whole check at once: :class:`~engine.record.RecordError` or :class:`NotPlayedByCpu` if it fails."""
    for _ in check_steps(record):
        pass


__all__ = ["MESSAGE", "NotPlayedByCpu", "check", "check_steps", "level_bot"]
