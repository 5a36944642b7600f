"""Stellar scoring (the rules text, スコアリング; docs/readings.md, "Stellar 3" and "Stellar 5").

Per type: the telescope's stars of that type times the longest run of consecutive numbers in the
notebook stack of that type (duplicates add nothing). The 6/0 counts 6 or 0 and each notebook
satellite (number 2) joins any stack, both chosen for the best total. Each telescope section gives 10
to the player with the higher sum of card numbers (tie: nobody; face down = 3, satellite = 2, 6/0 =
6). All five types face up in the telescope give 10 (face-down cards and satellites do not count).
The functions below take plain numbers so they can be checked by hand; ``seat_facts`` reads those
numbers off a seat's telescope and notebook, and ``totals`` adds up every seat's points (the
protocol's ``scores``; ``game.py``'s ``score_breakdown`` puts the same figures in words).
"""

from __future__ import annotations

from typing import Final, Iterable, Sequence, TypedDict

from rules.stellar.cards import FACE_DOWN_NUMBER, Card, CardSet
from rules.stellar.state import EMPTY, TelescopeEntry, is_face_down

SECTION_BONUS: Final = 10
DIVERSITY_BONUS: Final = 10
SATELLITE_NUMBER: Final = 2


def longest_run(numbers: Iterable[int]) -> int:
    """The most consecutive numbers in a stack; copies add nothing.

    >>> longest_run([1, 2, 3, 4, 5, 6])   # the rulebook example's six-card planet run
    6
    >>> longest_run([1, 1, 2, 4, 5, 5, 6])
    3
    >>> longest_run([])
    0
    """
    present = set(numbers)
    best = 0
    for n in present:
        if n - 1 not in present:
            length = 1
            while n + length in present:
                length += 1
            best = max(best, length)
    return best


def best_run(numbers: Iterable[int], six_zero: bool = False, satellite: bool = False) -> int:
    """The longest run when the stack's 6/0 counts 6 or 0 (whichever is better), and with a satellite
    (number 2) added if ``satellite``. ``numbers`` are the stack's other cards.

    >>> best_run([1, 2], six_zero=True)          # 6/0 as 0: 0, 1, 2
    3
    >>> best_run([4, 5], six_zero=True)          # 6/0 as 6: 4, 5, 6
    3
    >>> best_run([1, 3], satellite=True)         # the satellite fills the 2
    3
    """
    base = list(numbers) + ([SATELLITE_NUMBER] if satellite else [])
    if not six_zero:
        return longest_run(base)
    return max(longest_run(base + [6]), longest_run(base + [0]))


def star_points(stars: Sequence[int], stacks: Sequence[tuple[Sequence[int], bool]], satellites: int) -> list[tuple[int, int, bool]]:
    """Per type ``(run, points, satellite used)``, with up to ``satellites`` notebook satellites given
    to the stacks where they gain the most (a second satellite in one stack adds nothing).

    ``stars[t]`` are type t's telescope stars, ``stacks[t]`` its notebook numbers and whether it holds
    the 6/0.

    >>> star_points([5], [([1, 2, 3, 4, 5], True)], 0)   # rulebook: 6-card run x 5 stars = 30
    [(6, 30, False)]
    >>> star_points([2, 3], [([1, 3], False), ([4], False)], 1)   # the satellite goes where it gains most
    [(3, 6, True), (1, 3, False)]
    >>> star_points([0], [([1, 2], False)], 0)   # no telescope stars of the type: nothing
    [(2, 0, False)]
    """
    plain = [best_run(numbers, six_zero) for numbers, six_zero in stacks]
    gains = []
    for t, (numbers, six_zero) in enumerate(stacks if satellites else ()):   # (no satellite: nothing to weigh)
        gain = stars[t] * (best_run(numbers, six_zero, satellite=True) - plain[t])
        if gain > 0:
            gains.append((-gain, t))
    helped = {t for _, t in sorted(gains)[:satellites]}
    out = []
    for t, (numbers, six_zero) in enumerate(stacks):
        run = best_run(numbers, six_zero, satellite=True) if t in helped else plain[t]
        out.append((run, stars[t] * run, t in helped))
    return out


