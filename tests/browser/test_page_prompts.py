"""#25 item 10: the prompts say what the table allows (fixed codes from tests/browser/helpers.py)."""

from __future__ import annotations

from helpers import (
    OPENING_EIGHT_CODE,
    THIRD_DRAW_CODE,
    boot,
    legal_cards,
    link,
    main_text,
    status,
    wait_state,
)


def test_after_the_third_draw_no_roba_while_robar_shows_zero(fast_page, site_url):
    """«…tira una carta que valga o roba.» used to show beside a «Robar (0)» that does nothing."""
    page = fast_page
    boot(page, link(site_url, THIRD_DRAW_CODE), "human")
    assert legal_cards(page) == [], THIRD_DRAW_CODE.pretty()
    for left in (2, 1, 0):
        page.click("#main-btn")
        page.wait_for_function(
            "(want) => document.getElementById('main-btn').innerText.trim() === want", arg=f"Robar ({left})"
        )
        wait_state(page, "human")
    assert main_text(page) == "Robar (0)" and page.locator("#main-btn").is_disabled()
    assert legal_cards(page), "the third card drawn fits"
    said = status(page)
    prompt = said.split("Te toca")[-1]
    assert "o roba" not in prompt and "roba (" not in prompt, said
    assert "ya no puedes robar" in prompt, said


def test_an_eight_turned_up_at_the_deal_is_said_to_have_come_from_the_deal(fast_page, site_url):
    """Rule 6: «Arriba: 8 de diamantes, pide diamantes» said someone asked; nobody did."""
    page = fast_page
    boot(page, link(site_url, OPENING_EIGHT_CODE), "human")
    label = page.get_attribute("#discard [data-card]", "aria-label") or ""
    assert label.startswith("Arriba: 8 de diamantes"), label
    assert "pide" not in label and "salió al repartir" in label, label
