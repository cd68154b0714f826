"""What «Pista» and «Repaso» say holds (issue 47): each word rule, from version 3 of the review.

- a reason is said only when a sample that did not choose the move backs it;
- «Igual de buena» argues no side: both are about as good, and why when the moves show it;
- «robar solo te llena la mano» only where a draw was weighed;
- the 8's advice names its suit with its reason, never a suit you hold none of without saying why;
- no nested brackets for a screen reader.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import pytest
from support import position

from engine.actions import DRAW, PLAY, PLAY8, Action
from engine.advice import KINDS, reason_kind, suit_note
from engine.bots import CpuBot, FacilBot
from engine.cards import EIGHT, RANK_OF, SUIT_OF, Card
from engine.codes import GameCode
from engine.game import PLAYING, Game
from engine.judge import Because, Choice, settings
from engine.review import CURRENT, IGUAL, Decision, judge, review_record
from engine.view import SeatView, seat_view
from ui.hint import hint_text

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
# Fixed games whose first hand has «Bien», «Igual de buena» and an 8 advised, at each table size.
BODY = {2: "22222", 3: "AAAAA"}


def card(text: str) -> Action:
    return PLAY[Card.parse(text)]


def eight(text: str, suit: int) -> Action:
    return PLAY8[Card.parse(text)][suit]


def _view(hands: list[str], pile: str, **kwargs: object) -> SeatView:
    return seat_view(position(hands, pile, **kwargs), 0)


def suit_of(name: str) -> int:
    return ["picas", "corazones", "diamantes", "tréboles"].index(name)


@cache
def judged(players: int) -> list[tuple[SeatView, Decision, str]]:
    """Seat 0's decisions in the first hand of a fixed game (seat 0 fácil), judged; with «Pista»'s words."""
    game = Game.new(GameCode.build(players, BODY[players]))
    person, cpu = FacilBot(), CpuBot()
    out: list[tuple[SeatView, Decision, str]] = []
    while game.phase == PLAYING:
        view = seat_view(game, game.turn)
        action = (person if game.turn == 0 else cpu).choose(view)
        if game.turn == 0 and len(view.legal) > 1:
            choice = Choice(view)
            choice.run()
            out.append((view, judge(view, action), hint_text(choice.best, choice.reason())))
        game.apply(action)
    return out


def every(players: int = 0) -> list[tuple[SeatView, Decision, str]]:
    return [row for n in ((players,) if players else (2, 3)) for row in judged(n)]


def test_the_fixed_games_have_every_verdict_and_an_eight() -> None:
    verdicts = {d.verdict.split(":")[0] for _v, d, _h in every()}
    assert {"Bien", IGUAL} <= verdicts
    assert any(d.best.suit is not None for _v, d, _h in every()), "an 8 is advised somewhere"


# -- «Igual de buena» -------------------------------------------------------------------


def test_igual_de_buena_carries_no_one_sided_reason() -> None:
    igual = [d for _v, d, _h in every() if d.verdict.startswith(IGUAL)]
    assert igual
    for d in igual:
        assert ", porque" not in d.reason, d.text()
        assert d.verdict.startswith(f"{IGUAL}: las dos salen casi igual"), d.text()


def test_igual_de_buena_says_why_both_are_as_good_when_the_moves_show_it() -> None:
    s = settings(CURRENT, 2)
    moves = (card("7H"), card("7S"))
    d = Decision(0, 0, 2, moves, (10, 0), 300, card("7S"), s, (300, 30, 3_000), "")
    assert d.verdict == f"{IGUAL}: las dos salen casi igual, porque las dos son un 7"
    eights = (eight("8S", HEARTS), eight("8S", CLUBS))
    d = Decision(0, 0, 2, eights, (10, 0), 300, eights[1], s, (300, 30, 3_000), ": tienes 2")
    assert d.verdict.endswith("porque las dos son un 8 y solo cambia el palo que pides")
    assert "Igual de buena" in d.text() and "porque" not in d.cpu_words()


# -- the reason's own sample ------------------------------------------------------------


def test_a_reason_is_said_only_when_its_own_sample_backs_it() -> None:
    view = _view(["KH 3H", "4C"], pile="9H")
    s = settings(CURRENT, 2)
    kind, words = reason_kind(view, card("KH"), card("3H"))
    assert kind == "una-carta" and words == "CPU 1 tiene una carta y sueltas la más cara"
    backed = Because(view, card("KH"), card("3H"), s)
    while not backed.step(100):
        pass
    assert backed.kind()[2], "shedding the king when CPU 1 has one card is backed"
    assert backed.words() == ", porque CPU 1 tiene una carta y sueltas la más cara"
    doubted = Because(view, card("KH"), card("3H"), replace(s, backing=1e9))
    while not doubted.step(100):
        pass
    assert doubted.words() == "", "not backed by enough standard errors: dropped"
    dropped = Because(
        view, card("KH"), card("3H"), replace(s, kinds=tuple(k for k in KINDS if k != "una-carta"))
    )
    while not dropped.step(100):
        pass
    assert dropped.words() == "", "a kind the lab's report does not back is never said"


def test_a_quoted_figure_comes_from_the_sample_that_checks_it() -> None:
    view = _view(["4H 6H 2C", "4S 5S 6S 7S"], pile="9H")
    kind, words = reason_kind(view, card("4H"), card("6H"), (0.62, 0.48, 5.0, 5.5))
    assert (
        kind == "vacias" and words == "vacías la mano antes más a menudo: 62 de cada 100 veces, frente a 48"
    )
    s = settings(CURRENT, 2)
    because = Because(view, card("4H"), card("6H"), replace(s, backing=0.0))
    while not because.step(100):
        pass
    assert because.sample is not None
    seen = because.sample.seen(0, 1)
    assert seen is not None
    # The reason's words and figures are read from the checking sample's worlds, not the choosing one's.
    assert because.kind()[:2] == reason_kind(view, card("4H"), card("6H"), seen)
    choice = Choice(view)
    choice.run()
    assert choice.weighing is not None and choice.because is not None
    assert (
        choice.because.sample is not choice.weighing and choice.because.sample.rng is not choice.weighing.rng
    )


# -- «robar solo te llena la mano» --------------------------------------------------------


def test_robar_solo_te_llena_la_mano_only_where_a_draw_was_weighed() -> None:
    # One card fits and the draw is legal, but the search never weighs the draw: no claim about it.
    view = _view(["5H 2C 3C", "4S 5S 6S 7S"], pile="9H")
    assert DRAW in view.legal and len(view.legal) == 2
    choice = Choice(view)
    choice.run()
    assert "robar" not in choice.reason()
    assert review_record("r2.A2K7QM92.n1.RxA").decisions[0].reason == ""
    for v, d, hint in every():
        said = [text for text in (d.reason, hint) if "robar solo te llena la mano" in text]
        if said:
            assert DRAW in v.legal
            assert d.played is DRAW or DRAW in d.moves, d.text()


# -- the 8's suit --------------------------------------------------------------------------


def test_an_eights_suit_comes_with_its_reason() -> None:
    view = _view(["8S 5H 6H 2C", "4S 5S 6S 7S"], pile="9D")
    assert suit_note(view, eight("8S", HEARTS)) == "tienes 2"
    assert suit_note(view, eight("8S", CLUBS)) == "tienes 1"
    assert suit_note(view, eight("8S", SPADES)) == "", "no reason to name a suit you hold none of"
    only = _view(["8S 8C", "4S 5S 6S 7S"], pile="9D")
    assert suit_note(only, eight("8S", DIAMONDS)) == "solo te quedan ochos"


def test_the_choice_never_names_a_suit_you_hold_none_of_without_a_reason() -> None:
    view = _view(["8S 5H 6H 2C", "4S 5S 6S 7S"], pile="9D")
    choice = Choice(view)
    named = {m.suit for m in choice.moves if m.card is not None and m.suit is not None}
    assert named == {HEARTS, CLUBS}
    best = choice.run()
    hint = hint_text(best, choice.reason())
    if best.suit is not None:
        assert re.search(r"pide (corazones: tienes 2|tréboles: tienes 1)\b", hint), hint


def test_every_eight_advised_names_its_suit_with_a_reason() -> None:
    seen = 0
    for v, d, hint in every():
        for text in (d.text().split("La CPU difícil: ", 1)[1], hint):
            named = re.search(r"p(?:edir|ide) (picas|corazones|diamantes|tréboles)(.*)", text)
            if not named:
                continue
            seen += 1
            assert named[2].startswith(": "), f"the suit without its reason: {text}"
            suit = suit_of(named[1])
            held = sum(1 for c in v.hand if RANK_OF[c] != EIGHT and SUIT_OF[c] == suit)
            if not held:
                assert named[2].startswith((": no tienes, pero", ": solo te quedan ochos")), text
    assert seen, "an 8 is advised in the fixed games"


# -- for a screen reader ---------------------------------------------------------------------


def _depth(text: str) -> int:
    deepest = depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        deepest = max(deepest, depth)
    return deepest


@pytest.mark.parametrize("players", [2, 3])
def test_no_nested_brackets_in_what_is_said(players: int) -> None:
    for _v, d, hint in every(players):
        assert _depth(d.text()) <= 1 and _depth(hint) == 0, (d.text(), hint)
        assert "(" not in d.reason and "%" not in d.reason
