"""«Pista»: the hard CPU's choice for your turn, once a turn; the game's record then says hints were asked."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from fake_screen import FakeScreen, make_table
from test_stats import records

from engine.actions import DRAW
from engine.bots import candidates
from engine.challenge import verify
from engine.game import GAME_OVER, PLAYING
from engine.judge import Choice
from engine.record import Record
from engine.review import BIEN
from engine.stats import outcome
from engine.view import seat_view
from ui import history_html, render
from ui.hint import NOT_YOUR_TURN, ONE_A_TURN, THINKING, hint_text, hinted_label
from ui.links import read_challenge
from ui.storage import SAVE_KEY, MemoryBackend
from ui.table import Table


@functools.cache
def your_last_move() -> Record:
    """A finished 2-player game (Normal in both seats) whose last move is yours, with a choice to make."""
    for start in range(30):  # game ``start`` of the seed, played only if the games before it do not do
        (record,) = records(2, ("cpu", "cpu"), 1, "hint", start)
        game = record.prefix(len(record) - 1).replay()
        if game.turn == 0 and len(game.legal_actions()) > 1:
            return record
    raise AssertionError("no such game")


# Move 44 of game 0 of the seed "hint" is the first of its positions where the choice has a
# reason its sample backs: a_real_choice(with_reason=True) looks there first (one «Pista» search
# a position looked at), then at the others, so a change of the search still finds one.
REASONED_AT = 44


@functools.cache
def a_real_choice(with_reason: bool = False) -> Record:
    """A game in progress where it is your turn and the hard CPU weighs more than one move.

    ``with_reason``: one where the choice has a reason its own sample backs.
    """
    record = records(2, ("cpu", "cpu"), 1, "hint", 0)[0]
    first = REASONED_AT if with_reason and len(record) > REASONED_AT else 0
    for count in [*range(first, len(record)), *range(first)]:
        game = record.prefix(count).replay()
        view = seat_view(game, 0)
        if game.turn == 0 and len(candidates(view)) > 1 and len(game.hands[0]) > 2:
            if with_reason:
                choice = Choice(view)
                choice.run()
                if " porque " not in choice.reason():
                    continue
            return record.prefix(count + 1)
    raise AssertionError("no such position")


def one_move_from_the_end(record: Record) -> MemoryBackend:
    backend = MemoryBackend()
    text = str(record.prefix(len(record) - 1))
    backend.setItem(SAVE_KEY, json.dumps({"app": "ocho-loco", "version": 2, "record": text, "ui": {}}))
    return backend


def finished_after_a_hint(record: Record) -> tuple[Table, FakeScreen]:
    """``record``'s game opened one move from its end, a hint asked, and its last move played."""
    table, screen, _ = make_table(one_move_from_the_end(record))
    table.ask_hint()
    screen.run_timers()
    table.play(record.moves[-1])
    screen.run_timers()
    return table, screen


def test_a_hint_names_the_reviews_choice_from_your_seat_with_its_reason_and_marks_its_card() -> None:
    table, screen, _ = make_table(one_move_from_the_end(a_real_choice(with_reason=True)))
    choice = Choice(table.view())
    expected = choice.run()
    table.ask_hint()
    assert screen.last_status == THINKING
    assert screen.run_timers() > 1, "the search runs in slices of the timer"
    assert choice.reason(), "this position has a plain reason"
    assert screen.last_status == hint_text(expected, choice.reason())
    assert screen.last_status.endswith(f"{choice.reason()}.") and ", porque " in screen.last_status
    if expected.card is not None:
        card = render.card_id(expected.card)
        assert screen.get_attr(card, "data-hint") == "1"
        assert screen.get_attr(card, "aria-label") == hinted_label(expected)
        assert hinted_label(expected).endswith(", la pista"), "named to a screen reader"


