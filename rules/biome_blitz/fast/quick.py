"""Biome Blitz's direct paths, for speed only: frequent applies in their usual case, the new state
built as one tuple instead of through ``rules._Table``.

Each function here answers None when its case does not apply; the handler in ``rules.py`` then
takes its general path, which gives the same state (fields and log, in the same order) in the cases
answered here. The cases are chosen by which abilities are in play, looked up per animal card in
``Flags``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

from rules.chance import die_by, shuffled_by
from rules.biome_blitz.cards import ANIMAL, ECOSYSTEM, RESOURCE, Ability, Animal, AnimalCard, Card, CardSet, Deck, Symbol
from rules.biome_blitz.state import (
    ACTION, DECK_NAMES, EMPTY, OVER, PEEK, Hand, PeekSeen, PerDeck, Pile, State, Team, WIN_ANIMALS, WIN_POINTS,
    make_state,
)
from rules.biome_blitz.state import (
    AT_CARDS, AT_DECKS, AT_DISCARDS, AT_HANDS, AT_KNOWN, AT_LAST_COMPETE, AT_LOG, AT_MARKETS, AT_PEEKED, AT_PENDING,
    AT_PHASE, AT_PLAYERS, AT_POINTS, AT_ROLLS, AT_SEAT, AT_SHUFFLES, AT_TEAMS, AT_TRADES, AT_TURN, AT_WINNER,
)
from rules.biome_blitz.fast.entries import REVEAL, TURN, Log
from rules.biome_blitz.fast.entries import turn as turn_entry
from rules.biome_blitz.table import _put, _without, known_less, noted_peek
from rules.protocol import Seat


#: A State's fields in order, as a list the direct paths change before ``make_state`` builds the new
#: state from it (cheaper than ``_replace``). Each item is of its field's type, which no list type can
#: say: the functions here read the fields into locals of those types.
Fields = list[Any]
#: A compete total after abilities (``costs.attack_total``, ``costs.defence_total``): (state, the
#: animal's seat, the animal, its opponent, the die) -> the total.
Total = Callable[[State, Seat, AnimalCard, AnimalCard, int], int]


class Flags(NamedTuple):
    """Per animal card (index): may it take part in a compete built directly, and how?"""

    #: As attacker: no reroll of the attack die left to its owner's choice, no compete again.
    plain_attacker: tuple[bool, ...]
    #: As defender: no reroll of the defence die left to its owner's choice.
    plain_defender: tuple[bool, ...]
    #: Its reroll ability with fixed results (``on``) as attacker, and as defender, or None (as
    #: ``costs.reroll_ability(..., automatic=True)``).
    auto_attack: tuple[Ability | None, ...]
    auto_defend: tuple[Ability | None, ...]
    #: Its cancel_compete abilities (the defender's owner decides: not built directly).
    cancels: tuple[tuple[Ability, ...], ...]
    #: Its "defeated" abilities (draw, destroy_attacker), in card order.
    when_defeated: tuple[tuple[Ability, ...], ...]
    #: A "defeated" draw ability that watches any animal's defeat.
    watches_defeats: tuple[bool, ...]


def flags_of(cards: CardSet) -> Flags:
    """The Flags of every animal card of ``cards``."""
    def reroll(animal: Animal, side: str, automatic: bool) -> Ability | None:     # (as costs.reroll_ability)
        return next((a for a in animal.with_effect("reroll")
                     if a.get("side") in (side, "any") and (a.get("on") is not None) == automatic), None)

    animals = cards.animals
    return Flags(
        tuple(not animal.with_effect("extra_compete") and reroll(animal, "attack", False) is None
              for animal in animals),
        tuple(reroll(animal, "defend", False) is None for animal in animals),
        tuple(reroll(animal, "attack", True) for animal in animals),
        tuple(reroll(animal, "defend", True) for animal in animals),
        tuple(animal.with_effect("cancel_compete") for animal in animals),
        tuple(tuple(a for a in animal.abilities if a.trigger == "defeated") for animal in animals),
        tuple(any(a.trigger == "defeated" and a.effect == "draw" and a.get("whose") == "any" for a in animal.abilities)
              for animal in animals))




def end_turn(fields: Fields, seat: Seat) -> State | None:
    """``_Table.end_turn`` on a state's ``fields`` (a list, changed here) after ``seat``'s action: the
    game is won, or the next turn begins, its start-of-turn abilities applied by ``start_abilities``
    (None when that declines)."""
    cards: CardSet = fields[AT_CARDS]
    players: int = fields[AT_PLAYERS]
    teams: tuple[Team, ...] = fields[AT_TEAMS]
    points: tuple[int, ...] = fields[AT_POINTS]
    team = teams[seat]
    if points[seat] >= WIN_POINTS or len(team) >= WIN_ANIMALS:
        fields[AT_WINNER], fields[AT_PHASE], fields[AT_PENDING] = seat, OVER, ()
        fields[AT_LOG] += (("win", seat, (), (points[seat], len(team))),)
        return make_state(fields)
    turn: int
    following, turn = (seat + 1) % players, fields[AT_TURN] + 1
    fields[AT_SEAT], fields[AT_TURN], fields[AT_PHASE], fields[AT_PENDING], fields[AT_TRADES] = following, turn, ACTION, (), 0
    turns = TURN[following]
    fields[AT_LOG] += turns[turn] if turn < len(turns) else turn_entry(following, turn)
    caches = cards.speed_caches
    next_team = teams[following]
    if (caches.teams.get(next_team) or caches.team(next_team)).acts_at_start:
        return start_abilities(fields)
    return make_state(fields)


def start_abilities(fields: Fields) -> State | None:
    """The start-of-turn abilities of the seat to move, as ``_Table.start_turn`` applies them, on a
    state's ``fields`` whose turn has just begun: peeks, draws the resource deck holds enough cards
    for, and face-up takes refilled from the deck without three of a kind. Otherwise None."""
    cards: CardSet = fields[AT_CARDS]
    decks: PerDeck = fields[AT_DECKS]
    markets: PerDeck = fields[AT_MARKETS]
    hands: tuple[Hand, ...] = fields[AT_HANDS]
    teams: tuple[Team, ...] = fields[AT_TEAMS]
    seat: Seat = fields[AT_SEAT]
    log: Log = fields[AT_LOG]
    discards: Pile = fields[AT_DISCARDS][RESOURCE]
    known: tuple[Hand, ...] = fields[AT_KNOWN]
    peeked: tuple[PeekSeen, ...] = fields[AT_PEEKED]
    deck, market, hand = decks[RESOURCE], markets[RESOURCE], hands[seat]
    choice = False
    for animal in teams[seat]:
        for ability in cards.animals[animal].abilities:
            trigger, effect = ability.trigger, ability.effect     # (in the order start_turn reads them)
            if trigger == "start_of_turn" and effect == "take_faceup":
                for _ in range(ability.get("count")):
                    symbol = ability.get("symbol")
                    if symbol in market:
                        if EMPTY in market:
                            return None
                        slot = market.index(symbol)
                        hand = tuple(sorted(hand + (symbol,)))
                        known = _put(known, seat, known[seat] + (symbol,))
                        refilled = refill_slot(cards, deck, discards, market, slot,
                                               log + (("ability_take", seat, (symbol,), (animal, slot + 1)),))
                        if refilled is None:
                            return None
                        deck, discards, market, log = refilled
            elif trigger == "start_of_turn" and effect == "draw":
                drew = _draw(seat, animal, ability, deck, hand, log)
                if drew is None:
                    return None
                deck, hand, log = drew
            elif effect == "peek":
                if ability.get("deck") == "choice":
                    choice = True
                else:
                    d = DECK_NAMES.index(ability.get("deck"))
                    top_of = deck if d == RESOURCE else decks[d]
                    log += (("peek", seat, (d, top_of[0] if top_of else EMPTY), animal),)
                    peeked = noted_peek(peeked, seat, d, (deck,) + decks[1:], fields[AT_SHUFFLES])
    fields[AT_DECKS] = (deck,) + decks[1:]
    fields[AT_DISCARDS] = (discards,) + fields[AT_DISCARDS][1:]
    fields[AT_MARKETS] = (market,) + markets[1:]
    fields[AT_HANDS] = _put(hands, seat, hand)
    fields[AT_LOG] = log
    fields[AT_KNOWN], fields[AT_PEEKED] = known, peeked
    if choice:
        fields[AT_PHASE] = PEEK
    return make_state(fields)


def refill_slot(cards: CardSet, deck: Pile, discards: Pile, market: Pile, slot: int,
                log: Log) -> tuple[Pile, Pile, Pile, Log] | None:
    """``_Table.refill`` of the resource market after a take from ``slot`` (0-2), the other slots
    full: the deck's top fills it, then three identical symbols are discarded and replaced, while the
    deck holds the cards (no reshuffle). (deck, discards, market, log), or None."""
    if not deck:
        return None
    market = market[:slot] + (deck[0],) + market[slot + 1:]
    log += REVEAL[deck[0]][slot + 1]
    deck = deck[1:]
    if market[0] == market[1] == market[2]:
        guard = sum(cards.resource_copies)
        while market[0] == market[1] == market[2] and guard > 0:
            if len(deck) < 3:
                return None
            guard -= 3
            discards += market
            log += (("triple", None, (), market[0]), *REVEAL[deck[0]][1], *REVEAL[deck[1]][2], *REVEAL[deck[2]][3])
            market, deck = deck[:3], deck[3:]
    return deck, discards, market, log


def _draw(seat: Seat, animal: AnimalCard, ability: Ability, deck: Pile, hand: Hand,
          log: Log) -> tuple[Pile, Hand, Log] | None:
    """``_Table.draw_resources`` for ``animal``'s draw ``ability``, when the deck holds the cards:
    (deck, hand, log), or None."""
    count = ability.get("count")
    if len(deck) < count:
        return None
    drawn = deck[:count]
    return deck[count:], tuple(sorted(hand + drawn)), log + (("draw", seat, drawn, (animal, ability.name)),)


def forage_draws(fields: Fields, seat: Seat, took: tuple[Symbol, ...]) -> bool:
    """``_forage_done``'s draw abilities (before the turn ends) on a state's ``fields`` (a list,
    changed here), when the resource deck holds the cards; False otherwise."""
    return _draws(fields, seat, "forage", lambda animal, ability: ability.get("if_took") in (None,) + took)


def discover_draws(fields: Fields, seat: Seat, card: AnimalCard) -> bool:
    """``_discover``'s draw abilities after animal ``card`` joined the team, as ``forage_draws``."""
    return _draws(fields, seat, "discover",
                  lambda animal, ability: (animal != card) == (ability.get("on") == "another_animal"))


