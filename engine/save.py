"""Position snapshots, format version 1: what the page's first version saved.

Saves are now records (:mod:`engine.record`: the code and every move,
replayed through the rules). This module still reads the snapshots the first
version of the page wrote, so those games are not lost, and tests use it to
build hand-made positions. :func:`load` checks everything it reads and raises
:class:`SaveError` (one type, a Spanish message) for anything wrong: it never
lets a ``KeyError`` or ``TypeError`` out. :func:`legacy_record` turns a
snapshot into a record and accepts it only if replaying that record gives
exactly the same position.

Format ``ocho-loco/save`` version 1::

    {"format": "ocho-loco/save", "version": 1, "code": "A2K7QM92",
     "hand": 0, "leader": 0, "turn": 1, "phase": "play",
     "hands": [["3H", ...], [...]], "stock": ["4C", ...],   # stock top first
     "pile": ["10C", ...],                                  # pile top last
     "active_suit": "C", "draws": 1, "reshuffles": 0,
     "totals": [0, 0], "history": ["0:draw", ...],          # this hand only
     "actions": 1,                                          # optional: actions this hand
     "opening": "7H",                                       # optional: the card turned up at the deal
     "result": null | {"hand", "winner", "leftovers", "penalties",
                       "totals", "game_over", "winners"}}

History lines are ``<seat>:<action>``, and ``reshuffle`` right before the
draw that emptied the pile into a new stock.
"""

from __future__ import annotations

from typing import Any

from .actions import BY_TEXT as ACTIONS_BY_TEXT
from .actions import DRAW
from .cards import BY_TEXT, POINTS, SUIT_LETTERS, TEXT, Card
from .codes import CodeError, GameCode
from .game import GAME_OVER, HAND_OVER, MAX_DRAWS, PLAYING, TARGET, Game, HandResult, Move, Phase
from .levels import DEFAULT_LEVEL
from .record import Record, RecordError

FORMAT = "ocho-loco/save"
VERSION = 1


class SaveError(ValueError):
    """Saved data that cannot be restored; the message says why, in Spanish."""


def dump(game: Game) -> dict[str, Any]:
    """The save of ``game``: plain dicts, lists, strings, ints and bools."""
    result = game.result
    return {
        "format": FORMAT,
        "version": VERSION,
        "code": game.code.text,
        "hand": game.hand_no,
        "leader": game.leader,
        "turn": game.turn,
        "phase": game.phase,
        "hands": [[TEXT[c] for c in h] for h in game.hands],
        "stock": [TEXT[c] for c in reversed(game.stock)],
        "pile": [TEXT[c] for c in game.pile],
        "active_suit": SUIT_LETTERS[game.active_suit],
        "draws": game.draws,
        "reshuffles": game.reshuffles,
        "totals": list(game.totals),
        "history": _history_lines(game.hand_history),
        "actions": game.actions_this_hand,
        "opening": None if game.opening is None else TEXT[game.opening],
        "result": None
        if result is None
        else {
            "hand": result.hand,
            "winner": result.winner,
            "leftovers": [[TEXT[c] for c in h] for h in result.leftovers],
            "penalties": list(result.penalties),
            "totals": list(result.totals),
            "game_over": result.game_over,
            "winners": list(result.winners),
        },
    }


