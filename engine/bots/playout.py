"""Fast playouts: a hand played out on bare lists, every seat by the cpu's rules, for the search.

A search plays thousands of these, so the position is plain lists of card
numbers and a move is a ``(card, suit)`` pair, with :data:`DRAW_MOVE` or
:data:`PASS_MOVE` in place of a card and suit -1 for none. The choices are
:func:`~engine.bots.cpu.cpu_card` and :func:`~engine.bots.cpu.cpu_suit`
with the rules of the :class:`~engine.bots.cpu.CpuParams` given, so a
playout is :class:`~engine.bots.cpu.CpuBot` with those params playing every
seat (a test checks move by move that both agree, with default and other
params).
"""

from __future__ import annotations

import random

from ..actions import DRAW, Action
from ..cards import SUIT_OF
from ..codes import shuffled
from ..game import MAX_ACTIONS_PER_HAND, MAX_DRAWS
from .cpu import DEFAULT_RULES, FITS, IS_EIGHT, CpuParams, cpu_suit, rules_of

# Moves inside a playout: a card number, DRAW_MOVE or PASS_MOVE; suits -1 (none) or 0..3.
DRAW_MOVE = -1
PASS_MOVE = -2

# The seat after each seat, by table size.
_NEXT: dict[int, tuple[int, ...]] = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 3)}


def playout(
    hands: list[list[int]],
    stock: list[int],
    pile: list[int],
    *,
    active: int,
    turn: int,
    draws: int,
    short: list[list[int | None]],
    known: bool,
    rng: random.Random | int,
    first: tuple[int, int] | None = None,
    cpu: CpuParams | None = None,
) -> tuple[int, int]:
    """Play the hand out with the cpu's rules for every seat; return the winner and the actions taken.

    The lists change as the hand is played.

    ``cpu`` is the params every seat plays with (the defaults when
    ``None``). ``first`` is the move of the seat on turn before the rules
    take over. ``short`` and ``known`` carry
    :func:`~engine.bots.cpu.read_history`'s reading. A reshuffle sorts the
    discards and shuffles them with ``rng`` (an int seeds a generator at the
    first reshuffle, as most playouts have none), as the rules do with the
    code's generator.

    A seat with nothing to play draws. When the rules spend an 8 rather than
    draw (``eight_over_draw``, the default), they play the first card drawn
    that fits: every other card in the hand was already unplayable on the
    same top card and suit, so only the new card needs a look, and it is
    what :func:`~engine.bots.cpu.cpu_card` would choose. Otherwise the rules
    look at the whole hand again after each draw.
    """
    rules = DEFAULT_RULES if cpu is None else rules_of(cpu)
    eager = rules.eight_over_draw
    choose = rules.card  # cpu_card, its settings bound
    players = len(hands)
    fits = FITS
    is_eight = IS_EIGHT
    suit_of = SUIT_OF
    after = _NEXT[players]
    top = pile[-1]
    actions = 0
    move = first
    while True:
        hand = hands[turn]
        row = short[turn]
        suit = -1
        if move is not None:
            card, suit = move
            move = None
            if card < 0:  # the first move is a draw or a pass: the rules go on from there
                actions += 1
                if card == DRAW_MOVE:
                    if not stock:
                        rng = _reshuffle(stock, pile, rng)
                    hand.append(stock.pop())
                    draws += 1
                    if known:
                        _lacks_suit(row, active)
                else:
                    if known:
                        row[active] = 0
                    draws = 0
                    turn = after[turn]
                continue
        else:
            fit = fits[top * 4 + active]
            lack_row = short[after[turn]]
            if players == 2:
                threat = len(hands[1 - turn])
            else:
                a = len(hands[after[turn]])
                b = len(hands[after[after[turn]]])
                threat = a if a < b else b
            card = choose(hand, fit, threat, lack_row, True)
            while card < 0:  # nothing to play: draw until the rules play a card, or pass
                if draws < MAX_DRAWS and (stock or len(pile) > 1):
                    actions += 1
                    if not stock:
                        rng = _reshuffle(stock, pile, rng)
                    c = stock.pop()
                    hand.append(c)
                    draws += 1
                    if known:  # _lacks_suit(row, active), written out
                        row[active] = 0
                        for s in range(4):
                            k = row[s]
                            if k is not None:
                                row[s] = k + 1
                    if eager:
                        if fit[c] or is_eight[c]:
                            card = c
                    else:
                        card = choose(hand, fit, threat, lack_row, True)
                    continue
                if not eager:  # no draw left: an 8 held back is played now
                    card = choose(hand, fit, threat, lack_row, False)
                    if card >= 0:
                        break
                actions += 1
                if known:
                    row[active] = 0
                draws = 0
                turn = after[turn]
                if actions > MAX_ACTIONS_PER_HAND:
                    raise RuntimeError(f"a playout passed {MAX_ACTIONS_PER_HAND} actions")
                break
            if card < 0:
                continue
            if is_eight[card] and len(hand) > 1:
                suit = cpu_suit(hand, card, threat, lack_row, rules)
        actions += 1
        hand.remove(card)
        pile.append(card)
        top = card
        active = suit_of[card] if suit < 0 else suit
        row[suit_of[card]] = None
        known = True
        draws = 0
        if not hand:
            return turn, actions
        turn = after[turn]


def _lacks_suit(row: list[int | None], active: int) -> None:
    """A seat drew on ``active``: it had none of that suit, and one more draw since each older sign."""
    row[active] = 0
    for s in range(4):
        k = row[s]
        if k is not None:
            row[s] = k + 1


def _reshuffle(stock: list[int], pile: list[int], rng: random.Random | int) -> random.Random:
    """Turn the discards under the top card into the stock, shuffled as the rules do; return the generator.

    An int seeds a new generator, which the playout keeps for its later reshuffles.
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    order = shuffled(sorted(pile[:-1]), rng)
    order.reverse()
    stock[:] = order
    del pile[:-1]
    return rng


def move_of(action: Action) -> tuple[int, int]:
    """An action as a playout move ``(move, suit)``."""
    if action.card is None:
        return (DRAW_MOVE if action is DRAW else PASS_MOVE, -1)
    return (int(action.card), -1 if action.suit is None else int(action.suit))