def _draws(fields: Fields, seat: Seat, trigger: str, fires: Callable[[AnimalCard, Ability], bool]) -> bool:
    """The draw abilities with ``trigger`` of ``seat``'s team for which ``fires(animal, ability)``."""
    cards: CardSet = fields[AT_CARDS]
    decks: PerDeck = fields[AT_DECKS]
    hands: tuple[Hand, ...] = fields[AT_HANDS]
    log: Log = fields[AT_LOG]
    team: Team = fields[AT_TEAMS][seat]
    deck, hand = decks[RESOURCE], hands[seat]
    for animal in team:
        for ability in cards.animals[animal].abilities:
            if ability.trigger == trigger and ability.effect == "draw" and fires(animal, ability):
                drew = _draw(seat, animal, ability, deck, hand, log)
                if drew is None:
                    return False
                deck, hand, log = drew
    fields[AT_DECKS], fields[AT_HANDS], fields[AT_LOG] = (deck,) + decks[1:], _put(hands, seat, hand), log
    return True


def explore(state: State, seat: Seat, d: Deck, paid: Hand, flushed: Pile, pay: tuple[str, ...]) -> State | None:
    """``_explore``'s general path when the new face-up cards show no three identical resources: pay,
    discard the market, reveal three cards, the deck rebuilt from its shuffled discards when it runs
    out (``_Table.draw``). Otherwise None."""
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
     turn_seat, turn, phase, pending, trades, last_compete, winner, _, known, peeked, chance) = state
    discards = (discards[RESOURCE] + paid,) + discards[1:]
    deck, discard = decks[d], discards[d] + flushed
    market: list[Card] = []
    log: Log = (("explore", seat, (d,) + flushed, pay),)
    for slot in range(1, 4):
        if not deck and discard:
            deck = tuple(shuffled_by(chance, f"biome_blitz:{seed}:shuffle:{shuffles}", discard))
            shuffles += 1
            discard = ()
            log += (("reshuffle", None, (), (d, len(deck))),)
        if deck:
            market.append(deck[0])
            log += (("reveal", None, (d, deck[0]), slot),)
            deck = deck[1:]
        else:
            market.append(EMPTY)
    if d == RESOURCE and market[0] == market[1] == market[2] != EMPTY:
        return None
    return make_state((
        cards, players, variants, seed, rolls, shuffles, _put(decks, d, deck), _put(discards, d, discard),
        _put(markets, d, tuple(market)), _put(hands, seat, _without(hands[seat], paid)), teams, ecosystems, points,
        turn_seat, turn, phase, pending, trades, last_compete, winner, log,
        _put(known, seat, known_less(known[seat], paid)) if known[seat] else known, peeked, chance))


