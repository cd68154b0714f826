"""The flow of play on the page: whose move it is, CPU pacing, dialogs, saving, other tabs.

:class:`Table` holds the :class:`engine.Game` and turns the person's clicks
into engine actions; every rule decision is the engine's. It never touches
the DOM itself: it talks to a :class:`ui.screen.Screen` (the real one lives
in :mod:`ui.dom`, tests use a fake), so the whole flow runs under pytest.
Beside it, as parts it holds, are the rooms that see it as a
:class:`ui.host.Host`: the end of a hand (:mod:`ui.results`), challenges
(:mod:`ui.challenges`), the deal of the day (:mod:`ui.daily`) and «Tus
partidas» with its file in and out (:mod:`ui.transfer`).

The ``data-state`` the screen shows tells the browser tests, the load benchmark
and :mod:`ui.main` (which keeps a picture of a game in play) what the table waits
for: ``setup``, ``human``, ``chooser``, ``cpu``, ``results``, ``gameover`` or ``replace``.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable

from engine.actions import DRAW, PASS, PLAY, PLAY8, Action
from engine.bots import LEVEL_BOTS, DificilBot, Search, make_level_bot
from engine.cards import BY_TEXT, SUIT_LETTERS, Card
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, PLAYING, TARGET, Game, IllegalAction
from engine.record import Record
from engine.view import SeatView, seat_view

from . import render
from .challenges import Challenges
from .daily import Daily
from .history import Games, History
from .host import ChallengeGame, LinkGame, NewTable, Pending
from .links import link_hash, read_hash, share_url
from .outside import SOURCE_LINK, Refused, take
from .results import PACE_DELAYS, Results
from .screen import Screen
from .storage import Follow, Saved, Setup, Store
from .transfer import Transfer

HUMAN = 0
# Playouts of the hard level's search per slice of the main thread (each is a fraction of a ms).
SEARCH_SLICE = 12
NOTICE_LINK_FROM_START = (
    "La partida del enlace empieza desde la primera mano: en este navegador no había ninguna guardada "
    "con ese código."
)
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
        self.generation = 0  # bumps on every new game so stale timers do nothing
        # Sentences not yet on the status line: with reduced motion the CPU moves
        # in the same instant, so everything up to the person's next turn is said at once.
        self.carry = ""
        self.ending = ""  # how the hand ended, said again inside the results panel
        # The game's own level (in its record); the next game's is in :meth:`setup`.
        self.level = "normal"
        self.search: Search | None = None
        self.search_key = (-1, -1)
        self.thinking_ms = 0.0
        self.page_url = ""
        self.today = today if today is not None else lambda: datetime.date.today().isoformat()
        # A save waits for the lock on the save (other tabs); what it will write is read when it runs.
        self.save_due = False
        self.replace_due = False
        # The rooms beside the table, each a part it holds (they see it as a ui.host.Host).
        self.history = History(store.backend, games)
        self.transfer = Transfer(self)
        self.challenges = Challenges(self)
        self.daily = Daily(self, self.transfer.render)
        self.results = Results(self, keep=self.transfer.keep, comparison=self.challenges.comparison)

    # -- start-up ---------------------------------------------------------------

    def start(self, fragment: str, page_url: str = "") -> None:
        """Resume the saved game, or open the linked one, or get ready to deal."""
        self.page_url = page_url
        loaded = self.store.load()
        notices = [self.store.notice] if self.store.notice else []
        if loaded is not None:
            self.game = loaded.game
            self.level = loaded.level
            self._choose(players=loaded.game.players)
            self.chooser = loaded.chooser
            if not Record.of(loaded.game).verified:
                notices.append(NOTICE_LEGACY)
        link: GameCode | None = None
        refused = len(notices)
        challenge = self.challenges.read(fragment, notices)
        try:
            link = take(SOURCE_LINK, fragment, read_hash)
        except Refused as err:
            notices.append(str(err))
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
            self._follow_link(link)
            return
        if self.game is not None:
            self.screen.set_hash(self._hash())
            self.resume()
            return
        self.show_setup()
        self.screen.focus("deal-btn")

    def show_setup(self) -> None:
        """Wait for a table size and «Repartir» (also after leaving a game half-way)."""
        self.render_setup()
        self.screen.state("setup")
        self.screen.status("Elige mesa y pulsa «Repartir».")

    def open_link(self, fragment: str) -> None:
        """A new hash while the page is open (a pasted link): like opening it fresh."""
        notices: list[str] = []
        challenge = self.challenges.read(fragment, notices)
        if challenge is not None or notices:
            self.screen.notice(" ".join(notices) if notices else None)
            self.show_aside()
            if challenge is not None:
                self.challenges.follow(challenge)
            else:
                self.screen.set_hash(self._hash() if self.game is not None else "")
            return
        try:
            link = take(SOURCE_LINK, fragment, read_hash)
        except Refused as err:
            self.screen.notice(str(err))
            self.screen.set_hash(self._hash() if self.game is not None else "")
            return
        game = self.game
        if link is None or (game is not None and link.text == game.code.text):
            return
        self.screen.notice(None)
        self._follow_link(link)

    def _follow_link(self, link: GameCode) -> None:
        """Open the linked game, asking first when an unfinished game would be replaced."""
        game = self.game
        if self.store.kept_bad:
            self.ask_replace(
                "La partida guardada no se puede abrir y no cabe aparte. "
                "¿La borras para jugar la del enlace?",
                "Borrarla y jugar la del enlace",
                "Si la borras, esa partida guardada se pierde.",
                LinkGame(link),
            )
            return
        if game is None or game.phase == GAME_OVER:
            self.new_game(code=link)
            if game is None:
                # Either a friend's link, or this browser lost the save of a game begun here
                # (a problem with the storage itself is said first).
                self.screen.notice(" ".join(filter(None, [self.store.notice, NOTICE_LINK_FROM_START])))
            return
        self.ask_replace(
            "Tienes una partida a medias. ¿La cambias por la del enlace?",
            "Jugar la del enlace",
            "Si juegas la del enlace, la partida a medias se pierde.",
            LinkGame(link),
        )

    def ask_replace(self, title: str, yes: str, sub: str, pending: Pending) -> None:
        """Ask whether to put ``pending`` on the table instead; the CPU holds still until the answer."""
        self.pending = pending
        self.generation += 1
        self.screen.text("replace-title", title)
        self.screen.text("replace-sub", sub)
        self.screen.text("replace-yes", yes)
        self.screen.state("replace")
        self.screen.dialog("replace-dialog", True)
        # The safe answer, keeping the current game, has the focus: Enter, Space and Escape keep it.
        self.screen.focus("replace-no")

    def resume(self) -> None:
        """Show the current position and carry on from whatever was pending."""
        game = self._game()
        self.render()
        if game.phase in (HAND_OVER, GAME_OVER):
            self.results.show(animate=False)
        elif self.chooser is not None:
            self.open_chooser()
        elif game.turn != HUMAN:
            self.screen.state("cpu")
            self.screen.status(f"Sigue la partida. Juega {render.seat_name(game.turn)}.")
            self._schedule_cpu()
        else:
            self.screen.state("human")
            self.screen.status("Sigue la partida. " + render.turn_prompt(self.view()))

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
                "Si empiezas otra, la partida a medias se pierde.",
                NewTable(self.game.players),
            )
            return
        self._choose(players=players)
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
        if not replace or pending is None:
            if self.game is None:
                self.screen.state("setup")  # a stray answer before any deal
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
        self, players: int | None = None, code: GameCode | None = None, level: str | None = None
    ) -> None:
        """Deal a new game, against ``level`` (default: the level chosen on the setup bar)."""
        if code is None:
            code = GameCode.random(players or self.setup.players, self.rng)
        self.generation += 1
        self.level = level if level in LEVEL_BOTS else self.setup.level
        self._keep_abandoned()
        self.challenges.drop_unless(code)
        self.game = Game.new(code)
        self._choose(players=code.players)
        self.chooser = None
        self.results.reset()
        self.screen.dialog("suit-dialog", False)
        self.carry = ""
        self.screen.set_hash(self._hash())
        self._save(replace=True)
        self.render()
        self._after_move("Nueva partida, código " + code.pretty() + ". ")
        self._focus_play()

    def leave_game(self) -> None:
        """Put the game in progress away and wait for a new table choice.

        The save is only replaced by the next deal, so a reload before that
        still finds the game that was left.
        """
        self.generation += 1
        self._keep_abandoned()  # a game left for another counts as played and not won
        self.game = None
        self.chooser = None
        self.carry = self.ending = ""
        self.results.reset()
        s = self.screen
        s.dialog("suit-dialog", False)
        s.html("opponents", "")
        s.html("discard", '<span class="card slot" aria-hidden="true"></span>')
        s.text("active-suit", "Manda: —")
        s.attr("active-suit", "data-suit", None)
        s.text("stock-count", "—")
        s.attr("stock", "disabled", "")
        s.attr("stock", "aria-label", None)
        s.html("hand", "")
        s.text("hand-title", "Tu mano")
        s.attr("my-hand", "data-turn", None)
        s.text("main-btn", "Robar")
        s.attr("main-btn", "aria-label", None)
        s.attr("main-btn", "disabled", "")
        s.html(
            "scoreboard",
            f'<p class="muted">Todavía no hay puntos. Se acaba al llegar alguien a {TARGET}.</p>',
        )
        s.html("move-log", '<li class="log-empty">Todavía no ha jugado nadie en esta mano.</li>')
        s.text("game-code", "—")
        s.attr("copy-link-btn", "disabled", "")
        self.show_setup()
        s.focus("mode-3" if self.setup.players == 3 else "mode-2")

    def _focus_play(self) -> None:
        """Focus the first card the person can play, else the main button (after a deal)."""
        view = self.view()
        legal = [c for c in view.sorted_hand() if c in view.legal_cards()]
        self.screen.focus(render.card_id(legal[0]) if legal else "main-btn")

    def copy_link(self) -> None:
        game = self._game()
        url = share_url(self.page_url, game.code)
        self.screen.copy_text(url)
        self.screen.status("Enlace copiado: " + url)

    # -- the person's moves -----------------------------------------------------------

    def click_card(self, text: str) -> None:
        game = self.game
        card = BY_TEXT.get(text)
        if game is None or card is None or self.chooser is not None:
            return  # the suit dialog is modal: the 8 waits for its suit
        if game.phase != PLAYING:
            return
        if game.turn != HUMAN:
            self.screen.status(f"Espera: ahora juega {render.seat_name(game.turn)}.")
            return
        # What the click means comes from the legal actions: an 8 that must name
        # a suit opens the chooser; anything else is tried, and the engine says
        # why when the rules refuse it.
        if any(action.suit is not None for action in self.view().plays_of(card)):
            self.chooser = card
            if self._save():
                self.open_chooser()
            return
        self.play(PLAY[card])

    def early_choice(self, players: int, level: str) -> None:
        """The table size and «Rival» checked before the page was ready: kept for the next game.

        A game under way keeps its own (its radios are shown off once the live table is up).
        """
        game = self.game
        if game is not None and game.phase != GAME_OVER:
            return
        self._choose(players=players, level=level)
        self.render_setup()

    def early_click(self, card: str | None) -> None:
        """Apply a click made before the page was ready: on ``card``, or on «Robar» when None.

        It was made on the stored picture of the table; it is applied like a live
        click if it still fits the position, else ignored with a message.
        """
        game = self.game
        fits = game is not None and game.phase == PLAYING and game.turn == HUMAN and self.chooser is None
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
        self.screen.state("chooser")
        self.screen.dialog("suit-dialog", True)
        self.screen.status("Elige el palo que pides con el 8.")

    def choose_suit(self, letter: str) -> None:
        card = self.chooser
        if card is None or len(letter) != 1 or letter not in SUIT_LETTERS:
            return
        self.chooser = None
        self.screen.dialog("suit-dialog", False)
        self.play(PLAY8[card][SUIT_LETTERS.index(letter)])

    def cancel_chooser(self) -> None:
        if self.chooser is None:
            return
        self.chooser = None
        self.screen.dialog("suit-dialog", False)
        if not self._save():
            return
        self.screen.state("human")
        self.screen.status("Te guardas el 8. " + render.turn_prompt(self.view()))

    def main_button(self) -> None:
        game = self.game
        if game is None or game.phase != PLAYING or game.turn != HUMAN or self.chooser is not None:
            return
        self.play(PASS if game.can_pass() else DRAW)

    def play(self, action: Action) -> None:
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
        self.render(arriving=drawn)
        self._after_move(message + " ")

    # -- the CPU players -----------------------------------------------------------------

    def _schedule_cpu(self) -> None:
        generation = self.generation
        delay = 0 if self.fast else PACE_DELAYS[self.setup.pace][0]
        self.screen.later(delay, lambda: self._cpu_step(generation))

    def _cpu_step(self, generation: int) -> None:
        game = self.game
        if game is None or generation != self.generation or game.phase != PLAYING or game.turn == HUMAN:
            return
        seat = game.turn
        started = time.perf_counter()
        bot = make_level_bot(self.level)
        if isinstance(bot, DificilBot):
            # The hard level searches in slices, each a few milliseconds, so the page
            # never freezes while it thinks; the answer is the same as in one go.
            key = (generation, len(game.history))
            if self.search is None or self.search_key != key:
                self.search, self.search_key = bot.start(seat_view(game, seat)), key
                self.thinking_ms = 0.0
            chosen = self.search.step(SEARCH_SLICE)
            self.thinking_ms += (time.perf_counter() - started) * 1000
            if chosen is None:
                self.screen.later(0, lambda: self._cpu_step(generation))
                return
            self.search = None
            self.screen.timing(self.thinking_ms)
            self.thinking_ms = 0.0
            action = chosen
        else:
            action = bot.choose(seat_view(game, seat))
            self.screen.timing((time.perf_counter() - started) * 1000)
        game.apply(action)
        if not self._save():
            return
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
            self.results.show(animate=True)
        elif game.turn == HUMAN:
            self.screen.state("human")
            self.screen.status(message + render.turn_prompt(self.view()))
        else:
            self.screen.state("cpu")
            if self.fast:
                self.carry = message  # the CPU moves at once: said together with what follows
            else:
                self.screen.status(message.strip())
            self._schedule_cpu()

    def choose_size(self, players: int) -> None:
        """The table size for the next game, remembered at once (a game under way keeps its own)."""
        game = self.game
        if game is not None and game.phase != GAME_OVER:
            self.render_setup()  # never changes the game being played
            return
        self._choose(players=players)
        self.render_setup()
        self.screen.status(f"Mesa: {render.TABLE_NAMES[self.setup.players]}. Pulsa «Repartir» para empezar.")

    def choose_level(self, level: str) -> None:
        """«Rival»: the level for the next game (a game under way keeps its own; the radios are off)."""
        if level not in LEVEL_BOTS:
            return
        game = self.game
        if game is not None and game.phase != GAME_OVER:
            self.render_setup()  # never changes the game being played
            return
        self._choose(level=level)
        self.render_setup()
        self.screen.status(f"Rival: {render.LEVEL_NAMES[level]}. Pulsa «Repartir» para empezar.")

    def set_pace(self, pace: str) -> None:
        """«Ritmo»: how long each CPU action and each turned card stays before the next."""
        if pace not in PACE_DELAYS:
            return
        self._choose(pace=pace)
        self.screen.attr(f"pace-{pace}", "checked", "")

    def next_hand(self) -> None:
        game = self.game
        if game is None or game.phase != HAND_OVER:
            return
        game.next_hand()
        self.generation += 1  # a results count still running stops here
        self.results.reset()
        self.ending = ""
        if not self._save():
            return
        self.render()
        leads = "Sales tú" if game.leader == HUMAN else f"Sale {render.seat_name(game.leader)}"
        self._after_move(f"Mano {game.hand_no + 1}. {leads}. ")
        if game.turn == HUMAN:
            self._focus_play()

    def new_game_after_end(self) -> None:
        game = self.game
        if game is None or game.phase != GAME_OVER:
            return  # mid-game a new deal goes through «Repartir», which asks first
        self.new_game(players=game.players)

    # -- drawing the table ---------------------------------------------------------------

    def view(self) -> SeatView:
        return seat_view(self._game(), HUMAN)

    def render(self, arriving: Card | None = None) -> None:
        game = self._game()
        view = seat_view(game, HUMAN)
        s = self.screen
        s.html("opponents", render.opponents_html(view))
        s.html("discard", render.discard_html(view))
        s.html("active-suit", render.active_suit_html(view))
        s.attr("active-suit", "data-suit", SUIT_LETTERS[view.active_suit])
        s.text("stock-count", render.stock_count(view))
        s.html("hand", render.hand_html(view, arriving=arriving))
        s.attr("hand", "style", f"--n: {len(view.hand)}")
        s.text("hand-title", render.hand_title(view))
        s.attr("my-hand", "data-turn", "1" if view.my_turn else None)
        label, name, enabled = render.main_button(view)
        s.text("main-btn", label)
        s.attr("main-btn", "aria-label", name if name != label else None)
        s.attr("main-btn", "disabled", None if enabled else "")
        action = "pass" if view.can_pass else ("draw" if view.my_turn else "wait")
        s.attr("main-btn", "data-action", action)
        s.attr("stock", "disabled", None if (enabled and label != "Pasar") else "")
        s.attr("stock", "aria-label", render.stock_name(view))
        totals = view.totals
        result = view.result
        if result is not None and game.phase != PLAYING and self.results.pending():
            # Until the results count ends, the scoreboard keeps the totals before this hand.
            totals = tuple(t - p for t, p in zip(result.totals, result.penalties, strict=True))
        s.html("scoreboard", render.scoreboard_html(totals, view.leader))
        s.html("move-log", render.move_log_html(view))
        s.text("game-code", game.code.pretty())
        s.attr("copy-link-btn", "disabled", None)
        self.render_setup()

    def render_setup(self) -> None:
        """The setup bar: the size radios only between games; during one, which table it is."""
        game = self.game
        playing = game is not None and game.phase != GAME_OVER
        # Between games the radios show the next game's choice, never the last game's size.
        setup = self.setup
        players = game.players if game is not None and playing else setup.players
        s = self.screen
        s.attr("mode-2", "checked", "" if players == 2 else None)
        s.attr("mode-3", "checked", "" if players == 3 else None)
        s.attr("mode-choice", "disabled", "" if playing else None)
        level = self.level if playing else setup.level
        for name in LEVEL_BOTS:
            s.attr(f"level-{name}", "checked", "" if name == level else None)
        s.attr("level-choice", "disabled", "" if playing else None)
        s.attr("setup", "data-playing", "1" if playing else None)
        s.text("table-now", render.table_now(players, self.level) if playing else "")
        s.text("deal-btn", "Otra partida" if playing else "Repartir")
        s.attr("deal-btn", "class", "btn btn-secondary" if playing else "btn btn-primary")

    # -- helpers ------------------------------------------------------------------------

    @property
    def setup(self) -> Setup:
        """The setup bar's choices for the next game, as the store keeps them (the one place)."""
        return self.store.setup()

    def _choose(
        self, *, players: int | None = None, level: str | None = None, pace: str | None = None
    ) -> None:
        self.store.set_setup(self.setup.with_(players=players, level=level, pace=pace))

    def _game(self) -> Game:
        assert self.game is not None, "no game yet"
        return self.game

    def _hash(self) -> str:
        return link_hash(self._game().code)

    def _save(self, *, replace: bool = False) -> bool:
        """Save the game; False when another tab had moved on and this table now shows that game.

        The save's read-compare-write runs under the store's lock
        (:attr:`ui.storage.Store.locked`): at once under pytest and where the
        browser has no Web Locks, else as soon as the lock is granted, which
        may be after this returns True. Then the game written is the one on
        the table at that moment (saves asked for meanwhile are one write),
        and if another tab had moved on, the table follows it then.
        """
        self.replace_due = self.replace_due or replace
        if self.save_due:
            return True
        self.save_due = True
        done: list[bool] = []

        def write() -> None:
            self.save_due = False
            replace_now, self.replace_due = self.replace_due, False
            done.append(self._save_now(replace=replace_now))

        self.store.locked(write)
        return done[0] if done else True

    def _save_now(self, *, replace: bool) -> bool:
        if self.game is None:
            return True  # the game was left before the lock came: nothing to write
        game = self.game
        failed_before = self.store.failed
        notice_before = self.store.notice
        follow = self.store.save(game, self.level, self.chooser, replace=replace)
        if follow is not None:
            self._follow(follow)
            return False
        if self.store.failed or self.store.kept_bad:
            self.screen.notice(self.store.notice)
        elif failed_before:
            self.screen.notice(None)  # saving works again: the warning no longer holds
        elif self.store.notice is not None and self.store.notice != notice_before:
            self.screen.notice(self.store.notice)  # two tabs diverged: the other version was set aside
        return True

    # -- other tabs -------------------------------------------------------------------------------

    def storage_changed(self, raw: str | None) -> None:
        """Another tab wrote the save (the browser's ``storage`` event): follow it if it moved on."""
        notice_before = self.store.notice
        follow = self.store.changed(raw)
        if follow is not None:
            self._follow(follow)
        elif self.store.notice is not None and self.store.notice != notice_before:
            self.screen.notice(self.store.notice)  # an unreadable save from another tab was set aside
            self.show_aside()

    def show_aside(self) -> None:
        """Say how many unreadable saves are kept aside (they are never deleted unasked)."""
        count = self.store.aside_count()
        if count:
            words = "Hay 1 partida guardada" if count == 1 else f"Hay {count} partidas guardadas"
            words += " aparte"
            self.screen.text("aside-count", words + " porque no se podían abrir.")
        self.screen.attr("aside-info", "hidden", None if count else "")

    def clear_aside(self) -> None:
        """The player chose to delete the saves kept aside."""
        self.store.clear_aside()
        self.show_aside()
        self.screen.status("Se han borrado las partidas que estaban guardadas aparte.")

    def _follow(self, follow: Follow) -> None:
        """Show the game another tab saved, from where it is, and say why the table changed."""
        self._take_over(follow.saved)
        self.screen.notice(follow.notice)
        self.resume()

    def _take_over(self, saved: Saved) -> None:
        """Put ``saved`` on the table in place of this tab's game; dialogs about the old game close."""
        self.generation += 1  # the old game's pending CPU move or results count stops here
        self.game = saved.game
        self.level = saved.level
        self.chooser = saved.chooser
        self._choose(players=saved.game.players)
        self.pending = None
        self.results.reset()
        for dialog in ("replace-dialog", "suit-dialog"):
            self.screen.dialog(dialog, False)
        self.screen.set_hash(self._hash())

    # -- what the rooms beside the table ask of it -------------------------------------------------

    def carry_on(self) -> None:
        """Go on with the game on the table after a question or a check (its CPU turn restarts once)."""
        self.generation += 1
        self.screen.set_hash(self._hash())
        self.resume()

    def adopt(self, saved: Saved) -> None:
        """Play the game a file brought (the one it replaces counts as abandoned)."""
        self._keep_abandoned()
        self._take_over(saved)
        if self._save(replace=True):
            self.challenges.show_banner()
            self.resume()

    def _keep_abandoned(self) -> None:
        """A game left for a new one counts as played and not won (one with no move at all, not at all)."""
        game = self.game
        if game is not None and game.phase != GAME_OVER:
            self.transfer.keep(Record.of(game, self.level))
