"""Playtest tables without a browser: waiting on the bots' timers, a first legal move, a page's text."""

from __future__ import annotations

import json
import sqlite3
import time

from bokeh.document import Document

from explorer.pages.table_pages import TablePage


def wait_for(condition, timeout: float = 10.0) -> bool:
    """Poll ``condition`` until true or ``timeout`` seconds (the bots play from timer threads)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def play_first_legal(hub, table, tokens):
    """The seat to move plays its first legal action; returns (seat, action JSON)."""
    seat = table.to_move[0]
    action = table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0])
    hub.act(table.id, tokens[seat], table.step, action)
    return seat, action


def _json_default(value):
    # (``type(value)``: a Bokeh model answers a missing attribute by searching its property names for
    # close matches, which once took a fifth of the tables' tests.)
    return value.tolist() if hasattr(type(value), "tolist") else str(value)


def model_text(model) -> str:
    """Every property a model was given (not its defaults), as text."""
    return "\n".join(json.dumps(value, default=_json_default)
                     for value in model.properties_with_values(include_defaults=False).values())


def document_text(document: Document) -> str:
    """Every property of every model of the document, as text."""
    return "\n".join(model_text(model) for model in document.models)


class DocumentText:
    """:func:`document_text` of a live document, re-reading only the models changed since the last
    read: the same text as reading every model afresh, at a fraction of the cost over many moves.

    Changes are seen where the document hears of them (``callbacks.trigger_on_change``, which every
    property change goes through), not through ``on_change``: Panel holds a document's events while it
    updates it and, with no server to send them to, drops them unheard by ``on_change`` subscribers.
    """

    def __init__(self, document: Document):
        self.document, self.texts, self.changed = document, {}, set()
        manager = document.callbacks
        heard = manager.trigger_on_change

        def trigger_on_change(event) -> None:
            model = getattr(event, "model", None)
            if model is not None:
                self.changed.add(model.id)
            heard(event)

        manager.trigger_on_change = trigger_on_change

    def __call__(self) -> str:
        changed, self.changed = self.changed, set()
        out = []
        for model in self.document.models:
            if model.id in changed or model.id not in self.texts:
                self.texts[model.id] = model_text(model)
            out.append(self.texts[model.id])
        return "\n".join(out)


def mounted(page: TablePage) -> Document:
    document = Document()
    document.add_root(page.__panel__().get_root(document))
    return document


# --------------------------------------------------------------------------------------------
# Write failures are survived
# --------------------------------------------------------------------------------------------
class Locked:
    """Another connection holds the database's write lock (as a long write elsewhere would): the
    hub's writes fail with SQLite's own "database is locked" once their busy timeout is over."""

    def __init__(self, db):
        self.raw = sqlite3.connect(db, isolation_level=None)
        self.raw.execute("BEGIN IMMEDIATE")

    def release(self):
        self.raw.execute("ROLLBACK")
        self.raw.close()
