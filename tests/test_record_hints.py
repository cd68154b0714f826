"""The hints («Pista») of a record: «pista» entries among its moves (format ``r4``), read back
compatibly, shown in challenges, and never peeled off by editing the text's head (issue 38, item 4).

A game where the person asked the hard CPU for a hint carries an entry (number 70) before the move
each hint was asked for (``r4.<code>.<level><version>.<moves>``); a game without one is written
``r2`` exactly as before, and the earlier flag form ``r3`` still reads and writes back unchanged.
"""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import played, round_trip

from engine.challenge import ChallengeError, replayed, verify
from engine.codes import ALPHABET, GameCode
from engine.record import FORMAT, HINTS_FORMAT, Record, RecordError
from engine.stats import outcome
from lab.simulate import run
from ui import history_html
from ui.kept import Entry

codes = st.builds(GameCode.build, st.sampled_from([2, 3]), st.text(alphabet=ALPHABET, min_size=5, max_size=5))


@functools.cache
def finished() -> Record:
    records: list[Record] = []
    run(2, ["cpu", "cpu"], 1, seed=7, records=records)
    return records[0]


@given(
    codes,
    st.integers(0, 2**32 - 1),
    st.integers(0, 200),
    st.sets(st.integers(0, 200), max_size=6),
    st.sampled_from(["normal", "dificil"]),
)
def test_the_hints_round_trip_in_the_text(
    code: GameCode, seed: int, steps: int, places: set[int], lv: str
) -> None:
    game, _ = played(code, seed, steps)
    hints = tuple(sorted(p for p in places if p <= len(game.history)))
    record = Record.of(game, lv, hints=hints)
    assert str(record).startswith(f"{HINTS_FORMAT}." if hints else f"{FORMAT}.")
    back = round_trip(record)
    assert back.hints == hints and back.marked is bool(hints)
    half = len(back) // 2
    assert back.prefix(half).hints == tuple(p for p in hints if p <= half)
    assert back.identity == Record.of(game, lv).identity, "the hints are not part of the game's identity"


def test_a_record_without_hints_keeps_its_second_form_text() -> None:
    assert str(Record.parse("r2.A2K7QM92.n1.RxA")) == "r2.A2K7QM92.n1.RxA"
    assert not Record.parse("r2.A2K7QM92.n1.RxA").hints
    assert not Record.parse("r1.A2K7QM92.n.RxA").hints


def test_the_flag_form_still_reads_and_writes_back_unchanged() -> None:
    flagged = Record.parse("r3.A2K7QM92.n1p.RxA")
    assert flagged.marked and flagged.hints == (0,) and str(flagged) == "r3.A2K7QM92.n1p.RxA"
    assert flagged.prefix(1).flagged and str(flagged.prefix(1)).startswith("r3.")
    assert str(flagged.with_hint(2)).startswith("r4."), "a hint asked later writes the places"


def test_a_game_with_hints_is_one_game_with_the_same_moves_without() -> None:
    plain = Record.parse("r2.A2K7QM92.n1.RxA")
    hinted = plain.with_hint(0)
    assert hinted.marked and hinted != plain and hinted.identity == plain.identity
    assert hinted.plain() == plain
    assert hinted.extends(plain) and not plain.extends(hinted), "a hint asked later moves the game on"


@pytest.mark.parametrize(
    "text",
    [
        "r3.A2K7QM92.n1.RxA",  # r3 without its flag
        "r3.A2K7QM92.n1q.RxA",  # an unknown flag
        "r3.A2K7QM92.np.RxA",  # no CPU version
        "r3.A2K7QM92.n1pp.RxA",
        "r2.A2K7QM92.n1p.RxA",  # flags only in r3
        "r1.A2K7QM92.np.RxA",
        "r4.A2K7QM92.n1.RxA",  # r4 without an entry: written r2
        "r4.A2K7QM92.n1p.jI4g",
        "r2.A2K7QM92.n1.jI4g",  # an entry outside r4
        "r1.A2K7QM92.n.jI4g",
    ],
)
def test_malformed_hint_fields_are_refused(text: str) -> None:
    with pytest.raises(RecordError):
        Record.parse(text)


def test_two_entries_in_one_place_are_refused() -> None:
    from engine.record import HINT, NUMBER_OF, pack

    moves = [NUMBER_OF[m] for m in Record.parse("r2.A2K7QM92.n1.RxA").moves]
    with pytest.raises(RecordError):
        Record.parse(f"r4.A2K7QM92.n1.{pack([HINT, HINT, *moves])}")


def test_a_peeled_challenge_is_refused_or_keeps_its_mark() -> None:
    """Issue 38, item 4: «con pistas» spelled ``r2`` with the same moves verified without its mark."""
    record = finished()
    hinted = record.with_hint(0)
    total = outcome_total(record)
    text = str(hinted)
    assert "con pistas" in history_html.challenge_banner(verify(text, total, "Pi"))
    # Every way of writing the same text without its mark, head edited only.
    _format, code, level, moves = text.split(".")
    for head in (f"r2.{code}.{level}", f"r3.{code}.{level}p", f"r1.{code}.{level[0]}"):
        peeled = f"{head}.{moves}"
        try:
            challenge = replayed(peeled, total, "Pi")
        except ChallengeError:
            continue
        assert challenge.record.marked, peeled  # pragma: no cover - every spelling is refused


def outcome_total(record: Record) -> int:
    return record.replay().totals[0]


def test_a_challenge_made_from_a_game_with_hints_says_con_pistas() -> None:
    record = finished()
    hinted = record.with_hint(0)
    total = outcome_total(record)
    challenge = verify(str(hinted), total, "Ana")
    assert challenge.record.hints == (0,)
    assert (
        history_html.challenge_banner(challenge)
        == f"Te reta Ana: {total} puntos con este reparto (con pistas, según su enlace)."
    )
    plain = verify(str(record), total, "Ana")
    assert "con pistas" not in history_html.challenge_banner(plain)


def test_tus_partidas_says_which_games_had_hints() -> None:
    hinted = Entry("r4.A2K7QM92.n1.jI4g", "2026-12-02", 0, "?")
    flagged = Entry("r3.A2K7QM92.n1p.RxA", "2026-12-02", 1, "?")
    plain = Entry("r2.A2K7QM92.n1.RxA", "2026-12-02", 2, "?")
    html = history_html.recent_table([hinted, flagged, plain])
    rows = html.split("<tr data-code=")[1:]
    assert "(con pistas)" in rows[0] and "(con pistas)" in rows[1] and "(con pistas)" not in rows[2]


def test_the_comparison_says_what_the_mark_shows_and_no_more() -> None:
    """Issue 43, item 3: the mark can be taken out or added by anyone who holds the text."""
    record = finished()
    total = outcome_total(record)
    mine = outcome(record)
    marked = history_html.comparison_html(verify(str(record.with_hint(0)), total, "Ana"), mine)
    unmarked = history_html.comparison_html(verify(str(record), total, "Ana"), mine)
    assert "Según su enlace, pidió pistas." in plain_text(marked)
    assert "no prueba que no las pidiera" in plain_text(unmarked)
    # Anyone can write the same moves again without the entries: it verifies, unmarked.
    assert not verify(str(record.with_hint(0).plain()), total, "Ana").record.marked


def plain_text(markup: str) -> str:
    return re.sub(r"<[^>]+>", "", markup)
