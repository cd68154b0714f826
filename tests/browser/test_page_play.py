"""End-to-end play on the real page: whole hands, refusals, drawing, the 8, the keyboard.

Most tests run with ``prefers-reduced-motion: reduce`` so the CPU moves and
the results count without delays; one test keeps normal motion to see the
CPU's turn and the results count play out step by step. Every expectation
about cards comes from the engine, run here in CPython on the same code.
"""

from __future__ import annotations

import re
from functools import partial

import pytest
from helpers import (
    EIGHT_CODE,
    PLAIN_CODE,
    act,
    boot,
    cpu_then_you_go_out,
    envelope,
    hand,
    install_recorder,
    legal_cards,
    link,
    main_text,
    put_storage,
    reach,
    recorded,
    saved_game,
    see_the_end,
    state,
    status,
    top_card,
    wait_for_python,
    wait_state,
)

from engine.actions import Action
from engine.bots import make_bot
from engine.cards import POINTS, RANK_OF, RANK_TEXT
from engine.codes import GameCode
from engine.game import Game
from engine.save import dump
from engine.view import seat_view
from ui import render
from ui.render_gameover import verdict

CARD_SELECTOR = '#hand button.card[data-card="{}"]'
SUIT_SELECTOR = '#suit-dialog .suit-btn[data-suit="{}"]'


def card(page, text: str):
    return page.locator(CARD_SELECTOR.format(text))


def play_hand(page, suit: str = "H") -> list[str]:
    """Play the person's turns until the hand ends; return the person's actions as text.

    Policy: the first raised (legal) card, naming ``suit`` for an 8; with no
    legal card, the main button (draw, or pass when it says so).
    """
    mine: list[str] = []
    for _ in range(500):
        now = wait_state(page)
        if now in ("results", "gameover"):
            return mine
        if now == "chooser":
            act(page, partial(page.click, SUIT_SELECTOR.format(suit)))
            mine[-1] += ":" + suit
            continue
        assert now == "human", now
        legal = legal_cards(page)
        if legal:
            mine.append(legal[0])
            act(page, partial(page.click, CARD_SELECTOR.format(legal[0])))
        else:
            mine.append("pass" if main_text(page) == "Pasar" else "draw")
            act(page, partial(page.click, "#main-btn"))
    raise AssertionError("the hand did not end")


def replay(code: GameCode, history: list[str]) -> Game:
    """Rebuild the page's hand in CPython from its public history; every step must be legal."""
    game = Game.new(code)
    for entry in history:
        if entry == "reshuffle":
            continue  # the draw that follows does it again
        seat, text = entry.split(":", 1)
        assert int(seat) == game.turn, (entry, game.turn)
        game.apply(Action.parse(text))
    assert dump(game)["history"] == history
    return game


# One table size each: a hand to its results at two players, a whole game at three (the fake
# screen plays both sizes through, tests/test_ui_table.py).
@pytest.mark.parametrize("players", [2])
def test_whole_hand_to_results(players, fast_page, site_url):
    page = fast_page
    code = GameCode.build(players, "K7QM9")
    expected = Game.new(code)
    boot(page, link(site_url, code), "human")

    size = 7 if players == 2 else 5
    assert sorted(hand(page)) == sorted(str(c) for c in expected.hands[0])
    assert len(hand(page)) == size
    assert top_card(page) == str(expected.top)
    opponents = page.locator("#opponents .opponent")
    assert opponents.count() == players - 1
    for i in range(players - 1):
        assert opponents.nth(i).locator(".opp-count").inner_text() == f"{size} cartas"

    mine = play_hand(page)

    history = saved_game(page)["history"]
    assert [h.split(":", 1)[1] for h in history if h.startswith("0:")] == mine
    game = replay(code, history)
    result = game.result
    assert result is not None
    assert page.locator("#results-dialog").evaluate("d => d.open")
    for seat in range(players):
        row = page.locator(f'#results-body .result-row[data-seat="{seat}"]')
        if seat == result.winner:
            assert "0 puntos" in row.inner_text()
            continue
        left = result.leftovers[seat]
        shown = row.locator(".card.reveal").evaluate_all("els => els.map(e => e.dataset.card)")
        assert shown == [str(c) for c in left]
        text = row.locator(".result-sum").inner_text().strip()
        match = re.fullmatch(r"(.+) = (\d+)", text)
        assert match, text
        assert match.group(1).split(" + ") == [RANK_TEXT[RANK_OF[c] - 1] for c in left]
        assert int(match.group(2)) == result.penalties[seat] == sum(POINTS[c] for c in left)
    totals = page.locator("#results-body .result-totals li").all_inner_texts()
    names = ["Tú", "CPU 1", "CPU 2"][:players]
    rows = zip(names, result.totals, result.penalties, strict=True)
    assert totals == [f"{n}: {t} (+{p})" for n, t, p in rows]
    button = "#final-btn" if result.game_over else "#next-hand-btn"
    assert page.locator(button).is_visible()


