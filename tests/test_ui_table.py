"""The page's flow (:class:`ui.table.Table`) over a fake screen and in-memory storage.

Each test names the promise it checks: dealing, the person's moves, CPU
pacing (one action per timer), the suit chooser, resuming after a reload,
the results panel and the end of the game. Timers only fire when a test
runs them, so nothing here depends on time.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from fake_screen import FakeScreen, make_table, plain
from hypothesis import given
from hypothesis import strategies as st
from profiles import budget
from support import human_to_play, position, reach, texts

from engine import save
from engine.cards import CARDS, RANK_OF, Card
from engine.codes import GameCode
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from engine.record import Record
from engine.view import seat_view
from ui import render
from ui.cpu import speech_gap
from ui.links import link_hash
from ui.results import CPU_DELAY_MS, KEY_GRACE_MS, PACE_DELAYS, REVEAL_DELAY_MS
from ui.storage import SAVE_KEY, MemoryBackend, Store, read
from ui.table import Table


def saved(backend: MemoryBackend) -> dict[str, object]:
    """The page's save record as stored."""
    raw = backend.getItem(SAVE_KEY)
    assert raw is not None, "nothing saved"
    data = json.loads(raw)
    assert isinstance(data, dict)
    return data


def saved_game(backend: MemoryBackend) -> object:
    """The saved record's text."""
    return saved(backend)["record"]


def saved_chooser(backend: MemoryBackend) -> object:
    ui = saved(backend)["ui"]
    assert isinstance(ui, dict)
    return ui["chooser"]


def seeded(game: Game) -> MemoryBackend:
    """Storage holding ``game`` (a real one, reached by play) as the page would have saved it."""
    backend = MemoryBackend()
    store = Store(backend)
    assert store.save(game) is None and not store.failed
    return backend


def by_hand(table: Table) -> Table:
    """``table`` with forced draws and passes left to the person (option «Jugadas forzadas solas» off).

    For the tests of the CPU's pacing: with the option on, the person's forced move is one more timer.
    """
    table.store.set_setup(table.setup.with_(forced=False))
    return table


def start_at(game: Game, *, fast: bool = True) -> tuple[Table, FakeScreen, MemoryBackend]:
    """A table playing ``game``, a hand-made position, from the start of the test.

    A hand-made position cannot come from storage (a save is a code and its
    moves, and no code deals it), so it is put on a fresh table directly;
    tests that reload use :func:`support.reach` and :func:`seeded` instead.
    """
    backend = MemoryBackend()
    table, screen, _ = make_table(backend, fast=fast)
    table.game = game
    table.resume()
    table._save()
    return table, screen, backend


def reload_from(backend: MemoryBackend, *, fast: bool = True) -> tuple[Table, FakeScreen, MemoryBackend]:
    return make_table(backend, fast=fast)


def live(table: Table) -> Game:
    assert table.game is not None
    return table.game


def assert_saved_is_live(table: Table, backend: MemoryBackend) -> None:
    assert saved_game(backend) == str(Record.of(live(table), table.level))


def assert_save_replays_to_live(table: Table, backend: MemoryBackend) -> None:
    """The save, replayed through the rules, is exactly the game on the table (real games only)."""
    raw = backend.getItem(SAVE_KEY)
    assert raw is not None
    assert save.dump(read(raw).game) == save.dump(live(table))


# -- first visit and dealing ---------------------------------------------------------------


def test_first_visit_waits_for_deal_then_deals_seven_each_and_person_leads() -> None:
    table, screen, backend = make_table()
    assert screen.body == "setup"
    assert "Repartir" in screen.last_status
    assert screen.focused == "deal-btn"
    assert backend.getItem(SAVE_KEY) is None, "nothing is saved before the first deal"

    table.request_deal(2)
    game = live(table)
    assert game.players == 2 and game.hand_no == 0
    assert [len(h) for h in game.hands] == [7, 7]
    assert game.turn == 0 and game.leader == 0, "the person leads the first hand"
    assert screen.body == "human"
    assert screen.hash == link_hash(game.code)
    assert_saved_is_live(table, backend)
    assert_save_replays_to_live(table, backend)
    assert saved(backend)["app"] == "ocho-loco" and saved(backend)["version"] == 2
    assert len(screen.hand_cards()) == 7
    assert screen.htmls["opponents"].count('class="opponent') == 1
    assert screen.texts["game-code"] == game.code.pretty()
    assert screen.timers == [], "no CPU move is pending on the person's turn"


def test_deal_for_three_gives_five_each_and_shows_two_opponents() -> None:
    table, screen, backend = make_table()
    table.request_deal(3)
    game = live(table)
    assert game.players == 3
    assert [len(h) for h in game.hands] == [5, 5, 5]
    assert screen.htmls["opponents"].count('class="opponent') == 2
    assert 'data-seat="2"' in screen.htmls["opponents"]
    assert backend.getItem("ocho-loco:mesa") == "3", "the table size is remembered"
    table2, _screen2, _ = make_table(backend)
    assert table2.setup.players == 3


