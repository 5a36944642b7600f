"""Biome Blitz's turn: setup, legal actions, their effects and the ability vocabulary at work.

Follows ``biome-blitz.ja.txt`` (セットアップ, オプションのアクション, メインアクション, 対戦の例, 勝利) as read
by RULINGS.md Biome Blitz 1-6 and CARD-DATA-RESEARCH.md 3.3. What the texts leave open is decided
here, each with its reason:
- The start player is drawn at random (the text's "last to see a bird" is not a seedable rule).
- A wild card pays any one resource but never counts as a specific symbol: it cannot pay Explore's
  two identical cards, be stolen as meat, or pay an ability's "1 water" (RULINGS 1).
- Trade is built as decisions: choose a partner, add cards to give and to ask for, then propose;
  the partner accepts (only when holding what is asked) or refuses. At most three offers a turn,
  so a turn always ends (a ruling of ours; the text sets no number).
- Forage: each pick comes from the market (refilled at once) or the deck's top; a face-up wild only
  as the first pick, and it ends the forage. Three identical face-up symbols are discarded and
  replaced, checked after every refill (RULINGS 2).
- Discover pays the exact cost; ecosystems give their stars too. Only the discovered card's own
  discover abilities and abilities that watch "another animal" fire.
- Compete: the battle cost is paid first; the dice are rolled with a seeded generator; rerolls with a
  fixed result (``on``) happen by themselves, others are the owner's choice, the attacker's first.
  A defender with ``win_on_roll`` wins on those attack rolls before totals are compared; otherwise
  attack = roll + power, defence = roll + defence, ties to the attacker (the rules' example). Each
  ecosystem card a player holds whose symbol matches an animal adds its power and defence bonus.
- After a defeat: the winner scores the defeated animal's stars, then "defeated" abilities fire (of
  the defeated animal, and "any animal" ones of animals still in play), then the attacker's
  "after winning" abilities.
- The game ends at once when a player has 30 points or five animals, checked after every action.
- An empty deck is rebuilt from its shuffled discards (seeded); when both are empty, nothing is drawn.

Speed (random playouts call this engine most; none of it changes a result): the action phase's list
is put together from parts remembered in ``caches.py``; ``apply`` takes an action object that
``legal_actions`` has just handed out for the very same state without checking it again
(``_listed``); forage picks, Explore, Discover, Compete and trade offers, the most frequent moves, build
their new state directly in the usual case (with ``quick.py``'s helpers for draw abilities, the turn's
end and start-of-turn abilities) and leave anything unusual to ``_Table``.
"""

from __future__ import annotations

import random
from collections import Counter

from rules.chance import die, seeded, shuffled
from rules.biome_blitz.caches import LIMIT, Caches, CardRecord, PairRecord, SeatCache, caches_for, remember
from rules.biome_blitz.cards import PLAIN, SYMBOLS, WILD, CardSet
from rules.biome_blitz import quick
from rules.biome_blitz.state import (
    ACTION, CANCEL, DECK_NAMES, EMPTY, FORAGE, FRENZY, HAND_AT_START, MARKET, MAX_ECOSYSTEMS, NOBODY, OVER, PEEK,
    REPLACE, REROLL, TRADE, TRADE_REPLY, TRADES_PER_TURN, WIN_ANIMALS, WIN_POINTS,
    CancelCompete, Compete, Discover, Done, Explore, Forage, ForageAll, ForagePick, Peek, Replace, Reroll, State,
    TradeAnswer, TradeAsk, TradeCancel, TradeGive, TradePropose, TradeWith,
)
from rules.protocol import IllegalAction, InvalidPosition

RESOURCE, ANIMAL, ECOSYSTEM = range(3)

RULE_TURN = "turn order: players take turns clockwise; only the player named to move acts"
RULE_MAIN = "your turn: optional actions (Explore, Trade) any number of times, then one main action"
RULE_EXPLORE = "Explore: pay two identical resources (leaf, water or meat) to replace one deck's face-up cards"
RULE_TRADE = "Trade: on your turn, resource cards only, and only if the other player agrees"
RULE_FORAGE = "Forage: take two resources, face up (refilled at once) or from the deck; a face-up wild only first, and it ends the forage"
RULE_DISCOVER = "Discover: pay the card's exact cost (a wild is any one resource), gain its stars, refill"
RULE_ECOSYSTEMS = "ecosystems: at most three; a fourth replaces one of them"
RULE_COMPETE = "Compete: pay the battle cost, pick an animal of another team, both roll; ties go to the attacker"
RULE_ABILITY = "animal abilities (the card's text)"
RULE_OVER = "victory: 30 points or five animals ends the game"


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def _illegal(reason: str, rule: str):
    raise IllegalAction(reason, rule=rule)


# -- setup ---------------------------------------------------------------------------------------
def new_state(cards: CardSet, players: int, seed: int, variants: tuple) -> State:
    rng = seeded(seed) if type(seed) is int else random.Random(seed)
    resources = [s for s in range(4) for _ in range(cards.resource_copies[s])]
    animals = list(range(len(cards.animals)))
    ecosystems = [k for k, n in enumerate(cards.ecosystem_copies) for _ in range(n)]
    for deck in (resources, animals, ecosystems):
        rng.shuffle(deck)
    if len(resources) < HAND_AT_START * players + MARKET:
        raise InvalidPosition(f"{len(resources)} resource cards cannot deal {HAND_AT_START} to {players} players and a market",
                              where="cards")
    start = rng.randrange(players)
    table = _Table.__new__(_Table)
    table.s = None
    table.cards, table.seed, table.players = cards, seed, players
    table.rolls = table.shuffles = 0
    table.decks = [tuple(resources), tuple(animals), tuple(ecosystems)]
    table.discards = [(), (), ()]
    table.markets = [(EMPTY,) * MARKET] * 3
    table.hands = [() for _ in range(players)]
    table.log = [("setup", None, (), start)]
    for d in range(3):
        table.refill(d)
    for seat in range(players):
        drawn = [table.draw(RESOURCE) for _ in range(HAND_AT_START)]
        table.hands[seat] = tuple(sorted(drawn))
    state = State(
        cards=cards, players=players, variants=variants, seed=seed, rolls=0, shuffles=table.shuffles,
        decks=tuple(table.decks), discards=tuple(table.discards), markets=tuple(table.markets), hands=tuple(table.hands),
        teams=((),) * players, ecosystems=((),) * players, points=(0,) * players, seat=start, turn=0, phase=ACTION,
        pending=(), trades=0, last_compete=(), winner=NOBODY, log=tuple(table.log))
    table = _Table(state)
    table.start_turn(start, first=True)
    return table.freeze()


# -- who acts ------------------------------------------------------------------------------------
def to_move(state: State) -> tuple[int, ...]:
    phase = state.phase
    if phase == ACTION or phase == FORAGE or phase == TRADE:    # most decisions: asked first
        return (state.seat,)
    if phase == OVER:
        return ()
    if phase == TRADE_REPLY or phase == CANCEL or phase == REROLL:
        return (state.pending[0],)
    return (state.seat,)


# -- costs and payments --------------------------------------------------------------------------
def abilities(state: State, seat: int, effect: str):
    """(animal, ability) for each ability with ``effect`` in ``seat``'s team."""
    animals = state.cards.animals
    for a in state.teams[seat]:
        for ability in animals[a].abilities:
            if ability.effect == effect:
                yield a, ability


def payments(hand: tuple[int, ...], cost: tuple[int, int, int], *, free: int = 0,
             substitute: dict[int, int] | None = None) -> list[tuple[int, ...]]:
    """Every distinct multiset of hand cards that pays ``cost`` exactly: each unit by its own symbol,
    a wild, or a substitute symbol; ``free`` units of any symbols may be left unpaid (a discount).

    >>> payments((0, 0, 3), (2, 0, 0))   # two leaf: leaf+leaf, or leaf+wild
    [(0, 0), (0, 3)]
    >>> payments((1, 3), (0, 1, 0), substitute={1: 0})
    [(1,), (3,)]
    """
    # A payment uses at most sum(cost) cards of one symbol, so larger counts give the same answers:
    # capping them lets many more hands share one remembered answer.
    most = cost[0] + cost[1] + cost[2]
    have = (min(hand.count(0), most), min(hand.count(1), most), min(hand.count(2), most), min(hand.count(3), most))
    key = (have, cost, free, tuple(sorted((substitute or {}).items())))
    found = _PAYMENTS.get(key)
    if found is None:
        if len(_PAYMENTS) > 50000:
            _PAYMENTS.clear()
        found = _PAYMENTS[key] = _payments(have, cost, free, substitute)
    return found


#: payments' answers by (symbol counts in hand, cost, free, substitutes): hands repeat a lot.
_PAYMENTS: dict = {}


