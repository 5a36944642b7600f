"""Starligned scoring (the rules text, スコアリング; docs/readings.md, "Starligned 7"): the rulebook's
61-point example through the game, x2 and x0, and the tie-breaks, each with a finished position
where it decides. Card values and effects are listed in ``tests/rules/starligned/test_starligned_rules.py``.
"""

from __future__ import annotations

import doctest
import random

import pytest

from rules.starligned import scoring
from tests.helpers.starligned import CARDS, EXAMPLE, GAME, card_id, finished, other_rows, position


def points(row):
    """The points of one row of written cards, left to right."""
    entries = [2 * CARDS.by_id[card_id(c)] + c.endswith("r") for c in row]
    return scoring.row_points([CARDS.value[e] for e in entries], [CARDS.effect[e] for e in entries])


def test_scoring_doctests():
    assert doctest.testmod(scoring).failed == 0


def test_rulebook_example_scores_61_points():
    state = finished([EXAMPLE] + other_rows(EXAMPLE, 3))
    assert GAME.scores(state)[0] == 61
    breakdown = GAME.score_breakdown(state)[0]
    assert breakdown["total"] == 61
    assert [c["points"] for c in breakdown["categories"]] == [6, 20, 7, 4, 2, 5, 0, 2, 9, 6]
    assert [c["multiplier"] for c in breakdown["categories"]] == [1, 2, 1, 1, 1, 1, 0, 2, 1, 1]
    assert breakdown["categories"][1]["category"] == "2. S106"
    assert breakdown["categories"][1]["detail"] == "10 x2 (the card to its right)"
    assert breakdown["categories"][7]["category"] == "8. S210r"


def test_scores_count_the_value_of_the_half_that_is_up():
    # S105 shows 6 move; S105r shows 5 x2 (and at the left end doubles nothing).
    assert points(["S105", "S102"]) == [6, 9]
    assert points(["S105r", "S102"]) == [5, 9]
    assert points(["S102", "S105r"]) == [18, 5]


def test_x2_doubles_only_the_single_card_directly_to_its_left():
    # S208 (7 x2) right of S106 (10): S106 doubled, S107 two places left and the cards right of it unchanged.
    assert points(["S107", "S106", "S208", "S102"]) == [9, 20, 7, 9]


def test_x0_ignores_only_the_single_card_directly_to_its_left():
    # S101 (10 x0) right of S106 (10).
    assert points(["S107", "S106", "S101", "S102"]) == [9, 0, 10, 9]


@pytest.mark.parametrize("x_card", ["S208", "S101"])
def test_an_x_card_at_the_left_end_affects_nothing(x_card):
    value = CARDS.value[2 * CARDS.by_id[x_card]]
    assert points([x_card, "S106", "S102"]) == [value, 10, 9]


def test_two_x_cards_in_a_row_each_act_on_their_own_left_neighbour_without_chaining():
    # S106 10, S208 7 x2, S307 7 x2: S106 doubled once (not four times), S208 doubled by S307.
    assert points(["S106", "S208", "S307"]) == [20, 14, 7]
    # x0 then x2: the 10 counts nothing, the x0 card (S101, 10) is doubled.
    assert points(["S106", "S101", "S208"]) == [0, 20, 7]
    # x2 then x0: the 10 is doubled, the x2 card itself counts nothing.
    assert points(["S106", "S208", "S101"]) == [20, 0, 10]


def test_stop_does_not_affect_x2_and_x0_at_the_final_scoring():
    # Stop cancels phase 3 only: an x2 right of a Stop card still doubles it (S204r: 5 stop, S101r: 1 x2).
    row = ["S102", "S103", "S204r", "S101r", "S105", "S106", "S107", "S108", "S201", "S202"]
    state = finished([row, other_rows(row, 1, players=2)[0]])
    categories = GAME.score_breakdown(state)[0]["categories"]
    assert [c["points"] for c in categories[2:4]] == [10, 1] and categories[2]["multiplier"] == 2
    assert GAME.scores(state)[0] == 9 + 8 + 10 + 1 + 6 + 10 + 9 + 8 + 9 + 8


def test_most_points_win():
    high = ["S101", "S102", "S103", "S104", "S105", "S106", "S107", "S108", "S201", "S202"]
    low = ["S203", "S204", "S205", "S206", "S207r", "S301", "S302", "S401", "S402", "S208"]
    state = finished([high, low], moons=[[], [["S203", "S204"], ["S205", "S206"]]])
    assert GAME.scores(state) == (84, 76)
    assert GAME.winners(state) == (0,)  # more points beat more moon cards


# Two rows of 76 points: FEW uses constellations C1 and C2, MANY uses C2, C3 and C4.
FEW = ["S102", "S103", "S104", "S105", "S106", "S107", "S108", "S201", "S202r", "S101"]
MANY = ["S203", "S204", "S205", "S206", "S207r", "S301", "S302", "S401", "S402", "S208"]


def test_tie_break_most_moon_cards_on_your_row():
    state = finished([FEW, MANY], moons=[[["S102", "S103"]], []])
    assert GAME.scores(state) == (76, 76)
    breakdown = GAME.score_breakdown(state)
    assert [b["moon_cards"] for b in breakdown] == [1, 0] and [b["constellations"] for b in breakdown] == [2, 3]
    assert GAME.winners(state) == (0,)  # the moon card beats the extra constellation


def test_tie_break_then_most_distinct_constellations():
    state = finished([FEW, MANY], moons=[[["S102", "S103"]], [["S203", "S204"]]])
    assert GAME.scores(state) == (76, 76)
    assert [b["constellations"] for b in GAME.score_breakdown(state)] == [2, 3]
    assert GAME.winners(state) == (1,)


def test_tie_break_constellations_count_whichever_half_is_up():
    rotated = ["S203r" if c == "S203" else c for c in MANY]
    state = finished([FEW, rotated])
    assert GAME.score_breakdown(state)[1]["constellations"] == 3


def test_tie_break_last_a_shared_win():
    # Both rows: 76 points, no moon card, two constellations (C2 and C3 in the second row).
    same = ["S203r", "S204", "S205", "S206", "S207r", "S301", "S302r", "S303r", "S304", "S208"]
    state = finished([FEW, same])
    assert GAME.scores(state) == (76, 76)
    assert [b["constellations"] for b in GAME.score_breakdown(state)] == [2, 2]
    assert GAME.winners(state) == (0, 1)


def test_no_winner_before_the_game_is_over():
    state = GAME.new_game(2, seed=1)
    assert GAME.winners(state) == () and GAME.scores(state) == (0, 0)


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (5, 3), (4, 4), (2, 5)])
def test_the_winners_are_those_of_the_breakdowns_tie_break_numbers_at_every_end(players, seed):
    """``winners`` reads the numbers without the breakdown's texts: the same as the breakdown's totals,
    moon cards and constellations give, at the end of seeded random games (and none before it)."""
    pick = random.Random(seed).random
    state = GAME.new_game(players, seed)
    while seats := GAME.to_move(state):
        assert GAME.winners(state) == ()
        actions = GAME.legal_actions(state, seats[0])
        state = GAME.apply(state, seats[0], actions[int(pick() * len(actions))])
    keys = [scoring.tie_break_key(b["total"], b["moon_cards"], b["constellations"]) for b in GAME.score_breakdown(state)]
    assert GAME.winners(state) == tuple(s for s in range(players) if keys[s] == max(keys))
    assert [b["total"] for b in GAME.score_breakdown(state)] == list(GAME.scores(state))

