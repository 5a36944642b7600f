"""Jump Gate rule clauses, one test each, named after the clause (the rules text; docs/readings.md,
"Jump Gate"; the rulings in ``rules/jump_gate/rules.py``'s docstring).

Setup is checked on seeded new games; every other clause writes its situation as a position file
and loads it with ``decode``, so the situation is visible in the test. The assumed component file
gives the planets these codes (jump, scan, land): PA 1 3 5, PB 2 4 6, PC 3 5 1, PD 4 6 2, PE 5 1 3,
PF 6 2 4, PG 1 5 3. NavComp cards are named by their codes (``J1-S3``: jump 1, scan 3; ``~`` wild).
"""

from __future__ import annotations

import random
import pytest

import rules
from rules.jump_gate import (
    ClaimPick, Discard, Draw, Fly, Harvest, Jump, LandClaim, Mark, Pass, Research, Scan, TakeMarked,
)
from tests.helpers.jump_gate import CLAIM_HANDS, DECK, HANDS, HIDDEN, RING_IDS, down, planet, position, up

GAME = rules.get_game("jump_gate")


def load(**zones):
    return GAME.decode(position(**zones))


def state_json(state) -> dict:
    return GAME.encode(state)["state"]


def ring_planet(state, planet_id: str) -> dict:
    return next(p for p in state_json(state)["ring"] if p["planet"] == planet_id)


def play(state, *moves):
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def refused(state, seat, action, *, rule: str, says: str) -> rules.IllegalAction:
    """``action`` is refused naming ``rule`` and saying ``says``, and the state is unchanged."""
    before, snapshot = GAME.encode(state), state._replace()
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert rule in caught.value.rule, caught.value.rule
    assert says in caught.value.reason, caught.value.reason
    assert GAME.encode(state) == before and state == snapshot
    return caught.value


def kinds_of(actions, cls) -> list:
    return [a for a in actions if isinstance(a, cls)]


# -- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players,planets", [(2, 6), (3, 7), (4, 8), (5, 9)])
def test_setup_ring_of_six_seven_eight_nine_planets_for_two_to_five_players(players, planets):
    for seed in range(5):
        data = state_json(GAME.new_game(players, seed))
        ids = [p["planet"] for p in data["ring"]]
        assert len(ids) == planets and len(set(ids)) == planets


def test_setup_first_and_last_planets_of_the_ring_are_neighbours():
    state = load(ships=["PA", "gate"])
    assert {a.planet for a in kinds_of(GAME.legal_actions(state, 0), Fly)} == {"PF", "PB"}
    state = GAME.apply(state, 0, Fly(planet="PF"))
    assert state_json(state)["ships"][0] == "PF"
    assert {a.planet for a in kinds_of(GAME.legal_actions(state, 0), Fly)} == {"PE", "PA"}
    assert state_json(GAME.apply(state, 0, Fly(planet="PA")))["ships"][0] == "PA"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_each_planet_gets_four_resources_three_face_down_and_one_face_up(players):
    for seed in range(5):
        for p in state_json(GAME.new_game(players, seed))["ring"]:
            assert [slot["face_up"] for slot in p["resources"]] == [False, False, False, True]
            assert [slot["marker"] for slot in p["resources"]] == [None] * 4 and p["claimed_by"] is None


@pytest.mark.parametrize("players,each", [(2, 3), (3, 2), (4, 2), (5, 2)])
def test_setup_hidden_resources_three_each_with_two_players_two_otherwise_never_fame(players, each):
    for seed in range(20):
        state = GAME.new_game(players, seed)
        hidden = state_json(state)["hidden"]
        assert [len(h) for h in hidden] == [each] * players
        assert not any(card.startswith("fame") for h in hidden for card in h)
        # Every resource card is somewhere: on a planet, hidden or set aside unused.
        assert sum(GAME.inventory(state)[name] for name in GAME.comps.resource_names) == 48


def test_setup_fame_dealt_as_a_hidden_resource_is_set_aside_replaced_and_shuffled_back():
    replaced = []
    for seed in range(40):
        state = GAME.new_game(5, seed)
        if state.log[0][3][1]:
            replaced.append(state)
    assert replaced, "some seed must deal a Fame card as a hidden resource"
    for state in replaced:
        assert not any(card.startswith("fame") for h in state_json(state)["hidden"] for card in h)
        inventory = GAME.inventory(state)
        assert inventory["fame"] + inventory["fame-bh"] == 4  # none lost: back among planets and unused
        assert f"replaced by others: {state.log[0][3][1]})" in GAME.events(state)[0].text   # (how many, said)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_hands_of_five_navcomp_cards_and_ships_at_the_gate(players):
    data = state_json(GAME.new_game(players, 3))
    assert [len(h) for h in data["hands"]] == [5] * players
    assert len(data["deck"]) == 48 - 5 * players and data["discard"] == []
    assert data["ships"] == ["gate"] * players
    assert data["black_hole"] == [0] * players and data["gained"] == [[]] * players


