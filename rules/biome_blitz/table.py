"""Biome Blitz's working table: a state opened up for one apply (lists where the action changes
things), with the steps the rules take on it (draw, refill, pay, score, end the turn)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from rules.chance import die_by, shuffled_by
from rules.biome_blitz.fast.memo import MEMO
from rules.biome_blitz.cards import RESOURCE, AnimalCard, Card, CardSet, Deck, Symbol
from rules.biome_blitz.state import (
    ACTION, DECK_NAMES, EMPTY, MARKET, OVER, PEEK, WIN_ANIMALS, WIN_POINTS, Ecosystems, Hand, LastCompete, LogEntry,
    PeekSeen, Pending, Pile, State, Team, Variants, make_state,
)
from rules.protocol import Seat

T = TypeVar("T")



class _Table:
    """A working copy of a state for one apply (lists where the action changes things)."""

    # Slots and a single unpacking of the state: one is made for almost every apply.
    __slots__ = ("s", "cards", "players", "seed", "rolls", "shuffles", "decks", "discards", "markets", "hands", "teams",
                 "ecosystems", "points", "seat", "turn", "phase", "pending", "trades", "last_compete", "winner", "log",
                 "known", "peeked", "chance")
    s: State
    cards: CardSet
    players: int
    seed: int
    rolls: int
    shuffles: int
    decks: list[Pile]
    discards: list[Pile]
    markets: list[Pile]
    hands: list[Hand]
    teams: list[Team]
    ecosystems: list[Ecosystems]
    points: list[int]
    seat: Seat
    turn: int
    phase: str
    pending: Pending
    trades: int
    last_compete: LastCompete
    winner: Seat
    log: list[LogEntry]
    known: list[Hand]
    peeked: tuple[PeekSeen, ...]
    chance: str

    def __init__(self, state: State) -> None:
        self.s = state
        (self.cards, self.players, _, self.seed, self.rolls, self.shuffles, decks, discards, markets, hands, teams,
         ecosystems, points, self.seat, self.turn, self.phase, self.pending, self.trades, self.last_compete,
         self.winner, _, known, self.peeked, self.chance) = state
        self.known = list(known)
        self.decks, self.discards, self.markets = list(decks), list(discards), list(markets)
        self.hands, self.teams = list(hands), list(teams)
        self.ecosystems, self.points = list(ecosystems), list(points)
        self.log = []

    def freeze(self) -> State:
        s = self.s
        return make_state((
            self.cards, self.players, s.variants, self.seed, self.rolls, self.shuffles, tuple(self.decks),
            tuple(self.discards), tuple(self.markets), tuple(self.hands), tuple(self.teams), tuple(self.ecosystems),
            tuple(self.points), self.seat, self.turn, self.phase, self.pending, self.trades, self.last_compete,
            self.winner, tuple(self.log), tuple(self.known), self.peeked, self.chance))

    def view(self) -> State:
        return self.freeze()

    @property
    def variants(self) -> Variants:
        return self.s.variants

    # -- decks --------------------------------------------------------------------------------
    def draw(self, d: Deck) -> Card:
        """The top card of deck ``d``; an empty deck is rebuilt from its shuffled discards."""
        if not self.decks[d]:
            if not self.discards[d]:
                return EMPTY
            pile = shuffled_by(self.chance, f"biome_blitz:{self.seed}:shuffle:{self.shuffles}", self.discards[d])
            self.shuffles += 1
            self.decks[d], self.discards[d] = tuple(pile), ()
            self.log.append(("reshuffle", None, (), (d, len(pile))))
        deck = self.decks[d]
        self.decks[d] = deck[1:]
        return deck[0]

    def refill(self, d: Deck) -> None:
        """Fill the empty market slots of deck ``d``; three identical resource symbols are replaced."""
        market = self.markets[d]
        if EMPTY in market:
            slots = list(market)
            for i in range(MARKET):
                if slots[i] == EMPTY:
                    card = slots[i] = self.draw(d)
                    if card != EMPTY:
                        self.log.append(("reveal", None, (d, card), i + 1))
            self.markets[d] = market = tuple(slots)
        # (The check below needs three identical cards, so a cheap look first.)
        if d == RESOURCE and market[0] == market[1] == market[2] != EMPTY:
            guard = sum(self.cards.resource_copies)
            while EMPTY not in self.markets[d] and len(set(self.markets[d])) == 1 and guard > 0:
                guard -= MARKET
                self.log.append(("triple", None, (), self.markets[d][0]))
                self.discards[d] = self.discards[d] + self.markets[d]
                self.markets[d] = (EMPTY,) * MARKET
                self.refill_once(d)

    def refill_once(self, d: Deck) -> None:
        market = list(self.markets[d])
        for i in range(MARKET):
            if market[i] == EMPTY:
                market[i] = self.draw(d)
                if market[i] != EMPTY:
                    self.log.append(("reveal", None, (d, market[i]), i + 1))
        self.markets[d] = tuple(market)

    def forage_pick(self, seat: Seat, slot: int) -> Symbol:
        """A forage pick: the face-up card in ``slot``, or the deck's top (EMPTY when no resource is left:
        nothing is drawn)."""
        if slot:
            card = self.take_from_market(RESOURCE, slot - 1)
            self.log.append(("take", seat, (card,), slot))
            self.give(seat, (card,))
            self.shown(seat, (card,))
            self.refill(RESOURCE)
        else:
            card = self.draw(RESOURCE)
            drawn = (card,) if card != EMPTY else ()
            self.give(seat, drawn)
            self.log.append(("draw", seat, drawn, "forage"))
        return card

    def take_from_market(self, d: Deck, slot: int) -> Card:
        card = self.markets[d][slot]
        self.markets[d] = self.markets[d][:slot] + (EMPTY,) + self.markets[d][slot + 1:]
        return card

    # -- hands and points -----------------------------------------------------------------------
    def give(self, seat: Seat, symbols: Iterable[Symbol]) -> None:
        self.hands[seat] = tuple(sorted(self.hands[seat] + tuple(symbols)))

    def pay(self, seat: Seat, symbols: Hand) -> None:
        self.hands[seat] = _without(self.hands[seat], symbols)
        self.discards[RESOURCE] = self.discards[RESOURCE] + tuple(symbols)
        if self.known[seat]:
            self.known[seat] = known_less(self.known[seat], symbols)

    def shown(self, seat: Seat, symbols: Iterable[Symbol]) -> None:
        """Cards every seat saw go into ``seat``'s hand (taken face up, traded, stolen)."""
        self.known[seat] = self.known[seat] + tuple(symbols)

    def draw_resources(self, seat: Seat, count: int, why: str | tuple[AnimalCard, str]) -> None:
        """``seat`` draws ``count`` resource cards (fewer when the deck and discards run out), for a reason
        the log keeps: ``"forage"``, or the animal and the name of the ability that draws."""
        drawn: list[Symbol] = []
        for _ in range(count):
            card = self.draw(RESOURCE)
            if card == EMPTY:
                break
            drawn.append(card)
        self.give(seat, drawn)
        self.log.append(("draw", seat, tuple(drawn), why))

    def score(self, seat: Seat, stars: int, why: str) -> None:
        self.points[seat] += stars
        self.log.append(("points", seat, (), (stars, why)))

    def check_win(self, seat: Seat) -> bool:
        if self.points[seat] >= WIN_POINTS or len(self.teams[seat]) >= WIN_ANIMALS:
            self.winner = seat
            self.phase = OVER
            self.pending = ()
            self.log.append(("win", seat, (), (self.points[seat], len(self.teams[seat]))))
            return True
        return False

    def roll(self) -> int:
        value = die_by(self.chance, f"biome_blitz:{self.seed}:die:{self.rolls}")
        self.rolls += 1
        return value

    # -- turns --------------------------------------------------------------------------------
    def end_turn(self) -> None:
        if self.check_win(self.seat):
            return
        self.start_turn((self.seat + 1) % self.players)

    def start_turn(self, seat: Seat, *, first: bool = False) -> None:
        """The next turn, with its start-of-turn abilities (take, draw, peek)."""
        self.seat, self.trades = seat, 0
        if not first:
            self.turn += 1
        self.phase, self.pending = ACTION, ()
        self.log.append(("turn", seat, (), self.turn))
        cards = self.cards
        team = self.teams[seat]
        if MEMO.enabled:        # (the speed code knows when the team has no start-of-turn ability)
            caches = cards.speed_caches
            if not (caches.teams.get(team) or caches.team(team)).acts_at_start:
                return
        for animal in team:
            for ability in cards.animals[animal].abilities:
                if ability.trigger == "start_of_turn" and ability.effect == "take_faceup":
                    for _ in range(ability.get("count")):
                        market = self.markets[RESOURCE]
                        if ability.get("symbol") in market:
                            slot = market.index(ability.get("symbol"))
                            card = self.take_from_market(RESOURCE, slot)
                            self.give(seat, (card,))
                            self.shown(seat, (card,))
                            self.log.append(("ability_take", seat, (card,), (animal, slot + 1)))
                            self.refill(RESOURCE)
                elif ability.trigger == "start_of_turn" and ability.effect == "draw":
                    self.draw_resources(seat, ability.get("count"), (animal, ability.name))
                elif ability.effect == "peek" and ability.get("deck") != "choice":
                    self.peek(seat, DECK_NAMES.index(ability.get("deck")), animal)
        if any(ability.effect == "peek" and ability.get("deck") == "choice"
               for animal in self.teams[seat] for ability in cards.animals[animal].abilities):
            self.phase = PEEK

    def peek(self, seat: Seat, d: Deck, animal: AnimalCard) -> None:
        top = self.decks[d][0] if self.decks[d] else EMPTY
        self.log.append(("peek", seat, (d, top), animal))
        self.peeked = noted_peek(self.peeked, seat, d, self.decks, self.shuffles)


