"""Starligned bad input: illegal moves are refused naming the rule and change nothing; malformed
positions, actions and card files raise :class:`rules.InvalidPosition` saying what and where, and
nothing else (hypothesis, derandomized), as ``tests/rules/stellar/test_stellar_bad_input.py`` does for Stellar.
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
from rules.starligned import (
    ExchangeCard, ExchangeWith, MoonBonus, MoveCard, PlayCard, RepeatEffect, RotateCard, RotateHandCard,
    RotateTelescope, Swap,
)
from rules.starligned.cards import parse_cards, standard_cards
from rules.starligned.position import ACTION_TYPES, STATE_KEYS
from tests.helpers.starligned import CARDS, GAME, WHITE, load, position, refused, reveal

CARD_NAMES = list(CARDS.ids)
PHASES = ("play", "moon", "effect", "repeat", "exchange", "rotate", "over")


def sample_positions() -> list[dict]:
    """One position per (phase, player count) reached by seeded random games."""
    found = {}
    for seed in range(16):
        players = 2 + seed % 4
        state = GAME.new_game(players, seed, {"deal_high_up": seed % 8 == 1})
        rng = random.Random(seed)
        while True:
            found.setdefault((state.phase, players), GAME.encode(state))
            if GAME.is_over(state):
                break
            seat = rng.choice(GAME.to_move(state))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return [found[key] for key in sorted(found)]


SAMPLES = sample_positions()


def sample(phase: str, players: int | None = None) -> dict:
    return copy.deepcopy(next(s for s in SAMPLES if s["state"]["phase"] == phase
                              and players in (None, s["state"]["players"])))


def invalid(data, *, says: str, where: str | None = None) -> rules.InvalidPosition:
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in str(caught.value), str(caught.value)
    if where is not None:
        assert caught.value.where == where, caught.value.where
    return caught.value


def test_samples_cover_every_phase():
    assert {s["state"]["phase"] for s in SAMPLES} == set(PHASES)


# -- illegal moves -------------------------------------------------------------------------------
def test_a_seat_not_named_to_move_is_refused():
    state = GAME.decode(sample("effect"))
    other = next(s for s in range(state.players) if s != state.resolver)
    action = GAME.legal_actions(state, state.resolver)[0]
    refused(state, other, action, rule="turn order", says=f"Player {state.resolver + 1} must decide now")


@pytest.mark.parametrize("seat", [5, -1, "0", None])
def test_a_seat_that_does_not_exist_is_refused(seat):
    refused(GAME.decode(sample("play", 2)), seat, PlayCard(card="S101"), rule="turn order", says="there is no seat")


def test_the_wrong_action_for_the_phase_is_refused():
    state = GAME.decode(sample("play", 3))
    refused(state, 0, RotateHandCard(card="S101"), rule="phase 1", says="must first put a card face down")
    state = GAME.decode(sample("rotate", 3))
    card = CARDS.ids[state.hands[0][0] // 2]
    refused(state, 0, PlayCard(card=card), rule="phase 4", says="must rotate one hand card")
    state = GAME.decode(sample("effect"))
    refused(state, state.resolver, ExchangeWith(card="S101"), rule="phase 3", says="resolves")
    refused(state, state.resolver, MoonBonus(choice="none"), rule="phase 3", says="resolves")


@pytest.mark.parametrize("action", [None, "play S101", {"type": "play", "card": "S101"}])
def test_nonsense_action_objects_are_refused(action):
    state = GAME.decode(sample("play", 2))
    refused(state, 0, action, rule="phase 1", says="must first put a card face down")


def test_playing_a_card_not_in_hand_is_refused():
    state = GAME.decode(sample("play", 2))
    missing = next(c for c in CARD_NAMES if all(e // 2 != CARDS.by_id[c] for e in state.hands[0]))
    refused(state, 0, PlayCard(card=missing), rule="phase 1", says="has no")
    refused(state, 0, PlayCard(card="S999"), rule="phase 1", says="has no 'S999' in hand")


def test_rotating_a_card_not_in_hand_is_refused():
    state = GAME.decode(sample("rotate", 2))
    missing = next(c for c in CARD_NAMES if all(e // 2 != CARDS.by_id[c] for e in state.hands[0]))
    refused(state, 0, RotateHandCard(card=missing), rule="phase 4", says="has no")


def blocked_table():
    """Player 1 resolves a card played after S201; Player 2's S206r and S207 lie under a moon card."""
    return dict(rows=[["S203r", "S201"], ["S206r", "S207"]], moons=[[], [["S206", "S207"]]])


