"""engine/bots as a package: the names it always offered, one job a module, nothing research-only shipped."""

from __future__ import annotations

import ast
from pathlib import Path

from support import code_nodes

import engine.bots
from engine.actions import Action
from engine.bots import CpuParams, HandReader, read_history, rules_of
from engine.bots.cpu import FITS, cpu_card, cpu_move
from engine.game import Game
from engine.view import seat_view

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "engine" / "bots"

# Every name other modules import from engine.bots (before it was a package, and since).
NAMES = [
    "BOT_NAMES",
    "DIFICIL_PARAMS",
    "RANK_CARDS",
    "SUIT_CARDS",
    "BasicBot",
    "Bot",
    "Check",
    "CpuBot",
    "CpuParams",
    "DificilBot",
    "DificilParams",
    "Evidence",
    "FacilBot",
    "FacilParams",
    "RandomBot",
    "Reading",
    "Search",
    "candidates",
    "cpu_move",
    "decision_rng",
    "make_bot",
    "make_level_bot",
    "playout",
    "playout_worth",
    "read_evidence",
    "read_history",
    "sample_world",
    "move_of",
    "same_move",
    "HandReader",
    "CpuRules",
    "rules_of",
    "cpu_card",
    "cpu_suit",
    "cpu_play",
    "DRAW_MOVE",
    "PASS_MOVE",
]


def test_the_package_offers_every_name_the_module_did() -> None:
    missing = [name for name in NAMES if not hasattr(engine.bots, name)]
    assert not missing, missing
    assert set(NAMES) <= set(engine.bots.__all__)


def test_each_bots_module_does_one_job_in_under_600_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.glob("*.py")}
    assert set(sizes) == {"__init__.py", "simple.py", "cpu.py", "playout.py", "evidence.py", "search.py"}
    assert max(sizes.values()) <= 600, sizes


def test_research_valuation_is_not_shipped() -> None:
    for path in (ROOT / "engine").rglob("*.py"):
        names = {node.name for node in code_nodes(path) if isinstance(node, ast.FunctionDef | ast.ClassDef)}
        assert not names & {"game_value", "_lead", "GameGaps"}, path
        assert "game_scale" not in path.read_text(encoding="utf-8"), path
    assert "game_scale" not in {f.name for f in engine.bots.DificilParams.__dataclass_fields__.values()}


def test_the_playout_and_the_evidence_call_the_one_copy_of_the_rules() -> None:
    # The rules' weights appear only in cpu.py: the playout and the evidence read them from CpuRules.
    for name in ("playout.py", "evidence.py", "search.py"):
        text = (PACKAGE / name).read_text(encoding="utf-8")
        for word in ("w_suit", "w_points", "0.2 *", "0.5 **", "threat <= 1", "threat > 1"):
            assert word not in text, (name, word)


def test_the_hand_reader_reads_what_read_history_reports() -> None:
    game = Game.new("A2K7QM92")
    reader = HandReader(2)
    assert not reader.reading().known  # nothing played yet: a draw says nothing
    for word in ("10D", "draw"):
        game.apply(Action.parse(word))
    for seat, action, reshuffled in seat_view(game, 0).history:
        reader.note(seat, action, reshuffled)
    reading = reader.reading()
    assert reading == read_history(seat_view(game, 0)) and reading.known
    assert reading.short[1][2] == 1  # seat 1 drew on diamonds: none then, one card drawn since


def test_the_rules_are_made_once_per_params() -> None:
    assert rules_of(CpuParams()) is rules_of(CpuParams())
    slow = rules_of(CpuParams(decay=0.9))
    assert slow.lack[3] == 0.9**2 and slow.certainty(None) == 0.0 and slow.certainty(100) == 0.9**99


def test_the_cpu_danger_setting_changes_what_it_sheds() -> None:
    # On the king of spades with KH 2S 3S 4S 5S and an opponent at two cards: the default cpu
    # keeps its spades together (5S); with danger 2 it sheds its costliest card (KH) first.
    hand = [25, 1, 2, 3, 4]
    fit = FITS[12 * 4 + 0]
    none = (None,) * 4
    assert cpu_card(hand, fit, 2, none, rules_of(CpuParams())) == 4
    assert cpu_card(hand, fit, 2, none, rules_of(CpuParams(danger=2))) == 25
    assert cpu_move(hand, 13, 0, 2, none, params=CpuParams(danger=2)) == (25, -1)
