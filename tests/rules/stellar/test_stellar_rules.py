"""Stellar rule clauses, one test each, named after the clause (the rules text; docs/readings.md, "Stellar".

Each test writes the exact situation as a position file and loads it with ``decode``, so the
situation is visible in the test; the rulings of ``rules/stellar/rules.py`` have tests of their own.
"""

from __future__ import annotations

import pytest

import rules
from rules.stellar import (
    ChooseStarters, ClearRow, FinalNotebookCard, PlayToNotebook, PlayToTelescope, TakeRowCard,
)
from tests.helpers.stellar import GAME, ROW, SLOTS, load, notebook, play, state_json, telescope


# -- setup ---------------------------------------------------------------------------------------
def test_setup_deals_two_starters_two_cards_and_a_row_of_five():
    state = GAME.new_game(2, seed=3)
    data = state_json(state)
    assert all(len(p) == 2 and all(GAME.cards.starter[GAME.cards.kind(c, where="")] for c in p) for p in data["starters"])
    assert [len(h) for h in data["hands"]] == [2, 2]
    assert None not in data["row"].values()
    # 55 non-starter cards + the fifth starter, minus 4 hand cards and 5 row cards.
    assert len(data["deck"]) == 47 and data["box"] == []
    assert sum(GAME.cards.starter[GAME.cards.kind(c, where="")] for c in data["deck"] + sum(data["hands"], []) + list(data["row"].values())) == 1


def test_setup_fifth_starter_to_box_switch_returns_it_to_the_box():
    data = state_json(GAME.new_game(2, seed=3, variants={"fifth_starter_to_box": True}))
    assert len(data["deck"]) == 46 and len(data["box"]) == 1
    assert GAME.cards.starter[GAME.cards.kind(data["box"][0], where="")]


def test_setup_both_players_choose_starters_at_the_same_time():
    # The first choice waits, unplaced, until the other player has chosen too; then both are placed.
    state = GAME.new_game(2, seed=3)
    assert GAME.to_move(state) == (0, 1)
    a, b = state_json(state)["starters"][1]
    state = GAME.apply(state, 1, ChooseStarters(telescope=a, notebook=b))
    assert GAME.to_move(state) == (0,)
    data = state_json(state)
    assert data["chosen"] == [None, a] and data["telescopes"][1]["top-1"] is None
    c, d = data["starters"][0]
    state = GAME.apply(state, 0, ChooseStarters(telescope=d, notebook=c))
    data = state_json(state)
    assert data["telescopes"][1]["top-1"] == a and b in sum(data["notebooks"][1].values(), [])
    assert data["telescopes"][0]["top-1"] == d and c in sum(data["notebooks"][0].values(), [])
    assert data["chosen"] == [None, None] and data["starters"] == [[], []]
    assert state.phase == "take" and GAME.to_move(state) == (state.start_player,)


# -- turn phases ---------------------------------------------------------------------------------
def test_phase_1_take_a_row_card_into_hand():
    state = play(load(), (0, TakeRowCard(slot=3)))
    data = state_json(state)
    assert "black_hole-3-2stars" in data["hands"][0] and data["row"]["3"] is None
    assert state.phase == "play"


def test_phase_3_hand_card_to_telescope_sends_the_row_card_of_its_number_to_the_notebook():
    state = load(phase="play", hands=(("planet-4-1star", "moon-2-2stars", "black_hole-5-0stars"), ()))
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="top-2"))
    data = state_json(state)
    assert data["telescopes"][0]["top-2"] == "planet-4-1star"
    assert data["notebooks"][0]["moon"] == ["moon-4-1star"]


def test_phase_3_hand_card_to_notebook_sends_the_row_card_to_the_telescope():
    state = load(phase="play", hands=(("planet-4-1star", "moon-2-2stars", "black_hole-5-0stars"), ()))
    state = GAME.apply(state, 0, PlayToNotebook(card="moon-2-2stars"))
    assert state.phase == "place" and GAME.to_move(state) == (0,)
    assert {a.card for a in GAME.legal_actions(state, 0)} == {"asteroid-2-2stars"}
    state = GAME.apply(state, 0, PlayToTelescope(card="asteroid-2-2stars", slot="bottom-4"))
    assert state_json(state)["telescopes"][0]["bottom-4"] == "asteroid-2-2stars"


