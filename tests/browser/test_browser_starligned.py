"""Starligned in the dashboard, in real Chromium: choose the game, seat three people, play a round by clicking.

Every seat is played by a person and the teacher acts for each in turn, so every decision of the
round is a click on the page: the three face-down phase-1 choices (picking the seat with "Act for"),
the phase-3 decisions that come up (an Exchange makes another player pick a hand card), and the
three phase-4 rotations. The page is checked against the server's own session after each click.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import new_game, open_app, select, shot, switch_game, wait_for_played, wait_until

#: The quick tier clicks through Stellar's board (test_browser_stellar.py) and draws this board in every
#: model test of tests/explorer/boards/; this game's clicks in a browser are in the slow tier.
pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Phase-3 choices that bring in another player's decision come first, so the round shows one.
PREFERENCE = ("exchange", "repeat", "exchange_with", "moon", "swap", "rotate_card", "move", "rotate_telescope",
              "play", "rotate_hand")


def preferred(spec, state, seat):
    """Phase 1: a card whose effect is Exchange or Repeat if the hand has one, never a Stop if avoidable
    (a Stop would skip phase 3); later: the first action of the kind ranked first by PREFERENCE."""
    actions = spec.legal_actions(state, seat)
    if state.phase == "play":
        cards = state.cards

        def rank(action):
            entry = next(e for e in state.hands[seat] if cards.ids[e // 2] == action.card)
            effect = cards.effect[entry]
            return 0 if effect in ("exchange", "repeat") else 2 if effect == "stop" else 1
        return min(actions, key=rank)
    return min(actions, key=lambda action: PREFERENCE.index(spec.encode_action(action)["type"]))



def act_for(page: Page, session, app, seat: int) -> None:
    """Pick the seat the teacher acts for (the "Act for" buttons show when several seats may act)."""
    picker = app.picker
    # the server may still be redrawing the picker for the new position when the move is in the log
    # (the buttons show only when several seats may act; hidden, they keep their last seats)
    wait_until(lambda: picker.acting_seat in picker.actable_seats()
               and (list(picker.act_for.options.values()) == picker.actable_seats() if len(picker.actable_seats()) > 1
                    else not picker.act_for.visible), what="the picker's new seats")
    if picker.acting_seat == seat:
        return
    page.locator(".act-for").get_by_role("button", name=f"Player {seat + 1}", exact=True).click()
    wait_until(lambda: picker.acting_seat == seat, what=f"acting for Player {seat + 1}")


def test_play_a_round_of_starligned_by_clicking(page: Page, served):
    app = open_app(page, served)
    session = app.session
    switch_game(page, session, "Starligned", "starligned", players=3)
    expect(page.locator(".sl-board .step-counter")).to_contain_text(re.compile(r"Step 0 / [1-9]"))  # played through
    expect(page.locator(".sl-seat")).to_have_count(3)

    # every seat played by a person, the teacher's view
    new_game(page, session, human=True)
    for seat in (1, 2):
        page.locator(f".played-by-{seat} select").select_option(label="a person")
        wait_until(lambda: session.controller(seat) == "human", what=f"Player {seat + 1} played by a person")
    page.locator(".view-as select").select_option(label="Teacher (everything)")
    wait_until(lambda: session.viewing_seat is None, what="the teacher's view")
    expect(page.locator(".sl-status .viewer")).to_contain_text("Teacher view")

    spec = session.spec
    start = session.state.start_player
    expect(page.locator(".sl-seat.start")).to_have_count(1)
    expect(page.locator(f".sl-seat.seat-{start}")).to_have_class(re.compile(r"\bstart\b"))
    expect(page.locator(".sl-row .sl-card")).to_have_count(0)
    kinds: list[tuple[int, str, str]] = []
    pending_seen = False
    for _ in range(16):
        state = session.state
        if (state.stage, state.round) != (0, 0):
            break
        movers = spec.to_move(state)
        # simultaneous phases: act for the last seat still to choose (the "Act for" buttons pick it)
        seat = movers[-1] if state.phase in ("play", "rotate") else movers[0]
        act_for(page, session, app, seat)
        expect(page.locator(".picker-status")).to_contain_text(f"Player {seat + 1}, your move")
        action = preferred(spec, state, seat)
        data = spec.encode_action(action)
        if state.phase in ("repeat", "exchange"):
            # another player's decision inside the resolver's turn: named, and their seat marked
            owner = session.observation(None)["pending"]["seat"]
            assert owner == seat
            expect(page.locator(f".sl-pending.pending-seat-{owner}")).to_contain_text(f"Waiting for Player {owner + 1}")
            expect(page.locator(f".sl-seat.seat-{owner}.to-move")).to_have_count(1)
            if not pending_seen:
                shot(page, "starligned-pending-exchange")
            pending_seen = True
        length = len(session.log)
        select(page, action, state)        # (named with the half its card shows: action_label given the state)
        expect(page.locator(".sl-status .preview-line")).to_contain_text(spec.action_label(action, "en", state))
        if data["type"] in ("play", "rotate_hand", "exchange_with"):
            selected = page.locator(f".hand-seat-{seat} .sl-card.selected")
            expect(selected).to_have_count(1)
            expect(selected).to_have_attribute("data-card", re.compile(rf"^{data['card']}r?$"))
        page.locator(".confirm-action button").click()
        wait_for_played(page, session, length, f"{action} to be played", counter=".sl-board .step-counter")
        kinds.append((seat, data["type"], state.phase))
        after = session.state
        if after.phase == "play" and (after.stage, after.round) == (0, 0):
            # the choice is face down: the teacher sees it; the others are told only "chosen"
            expect(page.locator(f".chosen-seat-{seat} .sl-card")).to_have_count(1)
            if len([k for k in kinds if k[2] == "play"]) == 1:
                page.locator(".view-as select").select_option(label=f"Player {(seat + 1) % 3 + 1}")
                viewer = (seat + 1) % 3
                wait_until(lambda: session.viewing_seat == viewer, what="a seat's view")
                expect(page.locator(f".chosen-seat-{seat}")).to_contain_text("chosen, face down")
                expect(page.locator(f".chosen-seat-{seat} [data-card]")).to_have_count(0)
                expect(page.locator(f".hand-seat-{seat} [data-card]")).to_have_count(0)
                expect(page.locator(f".hand-seat-{viewer} .sl-card[data-card]")).to_have_count(len(after.hands[viewer]))
                shot(page, "starligned-phase-1-seat-view")
                page.locator(".view-as select").select_option(label="Teacher (everything)")
                wait_until(lambda: session.viewing_seat is None, what="the teacher's view")
        if state.phase == "play" and after.phase != "play":
            # every card revealed: each row grew by one
            for row_seat in range(3):
                expect(page.locator(f".row-seat-{row_seat} .sl-card")).to_have_count(len(after.rows[row_seat]))
            assert all(len(row) == 1 for row in after.rows)
            shot(page, "starligned-revealed")
    phases = [phase for _, _, phase in kinds]
    assert phases.count("play") == 3 and phases.count("rotate") == 3, kinds
    assert {seat for seat, _, phase in kinds if phase == "play"} == {0, 1, 2}
    assert {seat for seat, _, phase in kinds if phase == "rotate"} == {0, 1, 2}
    assert any(phase in ("effect", "moon") for phase in phases), kinds
    state = session.state
    assert (state.stage, state.round, state.phase) == (0, 1, "play")
    # the hands passed left with the direction card: the start player moved one seat left
    moved = (start + 1) % 3
    assert state.start_player == moved
    expect(page.locator(".sl-seat.start")).to_have_count(1)
    expect(page.locator(f".sl-seat.seat-{moved}.start")).to_be_visible()
    expect(page.locator(".sl-direction")).to_contain_text(f"Start player: Player {moved + 1}")
    expect(page.locator(".sl-stage")).to_contain_text("round 2 of 5")
    shot(page, "starligned-after-round-1")

    # a whole bot game, then a click in the event log jumps to a step with a moon card on a row
    new_game(page, session, human=False)
    assert len(session.log) > 30
    step = next((s for s in range(len(session.log) + 1)
                 if any(session.state_at(s).moons) and session.state_at(s).phase in ("effect", "repeat", "exchange")),
                None) or next(s for s in range(len(session.log) + 1) if any(session.state_at(s).moons))
    for attempt in range(3):
        # a click while the log scrolls back to its cursor (it does as it redraws) can miss: click again
        page.locator(f'.event-log .step[data-step="{step}"] .step-no').click()   # its number: the middle of a step may be a rule link, which opens the rules
        try:
            wait_until(lambda: session.cursor == step, timeout=3, what=f"the jump to step {step}")
            break
        except AssertionError:
            if attempt == 2:
                raise
    expect(page.locator(".sl-board .step-counter")).to_have_text(f"Step {step} / {len(session.log)}")
    view = session.observation(session.viewing_seat)
    expect(page.locator(".sl-pair .sl-moon-card")).to_have_count(sum(len(pairs) for pairs in view["moons"]))
    page.set_viewport_size({"width": 1600, "height": 1280})
    shot(page, "starligned-table")            # docs/img/starligned.png is a copy of this one


#: The cards one of whose halves' text comes within 2 pixels of the card's edges, or past them.
CARDS_OVERFLOWING_JS = """() => [...document.querySelectorAll('.sl-card')].filter((card) => {
  const box = card.getBoundingClientRect();
  return [...card.querySelectorAll('.up, .down')].some((half) => {
    const range = document.createRange();
    range.selectNodeContents(half);
    return [...range.getClientRects()].some((r) => r.width && (r.left < box.left + 2 || r.right > box.right - 2));
  });
}).map((card) => card.querySelector('.cid').textContent)"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_card_half_stays_inside_its_card(page: Page, lang):
    """A long effect name (星カードの回転, 望遠鏡の回転) ran to the 62-pixel card's edges and past them;
    it now wraps inside it, clear of the edges. Every card of a few deals, both halves, in both languages."""
    from explorer.boards.starligned import starligned_html
    from explorer.core.session import GameSession
    from explorer.core.stylesheets import stylesheet

    css = stylesheet("boards/starligned").replace(":host", "body") + stylesheet("page_layout")
    page.set_viewport_size({"width": 1040, "height": 800})
    for seed in (1, 2, 3):
        session = GameSession(game="starligned", players=4, seed=seed, teacher=True)   # every hand face up
        page.set_content(f'<html lang="{lang}"><head><meta charset="utf-8"><style>{css}</style></head>'
                         f'<body style="width: 1000px">{starligned_html(session, lang)}</body></html>')
        assert page.locator(".sl-card .cid").count() >= 24
        assert page.evaluate(CARDS_OVERFLOWING_JS) == [], (seed, lang)


