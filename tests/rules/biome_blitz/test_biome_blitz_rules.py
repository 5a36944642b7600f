"""Biome Blitz rule clauses, one test each, named after the clause (the rules text; docs/readings.md,
"Biome Blitz"; the rulings in ``rules/biome_blitz/rules.py``'s docstring).

Setup is checked on seeded new games; every other clause writes its situation as a position file
(:func:`position`) and loads it with ``decode``, so the situation is visible in the test. Dice come
from the position's ``seed`` and ``rolls`` counter: :func:`seed_for_dice` finds a seed whose next
dice show the faces a clause needs (attack die first, then the defence die, then any reroll).
Animals used below (standard placeholder roster): gazelle (3 stars, power 1, defence 3, SAV,
battle cost 1 leaf), crocodile (10 stars, defence 5, WET), lion (9 stars, cost 4 meat + 1 water).
"""

from __future__ import annotations


import pytest

import rules
from rules.biome_blitz import (
    Compete, Discover, Explore, Forage, ForagePick, Replace, TradeAnswer, TradeAsk, TradeCancel, TradeGive,
    TradePropose, TradeWith,
)
from tests.helpers.biome_blitz import (
    GAME, HANDS, RESOURCE_DECK, SYMBOLS, die, hand, kinds, names, play, position, refused,
    seed_for_dice, state_of,
)


# -- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 6])
def test_setup_three_decks_each_show_three_face_up_cards(players):
    state = GAME.new_game(players, seed=players)
    observed = GAME.observe(state, None)
    for deck in ("resource", "animal", "ecosystem"):
        assert len(observed["decks"][deck]["market"]) == 3
        assert None not in observed["decks"][deck]["market"]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_deals_four_resource_cards_to_each_player(players):
    state = GAME.new_game(players, seed=7)
    assert [len(h) for h in state.hands] == [4] * players
    resources = sum(state.cards.resource_copies)
    assert len(state.decks[0]) + len(state.discards[0]) + 3 + 4 * players == resources


def test_setup_teams_ecosystems_and_points_start_empty():
    state = GAME.new_game(3, seed=2)
    assert state.teams == ((),) * 3 and state.ecosystems == ((),) * 3 and state.points == (0, 0, 0)


def test_setup_start_player_comes_from_the_seed():
    starts = {GAME.to_move(GAME.new_game(4, seed=seed)) for seed in range(12)}
    assert len(starts) > 1
    assert GAME.new_game(4, seed=5) == GAME.new_game(4, seed=5)


# -- optional actions, then one main action ------------------------------------------------------
def test_optional_actions_come_before_the_main_action_and_keep_the_turn():
    state = state_of(hands=[["leaf", "leaf", "water", "water"], HANDS[1]])
    state = play(state, Explore(deck="animal", pay=("leaf", "leaf")))
    assert state.phase == "action" and GAME.to_move(state) == (0,)
    state = play(state, Forage(slot=0), ForagePick(slot=0))
    assert GAME.to_move(state) == (1,) and state.turn == 4


def test_explore_may_be_taken_any_number_of_times():
    state = state_of(hands=[["leaf", "leaf", "water", "water", "meat", "meat"], HANDS[1]],
                     resource_deck=RESOURCE_DECK + ("meat", "leaf", "water"),
                     ecosystem_deck=("DES", "OCE", "WET", "DES", "OCE", "WET", "RAI", "FOR", "SAV"))
    for pair in (("leaf", "leaf"), ("water", "water"), ("meat", "meat")):
        state = play(state, Explore(deck="ecosystem", pay=pair))
        assert state.phase == "action" and GAME.to_move(state) == (0,)
    assert hand(state, 0) == []


def test_explore_pays_two_identical_plain_resources():
    state = state_of(hands=[["water", "water", "meat"], HANDS[1]])
    legal = {a for a in GAME.legal_actions(state, 0) if isinstance(a, Explore)}
    assert legal == {Explore(deck=d, pay=("water", "water")) for d in ("resource", "animal", "ecosystem")}
    after = play(state, Explore(deck="resource", pay=("water", "water")))
    assert hand(after, 0) == ["meat"]
    assert [SYMBOLS[s] for s in after.discards[0]] == ["water", "water", "leaf", "water", "meat"]  # paid, then flushed


