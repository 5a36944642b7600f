"""The Biome Blitz board and the explorer around it, without a browser.

The board is read back with a small HTML parser and compared with the rules' own observation and,
for what must stay hidden, with the real cards in ``session.state``. A table with every zone filled
(ecosystem bonuses, discards, the dice of a compete) and the decisions a bot game may not reach (a
peek, a reroll, a cancel, a compete again, a replaced ecosystem) are written as position files and
loaded through the rules' own ``decode``, so no test depends on how a bot plays. Every game is seeded.
"""

from __future__ import annotations

import json

import pytest

from explorer.boards.biome_blitz import BiomeBlitzBoard, biome_blitz_html
from explorer.core.session import GameSession
from explorer.components.setup_editor import SetupEditor
from tests.helpers import strings
from tests.helpers.board_html import all_data_cards, parse
from tests.helpers.biome_blitz_board import SEED, cancel_decision, rich_table, what_if


def board(session: GameSession):
    return parse(biome_blitz_html(session))


def printed(session: GameSession, deck: str, card: str) -> str:
    """A card of ``deck`` (named by its id, as observations name a discard) as the card file prints it in English."""
    cards = session.card_set()
    label = {"animal": cards.animal_label, "ecosystem": cards.ecosystem_label}.get(deck)
    return label(card)["en"] if label else card


@pytest.fixture(scope="module")
def finished() -> GameSession:
    """A whole 3-player greedy game, cursor at the end."""
    session = GameSession(game="biome_blitz", players=3, seed=SEED)
    session.autoplay("greedy")
    return session


# ------------------------------------------------------------------ every zone


