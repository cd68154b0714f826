"""HTML and Spanish text for the table, built from a seat's view.

Pure functions (no DOM): the same code runs under pytest and in the page.
Every card shows its rank as real text and its suit as one of four shapes
(an SVG symbol from the page's sprite), and carries an accessible name.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from engine.actions import DRAW_KIND, PASS_KIND, Action
from engine.cards import EIGHT, POINTS, RANK_OF, RANK_TEXT, SUIT_LETTERS, SUIT_OF, TEXT, Card, penalty
from engine.game import PLAYING, HandResult, Move
from engine.levels import DEFAULT_LEVEL, LEVELS
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
    """The inside of a face-up card: rank text and suit shape (its index), then its face.

    The face is the card's pips (A–10) or figure (J, Q, K), one symbol of the page's
    sprite (``face-10H``, drawn by ``tools/faces.py``), for the eye only.
    """
    return (
        f'<span class="rank">{RANK_TEXT[RANK_OF[card] - 1]}</span>{suit_svg(SUIT_OF[card])}'
        f'<svg class="face" aria-hidden="true" focusable="false"><use href="#face-{TEXT[card]}"/></svg>'
    )


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
        f'<button type="button" id="{card_id(card)}" class="{" ".join(classes)}" data-intent="play-card"'
        f' data-card="{TEXT[card]}"'
        f' aria-label="{escape(label)}"{extra}>{card_face(card)}</button>'
    )


def card_id(card: Card | int) -> str:
    """The element id of a card of the person's hand (``card-10H``), for moving the focus to it."""
    return f"card-{TEXT[card]}"


def hand_title(view: SeatView) -> str:
    """The heading over the person's hand; it says so when it is their turn, like the CPUs' frames."""
    return "Tu mano (te toca)" if view.my_turn else "Tu mano"


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
    if RANK_OF[top] == EIGHT:
        suit = view.active_suit
        # Rule 6: an 8 turned up at the deal asks for nothing; its own suit stands.
        turned_up = view.opening == top and not any(move.action.card == top for move in view.history)
        asked = not (turned_up and suit == SUIT_OF[top])
        mark = (
            f'<span class="suit-mark" data-suit="{SUIT_LETTERS[suit]}">{suit_svg(suit)}'
            f'<span class="suit-mark-text">{SUIT_TITLE[suit]}</span></span>'
        )
        label += (
            f", pide {SUIT_PLURAL[suit]}" if asked else f", salió al repartir: mandan {SUIT_PLURAL[suit]}"
        )
    return (
        f'<span class="card" role="img" aria-label="{escape(label)}"'
        f' data-card="{TEXT[top]}">{card_face(top)}</span>{mark}'
    )


def stock_label(view: SeatView) -> str:
    count = view.stock_count
    return "vacío" if count == 0 else ("1 carta" if count == 1 else f"{count} cartas")


def stock_count(view: SeatView) -> str:
    return str(view.stock_count)


def stock_name(view: SeatView) -> str:
    """The stock button's accessible name: its visible words, then what pressing it does."""
    name = f"Mazo, {stock_label(view)}"
    if view.my_turn and view.can_draw and not view.can_pass:
        name += ": robar una carta"
    return name


def main_button(view: SeatView) -> tuple[str, str, bool]:
    """Text, accessible name (the text plus detail) and enabled state of the draw / pass button."""
    if view.phase != PLAYING:
        return "Fin de la mano", "Fin de la mano", False
    if not view.my_turn:
        text = f"Espera: juega {seat_name(view.turn)}"
        return text, text, False
    if view.can_pass:
        return "Pasar", "Pasar", True
    left = view.draws_left
    detail = "no quedan robos" if left == 0 else ("queda 1 robo" if left == 1 else f"quedan {left} robos")
    return f"Robar ({left})", f"Robar ({left}): {detail}", view.can_draw


TABLE_WORDS = {2: "uno contra uno", 3: "tres en la mesa"}  # the table's size, said in a sentence
LEADER_NOTE = "salió primero en esta mano"
LEADER_NOTE_BEFORE = "sale primero en esta mano"  # before the hand's first move