def test_explore_wild_does_not_count_as_one_of_the_two_identical_resources():
    state = state_of(hands=[["leaf", "wild", "wild", "meat"], HANDS[1]])
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, Explore)]
    refused(state, 0, Explore(deck="animal", pay=("leaf", "wild")), rule="Explore", says="wild does not count")
    refused(state, 0, Explore(deck="animal", pay=("wild", "wild")), rule="Explore")


def test_explore_two_different_symbols_are_refused():
    state = state_of()
    refused(state, 0, Explore(deck="animal", pay=("leaf", "water")), rule="Explore", says="two identical")


def test_explore_discards_the_decks_face_up_cards_and_reveals_the_next_three():
    state = state_of(animal_market=["lion", "koala", "heron"], animal_deck=["owl", "camel", "beaver", "shark"])
    after = play(state, Explore(deck="animal", pay=("leaf", "leaf")))
    assert [after.cards.animal_ids[a] for a in after.markets[1]] == ["owl", "camel", "beaver"]
    assert [after.cards.animal_ids[a] for a in after.discards[1]] == ["lion", "koala", "heron"]
    assert [after.cards.animal_ids[a] for a in after.decks[1]] == ["shark"]
    assert after.markets[0] == state.markets[0] and after.markets[2] == state.markets[2]


# -- trade ---------------------------------------------------------------------------------------
def test_trade_is_built_as_give_ask_propose_and_the_partner_decides():
    state = state_of()
    state = play(state, TradeWith(seat=1), TradeGive(symbol="leaf"), TradeAsk(symbol="meat"))
    assert state.phase == "trade" and GAME.to_move(state) == (0,)
    assert GAME.observe(state, 0)["pending"] == {"partner": 1, "give": ["leaf"], "ask": ["meat"]}
    state = play(state, TradePropose())
    assert state.phase == "trade_reply" and GAME.to_move(state) == (1,)
    assert set(GAME.legal_actions(state, 1)) == {TradeAnswer(accept=True), TradeAnswer(accept=False)}
    assert GAME.legal_actions(state, 0) == []


def test_trade_accepted_exchanges_the_cards_and_the_turn_goes_on():
    state = state_of()
    state = play(state, TradeWith(seat=1), TradeGive(symbol="leaf"), TradeAsk(symbol="meat"), TradePropose(),
                 TradeAnswer(accept=True))
    assert hand(state, 0) == ["leaf", "water", "meat", "meat"]
    assert hand(state, 1) == ["leaf", "water", "water", "meat"]
    assert state.phase == "action" and GAME.to_move(state) == (0,) and state.trades == 1


def test_trade_refused_moves_no_cards():
    state = state_of()
    after = play(state, TradeWith(seat=1), TradeGive(symbol="leaf"), TradeAsk(symbol="meat"), TradePropose(),
                 TradeAnswer(accept=False))
    assert after.hands == state.hands and after.phase == "action" and GAME.to_move(after) == (0,)


def test_trade_partner_accepts_only_when_holding_the_asked_cards():
    state = state_of()
    state = play(state, TradeWith(seat=1), TradeGive(symbol="water"), TradeAsk(symbol="leaf"), TradePropose())
    assert GAME.legal_actions(state, 1) == [TradeAnswer(accept=False)]
    refused(state, 1, TradeAnswer(accept=True), rule="Trade", says="does not hold the cards asked for")


def test_trade_gives_only_cards_the_trader_holds():
    state = play(state_of(hands=[["leaf"], HANDS[1]]), TradeWith(seat=1), TradeGive(symbol="leaf"))
    assert TradeGive(symbol="leaf") not in GAME.legal_actions(state, 0)
    refused(state, 0, TradeGive(symbol="leaf"), rule="Trade")


def test_trade_is_resource_cards_only():
    state = play(state_of(teams=[["gazelle"], []]), TradeWith(seat=1))
    assert {type(a) for a in GAME.legal_actions(state, 0)} == {TradeGive, TradeAsk, TradeCancel}
    refused(state, 0, TradeGive(symbol="gazelle"), rule="Trade")


def test_trade_only_on_your_turn():
    state = state_of()
    refused(state, 1, TradeWith(seat=0), rule="turn order")


