"""Your record (engine.stats), the deal of the day (engine.daily) and verified challenges (engine.challenge).

Records come from the simulator (real games played to the end); a shared win
is a real tie found by play: game 154 of ``basic`` x 3 with seed ``tie``.
"""

from __future__ import annotations

import datetime
import functools

import pytest

from engine.actions import Action
from engine.cards import TEXT
from engine.challenge import ChallengeError, clean_name, compare, reverify, verify
from engine.codes import GameCode
from engine.daily import daily_code, day_text
from engine.game import GAME_OVER, Game
from engine.record import Record, pack
from engine.stats import Outcome, Tally, compute, outcome
from lab.simulate import run


@functools.cache
def records(players: int, bots: tuple[str, ...], games: int, seed: str, start: int = 0) -> tuple[Record, ...]:
    out: list[Record] = []
    run(players, list(bots), games, seed, start=start, records=out)
    return tuple(out)


def won2() -> Record:
    """A 2-player game seat 0 (cpu) wins against random."""
    return records(2, ("cpu", "random"), 1, "7")[0]


def lost2() -> Record:
    """A 2-player game seat 0 (random) loses against cpu."""
    return records(2, ("random", "cpu"), 1, "7")[0]


def shared3() -> Record:
    return records(3, ("basic", "basic", "basic"), 1, "tie", 154)[0]