def _payments(counts: tuple[int, int, int, int], cost: tuple[int, int, int], free: int,
              substitute: dict[int, int] | None) -> list[tuple[int, ...]]:
    if not free and not substitute:
        # Each symbol's units are paid by that symbol or by wilds: choose the wilds per symbol.
        out = []
        c0, c1, c2 = cost
        wild = counts[WILD]
        for w0 in range(max(0, c0 - counts[0]), min(c0, wild) + 1):
            for w1 in range(max(0, c1 - counts[1]), min(c1, wild - w0) + 1):
                for w2 in range(max(0, c2 - counts[2]), min(c2, wild - w0 - w1) + 1):
                    out.append((0,) * (c0 - w0) + (1,) * (c1 - w1) + (2,) * (c2 - w2) + (WILD,) * (w0 + w1 + w2))
        return sorted(out)
    have = Counter({s: n for s, n in enumerate(counts) if n})
    needs = [s for s in PLAIN for _ in range(cost[s])]
    results = set()
    _pay_units(needs, have, substitute or {}, results, 0, Counter(), (), min(free, len(needs)))
    return sorted(results)


def _pay_units(needs: list, have: Counter, substitute: dict, results: set, index: int, used: Counter, paid: tuple,
               skips: int) -> None:
    """Add to ``results`` every way to pay ``needs[index:]`` (a unit each) from ``have`` less ``used``,
    ``skips`` units left unpaid (a discount, taken in full)."""
    if index == len(needs):
        if not skips:
            results.add(tuple(sorted(paid)))
        return
    need = needs[index]
    if skips:
        _pay_units(needs, have, substitute, results, index + 1, used, paid, skips - 1)
    for payer in {need, WILD, substitute.get(need, need)}:
        if used[payer] < have[payer]:
            used[payer] += 1
            _pay_units(needs, have, substitute, results, index + 1, used, paid + (payer,), skips)
            used[payer] -= 1


def discover_cost(state: State, seat: int, deck: int, card: int) -> tuple[tuple[int, int, int], int, dict]:
    """The cost of discovering ``card`` for ``seat`` after its abilities: (cost, free units, substitutes)."""
    cards = state.cards
    target = "animal" if deck == ANIMAL else "ecosystem"
    cost = list(cards.animals[card].cost if deck == ANIMAL else cards.ecosystems[card].cost)
    free = 0
    for _, ability in abilities(state, seat, "discount"):
        if ability.get("target") not in ("any", target):
            continue
        s = ability.get("symbol")
        if s is None:
            free += ability.get("amount")
        else:
            cost[s] = max(0, cost[s] - ability.get("amount"))
    substitute = {ability.get("pay"): ability.get("using") for _, ability in abilities(state, seat, "substitute")}
    return tuple(cost), free, substitute


