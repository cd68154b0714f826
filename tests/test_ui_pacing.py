"""The table's timing on a fake screen whose clock the test runs (:class:`fake_screen.ClockScreen`).

#25 item 8: the CPU's sentences never come faster than they can be said. Item 9: a key pressed just as
the count ends does not press the button the focus moved to.
"""

from __future__ import annotations

import itertools
import random

import pytest
from fake_screen import ClockScreen
from support import reach

from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from ui.cpu import SPEECH_MS_PER_CHAR, speech_gap
from ui.results import KEY_GRACE_MS, PACE_DELAYS
from ui.storage import MemoryBackend, Store
from ui.table import Table


def clock_table(pace: str, *, seed: int = 3) -> tuple[Table, ClockScreen]:
    screen = ClockScreen()
    store = Store(MemoryBackend())
    store.set_setup(store.setup().with_(pace=pace))
    table = Table(screen, store, fast=False, rng=random.Random(seed))
    table.start("", "https://example.org/ocho/")
    return table, screen


def rounds_said(table: Table, screen: ClockScreen, rounds: int) -> list[list[tuple[int, str]]]:
    """Play ``rounds`` of your turn (the first legal action) and the CPUs' after it; what each round said."""
    game = table.game
    assert game is not None
    out = []
    for _ in range(rounds):
        if game.phase != PLAYING:
            break
        assert game.turn == 0 and table.chooser is None
        start = len(screen.said)
        table.play(game.legal_actions()[0])
        while game.phase == PLAYING and game.turn != 0:
            assert screen.run_one(), "the CPU plays on its timer"
        out.append(screen.said[start:])
    return out


@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("players", [3, 2])
def test_at_normal_pace_each_sentence_is_said_before_the_next(players: int, seed: int) -> None:
    """No sentence comes before the last one could be said: «CPU 1 …» and «CPU 2 …» used to come
    0.7 s apart at three, and your «Tiras…» and the CPU's reply 0.71 s apart in 1 vs 1."""
    table, screen = clock_table("normal", seed=seed)
    table.request_deal(players)
    rounds = rounds_said(table, screen, 6)
    heard = 0  # at three, a CPU sentence followed by another; in 1 vs 1, any two in a row
    for said in rounds:
        if players == 3:
            assert said[0][1].startswith(("Tiras ", "Robas ", "Pasas")), said
        for (t1, first), (t2, second) in itertools.pairwise(said):
            assert t2 - t1 >= speech_gap(first, "normal"), f"{second!r} {t2 - t1} ms after {first!r}"
            heard += first.startswith("CPU") if players == 3 else 1
    assert heard, "two sentences in a row were heard"


def test_the_speech_gap_grows_with_the_sentence_and_rapido_does_not_wait() -> None:
    short, usual = "CPU 1 pasa.", "CPU 1 tira el 5 de picas."
    long = "CPU 2 roba tres cartas (se baraja el descarte) y tira el 8 de picas y pide tréboles."
    assert speech_gap(short, "normal") == len(short) * SPEECH_MS_PER_CHAR
    assert speech_gap(long, "normal") > speech_gap(usual, "normal") > PACE_DELAYS["normal"][0]
    assert speech_gap(long, "pausado") == speech_gap(long, "normal")
    assert speech_gap(long, "rapido") == 0


def test_reduced_motion_still_says_the_round_in_one_sentence() -> None:
    screen = ClockScreen()
    table = Table(screen, Store(MemoryBackend()), fast=True, rng=random.Random(3))
    table.start("", "https://example.org/ocho/")
    table.request_deal(3)
    [said] = rounds_said(table, screen, 1)
    assert len(said) == 1 and "CPU 1" in said[0][1] and "CPU 2" in said[0][1] and screen.now == 0


def _one_card_to_go_out(game: Game) -> bool:
    return game.phase == PLAYING and game.turn == 0 and len(game.hands[0]) == 1 and bool(game.legal_cards())


def _ends(game: Game) -> object:
    """The phase after your first legal action."""
    after = game.copy()
    after.apply(after.legal_actions()[0])
    return after.phase


def count_ended(fast: bool, *, game_over: bool) -> tuple[Table, ClockScreen, str]:
    """A table whose count has just ended by itself, the focus moved to its button (which is returned)."""
    game = reach(lambda g: _one_card_to_go_out(g) and _ends(g) == (GAME_OVER if game_over else HAND_OVER))
    screen = ClockScreen()
    table = Table(screen, Store(MemoryBackend()), fast=fast, rng=random.Random(1))
    table.start("", "https://example.org/ocho/")
    table.game = game.copy()
    table.resume()
    table.play(table.game.legal_actions()[0])
    while table.results.counting:
        assert screen.run_one(), "the count turns its cards on the timer"
    button = "final-btn" if table.game.phase == GAME_OVER else "next-hand-btn"
    assert screen.focused == button and screen.get_attr(button, "data-grace") == "1"
    return table, screen, button


def press(table: Table, button: str, *, by_key: bool) -> None:
    if button == "next-hand-btn":
        table.next_hand(by_key=by_key)
    else:
        table.results.open_final(by_key=by_key)


def went_on(table: Table, game: object) -> bool:
    """The button was pressed: the next hand dealt, or the end of the game open."""
    return table.game is not game or table.game.phase == PLAYING or table.results.final


@pytest.mark.parametrize("fast", [True, False], ids=["reduced-motion", "motion"])
@pytest.mark.parametrize("game_over", [False, True], ids=["hand", "game"])
def test_a_key_pressed_as_the_count_ends_does_not_press_its_button(fast: bool, game_over: bool) -> None:
    """Focus moves to «Siguiente mano» or «Ver el final» when the count ends; a key pressed just then
    used to start the next hand or a new game. Only a key pressed after the grace counts."""
    table, screen, button = count_ended(fast, game_over=game_over)
    game = table.game
    press(table, button, by_key=True)
    assert not went_on(table, game), "the key was held back"
    screen.advance(KEY_GRACE_MS - 1)
    press(table, button, by_key=True)
    assert not went_on(table, game), "still within the grace"
    screen.advance(1)
    assert screen.get_attr(button, "data-grace") is None, "the grace is over, and the button says so"
    press(table, button, by_key=True)
    assert went_on(table, game), "a key after the grace counts"


@pytest.mark.parametrize("game_over", [False, True], ids=["hand", "game"])
def test_a_pointer_click_on_the_button_counts_at_once(game_over: bool) -> None:
    table, _screen, button = count_ended(True, game_over=game_over)
    game = table.game
    press(table, button, by_key=False)
    assert went_on(table, game)


def test_skipping_the_count_by_key_starts_a_grace_too() -> None:
    """The key that skips the count moves the focus on its own: a second press just after is held back."""
    table, screen = clock_table("normal")
    game = reach(lambda g: _one_card_to_go_out(g) and _ends(g) == HAND_OVER)
    table.game = game.copy()
    table.resume()
    table.play(table.game.legal_actions()[0])
    assert table.results.counting
    table.results.skip()
    table.next_hand(by_key=True)
    assert table.game.phase == HAND_OVER
    screen.advance(KEY_GRACE_MS)
    table.next_hand(by_key=True)
    assert table.game.phase == PLAYING