def test_trade_at_most_three_offers_a_turn():
    state = state_of()
    for _ in range(3):
        assert TradeWith(seat=1) in GAME.legal_actions(state, 0)
        state = play(state, TradeWith(seat=1), TradeAsk(symbol="water"), TradePropose(), TradeAnswer(accept=False))
    assert state.trades == 3 and not [a for a in GAME.legal_actions(state, 0) if isinstance(a, TradeWith)]
    refused(state, 0, TradeWith(seat=1), rule="Trade", says="three trade offers")


def test_trade_withdrawn_offer_counts_toward_the_three_offers():
    state = play(state_of(), TradeWith(seat=1), TradeGive(symbol="leaf"), TradeCancel())
    assert state.phase == "action" and state.trades == 1 and state.pending == () and hand(state, 0) == HANDS[0]
    state = play(state, TradeWith(seat=1), TradeCancel(), TradeWith(seat=1), TradeCancel())
    assert state.trades == 3 and not [a for a in GAME.legal_actions(state, 0) if isinstance(a, TradeWith)]
    refused(state, 0, TradeWith(seat=1), rule="Trade", says="three trade offers")


def test_trade_offers_and_withdrawals_cannot_go_on_forever():
    # Whatever the seat does, its turn ends: offering and withdrawing use up the three offers.
    state, steps = state_of(), 0
    while GAME.to_move(state) == (0,):
        actions = GAME.legal_actions(state, 0)
        state = play(state, next((a for a in actions if isinstance(a, (TradeWith, TradeCancel))), actions[-1]))
        steps += 1
        assert steps < 20


def test_trade_offers_start_again_each_turn():
    state = state_of(trades=3)
    state = play(state, Forage(slot=0), ForagePick(slot=0))
    assert state.trades == 0 and TradeWith(seat=0) in GAME.legal_actions(state, 1)


# -- forage --------------------------------------------------------------------------------------
def test_forage_takes_two_resources_then_the_turn_ends():
    state = state_of(resource_deck=("meat", "water") + RESOURCE_DECK)
    state = play(state, Forage(slot=0))
    assert state.phase == "forage" and GAME.to_move(state) == (0,)
    state = play(state, ForagePick(slot=0))
    assert hand(state, 0) == ["leaf", "leaf", "water", "water", "meat", "meat"]
    assert GAME.to_move(state) == (1,) and state.phase == "action"


def test_forage_face_up_pick_is_refilled_at_once_before_the_second_pick():
    state = state_of(resource_market=("leaf", "water", "meat"), resource_deck=("water",) + RESOURCE_DECK)
    state = play(state, Forage(slot=1))
    assert [SYMBOLS[s] for s in state.markets[0]] == ["water", "water", "meat"]
    state = play(state, ForagePick(slot=1))
    assert hand(state, 0) == ["leaf", "leaf", "leaf", "water", "water", "meat"]
    assert [SYMBOLS[s] for s in state.markets[0]] == [RESOURCE_DECK[0], "water", "meat"]


def test_forage_second_pick_may_be_the_deck_top():
    state = state_of(resource_deck=("water", "wild") + RESOURCE_DECK)
    state = play(state, Forage(slot=3), ForagePick(slot=0))
    assert hand(state, 0) == ["leaf", "leaf", "water", "meat", "meat", "wild"]


def test_forage_face_up_wild_as_first_pick_ends_the_forage():
    state = state_of(resource_market=("wild", "water", "meat"))
    state = play(state, Forage(slot=1))
    assert hand(state, 0) == ["leaf", "leaf", "water", "meat", "wild"]
    assert GAME.to_move(state) == (1,) and "wild_ends" in kinds(state)


def test_forage_face_up_wild_cannot_be_the_second_pick():
    state = play(state_of(resource_market=("leaf", "water", "meat"), resource_deck=("wild",) + RESOURCE_DECK),
                 Forage(slot=1))
    assert SYMBOLS[state.markets[0][0]] == "wild"
    assert ForagePick(slot=1) not in GAME.legal_actions(state, 0)
    refused(state, 0, ForagePick(slot=1), rule="Forage", says="face-up wild can only be the first pick")


def test_forage_wild_drawn_from_the_deck_does_not_end_the_forage():
    state = play(state_of(resource_deck=("wild",) + RESOURCE_DECK), Forage(slot=0))
    assert state.phase == "forage" and GAME.to_move(state) == (0,)


