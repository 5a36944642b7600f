"""Notes on moves at a playtest table, in real Chromium against a real ``panel serve`` (issue #24, item 3).

Two seats play by clicking; each pins a note from under its event log. A note on a public move
shows in both seats' logs; the drawer's note on its hidden draw shows only in the drawer's (its
text never reaches the other seat's page), and both are in the database.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from explorer.tables.store import TableStore
from rules.registry import get_game
from tests.helpers.table_seats import SeatPage, create_in_lobby, read_table
from tests.helpers.tables_server import TablesServer
from tests.helpers.tiers import slow
from tests.helpers.notes_pages import notes_at, pin

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = TablesServer(tmp_path_factory.mktemp("notes") / "tables.sqlite3").start()
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


def stored_notes(db) -> list[tuple]:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return connection.execute("SELECT step, author, text FROM notes ORDER BY table_id, number").fetchall()
    finally:
        connection.close()


def test_seats_pin_notes_and_a_hidden_draw_s_note_stays_its_authors(browser: Browser, server):
    created = create_in_lobby(browser, server, "subastral", 2, seed=5)
    created.close()
    table_id = created.id
    pages = {seat: SeatPage(browser, link, seat) for seat, link in created.links.items()}
    spec = get_game("subastral")
    store = TableStore(server.db, read_only=True)        # (the deal's seed, from the key beside the file)
    state = spec.new_game(2, store.table(table_id).seed, {})
    store.close()
    rng = random.Random(3)
    hidden = public = None
    # (how soon a hidden draw comes depends on the deal, made from the table's random id: played until
    # there is one, or the game ends)
    step = 0
    while spec.to_move(state):
        step += 1
        mover = spec.to_move(state)[0]
        pages[mover].play(rng)
        for page in pages.values():
            page.wait_for_step(step)
        _, moves = read_table(server.db, table_id)
        seat, data = moves[step - 1]
        state = spec.apply(state, seat, spec.decode_action(data))
        full = spec.observe(state, "all")["events"]
        seen = {viewer: spec.observe(state, viewer)["events"] == full for viewer in (0, 1)}
        if all(seen.values()) and public is None:
            public = step
        if seen[seat] and not seen[1 - seat] and hidden is None:
            hidden, drawer = step, seat
        if hidden and public:
            break
    assert hidden and public, f"no hidden draw and public move in the whole game ({step} moves)"
    other = 1 - drawer
    pages[other].take_frames()

    pin(pages[drawer].page, hidden, "I kept <b>the big one</b>")
    pin(pages[other].page, public, "everybody saw this move")
    for page in pages.values():                              # the public note: in both logs
        expect(notes_at(page.page, public)).to_contain_text("everybody saw this move")
    mine = notes_at(pages[drawer].page, hidden)
    expect(mine).to_contain_text(f"Player {drawer + 1}")
    expect(mine.locator(".note-said")).to_have_text("I kept <b>the big one</b>")     # shown as text, escaped
    expect(mine.locator(".note-said b")).to_have_count(0)
    expect(notes_at(pages[other].page, hidden)).to_have_count(0)                     # not the other seat's
    assert "the big one" not in pages[other].take_frames()
    assert "the big one" not in pages[other].page.content()
    # A note on a step the table has not reached is refused, and so is an empty one.
    pages[other].page.locator(".note-text textarea").fill("   ")
    pages[other].page.locator(".pin-note button").click()
    expect(pages[other].page.locator(".note-message")).to_contain_text("Note not pinned: the note is empty")
    assert stored_notes(server.db) == [(hidden, drawer, "I kept <b>the big one</b>"),
                                       (public, other, "everybody saw this move")]
    for page in pages.values():
        assert not page.errors, page.errors
        page.close()
    assert not server.errors(), server.errors()


@slow   # (the quick tier: tests/explorer/tables/test_notes.py kills a process pinning notes)
def test_a_note_pinned_in_the_browser_survives_kill_9_of_the_server_and_is_exported(browser: Browser, server, tmp_path):
    created = create_in_lobby(browser, server, "subastral", 2, seed=7)
    created.close()
    pages = {seat: SeatPage(browser, link, seat) for seat, link in created.links.items()}
    mover = next(page for page in pages.values() if page.page.locator(".table-status.your-turn").count())
    mover.play(random.Random(1))
    for page in pages.values():
        page.wait_for_step(1)
    pin(mover.page, 1, "pinned just before the crash")       # the page says so once it is committed
    server.kill(signal.SIGKILL)
    out = tmp_path / "replay.json"
    done = subprocess.run([sys.executable, "-m", "explorer.cli", "tables", "export", created.id, "--db", str(server.db),
                           "--out", str(out)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    exported = json.loads(out.read_text())
    assert [(note["step"], note["seat"], note["text"]) for note in exported["notes"]] == [
        (1, mover.seat, "pinned just before the crash")]
    server.start()
    for page in pages.values():                   # the restarted server shows the note again
        page.open()
        expect(notes_at(page.page, 1)).to_contain_text("pinned just before the crash")
    for page in pages.values():
        page.close()


def test_on_a_phone_the_creator_writes_a_note_across_the_screen_and_each_note_stays_in_its_box(browser: Browser, server):
    """The creator's page at 390x844: the note's text box has a line of its own, the screen's width (it was
    squeezed to 120 pixels between the step and the button, its hint cut to "What happened he..."); a
    pinned note keeps its line breaks in a box of its own, as in the seats' logs; the longest notes are
    shown whole."""
    created = create_in_lobby(browser, server, "subastral", 2, seed=9)
    created.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(created.creator)
    box = page.locator(".note-text textarea")
    expect(box).to_be_visible(timeout=30_000)
    expect(page.locator(".pin-note button")).to_be_visible()
    width, step_box, button = (page.locator(selector).bounding_box()
                               for selector in (".note-text textarea", ".note-step input", ".pin-note button"))
    assert 280 <= width["width"] <= 390, width
    assert width["y"] >= step_box["y"] + step_box["height"] and button["y"] >= width["y"] + width["height"], (
        step_box, width, button)      # (step, then the text, then the button: one above the other)
    box.fill("first line\nsecond line\nthird line")
    page.locator(".pin-note button").tap()
    note = page.locator(".creator-notes li.note")
    expect(note).to_contain_text("second line")
    # (innerText is the text as drawn: line breaks kept, not folded into spaces as before on this page)
    assert page.locator(".creator-notes li.note .note-said").evaluate("el => el.innerText") == (
        "first line\nsecond line\nthird line")
    # The longest notes a person may pin are shown whole (20 lines; 2,000 characters, wrapped on the phone),
    # and the marks of one pinned before the mark limit stay inside its box (nothing drawn past it).
    said = page.locator(".creator-notes li.note .note-said")
    for longest in ("line\n" * 19 + "line 20", "word " * 400):
        said.evaluate("(el, text) => { el.textContent = text; }", longest)
        assert note.evaluate("el => el.scrollHeight <= el.clientHeight"), longest[:12]
    assert note.evaluate("el => getComputedStyle(el).overflow") == "hidden"
    # A note of one long word, as the seats' logs write it (the author, then the note with no space
    # between: timeline.py): the author's name stays on one line ("Player" and "1" were two lines, the
    # only place the line could break before the stylesheet's nowrap).
    note.evaluate("(el, text) => { el.innerHTML = '<b>Player 1</b><span class=note-said></span>';"
                  " el.lastChild.textContent = text; }", "y" * 1990)
    assert note.locator("b").first.evaluate("el => el.getClientRects().length") == 1
    assert note.evaluate("el => el.scrollHeight <= el.clientHeight")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors
    context.close()
