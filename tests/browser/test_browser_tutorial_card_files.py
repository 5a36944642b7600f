"""A tutorial dealt with an edited card file, in real Chromium: the learner plays up to the step the
file makes unplayable, the page says why with the engine's refusal and links to the explorer at that
position, offers no move, reads on with Next, and keeps the card file in the address and across the
language switch."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from explorer.pages.tutorial import create_tutorial_page, tutorial
from tests.helpers.explorer_page import LOAD_TIMEOUT, shot

pytestmark = pytest.mark.browser

GAME = "biome_blitz"


@pytest.fixture
def tutorial_url(serve_app, tmp_path, monkeypatch):
    monkeypatch.setenv(CARDS_ENV, str(tmp_path / "cards"))
    data = standard_file(GAME)
    [ant] = [card for card in data["animals"] if card["id"] == "leafcutter_ant"]
    ant["cost"] = {"leaf": 2}                  # the learner's scripted purchase pays 1 leaf
    CardLibrary().save(GAME, "dear ant", data)
    return serve_app(create_tutorial_page, path="tutorial")


def test_a_step_the_card_file_makes_unplayable_says_why_and_links_to_the_explorer(page: Page, tutorial_url):
    steps = tutorial(GAME).steps
    stop = [step.id for step in steps].index("discover")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{tutorial_url}?game={GAME}&lang=en&step={stop}&cards=dear%20ant")
    expect(page.locator(".tutorial-cards")).to_have_text("Played with the card file “dear ant”", timeout=LOAD_TIMEOUT)
    page.get_by_role("button", name=steps[stop - 1].do.label["en"], exact=True).click()

    blocked = page.locator(".tutorial-blocked")
    expect(blocked).to_contain_text(f"Step {stop + 1} cannot be played with the card file “dear ant”")
    expect(blocked).to_contain_text("does not match the cost 2 leaf")
    expect(page.get_by_role("button", name=steps[stop].do.label["en"], exact=True)).to_have_count(0)
    link = blocked.locator("a.tutorial-cards-explorer")
    expect(link).to_have_attribute("href", re.compile(r"^/explorer\?game=biome_blitz&players=2&seed=\d+&cards=dear\+ant&moves="))
    assert re.search(rf"[?&]cards=dear(\+|%20)ant", page.url) and f"step={stop + 1}" in page.url
    shot(page, "tutorial-card-file-blocked-phone")

    page.locator(".tutorial-next button").click()
    expect(page.locator(".tutorial-reading")).to_contain_text(f"Read only: step {stop + 1} cannot be played")
    page.locator(".language-switch a.lang-ja").click()
    expect(page.locator(".tutorial-reading")).to_contain_text(f"ステップ{stop + 1}はカードファイル「dear ant」では遊べない",
                                                            timeout=LOAD_TIMEOUT)
    expect(page.locator(".tutorial-cards")).to_have_text("カードファイル「dear ant」で遊んでいます")
