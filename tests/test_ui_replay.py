"""«Ver la mano»: a finished hand replayed from its deal, face up, move by move, from the record alone."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from fake_screen import make_table, plain
from support import human_to_play, reach

from engine.cards import CARDS
from engine.game import HAND_OVER, Game, deal_order
from engine.judge import VERSIONS
from engine.record import Record
from engine.review import CURRENT, Reviewer
from ui import render_replay
from ui.history import REVIEW_PREFIX
from ui.render import seat_name
from ui.replay import HandReplay


def finished_hand(hand_no: int = 0, players: int = 2) -> Game:
    """A real game just after hand ``hand_no`` ended (and before the next deal)."""
    return reach(lambda g: g.phase == HAND_OVER and g.hand_no == hand_no, players)


def test_the_replay_starts_from_the_deal_the_code_fixes() -> None:
    game = finished_hand(1)
    replay = HandReplay.of_current_hand(game)
    first = replay.step.game
    order = deal_order(game.code, 1)
    size = len(first.hands[0])
    assert [c for h in first.hands for c in h] != []
    assert sorted(c for h in first.hands for c in h) == sorted(order[: size * game.players])
    assert first.pile == [order[size * game.players]]
    assert first.leader == game.hand_history[0].seat, "the winner of hand 1 leads hand 2"


def test_every_step_applies_one_recorded_move_and_ends_at_the_results() -> None:
    game = finished_hand(0, players=3)
    replay = HandReplay.of_current_hand(game)
    assert replay.last == len(game.hand_history)
    for index, step in enumerate(replay.steps[1:], start=1):
        assert step.move == game.hand_history[index - 1]
        assert sorted(step.game.all_cards()) == list(CARDS)
        if step.move is not None and step.move.action.kind == "draw":
            assert step.drawn in step.game.hands[step.move.seat], "the card drawn is named, face up"
    end = replay.steps[-1].game
    assert end.phase == HAND_OVER and end.hands == game.hands and end.result == game.result


def test_moving_through_the_replay_stops_at_both_ends() -> None:
    replay = HandReplay.of_current_hand(finished_hand())
    assert not replay.go("prev") and replay.index == 0
    assert replay.go("next") and replay.index == 1
    assert replay.go("last") and replay.index == replay.last
    assert not replay.go("next")
    assert replay.go("first") and replay.index == 0
    assert not replay.go("sideways")


def test_replay_sentences_name_the_drawn_card_and_the_named_suit() -> None:
    game = finished_hand()
    texts = [render_replay.replay_move_text(s.move, s.drawn) for s in HandReplay.of_current_hand(game).steps]
    assert texts[0].startswith("El reparto")
    assert all(t.endswith(".") for t in texts)
    assert not any("roba una carta" in t for t in texts), "face up: every draw says which card"
    assert render_replay.replay_title(0, 0, 40) == "Mano 1 · reparto"
    assert render_replay.replay_title(2, 5, 41) == "Mano 3 · jugada 5 de 41"


def test_results_panel_offers_the_replay_and_the_table_steps_through_it() -> None:
    game = reach(lambda g: human_to_play(g) and len(g.hands[0]) == 1 and bool(g.legal_cards()))
    table, screen, _ = make_table()
    table.game = game
    table.resume()
    table.click_card(str(game.hands[0][0]))
    assert screen.body == "results"
    assert screen.get_attr("replay-btn", "hidden") is None
    table.results.open_replay()
    assert screen.body == "replay" and screen.is_open("replay-dialog")
    assert screen.focused == "replay-next"
    assert screen.texts["replay-title"] == f"Mano {game.hand_no + 1} · reparto"
    assert screen.get_attr("replay-prev", "aria-disabled") == "true"
    deal = HandReplay.of_current_hand(game).steps[0].game
    for card in deal.hands[1]:
        assert f'data-card="{card}"' in screen.htmls["replay-table"], "the CPU's hand is face up"
    assert "CPU 1" in plain(screen.htmls["replay-table"])
    table.results.replay_go("next")
    first = HandReplay.of_current_hand(game).steps[1]
    assert screen.texts["replay-step"] == render_replay.replay_move_text(first.move, first.drawn)
    table.results.replay_go("last")
    assert screen.get_attr("replay-next", "aria-disabled") == "true"
    assert screen.get_attr("replay-prev", "aria-disabled") is None
    table.results.close_replay()
    assert not screen.is_open("replay-dialog") and screen.body == "results"
    assert screen.focused == "replay-btn"
    assert screen.is_open("results-dialog"), "closing the replay goes back to the results"


def test_no_replay_while_the_hand_is_being_played() -> None:
    table, screen, _ = make_table()
    table.request_deal(2)
    table.results.open_replay()
    assert table.results.replay is None and not screen.is_open("replay-dialog")


@pytest.fixture
def cheap_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's search at a tenth of its playouts: the flow is what these tests check."""
    for players, shipped in VERSIONS[CURRENT - 1].items():
        cheap = replace(shipped, playouts=100, max_actions=5_000, measure_worlds=30, measure_actions=2_000)
        monkeypatch.setitem(VERSIONS[CURRENT - 1], players, cheap)