def test_deal_during_an_unfinished_game_asks_first() -> None:
    table, screen, backend = make_table()
    table.request_deal(2)
    before = saved_game(backend)
    table.request_deal(3)
    assert screen.body == "replace" and screen.is_open("replace-dialog")
    assert screen.texts["replace-title"] == "Tienes una partida a medias. ¿La dejas para empezar otra?"
    # The question says what really happens: the game is kept as abandoned, not lost.
    sub = screen.texts["replace-sub"]
    assert "se pierde" not in sub and "abandonada" in sub and "Tus partidas" in sub, sub
    assert "enlace" not in screen.texts["replace-sub"], "no link is involved in a new deal"
    assert saved_game(backend) == before
    table.answer_replace(False)
    assert not screen.is_open("replace-dialog")
    assert saved_game(backend) == before and screen.body == "human"
    assert live(table).players == 2, "the size radios cannot change the table under way"
    table.main_button()  # a move: the game now counts when it is left
    table.request_deal(3)
    table.answer_replace(True)
    kept = [e.text for e in table.history.entries]
    assert len(kept) == 1, "the game left is kept in «Tus partidas», as the question said"
    before = saved_game(backend)
    # Leaving the game goes back to choosing a table; the save is replaced by the next deal only.
    assert table.game is None and screen.body == "setup"
    assert screen.get_attr("mode-choice", "disabled") is None
    assert screen.texts["deal-btn"] == "Repartir"
    assert saved_game(backend) == before
    table.request_deal(3)
    assert live(table).players == 3
    assert_save_replays_to_live(table, backend)


def test_size_radios_are_off_during_a_game_and_the_bar_says_which_table() -> None:
    table, screen, _ = make_table()
    assert screen.get_attr("mode-choice", "disabled") is None
    assert screen.get_attr("deal-btn", "class") == "btn btn-primary"
    table.request_deal(2)
    assert screen.get_attr("mode-choice", "disabled") == ""
    assert screen.get_attr("setup", "data-playing") == "1"
    assert screen.texts["table-now"] == "Partida en curso: 1 contra 1, rival Normal"
    assert screen.get_attr("mode-2", "checked") == "" and screen.get_attr("mode-3", "checked") is None
    # «Repartir» is not what the player is expected to do now: it becomes a secondary «Otra partida».
    assert screen.texts["deal-btn"] == "Otra partida"
    assert screen.get_attr("deal-btn", "class") == "btn btn-secondary"
    table.request_deal(3)  # a radio that slipped through changes nothing without asking
    assert live(table).players == 2 and screen.body == "replace"


# -- the person's moves --------------------------------------------------------------------


def test_illegal_card_is_refused_with_reason_and_changes_nothing() -> None:
    game = position(["3C 7H", "4D 5D"], pile="9H")
    table, screen, backend = start_at(game)
    before = saved_game(backend)
    table.click_card("3C")
    assert screen.last_status.startswith("No vale: hace falta ")
    assert screen.last_status == "No vale: hace falta un corazón, un 9 o un 8."
    assert saved_game(backend) == before
    assert_saved_is_live(table, backend)
    assert screen.body == "human" and screen.timers == []


def test_card_not_in_hand_and_unknown_text_are_refused() -> None:
    game = position(["3C 7H", "4D 5D"], pile="9H")
    table, screen, backend = start_at(game)
    before = saved_game(backend)
    table.click_card("4D")  # the CPU's card
    assert screen.last_status == "No tienes el 4 de diamantes."
    table.click_card("ZZ")
    table.click_card("")
    assert saved_game(backend) == before


def test_legal_card_plays_then_each_cpu_action_is_its_own_timer_tick() -> None:
    # After 7H the CPU has nothing that fits: it draws KH, then plays it.
    game = position(["7H 2S", "4C 5C"], pile="9H", stock="KH")
    table, screen, backend = start_at(game, fast=False)
    by_hand(table)
    table.click_card("7H")
    assert screen.statuses[-1] == "Tiras el 7 de corazones."
    assert screen.body == "cpu"
    assert_saved_is_live(table, backend)
    # paced, and held until the sentence just said can be heard (#25 item 8)
    paced = max(CPU_DELAY_MS, speech_gap("Tiras el 7 de corazones.", "normal"))
    assert [ms for ms, _ in screen.timers] == [paced], "one CPU action queued, paced"
    assert texts(live(table).history) == ["0:7H"]

    said = len(screen.statuses)
    screen.run_one()
    assert texts(live(table).history) == ["0:7H", "1:draw"], "one action per timer"
    assert len(screen.statuses) == said, "the turn is said once, when it ends"
    assert screen.htmls["move-log"].startswith('<li data-seat="1">CPU 1 roba una carta…</li>')
    assert screen.body == "cpu"
    assert_saved_is_live(table, backend)
    assert len(screen.timers) == 1

    screen.run_one()
    assert texts(live(table).history) == ["0:7H", "1:draw", "1:KH"]
    assert len(screen.statuses) == said + 1
    assert screen.last_status.startswith("CPU 1 roba una carta y tira el rey de corazones. Te toca")
    assert screen.body == "human"
    assert screen.timers == []
    assert_saved_is_live(table, backend)