def test_setup_each_player_has_ten_markers():
    state = GAME.new_game(3, 1)
    assert GAME.observe(state, 0)["markers_left"] == [10, 10, 10]


# -- the gate ------------------------------------------------------------------------------------
def test_at_the_gate_only_jump_research_and_pass_are_legal():
    state = load()
    actions = GAME.legal_actions(state, 0)
    assert {type(a) for a in actions} == {Jump, Research, Pass}
    # J1-S3 reaches PA, J2-S4 reaches PB, the wild J~-S2 every planet; the land/scan cards no planet.
    assert {(a.card, a.planet) for a in actions if isinstance(a, Jump)} == \
        {("J1-S3", "PA"), ("J2-S4", "PB")} | {("J~-S2", p) for p in RING_IDS[2]}


@pytest.mark.parametrize("action,what", [
    (Fly(planet="PA"), "Fly"), (Scan(card="J1-S3"), "Scan"), (LandClaim(cards=("S6-L5", "S1-L6")), "Land & Claim"),
    (Harvest(card="J1-S3", slot=4), "Harvest"),
])
def test_at_the_gate_fly_scan_land_and_harvest_are_refused(action, what):
    refused(load(), 0, action, rule="start: ships begin at the Jump Gate", says=f"still at the Jump Gate, which is no planet: {what}")


# -- the turn ------------------------------------------------------------------------------------
def test_turn_two_actions_then_the_next_player():
    state = load(ships=["PA", "gate"])
    state = GAME.apply(state, 0, Fly(planet="PB"))
    assert (state.seat, state.actions_left) == (0, 1)
    state = GAME.apply(state, 0, Fly(planet="PC"))
    assert (state.seat, state.actions_left, state.round) == (1, 2, 0)
    assert GAME.to_move(state) == (1,)


def test_turn_the_same_action_twice_is_allowed():
    state = play(load(), (0, Jump(card="J1-S3", planet="PA")), (0, Jump(card="J2-S4", planet="PB")))
    data = state_json(state)
    assert data["ships"][0] == "PB" and data["discard"] == ["J1-S3", "J2-S4"] and state.seat == 1


def test_turn_a_round_ends_after_the_last_player():
    state = load(ships=["PA", "PD"], seat=1, start_player=0)
    state = play(state, (1, Fly(planet="PE")), (1, Fly(planet="PF")))
    assert (state.seat, state.round) == (0, 1)


@pytest.mark.parametrize("first", [None, Fly(planet="PB")])
def test_turn_pass_ends_the_turn_at_once(first):
    state = load(ships=["PA", "gate"])
    if first is not None:
        state = GAME.apply(state, 0, first)
    state = GAME.apply(state, 0, Pass())
    assert (state.seat, state.actions_left, state.phase) == (1, 2, "action")


def test_turn_only_the_player_whose_turn_it_is_acts():
    state = load(ships=["PA", "PB"])
    assert GAME.legal_actions(state, 1) == []
    refused(state, 1, Fly(planet="PC"), rule="turn order", says="it is Player 1's turn, not Player 2's")


# -- Fly -------------------------------------------------------------------------------------------
def test_fly_moves_to_a_neighbouring_planet_and_spends_no_card():
    state = GAME.apply(load(ships=["PC", "gate"]), 0, Fly(planet="PD"))
    data = state_json(state)
    assert data["ships"][0] == "PD" and sorted(data["hands"][0]) == sorted(HANDS[0]) and data["discard"] == []


def test_fly_to_a_planet_that_is_not_a_neighbour_is_refused():
    state = load(ships=["PC", "gate"])
    refused(state, 0, Fly(planet="PE"), rule="Fly:", says="Elara is not next to Caldera in the ring")
    refused(state, 0, Fly(planet="PG"), rule="Fly:", says="not in this game's ring")


# -- Jump ------------------------------------------------------------------------------------------
def test_jump_discards_a_card_whose_jump_code_matches_the_planet():
    state = GAME.apply(load(), 0, Jump(card="J1-S3", planet="PA"))
    data = state_json(state)
    assert data["ships"][0] == "PA" and data["discard"] == ["J1-S3"] and "J1-S3" not in data["hands"][0]


def test_jump_with_a_card_whose_jump_code_differs_is_refused():
    refused(load(), 0, Jump(card="J2-S4", planet="PA"), rule="Jump:", says="J2-S4 has no jump code 1 (nor ~) for Aurel")


def test_jump_card_without_a_jump_code_is_refused():
    refused(load(), 0, Jump(card="S6-L5", planet="PA"), rule="Jump:", says="S6-L5 has no jump code 1")


def test_jump_wild_code_matches_every_planet():
    for target in RING_IDS[2]:
        state = GAME.apply(load(), 0, Jump(card="J~-S2", planet=target))
        assert state_json(state)["ships"][0] == target


