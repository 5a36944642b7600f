"""The notebooks' pages for readers (``make notebooks-html``, tools/notebooks_html.py) open in
Chromium from a file, with no internet: every board and plot draws, nothing is fetched from another
server (the suite's ``page`` check, tests/conftest.py), and the console holds no error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tools.notebooks_html import NOTEBOOKS, render

pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.slow]


def test_a_notebook_page_draws_its_boards_and_plots_from_the_file_alone(page: Page, tmp_path: Path):
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    written = render(NOTEBOOKS / "subastral.ipynb", tmp_path)
    assert written == tmp_path / "subastral.html"
    page.goto(written.as_uri())
    expect(page.get_by_role("heading", name="How to use this notebook")).to_be_visible()
    boards = page.locator(".board")
    expect(boards.first).to_be_visible(timeout=30_000)
    assert boards.count() >= 5                                  # each position the notebook shows
    # the whole game's dashboard, at the step the notebook moved it to
    expect(page.locator(".step-counter", has_text=re.compile(r"^Step 60 / \d+"))).to_have_count(1)
    expect(page.locator("canvas").first).to_be_attached()       # the plots (Bokeh draws on canvases)
    assert errors == []