def test_fast_mode_still_moves_the_cpu_one_action_per_timer_without_delay() -> None:
    game = position(["7H 2S", "4C 5C"], pile="9H", stock="KH")
    table, screen, _ = start_at(game, fast=True)
    by_hand(table)
    table.click_card("7H")
    assert [ms for ms, _ in screen.timers] == [0]
    assert screen.run_timers() == 2
    assert screen.body == "human"


def test_clicks_while_the_cpu_is_on_turn_only_explain() -> None:
    game = position(["7H 2S", "4C 5C"], pile="9H", stock="KH")
    table, screen, backend = start_at(game, fast=False)
    table.click_card("7H")
    before = saved_game(backend)
    table.click_card("2S")
    table.main_button()
    assert screen.last_status == "Espera: ahora juega CPU 1."
    assert saved_game(backend) == before


def test_eight_opens_the_suit_chooser_and_the_choice_plays_it() -> None:
    game = position(["8S 3C 4D", "5D 6D"], pile="9H")
    table, screen, backend = start_at(game, fast=False)
    before = saved_game(backend)
    table.click_card("8S")
    assert screen.body == "chooser" and screen.is_open("suit-dialog")
    assert saved_chooser(backend) == "8S"
    assert saved_game(backend) == before, "opening the chooser plays nothing yet"
    table.choose_suit("C")
    assert not screen.is_open("suit-dialog")
    assert live(table).active_suit == 3 and live(table).top == Card.parse("8S")
    assert screen.statuses[-1] == "Tiras el 8 de picas y pides tréboles."
    assert saved_chooser(backend) is None
    assert_saved_is_live(table, backend)


def test_cancelling_the_chooser_keeps_the_eight() -> None:
    game = position(["8S 3C 4D", "5D 6D"], pile="9H")
    table, screen, backend = start_at(game)
    before = saved_game(backend)
    table.click_card("8S")
    table.cancel_chooser()
    assert not screen.is_open("suit-dialog") and screen.body == "human"
    assert screen.last_status.startswith("Te guardas el 8.")
    assert Card.parse("8S") in live(table).hands[0]
    assert saved_game(backend) == before and saved_chooser(backend) is None
    table.choose_suit("H")  # a stray choice after cancelling plays nothing
    assert saved_game(backend) == before


def test_eight_as_last_card_needs_no_chooser_and_wins_the_hand() -> None:
    game = position(["8S", "5D 6D"], pile="9H")
    table, screen, _ = start_at(game)
    table.click_card("8S")
    assert not screen.is_open("suit-dialog")
    result = live(table).result
    assert live(table).phase == HAND_OVER and result is not None and result.winner == 0
    assert screen.body == "results"
    assert screen.statuses[-2] == "Tiras el 8 de picas."


def test_moves_are_ignored_while_the_chooser_is_open() -> None:
    game = position(["8S 9H 4D", "5D 6D"], pile="9C")
    table, _screen, backend = start_at(game)
    table.click_card("8S")
    before = saved_game(backend)
    table.click_card("9H")
    table.main_button()
    table.click_card("8S")
    assert saved_game(backend) == before and saved_chooser(backend) == "8S"
    table.choose_suit("SH")  # not one suit letter
    table.choose_suit("")
    assert saved_game(backend) == before and table.chooser == Card.parse("8S")
    table.choose_suit("D")
    assert texts(live(table).history) == ["0:8S:D"]


# -- the main button -----------------------------------------------------------------------


def test_main_button_draws_then_says_pass_exactly_when_the_engine_allows_it() -> None:
    # Nothing fits KH and the three cards on the stock do not fit either.
    game = position(["2C 3C", "4C 5C"], pile="KH", stock="6C 7C 9C", rest="pile")
    table, screen, backend = start_at(game)
    labels = []
    for _ in range(3):
        labels.append(screen.texts["main-btn"])
        assert screen.get_attr("main-btn", "data-action") == "draw"
        assert not live(table).can_pass()
        table.main_button()
        assert_saved_is_live(table, backend)
    assert labels == ["Robar (3)", "Robar (2)", "Robar (1)"]
    assert screen.statuses[-1].startswith("Robas el 9 de tréboles.")
    assert live(table).can_pass()
    assert screen.texts["main-btn"] == "Pasar"
    assert screen.get_attr("main-btn", "data-action") == "pass"
    assert screen.get_attr("main-btn", "disabled") is None
    assert screen.get_attr("stock", "disabled") == "", "the stock is not a pass button"
    table.main_button()
    assert str(live(table).history[-1]) == "0:pass" and live(table).turn == 1
    assert screen.body == "cpu"