def test_phase_3_empty_row_slot_plays_the_deck_top_card():
    row = list(ROW)
    row[3] = None  # taken this turn
    state = load(phase="play", row=row, hands=(("planet-4-1star", "moon-2-2stars", "moon-4-1star"), ()))
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="top-2"))
    assert state_json(state)["notebooks"][0]["planet"] == ["planet-5-1star"]


def test_six_zero_played_first_draws_the_second_card_from_the_deck():
    state = load(phase="play", hands=(("planet-6/0-0stars", "moon-2-2stars", "moon-4-1star"), ()))
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-6/0-0stars", slot="top-2"))
    data = state_json(state)
    assert data["notebooks"][0]["planet"] == ["planet-5-1star"]
    assert "planet-5-1star" not in data["row"].values() and "moon-1-3stars" in data["row"].values()


def test_satellite_played_first_uses_row_slot_2():
    state = load(phase="play", hands=(("satellite", "moon-2-2stars", "moon-4-1star"), ()))
    state = GAME.apply(state, 0, PlayToTelescope(card="satellite", slot="bottom-1"))
    assert state_json(state)["notebooks"][0]["asteroid"] == ["asteroid-2-2stars", "asteroid-3-1star"]


def test_phase_4_refill_the_row_from_the_deck():
    state = play(load(), (0, TakeRowCard(slot=3)), (0, PlayToTelescope(card="planet-4-1star", slot="top-2")))
    data = state_json(state)
    assert data["row"] == {"1": "moon-1-3stars", "2": "asteroid-2-2stars", "3": "planet-5-1star",
                           "4": "planet-2-2stars", "5": "asteroid-5-1star"}
    assert data["deck"] == ["moon-5-0stars"]
    assert state.phase == "take" and state.seat == 1


def test_reshuffle_discards_when_the_deck_runs_out_is_seeded_by_the_state():
    discard = ["planet-5-0stars", "moon-5-1star", "asteroid-4-1star", "black_hole-2-2stars"]
    state = load(deck=(), discard=discard)
    after = play(state, (0, TakeRowCard(slot=3)), (0, PlayToTelescope(card="planet-4-1star", slot="top-2")))
    again = play(state, (0, TakeRowCard(slot=3)), (0, PlayToTelescope(card="planet-4-1star", slot="top-2")))
    assert after == again
    data = state_json(after)
    assert data["shuffles"] == 1 and data["discard"] == []
    assert sorted(data["deck"] + [data["row"]["3"], data["row"]["4"]]) == sorted(discard)


# -- telescope placement ---------------------------------------------------------------------------
def test_telescope_same_type_must_touch_a_card_of_its_type():
    state = load(phase="play", hands=(("planet-4-1star", "moon-2-2stars", "moon-4-1star"), ()))
    slots = {a.slot for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "planet-4-1star"}
    assert slots == {"top-2", "top-3"}  # the apex planet's neighbours
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="bottom-1"))
    assert "planet must touch another planet in the telescope" in str(caught.value)
    assert caught.value.rule == "telescope placement rule"


def test_telescope_new_type_goes_in_any_empty_slot():
    state = load(phase="play", hands=(("planet-4-1star", "moon-2-2stars", "moon-4-1star"), ()))
    slots = {a.slot for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "moon-2-2stars"}
    assert slots == set(SLOTS) - {"top-1"}


def test_telescope_satellite_goes_in_any_empty_slot():
    scope = telescope(top_1="planet-3-1star", top_2="satellite")
    state = load(phase="play", round=1, hands=(("satellite", "moon-2-2stars", "moon-4-1star"), ()), telescopes=[scope, telescope()])
    slots = {a.slot for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "satellite"}
    assert slots == set(SLOTS) - {"top-1", "top-2"}


def planet_slots(state) -> tuple[set, set]:
    """The slots legal for the hand's planet-4-1star: face up, and face down."""
    plays = [a for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "planet-4-1star"]
    return {a.slot for a in plays if not a.face_down}, {a.slot for a in plays if a.face_down}


