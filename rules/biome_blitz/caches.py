"""Biome Blitz's remembered answers, for speed only: each is what ``rules.py`` would work out afresh.

Random playouts ask for the action phase's actions at about every second decision. The list is made
of parts that depend on few things: a face-up card's Discover actions on the hand and the team's
cost-changing abilities, a compete pair's actions on the hand, whether the defender has team mates
and the pair's abilities. Those parts repeat across turns and games, so they are worked out once and
remembered here, each in a dict keyed by everything the part depends on.

Hands are few (some thousand sorted tuples), but each meets many face-up cards and compete pairs, so
the parts are shared between hands where they can be: by a hand's symbol counts capped at what a
price can use (Discover), and by the hand's payments of a battle cost, numbered (Compete). A hand's
entry then only points at shared parts.

The caches belong to one card set (:func:`caches_for` keeps them on it), so a key never mixes two
sets. Those keyed by hands or markets start over when they grow past a limit, so memory stays
bounded; the others are bounded by the card set.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.biome_blitz.cards import CardSet

LIMIT = 100000      # entries per cache before it starts over
HANDS = 5000        # hands in ``Caches.by_hand``'s dicts (each holds at most a few hundred entries)


class TeamKeys(NamedTuple):
    """What a team's abilities change: for the action lists (besides compete pairs) and the turn."""

    changes_discover: tuple[int, ...]    # its animals with discount or substitute abilities, in team order
    changes_explore: tuple[int, ...]     # its animals with explore_cost abilities, in team order
    takes_all: bool                      # a take_all_faceup forage
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
        self.animal_cards, self.ecosystem_kinds = len(animals), len(cards.ecosystems)     # markets show these
        self.teams: dict = {}           # team -> TeamKeys
        #: (seat, teams) -> the seat's team's TeamKeys, the PairRecord of every pair the seat might
        #: compete with and no ability protects (in listing order), and the ``by_hand`` dict for the
        #: team's cost-changing animals: teams change seldom.
        self.seats: dict = {}
        #: (discover-changing animals, explore-changing animals) -> {hand: HandCache}: looking the hand
        #: up once serves the whole list.
        self.by_hand: dict = {}
        self.hands_made = 0             # HandCaches made since the by_hand dicts last started over
        # What the by_hand entries are made from, shared by every hand:
        #: discover-changing animals -> per deck (none for resources), per card: None until first asked,
        #: then its CardRecord.
        self.cards_for: dict = {}
        #: (CardRecord.price, symbol counts capped at the price's size) -> the card's Discover actions by
        #: slot: the payments are the same for every hand with those capped counts (as in ``payments``).
        self.by_price: dict = {}
        #: (deck, payments named) -> the Discover actions in each market slot (None until first asked for),
        #: then the payments: the same for every card with these payments.
        self.slot_lists: dict = {}
        #: (attacker, defender, defender has team mates) -> its PairRecord, or None when an ability
        #: protects the defender.
        self.pairs: dict = {}
        # The battle costs, numbered (a hand's payments are remembered per number), and per animal card.
        costs = sorted({animal.battle_cost for animal in animals})
        self.battle_costs = tuple(costs)
        self.battle_cost_of = tuple(costs.index(animal.battle_cost) for animal in animals)
        #: payments of a battle cost (named) -> their number; and the payments by number.
        self.pay_ids: dict = {}
        self.pays: list = []
        #: The largest price (cards to pay) of any card: a hand's counts are capped at most this.
        self.most = max([sum(animal.cost) for animal in animals] + [sum(eco.cost) for eco in cards.ecosystems] + [0])
        self.forages: dict = {}         # resource market -> Forage actions (the deck or its discards hold cards)

    def team(self, team: tuple[int, ...]) -> TeamKeys:
        keys = self.teams.get(team)
        if keys is None:
            if len(self.teams) > LIMIT:
                self.teams.clear()
            keys = self.teams[team] = TeamKeys(tuple(a for a in team if self.changes_discover[a]),
                                               tuple(a for a in team if self.changes_explore[a]),
                                               any(self.takes_all[a] for a in team),
                                               any(self.acts_at_start[a] for a in team),
                                               any(self.draws_after_forage[a] for a in team),
                                               any(self.draws_on_discover[a] for a in team))
        return keys

    def seat(self, seat: int, teams: tuple[tuple[int, ...], ...], pair) -> tuple[TeamKeys, tuple, dict]:
        """The seat's team keys, compete pairs and hands (see ``seats``); ``pair(attacker, defender,
        mates)`` gives a pair's record."""
        if len(self.seats) > LIMIT:
            self.seats.clear()
        records = (pair(attacker, defender, len(teams[other]) > 1) for attacker in teams[seat]
                   for other in range(len(teams)) if other != seat for defender in teams[other])
        keys = self.teams.get(teams[seat]) or self.team(teams[seat])
        hands = self.by_hand.setdefault((keys.changes_discover, keys.changes_explore), {})
        found = self.seats[seat, teams] = (keys, tuple(record for record in records if record is not None), hands)
        return found

    def hand(self, hands: dict, hand: tuple[int, ...]) -> HandCache:
        """A new HandCache for ``hand`` in ``hands`` (a ``by_hand`` dict)."""
        if self.hands_made > HANDS:     # start over, in place: the seats entries hold these dicts
            for made in self.by_hand.values():
                made.clear()
            self.hands_made = 0
        self.hands_made += 1
        found = hands[hand] = HandCache(tuple(hand.count(symbol) for symbol in range(4)), {},
                                        (None, [None] * self.animal_cards, [None] * self.ecosystem_kinds),
                                        [None] * len(self.battle_costs), [None] * (self.most + 1))
        return found

    def discover_cards(self, changes_discover: tuple[int, ...]) -> tuple:
        """The per-deck, per-card CardRecord lists for a team with these discover-changing animals."""
        if len(self.cards_for) > LIMIT:
            self.cards_for.clear()
        found = self.cards_for[changes_discover] = (None, [None] * self.animal_cards, [None] * self.ecosystem_kinds)
        return found

    def pay_id(self, pays: tuple) -> int:
        """The number of these payments (of a battle cost, named): few distinct ones exist."""
        found = self.pay_ids.get(pays)
        if found is None:
            found = self.pay_ids[pays] = len(self.pays)
            self.pays.append(pays)
        return found


