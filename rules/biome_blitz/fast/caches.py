"""Biome Blitz's remembered answers, for speed only: each is what ``rules.py`` would work out afresh.

Random playouts ask for the action phase's actions at about every second decision. The list is made
of parts that depend on few things: a face-up card's Discover actions on the hand and the team's
cost-changing abilities, a compete pair's actions on the hand, whether the defender has team mates
and the pair's abilities. Those parts repeat across turns and games, so they are worked out once and
remembered here, each in a dict keyed by everything the part depends on.

Hands are few (some thousand sorted tuples), but each meets many face-up cards and compete pairs, so
the parts are shared between hands where they can be: by a hand's symbol counts capped at what a
price can use (Discover), and by the hand's payments of a battle cost, numbered (Compete: a seat's
whole Compete list is remembered by the numbers of the hand's payments of its attackers' costs). A
hand's entry then only points at shared parts.

The caches belong to one card set (:func:`caches_for` keeps them on it), so a key never mixes two
sets. Those keyed by hands or markets start over when they grow past a limit, so memory stays
bounded; the others are bounded by the card set.

Teams seldom repeat from one game to the next, so nothing is remembered for good per team but the
few small teams every game passes through (``SMALL_TEAMS``): other parts are keyed by what a team's
abilities change (``TeamKeys``, few values), and a seat's entry for larger teams lives only while
they last (``last_seats``). A cache that grows game after game costs more than it saves: Python's
garbage collector scans every object it holds again and again (measured on 2-player playouts: the
collector's share of the time fell from 3.6% to 1.0% when these caches stopped growing, and the
playouts ran 4-5% faster).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal, NamedTuple, TypeVar, final

from rules.biome_blitz.cards import Animal, CardSet, Cost
from rules.biome_blitz.fast.entries import REVEAL, Log
from rules.biome_blitz.state import (
    MARKET, Action, Compete, Discover, Ecosystems, Forage, Hand, Pile, Replace, Team,
)
from rules.protocol import Seat

LIMIT: Final = 100000      # entries per cache before it starts over
#: Teams of at most this many animals in all are remembered (``Caches.seats``): kept for good, larger
#: ones would make the heap grow game after game, and Python's garbage collector scan it ever longer.
SMALL_TEAMS: Final = 2
HANDS: Final = 5000        # hands in ``Caches.by_hand``'s dicts (each holds at most a few hundred entries)

K = TypeVar("K")
V = TypeVar("V")

#: Cards of each resource symbol (leaf, water, meat, wild), or the most a payment can use of each.
Counts = tuple[int, int, int, int]
#: A payment as actions name it: its symbols' names ("leaf", "wild").
Payment = tuple[str, ...]
#: A face-up card's price for a team: (deck, cost, free units, sorted (pay, using) substitutes).
Price = tuple[int, Cost, int, tuple[tuple[int, int], ...]]
#: A face-up card's Discover actions per market slot (1-3, at 0-2): the same payments in each.
SlotActions = tuple[tuple[Discover, ...], ...]


class TeamKeys(NamedTuple):
    """What a team's abilities change: for the action lists (besides compete pairs) and the turn."""

    changes_discover: tuple[int, ...]    # its animals with discount or substitute abilities, in team order
    changes_explore: tuple[int, ...]     # its animals with explore_cost abilities, in team order
    takes_all: tuple[int, ...]           # its animals with a take_all_faceup forage, in team order
    acts_at_start: bool                  # a start-of-turn or peek ability
    draws_after_forage: bool             # a forage draw ability
    draws_on_discover: bool              # a discover draw ability


