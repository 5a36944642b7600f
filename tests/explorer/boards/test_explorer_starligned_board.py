"""The Starligned board and the explorer around it, without a browser.

The board is read back with the small HTML parser of the Jump Gate board tests and compared with the
rules' own observation and, for what must stay hidden (other hands, other seats' face-down phase-1
cards), with the real cards in ``session.state``. Every game is seeded.
"""

from __future__ import annotations

import json

import pytest

from explorer.core.session import GameSession
from explorer.components.setup_editor import SetupEditor
from explorer.boards.starligned import StarlignedBoard, starligned_html
from rules.starligned import position as positions
from rules.starligned.state import NONE
from tests.helpers import strings
from tests.helpers.board_html import Node, all_data_cards, parse

SEED = 5


def board(session: GameSession) -> Node:
    return parse(starligned_html(session))


@pytest.fixture(scope="module")
def finished() -> GameSession:
    """A whole 4-player greedy game (Repeat, Exchange, moon cards laid and removed), cursor at the end."""
    session = GameSession(game="starligned", players=4, seed=SEED)
    session.autoplay("greedy")
    return session


def step_where(session: GameSession, test) -> int:
    """The first step whose state passes ``test``."""
    return next(step for step in range(len(session.log) + 1) if test(session.state_at(step)))


def name(state, entry: int) -> str:
    return positions.entry_name(state.cards, entry)


