"""The explorer in Japanese in real Chromium: by ``?lang=ja`` and by the browser's language, with a
game played by clicking; and back to English with the language switch, the game kept."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers.explorer_page import LOAD_TIMEOUT, new_game, picker_labels, settled, shot, wait_until
from tests.helpers.tiers import slow

pytestmark = pytest.mark.browser


def test_the_explorer_in_japanese_by_the_address(page: Page, served):
    url, apps = served
    page.set_viewport_size({"width": 1500, "height": 1000})
    page.goto(f"{url}?lang=ja")
    expect(page.locator(".step-counter")).to_be_visible(timeout=LOAD_TIMEOUT)
    app = apps[-1]
    session = app.session
    expect(page.locator(".game-select")).to_contain_text("ゲーム")
    expect(page.locator(".rules-links a.rules-page-link")).to_have_attribute("href", re.compile(r"lang=ja"))
    new_game(page, session, human=True)
    expect(page.locator(".action-picker")).to_contain_text("の番です")
    for _ in range(2):
        labels = picker_labels(page, app)
        assert labels and all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", label) for label in labels)
        length = len(session.log)
        page.locator(".action-picker").get_by_role("button", name=labels[0], exact=True).click()
        page.locator(".confirm-action button").click()
        wait_until(lambda: len(session.log) > length and settled(session), what="the move")
    expect(page.locator(".event-log .step-no").first).to_contain_text("手目")
    expect(page.locator(".event-log a.rule-link").first).to_have_attribute("href", re.compile(r"lang=ja#rule-"))
    shot(page, "explorer-japanese")
    # The language switch leads back to English, with the game played so far (it opened a fresh bot
    # game: the link kept only the game's name).
    page.locator(".language-switch a.lang-en").click()
    expect(page.locator(".game-select")).to_contain_text("Game", timeout=LOAD_TIMEOUT)
    english = apps[-1].session
    assert english is not session and english.log == session.log and english.cursor == session.cursor
    assert (english.seat_players, english.viewing_seat) == (session.seat_players, session.viewing_seat)
    expect(page.locator(".step-counter")).to_contain_text(f"Step {session.cursor} / {len(session.log)}")
    # Its address names its own game's key (the one its switch carries), not the Japanese page's: a
    # reload goes on with this page's game.
    own = re.search(r"resume=([\w-]{22})", page.locator(".language-switch a.lang-ja").get_attribute("href")).group(1)
    expect(page).to_have_url(re.compile(rf"[?&]resume={own}(&|$)"))
    # In place of the address the switch led to: Back goes to the Japanese page the switch was clicked on.
    page.go_back()
    expect(page).to_have_url(f"{url}?lang=ja", timeout=LOAD_TIMEOUT)
    expect(page.locator(".game-select")).to_contain_text("ゲーム", timeout=LOAD_TIMEOUT)


@slow   # (the quick tier: Accept-Language negotiation in tests/explorer/core/test_i18n.py)
def test_the_browser_s_language_is_the_default(browser: Browser, served):
    url, _ = served
    for locale, label in (("ja-JP", "ゲーム"), ("en-GB", "Game")):
        context = browser.new_context(locale=locale)
        try:
            page = context.new_page()
            page.goto(url)
            expect(page.locator(".game-select")).to_contain_text(label, timeout=LOAD_TIMEOUT)
        finally:
            context.close()
