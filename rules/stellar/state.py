"""Stellar's state and actions: immutable values.

``State`` is a ``NamedTuple`` (as in Subastral: as immutable as a frozen dataclass and much cheaper to
build, which matters for simulations). Cards are card kinds (small integers, see ``cards.py``);
names are used in every file, action and event. A telescope is a tuple of twelve slots, each
``EMPTY``, a card kind (face up) or ``face_down(kind)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Final, NamedTuple, Sequence, final

from rules import chance
from rules.protocol import Seat
from rules.records import check_positions, from_fields

# (ROUNDS, ROW_SLOTS, Card and SlotMask: state's names too)
from rules.stellar.cards import ROUNDS as ROUNDS, ROW_SLOTS as ROW_SLOTS, Card as Card, CardSet, SlotMask as SlotMask

# Phases: what the seat(s) in ``to_move`` must decide.
STARTERS: Final = "starters"  # setup: each player puts one starter at the apex, the other in the notebook
TAKE: Final = "take"          # turn phase 1: take a row card into hand
PLAY: Final = "play"          # turn phase 2: play a hand card to the telescope or the notebook
PLACE: Final = "place"        # turn phase 3: the second card goes to the telescope; choose its slot
CLEAR: Final = "clear"        # a satellite was taken from the row: the opponent may clear and refill it
FINAL: Final = "final"        # after round 11: each player puts one hand card into the notebook
OVER: Final = "over"
PHASES = (STARTERS, TAKE, PLAY, PLACE, CLEAR, FINAL, OVER)

#: No card: an empty row or telescope slot, nothing pending, no choice made yet.
EMPTY: Final = -1

#: A telescope slot's content: EMPTY, a card kind (face up) or ``face_down(kind)``.
TelescopeEntry = int
#: What a log record says besides its kind, seat and cards, as its kind has it (``rules.py`` writes
#: it, ``Stellar.events`` reads it): a row slot number ("take", "refill", "second" from the row), a
#: round ("turn"), the start player ("setup"), a count ("reshuffle"), what the empty deck could not
#: give ("deck_empty": "refill" or "second card"), ``(slot index, face down, seen by the others)``
#: ("telescope"); else None.
Detail = int | str | tuple[int, bool, bool] | None
#: One thing an apply did: (kind, the seat it is about or None, the cards it names, its detail).
LogRecord = tuple[str, Seat | None, tuple[Card, ...], Detail]


def face_down(kind: Card) -> TelescopeEntry:
    """The telescope entry of ``kind`` lying face down (number 3, no type, no stars)."""
    return -2 - kind


def is_face_down(entry: TelescopeEntry) -> bool:
    return entry <= -2


def card_of(entry: TelescopeEntry) -> Card:
    """The physical card in a telescope entry (face up or down); EMPTY stays EMPTY."""
    return -2 - entry if entry <= -2 else entry


def without(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` without ``taken`` (a part of it), copy for copy; sorted ``cards`` stay sorted."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


class State(NamedTuple):
    """Everything about a Stellar game at one moment; the deck's order included."""

    cards: CardSet
    players: int
    variants: tuple[tuple[str, object], ...]
    #: The game's seed and how many times the discards were shuffled into a new deck: each
    #: reshuffle draws from ``random.Random(f"stellar:{seed}:{shuffles}")``.
    seed: int
    shuffles: int
    #: Remaining deck, top card first.
    deck: tuple[Card, ...]
    #: Discarded cards (cleared rows, final hand cards), in order; shuffled in when the deck runs out.
    discard: tuple[Card, ...]
    #: Cards out of the game (the fifth starter with the ``fifth_starter_to_box`` switch).
    box: tuple[Card, ...]
    #: Row slots 1..5 (index 0..4): a card kind or EMPTY.
    row: tuple[Card, ...]
    #: Each seat's hand, sorted (order in hand carries no information).
    hands: tuple[tuple[Card, ...], ...]
    #: Setup: each seat's two starter cards until it has placed them.
    starters: tuple[tuple[Card, ...], ...]
    telescopes: tuple[tuple[TelescopeEntry, ...], ...]
    #: Each seat's notebook, sorted; its stacks per type follow from the cards.
    notebooks: tuple[tuple[Card, ...], ...]
    start_player: Seat
    #: Whose turn it is.
    seat: Seat
    #: Rounds completed by both players.
    round: int
    phase: str
    #: The second card of the turn, waiting for its telescope slot (phase PLACE), else EMPTY.
    pending: Card
    #: A satellite was taken from the row this turn (the opponent's clear decision is owed).
    satellite_taken: bool
    #: What the last apply did: compact records, turned into Events by ``events()``.
    log: tuple[LogRecord, ...]
    #: What the other seats know of each seat's hidden cards (every way of knowing in Stellar is
    #: public, so one record serves every other seat): per seat, the hand cards they have not seen
    #: (sorted; a part of the hand): the cards dealt to it, unless a position says otherwise. Every
    #: card taken from the row is seen, so the rest of the hand (``known``) is what they saw taken.
    #: Kept this way round, it changes only when an unseen card is played, not on every take ...
    unseen: tuple[tuple[Card, ...], ...]
    #: ... and the bit mask of the telescope slots whose face-down card they saw in the row.
    known_down: tuple[SlotMask, ...]
    #: The second card waiting in phase PLACE came from the row (everyone saw it), not the deck.
    pending_seen: bool
    #: Simultaneous choices kept secret until every seat has chosen, per seat (else EMPTY): in setup,
    #: the starter for the telescope (the other goes to the notebook); after round 11, the hand card
    #: for the notebook.
    chosen: tuple[Card, ...]

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the hand cards the other seats saw taken from the row (sorted): its hand but
        ``unseen``."""
        return tuple(without(hand, unseen) for hand, unseen in zip(self.hands, self.unseen))

    def variant(self, name: str) -> object:
        for key, value in self.variants:
            if key == name:
                return value
        raise KeyError(name)

    def turns_taken(self, seat: Seat) -> int:
        """Turns ``seat`` has finished; both have the same number at the end."""
        if self.phase in (FINAL, OVER):
            return self.round
        if self.phase == STARTERS:
            return 0
        first = self.seat == self.start_player
        # The other seat of a round in progress has finished its turn when it went first.
        if seat == self.seat:
            return self.round
        return self.round + (0 if first else 1)


#: A State from one list or tuple of all its fields in order (``rules.records.from_fields``).
make_state: Final[Callable[[Sequence[object]], State]] = from_fields(State)


def redeal(state: State, seat: Seat | None, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see among itself: the deck, the box, the other seats' hand
    cards it did not see taken, their starter cards, their face-down cards it did not see in the
    row, a second card drawn from the deck for another seat's telescope, and the other seats'
    secret choices (starter cards and the boxed fifth starter stay starter cards)."""
    others = [s for s in range(state.players) if s != seat]
    hidden = list(state.deck) + list(state.box)
    for s in others:
        hidden.extend(state.unseen[s])
        hidden.extend(state.starters[s])
        hidden.extend(card_of(entry) for i, entry in enumerate(state.telescopes[s])
                      if is_face_down(entry) and not state.known_down[s] >> i & 1)
    hidden_pending = state.pending != EMPTY and not state.pending_seen and state.seat != seat
    if hidden_pending:
        hidden.append(state.pending)
    hidden.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
    chance.shuffle(rng, hidden)
    starter = state.cards.starter
    need = len(state.box) + sum(len(state.starters[s]) for s in others)
    chosen: list[Card] = []
    rest: list[Card] = []
    for k in hidden:
        (chosen if starter[k] and len(chosen) < need else rest).append(k)
    hands, starters, telescopes = list(state.hands), list(state.starters), list(state.telescopes)
    unseen, choices, known = list(state.unseen), list(state.chosen), state.known
    box, chosen = tuple(chosen[:len(state.box)]), chosen[len(state.box):]
    for s in others:
        size = len(state.starters[s])
        starters[s], chosen = tuple(sorted(chosen[:size])), chosen[size:]
        size = len(unseen[s])
        unseen[s], rest = tuple(sorted(rest[:size])), rest[size:]
        hands[s] = tuple(sorted(known[s] + unseen[s]))
        telescope = list(state.telescopes[s])
        for i, entry in enumerate(telescope):
            if is_face_down(entry) and not state.known_down[s] >> i & 1:
                telescope[i], rest = face_down(rest[0]), rest[1:]
        telescopes[s] = tuple(telescope)
        if choices[s] != EMPTY:   # a secret choice: any card of the (re-dealt) pair or hand
            choices[s] = rng.choice(starters[s] if state.phase == STARTERS else hands[s])
    pending = state.pending
    if hidden_pending:
        pending, rest = rest[0], rest[1:]
    # (the fields changed in a list, as rules.py makes states: NamedTuple's _replace is a Python call at
    # every re-deal, and a look-ahead re-deals at almost every decision)
    fields = list(state)
    fields[AT_DECK], fields[AT_BOX], fields[AT_HANDS] = tuple(rest), box, tuple(hands)
    fields[AT_STARTERS], fields[AT_TELESCOPES] = tuple(starters), tuple(telescopes)
    fields[AT_PENDING], fields[AT_UNSEEN] = pending, tuple(unseen)
    fields[AT_CHOSEN], fields[AT_SEED] = tuple(choices), chance.unknown_seed(rng)
    return make_state(fields)