class Caches:
    """One card set's animals sorted by what their abilities change, and the remembered list parts."""

    def __init__(self, cards: CardSet):
        animals = cards.animals
        effects = [{ability.effect for ability in animal.abilities} for animal in animals]
        # Per animal card (index): see TeamKeys.
        self.changes_discover = tuple(bool(e & {"discount", "substitute"}) for e in effects)
        self.changes_explore = tuple("explore_cost" in e for e in effects)
        self.takes_all = tuple("take_all_faceup" in e for e in effects)
        self.acts_at_start = tuple(any(ability.trigger == "start_of_turn" or ability.effect == "peek"
                                       for ability in animal.abilities) for animal in animals)
        self.draws_after_forage = tuple(any(ability.trigger == "forage" and ability.effect == "draw"
                                            for ability in animal.abilities) for animal in animals)
        self.draws_on_discover = tuple(any(ability.trigger == "discover" and ability.effect == "draw"
                                           for ability in animal.abilities) for animal in animals)
        #: The animals an immunity protects from weak attackers: with the switch immune_power at
        #: "effective" what protects them depends on the teams' ecosystems too (see listing._listing).
        self.guards = frozenset(a for a, animal in enumerate(animals) if any(
            ability.get("max_attacker_power") is not None for ability in animal.with_effect("immune")))
        self.animal_cards, self.ecosystem_kinds = len(animals), len(cards.ecosystems)     # markets show these
        #: team -> TeamKeys; the TeamKeys themselves made once per value (``keys``): many teams share them.
        self.teams: dict[Team, TeamKeys] = {}
        self.keys: dict[TeamKeys, TeamKeys] = {}
        #: (seat, teams) -> the seat's SeatCache, for teams of at most ``SMALL_TEAMS`` animals in all:
        #: those recur from game to game (games begin alike), larger ones seldom do. (The seat's last
        #: SeatCache is kept in ``last_seats`` whatever the teams: teams change seldom.)
        self.seats: dict[tuple[Seat, tuple[Team, ...]], SeatCache] = {}
        #: TeamKeys -> they, the ``by_hand`` dict and the ``cards_for`` entry for them (for SeatCaches).
        self.team_parts: dict[TeamKeys, tuple[TeamKeys, HandGroup, CardRecords]] = {}
        #: Per seat (at most six): (teams, the seat's SeatCache) last looked up, tried first; None
        #: before the seat's first list.
        self.last_seats: list[tuple[tuple[Team, ...], SeatCache] | None] = [None] * 6
        #: (discover-changing animals, explore-changing animals) -> its HandGroup {hand: HandCache}:
        #: looking the hand up once serves the whole list.
        self.by_hand: dict[tuple[Team, Team], HandGroup] = {}
        # What a hand's entry can depend on at most, per symbol (wild last): a Discover payment never
        # uses more cards of a symbol than its price has units that symbol can pay (the printed costs
        # bound that when no ability changes them, and a card's whole cost always does), a battle cost's
        # payment no more than the cost, and Explore asks whether a symbol is held twice.
        printed = [card.cost for card in animals] + [card.cost for card in cards.ecosystems]
        least: list[int] = [max(*caps, 2) for caps in zip(*self._battle_caps(animals), (2, 2, 2, 0))]
        #: For teams without cost-changing animals: the printed costs' units per symbol (and in all).
        leaf, water, meat, wild = (max(n, at_least) for n, at_least in
                                   zip((*map(max, zip(*printed)), max(map(sum, printed))), least))
        self.printed_caps: Counts = (leaf, water, meat, wild)
        #: For teams with discover-changing ones: a whole cost (the largest) for every symbol.
        whole = max(max(map(sum, printed)), *least)
        self.whole_caps: Counts = (whole,) * 4
        self.hands_made = 0             # HandCaches made since the by_hand dicts last started over
        # What the by_hand entries are made from, shared by every hand:
        #: discover-changing animals -> per deck (an empty list for resources), per card: None until first
        #: asked, then its CardRecord.
        self.cards_for: dict[Team, CardRecords] = {}
        #: price (as CardRecord.price) -> its number (bounded by the card set, never starts over).
        self.prices: dict[Price, int] = {}
        #: (CardRecord.number, the counts of each symbol capped at CardRecord.caps) -> the card's Discover
        #: actions per market slot: the payments are the same for every hand with those capped counts (a
        #: payment never uses more cards of a symbol than the price has units that symbol can pay).
        self.by_price: dict[tuple[int, int, int, int, int], SlotActions] = {}
        #: (deck, payments named) -> the Discover actions per market slot: the same for every card
        #: with these payments.
        self.slot_lists: dict[tuple[int, tuple[Payment, ...]], SlotActions] = {}
        #: (which plain symbols the hand holds at least twice, which decks can be explored (bits)) -> Explore
        #: actions, for teams without explore_cost abilities: nothing else counts then.
        self.explores: dict[tuple[bool, bool, bool, int], tuple[Action, ...]] = {}
        #: Per whether the defender has team mates, per attacker, per defender (animal card indices):
        #: the pair's PairRecord, None when an ability protects the defender, False until first asked.
        self.pair_rows: tuple[list[list[PairEntry]], ...] = tuple(
            [[False] * len(animals) for _ in animals] for _mates in (False, True))
        # The battle costs, numbered (a hand's payments are remembered per number), and per animal card.
        costs = sorted({animal.battle_cost for animal in animals})
        self.battle_costs = tuple(costs)
        self.battle_cost_of = tuple(costs.index(animal.battle_cost) for animal in animals)
        #: Per battle cost (numbered): the most cards of each symbol (wild last) a payment can use.
        self.battle_caps = self._battle_caps(animals)
        #: payments of a battle cost (named) -> their number; and the payments by number.
        self.pay_ids: dict[tuple[Payment, ...], int] = {}
        self.pays: list[tuple[Payment, ...]] = []
        #: (battle cost's number, symbol counts capped at what the cost can use) -> the number of the
        #: payments (as ``payments`` gives them: larger counts give the same payments).
        self.battle_pays: dict[tuple[int, tuple[int, ...]], int] = {}
        #: A hand's symbol counts -> the numbers of its payments of every battle cost (HandCache.pay_ids).
        self.pay_ids_of: dict[Counts, tuple[int, ...]] = {}
        #: A hand's payments' numbers for some battle costs (None for the others) -> their number:
        #: compete lists are remembered per seat by this number (HandCache.masked). Bounded by the card
        #: set (its battle costs' payments), never starts over.
        self.pay_vector_ids: dict[tuple[int | None, ...], int] = {}
        #: resource market -> Forage actions (the deck or its discards hold cards)
        self.forages: dict[Pile, tuple[Forage, ...]] = {}
        #: (a team's animals with take_all_faceup abilities, resource market, the deck or its discards hold
        #: cards) -> Forage and ForageAll actions: whether the abilities can be used depends on the market only.
        self.take_all: dict[tuple[Team, Pile, bool, bool], tuple[Action, ...]] = {}
        #: A team's ecosystems (card kinds) -> the Replace actions (a fourth ecosystem came).
        self.replaces: dict[Ecosystems, tuple[Replace, ...]] = {}
        #: Per deck, per card (a symbol, animal or ecosystem kind), per market slot (1-3): the one-entry
        #: log (("reveal", None, (deck, card), slot),), made once (the resources' are ``entries.REVEAL``).
        self.reveals: tuple[tuple[tuple[Log, ...], ...], ...] = (REVEAL,) + tuple(
            tuple(tuple((("reveal", None, (d, card), slot),) for slot in range(MARKET + 1)) for card in range(count))
            for d, count in ((1, len(animals)), (2, len(cards.ecosystems))))

    @staticmethod
    def _battle_caps(animals: tuple[Animal, ...]) -> tuple[Counts, ...]:
        return tuple((*cost, sum(cost)) for cost in sorted({animal.battle_cost for animal in animals}))

    def team(self, team: Team) -> TeamKeys:
        keys = self.teams.get(team)
        if keys is None:
            keys = TeamKeys(tuple(a for a in team if self.changes_discover[a]),
                            tuple(a for a in team if self.changes_explore[a]),
                            tuple(a for a in team if self.takes_all[a]),
                            any(self.acts_at_start[a] for a in team),
                            any(self.draws_after_forage[a] for a in team),
                            any(self.draws_on_discover[a] for a in team))
            keys = remember(self.teams, team, self.keys.setdefault(keys, keys))
        return keys

    def seat(self, seat: Seat, teams: tuple[Team, ...], pairs: tuple[PairRecord, ...], mask: int) -> SeatCache:
        """Remember the SeatCache of ``seat`` at ``teams`` (see ``seats``) with these compete ``pairs``,
        whose battle costs are the bits of ``mask``."""
        team = teams[seat]
        keys = self.teams.get(team) or self.team(team)
        parts = self.team_parts.get(keys)
        if parts is None:
            group = self.by_hand.get((keys.changes_discover, keys.changes_explore))
            parts = self.team_parts[keys] = (
                keys, self.hand_group(keys) if group is None else group,
                self.cards_for.get(keys.changes_discover) or self.discover_cards(keys.changes_discover))
        keys, hands, records = parts
        found = SeatCache(keys, pairs, hands, records, mask)
        if sum(map(len, teams)) <= SMALL_TEAMS:
            remember(self.seats, (seat, teams), found)
        return found

    def hand_group(self, keys: TeamKeys) -> HandGroup:
        """The new ``by_hand`` entry for teams with these keys' cost-changing animals."""
        # (Explore with explore_cost abilities looks at the whole hand: no sharing by counts.)
        caps = None if keys.changes_explore else self.whole_caps if keys.changes_discover else self.printed_caps
        found = self.by_hand[keys.changes_discover, keys.changes_explore] = HandGroup(caps)
        return found

    def hand(self, hands: HandGroup, hand: Hand, pay_id: Callable[[Hand, int], int]) -> HandCache:
        """The HandCache for ``hand``, new to ``hands`` (a ``by_hand`` entry): a hand with the same
        counts capped at the group's caps shares it; ``pay_id(hand, cost)`` gives the number of the
        hand's payments of a battle cost (numbered)."""
        if self.hands_made > HANDS:     # start over, in place: the seats entries hold these dicts
            for made in self.by_hand.values():
                made.clear()
                made.by_counts.clear()
            self.hands_made = 0
        self.hands_made += 1
        n0, n1, n2, n3 = hand.count(0), hand.count(1), hand.count(2), hand.count(3)
        caps = hands.caps
        if caps is None:
            counts = (n0, n1, n2, n3)
        else:
            c0, c1, c2, c3 = caps
            counts = (n0 if n0 < c0 else c0, n1 if n1 < c1 else c1, n2 if n2 < c2 else c2, n3 if n3 < c3 else c3)
            found = hands.by_counts.get(counts)
            if found is not None:
                hands[hand] = found
                return found
        pay_ids = self.pay_ids_of.get(counts)
        if pay_ids is None:
            numbers = []
            for cost, caps in enumerate(self.battle_caps):
                key = (cost, tuple([n if n < cap else cap for n, cap in zip(counts, caps)]))
                number = self.battle_pays.get(key)
                if number is None:
                    number = self.battle_pays[key] = pay_id(hand, cost)
                numbers.append(number)
            pay_ids = remember(self.pay_ids_of, counts, tuple(numbers))
        found = hands[hand] = HandCache(counts, ([], [None] * self.animal_cards + [NO_SLOTS],
                                                 [None] * self.ecosystem_kinds + [NO_SLOTS]), pay_ids)
        if caps is not None:
            hands.by_counts[counts] = found
        return found

    def masked(self, hand_parts: HandCache, mask: int) -> int:
        """The number of the hand's payments of the battle costs in ``mask`` (see HandCache.masked)."""
        vector = tuple([pay_id if mask >> cost & 1 else None for cost, pay_id in enumerate(hand_parts.pay_ids)])
        found = self.pay_vector_ids.get(vector)
        if found is None:
            found = self.pay_vector_ids[vector] = len(self.pay_vector_ids)
        hand_parts.masked[mask] = found
        return found

    def discover_cards(self, changes_discover: Team) -> CardRecords:
        """The per-deck, per-card CardRecord lists for a team with these discover-changing animals."""
        records: CardRecords = ([], [None] * self.animal_cards, [None] * self.ecosystem_kinds)
        return remember(self.cards_for, changes_discover, records)

    def pay_id(self, pays: tuple[Payment, ...]) -> int:
        """The number of these payments (of a battle cost, named): few distinct ones exist."""
        found = self.pay_ids.get(pays)
        if found is None:
            found = self.pay_ids[pays] = len(self.pays)
            self.pays.append(pays)
        return found


