"""Biome Blitz's turn: setup, legal actions, their effects and the ability vocabulary at work.

Follows the rules text (セットアップ, オプションのアクション, メインアクション, 対戦の例, 勝利) as read
by docs/readings.md, "Biome Blitz". What the texts leave open is decided
here, each with its reason:
- The start player is drawn at random (the text's "last to see a bird" is not a seedable rule).
- A wild card pays any one resource but never counts as a specific symbol: it cannot pay Explore's
  two identical cards, be stolen as meat, or pay an ability's "1 water" (docs/readings.md, "Biome Blitz 1").
- Trade is built as decisions: choose a partner, add cards to give and to ask for, then propose;
  the partner accepts (only when holding what is asked) or refuses. At most three offers a turn,
  a withdrawn one counting as made, so a turn always ends (a ruling of ours; the text sets no number).
- Forage: each pick comes from the market (refilled at once) or the deck's top; a face-up wild only
  as the first pick, and it ends the forage. Three identical face-up symbols are discarded and
  replaced, checked after every refill (docs/readings.md, "Biome Blitz 2"). When nothing is left for a second pick (no deck,
  no discards, no face-up card but wilds) the forage ends after the first; with no resource left
  anywhere a forage from the deck draws nothing, so a main action always exists.
- Discover pays the exact cost; ecosystems give their stars too. Only the discovered card's own
  discover abilities and abilities that watch "another animal" fire.
- Compete: the battle cost is paid first; the dice are rolled with a seeded generator; rerolls with a
  fixed result (``on``) happen by themselves, others are the owner's choice, the attacker's first.
  A defender's owner is asked about its cancel ability whenever it has one, and may cancel only
  when holding the cards (asking only then would tell every seat what the hand holds).
  A defender with ``win_on_roll`` wins on those attack rolls before totals are compared; otherwise
  attack = roll + power, defence = roll + defence, ties to the attacker (the rules' example). Each
  ecosystem card a player holds whose symbol matches an animal adds its power and defence bonus.
- Readings the texts leave open are switches (``game.py``'s Variants: ecosystem bonus per card or
  per ecosystem, immunities judging printed or effective power, Frenzy chaining or once a turn,
  Omnivore counting a wild as a type or not); this module reads them by the names in ``state.py``.
- After a defeat: the winner scores the defeated animal's stars, then "defeated" abilities fire (of
  the defeated animal, and "any animal" ones of animals still in play), then the attacker's
  "after winning" abilities.
- The game ends at once when a player has 30 points or five animals, checked after every action.
- An empty deck is rebuilt from its shuffled discards (seeded); when both are empty, nothing is drawn.

Speed (random playouts call this engine most; none of it changes a result), behind the one switch
``MEMO.enabled`` (``rules.biome_blitz.fast``; off, every apply is checked and built on ``_Table``,
the plain rules): the action phase's list is put together from parts remembered in
``fast/caches.py``; ``apply`` takes an action object that ``legal_actions`` has just handed out for
the very same state without checking it again (``MEMO.listed``); forage picks, Explore, Discover,
Compete and trade offers, the most frequent moves, build their new state directly in the usual case
(``fast/direct.py``, with ``fast/quick.py``'s helpers for draw abilities, the turn's end and start-of-turn abilities)
and leave anything unusual to ``_Table``.

The engine's modules: ``choices.py`` (who decides, the legal actions, the rules refusals name),
``checks.py`` (an action not just offered: legal, or why not), ``costs.py`` (costs, payments and
compete totals after abilities), ``table.py`` (``_Table``, the general path of an apply), ``fast/``
(the direct paths, the remembered parts of action lists, log entries made once), and this one:
setup, ``apply`` and one handler per action.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import Final, cast

from rules.chance import BLAKE2B, seeded
from rules.biome_blitz.cards import ANIMAL, ECOSYSTEM, RESOURCE, SYMBOLS, WILD, AnimalCard, CardSet, Symbol, _bad
from rules.biome_blitz.state import make_state
from rules.biome_blitz.state import (
    AT_DISCARDS, AT_ECOSYSTEMS, AT_HANDS, AT_KNOWN, AT_LOG, AT_PEEKED, AT_PENDING, AT_PHASE, AT_TRADES,
)
from rules.biome_blitz.state import (
    ACTION, CANCEL, DECK_NAMES, EMPTY, FORAGE, FRENZY, FRENZY_ONCE, HAND_AT_START, MARKET, MAX_ECOSYSTEMS, NOBODY, OVER, PEEK,
    REPLACE, REROLL, TRADE, TRADE_REPLY, WIN_ANIMALS, WIN_POINTS, Action, CancelCompete, CancelQuestion, Compete, Discover,
    Done, Explore, Forage, ForageAll, ForagePick, ForageTook, Hand, LogEntry, NewEcosystem, OfferToAnswer, Peek, Pending,
    Pile, Replace, Reroll, RerollQuestion, State, TradeAnswer, TradeAsk, TradeCancel, TradeGive, TradeOffer, TradePropose,
    TradeWith, Variants,
)
from rules.biome_blitz import choices
from rules.biome_blitz.fast import direct, quick
from rules.biome_blitz.fast.entries import TRADE_ANSWER, TRADE_ASK, TRADE_CANCEL, TRADE_GIVE, TRADE_START
from rules.biome_blitz.fast.memo import MEMO
# (to_move and legal_actions: the engine's protocol calls, with apply and new_state here)
from rules.biome_blitz.fast.listing import legal_actions as legal_actions
from rules.biome_blitz.choices import to_move as to_move
from rules.biome_blitz.checks import _describe, _is_legal, _refusal, _rule_of, _symbols
from rules.biome_blitz.choices import (  # noqa: F401
    RULE_ABILITY, RULE_COMPETE, RULE_DISCOVER, RULE_ECOSYSTEMS, RULE_EXPLORE, RULE_FORAGE, RULE_MAIN, RULE_OVER,
    RULE_TRADE, RULE_TURN, _competes, _illegal, _refuse, _take_all,
)
from rules.biome_blitz.costs import abilities, attack_total, cancel_payment, defence_total, eco_bonus, reroll_ability  # noqa: F401
from rules.biome_blitz.table import _put, _Table, _without, known_less, noted_peek
from rules.eventtexts import player
from rules.protocol import Seat

#: A deck's index by its name (as DECK_NAMES.index).
_DECK_OF: Final = {name: d for d, name in enumerate(DECK_NAMES)}


# -- setup ---------------------------------------------------------------------------------------
def new_state(cards: CardSet, players: int, seed: int, variants: Variants, chance: str = BLAKE2B) -> State:
    """The deal of ``seed`` (``random.Random(seed)``'s shuffles), its dice and reshuffles to come drawn by the
    scheme ``chance`` (``rules.chance``; older records keep theirs: ``game.BiomeBlitz.recorded``)."""
    rng = seeded(seed)   # (the draws of random.Random(seed), faster)
    piles = cards.piles
    resources, animals, ecosystems = [*piles[0]], [*piles[1]], [*piles[2]]
    for pile in (resources, animals, ecosystems):
        rng.shuffle(pile)
    if len(resources) < HAND_AT_START * players + MARKET:
        raise _bad("deal", "cards", count=len(resources), hand=HAND_AT_START, players=players)
    start = rng.randrange(players)
    decks = [tuple(resources), tuple(animals), tuple(ecosystems)]
    discards: list[Pile]
    if MEMO.enabled and min(map(len, decks)) >= MARKET and not resources[0] == resources[1] == resources[2]:
        # The usual case built directly, as the _Table's refills below would: each market is its deck's
        # top cards (no empty slot, no three identical resources to replace).
        markets, decks = [deck[:MARKET] for deck in decks], [deck[MARKET:] for deck in decks]
        discards, shuffles = [(), (), ()], 0
    else:
        # The _Table's refills fill the markets (a short deck reshuffled, three identical resources
        # replaced), on the table before anything is dealt.
        table = _Table(make_state((
            cards, players, variants, seed, 0, 0, tuple(decks), ((), (), ()), ((EMPTY,) * MARKET,) * 3,
            ((),) * players, ((),) * players, ((),) * players, (0,) * players, start, 0, ACTION, (), 0, (), NOBODY, (),
            ((),) * players, (), chance)))
        for d in range(3):
            table.refill(d)
        decks, markets, discards, shuffles = table.decks, table.markets, table.discards, table.shuffles
    deck, dealt = decks[RESOURCE], HAND_AT_START * players
    if len(deck) >= dealt:      # the hands dealt from the top, as that many draws would (no reshuffle)
        hands = tuple(tuple(sorted(deck[i:i + HAND_AT_START])) for i in range(0, dealt, HAND_AT_START))
        decks[RESOURCE] = deck[dealt:]
    else:       # (only after three of a kind replaced: the resources cover the hands and a market)
        hands = tuple(tuple(sorted([table.draw(RESOURCE) for _ in range(HAND_AT_START)])) for _ in range(players))
        shuffles = table.shuffles
    # The first turn begins (as _Table.start_turn), its log the state's (the setup's is not kept): the
    # teams are empty, so no start-of-turn ability acts.
    return make_state((
        cards, players, variants, seed, 0, shuffles, tuple(decks), tuple(discards), tuple(markets), hands,
        ((),) * players, ((),) * players, (0,) * players, start, 0, ACTION, (), 0, (), NOBODY, (("turn", start, (), 0),),
        ((),) * players, (), chance))


# -- applying ------------------------------------------------------------------------------------
def apply(state: State, seat: Seat, action: Action) -> State:
    listed_state, listed_seat, listed = MEMO.listed
    # (``is``: the seat is the very int object listed, never True for 1; seats are small ints, one object each.
    # The action must be one of the very objects listed, compared by ``is`` in a loop: ``==`` would run
    # each action's __eq__, and ``id(action) in map(id, listed)``, fewer bytecodes, takes three times
    # as long: it makes an int per listed action.)
    if state is listed_state and seat is listed_seat and MEMO.enabled:
        for offered in listed:
            if offered is action:
                return _HANDLER_OF[type(action)](state, seat, action)
    phase = state.phase
    if phase == OVER:
        _illegal("over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal("no_seat", RULE_TURN, seat=repr(seat), players=state.players)
    movers = to_move(state)
    if seat not in movers:
        _illegal("not_yours", RULE_TURN, mover=player(movers[0]), who=player(seat))
    kind = type(action)
    handler = _HANDLERS.get((phase, kind))
    if handler is None:
        # (the template refusal.phase.<phase> says what the phase asks for)
        rule = {TRADE: RULE_TRADE, TRADE_REPLY: RULE_TRADE, FORAGE: RULE_FORAGE, REPLACE: RULE_ECOSYSTEMS,
                ACTION: RULE_MAIN}.get(phase, RULE_ABILITY)
        _illegal(f"phase.{phase}", rule, who=player(seat), action=_describe(action))
    if not _is_legal(state, seat, action):
        _refuse(_refusal(state, seat, action), _rule_of(kind))
    return handler(state, seat, action)


# -- handlers ------------------------------------------------------------------------------------
def _explore(state: State, seat: Seat, action: Explore) -> State:
    d = _DECK_OF[action.deck]
    market = state.markets[d]
    flushed = market if EMPTY not in market else tuple(c for c in market if c != EMPTY)
    deck = state.decks[d]
    revealed = deck[:MARKET]
    if MEMO.enabled and len(deck) >= MARKET and not (d == RESOURCE and revealed[0] == revealed[1] == revealed[2]):
        return direct.explore(state, seat, action, d, flushed, revealed)
    paid = _symbols(action.pay, RULE_EXPLORE)
    built = quick.explore(state, seat, d, paid, flushed, action.pay) if MEMO.enabled else None  # a short deck: reshuffled
    if built is not None:
        return built
    table = _Table(state)
    table.pay(seat, paid)
    table.discards[d] = table.discards[d] + flushed
    table.markets[d] = (EMPTY,) * MARKET
    table.log.append(("explore", seat, (d,) + flushed, action.pay))
    table.refill(d)
    return table.freeze()




def _with(state: State, phase: str, pending: Pending, log: tuple[LogEntry, ...] = ()) -> State:
    """``state`` with a new phase and pending decision (nothing else changes): built directly, its
    fields unpacked and written out (a list of them costs as much interpreted, and more compiled)."""
    (cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems, points,
     seat, turn, _, _, trades, last_compete, winner, _, known, peeked, chance) = state
    return make_state((cards, players, variants, seed, rolls, shuffles, decks, discards, markets, hands, teams, ecosystems,
                       points, seat, turn, phase, pending, trades, last_compete, winner, log, known, peeked, chance))


def _trade_with(state: State, seat: Seat, action: TradeWith) -> State:
    return _with(state, TRADE, (action.seat, (), ()), TRADE_START[seat][action.seat])


def _trade_give(state: State, seat: Seat, action: TradeGive) -> State:
    partner, give, ask = cast(TradeOffer, state.pending)
    symbol = SYMBOLS.index(action.symbol)
    given = [*give]
    insort(given, symbol)
    return _with(state, TRADE, (partner, tuple(given), ask), TRADE_GIVE[seat][symbol][partner])


def _trade_ask(state: State, seat: Seat, action: TradeAsk) -> State:
    partner, give, ask = cast(TradeOffer, state.pending)
    symbol = SYMBOLS.index(action.symbol)
    asked = [*ask]
    insort(asked, symbol)
    return _with(state, TRADE, (partner, give, tuple(asked)), TRADE_ASK[seat][symbol][partner])


def _trade_propose(state: State, seat: Seat, action: TradePropose) -> State:
    partner, give, ask = cast(TradeOffer, state.pending)
    fields = list(state)
    fields[AT_PHASE], fields[AT_PENDING], fields[AT_TRADES] = TRADE_REPLY, (partner, seat, give, ask), state.trades + 1
    fields[AT_LOG] = (("trade_offer", seat, give + ask, (partner, len(give))),)
    return make_state(fields)


def _trade_cancel(state: State, seat: Seat, action: TradeCancel) -> State:
    # A withdrawn offer counts toward the three a turn, as a proposed one does: a turn always ends.
    partner = cast(TradeOffer, state.pending)[0]
    fields = list(state)
    fields[AT_PHASE], fields[AT_PENDING], fields[AT_TRADES] = ACTION, (), state.trades + 1
    fields[AT_LOG] = TRADE_CANCEL[seat][partner]
    return make_state(fields)


def _trade_answer(state: State, seat: Seat, action: TradeAnswer) -> State:
    _, asker, give, ask = cast(OfferToAnswer, state.pending)
    if not action.accept:       # nothing changes hands
        return _with(state, ACTION, (), TRADE_ANSWER[seat][asker][False])
    hands = list(state.hands)
    hands[asker] = _without(hands[asker], give)
    hands[seat] = tuple(sorted(hands[seat] + give))
    hands[seat] = _without(hands[seat], ask)
    hands[asker] = tuple(sorted(hands[asker] + ask))
    # Everyone saw the offer: the cards given and asked for are known where they went.
    known = list(state.known)
    known[asker] = known_less(known[asker], give) + ask
    known[seat] = known_less(known[seat] + give, ask)
    fields = list(state)
    fields[AT_HANDS], fields[AT_PHASE], fields[AT_PENDING], fields[AT_KNOWN] = tuple(hands), ACTION, (), tuple(known)
    fields[AT_LOG] = TRADE_ANSWER[seat][asker][True]
    return make_state(fields)


def _forage(state: State, seat: Seat, action: Forage) -> State:
    built = direct.forage_pick(state, seat, action.slot, True) if MEMO.enabled else None
    if built is not None:
        return built
    table = _Table(state)
    card = table.forage_pick(seat, action.slot)
    took = (card,) if card != EMPTY else ()
    if action.slot and card == WILD:
        table.log.append(("wild_ends", seat, (), None))
        _forage_done(table, seat, took)
    elif not choices.second_pick_exists(table.decks[RESOURCE], table.discards[RESOURCE], table.markets[RESOURCE]):
        # Nothing is left for a second pick (no deck, no discards, no face-up card but wilds).
        table.log.append(("forage_ends", seat, (), None))
        _forage_done(table, seat, took)
    else:
        table.phase, table.pending = FORAGE, took
    return table.freeze()


def _forage_second(state: State, seat: Seat, action: ForagePick) -> State:
    built = direct.forage_pick(state, seat, action.slot, False) if MEMO.enabled else None
    if built is not None:
        return built
    table = _Table(state)
    card = table.forage_pick(seat, action.slot)
    _forage_done(table, seat, cast(ForageTook, state.pending) + (card,))
    return table.freeze()


def _forage_done(table: _Table, seat: Seat, took: Hand) -> None:
    """The forage's abilities (extra draws), then the turn ends."""
    cards = table.cards
    for animal in table.teams[seat]:
        for ability in cards.animals[animal].abilities:
            if ability.trigger == "forage" and ability.effect == "draw":
                wanted = ability.get("if_took")
                if wanted is None or wanted in took:
                    table.draw_resources(seat, ability.get("count"), (animal, ability.name))
    table.end_turn()


def _forage_all(state: State, seat: Seat, action: ForageAll) -> State:
    animal = state.cards.animal_by_id[action.animal]
    ability = next(a for a in state.cards.animals[animal].with_effect("take_all_faceup")
                   if a.name == action.ability and _take_all(state, a))
    table = _Table(state)
    slots = _take_all(state, ability)
    took = tuple(table.take_from_market(RESOURCE, i) for i in slots)
    table.give(seat, took)
    table.shown(seat, took)
    table.log.append(("take_all", seat, took, animal))
    table.refill(RESOURCE)
    _forage_done(table, seat, took)
    return table.freeze()


def _discover(state: State, seat: Seat, action: Discover) -> State:
    cards = state.cards
    d = _DECK_OF[action.deck]
    card = state.markets[d][action.slot - 1]
    built = direct.discover(state, seat, action, d, card) if MEMO.enabled else None
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
                        table.draw_resources(seat, ability.get("count"), (animal, ability.name))
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


def points_win(table: _Table, seat: Seat) -> bool:
    return table.points[seat] >= WIN_POINTS or len(table.teams[seat]) >= WIN_ANIMALS


def _replace(state: State, seat: Seat, action: Replace) -> State:
    cards = state.cards
    old = cards.ecosystem_by_id[action.ecosystem]
    held = list(state.ecosystems[seat])
    held.remove(old)
    new = cast(NewEcosystem, state.pending)
    ecosystems = tuple(held) + new
    log: LogEntry = ("replace", seat, (old,) + new, None)
    # Built directly (``quick.end_turn``) unless the next team's start-of-turn abilities need the table.
    fields = list(state)
    fields[AT_ECOSYSTEMS] = _put(state.ecosystems, seat, ecosystems)
    fields[AT_DISCARDS] = state.discards[:ECOSYSTEM] + (state.discards[ECOSYSTEM] + (old,),)
    fields[AT_LOG] = (log,)
    built = quick.end_turn(fields, seat) if MEMO.enabled else None
    if built is not None:
        return built
    table = _Table(state)
    table.ecosystems[seat] = ecosystems
    table.discards[ECOSYSTEM] = table.discards[ECOSYSTEM] + (old,)
    table.log.append(log)
    table.end_turn()
    return table.freeze()


def _compete(state: State, seat: Seat, action: Compete) -> State:
    cards = state.cards
    attacker, defender = cards.animal_by_id[action.attacker], cards.animal_by_id[action.defender]
    owner = state.owner(defender)
    paid = _symbols(action.pay, RULE_COMPETE)
    built = (quick.compete(state, seat, attacker, defender, owner, paid, attack_total, defence_total) if MEMO.enabled
             else None)
    if built is not None:
        return built
    table = _Table(state)
    table.pay(seat, paid)
    table.log.append(("compete", seat, (attacker, defender), owner))
    again = state.phase == FRENZY       # a compete again after a won one (the pending decisions keep it)
    # The owner is asked whenever the defender has the ability, whether or not they can pay: asking
    # only when they can would tell every seat what their hand holds.
    for ability in cards.animals[defender].with_effect("cancel_compete"):
        table.phase = CANCEL
        # (cancel_compete requires a symbol)
        table.pending = (owner, attacker, defender, cast(Symbol, ability.get("symbol")), ability.get("count"), again)
        return table.freeze()
    _roll_dice(table, seat, attacker, defender, owner, again)
    return table.freeze()


def _cancel(state: State, seat: Seat, action: CancelCompete) -> State:
    owner, attacker, defender, _, _, again = cast(CancelQuestion, state.pending)
    table = _Table(state)
    if action.cancel:       # (offered only when the owner can pay)
        symbol, count = cast(tuple[Symbol, int], cancel_payment(state, defender, owner))
        table.pay(owner, (symbol,) * count)
        table.log.append(("cancelled", owner, (attacker, defender), (symbol, count)))
        table.end_turn()
    else:
        table.log.append(("not_cancelled", owner, (attacker, defender), None))
        _roll_dice(table, state.seat, attacker, defender, owner, again)
    return table.freeze()


def _roll_dice(table: _Table, seat: Seat, attacker: AnimalCard, defender: AnimalCard, owner: Seat, again: bool) -> None:
    """Both dice, the automatic rerolls, then the optional rerolls as decisions."""
    attack, defend = table.roll(), table.roll()
    table.log.append(("dice", seat, (attack, defend), (attacker, defender)))
    state = table      # reroll_ability reads only the cards: the table answers that like a state
    automatic = reroll_ability(state, attacker, "attack", automatic=True)
    if automatic and attack in cast(tuple[int, ...], automatic.get("on")):     # (a reroll's ``on``: die results)
        attack = table.roll()
        table.log.append(("reroll", seat, (attack,), (attacker, automatic.name)))
    automatic = reroll_ability(state, defender, "defend", automatic=True)
    if automatic and defend in cast(tuple[int, ...], automatic.get("on")):
        defend = table.roll()
        table.log.append(("reroll", owner, (defend,), (defender, automatic.name)))
    # pending: (who decides, attacker, defender, attack roll, defence roll, stage, a compete again?)
    _next_reroll(table, seat, attacker, defender, owner, attack, defend, 0, again)


def _next_reroll(table: _Table, seat: Seat, attacker: AnimalCard, defender: AnimalCard, owner: Seat, attack: int,
                 defend: int, stage: int, again: bool) -> None:
    state = table      # reroll_ability reads only the cards: the table answers that like a state
    if stage == 0 and reroll_ability(state, attacker, "attack", automatic=False):
        table.phase, table.pending = REROLL, (seat, attacker, defender, attack, defend, 0, again)
        return
    if stage <= 1 and reroll_ability(state, defender, "defend", automatic=False):
        table.phase, table.pending = REROLL, (owner, attacker, defender, attack, defend, 1, again)
        return
    _resolve_compete(table, seat, attacker, defender, owner, attack, defend, again)


def _reroll(state: State, seat: Seat, action: Reroll) -> State:
    who, attacker, defender, attack, defend, stage, again = cast(RerollQuestion, state.pending)
    table = _Table(state)
    owner = state.owner(defender)
    animal = attacker if stage == 0 else defender
    if action.reroll:
        value = table.roll()
        if stage == 0:
            attack = value
        else:
            defend = value
        table.log.append(("reroll", who, (value,), (animal, "reroll")))
    else:       # (said too: the step is someone's decision)
        table.log.append(("keep_die", who, (attack if stage == 0 else defend,), animal))
    _next_reroll(table, state.seat, attacker, defender, owner, attack, defend, stage + 1, again)
    return table.freeze()


def _resolve_compete(table: _Table, seat: Seat, attacker: AnimalCard, defender: AnimalCard, owner: Seat, attack: int,
                     defend: int, again: bool) -> None:
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
            table.draw_resources(owner, ability.get("count"), (defender, ability.name))
    for other in range(table.players):
        for animal in table.teams[other]:
            for ability in cards.animals[animal].abilities:
                if ability.trigger == "defeated" and ability.effect == "draw" and ability.get("whose") == "any":
                    table.draw_resources(other, ability.get("count"), (animal, ability.name))
    if attacker in table.teams[seat]:
        for ability in cards.animals[attacker].abilities:
            if ability.effect == "steal":
                symbol = cast(Symbol, ability.get("symbol"))     # (steal requires a symbol)
                hand = list(table.hands[owner])
                taken: list[Symbol] = []
                for _ in range(ability.get("count")):
                    if symbol in hand:
                        hand.remove(symbol)
                        taken.append(symbol)
                table.hands[owner] = tuple(hand)
                table.give(seat, taken)
                table.known[owner] = known_less(table.known[owner], taken)
                table.shown(seat, taken)
                table.log.append(("steal", seat, tuple(taken), (owner, ability.name)))
    if table.check_win(seat):
        return
    # (switch extra_compete: "once" allows no compete again after a compete again)
    if (attacker in table.teams[seat] and cards.animals[attacker].with_effect("extra_compete")
            and not (again and FRENZY_ONCE in table.variants)):
        frenzy = table.view()._replace(phase=FRENZY, pending=(attacker,))
        if _competes(frenzy, seat, only=attacker):
            table.phase, table.pending = FRENZY, (attacker,)
            table.log.append(("frenzy", seat, (attacker,), None))
            return
    table.end_turn()


def _done(state: State, seat: Seat, action: Done) -> State:
    table = _Table(state)
    table.phase, table.pending = ACTION, ()
    table.end_turn()
    return table.freeze()


def _peek(state: State, seat: Seat, action: Peek) -> State:
    animal = next(a for a, ability in abilities(state, seat, "peek") if ability.get("deck") == "choice")
    d = DECK_NAMES.index(action.deck)
    top = state.decks[d][0] if state.decks[d] else EMPTY      # (as _Table.peek)
    fields = list(state)
    fields[AT_PHASE], fields[AT_LOG] = ACTION, (("peek", seat, (d, top), animal),)
    fields[AT_PEEKED] = noted_peek(state.peeked, seat, d, state.decks, state.shuffles)
    return make_state(fields)


#: An action's handler: (state, seat, an action of the handler's kind) -> the next state. (The
#: dictionaries pair each kind with its handler; the checker cannot follow which kind goes where.)
Handler = Callable[..., State]

_HANDLERS: Final[dict[tuple[str, type[Action]], Handler]] = {
    (ACTION, Explore): _explore, (ACTION, TradeWith): _trade_with, (ACTION, Forage): _forage,
    (ACTION, ForageAll): _forage_all, (ACTION, Discover): _discover, (ACTION, Compete): _compete,
    (TRADE, TradeGive): _trade_give, (TRADE, TradeAsk): _trade_ask, (TRADE, TradePropose): _trade_propose,
    (TRADE, TradeCancel): _trade_cancel, (TRADE_REPLY, TradeAnswer): _trade_answer, (FORAGE, ForagePick): _forage_second,
    (REPLACE, Replace): _replace, (CANCEL, CancelCompete): _cancel, (REROLL, Reroll): _reroll,
    (FRENZY, Compete): _compete, (FRENZY, Done): _done, (PEEK, Peek): _peek,
}
#: Each kind of action has one handler whatever the phase: the fast path of apply needs only the kind.
_HANDLER_OF: Final[dict[type[Action], Handler]] = {kind: handler for (_, kind), handler in _HANDLERS.items()}
assert all(_HANDLER_OF[kind] is handler for (_, kind), handler in _HANDLERS.items())
