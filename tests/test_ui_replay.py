"""«Ver la mano»: a finished hand replayed from its deal, face up, move by move, from the record alone."""

from __future__ import annotations

from fake_screen import make_table, plain
from support import human_to_play, reach

from engine.cards import CARDS
from engine.game import HAND_OVER, Game, deal_order
from ui import render
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
    texts = [render.replay_move_text(s.move, s.drawn) for s in HandReplay.of_current_hand(game).steps]
    assert texts[0].startswith("El reparto")
    assert all(t.endswith(".") for t in texts)
    assert not any("roba una carta" in t for t in texts), "face up: every draw says which card"
    assert render.replay_title(0, 0, 40) == "Mano 1 · reparto"
    assert render.replay_title(2, 5, 41) == "Mano 3 · jugada 5 de 41"


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
    assert screen.texts["replay-step"] == render.replay_move_text(first.move, first.drawn)
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
