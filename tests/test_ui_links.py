"""Share links (:mod:`ui.links`) and what the page does when it is opened through one."""

from __future__ import annotations

import json

import pytest
from fake_screen import FakeScreen, make_table
from support import human_to_play, position, reach

from engine import save
from engine.cards import Card
from engine.codes import ALPHABET, GameCode
from engine.game import GAME_OVER, Game
from engine.record import Record
from ui.links import LinkError, link_hash, read_hash, share_url
from ui.storage import SAVE_KEY, MemoryBackend, Store
from ui.table import Table

CODE2 = GameCode.build(2, "K7QM9")
CODE3 = GameCode.build(3, "HXB4R")
OTHER = GameCode.build(2, "22222")  # support.position uses CODE2


def tampered(code: GameCode) -> str:
    """The code's text with one body symbol changed (the check symbol catches it)."""
    text = code.text
    swap = ALPHABET[(ALPHABET.index(text[3]) + 1) % len(ALPHABET)]
    return text[:3] + swap + text[4:]


def saved_game(backend: MemoryBackend) -> object:
    raw = backend.getItem(SAVE_KEY)
    assert raw is not None
    return json.loads(raw)["record"]


# -- reading and writing the hash ---------------------------------------------------------------


@pytest.mark.parametrize("code", [CODE2, CODE3], ids=str)
def test_link_hash_round_trips(code: GameCode) -> None:
    fragment = link_hash(code)
    assert fragment == f"#partida={code.pretty()}&mesa={code.players}"
    assert read_hash(fragment) == code
    assert read_hash(fragment[1:]) == code, "the leading # is optional"


@pytest.mark.parametrize(
    "fragment",
    [
        "#partida=a2k7-qm9" + CODE2.text[-1].lower() + "&mesa=2",  # any case
        "#partida=" + CODE2.text,  # no table size: the code says it
        "#partida=%20" + CODE2.pretty() + "%20&mesa=%202",  # spaces around
        "#mesa=2&partida=" + CODE2.pretty() + "&otra=cosa",  # order and extra fields
    ],
)
def test_read_hash_accepts_what_people_paste(fragment: str) -> None:
    assert read_hash(fragment) == CODE2


@pytest.mark.parametrize("fragment", ["", "#", "#   ", "#mesa=2", "#algo=otro", "#seccion"])
def test_read_hash_without_a_game_is_none(fragment: str) -> None:
    assert read_hash(fragment) is None


@pytest.mark.parametrize(
    ("fragment", "words"),
    [
        ("#partida=" + tampered(CODE2) + "&mesa=2", "algún carácter está cambiado"),
        ("#partida=XYZ&mesa=2", "8 caracteres"),
        ("#partida=&mesa=2", "Falta el código"),
        ("#partida=" + CODE2.text + "&mesa=3", "no coincide"),
        ("#partida=" + CODE3.text + "&mesa=2", "no coincide"),
        ("#partida=" + CODE2.text + "&mesa=", "no coincide"),
        ("#" + "&".join(f"x{i}=1" for i in range(20)), "mal formado"),
        ("#partida=B2K7QM9X", "otra versión"),
    ],
)
def test_read_hash_refuses_bad_links_with_a_message(fragment: str, words: str) -> None:
    with pytest.raises(LinkError) as err:
        read_hash(fragment)
    message = str(err.value)
    assert words in message
    assert "Sigues con tu partida" in message or "sigues con tu partida" in message


def test_share_url_replaces_any_hash() -> None:
    assert share_url("https://x.org/ocho/", CODE2) == "https://x.org/ocho/" + link_hash(CODE2)
    assert share_url("https://x.org/ocho/#partida=old", CODE2) == "https://x.org/ocho/" + link_hash(CODE2)


# -- opening the page through a link -------------------------------------------------------------


def test_link_without_a_save_starts_that_game() -> None:
    table, screen, backend = make_table(fragment=link_hash(CODE3))
    assert table.game is not None and table.game.code == CODE3
    assert table.game.hands == Game.new(CODE3).hands
    assert screen.body == "human"
    assert saved_game(backend) == str(Record.of(table.game))
    assert screen.hash == link_hash(CODE3)


def test_link_from_its_start_says_so_in_plain_words_on_the_status_line() -> None:
    """#25 item 13: «…en este navegador no había ninguna guardada con ese código» read as technical.

    Issue 47, seam 1: said in a notice over the table, it hid both CPUs until tapped; now it is the
    first words of the status line, in at most eight words, and no notice covers the table.
    """
    _table, screen, _ = make_table(fragment=link_hash(CODE3))
    said = screen.statuses[-1]
    assert said.startswith("Reparto del enlace, tres en la mesa.")
    origin = said.split(".")[0]
    assert len(origin.split()) <= 8 and "código" not in said, said
    assert not screen.last_notice


def test_same_link_gives_the_same_deal_on_another_device() -> None:
    a, _, _ = make_table(fragment=link_hash(CODE2))
    b, _, _ = make_table(fragment="#partida=" + CODE2.text.lower())
    assert a.game is not None and b.game is not None
    assert save.dump(a.game) == save.dump(b.game)