def compete(state: State, seat: Seat, attacker: AnimalCard, defender: AnimalCard, owner: Seat, paid: Hand,
            attack_total: Total, defence_total: Total) -> State | None:
    """A compete in which nobody has a choice to make (no cancel the defender's owner can pay, no
    reroll left to a choice, no compete again), built as ``_compete`` would: pay, roll both dice and
    the rerolls with fixed results, compare; the winner scores, the defeated animal's abilities act
    (its draw, destroying the attacker), the animals watching any defeat draw, the attacker steals,
    then ``end_turn``. None when it is not such a compete or a draw needs a reshuffle.
    ``attack_total`` and ``defence_total`` are the rules' (they read only the cards, teams and
    ecosystems, which the payment leaves as they are)."""
    cards = state.cards
    flags = cards.speed_flags
    if not (flags.plain_attacker[attacker] and flags.plain_defender[defender]):
        return None
    if flags.cancels[defender]:     # (as _compete: its owner decides whether to cancel)
        return None
    hands = state.hands
    watches = flags.watches_defeats
    watched = False
    for team in state.teams:
        for animal in team:
            if watches[animal]:
                watched = True
    fields: Fields = list(state)
    seed, rolls, discards, teams, points = state.seed, state.rolls, state.discards, state.teams, state.points
    chance = state.chance
    attack = die_by(chance, f"biome_blitz:{seed}:die:{rolls}")
    defend = die_by(chance, f"biome_blitz:{seed}:die:{rolls + 1}")
    rolls += 2
    log: Log = (("compete", seat, (attacker, defender), owner), ("dice", seat, (attack, defend), (attacker, defender)))
    # (As _roll_dice. An automatic reroll's "on" is the die results it rerolls: Ability.get cannot
    # tell them from a draw ability's "on" by the key alone.)
    automatic = flags.auto_attack[attacker]
    if automatic is not None and attack in cast(tuple[int, ...], automatic.get("on")):
        attack = die_by(chance, f"biome_blitz:{seed}:die:{rolls}")
        rolls += 1
        log += (("reroll", seat, (attack,), (attacker, automatic.name)),)
    automatic = flags.auto_defend[defender]
    if automatic is not None and defend in cast(tuple[int, ...], automatic.get("on")):
        defend = die_by(chance, f"biome_blitz:{seed}:die:{rolls}")
        rolls += 1
        log += (("reroll", owner, (defend,), (defender, automatic.name)),)
    kick = next((a for a in cards.animals[defender].with_effect("win_on_roll") if attack in a.get("rolls")), None)
    a_total = attack_total(state, seat, attacker, defender, attack)
    d_total = defence_total(state, owner, defender, attacker, defend)
    won = kick is None and a_total >= d_total
    fields[AT_ROLLS] = rolls
    fields[AT_HANDS] = _put(hands, seat, _without(hands[seat], paid))
    if state.known[seat]:
        fields[AT_KNOWN] = _put(state.known, seat, known_less(state.known[seat], paid))
    discards = (discards[RESOURCE] + paid,) + discards[1:]
    fields[AT_LOG] = log + (("result", seat if won else owner, (attacker, defender),
                           (a_total, d_total, kick.name if kick else None)),)
    fields[AT_LAST_COMPETE] = (seat, attacker, attack, a_total, owner, defender, defend, d_total, seat if won else owner)
    if won:
        stars = cards.animals[defender].stars
        teams = _put(teams, owner, tuple(a for a in teams[owner] if a != defender))
        # (cast: a tuple of any length, as the field is; a tuple of three assigned would narrow the variable
        # to one, which compiled code unboxes and boxes again. A won compete only: the call costs little.)
        discards = cast(PerDeck, (discards[RESOURCE], discards[ANIMAL] + (defender,), discards[ECOSYSTEM]))
        fields[AT_POINTS] = _put(points, seat, points[seat] + stars)
        fields[AT_LOG] += (("points", seat, (), (stars, "defeat")),)
        for ability in flags.when_defeated[defender]:       # (as _resolve_compete, in card order)
            if ability.effect == "destroy_attacker":
                if attacker in teams[seat]:
                    teams = _put(teams, seat, tuple(a for a in teams[seat] if a != attacker))
                    discards = cast(PerDeck, (discards[RESOURCE], discards[ANIMAL] + (attacker,), discards[ECOSYSTEM]))
                    fields[AT_LOG] += (("destroyed", owner, (defender, attacker), ability.name),)
            elif ability.effect == "draw":      # its own defeat counts for "any animal" too
                decks, hands = fields[AT_DECKS], fields[AT_HANDS]
                drew = _draw(owner, defender, ability, decks[RESOURCE], hands[owner], fields[AT_LOG])
                if drew is None:
                    return None
                fields[AT_DECKS], fields[AT_HANDS] = (drew[0],) + decks[1:], _put(hands, owner, drew[1])
                fields[AT_LOG] = drew[2]
        fields[AT_TEAMS] = teams
        if watched and not _defeat_draws(fields, watches):
            return None
        if attacker in teams[seat]:
            for ability in cards.animals[attacker].with_effect("steal"):
                _steal(fields, seat, owner, ability)
    fields[AT_DISCARDS] = discards
    return end_turn(fields, seat)


