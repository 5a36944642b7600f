"""A page's last change reaches its browser even when it was queued while another message was on its way.

Panel sends a page's changes at once, unless the page's socket is busy (a message being written, such
as a new plot's figure): then it queues them (``panel.io.document.schedule_write_events``: the
messages in ``_WRITE_MSGS``, the page marked in ``_WRITE_BLOCK``) and starts a task
(``_dispatch_msgs``) that writes them when the socket is free. In Panel 1.9 a task that ends its own
writes lifts the page's mark, and a task started for changes queued during those writes then finds
no mark and returns without writing them: those changes wait until the page's next change, and when
there is none (a run that has just finished) the browser never gets them.

The analysis page showed it under load: "20 / 20 games · running" and no verdict, for good, on a run
the server had finished (``tests/browser/test_browser_analysis.py``, once in a few full runs on a busy
machine). ``install()`` makes a task that finds changes queued for a page write them, mark or no
mark; the rest of Panel's writing is unchanged. ``tests/browser/test_browser_page_writes.py`` brings
about that order of events on a real page and fails without it.

Changes made before a page says it has loaded (its "document ready") are not lost either. Panel 1.9
drops the changes a hold collects on a page that has not said so (``_drain_unconnected_events``: "the
Document is serialized in full once the session connects"), yet the browser may already have pulled
the document: another seat's move arriving then left a seat page saying "Your move" with no move
shown (the move buttons, a JS component, update under a hold), until the next move. ``install()``
keeps those changes, when a browser is connected to the page, for Panel to send once the page says it
has loaded, as it keeps the messages sent meanwhile. A change the browser's document already holds
is sent again then, which changes nothing.
"""

from __future__ import annotations

import panel.io.document as document
from bokeh.document.events import SessionCallbackAdded, SessionCallbackRemoved


def install() -> None:
    """Wrap Panel's ``_dispatch_msgs`` (once; every module that serves a page calls this)."""
    _keep_early_changes()
    dispatch = document._dispatch_msgs
    if getattr(dispatch, "writes_queued_changes", False):
        return

    async def _dispatch_msgs(doc) -> None:
        if doc not in document._WRITE_BLOCK and doc in document._WRITE_MSGS:
            # Queued while an earlier task was writing, which lifted the mark as it ended: these
            # messages are this task's to write.
            document._WRITE_BLOCK[doc] = True
        await dispatch(doc)

    _dispatch_msgs.writes_queued_changes = True      # type: ignore[attr-defined]
    document._dispatch_msgs = _dispatch_msgs


def _keep_early_changes() -> None:
    """Wrap Panel's ``_drain_unconnected_events`` (once): on a page a browser is connected to, the held
    changes are kept for Panel to send when the page says it has loaded (``_dispatch_unconnected_events``),
    not dropped; the session's callbacks are dispatched at once, as Panel does. The changes' Python
    listeners are not called then, as they are not when Panel drops them."""
    drain = document._drain_unconnected_events
    if getattr(drain, "keeps_early_changes", False):
        return

    def _drain_unconnected_events(doc, lock):
        context = doc.session_context
        session = getattr(context, "session", None) if context is not None else None
        if session is None or not session.connection_count:
            return drain(doc, lock)         # (no browser has the document yet: it will have these changes)
        with lock:
            events = list(doc.callbacks._held_events or [])
            doc.callbacks._held_events = []
            doc.callbacks._hold = None
        now = [event for event in events if isinstance(event, (SessionCallbackAdded, SessionCallbackRemoved))]
        later = [event for event in events if not isinstance(event, (SessionCallbackAdded, SessionCallbackRemoved))]
        for event in later:
            # Only the browser is still to hear of it: the server's own listeners (Panel's, which would
            # take a server's change sent then for one of the browser's) are not called again.
            event.callback_invoker = None
        if later:
            document._UNCONNECTED_EVENTS.setdefault(doc, []).extend(later)
        return now

    _drain_unconnected_events.keeps_early_changes = True      # type: ignore[attr-defined]
    document._drain_unconnected_events = _drain_unconnected_events
