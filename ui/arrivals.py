"""What the address brings: a game's link or a challenge's, at start-up or pasted later; and «Copiar enlace».

A link's game opens from its first hand, asking first when it would replace
a game under way; a challenge goes to :mod:`ui.challenges` to be checked.
"""

from __future__ import annotations

from engine.challenge import Challenge
from engine.codes import GameCode
from engine.game import GAME_OVER

from . import render
from .challenges import Challenges
from .host import Host, LinkGame
from .links import link_hash, read_hash, share_url
from .outside import SOURCE_LINK, Refused, take

# Said first on the status line when a link's game starts here: a link carries the deal, never the moves
# played. In the line the table speaks in, never in a notice over the table (it hid the seats).
LINK_ORIGIN = "Reparto del enlace"


class Arrivals:
    """Links opened on the table (a challenge's are handed to ``challenges``)."""

    def __init__(self, host: Host, challenges: Challenges) -> None:
        self.host = host
        self.challenges = challenges

    def read(self, fragment: str, notices: list[str]) -> tuple[Challenge | None, GameCode | None]:
        """The challenge and the game code in the hash (either may be None); refusals go to ``notices``."""
        challenge = self.challenges.read(fragment, notices)
        try:
            return challenge, take(SOURCE_LINK, fragment, read_hash)
        except Refused as err:
            notices.append(str(err))
            return challenge, None

    def open(self, fragment: str) -> None:
        """A new hash while the page is open (a pasted link): like opening it fresh."""
        host = self.host
        notices: list[str] = []
        challenge = self.challenges.read(fragment, notices)
        if challenge is not None or notices:
            host.screen.notice(" ".join(notices) if notices else None)
            host.show_aside()
            if challenge is not None:
                self.challenges.follow(challenge)
            else:
                self._hash_of_the_table()
            return
        try:
            link = take(SOURCE_LINK, fragment, read_hash)
        except Refused as err:
            host.screen.notice(str(err))
            self._hash_of_the_table()
            return
        game = host.game
        if link is None or (game is not None and link.text == game.code.text):
            return
        host.screen.notice(None)
        self.follow(link)

    def _hash_of_the_table(self) -> None:
        game = self.host.game
        self.host.screen.set_hash(link_hash(game.code) if game is not None else "")

    def follow(self, link: GameCode) -> None:
        """Open the linked game, asking first when an unfinished game would be replaced."""
        host, game = self.host, self.host.game
        if host.store.kept_bad:
            host.ask_replace(
                "La partida guardada no se puede abrir y no cabe aparte. "
                "¿La borras para jugar la del enlace?",
                "Borrarla y jugar la del enlace",
                "Si la borras, esa partida guardada se pierde.",
                LinkGame(link),
            )
            return
        if game is None or game.phase == GAME_OVER:
            host.new_game(code=link, origin=LINK_ORIGIN)
            if game is None and host.store.notice:
                host.screen.notice(host.store.notice)  # a problem with the storage itself is said
            return
        host.ask_replace(
            "Tienes una partida a medias. ¿La cambias por la del enlace?",
            "Jugar la del enlace",
            render.LEFT_GAME,
            LinkGame(link),
        )

    def copy(self) -> None:
        """«Copiar enlace»: the link to the game on the table."""
        game = self.host.game
        if game is None:
            return
        url = share_url(self.host.page_url, game.code)
        self.host.screen.copy_text(url)
        self.host.screen.status("Enlace copiado: " + url)
