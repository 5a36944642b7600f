"""The explorer in real Chromium: playing by clicks, stepping (buttons, keys, log), branches, variants, seat views.

Few and fast on purpose: what can be checked in Python is in test_explorer_app.py and
test_explorer_picker.py. Each test keeps a handle on the server-side app it drives
(``served``), so the page is checked against the engine's own state, never against itself.

Screenshots of each main screen are written to test-results/ while the test runs
(pytest-playwright empties that folder when the session starts) and copied to /tmp/screens/.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import (button_label, new_game, open_app, select, settled, shot, wait_for_board,
                                         wait_until)
from tests.helpers.tiers import slow

pytestmark = pytest.mark.browser


# Every text node and attribute on the page, shadow roots included (Panel draws inside them);
# <script>/<style> contents are code, not page content.
PAGE_TEXT_JS = """
() => {
  const parts = [];
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.currentNode; node; node = walker.nextNode()) {
      if (node.nodeType === Node.TEXT_NODE) {
        const parent = node.parentElement;
        if (!parent || !["SCRIPT", "STYLE"].includes(parent.tagName)) parts.push(node.textContent);
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        if (["SCRIPT", "STYLE"].includes(node.tagName)) continue;
        for (const attr of node.attributes) parts.push(attr.value);
        if (node.shadowRoot) walk(node.shadowRoot);
      }
    }
  };
  walk(document.documentElement);
  return parts.join("\\n");
}
"""


def expect_cursor(page: Page, session) -> None:
    """The page shows the server's cursor: the page and the session are read again until they agree (the
    session is read from the test's thread while the server's may be assigning its cursor and its log,
    one after the other: see ``wait_for_played``)."""
    counter = page.locator(".step-counter")
    wait_until(lambda: counter.inner_text().split() == ["Step", str(session.cursor), "/", str(len(session.log))],
               what="the page's step counter to show the server's cursor")


def cloud_texts(page: Page) -> list[str]:
    return [page.locator(f".cloud-{n}").inner_text() for n in range(1, 7)]


def click_action(page: Page, session, action) -> None:
    """Select ``action`` in the picker, then confirm it; returns once the server has played it."""
    length, branches = len(session.log), len(session.branches)
    # (its button may be shown by the list of the step before too, as "open a column for Savanna" is while
    # the page takes in the next choice of columns: a click there is refused, and ``select`` clicks again)
    select(page, action)
    page.locator(".confirm-action button").click()
    wait_until(lambda: (len(session.log) != length or len(session.branches) != branches) and settled(session),
               what=f"{action} to be played")
    expect_cursor(page, session)


# ------------------------------------------------------------------ playing, stepping, branching


def test_play_three_turns_as_player_1_then_step_jump_and_branch(page: Page, served):
    app = open_app(page, served)
    session = app.session
    spec = session.spec
    # The server first: a new game redraws the board, log, picker and plots (seconds on a busy
    # machine), and only then can the page say whose move it is.
    new_game(page, session, human=True)
    assert spec.to_move(session.state) == (0,)
    expect(page.locator(".picker-status")).to_contain_text("Player 1, your move")
    expect_cursor(page, session)
    expect(page.locator(".sb-status .viewer")).to_contain_text("Seen by Player 1")

    first_play = None
    for turn in range(3):
        state = session.state
        plays = spec.legal_actions(state, 0)
        assert all(type(a).__name__ == "PlayCard" for a in plays), plays
        play = plays[turn % len(plays)]
        first_play = first_play if first_play is not None else session.cursor
        # select: the card is marked in the hand and its cloud lights up, nothing is played yet
        page.locator(".action-picker").get_by_role("button", name=button_label(play), exact=True).click()
        cloud = spec.card_info(state, play.card)["number"]
        expect(page.locator(f".cloud-{cloud}.target")).to_be_visible()
        expect(page.locator(".cloud.target")).to_have_count(1)
        expect(page.locator(f".cloud-{cloud} .card.ghost")).to_have_attribute("data-preview-card", play.card)
        expect(page.locator(".hand-seat-0 .card.selected")).to_have_attribute("data-card", play.card)
        if turn == 0:
            shot(page, "play-1-card-selected")
        length = len(session.log)
        page.locator(".confirm-action button").click()
        wait_until(lambda: len(session.log) == length + 1 and settled(session), what="the play")
        expect_cursor(page, session)
        expect(page.locator(".cloud.target")).to_have_count(0)

        # take a cloud, preferring one that brings several new biomes (an open-column choice)
        takes = spec.legal_actions(session.state, 0)
        take = next((a for a in takes if any(type(b).__name__ == "OpenColumn"
                                             for b in spec.legal_actions(spec.apply(session.state, 0, a), 0))), takes[0])
        page.locator(".action-picker").get_by_role("button", name=button_label(take), exact=True).click()
        expect(page.locator(f".cloud-{take.cloud}.target")).to_be_visible()
        expect(page.locator(f".{take.to}-seat-0.destination")).to_be_visible()
        if turn == 0:
            shot(page, "play-2-cloud-selected")
        page.locator(".confirm-action button").click()
        wait_until(lambda: len(session.log) > length + 1 and settled(session), what="the take")
        expect_cursor(page, session)
        while spec.to_move(session.state) == (0,) and type(spec.legal_actions(session.state, 0)[0]).__name__ == "OpenColumn":
            click_action(page, session, spec.legal_actions(session.state, 0)[0])
        wait_until(lambda: spec.to_move(session.state) == (0,) or spec.is_over(session.state), what="the bots")
        expect_cursor(page, session)
        # the bots answered where the rules gave them the turn (Player 1 may also move again at once)
        mine = max(i for i, (seat, _) in enumerate(session.log) if seat == 0 and i >= length) + 1
        if any(seat != 0 for seat in spec.to_move(session.state_at(mine))):
            assert any(seat != 0 for seat, _ in session.log[length:]), "the bots answered"
    expect(page.locator(".picker-status")).to_contain_text("Player 1, your move")
    shot(page, "play-3-after-three-turns")

    line = list(session.log)
    moves = len(line)
    counter = page.locator(".step-counter")
    for step, press in ((moves - 1, page.locator(".step-back button").click),
                        (moves - 2, lambda: page.keyboard.press("ArrowLeft")),
                        (moves - 1, lambda: page.keyboard.press("ArrowRight")),
                        (0, lambda: page.keyboard.press("Home")), (moves, lambda: page.keyboard.press("End"))):
        press()
        wait_until(lambda: session.cursor == step, what=f"the server at step {step}")    # (then the page)
        expect(counter).to_have_text(f"Step {step} / {moves}")

    # jump by clicking the log line of Player 1's first decision, then play another card there (once
    # the log has marked the cursor's line: it scrolls to it then, and a click must not race that)
    expect(page.locator(".event-log .step.current")).to_have_attribute("data-step", str(moves))
    page.locator(f'.event-log .step[data-step="{first_play}"] .step-no').click()   # the step's number: a click on a rule link opens the rules instead
    expect(counter).to_have_text(f"Step {first_play} / {moves}")
    expect(page.locator(".event-log .step.current")).to_contain_text(f"Step {first_play}")
    assert session.cursor == first_play
    recorded = line[first_play]
    other = next(a for a in spec.legal_actions(session.state, 0) if (0, a) != recorded)
    expect(page.locator(".picker-note")).to_contain_text("starts a new line")
    click_action(page, session, other)
    wait_until(lambda: len(session.branches) == 1, what="the branch")
    assert session.log[first_play] == (0, other) and session.log[:first_play] == line[:first_play]
    branches = page.locator(".branches")
    expect(branches).to_contain_text(f"{moves} moves, forked after move {first_play}")
    expect_cursor(page, session)
    shot(page, "play-4-branched")

    page.locator(".switch-branch-0 button").click()
    wait_until(lambda: session.log == line, what="the switch back")
    expect(counter).to_have_text(f"Step {first_play} / {moves}")
    expect(branches).to_contain_text(f"forked after move {first_play}")


#: Three animation frames: a scroll the log asked for at the next frame has been made.
FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done))))"


def test_the_log_stays_where_its_reader_scrolled_it_until_the_cursor_moves(page: Page, served):
    """The log follows the cursor, and only the cursor: a page laid out again (here, a narrower window)
    once took a reader who had scrolled back through the log to the cursor's line again, and a click
    on an earlier line could land on another one."""
    app = open_app(page, served)
    session = app.session
    box = page.locator(".event-log").first
    moves = len(session.log)
    page.locator(".step-end button").click()
    wait_until(lambda: session.cursor == moves, what="the server at the end")
    expect(page.locator(".event-log .step.current")).to_have_attribute("data-step", str(moves))
    page.evaluate(FRAMES)
    assert box.evaluate("el => el.scrollTop") > 0, "the log did not follow the cursor to the end"
    box.evaluate("el => { el.scrollTop = 0; }")            # the reader scrolls back to the deal
    board = page.locator(".board").first
    width = board.bounding_box()["width"]
    page.set_viewport_size({"width": 1300, "height": 1000})
    wait_until(lambda: board.bounding_box()["width"] != width, what="the page laid out again")
    page.evaluate(FRAMES)
    assert box.evaluate("el => el.scrollTop") == 0, "a new layout took the log back to the cursor"
    page.locator(".step-back button").click()               # the cursor moves: the log follows it
    wait_until(lambda: session.cursor == moves - 1, what="the server a step back")
    expect(page.locator(".event-log .step.current")).to_have_attribute("data-step", str(moves - 1))
    page.evaluate(FRAMES)
    assert box.evaluate("el => el.scrollTop") > 0, "the log did not follow the cursor"


@slow   # (the quick tier steps, jumps and branches above)
def test_stepping_forward_and_back_redraws_the_board(page: Page, served):
    app = open_app(page, served)
    counter = page.locator(".step-counter")
    start = cloud_texts(page)
    forward = page.locator(".step-forward button")
    for step in (1, 2, 3):
        forward.click()
        wait_until(lambda: app.session.cursor == step, what=f"the server at step {step}")     # (then the page)
        expect(counter).to_contain_text(f"Step {step} / ")
    assert cloud_texts(page) != start
    expect(page.locator(".event-log .step.current")).to_contain_text("Step 3")
    page.locator(".step-back button").click()
    wait_until(lambda: app.session.cursor == 2, what="the server at step 2")
    expect(counter).to_contain_text("Step 2 / ")
    expect(page.locator(".event-log .step.current")).to_contain_text("Step 2")
    expect(page.locator(".picker-status")).to_contain_text("(greedy bot) is to move")
    expect(page.locator(".take-seat-0 button")).to_be_visible()
    assert app.session.cursor == 2
    shot(page, "stepper-step2")


# ------------------------------------------------------------------ variants


@slow   # (the quick tier: tests/explorer/pages/test_explorer_app.py, the same switch in the served model)
def test_switching_the_disturbance_variant_replays_the_line_and_shows_a_cut(page: Page, served):
    app = open_app(page, served)
    session, spec = app.session, app.session.spec
    full = list(session.log)
    page.locator(".step-end button").click()
    expect_cursor(page, session)
    page.locator(".variant-disturbance input").check()
    wait_until(lambda: session.variants == {"disturbance": True}, what="the variant")
    assert session.log == full                       # replayed whole: the pass comes after the last move
    expect(page.locator(".to-move-line")).to_contain_text("pass left")
    expect(page.locator(".picker-status")).to_contain_text("to move")
    page.locator(".let-bots-play button").click()
    wait_until(lambda: spec.is_over(session.state) and len(session.log) > len(full), what="the bots' passes")
    expect_cursor(page, session)
    with_passes = list(session.log)
    assert len(with_passes) > len(full)

    page.locator(".variant-disturbance input").uncheck()
    wait_until(lambda: session.replay_problem is not None, what="the replay")
    problem = session.replay_problem
    notice = page.locator(".replay-problem")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(f"cut this line at move {problem['move']}")
    expect(notice).to_contain_text("illegal under these rules")
    expect(page.locator(".branches")).to_contain_text("played with Disturbance variant: on")
    expect_cursor(page, session)
    shot(page, "variant-cut-line")

    page.locator(".switch-branch-0 button").click()
    wait_until(lambda: session.log == with_passes, what="the switch back")
    expect(notice).to_be_hidden()
    expect(page.locator(".variant-disturbance input")).to_be_checked()


# ------------------------------------------------------------------ who sees what


def _strings(data) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values())) if data else set()
    if isinstance(data, (list, tuple)):
        return set().union(*(_strings(v) for v in data)) if data else set()
    return set()


@slow   # (the quick tier: a seat's page in test_browser_viewpoint.py and test_browser_tables.py)
def test_viewing_as_player_2_the_page_holds_no_other_hand(page: Page, served):
    app = open_app(page, served)
    session, spec = app.session, app.session.spec
    viewer = 1
    expect(page.locator(".hand-seat-0 .card[data-card]")).to_have_count(3)      # teacher: all hands
    page.locator(".view-as select").select_option(label="Player 2")
    expect(page.locator(".sb-status .viewer")).to_contain_text("Player 2")
    moves = len(session.log)
    names = sorted(spec.inventory(session.state_at(0)), key=len, reverse=True)
    seen = set().union(*(_strings(session.observation(viewer, step)) for step in range(moves + 1)))
    secret_texts = {event.text for step in range(moves + 1) for event in spec.events(session.state_at(step))
                    if event.visible_to is not None and viewer not in event.visible_to}
    assert secret_texts, "this game should have private draws"

    # A seat's log lists no step after the one shown: from the last step, back to earlier ones.
    page.locator(".step-end button").click()
    expect(page.locator(".step-counter")).to_have_text(f"Step {moves} / {moves}")
    for step in (moves, moves // 2, 0):
        page.locator(f'.event-log .step[data-step="{step}"] .step-no').click()
        expect(page.locator(".step-counter")).to_have_text(f"Step {step} / {moves}")
        state = session.state_at(step)
        own = [state.cards.card_name(kind) for kind in state.hands[viewer]]
        expect(page.locator(f".hand-seat-{viewer} .card[data-card]")).to_have_count(len(own))
        assert sorted(page.locator(f".hand-seat-{viewer} .card[data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)")) == sorted(own)
        for seat, hand in enumerate(state.hands):
            if seat != viewer:
                expect(page.locator(f".hand-seat-{seat} [data-card]")).to_have_count(0)
                expect(page.locator(f".hand-seat-{seat} .card.back")).to_have_count(len(hand))
        text = page.evaluate(PAGE_TEXT_JS)
        for secret in secret_texts:
            assert secret not in text, f"a private event shown to Player 2: {secret!r}"
        # every card name anywhere on the page is one Player 2 has seen at some step of this line
        shown = {name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w])", text)}
        assert shown <= seen, f"cards Player 2 never saw: {sorted(shown - seen)}"
    shot(page, "view-as-player-2")


# ------------------------------------------------------------------ `panel serve`


@slow   # (the quick tier: test_browser_address.py loads the apps/ pages through `panel serve`)
def test_panel_serve_entry_point_loads(page: Page, panel_cli_server):
    started = time.monotonic()
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.goto(panel_cli_server)
    wait_for_board(page)
    first_load = time.monotonic() - started
    expect(page.locator(".cloud")).to_have_count(6)
    expect(page.get_by_text(re.compile(r"Card file: .*assumed"))).to_be_visible()
    expect(page.locator(".picker-status")).to_contain_text("to move")
    shot(page, "panel-serve-first-load")
    print(f"first load via panel serve: {first_load:.2f}s")
    assert first_load < 20
