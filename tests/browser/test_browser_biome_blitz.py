"""Biome Blitz in the dashboard, in real Chromium: choose the game, seat two people, play a few turns by clicking.

Both seats are played by a person and the teacher acts for whoever is to move, so every action is a
click on the page: a forage with two picks (a face-up card, refilled at once, then a second card),
then the other seat discovers an animal or an ecosystem as soon as it can pay for one (foraging
until then), or competes. The page is checked against the server's own session after each click.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers.explorer_page import (button_label, new_game, open_app, select, shot, switch_game, wait_for_played,
                                         wait_until)

#: The quick tier clicks through Stellar's board (test_browser_stellar.py) and draws this board in every
#: model test of tests/explorer/boards/; this game's clicks in a browser are in the slow tier.
pytestmark = [pytest.mark.browser, pytest.mark.slow]

def choose(spec, state, seat, forager: int | None):
    """The forager takes a face-up card that is not a wild (a wild ends the forage), then another
    card; the other seat discovers when it can pay, else competes, else forages the same way."""
    actions = spec.legal_actions(state, seat)
    kinds = {}
    for action in actions:
        kinds.setdefault(spec.encode_action(action)["type"], []).append(action)
    if "forage_pick" in kinds:
        return kinds["forage_pick"][0]
    if seat != forager:
        for kind in ("discover", "compete"):
            if kind in kinds:
                return kinds[kind][0]
    market = state.markets[0]
    return next(a for a in kinds["forage"] if a.slot and market[a.slot - 1] != 3)



def test_play_a_few_turns_of_biome_blitz_by_clicking(page: Page, served):
    app = open_app(page, served)
    session = app.session
    switch_game(page, session, "Biome Blitz", "biome_blitz", players=2)
    expect(page.locator(".bb-board .step-counter")).to_contain_text(re.compile(r"Step 0 / [1-9]"))  # played through
    expect(page.locator(".bb-seat")).to_have_count(2)
    for deck in ("resource", "animal", "ecosystem"):
        expect(page.locator(f".deck-{deck} .bb-slot")).to_have_count(3)

    new_game(page, session, human=True)
    for seat in (0, 1):
        page.locator(f".played-by-{seat} select").select_option(label="a person")
        wait_until(lambda: session.controller(seat) == "human", what=f"Player {seat + 1} played by a person")
    page.locator(".view-as select").select_option(label="Teacher (everything)")
    wait_until(lambda: session.viewing_seat is None, what="the teacher's view")
    expect(page.locator(".bb-status .viewer")).to_contain_text("Teacher view")

    spec = session.spec
    forager = session.state.seat
    played: list[tuple[int, str]] = []
    for _ in range(12):
        state = session.state
        seat = spec.to_move(state)[0]
        action = choose(spec, state, seat, forager)
        data = spec.encode_action(action)
        expect(page.locator(".picker-status")).to_contain_text(f"Player {seat + 1}, your move")
        length = len(session.log)
        select(page, action)
        expect(page.locator(".bb-status .preview-line")).to_contain_text(button_label(action))
        if data["type"] == "discover":
            # the preview lights up the market card and the hand cards paid
            expect(page.locator(f".deck-{data['deck']} .bb-slot.slot-{data['slot']}.target")).to_be_visible()
            expect(page.locator(f".hand-seat-{seat} .bb-resource.selected")).to_have_count(len(data["pay"]))
            shot(page, "biome-blitz-discover-selected")
        page.locator(".confirm-action button").click()
        wait_for_played(page, session, length, f"{action} to be played", counter=".bb-board .step-counter")
        view = session.observation(None)
        after = session.state
        # the table follows: the resource market as the engine has it, the hand sizes, the points
        market = view["decks"]["resource"]["market"]
        for number, card in enumerate(market, start=1):
            expect(page.locator(f".deck-resource .slot-{number} .bb-resource")).to_have_attribute("data-card", card)
        for hand_seat in (0, 1):
            expect(page.locator(f".hand-seat-{hand_seat} .bb-resource")).to_have_count(len(after.hands[hand_seat]))
            expect(page.locator(f".bb-seat.seat-{hand_seat} .bb-points")).to_have_attribute("data-points",
                                                                                          str(view["points"][hand_seat]))
        if data["type"] == "forage":
            expect(page.locator(".bb-pending.pending-forage")).to_contain_text(f"First pick: {view['pending']['took']}")
            expect(page.locator(".bb-phase")).to_contain_text(f"Player {seat + 1} took")
        if data["type"] == "discover":
            zone = f".team-seat-{seat} .bb-animal" if data["deck"] == "animal" else f".ecos-seat-{seat} .bb-ecosystem"
            card = (view["teams"][seat][-1]["id"] if data["deck"] == "animal" else view["ecosystems"][seat][-1])
            expect(page.locator(f'{zone}[data-card="{card}"]')).to_have_count(1)
        if data["type"] == "compete":
            expect(page.locator(".bb-compete .bb-die.attack")).to_have_text(str(view["last_compete"]["attack_roll"]))
        played.append((seat, data["type"]))
        if any(kind in ("discover", "compete") and who != forager for who, kind in played):
            break
    assert (forager, "forage") in played and (forager, "forage_pick") in played, played
    assert any(kind in ("discover", "compete") and who != forager for who, kind in played), played
    shot(page, "biome-blitz-teacher")

    # Player 1's view: their own hand, Player 2's face down
    page.locator(".view-as select").select_option(label="Player 1")
    wait_until(lambda: session.viewing_seat == 0, what="Player 1's view")
    expect(page.locator(".bb-status .viewer")).to_contain_text("Seen by Player 1")
    own = session.observation(0)
    expect(page.locator(".hand-seat-0 .bb-resource[data-card]")).to_have_count(len(own["hands"][0]["cards"]))
    expect(page.locator(".hand-seat-1 [data-card]")).to_have_count(0)
    expect(page.locator(".hand-seat-1 .bb-back")).to_have_count(own["hands"][1]["count"])
    expect(page.get_by_text("provenance: assumed", exact=False)).to_be_visible()

    # a whole bot game, then a click in the event log jumps to a step with a compete and an ecosystem bonus
    page.locator(".view-as select").select_option(label="Teacher (everything)")
    wait_until(lambda: session.viewing_seat is None, what="the teacher's view")
    new_game(page, session, human=False, timeout=30)
    assert len(session.log) > 20
    steps = [s for s in range(len(session.log) + 1)
             if session.state_at(s).last_compete and session.state_at(s).phase == "action"] or [len(session.log)]

    def richness(step: int) -> tuple[int, int]:
        """(animals with an ecosystem bonus, animals) on the table at ``step``: the screenshot shows the most."""
        teams = session.observation(None, step)["teams"]
        return sum(bool(a["bonus"]["power"]) for team in teams for a in team), sum(map(len, teams))
    step = max(steps, key=richness)
    for attempt in range(3):
        # a click while the log scrolls back to its cursor (it does as it redraws) can miss: click again
        page.locator(f'.event-log .step[data-step="{step}"] .step-no').click()   # its number: the middle of a step may be a rule link, which opens the rules
        try:
            wait_until(lambda: session.cursor == step, timeout=3, what=f"the jump to step {step}")
            break
        except AssertionError:
            if attempt == 2:
                raise
    expect(page.locator(".bb-board .step-counter")).to_have_text(f"Step {step} / {len(session.log)}")
    last = session.observation(None)["last_compete"]
    if last:                                   # the bots competed (they usually do)
        expect(page.locator(".bb-compete .bb-die.attack")).to_have_text(str(last["attack_roll"]))
        expect(page.locator(".bb-compete .bb-die.defence")).to_have_text(str(last["defence_roll"]))
        expect(page.locator(".bb-compete .bb-winner")).to_contain_text(f"Player {last['winner'] + 1} wins")
    page.set_viewport_size({"width": 1600, "height": 1280})
    shot(page, "biome-blitz-table")            # docs/img/biome_blitz.png is a copy of this one


#: Per market slot holding a card: the card's height and the slot's.
MARKET_CARDS_JS = """() => [...document.querySelectorAll('.bb-market .bb-slot:not(.empty)')].map((slot) =>
  [slot.lastElementChild.getBoundingClientRect().height, slot.getBoundingClientRect().height])"""


@pytest.mark.parametrize("width", [1000, 370])
def test_the_markets_cards_fill_their_rows(page: Page, width):
    """An outside review: an empty green band lay under the resource market (its 44-pixel cards in a
    row as tall as the deck's pile beside it), and under the ecosystems. Each market's cards are as tall
    as their row, on a laptop and on a phone."""
    from explorer.boards.biome_blitz import biome_blitz_html
    from explorer.core.session import GameSession
    from explorer.core.stylesheets import stylesheet

    board = biome_blitz_html(GameSession(game="biome_blitz", players=2, seed=1))
    css = stylesheet("boards/biome_blitz").replace(":host", "body") + stylesheet("page_layout")
    page.set_viewport_size({"width": width + 20, "height": 900})
    page.set_content(f'<html><head><meta charset="utf-8"><style>{css}</style></head>'
                     f'<body style="width: {width}px">{board}</body></html>')
    heights = page.evaluate(MARKET_CARDS_JS)
    assert len(heights) == 9 and all(card >= slot - 1 for card, slot in heights), heights
