"""The Jump Gate board and the explorer around it, without a browser.

The board is read back with a small HTML parser and compared with the rules' own observation and,
for what must stay hidden, with the real cards in ``session.state``. Every game is seeded.
"""

from __future__ import annotations

import json
import random

import pytest

from explorer.boards.jump_gate import JumpGateBoard, jump_gate_html
from explorer.core.session import GameSession
from explorer.components.setup_editor import SetupEditor
from tests.helpers import strings
from tests.helpers.board_html import Node, all_data_cards, parse

SEED = 5


def board(session: GameSession) -> Node:
    return parse(jump_gate_html(session))


@pytest.fixture(scope="module")
def finished() -> GameSession:
    """A whole 3-player greedy game (claims, markers, the black hole), cursor at the end: seed 8, where
    a planet is claimed with another player's marker on it (the offer to take the marked resource)."""
    session = GameSession(game="jump_gate", players=3, seed=8)
    session.autoplay("greedy")
    return session


def step_where(session: GameSession, test) -> int:
    """The first step whose state passes ``test``."""
    return next(step for step in range(len(session.log) + 1) if test(session.state_at(step)))


# ------------------------------------------------------------------ every zone


def test_the_board_draws_every_zone_of_the_seats_observation(finished):
    session = finished
    # a step with a claimed planet, a marker on a resource and a black-hole marker
    session.goto(step_where(session, lambda s: max(s.claimed) >= 0 and any(m >= 0 for row in s.markers for m in row)
                            and sum(s.black_hole) > 0))
    session.viewing_seat = 1
    view = session.observation(1)
    page = board(session)
    for planet in view["ring"]:
        drawn = page.find("jg-planet", f"planet-{planet['planet']}")
        for shape in ("jump", "scan", "land"):
            assert drawn.find("jg-code", f"jg-code-{shape}").all_text() == str(planet[shape])
        slots = [drawn.find("jg-resource", f"slot-{n}") for n in range(1, 5)]
        for slot, seen in zip(slots, planet["resources"]):
            if seen is None:
                assert "empty" in slot.classes
            elif not seen["face_up"]:
                assert "face-down" in slot.classes and "data-card" not in slot.attrs
            else:
                # (the planet in focus: its slots are clicked as wholes, to mark or harvest them)
                if planet["planet"] == view["focus"]:
                    assert slot.attrs["data-face"] == seen["card"] and "data-whole" in slot.attrs
                else:
                    assert slot.attrs["data-card"] == seen["card"]
                assert f"res-{seen['card'].removesuffix('-bh')}" in slot.classes
                assert bool(slot.find_all("jg-bh-icon")) == seen["card"].endswith("-bh")
            owner = seen and seen["marker"]
            assert [m.classes[1] for m in slot.find_all("jg-marker")] == ([f"marker-seat-{owner}"] if owner is not None else [])
        assert ("claimed" in drawn.classes) == (planet["claimed_by"] is not None)
        if planet["claimed_by"] is not None:
            assert f"claimed-by-{planet['claimed_by']}" in drawn.classes
        assert [s.classes[1] for s in drawn.find_all("jg-ship")] == [f"ship-seat-{s}" for s in planet["ships"]]
    assert len(page.find_all("jg-planet")) == len(view["ring"])
    gate = page.find("jg-gate")
    assert len(gate.find_all("jg-ship")) == view["ships"].count("gate")
    hole = page.find("jg-black-hole")
    assert hole.attrs["data-total"] == str(view["black_hole"]["total"])
    assert len(hole.find_all("bh-marker", "filled")) == view["black_hole"]["total"]
    assert len(hole.find_all("bh-marker")) == view["black_hole"]["limit"] == 7
    for seat in range(view["players"]):
        panel = page.find("seat", f"seat-{seat}")
        assert panel.find("jg-gained", f"gained-seat-{seat}").cards("jg-resource") == view["gained"][seat]
        assert panel.find("markers-left").all_text().startswith(f"{view['markers_left'][seat]} marker")
        assert f"{view['scores'][seat]} pts" in panel.all_text()
        assert len(panel.find("jg-hand").find_all("jg-navcomp")) == view["hands"][seat]["count"]
    status = page.find("jg-status").all_text()
    assert f"Round {view['round'] + 1}" in status and f"Step {session.cursor} / {len(session.log)}" in status
    from explorer.boards.jump_gate import ACTION_UNDER_WAY
    if view["phase"] in ACTION_UNDER_WAY:       # (the action under way is not counted as left)
        assert "under way" in status
    else:
        assert f"{view['actions_left']} action" in status
    assert "provenance: assumed" in page.find("provenance").all_text()