def scoreboard_html(
    totals: tuple[int, ...] | list[int], leader: int | None = None, *, started: bool = True
) -> str:
    """The totals table; a ★ marks who leads this hand, and a note under the table says so.

    ``started``: the hand has had a move (the note says «salió»; before it, «sale»).
    """
    note_text = LEADER_NOTE if started else LEADER_NOTE_BEFORE
    rows = []
    for seat, total in enumerate(totals):
        classes = (["me"] if seat == HUMAN else []) + (["leader"] if seat == leader else [])
        here = f' class="{" ".join(classes)}"' if classes else ""
        star = ""
        if seat == leader:
            star = (
                '<span class="star" aria-hidden="true"> ★</span>'
                f'<span class="visually-hidden"> ({note_text})</span>'
            )
        rows.append(f'<tr{here}><th scope="row">{seat_name(seat)}{star}</th><td>{total}</td></tr>')
    note = ""
    if leader is not None:
        note = f'<p class="score-note" aria-hidden="true"><span class="star">★</span> {note_text}</p>'
    return (
        '<table class="score-table"><caption class="visually-hidden">Puntos de castigo acumulados'
        '</caption><thead><tr><th scope="col">Jugador</th><th scope="col">Puntos</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>{note}"
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


# -- whole turns: one sentence each (status line and the move log «Jugadas») -------------------

DRAW_WORDS = {1: "una carta", 2: "dos cartas", 3: "tres cartas"}
RESHUFFLE_NOTE = "el mazo se rehace con los descartes"


def join_clauses(clauses: Sequence[str]) -> str:
    """``a``, ``a y b``, ``a, b y c``."""
    if len(clauses) <= 1:
        return "".join(clauses)
    return ", ".join(clauses[:-1]) + " y " + clauses[-1]


def turn_summary(seat: int, moves: Sequence[Move], went_out: bool = False) -> str:
    """One sentence for one seat's turn, its actions in order.

    ``moves`` are the turn's moves (draws, then a card or a pass; a turn still
    under way has only draws and ends in "…"). ``went_out``: the card played
    was the seat's last one.

    >>> from engine.actions import Action
    >>> draw, five = Action.parse("draw"), Action.parse("5S")
    >>> turn_summary(1, [Move(1, draw), Move(1, draw), Move(1, five)])
    'CPU 1 roba dos cartas y tira el 5 de picas.'
    >>> turn_summary(0, [Move(0, Action.parse("8S:D"))])
    'Tiras el 8 de picas y pides diamantes.'
    """
    you = seat == HUMAN
    draws = [m for m in moves if m.action.kind == DRAW_KIND]
    last = moves[-1].action if moves else None
    clauses: list[str] = []
    if draws:
        clause = ("robas " if you else "roba ") + DRAW_WORDS.get(len(draws), f"{len(draws)} cartas")
        if any(m.reshuffled for m in draws):
            clause += f" ({RESHUFFLE_NOTE})"
        clauses.append(clause)
    if last is not None and last.kind == PASS_KIND:
        clauses.append("pasas" if you else "pasa")
    elif last is not None and last.kind != DRAW_KIND:
        card = last.card
        assert card is not None
        clauses.append(("tiras " if you else "tira ") + card_name(card, article=True))
        if last.suit is not None:
            clauses.append(("pides " if you else "pide ") + SUIT_PLURAL[last.suit])
        if went_out:
            clauses.append("te quedas sin cartas" if you else "se queda sin cartas")
    if not clauses:
        return "Te toca." if you else f"Le toca a {seat_name(seat)}."
    text = join_clauses(clauses)
    text = text[0].upper() + text[1:] if you else f"{seat_name(seat)} {text}"
    finished = last is not None and last.kind != DRAW_KIND
    return text + ("." if finished else "…")


def split_turns(history: Sequence[Move]) -> list[tuple[int, list[Move]]]:
    """The hand's moves grouped by turn: ``(seat, moves)``; a turn ends with a card or a pass."""
    turns: list[tuple[int, list[Move]]] = []
    current: list[Move] = []
    for move in history:
        if current and current[0].seat != move.seat:  # a turn cut short (never happens in play)
            turns.append((current[0].seat, current))
            current = []
        current.append(move)
        if move.action.kind != DRAW_KIND:
            turns.append((move.seat, current))
            current = []
    if current:
        turns.append((current[0].seat, current))
    return turns


def last_turn(history: Sequence[Move]) -> list[Move]:
    """The moves of the latest turn (finished or under way)."""
    turns = split_turns(history)
    return turns[-1][1] if turns else []


def move_log_html(view: SeatView) -> str:
    """The move log «Jugadas»: this hand's turns, newest first, one sentence each."""
    turns = split_turns(view.history)
    if not turns:
        return '<li class="log-empty">Todavía no ha jugado nadie en esta mano.</li>'
    items = []
    for i, (seat, moves) in enumerate(turns):
        out = view.result is not None and i == len(turns) - 1 and moves[-1].action.kind != DRAW_KIND
        text = turn_summary(seat, moves, went_out=out)
        if seat == HUMAN:
            text = f"Tú: {text[0].lower()}{text[1:]}"
        items.append(f'<li data-seat="{seat}">{escape(text)}</li>')
    return "".join(reversed(items))


# -- setup bar and suit chooser ---------------------------------------------------------------

TABLE_NAMES = {2: "1 contra 1", 3: "3 en la mesa"}


LEVEL_NAMES: dict[str, str] = {
    lv.name: lv.label for lv in LEVELS
}  # engine.levels declares the CPU levels once


def table_now(players: int, level: str = DEFAULT_LEVEL) -> str:
    """What the setup bar says during a game: which table and which CPU level are being played."""
    return f"Partida en curso: {TABLE_NAMES[players]}, rival {LEVEL_NAMES[level]}"


def suit_count_text(count: int) -> str:
    return "no tienes" if count == 0 else f"tienes {count}"


def suit_choices_html(view: SeatView, eight: Card | int) -> str:
    """The chooser's four suit buttons, each saying how many cards of that suit stay in the hand."""
    rest = [c for c in view.hand if c != eight]
    parts = []
    for suit, letter in enumerate(SUIT_LETTERS):
        count = sum(1 for c in rest if SUIT_OF[c] == suit and RANK_OF[c] != EIGHT)
        count_text = suit_count_text(count)
        parts.append(
            f'<button type="button" class="suit-btn" data-intent="choose-suit" data-suit="{letter}"'
            f' aria-label="{SUIT_TITLE[suit]}, {count_text}">{suit_svg(suit)}'
            # A space between the two lines: the visible text, read as one, is the name («Picas tienes 1»).
            f'<span class="suit-btn-text"><span>{SUIT_TITLE[suit]}</span> '
            f'<span class="suit-count">{count_text}</span></span></button>'
        )
    return "".join(parts)


# What happens to a game left half-way for another (said in every «replace your game?» question).
LEFT_GAME = "La partida a medias no se borra: queda en «Tus partidas» como abandonada (jugada y no ganada)."


def turn_prompt(view: SeatView) -> str:
    """What the person can do now, for the status bar."""
    if view.can_pass:
        return "Te toca. No tienes nada que tirar: pasa."
    if not view.legal_cards():
        left = view.draws_left
        return f"Te toca. No tienes carta que valga: roba (te quedan {left})."
    if not view.can_draw:
        # The three draws are spent (or nothing is left to draw): «Robar» is off, so do not offer it.
        return "Te toca: tira una carta que valga (ya no puedes robar)."
    return "Te toca: tira una carta que valga o roba."


def results_cards_html(cards: tuple[Card, ...], shown: int, turning: bool = False) -> tuple[str, str]:
    """Leftover cards with the first ``shown`` face up, and the running sum text.

    With ``turning`` the last card shown is the one turning over now (the
    only one animated: cards already up stay still). The sum reads like
    ``8 + Q + A + 5 = 66`` once every card is up.
    """
    faces = []
    for i, card in enumerate(cards):
        if i < shown:
            cls = "card reveal turning" if (turning and i == shown - 1) else "card reveal"
            faces.append(
                f'<span class="{cls}" data-card="{TEXT[card]}" role="img"'
                f' aria-label="{escape(card_name(card))}">{card_face(card)}</span>'
            )
        else:
            faces.append('<span class="card back" role="img" aria-label="carta boca abajo"></span>')
    up = cards[:shown]
    ranks = " + ".join(RANK_TEXT[RANK_OF[c] - 1] for c in up)
    total = sum(POINTS[c] for c in up)
    summary = f"{ranks} = <strong>{total}</strong>" if up else "…"
    return "".join(faces), summary


def results_html(result: HandResult, shown: list[int], turning: int | None = None) -> str:
    """The results panel: per seat, the leftover cards (``shown[seat]`` face up) and sums.

    ``turning`` is the seat whose last shown card is turning over right now.
    """
    rows: list[str] = []
    for seat, cards in enumerate(result.leftovers):
        name = seat_name(seat)
        if seat == result.winner:
            line = "se ha quedado sin cartas: 0 puntos" if seat else "te has quedado sin cartas: 0 puntos"
            rows.append(
                f'<div class="result-row winner" data-seat="{seat}"><p class="result-name">{name}</p>'
                f"<p>{line}</p></div>"
            )
            continue
        faces, summary = results_cards_html(cards, shown[seat], turning=(seat == turning))
        done = shown[seat] >= len(cards)
        rows.append(
            f'<div class="result-row" data-seat="{seat}"><p class="result-name">{name}</p>'
            f'<div class="result-cards">{faces}</div>'
            f'<p class="result-sum" data-done="{"1" if done else "0"}">{summary}</p></div>'
        )
    return "".join(rows)


def sample_results_html() -> str:
    """The inside of a game's last results panel, made up: the page lays it out once, out of sight.

    A browser styles a kind of element, and finds the glyphs of a font size, the first time it
    shows them; the page's first results panel would pay for that in the task that opens it.
    """
    hand = (Card.parse("8S"), Card.parse("QH"), Card.parse("AD"), Card.parse("10C"), Card.parse("5S"))
    result = HandResult(
        hand=7,
        winner=0,
        leftovers=((), hand, hand[1:3]),
        penalties=(0, penalty(hand), penalty(hand[1:3])),
        totals=(64, 64 + penalty(hand), 77 + penalty(hand[1:3])),
        game_over=True,
        winners=(0,),
    )
    return results_html(result, [0, len(hand), 1]) + totals_html(result)


def totals_html(result: HandResult) -> str:
    parts = [f"<li>{seat_name(s)}: {t} (+{result.penalties[s]})</li>" for s, t in enumerate(result.totals)]
    return f'<ul class="result-totals">{"".join(parts)}</ul>'


def hand_over_title(result: HandResult) -> str:
    if result.winner == HUMAN:
        return "¡Has ganado la mano!"
    return f"{seat_name(result.winner)} gana la mano"


def joined_names(seats: Sequence[int]) -> str:
    return join_clauses([seat_name(s) for s in seats])


def results_title(result: HandResult) -> str:
    """The results panel's title: the game's winner when the game is over, else the hand's."""
    if not result.game_over:
        return hand_over_title(result)
    winners = result.winners
    if len(winners) > 1:
        return f"Victoria compartida: {joined_names(winners)}"
    if winners[0] == HUMAN:
        return "¡Ganas la partida!"
    return f"Gana la partida {seat_name(winners[0])}"


def results_subtitle(result: HandResult) -> str:
    """The line under the title: the hand number, and who won the last hand of a finished game."""
    hand = f"Mano {result.hand + 1}"
    if not result.game_over:
        return f"{hand}: cuenta de los puntos de castigo."
    who = "la has ganado tú" if result.winner == HUMAN else f"la ha ganado {seat_name(result.winner)}"
    return f"Última mano ({hand.lower()}): {who}."


def results_summary(result: HandResult) -> str:
    """Everything the results panel shows, as one sentence group for screen readers."""
    title = hand_over_title(result)
    title += " " if title.endswith("!") else ". "
    sums = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(result.penalties) if s != result.winner)
    totals = ", ".join(f"{seat_name(s)} {t}" for s, t in enumerate(result.totals))
    text = f"{title}Puntos de castigo: {sums}. Totales: {totals}."
    if result.game_over:
        text += " " + game_over_text(result)
    return text


def game_over_text(result: HandResult) -> str:
    """``¡Ganas la partida!`` / ``Gana CPU 1`` / shared wins, with the lowest total."""
    winners = result.winners
    low = min(result.totals)
    if len(winners) == 1:
        if winners[0] == HUMAN:
            return f"¡Ganas la partida con {low} puntos!"
        return f"Gana la partida {seat_name(winners[0])} con {low} puntos."
    return f"Empate abajo: comparten la victoria {joined_names(winners)} con {low} puntos."


__all__ = [
    "LEFT_GAME",
    "SUIT_TITLE",
    "active_suit_html",
    "active_suit_text",
    "card_button",
    "card_id",
    "describe_action",
    "discard_html",
    "game_over_text",
    "hand_html",
    "hand_title",
    "last_turn",
    "main_button",
    "move_log_html",
    "opponents_html",
    "results_html",
    "results_subtitle",
    "results_summary",
    "results_title",
    "sample_results_html",
    "scoreboard_html",
    "seat_name",
    "split_turns",
    "stock_label",
    "stock_name",
    "suit_choices_html",
    "table_now",
    "totals_html",
    "turn_prompt",
    "turn_summary",
]