class HandGroup(dict[Hand, "HandCache"]):
    """A ``by_hand`` entry: hand -> HandCache, for teams with the same cost-changing animals. What a
    HandCache holds depends on the hand only through its symbol counts capped at ``caps`` (None: on
    the whole hand), so hands with the same capped counts share one (``by_counts``)."""

    __slots__ = ("caps", "by_counts")

    def __init__(self, caps: Counts | None):
        super().__init__()
        self.caps = caps
        self.by_counts: dict[Counts, HandCache] = {}


#: A HandCache's Discover entry for an empty market slot (EMPTY, -1, indexes the last entry).
NO_SLOTS: Final[SlotActions] = ((), (), ())


# The records below are classes with slots, not NamedTuples: compiled, a NamedTuple is made through
# its Python ``__new__`` (a call into the interpreter, at every new seat entry: many a second in a
# 4-player look-ahead), where these are made by a direct call and their fields read in place.


@final
class SeatCache:
    """A seat's remembered parts while the teams stay the same."""

    __slots__ = ("keys", "pairs", "hands", "records", "mask", "competes")

    def __init__(self, keys: TeamKeys, pairs: tuple[PairRecord, ...], hands: HandGroup, records: CardRecords,
                 mask: int) -> None:
        self.keys = keys            # its team's
        #: The PairRecord of every pair the seat might compete with and no ability protects, in listing order.
        self.pairs = pairs
        self.hands = hands          # the ``by_hand`` dict for the team's cost-changing animals
        self.records = records      # the ``cards_for`` entry for the team's discover-changing animals
        self.mask = mask            # the battle costs (bits by number) of the pairs' attackers
        #: The number of a hand's payments of those battle costs (HandCache.masked) -> the Compete
        #: actions: the pairs' actions depend on the hand only through those payments.
        self.competes: dict[int, tuple[Compete, ...]] = {}


