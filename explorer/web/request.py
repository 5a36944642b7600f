"""What a page learns from the request it is served for: query arguments, the address it was asked
at, and its language (``?lang=`` or the browser's Accept-Language, :func:`explorer.core.i18n.choose`);
and the key its language switch carries its work by (:func:`carry_key`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlencode

import panel as pn
from bokeh.models import CustomJS

from explorer.core.carry import CARRIED
from explorer.core.i18n import choose


def query_arg(name: str) -> str | None:
    """A query argument of the page's address (first value) as the text it was sent as, or None.

    Read from the request's own arguments, not ``pn.state.location.query_params``: that one turns
    values into numbers, booleans or (for ``[``/``{``) parsed literals and keeps the last of repeated
    arguments, so a seat key or a table id could arrive as another type or another value."""
    values = (pn.state.session_args or {}).get(name)
    if not values:
        return None
    value = values[0]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


#: A whole number as a visitor writes it (in an address or a form): ASCII digits after an optional sign
#: (``int()`` also reads "²", "١٢" and "1_000").
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
#: Past this many characters a whole number is past every bound asked for here (2**63 has 19 digits).
LONGEST_WHOLE_NUMBER = 20


def whole_number(raw: str | None, low: int, high: int) -> int | None:
    """``raw`` (a query argument, a form's text) as a whole number from ``low`` to ``high``, else None."""
    if raw is None or len(raw) > LONGEST_WHOLE_NUMBER or not WHOLE_NUMBER.fullmatch(raw):
        return None
    number = int(raw)
    return number if low <= number <= high else None


#: A message quoting an address's value wraps inside a word too: a long one ran past the screen's edge.
LONG_WORDS_WRAP = {"overflow-wrap": "anywhere"}


def shown_value(raw: str, limit: int = 120) -> str:
    """A value from the address as a message quotes it: at most ``limit`` characters."""
    return raw if len(raw) <= limit else raw[:limit] + "…"


def current_request():
    """The HTTP request of the page being served (None outside a server)."""
    document = pn.state.curdoc
    return getattr(document.session_context, "request", None) if document and document.session_context else None


def page_origin() -> str:
    """``http://host:port`` of the page being served ('' outside a server)."""
    request = current_request()
    if request is None:
        return ""
    protocol = getattr(request, "protocol", "http")
    host = getattr(request, "host", "") or request.headers.get("Host", "")
    return f"{protocol}://{host}" if host else ""


def page_path() -> str:
    """The path this page is served at (``/tables`` under ``make serve``): seat links point back to it."""
    path = getattr(current_request(), "path", None)
    return path or "/tables"


def page_language() -> str:
    """The served page's language (see :func:`choose`); English outside a server."""
    request = current_request()
    headers = getattr(request, "headers", None) or {}
    return choose(query_arg("lang"), headers.get("Accept-Language"))


def carry_key(source: Callable[[], object]) -> str | None:
    """In a served page, a key to its work for the language switch (``explorer.core.carry``):
    ``source()`` gives the work as it is; kept while the page is open and for a while after it closes.
    None outside a server (a notebook, a test without a document).

    A page opened by another page's key (``resume=``) puts its own key in its address instead: a
    reload, a bookmark or a shared link then leads to this page's work, not to the other page's (which
    went on changing, and which its own visitor may not want read)."""
    document = pn.state.curdoc
    if document is None or document.session_context is None:
        return None
    token = CARRIED.open(source)
    document.on_session_destroyed(lambda context: CARRIED.close(token))
    if query_arg("resume") is not None:
        # (From the request's own values: Location.query_params would turn a card file "1e3" into 1000.0.
        # In the browser, once the document is ready, in place of the address it came by: Panel's
        # Location pushes a new entry, so Back led to the switch's link, this page again, not to the page
        # the switch was clicked on.)
        search = "?" + urlencode({**{name: query_arg(name) for name in pn.state.session_args or {}}, "resume": token})
        document.js_on_event("document_ready", CustomJS(args={"search": search}, code=REPLACE_ADDRESS_JS))
    return token


#: Put ``search`` (a variable of the script it runs in) in the address in place of its query, with no new
#: history entry: the language switch's page here, the tutorial's step (``explorer.components.address``).
REPLACE_ADDRESS_JS = "window.history.replaceState(window.history.state, '', window.location.pathname + search + window.location.hash)"