def test_eight_opens_chooser_and_names_the_suit(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, EIGHT_CODE), "human")
    assert "8S" in legal_cards(page)
    act(page, partial(card(page, "8S").click), "chooser")
    dialog = page.get_by_role("dialog", name="¿Qué palo pides?")
    assert dialog.is_visible()
    suits = dialog.locator("button.suit-btn").evaluate_all("els => els.map(e => e.dataset.suit)")
    assert suits == ["S", "H", "D", "C"]
    names = dialog.locator("button.suit-btn").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || e.textContent.trim())"
    )
    for name, word in zip(names, ["Picas", "Corazones", "Diamantes", "Tréboles"], strict=True):
        assert name.startswith(word) and "tienes" in name, name
    assert dialog.get_by_role("button", name="Cancelar").count() == 1

    install_recorder(
        page,
        "#mesa",
        """{top: document.querySelector('#discard [data-card]')?.dataset.card,
            mark: document.querySelector('#discard .suit-mark')?.dataset.suit || null,
            active: document.getElementById('active-suit').dataset.suit,
            text: document.getElementById('active-suit').textContent.trim()}""",
    )
    act(page, partial(dialog.locator('button.suit-btn[data-suit="H"]').click))
    assert not page.locator("#suit-dialog").evaluate("d => d.open")
    assert "8S" not in hand(page)
    assert "0:8S:H" in saved_game(page)["history"]
    # The render right after the choice (before any CPU move) shows the 8 and its suit.
    with_eight = [s for s in recorded(page) if s["top"] == "8S"]
    assert with_eight, recorded(page)
    first = with_eight[0]
    assert first["mark"] == "H" and first["active"] == "H"
    assert first["text"] == "Manda ♥ corazones"


def test_cpu_turn_and_results_unfold_step_by_step(page, site_url):
    # Normal motion: each CPU action and each revealed card is its own render.
    # A real game where CPU 1 is on turn and draws at least twice, then your last card fits.
    game = reach(cpu_then_you_go_out)
    after = game.copy()
    bot = make_bot("cpu", 1)
    while after.turn == 1:
        after.apply(bot.choose(seat_view(after, 1)))
    cpu_moves = [str(m) for m in after.history[len(game.history) :]]
    draws = sum(m == "1:draw" for m in cpu_moves)
    start = len(game.hands[1])
    put_storage(page, site_url, {"ocho-loco:partida": envelope(game)})
    # Watch every render from the very start of the page.
    page.add_init_script(
        """
        window.__steps = [];
        const text = (sel) => document.querySelector(sel)?.textContent || '';
        new MutationObserver(() => window.__steps.push({
            state: document.body?.dataset.state || '',
            status: text('#status'),
            count: text('#opponents .opp-count'),
            shown: document.querySelectorAll('#results-body .card.reveal').length,
        })).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
        """
    )
    page.goto(site_url)
    wait_for_python(page)
    wait_state(page, "human", timeout=60_000)
    steps = page.evaluate("() => window.__steps")
    cpu_counts = []
    for s in steps:
        if s["state"] == "cpu" and (not cpu_counts or cpu_counts[-1] != s["count"]):
            cpu_counts.append(s["count"])
    expected = [f"{n} cartas" for n in range(start, start + draws + 1)]
    assert cpu_counts[: draws + 1] == expected, cpu_counts
    statuses = [s["status"] for s in steps if s["state"] == "cpu"]
    # Shown one action at a time, said once: the whole turn in one sentence.
    assert "CPU 1 roba una carta." not in statuses
    summary = render.turn_summary(1, after.history[len(game.history) :])
    assert summary.startswith("CPU 1 roba ")
    assert sum(s["status"].startswith(summary) for s in steps if s["state"] == "human") >= 1
    saved = saved_game(page)["history"]
    assert saved[len(saved) - len(cpu_moves) :] == cpu_moves

    card(page, str(after.hands[0][0])).click()
    page.wait_for_function(
        "() => document.querySelector('#results-body .result-sum')?.dataset.done === '1'"
        " && document.querySelector('#results-body .result-totals')",
        timeout=30_000,
    )
    steps = page.evaluate("() => window.__steps")
    shown = []
    for s in steps:
        if s["state"] == "results" and (not shown or shown[-1] != s["shown"]):
            shown.append(s["shown"])
    # Counted one by one: every number from the first card to all of them appears.
    leftover = after.hands[1]
    assert [n for n in shown if n > 0] == list(range(1, len(leftover) + 1)), shown
    total = sum(POINTS[c] for c in leftover)
    assert page.locator(".result-sum").inner_text().endswith(f"= {total}")


