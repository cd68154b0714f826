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

import pytest

from engine.cards import Card
from engine.game import PLAYING
from engine.save import dump, load
from ui.storage import SAVE_KEY, MemoryBackend, Store

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
    game, chooser = loaded
    assert chooser is None
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
