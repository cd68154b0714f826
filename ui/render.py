"""HTML and Spanish text for the table, built from a seat's view.

Pure functions (no DOM): the same code runs under pytest and in the page.
Every card shows its rank as real text and its suit as one of four shapes
(an SVG symbol from the page's sprite), and carries an accessible name.
"""

from __future__ import annotations

from html import escape

from engine.actions import Action
from engine.cards import POINTS, RANK_OF, RANK_TEXT, SUIT_LETTERS, SUIT_OF, TEXT, Card, sort_key
from engine.game import Game, HandResult, Move
from engine.names import SUIT_PLURAL, SUIT_SYMBOL, SUIT_TITLE, card_name, suit_name
from engine.view import SeatView

HUMAN = 0


def seat_name(seat: int) -> str:
    """``Tú`` for the person, ``CPU 1`` / ``CPU 2`` for the computer players."""
    return "Tú" if seat == HUMAN else f"CPU {seat}"


def suit_svg(suit: int, extra: str = "") -> str:
    cls = f"suit {extra}".strip()
    return (
        f'<svg class="{cls}" aria-hidden="true" focusable="false">'
        f'<use href="#suit-{SUIT_LETTERS[suit]}"/></svg>'
    )


def card_face(card: Card | int) -> str:
    """The inside of a face-up card: rank text and suit shape."""
    return f'<span class="rank">{RANK_TEXT[RANK_OF[card] - 1]}</span>{suit_svg(SUIT_OF[card])}'


def card_button(card: Card | int, legal: bool | None, arriving: bool = False) -> str:
    """One card of the person's hand as a real button.

    ``legal`` True raises it, False dims it and marks it ``aria-disabled``
    (it stays focusable so a click can explain why it is not allowed), None
    (not your turn) shows it plain.
    """
    classes = ["card"]
    extra = ""
    label = card_name(card)
    if legal is True:
        classes.append("legal")
    elif legal is False:
        classes.append("dim")
        extra = ' aria-disabled="true"'
    if arriving:
        classes.append("arriving")
        label += ", recién robada"
    return (
        f'<button type="button" class="{" ".join(classes)}" data-card="{TEXT[card]}"'
        f' aria-label="{escape(label)}"{extra}>{card_face(card)}</button>'
    )


def hand_html(view: SeatView, arriving: Card | int | None = None, interactive: bool = True) -> str:
    """The person's hand, sorted by suit then rank."""
    legal = set(view.legal_cards()) if (view.my_turn and interactive) else None
    parts = []
    for card in view.sorted_hand():
        state = None if legal is None else (card in legal)
        parts.append(card_button(card, state, arriving=(card == arriving)))
    return "".join(parts)


def opponents_html(view: SeatView) -> str:
    """Each CPU's hand face down, with its count in words."""
    parts = []
    for seat in range(1, view.players):
        count = view.hand_counts[seat]
        shown = min(count, 12)
        backs = '<span class="card back" aria-hidden="true"></span>' * shown
        on_turn = view.turn == seat and view.phase == "play"
        turn = ' turn" aria-current="true' if on_turn else ""
        words = "1 carta" if count == 1 else f"{count} cartas"
        mark = " (le toca)" if on_turn else ""
        parts.append(
            f'<div class="opponent{turn}" data-seat="{seat}" role="group"'
            f' aria-label="{seat_name(seat)}: {words} boca abajo{mark}">'
            f'<p class="opp-name">{seat_name(seat)}{mark}</p>'
            f'<div class="mini-fan" aria-hidden="true">{backs}</div>'
            f'<p class="opp-count">{words}</p></div>'
        )
    return "".join(parts)


def active_suit_text(view: SeatView) -> str:
    """``Manda ♥ corazones`` (the symbol is hidden from screen readers in the HTML)."""
    return f"Manda {SUIT_SYMBOL[view.active_suit]} {suit_name(view.active_suit)}"


def active_suit_html(view: SeatView) -> str:
    suit = view.active_suit
    # The symbol is for the eye; a screen reader says the suit's name once.
    symbol = f'<span aria-hidden="true">{SUIT_SYMBOL[suit]}</span>'
    return f"{suit_svg(suit)}<span>Manda {symbol} {SUIT_PLURAL[suit]}</span>"


