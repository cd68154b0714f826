"""«Partida del día»: the same deal for everyone on a day, by the device's date (:mod:`engine.daily`)."""

from __future__ import annotations

from collections.abc import Callable

from engine.daily import daily_code
from engine.game import GAME_OVER

from . import history_html, render
from .host import Host, LinkGame


def daily_note(today: str) -> str:
    """The line under «Partida del día»: what it is, in a player's words (its codes are in «Tus partidas»)."""
    return (
        f"Hoy, {history_html.day_words(today)}, todo el mundo juega el mismo reparto: compara tus puntos "
        "con quien quieras. Mañana, otro."
    )


class Daily:
    """Deals the day's game for the table size chosen, asking first if a game is under way."""

    def __init__(self, host: Host, redraw: Callable[[], None]) -> None:
        self.host = host
        self.redraw = redraw  # «Tus partidas» and today's codes, drawn again

    def request(self, players: int) -> None:
        """«Partida del día»: today's code for the chosen table, asking first if a game is under way."""
        host = self.host
        code = daily_code(host.today(), 3 if players == 3 else 2)
        self.redraw()  # the page may have stayed open past midnight
        game = host.game
        if game is not None and game.code == code and game.phase != GAME_OVER:
            host.screen.status("Ya estás jugando la partida del día. " + render.turn_prompt(host.view()))
            return
        if game is None or game.phase == GAME_OVER:
            host.new_game(code=code)
            return
        host.ask_replace(
            "Tienes una partida a medias. ¿Empiezas la partida del día?",
            "Jugar la del día",
            render.LEFT_GAME,
            LinkGame(code),
        )
