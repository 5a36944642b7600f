"""Slow bots do not hold up the server (explorer/components/bot_run.py), in real Chromium.

A whole game of MCTS bots (some 0.7 s a move in 4-player Jump Gate) was played on the server's one
loop: every page of the server, and every playtest table, waited minutes for it. Now the bots play in
a thread of their own: another page opens and plays meanwhile, the bots' page shows their moves as
they come, and its button stops them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from explorer.components.bot_run import RUNNING, STOPPED
from tests.helpers.explorer_page import LOAD_TIMEOUT, new_game, open_app, switch_game, wait_until

pytestmark = pytest.mark.browser


def test_mcts_bots_play_in_their_own_thread_while_another_page_is_served_and_stop_when_asked(page: Page, served):
    app = open_app(page, served, width=1366, height=768)
    session = app.session
    switch_game(page, session, "Jump Gate", "jump_gate", players=4)
    wait_until(lambda: app.picker.run is None or not app.picker.run.running, what="the greedy bots' new deal")
    page.locator(".bk-btn-group button", has_text="MCTS").click()
    wait_until(lambda: session.bot == "mcts", what="the MCTS bots chosen")
    page.locator(".new-game button").click()
    wait_until(lambda: app.picker.run is not None and app.picker.run.agents == dict.fromkeys(range(4), "mcts")
               and len(session.log) >= 1, timeout=60, what="the MCTS bots' first move on the line")
    run = app.picker.run
    bots_button = page.locator(".let-bots-play button")
    expect(bots_button).to_have_text("Stop the bots", timeout=LOAD_TIMEOUT)
    expect(page.locator(".picker-note")).to_contain_text("The bots are playing")
    expect(page.locator(".step-counter")).to_contain_text("Step 0 / ")   # (a new deal is shown from its start)

    # Another page of the same server opens and plays while the bots play.
    other = page.context.new_page()
    other_app = open_app(other, served, width=1366, height=768)
    new_game(other, other_app.session, human=True, timeout=60)
    expect(other.locator(".action-picker button.action").first).to_be_visible(timeout=LOAD_TIMEOUT)
    assert run.status == RUNNING, "the MCTS game ended before the other page was served: the test proves nothing"

    # The bots' page shows their moves as they come, then stops them.
    shown = len(session.log)
    wait_until(lambda: len(session.log) > shown, timeout=60, what="another batch of the bots' moves")
    expect(page.locator(".step-counter")).not_to_have_text(f"Step 0 / {shown}", timeout=LOAD_TIMEOUT)
    bots_button.click()
    wait_until(lambda: run.status == STOPPED, what="the bots stopped")
    run.thread.join(60)
    assert not run.thread.is_alive()
    kept = list(session.log)
    assert kept and not session.spec.is_over(session.state_at(len(kept)))
    expect(bots_button).to_have_text("Let bots play")
    other.locator(".new-game-human button").click()        # (one more round trip of the server)
    wait_until(lambda: other_app.session.log != [] or other_app.picker.offers(), what="the other page's new game")
    assert session.log == kept, "a stopped run put more moves on the line"