def _reviewed_table() -> tuple[Game, Any, Any]:
    game = reach(lambda g: human_to_play(g) and len(g.hands[0]) == 1 and bool(g.legal_cards()))
    table, screen, _ = make_table()
    table.game = game
    table.resume()
    table.click_card(str(game.hands[0][0]))
    return game, table, screen


def test_the_replay_shows_a_repaso_computed_in_slices_with_its_progress(cheap_review: None) -> None:
    game, table, screen = _reviewed_table()
    table.results.review_slice_ms = 0.0  # one small step a slice: every percentage is seen
    said: list[str] = []  # what the live summary line was given, in order
    shown: list[str] = []
    write = screen.text

    def text(el_id: str, value: str) -> None:
        if el_id == "review-summary":
            said.append(value)
        write(el_id, value)

    screen.text = text  # type: ignore[method-assign]
    table.results.open_replay()
    assert screen.texts["review-summary"] == "Repasando…"
    assert screen.texts["review-progress"] == "0 %"
    while screen.timers:
        screen.run_one()
        shown.append(screen.texts["review-progress"])
    assert any(text.endswith(" %") and text != "0 %" for text in shown), "the percentage is shown"
    record = Record.of(game, table.level)
    expected = Reviewer(record, game.hand_start, len(record.moves)).run()
    assert said == ["Repasando…", expected.summary()], "the live line speaks once at the start and the end"
    assert screen.texts["review-progress"] == ""
    items = re.findall(r"<li>(.*?)</li>", screen.htmls["review-list"])
    assert len(items) == len(expected.decisions) > 0
    for item, decision in zip(items, expected.decisions, strict=True):
        assert plain(item).endswith(f"{decision.verdict}."), "the verdict is part of the item's text"


def test_choosing_a_repaso_item_jumps_the_replay_to_that_decision(cheap_review: None) -> None:
    game, table, screen = _reviewed_table()
    table.results.open_replay()
    screen.run_timers()
    review = table.results.review
    assert review is not None
    decision = review.decisions[-1]
    step = decision.index - game.hand_start
    table.results.review_jump(step)
    assert table.results.replay is not None and table.results.replay.index == step
    assert screen.texts["replay-title"] == render_replay.replay_title(
        game.hand_no, step, table.results.replay.last
    )
    last = len(review.decisions) - 1
    assert screen.get_attr(f"review-go-{last}", "aria-current") == "step"
    assert all(screen.get_attr(f"review-go-{n}", "aria-current") is None for n in range(last))
    table.results.review_jump(10_000)  # out of range: nothing moves
    assert table.results.replay.index == step


def test_a_second_look_at_the_repaso_comes_from_tus_partidas_at_once(cheap_review: None) -> None:
    _game, table, screen = _reviewed_table()
    table.results.open_replay()
    screen.run_timers()
    first = screen.htmls["review-list"]
    assert any(key.startswith(REVIEW_PREFIX) for key in table.history.games)
    table.results.close_replay()
    table.results.open_replay()
    assert not screen.timers, "no search runs again"
    assert screen.htmls["review-list"] == first
    table.history._load()  # the review's key is never taken for a game
    assert all(not e.text.startswith(REVIEW_PREFIX) for e in table.history.entries)


@pytest.mark.parametrize("players", [2, 3])
def test_the_replay_of_hand_2_says_sin_cartas_only_of_a_seat_with_none(players: int) -> None:
    """Issue 37, item 1, in the replay: hand 1's result never leaks into hand 2's steps."""
    for index, step in enumerate(HandReplay.of_current_hand(finished_hand(1, players)).steps):
        table = render_replay.replay_table_html(step.game, step.move)
        for seat, cards in enumerate(step.game.hands):
            assert (f'aria-label="{seat_name(seat)}: sin cartas"' in table) == (not cards), (index, seat)
        assert "sin cartas" not in render_replay.replay_move_text(step.move, step.drawn)
