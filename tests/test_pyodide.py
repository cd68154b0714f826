"""The engine inside the real browser runtime: Pyodide (Python 3.14) under Node.js.

The same script runs under CPython and under Pyodide (through
``tools/pyodide_run.mjs``, which copies ``engine/`` into Pyodide's file
system); both must print the same JSON summary of whole games, and the first
deals must equal ``tests/golden/deals.json``. Skipped only when ``node`` or
``node_modules/pyodide`` is missing (``npm ci`` installs it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tools" / "pyodide_run.mjs"
GOLDEN = Path(__file__).parent / "golden" / "deals.json"

# Without Node.js or Pyodide's files these fail under CI and skip loudly elsewhere (tests/conftest.py).
pytestmark = pytest.mark.pyodide

# Runs unchanged on both interpreters; prints one JSON object.
SCRIPT = r"""
import doctest
import json
import sys

import engine
from engine import cards, codes, actions, game as game_mod, names, save, view
from engine.codes import GameCode, reshuffle_rng, shuffled, stream
from engine.game import Game, MAX_ACTIONS_PER_HAND, deal_order

CODES = [GameCode.build(2, "K7QM9"), GameCode.build(3, "K7QM9"), GameCode.build(2, "HXB4R"),
         GameCode.build(3, "P9T3W")]
GOLDEN_CODES = [GameCode.build(p, b) for p, b in
                ((2, "K7QM9"), (3, "K7QM9"), (2, "22222"), (3, "ZZZZZ"), (2, "HXB4R"), (3, "P9T3W"))]
TEXT = cards.TEXT


def golden():
    rng = stream("golden", 0)
    out = {"stream_golden_0": [rng.random() for _ in range(3)], "codes": {}}
    for code in GOLDEN_CODES:
        g = Game.new(code)
        out["codes"][code.text] = {
            "hands": [[TEXT[c] for c in h] for h in g.hands],
            "top": TEXT[g.top],
            "stock_top_first": [TEXT[c] for c in reversed(g.stock)],
            "hand_1_order": [TEXT[c] for c in deal_order(code, 1)],
            "hand_0_reshuffle_1_of_full_deck": [
                TEXT[c] for c in shuffled(cards.CARDS, reshuffle_rng(code, 0, 1))],
        }
    return out


def play(code, choose):
    g = Game.new(code)
    log = []
    while g.phase != "game_over":
        if g.phase == "hand_over":
            log.append("|")
            g.next_hand()
            continue
        if g.actions_this_hand > MAX_ACTIONS_PER_HAND:
            raise SystemExit("a hand did not end")
        action = choose(g)
        g.apply(action)
        log.append(action.text)
    return {"code": code.text, "actions": " ".join(log), "totals": g.totals,
            "winners": list(g.winners), "hands": g.hand_no + 1, "save": save.dump(g)}


def first_legal(g):
    return g.legal_actions()[0]


def seeded(code):
    rng = stream("pyodide-test", code.text)
    return lambda g: (lambda legal: legal[int(rng.random() * len(legal))])(g.legal_actions())


games = []
for code in CODES:
    games.append(play(code, first_legal))
    games.append(play(code, seeded(code)))
try:
    from engine.bots import make_bot
except ImportError:
    pass
else:
    for code in CODES:
        bots = [make_bot("cpu")] + [make_bot("random", (code.text, s)) for s in range(1, code.players)]
        games.append(play(code, lambda g: bots[g.turn].choose(view.seat_view(g, g.turn))))
    # The levels draw from generators seeded by the position: the same moves on both runtimes.
    for code in CODES[:2]:
        bots = [make_bot("dificil"), make_bot("facil"), make_bot("cpu")][: code.players]
        games.append(play(code, lambda g: bots[g.turn].choose(view.seat_view(g, g.turn))))

failed = 0
for module in (cards, codes, actions, game_mod, names, save, view):
    failed += doctest.testmod(module).failed

print(json.dumps({
    "python": list(sys.version_info[:2]),
    "games": games,
    "golden": golden(),
    "doctest_failures": failed,
}, sort_keys=True))
"""


def run(where: str, tmp: str) -> dict[str, Any]:
    script = Path(tmp) / "pyodide_summary.py"
    script.write_text(SCRIPT, encoding="utf-8")
    command = ["node", str(RUNNER), str(script)] if where == "pyodide" else [sys.executable, str(script)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env, check=False
    )
    assert done.returncode == 0, f"{where} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def summaries(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    tmp = str(tmp_path_factory.mktemp("pyodide"))
    return run("cpython", tmp), run("pyodide", tmp)


def test_the_runner_reports_what_the_script_prints_and_how_it_fails(tmp_path: Path) -> None:
    """Output goes through unchanged and a failure is an exit status, so a broken run never passes."""
    script = tmp_path / "fails.py"
    lines = ["import sys", "print('python', *sys.version_info[:2])", "raise ValueError('on purpose')"]
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(
        ["node", str(RUNNER), str(script)], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stdout.strip() == "python 3 14"
    assert "ValueError: on purpose" in done.stderr


def test_pyodide_runs_python_3_14(summaries: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, pyodide = summaries
    assert pyodide["python"] == [3, 14]


def test_whole_games_play_out_the_same_in_pyodide_and_cpython(
    summaries: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    cpython, pyodide = summaries
    assert len(cpython["games"]) >= 8
    for ours, theirs in zip(cpython["games"], pyodide["games"], strict=True):
        assert ours["code"] == theirs["code"]
        assert ours["actions"] == theirs["actions"], f"game {ours['code']} diverged"
        assert ours["totals"] == theirs["totals"] and ours["winners"] == theirs["winners"]
        assert ours["save"] == theirs["save"]
        assert max(ours["totals"]) >= 100 and ours["winners"]
    assert cpython == {**pyodide, "python": cpython["python"]}


def test_pyodide_deals_match_the_golden_file(summaries: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, pyodide = summaries
    assert pyodide["golden"] == json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_engine_doctests_pass_in_pyodide(summaries: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cpython, pyodide = summaries
    assert cpython["doctest_failures"] == 0 and pyodide["doctest_failures"] == 0
