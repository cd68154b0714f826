"""The stand-in for a person learning the game, as the review's lab tools play it.

:class:`Learner` plays like fácil (a random card that fits, an 8 spent early
4 times in 10) but, like a beginner, it also draws by choice now and then
while a card fits (``draw_by_choice``), which makes its hands longer and its
decisions more varied than fácil's. Three more stand-ins err each in a way
of its own (:class:`Drawer`, :class:`EightSpender`, :class:`HighDumper`,
by name in :data:`STAND_INS`). Their choices come from
:func:`engine.bots.decision_rng`, so a game replays from its record.
"""

from __future__ import annotations

from engine.actions import DRAW, PLAY, PLAY8, Action
from engine.bots import FacilBot, FacilParams, decision_rng
from engine.cards import EIGHT, POINTS, RANK_OF
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


# -- three stand-ins that err differently, for fitting and checking the review's margins ----------


class Drawer:
    """Draws too often: half the time it draws by choice while a card fits, and it keeps its 8s."""

    def __init__(self, draw_by_choice: float = 0.5) -> None:
        self.draw_by_choice = draw_by_choice
        self.facil = FacilBot(FacilParams(eager_eight=0.0))

    def choose(self, view: SeatView) -> Action:
        if (
            len(view.legal) > 1
            and view.can_draw
            and view.draws_used == 0
            and view.legal_cards()
            and decision_rng("learner-drawer", view).random() < self.draw_by_choice
        ):
            return DRAW
        return self.facil.choose(view)


class EightSpender:
    """Spends 8s early: 9 times in 10 it plays an 8 while another card fits, and it names any suit."""

    def __init__(self, eager: float = 0.9) -> None:
        self.eager = eager
        self.facil = FacilBot(FacilParams(eager_eight=0.0))

    def choose(self, view: SeatView) -> Action:
        eights = [c for c in view.hand if RANK_OF[c] == EIGHT]
        if eights and len(view.legal) > 1:
            rand = decision_rng("learner-eights", view).random
            plays = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
            if not plays or rand() < self.eager:
                action = PLAY[eights[0]] if len(view.hand) == 1 else PLAY8[eights[0]][int(rand() * 4)]
                if action in view.legal:
                    return action
        return self.facil.choose(view)


class HighDumper:
    """Dumps high cards first: it follows with the costliest card that fits (an 8 only when no other does)."""

    def __init__(self) -> None:
        self.facil = FacilBot(FacilParams(eager_eight=0.0))

    def choose(self, view: SeatView) -> Action:
        plays = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
        if len(view.legal) == 1 or not plays:
            return self.facil.choose(view)
        top = max(POINTS[c] for c in plays)
        dear = sorted(c for c in plays if POINTS[c] == top)
        return PLAY[dear[int(decision_rng("learner-high", view).random() * len(dear))]]


# The stand-ins by name: the review's margins are fitted on some and checked on all (docs/review.md).
STAND_INS: dict[str, type] = {
    "learner": Learner,
    "drawer": Drawer,
    "eights": EightSpender,
    "high": HighDumper,
}