def test_a_full_row_stays_on_one_line(page: Page):
    """A row's cards are one line, as on the table (which cards are neighbours, where half-moons meet,
    is the game): ten cards at a seat's width wrapped the last ones onto a second line under the first.
    A row wider than its box scrolls sideways."""
    from explorer.boards.starligned import starligned_html
    from explorer.core.session import GameSession
    from explorer.core.stylesheets import stylesheet

    css = stylesheet("boards/starligned").replace(":host", "body") + stylesheet("page_layout")
    session = GameSession(game="starligned", players=2, seed=1)
    session.autoplay("random")
    session.goto(len(session.log))
    for width in (640, 370):
        page.set_viewport_size({"width": width + 40, "height": 900})
        page.set_content(f'<html lang="en"><head><meta charset="utf-8"><style>{css}</style></head>'
                         f'<body style="width: {width}px">{starligned_html(session, "en")}</body></html>')
        rows = page.evaluate("""() => [...document.querySelectorAll('.sl-row')].map((row) => ({
            cards: row.querySelectorAll('.sl-card').length,
            bottoms: new Set([...row.children].map((c) => Math.round(c.getBoundingClientRect().bottom))).size,
            scrolls: row.scrollWidth > row.clientWidth}))""")
        assert rows and max(row["cards"] for row in rows) >= 9, rows
        assert all(row["bottoms"] == 1 for row in rows), (width, rows)
        assert any(row["scrolls"] for row in rows), (width, rows)      # (wider than the box: it scrolls)
