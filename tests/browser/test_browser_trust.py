"""Playtest tables you can trust (issue #20), attacked in real Chromium against a real ``panel serve``:
a typed seed does not deal a live table in the explorer; a move the database cannot write is refused
and can be made again; bad files in the what-if editor give one message and leave the page usable;
a seat's link the creator replaced shows nothing of the table.

One server for the module; its writes give up on a locked database after 0.2 s
(``RULES_EXPLORER_TABLES_BUSY_TIMEOUT``), so the write-failure test needs no long wait.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from explorer.components.setup_editor import MAX_FILE_BYTES
from explorer.tables.store import TableStore
from tests.helpers.tables_server import TablesServer
from tests.helpers.table_seats import (
    LOAD_TIMEOUT, SeatPage, choose_first_move, close_clean, create_in_lobby, first_move_kept, hand, read_table,
    your_turn,
)
from tests.helpers.tables import Locked
from tests.helpers.tiers import quick_once, slow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "subastral-scoring-example.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("trust") / "tables.sqlite3"
    server = TablesServer(db, extra_env={"RULES_EXPLORER_TABLES_BUSY_TIMEOUT": "0.2"}).start()
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


def explorer_hand(browser: Browser, url: str, seat: int) -> list[str]:
    """``seat``'s hand as the explorer at ``url`` deals it (the explorer shows every hand)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(url)
    try:
        return hand(page, seat)
    finally:
        context.close()


def deal_seed(server: TablesServer, table_id: str) -> int:
    store = TableStore(server.db)        # (a reader: the deal's seed is worked out with the key beside the file)
    try:
        return store.table(table_id).seed
    finally:
        store.close()


@slow   # (the quick tier: tests/explorer/tables/test_tables_trust.py, the same rule without a browser)
def test_a_typed_seed_does_not_deal_a_live_table_in_the_explorer_until_the_creator_ends_it(browser, server):
    typed = 4242
    created = create_in_lobby(browser, server, "subastral", 2, seed=typed)
    seat = SeatPage(browser, created.links[0], 0)
    spectator = SeatPage(browser, created.spectator, None)
    mine = hand(seat.page, 0)
    secret = str(deal_seed(server, created.id))
    # The deal's seed is on no page of the live table, nor in anything sent to one, nor in the lobby's list.
    created.lobby.locator(".refresh-tables button").click()
    listed = created.lobby.locator(f'.tables-list tr[data-table="{created.id}"]').inner_html()
    for text in (seat.page.content(), seat.take_frames(), spectator.page.content(), spectator.take_frames(), listed):
        assert not re.search(rf"(?<!\w){secret}(?!\w)", text)
    explorer = f"{server.base}/explorer?game=subastral&players=2&seed="
    assert explorer_hand(browser, explorer + str(typed), 0) != mine
    expect(seat.page.locator(".table-status")).to_be_visible()
    # The creator ends the table: its review deals the very hands the seat held.
    context = browser.new_context()
    creator = context.new_page()
    creator.goto(created.creator)
    creator.locator(".end-table button").click()
    creator.locator(".confirm-end-table button").click()        # (the page asks first)
    expect(creator.locator(".creator-status .review-link")).to_be_visible(timeout=LOAD_TIMEOUT)
    context.close()
    assert explorer_hand(browser, f"{server.base}/explorer?table={created.id}", 0) == mine
    assert explorer_hand(browser, explorer + secret, 0) == mine
    close_clean([seat, spectator])
    created.close()


@slow   # (the quick tier: tests/explorer/tables/test_tables_trust.py, a locked database without a browser)
def test_a_move_the_locked_database_cannot_write_is_refused_and_can_be_made_again(browser, server):
    created = create_in_lobby(browser, server, "subastral", 2, seed=7)
    created.close()
    pages = [SeatPage(browser, link, seat) for seat, link in created.links.items()]
    seat = your_turn(pages)
    locked = Locked(server.db)
    try:
        label = choose_first_move(seat)
        expect(seat.page.locator(".picker-message")).to_contain_text("not recorded", timeout=15_000)
        expect(seat.page.locator(".picker-message")).to_contain_text("database is locked")
    finally:
        locked.release()
    assert read_table(server.db, created.id)[1] == []
    assert "Traceback" not in seat.page.content()
    assert choose_first_move(seat) == label        # the same move, once the database is free again
    first_move_kept(server, created.id, pages)


@pytest.fixture
def sockets() -> dict:
    """What the editor page's websockets did: the size of every frame sent, and closes."""
    return {"sent": [], "closed": 0}


