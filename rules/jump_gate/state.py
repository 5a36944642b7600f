"""Jump Gate's state and actions: immutable values.

``State`` is a ``NamedTuple`` (cheap to build, as in the other games). Resources and NavComp cards
are kinds (small integers, see ``cards.py``); names appear in every file, action and event.

The ring: ``ring[i]`` is the planet (index into ``Components.planets``) at ring position i; the first
and the last are neighbours. Each ring planet has four resource slots (numbered 1 to 4 at every
boundary): ``resources[i][j]`` is a resource kind or ``EMPTY`` once taken, ``face_up[i][j]`` whether
it shows, ``markers[i][j]`` the seat whose marker is on it or ``NOBODY``. Setup puts three face-down
cards in slots 1-3 and one face-up card in slot 4; a scan turns the lowest face-down slot face up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from rules.protocol import Seat
from rules.records import from_fields

from rules.jump_gate.cards import Components, NavCompKind, PlanetIndex, ResourceKind

# Phases: what the seat(s) in ``to_move`` must decide.
ACTION: Final = "action"          # choose the turn's next action (or pass)
MARK: Final = "mark"              # after a scan: put a marker on a face-up resource of this planet, or not
RESEARCH: Final = "research"      # Research: discard cards one at a time, then draw up to five
CLAIM_TAKE: Final = "claim_take"  # after a claim: a player with a marker on the planet takes that resource or not
CLAIM_PICK: Final = "claim_pick"  # after a claim: the claimer may take one remaining face-up resource
OVER: Final = "over"
PHASES = (ACTION, MARK, RESEARCH, CLAIM_TAKE, CLAIM_PICK, OVER)

EMPTY: Final = -1
NOBODY: Final = -1
GATE: Final = -1           # a ship's position before its first Jump
SLOTS: Final = 4           # resources per planet: 3 face down and 1 face up at setup
FACE_DOWN_AT_SETUP: Final = 3
ACTIONS_PER_TURN: Final = 2
HAND_SIZE: Final = 5
MARKERS: Final = 10
BLACK_HOLE_LIMIT: Final = 7
PLANETS_BY_PLAYERS = {2: 6, 3: 7, 4: 8, 5: 9}
HIDDEN_BY_PLAYERS = {2: 3, 3: 2, 4: 2, 5: 2}

#: A place in the ring: ``ring[i]`` is the planet at ring position i (a ship's position, the focus).
RingPosition = int
#: What a log record says besides its kind, seat and cards, as its kind has it (``rules.py`` writes it,
#: ``JumpGate.events`` reads it): a planet (``PlanetIndex``), a count or a round; or a tuple such as
#: (planet, slot), (planet, NavComp card), (planet, slot, how it was gained), (planet, first, second card).
Detail = int | tuple[int, int] | tuple[int, int, int] | tuple[int, int, str] | None
#: One thing an apply did: (kind, the seat it is about or None, the cards it names, its detail).
LogRecord = tuple[str, Seat | None, tuple[int, ...], Detail]


class State(NamedTuple):
    """Everything about a Jump Gate game at one moment, the decks' order included."""

    comps: Components
    players: int
    variants: tuple[tuple[str, object], ...]
    #: The game's seed and how many times the NavComp discards were shuffled into a new deck: each
    #: reshuffle draws from ``random.Random(f"jump_gate:{seed}:{shuffles}")``.
    seed: int
    shuffles: int
    ring: tuple[PlanetIndex, ...]
    resources: tuple[tuple[ResourceKind, ...], ...]
    face_up: tuple[tuple[bool, ...], ...]
    markers: tuple[tuple[Seat, ...], ...]
    #: Per ring planet: the seat that claimed it, or NOBODY.
    claimed: tuple[Seat, ...]
    #: Per seat: the ring position of its ship, or GATE.
    ships: tuple[RingPosition, ...]
    #: NavComp deck (top first) and discards (in order).
    deck: tuple[NavCompKind, ...]
    discard: tuple[NavCompKind, ...]
    #: Per seat: NavComp hand, sorted.
    hands: tuple[tuple[NavCompKind, ...], ...]
    #: Per seat: the secret resources dealt at setup, sorted.
    hidden: tuple[tuple[ResourceKind, ...], ...]
    #: Resources gained by actions, per seat, sorted.
    gained: tuple[tuple[ResourceKind, ...], ...]
    #: Per seat: markers on the black hole.
    black_hole: tuple[int, ...]
    #: Resource cards set aside unused at setup (nobody sees them).
    unused: tuple[ResourceKind, ...]
    start_player: Seat
    #: Whose turn it is, the rounds completed, and the actions left in this turn.
    seat: Seat
    round: int
    actions_left: int
    phase: str
    #: The ring position an unfinished scan or claim is about (else -1), and, in CLAIM_TAKE, the
    #: seats still to decide whether to take their marked resource (in order, the first decides).
    focus: RingPosition
    waiting: tuple[Seat, ...]
    #: The discards last shuffled into a new NavComp deck, sorted (empty before the first reshuffle).
    #: Every discard is played face up, so everyone knows the deck holds only these cards until the next
    #: reshuffle (``sample_hidden`` keeps it so).
    reshuffled: tuple[NavCompKind, ...]
    #: What the last apply did: compact records turned into Events by ``events()``.
    log: tuple[LogRecord, ...]

    def variant(self, name: str) -> object:
        for key, value in self.variants:
            if key == name:
                return value
        raise KeyError(name)

    def markers_left(self, seat: Seat) -> int:
        """Markers still in ``seat``'s supply: ten, less those on resources, planets and the black hole
        (never below 0: a black-hole marker is placed even from an empty supply, see ``rules.py``)."""
        used = self.claimed.count(seat) + self.black_hole[seat]
        for row in self.markers:
            used += row.count(seat)
        return max(0, MARKERS - used)

    def black_hole_total(self) -> int:
        return sum(self.black_hole)

    def lost_hidden(self) -> tuple[Seat, ...]:
        """Seats that lose their hidden resources: with 7 or more black-hole markers, those with the most."""
        if sum(self.black_hole) < BLACK_HOLE_LIMIT:
            return ()
        most = max(self.black_hole)
        return tuple(s for s in range(self.players) if self.black_hole[s] == most)

    def turns_taken(self, seat: Seat) -> int:
        """Turns ``seat`` has finished (a finished round leaves ``seat`` at the start player)."""
        order = (seat - self.start_player) % self.players
        current = (self.seat - self.start_player) % self.players
        return self.round + (1 if order < current else 0)


