"""Jump Gate in the dashboard, in real Chromium: choose the game, seat two people, play a few turns by clicking.

Both seats are played by a person and the teacher acts for whoever is to move, so every action is a
click on the page; the page is checked against the server's own session after each one.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import (LOAD_TIMEOUT, button_label, new_game, open_app, select, shot, switch_game, wait_for_played,
                                         wait_until)

#: The quick tier clicks through Stellar's board (test_browser_stellar.py) and draws this board in every
#: model test of tests/explorer/boards/; this game's clicks in a browser are in the slow tier.
pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Which action to click when several kinds are legal: the ones that change the table first.
PREFERENCE = ("jump", "scan", "mark", "harvest", "land_claim", "take_marked", "claim_pick", "fly", "research",
              "discard", "draw", "pass")


def preferred(spec, actions, done: set[str]):
    """An action of a kind not yet played if there is one (never a marker-less mark), else the first by PREFERENCE."""
    def rank(action):
        data = spec.encode_action(action)
        kind = data["type"]
        return (kind in done, data.get("slot", 0) is None, PREFERENCE.index(kind))
    return min(actions, key=rank)



def test_play_a_few_turns_of_jump_gate_by_clicking(page: Page, served):
    app = open_app(page, served)
    session = app.session
    switch_game(page, session, "Jump Gate", "jump_gate", players=2)
    expect(page.locator(".jg-board .step-counter")).to_contain_text(re.compile(r"Step 0 / [1-9]"))  # played through
    expect(page.locator(".jg-planet")).to_have_count(6)
    expect(page.locator(".jg-gate .jg-ship")).to_have_count(2)

    expect(page.locator(".played-by-2")).to_have_count(0)          # the "Played by" selectors are redrawn
    new_game(page, session, human=True)
    expect(page.locator(".played-by-0 select")).to_have_value("a person")
    page.locator(".played-by-1 select").select_option(label="a person")
    wait_until(lambda: session.controller(1) == "human", what="Player 2 played by a person")
    page.locator(".view-as select").select_option(label="Teacher (everything)")
    wait_until(lambda: session.viewing_seat is None, what="the teacher's view")

    spec = session.spec
    done: set[str] = set()
    seats_played: set[int] = set()
    for _ in range(10):
        state = session.state
        if spec.is_over(state):
            break
        seat = spec.to_move(state)[0]
        action = preferred(spec, spec.legal_actions(state, seat), done)
        data = spec.encode_action(action)
        length = len(session.log)
        expect(page.locator(".picker-status")).to_contain_text(f"Player {seat + 1}, your move")
        select(page, action)
        expect(page.locator(".jg-status .preview-line")).to_contain_text(button_label(action))
        if data["type"] == "jump":
            # the preview lights up the planet to jump to and the card to discard
            expect(page.locator(f".jg-planet.planet-{data['planet']}.target")).to_be_visible()
            expect(page.locator(f".hand-seat-{seat} .jg-navcomp.selected")).to_have_attribute("data-card", data["card"])
            if "jump" not in done:
                shot(page, "jump-gate-jump-selected")
        page.locator(".confirm-action button").click()
        wait_for_played(page, session, length, f"{action} to be played", counter=".jg-board .step-counter")
        view = session.observation(None)
        if data["type"] == "jump":
            expect(page.locator(f".jg-planet.planet-{data['planet']} .jg-ship.ship-seat-{seat}")).to_be_visible()
        if data["type"] == "scan":
            where = view["ships"][seat]
            face_down = sum(1 for slot in next(p for p in view["ring"] if p["planet"] == where)["resources"]
                            if slot and not slot["face_up"])
            expect(page.locator(f".jg-planet.planet-{where} .jg-resource.face-down")).to_have_count(face_down)
        if data["type"] == "mark" and data["slot"] is not None:
            expect(page.locator(f".jg-planet .jg-resource.slot-{data['slot']} .marker-seat-{seat}")).to_have_count(1)
        expect(page.locator(".jg-gate .jg-ship")).to_have_count(view["ships"].count("gate"))
        done.add(data["type"])
        seats_played.add(seat)
    assert {"jump"} < done, done
    assert seats_played == {0, 1}
    shot(page, "jump-gate-teacher")

    # Player 1's view: their own hand and hidden resources, Player 2's face down
    page.locator(".view-as select").select_option(label="Player 1")
    wait_until(lambda: session.viewing_seat == 0, what="Player 1's view")
    expect(page.locator(".jg-status .viewer")).to_contain_text("Seen by Player 1")
    own = session.observation(0)
    expect(page.locator(".hand-seat-0 .jg-navcomp[data-card]")).to_have_count(len(own["hands"][0]["cards"]))
    expect(page.locator(".hand-seat-1 [data-card]")).to_have_count(0)
    expect(page.locator(".hand-seat-1 .jg-navcomp.back")).to_have_count(own["hands"][1]["count"])
    expect(page.locator(".hidden-seat-0 .jg-resource[data-card]")).to_have_count(len(own["hidden"][0]["cards"]))
    expect(page.locator(".hidden-seat-1 [data-card]")).to_have_count(0)
    expect(page.get_by_text("provenance: assumed")).to_be_visible()
    shot(page, "jump-gate-player-1")

    # a whole bot game, then a click in the event log jumps to a step with claims and markers
    new_game(page, session, human=False)
    assert len(session.log) > 20
    step = next(s for s in range(len(session.log) + 1)
                if max(session.state_at(s).claimed) >= 0 and sum(session.state_at(s).black_hole) > 0)
    expect(page.locator(".jg-board .step-counter")).to_have_text(f"Step 0 / {len(session.log)}")
    expect(page.locator(".event-log .step")).to_have_count(len(session.log) + 1)
    expect(page.locator('.event-log .step.current[data-step="0"]')).to_be_visible()    # (the log drawn, at its cursor)
    page.locator(f'.event-log .step[data-step="{step}"] .step-no').click()   # its number: the middle of a step may be a rule link, which opens the rules
    wait_until(lambda: session.cursor == step, what=f"the jump to step {step}")
    expect(page.locator(".jg-board .step-counter")).to_have_text(f"Step {step} / {len(session.log)}")
    view = session.observation(0)
    claimed = [p["planet"] for p in view["ring"] if p["claimed_by"] is not None]
    expect(page.locator(".jg-planet.claimed")).to_have_count(len(claimed))
    expect(page.locator(".jg-black-hole .bh-marker.filled")).to_have_count(view["black_hole"]["total"])
    page.set_viewport_size({"width": 1600, "height": 1280})
    shot(page, "jump-gate-claims")            # docs/img/jump_gate.png is a copy of this one


#: The planets one of whose parts reaches past the planet's right edge.
PLANETS_OVERFLOWING_JS = """() => [...document.querySelectorAll('.jg-planet')].filter((planet) =>
  [...planet.querySelectorAll('*')].some((el) => el.getBoundingClientRect().right > planet.getBoundingClientRect().right + 1))
  .map((planet) => planet.dataset.planet)"""


def test_a_long_japanese_planet_name_keeps_the_planets_codes_inside_it(page: Page):
    """A planet's name stays whole in Japanese (ジョヴェット, not ジョヴェ / ット, as the page breaks
    between phrases); where it leaves no room, its codes go below it, not past the planet's edge (a
    1,000-pixel board pushed ジョヴェット's land code out)."""
    from explorer.boards.jump_gate import jump_gate_html
    from explorer.core.session import GameSession
    from explorer.core.stylesheets import stylesheet

    board = jump_gate_html(GameSession(game="jump_gate", players=2, seed=1), "ja")
    assert "ジョヴェット" in board
    css = stylesheet("boards/jump_gate").replace(":host", "body") + stylesheet("page_layout")
    for width in (1000, 900, 760):
        page.set_viewport_size({"width": width + 40, "height": 700})
        page.set_content(f'<html lang="ja"><head><meta charset="utf-8"><style>{css}</style></head>'
                         f'<body style="width: {width}px">{board}</body></html>')
        assert page.evaluate(PLANETS_OVERFLOWING_JS) == [], width


def test_on_the_explorer_s_board_a_planet_s_name_and_codes_share_a_line(page: Page, served):
    """An outside review: on four players' board in Japanese, フェンウィック's codes had a line of
    their own (the name, seven letters, took the room). A name of more than six letters is set tighter."""
    url, _ = served
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(url + "?game=jump_gate&players=4&lang=ja")
    planets = page.locator(".jg-planet")
    expect(planets).to_have_count(8, timeout=LOAD_TIMEOUT)
    expect(page.locator(".jg-planet .planet-name.long")).to_have_text(["フェンウィック"])
    for number in range(8):
        planet = planets.nth(number)
        name, codes = planet.locator(".planet-name").bounding_box(), planet.locator(".jg-codes").bounding_box()
        assert codes["y"] < name["y"] + name["height"] - 2, planet.get_attribute("data-planet")
