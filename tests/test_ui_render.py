"""HTML and Spanish text built from a seat's view (:mod:`ui.render`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from fake_screen import make_table, plain
from support import choose, position, reach

from engine.actions import DRAW, PASS, Action
from engine.cards import CARDS, Card
from engine.game import PLAYING, HandResult, Move
from engine.names import card_name
from engine.view import seat_view
from ui import render


def buttons(markup: str) -> dict[str, str]:
    """Opening tag of each card button, by ``data-card``."""
    out = {}
    for tag in re.findall(r"<button [^>]*>", markup):
        match = re.search(r'data-card="([^"]+)"', tag)
        assert match, tag
        out[match.group(1)] = tag
    return out


def test_every_hand_card_is_a_named_button_and_legal_ones_stand_out() -> None:
    game = position(["6H 3C 8D KS 9S", "4D 5D"], pile="9H")
    tags = buttons(render.hand_html(seat_view(game, 0)))
    assert set(tags) == {"6H", "3C", "8D", "KS", "9S"}
    for text, tag in tags.items():
        assert f'aria-label="{card_name(Card.parse(text))}"' in tag
        assert 'type="button"' in tag
    assert 'aria-label="6 de corazones"' in tags["6H"]
    assert 'aria-label="rey de picas"' in tags["KS"]
    legal = {"6H", "8D", "9S"}  # suit, any 8, rank
    for text, tag in tags.items():
        classes = re.search(r'class="([^"]+)"', tag)
        assert classes
        if text in legal:
            assert "legal" in classes.group(1).split() and "aria-disabled" not in tag
        else:
            assert "dim" in classes.group(1).split() and 'aria-disabled="true"' in tag
            assert "disabled=" not in tag.replace("aria-disabled=", ""), "dim cards stay focusable"


def test_hand_is_sorted_by_suit_then_rank() -> None:
    game = position(["KH 2S 3C AH 10D", "4D 5D"], pile="9H")
    markup = render.hand_html(seat_view(game, 0))
    assert re.findall(r'data-card="([^"]+)"', markup) == ["2S", "AH", "KH", "10D", "3C"]


def test_hand_out_of_turn_is_plain_and_a_drawn_card_is_marked() -> None:
    game = position(["6H 3C", "4D 5D"], pile="9H", turn=1)
    tags = buttons(render.hand_html(seat_view(game, 0)))
    assert all("legal" not in t and "dim" not in t for t in tags.values())
    tags = buttons(render.hand_html(seat_view(game, 0), arriving=Card.parse("3C")))
    assert "arriving" in tags["3C"] and "recién robada" in tags["3C"]
    assert "arriving" not in tags["6H"]


def test_every_rank_renders_as_text() -> None:
    for card in CARDS:
        face = render.card_face(card)
        assert plain(face) == str(card)[:-1]
        assert f'href="#suit-{str(card)[-1]}"' in face


def test_active_suit_reads_manda_and_the_suit() -> None:
    game = position(["6H 3C", "4D 5D"], pile="9H")
    view = seat_view(game, 0)
    assert render.active_suit_text(view) == "Manda ♥ corazones"
    assert plain(render.active_suit_html(view)) == "Manda ♥ corazones"
    assert 'href="#suit-H"' in render.active_suit_html(view)
    assert '<span aria-hidden="true">♥</span>' in render.active_suit_html(view), "said once, as a word"
    clubs = position(["6H 3C", "4D 5D"], pile="8S", active="C")
    assert render.active_suit_text(seat_view(clubs, 0)) == "Manda ♣ tréboles"


def test_an_eight_on_top_shows_the_suit_it_asks_for() -> None:
    game = position(["6H 3C", "4D 5D"], pile="8S", active="D")
    markup = render.discard_html(seat_view(game, 0))
    assert 'class="suit-mark" data-suit="D"' in markup
    assert "Diamantes" in plain(markup)
    assert 'aria-label="Arriba: 8 de picas, pide diamantes"' in markup
    plain_top = position(["6H 3C", "4D 5D"], pile="9H")
    markup = render.discard_html(seat_view(plain_top, 0))
    assert "suit-mark" not in markup
    assert 'aria-label="Arriba: 9 de corazones"' in markup


def test_opponents_show_counts_in_words_and_whose_turn_it_is() -> None:
    game = position(["6H 3C", "4D", "5D 6D 7D"], pile="9H", turn=2, rest=0)
    markup = render.opponents_html(seat_view(game, 0))
    assert 'aria-label="CPU 1: 1 carta boca abajo"' in markup
    assert 'aria-label="CPU 2: 3 cartas boca abajo (le toca)"' in markup
    assert 'aria-current="true"' in markup and markup.count("aria-current") == 1


@pytest.mark.parametrize(
    ("hands", "pile", "stock", "draws", "rest", "expected"),
    [
        (["2C 3C", "4C 5C"], "KH", None, 0, "stock", ("Robar (3)", "Robar (3): quedan 3 robos", True)),
        (["2C 3C 6C", "4C 5C"], "KH", None, 2, "stock", ("Robar (1)", "Robar (1): queda 1 robo", True)),
        (["2C 3C 6C 7C 9C", "4C 5C"], "KH", None, 3, "stock", ("Pasar", "Pasar", True)),
        (["2C 3C", "4C 5C"], "KH", None, 0, 1, ("Pasar", "Pasar", True)),
        (
            ["6H 3C 6C 7C 9C", "4C 5C"],
            "KH",
            None,
            3,
            "stock",
            ("Robar (0)", "Robar (0): no quedan robos", False),
        ),
    ],
)
def test_main_button_label_follows_the_engine(
    hands: list[str],
    pile: str,
    *,
    stock: str | None,
    draws: int,
    rest: str | int,
    expected: tuple[str, str, bool],
) -> None:
    game = position(hands, pile=pile, stock=stock, draws=draws, rest=rest)
    view = seat_view(game, 0)
    assert render.main_button(view) == expected
    assert (expected[0] == "Pasar") == game.can_pass()
    label, name, _enabled = expected
    assert name.startswith(label), "the accessible name is the visible label plus detail"


def test_main_button_is_disabled_with_a_clear_label_out_of_turn() -> None:
    game = position(["2C 3C", "4C 5C", "6D 7D"], pile="KH", turn=2)
    assert render.main_button(seat_view(game, 0)) == ("Espera: juega CPU 2", "Espera: juega CPU 2", False)


def test_stock_name_says_it_draws_when_it_does() -> None:
    game = position(["2C 3C", "4C 5C"], pile="KH")
    assert render.stock_name(seat_view(game, 0)) == "Mazo, 47 cartas: robar una carta"
    waiting = position(["2C 3C", "4C 5C"], pile="KH", turn=1)
    assert render.stock_name(seat_view(waiting, 0)) == "Mazo, 47 cartas"


@pytest.mark.parametrize(
    ("seat", "action", "drawn", "reshuffled", "sentence"),
    [
        (1, "8S:C", None, False, "CPU 1 tira el 8 de picas y pide tréboles."),
        (0, "8S:C", None, False, "Tiras el 8 de picas y pides tréboles."),
        (2, "QH", None, False, "CPU 2 tira la reina de corazones."),
        (0, "8D", None, False, "Tiras el 8 de diamantes."),
        (1, "draw", None, False, "CPU 1 roba una carta."),
        (0, "draw", "JC", False, "Robas la jota de tréboles."),
        (
            1,
            "draw",
            None,
            True,
            "Se barajan los descartes para hacer un mazo nuevo. CPU 1 roba una carta.",
        ),
        (0, "pass", None, False, "Pasas."),
        (2, "pass", None, False, "CPU 2 pasa."),
        (1, "AS", None, False, "CPU 1 tira el as de picas."),
    ],
)
def test_describe_action_sentences(
    seat: int, action: str, drawn: str | None, reshuffled: bool, sentence: str
) -> None:
    card = Card.parse(drawn) if drawn else None
    assert render.describe_action(seat, Action.parse(action), card, reshuffled) == sentence


def test_draw_and_pass_actions_are_the_interned_ones() -> None:
    assert render.describe_action(1, DRAW, None) == "CPU 1 roba una carta."
    assert render.describe_action(1, PASS, None) == "CPU 1 pasa."


def test_turn_prompt_says_what_to_do() -> None:
    some = position(["6H 3C", "4C 5C"], pile="9H")
    assert render.turn_prompt(seat_view(some, 0)) == "Te toca: tira una carta que valga o roba."
    assert "levantada" not in render.turn_prompt(seat_view(some, 0)), "no words that only describe the look"
    none = position(["2C 3C", "4C 5C"], pile="KH", draws=1)  # drew 3C
    assert render.turn_prompt(seat_view(none, 0)) == "Te toca. No tienes carta que valga: roba (te quedan 2)."
    stuck = position(["2C 3C", "4C 5C"], pile="KH", rest=1)
    assert render.turn_prompt(seat_view(stuck, 0)) == "Te toca. No tienes nada que tirar: pasa."


def result(leftovers: list[str], winner: int, totals: list[int], winners: tuple[int, ...] = ()) -> HandResult:
    cards = tuple(tuple(Card.parse(w) for w in h.split()) for h in leftovers)
    penalties = tuple(sum(c.points for c in h) for h in cards)
    return HandResult(
        hand=1,
        winner=winner,
        leftovers=cards,
        penalties=penalties,
        totals=tuple(totals),
        game_over=bool(winners),
        winners=winners,
    )


def test_results_sum_reads_like_the_cards_in_order() -> None:
    res = result(["", "8S QH AD 5C"], 0, [0, 66])
    faces, summary = render.results_cards_html(res.leftovers[1], 4)
    assert summary == "8 + Q + A + 5 = <strong>66</strong>"
    assert faces.count("card reveal") == 4
    faces, summary = render.results_cards_html(res.leftovers[1], 2)
    assert summary == "8 + Q = <strong>60</strong>"
    assert faces.count("card reveal") == 2 and faces.count("card back") == 2
    assert render.results_cards_html(res.leftovers[1], 0)[1] == "…"
    markup = render.results_html(res, [0, 4])
    assert "te has quedado sin cartas: 0 puntos" in markup
    assert 'data-done="1"' in markup
    assert 'aria-label="reina de corazones"' in markup
    assert (
        render.totals_html(res)
        == '<ul class="result-totals"><li>Tú: 0 (+0)</li><li>CPU 1: 66 (+66)</li></ul>'
    )


def test_hand_over_titles_and_game_over_texts() -> None:
    assert render.hand_over_title(result(["", "5C"], 0, [0, 5])) == "¡Has ganado la mano!"
    assert render.hand_over_title(result(["5C", ""], 1, [5, 0])) == "CPU 1 gana la mano"
    assert (
        render.game_over_text(result(["", "8S 8H"], 0, [3, 100], (0,))) == "¡Ganas la partida con 3 puntos!"
    )
    assert (
        render.game_over_text(result(["8S 8H", ""], 1, [100, 3], (1,)))
        == "Gana la partida CPU 1 con 3 puntos."
    )
    two = render.game_over_text(result(["", "AS", "8S 8H"], 0, [7, 7, 104], (0, 1)))
    assert two == "Empate abajo: comparten la victoria Tú y CPU 1 con 7 puntos."
    three = render.game_over_text(result(["", "AS", "2S"], 0, [110, 110, 110], (0, 1, 2)))
    assert "comparten la victoria Tú, CPU 1 y CPU 2 con 110 puntos" in three


def test_scoreboard_marks_the_person_and_the_leader() -> None:
    markup = render.scoreboard_html([12, 40], leader=1)
    assert '<tr class="me"><th scope="row">Tú</th><td>12</td></tr>' in markup
    assert '<tr class="leader"><th scope="row">CPU 1<span class="star" aria-hidden="true"> ★</span>' in markup
    assert "<caption" in markup
    # The ★ is explained: in words for a screen reader on the row, and in a note under the table.
    assert plain(markup).count("salió primero en esta mano") == 2
    assert '<p class="score-note" aria-hidden="true"><span class="star">★</span> salió primero' in markup


def test_before_the_hands_first_move_the_leader_sale_not_salio() -> None:
    """Issue 47, seam 4: «salió primero en esta mano» before anyone had played."""
    table, screen, _ = make_table()
    table.request_deal(2)
    before = plain(screen.htmls["scoreboard"])
    assert "sale primero en esta mano" in before and "salió" not in before
    table.main_button()  # a draw: the hand has begun
    assert "salió primero en esta mano" in plain(screen.htmls["scoreboard"])


def test_stock_labels() -> None:
    full = position(["2C 3C", "4C 5C"], pile="KH")
    assert (
        render.stock_label(seat_view(full, 0)) == "47 cartas"
        and render.stock_count(seat_view(full, 0)) == "47"
    )
    one = position(["2C 3C", "4C 5C"], pile="KH", stock="6C", rest=1)
    assert render.stock_label(seat_view(one, 0)) == "1 carta"
    empty = position(["2C 3C", "4C 5C"], pile="KH", rest=1)
    assert render.stock_label(seat_view(empty, 0)) == "vacío"


def test_seat_names() -> None:
    assert [render.seat_name(s) for s in range(3)] == ["Tú", "CPU 1", "CPU 2"]


# -- whole turns in one sentence ------------------------------------------------------------


def moves(seat: int, *words: str, reshuffled_at: int | None = None) -> list[Move]:
    return [Move(seat, Action.parse(w), reshuffled=(i == reshuffled_at)) for i, w in enumerate(words)]


@pytest.mark.parametrize(
    ("seat", "words", "went_out", "sentence"),
    [
        (1, ["draw", "5S"], False, "CPU 1 roba una carta y tira el 5 de picas."),
        (1, ["draw", "draw", "5S"], False, "CPU 1 roba dos cartas y tira el 5 de picas."),
        (2, ["draw", "draw", "draw", "pass"], False, "CPU 2 roba tres cartas y pasa."),
        (1, ["pass"], False, "CPU 1 pasa."),
        (1, ["8S:D"], False, "CPU 1 tira el 8 de picas y pide diamantes."),
        (1, ["draw", "8S:D"], False, "CPU 1 roba una carta, tira el 8 de picas y pide diamantes."),
        (1, ["8S"], True, "CPU 1 tira el 8 de picas y se queda sin cartas."),
        (2, ["QH"], False, "CPU 2 tira la reina de corazones."),
        (0, ["draw", "draw", "5S"], False, "Robas dos cartas y tiras el 5 de picas."),
        (0, ["8S:C"], False, "Tiras el 8 de picas y pides tréboles."),
        (0, ["draw", "draw", "draw", "pass"], False, "Robas tres cartas y pasas."),
        (0, ["AS"], True, "Tiras el as de picas y te quedas sin cartas."),
        (1, ["draw"], False, "CPU 1 roba una carta…"),
        (1, ["draw", "draw"], False, "CPU 1 roba dos cartas…"),
    ],
)
def test_turn_summary_sentences(seat: int, words: list[str], went_out: bool, sentence: str) -> None:
    assert render.turn_summary(seat, moves(seat, *words), went_out=went_out) == sentence


def test_turn_summary_mentions_a_reshuffle_once() -> None:
    turn = moves(1, "draw", "draw", "5S", reshuffled_at=1)
    assert render.turn_summary(1, turn) == (
        "CPU 1 roba dos cartas (el mazo se rehace con los descartes) y tira el 5 de picas."
    )


def test_turns_split_after_each_card_or_pass() -> None:
    history = moves(0, "7H") + moves(1, "draw", "draw", "KH") + moves(2, "pass") + moves(0, "draw")
    turns = render.split_turns(history)
    assert [(seat, [str(m.action) for m in ms]) for seat, ms in turns] == [
        (0, ["7H"]),
        (1, ["draw", "draw", "KH"]),
        (2, ["pass"]),
        (0, ["draw"]),
    ]
    assert render.last_turn(history) == moves(0, "draw")


def test_move_log_lists_every_turn_of_the_hand_newest_first() -> None:
    game = position(["7H 2S", "4C 5C"], pile="9H", stock="KH")
    assert "Todavía no ha jugado nadie" in render.move_log_html(seat_view(game, 0))
    game.apply(Action.parse("7H"))
    game.apply(Action.parse("draw"))
    game.apply(Action.parse("KH"))
    items = re.findall(r"<li[^>]*>(.*?)</li>", render.move_log_html(seat_view(game, 0)))
    assert items == ["CPU 1 roba una carta y tira el rey de corazones.", "Tú: tiras el 7 de corazones."]


def test_chooser_buttons_say_how_many_of_each_suit_you_keep() -> None:
    game = position(["8S 8H 3H 5H KD 2S", "4C 5C"], pile="9C")
    markup = render.suit_choices_html(seat_view(game, 0), Card.parse("8S"))
    labels = re.findall(r'aria-label="([^"]+)"', markup)
    # The 8 being played is not counted, nor the other 8 (it never follows a suit).
    assert labels == ["Picas, tienes 1", "Corazones, tienes 2", "Diamantes, tienes 1", "Tréboles, no tienes"]
    for label in labels:
        name, count = label.split(", ")
        assert f'<span>{name}</span> <span class="suit-count">{count}</span>' in markup


def test_each_chooser_buttons_name_contains_its_visible_text() -> None:
    """axe's label-content-name-mismatch: the visible words, read in order, are in the accessible name."""
    game = position(["8S 8H 3H 5H KD 2S", "4C 5C"], pile="9C")
    markup = render.suit_choices_html(seat_view(game, 0), Card.parse("8S"))
    buttons = re.findall(r'<button[^>]*aria-label="([^"]+)"[^>]*>(.*?)</button>', markup)
    assert len(buttons) == 4
    for label, inside in buttons:
        visible = re.sub(r"<[^>]+>", "", inside).split()
        assert visible == re.sub(r"[^\w\s]", "", label).split(), (label, visible)


