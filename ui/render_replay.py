"""HTML and Spanish text for «Ver la mano» (a finished hand, face up, move by move) and its «Repaso».

Pure functions (no DOM), like :mod:`ui.render`, whose card faces and seat names they use.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from engine.cards import TEXT, Card, sort_key
from engine.game import Game, Move
from engine.names import SUIT_PLURAL, card_name

from .render import HUMAN, card_face, seat_name

if TYPE_CHECKING:
    from engine.review import Review

__all__ = ["replay_move_text", "replay_table_html", "replay_title", "review_list_html"]


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


# -- «Repaso»: the hard CPU's review of the person's decisions in the hand -----------------


def review_list_html(review: Review, first: int, current: int | None = None) -> str:
    """One ``<li>`` per decision, in order: a button whose text says everything (its accessible name).

    ``first`` is the hand's first move in the record: a decision at move
    ``index`` is step ``index - first`` of the replay (the table as it was
    when you chose), which its button jumps to (``data-step``). The item
    on show, ``current``, is marked ``aria-current``.
    """
    from engine.advice import done_phrase  # noqa: PLC0415  # on first use, not at start (tests/test_start_imports.py)

    items = []
    for n, d in enumerate(review.decisions):
        step = d.index - first
        mark = ' aria-current="step"' if step == current else ""
        cpu = d.cpu_words()
        items.append(
            f'<li><button type="button" class="review-item" id="review-go-{n}" data-intent="review-go"'
            f' data-step="{step}"{mark}>'
            f"Jugada {step + 1}: {escape(done_phrase(d.played))}. "
            f"La CPU difícil: {escape(cpu)}. "
            f'<span class="review-verdict">{escape(d.verdict)}.</span></button></li>'
        )
    return "".join(items)