def test_the_board_draws_every_zone_of_the_seats_observation():
    session = rich_table()
    step = 0
    session.viewing_seat = 1
    view = session.observation(1)
    page = board(session)
    for deck in ("resource", "animal", "ecosystem"):
        drawn = page.find("bb-deck", f"deck-{deck}")
        pile = drawn.find("bb-pile")
        assert pile.attrs["data-count"] == str(view["decks"][deck]["deck"]) and pile.attrs["data-deck"] == deck
        assert pile.attrs["data-discard"] == str(view["decks"][deck]["discard"])
        top = view["decks"][deck]["discard_top"]
        assert (f"top: {printed(session, deck, top)}" if top else "no discards") in drawn.find("bb-discard-top").all_text()
        for number, card in enumerate(view["decks"][deck]["market"], start=1):
            slot = drawn.find("bb-slot", f"slot-{number}")
            if card is None:
                assert "empty" in slot.classes
            elif deck == "resource":
                assert slot.cards("bb-resource") == [card] and slot.find_all(f"res-{card}")
            else:
                kind = "bb-animal" if deck == "animal" else "bb-ecosystem"
                drawn_card = slot.find(kind)
                assert drawn_card.attrs["data-card"] == card["id"] and f"eco-{card.get('ecosystem', card['id'])}" in drawn_card.classes
                assert f"★{card['stars']}" in drawn_card.find("bb-stars").all_text()
                assert card["name"] in drawn_card.all_text()
                for symbol, count in card["cost"].items():
                    assert f"{count}" in drawn_card.find("bb-cost").all_text() and symbol in drawn_card.find("bb-cost").all_text()
                if deck == "animal":
                    for symbol, count in card["battle_cost"].items():
                        assert f"{count}" in drawn_card.find("bb-battle-cost").all_text()
                    assert drawn_card.find("bb-power").attrs["data-power"] == str(card["power"])
                    assert drawn_card.find("bb-defence").attrs["data-defence"] == str(card["defence"])
                    abilities = drawn_card.find_all("bb-ability")
                    assert [a.find_all("trigger")[0].all_text() for a in abilities] and len(abilities) == len(card["abilities"])
                    for ability, seen in zip(abilities, card["abilities"]):
                        assert f"trigger-{seen['trigger']}" in ability.classes and seen["text"] in ability.all_text()
    for seat in range(view["players"]):
        panel = page.find("bb-seat", f"seat-{seat}")
        assert panel.find("bb-points").attrs["data-points"] == str(view["points"][seat])
        assert f"{view['points'][seat]} / 30 points" in panel.find("bb-points").all_text()
        assert f"{len(view['teams'][seat])} / 5 animals" in panel.find("bb-animal-count").all_text()
        team = panel.find("bb-team", f"team-seat-{seat}")
        assert team.cards("bb-animal") == [a["id"] for a in view["teams"][seat]]
        for animal, drawn in zip(view["teams"][seat], team.find_all("bb-animal")):
            # the team's animals show the power and defence their ecosystems give them
            assert drawn.find("bb-power").attrs["data-power"] == str(animal["power"] + animal["bonus"]["power"])
            assert drawn.find("bb-defence").attrs["data-defence"] == str(animal["defence"] + animal["bonus"]["defence"])
            assert len(drawn.find_all("bb-bonus")) == bool(animal["bonus"]["power"]) + bool(animal["bonus"]["defence"])
        assert panel.find("bb-ecos", f"ecos-seat-{seat}").cards("bb-ecosystem") == view["ecosystems"][seat]
        hand = panel.find("bb-hand", f"hand-seat-{seat}")
        if seat == 1:
            assert hand.cards("bb-resource") == view["hands"][1]["cards"]
        else:
            assert len(hand.find_all("bb-back")) == view["hands"][seat]["count"]
    assert [a["bonus"]["power"] for a in view["teams"][0]] == [1, 1]           # the savanna gives its animals +1
    assert all(view["decks"][deck]["discard"] for deck in view["decks"])
    last = view["last_compete"]
    compete = page.find("bb-compete")
    assert compete.find("bb-die", "attack").all_text() == str(last["attack_roll"])
    assert compete.find("bb-die", "defence").all_text() == str(last["defence_roll"])
    assert compete.find("attack-total").all_text() == str(last["attack_total"])
    assert compete.find("defence-total").all_text() == str(last["defence_total"])
    assert f"Player {last['winner'] + 1} wins" in compete.find("bb-winner").all_text()
    assert "Komodo dragon (discarded)" in compete.all_text() and "African lion (discarded)" not in compete.all_text()
    status = page.find("bb-status").all_text()
    assert f"Step {step} / {len(session.log)}" in status and f"Turn {view['turn'] + 1} · Player {view['seat'] + 1}'s turn" in status
    assert "provenance: assumed" in page.find("provenance").all_text()
    assert "placeholder" in page.find("provenance").all_text()
    assert [e.all_text() for e in page.find_all("bb-event")] == [e["text"] for e in view["events"] if e["text"]]


def test_the_status_and_seats_say_who_decides_a_trade_reply_a_second_forage_pick_and_a_replacement():
    spec = GameSession(game="biome_blitz", players=3, seed=SEED).spec
    play = lambda session, data: session.play(spec.to_move(session.state)[0], spec.decode_action(data))  # noqa: E731
    forage = GameSession(game="biome_blitz", players=3, seed=SEED)
    market = forage.observation(None)["decks"]["resource"]["market"]
    play(forage, {"type": "forage", "slot": next(n for n, card in enumerate(market, start=1) if card != "wild")})
    trade = GameSession(game="biome_blitz", players=3, seed=SEED)
    partner = (trade.state.seat + 1) % 3
    for data in ({"type": "trade_with", "seat": partner}, {"type": "trade_give", "symbol": trade.observation(
            trade.state.seat)["hands"][trade.state.seat]["cards"][0]}, {"type": "trade_ask", "symbol": "meat"},
            {"type": "trade_propose"}):
        play(trade, data)
    replace = GameSession(game="biome_blitz", players=3, seed=SEED)
    seat = replace.state.seat
    data = what_if(replace, ecosystems={seat: ["RAI", "DES", "OCE"]}, hands={seat: ["leaf", "leaf", "meat", "water"]})
    market = data["state"]["decks"]["ecosystem"]
    if "SAV" not in market["market"]:
        market["deck"].remove("SAV")
        market["deck"].insert(0, market["market"][0])
        market["market"][0] = "SAV"
    replace.load_position(data)
    play(replace, {"type": "discover", "deck": "ecosystem", "slot": market["market"].index("SAV") + 1,
                   "pay": ["leaf", "leaf", "meat"]})
    for session, phase, words in ((trade, "trade_reply", "accepts or refuses"), (forage, "forage", "took"),
                                  (replace, "replace", "holds three ecosystems: choose the one the new Savanna")):
        assert session.state.phase == phase
        session.viewing_seat = None
        mover = spec.to_move(session.state)[0]
        page = board(session)
        assert f"Player {mover + 1} {words}" in page.find("bb-phase").all_text()
        pending = page.find("bb-pending", f"pending-{phase}")
        assert f"pending-seat-{mover}" in pending.classes and pending.find("decider").all_text() == f"Player {mover + 1}"
        assert [p.attrs["data-seat"] for p in page.find_all("bb-seat", "to-move")] == [str(mover)]
    assert spec.to_move(trade.state) == (partner,)
    assert "gives" in board(trade).find("bb-pending").all_text()


