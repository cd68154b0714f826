"""«Tus partidas» on the page: drawn, added to, exported, imported, and checked in slices.

The slow work (reading the page's IndexedDB store, an import, the check of
games not yet checked here) runs in slices of :data:`WORK_SLICE_MS` on the
screen's timer, with its progress on a bar; the records themselves are
:mod:`ui.history`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from engine.game import GAME_OVER
from engine.record import Record

from . import history_html, render
from .daily import daily_note
from .history import Games
from .history_file import HistoryFileError, ImportJob, thousands
from .host import Forget, Host, ImportedGame
from .outside import SOURCE_IMPORT, SOURCE_IMPORT_CURRENT, Refused, set_aside, take
from .storage import SAVE_KEY, Saved, read

# Checking records (an import, games not yet checked here) runs in slices this long, far under 100 ms.
WORK_SLICE_MS = 25


class Transfer:
    """The page's side of «Tus partidas»: the panel, the file in and out, and the work in slices."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.importing: tuple[ImportJob, Iterator[int]] | None = None
        self.checking: Iterator[tuple[int, int]] | None = None
        self.attaching: Iterator[None] | None = None
        self.working = False
        # The page's own store is being opened or read (the worker mode says so at start): «Tus
        # partidas» says «Cargando tus partidas…» until it is read, never that there are none.
        self.loading = False

    def render(self) -> None:
        """Redraw «Tus partidas» and today's codes (cheap: outcomes are cached per record)."""
        host = self.host
        today = host.today()
        history = host.history
        host.screen.html(
            "partidas-body",
            history_html.history_html(
                None if self.loading else history.stats(),  # the first batch needs no statistics
                history.recent(),
                today,
                history.daily(today),
                past=history.past,
                kept=len(history.known),  # the entries and the later forms' texts
                later=history.later,
                waiting=history.waiting(),
                waiting_entries=history.waiting_entries(),
                unreadable=len(history.unreadable),
                loading=self.loading,
            ),
        )
        host.screen.text("daily-note", daily_note(today))

    def keep(self, record: Record) -> None:
        """Keep a finished or abandoned game's record (a game with no move at all is not kept)."""
        if self.host.history.add(record, self.host.today()):
            self.render()
            self.start_work()

    # -- one game removed ----------------------------------------------------------------------

    def ask_forget(self, key: str | None) -> None:
        """«Borrar» on a row (``key``), or on the lines that are no game (None): asked first, «No» kept."""
        history = self.host.history
        if key is None:
            count = len(history.unreadable)
            if not count:
                return
            lines = (
                "la línea que no se puede leer" if count == 1 else f"las {count} líneas que no se pueden leer"
            )
            self.host.ask_replace(
                f"¿Borras {lines}?", "Borrarlas", "No son partidas de esta página y no cuentan.", Forget(None)
            )
            return
        entry = history.entry(key)
        if entry is None:
            if key in history.unreadable:
                self.host.ask_replace(
                    "¿Borras esta línea que no se puede leer?", "Borrarla", "No es una partida.", Forget(key)
                )
            return
        counted = " y deja de contar en tus números" if entry.counted else ""
        self.host.ask_replace(
            f"¿Borras la partida {entry.code.pretty()} del {entry.date}?",
            "Borrarla",
            f"Se borra de este dispositivo{counted}. No se puede deshacer.",
            Forget(key),
        )

    def forget(self, key: str | None) -> None:
        """Remove what :meth:`ask_forget` asked about, redraw «Tus partidas», and say it."""
        history = self.host.history
        if key is None:
            count = history.delete_unreadable()
            words = "Borrada 1 línea" if count == 1 else f"Borradas {thousands(count)} líneas"
        else:
            words = "Partida borrada" if history.delete(key) else "Ya no estaba"
        self.render()
        self.host.screen.text("partidas-status", f"{words}.")

    # -- export and import -------------------------------------------------------------------

    def export_text(self) -> tuple[str, str]:
        """(file name, text) of «Descargar mis partidas»: every kept record and the current save."""
        host = self.host
        try:
            current = host.store.backend.getItem(SAVE_KEY)
        except Exception:
            current = None
        today = host.today()
        return f"ocho-loco-partidas-{today}.json", host.history.export(current, today)

    def import_text(self, text: str) -> None:
        """«Importar»: check a file's games here, in slices (:meth:`start_work`), and keep the new ones."""
        screen = self.host.screen
        if self.importing is not None:
            screen.text("partidas-status", "Ya se está importando un archivo: espera a que termine.")
            return
        try:
            job = take(SOURCE_IMPORT, text, self.host.history.importer, (HistoryFileError,))
        except Refused as err:
            screen.text("partidas-status", str(err))
            return
        self.importing = (job, job.steps())
        screen.text("partidas-status", "")
        self._show_progress(0, job.total, "Importando")
        self.start_work()

    def attach_games(self, games: Games, flush: Callable[[], None] | None = None) -> None:
        """Keep games in the page's own store (IndexedDB) from now on; read it in slices, then show it."""
        self.attaching = self.host.history.attach_steps(games, flush)
        self.start_work()

    def expect_games(self) -> None:
        """The page is opening its store: «Tus partidas» says it is loading until it is read."""
        self.loading = True

    def games_unavailable(self) -> None:
        if self.loading:
            self.loading = False
            self.render()
        self.host.screen.text(
            "partidas-status",
            "Este navegador no guarda tus partidas: las de esta visita se pierden al cerrar la pestaña.",
        )

    # -- checking and importing in slices of the screen's timer ------------------------------

    def start_work(self) -> None:
        """Run the pending import and the checks of unchecked games in slices of :data:`WORK_SLICE_MS`."""
        idle = self.attaching is None and self.importing is None and self.checking is None
        if not self.working and not (idle and not self.host.history.pending()):
            self.working = True
            self.host.screen.later(0, self._work_slice)

    def _work_slice(self) -> None:
        screen = self.host.screen
        started = time.perf_counter()
        shown: tuple[int, int, str] | None = None
        while (time.perf_counter() - started) * 1000 < WORK_SLICE_MS:
            if self.attaching is not None:
                try:
                    next(self.attaching)
                except StopIteration:
                    self.attaching = self.checking = None  # the checks start again over the store's games
                    self.loading = False
                    screen.attr("partidas", "data-store", "ready")  # read by the browser tests
                    self.render()
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
                    self.render()
                    shown = None
            elif self.host.history.pending():
                self.checking = self.host.history.check_steps()
            else:
                self.working = False
                screen.attr("import-progress-box", "hidden", "")
                return
        if shown is not None:
            self._show_progress(*shown)
        screen.later(0, self._work_slice)

    def _show_progress(self, done: int, total: int, what: str) -> None:
        """«Importando 3.200 de 12.650…» on the progress bar and its label (read out politely)."""
        label = (
            f"Importando {thousands(done)} de {thousands(total)}…"
            if what == "Importando"
            else f"Comprobando tus partidas: {thousands(done)} de {thousands(total)}…"
        )
        screen = self.host.screen
        screen.attr("import-progress", "max", str(max(total, 1)))
        screen.attr("import-progress", "value", str(done))
        screen.text("import-progress-label", label)
        screen.attr("import-progress-box", "hidden", None)

    def _import_done(self, job: ImportJob) -> None:
        host = self.host
        imported = job.result()
        self.render()
        message = imported.message()
        saved: Saved | None = None
        if imported.current is not None:
            try:
                saved = take(SOURCE_IMPORT_CURRENT, imported.current, read)
            except Refused as err:
                aside = " Se ha guardado aparte." if set_aside(host.store.backend, imported.current) else ""
                message += f" La partida en curso del archivo no se ha podido abrir: {err}{aside}"
                host.show_aside()
        game = host.game
        if (
            saved is not None
            and game is not None
            and str(saved.record) == str(Record.of(game, host.level, host.hints))
        ):
            saved = None  # the same game, at the same move: nothing to ask
        host.screen.text("partidas-status", message)
        if saved is None:
            return
        if game is None or game.phase == GAME_OVER:
            host.adopt(saved)
            return
        host.ask_replace(
            "El archivo trae otra partida en curso. ¿Cambias la tuya por esa?",
            "Jugar la del archivo",
            render.LEFT_GAME,
            ImportedGame(saved),
        )
