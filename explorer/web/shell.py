"""What the pages share around their content: the page's template (:class:`PageTemplate`), whose
header is the same on every page (the tool's name leading home, the pages, the language switch), and
the layout that fits it to every screen (stylesheets ``site_header.css`` and ``page_layout.css``, like
every view's a CSS file in ``explorer/web/css/``, read by ``explorer.core.stylesheets``)."""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import urlencode

import panel as pn
from panel.io.document import create_doc_if_none_exists

from explorer.core.i18n import NATIVE_NAMES, text
from explorer.core.links import explorer_path, rules_path, tutorial_index_href
from explorer.core.stylesheets import stylesheet
from rules.rulebook import LANGUAGES

esc = html.escape

#: The header's colour, on every page.
HEADER_BACKGROUND = "#24406b"
#: The pages the header leads to, in its order (``home`` is the tool's name).
PAGES = ("explorer", "tutorial", "rules", "analysis", "tables", "cards")
#: The browser's viewport: the screen's width at 100 % (without it a phone lays a page out 980 px wide).
VIEWPORT = "width=device-width, initial-scale=1"
HEADER_CSS = stylesheet("site_header")
LAYOUT_CSS = stylesheet("page_layout")
HEADING_CSS = stylesheet("heading")
#: JavaScript for a page's components: ``find(root, test)``, the first element under ``root`` passing
#: ``test``, looked for inside every pane's shadow root too (a page's panes draw there, where
#: ``document.querySelector`` and the browser's own jump to a fragment do not look).
FIND_IN_PAGE_JS = """
function find(root, test) {
  for (const el of root.querySelectorAll("*")) {
    if (test(el)) return el;
    if (el.shadowRoot) { const found = find(el.shadowRoot, test); if (found) return found; }
  }
  return null;
}
"""


def heading(markdown: str, **params) -> pn.pane.Markdown:
    """A section's heading (``"### Set-up"``), sized for a sidebar or a part of a page rather than as
    Bootstrap's page heading (``heading.css``)."""
    return pn.pane.Markdown(markdown, stylesheets=[HEADING_CSS, *params.pop("stylesheets", [])], **params)


def page_href(page: str, lang: str) -> str:
    """The address of one of the site's pages (``home`` or one of PAGES) in ``lang``."""
    if page == "tutorial":
        return tutorial_index_href(lang)
    path = {"home": "/", "explorer": explorer_path(), "rules": rules_path(), "analysis": "/analysis",
            "tables": "/tables", "cards": "/cards"}[page]
    return f"{path}?lang={lang}"


def site_header_html(current: str, lang: str) -> str:
    """The tool's name (leading home) and the pages, ``current`` marked as the page shown."""
    def mark(page: str) -> str:
        return ' aria-current="page"' if page == current else ""
    links = "".join(f'<a class="nav-{page}" href="{esc(page_href(page, lang))}"{mark(page)}>'
                    f'{esc(text(f"nav.{page}", lang))}</a>' for page in PAGES)
    return (f'<div class="site-header"><a class="site-name" href="{esc(page_href("home", lang))}"{mark("home")}>'
            f'{esc(text("site.name", lang))}</a>'
            f'<nav class="site-nav" aria-label="{esc(text("nav.label", lang))}">{links}</nav></div>')


