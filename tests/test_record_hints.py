"""The hint flag («Pista») of a record: format ``r3``, read back compatibly, shown in challenges.

A game where the person asked the hard CPU for a hint says so in its record
(``r3.<code>.<level><version>p.<moves>``); a game without one is written
``r2`` exactly as before, so every older text reads and writes back unchanged.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import played, round_trip

from engine.challenge import verify
from engine.codes import ALPHABET, GameCode
from engine.record import FORMAT, HINTS_FORMAT, Record, RecordError
from lab.simulate import run
from ui import history_html
from ui.history import Entry

codes = st.builds(GameCode.build, st.sampled_from([2, 3]), st.text(alphabet=ALPHABET, min_size=5, max_size=5))


@given(
    codes,
    st.integers(0, 2**32 - 1),
    st.integers(0, 200),
    st.booleans(),
    st.sampled_from(["normal", "dificil"]),
)
def test_the_hint_flag_round_trips_in_the_text(
    code: GameCode, seed: int, steps: int, hints: bool, lv: str
) -> None:
    game, _ = played(code, seed, steps)
    record = Record.of(game, lv, hints=hints)
    assert str(record).startswith(f"{HINTS_FORMAT}." if hints else f"{FORMAT}.")
    back = round_trip(record)
    assert back.hints is hints
    assert back.prefix(len(back) // 2).hints is hints and back.added is not None


def test_a_record_without_hints_keeps_its_second_form_text() -> None:
    assert str(Record.parse("r2.A2K7QM92.n1.RxA")) == "r2.A2K7QM92.n1.RxA"
    assert not Record.parse("r2.A2K7QM92.n1.RxA").hints
    assert not Record.parse("r1.A2K7QM92.n.RxA").hints


def test_a_game_with_hints_is_another_record_than_the_same_moves_without() -> None:
    plain = Record.parse("r2.A2K7QM92.n1.RxA")
    hinted = Record.parse("r3.A2K7QM92.n1p.RxA")
    assert hinted.hints and hinted != plain and hinted.identity != plain.identity
    assert plain.with_hints() == hinted
    assert hinted.extends(plain) and not plain.extends(hinted), "a hint asked later moves the game on"


@pytest.mark.parametrize(
    "text",
    [
        "r3.A2K7QM92.n1.RxA",  # r3 without its flag: written r2
        "r3.A2K7QM92.n1q.RxA",  # an unknown flag
        "r3.A2K7QM92.np.RxA",  # no CPU version
        "r3.A2K7QM92.n1pp.RxA",
        "r2.A2K7QM92.n1p.RxA",  # flags only in r3
        "r1.A2K7QM92.np.RxA",
    ],
)
def test_malformed_hint_fields_are_refused(text: str) -> None:
    with pytest.raises(RecordError):
        Record.parse(text)


def test_a_challenge_made_from_a_game_with_hints_says_con_pistas() -> None:
    records: list[Record] = []
    run(2, ["cpu", "cpu"], 1, seed=7, records=records)
    hinted = records[0].with_hints()
    total = hinted.replay().totals[0]
    challenge = verify(str(hinted), total, "Ana")
    assert challenge.record.hints
    assert (
        history_html.challenge_banner(challenge)
        == f"Te reta Ana: {total} puntos con este reparto (con pistas)."
    )
    plain = verify(str(records[0]), total, "Ana")
    assert "con pistas" not in history_html.challenge_banner(plain)


def test_tus_partidas_says_which_games_had_hints() -> None:
    hinted = Entry("r3.A2K7QM92.n1p.RxA", "2026-12-02", 0, "?")
    plain = Entry("r2.A2K7QM92.n1.RxA", "2026-12-02", 1, "?")
    html = history_html.recent_table([hinted, plain])
    rows = html.split("<tr data-code=")[1:]
    assert "(con pistas)" in rows[0] and "(con pistas)" not in rows[1]
