"""Starligned scoring (the rules text, スコアリング; docs/readings.md, "Starligned 7").

A row scores the values of its cards' upper halves, added from right to left. An x2 card doubles the
single card directly to its left and an x0 card makes it count nothing; a card at the left end with
x2 or x0 affects nothing. The functions take plain values and effects so they can be checked by hand.
"""

from __future__ import annotations

from typing import Sequence


def multipliers(effects: Sequence[str]) -> list[int]:
    """Per card, left to right: 2 or 0 when the card to its right shows x2 or x0, else 1.

    >>> multipliers(["swap", "x2", "move", "x0", "x2"])
    [2, 1, 0, 2, 1]
    """
    out = [1] * len(effects)
    for i in range(1, len(effects)):
        if effects[i] == "x2":
            out[i - 1] = 2
        elif effects[i] == "x0":
            out[i - 1] = 0
    return out


def row_points(values: Sequence[int], effects: Sequence[str]) -> list[int]:
    """Points per card, left to right.

    The rules text's example, written right to left as 6 + 9 + (2x1) + (0x10) + 5 + 2 + 4 + 7 + (2x10) + 6
    = 61; left to right, with an x2 card right of each doubled card and an x0 right of the 10 it zeroes:

    >>> values = [6, 10, 7, 4, 2, 5, 10, 1, 9, 6]
    >>> effects = ["move", "swap", "x2", "move", "swap", "move", "swap", "x0", "x2", "move"]
    >>> points = row_points(values, effects)
    >>> points, sum(points)
    ([6, 20, 7, 4, 2, 5, 0, 2, 9, 6], 61)
    """
    return [v * m for v, m in zip(values, multipliers(effects))]


def tie_break_key(points: int, moon_cards: int, constellations: int) -> tuple[int, int, int]:
    """Higher is better: points, then moon cards on the row, then distinct constellations.

    >>> tie_break_key(40, 1, 3) > tie_break_key(40, 1, 2)
    True
    """
    return (points, moon_cards, constellations)