@pytest.mark.parametrize("any_type", [False, True])
def test_telescope_satellite_as_any_type_for_adjacency_switch(any_type):
    # The apex planet's neighbours are filled; a satellite lies at bottom-1 (next to middle-1, bottom-2).
    scope = telescope(top_1="planet-3-1star", top_2="moon-1-3stars", top_3="moon-2-2stars", bottom_1="satellite")
    state = load(phase="play", round=3, hands=(("planet-4-1star", "moon-4-1star", "moon-5-1star"), ()),
                 telescopes=[scope, telescope()], variants={"satellite_any_type": any_type})
    if any_type:   # the satellite is a planet here: next to it, face up
        assert planet_slots(state) == ({"middle-1", "bottom-2"}, set())
    else:          # the satellite is no planet: the planet fits nowhere face up
        assert planet_slots(state) == (set(), set(SLOTS) - {"top-1", "top-2", "top-3", "bottom-1"})
    # Either way a new type (the hand has no other) goes anywhere, and a type next to its own kind stays legal.
    moon = {a.slot for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "moon-4-1star"}
    assert moon == {"top-4", "top-5"} | ({"middle-1", "bottom-2"} if any_type else set())
    # The engine's own checks agree with its legal actions.
    if any_type:
        after = GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="middle-1"))
        assert state_json(after)["telescopes"][0]["middle-1"] == "planet-4-1star"
    else:
        with pytest.raises(rules.IllegalAction):
            GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="middle-1"))


def test_satellite_as_any_type_switch_matches_a_fresh_scan_in_random_games():
    # The switch's masks are kept up to date as cards are placed (the cache): they must be what a scan
    # of each telescope gives.
    import random

    from rules.stellar import rules as engine

    for seed in range(6):
        state = GAME.new_game(2, seed, {"satellite_any_type": True})
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = rng.choice(GAME.to_move(state))
            actions = GAME.legal_actions(state, seat)
            engine.actions_for(GAME.cards).masks.clear()
            assert GAME.legal_actions(state, seat) == actions
            state = GAME.apply(state, seat, rng.choice(actions))


def test_telescope_no_legal_slot_means_face_down():
    # The only planet sits at the apex, whose neighbours are filled: a planet fits nowhere face up.
    scope = telescope(top_1="planet-3-1star", top_2="moon-1-3stars", top_3="moon-2-2stars")
    state = load(phase="play", round=2, hands=(("planet-4-1star", "moon-4-1star", "moon-5-1star"), ()), telescopes=[scope, telescope()])
    planet = [a for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "planet-4-1star"]
    assert planet and all(a.face_down for a in planet) and len(planet) == 9
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="bottom-2", face_down=True))
    assert state_json(state)["telescopes"][0]["bottom-2"] == {"face_down": "planet-4-1star"}


def test_telescope_face_down_only_when_no_slot_fits():
    state = load(phase="play", hands=(("planet-4-1star", "moon-2-2stars", "moon-4-1star"), ()))
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="top-2", face_down=True))
    assert "may not go face down" in caught.value.reason


def test_face_down_card_has_number_3_no_type_no_stars():
    scope = telescope(top_1={"face_down": "planet-1-3stars"})
    state = load(telescopes=[scope, telescope(top_1="moon-5-1star")],
                 notebooks=[notebook("planet-1-3stars", "planet-2-2stars"), notebook()])
    top = [c for c in GAME.score_breakdown(state)[0]["categories"] if c["category"] in ("Planet", "top section")]
    assert top[0]["stars"] == 0 and top[0]["points"] == 0
    assert top[1]["sum"] == 3
    # A face-down card is no planet: the next planet may go anywhere.
    state = load(phase="play", telescopes=[scope, telescope()],
                 hands=(("planet-4-1star", "moon-2-2stars", "moon-4-1star"), ()))
    slots = {a.slot for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToTelescope) and a.card == "planet-4-1star"}
    assert slots == set(SLOTS) - {"top-1"}


