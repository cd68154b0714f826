"""Game codes: parsing, refusals with reasons, and the deals they pin forever.

``tests/golden/deals.json`` holds the first deals of a few fixed codes; it was
generated once and is compared exactly from then on, because version ``A``
codes must deal the same cards in every Python and every release. To rebuild
it after a deliberate format change (which needs a new version letter):
``OCHO_REGEN_GOLDEN=1 pytest tests/test_codes.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from support import choose

from engine.actions import DRAW
from engine.cards import CARDS, TEXT
from engine.codes import (
    ALPHABET,
    CodeError,
    GameCode,
    deal_rng,
    reshuffle_rng,
    shuffled,
    stream,
)
from engine.game import PLAYING, Game, deal_order

GOLDEN = Path(__file__).parent / "golden" / "deals.json"
GOLDEN_CODES = [
    GameCode.build(2, "K7QM9"),
    GameCode.build(3, "K7QM9"),
    GameCode.build(2, "22222"),
    GameCode.build(3, "ZZZZZ"),
    GameCode.build(2, "HXB4R"),
    GameCode.build(3, "P9T3W"),
]


def first_deal(code: GameCode) -> dict[str, Any]:
    game = Game.new(code)
    return {
        "hands": [[TEXT[c] for c in h] for h in game.hands],
        "top": TEXT[game.top],
        "stock_top_first": [TEXT[c] for c in reversed(game.stock)],
        "hand_1_order": [TEXT[c] for c in deal_order(code, 1)],
        "hand_0_reshuffle_1_of_full_deck": [TEXT[c] for c in shuffled(CARDS, reshuffle_rng(code, 0, 1))],
    }


def golden_data() -> dict[str, Any]:
    rng = stream("golden", 0)
    return {
        "stream_golden_0": [rng.random() for _ in range(3)],
        "codes": {code.text: first_deal(code) for code in GOLDEN_CODES},
    }


def dumps_compact(data: object) -> str:
    """JSON with one line per list of strings, so diffs read card by card."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return (
        re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
        + "\n"
    )


def test_golden_first_deals_never_change() -> None:
    data = golden_data()
    if os.environ.get("OCHO_REGEN_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(dumps_compact(data), encoding="utf-8")
    stored = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert stored == data
    for code in GOLDEN_CODES:
        deal = stored["codes"][code.text]
        assert len(deal["hands"]) == code.players
        dealt = [c for h in deal["hands"] for c in h]
        assert sorted([*dealt, deal["top"], *deal["stock_top_first"]]) == sorted(TEXT)


def test_doc_example_deal() -> None:
    game = Game.new("A2K7QM92")
    assert [TEXT[c] for c in game.hands[0]] == ["3H", "AS", "QD", "2H", "10D", "9S", "5H"]


# -- parsing -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["A2K7QM92", "a2k7qm92", "A2K7-QM92", " a2k7-qm92 ", "a2 k7 qm 92", "A2K7_QM92", "a-2-k-7-q-m-9-2"],
)
def test_parse_ignores_case_spaces_and_dashes(text: str) -> None:
    code = GameCode.parse(text)
    assert code.text == "A2K7QM92" and code.players == 2 and code.version == "A"
    assert str(code) == code.text and code.pretty() == "A2K7-QM92"
    assert GameCode.parse(code.pretty()) == code


def replaced(text: str, index: int, ch: str) -> str:
    return text[:index] + ch + text[index + 1 :]


VALID = GameCode.build(3, "K7QM9").text


NOT_USED = (
    "El código de partida lleva caracteres que no se usan: los códigos solo tienen letras y números, "
    "sin 0, O, 1, I ni L."
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "El código de partida tiene que ser texto."),
        (12345678, "El código de partida tiene que ser texto."),
        (b"A2K7QM92", "El código de partida tiene que ser texto."),
        (["A2K7QM92"], "El código de partida tiene que ser texto."),
        ("", "Falta el código de partida."),
        (" - - ", "Falta el código de partida."),
        ("A2K7QM9", "El código de partida tiene 8 caracteres y este tiene 7."),
        ("A2K7QM922", "El código de partida tiene 8 caracteres y este tiene 9."),
        ("A2K7QM0X", NOT_USED),
        ("A2IL1OM9", NOT_USED),
        ("A2K7QM9ñ", NOT_USED),
        ("B2K7QM92", "Este código es de otra versión del juego y no se puede abrir aquí."),
        ("Z3K7QM92", "Este código es de otra versión del juego y no se puede abrir aquí."),
        ("A4K7QM92", "El código no indica una mesa de 2 o de 3 jugadores."),
        ("A9K7QM92", "El código no indica una mesa de 2 o de 3 jugadores."),
        ("A2K7QM93", "El código de partida no es correcto: algún carácter está cambiado."),
        ("A3K7QM92", "El código de partida no es correcto: algún carácter está cambiado."),
    ],
)
def test_invalid_codes_say_why(text: object, message: str) -> None:
    with pytest.raises(CodeError) as err:
        GameCode.parse(text)
    assert str(err.value) == message
    assert isinstance(err.value, ValueError)


