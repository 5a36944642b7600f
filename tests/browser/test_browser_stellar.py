"""Stellar in the dashboard, in real Chromium: choose the game, take a seat, play a few turns by clicking."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import new_game, open_app, select, shot, wait_for_played, wait_until

pytestmark = pytest.mark.browser


def test_play_a_few_turns_of_stellar_by_clicking(page: Page, served):
    app = open_app(page, served)
    session = app.session
    page.locator(".game-select select").select_option(label="Stellar")
    wait_until(lambda: session.game == "stellar", what="the game switch")
    expect(page.locator(".st-board .step-counter")).to_contain_text(re.compile(r"Step 0 / [1-9]"))  # played through
    new_game(page, session, human=True)
    spec = session.spec
    for _ in range(8):          # the starter choice and the first turns: take, play, (row card), ...
        if spec.is_over(session.state):
            break
        actions = spec.legal_actions(session.state, 0)
        # prefer a telescope play, to see the legal slots lit up first
        action = next((a for a in actions if spec.encode_action(a).get("type") == "telescope"), actions[0])
        length = len(session.log)
        select(page, action)        # (clicked again if the click met the list of the step before)
        if spec.encode_action(action).get("type") == "telescope":
            expect(page.locator(f".telescope-seat-0 .t-slot.slot-{spec.encode_action(action)['slot']}.legal")).to_be_visible()
            shot(page, "stellar-telescope-choice")
        page.locator(".confirm-action button").click()
        wait_for_played(page, session, length, f"{action} to be played", counter=".st-board .step-counter")
    assert len(session.log) >= 8
    # the page never shows Player 2's hand to Player 1: only the cards everyone saw it take from the row
    other = session.observation(None)  # spectator: no hands
    assert "cards" not in other["hands"][1]
    hand_html = page.locator(".hand-seat-1").inner_html()
    shown = re.findall(r'data-card="([^"]*)"', hand_html)
    assert sorted(shown) == sorted(session.observation(0)["hands"][1]["known"]), (shown, hand_html)
    shot(page, "stellar-after-turns")
