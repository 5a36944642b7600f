"""The move advisor in real Chromium: its chart is drawn, and a second advice patches the same figure.

Checked inside the page: the Bokeh models BokehJS holds (what the browser draws), not the server's.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from explorer.components.advisor import chart_height
from tests.helpers.explorer_page import open_app, shot, wait_until

pytestmark = pytest.mark.browser

# The advisor's figure as the browser holds it: its model id, height, categories, and its bars' data.
ADVICE_CHART_JS = """
() => {
  const out = [];
  for (const doc of window.Bokeh.documents) {
    for (const model of doc.all_models) {
      if (model.type !== "Figure" || !model.y_range || model.y_range.type !== "FactorRange") continue;
      const sources = model.renderers.map((r) => r.data_source).filter((s) => s && s.data);
      const data = sources.map((s) => (s.data instanceof Map ? s.data : new Map(Object.entries(s.data))))
                          .find((d) => d.has("move") && d.has("low") && d.has("high"));
      if (!data) continue;
      out.push({id: model.id, visible: model.visible, height: model.height, title: model.title.text, factors: Array.from(model.y_range.factors),
                move: Array.from(data.get("move")), value: Array.from(data.get("value"))});
    }
  }
  return out;
}
"""


def advice_chart(page: Page) -> dict:
    [chart] = page.evaluate(ADVICE_CHART_JS)
    return chart


def type_in(page: Page, where: str, value: int) -> None:
    """Type ``value`` into the advisor's input ``where`` as a user does. (Set on the server from the
    test's own thread instead, a served page's widget changed off its document's loop and without its
    lock: once in a clean run the advice's bars then never reached the browser.)"""
    field = page.locator(f"{where} input").first
    field.fill(str(value))
    field.press("Enter")


def test_the_advisor_draws_its_advice_and_patches_the_same_figure_for_the_next(page: Page, served):
    app = open_app(page, served, width=1366, height=768)
    # A position with five moves or more (the chart grows past its least height), reached by stepping.
    session, advisor = app.session, app.advisor
    step = next(k for k in range(len(session.log)) if len(session.spec.legal_actions(
        session.state_at(k), session.spec.to_move(session.state_at(k))[0])) >= 5)
    for shown in range(session.cursor + 1, step + 1):       # one step at a time, as the stepper test does
        page.locator(".step-forward button").click()
        wait_until(lambda: session.cursor == shown, what=f"step {shown}")
    page.locator(".advisor-card .card-header").first.click()
    expect(page.locator(".advisor-run button")).to_be_visible()
    empty = advice_chart(page)
    assert empty["move"] == [] and empty["factors"] == [] and empty["title"] == "Estimated value per move"
    # No empty chart: the figure is on the page, hidden, until the first advice.
    assert empty["visible"] is False
    expect(page.locator(".advisor-plot")).to_be_hidden()
    shot(page, "advisor-empty-1366x768")

    type_in(page, ".advisor-budget", 60)
    wait_until(lambda: advisor.budget == 60, what="the budget typed")
    page.locator(".advisor-run button").click()
    wait_until(lambda: "(seed 0)" in advisor.status and not advisor.busy, timeout=60, what="the advice")
    labels = [v.label for v in reversed(advisor.values)]
    wait_until(lambda: advice_chart(page)["move"] == labels, what="the bars in the browser")
    first = advice_chart(page)
    assert first["visible"] is True
    assert first["factors"] == labels and first["height"] == chart_height(len(labels)) == advisor.chart.figure.height > 160
    expect(page.locator(".advisor-plot")).to_be_visible()
    page.locator(".advisor-plot").scroll_into_view_if_needed()
    shot(page, "advisor-advice-1366x768")
    # The status line ("... Best: ...") wraps inside the advisor's card instead of running past it.
    expect(page.locator(".advisor-status")).to_contain_text(advisor.values[0].label)
    card, status = (page.locator(selector).first.bounding_box() for selector in (".advisor-card", ".advisor-status"))
    assert status["x"] + status["width"] <= card["x"] + card["width"] + 1, (status, card)

    type_in(page, ".advisor-seed", 7)
    wait_until(lambda: advisor.seed == 7, what="the seed typed")
    page.locator(".advisor-run button").click()
    wait_until(lambda: "(seed 7)" in advisor.status and not advisor.busy, timeout=60, what="the second advice")
    values = [v.mean for v in reversed(advisor.values)]
    wait_until(lambda: advice_chart(page)["value"] == values, what="the second advice's bars")
    assert values != first["value"]
    assert advice_chart(page)["id"] == first["id"], "the same figure, given new data in place"


def test_the_opened_advisor_fits_a_phones_page(page: Page, served):
    """On a 390-pixel phone the advisor's three inputs side by side (budget, seed, objective: 360 px
    and their margins) made the page 431 px wide, scrolled sideways; they wrap instead."""
    open_app(page, served, width=390, height=844)
    page.locator(".advisor-card .card-header").first.click()
    for where in (".advisor-run button", ".advisor-budget", ".advisor-seed", ".advisor-objective"):
        expect(page.locator(where).first).to_be_visible()
    for where in (".advisor-budget", ".advisor-seed", ".advisor-objective"):
        box = page.locator(where).first.bounding_box()
        assert box["x"] + box["width"] <= 390, (where, box)
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    shot(page, "advisor-open-390x844")


def test_advice_with_long_move_names_fits_a_phones_page(page: Page, served):
    """Long move names (Starligned's swaps, in Japanese) beside the chart's axis took a phone's whole
    width: the dots were squeezed into some 40 pixels with their numbers printed over each other, and
    the page was laid out 525 pixels wide on a 390-pixel screen. Each name is written above its dot."""
    url, apps = served
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url + "?game=starligned&players=2&lang=ja")
    expect(page.locator(".step-counter")).to_contain_text("0手目", timeout=30_000)
    app = apps[-1]
    advisor = app.advisor
    page.locator(".advisor-card .card-header").first.click()
    type_in(page, ".advisor-budget", 40)
    wait_until(lambda: advisor.budget == 40, what="the budget typed")
    page.locator(".advisor-run button").click()
    wait_until(lambda: "シード0" in advisor.status and not advisor.busy, timeout=90, what="the advice")
    labels = [v.label for v in reversed(advisor.values)]
    assert len(labels) >= 2 and max(map(len, labels)) >= 15, labels
    wait_until(lambda: advice_chart(page)["move"] == labels, what="the dots in the browser")
    plot = page.locator(".advisor-plot")
    expect(plot).to_be_visible()
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    shot(page, "advisor-advice-ja-390x844")