def test_one_hint_a_turn() -> None:
    table, screen, _ = make_table(one_move_from_the_end(a_real_choice()))
    table.ask_hint()
    screen.run_timers()
    said = screen.last_status
    table.ask_hint()
    assert not screen.timers, "no second search in the same turn"
    assert screen.last_status == said


def test_no_hint_outside_your_turn() -> None:
    table, screen, _ = make_table()
    table.ask_hint()
    assert screen.last_status == NOT_YOUR_TURN and not table.hints


def test_asking_a_hint_is_saved_in_the_record_and_survives_a_reload() -> None:
    table, screen, backend = make_table(one_move_from_the_end(a_real_choice()))
    assert not table.hints
    table.ask_hint()
    screen.run_timers()
    assert table.game is not None and table.hints == (len(table.game.history),)
    saved = json.loads(backend.getItem(SAVE_KEY) or "{}")["record"]
    assert saved.startswith("r4.") and Record.parse(saved).hints == table.hints
    again, _screen, _ = make_table(backend)
    assert again.hints == table.hints


def test_a_challenge_made_from_a_game_with_a_hint_says_con_pistas() -> None:
    record = your_last_move()
    table, screen = finished_after_a_hint(record)
    assert table.game is not None and table.game.phase == GAME_OVER
    kept = [e.text for e in table.history.entries]
    hinted = record.with_hint(len(record) - 1)  # asked before the last move
    assert kept == [str(hinted)], "«Tus partidas» keeps it as a game with hints"
    assert "(con pistas)" in history_html.recent_table(table.history.recent())
    table.challenges.link("Bea")
    screen.run_timers()
    text, total, name = read_challenge(screen.copied[-1].split("#", 1)[1])
    assert text == str(hinted)
    challenge = verify(text, total, name)
    assert challenge.total == outcome(record).total
    assert "con pistas" in history_html.challenge_banner(challenge)


def test_a_draw_does_not_buy_a_second_hint_in_the_same_turn() -> None:
    table, screen, _ = make_table(one_move_from_the_end(a_real_choice()))
    assert table.view().can_draw
    table.ask_hint()
    screen.run_timers()
    table.play(DRAW)
    screen.run_timers()
    assert table.game is not None and table.game.turn == 0, "still your turn after a draw"
    table.ask_hint()
    assert screen.last_status == ONE_A_TURN and not screen.timers


def hand_by_hints(players: int) -> tuple[Any, dict[int, str]]:
    """A table whose first hand was played by doing whatever «Pista» said, each decision; then the review.

    Also the reason each hint gave, by the move's number in the record.
    """
    table, screen, _ = make_table()
    table.new_game(players=players)
    screen.run_timers()
    game = table.game
    assert game is not None
    reasons: dict[int, str] = {}
    while game.phase == PLAYING:
        if game.turn == 0:
            table.ask_hint()
            screen.run_timers()
            assert screen.last_status != ONE_A_TURN, "after drawing as told, the next decision has a hint"
            answer = table.hints_part.answer
            assert answer is not None, screen.last_status
            reasons[len(game.history)] = table.hints_part.reason
            table.play(answer)
        screen.run_timers()
    table.results.skip()
    table.results.open_replay()
    screen.run_timers()
    return table, reasons


@pytest.mark.parametrize("players", [2, 3])
def test_a_hand_played_by_following_every_hint_is_all_bien_in_its_repaso(players: int) -> None:
    table, reasons = hand_by_hints(players)
    review = table.results.review
    assert review is not None and len(review.decisions) > 3
    verdicts = [d.verdict for d in review.decisions]
    assert not [v for v in verdicts if v.startswith("Mejor")], verdicts
    assert verdicts == [BIEN] * len(verdicts), "the hint and the review are one judge"
    assert review.summary() == "Ninguna decisión mejorable: jugaste como la CPU difícil."
    assert [d.reason for d in review.decisions] == [reasons[d.index] for d in review.decisions]
    assert any(reasons.values()), "the hints said why"