def test_a_navcomp_card_shows_its_codes_in_their_shapes():
    session = GameSession(game="jump_gate", players=2, seed=SEED)
    session.viewing_seat = 0
    hand = board(session).find("jg-hand", "hand-seat-0")
    for card, drawn in zip(session.observation(0)["hands"][0]["cards"], hand.find_all("jg-navcomp")):
        assert drawn.attrs["data-card"] == card
        shapes = [(code.classes[1], code.all_text()) for code in drawn.find_all("jg-code")]
        letters = {"jg-code-jump": "J", "jg-code-scan": "S", "jg-code-land": "L"}
        assert "-".join(letters[shape] + code for shape, code in shapes) == card
        # ... and its name, as the moves name it ("jump to Kestrel with J5-S1"), in small print below them
        assert drawn.find("jg-card-code").all_text() == card


@pytest.mark.parametrize("phase, words", [("mark", "chooses whether to put a marker"),
                                          ("claim_take", "decides whether to take the marked resource"),
                                          ("research", "researches")])
def test_the_status_line_says_who_decides_what(finished, phase, words):
    session = finished
    step = step_where(session, lambda s: s.phase == phase)
    session.goto(step)
    mover = session.spec.to_move(session.state)[0]
    assert f"Player {mover + 1} {words}" in board(session).find("jg-phase").all_text()


# ------------------------------------------------------------------ who sees what


@pytest.mark.parametrize("viewer", [0, 2])
def test_a_seat_sees_its_own_hand_and_hidden_resources_and_no_other_secret(finished, viewer):
    session = finished
    session.viewing_seat = viewer
    names = session.spec.comps
    checked_face_down = secrets_checked = 0
    for step in range(0, len(session.log), 23):        # the game is over only at the last step
        session.goto(step)
        state = session.state
        page = board(session)
        nav = lambda kinds: sorted(names.navcomp_names[k] for k in kinds)  # noqa: E731
        res = lambda kinds: sorted(names.resource_names[k] for k in kinds)  # noqa: E731
        assert sorted(page.find("jg-hand", f"hand-seat-{viewer}").cards("jg-navcomp")) == nav(state.hands[viewer])
        # ... and again above the ring, where its player reads the codes the moves name while choosing
        own = page.find("jg-own-hand")
        assert own.attrs["data-seat"] == str(viewer) and sorted(own.cards("jg-navcomp")) == nav(state.hands[viewer])
        assert jump_gate_html(session).index("jg-own-hand") < jump_gate_html(session).index("jg-ring")
        assert sorted(page.find("jg-hidden", f"hidden-seat-{viewer}").cards("jg-resource")) == res(state.hidden[viewer])
        seen = strings(session.observation(viewer))
        for seat in range(state.players):
            if seat == viewer:
                continue
            hand, hidden = page.find("jg-hand", f"hand-seat-{seat}"), page.find("jg-hidden", f"hidden-seat-{seat}")
            assert all_data_cards(hand) == [] and len(hand.find_all("jg-navcomp", "back")) == len(state.hands[seat])
            assert all_data_cards(hidden) == [] and len(hidden.find_all("face-down")) == len(state.hidden[seat])
            # another hand's cards appear nowhere, unless the viewer saw them some other way (the discards)
            secret = set(nav(state.hands[seat])) - seen
            text = jump_gate_html(session)
            assert not [card for card in secret if card in text]
            secrets_checked += len(secret)
        # the ring shows exactly the face-up resources: a face-down one is a back with no name
        for pos, planet in enumerate(page.find_all("jg-planet")):
            for slot, kind, up in zip(planet.find_all("jg-resource"), state.resources[pos], state.face_up[pos]):
                if kind >= 0 and not up:
                    checked_face_down += 1
                    assert "face-down" in slot.classes and "data-card" not in slot.attrs
                    assert names.resource_names[kind] not in slot.attrs.get("title", "") + slot.all_text()
        assert set(all_data_cards(page)) <= seen
    assert checked_face_down and secrets_checked


