"""Biome Blitz's state and actions: immutable values.

Resource cards are symbols (0 leaf, 1 water, 2 meat, 3 wild); animal cards are indices into
``CardSet.animals`` (each physical card unique); ecosystem cards are kinds (indices into
``CardSet.ecosystems``). Each deck has a face-up market of three slots (``EMPTY`` when the deck and
its discards ran out).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Final, NamedTuple, cast

from rules import chance
from rules.protocol import Seat
from rules.records import check_positions, from_fields

from rules.biome_blitz.cards import AnimalCard, Card, CardSet, Deck, EcosystemKind, Symbol

# Phases: what the seat in ``to_move`` must decide.
PEEK: Final = "peek"              # start of turn: choose the deck a peek ability looks at
ACTION: Final = "action"          # optional actions (Explore, Trade), then one main action
TRADE: Final = "trade"            # building a trade offer: give, ask, propose or cancel
TRADE_REPLY: Final = "trade_reply"  # the trade partner accepts or refuses
FORAGE: Final = "forage"          # the second pick of a forage
REPLACE: Final = "replace"        # a fourth ecosystem: choose the one it replaces
CANCEL: Final = "cancel"          # the defender's owner may cancel the compete (an ability)
REROLL: Final = "reroll"          # a compete's die owner may reroll (an ability)
FRENZY: Final = "frenzy"          # after a won compete: compete again with the same animal, or stop
OVER: Final = "over"
PHASES: Final = (PEEK, ACTION, TRADE, TRADE_REPLY, FORAGE, REPLACE, CANCEL, REROLL, FRENZY, OVER)

EMPTY: Final = -1
NOBODY: Final = -1
MARKET: Final = 3
HAND_AT_START: Final = 4
WIN_POINTS: Final = 30
WIN_ANIMALS: Final = 5
MAX_ECOSYSTEMS: Final = 3
TRADES_PER_TURN: Final = 3
DECK_NAMES: Final = ("resource", "animal", "ecosystem")
#: The rule switches the engine reads (their Variants, with sources, are in ``game.py``): (name, the
#: value that is not the default).
PER_ECOSYSTEM: Final = ("ecosystem_bonus", "per_ecosystem")
EFFECTIVE_POWER: Final = ("immune_power", "effective")
FRENZY_ONCE: Final = ("extra_compete", "once")
WILD_NOT_A_TYPE: Final = ("all_different_wild", "not_a_type")

#: The chosen rule switches, as sorted (name, value) pairs.
Variants = tuple[tuple[str, object], ...]
#: Cards of one deck in a row: a deck (top first), its discards (bottom first) or its market (``EMPTY``
#: for an empty slot).
Pile = tuple[Card, ...]
#: One pile per deck: resource, animal, ecosystem (always three). Typed as a tuple of any length: mypyc
#: keeps a value of a fixed-length tuple type unboxed, as a C struct, and so boxed the three piles into
#: a new tuple again whenever compiled code put them into a state (three new tuples a decision, for
#: decks, discards and markets).
PerDeck = tuple[Pile, ...]
#: A hand of resource cards (sorted), or cards given, asked for, paid or known.
Hand = tuple[Symbol, ...]
#: A seat's animals, in the order discovered.
Team = tuple[AnimalCard, ...]
#: A seat's ecosystem cards (at most ``MAX_ECOSYSTEMS``).
Ecosystems = tuple[EcosystemKind, ...]

# The decision in progress (``State.pending``), by phase; ``()`` (a ``ForageTook`` of none) in the
# phases without one. Where there is one, ``pending[0]`` is a seat or a card.
#: FORAGE: the first pick's card (none when it drew from an empty deck).
ForageTook = tuple[Symbol, ...]
#: TRADE: (partner, cards to give, cards asked for).
TradeOffer = tuple[Seat, Hand, Hand]
#: TRADE_REPLY: (partner, asker, cards to give, cards asked for).
OfferToAnswer = tuple[Seat, Seat, Hand, Hand]
#: REPLACE: (the new ecosystem,).
NewEcosystem = tuple[EcosystemKind]
#: CANCEL: (the defender's owner, attacker, defender, the symbol and count that cancel, a compete again?).
CancelQuestion = tuple[Seat, AnimalCard, AnimalCard, Symbol, int, bool]
#: REROLL: (who decides, attacker, defender, attack roll, defence roll, stage: 0 the attack die, 1 the
#: defence die, a compete again?).
RerollQuestion = tuple[Seat, AnimalCard, AnimalCard, int, int, int, bool]
#: FRENZY: (the animal that competes again,).
FrenzyAttacker = tuple[AnimalCard]
Pending = ForageTook | TradeOffer | OfferToAnswer | NewEcosystem | CancelQuestion | RerollQuestion | FrenzyAttacker
#: The last compete: (attacker seat, attacker, roll, total, defender seat, defender, roll, total,
#: winner seat), or ().
LastCompete = tuple[int, ...]
#: What a log entry says besides its kind, seat and cards: a number, a name, nothing, or a few of
#: those, by kind (``game.BiomeBlitz._event`` reads them).
LogDetail = int | str | None | tuple[int | str | None, ...]
#: One thing an apply did: (kind, seat or None, cards (by kind: symbols, or a deck and its cards), detail).
LogEntry = tuple[str, Seat | None, tuple[int, ...], LogDetail]
#: What a peek showed: (seat, deck, the card's place counted from the deck's bottom, card, the
#: ``shuffles`` count then).
PeekSeen = tuple[Seat, Deck, int, Card, int]


class State(NamedTuple):
    cards: CardSet
    players: int
    variants: Variants
    seed: int
    #: How many dice were rolled and decks reshuffled: each draws from its own seeded generator.
    rolls: int
    shuffles: int
    #: Per deck (resource, animal, ecosystem): the deck (top first), the discards, the market.
    decks: PerDeck
    discards: PerDeck
    markets: PerDeck
    hands: tuple[Hand, ...]
    teams: tuple[Team, ...]
    ecosystems: tuple[Ecosystems, ...]
    points: tuple[int, ...]
    seat: Seat
    turn: int
    phase: str
    #: The decision in progress (see ``rules.py``): a forage's first pick, a trade offer, a compete.
    pending: Pending
    #: Trade offers made this turn.
    trades: int
    #: The last compete, for the board, or ().
    last_compete: LastCompete
    winner: Seat
    log: tuple[LogEntry, ...]
    #: What every other seat knows each hand holds (symbols in the order seen, part of the hand): cards taken from a
    #: face-up market, received in a trade or by a steal, less the cards it paid since (a payment shows
    #: its cards, not which of them were known).
    known: tuple[Hand, ...]
    #: What peeks showed. Cards leave a deck from its top only and a reshuffle counts, so the
    #: place stays true while the count is the same and the deck is longer than the place.
    peeked: tuple[PeekSeen, ...]
    #: How the dice and reshuffles are drawn from ``seed``: a scheme of ``rules.chance`` (``BLAKE2B``
    #: since rules version 1.1; games recorded with 1.0 keep ``MERSENNE``: ``game.BiomeBlitz.recorded``).
    chance: str

    def variant(self, name: str) -> object:
        for key, value in self.variants:
            if key == name:
                return value
        raise KeyError(name)

    def owner(self, animal: AnimalCard) -> Seat:
        for seat, team in enumerate(self.teams):
            if animal in team:
                return seat
        return NOBODY


#: A State from one list or tuple of all its fields in order (``rules.records.from_fields``).
make_state: Final = from_fields(State)


#: Where each field sits in a State, for code that changes a state's fields as a list (``list(state)``)
#: and makes the next state of it (``make_state``): constants, which compiled code reads as the numbers
#: they are (a position looked up by name at import would be a global, looked up at every use).
#: ``check_positions`` holds them to ``State._fields`` when this module loads.
AT_CARDS: Final = 0
AT_PLAYERS: Final = 1
AT_VARIANTS: Final = 2
AT_SEED: Final = 3
AT_ROLLS: Final = 4
AT_SHUFFLES: Final = 5
AT_DECKS: Final = 6
AT_DISCARDS: Final = 7
AT_MARKETS: Final = 8
AT_HANDS: Final = 9
AT_TEAMS: Final = 10
AT_ECOSYSTEMS: Final = 11
AT_POINTS: Final = 12
AT_SEAT: Final = 13
AT_TURN: Final = 14
AT_PHASE: Final = 15
AT_PENDING: Final = 16
AT_TRADES: Final = 17
AT_LAST_COMPETE: Final = 18
AT_WINNER: Final = 19
AT_LOG: Final = 20
AT_KNOWN: Final = 21
AT_PEEKED: Final = 22
AT_CHANCE: Final = 23
check_positions(
    State,
    cards=AT_CARDS, players=AT_PLAYERS, variants=AT_VARIANTS, seed=AT_SEED, rolls=AT_ROLLS, shuffles=AT_SHUFFLES,
    decks=AT_DECKS, discards=AT_DISCARDS, markets=AT_MARKETS, hands=AT_HANDS, teams=AT_TEAMS,
    ecosystems=AT_ECOSYSTEMS, points=AT_POINTS, seat=AT_SEAT, turn=AT_TURN, phase=AT_PHASE, pending=AT_PENDING,
    trades=AT_TRADES, last_compete=AT_LAST_COMPETE, winner=AT_WINNER, log=AT_LOG, known=AT_KNOWN, peeked=AT_PEEKED,
    chance=AT_CHANCE,
)


def redeal(state: State, seat: Seat | None, rng: random.Random) -> State:
    """Re-deal the resource deck and other players' hands among themselves, and shuffle the animal
    and ecosystem decks, keeping what ``seat`` knows: the cards every seat saw go into a hand
    (``State.known``: taken face up, traded, stolen) and the cards offered in a pending trade stay
    in their hands; a card a peek of ``seat``'s showed stays at its place in its deck (another
    seat's peek is of the card the re-deal put there). (Here, not in ``game.py``: the look-ahead
    re-deals once per rollout, and this module is compiled.)"""
    (cards, players, variants, _, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
     turn_seat, turn, phase, pending, trades, last_compete, winner, log, known_by, peeked, scheme) = state
    others = [s for s in range(players) if s != seat]
    known = {s: known_by[s] for s in others}
    if phase in (TRADE, TRADE_REPLY) and turn_seat in known:
        offered = cast(TradeOffer, pending)[1] if phase == TRADE else cast(OfferToAnswer, pending)[2]
        known[turn_seat] = tuple(sorted((Counter(known[turn_seat]) | Counter(offered)).elements()))
    # Peeked cards still in their decks, by deck: (index from the top, card), top first.
    fixed: tuple[list[tuple[int, Card]], list[tuple[int, Card]], list[tuple[int, Card]]] = ([], [], [])
    for who, d, place, card, when in peeked:
        if who == seat and when == shuffles and place < len(decks[d]):
            fixed[d].append((len(decks[d]) - 1 - place, card))
    pool = list(decks[0])
    for s in others:
        rest = list(hands[s])
        for card in known[s]:
            rest.remove(card)
        pool.extend(rest)
    for _, card in fixed[0]:
        pool.remove(card)
    pool.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
    chance.shuffle(rng, pool)
    dealt = list(hands)
    for s in others:
        size = len(hands[s]) - len(known[s])
        dealt[s], pool = tuple(sorted(tuple(pool[:size]) + known[s])), pool[size:]
    shuffled = [pool]
    for d in (1, 2):
        deck = list(decks[d])
        for _, card in fixed[d]:
            deck.remove(card)
        deck.sort()
        chance.shuffle(rng, deck)
        shuffled.append(deck)
    for d in range(3):
        for index, card in sorted(fixed[d]):
            shuffled[d].insert(index, card)
    # Another seat's peek at a card still in its deck saw, in this world, the card dealt there (its
    # record kept the card of the real deal: 5% of samples contradicted their own decks).
    seen = tuple((who, d, place, shuffled[d][len(shuffled[d]) - 1 - place], when)
                 if when == shuffles and place < len(shuffled[d]) else (who, d, place, card, when)
                 for who, d, place, card, when in peeked)
    # (The new state built from its fields, as rules.py builds states: NamedTuple's _replace is a
    # Python call at every re-deal.)
    return make_state((cards, players, variants, chance.unknown_seed(rng), rolls, shuffles,
                       (tuple(shuffled[0]), tuple(shuffled[1]), tuple(shuffled[2])), discards, markets, tuple(dealt),
                       teams, ecosystems, points, turn_seat, turn, phase, pending, trades, last_compete, winner, log,
                       known_by, seen, scheme))


@dataclass(frozen=True, kw_only=True)
class Explore:
    """Optional: pay ``pay`` (two identical resources) to flush ``deck``'s face-up cards and reveal three."""

    deck: str
    pay: tuple[str, ...]

    def __str__(self) -> str:
        return f"explore the {self.deck} deck paying {' + '.join(self.pay)}"


