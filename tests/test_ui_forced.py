"""Forced moves play themselves (issue 46): a draw or a pass the rules leave no choice about.

Rules 7 and 8: while no card fits the person must draw, up to three times,
then pass. With «Jugadas forzadas solas» on (the default), the table plays
those moves after a beat and says why; it stops at the first choice. The
record is the same moves a player tapping them would make.
"""

from __future__ import annotations

import random

from fake_screen import FakeScreen, make_table
from support import position
from test_ui_table import by_hand, live, start_at

from engine.actions import DRAW, PASS
from engine.game import GAME_OVER, HAND_OVER
from engine.record import Record
from ui.forced import forced_action
from ui.storage import MemoryBackend, Store
from ui.table import Table


def test_rule_07_nothing_fits_so_the_table_draws_and_stops_at_a_card_that_fits() -> None:
    # 4C fits nothing on the 9H; the stock gives 2S (no), then 5H (a heart: a choice).
    game = position(["4C", "6D 7D"], pile="9H", stock="2S 5H KC")
    table, screen, _ = start_at(game)
    assert screen.timers, "the forced draw waits a beat, on the timer"
    screen.run_timers()
    moves = [str(m.action) for m in live(table).hand_history]
    assert moves == ["draw", "draw"], moves
    said = [s for s in screen.statuses if s.startswith("No tienes carta que valga: robas")]
    assert len(said) == 2, screen.statuses
    assert screen.body == "human" and not screen.timers, "a card that fits is a choice: the table waits"
    assert forced_action(live(table)) is None


def test_rule_08_after_three_draws_with_nothing_the_table_passes() -> None:
    game = position(["4C", "6D 7D"], pile="9H", stock="2S 3S JC QH")
    table, screen, _ = start_at(game)
    screen.run_one()
    screen.run_one()
    screen.run_one()
    assert [str(m.action) for m in live(table).hand_history] == ["draw", "draw", "draw"]
    screen.run_one()
    assert str(live(table).hand_history[3].action) == "pass"
    screen.run_timers()  # the CPU's turn: said together with the pass (reduced motion)
    assert any(s.startswith("Ya robaste 3: pasas.") for s in screen.statuses), screen.statuses


def test_with_the_option_off_every_forced_move_waits_for_a_tap() -> None:
    game = position(["4C", "6D 7D"], pile="9H", stock="2S 5H KC")
    table, screen, _ = start_at(game)
    screen.timers.clear()  # the beat queued before the option was turned off
    by_hand(table)
    table.resume()
    assert not screen.timers and not live(table).hand_history
    table.main_button()
    assert [str(m.action) for m in live(table).hand_history] == ["draw"]
    assert not screen.timers, "the next forced draw waits for its tap too"


def test_a_tap_during_the_beat_is_the_move_and_the_beat_plays_nothing_more() -> None:
    game = position(["4C", "6D 7D"], pile="9H", stock="2S 5H KC")
    table, screen, _ = start_at(game)
    table.main_button()  # the person draws before the beat is over
    screen.run_one()  # the beat queued for the first draw: stale, it plays nothing
    assert [str(m.action) for m in live(table).hand_history] == ["draw"]
    screen.run_one()  # the beat queued after the person's draw
    assert [str(m.action) for m in live(table).hand_history] == ["draw", "draw"]


def test_the_option_is_remembered() -> None:
    backend = MemoryBackend()
    table, _screen, _ = make_table(backend)
    assert table.setup.forced, "on by default"
    by_hand(table)
    assert not Store(backend).setup().forced


def play_out(table: Table, screen: FakeScreen, *, tap_forced: bool, seed: int) -> str:
    """A whole game: the same choices at every real choice; forced moves tapped or left to the table."""
    rng = random.Random(seed)
    for _ in range(2000):
        game = live(table)
        if game.phase == HAND_OVER:
            screen.run_timers()  # the results count
            table.next_hand()
            continue
        if game.phase == GAME_OVER:
            break
        if game.turn != 0 or screen.body != "human":
            screen.run_timers()
            continue
        legal = game.legal_actions()
        if len(legal) == 1 and legal[0] in (DRAW, PASS):
            if tap_forced:
                table.main_button()
            else:
                screen.run_one()  # the table's own beat
            continue
        choice = rng.choice([a for a in legal if a.suit is None or a.suit == 0])
        table.play(choice)
        screen.run_timers()
    return str(Record.of(live(table), table.level, table.hints))


def test_a_hand_played_with_the_option_on_is_the_same_record_as_tapping_each_forced_move() -> None:
    records = []
    for tap in (True, False):
        table, screen, _ = make_table()
        if tap:
            by_hand(table)
        table.request_deal(2)
        records.append(play_out(table, screen, tap_forced=tap, seed=5))
    assert records[0] == records[1]
    record = Record.parse(records[0])
    assert record.replay().phase == GAME_OVER, "a whole game"
    assert sum(1 for m in record.moves if m in (DRAW, PASS)) > 10, "with forced moves in it"
    assert record.hints == (), "a forced move asks no hint"