def test_keyboard_only_turn(fast_page, site_url):
    page = fast_page
    boot(page, link(site_url, PLAIN_CODE), "human")

    def tab_to(js_test: str, limit: int = 80) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(f"() => {{ const el = document.activeElement; return !!el && ({js_test}); }}"):
                return
        raise AssertionError("Tab never reached " + js_test)

    tab_to("el.matches('#hand button.card.legal')")
    chosen = page.evaluate("() => document.activeElement.dataset.card")
    assert chosen == "10D"
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    act(page, partial(page.keyboard.press, "Enter"), "human")
    assert "10D" not in hand(page)
    assert saved_game(page)["history"][0] == "0:10D"
    # Focus stays in the hand, visibly, after the re-renders.
    assert page.evaluate("() => !!document.activeElement.closest('#hand')")
    assert page.evaluate("() => document.activeElement.matches('button.card:focus-visible')")
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineWidth, s.boxShadow]; }"
    )
    assert (ring[0] != "none" and ring[1] != "0px") or ring[2] != "none", ring

    # Arrow keys, Home and End walk along the hand without leaving it.
    cards = hand(page)
    page.keyboard.press("Home")
    assert page.evaluate("() => document.activeElement.dataset.card") == cards[0]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == cards[1]
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.dataset.card") == cards[-1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.card") == cards[-2]

    tab_to("el.id === 'main-btn'")
    before = main_text(page)
    assert before == "Robar (3)"
    act(page, partial(page.keyboard.press, "Enter"), "human")
    assert main_text(page) == "Robar (2)"

    # The suit chooser: Escape keeps the 8; choosing by keyboard plays it.
    put_storage(page, site_url, {})
    boot(page, link(site_url, EIGHT_CODE), "human")
    tab_to("el.dataset.card === '8S'")
    act(page, partial(page.keyboard.press, "Enter"), "chooser")
    assert page.evaluate("() => !!document.activeElement.closest('#suit-dialog')")
    page.keyboard.press("Escape")
    wait_state(page, "human")
    assert not page.locator("#suit-dialog").evaluate("d => d.open")
    assert "8S" in hand(page)
    assert status(page).startswith("Te guardas el 8.")
    assert page.evaluate("() => document.activeElement.dataset.card") == "8S"
    page.wait_for_function("() => JSON.parse(localStorage.getItem('ocho-loco:partida')).ui.chooser === null")

    act(page, partial(page.keyboard.press, "Enter"), "chooser")
    for _ in range(8):
        if page.evaluate("() => document.activeElement.dataset.suit") == "D":
            break
        page.keyboard.press("Tab")
    act(page, partial(page.keyboard.press, "Enter"))
    assert "0:8S:D" in saved_game(page)["history"]


