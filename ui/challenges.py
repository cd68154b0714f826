"""Challenges on the page: «Retar a alguien», a challenge link opened, and the one being played.

Every challenge's CPU moves are checked before anything of it shows or
leaves: a link's, the one kept across reloads, and this page's own before
its link is copied. The checks run in slices on the screen's timer
(:meth:`Challenges.check_slices`, :mod:`ui.slices`), so the page never freezes.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator

from engine.challenge import Challenge, ChallengeError, clean_name, cpu_steps, replayed, replayed_kept
from engine.codes import GameCode
from engine.game import GAME_OVER
from engine.record import Record, RecordError

from . import history_html, render
from .host import ChallengeGame, Host
from .links import MAX_LINK, challenge_url, link_hash, read_challenge
from .outside import SOURCE_CHALLENGE, SOURCE_KEPT_CHALLENGE, Refused, set_aside, take
from .prefs import PREFIX
from .slices import run_in_slices
from .storage import Backend

HUMAN = 0
CHECKING_LINK = "Comprobando el reto…"
CHECKING_OWN = "Comprobando la partida para el reto…"
NOT_SHOWN = "No se muestra ningún punto suyo; sigues con tu partida."
# A challenge's CPU moves are checked on the timer, this many ms of work a slice (each step is smaller).
CHECK_SLICE_MS = 30.0


class Challenges:
    """The challenge armed on the table (if any) and the checks running for challenges."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.challenge: Challenge | None = None
        # The checks of CPU moves running on the timer, by job («link», «kept», «retar»): a newer job
        # of the same kind replaces the older one.
        self.checks: dict[str, object] = {}
        self.check_slice_ms = CHECK_SLICE_MS
        self.link_text = ""  # the hash the last challenge read came from (set aside if its check fails)

    # -- a link opened ------------------------------------------------------------------

    def read(self, fragment: str, notices: list[str]) -> Challenge | None:
        """A challenge from the hash whose rules and claim check, or None (a refusal goes to ``notices``,
        never link text); its CPU moves are checked next, by :meth:`follow`."""
        try:
            raw = take(SOURCE_CHALLENGE, fragment, read_challenge)
        except Refused as err:
            notices.append(str(err))
            return None
        if raw is None:
            return None
        try:
            challenge = take(SOURCE_CHALLENGE, raw, lambda fields: replayed(*fields))
        except Refused as err:
            set_aside(self.host.store.backend, fragment)  # the link's game is kept, never lost
            notices.append(f"{err} {NOT_SHOWN}")
            return None
        self.link_text = fragment
        return challenge

    def follow(self, challenge: Challenge) -> None:
        """Check the challenge's CPU moves in slices, showing progress; then show it, or the refusal.

        Until the check ends, the game in progress holds still behind it (or the
        setup shows); a refusal then carries on as if the link had not come: like
        a refusal by the rules, the link is set aside and leaves the address.
        """
        host = self.host
        fragment = self.link_text
        if host.game is None:
            host.show_setup()
        host.screen.status(f"{CHECKING_LINK} 0 %")

        def done(err: ChallengeError | None) -> None:
            if err is None:
                self._show(challenge)
                return
            set_aside(host.store.backend, fragment)  # the link's game is kept, never lost
            game = host.game
            host.screen.set_hash(link_hash(game.code) if game is not None else "")  # not read again
            host.screen.notice(f"{err} {NOT_SHOWN}")
            host.show_aside()
            if host.game is None:
                host.show_setup()
                return
            host.carry_on()  # a CPU turn left running while the link came restarts once

        self.check_slices("link", cpu_steps(challenge), CHECKING_LINK, done)

    def _show(self, challenge: Challenge) -> None:
        """Show who challenges and with what total, then open the same game (asking first if needed)."""
        host, game = self.host, self.host.game
        host.screen.text("challenge-banner", history_html.challenge_banner(challenge))
        host.screen.attr("challenge-banner", "hidden", None)
        if game is not None and game.code == challenge.record.code and game.phase != GAME_OVER:
            self._arm(challenge)
            host.carry_on()
            return
        if game is None or game.phase == GAME_OVER:
            self.accept(challenge)
            return
        host.ask_replace(
            "Tienes una partida a medias. ¿La cambias por la del reto?",
            "Aceptar el reto",
            render.LEFT_GAME,
            ChallengeGame(challenge),
        )

    def accept(self, challenge: Challenge) -> None:
        """Play the challenge's game, against its level, with its banner up."""
        host = self.host
        self._arm(challenge)
        host.new_game(code=challenge.record.code, level=challenge.record.level)
        self.show_banner()
        game = host.game
        prompt = render.turn_prompt(host.view()) if game is not None and game.turn == HUMAN else ""
        host.screen.status(f"{history_html.challenge_banner(challenge)} {prompt}".strip())

    def _arm(self, challenge: Challenge) -> None:
        self.challenge = challenge
        keep_challenge(self.host.store.backend, str(challenge.record), challenge.name)
        self.show_banner()

    def drop_unless(self, code: GameCode) -> None:
        """A new game of another code than the armed challenge's: the challenge is dropped."""
        if self.challenge is not None and self.challenge.record.code != code:
            self.challenge = None
            keep_challenge(self.host.store.backend, None)
            self.show_banner()

    def show_banner(self) -> None:
        challenge, game = self.challenge, self.host.game
        screen = self.host.screen
        if challenge is not None and game is not None and game.code == challenge.record.code:
            screen.text("challenge-banner", history_html.challenge_banner(challenge))
            screen.attr("challenge-banner", "hidden", None)
        else:
            screen.attr("challenge-banner", "hidden", "")

    def restore(self, notices: list[str]) -> None:
        """After a reload, the challenge being played is verified again, in slices, and re-armed.

        One whose record does not read or replay is set aside, and ``notices`` says so; one whose
        CPU moves do not check out is dropped when its check ends.
        """
        backend, game = self.host.store.backend, self.host.game
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
                if kept_challenge(backend) == kept:  # not a newer one kept meanwhile
                    keep_challenge(backend, None)
            elif self.challenge is None and self.host.game is game:
                self.challenge = challenge
                self.show_banner()

        self.check_slices("kept", cpu_steps(challenge), "", done)

    def comparison(self) -> str:
        """The challenge's hand-by-hand comparison for the results panel of the challenged game."""
        challenge, game = self.challenge, self.host.game
        if challenge is None or game is None or challenge.record.code != game.code:
            return ""
        if not Record.of(game).verified:
            return ""
        from engine.stats import outcome  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

        try:
            mine = outcome(Record.of(game, self.host.level, self.host.hints))
        except RecordError:
            return ""
        return history_html.comparison_html(challenge, mine)

    # -- «Retar a alguien» ------------------------------------------------------------------

    def link(self, name: str) -> None:
        """«Retar a alguien»: check this finished game's CPU moves, then copy a link carrying its record."""
        host, game = self.host, self.host.game
        if game is None or game.phase != GAME_OVER:
            return

        def say(text: str) -> None:
            # Inside the results panel that is open (the status line behind a modal is not heard).
            host.screen.text("challenge-status", text)

        record = Record.of(game, host.level, host.hints)
        if not record.verified:
            say(
                "Esta partida viene de una versión anterior de la página y no se puede comprobar entera: "
                "no sirve para retar."
            )
            return
        url = challenge_url(host.page_url, str(record), game.totals[HUMAN], clean_name(name))
        if len(url) > MAX_LINK:
            say(
                f"Esta partida es demasiado larga para caber en un enlace de reto ({len(url)} caracteres, "
                f"el máximo es {MAX_LINK}). Comparte el código {game.code.pretty()} y comparad los puntos."
            )
            return
        try:
            challenge = replayed(str(record), str(game.totals[HUMAN]), name)
        except ChallengeError as err:  # pragma: no cover - the page's own finished game replays
            say(f"{err} No se puede retar con esta partida.")
            return

        def done(err: ChallengeError | None) -> None:
            if host.game is not game:
                return  # another game since: its own «Retar» will check it
            if err is not None:
                say(f"{err} No se puede retar con esta partida.")
                return
            host.screen.copy_text(url)
            say("Enlace del reto copiado: pégalo en un mensaje para mandarlo. También está aquí debajo.")
            host.screen.attr("challenge-url", "value", url)
            host.screen.attr("challenge-url", "hidden", None)

        # A save never becomes a challenge unchecked: the same check a receiver runs.
        say(f"{CHECKING_OWN} 0 %")
        self.check_slices("retar", cpu_steps(challenge), CHECKING_OWN, done, say)

    # -- checks in slices --------------------------------------------------------------------

    def check_slices(
        self,
        job: str,
        steps: Iterator[float],
        saying: str,
        done: Callable[[ChallengeError | None], None],
        say: Callable[[str], None] | None = None,
    ) -> None:
        """Run a check's ``steps`` on the screen's timer, about :data:`CHECK_SLICE_MS` of work a slice.

        ``saying`` (when not empty) goes on the status line with the percentage
        done, every 10 points; ``done`` gets None, or the refusal, at the end.
        """
        token = object()
        self.checks[job] = token
        screen = self.host.screen
        tell = say if say is not None else screen.status
        refusal: list[ChallengeError] = []

        def refused_ends(steps: Iterator[float]) -> Iterator[float]:
            try:
                yield from steps
            except ChallengeError as err:
                refusal.append(err)

        def ended() -> None:
            del self.checks[job]
            err = refusal[0] if refusal else None
            screen.later(0, lambda: done(err))  # a deal or a render: a task of its own

        run_in_slices(
            screen,
            refused_ends(steps),
            self.check_slice_ms,
            wanted=lambda: self.checks.get(job) is token,  # not replaced by a newer check of the same kind
            progress=(lambda percent: tell(f"{saying} {percent} %")) if saying else None,
            done=ended,
        )


