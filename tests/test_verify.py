"""Every CPU move of a record is the move its level's CPU plays (engine.verify), levels declared once.

Golden records (``tests/golden/records.json``, made by ``python -m
lab.make_golden_records``) pin one whole game per level, version and table
size: the check accepts each and refuses any single CPU move changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.actions import DRAW, Action
from engine.bots import DIFICIL_PARAMS, CpuBot, DificilBot, FacilBot, make_level_bot
from engine.cards import TEXT
from engine.challenge import ChallengeError, reverify, verify
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, Game
from engine.levels import LEVELS, by_letter, level
from engine.record import Record, RecordError
from engine.stats import outcome
from engine.verify import MESSAGE, NotPlayedByCpu, check, check_steps, level_bot
from engine.view import seat_view

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden" / "records.json"
RUNNER = ROOT / "tools" / "pyodide_run.mjs"


@cache
def golden() -> dict[str, tuple[Record, ...]]:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return {key: tuple(Record.parse(t) for t in texts) for key, texts in data.items()}


def golden_records(*levels: str) -> list[Record]:
    return [r for key, records in golden().items() for r in records if key.rstrip("0123456789") in levels]


def cpu_decisions(record: Record) -> list[tuple[int, Action]]:
    """Each CPU decision with a choice (index, another legal move than the record's)."""
    out = []
    for index, game in record.positions():
        legal = game.legal_actions()
        if game.turn != 0 and len(legal) > 1:
            out.append((index, next(a for a in legal if a != record.moves[index])))
        record.play(game, index)
    return out


def changed(record: Record, index: int, action: Action) -> Record:
    """The record up to move ``index``, with that move replaced by ``action``."""
    return Record(record.code, (*record.moves[:index], action), record.level, version=record.version)


def forged(code: GameCode, level_name: str = "normal") -> Record:
    """The person plays well (the Normal CPU's rules); every CPU seat draws whenever it may."""
    game = Game.new(code)
    person = CpuBot()
    while game.phase != GAME_OVER:
        if game.phase == HAND_OVER:
            game.next_hand()
            continue
        legal = game.legal_actions()
        if game.turn == 0:
            game.apply(person.choose(seat_view(game, 0)))
        else:
            game.apply(DRAW if DRAW in legal else legal[0])
    return Record.of(game, level_name)


# -- the levels, declared once ----------------------------------------------------------------


def test_each_level_is_declared_once_with_name_label_letter_bot_and_version() -> None:
    assert [(lv.name, lv.label, lv.letter, lv.bot) for lv in LEVELS] == [
        ("facil", "Fácil", "f", "facil"),
        ("normal", "Normal", "n", "cpu"),
        ("dificil", "Difícil", "d", "dificil"),
    ]
    assert all(by_letter(lv.letter) is lv and level(lv.name) is lv for lv in LEVELS)
    assert all(lv.current >= 1 for lv in LEVELS)


@pytest.mark.parametrize("lv", LEVELS, ids=lambda lv: lv.name)
def test_every_version_names_every_setting_of_its_bot(lv: Any) -> None:
    """No default of engine.bots leaks into a shipped version: a changed default cannot change it."""
    for version in range(1, lv.current + 1):
        for players in (2, 3):
            bot = level_bot(lv.name, version, players)
            params = bot.params
            assert set(lv.settings(version, players)) == {f.name for f in fields(params)}


def test_the_current_version_is_what_the_page_plays() -> None:
    """make_level_bot (the page's CPU) plays the current version: a change to it needs a new version."""
    for lv in LEVELS:
        page = make_level_bot(lv.name)
        for players in (2, 3):
            ours = level_bot(lv.name, 0, players)
            assert type(ours) is type(page)
            if isinstance(page, DificilBot):
                assert isinstance(ours, DificilBot) and ours.params == DIFICIL_PARAMS[players]
            else:
                assert isinstance(page, CpuBot | FacilBot) and isinstance(ours, CpuBot | FacilBot)
                assert ours.params == page.params


def test_the_page_names_levels_from_the_one_declaration() -> None:
    from ui import render, storage

    assert tuple(lv.name for lv in LEVELS) == storage.LEVELS
    assert {lv.name: lv.label for lv in LEVELS} == render.LEVEL_NAMES


# -- records name the CPU version ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "r1.A2K7QM92.n.RxA",  # the first form: version 1 implied
        "r2.A2K7QM92.n1.RxA",
        "r1.A2K7QM92.d.",
        "r2.A3K7QM94.f1.",
        "r1.A2K7QM92.n.RxA.2-0-1-3",
        "r2.A2K7QM92.d1.RxA.2-0-1-3",
    ],
)
def test_both_record_forms_round_trip(text: str) -> None:
    record = Record.parse(text)
    assert str(record) == text
    assert record.version == 1


