"""The explorer in real Chromium: the stepper, the seat view, and the `panel serve` entry point.

Few and fast on purpose: what can be checked in Python is in test_explorer_app.py. Screenshots go
to test-results/ (look at them when the page changes).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from explorer.app import create_app

pytestmark = pytest.mark.browser

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
LOAD_TIMEOUT = 30_000


def cloud_texts(page: Page) -> list[str]:
    return [page.locator(f".cloud-{n}").inner_text() for n in range(1, 7)]


def wait_for_board(page: Page) -> None:
    expect(page.locator(".step-counter")).to_contain_text("Step 0 / ", timeout=LOAD_TIMEOUT)


def test_stepping_forward_and_back_redraws_the_board(page: Page, serve_app):
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.goto(serve_app(create_app))
    wait_for_board(page)
    counter = page.locator(".step-counter")
    start = cloud_texts(page)
    forward = page.locator(".step-forward button")
    for step in (1, 2, 3):
        forward.click()
        expect(counter).to_contain_text(f"Step {step} / ")
    assert cloud_texts(page) != start
    expect(page.locator(".event-log .step.current")).to_contain_text("Step 3")
    page.locator(".step-back button").click()
    expect(counter).to_contain_text("Step 2 / ")
    expect(page.locator(".event-log .step.current")).to_contain_text("Step 2")
    RESULTS.mkdir(exist_ok=True)
    page.mouse.move(0, 0)                     # no button tooltip in the picture
    page.screenshot(path=str(RESULTS / "stepper-step2.png"), full_page=True)


def test_viewing_as_a_player_shows_only_that_players_hand(page: Page, serve_app):
    page.goto(serve_app(create_app))
    wait_for_board(page)
    expect(page.locator(".hand-seat-0 .card[data-card]")).to_have_count(3)      # teacher: all hands
    page.locator(".view-as select").select_option(label="Player 2")
    expect(page.locator(".sb-status .viewer")).to_contain_text("Player 2")
    expect(page.locator(".hand-seat-1 .card[data-card]")).to_have_count(3)
    for seat in (0, 2, 3):
        expect(page.locator(f".hand-seat-{seat} .card[data-card]")).to_have_count(0)
        expect(page.locator(f".hand-seat-{seat} .card.back")).to_have_count(3)


def test_panel_serve_entry_point_loads(page: Page, panel_cli_server):
    started = time.monotonic()
    page.goto(panel_cli_server)
    wait_for_board(page)
    first_load = time.monotonic() - started
    expect(page.locator(".cloud")).to_have_count(6)
    expect(page.get_by_text(re.compile(r"Card list: .*assumed"))).to_be_visible()
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / "panel-serve-first-load.png"), full_page=True)
    print(f"first load via panel serve: {first_load:.2f}s")
    assert first_load < 20
