"""Biome Blitz's ability vocabulary at work: one test (or a few) per trigger and effect of
``rules.biome_blitz.cards.ABILITY_EFFECTS`` with its parameters, the gazelle's two abilities as the
rules text words them (カードテキストの例), and card files: a designer adds an animal by editing data
alone, and a file outside the vocabulary is refused saying where.

Abilities missing from the standard placeholder roster are tried on a card file that adds animals
(:data:`EXTRA_ANIMALS`). Dice come from the position's seed (:func:`seed_for_dice`): attack die,
defence die, then any reroll.
"""

from __future__ import annotations


import pytest

import rules
from rules.biome_blitz import (
    CancelCompete, Compete, Discover, Done, Explore, Forage, ForageAll, ForagePick, Peek, Reroll,
)
from rules.biome_blitz.cards import ABILITY_EFFECTS, REQUIRED, TRIGGERS, parse_cards, standard_cards
from tests.helpers.biome_blitz import (
    EXTENDED, GAME, SYMBOLS, ability, after_opponents_turn, animal, base_card_file, compete,
    decoded, hand, kinds, names, play, position, refused, seed_for_dice,
)


def test_every_trigger_and_effect_is_in_the_vocabulary_tested_here():
    assert set(TRIGGERS) == {"forage", "discover", "compete", "defend", "explore", "dice", "peek", "prevent",
                             "defeated", "start_of_turn"}
    assert set(ABILITY_EFFECTS) == {"draw", "take_faceup", "take_all_faceup", "peek", "discount", "substitute",
                                    "explore_cost", "power", "defence", "win_on_roll", "reroll", "immune",
                                    "cancel_compete", "steal", "destroy_attacker", "extra_compete"}


# -- draw ----------------------------------------------------------------------------------------
def test_draw_on_forage_draws_after_the_forage():
    state = decoded(teams=[["orangutan"], []], resource_deck=("meat", "water", "wild", "leaf"))
    after = play(state, Forage(slot=0), ForagePick(slot=0))
    assert hand(after, 0) == ["leaf", "leaf", "water", "water", "meat", "meat", "wild"]
    assert [SYMBOLS[s] for s in after.decks[0]] == ["leaf"]


def test_draw_on_forage_if_took_a_symbol_draws_only_when_the_forage_took_it():
    took_leaf = play(decoded(teams=[["honey_bee"], []], resource_deck=("meat", "water", "wild")),
                     Forage(slot=1), ForagePick(slot=0))
    assert hand(took_leaf, 0) == ["leaf", "leaf", "leaf", "water", "water", "meat", "wild"]
    no_leaf = play(decoded(teams=[["honey_bee"], []], resource_deck=("meat", "water", "wild")),
                   Forage(slot=0), ForagePick(slot=0))
    assert hand(no_leaf, 0) == ["leaf", "leaf", "water", "water", "meat", "meat"]


def test_draw_on_discover_of_another_animal_gazelle_agile():
    """Agile: 別の動物を発見したときは常に、リソースデッキから一番上のカードを1枚引きます。"""
    state = decoded(teams=[["gazelle"], []], hands=[["leaf", "leaf"], ["meat"]], animal_market=["koala", "heron", "owl"],
                    resource_deck=("wild", "meat"))
    after = play(state, Discover(deck="animal", slot=1, pay=("leaf", "leaf")))
    assert names(after, 0) == ["gazelle", "koala"] and hand(after, 0) == ["wild"]


def test_draw_on_discover_of_another_animal_not_for_the_gazelle_itself():
    state = decoded(hands=[["leaf", "leaf", "water"], ["meat"]], animal_market=["gazelle", "heron", "owl"],
                    resource_deck=("wild", "meat"))
    after = play(state, Discover(deck="animal", slot=1, pay=("leaf", "leaf", "water")))
    assert names(after, 0) == ["gazelle"] and hand(after, 0) == []


def test_draw_on_discover_of_another_animal_not_for_an_ecosystem():
    state = decoded(teams=[["gazelle"], []], hands=[["leaf", "leaf", "meat"], ["meat"]], resource_deck=("wild",))
    after = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")))
    assert hand(after, 0) == []


def test_draw_on_discover_without_on_draws_when_this_animal_is_discovered():
    state = decoded(EXTENDED, hands=[["leaf"], ["meat"]], animal_market=["raccoon", "heron", "owl"],
                    resource_deck=("wild", "meat", "water"))
    after = play(state, Discover(deck="animal", slot=1, pay=("leaf",)), game=EXTENDED)
    assert hand(after, 0) == ["meat", "wild"]
    # ... and not when the owner later discovers another animal.
    later = decoded(EXTENDED, teams=[["raccoon"], []], hands=[["leaf", "leaf"], ["meat"]],
                    animal_market=["koala", "heron", "owl"], resource_deck=("wild", "meat"))
    assert hand(play(later, Discover(deck="animal", slot=1, pay=("leaf", "leaf")), game=EXTENDED), 0) == []


