"""What «Pista» and «Repaso» say of a move: the move in Spanish, and why, in one short clause.

:mod:`engine.review` weighs the moves; this module words them: an action in
three forms (:func:`phrase`), points (:func:`points_phrase`) and the reason a
move is better (:func:`why`), from the position itself or from what the
weighing saw.
"""

from __future__ import annotations

from .actions import DRAW, PASS, Action
from .bots import read_history, same_move
from .cards import EIGHT, POINTS, RANK_OF, SUIT_OF
from .names import SUIT_PLURAL, card_name, rank_with_article
from .view import SeatView

# The page says an action in three forms: what to do («robar»), what you did («Robaste») and what a
# hint tells you («Roba»): (draw, pass, play, ask for a suit) in each.
FORMS = {
    "infinitive": ("robar", "pasar", "jugar", "pedir"),
    "past": ("Robaste", "Pasaste", "Jugaste", "pediste"),
    "imperative": ("Roba", "Pasa", "juega", "pide"),
}


def phrase(action: Action, form: str = "infinitive") -> str:
    """The action in one of ``FORMS``: «jugar el 7 de corazones», «… y pedir tréboles», «Robaste»."""
    draw, pass_, play, ask = FORMS[form]
    if action is DRAW:
        return draw
    if action is PASS:
        return pass_
    assert action.card is not None
    text = f"{play} {card_name(action.card, article=True)}"
    if action.suit is not None:
        text += f" y {ask} {SUIT_PLURAL[int(action.suit)]}"
    return text


def action_phrase(action: Action) -> str:
    """The action as an infinitive: «robar», «jugar el 7 de corazones», «… y pedir tréboles»."""
    return phrase(action, "infinitive")


def done_phrase(action: Action) -> str:
    """What the person did: «Robaste», «Jugaste el 7 de corazones», «… y pediste tréboles»."""
    return phrase(action, "past")


def points_phrase(points: float) -> str:
    """«unos 6 puntos», «alrededor de 1 punto»."""
    n = max(1, round(points))
    return "alrededor de 1 punto" if n == 1 else f"unos {n} puntos"


# -- why: one short clause from the position ---------------------------------------------


# What the search's worlds showed of two moves: the share of worlds where each emptied your hand
# first, and the points each left in it on average.
Seen = tuple[float, float, float, float]


def _suit_after(view: SeatView, action: Action) -> int:
    """The suit in force after ``action``: the card's, the one an 8 names, or the same after a draw."""
    if action.card is None:
        return view.active_suit
    return SUIT_OF[action.card] if action.suit is None else int(action.suit)


def _left_of(view: SeatView, action: Action, suit: int) -> int:
    """How many cards of ``suit`` (8s aside) ``action`` leaves in the hand."""
    return sum(1 for c in view.hand if c != action.card and SUIT_OF[c] == suit and RANK_OF[c] != EIGHT)


def why(view: SeatView, best: Action, versus: Action, seen: Seen | None = None) -> str:
    """One short clause on why ``best`` rather than ``versus``, from the position the search weighed.

    «guardas el 8», «cambias a tu palo largo», «CPU 1 tiene una carta: suelta
    la más cara», «robar sale más barato que quemar una figura»…; failing
    those, what the search's worlds showed of the two moves (``seen``): that
    one empties your hand first more often, or leaves fewer points in it.
    ``""`` when nothing plain applies (or the two moves are alike).
    """
    if same_move(versus, [best]) is not None:
        return ""
    reason = _why_position(view, best, versus)
    if reason or seen is None:
        return reason
    wins, wins_other, kept, kept_other = seen
    if wins - wins_other >= 0.05:
        return f"vacías la mano antes más veces ({round(100 * wins)} % frente a {round(100 * wins_other)} %)"
    if kept_other - kept >= 2.0:
        return "te quedan menos puntos en la mano al final"
    return ""


def _why_position(view: SeatView, best: Action, versus: Action) -> str:
    """The reasons read from the position alone (see :func:`why`)."""
    me = view.seat
    card, other = best.card, versus.card
    for seat in range(view.players):
        one_card = seat != me and view.hand_counts[seat] == 1
        if one_card and card is not None and (other is None or POINTS[card] > POINTS[other]):
            dearest = max(POINTS[c] for c in view.legal_cards())
            cheap = "suelta la más cara" if POINTS[card] == dearest else "suelta puntos"
            return f"CPU {seat} tiene una carta: {cheap}"
    if card is None and best is DRAW and other is not None:
        if RANK_OF[other] == EIGHT:
            return "robar sale más barato que gastar el 8"
        if POINTS[other] == 10:
            return "robar sale más barato que quemar una figura"
        return f"robar y guardar {card_name(other, article=True)}"
    if card is None:
        return ""
    if other is None:
        return "robar solo te llena la mano"
    if RANK_OF[other] == EIGHT and RANK_OF[card] != EIGHT:
        return "guardas el 8"
    suit, suit_other = _suit_after(view, best), _suit_after(view, versus)
    if suit != suit_other:
        left, left_other = _left_of(view, best, suit), _left_of(view, versus, suit_other)
        nxt = (me + 1) % view.players
        if read_history(view).short[nxt][suit] == 0:
            return f"CPU {nxt} no tiene {SUIT_PLURAL[suit]}"
        if left > left_other:
            longest = max(_left_of(view, best, s) for s in range(4))
            if left == longest:
                return "sigues en tu palo largo" if suit == view.active_suit else "cambias a tu palo largo"
            return f"te quedan más {SUIT_PLURAL[suit]}"
    if POINTS[card] > POINTS[other]:
        return "te quitas más puntos"
    twin = any(c != other and RANK_OF[c] == RANK_OF[other] and RANK_OF[c] != EIGHT for c in view.hand)
    if twin and not any(c != card and RANK_OF[c] == RANK_OF[card] for c in view.hand):
        return f"guardas {rank_with_article(RANK_OF[other], definite=True)} para cambiar de palo"
    return ""


def with_why(text: str, reason: str) -> str:
    """«jugar el 7 de corazones (guardas el 8)», or the text alone without a reason."""
    return f"{text} ({reason})" if reason else text
