"""Jump Gate scoring (the rules text's 得点計算; docs/readings.md, "Jump Gate"): every table and
worked example of the rules text, a whole finished game scored by hand, and the tie-breaks.

The scoring functions carry the text's examples as doctests (run here too); the other tests go
through finished positions, so the hidden resources, the black hole and the breakdown are checked
together. Positions are 2-player games whose six planets are all claimed (the game is over).
"""

from __future__ import annotations

import doctest

import pytest

import rules
from rules.jump_gate import scoring
from tests.helpers.jump_gate import GAME, finished


def category(state, seat: int, name: str) -> dict:
    return next(c for c in GAME.score_breakdown(state)[seat]["categories"] if c["category"] == name)


def test_scoring_doctests():
    failures, tried = doctest.testmod(scoring)
    assert tried >= 5 and failures == 0


# -- planets and Fame ------------------------------------------------------------------------------
def test_each_claimed_planet_scores_4():
    state = finished(claimed=(0, 0, 0, 0, 1, 1))
    assert category(state, 0, "planets")["points"] == 16 and category(state, 1, "planets")["points"] == 8


def test_each_fame_card_scores_5_with_or_without_the_black_hole_icon():
    state = finished(gained=(["fame", "fame", "fame-bh"], []))
    assert category(state, 0, "fame")["points"] == 15


# -- Sand and Water tables -------------------------------------------------------------------------
@pytest.mark.parametrize("cards,points", [(0, 0), (1, 1), (2, 3), (3, 7), (4, 13), (5, 21), (6, 30), (7, 40), (8, 43),
                                          (9, 45), (10, 45), (12, 45)])
def test_sand_table_1_3_7_13_21_30_40_43_45_and_nine_or_more_score_45(cards, points):
    assert scoring.sand(cards) == points


@pytest.mark.parametrize("cards,points", [(0, 0), (1, 2), (2, 4), (3, 9), (4, 16), (5, 20), (6, 24), (7, 28), (8, 32),
                                          (9, 32), (12, 32)])
def test_water_table_2_4_9_16_20_24_28_32_capped_at_eight(cards, points):
    assert scoring.water(cards) == points


def test_sand_in_a_game_counts_gained_and_hidden_cards_past_nine_as_45():
    # Nine gained (three with the black-hole icon) and three hidden: twelve sand cards.
    state = finished(gained=(["sand"] * 3 + ["sand-bh"] * 3 + ["sand"] * 3, []),
                     hidden=(("sand",) * 3, ("water",) * 3))
    assert category(state, 0, "sand")["count"] == 12 and category(state, 0, "sand")["points"] == 45


def test_water_in_a_game_all_eight_cards_score_32():
    state = finished(gained=(["water"] * 3 + ["water-bh"] * 2, []), hidden=(("water",) * 3, ("sand",) * 3))
    assert category(state, 0, "water")["count"] == 8 and category(state, 0, "water")["points"] == 32


# -- EnerGel and Gems: the text's examples -------------------------------------------------------------
@pytest.mark.parametrize("dark,light,points", [(2, 2, 14), (3, 1, 11), (4, 0, 8)])
def test_energel_7_per_dark_light_pair_2_per_card_left_over(dark, light, points):
    """同じ４枚でも２・２なら１４点、３・１なら１１点、４・０なら８点."""
    state = finished(gained=(["energel_dark"] * dark + ["energel_light"] * light, []))
    energel = category(state, 0, "energel")
    assert energel["counts"] == [dark, light] and energel["points"] == points


@pytest.mark.parametrize("colours,points", [((4, 0, 0), 16), ((3, 1, 0), 12), ((2, 1, 1), 8)])
def test_gems_all_gems_times_the_count_of_the_colour_held_most(colours, points):
    """同じ４枚でも４・０・０なら１６点、３・１・０なら１２点、２・１・１なら８点."""
    red, blue, white = colours
    # The fourth red gem is the one with the black-hole icon.
    gems = ["gem_red"] * min(red, 3) + ["gem_red-bh"] * (red - 3 if red > 3 else 0) + ["gem_blue"] * blue + ["gem_white"] * white
    state = finished(gained=(gems, []))
    assert category(state, 0, "gems")["counts"] == [red, blue, white] and category(state, 0, "gems")["points"] == points


