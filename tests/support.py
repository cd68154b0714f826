"""Helpers shared by the engine tests: readable positions and random play.

``position`` builds a game from card texts through :func:`engine.save.load`,
so every hand-made position is also checked by the save loader::

    game = position(["8S QH 3D", "4C 5C"], pile="9H", stock="KD")

Cards not named anywhere go to the stock (under the named ones) unless
``rest`` says otherwise, so the 52 are always all there.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from engine import save
from engine.actions import ALL_ACTIONS, DRAW, Action
from engine.cards import CARDS, EIGHT, RANK_OF, SUIT_LETTERS, SUIT_OF, Card
from engine.codes import ALPHABET, GameCode
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from engine.record import Record

CODE2 = GameCode.build(2, "K7QM9")
CODE3 = GameCode.build(3, "K7QM9")

Cards = str | Sequence[str]


@cache
def code_nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a Python file's syntax tree, in :func:`ast.walk`'s order.

    Read once a session: several tests read the project's code (its imports, its words, its
    ids), none changes a node.
    """
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def cards(spec: Cards) -> list[Card]:
    """``"8S QH"`` or ``["8S", "QH"]`` as a list of cards."""
    words = spec.split() if isinstance(spec, str) else list(spec)
    return [Card.parse(w) for w in words]


def texts(seq: Sequence[object]) -> list[str]:
    """Text forms of cards or actions."""
    return [str(x) for x in seq]


def position(
    hands: Sequence[Cards],
    pile: Cards,
    stock: Cards | None = None,
    *,
    rest: str | int = "stock",
    active: str | None = None,
    turn: int = 0,
    draws: int = 0,
    hand: int = 1,
    leader: int = 0,
    totals: Sequence[int] | None = None,
    reshuffles: int = 0,
    code: str | None = None,
) -> Game:
    """A game in the middle of a hand, built from readable card lists.

    ``pile`` lists the discards bottom to top (the last one is the top card),
    ``stock`` lists the stock top first. Unnamed cards go to ``rest``:
    ``"stock"`` (below the named stock), ``"pile"`` (under the top card) or
    a seat number (into that hand). ``active`` defaults to the top card's suit.
    """
    players = len(hands)
    hand_cards = [cards(h) for h in hands]
    pile_cards = cards(pile)
    stock_cards = cards(stock) if stock is not None else []
    named = [c for h in hand_cards for c in h] + pile_cards + stock_cards
    assert len(named) == len(set(named)), f"a card is named twice: {texts(named)}"
    left = [c for c in CARDS if c not in set(named)]
    if rest == "stock":
        stock_cards += left
    elif rest == "pile":
        pile_cards = left + pile_cards
    else:
        assert isinstance(rest, int)
        hand_cards[rest] += left
    top = pile_cards[-1]
    data = {
        "format": save.FORMAT,
        "version": save.VERSION,
        "code": code or GameCode.build(players, "K7QM9").text,
        "hand": hand,
        "leader": leader,
        "turn": turn,
        "phase": PLAYING,
        "hands": [texts(h) for h in hand_cards],
        "stock": texts(stock_cards),
        "pile": texts(pile_cards),
        "active_suit": active or SUIT_LETTERS[SUIT_OF[top]],
        "draws": draws,
        "reshuffles": reshuffles,
        "totals": list(totals) if totals is not None else [0] * players,
        "history": [],
        "result": None,
    }
    return save.load(data)


def acts(*words: str) -> list[Action]:
    return [Action.parse(w) for w in words]


def legal_by_rule(game: Game, card: int) -> bool:
    """Rule 4, written again independently of the engine."""
    top = game.pile[-1]
    return RANK_OF[card] == EIGHT or SUIT_OF[card] == game.active_suit or RANK_OF[card] == RANK_OF[top]


