"""One product shell: every page has the same header (the tool's name leading home, the pages, the
language switch), the home page at ``/`` leads to every game and page, and the pages a player uses
on any screen (a seat at a table, a tutorial) fit 1366x768, 1440x900 and a phone (390x844), in
English and in Japanese: checked as a reader of the screenshot would (``tools/page_check.py``, the
checks of ``make tour``)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from explorer.pages.serve import ROUTES
from explorer.tables.hub import TableHub
from tests.helpers.tables_server import TablesServer
from tests.helpers.tiers import quick_once
from tools.page_check import LAYOUT, findings, read_stable

LOAD_TIMEOUT = 30_000
NAV = {"en": ["Explorer", "Tutorials", "Rules", "Analysis", "Playtest tables", "Card editor"],
       "ja": ["エクスプローラー", "チュートリアル", "ルール", "分析", "テストプレイ卓", "カードエディター"]}
HEADER_BACKGROUND = "rgb(36, 64, 107)"       # #24406b, explorer/web/shell.py
SIZES = ((1366, 768), (1440, 900), (390, 844))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Every page served as ``make serve`` serves them, with one Stellar table (seat 1 a person, seat 2
    a greedy bot): (server, table id, seat 1's key)."""
    db = tmp_path_factory.mktemp("shell") / "tables.sqlite3"
    server = TablesServer(db, apps=tuple(f"apps/{name}" for name in ROUTES), bot_delay=0)
    server._fix_deal_key()
    hub = TableHub(db, bot_delay=0)
    try:
        table, tokens = hub.create("stellar", 2, seed=7, controllers=("human", "greedy"))
    finally:
        hub.close()
    server.start()
    yield server, table.id, tokens[0]
    server.stop()


def test_every_page_has_the_same_header_and_the_home_page_leads_everywhere(browser: Browser, site):
    server, table_id, token = site
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        pages = [("home", "/home"), ("explorer", "/explorer?game=jump_gate"), ("tutorial", "/tutorial"),
                 ("tutorial", "/tutorial?game=subastral"), ("rules", "/rules?game=stellar"), ("analysis", "/analysis"),
                 ("cards", "/cards"), ("tables", "/tables"), ("tables", f"/tables?table={table_id}&seat={token}")]
        for current, address in pages:
            page.goto(server.base + address)
            header = page.locator(".site-header")
            expect(header).to_be_visible(timeout=LOAD_TIMEOUT)
            expect(header.locator(".site-nav a")).to_have_text(NAV["en"])
            expect(header.locator("a[aria-current=page]")).to_have_count(1)
            marked = header.locator("a[aria-current=page]").get_attribute("class")
            assert marked == ("site-name" if current == "home" else f"nav-{current}"), address
            expect(header.locator(".site-name")).to_have_attribute("href", "/?lang=en")
            expect(page.locator(".language-switch a.lang-ja")).to_be_visible()
            assert page.locator("#header").evaluate("el => getComputedStyle(el).backgroundColor") == HEADER_BACKGROUND
            assert page.locator("meta[name=viewport]").get_attribute("content") == "width=device-width, initial-scale=1"
            assert page.evaluate("document.documentElement.lang") == "en", address
        # The language switch keeps what the page shows: the explorer's game, the seat's table.
        expect(page.locator(".language-switch a.lang-ja")).to_have_attribute(
            "href", f"?table={table_id}&seat={token}&lang=ja")
        page.goto(server.base + "/explorer?game=jump_gate")
        # (and the key to the page's game, to open it again: explorer.core.carry)
        expect(page.locator(".language-switch a.lang-ja")).to_have_attribute(
            "href", re.compile(r"^\?game=jump_gate&resume=[A-Za-z0-9_-]{22}&lang=ja$"), timeout=LOAD_TIMEOUT)
        # Home: every game with its tutorial, explorer and rules; the ways in lead to their pages.
        page.goto(server.base + "/home")
        cards = page.locator(".game-card")
        expect(cards).to_have_count(5, timeout=LOAD_TIMEOUT)
        for game in ("subastral", "starligned", "biome_blitz", "jump_gate", "stellar"):
            card = page.locator(f".game-card[data-game={game}]")
            expect(card.locator("a.home-tutorial")).to_have_attribute("href", f"/tutorial?game={game}&lang=en")
            expect(card.locator("a.home-explorer")).to_have_attribute("href", f"/explorer?game={game}&lang=en")
            expect(card.locator("a.home-rules")).to_have_attribute("href", f"/rules?game={game}&lang=en")
        page.locator("a.way-tutorial").click()
        expect(page.locator("a.tutorial-link")).to_have_count(5, timeout=LOAD_TIMEOUT)
        # ... and the whole shell in Japanese.
        page.locator(".language-switch a.lang-ja").click()
        expect(page.locator(".site-nav a")).to_have_text(NAV["ja"], timeout=LOAD_TIMEOUT)
        expect(page.locator(".site-name")).to_have_text("ルール・エクスプローラー")
        # Laid out as Japanese (line breaking: no line begins with "ー"), inside every pane's shadow root too.
        assert page.evaluate("document.documentElement.lang") == "ja"
        assert page.locator(".site-name").evaluate("el => el.matches(':lang(ja)')")
    finally:
        context.close()