#: Where each field sits in a State, for code that changes a state's fields as a list (``list(state)``)
#: and makes the next state of it (``make_state``): constants, which compiled code reads as the numbers
#: they are (a position looked up by name at import would be a global, looked up at every use).
#: ``check_positions`` holds them to ``State._fields`` when this module loads.
AT_CARDS: Final = 0
AT_PLAYERS: Final = 1
AT_VARIANTS: Final = 2
AT_SEED: Final = 3
AT_SHUFFLES: Final = 4
AT_DECK: Final = 5
AT_DISCARD: Final = 6
AT_BOX: Final = 7
AT_ROW: Final = 8
AT_HANDS: Final = 9
AT_STARTERS: Final = 10
AT_TELESCOPES: Final = 11
AT_NOTEBOOKS: Final = 12
AT_START_PLAYER: Final = 13
AT_SEAT: Final = 14
AT_ROUND: Final = 15
AT_PHASE: Final = 16
AT_PENDING: Final = 17
AT_SATELLITE_TAKEN: Final = 18
AT_LOG: Final = 19
AT_UNSEEN: Final = 20
AT_KNOWN_DOWN: Final = 21
AT_PENDING_SEEN: Final = 22
AT_CHOSEN: Final = 23
check_positions(
    State,
    cards=AT_CARDS, players=AT_PLAYERS, variants=AT_VARIANTS, seed=AT_SEED, shuffles=AT_SHUFFLES, deck=AT_DECK,
    discard=AT_DISCARD, box=AT_BOX, row=AT_ROW, hands=AT_HANDS, starters=AT_STARTERS, telescopes=AT_TELESCOPES,
    notebooks=AT_NOTEBOOKS, start_player=AT_START_PLAYER, seat=AT_SEAT, round=AT_ROUND, phase=AT_PHASE,
    pending=AT_PENDING, satellite_taken=AT_SATELLITE_TAKEN, log=AT_LOG, unseen=AT_UNSEEN, known_down=AT_KNOWN_DOWN,
    pending_seen=AT_PENDING_SEEN, chosen=AT_CHOSEN,
)


