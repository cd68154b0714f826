"""Saves written by earlier versions of the page must keep restoring.

``tests/fixtures/save-v<N>.json`` are real saves (the ``ocho-loco:partida``
value in localStorage) as version N of the page wrote them. They are
committed and never regenerated: when the save schema changes, the loader
must still read them (or migrate them), and this test says so. Add the new
version's fixture next to the old ones.

save-v1.json: three players (code A3C6-P4J3), first hand, seven actions in
(an 8 that named spades among them); it is the person's turn, with one of
the three draws already used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_screen import make_table

from engine.cards import Card
from engine.game import PLAYING, Game
from engine.record import Record
from engine.save import dump, load
from ui.storage import ASIDE_PREFIX, SAVE_KEY, MemoryBackend, Store

FIXTURES = Path(__file__).parent / "fixtures"


def _raw(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _cards(texts: list[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("save-v*.json")))
def test_every_committed_save_restores_through_the_page_store(name: str) -> None:
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, _raw(name))
    store = Store(backend)
    loaded = store.load()
    assert loaded is not None, store.notice
    assert store.notice is None
    assert backend.getItem(SAVE_KEY) is not None  # not set aside


def test_v1_save_restores_the_same_position() -> None:
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, _raw("save-v1.json"))
    loaded = Store(backend).load()
    assert loaded is not None
    game, chooser = loaded.game, loaded.chooser
    assert chooser is None
    assert loaded.legacy, "read from a version-1 snapshot"
    assert Record.of(game).verified, "a first-hand snapshot holds every move: fully checked by replay"
    assert game.code.text == "A3C6P4J3"
    assert game.players == 3
    assert game.phase == PLAYING
    assert game.hand_no == 0
    assert game.turn == 0
    assert game.draws == 1
    assert game.hands[0] == _cards(["6H", "KC", "6C", "10H"])
    assert game.hands[1] == _cards(["6D", "6S", "QC"])
    assert game.hands[2] == _cards(["JC", "7H", "3H"])
    assert game.pile[-1] == Card.parse("10S")
    assert game.active_suit == Card.parse("10S").suit
    assert len(game.stock) == 35
    assert game.stock[-1] == Card.parse("3D")  # the next card drawn
    assert list(game.totals) == [0, 0, 0]
    assert str(game.history[-1]) == "0:draw"
    assert len(game.all_cards()) == 52
    # The restored game keeps playing: 10H matches the 10 on top.
    assert "10H" in [str(a) for a in game.legal_actions()]
    game.apply(game.legal_actions()[0])


def test_v1_game_part_still_loads_on_its_own() -> None:
    data = json.loads(_raw("save-v1.json"))
    game = load(data["game"])
    again = load(dump(game))
    assert again.hands == game.hands
    assert again.stock == game.stock
    assert again.pile == game.pile


def test_v1_save_is_written_back_as_version_2_at_the_next_move() -> None:
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, _raw("save-v1.json"))
    table, _screen, _ = make_table(backend)
    assert json.loads(backend.data[SAVE_KEY])["version"] == 1, "loading alone writes nothing"
    table.click_card("10H")
    stored = json.loads(backend.data[SAVE_KEY])
    assert stored["version"] == 2
    assert Record.parse(stored["record"]).verified
    assert str(table.game.history[-1] if table.game else "") != ""


def test_v1_save_whose_position_its_moves_do_not_give_is_set_aside() -> None:
    data = json.loads(_raw("save-v1.json"))
    # The old forgery: keep two cards in your hand and move the rest to the stock.
    hand = data["game"]["hands"][0]
    data["game"]["stock"] = hand[2:] + data["game"]["stock"]
    data["game"]["hands"][0] = hand[:2]
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, json.dumps(data))
    store = Store(backend)
    assert store.load() is None
    assert store.notice is not None and "no es la que dan su código y sus jugadas" in store.notice
    assert backend.getItem(ASIDE_PREFIX + "1") is not None


@pytest.mark.parametrize(
    "change",
    [
        lambda g: g.update(totals=[0, 0, 40]),
        lambda g: g.update(active_suit="H"),
        lambda g: g.update(draws=0),
    ],
    ids=["totals", "active_suit", "draws"],
)
def test_v1_save_with_an_edited_field_is_set_aside(change: Any) -> None:
    data = json.loads(_raw("save-v1.json"))
    change(data["game"])
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, json.dumps(data))
    assert Store(backend).load() is None


def test_v1_save_of_a_later_hand_loads_with_its_totals_taken_on_trust() -> None:
    game = Game.new("A2K7QM92", origin=(2, 1, (12, 40)))
    game.apply(game.legal_actions()[0])
    data = {"app": "ocho-loco", "version": 1, "game": dump(game), "ui": {"chooser": None}}
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, json.dumps(data))
    table, screen, _ = make_table(backend)
    assert table.game is not None and table.game.totals == [12, 40] and table.game.hand_no == 2
    assert not Record.of(table.game).verified
    assert screen.last_notice is not None and "no los puntos de las manos anteriores" in screen.last_notice
