"""«Aprende jugando»: a first hand that teaches, one step at a time, on a fixed deal.

The steps are the four things a player needs (seeds/000): follow the suit or
the number, the 8 is wild and names a suit, draw up to 3 then pass, and the
leftovers are penalty points, 100 ending the game. Each step waits for the
player's own move: while it is on, the table refuses the other legal moves
with a word on what the step asks (an illegal one the rules refuse as ever).
Which step is on follows from the hand's moves alone (:func:`step_of`).

The deal is a fixed code against «Fácil» (:data:`LESSON_CODE`), chosen by
``python -m lab.lesson_deal`` so that every way of following the steps shows
each of them at once, and the hand ends in a few turns more. The lesson's game
is never kept: no save (a real one stays as it was), no link, no «Tus
partidas», no setup remembered. It ends, done or skipped («Saltar la
lección»), at a normal table: the game that was on it, else a new deal (done)
or the setup (skipped).
"""

from __future__ import annotations

import enum

from engine.actions import DRAW, PASS, Action
from engine.cards import Card
from engine.codes import GameCode
from engine.game import GAME_OVER, PLAYING, Game
from engine.names import card_name, needed_phrase, suit_name
from engine.view import seat_view

from . import board, render
from .host import Host
from .prefs import LEVEL_KEY, PACE_KEY, PREFS_KEY
from .storage import SAVE_KEY, Saved

HUMAN = 0
# Chosen by python -m lab.lesson_deal: one card follows, and the CPU answers your 8 with one of its own.
LESSON_CODE = GameCode.parse("A2YB-HWRV")
LESSON_LEVEL = "facil"


class Step(enum.Enum):
    """Where the lesson is, from the hand's moves (:func:`step_of`)."""

    FOLLOW = 1  # play a card of the active suit or of the top card's number
    EIGHT = 2  # play an 8 and name a suit
    DRAW = 3  # draw up to 3, then pass
    PLAY_ON = 4  # no step: play the hand out
    POINTS = 5  # the hand is over: its leftovers are penalty points

    @property
    def holds_moves(self) -> bool:
        """Whether the step takes only its own moves (and forced moves wait for the player's tap)."""
        return self in (Step.FOLLOW, Step.EIGHT, Step.DRAW)


def step_of(game: Game) -> Step:
    """The step the lesson is at in ``game``'s hand (its moves, as the lesson lets them be made)."""
    if game.phase != PLAYING:
        return Step.POINTS
    mine = [move.action for move in game.hand_history if move.seat == HUMAN]
    plays = [action for action in mine if action.card is not None]
    if not plays:
        return Step.FOLLOW
    eights = [n for n, action in enumerate(mine) if action.card is not None and action.card.is_eight]
    if not eights:
        return Step.EIGHT
    after = mine[eights[0] + 1 :]
    if any(action == PASS or action.card is not None for action in after):
        return Step.PLAY_ON
    return Step.DRAW


def asked(step: Step, game: Game, action: Action) -> bool:
    """Whether ``action`` is a move ``step`` asks for (any move once the steps are done)."""
    card = action.card
    if step is Step.FOLLOW:
        return card is not None and not card.is_eight
    if step is Step.EIGHT:
        return card is not None and card.is_eight
    if step is Step.DRAW:
        return action in (DRAW, PASS) or (card is not None and game.draws > 0)
    return True


def takes(game: Game, action: Action) -> bool:
    """Whether the lesson lets the player make the legal ``action`` now.

    A step whose moves are none of the legal ones (never on the lesson's deal) holds nothing back:
    the player can never be stuck.
    """
    step = step_of(game)
    if not step.holds_moves or asked(step, game, action):
        return True
    return not any(asked(step, game, legal) for legal in game.legal_actions())


def card_action(game: Game, card: Card) -> Action | None:
    """The legal action that plays ``card`` (an 8 with any suit stands for all four), or None."""
    return next((a for a in game.legal_actions() if a.card == card), None)


