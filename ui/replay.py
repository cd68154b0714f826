"""«Ver la mano»: a finished hand replayed move by move, every hand face up.

Built from the game's record and the engine alone: the position before the
hand is the record's moves up to that hand replayed through the rules, and
every step after it applies one more recorded move with
:meth:`engine.game.Game.apply`, which checks it. So a player can see that
each card the CPU played was in its hand, and that the deal is the one the
code fixes. Pure Python (no DOM): :class:`ui.table.Table` drives it and
:mod:`ui.render` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from engine.cards import Card
from engine.game import HAND_OVER, Game, Move
from engine.record import Record

# The steps of «Ver la mano» its buttons and keys ask for (ui.protocol's replay-step intent).
ReplayStep = Literal["first", "prev", "next", "last"]
REPLAY_STEPS: tuple[ReplayStep, ...] = get_args(ReplayStep)


@dataclass(frozen=True)
class Step:
    """The table after one move (``move`` is None for the deal); ``drawn`` is the card a draw took."""

    game: Game
    move: Move | None
    drawn: Card | None


class HandReplay:
    """The steps of one hand of a record, and which one is on show."""

    def __init__(self, record: Record, hand_start: int, hand_end: int) -> None:
        game = record.prefix(hand_start).replay()
        if game.phase == HAND_OVER:  # the record stops at the end of the hand before
            game.next_hand()
        steps = [Step(game.copy(), None, None)]
        for action in record.moves[hand_start:hand_end]:
            drawn = game.apply(action)
            steps.append(Step(game.copy(), game.history[-1], drawn))
        self.steps = steps
        self.hand_no = game.hand_no
        self.index = 0

    @classmethod
    def of_current_hand(cls, game: Game) -> HandReplay:
        """The replay of the hand ``game`` is playing or has just finished."""
        return cls(Record.of(game), game.hand_start, len(game.history))

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def go(self, where: ReplayStep) -> bool:
        """Move to ``first``, ``prev``, ``next`` or ``last``; False when that changes nothing."""
        targets: dict[ReplayStep, int] = {
            "first": 0,
            "prev": self.index - 1,
            "next": self.index + 1,
            "last": self.last,
        }
        target = targets.get(where, self.index)
        target = min(max(target, 0), self.last)
        moved = target != self.index
        self.index = target
        return moved