def test_jump_to_the_planet_the_ship_is_at_is_refused():
    state = load(ships=["PA", "gate"])
    assert Jump(card="J1-S3", planet="PA") not in GAME.legal_actions(state, 0)
    refused(state, 0, Jump(card="J1-S3", planet="PA"), rule="Jump:", says="already at Aurel")


def test_jump_with_a_card_not_in_hand_is_refused():
    refused(load(), 0, Jump(card="J3-S5", planet="PC"), rule="Jump:", says="Player 1 has no J3-S5 in hand")


# -- Scan ------------------------------------------------------------------------------------------
def test_scan_reveals_a_face_down_resource_then_the_scanner_may_place_a_marker():
    state = GAME.apply(load(ships=["PA", "gate"]), 0, Scan(card="J1-S3"))  # PA's scan code is 3
    assert state.phase == "mark" and GAME.to_move(state) == (0,)
    slots = ring_planet(state, "PA")["resources"]
    assert [s["face_up"] for s in slots] == [True, False, False, True] and slots[0]["card"] == "sand"
    assert state_json(state)["discard"] == ["J1-S3"]
    # A marker may go on either face-up resource, or nowhere.
    assert set(GAME.legal_actions(state, 0)) == {Mark(slot=1), Mark(slot=4), Mark(slot=None)}
    marked = GAME.apply(state, 0, Mark(slot=1))
    assert ring_planet(marked, "PA")["resources"][0]["marker"] == 0
    assert (marked.phase, marked.actions_left) == ("action", 1)
    assert GAME.observe(marked, 0)["markers_left"] == [9, 10]


def test_scan_marker_is_optional():
    state = play(load(ships=["PA", "gate"]), (0, Scan(card="J1-S3")), (0, Mark(slot=None)))
    assert [s["marker"] for s in ring_planet(state, "PA")["resources"]] == [None] * 4
    assert (state.phase, state.actions_left) == ("action", 1)


def test_scan_needs_a_card_matching_the_scan_code():
    refused(load(ships=["PA", "gate"]), 0, Scan(card="J2-S4"), rule="Scan:", says="J2-S4 has no scan code 3 (nor ~) for Aurel")


def test_scan_wild_code_matches_any_planet():
    state = load(ships=["PA", "gate"], hands=(["J3-S~", "J2-S4"], HANDS[1]))
    assert Scan(card="J3-S~") in GAME.legal_actions(state, 0)
    assert GAME.apply(state, 0, Scan(card="J3-S~")).phase == "mark"


def test_scan_marker_goes_only_on_an_unmarked_face_up_resource():
    pa = planet("PA", down("sand"), down("water"), down("energel_dark"), up("gem_red", marker=1))
    state = GAME.apply(load(planets=[pa], ships=["PA", "PA"]), 0, Scan(card="J1-S3"))
    assert set(GAME.legal_actions(state, 0)) == {Mark(slot=1), Mark(slot=None)}
    refused(state, 0, Mark(slot=4), rule="Scan: you may mark", says="resource 4 of Aurel already has a marker")
    refused(state, 0, Mark(slot=2), rule="Scan: you may mark", says="resource 2 of Aurel is face down")


def test_scan_at_most_one_marker_per_player_per_planet():
    pa = planet("PA", down("sand"), down("water"), down("energel_dark"), up("gem_red", marker=0))
    state = GAME.apply(load(planets=[pa], ships=["PA", "gate"]), 0, Scan(card="J1-S3"))
    # The resource is revealed, but no marker phase follows: the scan is the whole action.
    assert ring_planet(state, "PA")["resources"][0]["face_up"] is True
    assert (state.phase, state.actions_left) == ("action", 1)


def test_scan_no_marker_when_the_supply_is_empty():
    # Player 1's ten markers: five claimed planets and five on the black hole.
    claimed = [planet(p, None, None, None, None, claimed_by=0) for p in ("PB", "PC", "PD", "PE", "PF")]
    gained = (["sand-bh", "sand-bh", "sand-bh", "water-bh", "water-bh"], [])
    state = load(planets=claimed, ships=["PA", "gate"], gained=gained)
    assert GAME.observe(state, 0)["markers_left"] == [0, 10]
    state = GAME.apply(state, 0, Scan(card="J1-S3"))
    assert ring_planet(state, "PA")["resources"][0]["face_up"] is True
    assert (state.phase, state.actions_left) == ("action", 1)


ALL_UP_PA = planet("PA", "sand", "water", "energel_dark", "gem_red")


def test_scan_with_nothing_face_down_is_refused_by_default():
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"])
    assert not kinds_of(GAME.legal_actions(state, 0), Scan)
    refused(state, 0, Scan(card="J1-S3"), rule="Scan:", says="Aurel has no face-down resource left to reveal")