@pytest.mark.parametrize("phase, pending, decider, words", [
    ("reroll", {"seat": 0, "attacker": "komodo", "defender": "gazelle", "attack_roll": 2, "defence_roll": 5, "die": "attack"},
     0, "reroll the attack die"),
    ("frenzy", {"attacker": "shark"}, 0, "compete again with Great white shark"),
])
def test_a_compete_decision_names_who_decides_it(phase, pending, decider, words):
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    seat = session.state.seat
    teams = {seat: ["komodo", "shark"], 1 - seat: ["gazelle"]}
    if phase == "reroll":
        pending = {**pending, "seat": seat}
    session.load_position(what_if(session, teams, phase=phase, pending=pending))
    decider = seat
    page = board(session)
    assert words in page.find("bb-phase").all_text() or words in page.find("bb-pending").all_text()
    assert f"pending-seat-{decider}" in page.find("bb-pending").classes
    if phase == "reroll":
        assert [d.all_text() for d in page.find("bb-pending").find_all("bb-die")] == ["2", "5"]


def test_the_defenders_owner_decides_whether_to_cancel_a_compete():
    session = cancel_decision()
    seat = session.state.seat
    other = 1 - seat
    assert session.state.phase == "cancel"
    for viewer in (seat, other, None):
        session.viewing_seat = viewer
        page = board(session)
        pending = page.find("bb-pending", "pending-cancel")
        assert f"pending-seat-{other}" in pending.classes
        if viewer == other:         # (its own page: "Your decision", not "Waiting for Player N")
            assert pending.all_text().startswith("Your decision: ") and not pending.all("decider")
        else:
            assert pending.find("decider").all_text() == f"Player {other + 1}"
        assert "discard 1 water to cancel" in pending.all_text()
        assert f"Player {other + 1} may discard 1 water" in page.find("bb-phase").all_text()


# ------------------------------------------------------------------ who sees what


@pytest.mark.parametrize("viewer", [0, 2])
def test_a_seat_sees_its_own_hand_and_no_other_hand(finished, viewer):
    session = finished
    session.viewing_seat = viewer
    checked = 0
    for step in range(0, len(session.log) + 1, 11):
        session.goto(step)
        state = session.state
        page = board(session)
        held = [("leaf", "water", "meat", "wild")[s] for s in state.hands[viewer]]
        assert page.find("bb-hand", f"hand-seat-{viewer}").cards("bb-resource") == held
        # ... and again at the top of the table, above the markets, where its player sees it while choosing
        own = page.find("bb-own-hand")
        assert own.attrs["data-seat"] == str(viewer) and own.cards("bb-resource") == held
        assert f"Your hand ({len(held)} resource card" in own.all_text()
        assert biome_blitz_html(session).index("bb-own-hand") < biome_blitz_html(session).index("bb-decks")
        for seat in range(state.players):
            if seat == viewer:
                continue
            hand = page.find("bb-hand", f"hand-seat-{seat}")
            assert all_data_cards(hand) == [] and len(hand.find_all("bb-back")) == len(state.hands[seat])
            checked += len(state.hands[seat])
        # every card named on the page is one the seat's observation names
        assert set(all_data_cards(page)) <= strings(session.observation(viewer))
        # another seat's private draws are told as counts only
        for event in session.spec.events(state):
            if event.visible_to is not None and viewer not in event.visible_to:
                assert event.text not in biome_blitz_html(session)
    assert checked


