"""The test browser's switches beyond Playwright's own (``tests/conftest.py`` launches it)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

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


#: Where a page of ours may send requests: this machine (the test servers).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


class OutsideRequests:
    """The requests a browser context's pages send to another server than this machine's.

    The pages work offline, and a request elsewhere would tell another party that they are being
    used: there must be none. (Panel once sent every explorer page to its CDN for a stylesheet, when it
    updated a hidden tab's HTML pane: see ``ExplorerApp._mount_shown_tab``.)"""

    def __init__(self, context):
        self.urls: list[str] = []
        context.on("request", self._note)

    def _note(self, request) -> None:
        url = request.url
        if url.startswith(("http:", "https:", "ws:", "wss:")) and urlsplit(url).hostname not in LOCAL_HOSTS:
            self.urls.append(url)

    def check(self) -> None:
        assert not self.urls, f"the page sent requests to other servers: {self.urls[:5]}"
