"""The CPU seats' decisions on the page: the hard level's search runs in slices of the main thread."""

from __future__ import annotations

import time

from engine.actions import Action
from engine.bots import DificilBot, Search, make_level_bot
from engine.game import Game
from engine.view import seat_view

from .screen import Screen

# Playouts of the hard level's search per slice of the main thread (each is a fraction of a ms).
SEARCH_SLICE = 12


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
