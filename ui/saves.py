"""The game's save as the table writes it, and the other tabs' saves followed.

Every read-compare-write of the save runs under the store's lock
(:meth:`ui.storage.Store.locked`); when another tab has moved on, the
table takes over its game (:meth:`ui.host.Host.take_over`) and says why.
"""

from __future__ import annotations

from .host import Host


class Saves:
    """Writes the table's game; follows another tab that moved on; shows the saves kept aside."""

    def __init__(self, host: Host) -> None:
        self.host = host
        # A save waits for the lock on the save (other tabs); what it will write is read when it runs.
        self.due = False
        self.replace_due = False

    def save(self, *, replace: bool = False) -> bool:
        """Save the game; False when another tab had moved on and this table now shows that game.

        Under the lock at once under pytest and where the browser has no Web
        Locks, else as soon as the lock is granted, which may be after this
        returns True. Then the game written is the one on the table at that
        moment (saves asked for meanwhile are one write), and if another tab
        had moved on, the table follows it then.
        """
        self.replace_due = self.replace_due or replace
        if self.due:
            return True
        self.due = True
        done: list[bool] = []

        def write() -> None:
            self.due = False
            replace_now, self.replace_due = self.replace_due, False
            done.append(self._save_now(replace=replace_now))

        self.host.store.locked(write)
        return done[0] if done else True

    def _save_now(self, *, replace: bool) -> bool:
        host, store = self.host, self.host.store
        if host.game is None:
            return True  # the game was left before the lock came: nothing to write
        failed_before = store.failed
        notice_before = store.notice
        follow = store.save(host.game, host.level, host.chooser, replace=replace, hints=host.hints)
        if store.merged_hints is not None:
            host.hints, store.merged_hints = store.merged_hints, None  # «Pista» asked in another tab
        if follow is not None:
            host.follow(follow.saved, follow.notice)
            return False
        if store.failed or store.kept_bad:
            host.screen.notice(store.notice)
        elif failed_before:
            host.screen.notice(None)  # saving works again: the warning no longer holds
        elif store.notice is not None and store.notice != notice_before:
            host.screen.notice(store.notice)  # two tabs diverged: the other version was set aside
        return True

    def changed(self, raw: str | None) -> None:
        """Another tab wrote the save (the browser's ``storage`` event): follow it if it moved on."""
        host, store = self.host, self.host.store
        notice_before = store.notice
        follow = store.changed(raw)
        if follow is not None:
            host.follow(follow.saved, follow.notice)
        elif store.notice is not None and store.notice != notice_before:
            host.screen.notice(store.notice)  # an unreadable save from another tab was set aside
            self.show_aside()

    def show_aside(self) -> None:
        """Say how many unreadable saves are kept aside (they are never deleted unasked)."""
        count = self.host.store.aside_count()
        screen = self.host.screen
        if count:
            words = "Hay 1 partida guardada" if count == 1 else f"Hay {count} partidas guardadas"
            screen.text("aside-count", words + " aparte porque no se podían abrir.")
        screen.attr("aside-info", "hidden", None if count else "")

    def clear_aside(self) -> None:
        """The player chose to delete the saves kept aside."""
        self.host.store.clear_aside()
        self.show_aside()
        self.host.screen.status("Se han borrado las partidas que estaban guardadas aparte.")