def test_results_title_names_the_games_winner_with_the_hand_beneath() -> None:
    cpu_wins_game = result(["", "8S 8H", "AS"], 0, [60, 104, 19], (2,))
    assert render.results_title(cpu_wins_game) == "Gana la partida CPU 2"
    assert render.results_subtitle(cpu_wins_game) == "Última mano (mano 2): la has ganado tú."
    assert render.results_title(result(["", "8S 8H"], 0, [3, 100], (0,))) == "¡Ganas la partida!"
    shared = result(["", "AS", "8S 8H"], 0, [7, 7, 104], (0, 1))
    assert render.results_title(shared) == "Victoria compartida: Tú y CPU 1"
    assert render.results_title(result(["5C", ""], 1, [5, 0])) == "CPU 1 gana la mano"
    summary = render.results_summary(cpu_wins_game)
    assert summary == (
        "¡Has ganado la mano! Puntos de castigo: CPU 1 100, CPU 2 1. Totales: Tú 60, CPU 1 104, CPU 2 19."
        " Gana la partida CPU 2 con 19 puntos."
    )


def test_only_the_card_turning_now_is_animated() -> None:
    res = result(["", "8S QH AD 5C"], 0, [0, 66])
    faces, _ = render.results_cards_html(res.leftovers[1], 3, turning=True)
    assert faces.count("card reveal turning") == 1
    assert re.findall(r'class="card reveal turning" data-card="(\w+)"', faces) == ["AD"]
    assert "turning" not in render.results_html(res, [0, 4])