def section_bonuses(sums: Sequence[Sequence[int]], bonus: int = SECTION_BONUS) -> list[list[int]]:
    """``sums[seat][section]`` -> ``bonus`` for the single highest sum of each section, else 0.

    >>> section_bonuses([[15, 9, 12], [12, 9, 14]])   # top to seat 0, middle tied, bottom to seat 1
    [[10, 0, 0], [0, 0, 10]]
    """
    out = [[0] * len(row) for row in sums]
    for section in range(len(sums[0]) if sums else 0):
        values = [row[section] for row in sums]
        best = max(values)
        if values.count(best) == 1:
            out[values.index(best)][section] = bonus
    return out


def diversity_bonus(types_face_up: Iterable[int], type_count: int = 5) -> int:
    """10 when every type shows face up in the telescope at least once.

    >>> diversity_bonus([0, 1, 2, 3, 4])
    10
    >>> diversity_bonus([0, 1, 2, 3, 3])
    0
    """
    return DIVERSITY_BONUS if len(set(types_face_up)) >= type_count else 0


class SeatFacts(TypedDict):
    """The plain numbers scoring needs for one seat (``seat_facts``)."""

    #: Per type: the stars of its face-up telescope cards.
    stars: list[int]
    #: Per type: its notebook stack's numbers but the 6/0, and whether the stack holds the 6/0.
    stacks: list[tuple[list[int], bool]]
    #: Satellites in the notebook.
    satellites: int
    #: Per telescope section: the sum of its card numbers.
    sections: list[int]
    #: The types face up in the telescope.
    face_up_types: set[int]


def seat_facts(cards: CardSet, telescope: tuple[TelescopeEntry, ...], notebook: tuple[Card, ...]) -> SeatFacts:
    """The plain numbers scoring needs for one seat."""
    types = len(cards.types)
    number_of, type_of = cards.number_of, cards.type_of
    stars = [0] * types
    face_up_types: set[int] = set()
    sums = [0] * len(cards.telescope.section_names)
    section_of = cards.telescope.section_of
    for slot, entry in enumerate(telescope):
        if entry == EMPTY:
            continue
        if is_face_down(entry):
            sums[section_of[slot]] += FACE_DOWN_NUMBER
            continue
        sums[section_of[slot]] += number_of[entry]
        t = type_of[entry]
        if t < types:
            stars[t] += cards.stars_of[entry]
            face_up_types.add(t)
    numbers: list[list[int]] = [[] for _ in range(types)]
    six_zero = [False] * types
    satellites = 0
    for kind in notebook:
        t = type_of[kind]
        if t == types:
            satellites += 1
        elif cards.six_zero[kind]:
            six_zero[t] = True
        else:
            numbers[t].append(number_of[kind])
    return {"stars": stars, "stacks": list(zip(numbers, six_zero)), "satellites": satellites,
            "sections": sums, "face_up_types": face_up_types}


def totals(cards: CardSet, telescopes: Sequence[tuple[TelescopeEntry, ...]],
           notebooks: Sequence[tuple[Card, ...]]) -> tuple[int, ...]:
    """Every seat's points: its stars times runs, its section bonuses and its diversity bonus."""
    facts = [seat_facts(cards, telescope, notebook) for telescope, notebook in zip(telescopes, notebooks)]
    bonuses = section_bonuses([fact["sections"] for fact in facts])
    types = len(cards.types)
    return tuple(sum(points for _, points, _ in star_points(fact["stars"], fact["stacks"], fact["satellites"]))
                 + sum(bonuses[seat]) + diversity_bonus(fact["face_up_types"], types)
                 for seat, fact in enumerate(facts))
