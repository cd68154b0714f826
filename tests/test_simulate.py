"""The simulator, its event log and the independent referee that checks the log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.bots import CpuBot
from lab import simulate
from lab.simulate import game_code, main, play_game, run
from tests import referee
from tests.referee import check_lines


def write_log(path: Path, players: int, bots: list[str], games: int, seed: object) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    run(players, bots, games, seed, log=records.append)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return records


def lines_of(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(r) for r in records]


@pytest.fixture(scope="module")
def log2() -> list[dict[str, Any]]:
    """Random bots draw a lot, so these games reshuffle the stock often."""
    records: list[dict[str, Any]] = []
    run(2, ["cpu", "random"], 3, 11, log=records.append)
    run(2, ["random", "random"], 1, 11, start=3, log=records.append)
    return records


@pytest.fixture(scope="module")
def log3() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    run(3, ["random", "cpu", "random"], 3, 12, log=records.append)
    return records


def test_tally_adds_up() -> None:
    tally = run(3, ["cpu", "random", "random"], 20, 5)
    assert tally.games == 20
    assert sum(tally.wins) >= 20  # a shared win counts for each winner
    assert tally.hands >= 20
    summary = tally.summary()
    for key in ("games", "hands", "actions", "wins", "mean_hand_penalty", "seconds", "hands_per_second"):
        assert key in summary


def test_same_seed_same_deals_whatever_the_bots() -> None:
    deals_a: list[dict[str, Any]] = []
    deals_b: list[dict[str, Any]] = []
    run(2, ["cpu", "random"], 4, "s", log=deals_a.append)
    run(2, ["random", "cpu"], 4, "s", log=deals_b.append)
    first_a = [r for r in deals_a if r["event"] == "deal" and r["hand"] == 0]
    first_b = [r for r in deals_b if r["event"] == "deal" and r["hand"] == 0]
    assert first_a == first_b
    assert [r["code"] for r in first_a] == [game_code(2, "s", i).text for i in range(4)]


def test_runs_replay_exactly() -> None:
    a = run(2, ["random", "random"], 5, 3)
    b = run(2, ["random", "random"], 5, 3)
    assert (a.wins, a.hands, a.actions, a.penalty) == (b.wins, b.hands, b.actions, b.penalty)


def test_log_shape(log2: list[dict[str, Any]]) -> None:
    events = [r["event"] for r in log2]
    assert events[0] == "deal"
    assert events.count("game_end") == 4
    assert "reshuffle" in events
    for i, rec in enumerate(log2):
        if rec["event"] == "reshuffle":
            after = log2[i + 1]
            assert after["event"] == "action" and after["action"] == "draw"
            assert after["card"] == rec["stock"][0]
        if rec["event"] == "action" and rec["action"] == "draw":
            assert "card" in rec


def test_referee_accepts_honest_logs(
    tmp_path: Path, log2: list[dict[str, Any]], log3: list[dict[str, Any]]
) -> None:
    for records in (log2, log3):
        report = check_lines(lines_of(records))
        assert report.ok, report.errors
        assert report.games == sum(r["event"] == "game_end" for r in records)


def test_referee_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.jsonl"
    assert main(["--players", "2", "--games", "3", "--seed", "4", "--log", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == 3
    assert referee.main([str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace('"action"', '"actoin"', 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert referee.main([str(path)]) == 1


def _tamper(records: list[dict[str, Any]], pick: Any, change: Any) -> list[str]:
    out = [dict(r) for r in records]
    index = next(i for i, r in enumerate(out) if pick(r))
    change(out, index)
    return lines_of(out)


def _caught(lines: list[str], fragment: str) -> None:
    report = check_lines(lines)
    assert not report.ok
    assert any(fragment in e for e in report.errors), report.errors


def test_referee_catches_an_illegal_play(log2: list[dict[str, Any]], log3: list[dict[str, Any]]) -> None:
    # The leader's first play: swap it for a card of the same hand that does not fit the top card.
    for records in (log2, log3):
        for i, deal in enumerate(records[:-1]):
            first = records[i + 1]
            if deal["event"] != "deal" or first["action"] != "play":
                continue
            top = deal["top"]
            misfits = [
                c
                for c in deal["hands"][deal["leader"]]
                if c[:-1] not in ("8", top[:-1]) and c[-1] != deal["active_suit"]
            ]
            if misfits:
                out = list(records)
                out[i + 1] = {**first, "card": misfits[0]}
                out[i + 1].pop("suit", None)
                _caught(lines_of(out), "does not follow")
                return
    raise AssertionError("no first play to tamper with")


def test_referee_catches_a_card_not_held(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        out[i] = {**out[i], "card": out[i - 1]["top"]}  # the turned-up card is on the pile, not in a hand

    def pick(r: dict[str, Any]) -> bool:
        return r["event"] == "action" and r["action"] == "play"

    out = [dict(r) for r in log2]
    index = next(i for i, r in enumerate(out) if pick(r) and out[i - 1]["event"] == "deal")
    change(out, index)
    _caught(lines_of(out), "does not hold")


def test_referee_catches_a_fourth_draw(log2: list[dict[str, Any]]) -> None:
    # A pass right after three draws by the same seat in the same hand becomes a fourth draw.
    out = [dict(r) for r in log2]
    moves = [r for r in out if r["event"] == "action"]

    def after_three_draws(n: int) -> bool:
        turn = [(r["seat"], r["hand"]) for r in moves[n - 3 : n + 1]]
        kinds = [r["action"] for r in moves[n - 3 : n + 1]]
        return n >= 3 and kinds == ["draw", "draw", "draw", "pass"] and len(set(turn)) == 1

    pass_after_three = next(r for n, r in enumerate(moves) if after_three_draws(n))
    pass_after_three.update(action="draw", card="AS")
    _caught(lines_of(out), "draw number 4 in one turn")


def test_referee_catches_a_wrong_drawn_card(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        out[i] = {**out[i], "card": "8S" if out[i]["card"] != "8S" else "8H"}

    _caught(
        _tamper(log2, lambda r: r["event"] == "action" and r["action"] == "draw", change), "top of the stock"
    )


def test_referee_catches_an_early_pass(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        out[i] = {
            "event": "action",
            "game": out[i]["game"],
            "hand": out[i]["hand"],
            "seat": out[i]["seat"],
            "action": "pass",
        }

    _caught(_tamper(log2, lambda r: r["event"] == "action" and r["action"] == "draw", change), "pass")


def test_referee_catches_a_missing_reshuffle(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        del out[i]

    _caught(_tamper(log2, lambda r: r["event"] == "reshuffle", change), "empty stock")


def _top_before(out: list[dict[str, Any]], i: int) -> str:
    """The top card of the pile just before record ``i`` (the last play, else the turned-up card)."""
    for rec in reversed(out[:i]):
        if rec["event"] == "action" and rec["action"] == "play":
            return str(rec["card"])
        if rec["event"] == "deal":
            return str(rec["top"])
    raise AssertionError("no deal before the record")


def test_referee_catches_a_reshuffle_that_takes_the_top(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        out[i] = {**out[i], "stock": [*out[i]["stock"], _top_before(out, i)]}

    _caught(_tamper(log2, lambda r: r["event"] == "reshuffle", change), "discards under the top card")


def test_referee_catches_a_reshuffle_that_loses_a_card(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        out[i] = {**out[i], "stock": out[i]["stock"][:-1]}

    _caught(_tamper(log2, lambda r: r["event"] == "reshuffle", change), "discards under the top card")


def test_referee_catches_wrong_scores(log2: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        rec = out[i]
        out[i] = {**rec, "penalties": [p + 1 if p else 0 for p in rec["penalties"]]}

    _caught(_tamper(log2, lambda r: r["event"] == "hand_end", change), "penalties")

    def change_totals(out: list[dict[str, Any]], i: int) -> None:
        rec = out[i]
        out[i] = {**rec, "totals": [t + 1 for t in rec["totals"]]}

    _caught(_tamper(log2, lambda r: r["event"] == "hand_end", change_totals), "totals")


def test_referee_catches_a_wrong_game_end(log3: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        rec = out[i]
        losers = [s for s in range(3) if s not in rec["winners"]]
        out[i] = {**rec, "winners": losers[:1]}

    _caught(_tamper(log3, lambda r: r["event"] == "game_end", change), "winners")

    def early(out: list[dict[str, Any]], i: int) -> None:
        # Declare the game over after its first hand.
        out.insert(
            i + 1, {"event": "game_end", "game": out[i]["game"], "winners": [0], "totals": out[i]["totals"]}
        )

    _caught(_tamper(log3, lambda r: r["event"] == "hand_end", early), "game_end")


def test_referee_catches_a_doctored_deal(log3: list[dict[str, Any]]) -> None:
    def change(out: list[dict[str, Any]], i: int) -> None:
        rec = out[i]
        hands = [list(h) for h in rec["hands"]]
        stock = list(rec["stock"])
        hands[0][0], stock[0] = stock[0], hands[0][0]
        out[i] = {**rec, "hands": hands, "stock": stock}

    _caught(_tamper(log3, lambda r: r["event"] == "deal", change), "deal")


def test_a_runaway_hand_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "MAX_ACTIONS_PER_HAND", 3)
    with pytest.raises(RuntimeError, match="passed 3 actions"):
        play_game(game_code(2, 1, 0), [CpuBot(), CpuBot()])


def test_command_line_last_line_is_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "3", "--bots", "cpu,random,random", "--games", "5", "--seed", "2"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == 5 and len(summary["wins"]) == 3
    with pytest.raises(SystemExit):
        main(["--players", "3", "--bots", "cpu,random"])