def _defeat_draws(fields: Fields, watches: tuple[bool, ...]) -> bool:
    """The draws of the animals watching any defeat (``_resolve_compete``'s, seat by seat, in team
    order) on a state's ``fields`` (a list, changed here), when the resource deck holds the cards;
    False otherwise."""
    cards: CardSet = fields[AT_CARDS]
    decks: PerDeck = fields[AT_DECKS]
    log: Log = fields[AT_LOG]
    hands: list[Hand] = [*fields[AT_HANDS]]
    teams: tuple[Team, ...] = fields[AT_TEAMS]
    deck = decks[RESOURCE]
    for other, team in enumerate(teams):
        for animal in team:
            if watches[animal]:
                for ability in cards.animals[animal].abilities:
                    if ability.trigger == "defeated" and ability.effect == "draw" and ability.get("whose") == "any":
                        drew = _draw(other, animal, ability, deck, hands[other], log)
                        if drew is None:
                            return False
                        deck, hands[other], log = drew
    fields[AT_DECKS], fields[AT_HANDS], fields[AT_LOG] = (deck,) + decks[1:], tuple(hands), log
    return True


def _steal(fields: Fields, seat: Seat, owner: Seat, ability: Ability) -> None:
    """The attacker's steal ability after a won compete (as ``_resolve_compete``), on a state's ``fields``."""
    hands: list[Hand] = [*fields[AT_HANDS]]
    symbol, hand, taken = ability.get("symbol"), [*hands[owner]], []
    for _ in range(ability.get("count")):
        if symbol in hand:
            hand.remove(symbol)
            taken.append(symbol)
    hands[owner], hands[seat] = tuple(hand), tuple(sorted(hands[seat] + tuple(taken)))
    fields[AT_HANDS] = tuple(hands)
    known: list[Hand] = [*fields[AT_KNOWN]]       # (everyone saw the cards taken)
    known[owner], known[seat] = known_less(known[owner], taken), known[seat] + tuple(taken)
    fields[AT_KNOWN] = tuple(known)
    fields[AT_LOG] += (("steal", seat, tuple(taken), (owner, ability.name)),)
