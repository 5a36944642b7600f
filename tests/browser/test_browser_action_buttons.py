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
