"""Biome Blitz bad input: illegal moves are refused naming the rule and change nothing; malformed
positions and actions raise :class:`rules.InvalidPosition` saying what and where, and nothing else
(hypothesis, derandomized), as ``tests/rules/jump_gate/test_jump_gate_bad_input.py`` does for Jump Gate.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.helpers.position_fuzz import HYPOTHESIS, can_be_played, mutated_positions
from tests.helpers.position_fuzz import junk_decode_tests, position_junk as position_junk_of
from tests.helpers.position_fuzz import roundtrips as shared_roundtrips
from rules.biome_blitz import (
    CancelCompete, Compete, Discover, Done, Explore, Forage, ForageAll, ForagePick, Peek, Replace, Reroll,
    TradeAnswer, TradeAsk, TradeGive, TradePropose, TradeWith,
)
from rules.biome_blitz.position import ACTION_TYPES, STATE_KEYS
from tests.helpers.biome_blitz import HANDS, play, position, refused, seed_for_dice

GAME = rules.get_game("biome_blitz")
ANIMAL_IDS = list(GAME.cards.animal_ids)
ECOSYSTEM_IDS = list(GAME.cards.ecosystem_by_id)


def sample_positions() -> list[dict]:
    """One position per phase reached by seeded random games of 2 to 6 players, and hand-written
    ones for the phases random play rarely reaches (a giraffe's peek, a shark's frenzy)."""
    found = {}
    for seed in range(12):
        state = GAME.new_game(2 + seed % 5, seed)
        rng = random.Random(seed)
        while True:
            found.setdefault(state.phase, GAME.encode(state))
            if GAME.is_over(state):
                break
            seat = rng.choice(GAME.to_move(state))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    peek = play(GAME.decode(position(seat=1, teams=[["giraffe"], []])), Forage(slot=0), ForagePick(slot=0))
    found["peek"] = GAME.encode(peek)
    frenzy = play(GAME.decode(position(teams=[["shark"], ["gazelle", "dung_beetle"]], hands=[["meat", "meat"], []],
                                       seed=seed_for_dice(6, 1))), Compete(attacker="shark", defender="gazelle", pay=("meat",)))
    found["frenzy"] = GAME.encode(frenzy)
    return [found[phase] for phase in sorted(found)]


SAMPLES = sample_positions()


def sample(phase: str) -> dict:
    return copy.deepcopy(next(s for s in SAMPLES if s["state"]["phase"] == phase))


def invalid(data, *, says: str, where: str) -> rules.InvalidPosition:
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in caught.value.problem, str(caught.value)
    assert caught.value.where == where, str(caught.value)
    return caught.value


def test_samples_cover_every_phase():
    assert {s["state"]["phase"] for s in SAMPLES} == {"action", "trade", "trade_reply", "forage", "replace", "cancel",
                                                      "reroll", "frenzy", "peek", "over"}


# -- illegal moves -------------------------------------------------------------------------------
def other_seat(state) -> int:
    return (GAME.to_move(state)[0] + 1) % state.players


@pytest.mark.parametrize("phase", ["action", "trade", "trade_reply", "forage", "replace", "cancel", "reroll", "frenzy",
                                   "peek"])
def test_acting_out_of_turn_is_refused(phase):
    state = GAME.decode(sample(phase))
    seat = GAME.to_move(state)[0]
    action = GAME.legal_actions(state, seat)[0]
    refused(state, other_seat(state), action, rule="turn order", says="must decide now")


@pytest.mark.parametrize("seat", [-1, 2, 7, "0", None])
def test_seat_that_does_not_exist_is_refused(seat):
    refused(GAME.decode(position()), seat, Forage(slot=0), rule="turn order", says="there is no seat")


@pytest.mark.parametrize("phase, action, rule, says", [
    ("action", ForagePick(slot=0), "your turn", "must take an optional or a main action"),
    ("action", Reroll(reroll=True), "your turn", "must take an optional or a main action"),
    ("forage", Forage(slot=0), "Forage", "must take the second resource"),
    ("forage", Explore(deck="animal", pay=("leaf", "leaf")), "Forage", "must take the second resource"),
    ("trade", Forage(slot=0), "Trade", "give, ask, propose or withdraw"),
    ("replace", Done(), "ecosystems", "choose the ecosystem to replace"),
    ("cancel", Reroll(reroll=False), "abilit", "decide whether to cancel"),
    ("reroll", CancelCompete(cancel=True), "abilit", "decide whether to reroll"),
    ("frenzy", Forage(slot=0), "abilit", "compete again"),
    ("peek", Forage(slot=0), "abilit", "choose the deck to peek at"),
])
def test_action_of_the_wrong_phase_is_refused(phase, action, rule, says):
    state = GAME.decode(sample(phase))
    refused(state, GAME.to_move(state)[0], action, rule=rule, says=says)


def test_trade_answer_of_the_wrong_phase_is_refused():
    state = GAME.decode(sample("trade"))
    refused(state, GAME.to_move(state)[0], TradeAnswer(accept=True), rule="Trade", says="give, ask, propose")


def test_paying_cards_not_held_is_refused():
    state = GAME.decode(position(hands=[["leaf", "water"], HANDS[1]], animal_market=["koala", "heron", "owl"]))
    refused(state, 0, Discover(deck="animal", slot=1, pay=("leaf", "leaf")), rule="Discover", says="does not hold leaf")
    refused(state, 0, Explore(deck="animal", pay=("meat", "meat")), rule="Explore", says="does not hold meat, meat")


def test_paying_the_wrong_cost_is_refused():
    state = GAME.decode(position(hands=[["leaf", "water", "meat", "meat"], HANDS[1]], animal_market=["koala", "heron", "owl"]))
    refused(state, 0, Discover(deck="animal", slot=1, pay=("leaf", "meat")), rule="Discover",
            says="does not match the cost 2 leaf")
    refused(state, 0, Discover(deck="animal", slot=2, pay=("water", "meat", "meat")), rule="Discover",
            says="1 water + 1 meat")


def test_payment_not_written_in_symbol_order_is_refused():
    state = GAME.decode(position(hands=[["leaf", "water", "meat"], HANDS[1]], animal_market=["heron", "koala", "owl"]))
    refused(state, 0, Discover(deck="animal", slot=1, pay=("meat", "water")), rule="Discover")
    assert GAME.decode_action({"type": "discover", "deck": "animal", "slot": 1, "pay": ["meat", "water"]}).pay == \
        ("water", "meat")


def test_discovering_an_empty_slot_is_refused():
    state = GAME.decode(position(animal_market=[None, "koala", "heron"]))
    refused(state, 0, Discover(deck="animal", slot=1, pay=("leaf",)), rule="Discover", says="slot 1 is empty")
    refused(state, 0, Discover(deck="resource", slot=1, pay=("leaf",)), rule="Discover", says="'animal' or 'ecosystem'")


def test_attacking_your_own_animal_is_refused():
    state = GAME.decode(position(teams=[["lion", "gazelle"], ["crocodile"]], hands=[["meat", "leaf"], []]))
    refused(state, 0, Compete(attacker="lion", defender="gazelle", pay=("meat",)), rule="Compete",
            says="not in another player's team")


def test_attacking_with_an_animal_not_in_your_team_is_refused():
    state = GAME.decode(position(teams=[["lion"], ["crocodile", "gazelle"]], hands=[["meat", "leaf"], []]))
    refused(state, 0, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)), rule="Compete",
            says="not in Player 1's team")
    refused(state, 0, Compete(attacker="lion", defender="owl", pay=("meat",)), rule="Compete",
            says="not in another player's team")


def test_attacking_an_immune_animal_is_refused():
    state = GAME.decode(position(teams=[["gazelle"], ["elephant"]], hands=[["leaf"], []]))
    refused(state, 0, Compete(attacker="gazelle", defender="elephant", pay=("leaf",)), rule="Compete",
            says="no attacker with power 1 or less")


def test_competing_without_a_team_is_refused():
    state = GAME.decode(position(teams=[[], ["crocodile"]], hands=[["leaf"], []]))
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, Compete)]
    refused(state, 0, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)), rule="Compete")


def test_trading_with_yourself_or_a_missing_seat_is_refused():
    state = GAME.decode(position())
    refused(state, 0, TradeWith(seat=0), rule="Trade", says="no other player 0")
    refused(state, 0, TradeWith(seat=4), rule="Trade", says="no other player 4")


def test_proposing_an_empty_trade_is_refused():
    state = play(GAME.decode(position()), TradeWith(seat=1))
    refused(state, 0, TradePropose(), rule="Trade")


def test_asking_for_more_cards_than_the_partner_holds_is_refused():
    state = play(GAME.decode(position(hands=[HANDS[0], ["water"]])), TradeWith(seat=1), TradeAsk(symbol="water"))
    refused(state, 0, TradeAsk(symbol="water"), rule="Trade")


def test_forage_pick_of_a_slot_that_does_not_exist_is_refused():
    state = GAME.decode(position())
    for slot in (-1, 4, "1"):
        refused(state, 0, Forage(slot=slot), rule="Forage", says="a pick is a face-up slot 1 to 3")


def test_forage_all_without_the_ability_is_refused():
    state = GAME.decode(position(teams=[["gazelle"], []], resource_market=("leaf", "leaf", "water")))
    refused(state, 0, ForageAll(animal="gazelle", ability="Folivore"), rule="abilit", says="no forage ability")


def test_replacing_an_ecosystem_not_held_is_refused():
    state = GAME.decode(sample("replace"))
    held = {GAME.cards.ecosystems[k].id for k in state.ecosystems[state.seat]}
    missing = next(e for e in ECOSYSTEM_IDS if e not in held)
    refused(state, state.seat, Replace(ecosystem=missing), rule="ecosystems", says=f"holds no '{missing}'")


def test_peeking_at_a_deck_that_does_not_exist_is_refused():
    state = GAME.decode(sample("peek"))
    refused(state, state.seat, Peek(deck="hand"), rule="abilit", says="decks are resource, animal, ecosystem")


def test_compete_naming_an_animal_by_a_list_is_refused():
    state = GAME.decode(position(teams=[["lion"], ["gazelle"]], hands=[["meat"], []]))
    refused(state, 0, Compete(attacker=["lion"], defender="gazelle", pay=("meat",)), rule="Compete")


def test_malformed_action_of_the_wrong_phase_is_refused():
    state = GAME.decode(sample("cancel"))
    refused(state, GAME.to_move(state)[0], Explore(deck=None, pay=None), rule="abilit")


# -- malformed positions -------------------------------------------------------------------------
def test_unknown_card_is_invalid():
    invalid(position(animal_market=["unicorn", "koala", "heron"]), says="unknown animal 'unicorn'",
            where="state.decks.animal.market[0]")
    invalid(position(hands=[["leaf", "gold"], []]), says="not 'gold'", where="state.hands[0][1]")
    invalid(position(ecosystem_deck=("ICE",)), says="unknown ecosystem 'ICE'", where="state.decks.ecosystem.deck[0]")
    invalid(position(teams=[["gazelle", 3], []]), says="unknown animal 3", where="state.teams[0][1]")


def test_too_many_copies_of_a_resource_are_invalid():
    invalid(position(hands=[["wild"] * 4, ["wild"] * 3]), says="wild appears 7 times, but the game has 6", where="state")


def test_animal_in_two_places_is_invalid():
    invalid(position(teams=[["gazelle"], ["gazelle"]]), says="animal gazelle appears 2 times", where="state")
    invalid(position(teams=[["koala"], []], animal_market=["koala", "heron", "owl"]), says="koala appears 2 times",
            where="state")


def test_too_many_copies_of_an_ecosystem_are_invalid():
    invalid(position(ecosystems=[["SAV", "SAV"], []], ecosystem_market=("SAV", "RAI", "FOR")),
            says="ecosystem SAV appears 3 times, but the game has 2", where="state")


def test_four_ecosystems_are_invalid():
    invalid(position(ecosystems=[["RAI", "WET", "DES", "OCE"], []], ecosystem_deck=()),
            says="at most 3 ecosystems", where="state.ecosystems[0]")


def test_replace_with_an_ecosystem_beyond_its_copies_is_invalid():
    invalid(position(phase="replace", pending={"new": "SAV"}, ecosystems=[["SAV", "RAI", "WET"], []],
                     ecosystem_market=("SAV", "OCE", "FOR")), says="SAV appears 3 times", where="state.pending.new")


def test_replace_without_three_ecosystems_is_invalid():
    invalid(position(phase="replace", pending={"new": "DES"}, ecosystems=[["RAI", "WET"], []], ecosystem_deck=()),
            says="already holds 3 ecosystems", where="state.pending")


def test_winner_while_the_game_is_not_over_is_invalid():
    invalid(position(winner=0), says="only a finished game has a winner", where="state.winner")


def test_game_over_without_a_winner_is_invalid():
    invalid(position(phase="over", points=[30, 0]), says="names its winner", where="state.winner")


def test_thirty_points_while_the_game_is_not_over_are_invalid():
    invalid(position(points=[12, 30]), says="Player 2 has 30 points", where="state.phase")


def test_five_animals_while_the_game_is_not_over_are_invalid():
    invalid(position(teams=[["gazelle", "lion", "wolf", "shark", "orca"], []]), says="5 animals", where="state.phase")


@pytest.mark.parametrize("phase", ["forage", "trade", "trade_reply", "replace", "cancel", "reroll", "frenzy"])
def test_phase_without_its_pending_decision_is_invalid(phase):
    data = sample(phase)
    data["state"]["pending"] = None
    invalid(data, says=f"phase {phase} needs its pending decision", where="state.pending")


@pytest.mark.parametrize("phase", ["action", "peek", "over"])
def test_pending_decision_in_a_phase_without_one_is_invalid(phase):
    data = sample(phase)
    data["state"]["pending"] = {"took": "leaf"}
    invalid(data, says="has no pending decision", where="state.pending")


def test_pending_of_another_phase_is_invalid():
    data = sample("forage")
    data["state"]["pending"] = {"partner": 1, "give": [], "ask": []}
    invalid(data, says="took", where="state.pending")


def test_trade_offer_to_the_trader_is_invalid():
    invalid(position(phase="trade", pending={"partner": 0, "give": [], "ask": ["leaf"]}),
            says="a trade goes to another player", where="state.pending")


def test_trade_offer_giving_cards_not_held_is_invalid():
    invalid(position(phase="trade", pending={"partner": 1, "give": ["wild"], "ask": []}),
            says="gives cards the trader holds", where="state.pending")


def test_trade_reply_not_from_the_player_whose_turn_it_is_is_invalid():
    invalid(position(phase="trade_reply", trades=1, pending={"partner": 0, "asker": 1, "give": [], "ask": ["leaf"]}),
            says="the player whose turn it is offers", where="state.pending")


def test_trade_offer_after_three_offers_is_invalid():
    invalid(position(phase="trade", trades=3, pending={"partner": 1, "give": ["leaf"], "ask": []}),
            says="fewer than 3 offers", where="state.trades")


def test_trade_answer_awaited_without_an_offer_is_invalid():
    invalid(position(phase="trade_reply", trades=0, pending={"partner": 1, "asker": 0, "give": ["leaf"], "ask": []}),
            says="counts as one of the turn's offers", where="state.trades")


def test_peek_phase_without_a_peek_by_choice_ability_is_invalid():
    invalid(position(phase="peek", teams=[["owl"], []]), says="their team has none", where="state.phase")


def test_cancel_against_a_defender_without_the_ability_is_invalid():
    invalid(position(phase="cancel", teams=[["lion"], ["gazelle"]], hands=[[], ["water"]],
                     pending={"owner": 1, "attacker": "lion", "defender": "gazelle", "symbol": "water", "count": 1}),
            says="with an ability that cancels a compete", where="state.pending")


def test_cancel_by_an_owner_without_the_cards_is_a_position_that_offers_only_to_decline():
    # The owner is asked whether or not they can pay (the decision tells nobody what they hold).
    state = GAME.decode(position(phase="cancel", teams=[["lion"], ["octopus"]], hands=[[], ["wild"]],
                                 pending={"owner": 1, "attacker": "lion", "defender": "octopus", "symbol": "water",
                                          "count": 1}))
    assert GAME.legal_actions(state, 1) == [CancelCompete(cancel=False)]
    refused(state, 1, CancelCompete(cancel=True), rule="abilit", says="Player 2 does not hold 1 water")


def test_reroll_of_the_defence_die_by_the_attacker_is_invalid():
    invalid(position(phase="reroll", teams=[["lion"], ["sea_turtle"]],
                     pending={"seat": 0, "attacker": "lion", "defender": "sea_turtle", "attack_roll": 3,
                              "defence_roll": 2, "die": "defence"}),
            says="the defence die to the defender's owner", where="state.pending")


def test_reroll_with_a_die_result_of_seven_is_invalid():
    invalid(position(phase="reroll", teams=[["komodo"], ["sea_turtle"]],
                     pending={"seat": 0, "attacker": "komodo", "defender": "sea_turtle", "attack_roll": 7,
                              "defence_roll": 2, "die": "attack"}),
            says="from 1 to 6", where="state.pending.attack_roll")


def test_frenzy_with_an_animal_of_another_team_is_invalid():
    invalid(position(phase="frenzy", teams=[["shark"], ["gazelle"]], pending={"attacker": "gazelle"}),
            says="one of the player's animals", where="state.pending")


@pytest.mark.parametrize("key, value, where, says", [
    ("players", 7, "state.players", "2 to 6 players"),
    ("players", "2", "state.players", "2 to 6 players"),
    ("seed", 1.5, "state.seed", "whole number"),
    ("rolls", -1, "state.rolls", "whole number"),
    ("seat", 2, "state.seat", "whole number from 0 to 1"),
    ("phase", "shopping", "state.phase", "phase must be one of"),
    ("trades", 4, "state.trades", "from 0 to 3"),
    ("points", [1], "state.points", "one score per player"),
    ("hands", [["leaf"]], "state.hands", "one hand per player"),
    ("winner", 5, "state.winner", "from 0 to 1"),
])
def test_malformed_state_field_is_invalid(key, value, where, says):
    data = position()
    data["state"][key] = value
    invalid(data, says=says, where=where)


def test_market_of_the_wrong_size_is_invalid():
    invalid(position(resource_market=("leaf", "water")), says="a market has 3 slots", where="state.decks.resource.market")


def test_missing_state_key_is_invalid():
    data = position()
    del data["state"]["decks"]
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert "decks" in str(caught.value)


def test_position_of_another_game_is_invalid():
    data = position()
    data["game"] = "jump_gate"
    invalid(data, says="not 'biome_blitz'", where="position.game")


# -- malformed actions ---------------------------------------------------------------------------
@pytest.mark.parametrize("data, where, says", [
    ("forage", "action", "an action is an object"),
    ({"type": "fly"}, "action.type", "action type must be one of"),
    ({"type": "forage"}, "action", "slot"),
    ({"type": "forage", "slot": 5}, "action.slot", "from 0 to 3"),
    ({"type": "explore", "deck": "hand", "pay": ["leaf", "leaf"]}, "action.deck", "deck is one of"),
    ({"type": "explore", "deck": "animal", "pay": "leaf"}, "action.pay", ""),
    ({"type": "discover", "deck": "animal", "slot": 1, "pay": ["gold"]}, "action.pay[0]", "not 'gold'"),
    ({"type": "compete", "attacker": "unicorn", "defender": "gazelle", "pay": []}, "action.attacker", "unknown animal"),
    ({"type": "replace", "ecosystem": "ICE"}, "action.ecosystem", "unknown ecosystem"),
    ({"type": "trade_give", "symbol": "gazelle"}, "action.symbol", "not 'gazelle'"),
    ({"type": "trade_with", "seat": 6}, "action.seat", "from 0 to 5"),
    ({"type": "trade_answer", "accept": "yes"}, "action.accept", ""),
    ({"type": "reroll", "reroll": 1}, "action.reroll", ""),
])
def test_malformed_action_is_invalid(data, where, says):
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode_action(data)
    assert caught.value.where == where and says in caught.value.problem, str(caught.value)


def test_every_action_type_roundtrips():
    actions = [Explore(deck="animal", pay=("leaf", "leaf")), TradeWith(seat=1), TradeGive(symbol="leaf"),
               TradeAsk(symbol="wild"), TradePropose(), TradeAnswer(accept=True), Forage(slot=0), ForagePick(slot=3),
               ForageAll(animal="koala", ability="Folivore"), Discover(deck="ecosystem", slot=2, pay=("leaf", "leaf", "meat")),
               Replace(ecosystem="SAV"), Compete(attacker="lion", defender="gazelle", pay=("meat",)),
               CancelCompete(cancel=False), Reroll(reroll=True), Done(), Peek(deck="resource")]
    assert {type(a) for a in actions} == {cls for cls in ACTION_TYPES.values() if cls.__name__ != "TradeCancel"}
    for action in actions:
        assert GAME.decode_action(GAME.encode_action(action)) == action


# -- property tests ------------------------------------------------------------------------------
junk = st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=4) | st.lists(st.integers(0, 3), max_size=3) | \
    st.dictionaries(st.text(max_size=3), st.integers(0, 2), max_size=2)

action_junk = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(ACTION_TYPES)) | junk},
    optional={"slot": st.integers(-1, 4) | junk, "deck": st.sampled_from(["resource", "animal", "ecosystem"]) | junk,
              "pay": st.lists(st.sampled_from(["leaf", "water", "meat", "wild"]), max_size=4) | junk,
              "seat": st.integers(-1, 6) | junk, "symbol": st.sampled_from(["leaf", "wild"]) | junk,
              "accept": junk, "cancel": junk, "reroll": junk, "animal": st.sampled_from(ANIMAL_IDS[:4]) | junk,
              "attacker": st.sampled_from(ANIMAL_IDS[:4]) | junk, "defender": st.sampled_from(ANIMAL_IDS[:4]) | junk,
              "ecosystem": st.sampled_from(ECOSYSTEM_IDS[:2]) | junk})

position_junk = position_junk_of(GAME, {}, SAMPLES, STATE_KEYS, junk)


def roundtrips(state) -> None:
    shared_roundtrips(GAME, state)


test_decode_junk_raises_only_invalid_position, test_decode_action_junk_raises_only_invalid_position = \
    junk_decode_tests(GAME, position_junk, action_junk)


mutated = mutated_positions(SAMPLES, junk, ["leaf", "water", "meat", "wild"] + ANIMAL_IDS + ECOSYSTEM_IDS
                            + [None, 0, 1, 2, 3, 6, 29, 30, "attack", "defence"]
                            + ["action", "trade", "trade_reply", "forage", "replace", "cancel", "reroll", "frenzy",
                               "peek", "over"])


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
    # Whatever follows is a position the engine can write and read back.
    for seat in GAME.to_move(state):
        for action in GAME.legal_actions(state, seat)[:8]:
            roundtrips(GAME.apply(state, seat, action))
