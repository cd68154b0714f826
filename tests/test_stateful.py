"""A hypothesis state machine that throws legal and illegal actions at a game.

Hypothesis chooses among playing a legal action, trying any action at all
(mostly refused), dealing the next hand (refused unless a hand just ended),
and saving/restoring; invariants are checked after every step.
"""

from __future__ import annotations

import json
import random

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from profiles import budget
from support import choose

from engine.actions import ALL_ACTIONS, Action
from engine.cards import CARDS
from engine.codes import ALPHABET, GameCode
from engine.game import GAME_OVER, HAND_OVER, MAX_DRAWS, PLAYING, TARGET, Game, IllegalAction
from engine.save import dump, load


class GameMachine(RuleBasedStateMachine):
    game: Game
    totals: list[int]
    hand_no: int

    @initialize(
        players=st.sampled_from([2, 3]),
        body=st.text(alphabet=ALPHABET, min_size=5, max_size=5),
        warmup=st.sampled_from([0, 0, 50, 200, 400, 800]),
    )
    def start(self, players: int, body: str, warmup: int) -> None:
        # A seeded warm-up reaches later hands and game ends within few steps.
        self.game = Game.new(GameCode.build(players, body))
        rng = random.Random(body)
        for _ in range(warmup):
            if self.game.phase == GAME_OVER:
                break
            if self.game.phase == HAND_OVER:
                self.game.next_hand()
            else:
                self.game.apply(choose(self.game, rng, play_bias=0.8))
        self.totals = list(self.game.totals)
        self.hand_no = self.game.hand_no

    @precondition(lambda self: self.game.phase == PLAYING)
    @rule(picks=st.lists(st.integers(0, 100), max_size=15))
    def play_several(self, picks: list[int]) -> None:
        for pick in picks:
            legal = self.game.legal_actions()
            if not legal:
                break
            plays = [a for a in legal if a.is_play] or legal
            self.game.apply(plays[pick % len(plays)])

    @precondition(lambda self: self.game.phase == PLAYING)
    @rule(pick=st.integers(0, 100))
    def play_legal(self, pick: int) -> None:
        legal = self.game.legal_actions()
        self.game.apply(legal[pick % len(legal)])

    @precondition(lambda self: self.game.phase == PLAYING)
    @rule(pick=st.integers(0, 100))
    def prefer_cards(self, pick: int) -> None:
        # Plays end hands; without this rule most games only draw.
        legal = self.game.legal_actions()
        plays = [a for a in legal if a.is_play] or legal
        self.game.apply(plays[pick % len(plays)])

    @rule(action=st.sampled_from(ALL_ACTIONS))
    def try_any_action(self, action: Action) -> None:
        legal = self.game.is_legal(action)
        assert legal == (action in self.game.legal_actions())
        before = dump(self.game)
        try:
            self.game.apply(action)
        except IllegalAction as err:
            assert not legal and str(err)
            assert dump(self.game) == before, f"refused {action} changed the game"
        else:
            assert legal, f"{action} was accepted but not offered"

    @rule()
    def next_hand(self) -> None:
        phase, before = self.game.phase, dump(self.game)
        try:
            self.game.next_hand()
        except IllegalAction:
            assert phase != HAND_OVER
            assert dump(self.game) == before
        else:
            assert phase == HAND_OVER
            assert self.game.hand_no == self.hand_no + 1
            self.hand_no = self.game.hand_no

    @rule()
    def save_and_restore(self) -> None:
        before = dump(self.game)
        self.game = load(json.loads(json.dumps(before)))
        assert dump(self.game) == before

    @invariant()
    def all_52_cards_once(self) -> None:
        assert sorted(self.game.all_cards()) == list(CARDS)

    @invariant()
    def draws_within_the_cap(self) -> None:
        assert 0 <= self.game.draws <= MAX_DRAWS
        if self.game.phase != PLAYING:
            assert self.game.draws == 0

    @invariant()
    def phase_agrees_with_the_table(self) -> None:
        game = self.game
        empty = [s for s, h in enumerate(game.hands) if not h]
        if game.phase == PLAYING:
            assert not empty and game.legal_actions()
            assert max(game.totals) < TARGET
        else:
            assert game.result is not None and empty == [game.result.winner] and not game.legal_actions()
            assert (game.phase == GAME_OVER) == (max(game.totals) >= TARGET) == game.result.game_over
            assert tuple(game.totals) == game.result.totals
        assert game.hand_no == self.hand_no

    @invariant()
    def totals_never_go_down(self) -> None:
        assert all(now >= then for now, then in zip(self.game.totals, self.totals, strict=True))
        self.totals = list(self.game.totals)


GameMachine.TestCase.settings = budget(60, stateful_step_count=80)
test_game_machine = GameMachine.TestCase
