"""What the card editor's and the Analysis page's browser tests share (tests/browser/test_browser_card_editor.py,
test_browser_analysis.py, test_browser_workshop.py): a table cell typed into, a number field set, the
Analysis page opened on Biome Blitz, and a widget's value forged as the browser's console could."""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import LOAD_TIMEOUT, wait_until


# A Tabulator takes a click once its view has built its rows and applied the server's last data and
# selection. Until then Panel's view ignores the selection a click makes (``_initializing``,
# ``_building``, ``_selection_updating`` in panel/models/tabulator.ts): the row shows ticked, but the
# server never hears of it. Rows can show before that, the more so on a busy machine (a fresh clone's
# quick tier clicked an ability row in that gap, and the editor never chose it).
#
# A table whose columns change (another game's deck) is built anew as well: the view answers a new
# ``configuration`` by a full render, debounced by 20 ms of the browser's timers, so for a while the
# view is idle with the old rows shown and a render due (seen frame by frame in Chromium: the
# ability rows drawn, then destroyed and built again 50-700 ms later; a click in that gap is lost).
# ``WATCH_TABLES_JS`` marks a table's model when such a change arrives and clears the mark
# when its view renders; a table is ready only without the mark.
WATCH_TABLES_JS = """() => {
  if (window.__tablesWatched) return true
  const tabulator = Bokeh.index.query_one((v) => v.tabulator !== undefined && typeof v.invalidate_render === "function")
  if (tabulator == null) return false
  const proto = Object.getPrototypeOf(tabulator)
  const render = proto.render
  proto.render = function () { this.model.__renderDue = false; return render.apply(this, arguments) }
  const rebuilt = new Set(["configuration", "layout", "groupby", "movable_columns"])
  for (const doc of Bokeh.documents) {
    doc.on_change((event) => {
      if (event.model != null && rebuilt.has(event.attr) && "select_mode" in event.model) event.model.__renderDue = true
    })
  }
  window.__tablesWatched = true
  return true
}"""

TABLE_READY_JS = """(css) => {
  if (!window.__tablesWatched) throw new Error("watch_tables(page) must run once the page has loaded")
  const view = Bokeh.index.query_one((v) => (v.model.css_classes || []).includes(css))
  return view != null && view.tabulator != null && view.tabulator.initialized === true && !view.model.__renderDue
    && !view._initializing && !view._building && !view._selection_updating
}"""


def watch_tables(page: Page) -> None:
    """From now on, note each table whose view has a full render due (``WATCH_TABLES_JS``): call once
    the page has loaded, before the step that changes the table."""
    page.wait_for_function(WATCH_TABLES_JS, timeout=LOAD_TIMEOUT)


def wait_for_table(page: Page, table: str) -> None:
    """Until the Tabulator with CSS class ``table`` takes clicks (``TABLE_READY_JS``)."""
    page.wait_for_function(TABLE_READY_JS, arg=table, timeout=LOAD_TIMEOUT)


# Whether the view of the Tabulator with CSS class ``css`` has row ``row`` among its selection: what it
# sends the server. Read once a click has returned (Playwright returns when the browser has handled it).
ROW_TICKED_JS = """([css, row]) => {
  const view = Bokeh.index.query_one((v) => (v.model.css_classes || []).includes(css))
  return view != null && view.model.source.selected.indices.includes(row)
}"""


def tick_row(page: Page, table: str, row: int) -> None:
    """Tick the checkbox of row ``row`` (0-based, unsorted) of the Tabulator ``table`` once it takes clicks.

    Even then the view can draw its rows again between the press and the release: Tabulator answers the
    resize that its own redraw made (seen in Chromium under load: mousedown on the box, the rows drawn
    anew, mouseup on the new box, and no click, since the pressed element has gone). Whether the click
    took is read from the view at once; a lost one is clicked again, at most three times."""
    box = page.locator(f".{table} .tabulator-row").nth(row).locator("input[type=checkbox]")
    for _ in range(3):
        wait_for_table(page, table)
        box.click()
        if page.evaluate(ROW_TICKED_JS, [table, row]):
            return
    raise AssertionError(f"three clicks on row {row} of {table} were each lost to a redraw of its rows")


def edit_cell(page: Page, table: str, row: int, column: str, value: str) -> None:
    """Type ``value`` into the cell of ``column`` in row ``row`` (0-based) of the Tabulator ``table``.

    The view can draw its rows again under the click, as for ``tick_row`` (the forged-messages test met
    it in CI: the click opened no editor, and 3 of 6 runs here lost the input before Enter). The cell of
    the table as drawn then is clicked again, at most three times; what the edit changes is checked by
    the caller."""
    cell = page.locator(f".{table} .tabulator-row").nth(row).locator(f'.tabulator-cell[tabulator-field="{column}"]')
    for attempt in range(3):
        cell.click()
        editor = cell.locator("input")
        try:
            expect(editor).to_be_visible()
            editor.fill(value, timeout=5_000)
            editor.press("Enter", timeout=5_000)
            return
        except (AssertionError, PlaywrightError):
            if attempt == 2:
                raise


def set_number(page: Page, css_class: str, value: int) -> None:
    field = page.locator(f".{css_class} input")
    field.fill(str(value))
    field.press("Enter")


def open_biome_blitz(page: Page, served):
    """The page at 1366 x 768 set to Biome Blitz at 2 players; its server-side AnalysisPage."""
    url, pages = served
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(url)
    expect(page.locator(".analysis-run button")).to_be_visible(timeout=LOAD_TIMEOUT)
    analysis = pages[-1]
    page.locator(".analysis-game select").select_option(label="Biome Blitz")
    page.locator(".analysis-players select").select_option("2")
    wait_until(lambda: (analysis.game, analysis.players) == ("biome_blitz", 2), what="Biome Blitz at 2 players")
    return analysis


# Set a widget's value in the browser's own Bokeh document, as a script in the console would.
FORGE_JS = """
([cls, field, value]) => {
  for (const doc of window.Bokeh.documents) {
    for (const model of doc.all_models) {
      if ((model.css_classes || []).includes(cls) && field in model) { model[field] = value; return true; }
    }
  }
  return false;
}
"""

# Send a custom component's message to the server (``JsonFileInput``: ``{"name": ..., "text": ...}``), as a
# script in the console would, through the component's own view.
FORGE_MESSAGE_JS = """
([cls, message]) => {
  const view = Bokeh.index.query_one((v) => (v.model.css_classes || []).includes(cls) && v.model_proxy != null)
  if (view == null) return false
  view.model_proxy.send_msg(message)
  return true
}
"""