def test_main_button_offers_pass_with_nothing_to_draw() -> None:
    # Empty stock and a one-card pile: nothing to draw, no card fits.
    game = position(["2C 3C", "4C 5C"], pile="KH", rest=1)
    table, screen, _ = start_at(game)
    assert live(table).can_pass()
    assert screen.texts["main-btn"] == "Pasar"


# -- resuming after a reload ----------------------------------------------------------------


def test_reload_resumes_the_same_game_with_draws_used() -> None:
    table, screen, backend = make_table()
    table.request_deal(2)
    table.main_button()  # draw one
    screen.run_timers()
    game = live(table)
    table2, screen2, _ = make_table(backend)
    assert save.dump(live(table2)) == save.dump(game)
    if live(table2).turn == 0:
        assert live(table2).draws == game.draws
        assert screen2.texts["main-btn"] == render.main_button(seat_view(game, 0))[0]
    assert screen2.hash == link_hash(game.code)


def test_reload_mid_turn_keeps_draws_used_and_label() -> None:
    game = reach(lambda g: human_to_play(g) and g.draws == 0 and g.can_draw and not g.can_pass())
    table, _screen, backend = make_table(seeded(game))
    table.main_button()
    table2, screen2, _ = make_table(backend)
    assert live(table2).draws == 1
    assert screen2.texts["main-btn"] == "Robar (2)"
    assert screen2.body == "human" and screen2.last_status.startswith("Sigue la partida.")


def test_reload_reopens_the_suit_chooser() -> None:
    game = reach(lambda g: human_to_play(g) and any(a.suit is not None for a in g.legal_actions()))
    eight = next(a.card for a in game.legal_actions() if a.suit is not None)
    table, _screen, backend = make_table(seeded(game))
    table.click_card(str(eight))
    table2, screen2, backend2 = make_table(backend)
    assert screen2.body == "chooser" and screen2.is_open("suit-dialog")
    table2.choose_suit("D")
    assert str(live(table2).history[-1]) == f"0:{eight}:D"
    assert_saved_is_live(table2, backend2)


def test_reload_resumes_a_pending_cpu_turn() -> None:
    game = reach(lambda g: human_to_play(g) and len(g.hands[0]) > 2 and bool(g.legal_cards()))
    card = next(c for c in game.legal_cards() if c.rank != 8)
    table, screen, backend = make_table(seeded(game), fast=False)
    table.click_card(str(card))
    assert len(screen.timers) == 1  # the tab closes before the CPU moves
    table2, screen2, backend2 = make_table(backend, fast=False)
    assert screen2.body == "cpu"
    assert [ms for ms, _ in screen2.timers] == [CPU_DELAY_MS]
    assert screen2.last_status == "Sigue la partida. Juega CPU 1."
    screen2.run_timers()
    assert str(live(table2).history[len(game.history)]) == f"0:{card}"
    assert live(table2).turn == 0 or live(table2).phase != PLAYING
    assert_save_replays_to_live(table2, backend2)


def test_reload_shows_the_results_again_when_the_hand_was_over() -> None:
    game = reach(
        lambda g: human_to_play(g) and len(g.hands[0]) == 1 and bool(g.legal_cards()) and g.totals[1] < 40
    )
    table, _screen, backend = make_table(seeded(game), fast=False)
    table.click_card(str(game.hands[0][0]))
    result = live(table).result
    assert result is not None and live(table).phase == HAND_OVER
    _table2, screen2, _ = make_table(backend, fast=False)
    assert screen2.body == "results" and screen2.is_open("results-dialog")
    # no reveal animation on a reload: only the key grace of the button the focus moved to
    assert [ms for ms, _ in screen2.timers] == [KEY_GRACE_MS]
    body = screen2.htmls["results-body"]
    assert f"= <strong>{result.penalties[1]}</strong>" in body
    assert 'class="result-totals"' in body
    assert screen2.get_attr("next-hand-btn", "hidden") is None


def test_stale_cpu_timer_from_before_a_new_game_does_nothing() -> None:
    game = position(["7H 2S", "4C 5C"], pile="9H", stock="KH")
    table, screen, backend = start_at(game, fast=False)
    table.click_card("7H")
    table.request_deal(2)
    table.answer_replace(True)
    table.request_deal(2)
    fresh = saved_game(backend)
    screen.run_timers()
    assert saved_game(backend) == fresh == str(Record.of(live(table)))
    assert texts(live(table).history) == []