@pytest.mark.parametrize("card,action,rule", [
    ("S102", Swap(row=1, first="S207", second="S304"), "Swap"),
    ("S103", RotateCard(row=1, card="S206"), "Rotate star card"),
    ("S106", ExchangeCard(row=1, card="S207"), "Exchange"),
])
def test_a_blocked_target_is_refused_naming_the_blocked_card_rule(card, action, rule):
    state = reveal(load(**blocked_table(), hands=[[card, "S401", "S402"], ["S304r", "S403", "S404"]]), card, "S304r")
    error = refused(state, 0, action, rule=rule, says="is under a moon card")
    assert "blocked cards: a card under a moon card cannot be" in error.reason


def test_a_move_card_under_a_moon_card_cannot_move():
    # S107r (2 move, moon left) played after S101 (moon right): a full moon; covering it blocks the Move.
    state = load(rows=[["S203r", "S101"], ["S206r", "S207"]], hands=[["S107r", "S401", "S402"], ["S304r", "S403", "S404"]])
    state = GAME.apply(reveal(state, "S107r", "S304r"), 0, MoonBonus(choice="cover"))
    assert ("unresolvable", 0, (2 * CARDS.by_id["S107"] + 1,), "move") in state.log
    assert state.resolver == 1


def test_rotating_the_rotate_card_itself_is_refused():
    state = reveal(load(rows=[["S203r", "S201"], ["S206r", "S207"]], hands=[["S103", "S401", "S402"], ["S304r", "S403", "S404"]]),
                   "S103", "S304r")
    refused(state, 0, RotateCard(row=0, card="S103"), rule="Rotate star card", says="cannot rotate itself")


@pytest.mark.parametrize("action,says", [
    (Swap(row=2, first="S201", second="S203"), "there is no row 2 in a 2-player game"),
    (Swap(row=0, first="S201", second="S999"), "'S999' is not in Player 1's row"),
    (Swap(row=1, first="S201", second="S203"), "'S201' is not in Player 2's row"),
    (Swap(row="0", first="S201", second="S203"), "there is no row '0'"),
])
def test_swap_targets_must_be_cards_of_the_named_row(action, says):
    state = reveal(load(rows=[["S203r", "S201"], ["S206r", "S207"]], hands=[["S102", "S401", "S402"], ["S304r", "S403", "S404"]]),
                   "S102", "S304r")
    refused(state, 0, action, rule="Swap", says=says)


@pytest.mark.parametrize("seat", [2, 7, "1", None])
def test_rotate_telescope_of_a_seat_that_does_not_exist_is_refused(seat):
    state = reveal(load(rows=[["S203r", "S201"], ["S206r", "S207"]], hands=[["S107", "S401", "S402"], ["S304r", "S403", "S404"]]),
                   "S107", "S304r")
    refused(state, 0, RotateTelescope(seat=seat), rule="Rotate telescope", says=f"there is no seat {seat!r} in a 2-player game")


@pytest.mark.parametrize("position_", [0, 4, "1", None, 1.5])
def test_move_to_a_place_that_does_not_exist_is_refused(position_):
    state = reveal(load(rows=[["S203r", "S201"], ["S206r", "S207"]], hands=[["S105", "S401", "S402"], ["S304r", "S403", "S404"]]),
                   "S105", "S304r")
    refused(state, 0, MoveCard(card="S105", position=position_), rule="Move", says="cannot go to position")


