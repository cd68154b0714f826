"""The flow of play on the page: whose move it is, CPU pacing, dialogs, saving.

:class:`Table` holds the :class:`engine.Game` and turns the person's clicks
into engine actions; every rule decision is the engine's. It never touches
the DOM itself: it talks to a :class:`Screen` (the real one lives in
:mod:`ui.main`, tests use a fake), so the whole flow runs under pytest.

The ``data-state`` the screen shows tells tests and styles what the table is
waiting for: ``setup``, ``human``, ``chooser``, ``cpu``, ``results``,
``gameover`` or ``replace``.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable
from typing import Protocol

from engine.actions import DRAW, PASS, PLAY, PLAY8, Action
from engine.bots import make_bot
from engine.cards import BY_TEXT, SUIT_LETTERS, Card
from engine.challenge import Challenge, ChallengeError, clean_name, reverify, verify
from engine.codes import GameCode
from engine.daily import daily_code
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game, IllegalAction
from engine.record import RecordError
from engine.save import SaveError
from engine.stats import outcome
from engine.view import SeatView

from . import history_html, render
from .history import History, HistoryFileError, keep_challenge, kept_challenge
from .links import MAX_LINK, LinkError, challenge_url, link_hash, read_challenge, read_hash, share_url
from .replay import HandReplay
from .storage import SAVE_KEY, Follow, Saved, Store, read

try:  # Pyodide: CPU decision times go to window.ochoLocoTimings (read by tools/bench.py)
    from js import window as _js_window
except ImportError:  # CPython (tests): nowhere to report them
    _js_window = None


def _note_cpu_ms(ms: float) -> None:
    """Append how long one CPU decision took (ms) to ``window.ochoLocoTimings``."""
    if _js_window is None:
        return
    try:
        _js_window.ochoLocoTimings.push(ms)
    except AttributeError:  # the first one creates the array
        _js_window.ochoLocoTimings = _js_window.Array.of(ms)


HUMAN = 0
CPU_DELAY_MS = 700
NOTICE_LINK_FROM_START = (
    "La partida del enlace empieza desde la primera mano: en este navegador no había ninguna guardada "
    "con ese código."
)
NOTICE_LEGACY = (
    "Esta partida viene de una versión anterior de la página: se comprueban el reparto y las jugadas "
    "de la mano en curso, pero no los puntos de las manos anteriores."
)
REVEAL_DELAY_MS = 450


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
    ):
        self.screen = screen
        self.store = store
        self.fast = fast
        self.rng = rng if rng is not None else random.Random()
        self.game: Game | None = None
        self.chooser: Card | None = None
        self.pending_link: GameCode | None = None
        self.pending_new: int | None = None
        self.shown: list[int] = []
        self.generation = 0  # bumps on every new game so stale timers do nothing
        self.players_choice = store.table_size()
        self.level = "normal"
        self.bots = {seat: make_bot("cpu", seat) for seat in (1, 2)}
        self.page_url = ""
        self.replay: HandReplay | None = None
        # «Tus partidas», the deal of the day and challenges (see the last section of this class).
        self.history = History(store.backend)
        self.today = today if today is not None else lambda: datetime.date.today().isoformat()
        self.challenge: Challenge | None = None
        self.pending_challenge: Challenge | None = None
        self.pending_import: Saved | None = None

    # -- start-up ---------------------------------------------------------------

    def start(self, fragment: str, page_url: str = "") -> None:
        """Resume the saved game, or open the linked one, or get ready to deal."""
        self.page_url = page_url
        loaded = self.store.load()
        notices = [self.store.notice] if self.store.notice else []
        if loaded is not None:
            self.game = loaded.game
            self.level = loaded.level
            self.players_choice = loaded.game.players
            self.chooser = loaded.chooser
            if not loaded.game.record().verified:
                notices.append(NOTICE_LEGACY)
        link: GameCode | None = None
        challenge = self._read_challenge(fragment, notices)
        try:
            link = read_hash(fragment)
        except LinkError as err:
            notices.append(str(err))
        if self.history.notice:
            notices.append(self.history.notice)
        self.screen.notice(" ".join(notices) if notices else None)
        self._show_aside()
        self._restore_challenge()
        self.render_history()
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
        self.screen.state("setup")
        self.screen.status("Elige mesa y pulsa «Repartir».")
        self.screen.focus("deal-btn")

    def open_link(self, fragment: str) -> None:
        """A new hash while the page is open (a pasted link): like opening it fresh."""
        notices: list[str] = []
        challenge = self._read_challenge(fragment, notices)
        if challenge is not None or notices:
            self.screen.notice(" ".join(notices) if notices else None)
            if challenge is not None:
                self._follow_challenge(challenge)
            elif self.game is not None:
                self.screen.set_hash(self._hash())
            return
        try:
            link = read_hash(fragment)
        except LinkError as err:
            self.screen.notice(str(err))
            if self.game is not None:
                self.screen.set_hash(self._hash())
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
            self.pending_link = link
            self.pending_new = None
            self._ask_replace(
                "La partida guardada no se puede abrir y no cabe aparte. "
                "¿La borras para jugar la del enlace?",
                "Borrarla y jugar la del enlace",
            )
            return
        if game is None or game.phase == GAME_OVER:
            self.new_game(code=link)
            if game is None:
                # Either a friend's link, or this browser lost the save of a game begun here.
                self.screen.notice(NOTICE_LINK_FROM_START)
            return
        self.pending_link = link
        self.pending_new = None
        self._ask_replace(
            "Tienes una partida a medias. ¿La cambias por la del enlace?", "Jugar la del enlace"
        )

    def _ask_replace(self, title: str, yes: str) -> None:
        """Open the replace dialog; the CPU holds still until it is answered."""
        self.generation += 1
        self.screen.text("replace-title", title)
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
        """The «Repartir» button: deal at once, or ask first if a game is under way."""
        self.players_choice = 3 if players == 3 else 2
        self.store.set_table_size(self.players_choice)
        if self.store.kept_bad:
            self.pending_new = self.players_choice
            self.pending_link = None
            self._ask_replace(
                "La partida guardada no se puede abrir y no cabe aparte. ¿La borras para empezar otra?",
                "Borrarla y empezar otra",
            )
            return
        if self.game is not None and self.game.phase != GAME_OVER:
            self.pending_new = self.players_choice
            self.pending_link = None
            self._ask_replace("Tienes una partida a medias. ¿Empiezas otra?", "Empezar otra")
            return
        self.new_game(players=self.players_choice)

    def answer_replace(self, replace: bool) -> None:
        self.screen.dialog("replace-dialog", False)
        link, players = self.pending_link, self.pending_new
        challenge, imported = self.pending_challenge, self.pending_import
        self.pending_link = self.pending_new = self.pending_challenge = self.pending_import = None
        if replace and (link is not None or players is not None):
            self.store.discard_bad()  # the player chose to start over
        if replace and link is not None:
            self.new_game(code=link)
        elif replace and players is not None:
            self.new_game(players=players)
        elif replace and challenge is not None:
            self._accept_challenge(challenge)
        elif replace and imported is not None:
            self._adopt(imported)
        elif self.game is None:
            self.screen.state("setup")  # a stray answer before any deal
        else:
            self.generation += 1
            self.screen.set_hash(self._hash())
            self._show_banner()
            self.resume()

    def new_game(self, players: int | None = None, code: GameCode | None = None) -> None:
        if code is None:
            code = GameCode.random(players or self.players_choice, self.rng)
        self.generation += 1
        self._keep_abandoned()
        if self.challenge is not None and self.challenge.record.code != code:
            self._drop_challenge()
        self.game = Game.new(code)
        self.players_choice = code.players
        self.chooser = None
        self.replay = None
        self.screen.dialog("replay-dialog", False)
        self.screen.dialog("results-dialog", False)
        self.screen.dialog("suit-dialog", False)
        self.screen.set_hash(self._hash())
        self._save(replace=True)
        self.render()
        self._after_move("Nueva partida, código " + code.pretty() + ". ")
        self.screen.focus("hand")

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

    def open_chooser(self) -> None:
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
        self.screen.later(0 if self.fast else CPU_DELAY_MS, lambda: self._cpu_step(generation))

    def _cpu_step(self, generation: int) -> None:
        game = self.game
        if game is None or generation != self.generation or game.phase != PLAYING or game.turn == HUMAN:
            return
        seat = game.turn
        started = time.perf_counter()
        action = self.bots[seat].choose(game.view(seat))
        _note_cpu_ms((time.perf_counter() - started) * 1000)
        before = game.reshuffles
        drawn = game.apply(action)
        if not self._save():
            return
        self.render()
        self._after_move(render.describe_action(seat, action, drawn, game.reshuffles != before) + " ")

    def _after_move(self, message: str) -> None:
        game = self._game()
        if game.phase != PLAYING:
            self.screen.status(message.strip())
            self.show_results(animate=True)
        elif game.turn == HUMAN:
            self.screen.state("human")
            self.screen.status(message + render.turn_prompt(self.view()))
        else:
            self.screen.state("cpu")
            self.screen.status(message.strip())
            self._schedule_cpu()

    # -- results ---------------------------------------------------------------------------

    def show_results(self, animate: bool) -> None:
        game = self._game()
        result = game.result
        assert result is not None
        full = [len(cards) for cards in result.leftovers]
        self.shown = [0] * game.players if (animate and not self.fast) else full
        self.screen.text("results-title", render.hand_over_title(result))
        self.screen.state("results" if game.phase == HAND_OVER else "gameover")
        self.screen.attr("next-hand-btn", "hidden", "")
        self.screen.attr("new-game-btn", "hidden", "")
        self.screen.attr("replay-btn", "hidden", "")
        self.screen.attr("challenge-box", "hidden", None if game.phase == GAME_OVER else "")
        if game.phase == GAME_OVER:
            self._keep_finished()
        self.screen.dialog("results-dialog", True)
        self._reveal(self.generation)

    def _reveal(self, generation: int) -> None:
        game = self.game
        if game is None or generation != self.generation or game.result is None:
            return
        result = game.result
        target = [len(cards) for cards in result.leftovers]
        for seat, count in enumerate(target):
            if seat != result.winner and self.shown[seat] < count:
                self.shown[seat] += 1
                self.screen.html("results-body", render.results_html(result, self.shown))
                self.screen.later(REVEAL_DELAY_MS, lambda: self._reveal(generation))
                return
        body = render.results_html(result, self.shown) + render.totals_html(result)
        if game.phase == GAME_OVER:
            body += f'<p class="game-over">{render.game_over_text(result)}</p>' + self._comparison()
            self.screen.html("results-body", body)
            self.screen.attr("new-game-btn", "hidden", None)
            self.screen.attr("replay-btn", "hidden", None)
            self.screen.status(render.game_over_text(result))
            self.screen.focus("new-game-btn")
        else:
            self.screen.html("results-body", body)
            self.screen.attr("next-hand-btn", "hidden", None)
            self.screen.attr("replay-btn", "hidden", None)
            sums = ", ".join(
                f"{render.seat_name(s)} {p}" for s, p in enumerate(result.penalties) if s != result.winner
            )
            title = render.hand_over_title(result)
            title += " " if title.endswith("!") else ". "
            self.screen.status(f"{title}Puntos de castigo: {sums}.")
            self.screen.focus("next-hand-btn")

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
        self.screen.dialog("results-dialog", False)
        if not self._save():
            return
        self.render()
        leads = "Sales tú" if game.leader == HUMAN else f"Sale {render.seat_name(game.leader)}"
        self._after_move(f"Mano {game.hand_no + 1}. {leads}. ")

    def new_game_after_end(self) -> None:
        game = self.game
        if game is None or game.phase != GAME_OVER:
            return  # mid-game a new deal goes through «Repartir», which asks first
        self.new_game(players=game.players)

    # -- drawing the table ---------------------------------------------------------------

    def view(self) -> SeatView:
        return self._game().view(HUMAN)

    def render(self, arriving: Card | None = None) -> None:
        game = self._game()
        view = game.view(HUMAN)
        s = self.screen
        s.html("opponents", render.opponents_html(view))
        s.html("discard", render.discard_html(view))
        s.html("active-suit", render.active_suit_html(view))
        s.attr("active-suit", "data-suit", SUIT_LETTERS[view.active_suit])
        s.text("stock-count", render.stock_count(view))
        s.html("hand", render.hand_html(view, arriving=arriving))
        label, name, enabled = render.main_button(view)
        s.text("main-btn", label)
        s.attr("main-btn", "aria-label", name)
        s.attr("main-btn", "disabled", None if enabled else "")
        s.attr("main-btn", "data-action", "pass" if label == "Pasar" else "draw")
        s.attr("stock", "disabled", None if (enabled and label != "Pasar") else "")
        s.attr("stock", "aria-label", f"Mazo: {render.stock_label(view)}")
        s.html("scoreboard", render.scoreboard_html(view.totals, view.leader))
        s.text("game-code", game.code.pretty())
        s.attr("mode-2", "checked", "" if game.players == 2 else None)
        s.attr("mode-3", "checked", "" if game.players == 3 else None)
        s.attr("copy-link-btn", "disabled", None)

    # -- helpers ------------------------------------------------------------------------

    def _game(self) -> Game:
        assert self.game is not None, "no game yet"
        return self.game

    def _hash(self) -> str:
        return link_hash(self._game().code)

    def _save(self, *, replace: bool = False) -> bool:
        """Save the game; False when another tab had moved on and this table now shows that game."""
        game = self._game()
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
        follow = self.store.changed(raw)
        if follow is not None:
            self._follow(follow)

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
        self.generation += 1  # this tab's pending CPU move or results count stops here
        saved = follow.saved
        self.game = saved.game
        self.level = saved.level
        self.chooser = saved.chooser
        self.players_choice = saved.game.players
        self.pending_link = self.pending_new = None
        self.replay = None
        for dialog in ("replace-dialog", "replay-dialog", "results-dialog", "suit-dialog"):
            self.screen.dialog(dialog, False)
        self.screen.notice(follow.notice)
        self.screen.set_hash(self._hash())
        self.resume()

    # -- your record («Tus partidas»), the deal of the day, challenges -------------------------

    def render_history(self) -> None:
        """Redraw «Tus partidas» and today's codes (cheap: outcomes are cached per record)."""
        today = self.today()
        history = self.history
        self.screen.html(
            "partidas-body",
            history_html.history_html(history.stats(), history.recent(), today, history.daily(today)),
        )
        codes = " · ".join(f"{history_html.TABLE_NAMES[n]}: {daily_code(today, n).pretty()}" for n in (2, 3))
        self.screen.text("daily-note", f"Hoy ({today}, fecha de tu dispositivo): {codes}")

    def _keep_finished(self) -> None:
        game = self._game()
        if self.history.add(game.record(self.level), self.today()):
            self.render_history()

    def _keep_abandoned(self) -> None:
        """A game left for a new one counts as played and not won (one with no move at all, not at all)."""
        game = self.game
        if (
            game is not None
            and game.phase != GAME_OVER
            and self.history.add(game.record(self.level), self.today())
        ):
            self.render_history()

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
        self.pending_link = code
        self.pending_new = None
        self._ask_replace("Tienes una partida a medias. ¿Empiezas la partida del día?", "Jugar la del día")

    def challenge_link(self, name: str) -> None:
        """«Retar a alguien»: copy a link carrying this finished game's whole record."""
        game = self.game
        if game is None or game.phase != GAME_OVER:
            return
        record = game.record(self.level)
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
        self.screen.copy_text(url)
        self.screen.status("Enlace del reto copiado: " + url)

    def _read_challenge(self, fragment: str, notices: list[str]) -> Challenge | None:
        """A verified challenge from the hash, or None (a refusal goes to ``notices``, never link text)."""
        try:
            raw = read_challenge(fragment)
        except LinkError as err:
            notices.append(str(err))
            return None
        if raw is None:
            return None
        try:
            return verify(*raw)
        except ChallengeError as err:
            notices.append(f"{err} No se muestra ningún punto suyo; sigues con tu partida.")
            return None

    def _follow_challenge(self, challenge: Challenge) -> None:
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
        self.pending_challenge = challenge
        self.pending_link = self.pending_new = self.pending_import = None
        self._ask_replace("Tienes una partida a medias. ¿La cambias por la del reto?", "Aceptar el reto")

    def _accept_challenge(self, challenge: Challenge) -> None:
        self._arm(challenge)
        self.level = challenge.record.level
        self.new_game(code=challenge.record.code)
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

    def _restore_challenge(self) -> None:
        """After a reload, the challenge being played is verified again and re-armed."""
        kept = kept_challenge(self.store.backend)
        game = self.game
        if kept is None or game is None:
            return
        try:
            challenge = reverify(*kept)
        except ChallengeError:
            keep_challenge(self.store.backend, None)
            return
        if challenge.record.code == game.code:
            self.challenge = challenge
            self._show_banner()

    def _comparison(self) -> str:
        """The challenge's hand-by-hand comparison for the results panel of the challenged game."""
        challenge, game = self.challenge, self._game()
        if challenge is None or challenge.record.code != game.code or not game.record().verified:
            return ""
        try:
            mine = outcome(game.record(self.level))
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
        """«Importar»: merge a file's games (each replayed); the current game is replaced only if asked."""
        try:
            imported = self.history.import_text(text)
        except HistoryFileError as err:
            self.screen.text("partidas-status", str(err))
            return
        self.render_history()
        message = imported.message()
        saved: Saved | None = None
        if imported.current is not None:
            try:
                saved = read(imported.current)
            except SaveError:
                message += " La partida en curso del archivo no se ha podido abrir."
        game = self.game
        if (
            saved is not None
            and game is not None
            and str(saved.game.record(saved.level)) == str(game.record(self.level))
        ):
            saved = None  # the same game, at the same move: nothing to ask
        self.screen.text("partidas-status", message)
        if saved is None:
            return
        if game is None or game.phase == GAME_OVER:
            self._adopt(saved)
            return
        self.pending_import = saved
        self.pending_link = self.pending_new = self.pending_challenge = None
        self._ask_replace(
            "El archivo trae otra partida en curso. ¿Cambias la tuya por esa?", "Jugar la del archivo"
        )

    def _adopt(self, saved: Saved) -> None:
        """Play the game a file brought (the one it replaces counts as abandoned)."""
        self.generation += 1
        self._keep_abandoned()
        self.game = saved.game
        self.level = saved.level
        self.chooser = saved.chooser
        self.players_choice = saved.game.players
        self.replay = None
        for dialog in ("replay-dialog", "results-dialog", "suit-dialog"):
            self.screen.dialog(dialog, False)
        self.screen.set_hash(self._hash())
        if self._save(replace=True):
            self._show_banner()
            self.resume()
