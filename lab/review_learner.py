"""The stand-in for a person learning the game, as the review's lab tools play it.

:class:`Learner` plays like fácil (a random card that fits, an 8 spent early
4 times in 10) but, like a beginner, it also draws by choice now and then
while a card fits (``draw_by_choice``), which makes its hands longer and its
decisions more varied than fácil's. Its choices come from
:func:`engine.bots.decision_rng`, so a game replays from its record.
"""

from __future__ import annotations

from engine.actions import DRAW, Action
from engine.bots import FacilBot, decision_rng
from engine.view import SeatView

# Chance of drawing by choice, at the first action of a turn, while a card fits.
DRAW_BY_CHOICE = 0.2


class Learner:
    """Fácil that sometimes draws while it could play."""

    def __init__(self, draw_by_choice: float = DRAW_BY_CHOICE) -> None:
        self.draw_by_choice = draw_by_choice
        self.facil = FacilBot()

    def choose(self, view: SeatView) -> Action:
        if (
            len(view.legal) > 1
            and view.can_draw
            and view.draws_used == 0
            and view.legal_cards()
            and decision_rng("learner", view).random() < self.draw_by_choice
        ):
            return DRAW
        return self.facil.choose(view)
