"""A served page's document and loop, without a server: for the parts that act differently when served
(a callback handed to the server's loop, a view drawn on the next tick)."""

from __future__ import annotations


class FakeLoop:
    """What OnLoop asks of a server's IOLoop: ``add_callback`` (kept here, run when the test says)."""

    asyncio_loop = None

    def __init__(self):
        self.callbacks = []

    def add_callback(self, callback):
        self.callbacks.append(callback)


def served_document(loop: FakeLoop, address: dict[str, str] | None = None):
    """A Bokeh document as a served page has one (a session context, a server loop), without a server.
    ``address``: the page address's arguments (``{"lang": "ja"}``), as the request brings them."""
    from types import SimpleNamespace
    from bokeh.document import Document

    document = Document()
    context = SimpleNamespace(server_context=SimpleNamespace(application_context=SimpleNamespace(io_loop=loop)),
                              request=SimpleNamespace(arguments={name: [value.encode()] for name, value in (address or {}).items()},
                                                      cookies={}, headers={}), session=None)
    document._session_context = lambda: context
    return document


def load_document(document) -> None:
    """What the server does once the page has loaded in the browser: its ``pn.state.onload`` callbacks."""
    from panel.io.state import state

    state._on_load(document)


def close_document(document) -> None:
    """What the server does when the page's session ends: its ``on_session_destroyed`` callbacks."""
    for callback in list(document.session_destroyed_callbacks):
        callback(None)


def run_next_tick(document, loop: FakeLoop | None = None) -> None:
    """What the loop does next: take what was handed to it, then run the document's oldest session callback."""
    while loop is not None and loop.callbacks:
        loop.callbacks.pop(0)()
    callback = min(document.session_callbacks, key=lambda c: c.id)
    callback.callback()


def switch_address(switch_html: str, lang: str) -> dict[str, str]:
    """The arguments of the address the language switch (its HTML) leads to in ``lang``."""
    import re
    from urllib.parse import parse_qsl

    [href] = re.findall(rf'class="lang-{lang}" href="\?([^"]*)"', switch_html)
    return dict(parse_qsl(href.replace("&amp;", "&")))


def address_once_ready(document) -> str | None:
    """The address's ``?...`` part the page puts in place of the one it came by once the browser has the
    document (``explorer.web.request.carry_key``: a script on ``document_ready``), or None."""
    from explorer.web.request import REPLACE_ADDRESS_JS

    for callback in document.callbacks.js_event_callbacks.get("document_ready", []):
        if callback.code == REPLACE_ADDRESS_JS:
            return callback.args["search"]
    return None