def test_a_new_record_names_its_cpu_version_and_an_old_one_reads_as_version_1() -> None:
    game = Game.new("A2K7QM92")
    game.apply(Action.parse("10D"))
    new = Record.of(game, "dificil")
    assert str(new).startswith("r2.A2K7QM92.d1.")
    old = Record.parse(str(new).replace("r2.", "r1.").replace(".d1.", ".d."))
    assert old.version == 1 and old.legacy
    # Identity is code, level, version and moves, whatever the text form.
    assert old == new and hash(old) == hash(new) and old.identity == new.identity
    assert new.extends(old) and old.extends(new)
    assert str(old.added(DRAW)).startswith("r1.") and str(new.added(DRAW)).startswith("r2.")


@pytest.mark.parametrize(
    "text",
    [
        "r2.A2K7QM92.n.RxA",  # the second form needs a version
        "r2.A2K7QM92.n0.RxA",  # versions start at 1
        "r2.A2K7QM92.n01.RxA",  # not canonical
        "r2.A2K7QM92.n9.RxA",  # not shipped (yet)
        "r2.A2K7QM92.n².RxA",  # ASCII digits only
        "r2.A2K7QM92.n١.RxA",
        "r2.A2K7QM92.x1.RxA",
        "r1.A2K7QM92.n1.RxA",  # the first form has no version
        "r3.A2K7QM92.n1.RxA",
    ],
)
def test_a_record_with_a_bad_level_or_version_is_refused(text: str) -> None:
    with pytest.raises(RecordError):
        Record.parse(text)


# -- the CPU's moves are verified ---------------------------------------------------------------

# The reproduction and two other codes: the person plays well, the CPU draws whenever it may.
FORGERIES = [
    (GameCode.parse("A2K7QM92"), "normal"),
    (GameCode.build(2, "HXB4R"), "facil"),
    (GameCode.build(3, "P9T3W"), "dificil"),
]


@pytest.mark.parametrize(("code", "level_name"), FORGERIES, ids=str)
def test_a_challenge_where_the_cpu_did_not_play_its_own_moves_is_refused(
    code: GameCode, level_name: str
) -> None:
    record = forged(code, level_name)
    total = outcome(record).total
    assert outcome(record).won, f"{code.text}: the forgery should win for the person"
    record.replay()  # every move is legal: only the CPU check can refuse it
    with pytest.raises(ChallengeError, match=f"^{MESSAGE}\\.$") as err:
        verify(str(record), total, "Tramposo")
    assert isinstance(err.value.__cause__, NotPlayedByCpu)
    with pytest.raises(ChallengeError, match=MESSAGE):
        reverify(str(record), "Tramposo")
    with pytest.raises(NotPlayedByCpu, match=f"^{MESSAGE}$"):
        check(record)


def test_the_reproduction_forgery_ends_nil_to_hundreds() -> None:
    """A2K7-QM92: the forged game the issue describes, a clean sheet for the person."""
    totals = outcome(forged(GameCode.parse("A2K7QM92"))).totals
    assert totals[0] == 0 and totals[1] >= 100, totals


def name(record: Record) -> str:
    return f"{record.level}{record.version}-{record.code.players}p"


def golden_params() -> list[Any]:
    """Every golden record; the Difícil games (seconds of search each) only with the slow tests."""
    slow = [pytest.mark.slow]
    return [
        pytest.param(r, id=name(r), marks=slow if r.level == "dificil" else [])
        for records in golden().values()
        for r in records
    ]


@pytest.mark.parametrize("record", golden_params())
def test_golden_records_pass_the_check(record: Record) -> None:
    check(record)
    assert outcome(record).finished


def test_golden_records_cover_every_level_version_and_table() -> None:
    for lv in LEVELS:
        for version in range(1, lv.current + 1):
            records = golden()[f"{lv.name}{version}"]
            assert {r.code.players for r in records} == {2, 3}
            assert all(r.level == lv.name and r.version == version and r.verified for r in records)


@pytest.mark.parametrize("record", golden_records("facil", "normal"), ids=name)
def test_changing_any_single_cpu_move_is_refused(record: Record) -> None:
    decisions = cpu_decisions(record)
    assert decisions
    for index, other in decisions:
        with pytest.raises(NotPlayedByCpu) as err:
            check(changed(record, index, other))
        assert (err.value.index, err.value.played, err.value.expected) == (index, other, record.moves[index])


