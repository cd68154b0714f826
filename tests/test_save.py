"""Saves: exact round trips, and clear refusals of anything that is not a save.

:func:`engine.save.load` must raise :class:`SaveError` (never ``KeyError``,
``TypeError``, ``AttributeError`` or ``IndexError``) for bad data, because the
page feeds it whatever ``localStorage`` holds.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from profiles import budget
from support import CODE2, CODE3, choose, position

from engine import bots, save
from engine.actions import DRAW
from engine.cards import CARDS
from engine.game import GAME_OVER, HAND_OVER, PLAYING, Game
from engine.save import SaveError, dump, load
from engine.view import seat_view


def sample_saves() -> list[dict[str, Any]]:
    """Saves from every kind of moment: start, mid-turn, reshuffled, hand over, game over."""
    out: list[dict[str, Any]] = []
    for code in (CODE2, CODE3):
        game, rng = Game.new(code), random.Random(code.text)
        out.append(dump(game))
        kinds: set[str] = set()
        for step in range(5000):
            if game.phase == GAME_OVER:
                out.append(dump(game))
                break
            if game.phase == HAND_OVER:
                out.append(dump(game))
                game.next_hand()
                out.append(dump(game))
                continue
            game.apply(choose(game, rng, play_bias=0.4))
            if game.draws and "draws" not in kinds:
                kinds.add("draws")
                out.append(dump(game))
            if game.reshuffles and "reshuffle" not in kinds:
                kinds.add("reshuffle")
                out.append(dump(game))
            if step % 97 == 0:
                out.append(dump(game))
    return out


SAVES = sample_saves()


def test_sample_saves_cover_every_phase() -> None:
    phases = {s["phase"] for s in SAVES}
    assert phases == {PLAYING, HAND_OVER, GAME_OVER}
    assert any(s["draws"] for s in SAVES) and any(s["reshuffles"] for s in SAVES)
    assert any(s["result"] is not None and s["phase"] == PLAYING for s in SAVES)


@pytest.mark.parametrize("index", range(len(SAVES)))
def test_round_trip_through_json_is_exact(index: int) -> None:
    data = SAVES[index]
    text = json.dumps(data)
    game = load(json.loads(text))
    assert dump(game) == data
    assert json.dumps(dump(game)) == text


def test_dump_is_plain_json_data() -> None:
    data = SAVES[0]
    assert data["format"] == "ocho-loco/save" and data["version"] == 1
    assert data["code"] == CODE2.text and data["phase"] == PLAYING and data["result"] is None

    def plain(value: object) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, str | int | bool)

    assert all(plain(s) for s in SAVES)


def test_restored_game_continues_identically() -> None:
    game, rng = Game.new(CODE3), random.Random(5)
    for _ in range(600):
        if game.phase == GAME_OVER:
            break
        if game.phase == HAND_OVER:
            game.next_hand()
            continue
        twin = load(json.loads(json.dumps(dump(game))))
        assert twin.legal_actions() == game.legal_actions()
        assert seat_view(twin, game.turn) == seat_view(game, game.turn)
        action = choose(game, rng)
        assert twin.apply(action) == game.apply(action)
        assert dump(twin) == dump(game)


# -- refusals ----------------------------------------------------------------


Change = Callable[[dict[str, Any]], object]
UNKNOWN_IN_HANDS = "La partida guardada tiene una carta desconocida en «hands»."
BAD_HISTORY = "El historial de la partida guardada no es válido."


def mutated(change: Change) -> dict[str, Any]:
    data = copy.deepcopy(SAVES[1])
    change(data)
    return data


def refuse(data: object, message: str | None = None) -> str:
    with pytest.raises(SaveError) as err:
        load(data)
    if message is not None:
        assert str(err.value) == message
    return str(err.value)


@pytest.mark.parametrize("garbage", [None, [], "x", 1, 2.5, True, {}, {"format": None}, [SAVES[0]], b"{}"])
def test_garbage_is_not_a_save(garbage: object) -> None:
    assert refuse(garbage) in {
        "La partida guardada no tiene el formato esperado.",
        "Los datos guardados no son una partida de Ocho Loco.",
    }


@pytest.mark.parametrize("version", [0, 2, None, "1", True, 1.0, [1]])
def test_unknown_version_is_refused(version: object) -> None:
    message = refuse(mutated(lambda d: d.update(version=version)))
    assert message.startswith("La partida guardada es de otra versión")


@pytest.mark.parametrize(
    "key", sorted(k for k in SAVES[1] if k not in {"format", "version", "actions", "opening", "result"})
)
def test_every_missing_key_is_named(key: str) -> None:
    refuse(mutated(lambda d: d.pop(key)), f"Falta el dato «{key}» en la partida guardada.")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("hand", True),
        ("hand", "0"),
        ("hand", 0.0),
        ("leader", False),
        ("turn", None),
        ("draws", True),
        ("draws", 1.5),
        ("reshuffles", []),
        ("actions", True),
        ("actions", "3"),
        ("phase", 1),
        ("hands", "3H"),
        ("stock", None),
        ("pile", {}),
        ("history", "0:draw"),
        ("active_suit", 1),
        ("code", 12345678),
    ],
)
def test_wrong_types_are_refused_bools_included(key: str, value: object) -> None:
    message = refuse(mutated(lambda d: d.update({key: value})))
    assert f"«{key}»" in message or "no es válid" in message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(code="A2K7QM93"), None),
        (lambda d: d.update(phase="won"), "La fase de la partida guardada no es válida."),
        (lambda d: d.update(turn=2), "El dato «turn» de la partida guardada está fuera de rango."),
        (lambda d: d.update(turn=-1), "El dato «turn» de la partida guardada está fuera de rango."),
        (lambda d: d.update(draws=4), "El dato «draws» de la partida guardada está fuera de rango."),
        (lambda d: d.update(active_suit="X"), "El palo activo de la partida guardada no es válido."),
        (lambda d: d.update(active_suit="h"), "El palo activo de la partida guardada no es válido."),
        (lambda d: d.update(totals=[0]), "Los totales de la partida guardada no son válidos."),
        (lambda d: d.update(totals=[0, True]), "Los totales de la partida guardada no son válidos."),
        (lambda d: d.update(totals=[0, -1]), "Los totales de la partida guardada no son válidos."),
        (lambda d: d.update(history=["0:draw", 5]), BAD_HISTORY),
        (lambda d: d.update(history=["x"]), BAD_HISTORY),
        (lambda d: d.update(history=["2:draw"]), BAD_HISTORY),
        (lambda d: d.update(history=["0:robar"]), BAD_HISTORY),
        (lambda d: d.update(history=["0:8s:h"]), BAD_HISTORY),
        (lambda d: d.update(history=["0:QH:S"]), BAD_HISTORY),
        (lambda d: d.update(history=[":draw"]), BAD_HISTORY),
        (lambda d: d["hands"].append([]), "La partida guardada debería tener 2 manos."),
        (lambda d: d["hands"][0].append("ZZ"), UNKNOWN_IN_HANDS),
        (lambda d: d["hands"][0].append(None), UNKNOWN_IN_HANDS),
        (
            lambda d: d["hands"][0].append(["3H"]),
            UNKNOWN_IN_HANDS,
        ),
        (
            lambda d: d["hands"].__setitem__(0, "3H"),
            "La lista de cartas «hands» de la partida guardada no es válida.",
        ),
        (lambda d: d["stock"].pop(), "En la partida guardada faltan cartas o hay cartas repetidas."),
        (
            lambda d: d["stock"].append(d["hands"][0][0]),
            "En la partida guardada faltan cartas o hay cartas repetidas.",
        ),
        (
            lambda d: d["stock"].__setitem__(0, d["pile"][0]),
            "En la partida guardada faltan cartas o hay cartas repetidas.",
        ),
        (
            lambda d: d.update(stock=d["stock"] + d["pile"], pile=[]),
            "La partida guardada no tiene carta arriba en el montón.",
        ),
        (lambda d: d.update(result=[]), "El resultado de la mano guardado no es válido."),
        (lambda d: d.update(result="x"), "El resultado de la mano guardado no es válido."),
    ],
)
def test_bad_fields_are_refused_with_a_reason(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    refuse(mutated(change), message)


def test_impossible_positions_are_refused() -> None:
    game = position(["3H 4H", "5C"], pile="6H")
    base = dump(game)

    def bad(message: str, **changes: object) -> None:
        data = copy.deepcopy(base)
        data.update(changes)
        refuse(data, message)

    bad("Los robos de este turno no cuadran con la mano guardada.", draws=2)
    bad("La partida guardada debería haber terminado ya.", totals=[100, 0])
    bad("Falta el resultado de la mano en la partida guardada.", phase=HAND_OVER)
    bad("La primera mano siempre la sale el asiento 0.", hand=0, leader=1)
    bad("En la primera mano nadie puede tener puntos todavía.", hand=0, totals=[5, 0])
    empty = copy.deepcopy(base)
    empty["stock"] += empty["hands"][1]
    empty["hands"][1] = []
    refuse(empty, "En la partida guardada alguien se ha quedado sin cartas sin acabar la mano.")
    # Hand over: the result has to agree with the cards and the totals.
    game = position(["3H", "5C"], pile="6H")
    game.apply(game.legal_actions()[0])
    over = dump(game)
    assert over["phase"] == HAND_OVER and load(over)
    for path, value, message in [
        (("turn",), 1, "El ganador de la mano guardado no cuadra con las cartas."),
        (("result", "winner"), 1, "El ganador de la mano guardado no cuadra con las cartas."),
        (("result", "hand"), 0, "El resultado de la mano guardado no cuadra con la partida."),
        (("draws",), 1, "El resultado de la mano guardado no cuadra con la partida."),
        (("result", "penalties"), [0, 6], None),
        (("result", "leftovers"), [[], ["6C"]], None),
        (("result", "totals"), [0, 6], "Los totales de la mano guardada no cuadran."),
        (("result", "game_over"), True, "La partida guardada no cuadra con la meta de 100 puntos."),
        (("result", "winners"), [0], "Los ganadores de la partida guardada no cuadran con los totales."),
        (("phase",), GAME_OVER, "La partida guardada no cuadra con la meta de 100 puntos."),
    ]:
        data = copy.deepcopy(over)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        refuse(data, message)


def test_previous_result_must_fit_the_hand_being_played() -> None:
    with_result = next(s for s in SAVES if s["phase"] == PLAYING and s["result"] is not None)
    assert load(with_result)
    for change in (
        lambda d: d.update(hand=0, leader=0),
        lambda d: d["result"].update(winner=(d["result"]["winner"] + 1) % 2),
        lambda d: d["result"].update(hand=d["hand"]),
        lambda d: d["result"].update(totals=[t + 1 for t in d["result"]["totals"]]),
    ):
        data = copy.deepcopy(with_result)
        change(data)
        refuse(data)


# -- fuzz --------------------------------------------------------------------

JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | st.sampled_from(["3H", "8S", "play", "hand_over", "game_over", "C", "A2K7QM92", "0:draw"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def mutate(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """Return ``value`` with one random change somewhere inside it."""
    containers = isinstance(value, dict | list) and len(value) > 0
    # Mostly go deeper: replacing the whole save is the least interesting change.
    if containers and depth < 4 and draw(st.integers(0, 7 if depth == 0 else 1)) > 0:
        key = (
            draw(st.sampled_from(sorted(value)))
            if isinstance(value, dict)
            else draw(st.integers(0, len(value) - 1))
        )
        value[key] = mutate(draw, value[key], depth + 1)
        return value
    op = draw(st.sampled_from(["replace", "delete", "duplicate", "swap", "bool"]))
    if op == "delete" and containers:
        if isinstance(value, dict):
            del value[draw(st.sampled_from(sorted(value)))]
        else:
            del value[draw(st.integers(0, len(value) - 1))]
        return value
    if op == "duplicate" and isinstance(value, list) and value:
        value.append(copy.deepcopy(value[draw(st.integers(0, len(value) - 1))]))
        return value
    if op == "swap" and isinstance(value, list) and len(value) > 1:
        i, j = draw(st.integers(0, len(value) - 1)), draw(st.integers(0, len(value) - 1))
        value[i], value[j] = value[j], value[i]
        return value
    if op == "bool" and isinstance(value, int):
        return bool(value)
    return draw(JUNK)


@budget(300)
@given(st.sampled_from(range(len(SAVES))), st.data())
def test_fuzzed_saves_load_or_raise_save_error_only(index: int, data: st.DataObject) -> None:
    raw = copy.deepcopy(SAVES[index])
    for _ in range(data.draw(st.integers(1, 3))):
        raw = mutate(data.draw, raw)
    try:
        game = load(raw)
    except SaveError as err:
        assert str(err), "a SaveError always says why"
        return
    # Whatever loads is a real, playable position that saves the same way again.
    assert sorted(game.all_cards()) == list(CARDS)
    assert dump(load(dump(game))) == dump(game)
    legal = game.legal_actions()
    for seat in range(game.players):
        view = seat_view(game, seat)
        if view.my_turn:
            assert bots.make_bot("cpu").choose(view) in legal, "the cpu bot copes with any loaded save"
    if legal:
        game.apply(legal[0])


def test_loaded_games_are_independent_of_the_data() -> None:
    data = copy.deepcopy(SAVES[1])
    game = load(data)
    data["hands"][0].clear()
    data["stock"].clear()
    assert dump(game) == SAVES[1]
    game.apply(DRAW)
    assert data["hands"][0] == [] and data["stock"] == []
    assert data["version"] == save.VERSION