def test_exchanging_a_card_not_in_the_owners_hand_is_refused():
    state = reveal(load(rows=[["S203r", "S201"], ["S206r", "S207"]], hands=[["S106", "S401", "S402"], ["S304r", "S403", "S404"]]),
                   "S106", "S304r")
    state = GAME.apply(state, 0, ExchangeCard(row=1, card="S207"))
    refused(state, 1, ExchangeWith(card="S401"), rule="Exchange", says="Player 2 has no 'S401' in hand")


def test_moon_bonus_with_an_unknown_choice_is_refused():
    state = reveal(load(rows=[["S202", "S101"], ["S203r", "S204"]], hands=[["S102", "S103"], ["S205r", "S106"]]), "S102", "S205r")
    refused(state, 0, MoonBonus(choice="both"), rule="moon bonus", says="'both' is not a moon bonus")
    refused(state, 0, MoonBonus(choice="remove", row="1", pair="S203"), rule="moon bonus", says="no moon card over")


def test_acting_after_the_game_is_over_is_refused():
    refused(GAME.decode(sample("over")), 0, PlayCard(card="S101"), rule="game end", says="the game is over")


# -- malformed positions -------------------------------------------------------------------------
def test_a_duplicate_card_is_invalid():
    data = sample("play", 2)
    data["state"]["deck"].append(data["state"]["hands"][0][0].rstrip("r"))
    invalid(data, says="appears 2 times; every star card is unique", where="state")


def test_a_white_card_in_a_two_or_three_player_game_is_invalid():
    data = sample("play", 3)
    data["state"]["box"].remove(WHITE[0])
    data["state"]["deck"].append(WHITE[0])
    invalid(data, says=f"{WHITE[0]} has a white centre star: with 3 players it stays in the box", where="state")


def test_a_card_in_play_in_the_box_is_invalid():
    data = sample("play", 4)
    data["state"]["box"] = [data["state"]["deck"].pop()]
    invalid(data, says="is in play with 4 players: only white-centre cards go back in the box", where="state.box[0]")
    data = sample("play", 2)
    red = data["state"]["deck"].pop()
    data["state"]["box"].append(red)
    invalid(data, says=f"{red} is in play with 2 players", where=f"state.box[{len(data['state']['box']) - 1}]")


def test_an_unknown_card_is_invalid():
    data = sample("play", 2)
    data["state"]["hands"][1][0] = "S113"
    invalid(data, says="unknown card 'S113'", where="state.hands[1][0]")
    data = sample("play", 2)
    data["state"]["deck"][0] = "S101r"  # the deck holds cards, not oriented entries
    invalid(data, says="unknown star card 'S101r'", where="state.deck[0]")


def test_rows_of_the_wrong_length_for_the_phase_are_invalid():
    data = position(rows=[["S201", "S202"], ["S203"]], stage=0, round=2)
    invalid(data, says="each row holds 2 cards, not 1", where="state.rows[1]")
    data = position(rows=[["S201", "S202"], ["S203", "S204"]], phase="rotate", resolver=None)
    data["state"]["round"] = 3
    invalid(data, says="each row holds 4 cards, not 2", where="state.rows[0]")


def test_a_moon_card_over_cards_that_are_not_neighbours_is_invalid():
    data = position(rows=[["S201", "S202", "S203"], ["S204", "S205", "S206"]], moons=[[["S201", "S203"]], []])
    invalid(data, says="covers two neighbouring cards of this row, left one first", where="state.moons[0][0]")
    data = position(rows=[["S201", "S202", "S203"], ["S204", "S205", "S206"]], moons=[[["S202", "S201"]], []])
    invalid(data, says="left one first", where="state.moons[0][0]")
    data = position(rows=[["S201", "S202", "S203"], ["S204", "S205", "S206"]], moons=[[], [["S201", "S202"]]])
    invalid(data, says="neighbouring cards of this row", where="state.moons[1][0]")
    data = position(rows=[["S201", "S202", "S203"], ["S204", "S205", "S206"]], moons=[[["S201", "S202", "S203"]], []])
    invalid(data, says="a moon card covers two cards", where="state.moons[0][0]")


