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
    ``""`` when nothing plain applies (or the two moves are alike). The
    review's version 2 words (:func:`why_kind` gives version 3 its kind of reason).
    """
    return why_kind(view, best, versus, seen)[1]


def why_kind(view: SeatView, best: Action, versus: Action, seen: Seen | None = None) -> tuple[str, str]:
    """:func:`why` with its kind of reason (one of :data:`KINDS`, ``""`` with no reason)."""
    if same_move(versus, [best]) is not None:
        return ("", "")
    kind, reason = _why_position(view, best, versus)
    if reason or seen is None:
        return (kind, reason)
    wins, wins_other, kept, kept_other = seen
    if wins - wins_other >= 0.05:
        return (
            "vacias",
            f"vacías la mano antes más veces ({round(100 * wins)} % frente a {round(100 * wins_other)} %)",
        )
    if kept_other - kept >= 2.0:
        return ("menos-puntos", "te quedan menos puntos en la mano al final")
    return ("", "")


def _why_position(view: SeatView, best: Action, versus: Action) -> tuple[str, str]:
    """The reasons read from the position alone (see :func:`why`), with their kind."""
    me = view.seat
    card, other = best.card, versus.card
    for seat in range(view.players):
        one_card = seat != me and view.hand_counts[seat] == 1
        if one_card and card is not None and (other is None or POINTS[card] > POINTS[other]):
            dearest = max(POINTS[c] for c in view.legal_cards())
            cheap = "suelta la más cara" if POINTS[card] == dearest else "suelta puntos"
            return ("una-carta", f"CPU {seat} tiene una carta: {cheap}")
    if card is None and best is DRAW and other is not None:
        if RANK_OF[other] == EIGHT:
            return ("robar-8", "robar sale más barato que gastar el 8")
        if POINTS[other] == 10:
            return ("robar-figura", "robar sale más barato que quemar una figura")
        return ("robar-guardar", f"robar y guardar {card_name(other, article=True)}")
    if card is None:
        return ("", "")
    if other is None:
        return ("no-robar", "robar solo te llena la mano")
    if RANK_OF[other] == EIGHT and RANK_OF[card] != EIGHT:
        return ("guardar-8", "guardas el 8")
    suit, suit_other = _suit_after(view, best), _suit_after(view, versus)
    if suit != suit_other:
        left, left_other = _left_of(view, best, suit), _left_of(view, versus, suit_other)
        nxt = (me + 1) % view.players
        if read_history(view).short[nxt][suit] == 0:
            return ("falta-palo", f"CPU {nxt} no tiene {SUIT_PLURAL[suit]}")
        if left > left_other:
            longest = max(_left_of(view, best, s) for s in range(4))
            if left == longest:
                long_ = "sigues en tu palo largo" if suit == view.active_suit else "cambias a tu palo largo"
                return ("palo-largo", long_)
            return ("mas-palo", f"te quedan más {SUIT_PLURAL[suit]}")
    if POINTS[card] > POINTS[other]:
        return ("puntos", "te quitas más puntos")
    twin = any(c != other and RANK_OF[c] == RANK_OF[other] and RANK_OF[c] != EIGHT for c in view.hand)
    if twin and not any(c != card and RANK_OF[c] == RANK_OF[card] for c in view.hand):
        return ("pareja", f"guardas {rank_with_article(RANK_OF[other], definite=True)} para cambiar de palo")
    return ("", "")


# -- version 3: reasons in plain prose, checked, and the 8's suit with its own reason ----------

# Every kind of one-sided reason, in the order :func:`why_kind` tries them.
KINDS = (
    "una-carta",
    "robar-8",
    "robar-figura",
    "robar-guardar",
    "no-robar",
    "guardar-8",
    "falta-palo",
    "palo-largo",
    "mas-palo",
    "puntos",
    "pareja",
    "vacias",
    "menos-puntos",
)


def reason_kind(view: SeatView, best: Action, versus: Action, seen: Seen | None = None) -> tuple[str, str]:
    """Version 3's one-sided reason for ``best`` over ``versus``: (kind, plain words), or ("", "").

    As :func:`why_kind`, in prose with no brackets: «CPU 1 tiene una carta y
    sueltas la más cara», «vacías la mano antes más a menudo: 66 de cada 100
    veces, frente a 53». «robar solo te llena la mano» only against a draw
    weighed (a pass is never an alternative to a card: the rules allow it only
    when nothing else is legal). The quoted figures are ``seen``'s, which the
    caller takes from a sample that did not choose the move.
    """
    if versus is PASS:
        return ("", "")
    kind, text = why_kind(view, best, versus, seen)
    if kind == "una-carta":
        text = text.replace(": suelta", " y sueltas")
    elif kind == "vacias" and seen is not None:
        wins, wins_other = round(100 * seen[0]), round(100 * seen[1])
        text = f"vacías la mano antes más a menudo: {wins} de cada 100 veces, frente a {wins_other}"
    return (kind, text)


def suit_note(view: SeatView, action: Action) -> str:
    """Why an 8 names its suit, from the position: «tienes 3», «no tienes, pero CPU 1 tampoco»…

    ``""`` for a move that names no suit, or for a suit you hold none of
    with no reason to name it (which the review's candidates leave out,
    :func:`named_with_reason`).
    """
    if action.card is None or action.suit is None:
        return ""
    suit = int(action.suit)
    held = _left_of(view, action, suit)
    short = read_history(view).short
    lacking = [s for s in range(view.players) if s != view.seat and short[s][suit] == 0]
    if len(lacking) == 1:
        lack, neither = f"CPU {lacking[0]} no tiene", f"CPU {lacking[0]} tampoco"
    else:
        names = " ni ".join(f"CPU {s}" for s in lacking)
        lack, neither = f"ni {names} tienen", f"tampoco {names}"
    if held:
        text = f"tienes {held}"
        return f"{text}, y {lack}" if lacking else text
    if lacking:
        return f"no tienes, pero {neither}"
    if not any(c != action.card and RANK_OF[c] != EIGHT for c in view.hand):
        return "solo te quedan ochos"
    return ""


def named_with_reason(view: SeatView, action: Action) -> bool:
    """The move names no suit, or names one with a reason to (:func:`suit_note`)."""
    return action.suit is None or bool(suit_note(view, action))


def tail(view: SeatView, action: Action, reason: str) -> str:
    """What follows a move's words in version 3: the 8's suit note, then «, porque …» the reason.

    «: tienes 3», «, porque guardas el 8», «: tienes 3, porque CPU 1 tiene una carta y sueltas la más cara».
    """
    note = suit_note(view, action)
    out = f": {note}" if note else ""
    return f"{out}, porque {reason}" if reason else out


def even_why(best: Action, other: Action) -> str:
    """A plain why two moves come out about as good, from the moves alone, or ``""``.

    «las dos son un 8 y solo cambia el palo que pides», «las dos son un 7»,
    «las dos son de corazones y valen lo mismo».
    """
    a, b = best.card, other.card
    if a is None or b is None:
        return ""
    if RANK_OF[a] == EIGHT and RANK_OF[b] == EIGHT:
        return "las dos son un 8 y solo cambia el palo que pides"
    if RANK_OF[a] == RANK_OF[b]:
        return f"las dos son {rank_with_article(RANK_OF[a], definite=False)}"
    if SUIT_OF[a] == SUIT_OF[b] and POINTS[a] == POINTS[b] and best.suit is None and other.suit is None:
        return f"las dos son de {SUIT_PLURAL[SUIT_OF[a]]} y valen lo mismo"
    return ""


def with_why(text: str, reason: str) -> str:
    """«jugar el 7 de corazones (guardas el 8)», or the text alone without a reason."""
    return f"{text} ({reason})" if reason else text
