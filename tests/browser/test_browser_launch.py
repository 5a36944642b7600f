"""The test browser itself (tests/conftest.py, tests/helpers/chromium.py): Debian's Chromium with Playwright's switches, and
none of the browser's own pages working beside the test's (DISABLED_FEATURES)."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tests.helpers.chromium import DISABLED_FEATURES


def test_the_test_browser_keeps_playwrights_switches_and_runs_no_page_of_its_own(page: Page):
    page.goto("chrome://version")
    switches = re.findall(r"--disable-features=(\S+)", page.locator("#command_line").inner_text())
    effective = switches[-1].split(",")         # (Chromium keeps the last one)
    assert set(switches[0].split(",")) <= set(effective) and set(DISABLED_FEATURES) <= set(effective)
    targets = page.context.browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    assert [target["url"] for target in targets if target["type"] != "page"] == []
