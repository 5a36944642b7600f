"""The what-if editor for people in real Chromium (issue #22, item 7): the "Cards and turn" tab names
the cards as printed; a card taken out of a hand and the deck's top two cards swapped with the
arrows are the position "Apply" starts from; the rules' refusal shows in the zone it names; the form
fits a phone. The model of the form is tested in tests/explorer/components/test_position_form.py.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import LOAD_TIMEOUT, open_app, shot, wait_until

pytestmark = pytest.mark.browser


#: The elements (in shadow roots too) whose right edge passes the window's, by tag and classes.
WIDEST_JS = """
() => {
  const found = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width && box.right > window.innerWidth + 1) found.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(box.right)}`);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return found.slice(0, 12);
}
"""


def show_tab(page: Page, title: str) -> None:
    page.locator(".bk-tab", has_text=title).first.click()


def test_a_position_edited_by_its_cards_is_the_one_applied(page: Page, served):
    app = open_app(page, served)
    session = app.session
    show_tab(page, "What-if setup")
    show_tab(page, "Cards and turn")
    hand = page.locator(".position-hands-0 .zone-card")
    expect(hand.first).to_be_visible()
    position = session.position()["state"]
    names = hand.locator(".zone-card-name").all_inner_texts()
    assert len(names) == len(position["hands"][0])
    assert all(re.fullmatch(r"[A-Z][a-z]+( [a-z]+)? \d", name) for name in names), names   # "Savanna 3", never "savanna-3"
    taken = hand.first.get_attribute("data-card")
    hand.first.locator(".zone-remove").click()
    expect(hand).to_have_count(len(position["hands"][0]) - 1)
    deck = page.locator(".position-deck .zone-card")
    top, second = deck.nth(0).get_attribute("data-card"), deck.nth(1).get_attribute("data-card")
    deck.nth(0).locator(".zone-down").click()
    expect(deck.nth(0)).to_have_attribute("data-card", second)
    third, fourth = deck.nth(2).get_attribute("data-card"), deck.nth(3).get_attribute("data-card")
    assert third != fourth and top != second, "the deal must have different cards there to show a move"
    deck.nth(3).drag_to(deck.nth(2))                        # drag-and-drop: the fourth card before the third
    expect(deck.nth(2)).to_have_attribute("data-card", fourth)
    expect(deck.nth(3)).to_have_attribute("data-card", third)
    expect(page.locator(".setup-form-note")).to_contain_text("edited")
    page.locator(".setup-apply button").click()
    wait_until(lambda: session.start is not None, what="the position to load")
    state = session.position()["state"]
    expected = list(position["hands"][0])
    expected.remove(taken)
    assert sorted(state["hands"][0]) == sorted(expected)
    assert state["deck"][:4] == [second, top, fourth, third]
    expect(page.locator(".setup-status")).to_contain_text("a new line starts here")
    shot(page, "what-if-form-applied")


def test_the_rules_refusal_shows_in_the_zone_it_names_and_the_form_fits_a_phone(page: Page, served):
    app = open_app(page, served, width=390, height=844)
    session = app.session
    before = session.replay()
    show_tab(page, "What-if setup")
    show_tab(page, "Cards and turn")
    hand = page.locator(f".position-hands-{session.state.seat} .zone-card")
    expect(hand.first).to_be_visible()
    page.locator(".position-phase select").select_option(label="play a card")
    # One card at a time, as a person does: each ✕ sends the zone less that card, as the zone was last
    # drawn; a click before the server's answer redrew it took the same card out twice (a fresh clone's run
    # was left with one card).
    count = page.locator(f".position-hands-{session.state.seat} .zone-count")
    for left in reversed(range(hand.count())):
        hand.first.locator(".zone-remove").click()
        expect(hand).to_have_count(left)
        expect(count).to_have_text("1 card" if left == 1 else f"{left} cards")      # (it said "1 cards")
    page.locator(".setup-apply button").click()
    expect(page.locator(f".position-hands-{session.state.seat} .zone-error")).to_contain_text("has no card in hand")
    expect(page.locator(".setup-general-error")).to_contain_text(f"Player {session.state.seat + 1}'s hand")
    assert session.replay() == before
    shot(page, "what-if-form-refused-phone")
    wide = page.evaluate(WIDEST_JS)
    assert not wide, f"wider than the 390 px phone: {wide}"


HOSTILE = '<img src=x onerror="window.__pwned=1">Desert'


def test_a_card_files_hostile_names_are_shown_as_text_in_the_form(page: Page, served):
    """A position with its own card file names its cards as that file does: markup in a name is text."""
    import copy

    app = open_app(page, served)
    session = app.session
    position = session.position()
    raw = copy.deepcopy(session.spec.new_game(session.players, 1).cards.raw)
    raw["biomes"][0]["name"] = raw["biomes"][0]["name_ja"] = HOSTILE
    position["cards"] = raw
    show_tab(page, "What-if setup")
    page.locator(".paste-json textarea").fill(json.dumps(position))
    page.locator(".load-pasted button").click()
    # (A load builds the whole form anew, once: 0.35 s on the server here, and the browser lays out its
    # hundred widgets; CI's 5 s default ran out once on a machine loaded with other browsers. The page's
    # load bound, as the other loads of a position have.)
    expect(page.locator(".files-status")).to_contain_text("Loaded", timeout=LOAD_TIMEOUT)
    show_tab(page, "Cards and turn")
    deck = page.locator(".position-deck")
    expect(deck.locator(".zone-card").first).to_be_visible()
    menu_texts = deck.locator(".zone-choice option").all_inner_texts()
    assert f"{HOSTILE} 1" in menu_texts                    # the name as written, markup and all, as text
    assert deck.locator("img").count() == 0
    assert page.evaluate("window.__pwned") is None


#: For a <select>: the width of its widest choice as drawn in its font, and the room its box gives a choice.
CHOICE_ROOM_JS = """
(select) => {
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const widest = Math.max(...[...select.options].map((option) => context.measureText(option.text).width));
  return [widest, select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)];
}
"""


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_a_menu_of_the_japanese_form_shows_its_longest_choice_whole(page: Page, served, width, height):
    """Biome Blitz's phase in Japanese, オプションアクションとメインアクション, was cut after メイン in the
    form's 200 px menu, at every screen size; each menu is now as wide as its longest choice (up to a
    phone's width)."""
    url, _ = served
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url + "?game=biome_blitz&lang=ja")
    expect(page.locator(".step-counter")).to_be_visible(timeout=60_000)
    show_tab(page, "もしもの局面")
    show_tab(page, "カードと手番")
    phase = page.locator(".position-phase select")
    expect(phase).to_be_visible()
    widest, room = phase.evaluate(CHOICE_ROOM_JS)
    assert widest <= room, (widest, room)
    assert not page.evaluate(WIDEST_JS)