def test_a_card_under_two_moon_cards_is_invalid():
    data = position(rows=[["S201", "S202", "S203"], ["S204", "S205", "S206"]], moons=[[["S201", "S202"], ["S202", "S203"]], []])
    invalid(data, says="under one moon card at most", where="state.moons[0][1]")


def test_more_moon_cards_than_the_game_has_is_invalid():
    data = position(rows=[["S201", "S202"], ["S203", "S204"]], moons=[[["S201", "S202"]], []], moon_supply=CARDS.moon_cards)
    invalid(data, says=f"the game has {CARDS.moon_cards} moon cards", where="state.moon_supply")
    data = position(rows=[["S201", "S202"], ["S203", "S204"]], moon_supply=-1)
    invalid(data, says="", where="state.moon_supply")


def test_chosen_cards_outside_phase_1_are_invalid():
    data = position(phase="rotate", rows=[["S201"], ["S202"]], chosen=["S101", None])
    invalid(data, says="only phase 1 holds chosen cards", where="state.chosen[0]")
    data = position(phase="effect", rows=[["S201"], ["S202"]], resolver=0, chosen=[None, True])
    invalid(data, says="only phase 1 holds chosen cards", where="state.chosen[1]")
    data = position(rows=[["S201"], ["S202"]], chosen=[True, None])
    invalid(data, says="unknown card True", where="state.chosen[0]")


@pytest.mark.parametrize("phase,chosen", [("play", ["S101", "S102"]), ("rotate", [True, True])])
def test_phase_1_and_4_positions_need_a_player_still_to_choose(phase, chosen):
    data = position(phase=phase, rows=[["S201"], ["S202"]], chosen=chosen)
    invalid(data, says="someone must still be choosing", where="state.chosen")


def test_a_chosen_card_still_in_hand_is_invalid():
    data = position(rows=[["S201"], ["S202"]], chosen=["S101", None], hands=[["S101", "S102", "S103", "S104"], ["S105"]])
    invalid(data, says="S101 appears 2 times", where="state")


@pytest.mark.parametrize("phase", ["repeat", "exchange"])
def test_the_repeat_and_exchange_phases_need_the_pending_seat_and_card(phase):
    data = position(phase=phase, rows=[["S201", "S108"], ["S202", "S106"]], resolver=0)
    invalid(data, says=f"phase {phase} needs the pending seat and card", where="state.pending")
    data = position(phase=phase, rows=[["S201", "S108"], ["S202", "S106"]], resolver=0, pending={"seat": 1, "card": "S201"})
    invalid(data, says="S201 must lie in Player 2's row", where="state.pending")
    data = position(phase=phase, rows=[["S201", "S108"], ["S202", "S106"]], resolver=0, pending={"seat": 1})
    invalid(data, says="card", where="state.pending")


def test_pending_outside_the_repeat_and_exchange_phases_is_invalid():
    data = position(phase="effect", rows=[["S201", "S108"], ["S202", "S106"]], resolver=0, pending={"seat": 1, "card": "S202"})
    invalid(data, says="only the repeat and exchange phases have a pending card", where="state.pending")


def test_exchange_with_an_empty_hand_is_invalid():
    data = position(phase="exchange", rows=[["S201", "S108"], ["S202", "S106"]], resolver=0,
                    pending={"seat": 1, "card": "S202"}, hands=[["S101"], []], fill=False)
    invalid(data, says="Player 2 needs a hand card to exchange", where="state.pending")