def refused_at(record: Record, picks: list[tuple[int, Action]]) -> None:
    for index, other in picks:
        with pytest.raises(NotPlayedByCpu) as err:
            check(changed(record, index, other))
        assert err.value.index == index, f"{record.code.text}: move {index}"


@pytest.mark.parametrize("record", golden_records("dificil"), ids=name)
def test_changing_a_difficult_cpu_move_is_refused(record: Record) -> None:
    refused_at(record, cpu_decisions(record)[:3])


@pytest.mark.slow
@pytest.mark.parametrize("record", golden_records("dificil"), ids=name)
def test_changing_a_difficult_cpu_move_anywhere_is_refused(record: Record) -> None:
    decisions = cpu_decisions(record)
    refused_at(record, decisions[3 :: max(len(decisions) // 8, 1)] + decisions[-1:])


def test_a_changed_cpu_move_in_a_whole_record_is_refused_one_way_or_another() -> None:
    """The moves after a changed one may no longer be legal: the rules refuse those first."""
    record = golden()["normal1"][0]
    index, other = cpu_decisions(record)[3]
    whole = Record(record.code, (*record.moves[:index], other, *record.moves[index + 1 :]), "normal")
    with pytest.raises((RecordError, NotPlayedByCpu)):
        check(whole)


def test_an_illegal_move_is_a_record_error_before_any_cpu_move_is_asked() -> None:
    record = golden()["normal1"][0]
    game = record.first_game()
    absent = next(c for c in range(52) if c not in game.hands[0])
    bad = Record(record.code, (Action.parse(TEXT[absent]), *record.moves[1:]))
    with pytest.raises(RecordError) as err:
        check(bad)
    assert err.value.index == 0


def test_a_record_is_checked_with_the_settings_of_its_own_version() -> None:
    """The bot a record names is built from that version's settings, not today's defaults."""
    record = golden()["dificil1"][1]
    bot = level_bot(record.level, record.version, record.code.players)
    assert isinstance(bot, DificilBot) and bot.params is not None and bot.params.playouts == 600


@pytest.mark.slow  # about 1-2 s: the full run's, not the edit loop's
def test_check_steps_yield_progress_in_small_steps_up_to_one() -> None:
    record = golden()["dificil1"][0]
    steps = list(check_steps(record))
    assert steps[-1] == 1.0
    assert all(0.0 <= f <= 1.0 for f in steps)
    assert steps == sorted(steps), "progress never goes back"
    # A Difícil decision is split: many more steps than decisions.
    assert len(steps) > 3 * len(cpu_decisions(record))


def test_the_doctest_game_of_the_challenge_module_still_verifies() -> None:
    from lab.simulate import run

    records: list[Record] = []
    run(2, ["cpu", "cpu"], 1, seed=7, records=records)
    assert verify(str(records[0]), outcome(records[0]).total, "Ana").name == "Ana"


# -- CPython and Pyodide agree -------------------------------------------------------------------

PYODIDE_SCRIPT = r"""
import hashlib
import json
import sys

from engine.record import Record, RecordError
from engine.verify import NotPlayedByCpu, check_steps
from engine.view import seat_view

out = []
for text in json.loads(sys.argv[1] if len(sys.argv) > 1 else open("/home/pyodide/records.json").read()):
    record = Record.parse(text)
    steps = []
    try:
        for fraction in check_steps(record):
            steps.append(fraction)
        result = "ok"
    except NotPlayedByCpu as err:
        result = f"cpu {err.index} {err.expected}"
    except RecordError as err:
        result = f"rules {err.index}"
    out.append([text[:24], result, len(steps), hashlib.sha256(repr(steps).encode()).hexdigest()])
print(json.dumps(out))
"""


@pytest.mark.pyodide
@pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir(),
    reason="needs node and node_modules/pyodide (npm ci)",
)
def test_cpython_and_pyodide_agree_on_the_check_of_the_golden_records(tmp_path: Path) -> None:
    texts = [str(r) for records in golden().values() for r in records]
    # And a forgery per golden game: its first CPU decision changed.
    for records in golden().values():
        for record in records:
            index, other = cpu_decisions(record)[0]
            texts.append(str(changed(record, index, other)))
    script = tmp_path / "check_golden.py"
    script.write_text(PYODIDE_SCRIPT, encoding="utf-8")
    arg = json.dumps(texts)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    results = []
    for command in ([sys.executable, str(script), arg], ["node", str(RUNNER), str(script), arg]):
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=900, env=env, check=False
        )
        assert done.returncode == 0, f"{command[0]} failed:\n{done.stderr[-4000:]}"
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    cpython, pyodide = results
    assert cpython == pyodide
    golden_count = sum(len(r) for r in golden().values())
    assert [r[1] for r in cpython[:golden_count]] == ["ok"] * golden_count
    assert all(r[1].startswith("cpu ") for r in cpython[golden_count:])


# -- the page: checked in slices, with progress -------------------------------------------------


def test_a_forged_challenge_link_is_refused_after_the_check() -> None:
    from fake_screen import make_table

    from ui.links import challenge_hash

    record = forged(GameCode.parse("A2K7QM92"))
    table, screen, _ = make_table(fragment=challenge_hash(str(record), outcome(record).total, "Tramposo"))
    assert screen.last_status.startswith("Comprobando el reto… 0 %")
    assert "challenge-banner" not in screen.texts
    screen.run_timers()
    notice = screen.last_notice or ""
    assert notice.startswith(f"{MESSAGE}."), f"A2K7QM92: {notice}"
    assert "Tramposo" not in notice and "challenge-banner" not in screen.texts
    assert table.game is None and table.challenges.challenge is None and screen.body == "setup"


@pytest.mark.slow  # about 1-2 s: the full run's, not the edit loop's
def test_a_difficult_challenge_is_checked_in_slices_with_progress_then_shown() -> None:
    from fake_screen import FakeScreen

    from ui.links import challenge_hash
    from ui.storage import MemoryBackend, Store
    from ui.table import Table

    record = golden()["dificil1"][0]
    screen = FakeScreen()
    table = Table(screen, Store(MemoryBackend()), fast=True)
    table.challenges.check_slice_ms = 0.0  # one step a slice: the same flow as the page's, counted not timed
    table.start(challenge_hash(str(record), outcome(record).total, "Ana"), "https://example.org/")
    assert table.game is None, "nothing is shown before the check ends"
    ran = screen.run_timers(limit=100_000)
    assert ran > len(cpu_decisions(record)), "a Difícil decision is checked over several slices"
    progress = [s for s in screen.statuses if s.startswith("Comprobando el reto…")]
    assert progress[0] == "Comprobando el reto… 0 %" and "Comprobando el reto… 50 %" in progress
    assert len(progress) <= 11, "said every 10 points, not every slice"
    assert table.game is not None and table.game.code == record.code and table.level == "dificil"
    assert screen.texts["challenge-banner"].startswith("Te reta Ana:")


def test_retar_refuses_a_game_whose_cpu_moves_are_not_the_cpus() -> None:
    from test_stats import won2
    from test_ui_history import finish

    record = won2()  # seat 1 played by the random bot, saved as a Normal game
    table, screen, _ = finish(record)
    table.challenges.link("Bea")
    assert screen.texts["challenge-status"].startswith("Comprobando la partida para el reto…")
    screen.run_timers()
    assert screen.copied == []
    assert screen.texts["challenge-status"].startswith(f"{MESSAGE}."), record.code.text


def test_a_kept_challenge_is_checked_again_after_a_reload_and_dropped_if_forged() -> None:
    from fake_screen import make_table
    from test_stats import lost2

    from ui.challenges import keep_challenge, kept_challenge
    from ui.links import challenge_hash

    honest = lost2()
    _table, screen, backend = make_table(fragment=challenge_hash(str(honest), outcome(honest).total, "Ana"))
    screen.run_timers()
    assert kept_challenge(backend) == (str(honest), "Ana")
    keep_challenge(backend, str(forged(honest.code)), "Ana")  # edited in storage by someone else
    table2, screen2, _ = make_table(backend)
    screen2.run_timers()
    assert table2.challenges.challenge is None and kept_challenge(backend) is None, honest.code.text
    assert "challenge-banner" not in screen2.texts  # never shown


def test_a_challenge_made_before_records_named_a_version_still_verifies() -> None:
    """The README's example link (an r1 record from an earlier page) reads as Normal version 1 and passes."""
    old = (
        "r1.A262Z4QN.n.EjEyBKePnYgOI_iRF6kFEiCw0SI7iQSJeIWiRIhKJEiRQoSJEAxIkSKbRpEUSIaTsWaxYfSsk7B5EEiIjprEiF"
        "SLNOwaCxQQjCPookSJFXnEh8k2ewokSJFOxIkSKaiRIg2JEiOohtHEiIFrJQ"
    )
    challenge = verify(old, "0", "Ana María")
    assert (challenge.record.version, challenge.record.legacy, challenge.total) == (1, True, 0)
    assert str(challenge.record) == old