def test_hand_title_says_when_it_is_your_turn() -> None:
    mine = position(["2C 3C", "4C 5C"], pile="KH")
    assert render.hand_title(seat_view(mine, 0)) == "Tu mano (te toca)"
    theirs = position(["2C 3C", "4C 5C"], pile="KH", turn=1)
    assert render.hand_title(seat_view(theirs, 0)) == "Tu mano"


def _is_eight(card: object) -> bool:
    return str(card).startswith("8")


def test_rule_06_an_eight_turned_up_at_the_deal_asks_for_nothing() -> None:
    from support import reach

    from engine.game import PLAYING

    opened = reach(
        lambda g: g.phase == PLAYING and not g.history and _is_eight(g.top), games=3000, play_bias=0.9
    )
    label = plain(render.discard_html(seat_view(opened, 0)))
    markup = render.discard_html(seat_view(opened, 0))
    assert "pide" not in markup and "salió al repartir" in markup, label
    asked = reach(
        lambda g: bool(g.history) and g.history[-1].action.suit is not None and _is_eight(g.top),
        games=3000,
    )
    assert ", pide " in render.discard_html(seat_view(asked, 0)), "an 8 played does name a suit"


def test_after_three_draws_the_prompt_no_longer_offers_to_draw() -> None:
    from support import reach

    from engine.game import PLAYING

    game = reach(
        lambda g: g.phase == PLAYING and g.turn == 0 and not g.can_draw and bool(g.legal_cards()),
        games=3000,
        play_bias=0.2,
    )
    prompt = render.turn_prompt(seat_view(game, 0))
    assert "o roba" not in prompt and "ya no puedes robar" in prompt, prompt