def test_a_resolving_player_only_in_phase_3():
    data = position(phase="effect", rows=[["S201", "S108"], ["S202", "S106"]])
    invalid(data, says="phase 3 needs the resolving player", where="state.resolver")
    data = position(rows=[["S201"], ["S202"]], resolver=1)
    invalid(data, says="only phase 3 has a resolving player", where="state.resolver")
    data = position(phase="effect", rows=[["S201", "S108"], ["S202", "S106"]], resolver=2)
    invalid(data, says="", where="state.resolver")


def test_a_hand_over_six_cards_is_invalid():
    data = position(rows=[[], []], hands=[["S101", "S102", "S103", "S104", "S105", "S106", "S107"], ["S108"]], fill=False)
    invalid(data, says="a hand holds at most 6 cards", where="state.hands[0]")


def test_a_player_who_must_play_or_rotate_needs_a_hand_card():
    invalid(position(rows=[["S201"], ["S202"]], hands=[["S101"], []], fill=False), says="Player 2 must play a card but has none",
            where="state.hands[1]")
    invalid(position(phase="rotate", rows=[["S201"], ["S202"]], hands=[[], ["S101"]], fill=False),
            says="Player 1 must rotate a hand card but has none", where="state.hands[0]")


def test_hand_cards_at_the_game_end_are_invalid():
    data = sample("over")
    data["state"]["hands"][0] = [data["state"]["discard"].pop()]
    invalid(data, says="every last hand card was discarded", where="state.hands")


def test_hands_hold_six_cards_less_one_per_round_played():
    data = position(rows=[["S201"], ["S202"]], hands=[["S101", "S102", "S103", "S104", "S105"], ["S106", "S107", "S108", "S203"]],
                    fill=False)
    invalid(data, says="in round 2 of a stage, phase play, this hand holds 5 cards, not 4", where="state.hands[1]")
    data = position(rows=[["S201"], ["S202"]], chosen=["S101", None],
                    hands=[["S102", "S103", "S104", "S105", "S106"], ["S107", "S108", "S203", "S204", "S205"]], fill=False)
    invalid(data, says="this hand holds 4 cards, not 5", where="state.hands[0]")


def test_the_fifth_round_has_no_phase_4():
    data = position(phase="rotate", rows=[["S201", "S202", "S203", "S204", "S205"], ["S206", "S207", "S208", "S301", "S302"]])
    invalid(data, says="the fifth round of a stage has no phase 4", where="state.phase")


def test_stage_1_keeps_enough_cards_in_the_deck_for_stage_2():
    data = position(rows=[["S201"], ["S202"]])
    data["state"]["deck"] = data["state"]["deck"][:11]
    invalid(data, says="stage 2 deals 6 cards to each player: the deck needs 12, not 11", where="state.deck")


@pytest.mark.parametrize("zones,says,where", [
    (dict(phase="moon", rows=[["S201", "S208"], ["S202", "S207"]], resolver=0), "Player 1's last two cards offer no moon bonus",
     "state.phase"),
    (dict(phase="effect", rows=[["S201", "S208"], ["S202", "S207"]], resolver=0), "rightmost card S208 (x2) has no effect",
     "state.phase"),
    (dict(phase="effect", rows=[["S102"], ["S207"]], resolver=0), "rightmost card S102 (swap) has no effect", "state.phase"),
    (dict(phase="effect", rows=[["S201", "S107"], ["S202", "S207"]], resolver=0, ignored=["S107"]),
     "rightmost card S107 (rotate_telescope) has no effect", "state.phase"),
    (dict(phase="repeat", rows=[["S201", "S108"], ["S202", "S208"]], resolver=0, pending={"seat": 1, "card": "S208"}),
     "S208 (x2) has no effect to repeat now", "state.pending"),
    (dict(phase="repeat", rows=[["S201", "S108"], ["S202", "S207"]], resolver=0, pending={"seat": 1, "card": "S207"}),
     "a repeated Repeat does nothing", "state.pending"),
    (dict(phase="exchange", rows=[["S201", "S106"], ["S202", "S207"]], moons=[[], [["S202", "S207"]]], resolver=0,
          pending={"seat": 1, "card": "S207"}), "S207 is under a moon card and cannot be exchanged", "state.pending"),
])
def test_phase_3_names_a_player_only_for_a_decision_they_have(zones, says, where):
    invalid(position(**zones), says=says, where=where)


