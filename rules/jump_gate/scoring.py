"""Jump Gate scoring (the rules text, 得点計算; docs/readings.md, "Jump Gate 6").

Each claimed planet is worth 4. Resource cards: Fame 5 each; Sand and Water by their tables (Sand
caps at nine or more, Water at eight); EnerGel 7 per dark-and-light pair and 2 per card left
unpaired; Gems the number of gem cards times the count of the colour held most. The functions take
plain counts so each table can be checked by hand; ``game.py`` feeds them.
"""

from __future__ import annotations

from typing import Final, Sequence

PLANET_POINTS: Final = 4
FAME_POINTS: Final = 5
#: SAND[n]: points for n sand cards (9 or more score the last entry).
SAND: Final[tuple[int, ...]] = (0, 1, 3, 7, 13, 21, 30, 40, 43, 45)
#: WATER[n]: points for n water cards (more than 8 score the last entry).
WATER: Final[tuple[int, ...]] = (0, 2, 4, 9, 16, 20, 24, 28, 32)
ENERGEL_PAIR: Final = 7
ENERGEL_SINGLE: Final = 2


def sand(count: int) -> int:
    """Points for ``count`` sand cards: 1/3/7/13/21/30/40/43/45 for 1 to 9, and 45 for more than 9.

    >>> [sand(n) for n in range(11)]
    [0, 1, 3, 7, 13, 21, 30, 40, 43, 45, 45]
    """
    return SAND[min(count, len(SAND) - 1)]


def water(count: int) -> int:
    """Points for ``count`` water cards: 2/4/9/16/20/24/28/32 for 1 to 8 (the table stops at 8).

    >>> [water(n) for n in range(10)]
    [0, 2, 4, 9, 16, 20, 24, 28, 32, 32]
    """
    return WATER[min(count, len(WATER) - 1)]


def energel(dark: int, light: int) -> int:
    """7 per dark-and-light pair, 2 per card left over (the rules text's three four-card examples):

    >>> energel(2, 2), energel(3, 1), energel(4, 0)
    (14, 11, 8)
    """
    pairs = min(dark, light)
    return ENERGEL_PAIR * pairs + ENERGEL_SINGLE * (dark + light - 2 * pairs)


def gems(colours: Sequence[int]) -> int:
    """All gem cards times the count of the colour held most (the rules text's examples):

    >>> gems([4, 0, 0]), gems([3, 1, 0]), gems([2, 1, 1])
    (16, 12, 8)
    """
    return sum(colours) * max(colours, default=0)


def fame(count: int) -> int:
    return FAME_POINTS * count


def planets(count: int) -> int:
    return PLANET_POINTS * count


def tie_break_key(points: int, planets_claimed: int, resource_cards: int, black_hole_markers: int) -> tuple[int, int, int, int]:
    """Higher is better: points, then claimed planets, then resource cards, then fewest black-hole markers.

    >>> tie_break_key(40, 2, 9, 1) > tie_break_key(40, 2, 9, 2)
    True
    """
    return (points, planets_claimed, resource_cards, -black_hole_markers)
