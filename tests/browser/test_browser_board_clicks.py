"""Play by clicking the table, in real Chromium: a card clicked on the board is the move chosen (the
board previews it, Confirm plays it), as a click on its button would."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import button_label, new_game, open_app, wait_for_played

pytestmark = pytest.mark.browser


def test_a_card_clicked_on_the_board_is_the_move_chosen(page: Page, served):
    app = open_app(page, served)
    session = app.session
    new_game(page, session, human=True)
    card = page.locator(".hand-seat-0 [data-card]").first
    name = card.get_attribute("data-card")
    action = next(a for a in session.spec.legal_actions(session.state, 0)
                  if session.spec.encode_action(a) == {"type": "play", "card": name})
    card.click()
    expect(page.locator(".action-picker .selection-line")).to_contain_text(button_label(action))
    assert app.picker.selected == (0, action)
    length = len(session.log)
    page.locator(".confirm-action button").click()
    wait_for_played(page, session, length, f"{action} to be played")
    assert session.log[length] == (0, action)