def test_draw_on_start_of_turn():
    after = after_opponents_turn(EXTENDED, teams=[["squirrel"], []], resource_deck=("meat", "water", "wild", "leaf"))
    assert GAME.to_move(after) == (0,) and hand(after, 0) == ["leaf", "leaf", "water", "meat", "wild"]


def test_draw_when_this_animal_is_defeated_goes_to_its_owner():
    state = decoded(EXTENDED, teams=[["lion"], ["mole"]], hands=[["meat"], []], faces=(6, 1),
                    resource_deck=("wild", "water", "leaf"))
    after = play(state, compete("lion", "mole"), game=EXTENDED)
    assert names(after, 1) == [] and hand(after, 1) == ["water", "wild"] and hand(after, 0) == []


def test_draw_when_any_animal_is_defeated_dung_beetle():
    # The beetle's owner draws when another player's animal is defeated.
    state = decoded(teams=[["lion"], ["gazelle"], ["dung_beetle"]], players=3, hands=[["meat"], [], []], faces=(6, 1),
                    resource_deck=("wild", "water"))
    after = play(state, compete("lion", "gazelle"))
    assert names(after, 1) == [] and hand(after, 2) == ["wild"] and hand(after, 1) == []


def test_draw_when_any_animal_is_defeated_includes_the_attackers_own_beetle():
    state = decoded(teams=[["lion", "dung_beetle"], ["gazelle"]], hands=[["meat"], []], faces=(6, 1),
                    resource_deck=("wild", "water"))
    after = play(state, compete("lion", "gazelle"))
    assert hand(after, 0) == ["wild"]


def test_draw_when_any_animal_is_defeated_includes_the_beetle_itself():
    state = decoded(teams=[["lion"], ["dung_beetle"]], hands=[["meat"], []], faces=(6, 1), resource_deck=("wild", "water"))
    after = play(state, compete("lion", "dung_beetle"))
    assert names(after, 1) == [] and hand(after, 1) == ["wild"]


# -- take_faceup, take_all_faceup -------------------------------------------------------------------
def test_take_faceup_at_the_start_of_the_turn_takes_a_shown_meat_orca():
    after = after_opponents_turn(teams=[["orca"], []], resource_market=("leaf", "meat", "water"),
                                 resource_deck=("wild", "leaf", "water", "meat"))
    assert hand(after, 0) == ["leaf", "leaf", "water", "meat", "meat"]
    assert [SYMBOLS[s] for s in after.markets[0]] == ["leaf", "water", "water"]
    assert "ability_take" in kinds(after)


def test_take_faceup_takes_nothing_when_no_such_card_is_shown():
    after = after_opponents_turn(teams=[["orca"], []], resource_market=("leaf", "wild", "water"),
                                 resource_deck=("leaf", "water", "meat"))
    assert hand(after, 0) == ["leaf", "leaf", "water", "meat"] and "ability_take" not in kinds(after)


def test_take_all_faceup_of_a_symbol_is_a_forage_taking_every_such_card_koala():
    state = decoded(teams=[["koala"], []], resource_market=("leaf", "water", "leaf"), resource_deck=("meat", "wild", "water"))
    assert ForageAll(animal="koala", ability="Folivore") in GAME.legal_actions(state, 0)
    after = play(state, ForageAll(animal="koala", ability="Folivore"))
    assert hand(after, 0) == ["leaf", "leaf", "leaf", "leaf", "water", "meat"]
    assert [SYMBOLS[s] for s in after.markets[0]] == ["meat", "water", "wild"]
    assert GAME.to_move(after) == (1,)


def test_take_all_faceup_is_a_forage_so_forage_draws_follow_it():
    state = decoded(teams=[["koala", "honey_bee"], []], resource_market=("leaf", "water", "meat"),
                    resource_deck=("meat", "wild", "water"))
    after = play(state, ForageAll(animal="koala", ability="Folivore"))
    assert hand(after, 0) == ["leaf", "leaf", "leaf", "water", "meat", "wild"]


def test_take_all_faceup_of_a_symbol_needs_one_shown():
    state = decoded(teams=[["koala"], []], resource_market=("meat", "water", "wild"))
    assert ForageAll(animal="koala", ability="Folivore") not in GAME.legal_actions(state, 0)
    refused(state, 0, ForageAll(animal="koala", ability="Folivore"), rule="abilit")


def test_take_all_faceup_all_different_takes_three_different_face_up_cards_bear():
    state = decoded(teams=[["bear"], []], resource_market=("wild", "water", "meat"), resource_deck=("leaf", "leaf", "water"))
    after = play(state, ForageAll(animal="bear", ability="Omnivore"))
    assert hand(after, 0) == ["leaf", "leaf", "water", "water", "meat", "meat", "wild"]