# -- results, next hand, end of game ---------------------------------------------------------


def test_results_reveal_one_card_per_timer_and_sum_the_points() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H", totals=[3, 4])
    table, screen, backend = start_at(game, fast=False)
    table.click_card("7H")
    assert screen.body == "results" and screen.is_open("results-dialog")
    assert screen.get_attr("next-hand-btn", "hidden") == ""
    sums = []
    for step in range(1, 5):
        body = screen.htmls["results-body"]
        assert body.count("card reveal") == step, f"card {step} face up"
        sums.append(plain(re.findall(r'<p class="result-sum"[^>]*>(.*?)</p>', body)[0]))
        assert [ms for ms, _ in screen.timers] == [REVEAL_DELAY_MS]
        assert screen.get_attr("next-hand-btn", "hidden") == "", "no next hand before the count ends"
        screen.run_one()
    assert sums == ["8 = 50", "8 + Q = 60", "8 + Q + A = 61", "8 + Q + A + 5 = 66"]
    body = screen.htmls["results-body"]
    assert "8 + Q + A + 5 = <strong>66</strong>" in body
    assert "<li>Tú: 3 (+0)</li>" in body and "<li>CPU 1: 70 (+66)</li>" in body
    assert [ms for ms, _ in screen.timers] == [KEY_GRACE_MS], "the count is over: only the key grace"
    assert screen.get_attr("next-hand-btn", "hidden") is None
    assert screen.focused == "next-hand-btn"
    summary = "¡Has ganado la mano! Puntos de castigo: CPU 1 66. Totales: Tú 3, CPU 1 70."
    assert screen.last_status == summary
    assert screen.texts["results-live"] == "Tiras el 7 de corazones. " + summary
    assert_saved_is_live(table, backend)


def test_fast_results_show_everything_at_once() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H")
    table, screen, _ = start_at(game, fast=True)
    table.click_card("7H")
    assert [ms for ms, _ in screen.timers] == [KEY_GRACE_MS], "no count timers: only the key grace"
    assert "8 + Q + A + 5 = <strong>66</strong>" in screen.htmls["results-body"]


def test_next_hand_is_dealt_and_led_by_the_winner() -> None:
    # The CPU goes out with its last card, so it leads the next hand.
    game = position(["7H 2S 3S", "KH"], pile="9H", turn=1)
    table, screen, backend = start_at(game)
    assert screen.body == "cpu"
    screen.run_timers()
    assert live(table).phase == HAND_OVER and screen.body == "results"
    assert screen.texts["results-title"] == "CPU 1 gana la mano"
    hand_no = live(table).hand_no
    table.next_hand()
    game2 = live(table)
    assert game2.phase == PLAYING and game2.hand_no == hand_no + 1
    assert game2.leader == 1 and game2.turn == 1
    assert [len(h) for h in game2.hands] == [7, 7]
    assert not screen.is_open("results-dialog")
    assert screen.body == "cpu"
    assert_saved_is_live(table, backend)
    screen.run_timers()
    assert screen.body in {"human", "results"}
    # Reduced motion: the new hand's line is said together with the CPU's first turn.
    assert any(s.startswith(f"Mano {hand_no + 2}. Sale CPU 1. CPU 1 ") for s in screen.statuses)


def test_next_hand_during_the_reveal_stops_the_old_count() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H")
    table, screen, _ = start_at(game, fast=False)
    table.click_card("7H")
    table.next_hand()  # only the page's own button can do this, after the count; be safe anyway
    status = screen.last_status
    screen.run_timers()
    assert screen.last_status == status
    assert screen.get_attr("next-hand-btn", "hidden") == ""


def test_game_over_names_the_winner_and_offers_a_new_game() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H", totals=[10, 40])
    table, screen, _ = start_at(game)
    table.click_card("7H")
    assert live(table).phase == GAME_OVER
    assert screen.body == "gameover"
    assert "¡Ganas la partida con 10 puntos!" in screen.texts["results-live"]
    assert screen.get_attr("final-btn", "hidden") is None
    assert screen.get_attr("next-hand-btn", "hidden") == ""
    assert screen.focused == "final-btn"
    table.next_hand()  # refused: the game is over
    assert live(table).phase == GAME_OVER
    table.results.open_final()
    assert screen.texts["gameover-title"] == "Has ganado"
    code = live(table).code
    table.new_game_after_end()
    assert live(table).phase == PLAYING and live(table).code != code
    assert live(table).players == 2 and not screen.is_open("gameover-dialog")


