"""Biome Blitz's remembered answers, for speed only: each is what ``rules.py`` would work out afresh.

Random playouts ask for the action phase's actions at about every second decision. The list is made
of parts that depend on few things: a face-up card's Discover actions on the hand and the team's
cost-changing abilities, a compete pair's actions on the hand, whether the defender has team mates
and the pair's abilities. Those parts repeat across turns and games, so they are worked out once and
remembered here, each in a dict keyed by everything the part depends on.

The caches belong to one card set (:func:`caches_for` keeps them on it), so a key never mixes two
sets. Those keyed by hands or markets start over when they grow past a limit, so memory stays
bounded; the others are bounded by the card set.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.biome_blitz.cards import CardSet

LIMIT = 100000      # entries per cache before it starts over
HANDS = 5000        # hands in ``Caches.by_hand`` (each holds at most a few hundred entries)


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
        #: (seat, teams) -> (attacker, defender, defender has team mates) of every pair the seat might
        #: compete with, in listing order: teams change seldom.
        self.seats: dict = {}
        #: (hand, discover-changing animals, explore-changing animals) -> a HandCache: looking the hand up
        #: once serves the whole list.
        self.by_hand: dict = {}
        # What the by_hand entries are made from, shared by every hand:
        self.prices: dict = {}          # (discover-changing animals, deck, card) -> (cost, free, substitutes)
        self.pays: dict = {}            # (hand, battle cost) -> payments, named
        #: (deck, price, symbol counts capped at the price's size) -> a card's Discover actions in each
        #: market slot (None until first asked for), then its payments: the payments are the same in
        #: every slot and for every hand with those capped counts, so hands share these lists.
        self.card_discovers: dict = {}
        self.attackable: dict = {}      # (attacker, defender, defender has team mates) -> bool
        self.pair_actions: dict = {}    # (attacker, defender, payments) -> Compete actions
        self.forages: dict = {}         # (resource market, deck or discards hold cards) -> Forage actions

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

    def seat(self, seat: int, teams: tuple[tuple[int, ...], ...]) -> tuple:
        if len(self.seats) > LIMIT:
            self.seats.clear()
        found = self.seats[seat, teams] = tuple((attacker, defender, len(teams[other]) > 1) for attacker in teams[seat]
                                                for other in range(len(teams)) if other != seat
                                                for defender in teams[other])
        return found

    def hand(self, key: tuple) -> HandCache:
        if len(self.by_hand) > HANDS:
            self.by_hand.clear()
        hand = key[0]
        found = self.by_hand[key] = HandCache(tuple(hand.count(symbol) for symbol in range(4)), {},
                                              (None, [None] * self.animal_cards, [None] * self.ecosystem_kinds), {})
        return found


class HandCache(NamedTuple):
    """One hand's remembered list parts (for the team's cost-changing animals)."""

    counts: tuple[int, int, int, int]     # cards of each symbol
    explores: dict          # which decks can be explored -> Explore actions
    #: Per deck (resource, animal, ecosystem; none for resources), per card (its index): None until first
    #: asked, then the card's entry in ``Caches.card_discovers``. Lists indexed by card need no hashing.
    discovers: tuple
    pairs: dict             # (attacker, defender, defender has team mates) -> Compete actions


def caches_for(cards: CardSet) -> Caches:
    """The card set's caches, made on first use (kept in its ``__dict__``, as a cached property is)."""
    caches = cards.__dict__.get("_caches")
    if caches is None:
        caches = cards.__dict__["_caches"] = Caches(cards)
    return caches


def remember(cache: dict, key, actions) -> tuple:
    """Store ``actions`` (as a tuple) in ``cache`` under ``key``; the cache starts over when full."""
    if len(cache) > LIMIT:
        cache.clear()
    found = cache[key] = tuple(actions)
    return found