def test_forage_ends_after_the_first_pick_when_nothing_is_left_for_a_second():
    # The reproducer: no deck, no discards, only a face-up leaf.
    state = state_of(resource_deck=(), resource_market=("leaf", None, None))
    after = play(state, Forage(slot=1))
    assert hand(after, 0) == ["leaf", "leaf", "leaf", "water", "meat"] and after.markets[0] == (-1, -1, -1)
    assert GAME.to_move(after) == (1,) and after.phase == "action" and "forage_ends" in kinds(after)
    assert "Nothing is left for a second pick: the forage ends." in [e.text for e in GAME.events(after)]


def test_forage_ends_after_the_first_pick_when_only_a_face_up_wild_is_left():
    state = state_of(resource_deck=("meat",), resource_market=("wild", "wild", "wild"))
    after = play(state, Forage(slot=0))
    assert hand(after, 0) == ["leaf", "leaf", "water", "meat", "meat"] and GAME.to_move(after) == (1,)
    assert "forage_ends" in kinds(after)


def test_forage_with_no_resource_left_anywhere_draws_nothing_and_ends_the_turn():
    # A main action always exists: with nothing to take, Forage from the deck draws nothing.
    state = state_of(resource_deck=(), resource_market=(None, None, None), hands=[[], HANDS[1]], trades=3)
    assert GAME.legal_actions(state, 0) == [Forage(slot=0)]
    after = play(state, Forage(slot=0))
    assert hand(after, 0) == [] and GAME.to_move(after) == (1,) and after.turn == state.turn + 1
    assert "Player 1 draws nothing." in [e.text for e in GAME.events(after)]


def test_forage_three_identical_face_up_symbols_are_discarded_and_replaced_after_a_refill():
    # Taking the meat reveals a third water: the three waters go and three new cards are shown.
    state = state_of(resource_market=("water", "water", "meat"), resource_deck=("water", "leaf", "meat", "leaf", "wild"))
    state = play(state, Forage(slot=3))
    assert [SYMBOLS[s] for s in state.markets[0]] == ["leaf", "meat", "leaf"]
    assert [SYMBOLS[s] for s in state.discards[0]] == ["water", "water", "water"]
    assert "triple" in kinds(state)


def test_forage_three_identical_symbols_keep_being_replaced_until_they_differ():
    state = state_of(resource_market=("water", "water", "meat"),
                     resource_deck=("water", "leaf", "leaf", "leaf", "meat", "water", "wild"))
    state = play(state, Forage(slot=3))
    assert [SYMBOLS[s] for s in state.markets[0]] == ["meat", "water", "wild"]
    assert kinds(state).count("triple") == 2


# -- discover ------------------------------------------------------------------------------------
LION_MARKET = ["lion", "koala", "heron"]