def discard_html(view: SeatView) -> str:
    """The top card of the pile; an 8 on top carries a badge of the suit in force."""
    top = view.top
    mark = ""
    label = f"Arriba: {card_name(top)}"
    if RANK_OF[top] == 8:
        suit = view.active_suit
        mark = (
            f'<span class="suit-mark" data-suit="{SUIT_LETTERS[suit]}">{suit_svg(suit)}'
            f'<span class="suit-mark-text">{SUIT_TITLE[suit]}</span></span>'
        )
        label += f", pide {SUIT_PLURAL[suit]}"
    return (
        f'<span class="card" role="img" aria-label="{escape(label)}"'
        f' data-card="{TEXT[top]}">{card_face(top)}</span>{mark}'
    )


def stock_label(view: SeatView) -> str:
    count = view.stock_count
    return "vacío" if count == 0 else ("1 carta" if count == 1 else f"{count} cartas")


def stock_count(view: SeatView) -> str:
    return str(view.stock_count)


def main_button(view: SeatView) -> tuple[str, str, bool]:
    """Text, accessible name and enabled state of the draw / pass button."""
    if view.my_turn and view.can_pass:
        return "Pasar", "Pasar", True
    left = view.draws_left
    return f"Robar ({left})", f"Robar (quedan {left})", view.my_turn and view.can_draw


