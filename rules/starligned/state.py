"""Starligned's state and actions: immutable values.

A card in a hand or a row is an *entry* ``2 * card + rotated`` (``cards.py``). Rows are left to
right; a new card goes on the right. A moon card covers two neighbouring cards of a row (a *pair*,
kept as their two card numbers, left first); both are then blocked. Hands are sorted entries (their
order carries no information; each card keeps its orientation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from rules.protocol import Seat
from rules.records import from_fields

from rules.starligned.cards import Card, CardSet, Entry

# Phases: what the seat(s) in ``to_move`` must decide.
PLAY: Final = "play"        # phase 1: every player still to choose puts a card face down (simultaneous)
MOON: Final = "moon"        # phase 3: the seat whose row ends in a full moon takes its bonus (or not)
EFFECT: Final = "effect"    # phase 3: the seat resolves its rightmost card's effect (choosing its targets)
REPEAT: Final = "repeat"    # phase 3: the owner of a repeated effect resolves it again
EXCHANGE: Final = "exchange"  # phase 3: the owner of an exchanged row card picks the hand card to take its place
ROTATE: Final = "rotate"    # phase 4: every player still to do so rotates one hand card (simultaneous)
OVER: Final = "over"
PHASES = (PLAY, MOON, EFFECT, REPEAT, EXCHANGE, ROTATE, OVER)

NONE: Final = -1
HAND: Final = 6
ROUNDS: Final = 5           # per stage: the fifth is played with two cards, and the last one is discarded
STAGES: Final = 2


#: The variants a game is played with, as sorted ``(name, on)`` pairs: every Starligned switch is on or off.
Switches = tuple[tuple[str, bool], ...]
#: The two neighbouring cards of a row a moon card covers, left first.
MoonPair = tuple[Card, Card]
#: What a log record holds besides its kind, seat and cards, by kind: a seat (``setup`` and ``pass``: the
#: start player; a row's owner: ``swap``, ``rotate_card``, ``rotate_telescope``, ``repeat``, ``exchange``),
#: a row position (``move``), the entry that left the row (``exchanged``), a stage (``stage``), an effect's
#: name (``effect``, ``no_effect``, ``unresolvable``, ``ignored``), the seats whose Stop showed (``stop``),
#: or the row and pair a moon card left (``remove_moon``); None for the others.
RecordExtra = Seat | Entry | str | tuple[Seat, ...] | tuple[Seat, MoonPair] | None
#: One thing an apply did, as ``State.log`` keeps it: ``(kind, seat, entries, extra)``; ``seat`` is None
#: for no one's events.
Record = tuple[str, Seat | None, tuple[Entry, ...], RecordExtra]


def entry(card: Card, rotated: int = 0) -> Entry:
    return 2 * card + rotated


class State(NamedTuple):
    """Everything about a Starligned game at one moment, the deck's order included."""

    cards: CardSet
    players: int
    variants: Switches
    seed: int
    deck: tuple[Card, ...]
    #: Cards out of the game: white-centre cards with 2-3 players (card numbers).
    box: tuple[Card, ...]
    #: Each stage's last hand cards, face down (entries).
    discard: tuple[Entry, ...]
    hands: tuple[tuple[Entry, ...], ...]
    rows: tuple[tuple[Entry, ...], ...]
    #: Per row: the pairs (left card, right card) covered by a moon card.
    moons: tuple[tuple[MoonPair, ...], ...]
    moon_supply: int
    #: Phase 1: each seat's face-down card (an entry) or NONE. Phase 4: 1 once the seat has rotated.
    chosen: tuple[int, ...]
    #: The holder of the start-player direction card (it travels left with the hands).
    start_player: Seat
    stage: int
    round: int
    phase: str
    #: Phase 3: the seat whose turn it is (its moon bonus, then its effect).
    resolver: Seat
    #: REPEAT: (owner seat, card) of the repeated effect; EXCHANGE: (row owner, card) leaving the row.
    pending: tuple[int, ...]
    #: Cards that came into a row by Exchange this round: their phase-3 effect is ignored.
    ignored: tuple[Card, ...]
    #: Phase 3 was cancelled by a revealed Stop this round.
    stopped: bool
    #: Cards that went from a row into a hand by Exchange this stage, in view of all: every player knows
    #: whose hand holds them as the hands pass on (``sample_hidden`` keeps them there). Emptied when a
    #: stage ends.
    exchanged: tuple[Card, ...]
    log: tuple[Record, ...]

    def variant(self, name: str) -> bool:
        for key, value in self.variants:
            if key == name:
                return value
        raise KeyError(name)

    def blocked(self, seat: Seat, card: Card) -> bool:
        for pair in self.moons[seat]:
            if card in pair:
                return True
        return False