def _names(symbols: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(SYMBOLS[s] for s in symbols)


# -- compete helpers -----------------------------------------------------------------------------
def eco_bonus(state: State, seat: int, animal: int) -> tuple[int, int]:
    """Power and defence the seat's ecosystems give ``animal`` (each matching ecosystem card counts)."""
    cards = state.cards
    eco = cards.animals[animal].ecosystem
    power = defence = 0
    for kind in state.ecosystems[seat]:
        if cards.ecosystems[kind].id == eco:
            power += cards.ecosystems[kind].power
            defence += cards.ecosystems[kind].defence
    return power, defence


def can_be_attacked(state: State, attacker: int, defender: int) -> str | None:
    """Why ``defender`` cannot be chosen against ``attacker`` (a prevent ability), or None."""
    cards = state.cards
    owner = state.owner(defender)
    for ability in cards.animals[defender].with_effect("immune"):
        limit = ability.get("max_attacker_power")
        if limit is not None and cards.animals[attacker].power <= limit:
            return f"{cards.animals[defender].name}'s {ability.name}: no attacker with power {limit} or less"
        if ability.get("while_other_animals") and len(state.teams[owner]) > 1:
            return f"{cards.animals[defender].name}'s {ability.name}: not while its team has another animal"
    return None


def attack_total(state: State, seat: int, attacker: int, defender: int, roll: int) -> int:
    cards = state.cards
    animal = cards.animals[attacker]
    total = roll + animal.power + eco_bonus(state, seat, attacker)[0]
    for ability in animal.abilities:
        if ability.effect != "power":
            continue
        if ability.get("vs_stars_at_least") is not None and cards.animals[defender].stars < ability.get("vs_stars_at_least"):
            continue
        if ability.get("on_roll") is not None and roll != ability.get("on_roll"):
            continue
        family = ability.get("per_family")
        if family is not None:
            others = sum(1 for a in state.teams[seat] if a != attacker and cards.animals[a].family == family)
            total += ability.get("amount") * others
        else:
            total += ability.get("amount")
    return total


def defence_total(state: State, seat: int, defender: int, attacker: int, roll: int) -> int:
    cards = state.cards
    animal = cards.animals[defender]
    total = roll + animal.defence + eco_bonus(state, seat, defender)[1]
    for ability in animal.with_effect("defence"):
        family = ability.get("vs_family")
        if family is None or cards.animals[attacker].family == family:
            total += ability.get("amount")
    return total


def reroll_ability(state: State, animal: int, side: str, *, automatic: bool):
    """The animal's reroll ability usable on ``side`` (automatic = with fixed results), or None."""
    for ability in state.cards.animals[animal].with_effect("reroll"):
        if ability.get("side") in (side, "any") and (ability.get("on") is not None) == automatic:
            return ability
    return None


# -- legal actions -------------------------------------------------------------------------------
def legal_actions(state: State, seat: int) -> list:
    global _listed, _last_action_phase
    phase = state.phase
    if phase == ACTION and seat == state.seat:     # the commonest question, answered directly
        # (_action_phase, written out: this runs at about every second decision of a playout.)
        before, offered = _last_action_phase
        if before is None or seat != before.seat or not _same_action_phase(state, before, seat):
            out = _listing(state, seat)      # a new list: handed out as it is
            offered = tuple(out)
            _last_action_phase = (state, offered)
        else:
            out = [*offered]
    elif phase == FORAGE and seat == state.seat:     # (as _legal_actions, written out: frequent too)
        key = (state.markets[RESOURCE], bool(state.decks[RESOURCE] or state.discards[RESOURCE]))
        offered = _SECOND_PICKS.get(key) or _legal_actions(state, seat)
        out = [*offered]
    elif phase == TRADE and seat == state.seat:
        partner, give, ask = state.pending
        key = (state.hands[seat], give, len(ask) < len(state.hands[partner]), bool(ask))
        offered = _TRADE_LISTS.get(key) or _legal_actions(state, seat)
        out = [*offered]
    else:
        offered = _legal_actions(state, seat)
        out = [*offered]
    if type(seat) is int:
        _listed = (state, seat, offered)
    return out


#: (state, seat, actions) of the last legal_actions call: apply takes one of these very objects for
#: that very state without checking it again (a playout applies what it was just offered). A tuple,
#: so a caller changing the list it got cannot smuggle an action in.
_listed: tuple = (None, None, ())


def _legal_actions(state: State, seat: int) -> tuple:
    """The actions of every phase (as a tuple)."""
    phase = state.phase
    if phase == FORAGE:         # frequent: to_move is the turn's seat
        if seat != state.seat:
            return ()
        key = (state.markets[RESOURCE], bool(state.decks[RESOURCE] or state.discards[RESOURCE]))
        found = _SECOND_PICKS.get(key)      # a few hundred markets at most
        if found is None:
            market, deck_has_cards = key
            found = [_FORAGE_PICK[i + 1] for i, s in enumerate(market) if s not in (EMPTY, WILD)]
            if deck_has_cards:
                found.append(_FORAGE_PICK[0])
            found = _SECOND_PICKS[key] = tuple(found)
        return found
    if phase == TRADE:          # frequent: to_move is the turn's seat
        if seat != state.seat:
            return ()
        partner, give, ask = state.pending
        hand = state.hands[seat]
        # Remembered by all the list depends on: offers are built a card at a time from few hands.
        key = (hand, give, len(ask) < len(state.hands[partner]), bool(ask))
        found = _TRADE_LISTS.get(key)
        if found is None:
            if len(_TRADE_LISTS) > 100000:
                _TRADE_LISTS.clear()
            found = _TRADE_LISTS[key] = tuple(_trade_actions(hand, *key[1:]))
        return found
    if phase == OVER or seat not in to_move(state):
        return ()
    cards = state.cards
    if phase == ACTION:
        return _action_phase(state, seat)
    if phase == TRADE_REPLY:
        _, asker, give, ask = state.pending
        hand = state.hands[seat]
        key = (hand, ask)       # remembered: few hands and offers
        found = _REPLIES.get(key)
        if found is None:
            has = all(hand.count(sym) >= ask.count(sym) for sym in set(ask))
            found = remember(_REPLIES, key, (_ACCEPT, _REFUSE) if has else (_REFUSE,))
        return found
    if phase == REPLACE:
        return tuple([_REPLACE[(("ecosystem", cards.ecosystems[k].id),)] for k in dict.fromkeys(state.ecosystems[seat])])
    if phase == CANCEL:
        return (CancelCompete(cancel=True), CancelCompete(cancel=False))
    if phase == REROLL:
        return (Reroll(reroll=True), Reroll(reroll=False))
    if phase == FRENZY:
        attacker = state.pending[0]
        return tuple(_competes(state, seat, only=attacker) + [Done()])
    if phase == PEEK:
        return tuple([Peek(deck=name) for name in DECK_NAMES])
    return ()


def _trade_actions(hand: tuple[int, ...], give: tuple[int, ...], can_ask: bool, asked: bool) -> list:
    out = [_GIVE[sym] for sym in range(4) if hand.count(sym) > give.count(sym)]
    if can_ask:
        out += _ASK
    if give or asked:
        out.append(_PROPOSE)
    out.append(_CANCEL_TRADE)
    return out


_TRADE_LISTS: dict = {}
_SECOND_PICKS: dict = {}
_REPLIES: dict = {}     # (hand, cards asked for) -> the answers


class _Made(dict):
    """Action objects by their fields, made once: legal_actions hands out the same objects each time."""

    def __init__(self, cls):
        super().__init__()
        self.cls = cls

    def __missing__(self, key):
        if len(self) > 100000:
            self.clear()
        action = self[key] = self.cls(**dict(key))
        return action


_EXPLORE, _DISCOVER, _COMPETE, _REPLACE = _Made(Explore), _Made(Discover), _Made(Compete), _Made(Replace)
_GIVE = tuple(TradeGive(symbol=name) for name in SYMBOLS)
_ASK = tuple(TradeAsk(symbol=name) for name in SYMBOLS)
_PROPOSE, _CANCEL_TRADE = TradePropose(), TradeCancel()
_ACCEPT, _REFUSE = TradeAnswer(accept=True), TradeAnswer(accept=False)
_FORAGE = tuple(Forage(slot=i) for i in range(MARKET + 1))
_FORAGE_PICK = tuple(ForagePick(slot=i) for i in range(MARKET + 1))
_TRADE_WITH = tuple(TradeWith(seat=s) for s in range(6))
_TRADE_WITH_OTHERS = {(players, seat): tuple(_TRADE_WITH[s] for s in range(players) if s != seat)
                      for players in range(1, 7) for seat in range(players)}
#: The same by players, then seat (indexing needs no hashing).
_TRADE_WITH_BY = ((),) + tuple(tuple(_TRADE_WITH_OTHERS[players, seat] for seat in range(players))
                               for players in range(1, 7))
_NO_CARDS = (EMPTY,) * MARKET
_EVERY_DECK = (True,) * len(DECK_NAMES)
_NAMES: dict = {}


def _named(pay: tuple[int, ...]) -> tuple[str, ...]:
    found = _NAMES.get(pay)
    if found is None:
        found = _NAMES[pay] = tuple(SYMBOLS[s] for s in pay)
    return found


def _action_phase(state: State, seat: int) -> tuple:
    """The optional and main actions, put together from remembered parts (see ``rules.biome_blitz.caches``)."""
    global _last_action_phase
    before, actions = _last_action_phase
    if before is not None and seat == before.seat and _same_action_phase(state, before, seat):
        return actions
    actions = tuple(_listing(state, seat))
    _last_action_phase = (state, actions)
    return actions


def _same_action_phase(state: State, before: State, seat: int) -> bool:
    """Has ``seat`` (to move in both) the same action phase list in ``state`` as in ``before``? A
    withdrawn or refused trade offer comes back to the position it left: the same list."""
    return (state.hands[seat] == before.hands[seat] and state.markets == before.markets and state.teams == before.teams
            and state.cards is before.cards and (state.trades < TRADES_PER_TURN) == (before.trades < TRADES_PER_TURN)
            and state.decks == before.decks and state.discards == before.discards and state.players == before.players)


#: (state, its action list) of the last action phase listed; see _action_phase.
_last_action_phase: tuple = (None, ())


def _listing(state: State, seat: int) -> list:
    """Explore, Trade, Forage, ForageAll, Discover and Compete actions, in that order, each part
    looked up by what it depends on (``Caches``) and worked out only when new."""
    cards = state.cards
    caches = cards.__dict__.get("_caches") or caches_for(cards)
    hand = state.hands[seat]
    # The team's keys and compete pairs, by seat and teams: both change seldom, so the seat's last
    # entry is tried first.
    teams = state.teams
    last_teams, seat_parts = caches.last_seats[seat]
    if teams != last_teams:
        seat_parts = caches.seats.get((seat, teams)) or _seat_parts(state, seat, caches)
        caches.last_seats[seat] = (teams, seat_parts)
    hands = seat_parts.hands
    # What a hand can pay for, by hand (for the team's abilities changing costs): the hand is hashed once.
    hand_parts = hands.get(hand) or caches.hand(hands, hand, lambda hand, cost: _pay_id(caches, hand, cost))
    decks, discards, markets = state.decks, state.discards, state.markets
    # Optional actions. Which decks can be explored: almost always all three (no deck is empty).
    if decks[0] and decks[1] and decks[2]:
        flags = _EVERY_DECK
    else:
        flags = (bool(decks[0] or discards[0]) or markets[0] != _NO_CARDS,
                 bool(decks[1] or discards[1]) or markets[1] != _NO_CARDS,
                 bool(decks[2] or discards[2]) or markets[2] != _NO_CARDS)
    explores = hand_parts.explores.get(flags)
    if explores is None:
        explores = _hand_explores(state, seat, caches, seat_parts, hand_parts, flags)
    trades = _TRADE_WITH_BY[state.players][seat] if state.trades < TRADES_PER_TURN else ()
    # Main actions. Forage: by the resource market, when the deck or its discards hold cards (else rare).
    if decks[RESOURCE] or discards[RESOURCE]:
        forages = caches.forages.get(markets[RESOURCE])
        if forages is None:
            forages = remember(caches.forages, markets[RESOURCE], _forages(markets[RESOURCE], True))
    else:
        forages = _forages(markets[RESOURCE], False)
    if seat_parts.keys.takes_all:
        forages = [*forages]
        for animal, ability in abilities(state, seat, "take_all_faceup"):
            if _take_all(state, ability):
                forages.append(ForageAll(animal=cards.animal_ids[animal]))
    # Discover, slot by slot: the hand's entry gives each face-up card's actions per slot (MARKET is 3).
    _, animals, ecosystems = hand_parts.discovers
    a0, a1, a2 = markets[ANIMAL]
    e0, e1, e2 = markets[ECOSYSTEM]
    a0, a1, a2, e0, e1, e2 = animals[a0], animals[a1], animals[a2], ecosystems[e0], ecosystems[e1], ecosystems[e2]
    if a0 is None or a1 is None or a2 is None or e0 is None or e1 is None or e2 is None:
        a0, a1, a2, e0, e1, e2 = [found or _card_slots(state, seat, caches, seat_parts, hand_parts, d, markets[d][i])
                                  for found, d, i in ((a0, ANIMAL, 0), (a1, ANIMAL, 1), (a2, ANIMAL, 2),
                                                      (e0, ECOSYSTEM, 0), (e1, ECOSYSTEM, 1), (e2, ECOSYSTEM, 2))]
    # Compete: the pairs' actions by the hand's payments of their battle costs (numbered).
    if seat_parts.pairs:
        mask = seat_parts.mask
        pays = hand_parts.masked.get(mask)
        if pays is None:
            pays = caches.masked(hand_parts, mask)
        competes = seat_parts.competes.get(pays)
        if competes is None:
            competes = _seat_competes(cards, caches, seat_parts, hand_parts, pays)
    else:
        competes = ()
    return [*explores, *trades, *forages, *a0[0], *a1[1], *a2[2], *e0[0], *e1[1], *e2[2], *competes]


def _seat_parts(state: State, seat: int, caches: Caches) -> SeatCache:
    """The seat's new SeatCache: its team's keys and the compete pairs no ability protects, attackers
    in team order, defenders by seat then team order (as ``_competes``)."""
    teams = state.teams
    records = caches.pairs
    pairs = []
    for attacker in teams[seat]:
        for other, defenders in enumerate(teams):
            if other != seat:
                mates = len(defenders) > 1
                for defender in defenders:
                    record = records.get((attacker, defender, mates), False)
                    if record is False:
                        record = _pair_record(state, caches, attacker, defender, mates)
                    if record is not None:
                        pairs.append(record)
    return caches.seat(seat, teams, tuple(pairs))


def _seat_competes(cards: CardSet, caches: Caches, seat_parts: SeatCache, hand_parts, pays: int) -> tuple:
    """The seat's Compete actions for the hand of ``hand_parts``, remembered by the number of its
    payments of the pairs' battle costs, ``pays``."""
    pay_ids = hand_parts.pay_ids
    out = []
    for cost, by_pays, attacker, defender in seat_parts.pairs:
        pay_id = pay_ids[cost]
        found = by_pays.get(pay_id)
        if found is None:
            found = by_pays[pay_id] = _pair_actions(cards, attacker, defender, caches.pays[pay_id])
        out += found
    found = seat_parts.competes[pays] = tuple(out)
    return found


def _forages(market: tuple[int, ...], deck_has_cards: bool) -> list:
    out = [_FORAGE[i + 1] for i, sym in enumerate(market) if sym != EMPTY]
    if deck_has_cards:
        out.append(_FORAGE[0])
    return out


def _hand_explores(state: State, seat: int, caches: Caches, seat_parts: SeatCache, hand_parts, flags) -> tuple:
    """The hand's Explore actions when the decks ``flags`` can be explored, remembered by the hand's
    entry. Without explore_cost abilities, they depend only on which plain symbols the hand holds
    twice: shared between hands by that (``Caches.explores``)."""
    if seat_parts.keys.changes_explore:
        found = tuple(_explores(state, seat, state.hands[seat], flags))
    else:
        counts = hand_parts.counts
        key = (counts[0] >= 2, counts[1] >= 2, counts[2] >= 2, flags)
        found = caches.explores.get(key)
        if found is None:
            found = remember(caches.explores, key, _explores(state, seat, state.hands[seat], flags))
    hand_parts.explores[flags] = found
    return found


def _explores(state: State, seat: int, hand: tuple[int, ...], flags: tuple[bool, ...]) -> list:
    pays = [(sym, sym) for sym in PLAIN if hand.count(sym) >= 2]
    cheap = [a for _, a in abilities(state, seat, "explore_cost")]
    if cheap:
        extra = set(pays)
        for ability in cheap:
            extra |= set(_sub_multisets(hand, ability.get("count")))
        pays = sorted(extra)
    return [_EXPLORE[(("deck", name), ("pay", _named(p)))] for d, name in enumerate(DECK_NAMES) if flags[d] for p in pays]


def _card_slots(state: State, seat: int, caches: Caches, seat_parts: SeatCache, hand_parts, d: int,
                card: int) -> tuple:
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
        record = records[card] = CardRecord(price, number, tuple(caps))
    n0, n1, n2, n3 = hand_parts.counts
    c0, c1, c2, c3 = record.caps
    key = (record.number, n0 if n0 < c0 else c0, n1 if n1 < c1 else c1, n2 if n2 < c2 else c2, n3 if n3 < c3 else c3)
    found = caches.by_price.get(key)
    if found is None:
        _, cost, free, substitute = record.price
        pays = tuple(map(_named, payments(state.hands[seat], cost, free=free, substitute=dict(substitute))))
        found = caches.slot_lists.get((d, pays))
        if found is None:
            deck = DECK_NAMES[d]
            found = remember(caches.slot_lists, (d, pays),
                             [tuple([_DISCOVER[(("deck", deck), ("slot", i + 1), ("pay", pay))] for pay in pays])
                              for i in range(MARKET)])
        remember(caches.by_price, key, found)
    hand_parts.discovers[d][card] = found
    return found


def _sub_multisets(hand: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    out = {()}
    for card in hand:
        out |= {tuple(sorted(p + (card,))) for p in out if len(p) < size}
    return sorted(p for p in out if len(p) == size)


def _take_all(state: State, ability) -> tuple[int, ...]:
    """The market slots a take_all_faceup ability would take now (empty: it cannot be used)."""
    market = state.markets[RESOURCE]
    if ability.get("all_different"):
        shown = [s for s in market if s != EMPTY]
        return tuple(range(MARKET)) if len(shown) == MARKET and len(set(shown)) == MARKET else ()
    return tuple(i for i, s in enumerate(market) if s == ability.get("symbol"))


def _competes(state: State, seat: int, only: int | None = None) -> list:
    """Every (attacker, defender, payment), attackers in team order, defenders by seat then team order
    (the action phase puts the same list together from remembered pairs: ``_listing``)."""
    out = []
    teams = state.teams
    for attacker in teams[seat]:
        if only is not None and attacker != only:
            continue
        for other in range(state.players):
            if other != seat:
                for defender in teams[other]:
                    out += _compete_pair(state, seat, attacker, defender, len(teams[other]) > 1)
    return out


def _compete_pair(state: State, seat: int, attacker: int, defender: int, mates: bool) -> tuple:
    """The Compete actions of one pair: none when the hand cannot pay the battle cost or an ability
    protects the defender."""
    cards = state.cards
    caches = cards.__dict__.get("_caches") or caches_for(cards)
    record = _pair_record(state, caches, attacker, defender, mates)
    if record is None:
        return ()
    pay_id = _pay_id(caches, state.hands[seat], record.cost)
    found = record.by_pays.get(pay_id)
    if found is None:
        found = record.by_pays[pay_id] = _pair_actions(cards, attacker, defender, caches.pays[pay_id])
    return found


def _pair_record(state: State, caches: Caches, attacker: int, defender: int, mates: bool) -> PairRecord | None:
    """The pair's remembered record, or None when an ability protects the defender. What protects it
    depends only on the pair and whether the defender has team ``mates`` (animal cards are unique: its
    owner is the seat whose team lists it)."""
    key = (attacker, defender, mates)
    if key in caches.pairs:
        return caches.pairs[key]
    if len(caches.pairs) > LIMIT:
        caches.pairs.clear()
    allowed = can_be_attacked(state, attacker, defender) is None
    found = caches.pairs[key] = PairRecord(caches.battle_cost_of[attacker], {}, attacker, defender) if allowed else None
    return found


def _pay_id(caches: Caches, hand: tuple[int, ...], cost: int) -> int:
    """The number of the hand's payments (named) of battle cost number ``cost``."""
    return caches.pay_id(tuple(map(_named, payments(hand, caches.battle_costs[cost]))))


def _pair_actions(cards: CardSet, attacker: int, defender: int, pays: tuple) -> tuple:
    a_id, d_id = cards.animal_ids[attacker], cards.animal_ids[defender]
    return tuple([_COMPETE[(("attacker", a_id), ("defender", d_id), ("pay", p))] for p in pays])


# -- applying ------------------------------------------------------------------------------------
class _Table:
    """A working copy of a state for one apply (lists where the action changes things)."""

    # Slots and a single unpacking of the state: one is made for almost every apply.
    __slots__ = ("s", "cards", "players", "seed", "rolls", "shuffles", "decks", "discards", "markets", "hands", "teams",
                 "ecosystems", "points", "seat", "turn", "phase", "pending", "trades", "last_compete", "winner", "log")

    def __init__(self, state: State):
        self.s = state
        (self.cards, self.players, _, self.seed, self.rolls, self.shuffles, decks, discards, markets, hands, teams,
         ecosystems, points, self.seat, self.turn, self.phase, self.pending, self.trades, self.last_compete,
         self.winner, _) = state
        self.decks, self.discards, self.markets = list(decks), list(discards), list(markets)
        self.hands, self.teams = list(hands), list(teams)
        self.ecosystems, self.points = list(ecosystems), list(points)
        self.log = []

    def freeze(self) -> State:
        s = self.s
        return tuple.__new__(State, (
            self.cards, self.players, s.variants, self.seed, self.rolls, self.shuffles, tuple(self.decks),
            tuple(self.discards), tuple(self.markets), tuple(self.hands), tuple(self.teams), tuple(self.ecosystems),
            tuple(self.points), self.seat, self.turn, self.phase, self.pending, self.trades, self.last_compete,
            self.winner, tuple(self.log)))

    def view(self) -> State:
        return self.freeze()

    # -- decks --------------------------------------------------------------------------------
    def draw(self, d: int) -> int:
        """The top card of deck ``d``; an empty deck is rebuilt from its shuffled discards."""
        if not self.decks[d]:
            if not self.discards[d]:
                return EMPTY
            pile = shuffled(f"biome_blitz:{self.seed}:shuffle:{self.shuffles}", self.discards[d])
            self.shuffles += 1
            self.decks[d], self.discards[d] = tuple(pile), ()
            self.log.append(("reshuffle", None, (), (d, len(pile))))
        deck = self.decks[d]
        self.decks[d] = deck[1:]
        return deck[0]

    def refill(self, d: int) -> None:
        """Fill the empty market slots of deck ``d``; three identical resource symbols are replaced."""
        market = self.markets[d]
        if EMPTY in market:
            market = list(market)
            for i in range(MARKET):
                if market[i] == EMPTY:
                    card = market[i] = self.draw(d)
                    if card != EMPTY:
                        self.log.append(("reveal", None, (d, card), i + 1))
            self.markets[d] = market = tuple(market)
        # (The check below needs three identical cards, so a cheap look first.)
        if d == RESOURCE and market[0] == market[1] == market[2] != EMPTY:
            guard = sum(self.cards.resource_copies)
            while EMPTY not in self.markets[d] and len(set(self.markets[d])) == 1 and guard > 0:
                guard -= MARKET
                self.log.append(("triple", None, (), self.markets[d][0]))
                self.discards[d] = self.discards[d] + self.markets[d]
                self.markets[d] = (EMPTY,) * MARKET
                self.refill_once(d)

    def refill_once(self, d: int) -> None:
        market = list(self.markets[d])
        for i in range(MARKET):
            if market[i] == EMPTY:
                market[i] = self.draw(d)
                if market[i] != EMPTY:
                    self.log.append(("reveal", None, (d, market[i]), i + 1))
        self.markets[d] = tuple(market)

    def take_from_market(self, d: int, slot: int) -> int:
        card = self.markets[d][slot]
        self.markets[d] = self.markets[d][:slot] + (EMPTY,) + self.markets[d][slot + 1:]
        return card

    # -- hands and points -----------------------------------------------------------------------
    def give(self, seat: int, symbols) -> None:
        self.hands[seat] = tuple(sorted(self.hands[seat] + tuple(symbols)))

    def pay(self, seat: int, symbols: tuple[int, ...]) -> None:
        self.hands[seat] = _without(self.hands[seat], symbols)
        self.discards[RESOURCE] = self.discards[RESOURCE] + tuple(symbols)

    def draw_resources(self, seat: int, count: int, why: str) -> None:
        drawn = []
        for _ in range(count):
            card = self.draw(RESOURCE)
            if card == EMPTY:
                break
            drawn.append(card)
        self.give(seat, drawn)
        self.log.append(("draw", seat, tuple(drawn), why))

    def score(self, seat: int, stars: int, why: str) -> None:
        self.points[seat] += stars
        self.log.append(("points", seat, (), (stars, why)))

    def check_win(self, seat: int) -> bool:
        if self.points[seat] >= WIN_POINTS or len(self.teams[seat]) >= WIN_ANIMALS:
            self.winner = seat
            self.phase = OVER
            self.pending = ()
            self.log.append(("win", seat, (), (self.points[seat], len(self.teams[seat]))))
            return True
        return False

    def roll(self) -> int:
        value = die(f"biome_blitz:{self.seed}:die:{self.rolls}")
        self.rolls += 1
        return value

    # -- turns --------------------------------------------------------------------------------
    def end_turn(self) -> None:
        if self.check_win(self.seat):
            return
        self.start_turn((self.seat + 1) % self.players)

    def start_turn(self, seat: int, *, first: bool = False) -> None:
        """The next turn, with its start-of-turn abilities (take, draw, peek)."""
        self.seat, self.trades = seat, 0
        if not first:
            self.turn += 1
        self.phase, self.pending = ACTION, ()
        self.log.append(("turn", seat, (), self.turn))
        cards = self.cards
        team = self.teams[seat]
        caches = cards.__dict__.get("_caches") or caches_for(cards)
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
                            self.log.append(("ability_take", seat, (card,), (animal, slot + 1)))
                            self.refill(RESOURCE)
                elif ability.trigger == "start_of_turn" and ability.effect == "draw":
                    self.draw_resources(seat, ability.get("count"), f"{cards.animals[animal].name}'s {ability.name}")
                elif ability.effect == "peek" and ability.get("deck") != "choice":
                    self.peek(seat, DECK_NAMES.index(ability.get("deck")), animal)
        if any(ability.effect == "peek" and ability.get("deck") == "choice"
               for animal in self.teams[seat] for ability in cards.animals[animal].abilities):
            self.phase = PEEK

    def peek(self, seat: int, d: int, animal: int) -> None:
        top = self.decks[d][0] if self.decks[d] else EMPTY
        self.log.append(("peek", seat, (d, top), animal))


def _deck(name, rule: str) -> int:
    if name not in DECK_NAMES:
        _illegal(f"decks are {', '.join(DECK_NAMES)}, not {name!r}", rule)
    return DECK_NAMES.index(name)


def _symbols(names, rule: str) -> tuple[int, ...]:
    found = None
    if type(names) is tuple:
        try:
            found = _SYMBOLS_OF.get(names)
        except TypeError:       # unhashable parts: refused below
            pass
    if found is not None:
        return found
    if not isinstance(names, (tuple, list)) or any(n not in SYMBOLS for n in names):
        _illegal(f"a payment is a list of resource symbols ({', '.join(SYMBOLS)}), not {names!r}", rule)
    found = tuple(sorted(SYMBOLS.index(n) for n in names))
    if type(names) is tuple and len(_SYMBOLS_OF) < 10000:
        _SYMBOLS_OF[names] = found
    return found


#: _symbols' answers for payments already seen (a tuple of names: hashable and unchanging).
_SYMBOLS_OF: dict = {}


def _animal(state: State, name, rule: str) -> int:
    index = state.cards.animal_by_id.get(name) if isinstance(name, str) else None
    if index is None:
        _illegal(f"there is no animal {name!r}", rule)
    return index


def apply(state: State, seat: int, action) -> State:
    listed_state, listed_seat, listed = _listed
    if state is listed_state and type(seat) is int and seat == listed_seat:
        for offered in listed:
            if offered is action:
                return _HANDLER_OF[type(action)](state, seat, action)
    phase = state.phase
    if phase == OVER:
        _illegal("the game is over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal(f"there is no seat {seat!r} in a {state.players}-player game", RULE_TURN)
    movers = to_move(state)
    if seat not in movers:
        _illegal(f"{seat_name(movers[0])} must decide now, not {seat_name(seat)}", RULE_TURN)
    kind = type(action)
    handler = _HANDLERS.get((phase, kind))
    if handler is None:
        expected = {PEEK: "choose the deck to peek at", ACTION: "take an optional or a main action",
                    TRADE: "give, ask, propose or withdraw the trade", TRADE_REPLY: "accept or refuse the trade",
                    FORAGE: "take the second resource", REPLACE: "choose the ecosystem to replace",
                    CANCEL: "decide whether to cancel the compete", REROLL: "decide whether to reroll",
                    FRENZY: "compete again with the same animal or end the turn"}[phase]
        rule = {TRADE: RULE_TRADE, TRADE_REPLY: RULE_TRADE, FORAGE: RULE_FORAGE, REPLACE: RULE_ECOSYSTEMS,
                ACTION: RULE_MAIN}.get(phase, RULE_ABILITY)
        _illegal(f"{seat_name(seat)} must {expected}, not {_describe(action)}", rule)
    if not _is_legal(state, seat, action):
        _illegal(_refusal(state, seat, action), _rule_of(kind))
    return handler(state, seat, action)


def _describe(action) -> str:
    """The action in words, or its repr when its fields are malformed."""
    try:
        return str(action)
    except Exception:
        return repr(action)


def _is_legal(state: State, seat: int, action) -> bool:
    """``action in legal_actions(state, seat)``, answered without listing every action for the
    frequent kinds (the same conditions, checked for this one action)."""
    kind = type(action)
    cards = state.cards
    if kind is Discover or kind is Compete or kind is Explore:
        pay = action.pay
        if not isinstance(pay, tuple) or any(p not in SYMBOLS for p in pay):
            return False
        paid = tuple(sorted(SYMBOLS.index(p) for p in pay))
        if _names(paid) != pay:
            return False
    if kind is Discover:
        if action.deck not in ("animal", "ecosystem") or type(action.slot) is not int or not 1 <= action.slot <= MARKET:
            return False
        d = DECK_NAMES.index(action.deck)
        card = state.markets[d][action.slot - 1]
        if card == EMPTY:
            return False
        cost, free, substitute = discover_cost(state, seat, d, card)
        return paid in payments(state.hands[seat], cost, free=free, substitute=substitute)
    if kind is Compete:
        attacker = cards.animal_by_id.get(action.attacker) if isinstance(action.attacker, str) else None
        defender = cards.animal_by_id.get(action.defender) if isinstance(action.defender, str) else None
        if attacker is None or defender is None or attacker not in state.teams[seat]:
            return False
        if state.phase == FRENZY and attacker != state.pending[0]:
            return False
        if state.owner(defender) in (NOBODY, seat) or can_be_attacked(state, attacker, defender) is not None:
            return False
        return paid in payments(state.hands[seat], cards.animals[attacker].battle_cost)
    if kind is Explore:
        if action.deck not in DECK_NAMES or not all(hand_has(state.hands[seat], paid)):
            return False
        d = DECK_NAMES.index(action.deck)
        if not (state.decks[d] or state.discards[d] or any(c != EMPTY for c in state.markets[d])):
            return False
        if len(paid) == 2 and paid[0] == paid[1] and paid[0] != WILD:
            return True
        return any(a.get("count") == len(paid) for _, a in abilities(state, seat, "explore_cost"))
    if kind is TradeWith:
        return (state.trades < TRADES_PER_TURN and type(action.seat) is int and 0 <= action.seat < state.players
                and action.seat != seat)
    if kind is TradeGive or kind is TradeAsk:
        if action.symbol not in SYMBOLS:
            return False
        partner, give, ask = state.pending
        sym = SYMBOLS.index(action.symbol)
        if kind is TradeAsk:
            return len(ask) < len(state.hands[partner])
        return state.hands[seat].count(sym) > give.count(sym)
    if kind is TradePropose:
        return bool(state.pending[1] or state.pending[2])
    if kind is TradeCancel or kind is CancelCompete or kind is Reroll:
        return type(getattr(action, "cancel", getattr(action, "reroll", True))) is bool
    if kind is ForagePick:
        if type(action.slot) is not int or not 0 <= action.slot <= MARKET:
            return False
        if action.slot:
            return state.markets[RESOURCE][action.slot - 1] not in (EMPTY, WILD)
        return bool(state.decks[RESOURCE] or state.discards[RESOURCE])
    if kind is Forage:
        if type(action.slot) is not int or not 0 <= action.slot <= MARKET:
            return False
        if action.slot:
            return state.markets[RESOURCE][action.slot - 1] != EMPTY
        return bool(state.decks[RESOURCE] or state.discards[RESOURCE])
    return action in legal_actions(state, seat)


def hand_has(hand: tuple[int, ...], paid: tuple[int, ...]):
    """Per symbol of ``paid``: does the hand hold that many?"""
    for sym in set(paid):
        yield hand.count(sym) >= paid.count(sym)


def _rule_of(kind) -> str:
    return {Explore: RULE_EXPLORE, TradeWith: RULE_TRADE, TradeGive: RULE_TRADE, TradeAsk: RULE_TRADE,
            TradePropose: RULE_TRADE, TradeAnswer: RULE_TRADE, Forage: RULE_FORAGE, ForagePick: RULE_FORAGE,
            ForageAll: RULE_ABILITY, Discover: RULE_DISCOVER, Replace: RULE_ECOSYSTEMS, Compete: RULE_COMPETE,
            Peek: RULE_ABILITY}.get(kind, RULE_MAIN)


def _refusal(state: State, seat: int, action) -> str:
    """A plain reason an action of the right kind is not allowed."""
    cards = state.cards
    kind = type(action)
    hand = Counter(state.hands[seat])
    if kind in (Explore, Discover, Compete):
        try:
            paid = Counter(_symbols(action.pay, RULE_MAIN))
        except IllegalAction as error:
            return error.reason
        if paid - hand:
            return f"{seat_name(seat)} does not hold {', '.join(SYMBOLS[s] for s in (paid - hand).elements())}"
    if kind is Explore:
        if action.deck not in DECK_NAMES:
            return f"decks are {', '.join(DECK_NAMES)}, not {action.deck!r}"
        return "Explore costs two identical resources (leaf, water or meat; a wild does not count)"
    if kind is TradeWith:
        return ("three trade offers a turn at most" if state.trades >= TRADES_PER_TURN
                else f"there is no other player {action.seat!r}")
    if kind is TradeAnswer:
        return f"{seat_name(seat)} does not hold the cards asked for"
    if kind in (Forage, ForagePick):
        if type(action.slot) is not int or not 0 <= action.slot <= MARKET:
            return f"a pick is a face-up slot 1 to {MARKET} or 0 for the deck, not {action.slot!r}"
        if action.slot and state.markets[RESOURCE][action.slot - 1] == WILD:
            return "a face-up wild can only be the first pick"
        return "that slot is empty" if action.slot else "the resource deck and its discards are empty"
    if kind is Discover:
        if action.deck not in ("animal", "ecosystem") or type(action.slot) is not int or not 1 <= action.slot <= MARKET:
            return "discover a face-up animal or ecosystem: deck 'animal' or 'ecosystem', slot 1 to 3"
        d = DECK_NAMES.index(action.deck)
        card = state.markets[d][action.slot - 1]
        if card == EMPTY:
            return f"{action.deck} slot {action.slot} is empty"
        cost, free, _ = discover_cost(state, seat, d, card)
        return f"the payment {', '.join(action.pay) or 'nothing'} does not match the cost {_cost_text(cost)}" + \
            (f" (less {free} of any)" if free else "")
    if kind is Compete:
        attacker = cards.animal_by_id.get(action.attacker) if isinstance(action.attacker, str) else None
        defender = cards.animal_by_id.get(action.defender) if isinstance(action.defender, str) else None
        if attacker is None or attacker not in state.teams[seat]:
            return f"{action.attacker!r} is not in {seat_name(seat)}'s team"
        if defender is None or state.owner(defender) in (NOBODY, seat):
            return f"{action.defender!r} is not in another player's team"
        if state.phase == FRENZY and attacker != state.pending[0]:
            return "a compete again is made by the same animal"
        why = can_be_attacked(state, attacker, defender)
        if why:
            return why
        return f"the payment does not match the battle cost {_cost_text(cards.animals[attacker].battle_cost)}"
    if kind is ForageAll:
        return f"{action.animal!r} has no forage ability that can take face-up cards now"
    if kind is Replace:
        return f"{seat_name(seat)} holds no {action.ecosystem!r} ecosystem"
    if kind is Peek:
        return f"decks are {', '.join(DECK_NAMES)}"
    return f"{action} is not possible now"


def _cost_text(cost) -> str:
    return " + ".join(f"{n} {SYMBOLS[s]}" for s, n in enumerate(cost) if n) or "nothing"


# -- handlers ------------------------------------------------------------------------------------
def _explore(state: State, seat: int, action: Explore) -> State:
    d = DECK_NAMES.index(action.deck)
    market = state.markets[d]
    flushed = market if EMPTY not in market else tuple(c for c in market if c != EMPTY)
    deck = state.decks[d]
    revealed = deck[:MARKET]
    if len(deck) >= MARKET and not (d == RESOURCE and revealed[0] == revealed[1] == revealed[2]):
        # The usual case built directly, as the general path below would (pay, discard the market,
        # refill it from the deck's top): no reshuffle and no three of a kind to replace.
        paid = _symbols(action.pay, RULE_EXPLORE)
        (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
         turn_seat, turn, phase, pending, trades, last_compete, winner, _) = state
        hands = _put(hands, seat, _without(hands[seat], paid))
        decks, discards, markets = list(decks), list(discards), list(markets)
        discards[RESOURCE] = discards[RESOURCE] + paid
        discards[d] = discards[d] + flushed
        decks[d], markets[d] = deck[MARKET:], revealed
        # (MARKET is 3: the three revealed cards.)
        log = (("explore", seat, (d,) + flushed, action.pay), ("reveal", None, (d, revealed[0]), 1),
               ("reveal", None, (d, revealed[1]), 2), ("reveal", None, (d, revealed[2]), 3))
        return tuple.__new__(State, (cards, players, variants, seed, rolls, shuffles, tuple(decks), tuple(discards),
                                     tuple(markets), hands, teams, ecosystems, points, turn_seat, turn, phase, pending,
                                     trades, last_compete, winner, log))
    paid = _symbols(action.pay, RULE_EXPLORE)
    built = quick.explore(state, seat, d, paid, flushed, action.pay)     # a short deck: reshuffled
    if built is not None:
        return built
    table = _Table(state)
    table.pay(seat, paid)
    table.discards[d] = table.discards[d] + flushed
    table.markets[d] = (EMPTY,) * MARKET
    table.log.append(("explore", seat, (d,) + flushed, action.pay))
    table.refill(d)
    return table.freeze()


_DISCARDS, _HANDS, _ECOSYSTEMS, _PHASE, _PENDING, _TRADES, _LOG = (
    State._fields.index(name) for name in ("discards", "hands", "ecosystems", "phase", "pending", "trades", "log"))


def _with(state: State, phase: str, pending: tuple, log: tuple = ()) -> State:
    """``state`` with a new phase and pending decision (nothing else changes): built directly."""
    fields = list(state)
    fields[_PHASE], fields[_PENDING], fields[_LOG] = phase, pending, log
    return tuple.__new__(State, fields)


def _trade_with(state: State, seat: int, action: TradeWith) -> State:
    return _with(state, TRADE, (action.seat, (), ()))


def _trade_give(state: State, seat: int, action: TradeGive) -> State:
    partner, give, ask = state.pending
    return _with(state, TRADE, (partner, tuple(sorted(give + (SYMBOLS.index(action.symbol),))), ask))


def _trade_ask(state: State, seat: int, action: TradeAsk) -> State:
    partner, give, ask = state.pending
    return _with(state, TRADE, (partner, give, tuple(sorted(ask + (SYMBOLS.index(action.symbol),)))))


def _trade_propose(state: State, seat: int, action) -> State:
    partner, give, ask = state.pending
    fields = list(state)
    fields[_PHASE], fields[_PENDING], fields[_TRADES] = TRADE_REPLY, (partner, seat, give, ask), state.trades + 1
    fields[_LOG] = (("trade_offer", seat, give + ask, (partner, len(give))),)
    return tuple.__new__(State, fields)


def _trade_cancel(state: State, seat: int, action) -> State:
    return _with(state, ACTION, ())


def _trade_answer(state: State, seat: int, action: TradeAnswer) -> State:
    _, asker, give, ask = state.pending
    if not action.accept:       # nothing changes hands
        return _with(state, ACTION, (), (("trade_answer", seat, (), (asker, action.accept)),))
    hands = list(state.hands)
    hands[asker] = _without(hands[asker], give)
    hands[seat] = tuple(sorted(hands[seat] + give))
    hands[seat] = _without(hands[seat], ask)
    hands[asker] = tuple(sorted(hands[asker] + ask))
    fields = list(state)
    fields[_HANDS], fields[_PHASE], fields[_PENDING] = tuple(hands), ACTION, ()
    fields[_LOG] = (("trade_answer", seat, (), (asker, action.accept)),)
    return tuple.__new__(State, fields)


def _forage(state: State, seat: int, action: Forage) -> State:
    built = _quick_pick(state, seat, action.slot, True)
    if built is not None:
        return built
    table = _Table(state)
    card = table.forage_pick(seat, action.slot)
    if action.slot and card == WILD:
        table.log.append(("wild_ends", seat, (), None))
        _forage_done(table, seat, (card,))
    else:
        table.phase, table.pending = FORAGE, (card,)
    return table.freeze()


def _forage_pick(self: _Table, seat: int, slot: int) -> int:
    if slot:
        card = self.take_from_market(RESOURCE, slot - 1)
        self.log.append(("take", seat, (card,), slot))
        self.give(seat, (card,))
        self.refill(RESOURCE)
    else:
        card = self.draw(RESOURCE)
        self.give(seat, (card,))
        self.log.append(("draw", seat, (card,), "forage"))
    return card


_Table.forage_pick = _forage_pick


def _forage_second(state: State, seat: int, action: ForagePick) -> State:
    built = _quick_pick(state, seat, action.slot, False)
    if built is not None:
        return built
    table = _Table(state)
    card = table.forage_pick(seat, action.slot)
    _forage_done(table, seat, state.pending + (card,))
    return table.freeze()


def _quick_pick(state: State, seat: int, slot: int, first: bool) -> State | None:
    """A forage pick in the usual case, the new state built directly (forage picks are the most
    frequent decisions after the action phase's, and a _Table costs more than the pick). Usual: the
    resource deck has cards (no reshuffle) and the market is full; when the forage ends (after a
    second pick, or a face-up wild as the first), its draw abilities and the turn's end are built
    directly too (``quick``). Otherwise None: the general path (forage_pick, _forage_done, end_turn)
    decides, and gives the same result in the usual case."""
    # One unpacking, and the new state as one tuple: cheaper than reading fields one by one.
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
     turn_seat, turn, _, pending, trades, last_compete, winner, _) = state
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
        log = (("take", seat, (card,), slot),)
        top = deck[0]
        refilled = market[:slot - 1] + (top,) + market[slot:]
        if refilled[0] == refilled[1] == refilled[2]:       # seldom: three of a kind to replace
            refilled = quick.refill_slot(cards, deck, discards[RESOURCE], market, slot - 1, log)
            if refilled is None:
                return None
            deck, discard, market, log = refilled
            discards = (discard,) + discards[1:]
        else:
            deck, market = deck[1:], refilled
            log += (("reveal", None, (RESOURCE, top), slot),)
        if ends:
            log += (("wild_ends", seat, (), None),)
    else:
        card = deck[0]
        deck = deck[1:]
        log = (("draw", seat, (card,), "forage"),)
    decks = (deck, decks[ANIMAL], decks[ECOSYSTEM])
    markets = (market, markets[ANIMAL], markets[ECOSYSTEM])
    hands = hands[:seat] + (tuple(sorted(hands[seat] + (card,))),) + hands[seat + 1:]
    if first and not ends:
        return tuple.__new__(State, (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands,
                                     teams, ecosystems, points, turn_seat, turn, FORAGE, (card,), trades, last_compete,
                                     winner, log))
    caches = cards.__dict__.get("_caches") or caches_for(cards)
    team, following = teams[seat], (seat + 1) % players
    next_team = teams[following]
    draws = (caches.teams.get(team) or caches.team(team)).draws_after_forage
    if not (draws or points[seat] >= WIN_POINTS or len(team) >= WIN_ANIMALS
            or (caches.teams.get(next_team) or caches.team(next_team)).acts_at_start):
        return tuple.__new__(State, (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands,
                                     teams, ecosystems, points, following, turn + 1, ACTION, (), 0, last_compete, winner,
                                     log + (("turn", following, (), turn + 1),)))
    # Draw abilities, a win or start-of-turn abilities: fewer cases, built by quick's helpers.
    fields = [cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
              turn_seat, turn, ACTION, (), trades, last_compete, winner, log]
    if draws and not quick.forage_draws(fields, seat, pending + (card,) if not first else (card,)):
        return None
    return quick.end_turn(fields, seat)


def _forage_done(table: _Table, seat: int, took: tuple[int, ...]) -> None:
    """The forage's abilities (extra draws), then the turn ends."""
    cards = table.cards
    for animal in table.teams[seat]:
        for ability in cards.animals[animal].abilities:
            if ability.trigger == "forage" and ability.effect == "draw":
                wanted = ability.get("if_took")
                if wanted is None or wanted in took:
                    table.draw_resources(seat, ability.get("count"), f"{cards.animals[animal].name}'s {ability.name}")
    table.end_turn()


def _forage_all(state: State, seat: int, action: ForageAll) -> State:
    animal = state.cards.animal_by_id[action.animal]
    ability = next(a for a in state.cards.animals[animal].with_effect("take_all_faceup") if _take_all(state, a))
    table = _Table(state)
    slots = _take_all(state, ability)
    took = tuple(table.take_from_market(RESOURCE, i) for i in slots)
    table.give(seat, took)
    table.log.append(("take_all", seat, took, animal))
    table.refill(RESOURCE)
    _forage_done(table, seat, took)
    return table.freeze()


def _discover(state: State, seat: int, action: Discover) -> State:
    cards = state.cards
    d = DECK_NAMES.index(action.deck)
    card = state.markets[d][action.slot - 1]
    built = _quick_discover(state, seat, action, d, card)
    if built is not None:
        return built
    table = _Table(state)
    table.pay(seat, _symbols(action.pay, RULE_DISCOVER))
    table.take_from_market(d, action.slot - 1)
    if d == ANIMAL:
        table.teams[seat] = table.teams[seat] + (card,)
        stars = cards.animals[card].stars
    else:
        stars = cards.ecosystems[card].stars
    table.log.append(("discover", seat, (d, card), action.pay))
    table.score(seat, stars, "discover")
    if d == ANIMAL:
        for animal in table.teams[seat]:
            for ability in cards.animals[animal].abilities:
                if ability.trigger == "discover" and ability.effect == "draw":
                    another = ability.get("on") == "another_animal"
                    if (another and animal != card) or (not another and animal == card):
                        table.draw_resources(seat, ability.get("count"), f"{cards.animals[animal].name}'s {ability.name}")
    table.refill(d)
    if d == ECOSYSTEM:
        if len(table.ecosystems[seat]) < MAX_ECOSYSTEMS:
            table.ecosystems[seat] = table.ecosystems[seat] + (card,)
        elif points_win(table, seat):
            # The game ends at once: a fourth ecosystem replaces nothing and goes to the discards.
            table.discards[ECOSYSTEM] = table.discards[ECOSYSTEM] + (card,)
        else:
            table.phase, table.pending = REPLACE, (card,)
            return table.freeze()
    table.end_turn()
    return table.freeze()


def _quick_discover(state: State, seat: int, action: Discover, d: int, card: int) -> State | None:
    """A discovery in the usual case, the new state built directly as ``_discover`` would: the deck
    refills the slot (no reshuffle, no other empty slot) and the draw abilities find their cards.
    Then either a fourth ecosystem waits for the one it replaces (the turn goes on), or the turn ends
    (written out for the commonest case: no draw, no win, no start-of-turn ability; else
    ``quick.end_turn``). Otherwise None."""
    deck = state.decks[d]
    if not deck or EMPTY in state.markets[d]:
        return None
    cards = state.cards
    caches = cards.__dict__.get("_caches") or caches_for(cards)
    team, ecosystems, following = state.teams[seat], state.ecosystems[seat], (seat + 1) % state.players
    if d == ANIMAL:
        team += (card,)
        stars = cards.animals[card].stars
    else:
        ecosystems += (card,)
        stars = cards.ecosystems[card].stars
    points = state.points[seat] + stars
    replace = len(ecosystems) > MAX_ECOSYSTEMS      # (an ecosystem: discover draw abilities watch animals)
    ends = points >= WIN_POINTS or len(team) >= WIN_ANIMALS
    if replace and ends:
        return None
    paid = _symbols(action.pay, RULE_DISCOVER)
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of, points_of,
     turn_seat, turn, _, _, trades, last_compete, winner, _) = state
    slot = action.slot
    decks, markets = list(decks), list(markets)
    decks[d] = deck[1:]
    markets[d] = markets[d][:slot - 1] + (deck[0],) + markets[d][slot:]
    log = (("discover", seat, (d, card), action.pay), ("points", seat, (), (stars, "discover")))
    reveal = ("reveal", None, (d, deck[0]), slot)
    decks, discards, markets = tuple(decks), (discards[RESOURCE] + paid,) + discards[1:], tuple(markets)
    hands, points_of = _put(hands, seat, _without(hands[seat], paid)), _put(points_of, seat, points)
    if replace:
        return tuple.__new__(State, (
            cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of,
            points_of, turn_seat, turn, REPLACE, (card,), trades, last_compete, winner, log + (reveal,)))
    teams, ecosystems_of = _put(teams, seat, team), _put(ecosystems_of, seat, ecosystems)
    draws = d == ANIMAL and (caches.teams.get(team) or caches.team(team)).draws_on_discover
    next_team = state.teams[following]
    if not (draws or ends or (caches.teams.get(next_team) or caches.team(next_team)).acts_at_start):
        return tuple.__new__(State, (
            cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of,
            points_of, following, turn + 1, ACTION, (), 0, last_compete, winner,
            log + (reveal, ("turn", following, (), turn + 1))))
    # Draw abilities (before the refill's reveal), a win or start-of-turn abilities: built by quick's helpers.
    fields = [cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems_of,
              points_of, turn_seat, turn, ACTION, (), trades, last_compete, winner, log]
    if draws and not quick.discover_draws(fields, seat, card):
        return None
    fields[_LOG] += (reveal,)
    return quick.end_turn(fields, seat)


def _put(values: tuple, index: int, value) -> tuple:
    """``values`` with ``value`` at ``index``."""
    return values[:index] + (value,) + values[index + 1:]


def _without(hand: tuple[int, ...], symbols: tuple[int, ...]) -> tuple[int, ...]:
    """``hand`` less one card per symbol of ``symbols`` (a payment; the hand holds them)."""
    rest = list(hand)
    for s in symbols:
        rest.remove(s)
    return tuple(rest)


def points_win(table: _Table, seat: int) -> bool:
    return table.points[seat] >= WIN_POINTS or len(table.teams[seat]) >= WIN_ANIMALS


def _replace(state: State, seat: int, action: Replace) -> State:
    cards = state.cards
    old = cards.ecosystem_by_id[action.ecosystem]
    held = list(state.ecosystems[seat])
    held.remove(old)
    ecosystems = tuple(held) + state.pending
    log = ("replace", seat, (old,) + state.pending, None)
    # Built directly (``quick.end_turn``) unless the next team's start-of-turn abilities need the table.
    fields = list(state)
    fields[_ECOSYSTEMS] = _put(state.ecosystems, seat, ecosystems)
    fields[_DISCARDS] = state.discards[:ECOSYSTEM] + (state.discards[ECOSYSTEM] + (old,),)
    fields[_LOG] = (log,)
    built = quick.end_turn(fields, seat)
    if built is not None:
        return built
    table = _Table(state)
    table.ecosystems[seat] = ecosystems
    table.discards[ECOSYSTEM] = table.discards[ECOSYSTEM] + (old,)
    table.log.append(log)
    table.end_turn()
    return table.freeze()


def _compete(state: State, seat: int, action: Compete) -> State:
    cards = state.cards
    attacker, defender = cards.animal_by_id[action.attacker], cards.animal_by_id[action.defender]
    owner = state.owner(defender)
    paid = _symbols(action.pay, RULE_COMPETE)
    built = quick.compete(state, seat, attacker, defender, owner, paid, attack_total, defence_total)
    if built is not None:
        return built
    table = _Table(state)
    table.pay(seat, paid)
    table.log.append(("compete", seat, (attacker, defender), owner))
    for ability in cards.animals[defender].with_effect("cancel_compete"):
        if Counter(state.hands[owner])[ability.get("symbol")] >= ability.get("count"):
            table.phase, table.pending = CANCEL, (owner, attacker, defender, ability.get("symbol"), ability.get("count"))
            return table.freeze()
    _roll_dice(table, seat, attacker, defender, owner)
    return table.freeze()


def _cancel(state: State, seat: int, action: CancelCompete) -> State:
    owner, attacker, defender, symbol, count = state.pending
    table = _Table(state)
    if action.cancel:
        table.pay(owner, (symbol,) * count)
        table.log.append(("cancelled", owner, (attacker, defender), (symbol, count)))
        table.end_turn()
    else:
        table.log.append(("not_cancelled", owner, (attacker, defender), None))
        _roll_dice(table, state.seat, attacker, defender, owner)
    return table.freeze()


def _roll_dice(table: _Table, seat: int, attacker: int, defender: int, owner: int) -> None:
    """Both dice, the automatic rerolls, then the optional rerolls as decisions."""
    attack, defend = table.roll(), table.roll()
    table.log.append(("dice", seat, (attack, defend), (attacker, defender)))
    state = table      # reroll_ability reads only the cards: the table answers that like a state
    automatic = reroll_ability(state, attacker, "attack", automatic=True)
    if automatic and attack in automatic.get("on"):
        attack = table.roll()
        table.log.append(("reroll", seat, (attack,), (attacker, automatic.name)))
    automatic = reroll_ability(state, defender, "defend", automatic=True)
    if automatic and defend in automatic.get("on"):
        defend = table.roll()
        table.log.append(("reroll", owner, (defend,), (defender, automatic.name)))
    # pending: (who decides, attacker, defender, attack roll, defence roll, stage)
    _next_reroll(table, seat, attacker, defender, owner, attack, defend, 0)


def _next_reroll(table: _Table, seat: int, attacker: int, defender: int, owner: int, attack: int, defend: int,
                 stage: int) -> None:
    state = table      # reroll_ability reads only the cards: the table answers that like a state
    if stage == 0 and reroll_ability(state, attacker, "attack", automatic=False):
        table.phase, table.pending = REROLL, (seat, attacker, defender, attack, defend, 0)
        return
    if stage <= 1 and reroll_ability(state, defender, "defend", automatic=False):
        table.phase, table.pending = REROLL, (owner, attacker, defender, attack, defend, 1)
        return
    _resolve_compete(table, seat, attacker, defender, owner, attack, defend)


def _reroll(state: State, seat: int, action: Reroll) -> State:
    who, attacker, defender, attack, defend, stage = state.pending
    table = _Table(state)
    owner = state.owner(defender)
    if action.reroll:
        value = table.roll()
        if stage == 0:
            attack = value
        else:
            defend = value
        table.log.append(("reroll", who, (value,), (attacker if stage == 0 else defender, "reroll")))
    _next_reroll(table, state.seat, attacker, defender, owner, attack, defend, stage + 1)
    return table.freeze()


def _resolve_compete(table: _Table, seat: int, attacker: int, defender: int, owner: int, attack: int, defend: int) -> None:
    # The totals read the cards, teams and ecosystems, which the table holds as a state does.
    state = table
    cards = table.cards
    kick = next((a for a in cards.animals[defender].with_effect("win_on_roll") if attack in a.get("rolls")), None)
    a_total = attack_total(state, seat, attacker, defender, attack)
    d_total = defence_total(state, owner, defender, attacker, defend)
    won = kick is None and a_total >= d_total
    table.last_compete = (seat, attacker, attack, a_total, owner, defender, defend, d_total, seat if won else owner)
    table.log.append(("result", seat if won else owner, (attacker, defender), (a_total, d_total, kick.name if kick else None)))
    table.phase, table.pending = ACTION, ()
    if not won:
        table.end_turn()
        return
    table.teams[owner] = tuple(a for a in table.teams[owner] if a != defender)
    table.discards[ANIMAL] = table.discards[ANIMAL] + (defender,)
    table.score(seat, cards.animals[defender].stars, "defeat")
    # "defeated" abilities: of the defeated animal, then "any animal" ones still in play.
    for ability in cards.animals[defender].abilities:
        if ability.trigger != "defeated":
            continue
        if ability.effect == "destroy_attacker" and attacker in table.teams[seat]:
            table.teams[seat] = tuple(a for a in table.teams[seat] if a != attacker)
            table.discards[ANIMAL] = table.discards[ANIMAL] + (attacker,)
            table.log.append(("destroyed", owner, (defender, attacker), ability.name))
        elif ability.effect == "draw":      # its own defeat counts for "any animal" too
            table.draw_resources(owner, ability.get("count"), f"{cards.animals[defender].name}'s {ability.name}")
    for other in range(table.players):
        for animal in table.teams[other]:
            for ability in cards.animals[animal].abilities:
                if ability.trigger == "defeated" and ability.effect == "draw" and ability.get("whose") == "any":
                    table.draw_resources(other, ability.get("count"), f"{cards.animals[animal].name}'s {ability.name}")
    if attacker in table.teams[seat]:
        for ability in cards.animals[attacker].abilities:
            if ability.effect == "steal":
                hand = list(table.hands[owner])
                taken = []
                for _ in range(ability.get("count")):
                    if ability.get("symbol") in hand:
                        hand.remove(ability.get("symbol"))
                        taken.append(ability.get("symbol"))
                table.hands[owner] = tuple(hand)
                table.give(seat, taken)
                table.log.append(("steal", seat, tuple(taken), (owner, ability.name)))
    if table.check_win(seat):
        return
    if attacker in table.teams[seat] and cards.animals[attacker].with_effect("extra_compete"):
        frenzy = table.view()._replace(phase=FRENZY, pending=(attacker,))
        if _competes(frenzy, seat, only=attacker):
            table.phase, table.pending = FRENZY, (attacker,)
            table.log.append(("frenzy", seat, (attacker,), None))
            return
    table.end_turn()


def _done(state: State, seat: int, action: Done) -> State:
    table = _Table(state)
    table.phase, table.pending = ACTION, ()
    table.end_turn()
    return table.freeze()


def _peek(state: State, seat: int, action: Peek) -> State:
    animal = next(a for a, ability in abilities(state, seat, "peek") if ability.get("deck") == "choice")
    d = DECK_NAMES.index(action.deck)
    top = state.decks[d][0] if state.decks[d] else EMPTY      # (as _Table.peek)
    return _with(state, ACTION, state.pending, (("peek", seat, (d, top), animal),))


_HANDLERS = {
    (ACTION, Explore): _explore, (ACTION, TradeWith): _trade_with, (ACTION, Forage): _forage,
    (ACTION, ForageAll): _forage_all, (ACTION, Discover): _discover, (ACTION, Compete): _compete,
    (TRADE, TradeGive): _trade_give, (TRADE, TradeAsk): _trade_ask, (TRADE, TradePropose): _trade_propose,
    (TRADE, TradeCancel): _trade_cancel, (TRADE_REPLY, TradeAnswer): _trade_answer, (FORAGE, ForagePick): _forage_second,
    (REPLACE, Replace): _replace, (CANCEL, CancelCompete): _cancel, (REROLL, Reroll): _reroll,
    (FRENZY, Compete): _compete, (FRENZY, Done): _done, (PEEK, Peek): _peek,
}
#: Each kind of action has one handler whatever the phase: the fast path of apply needs only the kind.
_HANDLER_OF = {kind: handler for (_, kind), handler in _HANDLERS.items()}
assert all(_HANDLER_OF[kind] is handler for (_, kind), handler in _HANDLERS.items())
