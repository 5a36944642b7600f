"""A change queued while another message is being written still reaches the browser
(``explorer.web.writes``): the order of events that left the analysis page saying "running" for good
under load, brought about on purpose on a real page in real Chromium."""

from __future__ import annotations

import asyncio
import threading

import panel as pn
import panel.io.document as document
import pytest
from panel.io.state import set_curdoc
from playwright.sync_api import Page, expect

import explorer.web  # noqa: F401  (installs explorer.web.writes, as every page does)
from explorer.components.picker import ActionButtons
from explorer.plots.live import OnLoop
from tests.helpers.explorer_page import LOAD_TIMEOUT, wait_until

pytestmark = pytest.mark.browser

#: The large message's size, doubled until its writing is still under way when Panel waits for it.
FIRST_SIZE = 2_000_000
LARGEST = 64_000_000


def test_a_change_queued_while_a_large_message_is_written_reaches_the_browser(page: Page, serve_app, monkeypatch):
    """The order: the socket busy, a large change is queued and a task starts to write it; the
    moment its writing ends, before the task has seen so, a small change is queued behind it (its
    own task starts). The first task then ends and lifts the page's mark; in Panel 1.9 the second
    found no mark and left the small change unsent, however long the page waited."""
    sessions = []

    def factory():
        big = pn.pane.HTML("", css_classes=["writes-big"], visible=False)
        last = pn.pane.HTML("not yet", css_classes=["writes-last"])
        sessions.append((pn.state.curdoc, big, last))
        return pn.Column(big, last)

    page.goto(serve_app(factory))
    expect(page.locator(".writes-last")).to_have_text("not yet")
    doc, big, last = sessions[-1]
    # (Before its page says it has loaded, Panel sends a page's changes in a later callback.)
    wait_until(lambda: pn.state._connected.get(doc), what="the page to say it has loaded")
    loop = doc.session_context.server_context.application_context.io_loop
    seen: dict = {}
    finished = threading.Event()

    def small_change(futures) -> None:
        # Called as the large message's writes end, before the task waiting for them goes on.
        if "queued behind" in seen or not all(f.done() for f in futures):
            return
        seen["queued behind"] = doc in document._WRITE_BLOCK
        with set_curdoc(doc):
            last.object = f"the last change ({seen['size']:,} characters before it)"

    wait_for_writes = document._run_write_futures

    async def run_write_futures(d) -> None:
        futures = document._WRITE_FUTURES.get(d, [])
        if d is doc and seen.pop("armed", False):
            seen["writing"] = not all(f.done() for f in futures)
            if seen["writing"]:
                # (Before the task's own: called first. On every write: the task may be waiting for
                # any of them when the last one ends, and goes on at once if all have ended.)
                for future in futures:
                    future.add_done_callback(lambda _, futures=tuple(futures): small_change(futures))
        await wait_for_writes(d)

    monkeypatch.setattr(document, "_run_write_futures", run_write_futures)

    async def scenario(size: int) -> None:
        socket = next(iter(doc.session_context.session._subscribed_connections))._socket
        await socket.write_lock.acquire()           # (as while a message of Bokeh's own is written)
        try:
            with set_curdoc(doc):
                big.object = "x" * size
            seen["queued"] = doc in document._WRITE_MSGS
            if seen["queued"]:
                seen["armed"] = True
        finally:
            socket.write_lock.release()
        while "armed" in seen or (seen.get("writing") and "queued behind" not in seen):
            await asyncio.sleep(0.001)

    def run(size: int) -> None:
        async def go():
            try:
                await scenario(size)
            finally:
                finished.set()
        doc.add_next_tick_callback(go)

    size = FIRST_SIZE
    while True:
        seen.clear()
        seen["size"] = size
        finished.clear()
        loop.add_callback(run, size)
        assert finished.wait(60), "the scenario did not end on the server's loop"
        assert seen["queued"], "the large change was sent at once: the socket was not busy"
        if seen["writing"] or size >= LARGEST:
            break
        size *= 2       # (written at once: larger, so that its writing takes longer)
    assert seen["writing"], f"a message of {size:,} characters was written at once: the order was not brought about"
    assert seen["queued behind"], "the small change was not queued behind the large one"
    expect(page.locator(".writes-last")).to_have_text(f"the last change ({size:,} characters before it)",
                                                      timeout=30_000)       # (it never came in Panel 1.9)
    wait_until(lambda: doc not in document._WRITE_MSGS, what="nothing left queued for the page")


def test_a_change_made_after_the_page_has_its_document_and_before_it_says_loaded_reaches_it(page: Page, serve_app,
                                                                                              monkeypatch):
    """An outside tester's seat page once said "Your move" and showed no move: another seat's move came
    between the browser's pull of the page's document and its "document ready". Panel 1.9 drops the
    changes a hold collects before a page says it has loaded ("the Document is serialized in full once
    the session connects"), but this page had its document already. The move buttons (a JS component)
    update under a hold; a plain pane does not, so its change came. Here the change is made at the
    pull, on purpose."""
    from bokeh.server.session import ServerSession

    served = []

    def factory():
        buttons = ActionButtons(groups=[], version=1, css_classes=["action-buttons"])
        status = pn.pane.HTML("waiting", css_classes=["early-status"])
        served.append((pn.state.curdoc, buttons, status))
        return pn.Column(status, buttons)

    seen: dict = {}
    pull = ServerSession.pull

    def move(doc, buttons, status) -> None:
        seen["connected"] = bool(pn.state._connected.get(doc))
        moves = [{"label": label, "index": i} for i, label in enumerate(("play taiga-4", "play lake-2"))]
        buttons.param.update(groups=[{"title": "Play a card", "kind": "play", "actions": moves}], version=2)
        status.object = "your move"

    async def pulled(message, connection):
        reply = await pull(message, connection)          # (the document is in the reply: serialized)
        for doc, buttons, status in served:
            if connection.session.document is doc and "connected" not in seen:
                OnLoop(lambda: move(doc, buttons, status), doc)()
        return reply

    monkeypatch.setattr(ServerSession, "pull", classmethod(lambda cls, message, connection: pulled(message, connection)))
    page.goto(serve_app(factory))
    expect(page.locator(".early-status")).to_have_text("your move", timeout=LOAD_TIMEOUT)
    assert seen == {"connected": False}, "the change was not made before the page said it had loaded"
    expect(page.locator("button.action")).to_have_text(["play taiga-4", "play lake-2"], timeout=LOAD_TIMEOUT)
