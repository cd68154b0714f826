"""«Aprende jugando» (issue 46): a first hand that teaches, on the fake screen, by taps.

The lesson deals a fixed code against «Fácil» (ui/lesson.py, chosen by lab/lesson_deal.py); each
step waits for the player's own move, «Saltar la lección» leaves it, and it ends at a normal table.
Its game is never kept: no save, no link, nothing in «Tus partidas».
"""

from __future__ import annotations

from fake_screen import FakeScreen, make_table, press
from test_ui_table import live

from engine.actions import DRAW, PASS
from engine.game import PLAYING
from lab.lesson_deal import check
from ui.lesson import LESSON_CODE, Step, step_of
from ui.storage import SAVE_KEY, MemoryBackend
from ui.table import Table


def human_moves(table: Table) -> list[str]:
    return [str(m.action) for m in live(table).hand_history if m.seat == 0]


def cpu_turn(screen: FakeScreen) -> None:
    """The CPU's turn, on the timer (a fast table: no beat of its own)."""
    screen.run_timers()


def test_the_lessons_deal_shows_every_step_in_every_way_of_following_them() -> None:
    assert check(LESSON_CODE) is not None, "lab.lesson_deal no longer accepts the lesson's code"


def test_a_first_visit_offers_the_lesson_and_a_visit_that_dealt_before_does_not() -> None:
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    assert screen.get_attr("learn-btn", "hidden") is None, "offered beside «Repartir» on a first visit"
    press(table, "deal-btn", players=2)
    assert screen.get_attr("learn-btn", "hidden") == ""
    table.leave_game()
    assert screen.get_attr("learn-btn", "hidden") == "", "the setup is remembered: not a first visit"
    _again, screen2, _ = make_table(backend)
    assert screen2.get_attr("learn-btn", "hidden") == ""


def test_the_lesson_by_taps_each_step_waits_for_its_move_and_ends_at_a_normal_deal() -> None:
    table, screen, backend = make_table()
    press(table, "learn-btn")
    game = live(table)
    assert game.code == LESSON_CODE and table.level == "facil"
    assert screen.body == "human" and screen.get_attr("lesson", "hidden") is None
    assert screen.hash == "", "the lesson has no link"

    # Step 1: follow the suit or the number. The 8 (also legal) and a draw wait for their own steps.
    assert screen.texts["lesson-step"].startswith("Paso 1 de 4."), screen.texts["lesson-step"]
    assert "la jota de picas" in screen.texts["lesson-step"]
    assert (
        screen.get_attr("card-JS", "data-lesson") == "1" and screen.get_attr("card-8H", "data-lesson") is None
    )
    table.click_card("8H")
    assert not screen.is_open("suit-dialog") and human_moves(table) == []
    assert "el 8, en el paso siguiente" in screen.last_status
    press(table, "main-btn")
    assert human_moves(table) == [], "a draw is not what step 1 asks"
    table.click_card("JS")
    assert human_moves(table) == ["JS"]
    cpu_turn(screen)

    # Step 2: the 8 is wild and names a suit.
    assert screen.body == "human" and screen.texts["lesson-step"].startswith("Paso 2 de 4."), screen.texts
    assert screen.get_attr("card-8H", "data-lesson") == "1" and screen.focused == "card-8H"
    press(table, "main-btn")
    assert human_moves(table) == ["JS"] and screen.last_status == "Ahora tira el 8."
    table.click_card("8H")
    assert screen.is_open("suit-dialog")
    table.choose_suit("H")
    assert human_moves(table) == ["JS", "8H:H"]
    cpu_turn(screen)

    # Step 3: draw up to 3, then pass; the forced moves wait for the player's taps meanwhile.
    assert screen.texts["lesson-step"].startswith("Paso 3 de 4."), screen.texts["lesson-step"]
    assert table.setup.forced and not screen.timers, "no forced move plays itself during the step"
    assert screen.get_attr("main-btn", "data-lesson") == "1" and screen.focused == "main-btn"
    for n in range(3):
        press(table, "main-btn")
        assert human_moves(table)[2:] == ["draw"] * (n + 1)
        assert not screen.timers
    press(table, "main-btn")
    assert human_moves(table)[2:] == ["draw", "draw", "draw", "pass"]
    assert screen.get_attr("main-btn", "data-lesson") is None

    # The hand played out as the player likes (forced moves play themselves again), to its count.
    while live(table).phase == PLAYING:
        if screen.body == "human" and not screen.timers:
            assert step_of(live(table)) is Step.PLAY_ON
            assert screen.texts["lesson-step"].startswith("Sigue jugando")
            table.play(live(table).legal_actions()[0])
        else:
            screen.run_one()
    assert screen.body == "results"
    screen.run_timers()
    # Step 4: the leftovers are penalty points; 100 ends the game. Said in the panel's live region.
    assert "Paso 4 de 4" in screen.texts["results-live"] and "100" in screen.texts["results-live"]
    assert screen.texts["next-hand-btn"] == "Jugar una partida"
    assert screen.get_attr("replay-btn", "hidden") == ""
    assert backend.getItem(SAVE_KEY) is None, "nothing of the lesson was saved"

    press(table, "next-hand-btn")
    assert live(table).code != LESSON_CODE and live(table).hand_no == 0
    assert screen.body == "human" and screen.get_attr("lesson", "hidden") == ""
    assert screen.texts["next-hand-btn"] == "Siguiente mano"
    assert any(s.startswith("Fin de la lección. Nueva partida") for s in screen.statuses)
    assert backend.getItem(SAVE_KEY) is not None, "the normal deal is saved as ever"
    assert table.history.entries == [], "the lesson never counts in «Tus partidas»"