def test_take_all_faceup_two_abilities_of_one_animal_are_two_actions_each_its_own():
    data = base_card_file()
    data["animals"].append(animal("badger", ability("Dig", "forage", "take_all_faceup", symbol="meat"),
                                  ability("Scavenge", "forage", "take_all_faceup", all_different=True)))
    game = GAME.with_card_file(data)
    state = game.decode(position(teams=[["badger"], []], resource_market=("leaf", "water", "meat"),
                                 resource_deck=("water", "water", "leaf", "wild"), cards=data))
    takes = [a for a in game.legal_actions(state, 0) if isinstance(a, ForageAll)]
    assert takes == [ForageAll(animal="badger", ability="Dig"), ForageAll(animal="badger", ability="Scavenge")]
    assert [game.action_label(a) for a in takes] == ["forage with Badger's Dig", "forage with Badger's Scavenge"]
    assert game.action_label(takes[0], "ja") == "BadgerのDigで採食"     # no name_ja in this card file: the English name
    dig = play(state, takes[0], game=game)
    assert hand(dig, 0) == ["leaf", "leaf", "water", "meat", "meat"]
    scavenge = play(state, takes[1], game=game)
    assert hand(scavenge, 0) == ["leaf", "leaf", "leaf", "water", "water", "meat", "meat"]
    assert game.decode_action(game.encode_action(takes[1])) == takes[1]


def test_take_all_faceup_action_written_without_its_ability_reads_as_the_animals_first():
    assert GAME.decode_action({"type": "forage_all", "animal": "koala"}) == ForageAll(animal="koala", ability="Folivore")


def test_take_all_faceup_all_different_needs_three_different_symbols():
    state = decoded(teams=[["bear"], []], resource_market=("leaf", "water", "leaf"))
    assert not [a for a in GAME.legal_actions(state, 0) if isinstance(a, ForageAll)]


# -- peek ----------------------------------------------------------------------------------------
def test_peek_at_a_fixed_deck_shows_its_top_to_the_owner_only_owl():
    after = after_opponents_turn(teams=[["owl"], []], resource_deck=("meat", "water", "wild", "leaf"))
    assert after.phase == "action" and GAME.to_move(after) == (0,)
    owner = [e for e in GAME.observe(after, 0)["events"] if e["kind"] == "peek"]
    other = [e for e in GAME.observe(after, 1)["events"] if e["kind"] == "peek"]
    spectator = [e for e in GAME.observe(after, None)["events"] if e["kind"] == "peek"]
    assert len(owner) == 1 and "wild" in owner[0]["text"] and "resource deck" in owner[0]["text"]
    assert len(other) == 1 and "wild" not in other[0]["text"] and "cards" not in other[0]
    assert spectator == other


def test_peek_by_choice_lets_the_owner_pick_the_deck_giraffe():
    after = after_opponents_turn(teams=[["giraffe"], []], animal_deck=["shark", "owl"])
    assert after.phase == "peek" and GAME.to_move(after) == (0,)
    assert set(GAME.legal_actions(after, 0)) == {Peek(deck=d) for d in ("resource", "animal", "ecosystem")}
    peeked = play(after, Peek(deck="animal"))
    assert peeked.phase == "action" and GAME.to_move(peeked) == (0,)
    owner = [e for e in GAME.observe(peeked, 0)["events"] if e["kind"] == "peek"]
    other = [e for e in GAME.observe(peeked, 1)["events"] if e["kind"] == "peek"]
    assert "animal deck is Great white shark" in owner[0]["text"] and owner[0]["seat"] == 0   # the card's name
    assert "デッキの一番上を見ます：ホホジロザメです" in owner[0]["texts"]["ja"]
    assert "shark" not in other[0]["text"] and "animal deck" in other[0]["text"]
    assert "ホホジロザメ" not in other[0]["texts"]["ja"]


# -- discount, substitute, explore_cost ----------------------------------------------------------------
def discover_pays(state, deck: str, slot: int) -> set:
    return {a.pay for a in GAME.legal_actions(state, 0) if isinstance(a, Discover) and a.deck == deck and a.slot == slot}


def test_discount_of_a_symbol_leafcutter_ant():
    # Savanna costs 2 leaf + 1 meat; Colony takes one leaf off, for animals and ecosystems alike.
    state = decoded(teams=[["leafcutter_ant"], []], hands=[["leaf", "leaf", "meat"], []],
                    animal_market=["koala", "heron", "owl"])
    assert discover_pays(state, "ecosystem", 1) == {("leaf", "meat")}
    assert discover_pays(state, "animal", 1) == {("leaf",)}
    refused(state, 0, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")), rule="Discover")


def test_discount_of_any_symbol_for_ecosystems_only_beaver():
    state = decoded(teams=[["beaver"], []], hands=[["leaf", "leaf", "meat"], []], animal_market=["koala", "heron", "owl"])
    assert {("leaf", "leaf"), ("leaf", "meat")} <= discover_pays(state, "ecosystem", 1)
    assert discover_pays(state, "animal", 1) == {("leaf", "leaf")}
    after = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "meat")))
    assert hand(after, 0) == ["leaf"] and after.points == (2, 0)


