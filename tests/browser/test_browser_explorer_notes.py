"""Notes pinned to moves in the explorer, in real Chromium against a served explorer page (issue #24, item 3).

An unfinished two-player Subastral game (so a hidden draw stays hidden: explorer/core/notes.py). The
teacher pins a hostile note on a move everybody saw: shown under its step as text. Viewed as the
drawer, a note on its hidden draw: the drawer and the teacher read it; viewed as the other seat it
is not in the page, and no websocket message sent for that view carries it. Forged messages (a step
off the line, a note past the limit) change nothing. The replay download holds both notes with
their steps and authors (docs/formats.md, "Replay": its `notes` key); a fresh page that opens the file shows them again.
The model side is in tests/explorer/components/test_event_log_notes.py.
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Page, expect

from explorer.core.notes import NOTE_LIMIT, TEACHER
from explorer.core.session import GameSession
from explorer.pages.app import create_app
from rules.protocol import ALL
from tests.helpers.explorer_page import LOAD_TIMEOUT, open_app, wait_until
from tests.helpers.workshop_pages import FORGE_JS
from tests.helpers.notes_pages import LOG_EVENT_JS, notes_at, pin

pytestmark = pytest.mark.browser

GAME, PLAYERS, SEED, MOVES = "subastral", 2, 3, 8
HOSTILE = "<img src=x onerror=alert(1)> 公開の手：雲を取った"
#: The drawer's note; its marker is looked for in everything the other seat's view received.
MARKER = "drawer-secret-7319"
SECRET = f"{MARKER} 引いたカードは残す <b>big</b>"

#: Every element's markup, shadow roots included (``page.content()`` leaves shadow roots out).
PAGE_TEXT_JS = """
() => {
  const parts = [document.documentElement.outerHTML];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) { parts.push(el.shadowRoot.innerHTML); walk(el.shadowRoot); }
  };
  walk(document);
  return parts.join("\\n");
}
"""

#: Sends the event log's own message (``{goto: step}``, what a click on a line sends) for each step given.
FORGE_GOTO_JS = """
(steps) => {
""" + LOG_EVENT_JS + """  for (const step of steps) log.trigger_event(new DataEvent({goto: step}));
  return log !== undefined;
}
"""


def unfinished_game() -> GameSession:
    """Eight moves of a seeded Subastral game, each the first legal one; the cursor at the deal."""
    session = GameSession(game=GAME, players=PLAYERS, seed=SEED)
    spec = session.spec
    for _ in range(MOVES):
        seat = spec.to_move(session.state)[0]
        session.play(seat, spec.legal_actions(session.state, seat)[0])
    session.goto(0)
    return session


@pytest.fixture
def explorer(serve_app):
    """``(url, apps)``: every page opened gets its own unfinished game."""
    apps = []

    def factory():
        template = create_app(unfinished_game())
        apps.append(template.explorer)
        return template

    return serve_app(factory, path="explorer"), apps


def public_and_hidden_steps(session: GameSession) -> tuple[int, int, int]:
    """(a step every seat saw in full, a step only its mover saw in full, that mover)."""
    spec, public, hidden = session.spec, None, None
    for step in range(1, len(session.log) + 1):
        state = session.state_at(step)
        full = spec.observe(state, ALL)["events"]
        saw = [spec.observe(state, seat)["events"] == full for seat in range(PLAYERS)]
        mover = session.log[step - 1][0]
        if all(saw) and public is None:
            public = step
        if saw[mover] and not all(saw) and hidden is None:
            hidden, drawer = step, mover
    assert public and hidden, "no public move and hidden draw in the line"
    return public, hidden, drawer


def view_as(page: Page, session: GameSession, label: str, seat: int | None) -> None:
    page.locator(".view-as select").select_option(label=label)
    wait_until(lambda: session.viewing_seat == seat, what=f"the page to view as {label}")


def show_tab(page: Page, app, title: str) -> None:
    """Click the tab ``title``; wait until the server has mounted its view and the page has drawn it."""
    index = app.tabs._names.index(title)
    page.locator(".bk-tab", has_text=title).first.click()
    wait_until(lambda: app.tabs.active == index and list(app.tabs[index]) == [app._tab_views[index]],
               timeout=LOAD_TIMEOUT / 1000, what=f"the server to mount the {title!r} tab's view")
    expect(page.locator(".tab-drawing")).to_have_count(0, timeout=LOAD_TIMEOUT)


def test_notes_show_as_text_to_whoever_may_read_them_and_come_back_with_the_replay(page: Page, explorer, tmp_path):
    started = time.time()
    frames: list[str] = []
    problems: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace"))))
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    app = open_app(page, explorer)
    session = app.session
    public, hidden, drawer = public_and_hidden_steps(session)
    other = 1 - drawer

    # 1. The teacher's note on a move everybody saw: under its step, as text.
    pin(page, public, HOSTILE)
    teachers = notes_at(page, public)
    expect(teachers).to_have_count(1)
    expect(teachers).to_have_attribute("data-seat", TEACHER)
    expect(teachers.locator("b")).to_have_text("Teacher")
    expect(teachers.locator(".note-said")).to_have_text(HOSTILE)
    expect(page.locator(".event-log img")).to_have_count(0)
    assert [(note["step"], note["seat"], note["text"]) for note in session.notes] == [(public, TEACHER, HOSTILE)]

    # 2. Viewed as the drawer: its note on its hidden draw; the teacher's public note is shown to it too.
    view_as(page, session, f"Player {drawer + 1}", drawer)
    page.mouse.move(0, 0)
    page.locator(".step-end button").click()           # (a seat's log lists the steps up to the cursor)
    expect(page.locator(f'.event-log .step[data-step="{MOVES}"]')).to_be_visible()
    pin(page, hidden, SECRET)
    mine = notes_at(page, hidden)
    expect(mine).to_have_attribute("data-seat", str(drawer))
    expect(mine.locator("b")).to_have_text(f"Player {drawer + 1}")
    expect(mine.locator(".note-said")).to_have_text(SECRET)
    expect(mine.locator(".note-said b")).to_have_count(0)
    expect(notes_at(page, public).locator(".note-said")).to_have_text(HOSTILE)

    # 3. Viewed as the other seat: the drawer's note is not in the page, nor in what the server sent for
    # this view; the teacher's note on the public move is (notes.py: it saw that move as the teacher did).
    frames.clear()
    view_as(page, session, f"Player {other + 1}", other)
    only_theirs = [said for said in session.event_texts(hidden, other) if said not in session.event_texts(hidden, drawer)]
    assert only_theirs, "the other seat reads the hidden draw as the drawer does"
    expect(page.locator(f'.event-log .step[data-step="{hidden}"]')).to_contain_text(only_theirs[0])
    expect(notes_at(page, hidden)).to_have_count(0)
    expect(notes_at(page, public).locator(".note-said")).to_have_text(HOSTILE)
    assert frames, "no websocket message came for the other seat's view"
    assert not [frame for frame in frames if MARKER in frame]
    assert MARKER not in page.evaluate(PAGE_TEXT_JS)
    assert [note["step"] for note in session.visible_notes()] == [public]

    # Forged: steps off the line sent as the log's own message, a note past the limit past the
    # browser's max_length. The step stays, the note is refused, nothing is pinned.
    pinned, cursor = list(session.notes), session.cursor
    assert page.evaluate(FORGE_GOTO_JS, [MOVES + 5, -1, "3", 2.5, None])
    assert page.evaluate(FORGE_JS, ["note-text", "value_input", "z" * (NOTE_LIMIT + 1)])
    page.locator(".pin-note button").click()                 # (after the forged messages, in order)
    expect(page.locator(".note-message")).to_contain_text(f"at most {NOTE_LIMIT}")
    assert session.cursor == cursor and session.notes == pinned
    expect(page.locator(".note-heading")).to_contain_text(f"step {cursor} ")
    expect(notes_at(page, hidden)).to_have_count(0)

    # Back to the teacher: both notes, each at its step.
    view_as(page, session, "Teacher (everything)", None)
    expect(notes_at(page, hidden).locator(".note-said")).to_have_text(SECRET)
    expect(notes_at(page, public).locator(".note-said")).to_have_text(HOSTILE)

    # 4. The replay download: both notes, in the order pinned, with their steps and authors.
    show_tab(page, app, "What-if setup")
    with page.expect_download() as download:
        page.locator(".download-replay").click()
    replay_path = tmp_path / "replay.json"
    download.value.save_as(replay_path)
    replay = json.loads(replay_path.read_text(encoding="utf-8"))
    assert [(note["step"], note["seat"], note["text"]) for note in replay["notes"]] == [
        (public, TEACHER, HOSTILE), (hidden, drawer, SECRET)]
    assert all(started - 1 <= note["at"] <= time.time() + 1 for note in replay["notes"])
    assert replay["notes"] == session.notes

    # 5. A fresh page (its own game, no notes) opens the file: the notes are shown again.
    second = page.context.new_page()
    second.on("pageerror", lambda error: problems.append(f"second page error: {error}"))
    fresh = open_app(second, explorer)
    assert fresh.session.notes == []
    show_tab(second, fresh, "What-if setup")
    second.locator(".upload-file input[type=file]").set_input_files(str(replay_path))
    wait_until(lambda: fresh.setup_editor.files_status.visible, what="the replay to load")
    assert fresh.session.notes == replay["notes"]
    show_tab(second, fresh, "Table")
    expect(notes_at(second, public).locator(".note-said")).to_have_text(HOSTILE)
    expect(notes_at(second, hidden).locator(".note-said")).to_have_text(SECRET)
    expect(notes_at(second, hidden)).to_have_attribute("data-seat", str(drawer))
    expect(second.locator(".event-log img")).to_have_count(0)
    assert not problems, problems
