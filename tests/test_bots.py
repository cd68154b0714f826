"""The bots: always legal, the cpu deterministic and clearly stronger than random."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import position, walk

from engine.actions import Action
from engine.bots import CpuBot, make_bot, read_history
from engine.cards import Card
from engine.game import PLAYING, Game
from engine.view import seat_view
from lab.simulate import run


@given(
    players=st.sampled_from([2, 3]),
    seed=st.integers(0, 10**9),
    steps=st.integers(0, 150),
)
def test_bots_always_choose_a_legal_action(players: int, seed: int, steps: int) -> None:
    game = walk(players, seed, steps)
    if game.phase != PLAYING:
        return
    view = seat_view(game, game.turn)
    legal = game.legal_actions()
    for bot in (make_bot("cpu"), make_bot("random", seed), make_bot("basic", seed), CpuBot()):
        action = bot.choose(view)
        assert action in legal, (game, action, legal)
        assert game.is_legal(action)


@given(players=st.sampled_from([2, 3]), seed=st.integers(0, 10**9), steps=st.integers(0, 150))
def test_cpu_is_deterministic(players: int, seed: int, steps: int) -> None:
    game = walk(players, seed, steps)
    if game.phase != PLAYING:
        return
    view = seat_view(game, game.turn)
    first = make_bot("cpu").choose(view)
    assert make_bot("cpu", seed=123).choose(view) is first
    assert make_bot("cpu").choose(seat_view(game.copy(), game.turn)) is first


def test_random_bot_is_seeded() -> None:
    view = seat_view(Game.new("A2K7QM92"), 0)
    a, b, c = make_bot("random", 5), make_bot("random", 5), make_bot("random", 6)
    picks = [a.choose(view) for _ in range(30)]
    assert picks == [b.choose(view) for _ in range(30)]
    assert picks != [c.choose(view) for _ in range(30)]
    assert set(picks) == set(view.legal)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")


def test_bot_games_end() -> None:
    for players, names in ((2, ["cpu", "cpu"]), (3, ["cpu", "random", "cpu"]), (2, ["random", "random"])):
        tally = run(players, names, 3, "end")
        assert tally.games == 3
        assert sum(tally.wins) >= 3


def test_cpu_beats_random_2p() -> None:
    tally = run(2, ["cpu", "random"], 60, "bots-2p")
    assert tally.wins[0] >= 0.7 * 60, tally.summary()


def test_basic_never_draws_while_it_can_play() -> None:
    game = position(["8S 3H 9C KH", "4C 5C 6D"], pile="7H")
    for seed in range(20):
        assert make_bot("basic", seed).choose(seat_view(game, 0)).kind == "play"


def test_cpu_beats_basic_2p() -> None:
    tally = run(2, ["cpu", "basic"], 60, "bots-2p")
    assert tally.wins[0] >= 0.65 * 60, tally.summary()


def test_cpu_beats_random_3p() -> None:
    tally = run(3, ["random", "cpu", "random"], 60, "bots-3p")
    assert tally.wins[1] >= 0.5 * 60, tally.summary()


# -- rules of thumb, each in a position built by hand ------------------------------


def act(game: Game) -> str:
    return str(make_bot("cpu").choose(seat_view(game, game.turn)))


def test_cpu_follows_with_a_card_rather_than_an_eight() -> None:
    game = position(["8S 3H 9C KH", "4C 5C 6D"], pile="7H")
    assert act(game) in ("3H", "KH")


def test_cpu_spends_an_eight_rather_than_draw_and_names_its_longest_suit() -> None:
    game = position(["8S 3C 9C KD", "4C 5C 6D 2S 3S"], pile="7H")
    assert act(game) == "8S:C"


def test_cpu_goes_out_with_a_last_eight() -> None:
    game = position(["8S", "4C 5C 6D"], pile="7H")
    assert act(game) == "8S"


def test_cpu_sheds_its_costliest_card_when_an_opponent_is_nearly_out() -> None:
    game = position(["3H KH 4D 5D 6D", "4C"], pile="7H")
    assert act(game) == "KH"


def test_reading_the_history() -> None:
    game = position(["3H KH 4D", "4C 5C 9S"], pile="7H", stock="2S JD")
    game.apply(Action.parse("3H"))  # hearts active
    game.apply(Action.parse("draw"))  # seat 1 shows it has no heart
    reading = read_history(seat_view(game, 0))
    assert reading.short[1][1] == 1  # one card drawn since
    assert reading.short[1][0] is None
    assert Card.parse("3H") in reading.pile