def test_a_tie_at_the_bottom_shares_the_win() -> None:
    game = position(["7H", "AD", "5C"], pile="9H", totals=[30, 29, 95], rest="stock")
    table, screen, _ = start_at(game)
    table.click_card("7H")
    assert "comparten la victoria Tú y CPU 1 con 30 puntos" in screen.last_status
    table.results.open_final()
    assert screen.texts["gameover-title"] == "Victoria compartida: Tú y CPU 1"
    assert plain(screen.htmls["gameover-body"]).count("(gana)") == 2


def test_new_game_button_does_nothing_before_the_end() -> None:
    table, _screen, backend = make_table()
    table.new_game_after_end()
    table.request_deal(2)
    before = saved_game(backend)
    table.new_game_after_end()
    assert saved_game(backend) == before


def test_copy_link_puts_the_share_url_on_the_clipboard() -> None:
    table, screen, _ = make_table()
    table.request_deal(2)
    table.arrivals.copy()
    code = live(table).code
    assert screen.copied == ["https://example.org/ocho/" + link_hash(code)]
    assert screen.last_status.startswith("Enlace copiado: ")


@pytest.mark.parametrize("players", [2, 3])
def test_a_whole_game_against_the_cpu_ends_and_keeps_all_cards(players: int) -> None:
    table, screen, backend = make_table()
    table.request_deal(players)
    rng = random.Random(players)
    for _ in range(3000):
        game = live(table)
        assert sorted(game.all_cards()) == list(CARDS)
        if game.phase == GAME_OVER:
            break
        if game.phase == HAND_OVER:
            table.next_hand()
        elif table.chooser is not None:
            table.choose_suit(rng.choice("SHDC"))
        elif game.turn == 0:
            legal = [str(c) for c in game.legal_cards()]
            if legal and rng.random() < 0.8:
                table.click_card(rng.choice(legal))
            else:
                table.main_button()
        screen.run_timers()
        assert_save_replays_to_live(table, backend)
    assert live(table).phase == GAME_OVER
    assert screen.body == "gameover"


def test_eights_are_always_legal_so_the_chooser_opens_on_any_top() -> None:
    eights = [c for c in CARDS if RANK_OF[c] == 8]
    assert len(eights) == 4
    game = position(["8D 3C", "5S 6S"], pile="KS")
    table, screen, _ = start_at(game)
    table.click_card("8D")
    assert screen.body == "chooser"


def test_a_new_code_is_drawn_from_the_tables_generator() -> None:
    a, _, _ = make_table()
    b, _, _ = make_table()
    a.request_deal(2)
    b.request_deal(2)
    assert live(a).code == live(b).code == GameCode.random(2, random.Random(1))


# -- random clicking never breaks the page ---------------------------------------------------

OTHER_LINKS = [
    link_hash(GameCode.build(2, "22222")),
    link_hash(GameCode.build(3, "ZZZZZ")),
    "#partida=A2ZZZZZ2&mesa=2",  # a wrong check symbol
    "#partida=" + GameCode.build(2, "22222").text + "&mesa=3",
    "",
]

# Kinds repeat to weight them: plays and timer runs move the game on, so hands
# end and the results, next hand and game over get visited too.
KINDS = (
    ["round"] * 16
    + ["legal"] * 4
    + ["main"] * 3
    + ["run"] * 4
    + ["suit"] * 2
    + ["next"] * 2
    + ["hand", "card", "cancel", "new", "deal", "answer", "tick", "reload", "link"]
)
EVENTS = st.tuples(st.sampled_from(KINDS), st.integers(0, 51))
SUIT_CHOICES = ["S", "H", "D", "C", "X", "", "SH"]


def check_invariants(table: Table, screen: FakeScreen, backend: MemoryBackend) -> None:
    game = table.game
    if game is None:
        assert backend.getItem(SAVE_KEY) is None or screen.body in {"setup", None}
        return
    assert sorted(game.all_cards()) == list(CARDS), "a card went missing or doubled"
    raw = backend.getItem(SAVE_KEY)
    assert raw is not None
    assert save.dump(read(raw).game) == save.dump(game), "the save lags behind the game"
    assert saved_chooser(backend) == (None if table.chooser is None else str(table.chooser))
    if table.chooser is not None:
        assert game.phase == PLAYING and game.turn == 0 and table.chooser in game.hands[0]
    label = screen.texts.get("main-btn")
    if label is not None:
        assert (label == "Pasar") == (game.turn == 0 and game.can_pass())
    if table.pending is None:
        assert screen.body == expected_state(table, game), "the page shows another state than the game's"


def expected_state(table: Table, game: Game) -> str:
    if game.phase == HAND_OVER:
        return "results"
    if game.phase == GAME_OVER:
        return "gameover"
    if table.chooser is not None:
        return "chooser"
    return "human" if game.turn == 0 else "cpu"