def _replayed_kept(backend: Backend) -> tuple[Challenge, tuple[str, str]]:
    """The challenge kept across reloads (``ocho-loco:reto``), replayed (its CPU moves still unchecked)."""
    kept = kept_challenge(backend)
    if kept is None:
        raise ChallengeError("El reto guardado no se puede leer.")
    return replayed_kept(*kept), kept


# -- an accepted challenge, kept while its game is played --------------------------------------

CHALLENGE_KEY = PREFIX + "reto"


def keep_challenge(backend: Backend, record: str | None, name: str = "") -> None:
    """Remember (or forget, with ``None``) the challenge being played, to survive a reload."""
    with contextlib.suppress(Exception):
        if record is None:
            backend.removeItem(CHALLENGE_KEY)
        else:
            backend.setItem(CHALLENGE_KEY, json.dumps({"record": record, "de": name}))


def kept_challenge(backend: Backend) -> tuple[str, str] | None:
    """The (record text, name) remembered by :func:`keep_challenge`; verified again by the caller."""
    try:
        raw = backend.getItem(CHALLENGE_KEY)
        data = json.loads(raw) if raw is not None and len(raw) < 10_000 else None
    except Exception:
        return None
    if not isinstance(data, dict):
        return None
    record, name = data.get("record"), data.get("de")
    if not isinstance(record, str) or not isinstance(name, str):
        return None
    return record, name