@pytest.mark.parametrize("field,value,says,where", [
    ("players", 6, "played by 2 to 5 players, not 6", "state.players"),
    ("players", True, "played by 2 to 5 players", "state.players"),
    ("phase", "scoring", "phase must be one of", "state.phase"),
    ("stage", 2, "", "state.stage"),
    ("round", 5, "", "state.round"),
    ("seed", "7", "must be a whole number", "state.seed"),
    ("stopped", "no", "", "state.stopped"),
    ("hands", [[]], "needs one hand per player (2), found 1", "state.hands"),
    ("ignored", ["S999"], "unknown star card 'S999'", "state.ignored[0]"),
])
def test_malformed_fields_are_invalid(field, value, says, where):
    data = sample("play", 2)
    data["state"][field] = value
    invalid(data, says=says, where=where)


def test_a_position_for_another_game_or_version_is_invalid():
    data = sample("play", 2)
    data["game"] = "stellar"
    invalid(data, says="not 'starligned'", where="position.game")
    data = sample("play", 2)
    data["version"] = "2.0"
    invalid(data, says="this engine reads 1.0", where="position.version")
    data = sample("play", 2)
    data["variants"] = {"deal_high_up": "yes"}
    invalid(data, says="deal_high_up", where="variants")


# -- malformed actions -------------------------------------------------------------------------------
@pytest.mark.parametrize("data,says,where", [
    (None, "an action is an object", "action"),
    ({"type": "jump"}, "action type must be one of", "action.type"),
    ({"type": "play"}, "card", "action"),
    ({"type": "play", "card": "S101r"}, "unknown star card 'S101r'", "action.card"),
    ({"type": "play", "card": "S101", "extra": 1}, "extra", "action"),
    ({"type": "swap", "row": 5, "first": "S101", "second": "S102"}, "", "action.row"),
    ({"type": "swap", "row": 0, "first": "S101", "second": 3}, "unknown star card 3", "action.second"),
    ({"type": "move", "card": "S101", "position": 0}, "", "action.position"),
    ({"type": "move", "card": "S101", "position": 11}, "", "action.position"),
    ({"type": "rotate_telescope", "seat": "1"}, "", "action.seat"),
    ({"type": "moon", "choice": "both"}, "choice must be cover, remove or none", "action.choice"),
    ({"type": "moon", "choice": "remove", "row": 1}, "pair", "action"),
    ({"type": "moon", "choice": "remove", "row": 1, "pair": "S1"}, "unknown star card 'S1'", "action.pair"),
    ({"type": "moon", "choice": "cover", "row": 1}, "row", "action"),
])
def test_decode_action_on_junk_is_invalid(data, says, where):
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode_action(data)
    assert says in str(caught.value) and caught.value.where == where, (str(caught.value), caught.value.where)


def test_decode_action_reads_what_encode_action_writes():
    actions = [PlayCard(card="S101"), MoonBonus(choice="cover"), MoonBonus(choice="none"),
               MoonBonus(choice="remove", row=2, pair="S203"), Swap(row=1, first="S101", second="S512"),
               MoveCard(card="S101", position=10), RotateCard(row=4, card="S412"), RotateTelescope(seat=0),
               RepeatEffect(row=3, card="S108"), ExchangeCard(row=0, card="S106"), ExchangeWith(card="S107"),
               RotateHandCard(card="S305")]
    assert {type(a) for a in actions} == set(ACTION_TYPES.values())
    for action in actions:
        assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action


# -- malformed card files ----------------------------------------------------------------------------
def card_file() -> dict:
    return copy.deepcopy(dict(standard_cards().raw))


