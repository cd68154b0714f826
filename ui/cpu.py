"""The CPU seats' decisions on the page: the hard level's search runs in slices of the main thread.

Also how long a sentence said on the status line (a polite live region) holds the next CPU action back
(:func:`speech_gap`), so the CPU's sentences never arrive faster than a screen reader can say them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.game import Game
from engine.view import seat_view

from .prefs import Pace
from .screen import Screen

if TYPE_CHECKING:
    from engine.bots import Search

# Playouts of the hard level's search per slice of the main thread (each is a fraction of a ms).
SEARCH_SLICE = 12

# A screen reader's default speaking rate, about 180 words a minute: some 18 characters of Spanish a second.
SPEECH_MS_PER_CHAR = 55
# The paces that wait for each sentence to be said; «Rápido» is for those who read along and want it fast.
SPEECH_PACES: frozenset[Pace] = frozenset({"pausado", "normal"})


def speech_gap(sentence: str, pace: str) -> int:
    """How long ``sentence``, just put on the status line, needs to be said before the next one may come.

    At three players «CPU 1 …» and «CPU 2 …» used to arrive 0.7 s apart at «Normal», faster than
    they can be spoken: the next CPU action now waits at least this long (reduced motion says the
    whole round in one sentence instead, and «Rápido» does not wait).
    """
    return len(sentence.strip()) * SPEECH_MS_PER_CHAR if pace in SPEECH_PACES else 0


class Thinking:
    """One CPU decision at a time; how long each took goes to :meth:`ui.screen.Screen.timing`."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.search: Search | None = None
        self.key = (-1, -1)
        self.ms = 0.0

    def decide(self, game: Game, level: str, generation: int) -> Action | None:
        """The action of the seat on turn, or None while the hard level's search needs another slice.

        The search is sliced, each slice a few milliseconds, so the page never
        freezes while it thinks; the answer is the same as in one go.
        """
        from engine.bots import DificilBot, make_level_bot  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

        seat = game.turn
        started = time.perf_counter()
        bot = make_level_bot(level)
        if not isinstance(bot, DificilBot):
            action = bot.choose(seat_view(game, seat))
            self.screen.timing((time.perf_counter() - started) * 1000)
            return action
        key = (generation, len(game.history))
        if self.search is None or self.key != key:
            self.search, self.key = bot.start(seat_view(game, seat)), key
            self.ms = 0.0
        chosen = self.search.step(SEARCH_SLICE)
        self.ms += (time.perf_counter() - started) * 1000
        if chosen is not None:
            self.search = None
            self.screen.timing(self.ms)
            self.ms = 0.0
        return chosen
