"""The dashboard's other tabs in real Chromium: live plots receive new data, a position file loads.

The plots are checked inside the page: the Bokeh models that BokehJS holds (what the browser
draws), not the server's copies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.chromium import OutsideRequests
from tests.helpers.explorer_page import LOAD_TIMEOUT, open_app, shot, wait_until
from tests.helpers.tiers import slow

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# What the browser's Bokeh documents hold for the plots: the score curves' data, the cards
# drawn so far, and where the cursor lines stand (the score curves' and the cards drawn's).
PLOT_DATA_JS = """
() => {
  const out = {scores: [], cards: 0, cursor: []};
  for (const doc of window.Bokeh.documents) {
    for (const model of doc.all_models) {
      if (model.type === "Span") out.cursor.push(model.location);
      if (model.type !== "ColumnDataSource") continue;
      const data = model.data instanceof Map ? model.data : new Map(Object.entries(model.data));
      if (data.has("score") && data.has("breakdown")) out.scores.push(Array.from(data.get("score")));
      if (data.has("card") && data.has("group_name")) out.cards += Array.from(data.get("card")).filter((c) => c).length;
    }
  }
  return out;
}
"""


def show_tab(page: Page, app, title: str) -> None:
    """Click the tab ``title`` and wait until it is drawn. A tab's view is drawn afresh each time the
    tab is shown (``ExplorerApp._mount_shown_tab`` says why): a "Drawing..." placeholder first, the view
    on the server's next tick, then the browser draws it, as much work as a page's first drawing. So
    this waits for those states (the server has mounted the view, the placeholder is gone from the
    page), with the bound a page's first drawing has, rather than for whatever the next check allows."""
    index = app.tabs._names.index(title)
    page.locator(".bk-tab", has_text=title).first.click()
    wait_until(lambda: app.tabs.active == index and list(app.tabs[index]) == [app._tab_views[index]],
               timeout=LOAD_TIMEOUT / 1000, what=f"the server to mount the {title!r} tab's view")
    expect(page.locator(".tab-drawing")).to_have_count(0, timeout=LOAD_TIMEOUT)


@slow   # (the quick tier: tests/explorer/plots/ patches the same sources; test_browser_advisor.py a figure in the browser)
def test_plots_receive_new_data_when_stepping_and_when_the_line_changes(page: Page, served):
    app = open_app(page, served)
    show_tab(page, app, "Plots & scores")
    expect(page.locator(".plot-scores")).to_be_visible()
    wait_until(lambda: page.evaluate(PLOT_DATA_JS)["scores"], what="the score curves to be drawn")
    before = page.evaluate(PLOT_DATA_JS)
    assert before["cards"] == 0 and before["cursor"] == [0, 0]
    assert len(before["scores"]) == 4

    for _ in range(12):
        page.keyboard.press("ArrowRight")
    wait_until(lambda: app.session.cursor == 12, what="twelve steps")
    wait_until(lambda: page.evaluate(PLOT_DATA_JS)["cursor"] == [12, 12], what="the cursor lines to move")
    stepped = page.evaluate(PLOT_DATA_JS)
    assert stepped["cards"] > 0, "cards drawn or revealed during twelve steps reach the deck-draws plot"
    assert stepped["scores"] == before["scores"], "stepping along the line leaves the score curves alone"
    shot(page, "dashboard-plots")

    # A new game (another deal, by clicking): a new seed, shown in its field; new score curves, drawn in place.
    seed = app.session.seed
    page.locator(".new-game button").click()
    wait_until(lambda: app.session.seed != seed and len(app.session.log) > 0 and app.session.cursor == 0,
               what="the bots' new game on a new seed")
    expect(page.locator(".seed-input input")).to_have_value(str(app.session.seed))
    session = app.session
    expected = [[session.spec.scores(session.state_at(i))[seat] for i in range(len(session.log) + 1)] for seat in range(4)]
    wait_until(lambda: sorted(page.evaluate(PLOT_DATA_JS)["scores"]) == sorted(expected), what="the new score curves")
    assert page.evaluate(PLOT_DATA_JS)["scores"] != before["scores"]


@slow   # (the quick tier: tests/explorer/plots/test_plots_per_game.py, the same figures' models)
def test_viewing_as_a_seat_the_plots_stop_at_the_step_shown(page: Page, served):
    # The teacher sees the whole line's score curves; a seat nothing after the step shown (issue #22, item 6).
    app = open_app(page, served)
    show_tab(page, app, "Plots & scores")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    wait_until(lambda: app.session.cursor == 12, what="twelve steps")
    steps = len(app.session.log) + 1
    wait_until(lambda: {len(curve) for curve in page.evaluate(PLOT_DATA_JS)["scores"]} == {steps},
               what="the teacher's whole score curves")
    page.locator(".view-as select").select_option(label="Player 2")
    wait_until(lambda: app.session.viewing_seat == 1, what="the view as Player 2")
    wait_until(lambda: {len(curve) for curve in page.evaluate(PLOT_DATA_JS)["scores"]} == {13},
               what="the score curves to stop at step 12")
    assert page.evaluate(PLOT_DATA_JS)["cursor"] == [12, 12]
    shot(page, "dashboard-plots-seat")
    page.locator(".step-forward button").click()
    wait_until(lambda: {len(curve) for curve in page.evaluate(PLOT_DATA_JS)["scores"]} == {14},
               what="the score curves to follow the step shown")


