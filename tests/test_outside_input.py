"""Outside data (issue 23, part 2): one character must never stop the page.

Every text the page did not just write (the save at start-up, a game or
challenge link, an import file and its current save, a storage event from
another tab, the kept challenge, the stored picture) goes through
:mod:`ui.outside`. Whatever goes wrong there becomes a Spanish notice, the
item is set aside under ``ocho-loco:aparte:<n>``, and the page goes on; a
reload afterwards is clean. The readers themselves raise only their own
error type, over the whole of Unicode (hypothesis).
"""

from __future__ import annotations

import contextlib
import json
import random
from functools import cache

import pytest
from fake_screen import FakeScreen, make_table
from hypothesis import given
from hypothesis import strategies as st
from profiles import budget
from test_stats import records

from engine import save as engine_save
from engine.challenge import ChallengeError, verify
from engine.codes import GameCode
from engine.game import Game
from engine.record import Record, RecordError, Start
from engine.save import SaveError
from engine.stats import outcome
from ui.challenges import CHALLENGE_KEY, keep_challenge
from ui.history import History
from ui.history_file import HistoryFileError
from ui.links import LinkError, challenge_hash, read_challenge, read_hash
from ui.outside import ASIDE_PREFIX, Refused, set_aside, take
from ui.storage import SAVE_KEY, MemoryBackend, Store, read
from ui.table import Table

DAY = "2025-03-14"
PICTURE_KEY = "ocho-loco:dibujo"  # read by index.html at first paint
# The reproduction: a partial record whose start field holds a superscript two.
BAD_RECORD = "r1.A2K7QM92.n.RxA.²-0-0-0"
BAD_SAVE = json.dumps({"app": "ocho-loco", "version": 2, "record": BAD_RECORD, "ui": {}}, ensure_ascii=False)
# Digits str.isdigit() accepts and int() refuses (or reads, in another script).
ODD_DIGITS = ["²", "¹", "①", "٣", "𝟙", "Ⅻ"]


@cache
def finished() -> Record:
    """A whole finished game whose CPU is the page's own (a challenge that verifies)."""
    return records(2, ("cpu", "cpu"), 1, "7")[0]


def aside(backend: MemoryBackend) -> list[str]:
    """What is kept aside, in key order."""
    out = []
    n = 1
    while (kept := backend.getItem(ASIDE_PREFIX + str(n))) is not None:
        out.append(kept)
        n += 1
    return out


def playing(backend: MemoryBackend) -> str:
    """A game in progress saved in ``backend``; its stored text."""
    table, screen, _ = make_table(backend)
    table.request_deal(2)
    screen.run_timers()
    text = backend.getItem(SAVE_KEY)
    assert text is not None
    return text


def reload_is_clean(backend: MemoryBackend, fragment: str = "") -> tuple[FakeScreen, str | None]:
    """Start the page again over ``backend``: no notice, and the same things kept aside."""
    before = aside(backend)
    table, screen, _ = make_table(backend, fragment=fragment)
    assert screen.last_notice is None, screen.notices
    assert aside(backend) == before, "nothing set aside twice"
    return screen, None if table.game is None else str(Record.of(table.game))


# -- ASCII digits only -------------------------------------------------------------------------


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_record_start_with_a_non_ascii_digit_raises_record_error(digit: str) -> None:
    with pytest.raises(RecordError):
        Record.parse(BAD_RECORD.replace("²", digit))
    with pytest.raises(RecordError):
        Record.parse(f"r1.A2K7QM92.n.RxA.1-0-{digit}-0")


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_a_challenge_total_with_a_non_ascii_digit_is_refused(digit: str) -> None:
    record = finished()
    with pytest.raises(ChallengeError, match="falta el total"):
        verify(str(record), digit, "Ana")
    total = str(outcome(record).total)
    with pytest.raises(ChallengeError, match="falta el total"):
        verify(str(record), total[:-1] + digit, "Ana")


# -- the boundary -----------------------------------------------------------------------------


def test_any_exception_in_a_reader_becomes_a_spanish_sentence() -> None:
    def buggy(_text: str) -> None:
        raise ZeroDivisionError("division by zero")

    with pytest.raises(Refused) as err:
        take("La partida guardada", "x", buggy)
    assert str(err.value) == "La partida guardada no se ha podido leer."
    with pytest.raises(Refused, match="no es un historial"):  # a reader's own error keeps its words
        take("El archivo", "[]", History(MemoryBackend()).import_text, (HistoryFileError,))