def scoreboard_html(totals: tuple[int, ...] | list[int], leader: int | None = None) -> str:
    rows = []
    for seat, total in enumerate(totals):
        classes = (["me"] if seat == HUMAN else []) + (["leader"] if seat == leader else [])
        here = f' class="{" ".join(classes)}"' if classes else ""
        rows.append(f'<tr{here}><th scope="row">{seat_name(seat)}</th><td>{total}</td></tr>')
    return (
        '<table class="score-table"><caption class="visually-hidden">Puntos de castigo acumulados'
        '</caption><thead><tr><th scope="col">Jugador</th><th scope="col">Puntos</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def describe_action(seat: int, action: Action, drawn: Card | int | None, reshuffled: bool = False) -> str:
    """A status-bar sentence for what ``seat`` just did."""
    you = seat == HUMAN
    prefix = "Se barajan los descartes para hacer un mazo nuevo. " if reshuffled else ""
    if action.kind == "draw":
        if you and drawn is not None:
            return prefix + f"Robas {card_name(drawn, article=True)}."
        return prefix + f"{seat_name(seat)} roba una carta."
    if action.kind == "pass":
        return "Pasas." if you else f"{seat_name(seat)} pasa."
    card = action.card
    assert card is not None
    verb = "Tiras" if you else f"{seat_name(seat)} tira"
    text = f"{verb} {card_name(card, article=True)}"
    if action.suit is not None:
        text += f" y {'pides' if you else 'pide'} {SUIT_PLURAL[action.suit]}"
    return text + "."


def turn_prompt(view: SeatView) -> str:
    """What the person can do now, for the status bar."""
    if view.can_pass:
        return "Te toca. No tienes nada que tirar: pasa."
    if not view.legal_cards():
        left = view.draws_left
        return f"Te toca. No tienes carta que valga: roba (te quedan {left})."
    return "Te toca: tira una carta levantada o roba."


def results_cards_html(cards: tuple[Card, ...], shown: int) -> tuple[str, str]:
    """Leftover cards with the first ``shown`` face up, and the running sum text.

    The sum reads like ``8 + Q + A + 5 = 66`` once every card is up.
    """
    faces = []
    for i, card in enumerate(cards):
        if i < shown:
            faces.append(
                f'<span class="card reveal" data-card="{TEXT[card]}" role="img"'
                f' aria-label="{escape(card_name(card))}">{card_face(card)}</span>'
            )
        else:
            faces.append('<span class="card back" role="img" aria-label="carta boca abajo"></span>')
    up = cards[:shown]
    ranks = " + ".join(RANK_TEXT[RANK_OF[c] - 1] for c in up)
    total = sum(POINTS[c] for c in up)
    summary = f"{ranks} = <strong>{total}</strong>" if up else "…"
    return "".join(faces), summary


def results_html(result: HandResult, shown: list[int]) -> str:
    """The results panel: per seat, the leftover cards (``shown[seat]`` face up) and sums."""
    rows = []
    for seat, cards in enumerate(result.leftovers):
        name = seat_name(seat)
        if seat == result.winner:
            line = "se ha quedado sin cartas: 0 puntos" if seat else "te has quedado sin cartas: 0 puntos"
            rows.append(
                f'<div class="result-row winner" data-seat="{seat}"><p class="result-name">{name}</p>'
                f"<p>{line}</p></div>"
            )
            continue
        faces, summary = results_cards_html(cards, shown[seat])
        done = shown[seat] >= len(cards)
        rows.append(
            f'<div class="result-row" data-seat="{seat}"><p class="result-name">{name}</p>'
            f'<div class="result-cards">{faces}</div>'
            f'<p class="result-sum" data-done="{"1" if done else "0"}">{summary}</p></div>'
        )
    return "".join(rows)


def totals_html(result: HandResult) -> str:
    parts = [f"<li>{seat_name(s)}: {t} (+{result.penalties[s]})</li>" for s, t in enumerate(result.totals)]
    return f'<ul class="result-totals">{"".join(parts)}</ul>'


def hand_over_title(result: HandResult) -> str:
    if result.winner == HUMAN:
        return "¡Has ganado la mano!"
    return f"{seat_name(result.winner)} gana la mano"


def game_over_text(result: HandResult) -> str:
    """``¡Ganas la partida!`` / ``Gana CPU 1`` / shared wins, with the lowest total."""
    winners = result.winners
    low = min(result.totals)
    if len(winners) == 1:
        if winners[0] == HUMAN:
            return f"¡Ganas la partida con {low} puntos!"
        return f"Gana la partida {seat_name(winners[0])} con {low} puntos."
    names = [seat_name(s) for s in winners]
    joined = " y ".join(names) if len(names) == 2 else ", ".join(names[:-1]) + " y " + names[-1]
    return f"Empate abajo: comparten la victoria {joined} con {low} puntos."


__all__ = [
    "SUIT_TITLE",
    "active_suit_html",
    "active_suit_text",
    "card_button",
    "describe_action",
    "discard_html",
    "game_over_text",
    "hand_html",
    "main_button",
    "opponents_html",
    "replay_move_text",
    "replay_table_html",
    "replay_title",
    "results_html",
    "scoreboard_html",
    "seat_name",
    "stock_label",
    "totals_html",
    "turn_prompt",
]


# -- «Ver la mano»: a finished hand, face up, move by move -----------------------------------


def replay_move_text(move: Move | None, drawn: Card | int | None) -> str:
    """What one move of a replay did, with the drawn card named (every hand is face up here)."""
    if move is None:
        return "El reparto, tal como lo fija el código de la partida."
    seat, action, reshuffled = move
    you = seat == HUMAN
    name = seat_name(seat)
    prefix = "Se barajan los descartes para hacer un mazo nuevo. " if reshuffled else ""
    if action.kind == "draw":
        assert drawn is not None
        verb = "Robas" if you else f"{name} roba"
        return f"{prefix}{verb} {card_name(drawn, article=True)}."
    if action.kind == "pass":
        return "Pasas." if you else f"{name} pasa."
    assert action.card is not None
    verb = "Tiras" if you else f"{name} tira"
    text = f"{verb} {card_name(action.card, article=True)}"
    if action.suit is not None:
        text += f" y {'pides' if you else 'pide'} {SUIT_PLURAL[action.suit]}"
    return text + "."


def replay_title(hand_no: int, index: int, last: int) -> str:
    """``Mano 2 · jugada 5 de 41`` (``reparto`` before the first move)."""
    where = "reparto" if index == 0 else f"jugada {index} de {last}"
    return f"Mano {hand_no + 1} · {where}"


def replay_table_html(game: Game, move: Move | None) -> str:
    """Every seat's hand face up, the top card, the suit in force and the stock."""
    seats = []
    for seat, cards in enumerate(game.hands):
        count = "sin cartas" if not cards else ("1 carta" if len(cards) == 1 else f"{len(cards)} cartas")
        faces = "".join(
            f'<span class="card" role="img" data-card="{TEXT[c]}" aria-label="{escape(card_name(c))}">'
            f"{card_face(c)}</span>"
            for c in sorted(cards, key=sort_key)
        )
        mover = ' data-moved="1"' if move is not None and move.seat == seat else ""
        seats.append(
            f'<section class="replay-seat"{mover} aria-label="{seat_name(seat)}: {count}">'
            f'<h3 class="replay-name">{seat_name(seat)} <span class="muted">({count})</span></h3>'
            f'<div class="replay-cards">{faces}</div></section>'
        )
    top = game.pile[-1]
    stock = len(game.stock)
    stock_text = (
        "mazo vacío" if stock == 0 else ("1 carta en el mazo" if stock == 1 else f"{stock} cartas en el mazo")
    )
    center = (
        f'<p class="replay-center">Arriba: <strong>{card_name(top)}</strong>. '
        f"Manda {SUIT_PLURAL[game.active_suit]}; {stock_text}.</p>"
    )
    return center + "".join(seats)