@given(
    fast=st.booleans(),
    players=st.sampled_from([2, 3]),
    seed=st.integers(0, 2**16),
    near_end=st.booleans(),
    events=st.lists(EVENTS, min_size=30, max_size=120),
)
@budget(120)
def test_random_ui_events_never_raise_lose_cards_or_desync_the_save(
    fast: bool, players: int, seed: int, near_end: bool, events: list[tuple[str, int]]
) -> None:
    backend = MemoryBackend()
    if near_end:
        # A saved game in its fourth hand with totals close to 100, so that the
        # end of the game, its winners and the new-game button get visited too.
        code = GameCode.random(players, random.Random(seed))
        Store(backend).save(Game.new(code, origin=(3, 0, (95, 90, 97)[:players])))

    def open_table() -> tuple[Table, FakeScreen]:
        screen = FakeScreen()
        table = Table(screen, Store(backend), fast=fast, rng=random.Random(seed))
        table.start("", "https://example.org/")
        return table, screen

    table, screen = open_table()
    if not near_end:
        table.request_deal(players)
    check_invariants(table, screen, backend)
    for kind, arg in events:
        game = table.game
        if kind == "hand":
            hand = game.hands[0] if game is not None else []
            if hand:
                table.click_card(str(hand[arg % len(hand)]))
        elif kind == "legal":
            fits = game.legal_cards(0) if game is not None else []
            if fits:
                table.click_card(str(fits[arg % len(fits)]))
        elif kind == "round":  # a sensible move, then the CPU's turns
            fits = game.legal_cards(0) if game is not None and game.turn == 0 else []
            if table.chooser is not None:
                table.choose_suit("SHDC"[arg % 4])
            elif fits and arg % 5:
                table.click_card(str(fits[arg % len(fits)]))
            else:
                table.main_button()
            screen.run_timers()
        elif kind == "card":
            table.click_card(str(CARDS[arg]))
        elif kind == "main":
            table.main_button()
        elif kind == "suit":
            table.choose_suit(SUIT_CHOICES[arg % len(SUIT_CHOICES)])
        elif kind == "cancel":
            table.cancel_chooser()
        elif kind == "next":
            table.next_hand()
        elif kind == "new":
            table.new_game_after_end()
        elif kind == "deal":
            table.request_deal(2 + arg % 2)
        elif kind == "answer":
            table.answer_replace(arg % 2 == 0)
        elif kind == "tick":
            for _ in range(1 + arg % 4):
                screen.run_one()
        elif kind == "run":
            screen.run_timers()
            game = table.game
            if game is not None and table.pending is None:
                assert game.phase != PLAYING or game.turn == 0, "the CPU stalled on its turn"
        elif kind == "reload":
            table, screen = open_table()
        elif kind == "link":
            table.arrivals.open(OTHER_LINKS[arg % len(OTHER_LINKS)])
        check_invariants(table, screen, backend)


# -- issue 11: turns said once, pace, results count, focus --------------------------------------


def test_reduced_motion_says_every_cpu_turn_once_together_with_the_persons_move() -> None:
    table, screen, _ = make_table(fast=True)
    by_hand(table).request_deal(3)
    rng = random.Random(3)
    for _ in range(60):
        game = live(table)
        if game.phase != PLAYING:
            break
        said = len(screen.statuses)
        start = len(game.hand_history)
        legal = game.legal_actions()
        table.play(rng.choice(legal))
        screen.run_timers()
        new = screen.statuses[said:]
        turns = render.split_turns(live(table).hand_history[start:])
        if live(table).phase == PLAYING:
            # Everything from the person's move to their next turn arrives as ONE message,
            # so nothing is replaced before it could be shown or spoken.
            assert len(new) == 1, new
            for seat, moves in turns[1:]:
                assert render.turn_summary(seat, moves) in new[0]
            assert new[0].endswith(render.turn_prompt(table.view()))
    assert live(table).hand_history, "the hand was played"


def test_normal_pace_says_each_cpu_turn_when_it_ends() -> None:
    game = reach(lambda g: human_to_play(g) and bool(g.legal_cards()) and len(g.hands[0]) > 2, players=3)
    table, screen, _ = make_table(seeded(game), fast=False)
    card = next(c for c in game.legal_cards() if c.rank != 8)
    table.click_card(str(card))
    said = len(screen.statuses)
    while live(table).turn != 0 and live(table).phase == PLAYING:
        seat = live(table).turn
        before = len(screen.statuses)
        screen.run_one()
        if live(table).turn == seat and live(table).phase == PLAYING:
            assert len(screen.statuses) == before, "nothing said in the middle of a turn"
        else:
            assert len(screen.statuses) == before + 1
            assert screen.last_status.startswith(render.seat_name(seat) + " ")
    assert len(screen.statuses) - said == 2, "one message per CPU turn"