@pytest.mark.parametrize("players", [3])
def test_whole_game_to_100_then_new_game(players, fast_page, site_url):
    """Hands follow one another until a total reaches 100; the lowest total wins, ties share."""
    page = fast_page
    code = GameCode.build(players, "W2NAK")
    boot(page, link(site_url, code), "human", "cpu")
    for hand_no in range(40):
        play_hand(page)
        saved = saved_game(page)
        assert saved["hand"] == hand_no
        if wait_state(page, "results", "gameover") == "gameover":
            break
        page.locator("#next-hand-btn").wait_for(state="visible")
        act(page, partial(page.click, "#next-hand-btn"))
        # Rule 3: the winner of the hand just played leads the next one.
        assert saved_game(page)["leader"] == saved["result"]["winner"]
    else:
        raise AssertionError("the game did not reach 100")

    totals = saved_game(page)["totals"]
    assert max(totals) >= 100
    low = min(totals)
    winners = [seat for seat, total in enumerate(totals) if total == low]
    # The last hand's count, then «Ver el final»: the end of the game in a panel of its own.
    see_the_end(page)
    assert page.locator("#gameover-title").inner_text() == verdict(winners)
    assert page.locator("#gameover-sub").inner_text().count(f"{low} puntos") == 1
    # The race to 100: one line a player, as many points as hands (and the start), and its table.
    chart = page.locator("#gameover-body svg.race-chart")
    assert chart.get_attribute("role") == "img" and "carrera a 100" in (
        chart.get_attribute("aria-label") or ""
    )
    lines = chart.locator("polyline.race-line")
    assert lines.count() == players
    points = lines.evaluate_all("els => els.map(e => e.points.numberOfItems)")
    assert points == [hand_no + 2] * players, f"the start and {hand_no + 1} hands, {code.pretty()}"
    page.click("#gameover-body .race-numbers summary")
    rows = page.locator("#gameover-body .race-table tbody tr").all_inner_texts()
    assert len(rows) == hand_no + 1 and rows[-1].split() == [str(hand_no + 1), *map(str, totals)]
    assert page.locator("#gameover-body .best-worst li").count() in (1, 2)
    for button in ("#new-game-btn", "#gameover-replay-btn", "#gameover-challenge-btn"):
        assert page.locator(button).is_visible(), button

    act(page, partial(page.click, "#new-game-btn"))
    fresh = saved_game(page)
    assert fresh["code"] != code.text
    assert fresh["totals"] == [0] * players
    assert fresh["hand"] == 0
    assert len(hand(page)) == (7 if players == 2 else 5)


# Your turn with a card that fits (the table waits for you), a question, or the hand's end.
YOUR_CHOICE_JS = """() => ['results', 'gameover', 'chooser'].includes(document.body.dataset.state)
  || (document.body.dataset.state === 'human' && !!document.querySelector('#hand button.card.legal')
      && !(window.ochoLocoProbe && window.ochoLocoProbe.answering))"""


def test_with_forced_moves_on_a_hand_needs_a_tap_only_for_a_choice(fast_page, site_url):
    """Issue 46: code A3TX-7URW's phone hand took 36 taps, most of them forced draws and passes.

    With «Jugadas forzadas solas» on, the test taps only cards (and a suit for an 8): every draw and
    pass of the record is the table's own, and the hand still reaches its results.
    """
    page = fast_page
    code = GameCode.parse("A3TX-7URW")
    put_storage(page, site_url, {"ocho-loco:forzadas": "si"})
    boot(page, link(site_url, code), "human", "cpu")
    taps = 0
    for _ in range(200):
        page.wait_for_function(YOUR_CHOICE_JS, timeout=30_000)
        now = state(page)
        if now in ("results", "gameover"):
            break
        if now == "chooser":
            act(page, partial(page.click, SUIT_SELECTOR.format("H")))
        else:
            act(page, partial(page.click, CARD_SELECTOR.format(legal_cards(page)[0])))
        taps += 1
    else:
        raise AssertionError(f"{code.pretty()}: the hand did not end")
    history = saved_game(page)["history"]
    mine = [h for h in history if h.startswith("0:")]
    forced = [h for h in mine if h in ("0:draw", "0:pass")]
    assert forced, f"{code.pretty()}: the hand had forced moves, all made by the table"
    plays = [h for h in mine if h not in ("0:draw", "0:pass")]
    suits = sum(1 for h in plays if h.count(":") == 2)  # an 8 and the suit it names: two taps
    assert taps == len(plays) + suits, f"{code.pretty()}: {taps} taps for {mine}"
