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
"""

from __future__ import annotations

import panel.io.document as document


def install() -> None:
    """Wrap Panel's ``_dispatch_msgs`` (once; every module that serves a page calls this)."""
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