#: A State from one list or tuple of all its fields in order (``rules.records.from_fields``).
make_state: Final = from_fields(State)


@dataclass(frozen=True, kw_only=True)
class PlayCard:
    """Phase 1: put ``card`` from your hand face down at the right end of your row (as it is held)."""

    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, kw_only=True)
class MoonBonus:
    """Phase 3 moon bonus: ``"cover"`` your last two cards with a moon card, ``"remove"`` the moon card
    over ``pair`` (its left card) from ``row``'s owner, or ``"none"``."""

    choice: str
    row: Seat | None = None
    pair: str | None = None

    def __str__(self) -> str:
        if self.choice == "cover":
            return "cover the full moon with a moon card"
        if self.choice == "remove":
            assert self.row is not None                   # (a removal names the row: ``decode_action``)
            return f"remove the moon card over {self.pair} from Player {self.row + 1}'s row"
        return "no moon bonus"


@dataclass(frozen=True, kw_only=True)
class Swap:
    """Swap: exchange the places of two unblocked cards in ``row``'s owner's row."""

    row: Seat
    first: str
    second: str

    def __str__(self) -> str:
        return f"swap {self.first} and {self.second} in Player {self.row + 1}'s row"


@dataclass(frozen=True, kw_only=True)
class MoveCard:
    """Move: put ``card`` at ``position`` (1 = leftmost) of its row."""

    card: str
    position: int

    def __str__(self) -> str:
        return f"move {self.card} to position {self.position}"


@dataclass(frozen=True, kw_only=True)
class RotateCard:
    """Rotate star card: turn an unblocked played card of ``row``'s owner (not the rotating card)."""

    row: Seat
    card: str

    def __str__(self) -> str:
        return f"rotate {self.card} in Player {self.row + 1}'s row"


@dataclass(frozen=True, kw_only=True)
class RotateTelescope:
    """Rotate telescope: turn every card in ``seat``'s hand."""

    seat: Seat

    def __str__(self) -> str:
        return f"rotate Player {self.seat + 1}'s telescope"


@dataclass(frozen=True, kw_only=True)
class RepeatEffect:
    """Repeat: the owner of ``card`` in ``row`` resolves its active phase-3 effect again."""

    row: Seat
    card: str

    def __str__(self) -> str:
        return f"repeat the effect of {self.card} (Player {self.row + 1}'s row)"


@dataclass(frozen=True, kw_only=True)
class ExchangeCard:
    """Exchange: ``row``'s owner replaces unblocked ``card`` with a card from their hand."""

    row: Seat
    card: str

    def __str__(self) -> str:
        return f"exchange {self.card} in Player {self.row + 1}'s row"


@dataclass(frozen=True, kw_only=True)
class ExchangeWith:
    """Exchange, the row owner's choice: ``card`` from hand takes the exchanged card's place."""

    card: str

    def __str__(self) -> str:
        return f"give {self.card} from hand in exchange"


@dataclass(frozen=True, kw_only=True)
class RotateHandCard:
    """Phase 4: rotate ``card`` in your hand before passing the hand left."""

    card: str

    def __str__(self) -> str:
        return f"rotate {self.card} in hand"


#: What resolves a phase-3 effect (``choices.EFFECT_ACTION``: which effect each resolves).
EffectAction = Swap | MoveCard | RotateCard | RotateTelescope | RepeatEffect | ExchangeCard
#: Every Starligned action.
Action = (PlayCard | MoonBonus | Swap | MoveCard | RotateCard | RotateTelescope | RepeatEffect | ExchangeCard
          | ExchangeWith | RotateHandCard)