def bad_card_file(data, *, says: str, where: str | None = None):
    with pytest.raises(rules.InvalidPosition) as caught:
        parse_cards(data, where="cards.json")
    assert says in str(caught.value), str(caught.value)
    if where is not None:
        assert caught.value.where == where, caught.value.where


def test_the_standard_card_file_is_the_assumed_sixty_card_model():
    cards = parse_cards(card_file())
    assert len(cards.ids) == 60 and sum(cards.red) == 40 and cards.moon_cards == 12 and cards.provenance == "assumed"


def test_a_card_file_with_an_unknown_effect_is_rejected():
    data = card_file()
    data["cards"][3]["low"]["effect"] = "double"
    bad_card_file(data, says="unknown effect 'double'; effects are stop, swap", where="cards.json: cards[3].low.effect")


def test_a_card_file_with_a_bad_half_moon_is_rejected():
    data = card_file()
    data["cards"][0]["half_moon"] = "top"
    bad_card_file(data, says="half_moon (its edge with the high half up) is 'left' or 'right'",
                  where="cards.json: cards[0].half_moon")


def test_a_card_file_with_too_few_red_cards_is_rejected():
    data = card_file()
    reds = [card for card in data["cards"] if card["centre_star"] == "red"]
    for card in reds[:5]:
        card["centre_star"] = "white"
    bad_card_file(data, says="the file has 35, 3 players need 36", where="cards.json")


@pytest.mark.parametrize("change,says,where", [
    (lambda d: d["cards"].pop(), "the file has 59, 5 players need 60", "cards.json"),
    (lambda d: d["cards"][1].update(id="S101"), "card id 'S101' is empty or repeated", "cards.json: cards[1].id"),
    (lambda d: d["cards"][2].update(constellation="C9"), "constellation must be one of", "cards.json: cards[2].constellation"),
    (lambda d: d["cards"][2].update(centre_star="blue"), "centre_star is 'red' or 'white'", "cards.json: cards[2].centre_star"),
    (lambda d: d["cards"][2]["high"].update(value=100), "from 0 to 99", "cards.json: cards[2].high.value"),
    (lambda d: d["cards"][2]["high"].update(value="7"), "from 0 to 99", "cards.json: cards[2].high.value"),
    (lambda d: d["cards"][2].pop("low"), "missing low", "cards.json: cards[2]"),
    (lambda d: d["cards"][2]["high"].update(extra=1), "a half is {value, effect}", "cards.json: cards[2].high"),
    (lambda d: d.update(direction_cards=4), "'direction_cards' must be 5 or more", "cards.json"),
    (lambda d: d.update(moon_cards=-1), "'moon_cards' must be a whole number", "cards.json"),
    (lambda d: d.update(format="starligned-cards/2"), "format must be", "cards.json"),
    (lambda d: d.update(constellations=[]), "'constellations' must be a non-empty list", "cards.json"),
])
def test_a_malformed_card_file_is_rejected_saying_where(change, says, where):
    data = card_file()
    change(data)
    bad_card_file(data, says=says, where=where)


def test_a_position_with_a_malformed_card_file_is_invalid():
    data = sample("play", 2)
    data["cards"] = card_file()
    data["cards"]["cards"][0]["high"]["effect"] = "teleport"
    invalid(data, says="unknown effect 'teleport'", where="position.cards: cards[0].high.effect")


# -- hypothesis: junk and mutations --------------------------------------------------------------
WORDS = ["starligned", "1.0", *PHASES, "cover", "remove", "none", "S101r", "S512r", "S113", "deal_high_up"]
KEYS = ["game", "version", "variants", "state", "cards", "comment", "type", "card", "row", "first", "second", "position",
        "seat", "choice", "pair", *STATE_KEYS]