def _get(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    if key not in data:
        raise SaveError(f"Falta el dato «{where}{key}» en la partida guardada.")
    value = data[key]
    # bool is an int subclass: refuse it where a number is expected.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SaveError(f"El dato «{where}{key}» de la partida guardada no es válido.")
    return value


def _int(data: dict[str, Any], key: str, low: int, high: int, where: str = "") -> int:
    value = _get(data, key, int, where)
    if not low <= value <= high:
        raise SaveError(f"El dato «{where}{key}» de la partida guardada está fuera de rango.")
    return int(value)


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise SaveError(f"La lista de cartas «{what}» de la partida guardada no es válida.")
    out = []
    for item in value:
        card = BY_TEXT.get(item) if isinstance(item, str) else None
        if card is None:
            raise SaveError(f"La partida guardada tiene una carta desconocida en «{what}».")
        out.append(card)
    return out


def _history_lines(moves: list[Move]) -> list[str]:
    lines = []
    for move in moves:
        if move.reshuffled:
            lines.append("reshuffle")
        lines.append(f"{move.seat}:{move.action.text}")
    return lines


def _history_moves(lines: list[object], players: int) -> list[Move]:
    """The typed history of version-1 lines; :class:`SaveError` for a line the game never writes."""
    moves: list[Move] = []
    reshuffle = False
    for entry in lines:
        if entry == "reshuffle" and not reshuffle:
            reshuffle = True
            continue
        seat, _, what = entry.partition(":") if isinstance(entry, str) else ("", "", "")
        action = ACTIONS_BY_TEXT.get(what.upper())
        if seat not in [str(s) for s in range(players)] or action is None or action.text != what:
            raise SaveError("El historial de la partida guardada no es válido.")
        if reshuffle and action is not DRAW:
            raise SaveError("El historial de la partida guardada no es válido.")
        moves.append(Move(int(seat), action, reshuffle))
        reshuffle = False
    if reshuffle:
        raise SaveError("El historial de la partida guardada no es válido.")
    return moves


def _load_result(data: Any, players: int) -> HandResult:
    if not isinstance(data, dict):
        raise SaveError("El resultado de la mano guardado no es válido.")
    w = "result."
    leftovers = _get(data, "leftovers", list, w)
    penalties = _get(data, "penalties", list, w)
    totals = _get(data, "totals", list, w)
    winners = _get(data, "winners", list, w)
    if len(leftovers) != players or len(penalties) != players or len(totals) != players:
        raise SaveError("El resultado de la mano guardado no cuadra con la mesa.")
    for seq in (penalties, totals, winners):
        if any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in seq):
            raise SaveError("El resultado de la mano guardado tiene números no válidos.")
    if any(x >= players for x in winners):
        raise SaveError("El resultado de la mano guardado nombra un asiento que no existe.")
    return HandResult(
        hand=_int(data, "hand", 0, 10**6, w),
        winner=_int(data, "winner", 0, players - 1, w),
        leftovers=tuple(tuple(_cards(h, "result.leftovers")) for h in leftovers),
        penalties=tuple(penalties),
        totals=tuple(totals),
        game_over=bool(_get(data, "game_over", bool, w)),
        winners=tuple(winners),
    )


def load(data: object) -> Game:
    """Rebuild the game saved by :func:`dump`, or raise :class:`SaveError`."""
    if not isinstance(data, dict):
        raise SaveError("La partida guardada no tiene el formato esperado.")
    if data.get("format") != FORMAT:
        raise SaveError("Los datos guardados no son una partida de Ocho Loco.")
    version = data.get("version")
    # ``True == 1`` and ``1.0 == 1`` in Python: compare the type too.
    if type(version) is not int or version != VERSION:
        raise SaveError("La partida guardada es de otra versión y no se puede abrir.")
    try:
        code = GameCode.parse(_get(data, "code", str))
    except CodeError as err:
        raise SaveError(f"El código de la partida guardada no es válido: {err}") from None
    players = code.players
    phase = _get(data, "phase", str)
    if phase not in (PLAYING, HAND_OVER, GAME_OVER):
        raise SaveError("La fase de la partida guardada no es válida.")
    hands_raw = _get(data, "hands", list)
    if len(hands_raw) != players:
        raise SaveError(f"La partida guardada debería tener {players} manos.")
    hands = [_cards(h, "hands") for h in hands_raw]
    stock = _cards(_get(data, "stock", list), "stock")
    pile = _cards(_get(data, "pile", list), "pile")
    everything = [c for h in hands for c in h] + stock + pile
    if len(everything) != 52 or len(set(everything)) != 52:
        raise SaveError("En la partida guardada faltan cartas o hay cartas repetidas.")
    if not pile:
        raise SaveError("La partida guardada no tiene carta arriba en el montón.")
    totals = _get(data, "totals", list)
    if len(totals) != players or any(
        not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < TARGET + 50 * 52 for t in totals
    ):
        raise SaveError("Los totales de la partida guardada no son válidos.")
    history = _history_moves(_get(data, "history", list), players)
    suit_text = _get(data, "active_suit", str)
    if len(suit_text) != 1 or suit_text not in SUIT_LETTERS:
        raise SaveError("El palo activo de la partida guardada no es válido.")
    game = Game.__new__(Game)
    game.code = code
    game.players = players
    game.hand_no = _int(data, "hand", 0, 10**6)
    game.leader = _int(data, "leader", 0, players - 1)
    game.turn = _int(data, "turn", 0, players - 1)
    game.phase = Phase(phase)
    game.hands = hands
    stock.reverse()
    game.stock = stock
    game.pile = pile
    # The card turned up at the deal is known only while nothing has covered or reshuffled it away.
    # The card turned up at the deal: saved, or else the bottom of a pile nothing has reshuffled away.
    if data.get("opening") is not None:
        game.opening = _cards([data["opening"]], "opening")[0]
    else:
        played = sum(1 for m in history if m.action.card is not None)
        whole = len(pile) == 1 + played and not any(m.reshuffled for m in history)
        game.opening = pile[0] if whole else None
    game.active_suit = SUIT_LETTERS.index(suit_text)
    game.draws = _int(data, "draws", 0, MAX_DRAWS)
    game.reshuffles = _int(data, "reshuffles", 0, 10**6)
    game.totals = list(totals)
    game.history = history
    game.hand_start = 0
    game.actions_this_hand = _int(data, "actions", 0, 10**9) if "actions" in data else len(history)
    raw_result = data.get("result")
    game.result = None if raw_result is None else _load_result(raw_result, players)
    _check_consistency(game)
    # Earlier hands are known only by their totals (a snapshot keeps one hand's moves).
    before = list(game.totals)
    if game.phase != PLAYING and game.result is not None:
        before = [t - p for t, p in zip(game.result.totals, game.result.penalties, strict=True)]
    game.origin = None if game.hand_no == 0 else (game.hand_no, game.leader, tuple(before))
    return game