def abandoned(record: Record) -> Record:
    """The same game left part-way (a new game dealt over it)."""
    return record.prefix(len(record) // 2)


# -- outcomes are the replay's ------------------------------------------------------------


def test_outcome_is_what_the_replay_gives() -> None:
    for record in (*records(2, ("cpu", "random"), 5, "o"), shared3()):
        game = record.replay()
        o = outcome(record)
        assert o.finished and game.phase == GAME_OVER
        assert o.totals == tuple(game.totals)
        assert o.winners == game.winners
        assert sum(o.penalties) == game.totals[0]  # seat 0's hands add up to its total
        assert len(o.penalties) == game.hand_no + 1


def test_shared_win_is_a_won_and_shared_game() -> None:
    o = outcome(shared3())
    assert o.winners == (0, 2) and o.won and o.shared and o.result == "compartida"


def test_abandoned_game_is_played_and_not_won() -> None:
    o = outcome(abandoned(won2()))
    assert not o.finished and not o.won and o.result == "abandonada"
    tally = Tally()
    tally.add(o)
    assert (tally.played, tally.won, tally.abandoned, tally.best_total) == (1, 0, 1, None)


def test_partial_record_from_an_old_save_never_counts() -> None:
    game = Game.new("A2K7QM92", origin=(2, 0, (40, 12)))
    partial = Record.parse(str(Record.of(game)))
    assert not partial.verified
    with pytest.raises(ValueError):
        outcome(partial)


# -- tallies: streaks across shared wins and abandoned games, per table size ----------------


def fake(
    won: bool, *, shared: bool = False, finished: bool = True, total: int = 50, players: int = 2
) -> Outcome:
    """An outcome with chosen fields, for the tally arithmetic alone (real outcomes are tested above)."""
    winners = ((0, 1) if shared else (0,)) if won else ((1,) if finished else ())
    totals = (total, *([total if shared else 120] * (players - 1)))
    return Outcome(players, finished, totals, winners, (total,))


def test_streaks_count_shared_wins_and_break_on_abandoned_and_lost_games() -> None:
    tally = Tally()
    games = [
        fake(True),
        fake(True, shared=True),
        fake(True),
        fake(False, finished=False),
        fake(True),
        fake(False),
    ]
    seen = []
    for g in games:
        tally.add(g)
        seen.append((tally.streak, tally.best_streak))
    assert seen == [(1, 1), (2, 2), (3, 3), (0, 3), (1, 3), (0, 3)]
    assert (tally.played, tally.won, tally.shared, tally.abandoned) == (6, 4, 1, 1)
    assert tally.win_rate == pytest.approx(4 / 6)


def test_statistics_from_real_records_per_table_size() -> None:
    w, lo, sh = won2(), lost2(), shared3()
    games = [outcome(r) for r in (w, abandoned(w), lo, w, sh)]
    stats = compute(games)
    two, three, total = stats.by_table[2], stats.by_table[3], stats.overall
    assert (two.played, two.won, two.abandoned, two.streak, two.best_streak) == (4, 2, 1, 1, 1)
    assert (three.played, three.won, three.shared, three.streak) == (1, 1, 1, 1)
    assert (total.played, total.won, total.shared, total.streak, total.best_streak) == (5, 3, 1, 2, 2)
    finished = [o for o in games if o.finished]
    assert total.best_total == min(o.total for o in finished)
    hands = sum(len(o.penalties) for o in games)
    assert total.average == pytest.approx(sum(sum(o.penalties) for o in games) / hands)
    # Recomputed from the same records, the numbers are the same.
    assert compute(outcome(r) for r in (w, abandoned(w), lo, w, sh)) == stats


# -- the deal of the day ----------------------------------------------------------------------

GOLDEN_DAYS = {
    ("2025-01-01", 2): "A2FR-S29P",
    ("2025-01-01", 3): "A3A5-TDQ9",
    ("2025-06-15", 2): "A2K4-7AGQ",
    ("2025-06-15", 3): "A324-GTU6",
    ("2026-02-28", 2): "A2VR-FUCU",
    ("2026-02-28", 3): "A3CU-NT3G",
}


@pytest.mark.parametrize(("day", "players"), list(GOLDEN_DAYS))
def test_daily_code_golden(day: str, players: int) -> None:
    assert daily_code(day, players).pretty() == GOLDEN_DAYS[(day, players)]
    assert daily_code(datetime.date.fromisoformat(day), players) == daily_code(day, players)


def test_daily_code_follows_the_documented_rule() -> None:
    import hashlib

    from engine.codes import ALPHABET

    n = int.from_bytes(hashlib.sha256(b"ocho-loco/dia/2025-06-15/3").digest()[:8], "big")
    body = "".join(ALPHABET[(n // 31**k) % 31] for k in range(5))
    assert daily_code("2025-06-15", 3) == GameCode.build(3, body)


def test_daily_codes_differ_by_day_and_table() -> None:
    start = datetime.date(2025, 1, 1)
    codes = {daily_code(start + datetime.timedelta(days=d), p) for d in range(366) for p in (2, 3)}
    assert len(codes) == 732
    assert all(c.players in (2, 3) for c in codes)


@pytest.mark.parametrize("bad", ["2025-1-1", "2025-02-30", "hoy", "2025-01-01T00:00"])
def test_day_text_refuses_anything_but_a_date(bad: str) -> None:
    with pytest.raises(ValueError):
        day_text(bad)


# -- challenges ----------------------------------------------------------------------------------


def test_challenge_verifies_a_real_game() -> None:
    record = lost2()  # seat 1 is the Normal CPU, as in every challenge
    total = record.replay().totals[0]
    challenge = verify(str(record), str(total), "Ana")
    assert (challenge.total, challenge.name, challenge.record) == (total, "Ana", record)
    assert reverify(str(record), "Ana") == challenge


def test_challenge_refuses_a_forged_total() -> None:
    record = won2()
    total = record.replay().totals[0]
    for claim in (str(total + 1), str(max(total - 1, 0) if total else 1), "", "abc", "-3", "9999"):
        with pytest.raises(ChallengeError, match="El reto no cuadra"):
            verify(str(record), claim, "Ana")


def test_challenge_refuses_a_forged_move() -> None:
    record = lost2()
    game = record.first_game()
    # Replace the first move by a card that is not in the player's hand.
    absent = next(c for c in range(52) if c not in game.hands[0])
    forged = Record(record.code, (Action.parse(TEXT[absent]), *record.moves[1:]))
    with pytest.raises(ChallengeError, match="El reto no cuadra"):
        verify(str(forged), "10", "")
    # Editing one symbol of the moves gives another record that must replay and match, or be refused.
    text = str(record)
    head, moves = text.rsplit(".", 1)
    for i in range(0, len(moves), 7):
        symbol = "A" if moves[i] != "A" else "B"
        edited = f"{head}.{moves[:i]}{symbol}{moves[i + 1 :]}"
        with pytest.raises(ChallengeError):
            verify(edited, str(outcome(record).total), "")


def test_challenge_refuses_a_wrong_code() -> None:
    record = won2()
    total = str(outcome(record).total)
    other = GameCode.build(2, "ABCDE")
    swapped = str(record).replace(record.code.text, other.text)
    with pytest.raises(ChallengeError, match="El reto no cuadra"):
        verify(swapped, total, "")
    tampered = str(record).replace(
        record.code.text, record.code.text[:-1] + ("2" if record.code.text[-1] != "2" else "3")
    )
    with pytest.raises(ChallengeError, match="El reto no cuadra"):
        verify(tampered, total, "")


def test_challenge_refuses_unfinished_and_partial_games() -> None:
    with pytest.raises(ChallengeError, match="no está terminada"):
        verify(str(abandoned(won2())), "0", "")
    partial = str(Record.of(Game.new("A2K7QM92", origin=(2, 0, (40, 12)))))
    with pytest.raises(ChallengeError, match="no se puede comprobar"):
        verify(partial, "40", "")
    with pytest.raises(ChallengeError):
        verify("r1.A2K7QM92.n." + pack([200 % 70]), "0", "")
    with pytest.raises(ChallengeError):
        verify(None, "0", "")


def test_names_are_plain_text_of_at_most_20_characters() -> None:
    assert clean_name("  Ana\u0000 <script>alert(1)</script> ") == "Ana <script>alert(1)"
    assert len(clean_name("x" * 500)) == 20
    assert clean_name(None) == ""


def test_comparison_goes_hand_by_hand() -> None:
    theirs, mine = outcome(won2()), outcome(lost2())
    rows = compare(theirs, mine)
    assert len(rows) == max(len(theirs.penalties), len(mine.penalties))
    assert [r.theirs for r in rows if r.theirs is not None] == list(theirs.penalties)
    assert [r.mine for r in rows if r.mine is not None] == list(mine.penalties)