class HandCache(NamedTuple):
    """One hand's remembered list parts (for the team's cost-changing animals)."""

    counts: tuple[int, int, int, int]     # cards of each symbol
    explores: dict          # which decks can be explored -> Explore actions
    #: Per deck (resource, animal, ecosystem; none for resources), per card (its index): None until first
    #: asked, then the card's Discover actions by slot (its entry in ``Caches.by_price``).
    #: Lists indexed by card need no hashing.
    discovers: tuple
    #: Per battle cost (``Caches.battle_costs``' number): None until first asked, then the number of the
    #: hand's payments of it.
    pay_ids: list
    #: Per price size: None until first asked, then the counts capped at that size.
    capped: list


class CardRecord(NamedTuple):
    """A face-up card's price for one team's discover-changing abilities."""

    most: int               # the price's size: cards to pay
    price: tuple            # (deck, cost, free units, sorted (pay, using) substitutes)


class PairRecord(NamedTuple):
    """A compete pair no ability protects, shared by hands: its actions per payments of its battle cost."""

    cost: int               # the attacker's battle cost, numbered (``Caches.battle_costs``)
    by_pays: dict           # payments' number -> Compete actions
    attacker: int
    defender: int


def caches_for(cards: CardSet) -> Caches:
    """The card set's caches, made on first use (kept in its ``__dict__``, as a cached property is)."""
    caches = cards.__dict__.get("_caches")
    if caches is None:
        caches = cards.__dict__["_caches"] = Caches(cards)
    return caches


def remember_list(cache: dict, key, value: list) -> list:
    """Store ``value`` in ``cache`` under ``key``; the cache starts over when full."""
    if len(cache) > LIMIT:
        cache.clear()
    cache[key] = value
    return value


def remember(cache: dict, key, actions) -> tuple:
    """Store ``actions`` (as a tuple) in ``cache`` under ``key``; the cache starts over when full."""
    if len(cache) > LIMIT:
        cache.clear()
    found = cache[key] = tuple(actions)
    return found