@pytest.mark.parametrize("lang", quick_once(("en", "ja"), "en"))
def test_the_header_stands_still_from_page_to_page(browser: Browser, site, lang):
    """The tool's name, the pages and the header's height are the same on every page, with a sidebar
    or without, at 1366x768 and on a phone. The sidebar's toggle (☰) sits at the header's right end:
    at its left it moved the name and the pages 74 px to the right and made the header 10 px taller
    on those pages, and on a phone it took a line of its own; the home page's header, whose current
    page is the tool's name, was 1.5 px shorter. The toggle still hides and shows the sidebar, and
    is named in the page's language."""
    server, table_id, token = site
    addresses = ["/home", "/explorer?game=stellar", "/tutorial", "/rules?game=stellar", "/analysis", "/cards",
                 "/tables", f"/tables?table={table_id}&seat={token}"]
    for width, height in ((1366, 768), (390, 844)):
        phone = width < 600
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
        try:
            page = context.new_page()
            places = {}
            for address in addresses:
                page.goto(f"{server.base}{address}{'&' if '?' in address else '?'}lang={lang}")
                expect(page.locator(".site-name")).to_be_visible(timeout=LOAD_TIMEOUT)
                boxes = [page.locator(selector).bounding_box() for selector in ("#header", ".site-name", ".nav-cards")]
                places[address] = [round(value) for box in boxes for value in (box["x"], box["y"], box["height"])]
                toggle = page.locator("#sidebar-toggle")
                if toggle.count():
                    header, button = boxes[0], toggle.bounding_box()
                    assert button["x"] + button["width"] > header["x"] + header["width"] - 24, (address, width)
                    assert abs(button["y"] - boxes[1]["y"]) <= 2, (address, width)      # (on the name's line)
                    assert toggle.get_attribute("aria-label") == {"en": "Show or hide the settings",
                                                                  "ja": "設定の表示・非表示"}[lang]
            assert len(set(map(tuple, places.values()))) == 1, (width, places)
            # The toggle still folds the sidebar away and back.
            page.goto(f"{server.base}/cards?lang={lang}")
            sidebar = page.locator("#sidebar")
            expect(sidebar).to_be_visible(timeout=LOAD_TIMEOUT)
            page.locator("#sidebar-toggle").click()
            expect(sidebar).to_be_hidden()
            page.locator("#sidebar-toggle").click()
            expect(sidebar).to_be_visible()
            if phone:
                # On a phone the sidebar lies under the page (the explorer's 2,500 px down): opened by the
                # toggle, it is scrolled to, not opened out of sight.
                page.goto(f"{server.base}/explorer?game=stellar&lang={lang}")
                expect(page.locator(".site-name")).to_be_visible(timeout=LOAD_TIMEOUT)
                expect(sidebar).not_to_be_in_viewport()
                page.locator("#sidebar-toggle").click()
                expect(sidebar).to_be_hidden()
                page.locator("#sidebar-toggle").click()
                expect(sidebar).to_be_in_viewport()
        finally:
            context.close()


