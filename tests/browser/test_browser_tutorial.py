"""Every game's tutorial completed end to end in real Chromium, in English and in Japanese: each step
read, one wrong move tried and explained with its rule, every move clicked, the zone highlighted,
and the step kept in the address so a learner can leave and come back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

import rules
from explorer.core.i18n import text
from explorer.pages.tutorial import create_tutorial_page, tutorial
from rules.rulebook import LANGUAGES
from tests.helpers.explorer_page import LOAD_TIMEOUT, shot
from tests.helpers.tiers import quick_once

pytestmark = pytest.mark.browser


@pytest.fixture
def tutorial_url(serve_app):
    return serve_app(create_tutorial_page, path="tutorial")


def current_step(page: Page, lang: str, number: int, total: int, say: str) -> None:
    expect(page.locator(".progress-text")).to_have_text(text("tutorial.progress", lang, step=number, total=total))
    expect(page.locator(".tutorial-say")).to_have_text(say)


@pytest.mark.parametrize("game, lang", quick_once([(game, lang) for game in rules.GAMES for lang in LANGUAGES],
                                                  ("subastral", "ja"), ids="-".join))
def test_a_tutorial_is_completed_in_the_browser(page: Page, tutorial_url, game, lang):
    script = tutorial(game)
    total = len(script.steps)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{tutorial_url}?game={game}&lang={lang}")
    expect(page.locator(".tutorial-say")).to_be_visible(timeout=LOAD_TIMEOUT)
    counter = page.locator(".tutorial .step-counter")       # one count of steps: the tutorial's
    expect(counter).to_have_count(1)
    expect(counter).to_be_hidden()
    explained = highlighted = False
    for number, step in enumerate(script.steps, start=1):
        current_step(page, lang, number, total, step.say[lang])
        if step.zone:       # the zone the step talks about stands out, at every step (the highlight follows)
            zone = page.locator(f".tutorial {step.zone.split(',')[0].strip()}").first
            expect(zone).to_have_css("outline-style", "solid")
            highlighted = True
        if step.do is None:
            page.locator(".tutorial-next button").click()
            continue
        if step.wrong and not explained:
            wrong = step.wrong[0]
            page.get_by_role("button", name=wrong.label[lang], exact=True).click()
            message = page.locator(".tutorial-message")
            expect(message).to_contain_text(wrong.why[lang])
            expect(message.locator("a")).to_have_attribute("href", re.compile(rf"rules\?game={game}&lang={lang}#rule-"))
            shot(page, f"tutorial-{game}-{lang}-wrong-move")
            current_step(page, lang, number, total, step.say[lang])      # still the same step
            explained = True
        page.get_by_role("button", name=step.do.label[lang], exact=True).click()
    expect(page.locator(".tutorial-done")).to_have_text(text("tutorial.done", lang))
    assert explained and highlighted
    expect(page).to_have_url(re.compile(rf"step={total + 1}(&|$)"))      # (one past the last: the end)
    shot(page, f"tutorial-{game}-{lang}-done")


def test_a_learner_leaves_and_comes_back_to_the_same_step(page: Page, tutorial_url):
    game = rules.GAMES[0]
    script = tutorial(game)
    page.goto(f"{tutorial_url}?game={game}&lang=ja")
    current_step(page, "ja", 1, len(script.steps), script.steps[0].say["ja"])
    expect(page).to_have_url(re.compile(r"step=1(&|$)"))
    entries = page.evaluate("history.length")
    for number, step in enumerate(script.steps[:4], start=1):
        current_step(page, "ja", number, len(script.steps), step.say["ja"])
        if step.do is None:
            page.locator(".tutorial-next button").click()
        else:
            page.get_by_role("button", name=step.do.label["ja"], exact=True).click()
    expect(page).to_have_url(re.compile(r"step=5(&|$)"))          # (four steps done: "Step 5" is shown)
    # The address follows the step in place: no history entry per step (Back went to the step before in the
    # address only, the page staying where it was), so Back leaves the tutorial.
    assert page.evaluate("history.length") == entries
    address = page.url
    page.goto("about:blank")
    page.goto(address)
    current_step(page, "ja", 5, len(script.steps), script.steps[4].say["ja"])
    # The language switch keeps the step.
    page.locator(".language-switch a.lang-en").click()
    current_step(page, "en", 5, len(script.steps), script.steps[4].say["en"])


@pytest.mark.parametrize("lang", quick_once(LANGUAGES, "en"))
def test_on_a_phone_a_step_shows_its_zone_on_the_board_with_a_tap(page: Page, tutorial_url, lang):
    """An outside review: on a phone a step's words and the zone it highlights were screens apart (the
    journal some 1,500 pixels below the text). Under the words, "Show it on the board" scrolls the
    highlighted zone into view (the link follows the step: tests/explorer/pages/test_tutorials.py)."""
    script = tutorial("subastral")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{tutorial_url}?game=subastral&lang={lang}")
    expect(page.locator(".tutorial-say")).to_be_visible(timeout=LOAD_TIMEOUT)
    first = script.steps[0]
    assert first.zone == ".journal-seat-0"
    zone = page.locator(f".tutorial {first.zone}").first
    expect(zone).to_have_css("outline-style", "solid")
    expect(zone).not_to_be_in_viewport()    # (it starts below the screen)
    link = page.locator("button.zone-link")
    expect(link).to_have_text(text("tutorial.show_zone", lang))
    link.click()
    expect(zone).to_be_in_viewport()        # (a smooth scroll: until the zone stands on the screen)