def test_scan_without_face_down_switch_allows_a_scan_just_to_place_a_marker():
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"], variants={"scan_without_face_down": True})
    assert Scan(card="J1-S3") in GAME.legal_actions(state, 0)
    state = GAME.apply(state, 0, Scan(card="J1-S3"))
    assert state.phase == "mark" and state_json(state)["discard"] == ["J1-S3"]
    state = GAME.apply(state, 0, Mark(slot=2))
    assert ring_planet(state, "PA")["resources"][1] == up("water", marker=0)


@pytest.mark.parametrize("pa", [
    planet("PA", up("sand", marker=0), "water", "energel_dark", "gem_red"),  # already has a marker there
    planet("PA", up("sand", marker=1), None, None, None),                    # nothing unmarked
], ids=["own-marker-there", "nothing-unmarked"])
def test_scan_without_face_down_switch_still_needs_a_marker_to_place(pa):
    state = load(planets=[pa], ships=["PA", "PA"], variants={"scan_without_face_down": True})
    assert not kinds_of(GAME.legal_actions(state, 0), Scan)
    refused(state, 0, Scan(card="J1-S3"), rule="Scan:", says="could place no marker there")


# -- Land & Claim ------------------------------------------------------------------------------------
LANDER = (["S6-L5", "J1-L5", "S6-L~", "S1-L6", "J1-S3"], HANDS[1])  # PA's land code is 5


def test_land_and_claim_discards_two_cards_matching_the_land_code():
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"], hands=LANDER)
    pairs = {a.cards for a in kinds_of(GAME.legal_actions(state, 0), LandClaim)}
    assert pairs == {("S6-L5", "S6-L~"), ("S6-L5", "J1-L5"), ("S6-L~", "J1-L5")}  # the wild counts as a 5
    state = GAME.apply(state, 0, LandClaim(cards=("S6-L5", "J1-L5")))
    assert ring_planet(state, "PA")["claimed_by"] == 0
    assert sorted(state_json(state)["discard"]) == ["J1-L5", "S6-L5"]
    assert state.phase == "claim_pick"  # no markers on PA: the claimer's pick comes next


def test_land_with_the_wild_land_code():
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"], hands=LANDER)
    assert ring_planet(GAME.apply(state, 0, LandClaim(cards=("J1-L5", "S6-L~"))), "PA")["claimed_by"] == 0


def test_land_with_a_card_whose_land_code_differs_is_refused():
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"], hands=LANDER)
    refused(state, 0, LandClaim(cards=("S6-L5", "S1-L6")), rule="Land & Claim:", says="S1-L6 has no land code 5 (nor ~) for Aurel")
    refused(state, 0, LandClaim(cards=("S6-L5", "J1-S3")), rule="Land & Claim:", says="J1-S3 has no land code 5")


def test_land_two_copies_of_one_card_need_two_in_hand():
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"], hands=LANDER)
    refused(state, 0, LandClaim(cards=("S6-L5", "S6-L5")), rule="Land & Claim:", says="has only one S6-L5")
    two = load(planets=[ALL_UP_PA], ships=["PA", "gate"], hands=(["S6-L5", "S6-L5", "J1-S3"], HANDS[1]))
    assert LandClaim(cards=("S6-L5", "S6-L5")) in GAME.legal_actions(two, 0)


def test_land_with_a_face_down_resource_left_is_refused():
    state = load(ships=["PA", "gate"], hands=LANDER)
    assert not kinds_of(GAME.legal_actions(state, 0), LandClaim)
    refused(state, 0, LandClaim(cards=("S6-L5", "J1-L5")), rule="Land & Claim:", says="Aurel still has face-down resources")


def test_land_on_a_claimed_planet_is_refused():
    pa = planet("PA", "sand", "water", None, None, claimed_by=1)
    state = load(planets=[pa], ships=["PA", "gate"], hands=LANDER)
    assert not kinds_of(GAME.legal_actions(state, 0), LandClaim)
    refused(state, 0, LandClaim(cards=("S6-L5", "J1-L5")), rule="Land & Claim:", says="Aurel was already claimed by Player 2")


def test_land_needs_a_marker_in_the_supply():
    claimed = [planet(p, None, None, None, None, claimed_by=0) for p in ("PB", "PC", "PD", "PE", "PF")]
    gained = (["sand-bh", "sand-bh", "sand-bh", "water-bh", "water-bh"], [])
    state = load(planets=[ALL_UP_PA, *claimed], ships=["PA", "gate"], hands=LANDER, gained=gained)
    assert not kinds_of(GAME.legal_actions(state, 0), LandClaim)
    refused(state, 0, LandClaim(cards=("S6-L5", "J1-L5")), rule="markers: ten per player", says="no marker left to claim with")


# The claim sequence, with three players: Player 2 claims PA, where every player has a marker.
CLAIMED_PA = planet("PA", up("sand", marker=0), up("water", marker=2), up("gem_red", marker=1), "energel_dark")