def test_face_down_row_number_printed_by_default_three_with_the_switch():
    scope = telescope(top_1="planet-3-1star", top_2="moon-1-3stars", top_3="moon-2-2stars")
    hands = (("planet-4-1star", "moon-4-1star", "moon-5-1star"), ())
    action = PlayToTelescope(card="planet-4-1star", slot="bottom-2", face_down=True)
    printed = GAME.apply(load(phase="play", round=2, hands=hands, telescopes=[scope, telescope()]), 0, action)
    assert state_json(printed)["notebooks"][0]["moon"] == ["moon-4-1star"]
    three = GAME.apply(load(phase="play", round=2, hands=hands, telescopes=[scope, telescope()],
                            variants={"face_down_row_number": "three"}), 0, action)
    assert state_json(three)["notebooks"][0]["black_hole"] == ["black_hole-3-2stars"]


# -- satellites ------------------------------------------------------------------------------------
def test_satellite_taken_lets_the_opponent_clear_the_row_before_the_refill():
    row = ["moon-1-3stars", "satellite", "black_hole-3-2stars", "moon-4-1star", "asteroid-5-1star"]
    state = play(load(row=row), (0, TakeRowCard(slot=2)), (0, PlayToTelescope(card="planet-4-1star", slot="top-2")))
    assert state.phase == "clear" and GAME.to_move(state) == (1,)
    assert GAME.legal_actions(state, 0) == []
    deck = ["planet-1-3stars", "planet-2-2stars", "moon-5-0stars", "moon-5-1star", "asteroid-4-1star"]
    state = GAME.decode({**GAME.encode(state), "state": {**state_json(state), "deck": deck}})
    cleared = GAME.apply(state, 1, ClearRow(clear=True))
    data = state_json(cleared)
    assert sorted(data["discard"]) == sorted(["moon-1-3stars", "black_hole-3-2stars", "asteroid-5-1star"])
    assert list(data["row"].values()) == deck and cleared.seat == 1 and cleared.phase == "take"
    kept = state_json(GAME.apply(state, 1, ClearRow(clear=False)))
    assert kept["row"]["1"] == "moon-1-3stars" and kept["discard"] == []


def test_satellite_clear_after_take_switch_asks_right_after_the_take():
    row = ["moon-1-3stars", "satellite", "black_hole-3-2stars", "moon-4-1star", "asteroid-5-1star"]
    state = play(load(row=row, variants={"satellite_clear": "after_take"}), (0, TakeRowCard(slot=2)))
    assert state.phase == "clear" and GAME.to_move(state) == (1,)
    state = GAME.apply(state, 1, ClearRow(clear=True))
    data = state_json(state)
    assert data["row"]["2"] is None and state.phase == "play" and GAME.to_move(state) == (0,)


def test_satellite_in_notebook_joins_the_stack_where_it_scores_most():
    state = load(round=1, telescopes=[telescope(top_1="planet-1-3stars", top_2="moon-2-2stars"), telescope()],
                 notebooks=[notebook("planet-1-3stars", "planet-3-1star", "moon-1-3stars", "satellite"), notebook()])
    planet, moon = GAME.score_breakdown(state)[0]["categories"][:2]
    # Planet {1, 3} gains 3 stars x 1 from the satellite, moon {1} only 2 x 1: one satellite, one stack.
    assert (planet["run"], moon["run"]) == (3, 1)


# -- notebook ------------------------------------------------------------------------------------
def test_notebook_duplicates_add_nothing():
    state = load(telescopes=[telescope(top_1="planet-4-1star"), telescope()],
                 notebooks=[notebook("planet-1-3stars", "planet-1-3stars", "planet-2-2stars"), notebook()])
    assert GAME.score_breakdown(state)[0]["categories"][0]["run"] == 2


def test_notebook_six_zero_counts_six_or_zero_for_the_best_total():
    low = load(telescopes=[telescope(top_1="planet-1-3stars"), telescope()],
               notebooks=[notebook("planet-6/0-0stars", "planet-1-3stars", "planet-2-2stars"), notebook()])
    high = load(telescopes=[telescope(top_1="planet-1-3stars"), telescope()],
                notebooks=[notebook("planet-6/0-0stars", "planet-4-1star", "planet-5-0stars"), notebook()])
    assert GAME.score_breakdown(low)[0]["categories"][0]["run"] == 3
    assert GAME.score_breakdown(high)[0]["categories"][0]["run"] == 3


