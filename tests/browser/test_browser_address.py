"""Values from the address are shown, never run: every page is loaded in real Chromium with a hostile
value in every query argument it reads (``query_arg``: game, players, seed, table, seat, step,
lang), against a real ``panel serve`` of every page. No element or script of the value may appear
(in the page or any shadow root), none may run, and where the page says it did not understand the
value, it shows the value's characters as they are.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, expect

from explorer.tables.hub import TableHub
from explorer.pages.tutorial import available as tutorials
from tests.helpers.tables_server import TablesServer

LOAD_TIMEOUT = 30_000
HOSTILE = '<img src=x onerror="window.__xss=1">"><script>window.__xss=2</script>'

#: Every element of the page, shadow roots included, that the hostile value would have made.
INJECTED_JS = """
() => {
  const found = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if ((el.tagName === "IMG" && el.getAttribute("src") === "x") ||
          (el.tagName === "SCRIPT" && el.textContent.includes("__xss")) ||
          [...el.attributes].some((a) => a.name.startsWith("on") && a.value.includes("__xss")))
        found.push(el.outerHTML.slice(0, 200));
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return {xss: window.__xss === undefined ? null : window.__xss, found};
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("address") / "tables.sqlite3"
    hub = TableHub(db, bot_delay=0.0)
    table, _ = hub.create("stellar", 2, seed=3)
    hub.close()
    server = TablesServer(db, apps=("apps/tables", "apps/explorer", "apps/rules", "apps/tutorial")).start()
    server.table_id = table.id
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-4000:])
    server.stop()


def cases(table_id: str) -> list[tuple[str, dict, str, str]]:
    """(page, its address's arguments, the CSS class of the refusal (or of the page's content, when the
    value is simply not used), what it must show)."""
    tutorial = tutorials()[0]
    return [
        ("explorer", {"game": HOSTILE}, "address-refused", HOSTILE),
        ("explorer", {"game": "stellar", "players": HOSTILE}, "address-refused", HOSTILE),
        ("explorer", {"seed": HOSTILE}, "address-refused", HOSTILE),
        ("explorer", {"table": HOSTILE}, "review-refused", HOSTILE),
        ("explorer", {"lang": HOSTILE}, "rules-links", "Subastral"),
        ("tables", {"table": HOSTILE}, "table-refused", HOSTILE),
        ("tables", {"table": table_id, "seat": HOSTILE}, "table-refused", "not valid"),
        ("tables", {"table": HOSTILE, "seat": HOSTILE, "lang": HOSTILE}, "table-refused", HOSTILE),
        ("tables", {"lang": HOSTILE}, "tables-list", ""),
        ("rules", {"game": HOSTILE}, "rules-refused", HOSTILE),
        ("rules", {"game": "stellar", "lang": HOSTILE}, "rules-pane", "Stellar"),
        ("tutorial", {"game": HOSTILE}, "tutorial-refused", HOSTILE),
        ("tutorial", {"game": tutorial, "step": HOSTILE, "lang": HOSTILE}, "progress-text", "1"),
        # Values Python's int() cannot read though str.isdigit() says digits (Panel's own reading of the
        # address failed on them, and the page stayed blank): the page opens and says so.
        ("explorer", {"game": "stellar", "players": "\u00b2"}, "address-refused", "\u00b2"),
        ("explorer", {"seed": "9" * 5000}, "address-refused", "9" * 120 + "\u2026"),
        ("tutorial", {"game": tutorial, "step": "\u00b2"}, "progress-text", "1"),
        ("rules", {"game": "stellar", "x": "9" * 5000}, "rules-pane", "Stellar"),
    ]


def test_no_address_value_becomes_an_element_or_runs(browser: Browser, server):
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    checked = 0
    for path, args, shows, shown in cases(server.table_id):
        url = f"{server.base}/{path}?{urlencode(args)}"
        page.goto(url)
        where = page.locator(f".{shows}")
        expect(where.first).to_be_visible(timeout=LOAD_TIMEOUT)
        if shown:
            expect(where.first).to_contain_text(shown, timeout=LOAD_TIMEOUT)
        result = page.evaluate(INJECTED_JS)
        assert result == {"xss": None, "found": []}, f"{url}: {result}"
        checked += 1
    assert checked == len(cases(server.table_id)) and not dialogs
    context.close()