def test_discover_pays_exactly_the_cards_cost():
    state = state_of(hands=[["meat"] * 5 + ["water", "water"], HANDS[1]], animal_market=LION_MARKET)
    lion = [a for a in GAME.legal_actions(state, 0) if isinstance(a, Discover) and a.deck == "animal" and a.slot == 1]
    assert lion == [Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat"))]
    refused(state, 0, Discover(deck="animal", slot=1, pay=("water", "water", "meat", "meat", "meat", "meat")),
            rule="Discover", says="does not match the cost 1 water + 4 meat")
    refused(state, 0, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat")), rule="Discover")


def test_discover_wild_pays_any_one_resource():
    state = state_of(hands=[["meat", "meat", "meat", "wild", "wild"], HANDS[1]], animal_market=LION_MARKET)
    lion = {a.pay for a in GAME.legal_actions(state, 0) if isinstance(a, Discover) and a.deck == "animal" and a.slot == 1}
    assert lion == {("meat", "meat", "meat", "wild", "wild")}
    after = play(state, Discover(deck="animal", slot=1, pay=("meat", "meat", "meat", "wild", "wild")))
    assert names(after, 0) == ["lion"] and hand(after, 0) == []


def test_discover_gains_the_cards_stars_and_puts_it_in_the_team():
    state = state_of(hands=[["meat"] * 4 + ["water"], HANDS[1]], animal_market=LION_MARKET, points=[4, 0])
    after = play(state, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat")))
    assert after.points == (13, 0) and names(after, 0) == ["lion"]
    assert [SYMBOLS[s] for s in after.discards[0]] == ["water", "meat", "meat", "meat", "meat"]
    assert GAME.to_move(after) == (1,)


def test_discover_refills_the_market_from_the_deck():
    state = state_of(hands=[["meat"] * 4 + ["water"], HANDS[1]], animal_market=LION_MARKET,
                     animal_deck=["shark", "owl"])
    after = play(state, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat")))
    assert [after.cards.animal_ids[a] for a in after.markets[1]] == ["shark", "koala", "heron"]


def test_discover_ecosystem_gains_its_stars_and_is_kept():
    state = state_of(hands=[["leaf", "leaf", "meat"], HANDS[1]])
    after = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")))
    assert after.points == (2, 0) and after.ecosystems[0] == (after.cards.ecosystem_by_id["SAV"],)
    assert names(after, 0) == [] and [after.cards.ecosystems[k].id for k in after.markets[2]] == ["DES", "RAI", "FOR"]


def test_fourth_ecosystem_asks_its_discoverer_which_one_it_replaces():
    state = state_of(hands=[["leaf", "leaf", "meat"], HANDS[1]], ecosystems=[["RAI", "WET", "DES"], []],
                     ecosystem_market=("SAV", "OCE", "FOR"), ecosystem_deck=("RAI",))
    state = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")))
    assert state.phase == "replace" and GAME.to_move(state) == (0,) and state.points == (2, 0)
    assert set(GAME.legal_actions(state, 0)) == {Replace(ecosystem=e) for e in ("RAI", "WET", "DES")}
    after = play(state, Replace(ecosystem="WET"))
    assert sorted(after.cards.ecosystems[k].id for k in after.ecosystems[0]) == ["DES", "RAI", "SAV"]
    assert [after.cards.ecosystems[k].id for k in after.discards[2]] == ["WET"]
    assert GAME.to_move(after) == (1,)


def test_ecosystems_held_are_at_most_three():
    state = state_of(hands=[["leaf", "leaf", "meat"], HANDS[1]], ecosystems=[["RAI", "WET", "DES"], []],
                     ecosystem_market=("SAV", "OCE", "FOR"), ecosystem_deck=("RAI",))
    state = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")), Replace(ecosystem="RAI"))
    assert len(state.ecosystems[0]) == 3


# -- compete -------------------------------------------------------------------------------------
def compete_position(attacker="gazelle", defender="crocodile", *, faces=(6, 2), **kwargs) -> dict:
    kwargs.setdefault("hands", [["leaf", "meat", "water"], ["water", "meat"]])
    return position(teams=[[attacker], [defender]], seed=seed_for_dice(*faces), **kwargs)


def test_compete_example_from_the_rules_text_power_1_rolling_6_beats_the_crocodile_rolling_2():
    """対戦の例: power 1 + 6 = 7 against the saltwater crocodile's defence 5 + 2 = 7; the tie goes to the
    attacker, who scores the crocodile's 10 stars; the crocodile is discarded and the turn ends."""
    seed = 20
    assert (die(seed, 0), die(seed, 1)) == (6, 2)
    state = GAME.decode(position(teams=[["gazelle"], ["crocodile"]], hands=[["leaf", "water"], ["meat"]], seed=seed))
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert GAME.observe(after, None)["last_compete"] == {
        "attacker_seat": 0, "attacker": "gazelle", "attack_roll": 6, "attack_total": 7,
        "defender_seat": 1, "defender": "crocodile", "defence_roll": 2, "defence_total": 7, "winner": 0}
    assert after.points == (10, 0)
    assert names(after, 1) == [] and [after.cards.animal_ids[a] for a in after.discards[1]] == ["crocodile"]
    assert hand(after, 0) == ["water"] and GAME.to_move(after) == (1,) and after.rolls == 2


def test_compete_example_dice_can_come_later_in_the_rolls_counter():
    state = GAME.decode(position(teams=[["gazelle"], ["crocodile"]], hands=[["leaf"], ["meat"]], seed=24, rolls=7))
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert after.last_compete[2] == 6 and after.last_compete[6] == 2 and after.points == (10, 0) and after.rolls == 9


def test_compete_pays_the_battle_cost_first():
    state = GAME.decode(compete_position(faces=(1, 6)))
    assert {a.pay for a in GAME.legal_actions(state, 0) if isinstance(a, Compete)} == {("leaf",)}
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert hand(after, 0) == ["water", "meat"] and list(after.discards[0]) == [0]
    refused(state, 0, Compete(attacker="gazelle", defender="crocodile", pay=("meat",)), rule="Compete",
            says="battle cost 1 leaf")


def test_compete_battle_cost_may_be_paid_with_a_wild():
    state = GAME.decode(compete_position(hands=[["wild"], []]))
    assert [a.pay for a in GAME.legal_actions(state, 0) if isinstance(a, Compete)] == [("wild",)]


def test_compete_dice_are_reproducible_from_the_seed():
    results = set()
    for seed in (3, 4, 5):
        state = GAME.decode(position(teams=[["gazelle"], ["crocodile"]], hands=[["leaf"], []], seed=seed))
        once = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
        again = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
        assert once == again
        assert (once.last_compete[2], once.last_compete[6]) == (die(seed, 0), die(seed, 1))
        results.add((once.last_compete[2], once.last_compete[6]))
    assert len(results) > 1


def test_compete_attack_is_roll_plus_power_and_defence_is_roll_plus_defence():
    # lion (power 4, +1 Apex vs 5+ stars: not the gazelle) rolling 2 against the gazelle (defence 3) rolling 4.
    state = GAME.decode(compete_position("lion", "gazelle", faces=(3, 4)))
    after = play(state, Compete(attacker="lion", defender="gazelle", pay=("meat",)))
    assert after.last_compete[2:4] == (3, 7) and after.last_compete[6:8] == (4, 7)


def test_compete_lost_by_the_attacker_changes_nothing_and_ends_the_turn():
    state = GAME.decode(compete_position(faces=(5, 2)))     # 1 + 5 = 6 against 5 + 2 = 7
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert after.last_compete[-1] == 1 and after.points == (0, 0)
    assert names(after, 0) == ["gazelle"] and names(after, 1) == ["crocodile"]
    assert GAME.to_move(after) == (1,)


def test_compete_defender_is_an_animal_of_another_team():
    state = GAME.decode(position(teams=[["gazelle", "lion"], ["crocodile"]], hands=[["leaf", "meat"], []]))
    defenders = {a.defender for a in GAME.legal_actions(state, 0) if isinstance(a, Compete)}
    assert defenders == {"crocodile"}
    refused(state, 0, Compete(attacker="gazelle", defender="lion", pay=("leaf",)), rule="Compete",
            says="not in another player's team")


def test_compete_matching_ecosystem_adds_its_power_to_the_attacker():
    # The gazelle is a savanna animal: the attacker's SAV ecosystem gives +1 power.
    state = GAME.decode(compete_position(faces=(5, 2), ecosystems=[["SAV"], []]))
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert after.last_compete[3] == 5 + 1 + 1 and after.last_compete[-1] == 0


def test_compete_each_matching_ecosystem_card_adds_its_defence_to_the_defender():
    # The crocodile is a wetland animal: two WET cards give +2 defence; a SAV card gives nothing.
    state = GAME.decode(compete_position(faces=(6, 2), ecosystems=[[], ["WET", "WET", "SAV"]]))
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert after.last_compete[7] == 2 + 5 + 2 and after.last_compete[-1] == 1 and after.points == (0, 0)


def test_ecosystems_give_nothing_to_animals_of_another_symbol():
    state = GAME.decode(compete_position(faces=(5, 2), ecosystems=[["WET", "RAI"], []]))
    after = play(state, Compete(attacker="gazelle", defender="crocodile", pay=("leaf",)))
    assert after.last_compete[3] == 6


# -- victory -------------------------------------------------------------------------------------
def test_thirty_points_win_at_once_after_a_discovery():
    state = state_of(hands=[["meat"] * 4 + ["water"], HANDS[1]], animal_market=LION_MARKET, points=[21, 29])
    after = play(state, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat")))
    assert after.points == (30, 29) and after.phase == "over" and GAME.winners(after) == (0,)
    assert GAME.to_move(after) == () and GAME.legal_actions(after, 1) == []


def test_twenty_nine_points_do_not_win():
    state = state_of(hands=[["meat"] * 4 + ["water"], HANDS[1]], animal_market=LION_MARKET, points=[20, 0])
    after = play(state, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat")))
    assert after.points == (29, 0) and after.phase == "action" and GAME.winners(after) == ()


def test_five_animals_in_a_team_win_at_once():
    state = state_of(teams=[["gazelle", "lion", "wolf", "shark"], []], hands=[["leaf", "leaf"], HANDS[1]],
                     animal_market=["koala", "heron", "owl"], animal_deck=[])
    after = play(state, Discover(deck="animal", slot=1, pay=("leaf", "leaf")))
    assert len(after.teams[0]) == 5 and after.points == (3, 0)
    assert after.phase == "over" and GAME.winners(after) == (0,)


def test_thirty_points_from_a_compete_end_the_game_before_another_compete():
    # The shark may compete again after a win (Frenzy), but the game is over at once.
    state = GAME.decode(position(teams=[["shark"], ["crocodile", "gazelle"]], hands=[["meat", "meat"], []],
                                 points=[20, 0], seed=seed_for_dice(6, 1)))
    after = play(state, Compete(attacker="shark", defender="crocodile", pay=("meat",)))
    assert after.points == (30, 0) and after.phase == "over" and GAME.winners(after) == (0,)


def test_thirty_points_from_a_fourth_ecosystem_end_the_game_without_a_replacement():
    state = state_of(hands=[["leaf", "leaf", "meat"], HANDS[1]], ecosystems=[["RAI", "WET", "DES"], []],
                     ecosystem_market=("SAV", "OCE", "FOR"), ecosystem_deck=("RAI",), points=[28, 0])
    after = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")))
    assert after.phase == "over" and GAME.winners(after) == (0,) and after.points == (30, 0)


def test_the_game_over_refuses_every_action():
    state = state_of(phase="over", points=[31, 3], winner=0)
    assert GAME.to_move(state) == () and GAME.legal_actions(state, 0) == []
    refused(state, 0, Forage(slot=0), rule="victory")


# -- decks ---------------------------------------------------------------------------------------
def test_empty_resource_deck_is_rebuilt_from_its_shuffled_discards():
    discards = ("leaf", "water", "meat", "meat", "wild", "leaf")
    state = state_of(resource_deck=(), resource_discard=discards, seed=9)
    after = play(state, Forage(slot=0))
    assert after.shuffles == 1 and "reshuffle" in kinds(after) and after.discards[0] == ()
    rebuilt = [SYMBOLS[after.pending[0]]] + [SYMBOLS[s] for s in after.decks[0]]
    assert sorted(rebuilt) == sorted(discards)
    assert after == play(state, Forage(slot=0))


def test_empty_animal_deck_refills_the_market_from_its_discards():
    state = state_of(hands=[["meat"] * 4 + ["water"], HANDS[1]], animal_market=LION_MARKET, animal_deck=[],
                     animal_discard=["shark"])
    after = play(state, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat")))
    assert after.cards.animal_ids[after.markets[1][0]] == "shark" and after.discards[1] == ()


def test_deck_and_discards_both_empty_leave_the_slot_empty():
    state = state_of(hands=[["meat"] * 4 + ["water"], HANDS[1]], animal_market=LION_MARKET, animal_deck=[])
    after = play(state, Discover(deck="animal", slot=1, pay=("water", "meat", "meat", "meat", "meat")))
    assert after.markets[1][0] == -1
    assert not [a for a in GAME.legal_actions(after, 1) if isinstance(a, Discover) and a.deck == "animal" and a.slot == 1]


def test_resource_deck_and_discards_empty_allow_no_deck_pick():
    state = state_of(resource_deck=())
    assert Forage(slot=0) not in GAME.legal_actions(state, 0)
    refused(state, 0, Forage(slot=0), rule="Forage", says="deck and its discards are empty")


# -- illegal actions -----------------------------------------------------------------------------
def test_illegal_action_leaves_the_state_unchanged_and_names_a_rule():
    state = state_of()
    error = refused(state, 1, Forage(slot=0), rule="turn order", says="Player 1 must decide now")
    assert str(error) == f"{error.reason} (rule: {error.rule})"
