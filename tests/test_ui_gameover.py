"""The end of a game on the fake screen: the last hand's count, then its own panel (issue 36)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from fake_screen import make_table, plain, play_to_the_end, press

from ui.render_gameover import best_and_worst, verdict
from ui.results import race_of

ROOT = Path(__file__).resolve().parents[1]


class Buttons(HTMLParser):
    """The buttons inside index.html's end-of-game panel: id, text, and whether hidden."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # inside #gameover-dialog while > 0
        self.buttons: dict[str, tuple[str, bool]] = {}
        self.current: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "dialog" and found.get("id") == "gameover-dialog":
            self.depth = 1
        elif self.depth and tag == "button":
            self.current = found.get("id") or ""
            self.buttons[self.current] = ("", "hidden" in found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "dialog":
            self.depth = 0
        if tag == "button":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current is not None:
            text, hidden = self.buttons[self.current]
            self.buttons[self.current] = (text + data, hidden)


def test_the_end_of_a_game_is_its_own_panel_after_the_last_count() -> None:
    table, screen, _ = make_table(fast=False)
    table.request_deal(3)
    play_to_the_end(table, screen)
    game = table.game
    assert game is not None and game.result is not None and screen.body == "gameover"
    # The last hand is counted card by card, as every hand; «Saltar la cuenta» still shows it whole.
    assert screen.is_open("results-dialog") and not screen.is_open("gameover-dialog")
    assert screen.focused == "results-skip"
    press(table, "results-skip")
    assert screen.get_attr("final-btn", "hidden") is None and screen.focused == "final-btn"
    assert screen.get_attr("next-hand-btn", "hidden") == ""
    press(table, "final-btn", by_key=True)  # the key that skipped the count does not press it too
    assert not screen.is_open("gameover-dialog")
    press(table, "final-btn")
    assert not screen.is_open("results-dialog") and screen.is_open("gameover-dialog")
    assert screen.focused == "gameover-title", "the focus goes to the verdict"
    table.results.dismissed()  # the results panel's close event, just after: it stays closed
    assert not screen.is_open("results-dialog")

    # The verdict, the standings, the race and your best and worst hand.
    winners = game.result.winners
    assert screen.texts["gameover-title"] == verdict(winners)
    assert screen.get_attr("gameover-dialog", "data-outcome") in ("won", "lost", "shared")
    body = screen.htmls["gameover-body"]
    order = sorted(range(3), key=lambda s: (game.totals[s], s))
    assert re.findall(r'<li data-seat="(\d)"', body) == [str(s) for s in order]
    race = race_of(game)
    assert race.final == tuple(game.totals) and len(race.after) == game.hand_no + 1
    assert race.first == 0 and race.start == (0, 0, 0)
    assert len(re.findall(r'<polyline class="race-line"', body)) == 3, "one line a player"
    assert "<table" in body and 'role="img"' in body
    for line in best_and_worst(race):
        assert line in plain(body)
    assert "Tu mejor mano" in plain(body) or "Solo se jugó una mano" in plain(body)
    assert screen.texts["results-record"].startswith("Esta partida ya está en «Tus partidas»")

    # «Nueva partida», «Ver la mano» and «Retar a alguien», each in the panel and shown.
    parser = Buttons()
    parser.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    for ident, text in (
        ("new-game-btn", "Nueva partida"),
        ("gameover-replay-btn", "Ver la mano"),
        ("gameover-challenge-btn", "Retar a alguien"),
    ):
        assert parser.buttons[ident] == (text, False), ident
        assert screen.get_attr(ident, "hidden") is None, ident
    # «Retar a alguien» opens its form without leaving the panel.
    assert screen.get_attr("challenge-box", "hidden") == ""
    press(table, "gameover-challenge-btn")
    assert screen.get_attr("challenge-box", "hidden") is None
    assert screen.get_attr("gameover-challenge-btn", "aria-expanded") == "true"
    assert screen.focused == "challenge-name" and screen.is_open("gameover-dialog")
    # «Ver la mano» replays the last hand and comes back to the end of the game.
    press(table, "gameover-replay-btn")
    assert screen.body == "replay" and screen.is_open("replay-dialog")
    assert screen.texts["replay-close"] == "Volver al final"
    press(table, "replay-close")
    assert screen.body == "gameover" and screen.is_open("gameover-dialog")
    assert screen.focused == "gameover-replay-btn" and not screen.is_open("results-dialog")
    # Escape twice closes the panel in the browser: it comes back, it is the way on.
    screen.dialogs["gameover-dialog"] = False
    table.results.final_dismissed()
    assert screen.is_open("gameover-dialog")
    # «Nueva partida» deals the next game.
    code = game.code
    press(table, "new-game-btn")
    assert table.game is not None and table.game.code != code and table.game.players == 3
    assert not screen.is_open("gameover-dialog")


def test_a_finished_game_reopens_at_its_end() -> None:
    table, screen, backend = make_table()
    table.request_deal(2)
    play_to_the_end(table, screen)
    screen.run_timers()
    again, screen2, _ = make_table(backend)
    assert screen2.body == "gameover"
    assert screen2.is_open("gameover-dialog") and not screen2.is_open("results-dialog")
    assert screen2.focused == "gameover-title"
    assert (
        again.game is not None and len(re.findall(r'class="race-line"', screen2.htmls["gameover-body"])) == 2
    )