def test_pace_is_a_stored_preference_that_sets_the_cpu_delay() -> None:
    game = reach(lambda g: human_to_play(g) and bool(g.legal_cards()) and len(g.hands[0]) > 2)
    backend = seeded(game)
    table, screen, _ = make_table(backend, fast=False)
    assert table.setup.pace == "normal"
    table.bar.set_pace("pausado")
    assert backend.getItem("ocho-loco:ritmo") == "pausado"
    assert screen.get_attr("pace-pausado", "checked") == ""
    table.bar.set_pace("volando")  # not a pace: ignored
    assert backend.getItem("ocho-loco:ritmo") == "pausado"
    card = next(c for c in game.legal_cards() if c.rank != 8)
    table.click_card(str(card))
    assert [ms for ms, _ in screen.timers] == [PACE_DELAYS["pausado"][0]]
    table2, screen2, _ = make_table(backend, fast=False)
    assert table2.setup.pace == "pausado"
    table2.bar.set_pace("rapido")
    screen2.run_timers()
    assert Store(backend).setup().pace == "rapido"


def test_results_count_can_be_skipped_and_the_scoreboard_waits_for_it() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H", totals=[3, 4])
    table, screen, _ = start_at(game, fast=False)
    table.click_card("7H")
    assert screen.focused == "results-skip"
    assert screen.get_attr("results-skip", "hidden") is None
    board = plain(screen.htmls["scoreboard"])
    assert "70" not in board and "4" in board, "old totals until the count ends"
    assert screen.texts["results-live"] == "Tiras el 7 de corazones."
    screen.run_one()
    table.results.skip()
    body = screen.htmls["results-body"]
    assert "8 + Q + A + 5 = <strong>66</strong>" in body and "turning" not in body
    assert "70" in plain(screen.htmls["scoreboard"])
    assert screen.get_attr("results-skip", "hidden") == ""
    assert screen.get_attr("next-hand-btn", "hidden") is None and screen.focused == "next-hand-btn"
    assert "Totales: Tú 3, CPU 1 70." in screen.texts["results-live"]
    shown = screen.htmls["results-body"]
    screen.run_timers()  # the count's pending timer does nothing more
    assert screen.htmls["results-body"] == shown


def test_results_reveal_animates_only_the_card_turning_now() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H")
    table, screen, _ = start_at(game, fast=False)
    table.click_card("7H")
    turning = []
    while screen.timers:
        turning += re.findall(r'class="card reveal turning" data-card="(\w+)"', screen.htmls["results-body"])
        screen.run_one()
    assert turning == ["8S", "QH", "AD", "5C"], "each card turns once"
    assert "turning" not in screen.htmls["results-body"]


def test_game_over_title_names_the_games_winner_not_the_hands() -> None:
    # The person wins the hand, but CPU 2 has the lowest total: the title names CPU 2.
    game = position(["7H", "8S 8D QH", "AD"], pile="9H", totals=[60, 0, 10])
    table, screen, _ = start_at(game)
    table.click_card("7H")
    assert live(table).phase == GAME_OVER
    assert screen.texts["results-title"] == "Gana la partida CPU 2"
    assert screen.texts["results-sub"] == "Última mano (mano 2): la has ganado tú. Rival Normal."
    assert "Gana la partida CPU 2 con 11 puntos." in screen.texts["results-live"]


def test_after_dealing_focus_goes_to_the_first_playable_card() -> None:
    table, screen, _ = make_table()
    table.request_deal(2)
    view = table.view()
    legal = [c for c in view.sorted_hand() if c in view.legal_cards()]
    assert screen.focused == (render.card_id(legal[0]) if legal else "main-btn")
    assert screen.focused != "deal-btn"
    assert f'id="{screen.focused}"' in screen.htmls["hand"] or screen.focused == "main-btn"


def test_chooser_shows_suit_counts_and_cancel_keeps_the_eight() -> None:
    game = position(["8S 3H 5H KD", "5D 6D"], pile="9C")
    table, screen, _ = start_at(game)
    table.click_card("8S")
    labels = re.findall(r'aria-label="([^"]+)"', screen.htmls["suit-choices"])
    assert labels == ["Picas, no tienes", "Corazones, tienes 2", "Diamantes, tienes 1", "Tréboles, no tienes"]
    table.cancel_chooser()
    assert not screen.is_open("suit-dialog") and Card.parse("8S") in live(table).hands[0]


def test_the_first_words_of_a_deal_speak_of_the_game_not_its_code() -> None:
    """Issue 46: «Nueva partida, código A2HU-84F9. Te toca…» began with what a player needs least."""
    table, screen, _ = make_table()
    table.request_deal(3)
    said = screen.statuses[-1]
    assert said.startswith("Nueva partida, tres en la mesa."), said
    assert table.game is not None and table.game.code.pretty() not in said
    assert screen.texts["game-code"] == table.game.code.pretty(), "the code stays in «Marcador»"
