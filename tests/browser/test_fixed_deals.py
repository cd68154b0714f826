"""Browser tests deal fixed games: «Repartir» deals the same code on every run of a test."""

from __future__ import annotations

from helpers import boot, saved_record, wait_state


def _deal(browser, site_url) -> str:
    context = browser.new_context(locale="es-ES", reduced_motion="reduce")
    try:
        page = context.new_page()
        boot(page, site_url, "setup")
        page.click("#deal-btn")
        wait_state(page, "human", "cpu")
        return saved_record(page).split(".")[1]
    finally:
        context.close()


def test_the_deal_button_deals_the_same_game_in_every_fresh_profile(browser, site_url):
    first, second = _deal(browser, site_url), _deal(browser, site_url)
    assert first == second, f"two fresh profiles of one test dealt {first} and {second}"