def test_saltar_leaves_the_lesson_for_the_setup_and_keeps_nothing() -> None:
    table, screen, backend = make_table()
    press(table, "learn-btn")
    table.click_card("JS")
    cpu_turn(screen)
    press(table, "lesson-skip")
    assert table.game is None and screen.body == "setup"
    assert screen.last_status == "Fin de la lección. Elige mesa y pulsa «Repartir»."
    assert screen.get_attr("lesson", "hidden") == "" and screen.focused == "deal-btn"
    assert backend.getItem(SAVE_KEY) is None and table.history.entries == []
    assert screen.get_attr("learn-btn", "hidden") is None, "still a first visit: offered again"


def test_a_saved_game_is_untouched_by_the_lesson_and_comes_back_after_it() -> None:
    table, screen, backend = make_table()
    press(table, "deal-btn", players=3)
    real = live(table)
    table.play(DRAW if DRAW in real.legal_actions() else PASS)
    screen.run_timers()
    saved = backend.getItem(SAVE_KEY)
    real_hash = screen.hash
    press(table, "learn-rules-btn")  # from «Reglas»
    assert live(table).code == LESSON_CODE and screen.hash == ""
    table.click_card("JS")
    cpu_turn(screen)
    assert backend.getItem(SAVE_KEY) == saved
    press(table, "lesson-skip")
    assert table.game is real and screen.hash == real_hash
    assert screen.last_status == "Fin de la lección. Sigue tu partida."
    assert backend.getItem(SAVE_KEY) == saved and table.history.entries == []
    assert table.setup.players == 3, "the lesson's table is not remembered as the player's"


def test_otra_partida_during_the_lesson_deals_at_once_when_no_game_was_under_it() -> None:
    table, screen, _ = make_table()
    press(table, "learn-btn")
    press(table, "deal-btn", players=2)
    assert not screen.is_open("replace-dialog"), "a lesson is not a game to lose"
    assert live(table).code != LESSON_CODE and screen.body == "human"
    assert screen.get_attr("lesson", "hidden") == "" and table.history.entries == []
