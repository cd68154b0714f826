"""The table's own choices (issue 46): sound, forced moves, felt and card back, each one intent away,
remembered, and drawn on the page; and the sounds the table asks the page to play."""

from __future__ import annotations

import pytest
from fake_screen import make_table
from support import position
from test_ui_table import start_at

from ui.protocol import ChooseBack, ChooseFelt, ChooseForced, ToggleSound, decode, encode
from ui.storage import MemoryBackend, Store


def test_sound_is_one_tap_on_the_bar_remembered_and_said() -> None:
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    assert screen.attrs[("sound-btn", "aria-pressed")] == "true", "on by default"
    table.bar.toggle_sound()
    assert screen.attrs[("sound-btn", "aria-pressed")] == "false"
    assert screen.statuses[-1] == "Sonido desactivado."
    assert not Store(backend).setup().sound
    _again, screen2, _ = make_table(backend)
    assert screen2.attrs[("sound-btn", "aria-pressed")] == "false", "remembered"


def test_the_table_names_a_sound_for_each_event_and_none_while_it_is_off() -> None:
    table, screen, _ = make_table()
    table.request_deal(2)
    assert screen.sounds == ["deal"]
    game = table.game
    assert game is not None
    card = next((c for c in game.legal_cards() if c.rank != 8), None)
    if card is not None:
        table.click_card(str(card))
    else:
        table.main_button()
    screen.run_timers()
    assert screen.sounds[1] in ("play", "draw", "shuffle")
    assert "turn" in screen.sounds, "«te toca» after the CPU's turn"
    table.bar.toggle_sound()
    heard = len(screen.sounds)
    table.main_button()
    screen.run_timers()
    assert len(screen.sounds) == heard


def test_an_eight_and_the_end_of_a_hand_have_their_own_sounds() -> None:
    table, screen, _ = start_at(position(["8S 3C", "5D 6D"], pile="9H"))
    table.click_card("8S")
    table.choose_suit("C")
    assert screen.sounds[-1] == "eight"
    table2, screen2, _ = start_at(position(["9S", "5D 6D"], pile="9H"))
    table2.click_card("9S")
    assert screen2.sounds[-2:] == ["play", "hand-won"]


def test_forced_moves_option_is_remembered_and_said() -> None:
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    assert screen.attrs[("forced-on", "checked")] == ""
    table.bar.set_forced(False)
    assert ("forced-on", "checked") not in screen.attrs
    assert screen.statuses[-1] == "Robarás y pasarás tú cuando ninguna carta valga."
    assert not Store(backend).setup().forced


@pytest.mark.parametrize(
    ("felt", "back"), [("azul", "cuadros"), ("granate", "medallon"), ("verde", "rombos")]
)
def test_felt_and_back_are_drawn_on_the_root_and_remembered(felt: str, back: str) -> None:
    backend = MemoryBackend()
    table, screen, _ = make_table(backend)
    table.bar.set_felt(felt)
    table.bar.set_back(back)
    assert screen.attrs.get(("raiz", "data-felt")) == (None if felt == "verde" else felt)
    assert screen.attrs.get(("raiz", "data-back")) == (None if back == "rombos" else back)
    assert screen.attrs[(f"felt-{felt}", "checked")] == "" and screen.attrs[(f"back-{back}", "checked")] == ""
    _again, screen2, _ = make_table(backend)
    assert screen2.attrs.get(("raiz", "data-felt")) == (None if felt == "verde" else felt)


def test_the_options_intents_are_declared_and_refuse_what_is_not_a_choice() -> None:
    for event in (ToggleSound(), ChooseForced(on=False), ChooseFelt(felt="azul"), ChooseBack(back="cuadros")):
        assert decode(encode(event)) == event
    with pytest.raises(ValueError):
        decode({"kind": "felt", "felt": "rosa"})
    with pytest.raises(ValueError):
        decode({"kind": "forced", "on": "no"})