def test_link_to_the_game_already_saved_just_resumes() -> None:
    table, _screen, backend = make_table()
    table.request_deal(2)
    assert table.game is not None
    table.main_button()
    before = saved_game(backend)
    again, screen2, _ = make_table(backend, fragment=link_hash(table.game.code))
    assert screen2.body == "human" and not screen2.is_open("replace-dialog")
    assert again.game is not None and str(Record.of(again.game)) == before


def unfinished_save() -> tuple[MemoryBackend, object, Card]:
    """A saved game with the person's suit chooser open for an 8; the save's record and that 8."""
    backend = MemoryBackend()
    game = reach(lambda g: human_to_play(g) and any(a.suit is not None for a in g.legal_actions()))
    eight = next(a.card for a in game.legal_actions() if a.suit is not None)
    Store(backend).save(game, chooser=eight)  # even with the suit chooser open
    return backend, str(Record.of(game)), eight


def test_link_with_an_unfinished_different_save_asks_and_keeps_on_no() -> None:
    backend, before, eight = unfinished_save()
    table, screen, _ = make_table(backend, fragment=link_hash(CODE3))
    assert screen.body == "replace" and screen.is_open("replace-dialog")
    assert "enlace" in screen.texts["replace-title"]
    assert saved_game(backend) == before, "nothing is replaced before the answer"
    assert screen.timers == []
    table.answer_replace(False)
    assert not screen.is_open("replace-dialog")
    assert table.game is not None and str(Record.of(table.game)) == before
    assert screen.hash != link_hash(CODE3)
    assert screen.body == "chooser", "the open chooser of the kept game comes back"
    table.choose_suit("H")
    assert str(table.game.history[-1]) == f"0:{eight}:H"


def test_link_with_an_unfinished_different_save_replaces_on_yes() -> None:
    backend, _before, _eight = unfinished_save()
    table, screen, _ = make_table(backend, fragment=link_hash(CODE3))
    table.answer_replace(True)
    assert table.game is not None and table.game.code == CODE3
    assert table.chooser is None
    assert saved_game(backend) == str(Record.of(Game.new(CODE3)))
    assert screen.hash == link_hash(CODE3)
    assert not screen.is_open("replace-dialog") and not screen.is_open("suit-dialog")


def test_link_after_a_finished_game_starts_it_without_asking() -> None:
    game = position(["7H", "8S QH AD 5C"], pile="9H", totals=[10, 40])
    backend = MemoryBackend()
    first, _screen, _ = make_table(backend)
    first.game = game
    first.resume()  # the position on the table, your turn
    first.click_card("7H")
    assert first.game.phase == GAME_OVER
    table, screen, _ = make_table(backend, fragment=link_hash(CODE3))
    assert table.game is not None and table.game.code == CODE3
    assert screen.body == "human" and not screen.is_open("replace-dialog")


def test_tampered_link_with_a_save_keeps_the_save_and_says_so() -> None:
    backend, before, _eight = unfinished_save()
    table, screen, _ = make_table(backend, fragment="#partida=" + tampered(CODE3) + "&mesa=3")
    assert table.game is not None and str(Record.of(table.game)) == before
    assert screen.last_notice is not None and "El enlace no sirve" in screen.last_notice
    assert screen.body == "chooser"
    assert saved_game(backend) == before


def test_tampered_link_without_a_save_waits_to_deal() -> None:
    table, screen, backend = make_table(fragment="#partida=" + tampered(CODE2))
    assert table.game is None and screen.body == "setup"
    assert screen.last_notice is not None and "El enlace no sirve" in screen.last_notice
    assert backend.getItem(SAVE_KEY) is None


def test_link_pasted_while_playing_asks_and_holds_the_cpu() -> None:
    game = reach(lambda g: human_to_play(g) and len(g.hands[0]) > 2 and bool(g.legal_cards()))
    card = next(c for c in game.legal_cards() if c.rank != 8)
    moves = len(game.history)
    backend = MemoryBackend()
    Store(backend).save(game)
    screen = FakeScreen()
    table = Table(screen, Store(backend))
    table.start("")
    table.click_card(str(card))
    assert len(screen.timers) == 1
    table.arrivals.open(link_hash(OTHER))
    assert screen.body == "replace"
    screen.run_timers()
    assert table.game is not None and len(table.game.history) == moves + 1, "the CPU waits for the answer"
    table.answer_replace(False)
    assert screen.body == "cpu"
    screen.run_timers()
    assert len(table.game.history) > moves + 1 and table.game.history[moves + 1].seat == 1
    table.arrivals.open(link_hash(OTHER))
    table.answer_replace(True)
    assert table.game.code == OTHER and screen.hash == link_hash(OTHER)


def test_bad_link_pasted_while_playing_restores_the_games_hash() -> None:
    table, screen, backend = make_table()
    table.request_deal(2)
    assert table.game is not None
    before = saved_game(backend)
    table.arrivals.open("#partida=" + tampered(table.game.code))
    assert screen.last_notice is not None and "El enlace no sirve" in screen.last_notice
    assert screen.hash == link_hash(table.game.code)
    assert saved_game(backend) == before
    table.arrivals.open(link_hash(table.game.code))  # its own link: nothing happens
    table.arrivals.open("")
    assert saved_game(backend) == before


def test_link_pasted_before_any_deal_starts_it() -> None:
    table, _screen, _ = make_table()
    table.arrivals.open(link_hash(CODE3))
    assert table.game is not None and table.game.code == CODE3