def legacy_record(game: Game, level: str = DEFAULT_LEVEL) -> Record:
    """The record of a game read from a snapshot, if replaying it gives back exactly that position.

    The deal and the moves of the snapshot's hand are checked by replay; for
    a hand after the first, the totals carried from earlier hands are not
    (the snapshot never held those hands' moves), so the record is marked
    unverified. Raises :class:`SaveError` when the snapshot is not what its
    own moves give.
    """
    record = Record.of(game, level)
    try:
        replayed = record.replay()
    except (RecordError, ValueError) as err:
        raise SaveError(f"La partida guardada no sale de sus propias jugadas: {err}") from None
    if dump(replayed) | {"actions": 0} != dump(game) | {"actions": 0}:
        raise SaveError("La partida guardada no es la que dan su código y sus jugadas.")
    return record


def _check_consistency(game: Game) -> None:
    """Refuse positions the rules cannot reach (counts that cannot be)."""
    empty = [s for s, h in enumerate(game.hands) if not h]
    result = game.result
    if game.phase == PLAYING:
        if empty:
            raise SaveError("En la partida guardada alguien se ha quedado sin cartas sin acabar la mano.")
        if game.draws and len(game.hands[game.turn]) < 1 + game.draws:
            raise SaveError("Los robos de este turno no cuadran con la mano guardada.")
        if max(game.totals) >= TARGET:
            raise SaveError("La partida guardada debería haber terminado ya.")
        # The last hand's result stays on show while the next hand is played.
        if result is not None and (
            game.hand_no == 0
            or result.hand != game.hand_no - 1
            or result.winner != game.leader
            or list(result.totals) != game.totals
            or result.game_over
        ):
            raise SaveError("El resultado de la mano anterior no cuadra con la partida guardada.")
    else:
        if result is None:
            raise SaveError("Falta el resultado de la mano en la partida guardada.")
        if len(empty) != 1 or empty[0] != result.winner or game.turn != result.winner:
            raise SaveError("El ganador de la mano guardado no cuadra con las cartas.")
        if result.hand != game.hand_no or game.draws:
            raise SaveError("El resultado de la mano guardado no cuadra con la partida.")
        if [list(h) for h in result.leftovers] != game.hands or list(result.penalties) != [
            sum(POINTS[c] for c in h) for h in game.hands
        ]:
            raise SaveError("Las cartas que quedaron en la mano guardada no cuadran con su puntuación.")
        if list(result.totals) != game.totals or any(
            t < p for t, p in zip(game.totals, result.penalties, strict=True)
        ):
            raise SaveError("Los totales de la mano guardada no cuadran.")
        if game.hand_no == 0 and list(result.penalties) != game.totals:
            raise SaveError("Los totales de la primera mano tienen que ser sus puntos.")
        over = max(game.totals) >= TARGET
        if over != (game.phase == GAME_OVER) or over != result.game_over:
            raise SaveError("La partida guardada no cuadra con la meta de 100 puntos.")
        low = min(game.totals)
        winners = tuple(s for s, t in enumerate(game.totals) if t == low) if over else ()
        if result.winners != winners:
            raise SaveError("Los ganadores de la partida guardada no cuadran con los totales.")
    if game.hand_no == 0 and game.leader != 0:
        raise SaveError("La primera mano siempre la sale el asiento 0.")
    if game.hand_no == 0 and game.phase == PLAYING and any(game.totals):
        raise SaveError("En la primera mano nadie puede tener puntos todavía.")