def test_every_single_typo_and_swap_is_caught() -> None:
    for index in range(len(VALID)):
        for ch in ALPHABET:
            if ch != VALID[index]:
                with pytest.raises(CodeError):
                    GameCode.parse(replaced(VALID, index, ch))
    for index in range(len(VALID) - 2):  # neighbours before the check symbol
        a, b = VALID[index], VALID[index + 1]
        if a != b:
            with pytest.raises(CodeError):
                GameCode.parse(VALID[:index] + b + a + VALID[index + 2 :])


def test_build_and_random_make_valid_codes() -> None:
    assert GameCode.build(2, "k7qm9").text == "A2K7QM92"
    with pytest.raises(CodeError, match=re.escape("La mesa es de 2 o de 3 jugadores.")):
        GameCode.build(4, "K7QM9")
    for body in ("K7QM", "K7QM99", "K7QM0"):
        with pytest.raises(CodeError, match=re.escape("El cuerpo del código no es válido.")):
            GameCode.build(2, body)
    rng = random.Random(7)
    made = [GameCode.random(p, rng) for p in (2, 3) * 50]
    assert [GameCode.parse(c.text) for c in made] == made
    assert [c.players for c in made[:4]] == [2, 3, 2, 3]
    again = random.Random(7)
    assert [GameCode.random(p, again) for p in (2, 3) * 50] == made, "the caller's generator decides"
    assert len({c.text[2:7] for c in made}) > 90


# -- streams and shuffles --------------------------------------------------------


def test_streams_are_fixed_by_their_parts() -> None:
    assert stream("a", 1).random() == stream("a", 1).random()
    assert stream("a", 1).random() != stream("a", 2).random()
    assert stream("a/1").random() == stream("a", 1).random(), "parts are joined with '/'"
    code = GOLDEN_CODES[0]
    assert deal_rng(code, 3).random() == stream(code.text, "deal", 3).random()
    assert reshuffle_rng(code, 3, 2).random() == stream(code.text, "reshuffle", 3, 2).random()


def test_shuffled_is_a_permutation_and_leaves_its_input_alone() -> None:
    items = list(range(20))
    out = shuffled(items, random.Random(1))
    assert items == list(range(20)) and sorted(out) == items and out != items
    assert shuffled(items, random.Random(1)) == out
    assert shuffled([], random.Random(1)) == [] and shuffled([5], random.Random(1)) == [5]


def test_deals_of_different_codes_and_hands_differ() -> None:
    orders = {tuple(deal_order(code, k)) for code in GOLDEN_CODES for k in range(4)}
    assert len(orders) == len(GOLDEN_CODES) * 4


@pytest.mark.parametrize("code", GOLDEN_CODES[:4], ids=str)
def test_deal_and_reshuffles_depend_only_on_code_hand_and_reshuffle_number(code: GameCode) -> None:
    # Two different ways of playing reach the same hand numbers with the same
    # deals, and every reshuffle is the seeded shuffle of the sorted discards.
    deals: list[dict[int, list[list[int]]]] = []
    reshuffles_seen = 0
    for seed in ("one", "two"):
        game, rng = Game.new(code), random.Random(seed)
        seen: dict[int, list[list[int]]] = {0: [list(h) for h in game.hands]}
        assert _is_fresh_deal(game)
        for _ in range(3000):
            if game.phase == PLAYING:
                action = choose(game, rng, play_bias=0.3)
                if action is DRAW and not game.stock:
                    below = sorted(game.pile[:-1])
                    expected = shuffled(below, reshuffle_rng(code, game.hand_no, game.reshuffles + 1))
                    drawn = game.apply(action)
                    assert [drawn, *reversed(game.stock)] == expected
                    reshuffles_seen += 1
                else:
                    game.apply(action)
            elif game.phase == "hand_over":
                game.next_hand()
                assert _is_fresh_deal(game)
                seen[game.hand_no] = [list(h) for h in game.hands]
            else:
                break
        deals.append(seen)
    common = deals[0].keys() & deals[1].keys()
    assert len(common) >= 2
    assert all(deals[0][k] == deals[1][k] for k in common)
    assert reshuffles_seen > 0, "the random games should have reshuffled at least once"


def _is_fresh_deal(game: Game) -> bool:
    order = deal_order(game.code, game.hand_no)
    p, n = game.players, len(game.hands[0]) * game.players
    return (
        not game.hand_history
        and game.hands == [order[s:n:p] for s in range(p)]
        and game.pile == [order[n]]
        and game.stock == order[n + 1 :][::-1]
    )
