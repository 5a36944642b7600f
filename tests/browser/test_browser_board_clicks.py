"""Play by clicking the table, in real Chromium: a card clicked on the board is the move chosen (the
board previews it, Confirm plays it), as a click on its button would."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import button_label, new_game, open_app, wait_for_played

pytestmark = pytest.mark.browser


def test_a_card_clicked_on_the_board_is_the_move_chosen(page: Page, served):
    app = open_app(page, served)
    session = app.session
    new_game(page, session, human=True)
    plays = {session.spec.encode_action(a)["card"]: a for a in session.spec.legal_actions(session.state, 0)
             if session.spec.encode_action(a)["type"] == "play"}
    card = page.locator(".hand-seat-0 [data-card]").first
    # (the board shows the new deal's hand: read before it, the first card was the old game's)
    expect(card).to_have_attribute("data-card", re.compile("^(" + "|".join(map(re.escape, plays)) + ")$"))
    action = plays[card.get_attribute("data-card")]
    card.click()
    expect(page.locator(".action-picker .selection-line")).to_contain_text(button_label(action))
    assert app.picker.selected == (0, action)
    length = len(session.log)
    page.locator(".confirm-action button").click()
    wait_for_played(page, session, length, f"{action} to be played")
    assert session.log[length] == (0, action)


def test_biome_blitz_a_market_slot_and_the_resource_deck_choose_their_moves(page: Page, served):
    """A market slot is clicked as a whole (the animal lying in it included): the animal market's slot
    chooses a discover move, the resource market's a forage move, the resource deck's back the forage
    from the deck's top."""
    from tests.helpers.explorer_page import switch_game, wait_until

    app = open_app(page, served)
    session = app.session
    switch_game(page, session, "Biome Blitz", "biome_blitz", 2)
    new_game(page, session, human=True)
    spec = session.spec
    offered = [spec.encode_action(a) for a in spec.legal_actions(session.state, 0)]
    clicks = [(".market-resource .bb-slot.slot-1 .bb-resource", {"type": "forage", "slot": 1}),
              (".deck-resource .bb-pile .back", {"type": "forage", "slot": 0})]
    discover = next((m for m in offered if m["type"] == "discover" and m["deck"] == "animal"), None)
    if discover:
        clicks.append((f".market-animal .bb-slot.slot-{discover['slot']} .bb-name", discover))
    checked = 0
    for where, move in clicks:
        if move not in offered:
            continue
        checked += 1
        page.locator(where).first.click()
        wait_until(lambda: app.picker.selected is not None
                   and {k: v for k, v in spec.encode_action(app.picker.selected[1]).items() if k != "pay"}
                   == {k: v for k, v in move.items() if k != "pay"}, what=f"the click on {where} to choose {move}")
        expect(page.locator(".action-picker .selection-line")).to_contain_text(
            spec.action_label(app.picker.selected[1], "en"))
    assert checked >= 2, f"the deal offers too few of these moves to click: {offered}"
