"""The flow of play on the page: whose move it is, CPU pacing, dialogs, saving, other tabs.

:class:`Table` holds the :class:`engine.Game` and turns the person's intents into engine actions;
every rule decision is the engine's. It never touches the DOM: it talks to a
:class:`ui.screen.Screen` (:class:`ui.batch.BatchScreen`; tests use a fake), so the whole flow runs
under pytest. Beside it, as parts it holds, are the rooms that see it as a :class:`ui.host.Host`:
the end of a hand (:mod:`ui.results`), challenges, the deal of the day, «Tus partidas»
(:mod:`ui.transfer`), forced moves (:mod:`ui.forced`), the lesson (:mod:`ui.lesson`)…

The table holds what it waits for (:class:`ui.screen.TableState`, ``self.state``) and shows it as
``body[data-state]`` with :meth:`Table.enter`, the one place it is set: the browser tests wait on
it, and the page keeps a picture of a game in play for the next visit's first paint. The moves and
the panels' buttons are guarded by it (your turn, the suit chooser, the results, the end, the
replay), as a game engine switches on its phase; only "is there a game to lose" (a deal, a game
left) reads the game itself.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from engine.actions import DRAW, PASS, PLAY, PLAY8, Action
from engine.cards import BY_TEXT, SUIT_LETTERS, Card
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game, IllegalAction
from engine.levels import DEFAULT_LEVEL, is_level
from engine.record import Record
from engine.view import SeatView, seat_view

from . import board, render
from .arrivals import Arrivals
from .challenges import Challenges
from .cpu import Thinking, speech_gap
from .daily import Daily
from .forced import Forced
from .hint import Hints
from .history import Games, History
from .host import ChallengeGame, Forget, LinkGame, NewTable, Pending
from .lesson import Lesson
from .links import link_hash
from .prefs import Setup
from .results import PACE_DELAYS, Results
from .saves import Saves
from .screen import Screen, SoundName, TableState
from .setup_bar import SetupBar
from .sounds import end_sound, move_sound
from .storage import Saved, Store
from .transfer import Transfer

HUMAN = 0
NOTICE_LEGACY = (
    "Esta partida viene de una versión anterior de la página: se comprueban el reparto y las jugadas "
    "de la mano en curso, pero no los puntos de las manos anteriores."
)
EARLY_CLICK_IGNORED = "Lo que pulsaste antes de que la mesa estuviera lista ya no vale: no se ha jugado."


class Table:
    """One browser tab's game of Ocho Loco."""

    def __init__(
        self,
        screen: Screen,
        store: Store,
        *,
        fast: bool = False,
        rng: random.Random | None = None,
        today: Callable[[], str] | None = None,
        games: Games | None = None,
    ):
        self.screen = screen
        self.store = store
        self.fast = fast
        self.rng = rng if rng is not None else random.Random()
        self.game: Game | None = None
        self.chooser: Card | None = None
        self.pending: Pending | None = None  # what «Sí» in the replace dialog would put on the table
        self.generation = 0  # moved on by _drop_timers() only (why not by enter(): see there)
        # Sentences not yet on the status line: with reduced motion the CPU moves
        # in the same instant, so everything up to the person's next turn is said at once.
        self.carry = ""
        self.ending = ""  # how the hand ended, said again inside the results panel
        # The game's own level (in its record); the next game's is in :meth:`setup`.
        self.level = DEFAULT_LEVEL
        self.state = TableState.SETUP  # what the table waits for: set by enter() only
        self.hints: tuple[int, ...] = ()  # where a hint («Pista») was asked: moves played before each
        self.thinking = Thinking(screen)
        self.page_url = ""
        self.today = today if today is not None else lambda: datetime.date.today().isoformat()
        # The rooms beside the table, each a part it holds (they see it as a ui.host.Host).
        self.history = History(store.backend, games)
        self.saves = Saves(self)
        self.bar = SetupBar(self)
        self.transfer = Transfer(self)
        self.challenges = Challenges(self)
        self.arrivals = Arrivals(self, self.challenges)
        self.daily = Daily(self, self.transfer.render)
        self.lesson = Lesson(self)
        self.results = Results(
            self, keep=self._keep_finished, comparison=self.challenges.comparison, counted=self.lesson.counted
        )
        self.hints_part = Hints(self)
        self.forced = Forced(self, held=self.lesson.holds_forced)

    # -- start-up ---------------------------------------------------------------

    def start(self, fragment: str, page_url: str = "") -> None:
        """Resume the saved game, or open the linked one, or get ready to deal."""
        self.page_url = page_url
        loaded = self.store.load()
        notices = [self.store.notice] if self.store.notice else []
        if loaded is not None:
            self.game = loaded.game
            self.level = loaded.level
            self.hints = loaded.hints
            self.bar.remember(players=loaded.game.players)
            self.chooser = loaded.chooser
            if not Record.of(loaded.game).verified:
                notices.append(NOTICE_LEGACY)
        refused = len(notices)
        challenge, link = self.arrivals.read(fragment, notices)
        if len(notices) > refused and self.game is None:
            self.screen.set_hash("")  # a refused link is not read again on the next reload
        if self.history.notice:
            notices.append(self.history.notice)
        self.challenges.restore(notices)
        self.screen.notice(" ".join(notices) if notices else None)
        self.show_aside()
        self.transfer.render()
        self.transfer.start_work()
        if challenge is not None:
            if self.game is not None and self.game.phase != GAME_OVER:
                self.render()
            self.challenges.follow(challenge)
            return
        if link is not None and (self.game is None or link.text != self.game.code.text):
            if self.game is not None and self.game.phase != GAME_OVER:
                self.render()  # the saved game shows behind the question
            self.arrivals.follow(link)
            return
        if self.game is not None:
            self.screen.set_hash(self._hash())
            self.resume()
            return
        self.show_setup()
        self.screen.focus("deal-btn")

    def enter(self, state: TableState) -> None:
        """Hold ``state`` as what the table waits for, and show it (``body[data-state]``)."""
        self.state = state
        self.screen.state(state)

    def _drop_timers(self) -> None:
        """A new game, a new hand, a question or another tab's game: what the timers wait to do
        (a CPU move, a results count, a hint's search) is of no use now, and does nothing.

        ``generation`` moves here and not with :meth:`enter`, which also marks steps inside one
        game's flow that the timers must outlive: your turn after a CPU turn, the suit chooser
        opening and closing under a hint being searched, «Ver la mano» over a count.
        """
        self.generation += 1

    def show_setup(self) -> None:
        """Wait for a table size and «Repartir» (also after leaving a game half-way)."""
        self.render_setup()
        self.enter(TableState.SETUP)
        self.screen.status("Elige mesa y pulsa «Repartir».")

    def ask_replace(self, title: str, yes: str, sub: str, pending: Pending) -> None:
        """Ask whether to put ``pending`` on the table instead; the CPU holds still until the answer.

        Over «Aprende jugando» the question is about the game under it, if any; with none, ``pending``
        goes on the table at once (a lesson is never a game to lose).
        """
        if self.lesson.leave() and self.game is None:
            self.pending = pending
            self.answer_replace(True)
            return
        self.pending = pending
        self._drop_timers()
        self.screen.text("replace-title", title)
        self.screen.text("replace-sub", sub)
        self.screen.text("replace-yes", yes)
        self.enter(TableState.REPLACE)
        self.screen.dialog("replace-dialog", True)
        # The safe answer, keeping the current game, has the focus: Enter, Space and Escape keep it.
        self.screen.focus("replace-no")

    def resume(self) -> None:
        """Show the current position and carry on from whatever was pending."""
        game = self._game()
        self.render()
        if game.phase == GAME_OVER:
            self.results.resume_final()  # its last count was seen: the end of the game at once
        elif game.phase == HAND_OVER:
            self.results.show(animate=False)
        elif self.chooser is not None:
            self.open_chooser()
        elif game.turn != HUMAN:
            self.enter(TableState.CPU)
            self.screen.status(f"Sigue la partida. Juega {render.seat_name(game.turn)}.")
            self._schedule_cpu()
        else:
            self.enter(TableState.HUMAN)
            self.screen.status("Sigue la partida. " + render.turn_prompt(self.view()))
            self.forced.follow()

    # -- new games and links --------------------------------------------------------

    def request_deal(self, players: int) -> None:
        """«Repartir» deals at once; during a game the same button, «Otra partida», asks first.

        Leaving a game goes back to choosing a table (the size radios are
        disabled while a game is under way, so they never disagree with it).
        """
        if self.game is not None and self.game.phase != GAME_OVER:
            self.ask_replace(
                "Tienes una partida a medias. ¿La dejas para empezar otra?",
                "Dejarla y elegir mesa",
                render.LEFT_GAME,
                NewTable(self.game.players),
            )
            return
        self.bar.remember(players=players)
        if self.store.kept_bad:
            self.ask_replace(
                "La partida guardada no se puede abrir y no cabe aparte. ¿La borras para empezar otra?",
                "Borrarla y empezar otra",
                "Si la borras, esa partida guardada se pierde.",
                NewTable(self.setup.players),
            )
            return
        self.new_game(players=self.setup.players)

    def answer_replace(self, replace: bool) -> None:
        self.screen.dialog("replace-dialog", False)
        pending, self.pending = self.pending, None
        if replace and isinstance(pending, LinkGame | NewTable):
            self.store.discard_bad()  # the player chose to start over
        if replace and isinstance(pending, Forget):
            self.transfer.forget(pending.key)
        if not replace or pending is None or isinstance(pending, Forget):
            if self.game is None:
                self.enter(TableState.SETUP)  # a stray answer before any deal
                return
            self.challenges.show_banner()
            self.carry_on()
        elif isinstance(pending, LinkGame):
            self.new_game(code=pending.code)
        elif isinstance(pending, NewTable) and self.game is not None and self.game.phase != GAME_OVER:
            self.leave_game()  # «Otra partida» during a game: back to choosing a table
        elif isinstance(pending, NewTable):
            self.new_game(players=pending.players)
        elif isinstance(pending, ChallengeGame):
            self.challenges.accept(pending.challenge)
        else:
            self.adopt(pending.saved)

    def new_game(
        self,
        players: int | None = None,
        code: GameCode | None = None,
        level: str | None = None,
        *,
        origin: str = "",
        lesson: Game | None = None,
    ) -> None:
        """Deal a new game, against ``level`` (default: the level chosen on the setup bar).

        The first words say the game, never its code (kept in «Marcador»): ``origin`` says where the
        deal came from when it is not a fresh one («Reparto del enlace»). ``lesson``: the game of
        «Aprende jugando» (:mod:`ui.lesson`), dealt without saving it, linking to it or remembering
        its table, and leaving the game it is dealt over as it was.
        """
        if lesson is not None:
            code = lesson.code
        elif code is None:
            code = GameCode.random(players or self.setup.players, self.rng)
        self._drop_timers()
        self.level = level if level is not None and is_level(level) else self.setup.level
        self.hints = ()
        if lesson is None:
            self._keep_abandoned()
            self.challenges.drop_unless(code)
        self.game = lesson if lesson is not None else Game.new(code)
        if lesson is None:
            self.bar.remember(players=code.players)
        self.chooser = None
        self.results.reset()
        self.screen.dialog("suit-dialog", False)
        self.carry = ""
        self.screen.set_hash(self._hash())
        self._save(replace=True)
        self.render()
        self._sound("deal")
        self._after_move(f"{origin or 'Nueva partida'}, {render.TABLE_WORDS[code.players]}. ")
        self._focus_play()

    def leave_game(self) -> None:
        """Put the game in progress away and wait for a new table choice.

        The save is only replaced by the next deal, so a reload before that
        still finds the game that was left.
        """
        self._drop_timers()
        self._keep_abandoned()  # a game left for another counts as played and not won
        self.game = None
        self.chooser = None
        self.carry = self.ending = ""
        self.results.reset()
        self.screen.dialog("suit-dialog", False)
        board.clear(self.screen)
        self.show_setup()
        self.screen.focus("mode-3" if self.setup.players == 3 else "mode-2")

    def _focus_play(self) -> None:
        """Focus the first card the person can play, else the main button (after a deal)."""
        view = self.view()
        legal = [c for c in view.sorted_hand() if c in view.legal_cards()]
        self.screen.focus(render.card_id(legal[0]) if legal else "main-btn")

    # -- the person's moves -----------------------------------------------------------

    def click_card(self, text: str) -> None:
        card = BY_TEXT.get(text)
        if card is None:
            return
        if self.state is TableState.CPU:
            self.screen.status(f"Espera: ahora juega {render.seat_name(self._game().turn)}.")
            return
        if self.state is not TableState.HUMAN:
            return  # no move outside your turn; the suit chooser and the questions are modal
        if not self.lesson.takes_card(card):
            return  # «Aprende jugando» asks for another move now (and says which)
        # What the click means comes from the legal actions: an 8 that must name
        # a suit opens the chooser; anything else is tried, and the engine says
        # why when the rules refuse it.
        if any(action.suit is not None for action in self.view().plays_of(card)):
            self.chooser = card
            if self._save():
                self.open_chooser()
            return
        self.play(PLAY[card])

    def early_click(self, card: str | None) -> None:
        """Apply a click made before the page was ready: on ``card``, or on «Robar» when None.

        It was made on the stored picture of the table; it is applied like a live
        click if it still fits the position, else ignored with a message.
        """
        game = self.game
        fits = self.state is TableState.HUMAN and game is not None
        if fits and game is not None and (card is None or BY_TEXT.get(card) in game.hands[HUMAN]):
            if card is None:
                self.main_button()
            else:
                self.click_card(card)
            return
        self.screen.status(EARLY_CLICK_IGNORED)

    def open_chooser(self) -> None:
        assert self.chooser is not None
        self.screen.html("suit-choices", render.suit_choices_html(self.view(), self.chooser))
        self.enter(TableState.CHOOSER)
        self.screen.dialog("suit-dialog", True)
        self.screen.status("Elige el palo que pides con el 8.")

    def choose_suit(self, letter: str) -> None:
        card = self.chooser
        if (
            self.state is not TableState.CHOOSER
            or card is None
            or len(letter) != 1
            or letter not in SUIT_LETTERS
        ):
            return
        self.chooser = None
        self.screen.dialog("suit-dialog", False)
        self.play(PLAY8[card][SUIT_LETTERS.index(letter)])

    def cancel_chooser(self) -> None:
        if self.state is not TableState.CHOOSER:
            return
        self.chooser = None
        self.screen.dialog("suit-dialog", False)
        if not self._save():
            return
        self.enter(TableState.HUMAN)
        self.screen.status("Te guardas el 8. " + render.turn_prompt(self.view()))

    def main_button(self) -> None:
        if self.state is not TableState.HUMAN:
            return
        action = PASS if self._game().can_pass() else DRAW
        if self.lesson.takes(action):
            self.play(action)

    def play(self, action: Action, *, because: str = "") -> None:
        """The person's ``action`` (``because``: why the table played it for them, said first)."""
        game = self._game()
        try:
            before = game.reshuffles
            drawn = game.apply(action)
        except IllegalAction as err:
            self.screen.status(str(err))
            return
        if not self._save():
            return
        message = render.describe_action(HUMAN, action, drawn, game.reshuffles != before)
        self._sound(move_sound(action, game.reshuffles != before))
        if because:
            message = f"{because}: {message[:1].lower()}{message[1:]}"
        self.render(arriving=drawn)
        self._after_move(message + " ")

    # -- the CPU players -----------------------------------------------------------------

    def _schedule_cpu(self, said: str = "") -> None:
        """The next CPU action, after the pace's delay and after ``said`` (just put on the status line)."""
        generation = self.generation
        pace = self.setup.pace
        delay = 0 if self.fast else max(PACE_DELAYS[pace][0], speech_gap(said, pace))
        self.screen.later(delay, lambda: self._cpu_step(generation))

    def _cpu_step(self, generation: int) -> None:
        game = self.game
        if self.state is not TableState.CPU or generation != self.generation or game is None:
            return
        action = self.thinking.decide(game, self.level, generation)
        if action is None:
            self.screen.later(0, lambda: self._cpu_step(generation))
            return
        seat = game.turn
        before = game.reshuffles
        game.apply(action)
        if not self._save():
            return
        self._sound(move_sound(action, game.reshuffles != before))
        self.render()
        if game.phase == PLAYING and game.turn == seat:
            self._schedule_cpu()  # the turn goes on: shown step by step, said once at its end
            return
        moves = render.last_turn(game.hand_history)
        self._after_move(render.turn_summary(seat, moves, went_out=game.phase != PLAYING) + " ")

    def _after_move(self, message: str) -> None:
        """Say what just happened (at most once per turn) and hand over to whoever is next."""
        game = self._game()
        message = self.carry + message
        self.carry = ""
        if game.phase != PLAYING:
            self.ending = message.strip()
            self.screen.status(self.ending)
            self._sound(end_sound(game))
            self.results.show(animate=True)
        elif game.turn == HUMAN:
            if game.hand_history and game.hand_history[-1].seat != HUMAN:
                self._sound("turn")  # «te toca», after the CPUs' turns
            self.enter(TableState.HUMAN)
            self.screen.status(message + render.turn_prompt(self.view()))
            self.forced.follow()
        else:
            self.enter(TableState.CPU)
            if self.fast:
                self.carry = message  # the CPU moves at once: said together with what follows
                self._schedule_cpu()
            else:
                self.screen.status(message.strip())
                self._schedule_cpu(said=message)

    def next_hand(self, *, by_key: bool = False) -> None:
        """«Siguiente mano» (``by_key``: pressed with a key, which the results may hold back just after
        they moved the focus there, :meth:`ui.results.Results.takes`)."""
        game = self.game
        if self.state is not TableState.RESULTS or game is None:
            return
        if not self.results.takes("next-hand-btn", by_key=by_key):
            return
        if self.lesson.active:
            self.lesson.finish()  # the lesson's last step: its hand is the only one
            return
        game.next_hand()
        self._drop_timers()  # a results count still running stops here
        self.results.reset()
        self.ending = ""
        if not self._save():
            return
        self.render()
        self._sound("deal")
        leads = "Sales tú" if game.leader == HUMAN else f"Sale {render.seat_name(game.leader)}"
        self._after_move(f"Mano {game.hand_no + 1}. {leads}. ")
        if game.turn == HUMAN:
            self._focus_play()

    def new_game_after_end(self, *, by_key: bool = False) -> None:
        """«Nueva partida» at game over (``by_key`` as in :meth:`next_hand`)."""
        game = self.game
        if self.state is not TableState.GAMEOVER or game is None:
            return  # mid-game a new deal goes through «Repartir», which asks first
        if not self.results.takes("new-game-btn", by_key=by_key):
            return
        self.new_game(players=game.players)

    def ask_hint(self) -> None:
        """«Pista»: the hard CPU's choice for this turn; the game is marked as played with hints."""
        if not self.hints_part.ask():
            return
        place = len(self._game().history)  # written into the record, before the move it helps with
        if place not in self.hints:
            self.hints = (*self.hints, place)
            self._save()

    # -- drawing the table ---------------------------------------------------------------

    def view(self) -> SeatView:
        return seat_view(self._game(), HUMAN)

    def render(self, arriving: Card | None = None) -> None:
        board.draw(self.screen, self._game(), arriving=arriving, counting=self.results.pending())
        self.render_setup()

    def render_setup(self) -> None:
        self.bar.draw()
        self.lesson.show()

    # -- helpers ------------------------------------------------------------------------

    @property
    def setup(self) -> Setup:
        """The setup bar's choices for the next game, as the store keeps them (the one place)."""
        return self.store.setup()

    def _sound(self, name: SoundName | None) -> None:
        """One of the table's sounds (:mod:`ui.sounds`), while «Sonido» is on (assets/sound.js makes it)."""
        if name is not None and self.setup.sound:
            self.screen.sound(name)

    def _game(self) -> Game:
        assert self.game is not None, "no game yet"
        return self.game

    def _hash(self) -> str:
        return "" if self.lesson.active else link_hash(self._game().code)

    def _save(self, *, replace: bool = False) -> bool:
        if self.lesson.active:
            return True  # the lesson is never saved: a saved game stays as it was
        return self.saves.save(replace=replace)

    def show_aside(self) -> None:
        self.saves.show_aside()

    def follow(self, saved: Saved, notice: str | None) -> None:
        """Show the game another tab saved, from where it is, and say why the table changed."""
        self._take_over(saved)
        self.screen.notice(notice)
        self.resume()

    def _take_over(self, saved: Saved) -> None:
        """Put ``saved`` on the table in place of this tab's game; dialogs about the old game close."""
        self._drop_timers()  # the old game's pending CPU move or results count stops here
        self.game = saved.game
        self.level = saved.level
        self.hints = saved.hints
        self.chooser = saved.chooser
        self.bar.remember(players=saved.game.players)
        self.pending = None
        self.results.reset()
        for dialog in ("replace-dialog", "suit-dialog"):
            self.screen.dialog(dialog, False)
        self.screen.set_hash(self._hash())

    # -- what the rooms beside the table ask of it -------------------------------------------------

    def carry_on(self) -> None:
        """Go on with the game on the table after a question or a check (its CPU turn restarts once)."""
        self._drop_timers()
        self.screen.set_hash(self._hash())
        self.resume()

    def adopt(self, saved: Saved) -> None:
        """Play the game a file brought (the one it replaces counts as abandoned)."""
        self._keep_abandoned()
        self._take_over(saved)
        if self._save(replace=True):
            self.challenges.show_banner()
            self.resume()

    def _keep_finished(self, record: Record) -> None:
        """A finished game goes to «Tus partidas» (the lesson's never does)."""
        if not self.lesson.active:
            self.transfer.keep(record)

    def _keep_abandoned(self) -> None:
        """A game left for a new one counts as played and not won (one with no move at all, not at all)."""
        game = self.game
        if game is not None and game.phase != GAME_OVER and not self.lesson.holds(game):
            self.transfer.keep(Record.of(game, self.level, self.hints))