def test_discount_of_any_symbol_leaves_the_exact_discounted_cost_beaver():
    state = decoded(teams=[["beaver"], []], hands=[["leaf", "leaf", "meat"], []], animal_market=["koala", "heron", "owl"])
    assert discover_pays(state, "ecosystem", 1) == {("leaf", "leaf"), ("leaf", "meat")}
    refused(state, 0, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")), rule="Discover")


def test_substitute_pays_water_with_leaf_camel():
    # The heron costs 1 water + 1 meat; Hardy lets a leaf pay the water.
    state = decoded(teams=[["camel"], []], hands=[["leaf", "meat"], []], animal_market=["heron", "koala", "owl"])
    assert discover_pays(state, "animal", 1) == {("leaf", "meat")}
    without = decoded(hands=[["leaf", "meat"], []], animal_market=["heron", "koala", "owl"])
    assert discover_pays(without, "animal", 1) == set()


def test_explore_cost_of_one_card_of_any_symbol_heron():
    state = decoded(teams=[["heron"], []], hands=[["leaf", "wild"], []])
    pays = {a.pay for a in GAME.legal_actions(state, 0) if isinstance(a, Explore) and a.deck == "animal"}
    assert pays == {("leaf",), ("wild",)}
    after = play(state, Explore(deck="animal", pay=("wild",)))
    assert hand(after, 0) == ["leaf"] and after.phase == "action"
    refused(decoded(hands=[["leaf", "wild"], []]), 0, Explore(deck="animal", pay=("leaf",)), rule="Explore")


# -- power, defence, win_on_roll ------------------------------------------------------------------
def totals(state, action, game=GAME):
    after = play(state, action, game=game)
    return after.last_compete[3], after.last_compete[7]


def test_power_against_defenders_of_at_least_five_stars_lion():
    vs_crocodile = decoded(teams=[["lion"], ["crocodile"]], hands=[["meat"], []], faces=(2, 2))
    assert totals(vs_crocodile, compete("lion", "crocodile")) == (2 + 4 + 1, 2 + 5)
    vs_gazelle = decoded(teams=[["lion"], ["gazelle"]], hands=[["meat"], []], faces=(3, 2))
    assert totals(vs_gazelle, compete("lion", "gazelle")) == (3 + 4, 2 + 3)


def test_power_per_other_animal_of_a_family_wolf():
    pack = decoded(teams=[["wolf", "fennec"], ["crocodile"]], hands=[["meat"], []], faces=(3, 2))
    assert totals(pack, compete("wolf", "crocodile")) == (3 + 3 + 1, 2 + 5)
    alone = decoded(teams=[["wolf"], ["crocodile"]], hands=[["meat"], []], faces=(3, 2))
    assert totals(alone, compete("wolf", "crocodile")) == (3 + 3, 2 + 5)


def test_power_on_a_die_result_scorpion():
    six = decoded(teams=[["scorpion"], ["crocodile"]], hands=[["meat"], []], faces=(6, 2))
    assert totals(six, compete("scorpion", "crocodile")) == (6 + 2 + 2, 2 + 5)
    five = decoded(teams=[["scorpion"], ["crocodile"]], hands=[["meat"], []], faces=(5, 2))
    assert totals(five, compete("scorpion", "crocodile")) == (5 + 2, 2 + 5)


def test_defence_against_a_family_hippo():
    felid = decoded(teams=[["jaguar"], ["hippo"]], hands=[["meat"], []], faces=(3, 3))
    assert totals(felid, compete("jaguar", "hippo")) == (3 + 4, 3 + 4 + 1)
    shark = decoded(teams=[["shark"], ["hippo"]], hands=[["meat"], []], faces=(3, 3))
    assert totals(shark, compete("shark", "hippo")) == (3 + 5, 3 + 4)


def test_win_on_roll_gazelle_quick_kick():
    """Quick Kick: このカードが防御するときは常に、相手が1または2を出せば、このカードが勝利し、ターンは終了します。"""
    for attack in (1, 2):
        state = decoded(teams=[["lion"], ["gazelle"]], hands=[["meat"], []], faces=(attack, 1))
        after = play(state, compete("lion", "gazelle"))
        assert after.last_compete[3] > after.last_compete[7]         # the totals would have let the lion win
        assert after.last_compete[-1] == 1 and names(after, 1) == ["gazelle"] and after.points == (0, 0)
        assert GAME.to_move(after) == (1,)
    state = decoded(teams=[["lion"], ["gazelle"]], hands=[["meat"], []], faces=(3, 1))
    after = play(state, compete("lion", "gazelle"))
    assert after.last_compete[-1] == 0 and names(after, 1) == [] and after.points == (3, 0)


def test_win_on_roll_is_for_defending_only():
    state = decoded(teams=[["gazelle"], ["dung_beetle"]], hands=[["leaf"], []], faces=(1, 1))
    after = play(state, compete("gazelle", "dung_beetle", ("leaf",)))
    assert after.last_compete[3] == 2 and after.last_compete[7] == 3 and after.last_compete[-1] == 1
    state = decoded(teams=[["gazelle"], ["dung_beetle"]], hands=[["leaf"], []], faces=(2, 1))
    assert play(state, compete("gazelle", "dung_beetle", ("leaf",))).last_compete[-1] == 0


def test_gazelle_has_exactly_the_two_abilities_of_the_rules_text():
    gazelle = GAME.cards.animals[GAME.cards.animal_by_id["gazelle"]]
    assert [(a.name, a.trigger, a.effect, dict(a.params)) for a in gazelle.abilities] == [
        ("Agile", "discover", "draw", {"count": 1, "on": "another_animal"}),
        ("Quick Kick", "defend", "win_on_roll", {"rolls": (1, 2)}),
    ]


# -- reroll --------------------------------------------------------------------------------------
def test_reroll_on_fixed_results_happens_by_itself_cheetah():
    state = decoded(teams=[["cheetah"], ["crocodile"]], hands=[["meat"], []], faces=(1, 3, 5))
    after = play(state, compete("cheetah", "crocodile"))
    assert after.last_compete[2:4] == (5, 8) and after.last_compete[-1] == 0 and after.rolls == 3


def test_reroll_on_fixed_results_not_on_other_results():
    state = decoded(teams=[["cheetah"], ["crocodile"]], hands=[["meat"], []], faces=(2, 3))
    after = play(state, compete("cheetah", "crocodile"))
    assert after.last_compete[2] == 2 and after.rolls == 2 and after.last_compete[-1] == 1


@pytest.mark.parametrize("reroll, winner", [(True, 0), (False, 1)])
def test_reroll_by_choice_of_the_attack_die_komodo(reroll, winner):
    state = decoded(teams=[["komodo"], ["crocodile"]], hands=[["meat"], []], faces=(1, 2, 6))
    state = play(state, compete("komodo", "crocodile"))
    assert state.phase == "reroll" and GAME.to_move(state) == (0,)
    assert GAME.observe(state, None)["pending"]["die"] == "attack"
    after = play(state, Reroll(reroll=reroll))
    assert after.last_compete[2] == (6 if reroll else 1) and after.last_compete[-1] == winner


def test_reroll_by_choice_of_any_side_also_defends_komodo():
    state = decoded(teams=[["shark"], ["komodo"]], hands=[["meat"], []], faces=(3, 1, 6))
    state = play(state, compete("shark", "komodo"))
    assert state.phase == "reroll" and GAME.to_move(state) == (1,)
    assert GAME.observe(state, None)["pending"]["die"] == "defence"
    after = play(state, Reroll(reroll=True))
    assert after.last_compete[2:4] == (3, 8) and after.last_compete[6:] == (6, 9, 1)


def test_reroll_by_choice_of_the_defence_die_sea_turtle():
    state = decoded(teams=[["lion"], ["sea_turtle"]], hands=[["meat"], []], faces=(5, 1, 6))
    state = play(state, compete("lion", "sea_turtle"))
    assert state.phase == "reroll" and GAME.to_move(state) == (1,) and GAME.legal_actions(state, 0) == []
    after = play(state, Reroll(reroll=True))
    assert after.last_compete[3] == 9 and after.last_compete[6:] == (6, 10, 1)
    # The turtle's reroll is for defending only: attacking, no decision comes.
    attacking = decoded(teams=[["sea_turtle"], ["gazelle"]], hands=[["water"], []], faces=(5, 1))
    assert play(attacking, compete("sea_turtle", "gazelle", ("water",))).phase != "reroll"


def test_reroll_decisions_come_attacker_first_then_defender():
    state = decoded(teams=[["komodo"], ["sea_turtle"]], hands=[["meat"], []], faces=(1, 2, 5, 6))
    state = play(state, compete("komodo", "sea_turtle"))
    assert GAME.to_move(state) == (0,) and GAME.observe(state, None)["pending"]["die"] == "attack"
    state = play(state, Reroll(reroll=True))
    assert GAME.to_move(state) == (1,)
    assert GAME.observe(state, None)["pending"] == {
        "seat": 1, "attacker": "komodo", "defender": "sea_turtle", "attack_roll": 5, "defence_roll": 2, "die": "defence"}
    after = play(state, Reroll(reroll=True))
    assert after.last_compete[2:4] == (5, 9) and after.last_compete[6:] == (6, 10, 1) and after.rolls == 4


def test_reroll_of_the_attack_side_only_mongoose():
    attack = decoded(EXTENDED, teams=[["mongoose"], ["gazelle"]], hands=[["leaf"], []], faces=(3, 4))
    assert play(attack, compete("mongoose", "gazelle", ("leaf",)), game=EXTENDED).phase == "reroll"
    defend = decoded(EXTENDED, teams=[["gazelle"], ["mongoose"]], hands=[["leaf"], []], faces=(3, 4))
    assert play(defend, compete("gazelle", "mongoose", ("leaf",)), game=EXTENDED).phase != "reroll"


# -- prevent: immune, cancel_compete ----------------------------------------------------------------
def competes(state, seat=0) -> set:
    return {(a.attacker, a.defender) for a in GAME.legal_actions(state, seat) if isinstance(a, Compete)}


def test_immune_to_attackers_of_at_most_a_power_elephant():
    state = decoded(teams=[["gazelle", "lion"], ["elephant"]], hands=[["leaf", "meat"], []])
    assert competes(state) == {("lion", "elephant")}
    refused(state, 0, compete("gazelle", "elephant", ("leaf",)), rule="Compete", says="Matriarch")


def test_immune_while_its_team_has_another_animal_fennec():
    guarded = decoded(teams=[["lion"], ["fennec", "gazelle"]], hands=[["meat"], []])
    assert competes(guarded) == {("lion", "gazelle")}
    refused(guarded, 0, compete("lion", "fennec"), rule="Compete", says="Burrow")
    alone = decoded(teams=[["lion"], ["fennec"]], hands=[["meat"], []])
    assert competes(alone) == {("lion", "fennec")}


def test_cancel_compete_is_the_defenders_owners_decision_octopus():
    state = decoded(teams=[["lion"], ["octopus"]], hands=[["meat", "leaf"], ["water", "meat"]], faces=(6, 1))
    state = play(state, compete("lion", "octopus"))
    assert state.phase == "cancel" and GAME.to_move(state) == (1,)
    assert set(GAME.legal_actions(state, 1)) == {CancelCompete(cancel=True), CancelCompete(cancel=False)}
    cancelled = play(state, CancelCompete(cancel=True))
    assert hand(cancelled, 1) == ["meat"] and names(cancelled, 1) == ["octopus"] and hand(cancelled, 0) == ["leaf"]
    assert cancelled.rolls == 0 and cancelled.points == (0, 0) and GAME.to_move(cancelled) == (1,)
    going_on = play(state, CancelCompete(cancel=False))
    assert going_on.rolls == 2 and names(going_on, 1) == [] and going_on.points == (5, 0)


def test_cancel_compete_wild_cards_do_not_count():
    state = decoded(teams=[["lion"], ["octopus"]], hands=[["meat"], ["wild", "meat"]], faces=(6, 1))
    asked = play(state, compete("lion", "octopus"))
    assert asked.phase == "cancel" and GAME.legal_actions(asked, 1) == [CancelCompete(cancel=False)]
    after = play(asked, CancelCompete(cancel=False))
    assert names(after, 1) == [] and hand(after, 1) == ["meat", "wild"]


def test_cancel_compete_decision_is_asked_whether_or_not_the_owner_can_pay_ink():
    # Asking only an owner who can pay would tell every seat that their hand holds a water.
    can = decoded(teams=[["lion"], ["octopus"]], hands=[["meat", "leaf"], ["water", "meat"]], faces=(6, 1))
    cannot = decoded(teams=[["lion"], ["octopus"]], hands=[["meat", "leaf"], ["leaf", "meat"]], faces=(6, 1))
    can, cannot = play(can, compete("lion", "octopus")), play(cannot, compete("lion", "octopus"))
    assert can.phase == cannot.phase == "cancel" and GAME.to_move(can) == GAME.to_move(cannot) == (1,)
    assert GAME.legal_actions(can, 1) == [CancelCompete(cancel=True), CancelCompete(cancel=False)]
    assert GAME.legal_actions(cannot, 1) == [CancelCompete(cancel=False)]
    for viewer in (0, None):
        assert GAME.observe(can, viewer) == GAME.observe(cannot, viewer)
    declined = [play(s, CancelCompete(cancel=False)) for s in (can, cannot)]
    assert GAME.observe(declined[0], 0) == GAME.observe(declined[1], 0)


# -- compete: steal, destroy_attacker, extra_compete --------------------------------------------------
def test_steal_after_winning_takes_meat_crocodile():
    state = decoded(teams=[["crocodile"], ["gazelle"]], hands=[["meat"], ["meat", "meat", "wild"]], faces=(6, 1))
    after = play(state, compete("crocodile", "gazelle"))
    assert hand(after, 0) == ["meat"] and hand(after, 1) == ["meat", "wild"]


def test_steal_wild_cards_do_not_count():
    state = decoded(teams=[["crocodile"], ["gazelle"]], hands=[["meat"], ["wild", "water"]], faces=(6, 1))
    after = play(state, compete("crocodile", "gazelle"))
    assert hand(after, 0) == [] and hand(after, 1) == ["water", "wild"]


def test_steal_not_after_losing():
    state = decoded(teams=[["crocodile"], ["gazelle"]], hands=[["meat"], ["meat"]], faces=(2, 6))
    after = play(state, compete("crocodile", "gazelle"))
    assert hand(after, 1) == ["meat"]


def test_destroy_attacker_when_defeated_dart_frog():
    state = decoded(teams=[["lion"], ["dart_frog"]], hands=[["meat"], []], faces=(6, 1))
    after = play(state, compete("lion", "dart_frog"))
    assert names(after, 0) == [] and names(after, 1) == [] and after.points == (2, 0)
    assert sorted(after.cards.animal_ids[a] for a in after.discards[1]) == ["dart_frog", "lion"]


def test_extra_compete_after_winning_with_the_same_animal_shark():
    state = decoded(teams=[["shark", "lion"], ["gazelle", "dung_beetle"]], hands=[["meat", "meat", "meat"], []],
                    faces=(6, 1, 6, 1), resource_deck=("leaf", "water"))
    state = play(state, compete("shark", "gazelle"))
    assert state.phase == "frenzy" and GAME.to_move(state) == (0,)
    assert set(GAME.legal_actions(state, 0)) == {compete("shark", "dung_beetle"), Done()}
    refused(state, 0, compete("lion", "dung_beetle"), rule="Compete", says="same animal")
    again = play(state, compete("shark", "dung_beetle"))
    assert names(again, 1) == [] and again.points == (3 + 2, 0) and hand(again, 0) == ["meat"]
    done = play(state, Done())
    assert GAME.to_move(done) == (1,) and names(done, 1) == ["dung_beetle"]


def test_extra_compete_not_after_losing():
    state = decoded(teams=[["shark"], ["gazelle", "dung_beetle"]], hands=[["meat", "meat"], []], faces=(1, 6))
    after = play(state, compete("shark", "gazelle"))
    assert after.phase == "action" and GAME.to_move(after) == (1,)


# -- card files ----------------------------------------------------------------------------------
MEERKAT = animal("meerkat", ability("Sentinel", "prevent", "immune", max_attacker_power=2),
                 ability("Dig", "start_of_turn", "take_faceup", symbol="leaf", count=1),
                 stars=4, cost={"leaf": 1, "meat": 1}, battle_cost={"meat": 1}, power=2, defence=2, ecosystem="DES",
                 family="Herpestidae")


def test_a_designer_adds_an_animal_with_existing_abilities_by_editing_data_alone():
    data = base_card_file()
    data["animals"].append(MEERKAT)
    game = GAME.with_card_file(data)
    assert "meerkat" in game.cards.animal_by_id and "meerkat" not in GAME.cards.animal_by_id
    state = game.decode(position(hands=[["leaf", "meat"], ["water", "water"]], animal_market=["meerkat", "koala", "heron"],
                                 teams=[[], ["gazelle", "lion"]], resource_market=("water", "leaf", "meat")))
    state = play(state, Discover(deck="animal", slot=1, pay=("leaf", "meat")), game=game)
    assert names(state, 0) == ["meerkat"] and state.points == (4, 0)
    # Sentinel: the gazelle (power 1) may not attack it; the lion (power 4) may.
    defenders = {(a.attacker, a.defender) for a in game.legal_actions(state, 1) if isinstance(a, Compete)}
    assert ("gazelle", "meerkat") not in defenders
    state = play(state, Forage(slot=0), ForagePick(slot=0), game=game)
    # Dig: Player 1's turn starts by taking the face-up leaf.
    assert GAME.to_move(state) == (0,) and "leaf" in hand(state, 0) and "ability_take" in kinds(state)
    encoded = game.encode(state)
    assert encoded["cards"]["animals"][-1]["id"] == "meerkat"
    assert GAME.encode(GAME.decode(encoded)) == encoded        # the position carries its card file


def bad_file(ability_data: dict) -> dict:
    data = base_card_file()
    data["animals"].append(animal("meerkat", ability_data))
    return data


WHERE = f"cards: animals[{len(standard_cards().animals)}].abilities[0]"


@pytest.mark.parametrize("ability_data, says, where", [
    (ability("X", "sunrise", "draw", count=1), "unknown trigger 'sunrise'", WHERE + ".trigger"),
    (ability("X", "forage", "fly", count=1), "unknown effect 'fly'", WHERE + ".effect"),
    (ability("X", "defend", "draw", count=1), "effect 'draw' works with the trigger(s)", WHERE + ".trigger"),
    (ability("X", "forage", "draw", count=1, colour="red"), "effect 'draw' has no parameter 'colour'", WHERE + ".colour"),
    (ability("X", "forage", "draw"), "effect 'draw' needs the parameter 'count'", WHERE),
    (ability("X", "compete", "steal", count=1), "needs the parameter 'symbol'", WHERE),
    (ability("X", "compete", "steal", symbol="wild", count=1), "leaf, water, meat, not 'wild'", WHERE + ".symbol"),
    (ability("X", "dice", "reroll", side="both"), "must be one of attack, defend, any", WHERE + ".side"),
    (ability("X", "defend", "win_on_roll", rolls=[0, 7]), "1 to 6", WHERE + ".rolls[0]"),
    (ability("X", "forage", "draw", count=0), "from 1 to 99", WHERE + ".count"),
    (ability("X", "forage", "take_all_faceup", symbol="leaf", all_different=True), "either a 'symbol'", WHERE),
    (ability("X", "prevent", "immune"), "immune needs", WHERE),
    ({"trigger": "forage", "effect": "draw", "count": 1}, "needs a 'name'", WHERE + ".name"),
])
def test_card_file_outside_the_vocabulary_is_refused_saying_where(ability_data, says, where):
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.with_card_file(bad_file(ability_data))
    assert says in caught.value.problem, str(caught.value)
    assert caught.value.where == where, str(caught.value)


def test_every_required_parameter_is_checked():
    for effect, required in REQUIRED.items():
        trigger = ABILITY_EFFECTS[effect][0][0]
        for missing in required:
            params = {key: {"count": 1, "amount": 1, "symbol": "leaf", "pay": "water", "using": "leaf", "deck": "animal",
                            "target": "any", "rolls": [1], "side": "any"}[key] for key in required if key != missing}
            with pytest.raises(rules.InvalidPosition, match=f"needs the parameter '{missing}'"):
                parse_cards(bad_file(ability("X", trigger, effect, **params)))


def test_card_file_in_a_position_is_checked_too():
    data = position(cards=bad_file(ability("X", "forage", "fly")))
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert caught.value.where.startswith("position.cards: animals[") and caught.value.where.endswith(".effect")


@pytest.mark.parametrize("ecosystem", [["SAV"], {"id": "SAV"}, None, 3, "ICE"])
def test_an_animal_of_an_unknown_or_malformed_ecosystem_is_refused_saying_where(ecosystem):
    data = base_card_file()
    data["animals"][0]["ecosystem"] = ecosystem
    with pytest.raises(rules.InvalidPosition) as caught:
        parse_cards(data)
    assert caught.value.where.endswith("animals[0].ecosystem") and "SAV" in caught.value.problem


# -- the switches for readings the texts leave open (game.py's Variants) -------------------------------
def switched(switches: dict, *, faces=None, **kwargs):
    """A position with the rule switches ``switches`` set (the others at their defaults)."""
    data = position(seed=seed_for_dice(*faces) if faces else 1, **kwargs)
    data["variants"] = switches
    return GAME.decode(data)


@pytest.mark.parametrize("reading, bonus", [("per_card", 2), ("per_ecosystem", 1)])
def test_ecosystem_bonus_per_matching_card_or_per_distinct_ecosystem(reading, bonus):
    state = switched({"ecosystem_bonus": reading}, teams=[["gazelle"], ["crocodile"]], ecosystems=[["SAV", "SAV"], []],
                     ecosystem_market=("DES", "RAI", "FOR"), ecosystem_deck=("OCE",),
                     hands=[["leaf"], []], faces=(2, 2))
    assert totals(state, compete("gazelle", "crocodile", ("leaf",))) == (2 + 1 + bonus, 2 + 5)
    assert GAME.observe(state, 0)["teams"][0][0]["bonus"] == {"power": bonus, "defence": bonus}


def test_immune_power_judges_the_printed_power_by_default_the_effective_one_with_the_switch_matriarch():
    # The gazelle's printed power is 1; a Savanna makes it 2: enough against the elephant's Matriarch
    # only when the immunity judges the effective power.
    kwargs = dict(teams=[["gazelle"], ["elephant"]], ecosystems=[["SAV"], []], hands=[["leaf"], []], faces=(6, 1))
    for reading, allowed in (("printed", set()), ("effective", {("gazelle", "elephant")}), ("printed", set())):
        state = switched({"immune_power": reading}, **kwargs)
        assert competes(state) == allowed, reading
        if allowed:
            assert names(play(state, compete("gazelle", "elephant", ("leaf",))), 1) == []
        else:
            refused(state, 0, compete("gazelle", "elephant", ("leaf",)), rule="Compete", says="Matriarch")
    weak = switched({"immune_power": "effective"}, **{**kwargs, "ecosystems": [["DES"], []]})
    assert competes(weak) == set()


@pytest.mark.parametrize("reading, again", [("chain", True), ("once", False)])
def test_extra_compete_chains_by_default_once_a_turn_with_the_switch_shark(reading, again):
    state = switched({"extra_compete": reading}, teams=[["shark"], ["gazelle", "koala", "heron"]],
                     hands=[["meat"] * 3, []], faces=(6, 1, 6, 1))
    state = play(state, compete("shark", "gazelle"))
    assert state.phase == "frenzy"
    state = play(state, compete("shark", "koala"))
    assert names(state, 1) == ["heron"]
    assert (state.phase == "frenzy") is again and GAME.to_move(state) == ((0,) if again else (1,))


@pytest.mark.parametrize("reading, again", [("chain", True), ("once", False)])
def test_extra_compete_once_a_turn_holds_through_a_cancel_decision(reading, again):
    state = switched({"extra_compete": reading}, teams=[["shark"], ["gazelle", "octopus", "heron"]],
                     hands=[["meat"] * 3, []], faces=(6, 1, 6, 1))
    state = play(state, compete("shark", "gazelle"), compete("shark", "octopus"))
    assert state.phase == "cancel" and GAME.encode(state)["state"]["pending"]["again"] is True
    assert GAME.decode(GAME.encode(state)) == state._replace(log=())
    state = play(state, CancelCompete(cancel=False))
    assert names(state, 1) == ["heron"] and (state.phase == "frenzy") is again


@pytest.mark.parametrize("reading, takes", [("own_type", True), ("not_a_type", False)])
def test_all_different_wild_is_a_type_of_its_own_by_default_omnivore(reading, takes):
    with_wild = switched({"all_different_wild": reading}, teams=[["bear"], []], resource_market=("wild", "water", "meat"))
    assert (ForageAll(animal="bear", ability="Omnivore") in GAME.legal_actions(with_wild, 0)) is takes
    plain = switched({"all_different_wild": reading}, teams=[["bear"], []], resource_market=("leaf", "water", "meat"))
    assert ForageAll(animal="bear", ability="Omnivore") in GAME.legal_actions(plain, 0)