@pytest.mark.parametrize("lang", quick_once(("en", "ja"), "en"))
def test_a_seat_and_a_tutorial_fit_every_screen_size(browser: Browser, site, lang):
    """Nothing wider than the screen, nothing covering anything else, nothing cut at the edge (a phone
    as a phone: touch, and the page's viewport tag obeyed). On the old pages: a phone laid every page
    out 980 px wide, and at 1366 px "Play as Player 4" slid under the explorer's event log."""
    server, table_id, token = site
    addresses = {"seat": (f"/tables?table={table_id}&seat={token}&lang={lang}", ".step-counter"),
                 "tutorial": (f"/tutorial?game=biome_blitz&lang={lang}", ".tutorial-step"),
                 "explorer": (f"/explorer?game=subastral&players=4&lang={lang}", ".take-seat-3")}
    problems = []
    for width, height in SIZES:
        phone = width < 600
        context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
        try:
            page = context.new_page()
            for name, (address, ready) in addresses.items():
                page.goto(server.base + address)
                expect(page.locator(ready).first).to_be_visible(timeout=LOAD_TIMEOUT)
                found = findings(read_stable(page, width), lang, (width, height))
                problems += [f"{name} {width}x{height}: {line}" for line in found if line.split(":")[0] in LAYOUT]
                if name == "tutorial":      # its three buttons on one line, a phone's too
                    tops = {round(page.locator(f".tutorial-{b} button").bounding_box()["y"]) for b in ("back", "next", "restart")}
                    if len(tops) != 1:
                        problems.append(f"tutorial {width}x{height}: Back, Next and Start over on {len(tops)} lines")
        finally:
            context.close()
    assert problems == []


def every_element(read: str) -> str:
    """JavaScript giving, for every element of the page (the document's and every pane's shadow
    root's) that ``read`` (an expression of ``el``) makes something of, that thing: a list."""
    return ("() => { const roots = [document], out = [];"
            " for (let i = 0; i < roots.length; i++) for (const el of roots[i].querySelectorAll('*')) {"
            f" if (el.shadowRoot) roots.push(el.shadowRoot); const found = {read}; if (found) out.push(found); }}"
            " return out; }")


#: Every h1-h3 of the page: [tag, text, px].
HEADINGS_JS = every_element("['H1', 'H2', 'H3'].includes(el.tagName) && el.getClientRects().length"
                            " && [el.tagName, el.textContent.trim().slice(0, 40), parseFloat(getComputedStyle(el).fontSize)]")
#: The largest size each heading may have: a page's title, a chapter or a tutorial's title, a section.
LARGEST = {"H1": 32, "H2": 26, "H3": 20}


