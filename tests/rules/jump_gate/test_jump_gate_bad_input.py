"""Jump Gate bad input: illegal moves are refused naming the rule and change nothing; malformed
positions, actions and component files raise :class:`rules.InvalidPosition` saying what and where,
and nothing else (hypothesis, derandomized), as ``tests/rules/stellar/test_stellar_bad_input.py`` does for Stellar.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.helpers.position_fuzz import HYPOTHESIS, can_be_played, mutated_positions
from tests.helpers.position_fuzz import junk_decode_tests, position_junk as position_junk_of
from tests.helpers.position_fuzz import roundtrips as shared_roundtrips
from rules.jump_gate import (
    ClaimPick, Discard, Draw, Fly, Harvest, Jump, LandClaim, Mark, Pass, Research, Scan, TakeMarked,
)
from rules.jump_gate.cards import parse_components, standard_components
from rules.jump_gate.position import ACTION_TYPES, STATE_KEYS
from tests.helpers.jump_gate import CLAIM_HANDS, down, planet, position, up

GAME = rules.get_game("jump_gate")
RESOURCE_NAMES = list(GAME.comps.resource_names)
NAVCOMP_NAMES = list(GAME.comps.navcomp_names)
PLANET_IDS = [p.id for p in GAME.comps.planets]


def sample_positions() -> list[dict]:
    """One position per (phase, variant setting) reached by seeded random games of 2 to 5 players."""
    found = {}
    for seed in range(16):
        players, variants = 2 + seed % 4, {"scan_without_face_down": seed % 8 >= 4}
        state = GAME.new_game(players, seed, variants)
        rng = random.Random(seed)
        while True:
            found.setdefault((state.phase, variants["scan_without_face_down"]), GAME.encode(state))
            if GAME.is_over(state):
                break
            seat = rng.choice(GAME.to_move(state))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return [found[key] for key in sorted(found, key=str)]


SAMPLES = sample_positions()


def sample(phase: str) -> dict:
    return copy.deepcopy(next(s for s in SAMPLES if s["state"]["phase"] == phase))


def refused(state, seat, action, *, rule: str, says: str) -> rules.IllegalAction:
    before, snapshot = GAME.encode(state), state._replace()
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, seat, action)
    error = caught.value
    assert rule in error.rule and says in error.reason, str(error)
    assert str(error) == f"{error.reason} (rule: {error.rule})"
    assert GAME.encode(state) == before and state == snapshot
    return error


def invalid(data, *, says: str, where: str) -> rules.InvalidPosition:
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in caught.value.problem, str(caught.value)
    assert caught.value.where == where, str(caught.value)
    return caught.value


def test_samples_cover_every_phase():
    assert {s["state"]["phase"] for s in SAMPLES} == {"action", "mark", "research", "claim_take", "claim_pick", "over"}


# -- illegal moves -------------------------------------------------------------------------------
def other_seat(state) -> int:
    return (GAME.to_move(state)[0] + 1) % state.players


@pytest.mark.parametrize("phase", ["action", "mark", "research", "claim_pick"])
def test_acting_out_of_turn_is_refused(phase):
    state = GAME.decode(sample(phase))
    refused(state, other_seat(state), Pass(), rule="turn order", says="it is Player")


def test_deciding_another_players_marked_resource_is_refused():
    state = GAME.decode(sample("claim_take"))
    refused(state, other_seat(state), TakeMarked(take=True), rule="Land & Claim:", says="decides first whether to take")


@pytest.mark.parametrize("seat", [5, -1, "0", None, True])
def test_seat_that_does_not_exist_is_refused(seat):
    refused(GAME.decode(sample("action")), seat, Pass(), rule="turn order", says="there is no seat")


@pytest.mark.parametrize("action", [Mark(slot=1), Discard(card="J1-S3"), Draw(), TakeMarked(take=True), ClaimPick(slot=1),
                                    None, "pass", {"type": "pass"}])
def test_action_that_is_not_one_of_the_turns_actions_is_refused(action):
    state = GAME.decode(sample("action"))
    refused(state, state.seat, action, rule="your turn: two actions", says="is not one of the turn's actions")


@pytest.mark.parametrize("phase,action,rule,says", [
    ("mark", Pass(), "Scan: you may mark", "must first decide where to put the scan's marker"),
    ("mark", Research(), "Scan: you may mark", "must first decide where to put the scan's marker"),
    ("research", Pass(), "Research:", "is researching: discard a card or draw up to five"),
    ("research", Research(), "Research:", "is researching"),
    ("claim_take", Pass(), "Land & Claim:", "must decide whether to take the resource their marker is on"),
    ("claim_take", TakeMarked(take="yes"), "Land & Claim:", "must decide whether to take"),
    ("claim_pick", Pass(), "Land & Claim:", "must first decide which remaining resource to take"),
    ("over", Pass(), "game end", "the game is over"),
    ("over", Research(), "game end", "the game is over"),
])
def test_action_of_the_wrong_phase_is_refused(phase, action, rule, says):
    state = GAME.decode(sample(phase))
    refused(state, GAME.to_move(state)[0] if GAME.to_move(state) else 0, action, rule=rule, says=says)


@pytest.mark.parametrize("slot", [0, 5, "1", True])
def test_marker_slot_that_does_not_exist_is_refused(slot):
    state = GAME.decode(sample("mark"))
    refused(state, state.seat, Mark(slot=slot), rule="Scan: you may mark", says="resource slots are numbered 1 to 4")


@pytest.mark.parametrize("slot", [0, 5, "2", True])
def test_claim_pick_slot_that_does_not_exist_is_refused(slot):
    state = GAME.decode(sample("claim_pick"))
    refused(state, state.seat, ClaimPick(slot=slot), rule="Land & Claim:", says="resource slots are numbered 1 to 4")


def card_not_in_hand(state) -> str:
    return next(name for kind, name in enumerate(NAVCOMP_NAMES) if kind not in state.hands[state.seat])


@pytest.mark.parametrize("make,rule", [
    (lambda missing: Jump(card=missing, planet="PB"), "Jump:"),
    (lambda missing: Scan(card=missing), "Scan:"),
    (lambda missing: Harvest(card=missing, slot=1), "Harvest:"),
    (lambda missing: LandClaim(cards=(missing, missing)), "Land & Claim:"),
], ids=["jump", "scan", "harvest", "land"])
def test_card_not_in_hand_is_refused(make, rule):
    pa = planet("PA", "sand", "water", "energel_dark", "gem_red")
    state = GAME.decode(position(planets=[pa], ships=["PA", "gate"]))
    missing = card_not_in_hand(state)
    refused(state, 0, make(missing), rule=rule, says=f"Player 1 has no {missing} in hand")


def test_research_discard_of_a_card_not_in_hand_is_refused():
    state = GAME.decode(sample("research"))
    missing = card_not_in_hand(state)
    refused(state, state.seat, Discard(card=missing), rule="Research:", says="in hand")
    refused(state, state.seat, Discard(card="J9-S9"), rule="Research:", says="there is no NavComp card 'J9-S9'")


@pytest.mark.parametrize("action,rule,says", [
    (Jump(card="J2-S4", planet="PA"), "Jump:", "J2-S4 has no jump code 1 (nor ~) for Aurel"),
    (Scan(card="J2-S4"), "Scan:", "J2-S4 has no scan code 3 (nor ~) for Aurel"),
    (LandClaim(cards=("S6-L5", "S1-L6")), "Land & Claim:", "S1-L6 has no land code 5 (nor ~) for Aurel"),
])
def test_code_mismatch_is_refused(action, rule, says):
    # PA: jump 1, scan 3, land 5, with a face-down resource left for the scan; no face-down for the land.
    pa = planet("PA", "sand", "water", down("energel_dark"), "gem_red") if isinstance(action, Scan) else \
        planet("PA", "sand", "water", "energel_dark", "gem_red")
    state = GAME.decode(position(planets=[pa], ships=["PB" if isinstance(action, Jump) else "PA", "gate"]))
    refused(state, 0, action, rule=rule, says=says)


@pytest.mark.parametrize("action,rule,says", [
    (Jump(card=["J1-S3"], planet="PA"), "Jump:", "there is no NavComp card ['J1-S3']"),
    (Jump(card="J1-S3", planet=None), "Jump:", "planet None is not in this game's ring"),
    (Jump(card="J1-S3", planet="PG"), "Jump:", "planet 'PG' is not in this game's ring"),
    (Fly(planet={"PB": 1}), "Fly:", "is not in this game's ring"),
    (LandClaim(cards="S6-L5"), "Land & Claim:", "takes exactly two cards"),
    (LandClaim(cards=("S6-L5", "S6-L5", "S6-L5")), "Land & Claim:", "takes exactly two cards"),
    (Harvest(card="J1-S3", slot="4"), "Harvest:", "resource slots are numbered 1 to 4"),
])
def test_malformed_action_fields_are_refused(action, rule, says):
    state = GAME.decode(position(ships=["PA", "gate"]))
    refused(state, 0, action, rule=rule, says=says)


# -- malformed positions -------------------------------------------------------------------------
def valid(**zones) -> dict:
    data = position(**zones)
    GAME.decode(data)  # the position is fine before it is broken
    return data


def test_ring_of_the_wrong_size_is_invalid():
    data = valid()
    data["state"]["ring"].pop()
    invalid(data, says="2 players play with a ring of 6 planets, found 5", where="state.ring")


def test_planet_twice_in_the_ring_is_invalid():
    data = valid()
    data["state"]["ring"][3]["planet"] = "PA"
    invalid(data, says="planet PA is in the ring twice", where="state.ring[3].planet")


def test_unknown_planet_is_invalid():
    data = valid()
    data["state"]["ring"][2]["planet"] = "PZ"
    invalid(data, says="unknown planet 'PZ'", where="state.ring[2].planet")


def test_planet_with_other_than_four_slots_is_invalid():
    data = valid()
    data["state"]["ring"][0]["resources"].append(None)
    invalid(data, says="a planet has 4 resource slots (null once taken), found 5", where="state.ring[0].resources")


@pytest.mark.parametrize("zone,where,says", [
    (lambda s: s["ring"][1]["resources"][2].__setitem__("card", "plasma"), "state.ring[1].resources[2].card",
     "unknown resource card 'plasma'"),
    (lambda s: s["hidden"][1].__setitem__(0, "gem_green"), "state.hidden[1][0]", "unknown resource card 'gem_green'"),
    (lambda s: s["gained"][0].append("sand-BH"), "state.gained[0][0]", "unknown resource card 'sand-BH'"),
    (lambda s: s["hands"][1].__setitem__(4, "J7-S1"), "state.hands[1][4]", "unknown NavComp card 'J7-S1'"),
    (lambda s: s["deck"].__setitem__(0, "N01"), "state.deck[0]", "unknown NavComp card 'N01'"),
    (lambda s: s["discard"].append("sand"), "state.discard[0]", "unknown NavComp card 'sand'"),
])
def test_unknown_card_is_invalid(zone, where, says):
    data = valid()
    zone(data["state"])
    invalid(data, says=says, where=where)


def test_too_many_copies_of_a_resource_are_invalid():
    data = valid(gained=(["fame", "fame"], []))
    data["state"]["unused"] = ["fame"]
    invalid(data, says="fame appears 3 times, but the game has 2 copies", where="state")


def test_too_many_copies_of_a_navcomp_card_are_invalid():
    data = valid()
    data["state"]["discard"] = ["J~-S2"]  # Player 1 holds the only copy
    invalid(data, says="J~-S2 appears 2 times, but the game has 1 copy", where="state")


def test_marker_on_a_face_down_resource_is_invalid():
    data = valid()
    data["state"]["ring"][0]["resources"][1]["marker"] = 1
    invalid(data, says="a marker goes only on a face-up resource", where="state.ring[0].resources[1].marker")


def test_two_markers_of_one_player_on_a_planet_are_invalid():
    pa = planet("PA", up("sand", marker=1), up("water", marker=1), "energel_dark", "gem_red")
    data = position(planets=[pa])
    invalid(data, says="Player 2 has two markers on this planet; the limit is one", where="state.ring[0].resources[1].marker")


def test_marker_of_a_player_who_does_not_exist_is_invalid():
    pa = planet("PA", up("sand", marker=2), "water", "energel_dark", "gem_red")
    invalid(position(planets=[pa]), says="must be a whole number from 0 to 1, not 2", where="state.ring[0].resources[0].marker")


def test_claimed_planet_with_face_down_resources_is_invalid():
    data = valid()
    data["state"]["ring"][4]["claimed_by"] = 0
    invalid(data, says="a claimed planet has no face-down resource", where="state.ring[4].resources")


def test_more_than_ten_markers_on_the_table_is_invalid():
    # Five players, nine planets all claimed by Player 1, and two of its scan markers: eleven markers.
    ring = [{"planet": p, "claimed_by": 0, "resources": [None] * 4} for p in PLANET_IDS[:9]]
    ring[0]["resources"][0] = up("sand", marker=0)
    ring[1]["resources"][0] = up("water", marker=0)
    data = {"game": "jump_gate", "version": "1.0", "variants": {}, "state": {
        "players": 5, "seed": 1, "shuffles": 0, "start_player": 0, "seat": 0, "round": 3, "actions_left": 2,
        "phase": "action", "ring": ring, "ships": ["PA"] * 5, "deck": [], "discard": [], "hands": [[]] * 5,
        "hidden": [["water"] * 2, ["sand"] * 2, ["gem_red"] * 2, ["gem_blue"] * 2, ["gem_white"] * 2],
        "gained": [[]] * 5, "black_hole": [0] * 5, "unused": [], "focus": None, "waiting": []}}
    invalid(data, says="Player 1 has 11 markers on planets and resources; each player has 10", where="state.ring")
    ring[1]["resources"][0] = up("water")
    GAME.decode(data)  # ten is the limit, not an error


def test_fame_as_a_hidden_resource_is_invalid():
    data = valid()
    data["state"]["hidden"][1][0] = "fame-bh"
    invalid(data, says="Fame is never a hidden resource: setup replaces it", where="state.hidden[1]")


def test_more_hidden_resources_than_the_player_count_deals_is_invalid():
    data = valid(players=3)
    data["state"]["hidden"][2].append("sand")
    invalid(data, says="with 3 players each has 2 hidden resources, found 3", where="state.hidden[2]")


def test_black_hole_count_not_matching_the_gained_icons_is_invalid():
    data = valid(gained=(["sand-bh", "fame"], []))
    data["state"]["black_hole"] = [2, 0]
    invalid(data, says="Player 1 gained 1 resource with the black-hole icon, so has that many black-hole markers, not 2",
            where="state.black_hole[0]")


def test_hand_of_more_than_five_is_invalid():
    data = valid()
    data["state"]["hands"][1].append("J6-S3")
    data["state"]["deck"].remove("J6-S3")
    invalid(data, says="a hand holds at most 5 NavComp cards, found 6", where="state.hands[1]")


@pytest.mark.parametrize("key,value,where,says", [
    ("players", 6, "state.players", "Jump Gate is played by 2 to 5 players, not 6"),
    ("players", True, "state.players", "Jump Gate is played by 2 to 5 players"),
    ("seat", 2, "state.seat", "must be a whole number from 0 to 1, not 2"),
    ("start_player", -1, "state.start_player", "must be a whole number from 0 to 1"),
    ("actions_left", 3, "state.actions_left", "must be a whole number from 0 to 2, not 3"),
    ("phase", "scan", "state.phase", "phase must be one of action, mark, research, claim_take, claim_pick, over"),
    ("seed", 1.5, "state.seed", "must be a whole number"),
    ("ships", ["PA"], "state.ships", "needs one ship per player (2), found 1"),
    ("ships", ["PA", "PG"], "state.ships[1]", "must be one of gate, PA, PB, PC, PD, PE, PF, not 'PG'"),
    ("hands", [[]], "state.hands", "needs one hand per player (2), found 1"),
    ("black_hole", [0, -1], "state.black_hole[1]", "must be a whole number from 0 or more, not -1"),
    ("focus", "PG", "state.focus", "must be one of PA, PB, PC, PD, PE, PF, not 'PG'"),
    ("waiting", [3], "state.waiting[0]", "must be a whole number from 0 to 1, not 3"),
    ("deck", "J1-S3", "state.deck", "must be a list, not str"),
])
def test_malformed_state_field_is_invalid(key, value, where, says):
    data = valid()
    data["state"][key] = value
    invalid(data, says=says, where=where)


@pytest.mark.parametrize("change,where,says", [
    (lambda d: d.__setitem__("game", "stellar"), "position.game", "this is a position for 'stellar', not 'jump_gate'"),
    (lambda d: d.__setitem__("version", "2.0"), "position.version", "written for rules version '2.0'"),
    (lambda d: d["variants"].__setitem__("scan_without_face_down", "yes"), "variants",
     "variant 'scan_without_face_down' takes one of [False, True], not 'yes'"),
    (lambda d: d["state"].pop("unused"), "state", "missing unused"),
    (lambda d: d["state"].__setitem__("extra", 1), "state", "unknown field(s) extra"),
    (lambda d: d.__setitem__("cards", {"format": "x"}), "position.cards", "format must be 'jump_gate-components/1'"),
])
def test_malformed_position_envelope_is_invalid(change, where, says):
    data = valid()
    change(data)
    invalid(data, says=says, where=where)


# The phase must fit the zones.
def test_seven_black_hole_markers_outside_the_over_phase_is_invalid():
    data = position(gained=(["sand-bh", "sand-bh", "sand-bh", "water-bh"], ["water-bh", "fame-bh", "fame-bh"]))
    invalid(data, says="7 black-hole markers end the game at once (the limit is 7): phase must be over", where="state.phase")


def test_game_over_without_seven_markers_or_every_planet_claimed_is_invalid():
    invalid(position(phase="over", actions_left=0), says="neither holds here", where="state.phase")


def test_mark_phase_without_a_focus_planet_is_invalid():
    invalid(position(phase="mark", ships=["PA", "gate"], actions_left=1), says="phase mark is about a planet: name it in focus",
            where="state.focus")


def test_focus_outside_a_scan_or_claim_is_invalid():
    invalid(position(focus="PA", ships=["PA", "gate"]), says="only a scan's marker or a claim has a focus planet, not phase action",
            where="state.focus")


def test_scanner_away_from_the_focus_planet_is_invalid():
    invalid(position(phase="mark", focus="PA", ships=["PB", "gate"]), says="Player 1's ship must be at the focus planet PA",
            where="state.ships")


def test_mark_phase_with_the_players_marker_already_there_is_invalid():
    pa = planet("PA", up("sand", marker=0), down("water"), down("energel_dark"), "gem_red")
    invalid(position(planets=[pa], phase="mark", focus="PA", ships=["PA", "gate"]),
            says="no marker of the player there", where="state.ring")


def test_mark_phase_with_an_empty_marker_supply_is_invalid():
    claimed = [planet(p, None, None, None, None, claimed_by=0) for p in ("PB", "PC", "PD", "PE", "PF")]
    pa = planet("PA", "sand", down("water"), down("energel_dark"), "gem_red")
    gained = (["sand-bh", "sand-bh", "sand-bh", "water-bh", "water-bh"], [])
    invalid(position(planets=[pa, *claimed], phase="mark", focus="PA", ships=["PA", "gate"], gained=gained),
            says="the mark phase needs a marker in Player 1's supply; all 10 are in use", where="state.phase")
    GAME.decode(position(planets=[pa, *claimed], phase="mark", focus="PA", ships=["PA", "gate"], gained=(gained[0][:4], [])))


CLAIM_PA = planet("PA", up("sand", marker=0), up("water", marker=2), up("gem_red", marker=1), "energel_dark", claimed_by=1)


def claim_take(**zones) -> dict:
    fields = dict(players=3, planets=[CLAIM_PA], ships=["PB", "PA", "PC"], hands=CLAIM_HANDS, seat=1,
                  phase="claim_take", focus="PA", waiting=[1, 2, 0])
    fields.update(zones)
    return position(**fields)


def test_claim_take_position_written_by_hand_is_valid():
    assert GAME.to_move(GAME.decode(claim_take())) == (1,)


def test_claim_take_with_waiting_players_out_of_clockwise_order_is_invalid():
    invalid(claim_take(waiting=[1, 0, 2]), says="decide in turn from the claimer clockwise (Player 2 first)", where="state.waiting")
    invalid(claim_take(waiting=[2, 0, 1]), says="decide in turn from the claimer clockwise", where="state.waiting")
    pa = planet("PA", up("sand", marker=0), up("water", marker=2), None, "energel_dark", claimed_by=1)
    GAME.decode(claim_take(planets=[pa], waiting=[2, 0]))  # the claimer already decided


def test_claim_take_waiting_for_a_player_without_a_marker_there_is_invalid():
    pa = planet("PA", up("sand", marker=0), "water", up("gem_red", marker=1), "energel_dark", claimed_by=1)
    invalid(claim_take(planets=[pa]), says="once each, the players whose markers are on the claimed planet", where="state.waiting")
    invalid(claim_take(waiting=[1, 2]), says="every marker still on the claimed planet belongs to a player who is waiting",
            where="state.waiting")


def test_claim_phase_of_another_players_planet_is_invalid():
    pa = planet("PA", up("sand", marker=0), up("water", marker=2), up("gem_red", marker=1), "energel_dark", claimed_by=2)
    invalid(claim_take(planets=[pa]), says="the claim phases follow Player 2's claim of the focus planet", where="state.focus")


def test_waiting_players_outside_claim_take_are_invalid():
    invalid(position(waiting=[1]), says="only the claim_take phase has players waiting", where="state.waiting")


def test_claim_pick_with_markers_still_on_the_planet_is_invalid():
    invalid(claim_take(phase="claim_pick", waiting=[]), says="the claimer's pick comes after every marker left the planet",
            where="state.ring[0]")


def test_claim_pick_with_nothing_left_on_the_planet_is_invalid():
    pa = planet("PA", None, None, None, None, claimed_by=1)
    invalid(claim_take(planets=[pa], phase="claim_pick", waiting=[]), says="the claimer's pick needs a resource left",
            where="state.ring[0]")


def test_turn_in_progress_without_actions_left_is_invalid():
    invalid(position(actions_left=0), says="a turn in progress has one or two actions left", where="state.actions_left")


# -- malformed actions -----------------------------------------------------------------------------
@pytest.mark.parametrize("data,where,says", [
    (None, "action", "an action is an object with a 'type', not NoneType"),
    (["jump"], "action", "an action is an object"),
    ({"type": "warp"}, "action.type", "action type must be one of fly, jump"),
    ({"card": "J1-S3"}, "action.type", "action type must be one of"),
    ({"type": "jump", "card": "J1-S3"}, "action", "missing planet"),
    ({"type": "pass", "now": True}, "action", "unknown field(s) now"),
    ({"type": "jump", "card": "J9-S3", "planet": "PA"}, "action.card", "unknown NavComp card 'J9-S3'"),
    ({"type": "fly", "planet": "PZ"}, "action.planet", "unknown planet 'PZ'"),
    ({"type": "harvest", "card": "J1-S3", "slot": None}, "action.slot", "must be a whole number from 1 to 4, not None"),
    ({"type": "mark", "slot": 5}, "action.slot", "must be a whole number from 1 to 4, not 5"),
    ({"type": "claim_pick", "slot": "1"}, "action.slot", "must be a whole number from 1 to 4"),
    ({"type": "land_claim", "cards": ["S6-L5"]}, "action.cards", "Land & Claim takes two cards, not 1"),
    ({"type": "land_claim", "cards": "S6-L5"}, "action.cards", "must be a list, not str"),
    ({"type": "land_claim", "cards": ["S6-L5", "L5"]}, "action.cards[1]", "unknown NavComp card 'L5'"),
    ({"type": "take_marked", "take": "yes"}, "action.take", "must be true or false, not 'yes'"),
    ({"type": "discard", "card": "sand"}, "action.card", "unknown NavComp card 'sand'"),
])
def test_decode_action_on_malformed_input_is_invalid(data, where, says):
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode_action(data)
    assert says in caught.value.problem and caught.value.where == where, str(caught.value)


def test_decode_action_reads_what_encode_action_writes():
    actions = (Fly(planet="PA"), Jump(card="J~-S2", planet="PL"), Scan(card="J3-S~"), Mark(slot=4), Mark(slot=None),
               LandClaim(cards=("S6-L5", "S6-L~")), TakeMarked(take=False), ClaimPick(slot=None), ClaimPick(slot=2),
               Harvest(card="J1-L5", slot=3), Research(), Discard(card="S1-L6"), Draw(), Pass())
    assert {type(a) for a in actions} == set(ACTION_TYPES.values())
    for action in actions:
        assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action


def test_decode_action_puts_land_cards_in_the_order_legal_actions_use():
    assert GAME.decode_action({"type": "land_claim", "cards": ["S6-L~", "S6-L5"]}) == LandClaim(cards=("S6-L5", "S6-L~"))


# -- malformed component files -----------------------------------------------------------------------
def components(**changes) -> dict:
    data = copy.deepcopy(dict(standard_components().raw))
    data.update(changes)
    return data


def broken(data, *, says: str, where: str) -> None:
    with pytest.raises(rules.InvalidPosition) as caught:
        parse_components(data, where="test.json")
    assert says in caught.value.problem and caught.value.where == where, str(caught.value)


def test_standard_component_file_parses_with_the_sourced_totals():
    comps = parse_components(components())
    assert sum(comps.resource_copies) == 48 and sum(comps.navcomp_copies) == 48 and len(comps.planets) == 12


def test_component_file_that_is_not_an_object_is_invalid():
    broken([1, 2], says="a component file is a JSON object", where="test.json")


def test_component_file_of_the_wrong_format_is_invalid():
    broken(components(format="jump_gate-components/2"), says="format must be 'jump_gate-components/1', not 'jump_gate-components/2'",
           where="test.json")


@pytest.mark.parametrize("key", ["resource_types", "resources", "planets", "navcomp"])
def test_component_file_missing_a_list_is_invalid(key):
    data = components()
    del data[key]
    broken(data, says=f"'{key}' must be a non-empty list", where="test.json")
    broken(components(**{key: []}), says=f"'{key}' must be a non-empty list", where="test.json")
    broken(components(**{key: {"0": 1}}), says=f"'{key}' must be a non-empty list", where="test.json")


def test_component_file_resource_of_an_unknown_type_is_invalid():
    data = components()
    data["resources"][3] = {"type": "plasma", "black_hole": False, "copies": 2}
    broken(data, says="'type' must be one of fame, sand, water", where="test.json: resources[3]")


def test_component_file_resource_type_with_unknown_scoring_is_invalid():
    data = components()
    data["resource_types"][1] = {"id": "sand", "scoring": "dunes"}
    broken(data, says="'scoring' must be one of fame, sand, water, energel, gem, not 'dunes'", where="test.json: resource_types[1]")


def test_component_file_with_one_energel_colour_is_invalid():
    data = components()
    data["resource_types"][4]["scoring"] = "gem"
    broken(data, says="give exactly two types 'energel' scoring, not 1", where="test.json: resource_types")


@pytest.mark.parametrize("code,says", [(0, "not 0"), (100, "not 100"), ("3", "not '3'"), ("~", "not '~'"), (None, "not None"),
                                       (True, "not True")])
def test_component_file_planet_with_a_bad_code_is_invalid(code, says):
    data = components()
    data["planets"][2]["scan"] = code
    broken(data, says=f"a code is a whole number from 1 to 99, {says}", where="test.json: planets[2].scan")


@pytest.mark.parametrize("code,says", [(0, "not 0"), ("*", "not '*'"), (2.0, "not 2.0")])
def test_component_file_navcomp_card_with_a_bad_code_is_invalid(code, says):
    data = components()
    data["navcomp"][5]["jump"] = code
    broken(data, says=f"a code is a whole number from 1 to 99 or '~' (wild), {says}", where="test.json: navcomp[5].jump")


def test_component_file_navcomp_card_without_codes_or_with_unknown_fields_is_invalid():
    data = components()
    data["navcomp"][0] = {"copies": 2}
    broken(data, says="a NavComp card needs at least one code", where="test.json: navcomp[0]")
    data["navcomp"][0] = {"jump": 1, "scan": 3, "special": "warp"}
    broken(data, says="unknown field(s) special", where="test.json: navcomp[0]")


def test_component_file_listing_a_card_twice_is_invalid():
    data = components()
    data["navcomp"].append({"jump": 1, "scan": 3})
    broken(data, says="J1-S3 is listed twice; give it more copies instead", where=f"test.json: navcomp[{len(data['navcomp']) - 1}]")
    data = components()
    data["resources"].append({"type": "sand", "black_hole": True})
    broken(data, says="sand-bh is listed twice", where=f"test.json: resources[{len(data['resources']) - 1}]")
    data = components()
    data["planets"][5]["id"] = "PA"
    broken(data, says="planet 'PA' is listed twice", where="test.json: planets[5]")


@pytest.mark.parametrize("copies", [0, -1, "2", 1.5, 100])
def test_component_file_with_bad_copies_is_invalid(copies):
    data = components()
    data["resources"][2]["copies"] = copies
    broken(data, says=f"copies must be a whole number from 1 to 99, not {copies!r}", where="test.json: resources[2]")


def test_component_file_black_hole_flag_must_be_true_or_false():
    data = components()
    data["resources"][0]["black_hole"] = "yes"
    broken(data, says="'black_hole' must be true or false, not 'yes'", where="test.json: resources[0]")


def test_component_file_too_small_for_the_player_count_is_refused_at_setup():
    game = GAME.with_card_file(components(planets=components()["planets"][:8]))
    assert len(game.new_game(4, 1).ring) == 8  # eight planets are enough for four players
    with pytest.raises(rules.InvalidPosition) as caught:
        game.new_game(5, 1)
    assert "have 8 planets; 5 players need 9" in caught.value.problem and caught.value.where == "cards"


# -- hypothesis: junk and mutations --------------------------------------------------------------
WORDS = ["jump_gate", "1.0", "gate", *ACTION_TYPES, "action", "mark", "research", "claim_take", "claim_pick", "over",
         *PLANET_IDS, "~"]
KEYS = ["game", "version", "variants", "state", "cards", "comment", "type", "card", "planet", "slot", "take",
        "claimed_by", "resources", "face_up", "marker", *STATE_KEYS]
scalars = (st.none() | st.booleans() | st.integers(-2, 12) | st.integers() | st.floats()
           | st.text(max_size=8) | st.sampled_from(WORDS + RESOURCE_NAMES + NAVCOMP_NAMES))
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5),
    max_leaves=12,
)
action_junk = junk | st.fixed_dictionaries(
    {"type": st.sampled_from(list(ACTION_TYPES)) | junk},
    optional={"card": junk, "cards": junk, "planet": junk, "slot": junk, "take": junk},
)
position_junk = position_junk_of(GAME, {}, SAMPLES, STATE_KEYS, junk)


def roundtrips(state) -> None:
    shared_roundtrips(GAME, state)


test_decode_junk_raises_only_invalid_position, test_decode_action_junk_raises_only_invalid_position = \
    junk_decode_tests(GAME, position_junk, action_junk)


SLOT_VALUES = [None, {"card": "sand", "face_up": True, "marker": None}, {"card": "fame", "face_up": False, "marker": None},
               {"card": "water-bh", "face_up": True, "marker": 0}, {"card": "gem_red", "face_up": True, "marker": 1}]
mutated = mutated_positions(SAMPLES, junk, RESOURCE_NAMES + NAVCOMP_NAMES + PLANET_IDS + SLOT_VALUES
                            + ["gate", "claim_take", "mark", "over", 0, 1, 2, 7, "sand-xl", "J0-S0"])


@HYPOTHESIS
@given(mutated)
def test_mutated_position_roundtrips_or_is_invalid(data):
    try:
        state = GAME.decode(data)
    except rules.InvalidPosition:
        return
    roundtrips(state)


@HYPOTHESIS
@given(mutated)
def test_mutated_position_that_decodes_can_be_played(data):
    try:
        state = GAME.decode(data)
    except rules.InvalidPosition:
        return
    can_be_played(GAME, state)
    # Markers are put out only from the supply (the black hole excepted: it takes one even from an empty supply).
    for seat in GAME.to_move(state):
        for action in GAME.legal_actions(state, seat):
            if isinstance(action, Mark) and action.slot is not None or isinstance(action, LandClaim):
                assert GAME.apply(state, seat, action).markers_left(seat) >= 0, action