def test_a_peek_shows_the_card_to_its_owner_and_the_teacher_only():
    session = GameSession(game="biome_blitz", players=3, seed=SEED)
    seat = session.state.seat
    session.load_position(what_if(session, {seat: ["giraffe"]}, phase="peek"))
    session.play(seat, session.spec.decode_action({"type": "peek", "deck": "animal"}))
    top = session.state.decks[1][0]
    animal, animal_id = session.state.cards.animals[top], session.state.cards.animal_ids[top]
    peek = next(e for e in session.spec.events(session.state) if e.kind == "peek")
    assert animal_id in peek.text
    for viewer in range(3):
        session.viewing_seat = viewer
        text = biome_blitz_html(session)
        page = board(session)
        if viewer == seat:
            assert peek.text in page.find("bb-event", "kind-peek").all_text()
        else:
            assert peek.text not in text and animal.name not in text and animal_id not in text
            assert peek.public_text in page.find("bb-event", "kind-peek").all_text()
    session.viewing_seat = None
    assert peek.text in board(session).find("bb-event", "kind-peek").all_text()


def test_the_teacher_sees_every_hand(finished):
    session = finished
    session.viewing_seat = None
    session.goto(40)
    state = session.state
    page = board(session)
    assert "Teacher view" in page.find("viewer").all_text()
    assert not page.find_all("bb-own-hand")        # (the teacher has no hand of their own)
    for seat in range(state.players):
        assert page.find("bb-hand", f"hand-seat-{seat}").cards("bb-resource") == \
            [("leaf", "water", "meat", "wild")[s] for s in state.hands[seat]]
        assert not page.find("bb-hand", f"hand-seat-{seat}").find_all("bb-back")


def test_a_spectator_sees_no_hand_of_their_own():
    session = GameSession(game="biome_blitz", players=2, seed=SEED, teacher=False)
    page = board(session)
    assert "Spectator view" in page.find("viewer").all_text() and not page.find_all("bb-own-hand")
    assert page.find("bb-hand", "hand-seat-0").find_all("bb-back")


def test_the_winner_is_named_at_the_end(finished):
    session = finished
    session.goto(len(session.log))
    session.viewing_seat = 0
    winner = session.state.winner
    page = board(session)
    assert f"Game over. Won by Player {winner + 1}." in page.find("bb-phase").all_text()
    assert page.find("bb-seat", "winner").attrs["data-seat"] == str(winner)


def test_a_selected_discover_lights_its_market_card_and_the_cards_paid_and_changes_nothing():
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    seat = session.state.seat
    session.load_position(what_if(session, hands={seat: ["leaf", "leaf", "leaf", "water", "water", "meat", "meat", "meat"]}))
    session.viewing_seat = seat
    discover = next(a for a in session.spec.legal_actions(session.state, seat) if type(a).__name__ == "Discover")
    state = session.state
    session.selected_action = session.spec.encode_action(discover)
    page = board(session)
    target = page.find("bb-deck", f"deck-{discover.deck}").find("bb-slot", "target")
    assert f"slot-{discover.slot}" in target.classes
    assert sorted(page.find("bb-hand", f"hand-seat-{seat}").cards("bb-resource", "selected")) == sorted(discover.pay)
    assert sorted(page.find("bb-own-hand").cards("bb-resource", "selected")) == sorted(discover.pay)
    assert str(discover) in page.find("preview-line").all_text()
    session.viewing_seat = 1 - seat                 # another seat never sees this seat's selection
    assert not board(session).find_all("preview-line")
    assert session.state is state and session.log == []


