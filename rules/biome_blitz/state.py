"""Biome Blitz's state and actions: immutable values.

Resource cards are symbols (0 leaf, 1 water, 2 meat, 3 wild); animal cards are indices into
``CardSet.animals`` (each physical card unique); ecosystem cards are kinds (indices into
``CardSet.ecosystems``). Each deck has a face-up market of three slots (``EMPTY`` when the deck and
its discards ran out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from rules.records import from_fields

from rules.biome_blitz.cards import CardSet

# Phases: what the seat in ``to_move`` must decide.
PEEK = "peek"              # start of turn: choose the deck a peek ability looks at
ACTION = "action"          # optional actions (Explore, Trade), then one main action
TRADE = "trade"            # building a trade offer: give, ask, propose or cancel
TRADE_REPLY = "trade_reply"  # the trade partner accepts or refuses
FORAGE = "forage"          # the second pick of a forage
REPLACE = "replace"        # a fourth ecosystem: choose the one it replaces
CANCEL = "cancel"          # the defender's owner may cancel the compete (an ability)
REROLL = "reroll"          # a compete's die owner may reroll (an ability)
FRENZY = "frenzy"          # after a won compete: compete again with the same animal, or stop
OVER = "over"
PHASES = (PEEK, ACTION, TRADE, TRADE_REPLY, FORAGE, REPLACE, CANCEL, REROLL, FRENZY, OVER)

EMPTY = -1
NOBODY = -1
MARKET = 3
HAND_AT_START = 4
WIN_POINTS = 30
WIN_ANIMALS = 5
MAX_ECOSYSTEMS = 3
TRADES_PER_TURN = 3
DECK_NAMES = ("resource", "animal", "ecosystem")
#: The rule switches the engine reads (their Variants, with sources, are in ``game.py``): (name, the
#: value that is not the default).
PER_ECOSYSTEM = ("ecosystem_bonus", "per_ecosystem")
EFFECTIVE_POWER = ("immune_power", "effective")
FRENZY_ONCE = ("extra_compete", "once")
WILD_NOT_A_TYPE = ("all_different_wild", "not_a_type")


class State(NamedTuple):
    cards: CardSet
    players: int
    variants: tuple[tuple[str, object], ...]
    seed: int
    #: How many dice were rolled and decks reshuffled: each draws from its own seeded generator.
    rolls: int
    shuffles: int
    #: Per deck (resource, animal, ecosystem): the deck (top first), the discards, the market.
    decks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    discards: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    markets: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    hands: tuple[tuple[int, ...], ...]
    teams: tuple[tuple[int, ...], ...]
    ecosystems: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    seat: int
    turn: int
    phase: str
    #: The decision in progress (see ``rules.py``): a forage's first pick, a trade offer, a compete.
    pending: tuple
    #: Trade offers made this turn.
    trades: int
    #: The last compete, for the board: (attacker seat, attacker, roll, total, defender seat,
    #: defender, roll, total, winner seat) or ().
    last_compete: tuple
    winner: int
    log: tuple[tuple, ...]
    #: What every other seat knows each hand holds (symbols in the order seen, part of the hand): cards taken from a
    #: face-up market, received in a trade or by a steal, less the cards it paid since (a payment shows
    #: its cards, not which of them were known).
    known: tuple[tuple[int, ...], ...]
    #: What peeks showed: (seat, deck, the card's place counted from the deck's bottom, card, the
    #: ``shuffles`` count then). Cards leave a deck from its top only and a reshuffle counts, so the
    #: place stays true while the count is the same and the deck is longer than the place.
    peeked: tuple[tuple[int, int, int, int, int], ...]

    def variant(self, name: str):
        for key, value in self.variants:
            if key == name:
                return value
        raise KeyError(name)

    def owner(self, animal: int) -> int:
        for seat, team in enumerate(self.teams):
            if animal in team:
                return seat
        return NOBODY


#: A State from one list or tuple of all its fields in order (``rules.records.from_fields``).
make_state = from_fields(State)


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

    seat: int

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