def rule8_pass(game: Game) -> bool:
    """Rule 8, written again: no legal card, and 3 draws used or nothing to draw."""
    if game.phase != PLAYING:
        return False
    nothing = not game.stock and len(game.pile) == 1
    no_card = not any(legal_by_rule(game, c) for c in game.hands[game.turn])
    return no_card and (game.draws == 3 or nothing)


def illegal_actions(game: Game) -> list[Action]:
    legal = set(game.legal_actions())
    return [a for a in ALL_ACTIONS if a not in legal]


def choose(game: Game, rng: random.Random, play_bias: float = 0.7) -> Action:
    """A random legal action, preferring plays so that hands finish."""
    legal = game.legal_actions()
    plays = [a for a in legal if a.is_play]
    if plays and rng.random() < play_bias:
        return rng.choice(plays)
    return rng.choice(legal)


def play_out(game: Game, rng: random.Random, max_steps: int = 100_000) -> list[str]:
    """Play ``game`` to its end with random legal actions; return the action log."""
    log: list[str] = []
    for _ in range(max_steps):
        if game.phase == "game_over":
            return log
        if game.phase == "hand_over":
            game.next_hand()
            log.append("next")
            continue
        action = choose(game, rng)
        game.apply(action)
        log.append(action.text)
    raise AssertionError(f"game did not end in {max_steps} steps: {game!r}")


def reach(
    want: Callable[[Game], bool],
    players: int = 2,
    *,
    games: int = 300,
    play_bias: float = 0.7,
    hoard: frozenset[int] = frozenset(),
) -> Game:
    """The first position of a fixed series of real games where ``want`` holds.

    Hand-made :func:`position` games cannot be saved and reloaded (a save is
    the code and the moves, and no code deals a hand-made position), so tests
    that reload search real games instead: game ``i`` is dealt from a fixed
    code and played by a seeded random player that prefers plays (``play_bias``
    of the time it has one; lower values draw more and grow the hands; seats in
    ``hoard`` draw whenever drawing is allowed, soaking up the stock). The search
    is deterministic: the same ``want`` always finds the same position.
    """
    for i in range(games):
        body = "".join(ALPHABET[(i * 7 + k * 13) % len(ALPHABET)] for k in range(5))
        game = Game.new(GameCode.build(players, body))
        rng = random.Random(i)
        for _ in range(3000):
            if want(game):
                return game
            if game.phase == GAME_OVER:
                break
            if game.phase == HAND_OVER:
                game.next_hand()
            else:
                legal = game.legal_actions()
                hoarding = game.turn in hoard and legal[-1] is DRAW
                game.apply(DRAW if hoarding else choose(game, rng, play_bias))
    raise AssertionError(f"no position found in {games} games")


def human_to_play(game: Game) -> bool:
    return game.phase == PLAYING and game.turn == 0


def walk(players: int, seed: int, steps: int) -> Game:
    """A game after ``steps`` random actions (hands are dealt again as they end)."""
    rng = random.Random(seed)
    game = Game.new(GameCode.random(players, rng))
    for _ in range(steps):
        if game.phase == GAME_OVER:
            break
        if game.phase == HAND_OVER:
            game.next_hand()
            continue
        game.apply(choose(game, rng, play_bias=0.6))
    return game


def played(code: GameCode, seed: int, steps: int) -> tuple[Game, list[dict[str, object]]]:
    """A game of ``code`` after ``steps`` random legal moves, and the save dump after each move."""
    rng = random.Random(seed)
    game = Game.new(code)
    dumps = []
    for _ in range(steps):
        if game.phase == GAME_OVER:
            break
        if game.phase == HAND_OVER:
            game.next_hand()
        game.apply(choose(game, rng, 0.7))
        dumps.append(save.dump(game))
    return game, dumps


def round_trip(record: Record) -> Record:
    """``record``'s text read back, checked to be the same record with the same, URL-safe text."""
    text = str(record)
    back = Record.parse(text)
    assert back == record and str(back) == text, text
    assert all(ch.isalnum() or ch in "-_." for ch in text), f"URL-safe: {text}"
    return back
