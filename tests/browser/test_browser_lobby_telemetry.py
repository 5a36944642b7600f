"""The lobby's summary of the ended tables' telemetry on a phone (390x844), in English and Japanese:
opened, it shows the rules people trip over and the time per decision, and nothing of it is wider
than the screen (``tools/page_check.py``'s layout checks), even with a long rule text."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from explorer.tables.hub import TableHub
from rules.protocol import IllegalAction
from tests.helpers.tables import play_first_legal
from tests.helpers.tables_server import TablesServer
from tests.helpers.tiers import quick_once
from tools.page_check import LAYOUT, findings, read_stable

LOAD_TIMEOUT = 30_000
LONG_RULE = "a rule with a long name to wrap " * 4 + "Supercalifragilisticexpialidocious-unbroken-word-" * 2


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The lobby on a database with one ended Subastral table: a refused move, three timed ones."""
    db = tmp_path_factory.mktemp("lobby") / "tables.sqlite3"
    server = TablesServer(db, apps=("apps/tables",), bot_delay=0)
    server._fix_deal_key()
    hub = TableHub(db, bot_delay=0)
    try:
        table, tokens = hub.create("subastral", 2, seed=3)
        with pytest.raises(IllegalAction):
            hub.act(table.id, tokens[table.to_move[0]], 0, {"type": "take", "cloud": 1, "to": "hand"})
        for _ in range(3):
            play_first_legal(hub, table, tokens)
        hub.store.append_refusal(table.id, 4, 0, LONG_RULE)
        hub.abandon(table.id, operator=True)
    finally:
        hub.close()
    server.start()
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


@pytest.mark.parametrize("lang", quick_once(("en", "ja"), "en"))
def test_the_lobbys_telemetry_summary_fits_a_phone(browser: Browser, server, lang):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{server.base}/tables?lang={lang}")
        summary = page.locator(".across-tables summary")
        expect(summary).to_be_visible(timeout=LOAD_TIMEOUT)
        summary.scroll_into_view_if_needed()
        summary.click()
        rules = page.locator(".across-tables table.tripped-rules")
        expect(rules).to_be_visible()
        expect(rules).to_contain_text("Supercalifragilisticexpialidocious")
        decisions = "3手" if lang == "ja" else "3 decisions"
        expect(page.locator(".across-tables table.game-times")).to_contain_text(decisions)
        problems = [line for line in findings(read_stable(page, 390), lang, (390, 844)) if line.split(":")[0] in LAYOUT]
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("width, height", quick_once([(1366, 768), (390, 844)], (1366, 768)))
def test_a_new_tables_links_come_into_view(browser: Browser, server, width, height):
    """The links of a new table are shown once, at the top of the list of tables: after a click on the
    button at the foot of the form (1366x768) they were out of view. The page now scrolls to them."""
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 600,
                                  has_touch=width < 600)
    try:
        page = context.new_page()
        page.goto(f"{server.base}/tables")
        button = page.locator(".create-table button")
        expect(button).to_be_visible(timeout=LOAD_TIMEOUT)
        page.locator(".lobby-game select").select_option(label="Starligned")      # (a long form: three switches)
        expect(page.locator(".lobby-variants-starligned")).to_be_attached()
        button.click()                           # (its defaults: two seats, a person and a bot)
        created = page.locator(".created")
        expect(created).to_be_visible(timeout=10_000)
        expect(created).to_be_in_viewport()      # (waits: the scroll follows the links' arrival)
    finally:
        context.close()
