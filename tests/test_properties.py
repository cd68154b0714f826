"""Invariants over random games: hypothesis picks codes and a seed for the player.

Each example plays a bounded stretch of one game with a seeded
``random.Random`` choosing among the legal actions, and checks after every
step that the engine still agrees with the rules as written in the tests.
"""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st
from profiles import budget
from support import choose, legal_by_rule, rule8_pass

from engine.actions import ALL_ACTIONS, DRAW, PASS
from engine.cards import CARDS
from engine.codes import ALPHABET, GameCode
from engine.game import GAME_OVER, HAND_OVER, MAX_DRAWS, PLAYING, Game, IllegalAction, deal_order
from engine.save import dump, load

codes = st.builds(
    GameCode.build,
    st.sampled_from([2, 3]),
    st.text(alphabet=ALPHABET, min_size=5, max_size=5),
)
seeds = st.integers(0, 2**32 - 1)
biases = st.sampled_from([0.0, 0.3, 0.7, 1.0])

STEPS = 300


def check_position(game: Game) -> None:
    """Everything that must hold in any position reached by legal play."""
    everything = game.all_cards()
    assert len(everything) == 52 and sorted(everything) == list(CARDS), "the 52 cards, once each"
    assert 0 <= game.draws <= MAX_DRAWS
    legal = game.legal_actions()
    if game.phase != PLAYING:
        assert legal == [] and sum(not h for h in game.hands) == 1
        return
    assert all(game.hands) and legal, "a hand in play has no empty hand and always a legal action"
    # Plays: exactly the held cards that rule 4 allows, 8s with a suit unless last.
    plays = [a for a in legal if a.is_play]
    allowed = [c for c in game.hands[game.turn] if legal_by_rule(game, c)]
    assert sorted({a.card for a in plays if a.card is not None}) == sorted(allowed)
    last = len(game.hands[game.turn]) == 1
    assert all((a.suit is None) == (last or not a.card.is_eight) for a in plays if a.card is not None)
    # Draw and pass: rule 7's cap and rule 9's supply, rule 8's condition.
    nothing = not game.stock and len(game.pile) == 1
    assert (DRAW in legal) == (game.draws < MAX_DRAWS and not nothing) == game.can_draw
    assert (PASS in legal) == rule8_pass(game) == game.can_pass()
    assert game.nothing_to_draw() == nothing
    if nothing:
        # No deadlock: with nothing to draw somebody always holds a legal card.
        assert any(game.legal_cards(s) for s in range(game.players))


def check_refusals(game: Game) -> None:
    """Every action not offered is refused, and refusing changes nothing."""
    before = dump(game)
    legal = set(game.legal_actions())
    for action in ALL_ACTIONS:
        if action in legal:
            assert game.is_legal(action), action
            continue
        try:
            game.apply(action)
        except IllegalAction as err:
            assert str(err), "a refusal always says why"
        else:
            raise AssertionError(f"{action} is not offered but was accepted")
    assert dump(game) == before, "a refused action changed the game"


def check_every_legal_action_applies(game: Game) -> None:
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply(action)
        check_position(trial)


def step(game: Game, rng: random.Random, bias: float) -> None:
    """One action (or the next deal), checking what each kind of action promises."""
    if game.phase == HAND_OVER:
        leader = game.result.winner if game.result else -1
        game.next_hand()
        assert game.leader == leader == game.turn
        return
    action = choose(game, rng, bias)
    seat, top, active, totals = game.turn, game.top, game.active_suit, list(game.totals)
    reshuffle = action is DRAW and not game.stock
    drawn = game.apply(action)
    if action is DRAW:
        assert drawn is not None and game.hands[seat][-1] == drawn and game.turn == seat
        if reshuffle:
            assert game.top == top and game.pile == [top], "rule 9 keeps the top card"
            assert game.active_suit == active, "rule 9 keeps the active suit"
            assert str(game.history[-1]) == f"{seat}:draw*"
    else:
        assert drawn is None
    assert all(after >= before for after, before in zip(game.totals, totals, strict=True))


@budget(60)
@given(codes, seeds, biases)
def test_random_play_keeps_every_invariant(code: GameCode, seed: int, bias: float) -> None:
    game, rng = Game.new(code), random.Random(seed)
    check_position(game)
    for _ in range(STEPS):
        if game.phase == GAME_OVER:
            break
        if game.phase == PLAYING:
            check_refusals(game)
            check_every_legal_action_applies(game)
        step(game, rng, bias)
        check_position(game)


@budget(30)
@given(codes, seeds, biases)
def test_save_and_restore_at_every_step_continues_identically(code: GameCode, seed: int, bias: float) -> None:
    game, rng = Game.new(code), random.Random(seed)
    for _ in range(STEPS):
        if game.phase == GAME_OVER:
            break
        twin = load(json.loads(json.dumps(dump(game))))
        assert dump(twin) == dump(game)
        assert twin.legal_actions() == game.legal_actions()
        assert twin.can_pass() == game.can_pass() and twin.can_draw == game.can_draw
        # Same choices from the same generator state give the same game.
        state = rng.getstate()
        step(game, rng, bias)
        rng_twin = random.Random()
        rng_twin.setstate(state)
        step(twin, rng_twin, bias)
        assert dump(twin) == dump(game)


@budget(20)
@given(codes, seeds, st.integers(0, 150))
def test_a_game_restored_midway_plays_out_the_same(code: GameCode, seed: int, cut: int) -> None:
    def finish(game: Game, rng: random.Random) -> list[object]:
        log: list[object] = []
        while game.phase != GAME_OVER and len(log) < 3000:
            step(game, rng, 0.6)
            log.append(dump(game)["history"][-1:] or game.hand_no)
        return [log, dump(game)]

    game, rng = Game.new(code), random.Random(seed)
    for _ in range(cut):
        if game.phase == GAME_OVER:
            break
        step(game, rng, 0.6)
    twin = load(json.loads(json.dumps(dump(game))))
    twin_rng = random.Random()
    twin_rng.setstate(rng.getstate())
    assert finish(twin, twin_rng) == finish(game, rng)


@budget(20)
@given(codes, seeds, seeds)
def test_same_code_same_deals(code: GameCode, seed_a: int, seed_b: int) -> None:
    typed = GameCode.parse(code.pretty().lower())
    assert dump(Game.new(code)) == dump(Game.new(typed))
    assert [deal_order(code, k) for k in range(5)] == [deal_order(typed, k) for k in range(5)]
    # However the hands are played, hand k is dealt the same way.
    games = [Game.new(code), Game.new(typed)]
    for game, seed in zip(games, (seed_a, seed_b), strict=True):
        rng = random.Random(seed)
        for _ in range(400):
            if game.phase != PLAYING:
                break
            step(game, rng, 0.8)
        if game.phase == HAND_OVER:
            game.next_hand()
            order = deal_order(code, 1)
            n = len(game.hands[0]) * game.players
            assert sorted(c for h in game.hands for c in h) == sorted(order[:n])
            assert game.pile == [order[n]]
