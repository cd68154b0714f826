"""A click on the table, read once and answered by the same code in both page modes.

The main-thread mode (:mod:`ui.main`) reads a :class:`Click` from the DOM event,
the worker mode (:mod:`ui.worker`) from the JSON the page forwards, both from
the same fields (:meth:`Click.of`); both hand it to :func:`dispatch`, so a
button behaves the same whichever mode runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .table import Table


@dataclass(frozen=True)
class Click:
    """What a click carries: the button's id, its card or suit, where it sits, and the page's fields."""

    ident: str
    card: str = ""
    suit: str = ""
    where: str = ""  # "hand" for a card of your hand, "suit" for the suit chooser, "" elsewhere
    players: int = 2  # the table size chosen in the setup bar
    name: str = ""  # the challenge's name field
    step: int = -1  # a «Repaso» item's replay step
    by_key: bool = False  # a keyboard activation (a click with ``detail == 0``)

    @classmethod
    def of(cls, fields: Mapping[str, object]) -> Click:
        """The click whose fields are ``fields``, by the names the page forwards them under.

        ``id``, ``card``, ``suit``, ``where`` and ``name`` are texts (anything
        else reads as ""), ``players`` is 3 or 2, ``step`` a text of digits
        (anything else reads as -1) and ``by_key`` only ``True`` itself.
        """
        step = field_text(fields.get("step"))
        return cls(
            field_text(fields.get("id")),
            card=field_text(fields.get("card")),
            suit=field_text(fields.get("suit")),
            where=field_text(fields.get("where")),
            players=field_players(fields.get("players")),
            name=field_text(fields.get("name")),
            step=int(step) if step.isdigit() else -1,
            by_key=fields.get("by_key") is True,
        )


def field_text(value: object) -> str:
    """A text field as the page sent it; anything else (missing, a number, null) reads as ""."""
    return value if isinstance(value, str) else ""


def field_players(value: object) -> int:
    """A table size field: 3 when it says 3, else 2."""
    return 3 if value in (3, "3") else 2


def dispatch(table: Table, click: Click, *, download: Callable[[str, str], None]) -> None:
    """Answer ``click``; ``download(name, text)`` saves an export where the mode can."""
    ident = click.ident
    if click.card and click.where == "hand":
        table.click_card(click.card)
    elif click.suit and click.where == "suit":
        table.choose_suit(click.suit)
    elif ident == "suit-cancel":
        table.cancel_chooser()
    elif ident == "results-skip":
        table.results.skip()
    elif ident in ("main-btn", "stock"):
        table.main_button()
    elif ident == "deal-btn":
        table.request_deal(click.players)
    elif ident == "next-hand-btn":
        table.next_hand(by_key=click.by_key)
    elif ident == "new-game-btn":
        table.new_game_after_end(by_key=click.by_key)
    elif ident == "copy-link-btn":
        table.arrivals.copy()
    elif ident == "replace-yes":
        table.answer_replace(True)
    elif ident == "replace-no":
        table.answer_replace(False)
    elif ident == "daily-btn":
        table.daily.request(click.players)
    elif ident == "challenge-btn":
        table.challenges.link(click.name)
    elif ident == "export-btn":
        download(*table.transfer.export_text())
    elif ident == "clear-aside-btn":
        table.saves.clear_aside()
    elif ident == "replay-btn":
        table.results.open_replay()
    elif ident == "see-partidas-btn":
        table.results.see_partidas()
    elif ident == "replay-close":
        table.results.close_replay()
    elif ident == "hint-btn":
        table.ask_hint()
    elif ident.startswith("review-go-"):
        table.results.review_jump(click.step)
    elif ident.startswith("replay-"):
        table.results.replay_go(ident.removeprefix("replay-"))
