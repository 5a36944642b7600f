"""Issue #24's designer's workshop end to end, in real Chromium: a Biome Blitz animal edited in the card
editor's table and saved, then that saved file compared against the standard cards on 500 deals on the
Analysis page, whose sentence is read.

Two pages, one card library: the editor saves into a fresh folder, and the Analysis page (which finds
the library as a served page does, by ``RULES_EXPLORER_CARDS_DIR``) lists what it saved.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from explorer.pages.analysis import create_page as create_analysis_page
from explorer.pages.analysis_decks import verdict_text
from explorer.pages.cards_page import create_page as create_cards_page
from tests.helpers.explorer_page import shot, wait_until
from tests.helpers.tiers import slow
from tests.helpers.workshop_pages import edit_cell, open_biome_blitz, set_number

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 30_000


@slow   # 500 paired deals (1,000 games); the quick tier has each page's own flow (test_browser_card_editor.py,
        # test_browser_analysis.py's 20-deal runs)
def test_an_animal_edited_and_saved_in_the_editor_is_compared_on_500_deals_and_the_page_says_what_changed(
        page: Page, serve_app, tmp_path, monkeypatch):
    library = CardLibrary(tmp_path / "cards")
    monkeypatch.setenv(CARDS_ENV, str(tmp_path / "cards"))
    editors, analyses = [], []

    def editor_page():
        template = create_cards_page(library=library)
        editors.append(template.editor)
        return template

    def analysis_page():
        template = create_analysis_page()
        analyses.append(template.analysis)
        return template

    cards_url = serve_app(editor_page, path="cards")
    analysis_url = serve_app(analysis_page, path="analysis")

    # The editor: the first animal made worth 30 stars (a win when bought) in its table, checked by the game, saved.
    standard = standard_file("biome_blitz")
    animal = standard["animals"][0]
    stars = 30
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(cards_url + "?lang=en")
    expect(page.locator(".cards-status")).to_contain_text("The game accepts this card file.", timeout=LOAD_TIMEOUT)
    edit_cell(page, "cards-table", 0, "stars", str(stars))
    expect(page.locator(".cards-diff")).to_contain_text(f"animals[{animal['id']}].stars")
    wait_until(lambda: editors[-1].data["animals"][0]["stars"] == stars, what="the edit to reach the server")
    page.locator(".cards-name input").fill("first animal wins")
    page.locator(".cards-name input").press("Enter")
    page.locator(".cards-save button").click()
    expect(page.locator(".cards-notice")).to_contain_text("Saved as “first animal wins”.")
    saved = library.load("biome_blitz", "first animal wins")
    assert saved["animals"][0]["stars"] == stars
    assert {k: v for k, v in saved.items() if k != "animals"} == {k: v for k, v in standard.items() if k != "animals"}

    # The Analysis page: that file as setting B against the standard cards, 500 deals.
    analysis = open_biome_blitz(page, (analysis_url, analyses))
    page.locator(".analysis-cards-b select").select_option(label="Saved: first animal wins")
    expect(page.locator(".analysis-cards-shown-b")).to_contain_text("B plays with: first animal wins")
    set_number(page, "analysis-games", 500)
    set_number(page, "analysis-chunk", 50)
    wait_until(lambda: (analysis.games, analysis.chunk, analysis.deck_b.data) == (500, 50, saved), what="the settings")
    page.locator(".analysis-run button").click()
    wait_until(lambda: analysis.run.status == "failed" or (analysis.run.status == "done" and analysis.run.result),
               timeout=300, what="500 deals")
    assert analysis.run.status == "done", analysis.run.error
    result = analysis.run.result
    assert result["results"]["games"] == 500
    # Only a field changed: the same cards in the same order, so the very same deals under A and B.
    expect(page.locator(".analysis-pairing")).to_have_text("Paired on the same 500 deals.", timeout=30_000)
    said = verdict_text(result["results"], result["pairing"])
    assert "on the same 500 deals" in said and "no difference" not in said, said     # (a win when bought: shorter games)
    expect(page.locator(".analysis-verdict")).to_have_text(said, timeout=30_000)
    # The edited animal's own row in the per-card table: bought under both settings.
    bought = {(row["use"], row["card"]) for row in result["results"]["b"]["cards"]}
    assert ("bought", animal["id"]) in bought, sorted(bought)
    shot(page, "workshop-500-deals")
