"""Subastral's state and actions: immutable values.

``State`` is a ``NamedTuple`` rather than a frozen dataclass: it is just as immutable, and building
one is about five times cheaper, which matters for simulations that apply millions of actions
(``benchmarks/``). Cards are card kinds (small integers, see ``cards.py``); names are used in every
file, action and event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, NamedTuple

from rules import chance
from rules.protocol import Seat
from rules.records import from_fields

from rules.subastral.cards import END_CARD, Card, CardSet

# Phases: what the seat(s) in ``to_move`` must decide.
PLAY: Final = "play"            # turn step 1: play a hand card onto its cloud
TAKE: Final = "take"            # turn step 2: take every card from another cloud
ORDER: Final = "order"          # several new biomes went to the journal: the taker orders their columns
DISTURB: Final = "disturbance"  # disturbance variant: everyone with a hand card passes one left
OVER: Final = "over"
PHASES = (PLAY, TAKE, ORDER, DISTURB, OVER)

HAND: Final = "hand"
JOURNAL: Final = "journal"
NO_PASS: Final = -1  # in State.passes: this seat has not chosen a card to pass (or passes none)

#: Cards in a zone (deck, cloud, hand, journal column, ...), in the zone's order.
Pile = tuple[Card, ...]
#: A seat's journal: its columns left to right.
Journal = tuple[Pile, ...]
#: One thing an apply did, as ``State.log`` keeps it: ``(kind, seat, cards, cloud, extra)``. ``extra`` is
#: what the kind needs besides: the start seat (``setup``), the receiving seat (``pass``), a round
#: (``turn``, ``end_card``), a column or a count (``column``, ``order``), or a reason in words (``draw``,
#: ``deck_empty``, ``reveal``, ``take``); ``seat`` is ``None`` for no one's events.
Record = tuple[str, Seat | None, Pile, int | None, int | str | None]


class State(NamedTuple):
    """Everything about a Subastral game at one moment; the deck's order included."""

    cards: CardSet
    players: int
    variants: tuple[tuple[str, object], ...]
    #: Remaining deck, top card first; the game-end card is ``END_CARD`` until it is revealed.
    deck: Pile
    #: Clouds 1..6 (index 0..5), each the cards on it in the order they were placed.
    clouds: tuple[Pile, ...]
    #: Each seat's hand, sorted (order in hand carries no information).
    hands: tuple[Pile, ...]
    #: Each seat's journal: columns left to right, each column its cards in order of arrival.
    journals: tuple[Journal, ...]
    start_player: Seat
    #: Whose turn it is (in the disturbance phase: meaningless, see ``passes``).
    seat: Seat
    #: Rounds completed by everyone; a round ends with the seat before the start player.
    round: int
    phase: str
    #: Cloud played on this turn (1..6), 0 before the play.
    played_cloud: int
    #: Cards taken to the journal whose new biomes still wait for a column (phase ORDER).
    pending: Pile
    end_triggered: bool
    #: The round after which the game ends (-1 until the end card is revealed).
    last_round: int
    #: Disturbance variant: the card each seat chose to pass, ``NO_PASS`` if none yet.
    passes: tuple[Card, ...]
    #: The cloud taken this turn (1..6), 0 before the take: the refill's first card goes there (phase
    #: ORDER keeps it while the taker orders the new columns).
    taken_cloud: int
    #: Per seat, sorted: hand cards every player knows are there, because they were taken from a cloud
    #: in view of all (a bonus or empty-hand draw is seen by its drawer only). A played or passed card
    #: of that kind leaves the list, as a watcher would cross it off. ``sample_hidden`` keeps them.
    known: tuple[Pile, ...]
    #: What the last apply did: compact records, turned into Events by ``events()``.
    log: tuple[Record, ...]

    def variant(self, name: str) -> object:
        for key, value in self.variants:
            if key == name:
                return value
        raise KeyError(name)

    def turns_taken(self, seat: Seat) -> int:
        """Turns ``seat`` has finished; everyone has the same number at the end."""
        if self.phase in (DISTURB, OVER):
            return self.round + 1
        order = (seat - self.start_player) % self.players
        return self.round + (1 if order < (self.seat - self.start_player) % self.players else 0)


#: A State from one list or tuple of all its fields in order (``rules.records.from_fields``).
make_state: Final = from_fields(State)


def redeal(state: State, seat: Seat | None, rng: random.Random) -> State:
    """Re-deal the deck (end card kept in place) and every other seat's hand among themselves, but
    for the hand cards everyone saw arrive from a cloud (``State.known``): those stay in their hand.

    Every card out of sight is shuffled, known ones included, and the known ones are then taken out
    (what is left is still in random order): ``rng`` is drawn from exactly as often whatever is
    known, so a bot's later draws do not depend on it."""
    others = [s for s in range(state.players) if s != seat]
    pool: list[Card] = []
    end_at = -1         # where the end card lies in the deck, if it is still there
    for at, k in enumerate(state.deck):
        if k == END_CARD:
            end_at = at
        else:
            pool.append(k)
    for s in others:
        pool.extend(state.hands[s])
    pool.sort()  # a canonical order first: the result depends only on what the seat knows and on rng
    chance.shuffle(rng, pool)
    for s in others:
        for k in state.known[s]:
            pool.remove(k)
    hands = list(state.hands)
    passes = list(state.passes)
    dealt = 0
    for s in others:
        size = len(state.hands[s]) - len(state.known[s])
        hands[s] = tuple(sorted(state.known[s] + tuple(pool[dealt:dealt + size])))
        dealt += size
        if passes[s] != NO_PASS:
            passes[s] = rng.choice(hands[s])
    deck = pool[dealt:]
    deck.reverse()      # the deck is dealt from the end of what is left, the end card kept in its place
    if end_at >= 0:
        deck.insert(end_at, END_CARD)
    # (built as the tuple it is, as rules.py builds states: NamedTuple's _replace is a Python call at
    # every re-deal, and a look-ahead re-deals at almost every decision)
    return make_state((
        state.cards, state.players, state.variants, tuple(deck), state.clouds, tuple(hands), state.journals,
        state.start_player, state.seat, state.round, state.phase, state.played_cloud, state.pending,
        state.end_triggered, state.last_round, tuple(passes), state.taken_cloud, state.known, state.log))


@dataclass(frozen=True, kw_only=True)
class PlayCard:
    """Turn step 1: play ``card`` from hand onto the cloud of its number."""

    card: str

    def __str__(self) -> str:
        return f"play {self.card}"


@dataclass(frozen=True, kw_only=True)
class TakeCloud:
    """Turn step 2: take every card on ``cloud``, into the hand (with a draw) or the journal."""

    cloud: int
    to: str

    def __str__(self) -> str:
        return f"take cloud {self.cloud} to {self.to}"


@dataclass(frozen=True, kw_only=True)
class OpenColumn:
    """Several new biomes arrived in the journal at once: ``biome`` opens the next column."""

    biome: str

    def __str__(self) -> str:
        return f"open a column for {self.biome}"


@dataclass(frozen=True, kw_only=True)
class PassCard:
    """Disturbance variant: pass ``card`` from hand to the left neighbour's journal."""

    card: str

    def __str__(self) -> str:
        return f"pass {self.card} left"


Action = PlayCard | TakeCloud | OpenColumn | PassCard
