"""Applying a what-if position keeps the old line under "Lines of play", in real Chromium (issue #22,
item 6): the editor says so, the lines of play list it by where it began, and one click brings it
back as it was. The round trips (games, card files, starts) are in tests/explorer/core/test_what_if_lines.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import open_app, shot, wait_until

pytestmark = pytest.mark.browser


def show_tab(page: Page, title: str) -> None:
    page.locator(".bk-tab", has_text=title).first.click()


def test_a_what_if_position_keeps_the_line_shown_to_switch_back_to(page: Page, served):
    app = open_app(page, served)
    session = app.session
    old_log, old_cursor = list(session.log), session.cursor
    assert old_log, "the explorer opens on a played line"
    show_tab(page, "What-if setup")
    page.locator(".setup-apply button").click()
    wait_until(lambda: session.start is not None, what="the position to load")
    expect(page.locator(".setup-status")).to_contain_text("the line you were on is kept under Lines of play")
    show_tab(page, "Table")
    expect(page.locator(".step-counter")).to_contain_text("Step 0 / 0")
    expect(page.locator(".branches")).to_contain_text(
        f"{len(old_log)} moves from the deal of Subastral ({session.players} players, seed {session.seed})")
    shot(page, "what-if-line-kept")
    page.locator(".switch-branch-0 button").click()
    wait_until(lambda: session.log == old_log and session.start is None, what="the switch back")
    expect(page.locator(".step-counter")).to_contain_text(f"Step {old_cursor} / {len(old_log)}")
    expect(page.locator(".branches")).to_contain_text("0 moves from a what-if position of Subastral")