#: A State from one list or tuple of all its fields in order (``rules.records.from_fields``).
make_state: Final = from_fields(State)


@dataclass(frozen=True, kw_only=True)
class Fly:
    """Fly (free): move your ship to a neighbouring planet of the ring."""

    planet: str

    def __str__(self) -> str:
        return f"fly to {self.planet}"


@dataclass(frozen=True, kw_only=True)
class Jump:
    """Jump: discard ``card``, whose jump code matches ``planet``'s, and move your ship there."""

    card: str
    planet: str

    def __str__(self) -> str:
        return f"jump to {self.planet} with {self.card}"


@dataclass(frozen=True, kw_only=True)
class Scan:
    """Scan the planet your ship is at: discard ``card`` (matching its scan code), reveal a resource."""

    card: str

    def __str__(self) -> str:
        return f"scan with {self.card}"


@dataclass(frozen=True, kw_only=True)
class Mark:
    """After a scan: put a marker on the resource in ``slot`` (1-4), or none (``slot=None``)."""

    slot: int | None

    def __str__(self) -> str:
        return "no marker" if self.slot is None else f"marker on resource {self.slot}"


@dataclass(frozen=True, kw_only=True)
class LandClaim:
    """Land & Claim the planet your ship is at with two cards matching its land code."""

    cards: tuple[str, str]

    def __str__(self) -> str:
        return f"land & claim with {self.cards[0]} and {self.cards[1]}"


@dataclass(frozen=True, kw_only=True)
class TakeMarked:
    """After a claim: take the resource your marker is on (``take``), or leave it; the marker returns."""

    take: bool

    def __str__(self) -> str:
        return "take the marked resource" if self.take else "leave the marked resource"


@dataclass(frozen=True, kw_only=True)
class ClaimPick:
    """After a claim: the claimer takes the face-up resource in ``slot``, or none (``slot=None``)."""

    slot: int | None

    def __str__(self) -> str:
        return "take nothing more" if self.slot is None else f"take resource {self.slot}"


@dataclass(frozen=True, kw_only=True)
class Harvest:
    """Harvest: discard any ``card`` and take the resource in ``slot`` at your ship's planet."""

    card: str
    slot: int

    def __str__(self) -> str:
        return f"harvest resource {self.slot} with {self.card}"


@dataclass(frozen=True, kw_only=True)
class Research:
    """Research: start discarding (0 to 5 cards, one ``Discard`` each), then ``Draw`` up to five."""

    def __str__(self) -> str:
        return "research"


@dataclass(frozen=True, kw_only=True)
class Discard:
    """Research: discard ``card``."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, kw_only=True)
class Draw:
    """Research: stop discarding and draw up to five cards."""

    def __str__(self) -> str:
        return "draw up to five"


@dataclass(frozen=True, kw_only=True)
class Pass:
    """End the turn now, leaving its remaining actions unused."""

    def __str__(self) -> str:
        return "pass (end the turn)"


Action = Fly | Jump | Scan | Mark | LandClaim | TakeMarked | ClaimPick | Harvest | Research | Discard | Draw | Pass
