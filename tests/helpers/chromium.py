"""The test browser's switches beyond Playwright's own (``tests/conftest.py`` launches it)."""

from __future__ import annotations

import re

#: Chromium features the test browser turns off besides Playwright's own: headless Chromium (156)
#: preloads two omnibox popups (chrome://omnibox-popup.top-chrome/) per browser window, each a
#: renderer of its own that keeps working while the test's page does, about half the renderers' CPU
#: in a 3-page table test (21-25 -> 12 s; the test 29-31 -> 26 s).
DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


def disabled_features_switch(playwright, launch: dict) -> str:
    """One ``--disable-features`` switch holding Playwright's list and DISABLED_FEATURES. Chromium
    keeps only the last such switch it is given, so a switch of our own would undo Playwright's:
    its list is read from ``chrome://version`` of a browser launched with its defaults (it changes
    with Playwright's version)."""
    browser = playwright.chromium.launch(**launch)
    try:
        page = browser.new_page()
        page.goto("chrome://version")
        command_line = page.locator("#command_line").inner_text()
    finally:
        browser.close()
    features = [name for switch in re.findall(r"--disable-features=(\S+)", command_line) for name in switch.split(",")]
    assert features, f"no --disable-features in Chromium's command line: {command_line}"
    return "--disable-features=" + ",".join(dict.fromkeys([*features, *DISABLED_FEATURES]))
