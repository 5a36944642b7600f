"""Serving a group behind a reverse proxy (README, "Serving a group on a network"): the real
``rules-explorer serve --use-xheaders --allow-origin HOST`` behind a small local proxy that does what
the README's nginx example does (passes the Host, the websocket upgrade, ``X-Forwarded-Proto:
https``; adds ``X-Forwarded-For`` and ``X-Forwarded-Host``). The lobby, reached through the proxy in
Chromium, makes ``https://<the proxy's host>/...`` links, and a seat's page, opened through the
proxy, works over its websocket: its hand shows and its move is played.

The proxy itself speaks plain HTTP (no certificate to make): only the forwarded headers claim https.
"""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest
from playwright.sync_api import expect
from tornado import httpclient, web, websocket
from tornado.httputil import HTTPHeaders

from tests.helpers.tables_server import TablesServer, free_port
from tests.helpers.table_seats import (
    SeatPage, choose_first_move, create_in_lobby, first_move_kept, hand, your_turn,
)

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "upgrade"}


def forwarded(request, backend: str) -> HTTPHeaders:
    """The request's headers as the README's nginx example passes them (Host kept)."""
    headers = HTTPHeaders()
    for name, value in request.headers.get_all():
        if name.lower() not in HOP_BY_HOP and not name.lower().startswith("sec-websocket"):
            headers.add(name, value)
    headers["X-Forwarded-Proto"] = "https"
    headers["X-Forwarded-Host"] = request.host
    headers["X-Forwarded-For"] = request.remote_ip
    return headers


class Forward(web.RequestHandler):
    SUPPORTED_METHODS = ("GET", "HEAD", "POST")

    def initialize(self, backend: str) -> None:
        self.backend = backend

    async def get(self) -> None:
        body = self.request.body if self.request.method == "POST" else None
        answer = await httpclient.AsyncHTTPClient().fetch(
            f"http://{self.backend}{self.request.uri}", method=self.request.method, body=body,
            headers=forwarded(self.request, self.backend), follow_redirects=False, raise_error=False,
            request_timeout=60)
        self.set_status(answer.code, answer.reason)
        self.clear_header("Content-Type")
        for name, value in answer.headers.get_all():
            if name.lower() not in HOP_BY_HOP:
                self.add_header(name, value)
        if answer.body and self.request.method != "HEAD":
            self.write(answer.body)

    head = post = get


class ForwardSocket(websocket.WebSocketHandler):
    """The websocket upgrade, passed on: every message both ways, with Bokeh's subprotocols."""

    opened = 0          # websockets passed on so far

    def initialize(self, backend: str) -> None:
        self.backend, self.upstream = backend, None

    def check_origin(self, origin: str) -> bool:
        return True                     # (the server behind checks it: --allow-origin)

    def select_subprotocol(self, subprotocols):
        self.subprotocols = list(subprotocols)
        return self.subprotocols[0] if self.subprotocols else None

    async def open(self, *args) -> None:
        request = httpclient.HTTPRequest(f"ws://{self.backend}{self.request.uri}",
                                         headers=forwarded(self.request, self.backend))
        self.upstream = await websocket.websocket_connect(request, subprotocols=self.subprotocols,
                                                          max_message_size=50_000_000)
        ForwardSocket.opened += 1
        asyncio.ensure_future(self._pump())

    async def _pump(self) -> None:
        while True:
            message = await self.upstream.read_message()
            if message is None:
                self.close()
                return
            await self.write_message(message, binary=isinstance(message, bytes))

    async def on_message(self, message) -> None:
        await self.upstream.write_message(message, binary=isinstance(message, bytes))

    def on_close(self) -> None:
        if self.upstream is not None:
            self.upstream.close()


class Proxy:
    """The reverse proxy on 127.0.0.1 (its own thread and loop) in front of ``backend`` (host:port)."""

    def __init__(self, backend: str):
        self.port, self.backend = free_port(), backend
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        app = web.Application([(r".*/ws", ForwardSocket, {"backend": self.backend}),
                               (r".*", Forward, {"backend": self.backend})], websocket_max_message_size=50_000_000)
        self.server = app.listen(self.port, "127.0.0.1")
        self.loop.call_soon(ready.set)
        self.loop.run_forever()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class Served(TablesServer):
    """``rules-explorer serve`` as the README documents it behind a proxy."""

    allow_origin = ""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "explorer.cli", "serve", "--port", str(self.port), "--db", str(self.db),
                "--allow-origin", self.allow_origin, "--use-xheaders"]


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("proxy") / "tables.sqlite3")
    proxy = Proxy(f"127.0.0.1:{server.port}")
    server.allow_origin = f"127.0.0.1:{proxy.port}"
    server.start()
    yield server, proxy
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    proxy.stop()
    server.stop()


def test_behind_a_proxy_the_lobby_makes_https_links_to_the_proxy_and_a_seat_plays_through_it(browser, proxied):
    server, proxy = proxied
    created = create_in_lobby(browser, server, "subastral", 2, base=proxy.base)
    created.close()
    public = f"https://127.0.0.1:{proxy.port}/tables?table={created.id}"
    assert created.spectator == public
    assert created.creator.startswith(public + "&creator=")
    assert sorted(created.links) == [0, 1] and all(link.startswith(public + "&seat=") for link in created.links.values())
    # The seat's page, through the proxy (plain http: the proxy has no certificate).
    opened = ForwardSocket.opened
    seats = [SeatPage(browser, link.replace("https://", "http://", 1), seat) for seat, link in created.links.items()]
    assert ForwardSocket.opened == opened + 2          # each page's websocket went through the proxy
    mover = your_turn(seats)
    assert hand(mover.page, mover.seat)
    choose_first_move(mover)
    first_move_kept(server, created.id, seats)
    assert not server.errors(), server.errors()