def claim_by_player_2():
    state = load(players=3, planets=[CLAIMED_PA], ships=["PB", "PA", "PC"], hands=CLAIM_HANDS, seat=1)
    return GAME.apply(state, 1, LandClaim(cards=("S5-L5", "J1-L5")))


def test_claim_marked_resources_are_offered_claimer_first_then_clockwise():
    state = claim_by_player_2()
    assert state.phase == "claim_take" and state.waiting == (1, 2, 0)
    assert GAME.to_move(state) == (1,) and GAME.legal_actions(state, 1) == [TakeMarked(take=True), TakeMarked(take=False)]
    refused(state, 0, TakeMarked(take=True), rule="Land & Claim: from the claimer clockwise",
            says="Player 2 decides first whether to take the marked resource, not Player 1")
    state = GAME.apply(state, 1, TakeMarked(take=True))
    assert GAME.to_move(state) == (2,)
    state = GAME.apply(state, 2, TakeMarked(take=False))
    assert GAME.to_move(state) == (0,)


def test_claim_markers_return_whether_the_resource_is_taken_or_left():
    state = play(claim_by_player_2(), (1, TakeMarked(take=True)), (2, TakeMarked(take=False)), (0, TakeMarked(take=True)))
    data = state_json(state)
    assert data["gained"] == [["sand"], ["gem_red"], []]
    assert ring_planet(state, "PA")["resources"] == [None, up("water"), None, up("energel_dark")]
    # Every scan marker is back; Player 2's claim marker stays on PA.
    assert GAME.observe(state, 0)["markers_left"] == [10, 9, 10]


def test_claim_then_the_claimer_may_take_one_remaining_resource():
    state = play(claim_by_player_2(), (1, TakeMarked(take=True)), (2, TakeMarked(take=False)), (0, TakeMarked(take=True)))
    assert state.phase == "claim_pick" and GAME.to_move(state) == (1,)
    assert GAME.legal_actions(state, 1) == [ClaimPick(slot=2), ClaimPick(slot=4), ClaimPick(slot=None)]
    state = GAME.apply(state, 1, ClaimPick(slot=2))
    assert state_json(state)["gained"][1] == ["water", "gem_red"]  # in component-file order
    assert ring_planet(state, "PA")["resources"] == [None, None, None, up("energel_dark")]
    assert (state.phase, state.seat, state.actions_left) == ("action", 1, 1)


def test_claim_the_claimers_pick_is_optional():
    state = play(claim_by_player_2(), (1, TakeMarked(take=False)), (2, TakeMarked(take=False)),
                 (0, TakeMarked(take=False)), (1, ClaimPick(slot=None)))
    assert state_json(state)["gained"] == [[], [], []]
    assert (state.phase, state.actions_left) == ("action", 1)


def test_claim_no_pick_when_nothing_is_left_on_the_planet():
    pa = planet("PA", None, None, None, up("gem_red", marker=0))
    state = load(planets=[pa], ships=["PA", "gate"], hands=LANDER)
    state = play(state, (0, LandClaim(cards=("S6-L5", "J1-L5"))), (0, TakeMarked(take=True)))
    assert (state.phase, state.actions_left) == ("action", 1)


# -- Harvest ---------------------------------------------------------------------------------------
def test_harvest_your_marked_resource_with_any_card():
    pa = planet("PA", down("sand"), down("water"), down("energel_dark"), up("gem_red", marker=0))
    state = load(planets=[pa], ships=["PA", "gate"])
    assert {a.slot for a in kinds_of(GAME.legal_actions(state, 0), Harvest)} == {4}
    state = GAME.apply(state, 0, Harvest(card="S1-L6", slot=4))  # S1-L6 carries none of PA's codes
    data = state_json(state)
    assert data["gained"][0] == ["gem_red"] and data["discard"] == ["S1-L6"]
    assert ring_planet(state, "PA")["resources"][3] is None
    assert GAME.observe(state, 0)["markers_left"][0] == 10  # the marker came back


def test_harvest_an_unmarked_resource_only_when_nothing_is_face_down():
    state = load(ships=["PA", "gate"])
    assert not kinds_of(GAME.legal_actions(state, 0), Harvest)
    refused(state, 0, Harvest(card="J1-S3", slot=4), rule="Harvest:", says="only your own marked resource")
    refused(state, 0, Harvest(card="J1-S3", slot=1), rule="Harvest:", says="resource 1 is face down")
    state = load(planets=[ALL_UP_PA], ships=["PA", "gate"])
    assert {a.slot for a in kinds_of(GAME.legal_actions(state, 0), Harvest)} == {1, 2, 3, 4}
    assert state_json(GAME.apply(state, 0, Harvest(card="J1-S3", slot=2)))["gained"][0] == ["water"]