@dataclass(frozen=True, kw_only=True)
class TradeWith:
    """Optional, on your turn: start a trade offer to ``seat``."""

    seat: Seat

    def __str__(self) -> str:
        return f"offer a trade to Player {self.seat + 1}"


@dataclass(frozen=True, kw_only=True)
class TradeGive:
    symbol: str

    def __str__(self) -> str:
        return f"offer {self.symbol}"


@dataclass(frozen=True, kw_only=True)
class TradeAsk:
    symbol: str

    def __str__(self) -> str:
        return f"ask for {self.symbol}"


@dataclass(frozen=True, kw_only=True)
class TradePropose:
    def __str__(self) -> str:
        return "propose the trade"


@dataclass(frozen=True, kw_only=True)
class TradeCancel:
    def __str__(self) -> str:
        return "withdraw the trade"


@dataclass(frozen=True, kw_only=True)
class TradeAnswer:
    """The trade partner accepts (``accept``) or refuses the offer."""

    accept: bool

    def __str__(self) -> str:
        return "accept the trade" if self.accept else "refuse the trade"


@dataclass(frozen=True, kw_only=True)
class Forage:
    """Main action Forage, first pick: face-up resource ``slot`` (1-3) or the deck's top (``slot=0``)."""

    slot: int

    def __str__(self) -> str:
        return f"forage: take resource {self.slot}" if self.slot else "forage: draw from the deck"


