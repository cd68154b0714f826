"""ui.worker.Click.of: a click read from the fields the page forwards."""

from __future__ import annotations

from ui.worker import Click


def test_click_of_reads_every_field_the_page_sends() -> None:
    fields = {
        "id": "review-go-2",
        "card": "7H",
        "suit": "C",
        "where": "hand",
        "players": 3,
        "name": "Ana",
        "step": "12",
        "by_key": True,
    }
    assert Click.of(fields) == Click("review-go-2", "7H", "C", "hand", 3, "Ana", 12, True)


def test_click_of_reads_missing_fields_as_the_defaults() -> None:
    assert Click.of({}) == Click("")
    assert Click.of({"id": "deal-btn"}) == Click("deal-btn")


def test_click_of_reads_fields_of_another_type_as_nothing() -> None:
    click = Click.of({"id": 5, "card": None, "name": ["Ana"], "step": 3, "by_key": 1})
    assert click == Click(""), "texts only; a step is a text of digits; by_key is True itself"
    assert Click.of({"step": "x"}).step == -1 and Click.of({"step": "-2"}).step == -1
    assert Click.of({"by_key": "true"}).by_key is False


def test_click_of_reads_the_table_size_as_three_or_two() -> None:
    for value, players in ((3, 3), ("3", 3), (2, 2), ("2", 2), (4, 2), ("tres", 2), (None, 2)):
        assert Click.of({"players": value}).players == players, value
