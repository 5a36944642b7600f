"""Starligned rule clauses, one test each, named after the clause (the rules text; docs/readings.md,
"Starligned"; the rulings in ``rules/starligned/rules.py``).

Each test writes the situation as a position file with :func:`position` and loads it with
``decode``, so the clause's situation is visible in the test. Cards are written as in position files:
``"S102"`` high half up, ``"S102r"`` rotated. The cards used, with the half that is up when written
plainly (value, effect, edge of the half-moon):

=====  ==========================  =====  ==========================
S101   10 x0, moon right           S201   9 swap, moon left
S102   9 swap, moon left           S202   8 rotate card, moon right
S103   8 rotate card, moon right   S203   7 stop, moon left
S104   7 stop, moon left           S204   6 move, moon right
S105   6 move, moon right          S205   10 exchange, moon left
S106   10 exchange, moon left      S206   9 rotate telescope, moon right
S107   9 rotate telescope, right   S207   8 repeat, moon left
S108   8 repeat, moon left         S208   7 x2, moon right
=====  ==========================  =====  ==========================

Rotating a card puts its other half up and moves its half-moon to the other edge (S101r: 1 x2,
moon left). A full moon forms where a card with its half-moon on the right meets one with it on the left.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules.starligned import (
    ExchangeCard, ExchangeWith, MoonBonus, MoveCard, PlayCard, RepeatEffect, RotateCard, RotateHandCard,
    RotateTelescope, Swap,
)
from tests.helpers.starligned import CARDS, GAME, RED, WHITE, card_id, load, play, position, refused, reveal


def state_json(state) -> dict:
    return GAME.encode(state)["state"]


def kinds(state) -> list[str]:
    return [record[0] for record in state.log]


# -- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_setup_two_or_three_players_use_only_red_centre_cards_the_white_ones_stay_in_the_box(players):
    data = state_json(GAME.new_game(players, seed=5))
    dealt = [card_id(c) for hand in data["hands"] for c in hand] + data["deck"]
    assert sorted(dealt) == sorted(RED) and len(RED) == 40
    assert sorted(data["box"]) == sorted(WHITE) and len(WHITE) == 20


@pytest.mark.parametrize("players", [4, 5])
def test_setup_four_or_five_players_use_all_sixty_cards(players):
    data = state_json(GAME.new_game(players, seed=5))
    dealt = [card_id(c) for hand in data["hands"] for c in hand] + data["deck"]
    assert sorted(dealt) == sorted(CARDS.ids) and len(dealt) == 60 and data["box"] == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_six_cards_to_each_player(players):
    data = state_json(GAME.new_game(players, seed=players))
    assert [len(h) for h in data["hands"]] == [6] * players
    assert len(data["deck"]) == (40 if players < 4 else 60) - 6 * players
    assert data["rows"] == [[]] * players and data["moon_supply"] == CARDS.moon_cards


def test_setup_one_player_holds_the_start_player_card_chosen_by_the_seed():
    starts = {GAME.new_game(4, seed=seed).start_player for seed in range(20)}
    assert starts == {0, 1, 2, 3}
    assert GAME.new_game(4, seed=3) == GAME.new_game(4, seed=3)
    state = GAME.new_game(3, seed=11)
    assert "holds the start-player direction card" in GAME.events(state)[0].text
    assert GAME.events(state)[0].seat == state.start_player


def test_setup_cards_are_dealt_in_either_orientation_unless_the_high_half_up_switch_is_on():
    dealt = [c for seed in range(3) for h in state_json(GAME.new_game(5, seed=seed))["hands"] for c in h]
    assert any(c.endswith("r") for c in dealt) and not all(c.endswith("r") for c in dealt)
    switched = state_json(GAME.new_game(5, seed=1, variants={"deal_high_up": True}))
    assert not any(c.endswith("r") for h in switched["hands"] for c in h)


# -- phase 1: play a card face down ----------------------------------------------------------------
def test_phase_1_every_player_still_to_choose_moves_at_the_same_time():
    state = load(players=3, hands=[["S101", "S102"], ["S103", "S104"], ["S105", "S106"]], rows=[["S201"], ["S202"], ["S203"]],
                 stage=0, round=1)
    assert GAME.to_move(state) == (0, 1, 2)
    state = GAME.apply(state, 1, PlayCard(card="S103"))
    assert GAME.to_move(state) == (0, 2)
    assert GAME.legal_actions(state, 1) == []
    refused(state, 1, PlayCard(card="S104"), rule="turn order")


def test_phase_1_the_chosen_card_is_hidden_until_everyone_has_chosen():
    state = load(players=3, hands=[["S101", "S102"], ["S103", "S104r"], ["S105", "S106"]], rows=[["S201"], ["S202"], ["S203"]],
                 stage=0, round=1)
    state = GAME.apply(state, 1, PlayCard(card="S104"))
    seen_by_0 = GAME.observe(state, 0)
    assert seen_by_0["chosen"][1] == {"chosen": True}
    assert seen_by_0["hands"][1] == {"count": 4}
    assert "S104" not in str(seen_by_0)
    assert GAME.observe(state, 1)["chosen"][1]["card"]["card"] == "S104r"
    assert state_json(state)["rows"] == [["S201"], ["S202"], ["S203"]]
    state = play(state, (0, PlayCard(card="S101")))
    assert state_json(state)["rows"] == [["S201"], ["S202"], ["S203"]]
    state = play(state, (2, PlayCard(card="S105")))
    assert state_json(state)["rows"] == [["S201", "S101"], ["S202", "S104r"], ["S203", "S105"]]


def test_phase_1_the_card_goes_right_of_the_last_card_as_it_is_held():
    state = load(hands=[["S101r", "S103"], ["S102", "S104"]], rows=[["S201", "S202"], ["S203", "S204"]])
    state = reveal(state, "S101r", "S102")
    rows = state_json(state)["rows"]
    assert rows[0] == ["S201", "S202", "S101r"] and rows[1] == ["S203", "S204", "S102"]


def test_hand_cards_keep_their_orientation():
    state = load(hands=[["S101r", "S103", "S105r", "S107", "S108r"], ["S102", "S104r", "S106", "S201r", "S202"]],
                 rows=[["S203"], ["S204"]])
    # Phase 1 takes one card; nothing turns the others.
    after = GAME.apply(state, 0, PlayCard(card="S103"))
    assert state_json(after)["hands"][0] == ["S101r", "S105r", "S107", "S108r"]


# -- phase 2: reveal and Stop ------------------------------------------------------------------------
def test_phase_2_a_revealed_stop_skips_phase_3_for_everyone_moon_bonuses_included():
    # Player 2's S101 then S102 meet in a full moon, and S102's swap could be resolved: Stop cancels both.
    state = load(hands=[["S104", "S103", "S105"], ["S102", "S106", "S107"]], rows=[["S201", "S202"], ["S203r", "S101"]])
    state = reveal(state, "S104", "S102")
    assert state.stopped and state.phase == "rotate"
    assert "moon_offer" not in kinds(state) and "effect" not in kinds(state)
    assert state_json(state)["moons"] == [[], []]
    assert "Stop (Player 1): phase 3 is skipped" in GAME.events(state)[-2].text


def test_phase_2_two_stops_do_not_cancel_each_other():
    state = load(hands=[["S104", "S103", "S105"], ["S203", "S106", "S107"]], rows=[["S201", "S202"], ["S102", "S101"]])
    state = reveal(state, "S104", "S203")
    assert state.stopped and state.phase == "rotate"
    assert ("stop", None, (), (0, 1)) in state.log


def test_phase_2_a_stop_counts_only_on_the_half_that_is_up():
    # S106 shows 10 exchange; rotated (S106r) it shows 1 stop.
    state = load(hands=[["S106", "S103", "S105"], ["S107", "S108", "S201"]], rows=[["S202", "S203r"], ["S204", "S205"]])
    assert not reveal(state, "S106", "S107").stopped
    state = load(hands=[["S106r", "S103", "S105"], ["S107", "S108", "S201"]], rows=[["S202", "S203r"], ["S204", "S205"]])
    assert reveal(state, "S106r", "S107").stopped


# -- phase 3: order, moon bonus, effects -----------------------------------------------------------
def test_phase_3_players_resolve_in_seat_order_from_the_start_player():
    # Everyone plays Rotate telescope (always resolvable: hands are not empty).
    state = load(players=3, start_player=1, rows=[["S201"], ["S202"], ["S203"]],
                 hands=[["S107", "S101", "S102", "S103", "S104"], ["S206", "S105", "S106", "S108", "S204"],
                        ["S305", "S205", "S207", "S208", "S301"]])
    state = reveal(state, "S107", "S206", "S305")
    order = []
    while state.phase == "effect":
        order.append(GAME.to_move(state))
        state = GAME.apply(state, state.resolver, RotateTelescope(seat=state.resolver))
    assert order == [(1,), (2,), (0,)] and state.phase == "rotate"


def test_moon_bonus_needs_a_full_moon_where_the_last_two_cards_meet():
    def offered(row):
        state = load(rows=[row[:-1], ["S203", "S207"]], hands=[[row[-1], "S401", "S402"], ["S205", "S403", "S404"]])
        return ("moon_offer", 0, (), None) in reveal(state, row[-1], "S205").log

    assert offered(["S105", "S101", "S102"])        # half-moon on the right edge, then on the left: a full moon
    assert not offered(["S105", "S102", "S101"])    # left, then right: the halves face away
    assert not offered(["S105", "S101", "S103"])    # right, right
    assert not offered(["S105", "S108", "S102"])    # left, left
    assert not offered(["S105", "S101r", "S102"])   # S101 rotated shows its half-moon on the left
    assert offered(["S105", "S102r", "S108"])       # S102 rotated shows it on the right
    assert not offered(["S101", "S102", "S103"])    # only the last two cards count


def moon_position(**extra):
    """Player 1's S101 (moon right) then S102 (moon left, 9 swap) just revealed: a full moon.
    Player 2 plays S205r (1 move) after S204 (moon right): no full moon."""
    zones = dict(hands=[["S102", "S103", "S105"], ["S205r", "S106", "S108"]], rows=[["S202", "S101"], ["S203r", "S204"]])
    zones.update(extra)
    return reveal(load(**zones), "S102", "S205r")


def test_moon_bonus_is_taken_before_the_effect():
    state = moon_position()
    assert state.phase == "moon" and GAME.to_move(state) == (0,)
    assert GAME.legal_actions(state, 0) == [MoonBonus(choice="cover"), MoonBonus(choice="none")]
    refused(state, 0, Swap(row=1, first="S203", second="S204"), rule="moon bonus", says="take or decline")


def test_moon_bonus_cover_blocks_both_cards_and_takes_a_moon_card_from_the_supply():
    state = GAME.apply(moon_position(), 0, MoonBonus(choice="cover"))
    data = state_json(state)
    assert data["moons"] == [[["S101", "S102"]], []] and data["moon_supply"] == CARDS.moon_cards - 1
    assert [c["blocked"] for c in GAME.observe(state, None)["rows"][0]] == [False, True, True]
    # Then S102's swap: the covered cards cannot take part, which leaves one free card in row 0.
    assert state.phase == "effect"
    assert {(a.row, a.first, a.second) for a in GAME.legal_actions(state, 0)} == {
        (1, "S203", "S204"), (1, "S203", "S205"), (1, "S204", "S205")}


def test_moon_bonus_remove_returns_an_opponents_moon_card_to_the_supply():
    state = moon_position(moons=[[], [["S203", "S204"]]])
    assert state.moon_supply == CARDS.moon_cards - 1
    assert MoonBonus(choice="remove", row=1, pair="S203") in GAME.legal_actions(state, 0)
    state = GAME.apply(state, 0, MoonBonus(choice="remove", row=1, pair="S203"))
    data = state_json(state)
    assert data["moons"] == [[], []] and data["moon_supply"] == CARDS.moon_cards


def test_moon_bonus_cannot_remove_your_own_moon_card():
    state = moon_position(rows=[["S203r", "S204", "S202", "S101"], ["S206", "S207", "S208", "S301"]],
                          moons=[[["S203", "S204"]], []], hands=[["S102", "S103"], ["S205r", "S106"]])
    assert state.phase == "moon" and all(a.choice != "remove" for a in GAME.legal_actions(state, 0))
    refused(state, 0, MoonBonus(choice="remove", row=0, pair="S203"), rule="moon bonus", says="no moon card over")


def test_moon_bonus_may_be_declined():
    state = GAME.apply(moon_position(), 0, MoonBonus(choice="none"))
    assert state_json(state)["moons"] == [[], []] and state.phase == "effect" and state.moon_supply == CARDS.moon_cards
    assert "takes no moon bonus" in GAME.events(state)[0].text


def test_moon_bonus_with_an_empty_moon_supply_only_removes():
    state = moon_position(moons=[[], [["S203", "S204"]]], moon_supply=0)
    assert GAME.legal_actions(state, 0) == [MoonBonus(choice="remove", row=1, pair="S203"), MoonBonus(choice="none")]
    refused(state, 0, MoonBonus(choice="cover"), rule="moon bonus", says="needs a moon card in the supply")
    # Nothing to cover with and nothing to remove: there is no bonus to take.
    state = moon_position(moon_supply=0)
    assert "moon_offer" not in kinds(state) and state.phase == "effect"


def test_moon_bonus_cover_needs_the_last_two_cards_unblocked():
    # Player 1's Repeat makes Player 2 move S204 (6 move) to the front: Player 2's row then ends in its
    # covered S101 | S102 full moon, which cannot be covered again; removal is all that is left.
    state = load(rows=[["S203", "S207"], ["S101", "S102"]], moons=[[["S203", "S207"]], [["S101", "S102"]]],
                 hands=[["S108", "S401", "S402"], ["S204", "S403", "S404"]])
    state = reveal(state, "S108", "S204")
    state = GAME.apply(state, 0, RepeatEffect(row=1, card="S204"))
    assert GAME.legal_actions(state, 1) == [MoveCard(card="S204", position=1)]
    state = GAME.apply(state, 1, MoveCard(card="S204", position=1))
    assert state_json(state)["rows"][1] == ["S204", "S101", "S102"]
    assert state.phase == "moon" and state.resolver == 1
    assert GAME.legal_actions(state, 1) == [MoonBonus(choice="remove", row=0, pair="S203"), MoonBonus(choice="none")]


def test_phase_3_resolves_the_current_rightmost_card_not_the_card_played():
    # Player 1 rotates Player 2's new S204 (6 move) to S204r (5 stop): Player 2's effect is then Stop: nothing.
    state = load(hands=[["S202", "S105", "S107"], ["S204", "S106", "S108"]], rows=[["S203r", "S201"], ["S206r", "S207"]])
    state = reveal(state, "S202", "S204")
    assert state.phase == "effect" and state.resolver == 0
    state = GAME.apply(state, 0, RotateCard(row=1, card="S204"))
    assert state_json(state)["rows"][1][-1] == "S204r"
    assert ("no_effect", 1, (2 * CARDS.by_id["S204"] + 1,), "stop") in state.log
    assert not state.stopped and state.phase == "rotate"
    # The log says why (it said "acts at another time", where the tutorial says a Stop in a row does nothing).
    said = {event.text: event.texts["ja"] for event in GAME.events(state)}
    assert said["Player 2's S204r (stop) does nothing now: a Stop acts only as it is revealed."] == (
        "プレイヤー2のS204r（ストップ）は今は働きません。ストップが働くのは公開されたときだけです。")


def test_phase_3_a_swap_can_give_the_next_player_a_new_rightmost_card():
    # Player 1 swaps Player 2's new S205r (1 move) with S206 (rotate telescope): Player 2 turns a telescope.
    state = load(hands=[["S102", "S105", "S107"], ["S205r", "S106", "S108"]], rows=[["S203r", "S201"], ["S206", "S207"]])
    state = reveal(state, "S102", "S205r")
    state = GAME.apply(state, 0, Swap(row=1, first="S206", second="S205"))
    assert state_json(state)["rows"][1] == ["S205r", "S207", "S206"]
    assert GAME.to_move(state) == (1,)
    assert GAME.legal_actions(state, 1) == [RotateTelescope(seat=0), RotateTelescope(seat=1)]


def test_effects_that_cannot_be_resolved_do_nothing():
    # Round 1: every row holds one card, so a Swap (two cards of one row) and a Move have no target.
    state = load(hands=[["S102", "S103", "S107", "S108", "S201", "S202"], ["S105", "S106", "S203", "S204", "S206", "S207"]])
    state = reveal(state, "S102", "S105")
    assert ("unresolvable", 0, (2 * CARDS.by_id["S102"],), "swap") in state.log
    assert ("unresolvable", 1, (2 * CARDS.by_id["S105"],), "move") in state.log
    assert state.phase == "rotate" and state_json(state)["rows"] == [["S102"], ["S105"]]


def test_x2_and_x0_as_rightmost_card_do_nothing_in_phase_3():
    state = load(hands=[["S208", "S105", "S107"], ["S101", "S106", "S108"]], rows=[["S203r", "S201"], ["S206r", "S207"]])
    state = reveal(state, "S208", "S101")
    assert [r for r in state.log if r[0] == "no_effect"] == [("no_effect", 0, (2 * CARDS.by_id["S208"],), "x2"),
                                                              ("no_effect", 1, (2 * CARDS.by_id["S101"],), "x0")]
    assert state.phase == "rotate"
    assert "Player 1's S208 (x2) does nothing in phase 3: it multiplies the card to its left at final scoring." in {
        event.text for event in GAME.events(state)}


# -- the effects -----------------------------------------------------------------------------------
def effect_position(own_card, *, rows=None, moons=None, hands=None, variants=None):
    """Player 1 (the start player) plays ``own_card`` after S201 (moon left: no full moon); Player 2
    plays S304r (1 swap, resolved after Player 1's effect)."""
    rows = rows or [["S203r", "S201"], ["S206r", "S207"]]
    state = load(rows=rows, moons=moons, hands=hands or [[own_card, "S401r", "S402", "S403"], ["S304r", "S404r", "S405", "S406"]],
                 variants=variants)
    state = reveal(state, own_card, "S304r")
    assert state.phase == "effect" and state.resolver == 0
    return state


def test_swap_two_unblocked_cards_of_any_one_row_the_card_just_played_included():
    state = effect_position("S102", moons=[[], [["S206", "S207"]]])
    options = {(a.row, a.first, a.second) for a in GAME.legal_actions(state, 0)}
    assert options == {(0, "S203", "S201"), (0, "S203", "S102"), (0, "S201", "S102")}
    state = GAME.apply(state, 0, Swap(row=0, first="S102", second="S203"))
    assert state_json(state)["rows"][0] == ["S102", "S201", "S203r"]


def test_swap_of_a_blocked_card_is_refused_by_the_blocked_card_rule():
    state = effect_position("S102", moons=[[], [["S206", "S207"]]])
    error = refused(state, 0, Swap(row=1, first="S206", second="S304"), rule="Swap", says="under a moon card")
    assert "blocked cards" in str(error)
    refused(state, 0, Swap(row=0, first="S102", second="S102"), rule="Swap", says="with itself")


def test_move_puts_this_card_anywhere_else_in_your_row():
    state = effect_position("S105")
    assert GAME.legal_actions(state, 0) == [MoveCard(card="S105", position=1), MoveCard(card="S105", position=2)]
    state = GAME.apply(state, 0, MoveCard(card="S105", position=1))
    assert state_json(state)["rows"][0] == ["S105", "S203r", "S201"]


def test_move_may_not_go_between_the_two_cards_under_a_moon_card():
    state = effect_position("S105", rows=[["S203r", "S202", "S201"], ["S206r", "S207", "S208"]], moons=[[["S203", "S202"]], []],
                            hands=[["S105", "S401r", "S402"], ["S304r", "S404r", "S405"]])
    assert [a.position for a in GAME.legal_actions(state, 0)] == [1, 3]
    refused(state, 0, MoveCard(card="S105", position=2), rule="Move", says="cannot go to position 2")


@pytest.mark.parametrize("between_pairs, positions", [(True, [1, 3]), (False, [1])])
def test_move_between_two_different_moon_pairs_follows_the_switch(between_pairs, positions):
    # Move may not cut in between blocked cards. Row: [S203r S202] [S208 S206r] under two moon cards. By
    # default (move_between_moon_pairs on) only each moon card's own pair is closed; off, the place
    # between S202 and S208 (blocked, under different moon cards) is closed too.
    rows = [["S203r", "S202", "S208", "S206r"], ["S201", "S207", "S101", "S102"]]
    state = load(rows=rows, moons=[[["S203", "S202"], ["S208", "S206"]], []],
                 hands=[["S105", "S401r"], ["S304r", "S404r"]], variants={"move_between_moon_pairs": between_pairs})
    state = reveal(state, "S105", "S304r")
    assert [a.position for a in GAME.legal_actions(state, 0)] == positions
    if between_pairs:
        state = GAME.apply(state, 0, MoveCard(card="S105", position=3))
        assert state_json(state)["rows"][0] == ["S203r", "S202", "S105", "S208", "S206r"]
    else:
        refused(state, 0, MoveCard(card="S105", position=3), rule="Move", says="cannot go to position 3 (possible: 1)")


def test_move_must_change_the_cards_place():
    state = effect_position("S105")
    refused(state, 0, MoveCard(card="S105", position=3), rule="Move", says="cannot go to position 3")
    refused(state, 0, MoveCard(card="S201", position=1), rule="Move", says="this Move moves S105")


def test_rotate_star_card_turns_one_unblocked_played_card_of_any_row_but_not_itself():
    state = effect_position("S103", moons=[[], [["S206", "S207"]]])
    assert {(a.row, a.card) for a in GAME.legal_actions(state, 0)} == {(0, "S203"), (0, "S201"), (1, "S304")}
    refused(state, 0, RotateCard(row=0, card="S103"), rule="Rotate star card", says="cannot rotate itself")
    error = refused(state, 0, RotateCard(row=1, card="S207"), rule="Rotate star card", says="under a moon card")
    assert "blocked cards" in str(error)
    state = GAME.apply(state, 0, RotateCard(row=0, card="S203"))
    assert state_json(state)["rows"][0] == ["S203", "S201", "S103"]


def test_rotate_telescope_turns_every_card_of_one_hand_and_that_player_still_rotates_one_in_phase_4():
    state = effect_position("S107", hands=[["S107", "S105r", "S101", "S401"], ["S304r", "S106", "S204r", "S403"]])
    assert GAME.legal_actions(state, 0) == [RotateTelescope(seat=0), RotateTelescope(seat=1)]
    state = GAME.apply(state, 0, RotateTelescope(seat=1))
    assert state_json(state)["hands"] == [["S101", "S105r", "S401"], ["S106r", "S204", "S403r"]]
    state = GAME.apply(state, 1, Swap(row=0, first="S203", second="S201"))
    assert state.phase == "rotate" and GAME.to_move(state) == (0, 1)
    assert [a.card for a in GAME.legal_actions(state, 1)] == ["S106", "S204", "S403"]
    state = GAME.apply(state, 1, RotateHandCard(card="S204"))
    assert state_json(state)["hands"][1] == ["S106r", "S204r", "S403r"]


def test_repeat_the_owner_of_the_chosen_effect_resolves_it_again():
    state = effect_position("S108", rows=[["S203r", "S201"], ["S206", "S207r"]])
    assert {(a.row, a.card) for a in GAME.legal_actions(state, 0)} == {
        (0, "S201"), (0, "S108"), (1, "S206"), (1, "S207"), (1, "S304")}
    state = GAME.apply(state, 0, RepeatEffect(row=1, card="S206"))  # S206: 9 rotate telescope
    assert state.phase == "repeat" and GAME.to_move(state) == (1,)
    assert GAME.legal_actions(state, 0) == []
    refused(state, 0, RotateTelescope(seat=0), rule="turn order", says="Player 2 must decide now")
    assert GAME.legal_actions(state, 1) == [RotateTelescope(seat=0), RotateTelescope(seat=1)]
    state = GAME.apply(state, 1, RotateTelescope(seat=0))
    assert state_json(state)["hands"][0] == ["S401", "S402r", "S403r"]
    assert state.phase == "effect" and state.resolver == 1  # then Player 2's own turn


def test_repeat_only_picks_a_phase_3_effect():
    state = effect_position("S108", rows=[["S203r", "S201"], ["S208", "S207r"]])
    assert (1, "S208") not in {(a.row, a.card) for a in GAME.legal_actions(state, 0)}
    refused(state, 0, RepeatEffect(row=1, card="S208"), rule="Repeat", says="shows no phase 3 effect")


def test_repeat_of_a_move_moves_the_repeated_card_in_its_owners_row():
    state = effect_position("S108", rows=[["S203r", "S201"], ["S204", "S207r"]])
    state = GAME.apply(state, 0, RepeatEffect(row=1, card="S204"))
    assert GAME.to_move(state) == (1,)
    assert GAME.legal_actions(state, 1) == [MoveCard(card="S204", position=2), MoveCard(card="S204", position=3)]
    state = GAME.apply(state, 1, MoveCard(card="S204", position=3))
    assert state_json(state)["rows"][1] == ["S207r", "S304r", "S204"]


def test_repeat_of_a_repeat_does_nothing():
    state = effect_position("S108", rows=[["S203r", "S201"], ["S207", "S206r"]])
    state = GAME.apply(state, 0, RepeatEffect(row=1, card="S207"))
    assert ("repeat_repeat", 0, (2 * CARDS.by_id["S207"],), 1) in state.log
    assert state.phase == "effect" and state.resolver == 1


@pytest.mark.parametrize("picks_repeat", [True, False])
def test_repeat_aimed_at_a_repeat_card_or_at_itself_follows_the_switch(picks_repeat):
    # Repeat picks a phase-3 effect on the table. By default (repeat_picks_repeat on) a Repeat card, this
    # one included, may be picked and then does nothing (docs/readings.md, "Starligned 5"); off, Repeat cards are no targets.
    state = effect_position("S108", rows=[["S203r", "S201"], ["S207", "S206r"]],
                            variants={"repeat_picks_repeat": picks_repeat})
    targets = {(a.row, a.card) for a in GAME.legal_actions(state, 0)}
    assert ((0, "S108") in targets, (1, "S207") in targets) == (picks_repeat, picks_repeat)
    assert (0, "S201") in targets
    if picks_repeat:
        state = GAME.apply(state, 0, RepeatEffect(row=0, card="S108"))
        assert ("repeat_repeat", 0, (2 * CARDS.by_id["S108"],), 0) in state.log
    else:
        refused(state, 0, RepeatEffect(row=0, card="S108"), rule="Repeat", says="with repeat_picks_repeat off")
        refused(state, 0, RepeatEffect(row=1, card="S207"), rule="Repeat", says="with repeat_picks_repeat off")


@pytest.mark.parametrize("picks_repeat", [True, False])
def test_repeat_with_only_repeat_cards_to_pick_follows_the_switch(picks_repeat):
    # The only phase-3 effects on the table are Repeats (Player 2's S207 and this S108; S208 and S301r
    # show x2, S203 a Stop played earlier, Player 2's S101 x0): on, the Repeat must pick one of them (and
    # does nothing); off, it has no target and does nothing at once.
    data = position(rows=[["S208", "S203"], ["S207", "S301r"]], hands=[
        ["S108", "S401r", "S402", "S403"], ["S101", "S404r", "S405", "S406"]], variants={"repeat_picks_repeat": picks_repeat})
    state = reveal(GAME.decode(data), "S108", "S101")
    if picks_repeat:
        assert state.phase == "effect" and state.resolver == 0
        assert {(a.row, a.card) for a in GAME.legal_actions(state, 0)} == {(0, "S108"), (1, "S207")}
    else:
        assert ("unresolvable", 0, (2 * CARDS.by_id["S108"],), "repeat") in state.log
        assert state.phase == "rotate"


def test_repeat_of_an_exchange_passes_each_choice_to_its_owner():
    # Player 1 repeats Player 2's S205 (10 exchange): Player 2 picks a row card (Player 1's S201), then
    # Player 1, that row's owner, picks the hand card to take its place.
    state = effect_position("S108", rows=[["S203r", "S201"], ["S205", "S207r"]])
    state = GAME.apply(state, 0, RepeatEffect(row=1, card="S205"))
    assert GAME.to_move(state) == (1,) and ExchangeCard(row=0, card="S201") in GAME.legal_actions(state, 1)
    state = GAME.apply(state, 1, ExchangeCard(row=0, card="S201"))
    assert state.phase == "exchange" and GAME.to_move(state) == (0,)
    state = GAME.apply(state, 0, ExchangeWith(card="S402"))
    data = state_json(state)
    assert data["rows"][0] == ["S203r", "S402", "S108"] and "S201" in data["hands"][0]
    assert data["ignored"] == ["S402"] and state.phase == "effect" and state.resolver == 1


def test_exchange_the_row_owner_chooses_the_hand_card():
    state = effect_position("S106", hands=[["S106", "S105r", "S107", "S401"], ["S304r", "S101r", "S204", "S402"]])
    assert (1, "S207") in {(a.row, a.card) for a in GAME.legal_actions(state, 0)}
    state = GAME.apply(state, 0, ExchangeCard(row=1, card="S207"))
    assert state.phase == "exchange" and GAME.to_move(state) == (1,)
    assert GAME.legal_actions(state, 0) == []
    assert GAME.legal_actions(state, 1) == [ExchangeWith(card="S101"), ExchangeWith(card="S204"), ExchangeWith(card="S402")]
    refused(state, 0, ExchangeWith(card="S105"), rule="turn order")
    # The incoming card keeps its hand orientation; the outgoing one goes to the hand as it lay.
    state = GAME.apply(state, 1, ExchangeWith(card="S101"))
    data = state_json(state)
    assert data["rows"][1] == ["S206r", "S101r", "S304r"] and data["hands"][1] == ["S204", "S207", "S402"]


def test_exchange_of_a_blocked_card_is_refused_by_the_blocked_card_rule():
    state = effect_position("S106", moons=[[], [["S206", "S207"]]])
    error = refused(state, 0, ExchangeCard(row=1, card="S206"), rule="Exchange", says="under a moon card")
    assert "blocked cards" in str(error)


def test_exchange_the_incoming_cards_effect_is_ignored_when_it_becomes_a_later_rightmost_card():
    # Player 1 exchanges Player 2's rightmost S304r; Player 2 puts in S107 (rotate telescope): ignored.
    state = effect_position("S106", hands=[["S106", "S105r", "S102"], ["S304r", "S107", "S204"]])
    state = play(state, (0, ExchangeCard(row=1, card="S304")), (1, ExchangeWith(card="S107")))
    assert state_json(state)["rows"][1] == ["S206r", "S207", "S107"]
    assert ("ignored", 1, (2 * CARDS.by_id["S107"],), "rotate_telescope") in state.log
    assert state.phase == "rotate" and state_json(state)["ignored"] == ["S107"]


def test_exchange_ignores_the_incoming_effect_for_the_round_only():
    state = effect_position("S106", hands=[["S106", "S105r", "S102", "S401"], ["S304r", "S107", "S204", "S402"]])
    state = play(state, (0, ExchangeCard(row=1, card="S304")), (1, ExchangeWith(card="S107")),
                 (0, RotateHandCard(card="S102")), (1, RotateHandCard(card="S204")))
    assert state_json(state)["hands"] == [["S204r", "S304r", "S402"], ["S102r", "S105r", "S401"]]
    state = reveal(state, "S204r", "S105r")  # S204r: 5 stop
    assert state.ignored == ()


def test_exchange_an_ignored_effect_cannot_be_repeated_either():
    # Player 1 exchanges Player 2's S206r for S107 (rotate telescope); Player 3's Repeat may not pick S107.
    state = load(players=3, rows=[["S203r", "S201"], ["S206r", "S207"], ["S301", "S302"]],
                 hands=[["S106", "S401"], ["S208", "S107"], ["S108", "S402"]])
    state = reveal(state, "S106", "S208", "S108")
    state = play(state, (0, ExchangeCard(row=1, card="S206")), (1, ExchangeWith(card="S107")))
    assert state_json(state)["rows"][1] == ["S107", "S207", "S208"]
    assert state.phase == "effect" and state.resolver == 2
    targets = {(a.row, a.card) for a in GAME.legal_actions(state, 2)}
    assert (1, "S207") in targets and (1, "S107") not in targets
    refused(state, 2, RepeatEffect(row=1, card="S107"), rule="Repeat", says="its effect is ignored")


# -- phase 4 and passing -----------------------------------------------------------------------------
def rotate_position():
    return load(phase="rotate", players=3, start_player=2, rows=[["S201"], ["S202"], ["S203"]],
                hands=[["S101", "S102r", "S103", "S104", "S105"], ["S106", "S107", "S108", "S204", "S205r"],
                       ["S206", "S207", "S208", "S301", "S302"]])


def test_phase_4_every_player_rotates_one_hand_card_at_the_same_time():
    state = rotate_position()
    assert GAME.to_move(state) == (0, 1, 2)
    state = GAME.apply(state, 1, RotateHandCard(card="S205"))
    assert GAME.to_move(state) == (0, 2) and state_json(state)["hands"][1][-1] == "S205"
    assert GAME.observe(state, 0)["chosen"][1] == {"rotated": True}
    assert "S205" not in GAME.observe(state, 0)["events"][-1]["text"]
    refused(state, 1, RotateHandCard(card="S106"), rule="turn order")
    refused(state, 0, PlayCard(card="S101"), rule="phase 4", says="must rotate one hand card")


def test_phase_4_then_hands_pass_left_keeping_orientation_with_the_start_player_card():
    state = play(rotate_position(), (0, RotateHandCard(card="S101")), (1, RotateHandCard(card="S205")),
                 (2, RotateHandCard(card="S302")))
    data = state_json(state)
    assert data["hands"] == [["S206", "S207", "S208", "S301", "S302r"], ["S101r", "S102r", "S103", "S104", "S105"],
                             ["S106", "S107", "S108", "S204", "S205"]]
    assert data["start_player"] == 0 and data["round"] == 1 and data["phase"] == "play"


# -- the end of a stage and of the game --------------------------------------------------------------
STAGE_1_ROWS = [["S201", "S202", "S203r", "S207"], ["S205", "S206", "S208r", "S304"]]


def last_round(stage: int):
    """Round 5 of ``stage`` (0 or 1): two cards in each hand, S101r (1 x2) and S103 (8 rotate card) to play."""
    rows = STAGE_1_ROWS
    if stage == 1:
        rows = [["S301", "S302", "S303", "S305", "S306"] + rows[0], ["S307", "S308", "S401", "S402", "S405"] + rows[1]]
    state = load(rows=rows, hands=[["S101r", "S102"], ["S103", "S105"]], discard=[] if stage == 0 else ["S403", "S404r"])
    assert (state.stage, state.round, state.phase) == (stage, 4, "play")
    state = reveal(state, "S101r", "S103")
    return GAME.apply(state, 1, RotateCard(row=0, card="S201"))


def test_stage_end_the_fifth_round_is_played_with_two_cards_without_phase_4_and_the_last_card_is_discarded():
    state = last_round(0)
    data = state_json(state)
    assert "rotate_phase" not in kinds(state) and kinds(state).count("discard") == 2
    assert sorted(data["discard"]) == ["S102", "S105"]
    assert [len(r) for r in data["rows"]] == [5, 5]


def test_stage_end_deals_six_new_cards_each_for_stage_2():
    before = load(rows=STAGE_1_ROWS, hands=[["S101r", "S102"], ["S103", "S105"]])
    state = last_round(0)
    data = state_json(state)
    assert (data["stage"], data["round"], data["phase"]) == (1, 0, "play")
    assert [len(h) for h in data["hands"]] == [6, 6] and GAME.to_move(state) == (0, 1)
    dealt = [CARDS.by_id[card_id(c)] for h in data["hands"] for c in h]
    assert set(dealt) <= set(before.deck) and len(state.deck) == len(before.deck) - 12
    assert data["rows"][0][:4] == ["S201r", "S202", "S203r", "S207"]  # the rows stay on the table


def test_game_end_after_the_second_stage_every_row_holds_ten_cards():
    state = last_round(1)
    data = state_json(state)
    assert GAME.is_over(state) and "game_over" in kinds(state)
    assert [len(r) for r in data["rows"]] == [10, 10] and data["hands"] == [[], []]
    assert sorted(data["discard"]) == ["S102", "S105", "S403", "S404r"]
    assert GAME.to_move(state) == () and GAME.winners(state)
    refused(state, 0, PlayCard(card="S101"), rule="game end", says="the game is over")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_whole_game_is_two_stages_of_five_rounds(players):
    rng = random.Random(players)
    state = GAME.new_game(players, seed=players)
    stages_and_rounds, log = set(), []
    while not GAME.is_over(state):
        stages_and_rounds.add((state.stage, state.round))
        seat = rng.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        log.extend(record[0] for record in state.log)
    assert stages_and_rounds == {(s, r) for s in range(2) for r in range(5)}
    assert [len(r) for r in state.rows] == [10] * players
    assert len(state.discard) == 2 * players
    assert log.count("stage") == 1 and log.count("game_over") == 1
    assert log.count("pass") == 8 and log.count("reveal") == 10 * players


# -- illegal actions -----------------------------------------------------------------------------
def test_an_illegal_action_never_changes_the_state_and_always_names_a_rule():
    wrong = [PlayCard(card="S101"), MoonBonus(choice="cover"), MoonBonus(choice="remove", row=1, pair="S101"),
             Swap(row=0, first="S101", second="S102"), MoveCard(card="S101", position=1), RotateCard(row=0, card="S101"),
             RotateTelescope(seat=4), RepeatEffect(row=0, card="S101"), ExchangeCard(row=1, card="S101"),
             ExchangeWith(card="S101"), RotateHandCard(card="S101"), None, "play S101"]
    rng = random.Random(3)
    state = GAME.new_game(3, seed=3)
    refusals = 0
    while not GAME.is_over(state):
        for seat in range(3):
            legal = GAME.legal_actions(state, seat)
            legal += [Swap(row=a.row, first=a.second, second=a.first) for a in legal if isinstance(a, Swap)]
            for action in wrong:
                if action in legal:
                    continue
                before = GAME.encode(state)
                with pytest.raises(rules.IllegalAction) as caught:
                    GAME.apply(state, seat, action)
                assert caught.value.rule and caught.value.reason
                assert GAME.encode(state) == before
                refusals += 1
        seat = rng.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert refusals > 500


# -- what a player knows of the hidden hands -------------------------------------------------------------
def card_ids(entries) -> list[str]:
    return sorted(card_id(c) for c in entries)


def test_a_hand_passed_on_stays_known_to_who_passed_it_in_every_sample():
    # Phase 4: the hands pass left. In round 2 of a 3-player game Player 1 knows the hand it passed to
    # Player 2 (cards leave it face up, or cross in view of all), not Player 3's; even once Player 2 has
    # put a card face down, that card is one of the known ones.
    state = GAME.new_game(3, seed=4)
    while not (state.round == 1 and state.phase == "play"):
        (seat, *_) = GAME.to_move(state)
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    hand = card_ids(state_json(state)["hands"][1] + [state_json(state)["chosen"][1]])
    others = set()
    for seed in range(200):
        twin = GAME.sample_hidden(state, 0, random.Random(seed))
        seen = state_json(twin)
        assert card_ids(seen["hands"][1] + [seen["chosen"][1]]) == hand
        assert GAME.observe(twin, 0) == GAME.observe(state, 0)
        others.add(tuple(card_ids(seen["hands"][2])))
    assert len(others) > 1   # Player 3's hand, which Player 1 never held, is re-dealt


def test_a_card_exchanged_into_a_hand_stays_known_to_everyone_in_every_sample():
    # Exchange: the row card goes into its owner's hand in view of all. Player 3, who never held Player 2's
    # hand, still knows that card is there.
    hands = [["S106", "S401r", "S402", "S403", "S404", "S405"], ["S201", "S102", "S103", "S406", "S407", "S408"],
             ["S208", "S301", "S302", "S303", "S305", "S306"]]
    state = reveal(load(players=3, hands=hands), "S106", "S201", "S208")
    state = GAME.apply(state, 0, ExchangeCard(row=1, card="S201"))
    state = GAME.apply(state, 1, ExchangeWith(card="S102"))
    assert "S201" in card_ids(state_json(state)["hands"][1])
    for seed in range(200):
        twin = GAME.sample_hidden(state, 2, random.Random(seed))
        assert "S201" in card_ids(state_json(twin)["hands"][1])
        assert GAME.observe(twin, 2) == GAME.observe(state, 2)
    assert state_json(state)["exchanged"] == ["S201"]
    assert GAME.decode(GAME.encode(state)) == state._replace(log=())