# -- end of the game -----------------------------------------------------------------------------
def test_after_round_11_each_player_puts_one_hand_card_in_the_notebook_and_discards_the_other():
    state = load(round=10, seat=1, start_player=0, phase="take", hands=(("planet-4-1star", "moon-2-2stars"), ("asteroid-1-3stars", "black_hole-1-3stars")))
    state = play(state, (1, TakeRowCard(slot=1)), (1, PlayToTelescope(card="moon-1-3stars", slot="top-2")))
    assert state.phase == "final" and GAME.to_move(state) == (0, 1)
    assert GAME.turns_taken(state) == (11, 11)
    state = GAME.apply(state, 1, FinalNotebookCard(card="black_hole-1-3stars"))
    # The choice waits, secret, until the other player has chosen too.
    assert GAME.to_move(state) == (0,) and "asteroid-1-3stars" not in state_json(state)["discard"]
    state = GAME.apply(state, 0, FinalNotebookCard(card="moon-2-2stars"))
    assert GAME.is_over(state) and GAME.to_move(state) == ()
    data = state_json(state)
    assert data["notebooks"][0]["moon"] == ["moon-2-2stars"] and "black_hole-1-3stars" in data["notebooks"][1]["black_hole"]
    assert sorted(data["discard"]) == ["asteroid-1-3stars", "planet-4-1star"]


def test_ties_are_not_broken():
    state = load(phase="over", hands=((), ()), telescopes=[telescope(top_1="planet-3-1star"), telescope(top_1="moon-3-1star")],
                 notebooks=[notebook("planet-1-3stars"), notebook("moon-1-3stars")])
    assert GAME.scores(state)[0] == GAME.scores(state)[1]
    assert GAME.winners(state) == (0, 1)


def test_turn_order_only_the_player_to_move_acts():
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(load(), 1, TakeRowCard(slot=1))
    assert "Player 1's turn" in caught.value.reason


def test_observe_hides_the_opponents_hand_and_the_deck_order():
    view = GAME.observe(load(), 0)
    assert view["hands"][1] == {"count": 2, "known": []} and view["hands"][0]["cards"] == ["planet-4-1star", "moon-2-2stars"]
    assert view["deck"] == {"count": 3}
    assert view["row"]["1"] == "moon-1-3stars"


def test_card_info_groups_by_type_and_satellites_apart():
    state = load()
    assert GAME.card_info(state, "planet-6/0-0stars") == {"group": "planet", "group_name": "Planet",
                                                          "group_names": {"en": "Planet", "ja": "惑星"}, "number": 6,
                                                          "label": "6/0", "stars": 0}
    satellite = GAME.card_info(state, "satellite")
    assert satellite["group"] == "satellite" and satellite["group_names"] == {"en": "Satellite", "ja": "サテライト"}


def test_deck_knowledge_counts_unseen_cards_and_has_no_end_card():
    knowledge = GAME.deck_knowledge(GAME.new_game(2, seed=4), 0)
    assert knowledge["deck_count"] == 47 and knowledge["end_card_depths"] is None  # Stellar has no end card
    # The deck (with the fifth starter), the other hand and the other starter cards.
    assert sum(knowledge["unseen"].values()) == 47 + 2 + 2 and knowledge["unseen_in_hands"] == 4


def test_quick_play_path_gives_exactly_what_the_general_path_gives():
    import random

    from rules.stellar import rules as engine

    checked = 0
    for seed in range(40):
        state = GAME.new_game(2, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = rng.choice(GAME.to_move(state))
            actions = GAME.legal_actions(state, seat)
            if state.phase == "play" and len(state.deck) >= 2 + state.row.count(-1) and not state.satellite_taken:
                for action in actions:
                    if getattr(action, "face_down", False):
                        continue
                    card = GAME.cards.kind(action.card, where="")
                    to_telescope = isinstance(action, PlayToTelescope)
                    slot = SLOTS.index(action.slot) if to_telescope else -1
                    quick = engine._play_quickly(state, seat, card, to_telescope, slot)
                    assert quick == engine._play_slowly(state, seat, card, to_telescope, slot, False)
                    checked += 1
            state = GAME.apply(state, seat, rng.choice(actions))
    assert checked > 1000