# ------------------------------------------------------------------ the explorer around the board


def test_the_app_swaps_in_the_biome_blitz_board_and_its_action_titles():
    from explorer.pages.app import create_app

    app = create_app().explorer
    session = app.session
    session.game = "biome_blitz"
    assert isinstance(app.board, BiomeBlitzBoard) and len(app.board_slot.objects) == 1
    assert f"Step 0 / {len(session.log)}" in app.board.html() and session.log      # played through, at the deal
    seat = session.spec.to_move(session.state)[0]
    app.picker.take_seat_here(seat)
    titles = [group["title"] for group in app.picker.buttons.groups]
    assert "Forage: first pick (face up or the deck top)" in titles
    assert "Explore (optional: two identical resources)" in titles or "Trade (optional): offer a trade to another player" in titles
    app.picker.click(app.picker.labels().index(next(label for label in app.picker.labels() if label.startswith("forage"))))
    assert app.picker.confirm()
    assert type(session.log[0][1]).__name__ == "Forage"
    assert f"Step {session.cursor} / {len(session.log)}" in app.board.html() and session.cursor >= 1


def test_the_plots_show_biome_blitz_points_and_the_market_cards_revealed(finished):
    from explorer.core.palette import BIOME_COLOURS
    from explorer.plots.live import LivePlots

    session = finished
    session.viewing_seat = None
    upto = min(80, len(session.log))
    session.goto(upto)
    plots = LivePlots(session=session)
    scores = plots.sent["scores"]
    for label, columns in scores["players"].items():
        seat = scores["seats"][label]
        assert columns["score"] == [session.spec.scores(session.state_at(step))[seat] for step in range(len(session.log) + 1)]
    draws = plots.sent["draws"]["columns"]
    cards = [card for card in draws["card"] if card]
    revealed = [card for step in range(upto + 1) for event in session.spec.events(session.state_at(step))
                if event.kind in ("reveal", "draw") for card in event.cards]
    assert cards and sorted(cards) == sorted(revealed)
    groups = set(draws["group"]) - {None}
    assert {"leaf", "meat"} <= groups and any(g.startswith("animal_") for g in groups)
    colours = {group: colour for group, colour in zip(draws["group"], draws["colour"]) if group}
    assert all(colours[group] == BIOME_COLOURS[group][0] for group in colours)
    session.viewing_seat = 1                  # another seat's draws are grey points, its own are named
    seen = [c for c in plots.sent["draws"]["columns"]["card"] if c]
    assert "hidden card" in seen and len(seen) == len(cards)


def test_stepping_and_a_new_line_at_a_past_step_work_for_biome_blitz():
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    session.autoplay("greedy", then_goto=0)
    line = list(session.log)
    board_view = BiomeBlitzBoard(session=session)
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


def test_the_setup_editor_starts_a_what_if_line_from_an_edited_biome_blitz_position():
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    editor = SetupEditor(session=session)
    decks = json.loads(editor.fields["decks"].widget.value)
    animal = decks["animal"]["deck"].pop()              # what if Player 2 already had the deck's last animal
    editor.fields["decks"].widget.value = json.dumps(decks)
    teams = json.loads(editor.fields["teams"].widget.value)
    teams[1] = [animal]
    editor.fields["teams"].widget.value = json.dumps(teams)
    assert editor.apply(), editor.general_error.object
    assert session.position()["state"]["teams"][1] == [animal] and session.log == []
    assert board(session).find("bb-team", "team-seat-1").cards("bb-animal") == [animal]
    # an animal no card file knows is refused next to the teams, and changes nothing
    before = session.position()
    teams[0] = ["unicorn"]
    editor.fields["teams"].widget.value = json.dumps(teams)
    assert not editor.apply()
    assert editor.fields["teams"].error.visible and "unicorn" in editor.fields["teams"].error.object
    assert session.position() == before