def test_harvest_another_players_marked_resource_is_refused():
    pa = planet("PA", up("sand", marker=1), "water", "energel_dark", "gem_red")
    state = load(planets=[pa], ships=["PA", "PA"])
    assert {a.slot for a in kinds_of(GAME.legal_actions(state, 0), Harvest)} == {2, 3, 4}
    refused(state, 0, Harvest(card="J1-S3", slot=1), rule="Harvest:", says="Player 2's marker is on resource 1")


def test_harvest_at_a_planet_another_player_claimed_is_allowed():
    pa = planet("PA", "sand", None, None, "gem_red", claimed_by=1)
    state = GAME.apply(load(planets=[pa], ships=["PA", "gate"]), 0, Harvest(card="J1-S3", slot=1))
    assert state_json(state)["gained"][0] == ["sand"]


def test_harvest_an_empty_slot_is_refused():
    pa = planet("PA", "sand", None, None, "gem_red")
    refused(load(planets=[pa], ships=["PA", "gate"]), 0, Harvest(card="J1-S3", slot=2), rule="Harvest:",
            says="resource slot 2 of Aurel is empty")


# -- Research --------------------------------------------------------------------------------------
def test_research_discards_cards_one_at_a_time_then_draws_up_to_five():
    state = play(load(), (0, Research()), (0, Discard(card="S6-L5")), (0, Discard(card="S1-L6")))
    assert state.phase == "research" and len(state_json(state)["hands"][0]) == 3
    state = GAME.apply(state, 0, Draw())
    data = state_json(state)
    assert data["discard"] == ["S6-L5", "S1-L6"]
    assert sorted(data["hands"][0]) == sorted(["J1-S3", "J2-S4", "J~-S2", "J6-S3", "J1-S4"])  # the deck's top two
    assert data["deck"] == list(DECK[2:])
    assert (state.phase, state.actions_left) == ("action", 1)  # Research was one action


def test_research_may_discard_nothing_and_draws_up_to_five():
    state = play(load(hands=(["J1-S3", "J2-S4"], HANDS[1])), (0, Research()), (0, Draw()))
    assert len(state_json(state)["hands"][0]) == 5


def test_research_discards_at_most_the_whole_hand_of_five():
    state = load()
    state = GAME.apply(state, 0, Research())
    for card in HANDS[0]:
        state = GAME.apply(state, 0, Discard(card=card))
    assert GAME.legal_actions(state, 0) == [Draw()]
    refused(state, 0, Discard(card="J1-S3"), rule="Research:", says="has no J1-S3 in hand")
    assert sorted(state_json(GAME.apply(state, 0, Draw()))["hands"][0]) == sorted(DECK[:5])


def test_research_reshuffles_the_discards_when_the_deck_runs_out_seeded_by_the_state():
    discard = ["J1-S4", "J2-S5", "J3-S~", "J6-S2"]
    state = load(hands=(["J1-S3", "J2-S4"], HANDS[1]), deck=["J6-S3"], discard=discard, seed=7)
    after = play(state, (0, Research()), (0, Draw()))
    assert after == play(state, (0, Research()), (0, Draw()))
    data = state_json(after)
    pile = list(discard)
    random.Random("jump_gate:7:0").shuffle(pile)
    assert data["shuffles"] == 1 and data["discard"] == [] and data["deck"] == pile[2:]
    assert sorted(data["hands"][0]) == sorted(["J1-S3", "J2-S4", "J6-S3", *pile[:2]])
    assert [e.kind for e in GAME.events(after)].count("reshuffle") == 1


def test_research_a_reshuffled_deck_holds_only_the_discards_in_every_sample():
    # The discards are played face up, so after a reshuffle everyone knows the deck holds only them:
    # Player 2's view re-deals Player 1's hand and the deck, but never puts a hand card into the deck.
    discard = ["J1-S4", "J2-S5", "J3-S~", "J6-S2", "S4-L3", "S5-L4", "J4-L2"]
    state = load(hands=(["J1-S3", "J2-S4"], HANDS[1]), deck=["J6-S3"], discard=discard, seed=7)
    state = play(state, (0, Research()), (0, Draw()))
    assert len(state_json(state)["deck"]) == 5
    decks = set()
    for seed in range(200):
        twin = GAME.sample_hidden(state, 1, random.Random(seed))
        deck = state_json(twin)["deck"]
        assert all(deck.count(card) <= discard.count(card) for card in deck), deck
        assert GAME.observe(twin, 1) == GAME.observe(state, 1)
        decks.add(tuple(sorted(deck)))
    assert len(decks) > 1   # which discards Player 1 drew is still unknown
    assert sorted(state_json(state)["reshuffled"]) == sorted(discard)
    assert GAME.decode(GAME.encode(state)) == state._replace(log=())


def test_research_a_reshuffled_deck_must_come_from_the_discards_reshuffled():
    data = position(deck=["J6-S3"], discard=[])
    data["state"]["reshuffled"] = ["J1-S4"]
    with pytest.raises(rules.InvalidPosition, match="the deck holds J6-S3, which were not among the discards"):
        GAME.decode(data)
    del data["state"]["reshuffled"]   # a file written before the field existed: no reshuffle known
    assert state_json(GAME.decode(data))["reshuffled"] == []