@dataclass(frozen=True, kw_only=True)
class ForagePick:
    """Forage, second pick: face-up resource ``slot`` (1-3) or the deck's top (``slot=0``)."""

    slot: int

    def __str__(self) -> str:
        return f"then take resource {self.slot}" if self.slot else "then draw from the deck"


@dataclass(frozen=True, kw_only=True)
class ForageAll:
    """Forage with ``animal``'s take-all ability ``ability`` (by name) instead: take face-up resources as
    the ability says."""

    animal: str
    ability: str

    def __str__(self) -> str:
        return f"forage with {self.animal}'s {self.ability}"


@dataclass(frozen=True, kw_only=True)
class Discover:
    """Main action Discover: the face-up card in ``slot`` of the ``deck`` market, paying ``pay``."""

    deck: str
    slot: int
    pay: tuple[str, ...]

    def __str__(self) -> str:
        return f"discover {self.deck} {self.slot} paying {' + '.join(self.pay) or 'nothing'}"


@dataclass(frozen=True, kw_only=True)
class Replace:
    """A fourth ecosystem: ``ecosystem`` (one of the three held) leaves for the new one."""

    ecosystem: str

    def __str__(self) -> str:
        return f"replace the {self.ecosystem} ecosystem"


@dataclass(frozen=True, kw_only=True)
class Compete:
    """Main action Compete: ``attacker`` (your animal) against ``defender`` (another team's), paying ``pay``."""

    attacker: str
    defender: str
    pay: tuple[str, ...]

    def __str__(self) -> str:
        return f"compete: {self.attacker} against {self.defender} paying {' + '.join(self.pay) or 'nothing'}"


@dataclass(frozen=True, kw_only=True)
class CancelCompete:
    """The defender's owner uses (``cancel``) or not the ability that cancels the compete."""

    cancel: bool

    def __str__(self) -> str:
        return "cancel the compete" if self.cancel else "let the compete go on"


@dataclass(frozen=True, kw_only=True)
class Reroll:
    """The owner of a die with a reroll ability rerolls it (``reroll``) or keeps it."""

    reroll: bool

    def __str__(self) -> str:
        return "reroll the die" if self.reroll else "keep the die"


@dataclass(frozen=True, kw_only=True)
class Done:
    """End the turn (after a won compete, instead of competing again)."""

    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True, kw_only=True)
class Peek:
    """Start of turn: look at the top card of ``deck``."""

    deck: str

    def __str__(self) -> str:
        return f"peek at the {self.deck} deck"


#: Every action of Biome Blitz.
Action = (Explore | TradeWith | TradeGive | TradeAsk | TradePropose | TradeCancel | TradeAnswer | Forage | ForagePick
          | ForageAll | Discover | Replace | Compete | CancelCompete | Reroll | Done | Peek)