scalars = (st.none() | st.booleans() | st.integers(-2, 12) | st.integers() | st.floats()
           | st.text(max_size=6) | st.sampled_from(WORDS + CARD_NAMES))
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5),
    max_leaves=12,
)
action_junk = junk | st.fixed_dictionaries(
    {"type": st.sampled_from(list(ACTION_TYPES)) | junk},
    optional={"card": junk, "row": junk, "first": junk, "second": junk, "position": junk, "seat": junk, "choice": junk,
              "pair": junk},
)
position_junk = position_junk_of(GAME, {}, SAMPLES, STATE_KEYS, junk)


def roundtrips(state) -> None:
    shared_roundtrips(GAME, state)


test_decode_junk_raises_only_invalid_position, test_decode_action_junk_raises_only_invalid_position = \
    junk_decode_tests(GAME, position_junk, action_junk)


mutated = mutated_positions(SAMPLES, junk, CARD_NAMES + [c + "r" for c in CARD_NAMES[:12]] + [None, True, "S113", []])


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


def play_to_the_end(state, rng) -> None:
    """Random legal moves until the game is over: every decision named has a legal action."""
    for _ in range(1000):
        if GAME.is_over(state):
            return
        movers = GAME.to_move(state)
        assert movers, f"nobody moves in phase {state.phase}"
        seat = rng.choice(movers)
        actions = GAME.legal_actions(state, seat)
        assert actions, f"Player {seat + 1} must move in phase {state.phase} but has no legal action"
        state = GAME.apply(state, seat, rng.choice(actions))
    raise AssertionError("the game did not end")


@HYPOTHESIS
@given(mutated)
def test_mutated_position_that_decodes_can_be_played_to_the_end(data):
    try:
        state = GAME.decode(data)
    except rules.InvalidPosition:
        return
    play_to_the_end(state, random.Random(json.dumps(data, sort_keys=True)))


def perturbed(data: dict, rng: random.Random) -> dict:
    """A real position with one of its phase-3 or bookkeeping fields changed to another plausible value."""
    data = copy.deepcopy(data)
    raw, players = data["state"], data["state"]["players"]
    seat = rng.randrange(players)
    row = raw["rows"][seat]
    field = rng.choice(["phase", "resolver", "pending", "start_player", "moons", "ignored", "chosen", "stopped", "rotated"])
    if field == "phase":
        raw["phase"] = rng.choice(PHASES)
    elif field == "resolver":
        raw["resolver"] = rng.choice([None, seat])
    elif field == "pending":
        raw["pending"] = {"seat": seat, "card": rng.choice(row).rstrip("r")} if row and rng.random() < 0.8 else None
    elif field == "start_player":
        raw["start_player"] = seat
    elif field == "moons" and len(row) >= 2:
        left = rng.randrange(len(row) - 1)
        raw["moons"][seat].append([row[left].rstrip("r"), row[left + 1].rstrip("r")])
    elif field == "ignored" and row:
        raw["ignored"] = [row[-1].rstrip("r")]
    elif field == "chosen":
        raw["chosen"][seat] = rng.choice([None, True, *raw["hands"][seat][:1]])
    elif field == "stopped":
        raw["stopped"] = not raw["stopped"]
    elif field == "rotated" and row:
        i = rng.randrange(len(row))
        row[i] = row[i][:-1] if row[i].endswith("r") else row[i] + "r"
    return data


def test_perturbed_real_positions_decode_only_if_they_can_be_played_to_the_end():
    rng = random.Random(2025)
    positions = []
    for seed in range(12):
        state, game_rng = GAME.new_game(2 + seed % 4, seed), random.Random(seed)
        while not GAME.is_over(state):
            if game_rng.random() < 0.3:
                positions.append(GAME.encode(state))
            seat = game_rng.choice(GAME.to_move(state))
            state = GAME.apply(state, seat, game_rng.choice(GAME.legal_actions(state, seat)))
    decoded = 0
    for _ in range(1200):
        try:
            state = GAME.decode(perturbed(rng.choice(positions), rng))
        except rules.InvalidPosition:
            continue
        decoded += 1
        play_to_the_end(state, rng)
    assert decoded > 300