@final
class HandCache:
    """One hand's remembered list parts (for the team's cost-changing animals)."""

    __slots__ = ("counts", "explores", "discovers", "pay_ids", "masked")

    def __init__(self, counts: Counts,
                 discovers: tuple[list[SlotActions | None], list[SlotActions | None], list[SlotActions | None]],
                 pay_ids: tuple[int, ...]) -> None:
        self.counts = counts        # cards of each symbol, capped at the HandGroup's caps
        #: Which decks can be explored (bits by deck) -> Explore actions.
        self.explores: dict[int, tuple[Action, ...]] = {}
        #: Per deck (resource, animal, ecosystem; an empty list for resources), per card (its index),
        #: and last NO_SLOTS for an empty slot: None until first asked, then the card's Discover
        #: actions per market slot (its entry in ``Caches.by_price``). Lists indexed by card need no hashing.
        self.discovers = discovers
        #: Per battle cost (``Caches.battle_costs``' number): the number of the hand's payments of it.
        self.pay_ids = pay_ids
        #: Some battle costs (bits by number, a SeatCache's mask) -> the number of the hand's payments
        #: of those costs (``Caches.masked``).
        self.masked: dict[int, int] = {}


@final
class CardRecord:
    """A face-up card's price for one team's discover-changing abilities."""

    __slots__ = ("price", "number", "caps")

    def __init__(self, price: Price, number: int, caps: Counts) -> None:
        self.price = price          # (deck, cost, free units, sorted (pay, using) substitutes)
        self.number = number        # the price's number (``Caches.prices``)
        #: The most cards of each symbol (wild last) a payment of the price can use: a plain symbol
        #: pays its own units and those it substitutes for, a wild any unit.
        self.caps = caps


