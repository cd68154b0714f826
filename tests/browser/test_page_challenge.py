"""A challenge link on the real page: its CPU moves are checked in slices, with progress, before it shows.

Records are fixed: the golden games of ``tests/golden/records.json`` and the
issue's forgery of A2K7-QM92 (the person plays well, the CPU draws whenever
it may), built with the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import wait_for_python
from helpers import raw_save, wait_state

from engine.actions import DRAW
from engine.bots import CpuBot
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, Game
from engine.record import Record
from engine.stats import outcome
from ui.links import challenge_hash

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "records.json"
REFUSAL = "El reto no cuadra: la CPU no jugó así"
FORGED_CODE = GameCode.parse("A2K7QM92")

# Every text the status line shows, kept in window.__statuses (the checks' progress is brief).
WATCH_STATUS = """
document.addEventListener("DOMContentLoaded", () => {
  window.__statuses = [];
  const status = document.getElementById("status");
  if (!status) return;
  new MutationObserver(() => window.__statuses.push(status.textContent)).observe(
    status, {childList: true, characterData: true, subtree: true});
});
"""


def forged(code: GameCode) -> Record:
    game = Game.new(code)
    person = CpuBot()
    while game.phase != GAME_OVER:
        if game.phase == HAND_OVER:
            game.next_hand()
            continue
        legal = game.legal_actions()
        game.apply(person.choose(game.view(0)) if game.turn == 0 else DRAW if DRAW in legal else legal[0])
    return game.record()


def golden(key: str, players: int) -> Record:
    texts = json.loads(GOLDEN.read_text(encoding="utf-8"))[key]
    return next(r for r in map(Record.parse, texts) if r.code.players == players)


def test_forged_challenge_link_is_refused_because_the_cpu_did_not_play_so(fast_page, site_url) -> None:
    record = forged(FORGED_CODE)
    total = outcome(record).total
    fast_page.goto(site_url + challenge_hash(str(record), total, "Tramposo"))
    wait_for_python(fast_page)
    fast_page.wait_for_function(
        "(text) => document.getElementById('notice').innerText.includes(text)", arg=REFUSAL
    )
    assert wait_state(fast_page, "setup") == "setup", FORGED_CODE.pretty()
    assert not fast_page.locator("#challenge-banner").is_visible(), FORGED_CODE.pretty()
    assert "Tramposo" not in fast_page.inner_text("body"), FORGED_CODE.pretty()
    assert raw_save(fast_page) is None, FORGED_CODE.pretty()


def test_a_difficult_challenge_shows_progress_then_the_challenge(fast_page, site_url) -> None:
    record = golden("dificil1", 2)
    total = outcome(record).total
    fast_page.add_init_script(WATCH_STATUS)
    fast_page.goto(site_url + challenge_hash(str(record), total, "Ana"))
    wait_for_python(fast_page)
    banner = fast_page.locator("#challenge-banner")
    fast_page.wait_for_function("() => !document.getElementById('challenge-banner').hidden", timeout=180_000)
    assert banner.inner_text() == f"Te reta Ana: {total} puntos con este reparto.", record.code.pretty()
    assert wait_state(fast_page, "human", "cpu") in ("human", "cpu")
    assert fast_page.inner_text("#game-code") == record.code.pretty()
    statuses = fast_page.evaluate("() => window.__statuses")
    progress = [s for s in statuses if s.startswith("Comprobando el reto…")]
    assert progress and progress[0] == "Comprobando el reto… 0 %", (record.code.pretty(), statuses[:5])
    assert any(s.endswith(("10 %", "20 %", "30 %", "40 %", "50 %")) for s in progress), progress