def test_a_reader_bug_at_start_up_sets_the_save_aside_and_the_page_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backend = MemoryBackend()
    text = playing(backend)

    def bug(_raw: str) -> None:
        raise IndexError("a bug in the reader")

    monkeypatch.setattr("ui.storage.read", bug)
    _table, screen, _ = make_table(backend)
    assert screen.last_notice is not None
    assert screen.last_notice.startswith("La partida guardada no se ha podido abrir: La partida guardada no")
    assert aside(backend) == [text] and backend.getItem(SAVE_KEY) is None
    assert screen.body == "setup"


def test_the_same_refused_text_is_kept_aside_once() -> None:
    backend = MemoryBackend()
    assert set_aside(backend, "a") and set_aside(backend, "b") and set_aside(backend, "a")
    assert aside(backend) == ["a", "b"]


# -- the reproductions, on the fake screen --------------------------------------------


def test_a_save_with_a_superscript_digit_is_set_aside_and_a_reload_is_clean() -> None:
    backend = MemoryBackend()
    backend.setItem(SAVE_KEY, BAD_SAVE)
    table, screen, _ = make_table(backend)
    assert screen.last_notice is not None
    assert screen.last_notice.startswith("La partida guardada no se ha podido abrir")
    assert "aparte" in screen.last_notice
    assert aside(backend) == [BAD_SAVE] and backend.getItem(SAVE_KEY) is None
    assert screen.body == "setup"
    table.request_deal(2)  # playable
    screen.run_timers()
    assert table.game is not None
    _screen, again = reload_is_clean(backend)
    assert again == str(Record.of(table.game))


@pytest.mark.parametrize(
    "fragment",
    [
        pytest.param(lambda r: challenge_hash(str(r), 0, "Ana").replace("pts=0", "pts=%C2%B2"), id="pts"),
        pytest.param(lambda r: f"#reto={r}.%C2%B2-0-0-0&pts=0&de=Ana", id="record"),
    ],
)
@pytest.mark.parametrize("saved", [False, True], ids=["no-game", "game-saved"])
def test_a_challenge_link_with_a_superscript_digit_is_refused_and_kept(fragment, saved: bool) -> None:
    backend = MemoryBackend()
    mine = playing(backend) if saved else None
    link = fragment(finished())
    table, screen, _ = make_table(backend, fragment=link)
    assert screen.last_notice is not None and screen.last_notice.startswith("El reto no cuadra")
    assert "No se muestra ningún punto suyo" in screen.last_notice
    assert aside(backend) == [link], "the link's game is kept, not lost"
    assert backend.getItem(SAVE_KEY) == mine
    if saved:
        assert screen.body == "human" and screen.hash.startswith("#partida=")
    else:
        assert screen.body == "setup" and screen.hash == "", "the refused link leaves the address"
    # Opening it again while the page is open says the same and keeps it once.
    table.arrivals.open(link)
    assert screen.last_notice.startswith("El reto no cuadra")
    assert len(aside(backend)) == 1
    reload_is_clean(backend, screen.hash)


def test_a_game_link_with_a_superscript_digit_is_refused() -> None:
    table, screen, _ = make_table(fragment="#partida=A2K7-QM92&mesa=%C2%B2")
    assert screen.last_notice is not None and screen.last_notice.startswith("El enlace no cuadra")
    assert screen.body == "setup" and screen.hash == ""
    table.request_deal(2)
    assert table.game is not None


def test_an_import_whose_current_save_has_a_superscript_digit_keeps_it_aside() -> None:
    backend = MemoryBackend()
    mine = playing(backend)
    source = History(MemoryBackend())
    source.add(finished(), DAY)
    text = source.export(BAD_SAVE, DAY)
    table, screen, _ = make_table(backend)
    game = str(Record.of(table.game)) if table.game else None
    table.transfer.import_text(text)
    screen.run_timers()  # the file's games are checked in slices of the timer
    status = screen.texts["partidas-status"]
    assert "Importadas 1 partida." in status
    assert "La partida en curso del archivo no se ha podido abrir" in status and "aparte" in status
    assert [json.loads(kept) for kept in aside(backend)] == [json.loads(BAD_SAVE)]
    assert table.game is not None and str(Record.of(table.game)) == game
    assert backend.getItem(SAVE_KEY) == mine
    assert screen.get_attr("aside-info", "hidden") is None, "the page says something is kept aside"


