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
TABLE_READY_JS = """(css) => {
  const view = Bokeh.index.query_one((v) => (v.model.css_classes || []).includes(css))
  return view != null && view.tabulator != null && view.tabulator.initialized === true
    && !view._initializing && !view._building && !view._selection_updating
}"""


def wait_for_table(page: Page, table: str) -> None:
    """Until the Tabulator with CSS class ``table`` takes clicks (``TABLE_READY_JS``)."""
    page.wait_for_function(TABLE_READY_JS, arg=table, timeout=LOAD_TIMEOUT)


def edit_cell(page: Page, table: str, row: int, column: str, value: str) -> None:
    """Type ``value`` into the cell of ``column`` in row ``row`` (0-based) of the Tabulator ``table``.

    The server can draw the table again under the click (an update that follows the test's previous
    step, with no state to wait for: the forged-messages test met one in CI, the click opened no
    editor, and 3 of 6 runs here lost the input before Enter). The cell of the table as drawn then is
    clicked again, at most three times; what the edit changes is checked by the caller."""
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
