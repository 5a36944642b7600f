"""Subastral's final scoring (the rules text, 最終スコアリング; docs/readings.md, "Subastral 9"): the
rulebook's worked examples through the real engine, on decoded positions.

Stefan's journal in the rulebook is given only through its examples; one journal satisfies all of
them: column heights 3, 2, 2, 3, 1, 3, 4, 1 with chaparral in column 1, forest in column 4, savanna
in column 6 and taiga in column 7.
"""

from __future__ import annotations

import doctest

import pytest

from rules.subastral import scoring
from tests.helpers.subastral import GAME, column, finished


BIOMES = [b.id for b in GAME.cards.biomes]


STEFAN = [
    column("chaparral", 3), column("subtropical_desert", 2), column("arctic_tundra", 2),
    column("temperate_forest", 3), column("temperate_grassland", 1), column("savanna", 3),
    column("taiga", 4), column("tropical_rainforest", 1),
]


def test_rulebook_example_mixed_sets_36_10_1():
    (stefan, *_) = GAME.score_breakdown(finished(STEFAN))
    mixed = [c for c in stefan["categories"] if c["category"].startswith("mixed")]
    # First set: all 8 columns (36). Second: the first 4 columns (10); column 5 has no second card,
    # so the second cards of columns 6 and 7 do not count. Third: column 1 only (1).
    assert mixed == [
        {"category": "mixed set 1", "detail": "8 columns from column 1", "points": 36},
        {"category": "mixed set 2", "detail": "4 columns from column 1", "points": 10},
        {"category": "mixed set 3", "detail": "1 column from column 1", "points": 1},
    ]
    assert stefan["mixed"] == 47


def test_rulebook_example_matching_sets_taiga_28_chaparral_3():
    (stefan, *_) = GAME.score_breakdown(finished(STEFAN))
    matching = [c for c in stefan["categories"] if c["category"].startswith("matching")]
    # Taiga, 4 cards in column 7: 7 x 4. Chaparral (column 1), forest (4) and savanna (6) tie at
    # 3 cards for second place; the leftmost, chaparral, scores 1 x 3.
    assert matching == [
        {"category": "matching set 1", "detail": "4 cards in column 7 (4 x 7), Taiga", "points": 28, "column": 7,
         "biome": "Taiga"},
        {"category": "matching set 2", "detail": "3 cards in column 1 (3 x 1), Chaparral", "points": 3, "column": 1,
         "biome": "Chaparral"},
    ]
    assert stefan["matching"] == 31


def test_rulebook_example_total_through_scores():
    state = finished(STEFAN, [STEFAN[6]])
    assert GAME.scores(state) == (78, 4 + 4 * 1, 0, 0, 0)
    breakdown = GAME.score_breakdown(state)
    assert [b["total"] for b in breakdown] == list(GAME.scores(state))
    assert [b["journal_cards"] for b in breakdown] == [19, 4, 0, 0, 0]
    assert [b["seat"] for b in breakdown] == [0, 1, 2, 3, 4]
    assert GAME.winners(state) == (0,)
    assert GAME.observe(state, None)["scores"] == [78, 8, 0, 0, 0]


def test_mixed_set_gap_stops_it_even_if_later_columns_are_taller():
    # The scoring module's doctest journal: heights 3, 2, 2, 2, 1, 3, 1, 1.
    heights = [3, 2, 2, 2, 1, 3, 1, 1]
    state = finished([column(b, h) for b, h in zip(BIOMES, heights)])
    (seat, *_) = GAME.score_breakdown(state)
    assert [c["points"] for c in seat["categories"] if c["category"].startswith("mixed")] == [36, 10, 1]


@pytest.mark.parametrize("columns, points", list(zip(range(1, 9), [1, 3, 6, 10, 15, 21, 28, 36])))
def test_mixed_set_table_1_3_6_10_15_21_28_36(columns, points):
    state = finished([column(b, 1) for b in BIOMES[:columns]])
    (seat, *_) = GAME.score_breakdown(state)
    assert seat["categories"][0] == {
        "category": "mixed set 1", "detail": f"{columns} column{'s' if columns > 1 else ''} from column 1",
        "points": points}
    assert scoring.triangular(columns) == points


def test_matching_sets_exactly_two_score_even_when_more_tie():
    # Four columns of two cards: columns 1 and 2 score (ties go left), columns 3 and 4 do not.
    state = finished([column(b, 2) for b in BIOMES[:4]])
    (seat, *_) = GAME.score_breakdown(state)
    assert [(c["column"], c["points"]) for c in seat["categories"] if "column" in c] == [(1, 2), (2, 4)]
    assert seat["total"] == 10 + 10 + 2 + 4


def test_matching_set_with_one_column_scores_once():
    state = finished([column("taiga", 3)])
    (seat, *_) = GAME.score_breakdown(state)
    assert [c["category"] for c in seat["categories"]] == ["mixed set 1", "mixed set 2", "mixed set 3", "matching set 1"]
    assert GAME.scores(state)[0] == 3 + 3


def test_empty_journal_scores_nothing():
    state = finished([])
    assert GAME.scores(state) == (0, 0, 0, 0, 0)
    assert GAME.score_breakdown(state)[0] == {
        "categories": [], "mixed": 0, "matching": 0, "total": 0, "journal_cards": 0, "seat": 0}


def test_scoring_doctests():
    result = doctest.testmod(scoring, verbose=False)
    assert result.attempted >= 5
    assert result.failed == 0