def test_an_unreadable_import_file_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    table, screen, _ = make_table()

    def bug(self: History, _text: str) -> None:
        raise KeyError("a bug in the importer")

    monkeypatch.setattr(History, "importer", bug)
    table.transfer.import_text("{}")
    assert screen.texts["partidas-status"] == "El archivo no se ha podido leer."


def test_a_storage_event_with_a_superscript_digit_is_set_aside_and_this_tab_goes_on() -> None:
    backend = MemoryBackend()
    mine = playing(backend)
    table, screen, _ = make_table(backend)
    before = str(Record.of(table.game)) if table.game else None
    backend.setItem(SAVE_KEY, BAD_SAVE)  # what the other tab wrote
    table.saves.changed(BAD_SAVE)
    assert screen.last_notice is not None and screen.last_notice.startswith("Otra pestaña ha dejado")
    assert "Se ha guardado aparte" in screen.last_notice
    assert aside(backend) == [BAD_SAVE]
    assert backend.getItem(SAVE_KEY) == mine, "this tab's game is back in the slot"
    assert table.game is not None and str(Record.of(table.game)) == before
    _screen, again = reload_is_clean(backend)
    assert again == before


def test_a_kept_challenge_with_a_superscript_digit_is_set_aside_at_start_up() -> None:
    backend = MemoryBackend()
    mine = playing(backend)
    keep_challenge(backend, str(finished()) + ".²-0-0-0", "Ana")
    kept = backend.getItem(CHALLENGE_KEY)
    table, screen, _ = make_table(backend)
    assert screen.last_notice is not None
    assert screen.last_notice.startswith("El reto que estabas jugando no se ha podido comprobar")
    assert aside(backend) == [kept] and backend.getItem(CHALLENGE_KEY) is None
    assert table.challenges.challenge is None and backend.getItem(SAVE_KEY) == mine
    reload_is_clean(backend)


@pytest.mark.parametrize("picture", ["{roto", "[]", '{"board": "<p>"}', "[" * 5000])
def test_a_stored_picture_that_is_not_one_is_set_aside(picture: str) -> None:
    backend = MemoryBackend()
    mine = playing(backend)
    backend.setItem(PICTURE_KEY, picture)
    table, screen, _ = make_table(backend)
    assert screen.last_notice is not None
    assert screen.last_notice.startswith("La imagen guardada de la mesa no se podía usar")
    assert aside(backend) == [picture] and backend.getItem(PICTURE_KEY) is None
    assert table.game is not None and backend.getItem(SAVE_KEY) == mine
    reload_is_clean(backend)


# -- two tabs: set aside what is said to be set aside -----------------------------------------


def test_a_tab_whose_version_lost_the_slot_sets_it_aside_before_following() -> None:
    """Both tabs wrote without seeing each other (no Web Locks): the storage event keeps the loser."""
    backend = MemoryBackend()
    playing(backend)
    a, screen_a, _ = make_table(backend)
    b, _screen_b, _ = make_table(backend)
    assert a.game is not None and b.game is not None
    base = backend.getItem(SAVE_KEY)
    a.main_button()  # A draws and writes
    a_text = backend.getItem(SAVE_KEY)
    assert a_text is not None
    backend.setItem(SAVE_KEY, base or "")  # as if B read the slot before A's write reached it
    b.store.known = base
    fits = [c for c in b.game.legal_cards() if c.rank != 8] or [None]
    if fits[0] is None:
        b.main_button()
    else:
        b.click_card(str(fits[0]))
    b_text = backend.getItem(SAVE_KEY)
    assert b_text != a_text
    a.saves.changed(b_text)
    assert screen_a.last_notice is not None and "se ha guardado aparte" in screen_a.last_notice
    assert a_text in aside(backend), "A's draw is kept, as the notice says"
    assert str(Record.of(a.game)) == str(Record.of(b.game))