def test_the_teacher_sees_every_hand_and_hidden_resource_but_no_face_down_resource(finished):
    session = finished
    session.viewing_seat = None
    session.goto(10)
    state, names = session.state, session.spec.comps
    page = board(session)
    assert not page.find_all("jg-own-hand")         # (the teacher has no hand of their own)
    for seat in range(state.players):
        assert sorted(page.find("jg-hand", f"hand-seat-{seat}").cards("jg-navcomp")) == \
            sorted(names.navcomp_names[k] for k in state.hands[seat])
        assert sorted(page.find("jg-hidden", f"hidden-seat-{seat}").cards("jg-resource")) == \
            sorted(names.resource_names[k] for k in state.hidden[seat])
    face_down = sum(row.count(False) for row in state.face_up)
    assert len(page.find("jg-ring").find_all("jg-resource", "face-down")) == face_down > 0


def test_at_the_end_every_hidden_resource_is_shown_to_everyone(finished):
    session = finished
    session.goto(len(session.log))
    session.viewing_seat = 0
    assert session.spec.is_over(session.state)
    page = board(session)
    for seat in range(session.players):
        assert sorted(page.find("jg-hidden", f"hidden-seat-{seat}").cards("jg-resource")) == \
            sorted(session.spec.comps.resource_names[k] for k in session.state.hidden[seat])
    assert "Game over" in page.find("jg-phase").all_text()


def test_a_selected_jump_lights_its_planet_and_card_and_changes_nothing():
    session = GameSession(game="jump_gate", players=2, seed=SEED)
    seat = session.spec.to_move(session.state)[0]
    session.viewing_seat = seat
    jump = next(a for a in session.spec.legal_actions(session.state, seat) if type(a).__name__ == "Jump")
    state = session.state
    session.selected_action = session.spec.encode_action(jump)
    page = board(session)
    assert [p.attrs["data-planet"] for p in page.find_all("jg-planet", "target")] == [jump.planet]
    assert page.find("jg-hand", f"hand-seat-{seat}").cards("jg-navcomp", "selected") == [jump.card]
    assert session.spec.action_label(jump) in page.find("preview-line").all_text()      # the planet by its name
    assert session.state is state and session.log == []


# ------------------------------------------------------------------ the explorer around the board


def test_the_app_swaps_in_the_jump_gate_board_and_its_action_titles():
    from explorer.pages.app import create_app

    app = create_app().explorer
    session = app.session
    session.game = "jump_gate"
    assert isinstance(app.board, JumpGateBoard) and len(app.board_slot.objects) == 1
    assert f"Step 0 / {len(session.log)}" in app.board.html() and session.log      # played through, at the deal
    seat = session.spec.to_move(session.state)[0]
    app.picker.take_seat_here(seat)
    titles = [group["title"] for group in app.picker.buttons.groups]
    assert "Jump (one card matching the blue square)" in titles
    app.picker.click(app.picker.labels().index(next(label for label in app.picker.labels() if label.startswith("jump"))))
    assert app.picker.confirm()
    assert f"Step {session.cursor} / {len(session.log)}" in app.board.html() and session.cursor >= 1
    assert type(session.log[0][1]).__name__ == "Jump"


def test_the_plots_show_jump_gate_scores_and_the_resources_revealed(finished):
    from explorer.core.palette import BIOME_COLOURS
    from explorer.plots.live import LivePlots

    session = finished
    session.viewing_seat = None
    session.goto(60)
    plots = LivePlots(session=session)
    scores = plots.sent["scores"]
    for label, columns in scores["players"].items():
        seat = scores["seats"][label]
        assert columns["score"] == [session.spec.scores(session.state_at(step))[seat] for step in range(len(session.log) + 1)]
    draws = plots.sent["draws"]["columns"]
    cards = [card for card in draws["card"] if card]
    out_of_decks = [card for step in range(61) for event in session.spec.events(session.state_at(step))
                    if event.kind in ("setup_reveal", "reveal", "draw") for card in event.cards]     # resources and NavComp cards
    assert cards and sorted(cards) == sorted(out_of_decks)
    revealed = [card for step in range(61) for event in session.spec.events(session.state_at(step))
                if event.kind in ("setup_reveal", "reveal") for card in event.cards]
    colours = {card: colour for card, colour in zip(draws["card"], draws["colour"]) if card}
    assert all(colours[card] == BIOME_COLOURS[card.removesuffix("-bh")][0] for card in revealed)
    groups = plots.sent["by_group"]["columns"]["group_name"]
    assert "NavComp card" in groups and "Gem (red)" in groups
    assert plots.sent["end_card"] is None          # (no end card: no frame)
    session.viewing_seat = 1                  # reveals are public: a seat sees them, and its own draws
    shown = [c for c in plots.sent["draws"]["columns"]["card"] if c]
    drawn = {seat: [card for step in range(61) for event in session.spec.events(session.state_at(step))
                    if event.kind == "draw" and event.seat == seat for card in event.cards] for seat in (0, 1)}
    named = [c for c in shown if c in set(out_of_decks)]
    assert sorted(named) == sorted(revealed + drawn[1])
    hidden = [c for c in shown if c not in set(out_of_decks)]        # the other seat's draws: one unnamed mark each
    others = [event for step in range(61) for event in session.spec.events(session.state_at(step))
              if event.kind == "draw" and event.seat != 1]                  # (Players 1 and 3)
    assert len(hidden) == len(others) > 0 and len(set(hidden)) == 1 and not set(hidden) & set(drawn[0])


