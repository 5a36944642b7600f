"""The Stellar board: drawn from observations only, legal slots from the rules, swapped in by the app."""

import random
import re


from explorer.core.session import GameSession
from explorer.boards.stellar import StellarBoard, stellar_html
from tests.helpers.board_html import parse



def played(steps: int, seed: int = 4) -> GameSession:
    session = GameSession(game="stellar", players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        spec, state = session.spec, session.state
        seat = spec.to_move(state)[0]
        session.play(seat, rng.choice(spec.legal_actions(state, seat)))
    return session


def section(html: str, css_class: str) -> str:
    match = re.search(rf'<div class="[^"]*\b{css_class}\b[^"]*">(.*?)</div>', html, re.S)
    return match.group(1) if match else ""


def test_board_shows_the_row_both_telescopes_and_notebooks():
    session = played(12)
    html = StellarBoard(session=session).html()
    view = session.observation(None)
    for slot, card in view["row"].items():
        if card:
            assert f'data-card="{card}"' in section(html, f"row-{slot}") or card in html
    for seat in range(2):
        for slot, card in view["telescopes"][seat].items():
            if isinstance(card, str):
                assert f'data-card="{card}"' in html
    assert "Step 12 / 12" in html


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other():
    session = played(10)
    session.viewing_seat = 0
    html = StellarBoard(session=session).html()
    mine = session.observation(0)["hands"][0]["cards"]
    for card in mine:
        assert f'data-card="{card}"' in section(html, "hand-seat-0")
    other = section(html, "hand-seat-1")
    hand = session.observation(0)["hands"][1]
    # (only what Player 1 saw Player 2 take from the row is named: the test above)
    assert other.count("data-card") == len(hand["known"]) < hand["count"] and "face down" in other


def test_slots_lit_for_a_chosen_card_are_the_rules_legal_slots():
    session = GameSession(game="stellar", players=2, seed=4)
    spec = session.spec
    rng = random.Random(0)
    while True:      # play on until a telescope play is possible
        seat = spec.to_move(session.state)[0]
        moves = [spec.encode_action(a) for a in spec.legal_actions(session.state, seat)]
        telescope = [m for m in moves if m.get("type") == "telescope" and not m.get("face_down")]
        if telescope:
            break
        session.play(seat, rng.choice(spec.legal_actions(session.state, seat)))
    chosen = telescope[0]
    session.selected_action = chosen
    html = stellar_html(session)
    lit = set(re.findall(r'class="t-slot slot-([a-z]+-\d) legal"', html))
    assert lit == {m["slot"] for m in telescope if m["card"] == chosen["card"]}


def test_the_app_swaps_in_the_stellar_board_when_the_game_changes():
    from explorer.pages.app import create_app

    app = create_app().explorer
    app.session.game = "stellar"
    assert isinstance(app.board, StellarBoard)
    moves = len(app.session.log)
    assert moves and f"Step 0 / {moves}" in app.board.html()          # played through, at the deal
    app.session.goto(1)
    assert f"Step 1 / {moves}" in app.board.html()


def test_stellar_plots_show_the_cards_coming_out_of_the_deck_and_no_end_card():
    from explorer.plots.live import LivePlots

    session = played(20)
    plots = LivePlots(session=session)
    cards = [card for card in plots.sent["draws"]["columns"]["card"] if card]
    refilled = [card for step in range(1, 21) for event in session.spec.events(session.state_at(step))
                if event.kind in ("refill", "second") for card in event.cards]
    assert cards and sorted(cards) == sorted(refilled)
    assert plots.sent["end_card"] is None          # (no end card: no frame)


def test_notebook_stacks_show_their_run_from_the_rules_scoring():
    session = played(40)
    html = stellar_html(session)
    for seat in range(2):
        for category in session.spec.score_breakdown(session.state)[seat]["categories"]:
            if "run" in category:
                kind = category["category"].lower().replace(" ", "_")
                stack = parse(html).one(f"notebook-seat-{seat}").one(f"stack-{kind}")
                assert stack.one("stack-run").text == f'run {category["run"]} × {category["stars"]}★ = {category["points"]}'


def test_the_cards_everyone_saw_a_seat_take_from_the_row_show_face_up_in_its_hand():
    """What every seat saw the other take from the row is no secret (the rules' view lists it as the
    hand's ``known``): it showed as a card back all the same, "3 face down" just after the take (an
    outside tester). Those cards show face up, the rest face down, and the note says which is which."""
    session = GameSession(game="stellar", players=2, seed=4)
    rng = random.Random(4)
    while True:
        hand = session.observation(0)["hands"][1]
        if hand["known"] and hand["count"] > len(hand["known"]):
            break
        spec, state = session.spec, session.state
        seat = spec.to_move(state)[0]
        session.play(seat, rng.choice(spec.legal_actions(state, seat)))
    session.viewing_seat = 0
    other = section(StellarBoard(session=session).html(), "hand-seat-1")
    known = hand["known"]
    for card in set(known):
        assert other.count(f'data-card="{card}"') == known.count(card)
    assert other.count("data-card=") == len(known)           # (the others, face down: no card named)
    assert f"{hand['count'] - len(known)} face down · {len(known)} seen taken from the row" in other