def test_deferred_saves_write_the_game_as_it_is_when_the_lock_comes() -> None:
    queued: list[object] = []
    backend = MemoryBackend()
    screen = FakeScreen()
    table = Table(screen, Store(backend, lock=queued.append), fast=True, rng=random.Random(1))
    table.start("", "https://example.org/ocho/")
    table.request_deal(2)
    assert backend.getItem(SAVE_KEY) is None and len(queued) == 1, "the write waits for the lock"
    table.main_button()
    assert len(queued) == 1, "one write for everything asked for before the lock came"
    run = queued.pop()
    assert callable(run)
    run()
    stored = read(backend.getItem(SAVE_KEY) or "")
    assert table.game is not None and str(stored.record) == str(Record.of(table.game, table.level))


# -- hypothesis: each reader raises only its own error type, over all of Unicode ---------------


def _record_texts() -> list[str]:
    start = Record(GameCode.parse("A2K7QM92"), finished().moves[:3], "normal", Start(2, 1, (40, 77)))
    return [str(finished()), str(finished().prefix(9)), str(start), BAD_RECORD]


def edited(texts: list[str]) -> st.SearchStrategy[str]:
    """One of ``texts`` with a few characters replaced, inserted or deleted (any Unicode character)."""

    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = list(draw(st.sampled_from(texts)))
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(text)))
            how = draw(st.sampled_from(["replace", "insert", "delete"]))
            char = draw(st.characters())
            if how == "insert" or at == len(text):
                text.insert(at, char)
            elif how == "replace":
                text[at] = char
            else:
                del text[at]
        return "".join(text)

    return build()


def _only(error: type[Exception], fn, *args: object) -> None:
    with contextlib.suppress(error):
        fn(*args)


RECORDS = st.one_of(st.text(), edited(_record_texts()))


@given(RECORDS)
@budget(300)
def test_record_parse_raises_only_record_error(text: str) -> None:
    _only(RecordError, Record.parse, text)


@given(RECORDS, st.one_of(st.text(max_size=5), st.integers(), st.none()), st.text(max_size=40))
@budget(150)
def test_challenge_verify_raises_only_challenge_error(text: str, claimed: object, name: str) -> None:
    _only(ChallengeError, verify, text, claimed, name)


def _link_texts() -> list[str]:
    record = finished()
    return [
        "#partida=A2K7-QM92&mesa=2",
        challenge_hash(str(record), outcome(record).total, "Ana María"),
        challenge_hash(str(record.prefix(9)), 0),
    ]


LINKS = st.one_of(st.text(), edited(_link_texts()))


@given(LINKS)
@budget(300)
def test_link_reading_raises_only_link_error(fragment: str) -> None:
    _only(LinkError, read_hash, fragment)
    _only(LinkError, read_challenge, fragment)


def _save_texts() -> list[str]:
    game = Game.new(GameCode.parse("A2K7QM92"))
    game.apply(game.legal_actions()[-1])
    version1 = json.dumps({"app": "ocho-loco", "version": 1, "game": engine_save.dump(game), "ui": {}})
    return [Store.payload(finished().prefix(12).replay()), BAD_SAVE, version1]


SAVES = st.one_of(st.text(), edited(_save_texts()))


@given(SAVES)
@budget(200)
def test_the_save_reader_raises_only_save_error(raw: str) -> None:
    _only(SaveError, read, raw)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _json_or(raw: str) -> object:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


@given(st.one_of(JSON, SAVES.map(_json_or)))
@budget(200)
def test_the_snapshot_loader_raises_only_save_error(data: object) -> None:
    _only(SaveError, engine_save.load, data)
    if isinstance(data, dict):
        _only(SaveError, engine_save.load, data.get("game"))


def _import_texts() -> list[str]:
    source = History(MemoryBackend())
    source.add(finished(), DAY)
    source.add(finished().prefix(30), DAY)
    return [source.export(_save_texts()[0], DAY), source.export(BAD_SAVE, DAY)]


@given(st.one_of(st.text(), edited(_import_texts())))
@budget(100)
def test_the_import_reader_raises_only_history_file_error(text: str) -> None:
    _only(HistoryFileError, History(MemoryBackend()).import_text, text)
