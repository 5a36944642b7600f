"""What the pages share around their content: stylesheets kept as CSS files in ``explorer/web/css/``
(given to Panel's ``stylesheets``) and the language switch in a page's header."""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlencode

from explorer.core.i18n import NATIVE_NAMES, text
from rules.rulebook import LANGUAGES

CSS = Path(__file__).resolve().parent / "css"
esc = html.escape


@lru_cache(maxsize=None)
def stylesheet(name: str) -> str:
    """The CSS of ``explorer/web/css/<name>.css``, for a component's ``stylesheets``."""
    return (CSS / f"{name}.css").read_text(encoding="utf-8")


def language_switch_html(lang: str, **args: str | None) -> str:
    """The page again in each other language (the address's other arguments kept)."""
    def href(other: str) -> str:
        query = urlencode({name: value for name, value in args.items() if value})
        return "?" + (query + "&" if query else "") + f"lang={other}"
    switch = " · ".join(f'<a class="lang-{other}" href="{esc(href(other))}" lang="{other}">{NATIVE_NAMES[other]}</a>'
                        if other != lang else f"<b>{NATIVE_NAMES[other]}</b>" for other in LANGUAGES)
    return f'<div class="language-switch">{esc(text("language.switch", lang))}: {switch}</div>'