@final
@dataclass(frozen=True, kw_only=True)
class ChooseStarters:
    """Setup: put starter ``telescope`` at the telescope's apex and ``notebook`` in the notebook."""

    telescope: str
    notebook: str

    def __str__(self) -> str:
        return f"starters: {self.telescope} to the telescope, {self.notebook} to the notebook"


@final
@dataclass(frozen=True, kw_only=True)
class TakeRowCard:
    """Turn phase 1: take the card under row number ``slot`` into hand."""

    slot: int

    def __str__(self) -> str:
        return f"take row card {self.slot}"


@final
@dataclass(frozen=True, kw_only=True)
class PlayToTelescope:
    """Play ``card`` into telescope ``slot`` (face down only when it fits nowhere face up)."""

    card: str
    slot: str
    face_down: bool = False

    def __str__(self) -> str:
        return f"play {self.card} {'face down ' if self.face_down else ''}to telescope {self.slot}"


@final
@dataclass(frozen=True, kw_only=True)
class PlayToNotebook:
    """Turn phase 2: play hand card ``card`` into the notebook."""

    card: str

    def __str__(self) -> str:
        return f"play {self.card} to the notebook"


@final
@dataclass(frozen=True, kw_only=True)
class ClearRow:
    """The opponent of a player who took a satellite: clear and refill the row, or leave it."""

    clear: bool

    def __str__(self) -> str:
        return "clear the row" if self.clear else "leave the row"


@final
@dataclass(frozen=True, kw_only=True)
class FinalNotebookCard:
    """After round 11: put ``card`` into the notebook; the other hand card is discarded."""

    card: str

    def __str__(self) -> str:
        return f"final card {self.card} to the notebook"


#: Every decision a player makes in Stellar.
Action = ChooseStarters | TakeRowCard | PlayToTelescope | PlayToNotebook | ClearRow | FinalNotebookCard
