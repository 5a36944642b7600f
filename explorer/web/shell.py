"""What the pages share around their content: the language switch in a page's header (its stylesheet,
like every view's, is a CSS file in ``explorer/web/css/``, read by ``explorer.core.stylesheets``)."""

from __future__ import annotations

import html
from urllib.parse import urlencode

from explorer.core.i18n import NATIVE_NAMES, text
from rules.rulebook import LANGUAGES

esc = html.escape


def language_switch_html(lang: str, **args: str | None) -> str:
    """The page again in each other language (the address's other arguments kept)."""
    def href(other: str) -> str:
        query = urlencode({name: value for name, value in args.items() if value})
        return "?" + (query + "&" if query else "") + f"lang={other}"
    switch = " · ".join(f'<a class="lang-{other}" href="{esc(href(other))}" lang="{other}">{NATIVE_NAMES[other]}</a>'
                        if other != lang else f"<b>{NATIVE_NAMES[other]}</b>" for other in LANGUAGES)
    return f'<div class="language-switch">{esc(text("language.switch", lang))}: {switch}</div>'