@pytest.fixture
def editor(browser, server, sockets):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def watch(socket) -> None:
        socket.on("framesent", lambda payload: sockets["sent"].append(len(payload)))
        socket.on("close", lambda _: sockets.__setitem__("closed", sockets["closed"] + 1))
    page.on("websocket", watch)
    page.goto(f"{server.base}/explorer?game=subastral&players=4&seed=1")
    page.locator(".bk-tab", has_text="What-if setup").first.click()
    expect(page.locator(".upload-file input[type=file]")).to_be_attached(timeout=LOAD_TIMEOUT)
    yield page
    assert not errors, errors
    context.close()


def refused_once(page: Page, *expected: str) -> None:
    """One short message naming the problem, no traceback; then a valid file still loads."""
    message = page.locator(".files-error")
    for words in expected:
        expect(message).to_contain_text(words, timeout=30_000)
    assert len(message.inner_text()) < 300 and message.count() == 1
    assert "Traceback" not in page.content()
    upload = page.locator(".upload-file input[type=file]")
    upload.set_input_files(str(EXAMPLE))
    expect(page.locator(".files-status")).to_contain_text("Loaded", timeout=15_000)
    expect(message).to_be_hidden()


@pytest.mark.parametrize("text, problem", quick_once([("[" * 100_000 + "]" * 100_000, "nested more than 100 levels"),
                                                      ('{"state": ' + "9" * 5000 + "}", "more than 4300 digits")],
                                                     ("[" * 100_000 + "]" * 100_000, "nested more than 100 levels")))
def test_pasted_json_too_deep_or_with_a_huge_number_gives_one_message_and_the_page_goes_on(editor, text, problem):
    editor.locator(".paste-json textarea").fill(text)
    editor.locator(".load-pasted button").click()
    refused_once(editor, "Nothing changed", problem)


@slow   # (the quick tier: the same message for a file far over the limit, below)
def test_a_file_over_the_size_limit_gives_one_message_and_the_page_goes_on(editor):
    big = b'{"state": "' + b"x" * MAX_FILE_BYTES + b'"}'
    editor.locator(".upload-file input[type=file]").set_input_files(
        {"name": "huge.json", "mimeType": "application/json", "buffer": big})
    refused_once(editor, "Could not read huge.json: it is 2.0 MB", "up to 2 MB")


def test_a_file_far_over_the_limit_is_refused_unread_and_the_websocket_stays_open(editor, sockets, tmp_path):
    # Read and sent whole (as Panel's FileInput did), 50 MB would exceed the websocket's message limit.
    # A sparse file on disk, handed to the browser by its path: Playwright does not carry 50 MB through
    # its own protocol first (a buffer took ~40 s of the suite), and the page sees the same 50 MB file.
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(50_000_000)
    editor.locator(".upload-file input[type=file]").set_input_files(huge)
    refused_once(editor, "Could not read huge.json: it is 50.0 MB", "up to 2 MB")
    assert sockets["sent"] and max(sockets["sent"]) < 1_000_000, max(sockets["sent"])
    assert sockets["closed"] == 0


def test_a_seat_link_the_creator_replaced_shows_nothing_of_the_table_and_the_new_one_plays(browser, server):
    created = create_in_lobby(browser, server, "subastral", 2, seed=11)
    created.close()
    old = SeatPage(browser, created.links[1], 1)           # open on the old link while it is replaced
    hand(old.page, 1)
    context = browser.new_context()
    creator = context.new_page()
    creator.goto(created.creator)
    creator.locator(".new-seat-link-1 button").click()
    new_link = creator.locator(".creator-message a.seat-link-1")
    expect(new_link).to_be_visible(timeout=LOAD_TIMEOUT)
    new_link = new_link.get_attribute("href")
    assert new_link != created.links[1]
    creator.goto(created.links[1])
    expect(creator.locator(".table-refused")).to_contain_text("not valid", timeout=LOAD_TIMEOUT)
    assert creator.locator(".card").count() == 0 and creator.locator("button.action").count() == 0
    context.close()
    expect(old.page.locator(".table-refused")).to_contain_text("not valid", timeout=15_000)
    assert old.page.locator(".hand-seat-1 .card[data-card]").count() == 0
    expect(old.page.locator(".plots-card")).to_be_hidden()      # (a root of its own in the page)
    new = SeatPage(browser, new_link, 1)
    hand(new.page, 1)
    expect(new.page.locator(".table-header")).to_contain_text("Player 2")
    close_clean([old, new])
