"""One test per house rule (numbered as at the top of :mod:`engine.game`).

Each test builds scripted positions from readable card lists with
:func:`support.position` and walks through the clause step by step.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import acts, cards, choose, legal_by_rule, position, texts

from engine import save
from engine.actions import DRAW, PASS, Action
from engine.cards import CARDS, EIGHT, SUIT_LETTERS, TEXT, Card, Suit
from engine.codes import ALPHABET, GameCode, reshuffle_rng, shuffled
from engine.game import (
    GAME_OVER,
    HAND_OVER,
    HAND_SIZE,
    MAX_DRAWS,
    PLAYING,
    Game,
    IllegalAction,
    deal_order,
    fits,
)

CODES = [GameCode.build(p, body) for p in (2, 3) for body in ("K7QM9", "22222", "ZZZZZ", "HXB4R")]


def play(game: Game, *words: str) -> None:
    for action in acts(*words):
        game.apply(action)


def refused(game: Game, word: str | Action) -> str:
    """Check that ``word`` is refused and changes nothing; return the reason."""
    action = Action.parse(word) if isinstance(word, str) else word
    before = save.dump(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert save.dump(game) == before, f"{action} was refused but changed the game"
    assert not game.is_legal(action)
    assert action not in game.legal_actions()
    return str(err.value)


# -- rule 1 ------------------------------------------------------------------


@pytest.mark.parametrize("code", CODES, ids=str)
def test_rule_01_deck_52_cards_seven_each_for_two_five_each_for_three(code: GameCode) -> None:
    assert len(CARDS) == 52 and len(set(TEXT)) == 52  # no jokers, no repeats
    size = 7 if code.players == 2 else 5
    assert HAND_SIZE[code.players] == size
    game, rng = Game.new(code), random.Random(code.text)
    for hand_no in range(3):
        assert game.hand_no == hand_no and game.phase == PLAYING
        assert [len(h) for h in game.hands] == [size] * code.players
        assert len(game.pile) == 1, "one card turned up to start the pile"
        assert len(game.stock) == 52 - size * code.players - 1
        assert sorted(game.all_cards()) == list(CARDS)
        # Dealt one card at a time round the table, then the top card.
        order = deal_order(code, hand_no)
        n = size * code.players
        assert game.hands == [order[s : n : code.players] for s in range(code.players)]
        assert game.top == order[n] and game.stock == order[n + 1 :][::-1]
        while game.phase == PLAYING:
            game.apply(choose(game, rng))
        if game.phase == GAME_OVER:
            break
        game.next_hand()


# -- rule 2 ------------------------------------------------------------------


def test_rule_02_turn_order_is_fixed_and_never_reverses() -> None:
    # Cards that skip, reverse or make people draw in other games do nothing here.
    game = position(["QH 3C 4C", "AH 5C 6C", "2H 7C 9C"], pile="KH", rest="pile")
    sizes = [len(h) for h in game.hands]
    play(game, "QH")
    assert game.turn == 1
    play(game, "AH")
    assert game.turn == 2
    play(game, "2H")
    assert game.turn == 0
    assert [len(h) for h in game.hands] == [s - 1 for s in sizes], "nobody was made to draw"
    # Draws keep the turn; a pass moves it on by one seat.
    game = position(["3C 4C", "5C 6C", "7C 9C"], pile="KH")
    play(game, "draw")
    assert game.turn == 0
    # Random games: every play or pass hands the turn to the next seat, always.
    for code in CODES:
        game, rng = Game.new(code), random.Random(code.text)
        for _ in range(400):
            if game.phase != PLAYING:
                break
            seat, action = game.turn, choose(game, rng)
            game.apply(action)
            if game.phase == PLAYING:
                expected = seat if action is DRAW else (seat + 1) % game.players
                assert game.turn == expected, (code, action, seat)


# -- rule 3 ------------------------------------------------------------------


def test_rule_03_seat_0_leads_first_hand_then_last_winner_leads() -> None:
    for code in CODES:
        game = Game.new(code)
        assert game.leader == 0 and game.turn == 0, code
    for winner in (1, 2):
        hands = ["4C 5C", "6C 7C", "9C 10C"]
        hands[winner] = "3H"
        game = position(hands, pile="KH", turn=winner, leader=0)
        play(game, "3H")
        assert game.phase == HAND_OVER and game.result is not None and game.result.winner == winner
        game.next_hand()
        assert game.hand_no == 2
        assert game.leader == winner and game.turn == winner
        assert game.legal_actions(), "the new leader is on turn"


# -- rule 4 ------------------------------------------------------------------


def test_rule_04_legal_card_is_an_8_or_matches_active_suit_or_top_rank() -> None:
    game = position(["6S 2H 8C KD 8D", "3C"], pile="6H")
    assert [str(c) for c in game.legal_cards()] == ["6S", "2H", "8C", "8D"]
    eights = [f"8{card}:{named}" for card in "CD" for named in SUIT_LETTERS]
    assert texts(game.legal_actions()) == ["6S", "2H", *eights, "draw"]
    assert refused(game, "KD") == "No vale: hace falta un corazón, un 6 o un 8."
    # Every card against every possible top card and active suit.
    for top in CARDS:
        for active in range(4) if top.is_eight else [top.suit]:
            game.pile[-1], game.active_suit = top, active
            for card in CARDS:
                assert game.is_legal_card(card) == (
                    card.rank == EIGHT or card.suit == active or card.rank == top.rank
                ), (top, active, card)


# -- rule 5 ------------------------------------------------------------------


def test_rule_05_an_8_names_any_suit_even_its_own_and_may_go_on_an_8() -> None:
    for named in SUIT_LETTERS:
        game = position(["8H 4C", "5C"], pile="6H")
        play(game, f"8H:{named}")
        assert game.active_suit == SUIT_LETTERS.index(named)
        assert game.top == Card.parse("8H")
    # An 8 on an 8, naming the suit of the first 8 again.
    game = position(["8H 4C 9H", "8C 5C 3C"], pile="6H")
    play(game, "8H:D")
    assert game.active_suit == Suit.D
    assert refused(game, "5C") == "No vale: hace falta un diamante o un 8."
    play(game, "8C:H")
    assert game.active_suit == Suit.H
    # The named suit lasts until the next card, which sets its own suit.
    play(game, "9H")
    assert game.active_suit == Suit.H and game.top == Card.parse("9H")
    # An 8 must name a suit unless it is the last card.
    game = position(["8H 4C", "5C"], pile="6H")
    assert refused(game, "8H") == "Al tirar un 8 tienes que pedir un palo."


# -- rule 6 ------------------------------------------------------------------


def first_code_turning_up_an_eight(players: int) -> GameCode:
    for body in itertools.product(ALPHABET, repeat=5):
        code = GameCode.build(players, "".join(body))
        if Game.new(code).top.is_eight:
            return code
    raise AssertionError("no code turns up an 8")  # pragma: no cover


@pytest.mark.parametrize("players", [2, 3])
def test_rule_06_a_turned_up_starting_8_keeps_its_own_suit(players: int) -> None:
    code = first_code_turning_up_an_eight(players)
    game = Game.new(code)
    top = game.top
    assert top.is_eight
    assert game.active_suit == top.suit, "nobody names a suit for the starting 8"
    assert game.history == [], "no action was taken to start"
    for card in game.hands[0]:
        assert game.is_legal_card(card) == (card.rank == EIGHT or card.suit == top.suit)
    # The same in a scripted position: a non-8 of the 8's suit is legal, others not.
    game = position(["5S 5H", "3C"], pile="8S", hand=0)
    assert game.active_suit == Suit.S
    assert texts(game.legal_actions()) == ["5S", "draw"]


# -- rule 7 ------------------------------------------------------------------


@given(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1), st.integers(0, 300))
def test_rule_04_and_the_draw_condition_are_written_once(players: int, seed: int, steps: int) -> None:
    """The fast loops in legal_cards / legal_actions agree with ``fits`` and ``can_draw``."""
    rng = random.Random(seed)
    game = Game.new(GameCode.build(players, "K7QM9"))
    for _ in range(steps):
        if game.phase == GAME_OVER:
            break
        if game.phase == HAND_OVER:
            game.next_hand()
        top_rank = game.top.rank
        for seat in range(players):
            expected = [c for c in game.hands[seat] if fits(c, game.active_suit, top_rank)]
            assert game.legal_cards(seat) == expected
        legal = game.legal_actions()
        assert sorted({a.card for a in legal if a.card is not None}) == sorted(game.legal_cards())
        assert (DRAW in legal) == game.can_draw
        game.apply(choose(game, rng))


def test_rule_07_up_to_3_draws_even_holding_a_legal_card_then_play_any_legal() -> None:
    game = position(["5H KC", "3C"], pile="6H", stock="2D 3D 4D")
    assert game.is_legal(Action.parse("5H"))
    assert game.is_legal(DRAW), "drawing is allowed while holding a legal card"
    for n in range(1, MAX_DRAWS + 1):
        drawn = game.apply(DRAW)
        assert drawn == Card.parse(f"{n + 1}D")
        assert game.draws == n and game.turn == 0, "drawing keeps the turn"
    assert refused(game, "draw") == "Ya has robado 3 cartas en este turno."
    assert DRAW not in game.legal_actions()
    # After drawing, any legal card may be played, not only a drawn one.
    play(game, "5H")
    assert game.turn == 1 and game.draws == 0
    # One draw, then play a legal card that was drawn.
    game = position(["KC 2C", "3C"], pile="6H", stock="9H")
    play(game, "draw", "9H")
    assert game.top == Card.parse("9H")


# -- rule 8 ------------------------------------------------------------------


def test_rule_08_pass_only_without_legal_card_and_after_3_draws_or_nothing_to_draw() -> None:
    # A legal card in hand: never a pass, even after 3 draws.
    game = position(["5H KC 2C 3S", "3C"], pile="6H", draws=3)
    assert not game.can_pass() and PASS not in game.legal_actions()
    assert refused(game, "pass") == "No puedes pasar: tienes carta que vale (el 5 de corazones)."
    # No legal card but draws left: draw, don't pass.
    game = position(["KC 2C", "3C"], pile="6H", stock="4S 5S 7S", draws=1)
    assert texts(game.legal_actions()) == ["draw"]
    assert refused(game, "pass") == "No puedes pasar: aún puedes robar 2 cartas."
    play(game, "draw")
    assert refused(game, "pass") == "No puedes pasar: aún puedes robar 1 carta."
    play(game, "draw")
    # No legal card and 3 draws used: pass is the only action; it moves the turn on.
    assert texts(game.legal_actions()) == ["pass"] and game.can_pass()
    play(game, "pass")
    assert game.turn == 1 and game.draws == 0 and str(game.history[-1]) == "0:pass"
    # No legal card and nothing to draw: pass at once, before any draw.
    game = position(["KC 2C", "3C"], pile="6H", stock=[], rest=1)
    assert game.nothing_to_draw() and game.draws == 0
    assert texts(game.legal_actions()) == ["pass"] and game.can_pass()
    assert refused(game, "draw") == "No queda nada que robar."
    play(game, "pass")
    assert game.turn == 1


# -- rule 9 ------------------------------------------------------------------


def test_rule_09_empty_stock_reshuffles_all_but_top_and_keeps_active_suit() -> None:
    def build(pile_order: str) -> Game:
        return position(["KC 2C", "3C 4C"], pile=pile_order, stock=[], rest="pile", active="D", reshuffles=1)

    game = build("9H 7S 8S")
    assert game.top == Card.parse("8S") and game.active_suit == Suit.D
    below = sorted(game.pile[:-1])
    drawn = game.apply(DRAW)
    assert game.reshuffles == 2
    assert game.pile == [Card.parse("8S")], "the top card stays"
    assert game.active_suit == Suit.D, "the named suit stays"
    assert sorted([drawn, *game.stock]) == below
    assert str(game.history[-1]) == "0:draw*", "the draw that emptied the pile reshuffled it first"
    # The new stock is a function of (code, hand, reshuffle number) and of
    # which cards were below the top, not of the order they were played in.
    expected = shuffled(below, reshuffle_rng(game.code, game.hand_no, 2))
    assert [drawn, *reversed(game.stock)] == expected
    other = build("7S 9H 8S")
    other.pile[:-1] = list(reversed(other.pile[:-1]))
    other.apply(DRAW)
    assert other.stock == game.stock and save.dump(other)["stock"] == save.dump(game)["stock"]
    later = position(["KC 2C", "3C 4C"], pile="9H 7S 8S", stock=[], rest="pile", active="D", hand=2)
    later.apply(DRAW)
    assert later.stock != game.stock, "another hand shuffles differently"
    # A one-card pile and no stock: nothing to draw (no reshuffle happens).
    game = position(["KC 2C", "5H"], pile="6H", stock=[], rest=1)
    assert game.nothing_to_draw() and not game.can_draw
    assert refused(game, "draw") == "No queda nada que robar."


# -- rule 10 -----------------------------------------------------------------


def test_rule_10_last_card_wins_the_hand_also_an_8_without_naming_a_suit() -> None:
    game = position(["8S", "3C 4C"], pile="6H")
    assert texts(game.legal_actions()) == ["8S", "draw"]
    assert refused(game, "8S:H") == "Con tu última carta no hace falta pedir palo."
    play(game, "8S")
    assert game.phase == HAND_OVER and game.result is not None
    assert game.result.winner == 0 and game.hands[0] == []
    assert game.legal_actions() == []
    assert refused(game, "draw") == "La mano ha terminado."
    # An ordinary last card wins too.
    game = position(["4C", "3H"], pile="6H", turn=1)
    play(game, "3H")
    assert game.phase == HAND_OVER and game.result is not None and game.result.winner == 1


# -- rule 11 -----------------------------------------------------------------


def test_rule_11_losers_score_8_as_50_faces_10_ace_1_others_face_value() -> None:
    game = position(["3H", "8S QH AD 5C", "JC KD 2S 10S"], pile="6H")
    play(game, "3H")
    result = game.result
    assert result is not None
    assert result.penalties == (0, 66, 32)
    assert result.totals == (0, 66, 32) and game.totals == [0, 66, 32]
    assert result.leftovers[1] == tuple(cards("8S QH AD 5C"))
    assert not result.game_over and result.winners == ()
    assert game.phase == HAND_OVER


# -- rule 12 -----------------------------------------------------------------


def test_rule_12_game_ends_at_100_lowest_total_wins_ties_share() -> None:
    # Totals carry over; 99 is not the end.
    game = position(["3H", "4S", "5C"], pile="6H", totals=[10, 94, 20])
    play(game, "3H")
    assert game.totals == [10, 98, 25] and game.phase == HAND_OVER and game.winners == ()
    game.next_hand()
    assert game.phase == PLAYING and game.totals == [10, 98, 25]
    # Exactly 100 ends the game; the lowest totals share the win.
    game = position(["3H", "5C", "10D"], pile="6H", totals=[40, 95, 30])
    play(game, "3H")
    assert game.totals == [40, 100, 40]
    assert game.phase == GAME_OVER and game.result is not None and game.result.game_over
    assert game.winners == (0, 2) and game.result.winners == (0, 2)
    with pytest.raises(IllegalAction, match=re.escape("La partida ha terminado.")):
        game.next_hand()
    # The hand's winner need not be the game's winner.
    game = position(["3H", "5C", "2S"], pile="6H", totals=[90, 95, 10])
    play(game, "3H")
    assert game.totals == [90, 100, 12] and game.winners == (2,) and game.phase == GAME_OVER
    game = position(["3H", "KC"], pile="6H", totals=[70, 95])
    play(game, "3H")
    assert game.totals == [70, 105] and game.winners == (0,)


# -- no deadlock -------------------------------------------------------------


def test_no_deadlock_every_top_and_suit_leaves_a_legal_card_among_the_other_51() -> None:
    # With nothing to draw, every card but the top one is in some hand, so it
    # is enough that the other 51 cards always include a legal one: the three
    # (or four) 8s alone guarantee it.
    for top in CARDS:
        for active in range(4) if top.is_eight else [top.suit]:
            others = [c for c in CARDS if c != top]
            legal = [c for c in others if c.rank == EIGHT or c.suit == active or c.rank == top.rank]
            assert len(legal) >= 3 + (not top.is_eight), (top, active)


@st.composite
def dry_positions(draw: st.DrawFn) -> Game:
    """Positions with an empty stock and a one-card pile, cards split at random."""
    players = draw(st.sampled_from([2, 3]))
    deck = draw(st.permutations(list(CARDS)))
    top, rest = deck[0], deck[1:]
    cuts = sorted(draw(st.lists(st.integers(1, 50), min_size=players - 1, max_size=players - 1, unique=True)))
    bounds = [0, *cuts, 51]
    hands = [texts(rest[a:b]) for a, b in itertools.pairwise(bounds)]
    active = SUIT_LETTERS[draw(st.integers(0, 3))] if top.is_eight else None
    turn = draw(st.integers(0, players - 1))
    return position(hands, pile=[TEXT[top]], stock=[], active=active, turn=turn)


@given(dry_positions())
def test_no_deadlock_with_nothing_to_draw_someone_holds_a_legal_card(game: Game) -> None:
    assert game.nothing_to_draw()
    holders = [s for s in range(game.players) if game.legal_cards(s)]
    assert holders, "nobody holds a legal card"
    assert all(
        bool(game.legal_cards(s)) == any(legal_by_rule(game, c) for c in game.hands[s])
        for s in range(game.players)
    )


@given(dry_positions())
def test_no_deadlock_a_full_cycle_of_passes_is_impossible_with_nothing_to_draw(game: Game) -> None:
    passes = 0
    while game.can_pass():
        game.apply(PASS)
        passes += 1
        assert passes < game.players, "every seat passed in a row"
    assert any(a.is_play for a in game.legal_actions())


# -- refusals ------------------------------------------------------------------


def test_illegal_actions_are_refused_in_spanish_and_change_nothing() -> None:
    game = position(["KD 3C 5H 8D", "4C"], pile="6H", stock="2S")
    assert refused(game, "KD") == "No vale: hace falta un corazón, un 6 o un 8."
    assert refused(game, "QH") == "No tienes la reina de corazones."
    assert refused(game, "AH") == "No tienes el as de corazones."
    assert refused(game, "8D") == "Al tirar un 8 tienes que pedir un palo."
    assert refused(game, Action("play", Card.parse("5H"), Suit.H)) == "Solo un 8 pide palo; el 5 no."
    assert refused(game, "pass") == "No puedes pasar: tienes carta que vale (el 5 de corazones)."
    with pytest.raises(IllegalAction, match=re.escape("Eso no es una jugada.")):
        game.check("KD")  # type: ignore[arg-type]
    assert refused(game, Action("fly")) == "Eso no es una jugada."
    with pytest.raises(IllegalAction, match=re.escape("La mano aún no ha terminado.")):
        game.next_hand()
    # After an 8 named clubs, the 8's rank is not asked for twice.
    game = position(["KD 3H", "4C"], pile="8H", active="C")
    assert refused(game, "KD") == "No vale: hace falta un trébol o un 8."
    assert refused(game, "3H") == "No vale: hace falta un trébol o un 8."


def test_refusal_names_the_needed_rank_in_words() -> None:
    expected = {1: "un as", 11: "una jota", 12: "una reina", 13: "un rey", 7: "un 7"}
    for rank, words in expected.items():
        top = CARDS[rank - 1]  # spades
        hand = "KD" if rank != 13 else "QD"
        game = position([hand, "2C"], pile=[TEXT[top]])
        assert refused(game, hand) == f"No vale: hace falta una pica, {words} o un 8."