class PageTemplate(pn.template.BootstrapTemplate):
    """Every page's template: Panel's Bootstrap template (not the Fast one, which pulls a web font: a
    page must work offline, asking nothing of any server but its own), put into its document in one go.

    ``page`` (one of PAGES, or ``home``) and ``lang`` make its header, the same on every page:
    :attr:`site_header` (the tool's name, the pages) and :attr:`language_switch` (the page again in
    each other language, the address's arguments ``switch`` kept: :meth:`keep_in_switch` changes
    them as the page changes what it shows). The header's colour, the viewport and the layout for
    narrow screens are the template's own; a page gives its title, sidebar and main. Its HTML is
    ``templates/page.html``: Panel's, with ``<html lang>`` the page's language.

    Panel adds a template's parts to the document as roots of their own (a page has about twenty), and
    Bokeh re-indexes every model of the document after each. Inside one ``Document.models.freeze()``,
    Bokeh's own means of deferring that, it re-indexes once, at the end: the same document (roots,
    models, JSON), for about a fifth less of the server's time to make a page (0.73 -> 0.57 s for
    the default explorer page, best of 6, measured when this was written).
    """

    _template = Path(__file__).parent / "templates" / "page.html"

    def __init__(self, *, page: str = "", lang: str = "en", switch: dict | None = None, **params):
        params.setdefault("header_background", HEADER_BACKGROUND)
        params.setdefault("busy_indicator", None)
        params["meta_viewport"] = VIEWPORT
        params["raw_css"] = [*params.get("raw_css", []), LAYOUT_CSS]
        super().__init__(**params)
        self.page, self.lang = page, lang
        self._render_variables["page_lang"] = lang if lang in LANGUAGES else "en"
        self._render_variables["sidebar_toggle_label"] = text("nav.sidebar_toggle", lang)
        self.site_header = pn.pane.HTML(site_header_html(page, lang), stylesheets=[HEADER_CSS], margin=(0, 12, 0, 0),
                                        css_classes=["site-header-pane"])
        self.language_switch = pn.pane.HTML(language_switch_html(lang, **(switch or {})), stylesheets=[HEADER_CSS],
                                            margin=0, css_classes=["site-language"])
        self.header.extend([self.site_header, self.language_switch])

    def keep_in_switch(self, **args: str | None) -> None:
        """The language switch keeps ``args`` in its addresses (e.g. the game and step shown now)."""
        self.language_switch.object = language_switch_html(self.lang, **args)

    def server_doc(self, doc=None, title=None, location=True):
        doc = create_doc_if_none_exists(doc)
        with doc.models.freeze():
            return super().server_doc(doc, title=title, location=location)


def use_page_design() -> None:
    """In a served page, every part made for it from now on takes the pages' design (Bootstrap's, as
    ``PageTemplate`` draws them), for this page's session only (Panel keeps a setting made within a
    session for that session). Every page calls it before making its parts.

    The template gives its design only to the parts it draws first, and only in the page's first
    message; each part's own (plain) design made another list of stylesheets. So:
    - a part drawn later (a tab's view shown again, the what-if editor made when its tab is first
      shown, the advisor opened) was drawn without Bootstrap's stylesheets: after a visit to another
      tab, the cards' titles ("Move advisor", "Events") turned bold until the page was loaded again;
    - a pane's first update sent its own list, and the browser restyled the pane and laid the page out
      again: the first move at a playtest table restyled every pane of every page there (310 ms to
      show, against 135-185 ms for the next ones, ``make bench-tables``). Each page then sent every
      pane's stylesheets once it had loaded, a message of its own; with one design from the start
      there is nothing to send.
    Tests: ``test_a_tab_shown_again_looks_as_it_did`` and ``test_a_step_gives_no_part_of_the_page_its_stylesheets_again``
    (tests/browser/test_browser_dashboard.py), ``test_every_game_plays_at_a_shared_table_with_hidden_hands``
    (tests/browser/test_browser_tables.py)."""
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        pn.config.design = PageTemplate.design


def language_switch_html(lang: str, **args: str | None) -> str:
    """The page again in each other language (the address's other arguments kept)."""
    def href(other: str) -> str:
        query = urlencode({name: value for name, value in args.items() if value})
        return "?" + (query + "&" if query else "") + f"lang={other}"
    switch = " · ".join(f'<a class="lang-{other}" href="{esc(href(other))}" lang="{other}">{NATIVE_NAMES[other]}</a>'
                        if other != lang else f"<b>{NATIVE_NAMES[other]}</b>" for other in LANGUAGES)
    marker = "\x00"       # (the words escaped, the links put in as the HTML they are)
    return f'<div class="language-switch">{esc(text("language.switch", lang, links=marker)).replace(marker, switch)}</div>'
