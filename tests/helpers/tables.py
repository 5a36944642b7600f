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


def document_text(document: Document) -> str:
    """Every property of every model of the document, as text."""
    out = []
    for model in document.models:
        for value in model.properties_with_values(include_defaults=False).values():
            out.append(json.dumps(value, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o)))
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
