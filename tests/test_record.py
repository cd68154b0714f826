"""The record: a game is its code and its moves, and every position comes from replaying them.

Round trips (text and replay at every step), forgeries (any edit replays to
another legal game or is refused with :class:`RecordError`, never anything
else), bounds checked before any replay work, partial records from version-1
saves, and the command-line replay.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import choose, played, position, round_trip

from engine.actions import ALL_ACTIONS, DRAW, PASS, Action
from engine.cards import CARDS
from engine.codes import ALPHABET, GameCode
from engine.game import GAME_OVER, HAND_OVER, MAX_ACTIONS_PER_HAND, MAX_HANDS, PLAYING, Game
from engine.record import ACTION_OF, MAX_MOVES, MAX_TEXT, NUMBER_OF, Record, RecordError, Start, pack, unpack
from engine.save import dump
from lab.replay import events
from lab.replay import main as replay_main
from lab.simulate import main as simulate_main
from lab.simulate import run

codes = st.builds(
    GameCode.build,
    st.sampled_from([2, 3]),
    st.text(alphabet=ALPHABET, min_size=5, max_size=5),
)
seeds = st.integers(0, 2**32 - 1)


# -- the text form ----------------------------------------------------------------


def test_every_action_has_one_move_number_and_back() -> None:
    assert len(ACTION_OF) == len(set(ACTION_OF)) == len(ALL_ACTIONS) == 70
    assert all(ACTION_OF[NUMBER_OF[a]] is a for a in ALL_ACTIONS)
    assert NUMBER_OF[DRAW] == 68 and NUMBER_OF[PASS] == 69
    assert NUMBER_OF[Action.parse("8C")] == 46 and NUMBER_OF[Action.parse("8S:C")] == 55


@given(st.lists(st.integers(0, 69), max_size=200))
def test_packing_round_trips_and_is_canonical(numbers: list[int]) -> None:
    text = pack(numbers)
    assert len(text) == -(-7 * len(numbers) // 6)
    assert unpack(text) == numbers


@pytest.mark.parametrize("text", ["A", "AAA=", "_", "iRR", "iRQAB", "/w", "~"])
def test_non_canonical_or_foreign_move_texts_are_refused(text: str) -> None:
    with pytest.raises(RecordError):
        unpack(text)


@given(codes, seeds, st.integers(0, 400))
def test_text_form_round_trips_exactly(code: GameCode, seed: int, steps: int) -> None:
    game, _ = played(code, seed, steps)
    round_trip(Record.of(game))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "r1",
        "r2.A2K7QM92.n.",
        "r1.A2K7QM93.n.",  # check symbol wrong
        "r1.a2k7qm92.n.",  # not the canonical spelling of the code
        "r1.A2K7QM92.x.",  # unknown level
        "r1.A2K7QM92.n.RxA.",  # empty start field
        "r1.A2K7QM92.n.RxA.0-0-0-0",  # a start at hand 0 is no partial record
        "r1.A2K7QM92.n.RxA.2-0-100-3",  # a total that ends the game
        "r1.A2K7QM92.n.RxA.2-5-1-3",  # no seat 5
        "r1.A2K7QM92.n.RxA.02-0-1-3",  # not canonical
        "r1.A2K7QM92.n.RxA.2-0-1",  # one total for two seats
        "r1.A2K7QM92.n.R xA",
    ],
)
def test_malformed_records_are_refused_with_the_one_error(text: str) -> None:
    with pytest.raises(RecordError) as info:
        Record.parse(text)
    assert info.value.index is None
    assert str(info.value).endswith(".")


def test_a_record_is_text_only() -> None:
    with pytest.raises(RecordError):
        Record.parse(["r1"])


# -- replay ----------------------------------------------------------------------------


@given(codes, seeds, st.integers(1, 300))
def test_replay_gives_the_same_game_at_every_step_and_continues_identically(
    code: GameCode, seed: int, steps: int
) -> None:
    game, dumps = played(code, seed, steps)
    record = Record.parse(str(Record.of(game)))
    replayed = [dump(g) for g in record.games()]
    assert replayed == dumps
    again = record.replay()
    assert dump(again) == dump(game) and again.history == game.history
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(60):
        if game.phase == GAME_OVER:
            break
        for g, rng in ((game, rng_a), (again, rng_b)):
            if g.phase == HAND_OVER:
                g.next_hand()
            g.apply(choose(g, rng, 0.7))
        assert dump(again) == dump(game)


def test_a_record_ending_mid_game_is_a_save() -> None:
    game, _ = played(GameCode.build(3, "K7QM9"), 5, 40)
    assert game.phase == PLAYING
    assert dump(Record.of(game).replay()) == dump(game)


def test_a_move_after_a_finished_hand_deals_the_next_hand_led_by_its_winner() -> None:
    game, _ = played(GameCode.build(2, "K7QM9"), 3, 5000)
    assert game.hand_no >= 1, "random play finishes a hand in 5000 moves"
    replayed = Record.of(game).replay()
    assert replayed.hand_no == game.hand_no and replayed.leader == game.leader


@given(codes, seeds, st.integers(1, 150), st.data())
def test_any_single_move_edit_replays_to_a_legal_game_or_is_refused(
    code: GameCode, seed: int, steps: int, data: st.DataObject
) -> None:
    game, _ = played(code, seed, steps)
    record = Record.of(game)
    moves = list(record.moves)
    if not moves:
        return
    where = data.draw(st.integers(0, len(moves) - 1))
    edit = data.draw(st.sampled_from(["replace", "delete", "insert", "swap"]))
    other = data.draw(st.sampled_from(ALL_ACTIONS))
    if edit == "replace":
        moves[where] = other
    elif edit == "delete":
        del moves[where]
    elif edit == "insert":
        moves.insert(where, other)
    elif where + 1 < len(moves):
        moves[where], moves[where + 1] = moves[where + 1], moves[where]
    forged = Record(record.code, tuple(moves))
    try:
        result = Record.parse(str(forged)).replay()
    except RecordError as err:
        assert err.index is not None and err.index >= where, "the moves before the edit still replay"
        assert err.reason and str(err).startswith("La jugada")
        return
    everything = result.all_cards()
    assert sorted(everything) == list(CARDS), "whatever replays is a legal game: the 52 cards once each"


def test_the_first_illegal_move_is_named_by_index_and_reason() -> None:
    game = Game.new("A2K7QM92")
    # 10D fits the 10C on top; 3H does not.
    record = Record(game.code, (Action.parse("10D"), DRAW, Action.parse("3H")))
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.index == 2
    assert "La jugada 3 (3H) no vale" in str(info.value)


def test_no_move_after_the_game_is_over() -> None:
    (record,) = _records(1)
    with pytest.raises(RecordError) as info:
        record.added(DRAW).replay()
    assert info.value.index == len(record)
    assert "terminada" in str(info.value)


# -- the three forgeries a snapshot save allowed -----------------------------------------


def test_forgery_removing_cards_from_a_hand_is_refused() -> None:
    """With a snapshot one could leave a single card in one's hand; a record only has moves.

    The only way to shed cards is to play them, and playing cards one does not
    hold, or that do not fit, is refused.
    """
    game = Game.new("A2K7QM92")  # you hold 3H AS QD 2H 10D 9S 5H; 10C on top
    text = str(Record.of(game))
    for cards in (["10D", "9S"], ["3H"], ["AS", "QD", "2H"]):
        forged = text + pack(NUMBER_OF[Action.parse(c)] for c in cards)
        with pytest.raises(RecordError):
            Record.parse(forged).replay()


def test_forgery_changing_totals_is_impossible_in_a_verified_record() -> None:
    """Totals come only from replayed hands; a start field makes the record unverified."""
    (record,) = _records(1)
    totals = record.replay().totals
    text = str(record)
    assert text.count(".") == 3, "a whole-game record carries no totals at all"
    forged = Record.parse(text.replace(f".{text.split('.')[3]}", ".") + "." + "1-0-0-99")
    assert not forged.verified
    assert forged.replay().totals != totals or forged.replay().phase == PLAYING


def test_forgery_changing_the_active_suit_is_refused() -> None:
    """The active suit only changes by playing an 8 one holds; naming a suit with another card is refused."""
    game = Game.new("A2K7QM92")
    with pytest.raises(RecordError):
        Record(game.code, (Action.parse("8S:H"),)).replay()  # seat 0 holds no 8
    # Text-level: a move number 52..67 (an 8 naming a suit) spliced in for 10D.
    text = str(Record(game.code, (Action.parse("10D"),)))
    spliced = text[:-2] + pack([NUMBER_OF[Action.parse("8D:H")]])
    with pytest.raises(RecordError):
        Record.parse(spliced).replay()


# -- bounds -----------------------------------------------------------------------------


def test_bounds_come_from_the_rules() -> None:
    assert MAX_HANDS == 199, "2 seats: each hand gives the loser at least 1 point"
    assert MAX_MOVES == MAX_HANDS * MAX_ACTIONS_PER_HAND


def test_an_oversized_text_is_refused_before_any_decoding() -> None:
    text = "r1.A2K7QM92.n." + "A" * (MAX_TEXT + 1)
    with pytest.raises(RecordError, match="más jugadas"):
        Record.parse(text)


def test_too_many_moves_are_refused_before_any_replay() -> None:
    with pytest.raises(RecordError, match="más jugadas"):
        Record(GameCode.parse("A2K7QM92"), (DRAW,) * (MAX_MOVES + 1))


def test_a_hand_longer_than_the_per_hand_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.record

    monkeypatch.setattr(engine.record, "MAX_ACTIONS_PER_HAND", 5)
    game, _ = played(GameCode.build(2, "K7QM9"), 1, 30)
    with pytest.raises(RecordError, match="más jugadas"):
        Record.of(game).replay()


# -- partial records (version-1 saves of a later hand) -------------------------------------


def test_a_partial_record_replays_its_hand_over_carried_totals_and_is_unverified() -> None:
    game = position(["3H AS QD", "4C 5C"], pile="9H", hand=2, leader=1, totals=[12, 40], turn=1)
    record = Record.of(game)
    assert record.start == Start(2, 1, (12, 40))
    assert not record.verified
    text = str(record)
    assert text.endswith(".2-1-12-40")
    fresh = Record.parse(text).replay()
    assert fresh.hand_no == 2 and fresh.leader == 1 and fresh.totals == [12, 40]


# -- the simulator's records and the replay command ----------------------------------------


def _records(games: int, players: int = 2) -> list[Record]:
    records: list[Record] = []
    run(players, ["cpu"] * players, games, "record-tests", records=records)
    return records


def test_simulated_games_replay_to_their_results() -> None:
    for record in _records(4) + _records(3, players=3):
        game = record.replay()
        assert game.phase == GAME_OVER
        assert record.verified


def test_replay_command_checks_every_line_and_writes_the_simulators_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records.txt"
    sim_log = tmp_path / "sim.jsonl"
    replay_log = tmp_path / "replay.jsonl"
    args = ["--players", "3", "--bots", "cpu,random,random", "--games", "3", "--seed", "9"]
    assert simulate_main([*args, "--records", str(records), "--log", str(sim_log)]) == 0
    assert len(records.read_text().splitlines()) == 3
    capsys.readouterr()
    assert replay_main([str(records), "--log", str(replay_log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:3]] == ["line 1", "line 2", "line 3"]
    summary = json.loads(out[-1])
    assert summary["records"] == 3 and summary["finished"] == 3
    assert replay_log.read_text() == sim_log.read_text(), "replay writes the very log the simulator wrote"


def test_replay_command_stops_at_the_first_bad_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = [str(r) for r in _records(2)]
    bad = str(Record(GameCode.parse("A2K7QM92"), (Action.parse("10D"), Action.parse("10D"))))
    path = tmp_path / "records.txt"
    path.write_text("\n".join([good[0], bad, good[1]]) + "\n")
    assert replay_main([str(path)]) == 1
    captured = capsys.readouterr()
    assert "line 2 (move 2)" in captured.err
    assert "line 3" not in captured.out


def test_the_event_log_of_a_record_starts_with_its_deal() -> None:
    (record,) = _records(1)
    log = list(events(record, index=4))
    assert log[0]["event"] == "deal" and log[0]["game"] == 4
    assert log[-1]["event"] == "game_end"
    assert sum(e["event"] == "action" for e in log) == len(record)