#: Per deck (an empty list for resources), per card: None until first asked, then its CardRecord.
CardRecords = tuple[list[CardRecord | None], list[CardRecord | None], list[CardRecord | None]]


@final
class PairRecord:
    """A compete pair no ability protects, shared by hands: its actions per payments of its battle cost."""

    __slots__ = ("cost", "by_pays", "attacker", "defender")

    def __init__(self, cost: int, attacker: int, defender: int) -> None:
        self.cost = cost            # the attacker's battle cost, numbered (``Caches.battle_costs``)
        self.by_pays: dict[int, tuple[Compete, ...]] = {}     # payments' number -> Compete actions
        self.attacker = attacker
        self.defender = defender


#: A pair's entry in ``Caches.pair_rows``: its PairRecord, None when an ability protects the defender,
#: False until first asked.
PairEntry = PairRecord | None | Literal[False]


def caches_for(cards: CardSet) -> Caches:
    """The card set's caches, made on first use (``CardSet.speed_caches``, a cached property)."""
    return cards.speed_caches


def remember(cache: dict[K, V], key: K, value: V) -> V:
    """Store ``value`` in ``cache`` (one of a Caches' dicts keyed by hands, markets or teams) under
    ``key`` and answer it; the cache starts over when it holds more than ``LIMIT`` entries, so memory
    stays bounded. Every such dict of a Caches is filled here and nowhere else.

    Why dicts and not ``functools.lru_cache``: these answers belong to one card set (a Caches lives as
    long as its CardSet, and a key never mixes two sets), and most are not functions of hashable
    arguments but of parts of a state. The hot path (``listing._listing``) looks them up inline with
    ``dict.get``, about 90 ns a lookup, where a bounded ``lru_cache`` function keyed by (caches, key)
    took about 165 ns (timeit, best of 9 runs of 1,000,000 on this machine) and would keep every
    card set it saw alive. Pure functions of immutable arguments are ``functools`` caches instead
    (``costs._payments``, ``checks._symbols_of``, ``choices._named`` and the made actions), but for the
    three the trade and forage phases ask at almost every decision (``listing._trade_list``,
    ``_second_picks``, ``_replies``): module-level dicts this function fills, which compiled code looks
    up directly."""
    if len(cache) > LIMIT:
        cache.clear()
    cache[key] = value
    return value
