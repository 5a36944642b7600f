"""The picker's action buttons (explorer/components/picker.py, ``ActionButtons``) in real Chromium, alone on a page.

A new list of moves must not throw away the buttons that stay: a click resolved on one just before
the list arrives (a person's, or Playwright's) must still land, for the list the page then shows.
"""

from __future__ import annotations

import panel as pn
import pytest
from playwright.sync_api import Page, expect

from explorer.plots.live import OnLoop
from explorer.components.picker import ActionButtons
from tests.helpers.explorer_page import LOAD_TIMEOUT, wait_until

pytestmark = pytest.mark.browser

# How many times the buttons' root took or lost children (one redraw of a list: a few at most).
COUNT_JS = """
(host) => {
  window.__changes = 0;
  new MutationObserver((records) => { window.__changes += records.length; })
    .observe(host.shadowRoot.querySelector("div.action-buttons"), {childList: true, subtree: true});
}
"""


def play_group(*labels: str) -> dict:
    return {"title": "Play a card", "kind": "play", "actions": [{"label": label, "index": i} for i, label in enumerate(labels)]}


def test_a_button_that_stays_in_a_new_list_is_kept_and_a_click_on_it_lands(page: Page, serve_app):
    served, clicks = [], []

    def factory():
        buttons = ActionButtons(groups=[play_group("play taiga-4", "play lake-2")], version=1, css_classes=["action-buttons"])
        buttons.on_choose = lambda index, version: clicks.append((index, version))
        served.append((buttons, pn.state.curdoc))
        return pn.Column(buttons)

    page.goto(serve_app(factory))
    shown = page.locator("button.action")
    expect(shown).to_have_text(["play taiga-4", "play lake-2"], timeout=LOAD_TIMEOUT)
    buttons, document = served[-1]
    first = shown.first.element_handle()
    page.locator(".action-buttons").first.evaluate(COUNT_JS)

    # The position moves on: the first move is still there, the second is another.
    OnLoop(lambda: buttons.param.update(groups=[play_group("play taiga-4", "play marsh-7")], version=2), document)()
    expect(shown).to_have_text(["play taiga-4", "play marsh-7"])
    assert first.evaluate("button => button.isConnected"), "the button that stayed was drawn anew"
    assert page.evaluate("window.__changes") == 1, "one redraw, of the button that changed"
    first.click()
    wait_until(lambda: clicks == [(0, 2)], what="the click, for the list the page shows")

    # The same list again (the server does not send it; a new version alone): nothing is redrawn.
    OnLoop(lambda: buttons.param.update(version=3, selected=0), document)()
    expect(shown.first).to_have_attribute("aria-pressed", "true")
    assert first.evaluate("button => button.isConnected") and page.evaluate("window.__changes") == 1
    first.click()
    wait_until(lambda: clicks == [(0, 2), (0, 3)], what="the second click")


def test_on_a_phone_a_group_of_many_moves_starts_folded_and_opens_with_a_tap(page: Page, served):
    """An outside review: Stellar on a phone listed every card and place as a button of its own, some
    30 buttons and two screens before the board. A group of more than eight moves now starts folded to
    its title and count on a phone (a tap opens it; the board's cards select moves too); on a laptop
    every group is open, as are small groups everywhere."""
    url, apps = served
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url + "?game=stellar&players=2&seed=1")
    expect(page.locator(".step-counter")).to_contain_text("Step 0 / ", timeout=LOAD_TIMEOUT)
    session = apps[-1].session
    for step in range(1, 7):            # step 6: Player 1 plays a card: 24 places in the telescope, 3 notebook moves
        page.locator(".step-forward button").click()
        expect(page.locator(".step-counter")).to_contain_text(f"Step {step} / ")
    page.locator(".take-seat-0 button").click()
    wait_until(lambda: session.controller(0) == "human", what="the seat taken")
    group = page.locator(".action-group-telescope")
    expect(group).to_have_class("action-group action-group-telescope foldable")
    title = group.locator("summary.group-title")
    expect(title).to_contain_text("· 24 moves")
    notebook = page.locator(".action-group-notebook")            # three moves: open
    expect(notebook).to_have_class("action-group action-group-notebook")
    expect(notebook.locator("button.action")).to_have_count(3)
    expect(notebook.locator("button.action").first).to_be_visible()
    expect(group.locator("button.action").first).to_be_hidden()
    board = page.locator(".st-board").first
    # (Measured once both are on the page: read at once, a fresh clone's run under load found no box for
    # one of them, the page then still drawing what taking the seat changed.)
    boxes = {}

    def both_drawn() -> bool:
        boxes.update(board=board.bounding_box(), title=title.bounding_box())
        return None not in boxes.values()
    wait_until(both_drawn, what="the board and the folded group on the page")
    assert boxes["board"]["y"] - boxes["title"]["y"] < 400, "the board follows the folded moves"
    title.click()
    expect(group.locator("button.action")).to_have_count(24)
    group.locator("button.action").first.click()
    expect(group.locator("button.action.selected")).to_have_count(1)
    # A laptop's screen: every group open, its title a plain heading.
    page.set_viewport_size({"width": 1366, "height": 768})
    expect(group).to_have_class("action-group action-group-telescope")
    expect(group.locator("button.action").first).to_be_visible()
    expect(title).not_to_contain_text("moves")
    # ... and a phone again (turned back): folded again, as when the page opened on it.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(group).to_have_class("action-group action-group-telescope foldable")
    expect(group.locator("button.action").first).to_be_hidden()
