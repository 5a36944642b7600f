"""Biome Blitz's costs and compete totals after abilities: what a card costs a team, the ways a hand
can pay it, and the attack and defence totals of a compete."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Protocol, cast

from rules.biome_blitz.cards import (
    ANIMAL, PLAIN, SYMBOLS, WILD, Ability, AnimalCard, Card, CardSet, Cost, Deck, EcosystemKind, Symbol,
)
from rules.biome_blitz.state import EFFECTIVE_POWER, PER_ECOSYSTEM, Ecosystems, Hand, State, Team, Variants
from rules.eventtexts import Texts, say
from rules.protocol import Seat



class Board(Protocol):
    """What the compete totals and the reroll abilities read of a state: a ``State``, or the ``_Table``
    an apply works on (``table.py``), which holds the same."""

    @property
    def cards(self) -> CardSet: ...

    @property
    def variants(self) -> Variants: ...

    @property
    def teams(self) -> Sequence[Team]: ...

    @property
    def ecosystems(self) -> Sequence[Ecosystems]: ...


# -- costs and payments --------------------------------------------------------------------------
def abilities(state: State, seat: Seat, effect: str) -> Iterator[tuple[AnimalCard, Ability]]:
    """(animal, ability) for each ability with ``effect`` in ``seat``'s team."""
    animals = state.cards.animals
    for a in state.teams[seat]:
        for ability in animals[a].abilities:
            if ability.effect == effect:
                yield a, ability


def payments(hand: Hand, cost: Cost, *, free: int = 0,
             substitute: dict[Symbol, Symbol] | None = None) -> tuple[Hand, ...]:
    """Every distinct multiset of hand cards that pays ``cost`` exactly: each unit by its own symbol,
    a wild, or a substitute symbol; ``free`` units of any symbols may be left unpaid (a discount).

    >>> payments((0, 0, 3), (2, 0, 0))   # two leaf: leaf+leaf, or leaf+wild
    ((0, 0), (0, 3))
    >>> payments((1, 3), (0, 1, 0), substitute={1: 0})
    ((1,), (3,))
    """
    # A payment uses at most sum(cost) cards of one symbol, so larger counts give the same answers:
    # capping them lets many more hands share one remembered answer.
    most = cost[0] + cost[1] + cost[2]
    have = (min(hand.count(0), most), min(hand.count(1), most), min(hand.count(2), most), min(hand.count(3), most))
    return _payments(have, cost, free, tuple(sorted(substitute.items())) if substitute else ())


@lru_cache(maxsize=50000)
def _payments(counts: tuple[int, int, int, int], cost: Cost, free: int,
              substitute: tuple[tuple[Symbol, Symbol], ...]) -> tuple[Hand, ...]:
    """``payments`` for a hand of these symbol counts (wild last), ``substitute`` as sorted (pay, using)
    pairs; remembered: hands repeat a lot, and their counts capped at the cost repeat more."""
    if not free and not substitute:
        # Each symbol's units are paid by that symbol or by wilds: choose the wilds per symbol.
        out = []
        c0, c1, c2 = cost
        wild = counts[WILD]
        for w0 in range(max(0, c0 - counts[0]), min(c0, wild) + 1):
            for w1 in range(max(0, c1 - counts[1]), min(c1, wild - w0) + 1):
                for w2 in range(max(0, c2 - counts[2]), min(c2, wild - w0 - w1) + 1):
                    out.append((0,) * (c0 - w0) + (1,) * (c1 - w1) + (2,) * (c2 - w2) + (WILD,) * (w0 + w1 + w2))
        return tuple(sorted(out))
    needs = [s for s in PLAIN for _ in range(cost[s])]
    results: set[Hand] = set()
    _pay_units(needs, [*counts], dict(substitute), results, 0, (), min(free, len(needs)))
    return tuple(sorted(results))


def _pay_units(needs: list[Symbol], left: list[int], substitute: dict[Symbol, Symbol], results: set[Hand], index: int,
               paid: Hand, skips: int) -> None:
    """Add to ``results`` every way to pay ``needs[index:]`` (a unit each) from the cards ``left``
    (the count of each symbol, wild last), ``skips`` units left unpaid (a discount, taken in full)."""
    if index == len(needs):
        if not skips:
            results.add(tuple(sorted(paid)))
        return
    need = needs[index]
    if skips:
        _pay_units(needs, left, substitute, results, index + 1, paid, skips - 1)
    for payer in {need, WILD, substitute.get(need, need)}:
        if left[payer]:
            left[payer] -= 1
            _pay_units(needs, left, substitute, results, index + 1, paid + (payer,), skips)
            left[payer] += 1