def test_research_with_no_cards_left_anywhere_draws_nothing():
    state = play(load(hands=(["J1-S3"], HANDS[1]), deck=[]), (0, Research()), (0, Draw()))
    assert state_json(state)["hands"][0] == ["J1-S3"] and state.actions_left == 1


def test_research_phase_allows_only_discards_and_the_draw():
    state = GAME.apply(load(ships=["PA", "gate"]), 0, Research())
    refused(state, 0, Fly(planet="PB"), rule="Research:", says="discard a card or draw up to five")


# -- markers ---------------------------------------------------------------------------------------
def test_markers_claim_and_black_hole_markers_stay_scan_markers_return():
    pa = planet("PA", up("sand-bh", marker=0), "water", "energel_dark", "gem_red")
    state = load(planets=[pa], ships=["PA", "gate"], hands=LANDER)
    assert GAME.observe(state, 0)["markers_left"][0] == 9  # the scan marker
    state = play(state, (0, LandClaim(cards=("S6-L5", "J1-L5"))), (0, TakeMarked(take=True)))
    # Claim marker on PA (permanent), scan marker back, black-hole marker for sand-bh (permanent).
    assert GAME.observe(state, 0)["markers_left"][0] == 8
    assert state_json(state)["black_hole"] == [1, 0]


# -- the black hole --------------------------------------------------------------------------------
def test_black_hole_gaining_a_resource_with_the_icon_puts_a_marker_on_the_black_hole():
    pa = planet("PA", "sand-bh", "water", "energel_dark", "gem_red")
    state = GAME.apply(load(planets=[pa], ships=["PA", "gate"]), 0, Harvest(card="J1-S3", slot=1))
    assert state_json(state)["black_hole"] == [1, 0]
    assert "black_hole" in [e.kind for e in GAME.events(state)]
    plain = GAME.apply(load(planets=[pa], ships=["PA", "gate"]), 0, Harvest(card="J1-S3", slot=2))
    assert state_json(plain)["black_hole"] == [0, 0]


def test_black_hole_hidden_resources_with_the_icon_put_no_marker():
    state = load(hidden=(["sand-bh", "water-bh", "gem_red-bh"], HIDDEN[2][1]))
    assert state_json(state)["black_hole"] == [0, 0]


BH_PA = planet("PA", "sand-bh", "water", "energel_dark", "gem_red")


def test_black_hole_seventh_marker_ends_the_game_at_once():
    gained = (["sand-bh", "water-bh", "fame-bh"], ["sand-bh", "water-bh", "fame-bh"])
    state = load(planets=[BH_PA], ships=["PA", "gate"], gained=gained)
    state = GAME.apply(state, 0, Harvest(card="J1-S3", slot=1))  # the first action of the turn
    assert state.phase == "over" and GAME.is_over(state) and GAME.to_move(state) == ()
    assert state_json(state)["black_hole"] == [4, 3]
    assert GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 1) == []
    refused(state, 0, Pass(), rule="game end", says="the game is over")


def test_black_hole_seventh_marker_in_the_middle_of_a_claim_ends_the_game_at_once():
    pa = planet("PA", up("sand-bh", marker=1), up("water", marker=2), "gem_red", "energel_dark")
    gained = (["sand-bh", "water-bh"], ["fame-bh", "fame-bh"], ["water-bh", "gem_red-bh"])
    state = load(players=3, planets=[pa], ships=["PB", "PA", "PC"], hands=CLAIM_HANDS, seat=1, gained=gained)
    state = play(state, (1, LandClaim(cards=("S5-L5", "J1-L5"))), (1, TakeMarked(take=True)))
    assert state.phase == "over" and GAME.to_move(state) == ()
    assert state_json(state)["gained"][2] == ["water-bh", "gem_red-bh"]  # Player 3 never took the water
    assert state.lost_hidden() == (1,)


def test_black_hole_at_seven_the_player_with_most_markers_loses_the_hidden_resources():
    gained = (["sand-bh", "water-bh", "fame-bh"], ["sand-bh", "water-bh", "fame-bh"])
    state = GAME.apply(load(planets=[BH_PA], ships=["PA", "gate"], gained=gained), 0, Harvest(card="J1-S3", slot=1))
    assert state.lost_hidden() == (0,)
    rows = GAME.score_breakdown(state)
    assert rows[0]["resource_cards"] == 4 and rows[1]["resource_cards"] == 6  # Player 2 keeps 3 hidden
    hidden = [next(c for c in row["categories"] if c["category"] == "hidden") for row in rows]
    assert hidden[0]["lost"] is True and hidden[1]["lost"] is False
    assert GAME.observe(state, None)["black_hole"]["lost_hidden"] == [0]