def known_less(known: Hand, paid: Iterable[Symbol]) -> Hand:
    """What others know a hand holds after it paid ``paid``: a paid card may have been a known one."""
    rest = [*known]
    for s in paid:
        if s in rest:
            rest.remove(s)
    return tuple(rest) if len(rest) != len(known) else known


def noted_peek(peeked: tuple[PeekSeen, ...], seat: Seat, d: Deck, decks: Sequence[Pile], shuffles: int
               ) -> tuple[PeekSeen, ...]:
    """``peeked`` with ``seat``'s look at the top of deck ``d`` (nothing when it is empty); entries no
    longer true (the card left its deck, or a reshuffle came since) are dropped."""
    kept = tuple(entry for entry in peeked if entry[4] == shuffles and entry[2] < len(decks[entry[1]])
                 and not (entry[0] == seat and entry[1] == d and entry[2] == len(decks[d]) - 1))
    return kept + ((seat, d, len(decks[d]) - 1, decks[d][0], shuffles),) if decks[d] else kept


def _put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with ``value`` at ``index`` (a list between: cheaper than slices joined)."""
    changed = [*values]
    changed[index] = value
    return tuple(changed)


def _without(hand: Hand, symbols: Iterable[Symbol]) -> Hand:
    """``hand`` less one card per symbol of ``symbols`` (a payment; the hand holds them)."""
    rest = list(hand)
    for s in symbols:
        rest.remove(s)
    return tuple(rest)