# Counts the changes of a stylesheet's address that the page receives: each one makes the browser put
# the stylesheets of every part of the page in again (and fetch the new address).
RESTYLED_JS = """
() => {
  window.__restyled = [];
  window.Bokeh.documents[0].on_change((event) => {
    if (event.model && event.model.type === "ImportedStyleSheet") window.__restyled.push(String(event.value));
  });
}
"""


def test_loading_a_position_file_in_the_browser(page: Page, served, tmp_path):
    # Nothing is fetched from another server, and the parts of hidden tabs, updated meanwhile, do not
    # change the page's stylesheets (Panel once set them to its CDN's address: see _mount_shown_tab).
    outside = OutsideRequests(page.context)
    app = open_app(page, served)
    page.evaluate(RESTYLED_JS)
    show_tab(page, app, "Plots & scores")
    expect(page.locator(".score-table.seat-0")).to_be_visible()
    show_tab(page, app, "What-if setup")
    page.locator(".upload-file input[type=file]").set_input_files(str(EXAMPLES / "subastral-scoring-example.json"))
    # (the load ends with the editor's status: the session's position is set earlier in the same callback)
    wait_until(lambda: app.setup_editor.files_status.visible, what="the position to load")
    assert app.session.spec.scores(app.session.state)[0] == 78
    expect(page.locator(".files-status")).to_be_visible()
    shot(page, "dashboard-setup-loaded")
    show_tab(page, app, "Table")
    expect(page.locator(".step-counter")).to_contain_text("Step 0 / 0", timeout=15_000)
    expect(page.locator(".seat-score").first).to_have_text("78 pts")
    show_tab(page, app, "Plots & scores")
    expect(page.locator(".score-table.seat-0")).to_contain_text("78")
    shot(page, "dashboard-scores-example")

    # A broken file: a clear error, nothing changed.
    show_tab(page, app, "What-if setup")
    broken = tmp_path / "truncated-position.json"
    broken.write_text((EXAMPLES / "subastral-scoring-example.json").read_text()[:200])
    page.locator(".upload-file input[type=file]").set_input_files(str(broken))
    expect(page.locator(".files-error")).to_contain_text("not valid JSON")
    assert app.session.spec.scores(app.session.state)[0] == 78
    assert page.evaluate("window.__restyled") == []
    outside.check()


def restyled_with_the_board(patches: list[dict], board: str) -> list[str]:
    """Stylesheets sent again (the models' ids) in a patch that also changed the board's text."""
    restyled = []
    for patch in patches:
        events = patch.get("events", [])
        if any(e.get("attr") == "text" and e.get("model", {}).get("id") == board for e in events):
            restyled += [e["model"]["id"] for e in events if e.get("attr") == "stylesheets"]
    return restyled


def test_a_step_gives_no_part_of_the_page_its_stylesheets_again(page: Page, served):
    # A part is drawn with its stylesheets once (explorer.web.shell.use_page_design),
    # not with the next step, also after another tab was shown: each makes the browser restyle that
    # part and lay the page out, and the first step restyled the board and the picker's parts at once.
    patches: list[dict] = []

    def received(payload) -> None:
        if isinstance(payload, str) and payload.startswith('{"events"'):
            patches.append(json.loads(payload))

    page.on("websocket", lambda socket: socket.on("framereceived", received))
    app = open_app(page, served)
    board_id = "() => [...window.Bokeh.documents[0].all_models].find((m) => (m.css_classes || []).includes('board')).id"
    counter = page.locator(".step-counter")
    for shown in (None, "Plots & scores", "What-if setup"):
        if shown:
            show_tab(page, app, shown)
            expect(page.locator(".bk-tab.bk-active", has_text=shown)).to_be_visible()
            show_tab(page, app, "Table")
            expect(counter).to_be_visible()
        board = page.evaluate(board_id)     # (the table's view is drawn afresh when its tab is shown)
        seen = len(patches)
        step = app.session.cursor + 1
        page.locator(".step-forward button").click()
        expect(counter).to_contain_text(f"Step {step} / ")
        assert restyled_with_the_board(patches[seen:], board) == [], f"after showing {shown or 'the page'}"


# Each card title's heading: its weight and the stylesheets its part was drawn with.
CARD_TITLES_JS = """
() => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.classList.contains("card-title") && el.shadowRoot) {
        const heading = el.shadowRoot.querySelector("h3");
        out.push([heading.textContent.trim(), getComputedStyle(heading).fontWeight,
                  [...el.shadowRoot.querySelectorAll("link")].map((link) => link.href.split("/").pop()).sort()]);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}
"""


def test_a_tab_shown_again_looks_as_it_did(page: Page, served):
    """An outside review: after a visit to another tab, the cards' titles ("Move advisor", "Events",
    "Lines of play") turned bold until the page was loaded again. The template gave its design (its
    stylesheets) only to the parts it drew first; a tab's view is drawn afresh when shown again, and
    took Panel's plain design. Every part of a served page now takes the pages' design
    (``explorer.web.shell.use_page_design``)."""
    app = open_app(page, served)
    first = page.evaluate(CARD_TITLES_JS)
    assert len(first) >= 3 and {weight for _, weight, _ in first} == {"500"}, first
    for shown in ("Plots & scores", "What-if setup"):
        show_tab(page, app, shown)
        show_tab(page, app, "Table")
        expect(page.locator(".step-counter")).to_be_visible()
        assert page.evaluate(CARD_TITLES_JS) == first, f"after showing {shown}"