def test_black_hole_tied_for_most_markers_all_of_them_lose_the_hidden_resources():
    pg = planet("PG", "sand-bh", "fame", None, None)
    gained = (["sand-bh", "water-bh", "fame-bh"], ["sand-bh", "water-bh", "fame-bh"], [])
    state = load(players=3, planets=[pg], ships=["PA", "PB", "PG"], seat=2, gained=gained)
    state = GAME.apply(state, 2, Harvest(card="J1-S3", slot=1))
    assert state.phase == "over" and state_json(state)["black_hole"] == [3, 3, 1]
    assert state.lost_hidden() == (0, 1)
    assert [row["resource_cards"] for row in GAME.score_breakdown(state)] == [3, 3, 3]  # 0+3, 0+3, 1+2 hidden


def test_black_hole_with_six_or_fewer_markers_nobody_loses_the_hidden_resources():
    claimed = [planet(p, None, None, None, None, claimed_by=0) for p in ("PB", "PC", "PD", "PE", "PF")]
    gained = (["sand-bh", "water-bh", "fame-bh"], ["sand-bh", "water-bh", "fame-bh"])
    # Player 1 is the last of the round (Player 2 started) and claims the last planet.
    state = load(planets=[ALL_UP_PA, *claimed], ships=["PA", "PF"], hands=LANDER, gained=gained, seat=0, start_player=1)
    state = play(state, (0, LandClaim(cards=("S6-L5", "J1-L5"))), (0, ClaimPick(slot=None)), (0, Pass()))
    assert state.phase == "over" and state_json(state)["black_hole"] == [3, 3]
    assert state.lost_hidden() == ()
    assert [row["resource_cards"] for row in GAME.score_breakdown(state)] == [6, 6]


# -- the end when every planet is claimed ----------------------------------------------------------
def all_but_pa_claimed(*, hands=LANDER, **zones):
    claimed = [planet(p, None, None, None, None, claimed_by=1) for p in ("PB", "PC", "PD", "PE", "PF")]
    return load(planets=[ALL_UP_PA, *claimed], hands=hands, **zones)


def test_all_planets_claimed_the_round_is_finished_then_the_game_ends():
    state = all_but_pa_claimed(ships=["PA", "PB"], seat=0, start_player=0)
    state = play(state, (0, LandClaim(cards=("S6-L5", "J1-L5"))), (0, ClaimPick(slot=1)))
    assert state.phase == "action" and state.seat == 0 and state.actions_left == 1
    state = GAME.apply(state, 0, Fly(planet="PB"))
    # Player 2 still has the round's last turn.
    assert state.phase == "action" and GAME.to_move(state) == (1,)
    state = play(state, (1, Fly(planet="PC")), (1, Fly(planet="PD")))
    assert state.phase == "over" and GAME.turns_taken(state) == (1, 1)
    assert "claims_end" in [e.kind for e in GAME.events(state)]


def test_all_planets_claimed_by_the_last_player_of_the_round_ends_the_game_after_that_turn():
    state = all_but_pa_claimed(ships=["PB", "PA"], seat=1, start_player=0, hands=(HANDS[0], LANDER[0]))
    state = play(state, (1, LandClaim(cards=("S6-L5", "J1-L5"))), (1, ClaimPick(slot=None)))
    assert state.phase == "action"
    state = GAME.apply(state, 1, Pass())
    assert state.phase == "over" and GAME.turns_taken(state) == (1, 1)


# -- scores during and after the game ---------------------------------------------------------------
def test_provisional_scores_leave_out_the_hidden_resources_final_scores_count_them():
    state = all_but_pa_claimed(ships=["PA", "PB"], seat=0, start_player=0, gained=(["fame"], ["water"]))
    # Player 1: 1 Fame (5); Player 2: 5 planets (20) and 1 Water (2); the hidden gems wait for the end.
    assert GAME.scores(state) == (5, 22)
    state = play(state, (0, LandClaim(cards=("S6-L5", "J1-L5"))), (0, ClaimPick(slot=None)), (0, Pass()), (1, Pass()))
    # Now Player 1 adds PA (4) and hidden red/blue/white gems (3 x 1 = 3); Player 2 an EnerGel pair
    # (7) and one blue gem (1).
    assert state.phase == "over"
    assert GAME.scores(state) == (5 + 4 + 3, 22 + 7 + 1)


# -- what every refusal shares ----------------------------------------------------------------------
def test_illegal_action_names_a_rule_and_leaves_the_state_unchanged():
    state = load(ships=["PA", "gate"])
    error = refused(state, 0, Jump(card="J2-S4", planet="PA"), rule="Jump:", says="no jump code")
    assert str(error) == f"{error.reason} (rule: {error.rule})"
    assert GAME.apply(state, 0, Jump(card="J2-S4", planet="PB")).ships == (1, -1)  # still playable as before