def _names(cards: list[Card]) -> str:
    """«el 7 de picas» or «el 7 de picas o el 8 de corazones»."""
    names = [card_name(card, article=True) for card in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " o " + names[-1]


def step_text(step: Step, game: Game, forced: bool) -> str:
    """What the step says, in the lesson's box (a live region): short, with the cards it is about."""
    view = seat_view(game, HUMAN)
    if step is Step.FOLLOW:
        fit = [c for c in view.sorted_hand() if c in view.legal_cards() and not c.is_eight]
        return (
            f"Paso 1 de 4. Arriba está {card_name(game.top, article=True)}: vale "
            f"{needed_phrase(game.active_suit, game.top.rank)}. Tira {_names(fit)}."
        )
    if step is Step.EIGHT:
        return (
            f"Paso 2 de 4. Manda {suit_name(game.active_suit)} y no tienes ninguna, pero el 8 vale siempre: "
            "tíralo y pide el palo que quieras."
        )
    if step is Step.DRAW:
        return "Paso 3 de 4. No tienes carta que valga: roba. Puedes robar hasta 3; si ninguna vale, pasas."
    if step is Step.PLAY_ON:
        alone = " Cuando no tengas elección, la mesa robará y pasará por ti." if forced else ""
        return f"Sigue jugando: gana la mano quien se queda sin cartas.{alone}"
    return (
        "Paso 4 de 4. Las cartas que quedan en la mano son puntos de castigo: el 8 vale 50. "
        "Cuando alguien llega a 100, se acaba la partida y gana quien tiene menos."
    )


# What each step asks, said when another move is tried.
ASKS = {
    Step.FOLLOW: "Ahora tira una carta que siga el palo o el número; el 8, en el paso siguiente.",
    Step.EIGHT: "Ahora tira el 8.",
    Step.DRAW: "Ahora roba con «Robar» (o en el mazo).",
}
END_WORDS = "Fin de la lección."
# The keys a visit leaves once it has dealt or chosen anything: without them, it is a first visit.
VISIT_KEYS = (SAVE_KEY, PREFS_KEY, LEVEL_KEY, PACE_KEY)  # a game dealt or chosen (not a look or a switch)


class Lesson:
    """The lesson on the table: its game (never kept), the step shown, and the way back."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.game: Game | None = None  # the lesson's game, while it is (or was last) on the table
        self.before: Saved | None = None  # the game the lesson was started over, put back at its end
        self.shown: Step | None = None  # the step the box says
        self.marked: set[str] = set()  # elements marked for the step (data-lesson)

    @property
    def active(self) -> bool:
        """Whether the lesson's game is the one on the table."""
        return self.game is not None and self.game is self.host.game

    def holds(self, game: Game | None) -> bool:
        """Whether ``game`` is the lesson's (never kept in «Tus partidas»)."""
        return game is not None and game is self.game

    def holds_forced(self) -> bool:
        """Whether forced moves wait for the player's tap: while a step asks for a move."""
        game = self.host.game
        return self.active and game is not None and step_of(game).holds_moves

    # -- starting, ending ---------------------------------------------------------------------

    def start(self) -> None:
        """«Aprende jugando»: deal the lesson (a game on the table waits for its end, untouched)."""
        host = self.host
        if self.active:
            host.screen.status("Ya estás en la lección. " + ASKS.get(step_of(self._game()), ""))
            return
        game = host.game
        self.before = None
        if game is not None and game.phase != GAME_OVER and not self.holds(game):
            self.before = Saved(game, host.level, host.chooser, hints=host.hints)
        self.game = Game.new(LESSON_CODE)
        self.shown = None
        host.screen.attr("lesson", "hidden", None)
        host.new_game(code=LESSON_CODE, level=LESSON_LEVEL, origin="Aprende jugando", lesson=self.game)

    def skip(self) -> None:
        """«Saltar la lección»: straight to a normal table."""
        if self.active:
            self._end(done=False)

    def finish(self) -> None:
        """The last step's move (the results' button): the lesson is over, a normal table comes."""
        if self.active:
            self._end(done=True)

    def _end(self, *, done: bool) -> None:
        host = self.host
        before = self.before
        self.before = None
        if before is not None:
            host.follow(before, host.store.notice)  # the game left for the lesson, as it was
            host.screen.status(f"{END_WORDS} Sigue tu partida.")
        elif done:
            host.new_game(origin=f"{END_WORDS} Nueva partida")
        else:
            host.leave_game()
            host.screen.status(f"{END_WORDS} Elige mesa y pulsa «Repartir».")
            host.screen.focus("deal-btn")
        self.game = None
        self.show()

    def leave(self) -> bool:
        """Put back what was on the table before the lesson, drawn but not resumed (a question comes next).

        True when the lesson was on. With nothing before it, the table is empty.
        """
        if not self.active:
            return False
        host, before = self.host, self.before
        self.before = None
        if before is not None:
            host.game, host.level, host.hints, host.chooser = before.game, before.level, before.hints, None
            board.draw(host.screen, before.game)
        else:
            host.game = None
            board.clear(host.screen)
        self.game = None
        self.show()
        return True

    # -- the steps ------------------------------------------------------------------------------

    def takes(self, action: Action) -> bool:
        """Whether the player's legal ``action`` goes ahead; if not, the status says what the step asks."""
        game = self.host.game
        if not self.active or game is None or not game.is_legal(action) or takes(game, action):
            return True
        self.host.screen.status(ASKS.get(step_of(game), ""))
        return False

    def takes_card(self, card: Card) -> bool:
        """As :meth:`takes`, for a card pressed (an 8 before its suit is chosen)."""
        game = self.host.game
        action = card_action(game, card) if game is not None else None
        return action is None or self.takes(action)

    def show(self) -> None:
        """After the table is drawn: the box says the step at the player's turn and marks what it is about."""
        host = self.host
        s = host.screen
        s.attr("learn-btn", "hidden", None if self._first_visit() and host.game is None else "")
        if not self.active:
            if self.shown is not None or self.marked:
                self._mark(set())
                self.shown = None
                s.attr("lesson", "hidden", "")
                s.text("lesson-step", "")
                s.text("next-hand-btn", "Siguiente mano")
            return
        game = self._game()
        step = step_of(game)
        if game.phase == PLAYING and game.turn != HUMAN:
            self._mark(set())  # the CPU's turn: the step said stays until the player's next one
            return
        self._mark(self._marks(step, game))
        if step is not self.shown:
            self.shown = step
            s.text("lesson-step", step_text(step, game, host.setup.forced))
            if step is Step.EIGHT:
                s.focus(render.card_id(next(c for c in game.hands[HUMAN] if c.is_eight)))
            elif step is Step.DRAW:
                s.focus("main-btn")

    def counted(self) -> None:
        """The hand's count is over (the results): the last step, and the way out of the lesson."""
        if not self.active:
            return
        s = self.host.screen
        game = self._game()
        result = game.result
        assert result is not None
        summary = render.results_summary(result)
        s.text("results-live", f"{summary} {step_text(Step.POINTS, game, False)}")
        s.attr("replay-btn", "hidden", "")  # «Ver la mano» would keep a review of the lesson
        s.text("next-hand-btn", "Volver a tu partida" if self.before is not None else "Jugar una partida")

    def _marks(self, step: Step, game: Game) -> set[str]:
        if step is Step.DRAW:
            return {"main-btn"}
        if step in (Step.FOLLOW, Step.EIGHT):
            plays = (card_action(game, card) for card in game.hands[HUMAN])
            return {
                render.card_id(a.card)
                for a in plays
                if a is not None and a.card is not None and asked(step, game, a)
            }
        return set()

    def _mark(self, wanted: set[str]) -> None:
        """Mark ``wanted`` (``data-lesson``), unmarking the rest that are still on the page."""
        s = self.host.screen
        game = self.host.game
        here = {render.card_id(c) for c in game.hands[HUMAN]} if game is not None else set()
        for el_id in sorted(self.marked | wanted):
            if el_id in wanted:
                s.attr(el_id, "data-lesson", "1")
            elif el_id in here or not el_id.startswith("card-"):
                s.attr(el_id, "data-lesson", None)
        self.marked = wanted

    def _first_visit(self) -> bool:
        """No save, no setup remembered, no game kept: the first screen offers the lesson."""
        backend = self.host.store.backend
        try:
            if any(backend.getItem(key) is not None for key in VISIT_KEYS):
                return False
        except Exception:
            return False
        return not self.host.history.known

    def _game(self) -> Game:
        assert self.game is not None
        return self.game


__all__ = ["LESSON_CODE", "LESSON_LEVEL", "Lesson", "Step", "step_of", "takes"]
