"""Viewing as a seat shows no future in the event log, in real Chromium (issue #22, item 6).

The teacher's log lists the whole recorded line with the step shown marked; a seat's stops at the
step shown: stepping forward adds that step's line, stepping back drops the later ones (the page
cuts its own lines short: the content it is sent is a prefix of what it drew). The model side is in
tests/explorer/components/test_event_log_viewpoint.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import open_app, wait_until

pytestmark = pytest.mark.browser

STEPS_JS = "lines => lines.map(line => Number(line.dataset.step))"


def expect_log(page: Page, steps: list[int], current: int) -> None:
    lines = page.locator(".event-log .step")
    wait_until(lambda: lines.evaluate_all(STEPS_JS) == steps, what=f"the log to list steps {steps[0]}..{steps[-1]}")
    expect(page.locator(".event-log .step.current")).to_have_attribute("data-step", str(current))


def step(page: Page, move: str) -> None:
    """Click a stepper button, the mouse first moved away: a button's tooltip, shown while the mouse
    rests on it, can lie over its neighbour."""
    page.mouse.move(0, 0)
    page.locator(f".step-{move} button").click()


def test_a_seat_s_log_stops_at_the_step_shown_and_the_teacher_s_holds_the_whole_line(page: Page, served):
    app = open_app(page, served)
    session = app.session
    moves = len(session.log)
    assert moves > 6
    expect_log(page, list(range(moves + 1)), 0)
    page.locator(".view-as select").select_option(label="Player 2")
    expect(page.locator(".sb-status .viewer")).to_contain_text("Player 2")
    expect_log(page, [0], 0)
    for shown in (1, 2, 3):
        step(page, "forward")
        expect_log(page, list(range(shown + 1)), shown)
    step(page, "end")
    expect_log(page, list(range(moves + 1)), moves)
    step(page, "back")
    step(page, "back")
    expect_log(page, list(range(moves - 1)), moves - 2)
    expect(page.locator(".event-log .step.future")).to_have_count(0)
    step(page, "start")
    expect_log(page, [0], 0)
    page.locator(".view-as select").select_option(label="Teacher (everything)")
    expect_log(page, list(range(moves + 1)), 0)
    expect(page.locator(".event-log .step.future")).to_have_count(moves)
