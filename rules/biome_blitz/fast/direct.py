"""Biome Blitz's direct paths for the most frequent applies (forage picks, Explore, Discover), for
speed only: the new state written out as one tuple in the usual case, instead of through
``rules._Table``. The handlers in ``rules.py`` call them while ``MEMO.enabled`` (``rules.biome_blitz.fast.memo``) is on; each answers
None where its case does not apply, and the handler's general path gives the same state in the
cases answered here (``tests/rules/biome_blitz/test_biome_blitz_direct_paths.py``, ``test_biome_blitz_fast_switch.py``).
"""

from __future__ import annotations

from bisect import insort
from typing import cast

from rules.biome_blitz import choices
from rules.biome_blitz.cards import ANIMAL, ECOSYSTEM, RESOURCE, WILD, Card, Deck
from rules.biome_blitz.checks import _symbols
from rules.biome_blitz.choices import RULE_DISCOVER, RULE_EXPLORE
from rules.biome_blitz.fast import quick
from rules.biome_blitz.fast.entries import DRAW, REVEAL, TAKE, TURN, WILD_ENDS, Log
from rules.biome_blitz.fast.entries import turn as turn_entry
from rules.biome_blitz.fast.quick import Fields
from rules.biome_blitz.state import (
    ACTION, EMPTY, FORAGE, MARKET, MAX_ECOSYSTEMS, REPLACE, WIN_ANIMALS, WIN_POINTS, Discover, Explore, ForageTook,
    PerDeck, Pile, State, make_state,
)
from rules.biome_blitz.state import AT_LOG
from rules.biome_blitz.table import _put, _without, known_less
from rules.protocol import Seat



def explore(state: State, seat: Seat, action: Explore, d: Deck, flushed: Pile, revealed: Pile) -> State:
    """``_explore`` in the usual case, built directly as its general path would (pay, discard the
    market, refill it from the deck's top): the deck holds the three cards ``revealed`` and they are
    no three of a kind to replace."""
    paid = _symbols(action.pay, RULE_EXPLORE)
    deck = state.decks[d]
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
     turn_seat, turn, phase, pending, trades, last_compete, winner, _, known, peeked, chance) = state
    hands = _put(hands, seat, _without(hands[seat], paid))
    if known[seat]:
        known = _put(known, seat, known_less(known[seat], paid))
    new_decks, new_discards, new_markets = [*decks], [*discards], [*markets]
    new_discards[RESOURCE] = new_discards[RESOURCE] + paid
    new_discards[d] = new_discards[d] + flushed
    new_decks[d], new_markets[d] = deck[MARKET:], revealed
    # (MARKET is 3: the three revealed cards.)
    reveals = cards.speed_caches.reveals[d]
    log = (("explore", seat, (d,) + flushed, action.pay), *reveals[revealed[0]][1], *reveals[revealed[1]][2],
           *reveals[revealed[2]][3])
    return make_state((cards, players, variants, seed, rolls, shuffles, tuple(new_decks), tuple(new_discards),
                                 tuple(new_markets), hands, teams, ecosystems, points, turn_seat, turn, phase, pending,
                                 trades, last_compete, winner, log, known, peeked, chance))


def forage_pick(state: State, seat: Seat, slot: int, first: bool) -> State | None:
    """A forage pick in the usual case, the new state built directly (forage picks are the most
    frequent decisions after the action phase's, and a _Table costs more than the pick). Usual: the
    resource deck has cards (no reshuffle) and the market is full; when the forage ends (after a
    second pick, or a face-up wild as the first), its draw abilities and the turn's end are built
    directly too (``quick``). Otherwise None: the general path (forage_pick, _forage_done, end_turn)
    decides, and gives the same result in the usual case."""
    # One unpacking, and the new state as one tuple: cheaper than reading fields one by one.
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
     turn_seat, turn, _, pending, trades, last_compete, winner, _, known, peeked, chance) = state
    deck = decks[RESOURCE]
    market = markets[RESOURCE]
    if not deck or EMPTY in market:
        return None
    ends = False        # a face-up wild ends the forage at once
    if slot:
        card = market[slot - 1]
        if card == WILD:
            if not first:
                return None
            ends = True
        log: Log = TAKE[seat][card][slot]
        top = deck[0]
        # (The market written out, as the hands below: cheaper than slices joined.)
        refilled = (top, market[1], market[2]) if slot == 1 else (
            (market[0], top, market[2]) if slot == 2 else (market[0], market[1], top))
        if refilled[0] == refilled[1] == refilled[2]:       # seldom: three of a kind to replace
            replaced = quick.refill_slot(cards, deck, discards[RESOURCE], market, slot - 1, log)
            if replaced is None:
                return None
            deck, discard, market, log = replaced
            discards = (discard,) + discards[1:]
        else:
            deck, market = deck[1:], refilled
            log += REVEAL[top][slot]
        if ends:
            log += WILD_ENDS[seat]
        seen = [*known]         # (taken face up: every seat saw it)
        seen[seat] += (card,)
        known = tuple(seen)
    else:
        card = deck[0]
        deck = deck[1:]
        log = DRAW[seat][card]
    # (New names, annotated: a tuple of any length to the type checker, as the field is. A tuple of three
    # assigned to ``decks`` would narrow it to one, and compiled code would unbox it and box it again
    # into the state; a cast would cost a call interpreted.)
    new_decks: PerDeck = (deck, decks[ANIMAL], decks[ECOSYSTEM])
    new_markets: PerDeck = (market, markets[ANIMAL], markets[ECOSYSTEM])
    hand = [*hands[seat]]
    insort(hand, card)
    held = [*hands]
    held[seat] = tuple(hand)
    hands = tuple(held)
    if first and not ends:
        if not deck and not discards[RESOURCE] and not choices.second_pick_exists(deck, (), market):
            return None     # (seldom: the forage ends after this pick, on the general path)
        return make_state((cards, players, variants, seed, rolls, shuffles, new_decks, discards, new_markets, hands,
                                     teams, ecosystems, points, turn_seat, turn, FORAGE, (card,), trades, last_compete,
                                     winner, log, known, peeked, chance))
    caches = cards.speed_caches
    team, following = teams[seat], (seat + 1) % players
    next_team = teams[following]
    draws = (caches.teams.get(team) or caches.team(team)).draws_after_forage
    if not (draws or points[seat] >= WIN_POINTS or len(team) >= WIN_ANIMALS
            or (caches.teams.get(next_team) or caches.team(next_team)).acts_at_start):
        turns = TURN[following]
        return make_state((cards, players, variants, seed, rolls, shuffles, new_decks, discards, new_markets, hands,
                                     teams, ecosystems, points, following, turn + 1, ACTION, (), 0, last_compete, winner,
                                     log + (turns[turn + 1] if turn + 1 < len(turns) else turn_entry(following, turn + 1)),
                                     known, peeked, chance))
    # Draw abilities, a win or start-of-turn abilities: fewer cases, built by quick's helpers.
    fields: Fields = [cards, players, variants, seed, rolls, shuffles, new_decks, discards, new_markets, hands, teams,
                      ecosystems, points, turn_seat, turn, ACTION, (), trades, last_compete, winner, log, known, peeked,
                      chance]
    # (A second pick's pending is the first pick's card: ForageTook.)
    if draws and not quick.forage_draws(fields, seat, cast(ForageTook, pending) + (card,) if not first else (card,)):
        return None
    return quick.end_turn(fields, seat)


