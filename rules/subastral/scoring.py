"""Subastral final scoring (the rules text, 最終スコアリング; docs/readings.md, "Subastral 9").

Pure functions of a journal's column heights, so they can be checked against the rulebook's worked
examples without building a whole game.

A journal is a sequence of columns, left to right; only each column's height matters here.
"""

from __future__ import annotations

from typing import Final, Mapping, Sequence

from rules.eventtexts import say, say_in
from rules.protocol import JSONObject, Seat
from rules.subastral.state import State


def triangular(columns: int) -> int:
    """Points for a mixed set spanning ``columns`` columns: 1, 3, 6, 10, 15, 21, 28, 36.

    >>> [triangular(n) for n in range(1, 9)]
    [1, 3, 6, 10, 15, 21, 28, 36]
    """
    return columns * (columns + 1) // 2


def mixed_set_runs(heights: Sequence[int]) -> list[int]:
    """For each mixed set k = 1, 2, ...: how many columns from column 1 hold a k-th card.

    Set k counts column by column from the left and stops at the first column with fewer than k
    cards, even if later columns are taller (the rulebook's second example set stops at a gap).

    The rulebook's example: all 8 columns have a first card, the first 4 a second card, only
    column 1 a third (columns further right may be taller; they are cut off by the gap).

    >>> mixed_set_runs([3, 2, 2, 2, 1, 3, 1, 1])
    [8, 4, 1]
    """
    runs: list[int] = []
    depth = 1
    while True:
        run = 0
        for height in heights:
            if height < depth:
                break
            run += 1
        if run == 0:
            return runs
        runs.append(run)
        depth += 1


def mixed_sets_score(heights: Sequence[int]) -> int:
    """Sum over the mixed sets.

    >>> mixed_sets_score([3, 2, 2, 2, 1, 3, 1, 1])  # 36 + 10 + 1
    47
    """
    return sum(triangular(run) for run in mixed_set_runs(heights))


def matching_sets(heights: Sequence[int]) -> list[tuple[int, int]]:
    """The two scoring matching sets as ``(column position, cards)``, largest first.

    Ties go to the column further left; exactly two columns score even when more are tied. The
    rulebook's example: taiga with 4 cards in column 7 is largest; chaparral (column 1), forest
    (column 4) and savanna (column 6) tie with 3, and column 1 wins the tie.

    >>> matching_sets([3, 1, 2, 3, 1, 3, 4, 1])
    [(7, 4), (1, 3)]
    """
    ranked = sorted(range(len(heights)), key=lambda column: (-heights[column], column))
    return [(column + 1, heights[column]) for column in ranked[:2] if heights[column] > 0]


def matching_sets_score(heights: Sequence[int]) -> int:
    """Each scoring set is worth its cards times its column position.

    >>> matching_sets_score([3, 1, 2, 3, 1, 3, 4, 1])  # 7 x 4 + 1 x 3
    31
    """
    return sum(position * cards for position, cards in matching_sets(heights))


def journal_score(heights: Sequence[int]) -> int:
    """Mixed plus matching sets."""
    return mixed_sets_score(heights) + matching_sets_score(heights)


#: A journal as scoring reads it: its columns left to right, each a tuple of cards (of any kind: only
#: the heights count). A tuple, not any sequence: compiled code then reads it in place.
Columns = tuple[tuple[object, ...], ...]


def journal_scores(journals: tuple[Columns, ...]) -> tuple[int, ...]:
    """Each journal's ``journal_score``, from its columns' heights.

    A bot asks for the scores after every move it considers, and journals take few shapes: each
    shape's score is remembered (``_SCORES``, by the column heights).

    >>> journal_scores(((("a", "b"), ("c",)), ()))   # 3 + 1 mixed, 2 x 1 + 1 x 2 matching; nothing
    (8, 0)
    """
    scores = []
    for journal in journals:
        heights = tuple([len(column) for column in journal])
        score = _SCORES.get(heights)
        if score is None:
            if len(_SCORES) >= _REMEMBERED:
                _SCORES.clear()
            score = _SCORES[heights] = journal_score(heights)
        scores.append(score)
    return tuple(scores)


def seat_score(state: State, seat: Seat) -> int:
    """``seat``'s points now: its own journal's alone (``Subastral.score``, asked by the greedy bot at
    every move it weighs)."""
    return journal_scores((state.journals[seat],))[0]


#: Journal scores by column heights (``journal_scores``), at most ``_REMEMBERED`` of them.
_SCORES: Final[dict[tuple[int, ...], int]] = {}
_REMEMBERED: Final = 8192


def breakdown(heights: Sequence[int], lang: str = "en", biomes: Sequence[Mapping[str, str]] | None = None) -> JSONObject:
    """Every category with its points, for the score table and for teaching.

    The ``category`` and ``detail`` texts are in ``lang``, from the ``score.*`` templates of
    ``data/events.json``; ``biomes`` (each column's biome name per language) adds the biome to a
    matching set's detail. The numbers and keys are the same in every language.
    """
    def text(key: str, count: int | None = None, **values: object) -> str:
        if count is not None:                                    # English plurals: 1 column, 2 columns
            key += ".one" if count == 1 else ".other"
        return say_in("subastral", key, lang, **values)

    categories: list[JSONObject] = []
    for k, run in enumerate(mixed_set_runs(heights), start=1):
        categories.append({
            "category": text("score.mixed_set", set=k),
            "detail": text("score.mixed_set.detail", run, columns=run),
            "points": triangular(run),
        })
    for rank, (position, cards) in enumerate(matching_sets(heights), start=1):
        if biomes is None:
            detail = text("score.matching_set.detail", cards, cards=cards, column=position)
        else:
            detail = text("score.matching_set.detail_biome", cards, cards=cards, column=position,
                          biome=biomes[position - 1])
        categories.append({
            "category": text("score.matching_set", rank=rank),
            "detail": detail,
            "points": cards * position,
            "column": position,
        })
    return {
        "categories": categories,
        "mixed": mixed_sets_score(heights),
        "matching": matching_sets_score(heights),
        "total": journal_score(heights),
        "journal_cards": sum(heights),
    }