@pytest.mark.parametrize("lang", quick_once(("en", "ja"), "en"))
def test_headings_are_sized_as_sections_not_as_bootstrap_page_headings(browser: Browser, site, lang):
    """Bootstrap, the template's design, gives every pane's h3 calc(1.3rem + .6vw): 28 px on a laptop.
    The explorer's "Set-up", the analysis page's question and the rules' names of rules were larger
    than the site's name. Read once every stylesheet has loaded (the screenshots of ``make tour`` once
    showed them small: taken before)."""
    server, table_id, token = site
    addresses = ("/explorer?game=subastral", "/analysis", "/tables", "/rules?game=stellar",
                 "/tutorial?game=subastral", "/tutorial", f"/tables?table={table_id}&seat={token}", "/cards")
    problems = []
    for width, height in ((1366, 768), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            for address in addresses:
                page.goto(server.base + address + ("&" if "?" in address else "?") + f"lang={lang}")
                expect(page.locator(".site-header")).to_be_visible(timeout=LOAD_TIMEOUT)
                read_stable(page, width)        # (stylesheets loaded, layout still)
                headings = page.evaluate(HEADINGS_JS)
                assert headings, f"{address}: no heading read"
                problems += [f"{address} {width}px: {tag} {said!r} is {px:g} px (at most {LARGEST[tag]})"
                             for tag, said, px in headings if px > LARGEST[tag]]
        finally:
            context.close()
    assert problems == []


def test_no_japanese_line_begins_with_a_prolonged_sound_mark_or_a_small_kana(browser: Browser, site):
    """Chromium's usual line breaking put "ー" at a line's start ("プレイヤ" / "ー3", "ジャ" / "ーナル") on
    Japanese pages, and in the Japanese an English page quotes. Read on a phone, where lines are short;
    the check itself is ``tools/page_check.py``'s (READ_PAGE's ``lineStarts``), tried first on a line
    laid out the usual way."""
    server, _, _ = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        # The check finds a break before "ー" where the page lets one happen.
        page.set_content('<html lang="ja"><body><div style="width: 4em; line-break: normal; font-size: 16px">'
                         'プレイヤー2、プレイヤー3、プレイヤー4の番です</div></body></html>')
        assert [f for f in findings(read_stable(page, 390), "ja", (390, 844)) if f.startswith("linebreak")], \
            "the check found no line beginning with ー in a text laid out to have one"
        problems = []
        for address in ("/explorer?game=starligned&lang=ja", "/explorer?game=biome_blitz&lang=ja", "/tutorial?lang=ja",
                        "/tutorial?game=stellar&lang=ja", "/rules?game=jump_gate&lang=en"):
            page.goto(server.base + address)
            expect(page.locator(".site-header")).to_be_visible(timeout=LOAD_TIMEOUT)
            lang = address.rsplit("=", 1)[1]
            problems += [f"{address}: {f}" for f in findings(read_stable(page, 390), lang, (390, 844))
                         if f.startswith("linebreak")]
    finally:
        context.close()
    assert problems == []


def test_a_japanese_page_breaks_its_lines_between_phrases(browser: Browser, site):
    """Chromium broke Japanese between any two letters ("ゲートからはジャンプでしか出られませ" / "ん",
    "ケストレ" / "ル"); on a Japanese page it now breaks between phrases (word-break: auto-phrase,
    inherited into every pane's shadow root), an English page as before."""
    server, _, _ = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        for lang, expected in (("ja", "auto-phrase"), ("en", "normal")):
            page.goto(server.base + f"/explorer?game=jump_gate&lang={lang}")
            expect(page.locator(".site-header")).to_be_visible(timeout=LOAD_TIMEOUT)
            read_stable(page, 390)
            breaks = page.evaluate(every_element("el.matches('.jg-board, .jg-gate .note') && getComputedStyle(el).wordBreak"))
            assert breaks and set(breaks) == {expected}, (lang, breaks)
    finally:
        context.close()


#: Every collapsible card's chevron: its computed stroke (Panel draws it var(--background-text-color)).
CHEVRONS_JS = every_element("el.matches('.card-button > svg') && getComputedStyle(el).stroke")


def test_a_folded_card_shows_its_chevron(browser: Browser, site):
    """Panel draws a collapsible card's chevron in var(--background-text-color), which its Bootstrap theme
    leaves undefined: the stroke was none, and the folded move advisor looked like a plain bar."""
    server, _, _ = site
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(server.base + "/explorer?game=subastral")
        expect(page.locator(".step-counter").first).to_be_attached(timeout=LOAD_TIMEOUT)
        read_stable(page, 1366)
        strokes = page.evaluate(CHEVRONS_JS)
        assert strokes and all(stroke not in ("none", "") for stroke in strokes), strokes
    finally:
        context.close()


def test_no_other_site_may_show_a_page_in_a_frame(site):
    """A seat's page framed by another site could be clicked through unseen (a Confirm under a decoy):
    every page, and the files it loads, say that only this site may frame them."""
    import urllib.request

    server, table_id, token = site
    for address in ("/home", "/explorer", "/tables", f"/tables?table={table_id}&seat={token}", "/rules?game=stellar",
                    "/analysis", "/cards", "/tutorial"):
        with urllib.request.urlopen(server.base + address, timeout=60) as response:
            assert response.headers["X-Frame-Options"] == "SAMEORIGIN", address
            assert response.headers["Content-Security-Policy"] == "frame-ancestors 'self'", address


def test_a_link_to_a_rule_opens_the_rules_page_at_that_rule(browser: Browser, site):
    """Every event in the explorer's log and every refused move links to its rule (``/rules?...#rule-<id>``);
    the page opened at its top all the same, the rule some 3,000 px below (the sections are in a pane's
    shadow root, where the browser's jump to a fragment finds nothing; an outside tester). It opens at
    the rule, marked, clear of the header; and goes to the next one a link of the page names."""
    server = site[0]
    for (width, height), lang in (((1366, 768), "en"), ((390, 844), "ja")):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        try:
            page.goto(f"{server.base}/rules?game=stellar&lang={lang}#rule-satellite")
            rule = page.locator(".rules-pane #rule-satellite")
            expect(rule).to_be_in_viewport(timeout=LOAD_TIMEOUT)
            expect(rule).to_have_class(re.compile(r"\btargeted\b"))
            header = page.locator("#header").bounding_box()
            assert rule.bounding_box()["y"] >= header["y"] + header["height"] - 1      # (not under the header)
            expect(page.locator(".rules-pane h1")).not_to_be_in_viewport()           # (it is far down the page)
            page.evaluate("window.location.hash = '#switches'")
            switches = page.locator(".rules-pane #switches")
            expect(switches).to_be_in_viewport()
            expect(switches).to_have_class(re.compile(r"\btargeted\b"))
            expect(rule).not_to_have_class(re.compile(r"\btargeted\b"))
        finally:
            context.close()
