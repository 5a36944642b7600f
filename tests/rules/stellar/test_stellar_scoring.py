"""Stellar scoring (the rules text's スコアリング): the rulebook's worked example and our own.

The scoring functions carry the same examples as doctests (run here too); these tests go through
whole positions, so the telescope, the notebook and the breakdown are checked together.
"""

from __future__ import annotations

import doctest

import random

import pytest

from rules.stellar import scoring
from tests.helpers.stellar import GAME, notebook, over, telescope


def category(state, seat: int, name: str) -> dict:
    return next(c for c in GAME.score_breakdown(state)[seat]["categories"] if c["category"] == name)


def test_scoring_doctests():
    failures, tried = doctest.testmod(scoring)
    assert tried >= 10 and failures == 0


def test_rulebook_example_six_card_planet_run_times_five_stars_is_30():
    state = over([telescope(top_1="planet-1-3stars", top_2="planet-2-2stars"), telescope()],
                 [notebook("planet-1-3stars", "planet-2-2stars", "planet-3-2stars", "planet-4-1star", "planet-5-0stars",
                           "planet-6/0-0stars"), notebook()])
    planet = category(state, 0, "Planet")
    assert (planet["stars"], planet["run"], planet["points"]) == (5, 6, 30)


def test_stars_times_run_per_type_summed():
    state = over([telescope(top_1="planet-1-3stars", top_2="moon-1-3stars", top_3="moon-2-2stars"), telescope()],
                 [notebook("planet-2-2stars", "planet-3-1star", "moon-4-1star", "moon-5-1star", "moon-3-2stars"), notebook()])
    assert category(state, 0, "Planet")["points"] == 3 * 2
    assert category(state, 0, "Moon")["points"] == 5 * 3


def test_six_zero_as_zero_extends_a_run_from_one():
    state = over([telescope(top_1="asteroid-1-3stars"), telescope()],
                 [notebook("asteroid-6/0-0stars", "asteroid-1-3stars", "asteroid-2-2stars", "asteroid-3-1star"), notebook()])
    assert category(state, 0, "Asteroid")["run"] == 4  # 0, 1, 2, 3


def test_satellite_fills_a_gap_in_the_notebook():
    state = over([telescope(top_1="black_hole-1-3stars"), telescope()],
                 [notebook("black_hole-1-3stars", "black_hole-3-1star", "black_hole-4-1star", "satellite"), notebook()])
    cat = category(state, 0, "Black hole")
    assert cat["run"] == 4 and cat["points"] == 12 and "satellite" in cat["detail"]


def test_type_without_telescope_stars_scores_nothing():
    state = over([telescope(top_1="planet-5-0stars"), telescope()],
                 [notebook("planet-1-3stars", "planet-2-2stars", "planet-3-1star"), notebook()])
    assert category(state, 0, "Planet")["points"] == 0


def test_section_bonus_to_the_higher_sum_and_none_on_a_tie():
    # Top: 5 + 4 = 9 against 3 (face down); middle: 2 (satellite) against 2; bottom: 6 (6/0) against 0.
    state = over([telescope(top_1="planet-5-0stars", top_2="moon-4-1star", middle_1="satellite", bottom_1="planet-6/0-0stars"),
                  telescope(top_1={"face_down": "moon-5-0stars"}, middle_2="moon-2-2stars")],
                 [notebook(), notebook()])
    assert category(state, 0, "top section")["points"] == 10 and category(state, 1, "top section")["points"] == 0
    assert category(state, 0, "middle section")["points"] == 0 and category(state, 1, "middle section")["points"] == 0
    assert category(state, 0, "bottom section")["sum"] == 6 and category(state, 0, "bottom section")["points"] == 10


def test_diversity_bonus_for_all_five_types_face_up():
    five = telescope(top_1="planet-5-0stars", top_2="moon-5-0stars", top_3="asteroid-5-0stars",
                     top_4="interstellar_cloud-5-0stars", top_5="black_hole-5-0stars")
    state = over([five, telescope()], [notebook(), notebook()])
    assert category(state, 0, "diversity")["points"] == 10


@pytest.mark.parametrize("fifth", [{"face_down": "black_hole-5-0stars"}, "satellite"])
def test_diversity_bonus_ignores_face_down_cards_and_satellites(fifth):
    four = telescope(top_1="planet-5-0stars", top_2="moon-5-0stars", top_3="asteroid-5-0stars",
                     top_4="interstellar_cloud-5-0stars", top_5=fifth)
    state = over([four, telescope()], [notebook(), notebook()])
    assert category(state, 0, "diversity")["points"] == 0


def test_breakdown_total_is_the_score_and_lists_every_category():
    state = GAME.new_game(2, seed=9)
    for row in GAME.score_breakdown(state):
        names = [c["category"] for c in row["categories"]]
        assert names == ["Planet", "Moon", "Asteroid", "Interstellar cloud", "Black hole",
                         "top section", "middle section", "bottom section", "diversity"]
        assert row["total"] == sum(c["points"] for c in row["categories"]) == GAME.scores(state)[row["seat"]]


@pytest.mark.parametrize("seed", range(6))
def test_scores_are_the_breakdowns_totals_at_every_step_of_a_game(seed):
    """``scores`` adds the points up without the breakdown's texts: the two agree on every position
    of seeded random games (stars, runs with the 6/0 and satellites, sections, diversity)."""
    pick = random.Random(seed).random
    state = GAME.new_game(2, seed=seed)
    while True:
        assert [row["total"] for row in GAME.score_breakdown(state)] == list(GAME.scores(state))
        seats = GAME.to_move(state)
        if not seats:
            break
        actions = GAME.legal_actions(state, seats[0])
        state = GAME.apply(state, seats[0], actions[int(pick() * len(actions))])
    assert max(GAME.scores(state)) > 0


def test_winners_are_all_tied_players():
    state = over([telescope(top_1="planet-5-0stars"), telescope(top_1="moon-5-0stars")], [notebook(), notebook()])
    assert GAME.scores(state) == (0, 0) and GAME.winners(state) == (0, 1)