def discover_cost(state: State, seat: Seat, deck: Deck, card: Card) -> tuple[Cost, int, dict[Symbol, Symbol]]:
    """The cost of discovering ``card`` for ``seat`` after its abilities: (cost, free units, substitutes)."""
    cards = state.cards
    target = "animal" if deck == ANIMAL else "ecosystem"
    cost = list(cards.animals[card].cost if deck == ANIMAL else cards.ecosystems[card].cost)
    free = 0
    for _, ability in abilities(state, seat, "discount"):
        if ability.get("target") not in ("any", target):
            continue
        s = ability.get("symbol")
        if s is None:
            free += ability.get("amount")
        else:
            cost[s] = max(0, cost[s] - ability.get("amount"))
    substitute = {ability.get("pay"): ability.get("using") for _, ability in abilities(state, seat, "substitute")}
    return (cost[0], cost[1], cost[2]), free, substitute


def _names(symbols: Hand) -> tuple[str, ...]:
    return tuple(SYMBOLS[s] for s in symbols)


# -- compete helpers -----------------------------------------------------------------------------
def eco_bonus(state: Board, seat: Seat, animal: AnimalCard) -> tuple[int, int]:
    """Power and defence the seat's ecosystems give ``animal``: each matching ecosystem card counts, or
    (switch ``ecosystem_bonus``) each matching ecosystem once."""
    cards = state.cards
    eco = cards.animals[animal].ecosystem
    power = defence = 0
    held: Iterable[EcosystemKind] = state.ecosystems[seat]
    if PER_ECOSYSTEM in state.variants:
        held = dict.fromkeys(held)
    for kind in held:
        if cards.ecosystems[kind].id == eco:
            power += cards.ecosystems[kind].power
            defence += cards.ecosystems[kind].defence
    return power, defence


def cancel_payment(state: State, defender: AnimalCard, owner: Seat) -> tuple[Symbol, int] | None:
    """(symbol, count) the owner of ``defender`` would discard to cancel a compete against it: its
    first cancel_compete ability their hand can pay (wild cards do not count), or None."""
    hand = state.hands[owner]
    for ability in state.cards.animals[defender].with_effect("cancel_compete"):
        if hand.count(ability.get("symbol")) >= ability.get("count"):
            return cast(Symbol, ability.get("symbol")), ability.get("count")    # (cancel_compete requires a symbol)
    return None


def can_be_attacked(state: State, attacker: AnimalCard, defender: AnimalCard) -> Texts | None:
    """Why ``defender`` cannot be chosen against ``attacker`` (a prevent ability), in every language,
    or None."""
    cards = state.cards
    owner = state.owner(defender)
    for ability in cards.animals[defender].with_effect("immune"):
        limit = ability.get("max_attacker_power")
        if limit is not None and judged_power(state, attacker, defender) <= limit:
            return say("biome_blitz", "refusal.immune.power", animal=cards.card_label(1, defender), ability=ability.label,
                       limit=limit)
        if ability.get("while_other_animals") and len(state.teams[owner]) > 1:
            return say("biome_blitz", "refusal.immune.alone", animal=cards.card_label(1, defender), ability=ability.label)
    return None


def judged_power(state: State, attacker: AnimalCard, defender: AnimalCard) -> int:
    """The attacker's power an immunity to weak attackers judges: as printed, or (switch
    ``immune_power``) with its ecosystem bonus and the power abilities that apply before the roll."""
    if EFFECTIVE_POWER in state.variants:
        return attack_total(state, state.owner(attacker), attacker, defender, 0)     # (no die shows 0)
    return state.cards.animals[attacker].power


def attack_total(state: Board, seat: Seat, attacker: AnimalCard, defender: AnimalCard, roll: int) -> int:
    cards = state.cards
    animal = cards.animals[attacker]
    total = roll + animal.power + eco_bonus(state, seat, attacker)[0]
    for ability in animal.abilities:
        if ability.effect != "power":
            continue
        at_least = ability.get("vs_stars_at_least")
        if at_least is not None and cards.animals[defender].stars < at_least:
            continue
        if ability.get("on_roll") is not None and roll != ability.get("on_roll"):
            continue
        family = ability.get("per_family")
        if family is not None:
            others = sum(1 for a in state.teams[seat] if a != attacker and cards.animals[a].family == family)
            total += ability.get("amount") * others
        else:
            total += ability.get("amount")
    return total


def defence_total(state: Board, seat: Seat, defender: AnimalCard, attacker: AnimalCard, roll: int) -> int:
    cards = state.cards
    animal = cards.animals[defender]
    total = roll + animal.defence + eco_bonus(state, seat, defender)[1]
    for ability in animal.with_effect("defence"):
        family = ability.get("vs_family")
        if family is None or cards.animals[attacker].family == family:
            total += ability.get("amount")
    return total


def reroll_ability(state: Board, animal: AnimalCard, side: str, *, automatic: bool) -> Ability | None:
    """The animal's reroll ability usable on ``side`` (automatic = with fixed results), or None."""
    for ability in state.cards.animals[animal].with_effect("reroll"):
        if ability.get("side") in (side, "any") and (ability.get("on") is not None) == automatic:
            return ability
    return None