def test_stepping_and_a_new_line_at_a_past_step_work_for_jump_gate():
    session = GameSession(game="jump_gate", players=2, seed=SEED)
    session.autoplay("greedy", then_goto=0)
    line = list(session.log)
    board_view = JumpGateBoard(session=session)
    session.goto(6)
    assert "Step 6 / " in board_view.html()
    seat = session.spec.to_move(session.state)[0]
    other = next(a for a in session.spec.legal_actions(session.state, seat) if (seat, a) != line[6])
    session.play(seat, other)
    assert session.log == line[:6] + [(seat, other)] and len(session.branches) == 1
    assert "Step 7 / 7" in board_view.html()
    session.undo()
    assert session.cursor == 6
    session.switch_branch(0)
    assert session.log == line
    session.goto(len(line))
    assert session.spec.is_over(session.state)


def test_the_setup_editor_starts_a_what_if_line_from_an_edited_jump_gate_position():
    session = GameSession(game="jump_gate", players=2, seed=SEED)
    editor = SetupEditor(session=session)
    ring = json.loads(editor.fields["ring"].widget.value)
    first = ring[0]["planet"]
    ships = json.loads(editor.fields["ships"].widget.value)
    ships[0] = first                                   # what if Player 1's ship were already at the first planet
    editor.fields["ships"].widget.value = json.dumps(ships)
    assert editor.apply(), editor.general_error.object
    assert session.position()["state"]["ships"][0] == first and session.log == []
    page = board(session)
    assert page.find("jg-planet", f"planet-{first}").find_all("jg-ship", "ship-seat-0")
    assert len(page.find("jg-gate").find_all("jg-ship")) == 1
    # a card no component file knows is refused next to the hands, and changes nothing
    before = session.position()
    hands = json.loads(editor.fields["hands"].widget.value)
    hands[1][0] = "J9-S9"
    editor.fields["hands"].widget.value = json.dumps(hands)
    assert not editor.apply()
    assert editor.fields["hands"].error.visible and "J9-S9" in editor.fields["hands"].error.object
    assert session.position() == before


def test_every_player_count_draws_a_ring_with_its_first_and_last_planets_neighbours():
    for players, planets in ((2, 6), (3, 7), (4, 8), (5, 9)):
        session = GameSession(game="jump_gate", players=players, seed=SEED)
        page = board(session)
        ring = page.find("jg-ring")
        assert ring.attrs["data-planets"] == str(planets) and len(ring.find_all("jg-planet")) == planets
        assert ring.find_all("jg-orbit")            # the drawn orbit joins the last planet to the first
        names = [p.find("planet-name").all_text() for p in ring.find_all("jg-planet")]      # as printed: Aurel, not PA
        assert f"{names[-1]} and {names[0]} are neighbours" in page.find("jg-ring-note").all_text()
        rng = random.Random(players)
        for _ in range(30):                         # a few random moves later it still draws
            seat = session.spec.to_move(session.state)[0]
            session.play(seat, rng.choice(session.spec.legal_actions(session.state, seat)))
        assert len(board(session).find_all("seat")) == players


def test_a_spectator_sees_no_hand_of_their_own():
    session = GameSession(game="jump_gate", players=2, seed=SEED, teacher=False)
    page = board(session)
    assert "Spectator" in page.find("viewer").all_text() and not page.find_all("jg-own-hand")
    assert all_data_cards(page.find("jg-hand", "hand-seat-0")) == []
