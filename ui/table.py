"""The flow of play on the page: whose move it is, CPU pacing, dialogs, saving.

:class:`Table` holds the :class:`engine.Game` and turns the person's clicks
into engine actions; every rule decision is the engine's. It never touches
the DOM itself: it talks to a :class:`Screen` (the real one lives in
:mod:`ui.main`, tests use a fake), so the whole flow runs under pytest.

The ``data-state`` the screen shows tells the browser tests, the load benchmark
and :mod:`ui.main` (which keeps a picture of a game in play) what the table waits
for: ``setup``, ``human``, ``chooser``, ``cpu``, ``results``, ``gameover`` or ``replace``.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable, Iterator
from typing import Protocol

from engine.actions import DRAW, PASS, PLAY, PLAY8, Action
from engine.bots import LEVEL_BOTS, DificilBot, Search, make_level_bot
from engine.cards import BY_TEXT, SUIT_LETTERS, Card
from engine.challenge import Challenge, ChallengeError, clean_name, cpu_steps, replayed, replayed_kept
from engine.codes import GameCode
from engine.daily import daily_code
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game, IllegalAction
from engine.record import Record, RecordError
from engine.stats import outcome
from engine.view import SeatView, seat_view

from . import history_html, render
from .history import (
    CHALLENGE_KEY,
    Games,
    History,
    HistoryFileError,
    ImportJob,
    keep_challenge,
    kept_challenge,
    thousands,
)
from .host import ChallengeGame, ImportedGame, LinkGame, NewTable, Pending
from .links import MAX_LINK, challenge_url, link_hash, read_challenge, read_hash, share_url
from .outside import (
    SOURCE_CHALLENGE,
    SOURCE_IMPORT,
    SOURCE_IMPORT_CURRENT,
    SOURCE_KEPT_CHALLENGE,
    SOURCE_LINK,
    Refused,
    set_aside,
    take,
)
from .replay import HandReplay
from .storage import PACES, SAVE_KEY, Backend, Follow, Saved, Setup, Store, read

HUMAN = 0
# Playouts of the hard level's search per slice of the main thread (each is a fraction of a ms).
SEARCH_SLICE = 12
CPU_DELAY_MS = 700  # «Ritmo: normal»; each CPU action is drawn on its own, this long apart
NOTICE_LINK_FROM_START = (
    "La partida del enlace empieza desde la primera mano: en este navegador no había ninguna guardada "
    "con ese código."
)
NOTICE_LEGACY = (
    "Esta partida viene de una versión anterior de la página: se comprueban el reparto y las jugadas "
    "de la mano en curso, pero no los puntos de las manos anteriores."
)
REVEAL_DELAY_MS = 450
# Checking records (an import, games not yet checked here) runs in slices this long, far under 100 ms.
WORK_SLICE_MS = 25
CHECKING_LINK = "Comprobando el reto…"
CHECKING_OWN = "Comprobando la partida para el reto…"
NOT_SHOWN = "No se muestra ningún punto suyo; sigues con tu partida."
# A challenge's CPU moves are checked on the timer, this many ms of work a slice (each step is smaller).
CHECK_SLICE_MS = 30.0
EARLY_CLICK_IGNORED = "Lo que pulsaste antes de que la mesa estuviera lista ya no vale: no se ha jugado."
# «Ritmo»: (ms between two CPU actions, ms between two cards turned in the results).
PACE_DELAYS = {"pausado": (1400, 700), "normal": (CPU_DELAY_MS, REVEAL_DELAY_MS), "rapido": (300, 200)}
assert set(PACE_DELAYS) == set(PACES)


class Screen(Protocol):
    """What the table needs from the page."""

    def html(self, el_id: str, html: str) -> None: ...
    def text(self, el_id: str, text: str) -> None: ...
    def attr(self, el_id: str, name: str, value: str | None) -> None: ...
    def dialog(self, el_id: str, show: bool) -> None: ...
    def state(self, name: str) -> None: ...
    def status(self, text: str) -> None: ...
    def notice(self, text: str | None) -> None: ...
    def later(self, ms: int, fn: Callable[[], None]) -> None: ...
    def set_hash(self, fragment: str) -> None: ...
    def copy_text(self, text: str) -> None: ...
    def focus(self, el_id: str) -> None: ...
    def timing(self, cpu_ms: float) -> None:
        """How long one CPU decision took (the load benchmark reads these in the page)."""


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
        self.shown: list[int] = []
        self.generation = 0  # bumps on every new game so stale timers do nothing
        # Sentences not yet on the status line: with reduced motion the CPU moves
        # in the same instant, so everything up to the person's next turn is said at once.
        self.carry = ""
        self.ending = ""  # how the hand ended, said again inside the results panel
        self.counting = False  # the results count is running (the scoreboard waits for it)
        self.count_done = False  # the finished hand's count has ended (its totals may show)
        # The game's own level (in its record); the next game's is in :meth:`setup`.
        self.level = "normal"
        self.search: Search | None = None
        self.search_key = (-1, -1)
        self.thinking_ms = 0.0
        self.page_url = ""
        self.replay: HandReplay | None = None
        # «Tus partidas», the deal of the day and challenges (see the last section of this class).
        self.history = History(store.backend, games)
        self.importing: tuple[ImportJob, Iterator[int]] | None = None
        self.checking: Iterator[tuple[int, int]] | None = None
        self.attaching: Iterator[None] | None = None
        self.working = False
        self.today = today if today is not None else lambda: datetime.date.today().isoformat()
        self.challenge: Challenge | None = None
        # A save waits for the lock on the save (other tabs); what it will write is read when it runs.
        self.save_due = False
        self.replace_due = False
        # The checks of CPU moves running on the timer, by job («link», «kept», «retar»): a newer job
        # of the same kind replaces the older one.
        self.checks: dict[str, object] = {}
        self.check_slice_ms = CHECK_SLICE_MS

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
        challenge = self._read_challenge(fragment, notices)
        try:
            link = take(SOURCE_LINK, fragment, read_hash)
        except Refused as err:
            notices.append(str(err))
        if len(notices) > refused and self.game is None:
            self.screen.set_hash("")  # a refused link is not read again on the next reload
        if self.history.notice:
            notices.append(self.history.notice)
        self._restore_challenge(notices)
        self.screen.notice(" ".join(notices) if notices else None)
        self._show_aside()
        self.render_history()
        self.start_work()
        if challenge is not None:
            if self.game is not None and self.game.phase != GAME_OVER:
                self.render()
            self._follow_challenge(challenge)
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
        challenge = self._read_challenge(fragment, notices)
        if challenge is not None or notices:
            self.screen.notice(" ".join(notices) if notices else None)
            self._show_aside()
            if challenge is not None:
                self._follow_challenge(challenge)
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
            self._ask_replace(
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
        self._ask_replace(
            "Tienes una partida a medias. ¿La cambias por la del enlace?",
            "Jugar la del enlace",
            "Si juegas la del enlace, la partida a medias se pierde.",
            LinkGame(link),
        )

    def _ask_replace(self, title: str, yes: str, sub: str, pending: Pending) -> None:
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
            self.show_results(animate=False)
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
            self._ask_replace(
                "Tienes una partida a medias. ¿La dejas para empezar otra?",
                "Dejarla y elegir mesa",
                "Si empiezas otra, la partida a medias se pierde.",
                NewTable(self.game.players),
            )
            return
        self._choose(players=players)
        if self.store.kept_bad:
            self._ask_replace(
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
            self.generation += 1
            self.screen.set_hash(self._hash())
            self._show_banner()
            self.resume()
        elif isinstance(pending, LinkGame):
            self.new_game(code=pending.code)
        elif isinstance(pending, NewTable) and self.game is not None and self.game.phase != GAME_OVER:
            self.leave_game()  # «Otra partida» during a game: back to choosing a table
        elif isinstance(pending, NewTable):
            self.new_game(players=pending.players)
        elif isinstance(pending, ChallengeGame):
            self._accept_challenge(pending.challenge)
        else:
            self._adopt(pending.saved)

    def new_game(
        self, players: int | None = None, code: GameCode | None = None, level: str | None = None
    ) -> None:
        """Deal a new game, against ``level`` (default: the level chosen on the setup bar)."""
        if code is None:
            code = GameCode.random(players or self.setup.players, self.rng)
        self.generation += 1
        self.level = level if level in LEVEL_BOTS else self.setup.level
        self._keep_abandoned()
        if self.challenge is not None and self.challenge.record.code != code:
            self._drop_challenge()
        self.game = Game.new(code)
        self._choose(players=code.players)
        self.chooser = None
        self.replay = None
        self.screen.dialog("replay-dialog", False)
        self.screen.dialog("results-dialog", False)
        self.screen.dialog("suit-dialog", False)
        self.carry = ""
        self.counting = self.count_done = False
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
        self.counting = False
        s = self.screen
        s.dialog("results-dialog", False)
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
        s.html("scoreboard", '<p class="muted">Todavía no hay puntos. Se acaba al llegar alguien a 100.</p>')
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
            self.show_results(animate=True)
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

    # -- results ---------------------------------------------------------------------------

    def show_results(self, animate: bool) -> None:
        game = self._game()
        result = game.result
        assert result is not None
        full = [len(cards) for cards in result.leftovers]
        self.shown = [0] * game.players if (animate and not self.fast) else full
        self.counting = True
        s = self.screen
        s.text("results-title", render.results_title(result))
        s.text("results-sub", render.results_subtitle(result) + f" Rival {render.LEVEL_NAMES[self.level]}.")
        # The dialog is modal, so the status line behind it is not heard: the panel has its own.
        s.text("results-live", self.ending)
        s.state("results" if game.phase == HAND_OVER else "gameover")
        s.attr("next-hand-btn", "hidden", "")
        s.attr("new-game-btn", "hidden", "")
        s.attr("replay-btn", "hidden", "")
        s.attr("results-skip", "hidden", None)
        s.attr("challenge-box", "hidden", None if game.phase == GAME_OVER else "")
        if game.phase == GAME_OVER:
            self._keep_finished()
        s.dialog("results-dialog", True)
        s.focus("results-skip")
        self._reveal(self.generation)

    def _reveal(self, generation: int) -> None:
        """Turn the next leftover card (only that one animates); at the end, show the totals."""
        game = self.game
        if game is None or generation != self.generation or game.result is None or not self.counting:
            return
        result = game.result
        target = [len(cards) for cards in result.leftovers]
        for seat, count in enumerate(target):
            if seat != result.winner and self.shown[seat] < count:
                self.shown[seat] += 1
                self.screen.html("results-body", render.results_html(result, self.shown, turning=seat))
                self.screen.later(PACE_DELAYS[self.setup.pace][1], lambda: self._reveal(generation))
                return
        self._finish_count()

    def skip_count(self) -> None:
        """«Saltar» (or any key): show the whole count at once."""
        game = self.game
        if game is None or game.result is None or not self.counting:
            return
        self.shown = [len(cards) for cards in game.result.leftovers]
        self._finish_count()

    def _finish_count(self) -> None:
        game = self._game()
        result = game.result
        assert result is not None
        self.counting = False
        self.count_done = True
        s = self.screen
        body = render.results_html(result, self.shown) + render.totals_html(result)
        summary = render.results_summary(result)
        if game.phase == GAME_OVER:
            body += f'<p class="game-over">{render.game_over_text(result)}</p>' + self._comparison()
        s.html("results-body", body)
        s.text("results-live", f"{self.ending} {summary}".strip())
        s.html("scoreboard", render.scoreboard_html(result.totals, game.leader))
        s.attr("results-skip", "hidden", "")
        button = "new-game-btn" if game.phase == GAME_OVER else "next-hand-btn"
        s.attr(button, "hidden", None)
        s.attr("replay-btn", "hidden", None)
        s.status(summary)
        s.focus(button)

    # -- «Ver la mano» ------------------------------------------------------------------------

    def open_replay(self) -> None:
        """Replay the hand just finished, from its deal, every hand face up (results panel only)."""
        game = self.game
        if game is None or game.phase == PLAYING:
            return
        self.replay = HandReplay.of_current_hand(game)
        self.screen.state("replay")
        self.screen.dialog("replay-dialog", True)
        self._show_replay()
        self.screen.focus("replay-next")

    def replay_go(self, where: str) -> None:
        """``first``, ``prev``, ``next`` or ``last`` step of the replay on show."""
        if self.replay is not None and self.replay.go(where):
            self._show_replay()

    def close_replay(self) -> None:
        if self.replay is None:
            return
        self.replay = None
        self.screen.dialog("replay-dialog", False)
        game = self._game()
        self.screen.state("results" if game.phase == HAND_OVER else "gameover")
        self.screen.focus("replay-btn")

    def _show_replay(self) -> None:
        replay = self.replay
        assert replay is not None
        step = replay.step
        s = self.screen
        s.text("replay-title", render.replay_title(replay.hand_no, replay.index, replay.last))
        s.text("replay-step", render.replay_move_text(step.move, step.drawn))
        s.html("replay-table", render.replay_table_html(step.game, step.move))
        at_start, at_end = replay.index == 0, replay.index == replay.last
        for el_id, off in (
            ("replay-first", at_start),
            ("replay-prev", at_start),
            ("replay-next", at_end),
            ("replay-last", at_end),
        ):
            s.attr(el_id, "aria-disabled", "true" if off else None)

    def results_dismissed(self) -> None:
        """The browser closed the results panel on its own (Escape twice): it comes back, it is the way on."""
        game = self.game
        if game is None or game.phase == PLAYING or self.replay is not None:
            return
        self.screen.dialog("results-dialog", True)
        self.screen.focus("new-game-btn" if game.phase == GAME_OVER else "next-hand-btn")

    def next_hand(self) -> None:
        game = self.game
        if game is None or game.phase != HAND_OVER:
            return
        game.next_hand()
        self.replay = None
        self.screen.dialog("replay-dialog", False)
        self.generation += 1  # a results count still running stops here
        self.counting = self.count_done = False
        self.ending = ""
        self.screen.dialog("results-dialog", False)
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
        if result is not None and game.phase != PLAYING and self._count_pending():
            # Until the results count ends, the scoreboard keeps the totals before this hand.
            totals = tuple(t - p for t, p in zip(result.totals, result.penalties, strict=True))
        s.html("scoreboard", render.scoreboard_html(totals, view.leader))
        s.html("move-log", render.move_log_html(view))
        s.text("game-code", game.code.pretty())
        s.attr("copy-link-btn", "disabled", None)
        self.render_setup()

    def _count_pending(self) -> bool:
        """True while the results of the finished hand have not been counted on screen yet."""
        return self.counting or not self.count_done

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
            self._show_aside()

    def _show_aside(self) -> None:
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
        self._show_aside()
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
        self.replay = None
        for dialog in ("replace-dialog", "replay-dialog", "results-dialog", "suit-dialog"):
            self.screen.dialog(dialog, False)
        self.screen.set_hash(self._hash())

    # -- your record («Tus partidas»), the deal of the day, challenges -------------------------

    def render_history(self) -> None:
        """Redraw «Tus partidas» and today's codes (cheap: outcomes are cached per record)."""
        today = self.today()
        history = self.history
        self.screen.html(
            "partidas-body",
            history_html.history_html(
                history.stats(),
                history.recent(),
                today,
                history.daily(today),
                past=history.past,
                kept=len(history.entries),
            ),
        )
        codes = " · ".join(f"{history_html.TABLE_NAMES[n]}: {daily_code(today, n).pretty()}" for n in (2, 3))
        self.screen.text("daily-note", f"Hoy ({today}, fecha de tu dispositivo): {codes}")

    def _keep_finished(self) -> None:
        game = self._game()
        if self.history.add(Record.of(game, self.level), self.today()):
            self.render_history()
            self.start_work()

    def _keep_abandoned(self) -> None:
        """A game left for a new one counts as played and not won (one with no move at all, not at all)."""
        game = self.game
        if (
            game is not None
            and game.phase != GAME_OVER
            and self.history.add(Record.of(game, self.level), self.today())
        ):
            self.render_history()
            self.start_work()

    def request_daily(self, players: int) -> None:
        """«Partida del día»: today's code for the chosen table, asking first if a game is under way."""
        code = daily_code(self.today(), 3 if players == 3 else 2)
        self.render_history()  # the page may have stayed open past midnight
        game = self.game
        if game is not None and game.code == code and game.phase != GAME_OVER:
            self.screen.status("Ya estás jugando la partida del día. " + render.turn_prompt(self.view()))
            return
        if game is None or game.phase == GAME_OVER:
            self.new_game(code=code)
            return
        self._ask_replace(
            "Tienes una partida a medias. ¿Empiezas la partida del día?",
            "Jugar la del día",
            "Si juegas la del día, la partida a medias se pierde.",
            LinkGame(code),
        )

    def challenge_link(self, name: str) -> None:
        """«Retar a alguien»: check this finished game's CPU moves, then copy a link carrying its record."""
        game = self.game
        if game is None or game.phase != GAME_OVER:
            return
        record = Record.of(game, self.level)
        if not record.verified:
            self.screen.status(
                "Esta partida viene de una versión anterior de la página y no se puede comprobar entera: "
                "no sirve para retar."
            )
            return
        url = challenge_url(self.page_url, str(record), game.totals[HUMAN], clean_name(name))
        if len(url) > MAX_LINK:
            self.screen.status(
                f"Esta partida es demasiado larga para caber en un enlace de reto ({len(url)} caracteres, "
                f"el máximo es {MAX_LINK}). Comparte el código {game.code.pretty()} y comparad los puntos."
            )
            return
        try:
            challenge = replayed(str(record), str(game.totals[HUMAN]), name)
        except ChallengeError as err:  # pragma: no cover - the page's own finished game replays
            self.screen.status(f"{err} No se puede retar con esta partida.")
            return

        def done(err: ChallengeError | None) -> None:
            if self.game is not game:
                return  # another game since: its own «Retar» will check it
            if err is not None:
                self.screen.status(f"{err} No se puede retar con esta partida.")
                return
            self.screen.copy_text(url)
            self.screen.status("Enlace del reto copiado: " + url)

        # A save never becomes a challenge unchecked: the same check a receiver runs.
        self.screen.status(f"{CHECKING_OWN} 0 %")
        self._check_slices("retar", cpu_steps(challenge), CHECKING_OWN, done)

    def _check_slices(
        self, job: str, steps: Iterator[float], saying: str, done: Callable[[ChallengeError | None], None]
    ) -> None:
        """Run a check's ``steps`` on the screen's timer, about :data:`CHECK_SLICE_MS` of work a slice.

        ``saying`` (when not empty) goes on the status line with the percentage
        done, every 10 points; ``done`` gets None, or the refusal, at the end.
        """
        token = object()
        self.checks[job] = token
        said = [0]

        def run() -> None:
            if self.checks.get(job) is not token:
                return  # replaced by a newer check of the same kind
            started = time.perf_counter()
            try:
                fraction = next(steps)  # at least one step a slice, then as many as fit
                while (time.perf_counter() - started) * 1000 < self.check_slice_ms:
                    fraction = next(steps)
            except StopIteration:
                del self.checks[job]
                self.screen.later(0, lambda: done(None))  # a deal or a render: a task of its own
                return
            except ChallengeError as err:
                del self.checks[job]
                refusal = err
                self.screen.later(0, lambda: done(refusal))
                return
            percent = min(int(fraction * 100) // 10 * 10, 90)
            if saying and percent > said[0]:
                said[0] = percent
                self.screen.status(f"{saying} {percent} %")
            self.screen.later(0, run)

        self.screen.later(0, run)

    def _read_challenge(self, fragment: str, notices: list[str]) -> Challenge | None:
        """A challenge from the hash whose rules and claim check, or None (a refusal goes to ``notices``,
        never link text); its CPU moves are checked next, by :meth:`_follow_challenge`."""
        try:
            raw = take(SOURCE_CHALLENGE, fragment, read_challenge)
        except Refused as err:
            notices.append(str(err))
            return None
        if raw is None:
            return None
        try:
            return take(SOURCE_CHALLENGE, raw, lambda fields: replayed(*fields))
        except Refused as err:
            set_aside(self.store.backend, fragment)  # the link's game is kept, never lost
            notices.append(f"{err} {NOT_SHOWN}")
            return None

    def _follow_challenge(self, challenge: Challenge) -> None:
        """Check the challenge's CPU moves in slices, showing progress; then show it, or the refusal.

        Until the check ends, the game in progress holds still behind it (or the
        setup shows); a refusal then carries on as if the link had not come.
        """
        if self.game is None:
            self.show_setup()
        self.screen.status(f"{CHECKING_LINK} 0 %")

        def done(err: ChallengeError | None) -> None:
            if err is None:
                self._show_challenge(challenge)
                return
            self.screen.notice(f"{err} {NOT_SHOWN}")
            if self.game is None:
                self.show_setup()
                return
            self.generation += 1  # a CPU turn left running while the link came restarts once
            self.screen.set_hash(self._hash())
            self.resume()

        self._check_slices("link", cpu_steps(challenge), CHECKING_LINK, done)

    def _show_challenge(self, challenge: Challenge) -> None:
        """Show who challenges and with what total, then open the same game (asking first if needed)."""
        game = self.game
        self.screen.text("challenge-banner", history_html.challenge_banner(challenge))
        self.screen.attr("challenge-banner", "hidden", None)
        if game is not None and game.code == challenge.record.code and game.phase != GAME_OVER:
            self._arm(challenge)
            self.screen.set_hash(self._hash())
            self.resume()
            return
        if game is None or game.phase == GAME_OVER:
            self._accept_challenge(challenge)
            return
        self._ask_replace(
            "Tienes una partida a medias. ¿La cambias por la del reto?",
            "Aceptar el reto",
            "Si aceptas el reto, la partida a medias se pierde.",
            ChallengeGame(challenge),
        )

    def _accept_challenge(self, challenge: Challenge) -> None:
        self._arm(challenge)
        self.new_game(code=challenge.record.code, level=challenge.record.level)
        self._show_banner()
        prompt = render.turn_prompt(self.view()) if self._game().turn == HUMAN else ""
        self.screen.status(f"{history_html.challenge_banner(challenge)} {prompt}".strip())

    def _arm(self, challenge: Challenge) -> None:
        self.challenge = challenge
        keep_challenge(self.store.backend, str(challenge.record), challenge.name)
        self._show_banner()

    def _drop_challenge(self) -> None:
        self.challenge = None
        keep_challenge(self.store.backend, None)
        self._show_banner()

    def _show_banner(self) -> None:
        challenge = self.challenge
        game = self.game
        if challenge is not None and game is not None and game.code == challenge.record.code:
            self.screen.text("challenge-banner", history_html.challenge_banner(challenge))
            self.screen.attr("challenge-banner", "hidden", None)
        else:
            self.screen.attr("challenge-banner", "hidden", "")

    def _restore_challenge(self, notices: list[str]) -> None:
        """After a reload, the challenge being played is verified again, in slices, and re-armed.

        One whose record does not read or replay is set aside, and ``notices`` says so; one whose
        CPU moves do not check out is dropped when its check ends.
        """
        backend, game = self.store.backend, self.game
        try:
            raw = backend.getItem(CHALLENGE_KEY)
        except Exception:
            return
        if raw is None or game is None:
            return
        try:
            challenge, kept = take(SOURCE_KEPT_CHALLENGE, backend, _replayed_kept)
        except Refused as err:
            aside = " Se ha guardado aparte." if set_aside(backend, raw) else ""
            keep_challenge(backend, None)
            notices.append(f"El reto que estabas jugando no se ha podido comprobar: {err}{aside}")
            return
        if challenge.record.code != game.code:
            return

        def done(err: ChallengeError | None) -> None:
            if err is not None:
                if kept_challenge(self.store.backend) == kept:  # not a newer one kept meanwhile
                    keep_challenge(self.store.backend, None)
            elif self.challenge is None and self.game is game:
                self.challenge = challenge
                self._show_banner()

        self._check_slices("kept", cpu_steps(challenge), "", done)

    def _comparison(self) -> str:
        """The challenge's hand-by-hand comparison for the results panel of the challenged game."""
        challenge, game = self.challenge, self._game()
        if challenge is None or challenge.record.code != game.code or not Record.of(game).verified:
            return ""
        try:
            mine = outcome(Record.of(game, self.level))
        except RecordError:
            return ""
        return history_html.comparison_html(challenge, mine)

    # -- export and import -------------------------------------------------------------------

    def export_text(self) -> tuple[str, str]:
        """(file name, text) of «Descargar mis partidas»: every kept record and the current save."""
        try:
            current = self.store.backend.getItem(SAVE_KEY)
        except Exception:
            current = None
        today = self.today()
        return f"ocho-loco-partidas-{today}.json", self.history.export(current, today)

    def import_text(self, text: str) -> None:
        """«Importar»: check a file's games here, in slices (:meth:`start_work`), and keep the new ones."""
        if self.importing is not None:
            self.screen.text("partidas-status", "Ya se está importando un archivo: espera a que termine.")
            return
        try:
            job = take(SOURCE_IMPORT, text, self.history.importer, (HistoryFileError,))
        except Refused as err:
            self.screen.text("partidas-status", str(err))
            return
        self.importing = (job, job.steps())
        self.screen.text("partidas-status", "")
        self._show_progress(0, job.total, "Importando")
        self.start_work()

    def attach_games(self, games: Games, flush: Callable[[], None] | None = None) -> None:
        """Keep games in the page's own store (IndexedDB) from now on; read it in slices, then show it."""
        self.attaching = self.history.attach_steps(games, flush)
        self.start_work()

    def games_unavailable(self) -> None:
        self.screen.text(
            "partidas-status",
            "Este navegador no guarda tus partidas: las de esta visita se pierden al cerrar la pestaña.",
        )

    # -- checking and importing in slices of the screen's timer ------------------------------

    def start_work(self) -> None:
        """Run the pending import and the checks of unchecked games in slices of :data:`WORK_SLICE_MS`."""
        idle = self.attaching is None and self.importing is None and self.checking is None
        if not self.working and not (idle and not self.history.pending()):
            self.working = True
            self.screen.later(0, self._work_slice)

    def _work_slice(self) -> None:
        started = time.perf_counter()
        shown: tuple[int, int, str] | None = None
        while (time.perf_counter() - started) * 1000 < WORK_SLICE_MS:
            if self.attaching is not None:
                try:
                    next(self.attaching)
                except StopIteration:
                    self.attaching = self.checking = None  # the checks start again over the store's games
                    self.screen.attr("partidas", "data-store", "ready")  # read by the browser tests
                    self.render_history()
            elif self.importing is not None:
                job, steps = self.importing
                try:
                    shown = (next(steps), job.total, "Importando")
                except StopIteration:
                    self.importing = None
                    self._import_done(job)
                    shown = None
            elif self.checking is not None:
                try:
                    done, todo = next(self.checking)
                    shown = (done, todo, "Comprobando") if todo > 1 else None
                except StopIteration:
                    self.checking = None
                    self.render_history()
                    shown = None
            elif self.history.pending():
                self.checking = self.history.check_steps()
            else:
                self.working = False
                self.screen.attr("import-progress-box", "hidden", "")
                return
        if shown is not None:
            self._show_progress(*shown)
        self.screen.later(0, self._work_slice)

    def _show_progress(self, done: int, total: int, what: str) -> None:
        """«Importando 3.200 de 12.650…» on the progress bar and its label (read out politely)."""
        label = (
            f"Importando {thousands(done)} de {thousands(total)}…"
            if what == "Importando"
            else f"Comprobando tus partidas: {thousands(done)} de {thousands(total)}…"
        )
        self.screen.attr("import-progress", "max", str(max(total, 1)))
        self.screen.attr("import-progress", "value", str(done))
        self.screen.text("import-progress-label", label)
        self.screen.attr("import-progress-box", "hidden", None)

    def _import_done(self, job: ImportJob) -> None:
        imported = job.result()
        self.render_history()
        message = imported.message()
        saved: Saved | None = None
        if imported.current is not None:
            try:
                saved = take(SOURCE_IMPORT_CURRENT, imported.current, read)
            except Refused as err:
                aside = " Se ha guardado aparte." if set_aside(self.store.backend, imported.current) else ""
                message += f" La partida en curso del archivo no se ha podido abrir: {err}{aside}"
                self._show_aside()
        game = self.game
        if (
            saved is not None
            and game is not None
            and str(Record.of(saved.game, saved.level)) == str(Record.of(game, self.level))
        ):
            saved = None  # the same game, at the same move: nothing to ask
        self.screen.text("partidas-status", message)
        if saved is None:
            return
        if game is None or game.phase == GAME_OVER:
            self._adopt(saved)
            return
        self._ask_replace(
            "El archivo trae otra partida en curso. ¿Cambias la tuya por esa?",
            "Jugar la del archivo",
            "Si juegas la del archivo, la que tienes a medias se pierde.",
            ImportedGame(saved),
        )

    def _adopt(self, saved: Saved) -> None:
        """Play the game a file brought (the one it replaces counts as abandoned)."""
        self._keep_abandoned()
        self._take_over(saved)
        if self._save(replace=True):
            self._show_banner()
            self.resume()


def _replayed_kept(backend: Backend) -> tuple[Challenge, tuple[str, str]]:
    """The challenge kept across reloads (``ocho-loco:reto``), replayed (its CPU moves still unchecked)."""
    kept = kept_challenge(backend)
    if kept is None:
        raise ChallengeError("El reto guardado no se puede leer.")
    return replayed_kept(*kept), kept
