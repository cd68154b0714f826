"""The end of a hand on the page: the results count, card by card, and «Ver la mano».

The count turns each leftover card in turn (at the pace of «Ritmo»); the
scoreboard waits for it (:meth:`Results.pending`). «Ver la mano» replays the
hand just finished from its deal (:mod:`ui.replay`), with its «Repaso»: the
hard CPU's review of your decisions (:mod:`engine.review`), run in slices on
the screen's timer with its progress shown, and kept beside the game in «Tus
partidas» so a second look is instant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from engine.record import Record, RecordError

from . import render, render_gameover, render_replay
from .history import History, review_key
from .host import Host
from .kept import identity
from .prefs import PACES, Pace
from .render_gameover import Race
from .replay import HandReplay, ReplayStep
from .screen import TableState
from .slices import run_in_slices

if TYPE_CHECKING:
    from engine.review import Review

CPU_DELAY_MS = 700  # «Ritmo: normal»; each CPU action is drawn on its own, this long apart
REVEAL_DELAY_MS = 450
# «Ritmo»: (ms between two CPU actions, ms between two cards turned in the results).
PACE_DELAYS: dict[Pace, tuple[int, int]] = {
    "pausado": (1400, 700),
    "normal": (CPU_DELAY_MS, REVEAL_DELAY_MS),
    "rapido": (300, 200),
}
assert set(PACE_DELAYS) == set(PACES)
# The review runs on the timer, this many ms of work a slice (each of its steps is a few ms).
REVIEW_SLICE_MS = 30.0
REVIEWING = "Repasando…"
# After the count ends, focus moves to «Siguiente mano» or «Nueva partida» on its own. A key pressed just
# then (often the key that was meant to skip the count) would press it: for this long after the focus
# arrived, a keyboard activation of that button is ignored; a pointer click counts at once.
KEY_GRACE_MS = 450


def record_line(history: History, record: Record) -> str:
    """Where a finished game went and your record: «Esta partida ya está en «Tus partidas»: llevas 3
    ganadas de 5.». The game just kept counts at once, even before its check on this device ends."""
    tally = history.stats().overall
    played, won = tally.played, tally.won
    text = history.ids.get(identity(record))  # the key it is kept under (hints included)
    if not any(e.text == text and e.outcome is not None for e in history.entries):
        from engine.stats import outcome  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

        try:
            mine = outcome(record)
        except RecordError:  # a game begun before records were complete never counts
            mine = None
        if mine is not None:
            played, won = played + 1, won + mine.won
    wins = "1 ganada" if won == 1 else f"{won} ganadas"
    return f"Esta partida ya está en «Tus partidas»: llevas {wins} de {played}."


def race_of(game: Game) -> Race:
    """Every total after every hand of ``game``, replayed from its record.

    A game whose moves do not replay from its code (one set up by hand, or an old save's
    unverified start) gives only what it knows for sure: its last hand.
    """
    record = Record.of(game)
    first = record.first_game()
    start = (first.hand_no, tuple(first.totals))
    after: list[tuple[int, ...]] = []
    try:
        for state in record.games(first):
            result = state.result
            if state.phase != PLAYING and result is not None and result.hand == start[0] + len(after):
                after.append(tuple(result.totals))
    except RecordError:
        after = []
    final = tuple(game.totals)
    if (not after or after[-1] != final) and game.result is not None:
        before = tuple(t - p for t, p in zip(final, game.result.penalties, strict=True))
        return Race(game.result.hand, before, (final,))
    return Race(start[0], start[1], tuple(after))


class Results:
    """The results panel of the hand just finished, and its replay."""

    def __init__(
        self,
        host: Host,
        *,
        keep: Callable[[Record], None],
        comparison: Callable[[], str],
        counted: Callable[[], None] = lambda: None,
    ) -> None:
        self.host = host
        self.counted = counted  # told when a count ends («Aprende jugando» says its last step there)
        self.keep = keep  # a finished game goes to «Tus partidas»
        self.comparison = comparison  # a challenge's comparison, under a finished game's count
        self.shown: list[int] = []
        self.counting = False  # the results count is running (the scoreboard waits for it)
        self.count_done = False  # the finished hand's count has ended (its totals may show)
        self.replay: HandReplay | None = None
        self.review: Review | None = None
        self.review_first = 0
        self.review_job: object | None = None  # the review running on the timer (a newer one replaces it)
        self.review_slice_ms = REVIEW_SLICE_MS
        self.arrived: str | None = None  # the button the focus was just moved to, during its key grace
        self.away = False  # the game-over panel was left for «Tus partidas»: it does not come back
        self.final = False  # the end of the game shows in its own panel (the results panel gave way)
        self.challenging = False  # its «Retar a alguien» form is open

    def reset(self) -> None:
        """A new hand or game: no count, no replay, their dialogs closed."""
        self.counting = self.count_done = self.away = self.final = False
        self._grace_over()
        self.replay = None
        self.review = None
        self.review_job = None
        self.host.screen.dialog("replay-dialog", False)
        self.host.screen.dialog("results-dialog", False)
        self.host.screen.dialog("gameover-dialog", False)

    def pending(self) -> bool:
        """True while the results of the finished hand have not been counted on screen yet."""
        return self.counting or not self.count_done

    def show(self, animate: bool) -> None:
        host = self.host
        game = host.game
        assert game is not None and game.result is not None
        result = game.result
        full = [len(cards) for cards in result.leftovers]
        self.shown = [0] * game.players if (animate and not host.fast) else full
        self.counting = True
        s = host.screen
        s.text("results-title", render.results_title(result))
        s.text("results-sub", render.results_subtitle(result) + f" Rival {render.LEVEL_NAMES[host.level]}.")
        # The dialog is modal, so the status line behind it is not heard: the panel has its own.
        s.text("results-live", host.ending)
        host.enter(TableState.RESULTS if game.phase == HAND_OVER else TableState.GAMEOVER)
        s.attr("next-hand-btn", "hidden", "")
        s.attr("final-btn", "hidden", "")
        s.attr("replay-btn", "hidden", "")
        s.attr("results-skip", "hidden", None)
        if game.phase == GAME_OVER:
            self.keep(Record.of(game, host.level, host.hints))
        s.dialog("results-dialog", True)
        s.focus("results-skip")
        self._reveal(host.generation)

    def _reveal(self, generation: int) -> None:
        """Turn the next leftover card (only that one animates); at the end, show the totals."""
        host = self.host
        game = host.game
        if game is None or generation != host.generation or game.result is None or not self.counting:
            return
        result = game.result
        target = [len(cards) for cards in result.leftovers]
        for seat, count in enumerate(target):
            if seat != result.winner and self.shown[seat] < count:
                self.shown[seat] += 1
                host.screen.html("results-body", render.results_html(result, self.shown, turning=seat))
                host.screen.later(PACE_DELAYS[host.setup.pace][1], lambda: self._reveal(generation))
                return
        self._finish()

    def skip(self) -> None:
        """«Saltar» (or any key): show the whole count at once."""
        game = self.host.game
        if game is None or game.result is None or not self.counting:
            return
        self.shown = [len(cards) for cards in game.result.leftovers]
        self._finish()

    def _finish(self) -> None:
        game = self.host.game
        assert game is not None and game.result is not None
        result = game.result
        self.counting = False
        self.count_done = True
        s = self.host.screen
        body = render.results_html(result, self.shown) + render.totals_html(result)
        summary = render.results_summary(result)
        s.html("results-body", body)
        s.text("results-live", f"{self.host.ending} {summary}".strip())
        s.html("scoreboard", render.scoreboard_html(result.totals, game.leader))
        s.attr("results-skip", "hidden", "")
        # The last hand's count, then «Ver el final»: the end of the game is a panel of its own.
        button = "final-btn" if game.phase == GAME_OVER else "next-hand-btn"
        s.attr(button, "hidden", None)
        s.attr("replay-btn", "hidden", None)
        s.status(summary)
        self.counted()
        self._focus_on_its_own(button)

    # -- the end of the game --------------------------------------------------------------------

    def open_final(self, *, by_key: bool = False) -> None:
        """«Ver el final»: the results panel gives way to the end of the game (``by_key`` as in
        :meth:`takes`)."""
        if self.host.state is not TableState.GAMEOVER or self.counting or self.final:
            return
        if not self.takes("final-btn", by_key=by_key):
            return
        self._grace_over()
        self.final = True  # set first: closing the results panel must not bring it back (dismissed)
        self.host.screen.dialog("results-dialog", False)
        self._show_final()

    def resume_final(self) -> None:
        """A finished game on the table again (a reload, another tab): its end shows at once."""
        host = self.host
        game = host.game
        assert game is not None and game.result is not None
        self.counting = False
        self.count_done = self.final = True
        self.keep(Record.of(game, host.level, host.hints))
        host.screen.html("scoreboard", render.scoreboard_html(game.result.totals, game.leader))
        host.screen.dialog("results-dialog", False)
        self._show_final()

    def _show_final(self) -> None:
        """The verdict, the standings, the race to 100, your best and worst hand, and what comes next."""
        host = self.host
        game = host.game
        assert game is not None and game.result is not None
        s = host.screen
        race = race_of(game)
        winners = game.result.winners
        s.attr("gameover-dialog", "data-outcome", render_gameover.outcome_of(winners))
        s.text("gameover-title", render_gameover.verdict(winners))
        s.text("gameover-sub", render_gameover.verdict_sub(race, render.LEVEL_NAMES[host.level]))
        s.html("gameover-body", render_gameover.gameover_body_html(race) + self.comparison())
        s.text("results-record", record_line(host.history, Record.of(game, host.level)))
        self.challenging = False
        s.attr("challenge-box", "hidden", "")
        s.attr("gameover-challenge-btn", "aria-expanded", "false")
        s.text("challenge-status", "")
        s.attr("challenge-url", "hidden", "")
        host.enter(TableState.GAMEOVER)
        s.status(render.game_over_text(game.result))
        s.dialog("gameover-dialog", True)
        s.focus("gameover-title")

    def toggle_challenge(self) -> None:
        """«Retar a alguien» in the end of the game: its form opens (the focus goes to the name) or closes."""
        if self.host.state is not TableState.GAMEOVER or not self.final:
            return
        s = self.host.screen
        opening = self.challenging = not self.challenging
        s.attr("challenge-box", "hidden", None if opening else "")
        s.attr("gameover-challenge-btn", "aria-expanded", "true" if opening else "false")
        s.focus("challenge-name" if opening else "gameover-challenge-btn")

    def final_dismissed(self) -> None:
        """The browser closed the end of the game on its own (Escape twice): it comes back."""
        if self.host.state is not TableState.GAMEOVER or not self.final:
            return  # «Ver la mano» over it, or «Tus partidas» left for: not the browser's doing
        self.host.screen.dialog("gameover-dialog", True)
        self.host.screen.focus("gameover-title")

    def _focus_on_its_own(self, button: str) -> None:
        """Move the focus to ``button`` and hold keyboard activations of it for :data:`KEY_GRACE_MS`.

        The button says so in ``data-grace`` while it lasts (the browser tests wait on it).
        """
        s = self.host.screen
        self._grace_over()
        s.focus(button)
        self.arrived = button
        s.attr(button, "data-grace", "1")
        s.later(KEY_GRACE_MS, lambda: self._grace_over(button))

    def _grace_over(self, button: str | None = None) -> None:
        if self.arrived is not None and button in (None, self.arrived):
            self.host.screen.attr(self.arrived, "data-grace", None)
            self.arrived = None

    def takes(self, button: str, *, by_key: bool) -> bool:
        """Whether an activation of ``button`` counts: not a key during its grace (:data:`KEY_GRACE_MS`)."""
        return not (by_key and self.arrived == button)

    def dismissed(self) -> None:
        """The browser closed the results panel on its own (Escape twice): it comes back, it is the way on."""
        game = self.host.game
        if self.host.state not in (TableState.RESULTS, TableState.GAMEOVER) or self.final or game is None:
            return  # closed by the table itself: the next hand, the end of the game, «Ver la mano»
        self.host.screen.dialog("results-dialog", True)
        self._focus_on_its_own("final-btn" if game.phase == GAME_OVER else "next-hand-btn")

    def see_partidas(self) -> None:
        """«Ver «Tus partidas»» at game over: the panel closes and the focus goes to «Tus partidas».

        The finished game stays on the table; «Repartir» deals the next one.
        """
        host = self.host
        if host.state is not TableState.GAMEOVER or self.counting:
            return
        self.away = True  # set first: closing the panel must not bring it back (see dismissed)
        self._grace_over()
        host.screen.dialog("results-dialog", False)
        host.screen.dialog("gameover-dialog", False)
        host.show_setup()
        host.screen.focus("partidas")

    # -- «Ver la mano» ------------------------------------------------------------------------

    def open_replay(self) -> None:
        """Replay the hand just finished, from its deal, every hand face up (from the results or the end)."""
        game = self.host.game
        if self.host.state not in (TableState.RESULTS, TableState.GAMEOVER) or game is None:
            return
        self.replay = HandReplay.of_current_hand(game)
        self.host.screen.text("replay-close", "Volver al final" if self.final else "Volver a los resultados")
        self.host.enter(TableState.REPLAY)
        self.host.screen.dialog("replay-dialog", True)
        self._show_replay()
        self.host.screen.focus("replay-next")
        self._start_review()

    def replay_go(self, where: ReplayStep) -> None:
        """``first``, ``prev``, ``next`` or ``last`` step of the replay on show."""
        if self.host.state is TableState.REPLAY and self.replay is not None and self.replay.go(where):
            self._show_replay()

    def close_replay(self) -> None:
        game = self.host.game
        if self.host.state is not TableState.REPLAY or game is None:
            return
        self.replay = None
        self.review_job = None
        s = self.host.screen
        s.dialog("replay-dialog", False)
        self.host.enter(TableState.RESULTS if game.phase == HAND_OVER else TableState.GAMEOVER)
        s.focus("gameover-replay-btn" if self.final else "replay-btn")

    def _show_replay(self) -> None:
        replay = self.replay
        assert replay is not None
        step = replay.step
        s = self.host.screen
        s.text("replay-title", render_replay.replay_title(replay.hand_no, replay.index, replay.last))
        s.text("replay-step", render_replay.replay_move_text(step.move, step.drawn))
        s.html("replay-table", render_replay.replay_table_html(step.game, step.move))
        at_start, at_end = replay.index == 0, replay.index == replay.last
        for el_id, off in (
            ("replay-first", at_start),
            ("replay-prev", at_start),
            ("replay-next", at_end),
            ("replay-last", at_end),
        ):
            s.attr(el_id, "aria-disabled", "true" if off else None)
        if self.review is not None:
            # Only the marks change: the list is not drawn again, so the focus stays on its item.
            for n, decision in enumerate(self.review.decisions):
                here = decision.index - self.review_first == replay.index
                s.attr(f"review-go-{n}", "aria-current", "step" if here else None)

    # -- «Repaso» ------------------------------------------------------------------------------

    def review_jump(self, step: int) -> None:
        """An item of «Repaso» chosen: the replay shows the table as it was when you chose."""
        replay = self.replay
        if self.host.state is not TableState.REPLAY or replay is None or not 0 <= step <= replay.last:
            return
        replay.index = step
        self._show_replay()

    def _start_review(self) -> None:
        """The hand's review: at once from «Tus partidas» when kept, else computed in slices."""
        from engine.review import CURRENT, Review, Reviewer  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

        host = self.host
        assert host.game is not None
        record = Record.of(host.game, host.level, host.hints)
        first, last = host.game.hand_start, len(record.moves)
        key = review_key(str(record), first, CURRENT)
        self.review = None
        self.review_first = first
        s = host.screen
        s.html("review-list", "")
        s.text("review-progress", "")
        s.attr("review-jump", "hidden", "")
        kept = host.history.kept_review(key)
        if kept is not None:
            try:
                review = Review.from_json(kept)
            except (ValueError, KeyError, TypeError, IndexError, RecordError):
                review = None
            if review is not None and (review.record, review.first, review.last) == (
                str(record),
                first,
                last,
            ):
                self._show_review(review)
                return
        # The summary line is a live region: it says «Repasando…» once, then the summary once;
        # the percentage beside it is shown, not announced.
        s.text("review-summary", REVIEWING)
        s.text("review-progress", "0 %")
        reviewer = Reviewer(record, first, last, CURRENT)
        token = object()
        self.review_job = token

        def done() -> None:
            self.review_job = None
            review = reviewer.result
            assert review is not None
            host.history.keep_review(key, review.to_json())
            self._show_review(review)

        run_in_slices(
            s,
            reviewer.steps(),
            self.review_slice_ms,
            wanted=lambda: self.review_job is token,  # not closed, nor another hand since
            progress=lambda percent: s.text("review-progress", f"{percent} %"),
            done=done,
        )

    def _show_review(self, review: Review) -> None:
        self.review = review
        s = self.host.screen
        s.text("review-progress", "")
        s.text("review-summary", review.summary())
        current = None if self.replay is None else self.replay.index
        s.html("review-list", render_replay.review_list_html(review, self.review_first, current))
        s.attr("review-jump", "hidden", None if review.decisions else "")
