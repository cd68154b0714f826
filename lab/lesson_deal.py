"""Find the deal of «Aprende jugando» (:mod:`ui.lesson`): a code whose first hand shows every step at once.

Run ``python -m lab.lesson_deal [--tries N] [--seed S]``. Codes of two players are dealt from a
seeded generator; for each, every way a player can follow the lesson's steps (each card the
first step takes, each 8 and each suit the second one takes) is played against «Fácil», and the
code is kept only if, in all of them:

- the hand opens on the player's turn with a card that follows and an 8 in hand (step 1);
- at the next turn the 8 is the only card that fits (step 2);
- at the turn after, nothing fits and three draws bring nothing that fits, then the pass (step 3);
- the hand then ends within a few turns, however the player goes on (two ways are played: the first
  legal action, and the easy CPU's choice), and no total reaches 100 (the game goes on).

The best code (fewest turns to the hand's end, at worst) is printed with its branches.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator

from engine.actions import DRAW, PASS, Action
from engine.bots import make_level_bot
from engine.codes import GameCode
from engine.game import PLAYING, TARGET, Game
from engine.view import seat_view
from ui.lesson import HUMAN, LESSON_LEVEL, Step, asked, step_of

MAX_FREE_TURNS = 10  # the player's turns after step 3, at most, before the hand ends
CPU = make_level_bot(LESSON_LEVEL)


def cpu_until_human(game: Game) -> None:
    """Let the CPU seats move until it is the player's turn or the hand is over."""
    while game.phase == PLAYING and game.turn != HUMAN:
        game.apply(CPU.choose(seat_view(game, game.turn)))


def branches(game: Game, step: Step) -> Iterator[Action]:
    """Every legal action the lesson's ``step`` takes."""
    return (action for action in game.legal_actions() if asked(step, game, action))


def free_turns(game: Game, choose: Callable[[Game], Action]) -> int | None:
    """The player's turns until the hand ends, choosing with ``choose``; None if a total reaches 100."""
    turns = 0
    while game.phase == PLAYING:
        if game.turn == HUMAN:
            turns += 1
            while game.phase == PLAYING and game.turn == HUMAN:
                game.apply(choose(game))
        cpu_until_human(game)
    return turns if max(game.totals) < TARGET else None


def first_legal(game: Game) -> Action:
    return game.legal_actions()[0]


def easy(game: Game) -> Action:
    return CPU.choose(seat_view(game, HUMAN))


def check(code: GameCode) -> int | None:
    """The most free turns over every branch of ``code``'s lesson, or None when a branch fails."""
    start = Game.new(code)
    if step_of(start) is not Step.FOLLOW or not any(c.is_eight for c in start.hands[HUMAN]):
        return None
    worst = 0
    follows = list(branches(start, Step.FOLLOW))
    if not follows:
        return None
    for follow in follows:
        after_follow = start.copy()
        after_follow.apply(follow)
        cpu_until_human(after_follow)
        if after_follow.phase != PLAYING or step_of(after_follow) is not Step.EIGHT:
            return None
        if [a for a in after_follow.legal_actions() if a.card is not None and not a.card.is_eight]:
            return None  # the 8 must be the only card that fits
        for eight in branches(after_follow, Step.EIGHT):
            game = after_follow.copy()
            game.apply(eight)
            cpu_until_human(game)
            if game.phase != PLAYING or step_of(game) is not Step.DRAW:
                return None
            for _ in range(3):
                if game.legal_actions() != [DRAW]:
                    return None
                game.apply(DRAW)
            if game.legal_actions() != [PASS]:
                return None
            game.apply(PASS)
            cpu_until_human(game)
            for choose in (first_legal, easy):
                turns = free_turns(game.copy(), choose)
                if turns is None or turns > MAX_FREE_TURNS:
                    return None
                worst = max(worst, turns)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=46)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    found: list[tuple[int, str]] = []
    for _ in range(args.tries):
        code = GameCode.random(2, rng)
        worst = check(code)
        if worst is not None:
            found.append((worst, code.text))
            print(f"{code.pretty()}: at most {worst} turns after step 3")
    print(f"{len(found)} of {args.tries} codes fit")
    if found:
        worst, text = min(found)
        print(f"best: {GameCode.parse(text).pretty()} ({worst} turns at most after step 3)")


if __name__ == "__main__":
    main()
