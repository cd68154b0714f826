#!/usr/bin/env python3
"""Take the README's pictures of the table: ``docs/mesa-<W>x<H>.png`` and ``…-final.png``.

Usage::

    .venv/bin/python -m tools.screenshots [--site _site] [--out docs]

Builds the site (unless ``--site`` names a built one), serves it on loopback and
drives the system Chromium through Playwright: at 1280×800 a 1 contra 1 game in
play, at 390×844 a 3 en la mesa game in play, and at both sizes the panel at the
end of a game. Every picture comes from a fixed code and a fixed series of moves,
so taking them again gives the same pictures when the page has not changed.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, Game
from tools import build as site_build
from tools import chromium, serve
from ui.storage import Store

ROOT = Path(__file__).resolve().parent.parent
SAVE_KEY = "ocho-loco:partida"
SIZES = {"1280x800": (1280, 800), "390x844": (390, 844)}
PLAYING_CODES = {2: "A2K7-QM92", 3: "A3K7-QM94"}
DIGITS = str.maketrans("0123456789", "23456789AB")  # a game code's body has no 0 or 1


def last_card_ends_the_game(players: int) -> Game:
    """A real game where your one card fits and a CPU has 95 or more: playing it ends the game."""
    for i in range(5000):
        body = f"{i:05d}".translate(DIGITS)
        game = Game.new(GameCode.build(players, body))
        rng = random.Random(i)
        for _ in range(3000):
            if game.phase == GAME_OVER:
                break
            if game.phase == HAND_OVER:
                game.next_hand()
                continue
            last = game.turn == 0 and len(game.hands[0]) == 1 and bool(game.legal_cards())
            if last and max(game.totals[1:]) >= 95:
                return game
            legal = game.legal_actions()
            plays = [a for a in legal if a.card is not None]
            game.apply(rng.choice(plays) if plays and rng.random() < 0.7 else legal[-1])
    raise SystemExit("no game ending position found")


def shoot(site: Path, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 (a dev tool's dependency, not the build's)

    server, url = serve.start_background(site, prefix="/")
    taken: list[Path] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium.find(), args=chromium.ARGS)
            for name, (width, height) in SIZES.items():
                players = 2 if width > 600 else 3
                ctx = browser.new_context(
                    locale="es-ES",
                    viewport={"width": width, "height": height},
                    reduced_motion="reduce",
                )
                page = ctx.new_page()
                code = PLAYING_CODES[players]
                page.goto(f"{url}#partida={code}&mesa={players}")
                page.wait_for_function("() => document.body.dataset.state === 'human'", timeout=120_000)
                page.evaluate("() => document.getElementById('notice').replaceChildren()")
                page.evaluate("() => document.querySelector('.felt').scrollIntoView({block: 'end'})")
                taken.append(out / f"mesa-{name}.png")
                page.screenshot(path=str(taken[-1]))

                game = last_card_ends_the_game(players)
                page.evaluate(
                    "([key, value]) => { localStorage.clear(); localStorage.setItem(key, value); }",
                    [SAVE_KEY, Store.payload(game, chooser=None)],
                )
                page.goto(url)
                page.wait_for_function("() => document.body.dataset.state === 'human'", timeout=120_000)
                page.click(f'#hand button.card[data-card="{game.hands[0][0]}"]')
                page.wait_for_function("() => document.activeElement.id === 'final-btn'")
                page.click("#final-btn")  # «Ver el final»: the end of the game, its own panel
                page.wait_for_function("() => document.activeElement.id === 'gameover-title'")
                taken.append(out / f"mesa-{name}-final.png")
                page.screenshot(path=str(taken[-1]))
                ctx.close()
            browser.close()
    finally:
        server.shutdown()
    return taken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Take the README's pictures of the table.")
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or site_build.build(Path(tmp) / "_site", root=ROOT, quiet=True).out
        for path in shoot(site, args.out):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