def discover(state: State, seat: Seat, action: Discover, d: Deck, card: Card) -> State | None:
    """A discovery in the usual case, the new state built directly as ``_discover`` would: the deck
    refills the slot (no reshuffle, no other empty slot) and the draw abilities find their cards.
    Then either a fourth ecosystem waits for the one it replaces (the turn goes on), or the turn ends
    (written out for the commonest case: no draw, no win, no start-of-turn ability; else
    ``quick.end_turn``). Otherwise None."""
    decks: tuple[Pile, ...]         # (rebuilt below, as markets)
    markets: tuple[Pile, ...]
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of, points_of,
     turn_seat, turn, _, _, trades, last_compete, winner, _, known, peeked, chance) = state
    deck = decks[d]
    if not deck or EMPTY in markets[d]:
        return None
    caches = cards.speed_caches
    team, ecosystems, following = teams[seat], ecosystems_of[seat], (seat + 1) % players
    if d == ANIMAL:
        team += (card,)
        stars = cards.animals[card].stars
    else:
        ecosystems += (card,)
        stars = cards.ecosystems[card].stars
    points = points_of[seat] + stars
    replace = len(ecosystems) > MAX_ECOSYSTEMS      # (an ecosystem: discover draw abilities watch animals)
    ends = points >= WIN_POINTS or len(team) >= WIN_ANIMALS
    if replace and ends:
        return None
    paid = _symbols(action.pay, RULE_DISCOVER)
    slot = action.slot
    new_decks, new_markets = [*decks], [*markets]
    new_decks[d] = deck[1:]
    new_markets[d] = _put(markets[d], slot - 1, deck[0])
    log: Log = (("discover", seat, (d, card), action.pay), ("points", seat, (), (stars, "discover")))
    reveal = caches.reveals[d][deck[0]][slot]
    decks, discards, markets = tuple(new_decks), (discards[RESOURCE] + paid,) + discards[1:], tuple(new_markets)
    hands, points_of = _put(hands, seat, _without(hands[seat], paid)), _put(points_of, seat, points)
    if known[seat]:
        known = _put(known, seat, known_less(known[seat], paid))
    if replace:
        return make_state((
            cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of,
            points_of, turn_seat, turn, REPLACE, (card,), trades, last_compete, winner, log + reveal, known, peeked, chance))
    next_team = teams[following]
    teams, ecosystems_of = _put(teams, seat, team), _put(ecosystems_of, seat, ecosystems)
    draws = d == ANIMAL and (caches.teams.get(team) or caches.team(team)).draws_on_discover
    if not (draws or ends or (caches.teams.get(next_team) or caches.team(next_team)).acts_at_start):
        turns = TURN[following]
        return make_state((
            cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of,
            points_of, following, turn + 1, ACTION, (), 0, last_compete, winner,
            log + reveal + (turns[turn + 1] if turn + 1 < len(turns) else turn_entry(following, turn + 1)), known, peeked,
            chance))
    # Draw abilities (before the refill's reveal), a win or start-of-turn abilities: built by quick's helpers.
    fields: Fields = [cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams,
                      ecosystems_of, points_of, turn_seat, turn, ACTION, (), trades, last_compete, winner, log, known,
                      peeked, chance]
    if draws and not quick.discover_draws(fields, seat, card):
        return None
    fields[AT_LOG] += reveal
    return quick.end_turn(fields, seat)
