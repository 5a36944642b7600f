"""Biome Blitz's legal action lists put together from remembered parts, for speed only: what
``choices.plain_legal_actions`` works out from the rules, the same lists (``tests/rules/biome_blitz/test_biome_blitz_caches.py``,
``test_biome_blitz_fast_switch.py``). ``legal_actions`` here is the engine's; with the switch
``MEMO.enabled`` off it answers ``plain_legal_actions``. The parts are kept in ``caches.py`` by what
they depend on, and the last list handed out is remembered (``MEMO.listed``): ``rules.apply`` takes one of
its very action objects for that very state without checking it again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Final, cast

from rules.biome_blitz.cards import ANIMAL, ECOSYSTEM, PLAIN, RESOURCE, WILD, AnimalCard, Card, CardSet, Deck
from rules.biome_blitz.costs import can_be_attacked, cancel_payment, discover_cost, payments
from rules.biome_blitz.fast.memo import MEMO
from rules.biome_blitz.fast.caches import (
    Caches, CardRecord, HandCache, PairEntry, PairRecord, SeatCache, SlotActions, caches_for, remember,
)
from rules.biome_blitz.state import (
    ACTION, CANCEL, DECK_NAMES, Done, EFFECTIVE_POWER, EMPTY, FORAGE, FRENZY, MARKET, OVER, PEEK, REPLACE, REROLL,
    State, TRADE, TRADES_PER_TURN, TRADE_REPLY, TradeWith, WILD_NOT_A_TYPE, Action, CancelQuestion, Compete, ForagePick,
    FrenzyAttacker, Hand, OfferToAnswer, Pile, Team, TradeAnswer, TradeOffer,
)
from rules.biome_blitz.choices import (
    _ACCEPT, _CANCELS, _FORAGE_PICK, _NO_CARDS, _PEEKS, _REFUSE, _discover_action, _replace_action,
    _REROLLS, _TRADE_WITH_BY, _competes, _explores, _forages, _named, _pair_actions, _trade_actions, _with_take_all,
    plain_legal_actions, to_move,
)
from rules.protocol import Seat



def legal_actions(state: State, seat: Seat) -> list[Action]:
    memo = MEMO
    if not memo.enabled:
        return plain_legal_actions(state, seat)
    phase, turn_seat = state.phase, state.seat
    # (In the three frequent phases ``seat`` equals state.seat, an int: memo.listed names that.)
    if seat == turn_seat:
        if phase == ACTION:     # the commonest question, answered directly
            # (_action_phase, written out: this runs at about every second decision of a playout.)
            before, offered = memo.last_action_phase
            if before is not None and seat == before.seat and _same_but_offers(state, before, seat):
                if (state.trades < TRADES_PER_TURN) == (before.trades < TRADES_PER_TURN):
                    out = [*offered]
                else:
                    out = _offers_gone(state, before, offered)
                    offered = tuple(out)
                    memo.last_action_phase = (state, offered)
            else:
                out = _listing(state, seat)      # a new list: handed out as it is
                offered = tuple(out)
                memo.last_action_phase = (state, offered)
            memo.listed = (state, turn_seat, offered)
            return out
        if phase == TRADE:      # (as _legal_actions, written out: frequent too)
            partner, give, ask = cast(TradeOffer, state.pending)
            hands = state.hands
            offered = _trade_list(hands[seat], give, len(ask) < len(hands[partner]), bool(ask))
            memo.listed = (state, turn_seat, offered)
            return [*offered]
        if phase == FORAGE:
            offered = _second_picks(state.markets[RESOURCE], bool(state.decks[RESOURCE] or state.discards[RESOURCE]))
            memo.listed = (state, turn_seat, offered)
            return [*offered]
    offered = _legal_actions(state, seat)
    if type(seat) is int:
        memo.listed = (state, seat, offered)
    return [*offered]




def _legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    """The actions of every phase (as a tuple)."""
    phase = state.phase
    if phase == FORAGE:         # frequent: to_move is the turn's seat
        if seat != state.seat:
            return ()
        return _second_picks(state.markets[RESOURCE], bool(state.decks[RESOURCE] or state.discards[RESOURCE]))
    if phase == TRADE:          # frequent: to_move is the turn's seat
        if seat != state.seat:
            return ()
        partner, give, ask = cast(TradeOffer, state.pending)
        return _trade_list(state.hands[seat], give, len(ask) < len(state.hands[partner]), bool(ask))
    if phase == OVER or seat not in to_move(state):
        return ()
    cards = state.cards
    if phase == ACTION:
        return _action_phase(state, seat)
    if phase == TRADE_REPLY:
        return _replies(state.hands[seat], cast(OfferToAnswer, state.pending)[3])
    if phase == REPLACE:
        ecosystems = state.ecosystems[seat]
        caches = cards.speed_caches
        found = caches.replaces.get(ecosystems)
        if found is None:
            found = remember(caches.replaces, ecosystems,
                             tuple([_replace_action(ecosystem=cards.ecosystems[k].id) for k in dict.fromkeys(ecosystems)]))
        return found
    if phase == CANCEL:     # "cancel" only in the owner's list, and only when they can pay
        owner, _, defender = cast(CancelQuestion, state.pending)[:3]
        return _CANCELS if cancel_payment(state, defender, owner) else _CANCELS[1:]
    if phase == REROLL:
        return _REROLLS
    if phase == FRENZY:
        attacker = cast(FrenzyAttacker, state.pending)[0]
        return tuple(_competes(state, seat, only=attacker) + [Done()])
    if phase == PEEK:
        return _PEEKS
    return ()


def _trade_list(hand: Hand, give: Hand, can_ask: bool, asked: bool) -> tuple[Action, ...]:
    """The trade phase's actions (``choices._trade_actions``), remembered by all they depend on:
    offers are built a card at a time from few hands."""
    key = (hand, give, can_ask, asked)
    found = _TRADE_LISTS.get(key)
    if found is None:
        made = tuple(_trade_actions(hand, give, can_ask, asked))
        # Few distinct lists: shared, keyed by their actions' ids (each action is made once, in
        # choices.py: hashing the ids costs less than hashing the actions).
        found = remember(_TRADE_LISTS, key, _TRADE_TUPLES.setdefault(tuple(map(id, made)), made))
    return found


# These three remember in plain dicts (``caches.remember``: started over past ``LIMIT`` entries), not
# with ``functools.lru_cache``: compiled code calls an ``lru_cache`` function through the interpreter's
# generic call and its linked list, where it looks a dict up directly. On the benchmark's 4-player MCTS
# position, the lru wrappers were 6.5% of a compiled rollout's time (``perf``) and these lookups are
# 5.4%; callgrind counts 0.7% fewer instructions a rollout. Interpreted, the two cost about the same.
#: The trade phase's lists, by (hand, cards to give, whether it can ask, whether it asked).
_TRADE_LISTS: Final[dict[tuple[Hand, Hand, bool, bool], tuple[Action, ...]]] = {}


#: Each distinct trade list, once (at most 2**6 of them), by its actions' ids.
_TRADE_TUPLES: dict[tuple[int, ...], tuple[Action, ...]] = {}


def _second_picks(market: Pile, deck_has_cards: bool) -> tuple[ForagePick, ...]:
    """A forage's second picks, by the resource market and whether the resource deck or its discards
    hold cards (a few hundred markets at most)."""
    key = (market, deck_has_cards)
    found = _SECOND_PICKS.get(key)
    if found is None:
        picks = [_FORAGE_PICK[i + 1] for i, s in enumerate(market) if s not in (EMPTY, WILD)]
        if deck_has_cards:
            picks.append(_FORAGE_PICK[0])
        found = remember(_SECOND_PICKS, key, tuple(picks))
    return found


#: A forage's second picks, by (resource market, whether its deck or discards hold cards).
_SECOND_PICKS: Final[dict[tuple[Pile, bool], tuple[ForagePick, ...]]] = {}


def _replies(hand: Hand, ask: Hand) -> tuple[TradeAnswer, ...]:
    """The answers to a trade offer asking for ``ask`` (a hand can accept only holding it), remembered:
    few hands and offers."""
    key = (hand, ask)
    found = _REPLIES.get(key)
    if found is None:
        has = all(hand.count(sym) >= ask.count(sym) for sym in set(ask))
        found = remember(_REPLIES, key, (_ACCEPT, _REFUSE) if has else (_REFUSE,))
    return found


#: The answers to an offer, by (the partner's hand, the cards asked for).
_REPLIES: Final[dict[tuple[Hand, Hand], tuple[TradeAnswer, ...]]] = {}


_EVERY_DECK: Final = (1 << len(DECK_NAMES)) - 1     # which decks can be explored, bits by deck: all
def _action_phase(state: State, seat: Seat) -> tuple[Action, ...]:
    """The optional and main actions, put together from remembered parts (see ``rules.biome_blitz.fast.caches``)."""
    before, actions = MEMO.last_action_phase
    if before is not None and seat == before.seat and _same_action_phase(state, before, seat):
        return actions
    actions = tuple(_listing(state, seat))
    MEMO.last_action_phase = (state, actions)
    return actions


def _same_action_phase(state: State, before: State, seat: Seat) -> bool:
    """Has ``seat`` (to move in both) the same action phase list in ``state`` as in ``before``? A
    withdrawn or refused trade offer comes back to the position it left: the same list."""
    return ((state.trades < TRADES_PER_TURN) == (before.trades < TRADES_PER_TURN)
            and _same_but_offers(state, before, seat))


def _same_but_offers(state: State, before: State, seat: Seat) -> bool:
    """Are ``state`` and ``before`` the same to ``seat``'s action phase list but for the trade offers
    left this turn?"""
    # (The fields read at once, by one itemgetter call: cheaper than reading them one by one.)
    return (state.hands[seat] == before.hands[seat] and state.cards is before.cards
            and _LIST_FIELDS(state) == _LIST_FIELDS(before))


#: The fields an action phase list depends on besides the hand and the card set (and the offers left).
_LIST_FIELDS: Final[Callable[[State], tuple[object, ...]]] = itemgetter(
    *map(State._fields.index, ("markets", "teams", "decks", "discards", "players", "variants", "ecosystems")))


def _offers_gone(state: State, before: State, offered: tuple[Action, ...]) -> list[Action]:
    """The action phase list of ``state``, the same as ``before``'s (its list ``offered``) but for the
    trade offers left: when the turn's last offer was made (or withdrawn) since, no TradeWith is
    left; else (seldom) the list is made afresh."""
    if before.trades < TRADES_PER_TURN <= state.trades:
        return [action for action in offered if type(action) is not TradeWith]
    return _listing(state, state.seat)


def _listing(state: State, seat: Seat) -> list[Action]:
    """Explore, Trade, Forage, ForageAll, Discover and Compete actions, in that order, each part
    looked up by what it depends on (``Caches``) and worked out only when new."""
    # (One unpacking of every field: as cheap as an itemgetter of the nine read, interpreted; compiled,
    # it reads them in place, where an itemgetter is a call through the interpreter and a new tuple.)
    (cards, players, variants, _, _, _, decks, discards, markets, hands_of, teams, _, _, _, _, _, _, trades,
     _, _, _, _, _, _) = state
    last = MEMO.last_caches
    if last is not None and cards is last[0]:
        caches = last[1]
    else:
        caches = caches_for(cards)
        MEMO.last_caches = (cards, caches)
    hand = hands_of[seat]
    # The team's keys and compete pairs, by seat and teams: both change seldom, so the seat's last
    # entry is tried first.
    last_seat = caches.last_seats[seat]
    if last_seat is not None and teams == last_seat[0]:
        seat_parts = last_seat[1]
    else:
        # (Remembered by teams alone: its compete pairs judge immunities by printed power. The switch
        # immune_power lists competes apart, below.)
        seat_parts = caches.seats.get((seat, teams)) or _seat_parts(
            state if EFFECTIVE_POWER not in variants else state._replace(variants=()), seat, caches)
        caches.last_seats[seat] = (teams, seat_parts)
    hands = seat_parts.hands
    # What a hand can pay for, by hand (for the team's abilities changing costs): the hand is hashed once.
    hand_parts = hands.get(hand) or caches.hand(hands, hand, lambda hand, cost: _pay_id(caches, hand, cost))
    # Optional actions. Which decks can be explored (bits by deck, an int: cheap to hash): almost
    # always all three (no deck is empty).
    if decks[0] and decks[1] and decks[2]:
        flags = _EVERY_DECK
    else:
        flags = ((1 if decks[0] or discards[0] or markets[0] != _NO_CARDS else 0)
                 | (2 if decks[1] or discards[1] or markets[1] != _NO_CARDS else 0)
                 | (4 if decks[2] or discards[2] or markets[2] != _NO_CARDS else 0))
    explores = hand_parts.explores.get(flags)
    if explores is None:
        explores = _hand_explores(state, seat, caches, seat_parts, hand_parts, flags)
    trade_with = _TRADE_WITH_BY[players][seat] if trades < TRADES_PER_TURN else ()
    # Main actions. Forage: by the resource market, when the deck or its discards hold cards (else rare).
    forages: Sequence[Action] | None
    if decks[RESOURCE] or discards[RESOURCE]:
        forages = caches.forages.get(markets[RESOURCE])
        if forages is None:
            forages = remember(caches.forages, markets[RESOURCE], tuple(_forages(markets[RESOURCE], True)))
    else:
        forages = _forages(markets[RESOURCE], False)
    if seat_parts.keys.takes_all:       # with the team's ForageAll actions (Caches.take_all)
        key = (seat_parts.keys.takes_all, markets[RESOURCE], bool(decks[RESOURCE] or discards[RESOURCE]),
               WILD_NOT_A_TYPE in variants)
        found = caches.take_all.get(key)
        if found is None:
            found = remember(caches.take_all, key, tuple(_with_take_all(state, seat, forages)))
        forages = found
    # Discover, slot by slot: the hand's entry gives each face-up card's actions per slot (MARKET is 3).
    _, animals, ecosystems = hand_parts.discovers
    animal0, animal1, animal2 = markets[ANIMAL]
    kind0, kind1, kind2 = markets[ECOSYSTEM]
    a0, a1, a2, e0, e1, e2 = (animals[animal0], animals[animal1], animals[animal2], ecosystems[kind0], ecosystems[kind1],
                              ecosystems[kind2])
    # (A card new to the hand is worked out alone.)
    if a0 is None:
        a0 = _card_slots(state, seat, caches, seat_parts, hand_parts, ANIMAL, markets[ANIMAL][0])
    if a1 is None:
        a1 = _card_slots(state, seat, caches, seat_parts, hand_parts, ANIMAL, markets[ANIMAL][1])
    if a2 is None:
        a2 = _card_slots(state, seat, caches, seat_parts, hand_parts, ANIMAL, markets[ANIMAL][2])
    if e0 is None:
        e0 = _card_slots(state, seat, caches, seat_parts, hand_parts, ECOSYSTEM, markets[ECOSYSTEM][0])
    if e1 is None:
        e1 = _card_slots(state, seat, caches, seat_parts, hand_parts, ECOSYSTEM, markets[ECOSYSTEM][1])
    if e2 is None:
        e2 = _card_slots(state, seat, caches, seat_parts, hand_parts, ECOSYSTEM, markets[ECOSYSTEM][2])
    # Compete: the pairs' actions by the hand's payments of their battle costs (numbered).
    competes: Sequence[Action] | None
    if EFFECTIVE_POWER in variants and _guarded(teams, seat, caches.guards):
        competes = _competes(state, seat)       # (immunities judge powers that ecosystems change: not remembered)
    elif seat_parts.pairs:
        mask = seat_parts.mask
        pays = hand_parts.masked.get(mask)
        if pays is None:
            pays = caches.masked(hand_parts, mask)
        competes = seat_parts.competes.get(pays)
        if competes is None:
            competes = _seat_competes(cards, caches, seat_parts, hand_parts, pays)
    else:
        competes = ()
    return [*explores, *trade_with, *forages, *a0[0], *a1[1], *a2[2], *e0[0], *e1[1], *e2[2], *competes]


def _seat_parts(state: State, seat: Seat, caches: Caches) -> SeatCache:
    """The seat's new SeatCache: its team's keys and the compete pairs no ability protects, attackers
    in team order, defenders by seat then team order (as ``_competes``)."""
    teams = state.teams
    pairs: list[PairRecord] = []
    mask = 0        # the pairs' battle costs (bits by number)
    for attacker in teams[seat]:
        for other, defenders in enumerate(teams):
            if other != seat:
                mates = len(defenders) > 1
                row = caches.pair_rows[mates][attacker]
                for defender in defenders:
                    record = row[defender]
                    if record is False:
                        record = _pair_record(state, caches, attacker, defender, mates)
                    if record is not None:
                        pairs.append(record)
                        mask |= 1 << record.cost
    return caches.seat(seat, teams, tuple(pairs), mask)


def _guarded(teams: tuple[Team, ...], seat: Seat, guards: frozenset[AnimalCard]) -> bool:
    """Has ``seat`` an attacker and another team a defender whose immunity judges the attacker's power
    (``guards``)? With the switch immune_power at "effective", the remembered pairs (judged by printed
    power) do not hold for such a seat."""
    return bool(teams[seat] and guards) and any(
        not guards.isdisjoint(defenders) for other, defenders in enumerate(teams) if other != seat)


def _seat_competes(cards: CardSet, caches: Caches, seat_parts: SeatCache, hand_parts: HandCache,
                   pays: int) -> tuple[Compete, ...]:
    """The seat's Compete actions for the hand of ``hand_parts``, remembered by the number of its
    payments of the pairs' battle costs, ``pays``."""
    pay_ids = hand_parts.pay_ids
    out: list[Compete] = []
    for pair in seat_parts.pairs:
        pay_id = pay_ids[pair.cost]
        by_pays = pair.by_pays
        found = by_pays.get(pay_id)
        if found is None:
            found = by_pays[pay_id] = _pair_actions(cards, pair.attacker, pair.defender, caches.pays[pay_id])
        out += found
    found = seat_parts.competes[pays] = tuple(out)
    return found