def secrets_of(state, seat: int) -> set[str]:
    """The names a viewer other than ``seat`` may not see: its hand and its face-down phase-1 card."""
    entries = list(state.hands[seat]) + ([state.chosen[seat]] if state.phase == "play" and state.chosen[seat] != NONE else [])
    return {state.cards.ids[e // 2] for e in entries}


# ------------------------------------------------------------------ every zone


def test_the_board_draws_every_zone_of_the_seats_observation(finished):
    session = finished
    # a step with a moon card on a row and a rotated card in some row
    session.goto(step_where(session, lambda s: any(s.moons) and any(e & 1 for row in s.rows for e in row)))
    session.viewing_seat = 1
    view = session.observation(1)
    page = board(session)
    for seat in range(view["players"]):
        panel = page.find("sl-seat", f"seat-{seat}")
        row = panel.find("sl-row", f"row-seat-{seat}")
        drawn = row.find_all("sl-card")
        assert [c.attrs["data-face"] for c in drawn] == [card["card"] for card in view["rows"][seat]]
        for shown, card in zip(drawn, view["rows"][seat]):
            assert f"moon-{card['half_moon']}" in shown.classes
            assert ("rotated" in shown.classes) == card["rotated"]
            assert ("blocked" in shown.classes) == card["blocked"]
            assert shown.find("up").children[0].all_text() == str(card["value"])
            assert shown.find("down").all_text().startswith(f"{card['other_half']['value']} ")
        # a moon card lies over each covered pair, and only there
        assert [p.attrs["data-pair"] for p in row.find_all("sl-pair")] == [" ".join(pair) for pair in view["moons"][seat]]
        for pair in row.find_all("sl-pair"):
            assert pair.find_all("sl-moon-card") and all("blocked" in c.classes for c in pair.find_all("sl-card"))
        hand = panel.find("sl-hand", f"hand-seat-{seat}")
        if seat == 1:
            assert hand.cards("sl-card") == [card["card"] for card in view["hands"][1]["cards"]]
        else:
            assert all_data_cards(hand) == [] and len(hand.find_all("sl-back")) == view["hands"][seat]["count"]
        assert f"{view['scores'][seat]} pts" in panel.find("score").all_text()
        assert f"{len(view['moons'][seat])} moon card" in panel.find("moons").all_text()
        assert ("start" in panel.classes) == (seat == view["start_player"])
        assert ("to-move" in panel.classes) == (seat in view["to_move"])
    assert sum(len(m) for m in view["moons"]) >= 1
    assert f"Moon cards in the supply: {view['moon_supply']}" in page.find("moon-supply").all_text()
    assert f"Start player: Player {view['start_player'] + 1}" in page.find("sl-direction").all_text()
    stage = page.find("sl-stage").all_text()
    assert f"Stage {view['stage'] + 1} of 2" in stage and f"round {view['round'] + 1} of 5" in stage
    assert f"Step {session.cursor} / {len(session.log)}" in page.find("step-counter").all_text()
    assert "provenance: assumed" in page.find("provenance").all_text()


@pytest.mark.parametrize("phase, words", [
    ("repeat", "the owner of {card}, resolves its effect again"),
    ("exchange", "picks the hand card that takes {card}'s place"),
])
def test_another_players_pending_decision_is_named_and_marked(finished, phase, words):
    session = finished
    session.goto(step_where(session, lambda s: s.phase == phase))
    session.viewing_seat = None
    view = session.observation(None)
    owner, card, resolver = view["pending"]["seat"], view["pending"]["card"], view["resolver"]
    page = board(session)
    line = page.find("sl-phase", f"phase-{phase}").all_text()
    assert f"Player {owner + 1}" in line and words.format(card=card) in line
    pending = page.find("sl-pending", f"pending-seat-{owner}")
    assert card in pending.all_text() and f"Player {resolver + 1}'s phase 3 turn" in pending.all_text()
    assert "to-move" in page.find("sl-seat", f"seat-{owner}").classes
    assert "resolving" in page.find("sl-seat", f"seat-{resolver}").classes
    lit = page.find("sl-row", f"row-seat-{owner}").find_all("sl-card", "effect-now")
    assert [c.attrs["data-card"].removesuffix("r") for c in lit] == [card]


def test_the_effect_being_resolved_is_the_resolvers_rightmost_card(finished):
    session = finished
    session.goto(step_where(session, lambda s: s.phase == "effect"))
    view = session.observation(None)
    resolver = view["resolver"]
    page = board(session)
    assert page.find("sl-card", "effect-now").attrs["data-face"] == view["rows"][resolver][-1]["card"]
    assert f"Player {resolver + 1} resolves the" in page.find("sl-phase", "phase-effect").all_text()
    assert page.find("sl-order").find("now").all_text() == f"P{resolver + 1}"


# ------------------------------------------------------------------ who sees what


def test_a_seat_sees_its_face_down_card_and_only_that_others_have_chosen(finished):
    session = finished
    session.goto(step_where(session, lambda s: s.phase == "play" and 0 < sum(c != NONE for c in s.chosen) < s.players))
    state = session.state
    viewer = next(s for s in range(state.players) if state.chosen[s] != NONE)
    session.viewing_seat = viewer
    page = board(session)
    own = page.find("sl-chosen", f"chosen-seat-{viewer}")
    assert own.cards("sl-card") == [name(state, state.chosen[viewer])]
    for seat in range(state.players):
        if seat == viewer:
            continue
        chosen = page.find("sl-chosen", f"chosen-seat-{seat}")
        assert all_data_cards(chosen) == []
        if state.chosen[seat] != NONE:
            assert chosen.find_all("sl-back") and "chosen, face down" in chosen.all_text()
        else:
            assert "still choosing" in chosen.all_text() and "to-move" in page.find("sl-seat", f"seat-{seat}").classes


@pytest.mark.parametrize("viewer", [0, 3])
def test_a_seat_never_sees_another_hand_or_face_down_card(finished, viewer):
    session = finished
    session.viewing_seat = viewer
    secrets_checked = face_down_checked = 0
    for step in range(0, len(session.log), 3):
        session.goto(step)
        state = session.state
        text = starligned_html(session)
        page = parse(text)
        assert page.find("sl-hand", f"hand-seat-{viewer}").cards("sl-card") == [name(state, e) for e in state.hands[viewer]]
        seen = strings(session.observation(viewer))
        told = json.dumps(session.observation(viewer))
        for seat in range(state.players):
            if seat == viewer:
                continue
            hand = page.find("sl-hand", f"hand-seat-{seat}")
            assert all_data_cards(hand) == [] and len(hand.find_all("sl-back")) == len(state.hands[seat])
            # another seat's hand and face-down card appear nowhere, unless the viewer saw them some
            # other way (a public event names them, e.g. an exchanged card taken into hand)
            secret = {card for card in secrets_of(state, seat) if card not in told}
            assert not [card for card in secret if card in text]
            secrets_checked += len(secret)
            if state.phase == "play" and state.chosen[seat] != NONE:
                face_down_checked += 1
                assert all_data_cards(page.find("sl-chosen", f"chosen-seat-{seat}")) == []
        assert set(all_data_cards(page)) <= seen
    assert secrets_checked > 50 and face_down_checked > 3


def test_the_teacher_sees_every_hand_and_every_face_down_card(finished):
    session = finished
    session.viewing_seat = None
    session.goto(step_where(session, lambda s: s.phase == "play" and sum(c != NONE for c in s.chosen) >= 2))
    state = session.state
    page = board(session)
    assert "Teacher view" in page.find("viewer").all_text()
    for seat in range(state.players):
        assert page.find("sl-hand", f"hand-seat-{seat}").cards("sl-card") == [name(state, e) for e in state.hands[seat]]
        chosen = page.find("sl-chosen", f"chosen-seat-{seat}")
        assert chosen.cards("sl-card") == ([name(state, state.chosen[seat])] if state.chosen[seat] != NONE else [])
    assert page.find_all("sl-back") == []


def test_phase_4_shows_who_has_rotated_and_a_selected_rotation_lights_its_hand_card(finished):
    session = finished
    session.goto(step_where(session, lambda s: s.phase == "rotate" and 0 < sum(c != NONE for c in s.chosen)))
    state = session.state
    waiting = session.spec.to_move(state)
    session.viewing_seat = waiting[0]
    page = board(session)
    for seat in range(state.players):
        text = page.find("sl-chosen", f"chosen-seat-{seat}").all_text()
        assert ("still to rotate" in text) == (seat in waiting)
    action = session.spec.legal_actions(state, waiting[0])[0]
    session.selected_action = session.spec.encode_action(action)
    page = board(session)
    lit = page.find("sl-hand", f"hand-seat-{waiting[0]}").find_all("sl-card", "selected")
    assert [c.attrs["data-card"].removesuffix("r") for c in lit] == [action.card]
    # (named as the picker names it: the card with the half it shows in the hand)
    assert session.spec.action_label(action, "en", session.state) in page.find("preview-line").all_text()
    assert "rotate S110 (6, swap) in hand" in page.find("preview-line").all_text()
    other = next(s for s in range(state.players) if s != waiting[0])
    session.viewing_seat = other                      # another seat's view never previews it
    assert not board(session).find_all("preview-line")
    session.selected_action = None


# ------------------------------------------------------------------ the explorer around the board


def test_the_app_swaps_in_the_starligned_board_and_its_action_titles():
    from explorer.pages.app import create_app

    app = create_app().explorer
    session = app.session
    session.game = "starligned"
    assert isinstance(app.board, StarlignedBoard) and len(app.board_slot.objects) == 1
    assert f"Step 0 / {len(session.log)}" in app.board.html() and session.log      # played through, at the deal
    assert "sl-board" in app.board.html()
    seat = session.spec.to_move(session.state)[0]
    app.picker.take_seat_here(seat)
    titles = [group["title"] for group in app.picker.buttons.groups]
    assert titles == ["Phase 1: put a card face down"]
    app.picker.click(0)
    assert app.picker.confirm()
    assert type(session.log[0][1]).__name__ == "PlayCard" and session.log[0][0] == seat
    assert f"Step {session.cursor} / {len(session.log)}" in app.board.html()


def test_every_starligned_action_type_has_a_button_title():
    from explorer.components.picker import group_titles
    from rules.starligned.position import ACTION_TYPES

    assert set(group_titles("starligned", "en")) == set(group_titles("starligned", "ja")) == set(ACTION_TYPES)


def test_the_plots_show_starligned_scores_and_the_cards_dealt_and_revealed(finished):
    from explorer.core.palette import BIOME_COLOURS
    from explorer.plots.live import LivePlots

    session = finished
    session.viewing_seat = None
    session.goto(40)
    plots = LivePlots(session=session)
    scores = plots.sent["scores"]
    for label, columns in scores["players"].items():
        seat = scores["seats"][label]
        assert columns["score"] == [session.spec.scores(session.state_at(step))[seat] for step in range(len(session.log) + 1)]
    assert max(max(columns["score"]) for columns in scores["players"].values()) > 0
    draws = plots.sent["draws"]["columns"]
    cards = [card for card in draws["card"] if card]
    assert len(cards) >= session.players * 6
    colours = {card: colour for card, colour in zip(draws["card"], draws["colour"]) if card}
    state = session.state
    for card, colour in colours.items():
        group = session.spec.card_info(state, card)["group"]
        assert colour == BIOME_COLOURS[group][0]
    assert {f"C{n}" for n in range(1, 6)} <= set(BIOME_COLOURS)
    assert "Constellation 1" in plots.sent["by_group"]["columns"]["group_name"]
    assert plots.sent["end_card"] is None          # (no end card: no frame)


def test_stepping_and_a_new_line_at_a_past_step_work_for_starligned():
    session = GameSession(game="starligned", players=3, seed=SEED)
    session.autoplay("greedy", then_goto=0)
    line = list(session.log)
    board_view = StarlignedBoard(session=session)
    session.goto(1)                                   # phase 1: one seat has chosen, two have not
    assert "Step 1 / " in board_view.html()
    seat = line[1][0]
    other = next(a for a in session.spec.legal_actions(session.state, seat) if (seat, a) != line[1])
    session.play(seat, other)
    assert session.log == line[:1] + [(seat, other)] and len(session.branches) == 1
    assert "Step 2 / 2" in board_view.html()
    session.undo()
    assert session.cursor == 1
    session.switch_branch(0)
    assert session.log == line
    session.goto(len(line))
    assert session.spec.is_over(session.state)
    assert "Game over" in board_view.html()
    winners = session.spec.winners(session.state)
    assert all("winner" in board(session).find("sl-seat", f"seat-{s}").classes for s in winners)


def test_the_setup_editor_lays_a_moon_card_over_an_edited_pair():
    session = GameSession(game="starligned", players=3, seed=SEED)
    session.autoplay("random", then_goto=0)
    session.goto(step_where(session, lambda s: s.phase == "play" and len(s.rows[0]) == 3 and not any(s.moons)))
    editor = SetupEditor(session=session)
    rows = json.loads(editor.fields["rows"].widget.value)
    left, right = (card.removesuffix("r") for card in rows[0][:2])
    moons = json.loads(editor.fields["moons"].widget.value)
    moons[0] = [[left, right]]                         # what if a moon card covered Player 1's first two cards
    editor.fields["moons"].widget.value = json.dumps(moons)
    editor.fields["moon_supply"].widget.value = editor.fields["moon_supply"].widget.value - 1
    assert editor.apply(), editor.general_error.object
    assert session.position()["state"]["moons"][0] == [[left, right]] and session.log == []
    page = board(session)
    pair = page.find("sl-row", "row-seat-0").find("sl-pair")
    assert pair.attrs["data-pair"] == f"{left} {right}" and len(pair.find_all("sl-card", "blocked")) == 2
    assert "1 moon card on the row" in page.find("sl-seat", "seat-0").find("moons").all_text()
    # a card not in that row is refused next to the moons, and changes nothing
    before = session.position()
    moons[1] = [[left, right]]
    editor.fields["moons"].widget.value = json.dumps(moons)
    assert not editor.apply()
    assert editor.fields["moons"].error.visible
    assert session.position() == before


# ------------------------------------------------------------------ simultaneous choices in the explorer


def test_one_person_makes_every_seats_hidden_choice_one_seat_at_a_time():
    from explorer.pages.app import ExplorerApp

    session = GameSession(game="starligned", players=3, seed=SEED)
    session.seat_players = {seat: "human" for seat in range(3)}
    app = ExplorerApp(session=session)
    picker, spec = app.picker, session.spec
    assert picker.actable_seats() == [0, 1, 2] and picker.act_for.visible
    for seat in (2, 0, 1):                             # any order: the choices are simultaneous
        picker.act_for.value = seat
        assert picker.acting_seat == seat
        assert all(s == seat for s, _ in picker.offers())
        picker.click(0)
        assert picker.confirm()
        state = session.state
        if state.phase == "play":
            assert seat not in spec.to_move(state)
            page = board(session)                     # the teacher sees it; Player 1's view would not
            assert page.find("sl-chosen", f"chosen-seat-{seat}").cards("sl-card")
    assert session.state.phase != "play" and len(session.log) == 3
    assert all(len(row) == 1 for row in session.state.rows)

    # seen as one seat, the others still to choose wait for their own person
    session.goto(0)
    session.viewing_seat = 0
    picker.click(0)
    assert picker.confirm()
    assert picker.mode == "person" and picker.offers() == []
    assert "View as Player 2" in picker.view_as_button.label
    page = board(session)
    assert page.find("sl-chosen", "chosen-seat-0").cards("sl-card")
    assert "still choosing" in page.find("sl-chosen", "chosen-seat-1").all_text()


def test_bots_make_their_hidden_choices_once_the_person_has_chosen():
    session = GameSession(game="starligned", players=4, seed=SEED)
    session.seat_players = {0: "human", 1: "greedy", 2: "random", 3: "greedy"}
    assert session.advance_bots() == 0                 # Player 1 must choose too: nobody reveals yet
    spec = session.spec
    seat_play = spec.legal_actions(session.state, 0)[0]
    played = session.play_on(0, seat_play)
    assert played >= 3
    assert [seat for seat, _ in session.log[1:4]] == [1, 2, 3]
    assert all(len(row) == 1 for row in session.state.rows)     # every card revealed
    # the bots went on until Player 1 must decide again (phase 3 or phase 4)
    assert 0 in spec.to_move(session.state) and session.cursor == len(session.log)
    session.viewing_seat = 0
    page = board(session)
    assert page.find("sl-seat", "seat-0").classes.count("to-move") == 1


@pytest.mark.parametrize("players, bot", [(2, "random"), (5, "greedy")])
def test_every_step_of_a_game_draws_with_each_moon_card_over_its_neighbouring_pair(players, bot):
    session = GameSession(game="starligned", players=players, seed=SEED)
    session.autoplay(bot, then_goto=0)
    moons_drawn = 0
    for step in range(len(session.log) + 1):
        session.goto(step)
        for viewer in (None, players - 1):
            session.viewing_seat = viewer
            page = board(session)
            view = session.observation(viewer)
            assert len(page.find_all("sl-seat")) == players
            # docs/readings.md, "Starligned 5": a move never separates a covered pair, so each moon card lies over two neighbours
            assert len(page.find_all("sl-moon-card")) == sum(len(pairs) for pairs in view["moons"])
            moons_drawn += len(page.find_all("sl-moon-card"))
    assert all(len(row) == 10 for row in session.state.rows) and "Game over" in starligned_html(session)
    assert moons_drawn
