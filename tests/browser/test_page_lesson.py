"""«Aprende jugando» (issue 46) in the real page: a first visit finishes the lesson by keyboard only.

The lesson's deal is fixed (ui/lesson.py's code, against «Fácil»), so every step comes at the same
moment; the test waits on data-state and on the page's own marks, never on time, and axe finds
nothing serious at each step.
"""

from __future__ import annotations

from helpers import boot, wait_state
from test_page_quality import axe_problems

from ui.lesson import LESSON_CODE

CARD_NOW = "() => (document.activeElement && document.activeElement.dataset.card) || ''"


def test_a_first_visit_finishes_the_lesson_by_keyboard_and_reaches_a_normal_deal(fast_page, site_url):
    page = fast_page
    assert boot(page, site_url) == "setup"
    assert page.locator("#learn-btn").is_visible()
    found: dict[str, list[str]] = {"setup": axe_problems(page)}

    def tab_to(js_test: str, limit: int = 80) -> None:
        for _ in range(limit):
            if page.evaluate(f"() => {{ const el = document.activeElement; return !!el && ({js_test}); }}"):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {js_test} (code {LESSON_CODE.pretty()})")

    def to_card(card: str) -> None:
        """Move along the hand with the arrow keys to ``card``."""
        tab_to("!!el.closest('#hand')")
        page.keyboard.press("Home")
        for _ in range(20):
            if page.evaluate(CARD_NOW) == card:
                return
            page.keyboard.press("ArrowRight")
        raise AssertionError(f"{card} is not in the hand (code {LESSON_CODE.pretty()})")

    def enter(*states: str) -> str:
        """Press Enter and wait for the page's answer (the lesson saves nothing: no save to wait on)."""
        page.keyboard.press("Enter")
        return wait_state(page, *states)

    def step_text() -> str:
        return page.inner_text("#lesson-step")

    tab_to("el.id === 'learn-btn'")
    enter("human")
    assert page.locator("#lesson").is_visible()
    assert page.evaluate("() => location.hash") == "", "the lesson has no link"

    # Step 1: the card that follows is marked (raised, a dashed ring); the 8 waits for step 2.
    assert step_text().startswith("Paso 1 de 4."), step_text()
    marked = page.evaluate(
        "() => [...document.querySelectorAll('#hand [data-lesson]')].map(b => b.dataset.card)"
    )
    assert marked == ["JS"], marked
    found["paso 1"] = axe_problems(page)
    to_card("8H")
    enter("human")
    assert "8H" in page.evaluate(
        "() => [...document.querySelectorAll('#hand [data-card]')].map(b => b.dataset.card)"
    )
    to_card("JS")
    enter("human")
    page.wait_for_function("() => document.getElementById('lesson-step').textContent.startsWith('Paso 2')")

    # Step 2: the lesson moved the focus to the 8; Enter, then a suit in the chooser.
    assert page.evaluate(CARD_NOW) == "8H"
    found["paso 2"] = axe_problems(page)
    enter("chooser")
    found["paso 2, palo"] = axe_problems(page)
    tab_to("el.dataset.suit === 'H'")
    enter("human")
    page.wait_for_function("() => document.getElementById('lesson-step').textContent.startsWith('Paso 3')")

    # Step 3: three draws and the pass, each by the player's own key (no forced move plays itself).
    assert page.evaluate("() => document.activeElement.id") == "main-btn"
    found["paso 3"] = axe_problems(page)
    for label in ("Robar (2)", "Robar (1)", "Pasar"):
        enter("human")
        assert page.inner_text("#main-btn").startswith(label.split(" ")[0]), page.inner_text("#main-btn")
    enter("human", "results")
    found["sigue jugando"] = axe_problems(page)

    # The hand played out by keyboard: a card that fits, else the main button (or it plays itself).
    for _ in range(40):
        if wait_state(page, "human", "chooser", "results") == "results":
            break
        if page.evaluate("() => document.body.dataset.state") == "chooser":
            tab_to("!!el.dataset.suit")
            enter("human", "results")
            continue
        legal = page.evaluate(
            "() => [...document.querySelectorAll('#hand .card.legal')].map(b => b.dataset.card)"
        )
        if legal:
            to_card(legal[0])
        else:
            tab_to("el.id === 'main-btn' && !el.disabled")
        enter("human", "chooser", "results")
    assert wait_state(page, "results") == "results"

    # Step 4: the count, the points said in the panel's live region, and the way to a normal table.
    page.locator("#next-hand-btn:not([data-grace])").wait_for(state="visible")
    assert "Paso 4 de 4" in page.inner_text("#results-live")
    assert page.inner_text("#next-hand-btn") == "Jugar una partida"
    assert page.evaluate("() => document.activeElement.id") == "next-hand-btn"
    found["paso 4"] = axe_problems(page)
    assert page.evaluate("() => localStorage.getItem('ocho-loco:partida')") is None, (
        "the lesson is never saved"
    )
    enter("human")
    assert page.inner_text("#game-code") != LESSON_CODE.pretty()
    assert not page.locator("#lesson").is_visible()
    assert page.inner_text("#status").startswith("Fin de la lección. Nueva partida")
    assert page.evaluate("() => localStorage.getItem('ocho-loco:partida')") is not None
    assert {step: problems for step, problems in found.items() if problems} == {}