def _hand_explores(state: State, seat: Seat, caches: Caches, seat_parts: SeatCache, hand_parts: HandCache,
                   flags: int) -> tuple[Action, ...]:
    """The hand's Explore actions when the decks ``flags`` (bits by deck) can be explored, remembered
    by the hand's entry. Without explore_cost abilities, they depend only on which plain symbols the
    hand holds twice: shared between hands by that (``Caches.explores``)."""
    found: tuple[Action, ...] | None
    if seat_parts.keys.changes_explore:
        found = tuple(_explores(state, seat, state.hands[seat], flags))
    else:
        counts = hand_parts.counts
        key = (counts[0] >= 2, counts[1] >= 2, counts[2] >= 2, flags)
        found = caches.explores.get(key)
        if found is None:
            found = remember(caches.explores, key, tuple(_explores(state, seat, state.hands[seat], flags)))
    hand_parts.explores[flags] = found
    return found


def _card_slots(state: State, seat: Seat, caches: Caches, seat_parts: SeatCache, hand_parts: HandCache, d: Deck,
                card: Card) -> SlotActions:
    """The Discover actions of ``card`` of deck ``d`` per market slot for the hand of ``hand_parts``
    (remembered there)."""
    # The price depends on the card and the team's cost-changing animals; the payments on the hand's
    # symbol counts, capped at what the price can use: many hands and cards share them.
    records = seat_parts.records[d]
    record = records[card]
    if record is None:
        cost, free, substitute = discover_cost(state, seat, d, card)
        caps = [*cost, sum(cost)]
        for pay, using in substitute.items():
            if pay in PLAIN and using in PLAIN and using != pay:
                caps[using] += cost[pay]
        price = (d, cost, free, tuple(sorted(substitute.items())))
        number = caches.prices.setdefault(price, len(caches.prices))
        record = records[card] = CardRecord(price, number, (caps[0], caps[1], caps[2], caps[3]))
    n0, n1, n2, n3 = hand_parts.counts
    c0, c1, c2, c3 = record.caps
    key = (record.number, n0 if n0 < c0 else c0, n1 if n1 < c1 else c1, n2 if n2 < c2 else c2, n3 if n3 < c3 else c3)
    found = caches.by_price.get(key)
    if found is None:
        _, cost, free, substitutes = record.price
        pays = tuple(map(_named, payments(state.hands[seat], cost, free=free, substitute=dict(substitutes))))
        found = caches.slot_lists.get((d, pays))
        if found is None:
            deck = DECK_NAMES[d]
            found = remember(caches.slot_lists, (d, pays),
                             tuple([tuple([_discover_action(deck=deck, slot=i + 1, pay=pay) for pay in pays])
                                    for i in range(MARKET)]))
        remember(caches.by_price, key, found)
    hand_parts.discovers[d][card] = found
    return found


def _pair_record(state: State, caches: Caches, attacker: AnimalCard, defender: AnimalCard,
                 mates: bool) -> PairRecord | None:
    """The pair's remembered record, or None when an ability protects the defender. What protects it
    depends only on the pair and whether the defender has team ``mates`` (animal cards are unique: its
    owner is the seat whose team lists it)."""
    row: list[PairEntry] | dict[AnimalCard, PairEntry] = caches.pair_rows[mates][attacker]
    found = row[defender]
    if EFFECTIVE_POWER in state.variants:    # (what protects it depends on the teams' ecosystems too)
        found = False
        row = {}
    if found is False:
        allowed = can_be_attacked(state, attacker, defender) is None
        found = row[defender] = PairRecord(caches.battle_cost_of[attacker], attacker, defender) if allowed else None
    return found


def _pay_id(caches: Caches, hand: Hand, cost: int) -> int:
    """The number of the hand's payments (named) of battle cost number ``cost``."""
    return caches.pay_id(tuple(map(_named, payments(hand, caches.battle_costs[cost]))))