def test_your_games_say_one_game_in_the_singular_and_show_no_empty_figures() -> None:
    from ui import history_html

    assert history_html.recent_caption(1) == "Tu última partida"
    assert history_html.recent_caption(12) == "Tus últimas 12 partidas"
    from engine.stats import compute

    empty = history_html.history_html(compute([]), [], "2026-12-02", {2: None, 3: None})
    assert "stats-table" not in empty and "primera partida" in empty, "no rows of 0 and —"


def test_the_page_warms_up_on_the_results_panel_this_module_draws() -> None:
    """index.html's made-up results panel is the renderer's own, so warming on it warms the real one."""
    page = (Path(__file__).resolve().parents[1] / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<template id="results-sample">(.*?)</template>', page, re.S)
    assert found, "index.html has no results sample"
    assert found.group(1) == render.sample_results_html()
    sample = render.sample_results_html()
    for part in ("result-row winner", "card reveal", "card back", "result-totals"):
        assert part in sample, part


@pytest.mark.parametrize("players", [2, 3])
def test_move_log_says_went_out_only_for_the_card_that_ended_this_hand(players: int) -> None:
    # Hand 2, one card in: the previous hand's result must not make that card a "went out".
    game = reach(lambda g: g.hand_no == 1 and g.phase == PLAYING and len(g.hand_history) == 1, players)
    items = re.findall(r"<li[^>]*>(.*?)</li>", render.move_log_html(seat_view(game, 0)))
    assert len(items) == 1
    assert "sin cartas" not in items[0], items[0]
    # Across the whole next hand, only its last card says so, once the hand is over.
    rng = random.Random(players)
    while game.phase == PLAYING:
        game.apply(choose(game, rng))
        log = render.move_log_html(seat_view(game, 0))
        assert ("sin cartas" in log) == (game.phase != PLAYING), log