# -- a whole game by hand --------------------------------------------------------------------------
def test_score_breakdown_of_a_finished_game_by_hand():
    state = finished(
        gained=(["fame", "fame-bh", "sand", "sand", "sand", "sand-bh", "water", "water", "energel_dark", "energel_dark",
                 "energel_dark", "energel_light", "gem_red", "gem_red", "gem_blue"],
                ["water-bh", "energel_light", "energel_light", "gem_white", "gem_white", "sand"]),
        hidden=(["sand", "water", "gem_white"], ["energel_dark", "gem_blue", "sand"]),
        claimed=(0, 0, 0, 0, 1, 1),
    )
    rows = GAME.score_breakdown(state)
    points = [{c["category"]: c["points"] for c in row["categories"]} for row in rows]
    # Player 1: 4 planets 16; 2 Fame 10; 4+1 sand 21; 2+1 water 9; EnerGel 3 dark 1 light: 7 + 2x2 = 11;
    # gems red 2, blue 1, white 1 (hidden): 4 x 2 = 8. Total 75.
    assert points[0] == {"planets": 16, "fame": 10, "sand": 21, "water": 9, "energel": 11, "gems": 8, "hidden": 0}
    # Player 2: 2 planets 8; sand 1+1 = 3; water 2; EnerGel 1 dark (hidden) 2 light: 7 + 2 = 9;
    # gems white 2, blue 1 (hidden): 3 x 2 = 6. Total 28.
    assert points[1] == {"planets": 8, "fame": 0, "sand": 3, "water": 2, "energel": 9, "gems": 6, "hidden": 0}
    assert [row["total"] for row in rows] == [75, 28] == list(GAME.scores(state))
    assert [(row["planets"], row["resource_cards"], row["black_hole"]) for row in rows] == [(4, 18, 2), (2, 9, 1)]
    assert category(state, 0, "energel")["detail"] == "3 dark, 1 light: 1 pair(s) x 7, 2 single(s) x 2"
    assert category(state, 1, "hidden")["lost"] is False
    assert GAME.winners(state) == (0,)


def test_hidden_resources_lost_to_the_black_hole_score_nothing():
    # Seven black-hole markers, four of them Player 1's: Player 1's hidden gems are lost.
    state = finished(gained=(["sand-bh", "water-bh", "fame-bh", "gem_red-bh"], ["sand-bh", "water-bh", "fame-bh"]),
                     hidden=(["gem_blue", "gem_blue", "gem_blue"], ["gem_white", "gem_white", "gem_white"]),
                     claimed=(None,) * 6)
    # Player 1: sand 1, water 2, Fame 5, one red gem 1 = 9; Player 2: 1 + 2 + 5 + three white gems 9 = 17.
    assert GAME.scores(state) == (9, 17)
    assert category(state, 0, "hidden")["lost"] is True and category(state, 0, "gems")["counts"] == [1, 0, 0]


# -- tie-breaks ------------------------------------------------------------------------------------
# Hidden resources worth 9 to each player (three gems of one colour: 3 x 3), three cards each.
GEMS = (["gem_red"] * 3, ["gem_blue"] * 3)


def test_most_points_wins_whatever_the_tie_breaks_say():
    state = finished(gained=([], ["fame", "sand", "sand", "sand"]), hidden=GEMS, claimed=(0, 0, 0, 0, 1, 1))
    assert GAME.scores(state) == (25, 29) and GAME.winners(state) == (1,)


def test_tie_break_most_claimed_planets_first():
    # 4 planets (16) + 9 against 2 planets (8) + Fame 5 + two sand 3 + 9: 25 each; Player 2 has more cards.
    state = finished(gained=([], ["fame", "sand", "sand"]), hidden=GEMS, claimed=(0, 0, 0, 0, 1, 1))
    assert GAME.scores(state) == (25, 25)
    assert [(r["planets"], r["resource_cards"]) for r in GAME.score_breakdown(state)] == [(4, 3), (2, 6)]
    assert GAME.winners(state) == (0,)


def test_tie_break_then_most_resource_cards():
    # 3 planets each; Fame (5, one card) against water + two sand (2 + 3, three cards): 26 each.
    state = finished(gained=(["fame"], ["water", "sand", "sand"]), hidden=GEMS)
    assert GAME.scores(state) == (26, 26)
    assert [r["resource_cards"] for r in GAME.score_breakdown(state)] == [4, 6]
    assert GAME.winners(state) == (1,)


def test_tie_break_then_fewest_black_hole_markers():
    state = finished(gained=(["fame-bh"], ["fame"]), hidden=GEMS)
    assert GAME.scores(state) == (26, 26)
    assert [(r["planets"], r["resource_cards"], r["black_hole"]) for r in GAME.score_breakdown(state)] == [(3, 4, 1), (3, 4, 0)]
    assert GAME.winners(state) == (1,)


def test_full_tie_is_a_shared_win():
    state = finished(gained=(["fame-bh"], ["fame-bh"]), hidden=GEMS)
    assert GAME.scores(state) == (26, 26) and GAME.winners(state) == (0, 1)


def test_no_winners_before_the_game_is_over():
    state = GAME.new_game(2, 4)
    assert GAME.scores(state) == (0, 0) and GAME.winners(state) == ()
