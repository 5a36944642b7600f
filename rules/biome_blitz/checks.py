"""Biome Blitz's checks of an action that was not just offered: is it legal, and if not, which
rule refuses it and why (the message a player reads, in every language: the templates
``refusal.*`` of ``data/events.json``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache, partial
from typing import cast

from rules.biome_blitz.cards import ANIMAL, RESOURCE, SYMBOLS, WILD, AnimalCard, Cost, Deck
from rules.biome_blitz.state import (
    DECK_NAMES, EMPTY, FRENZY, MARKET, NOBODY, TRADES_PER_TURN, Action, CancelCompete, CancelQuestion, Compete, Discover,
    Explore, Forage, ForageAll, ForagePick, Hand, Peek, Replace, Reroll, State, TradeAnswer, TradeAsk, TradeCancel,
    TradeGive, TradeOffer, TradePropose, TradeWith,
)
from rules.biome_blitz.choices import (
    RULE_ABILITY, RULE_COMPETE, RULE_DISCOVER, RULE_ECOSYSTEMS, RULE_EXPLORE, RULE_FORAGE, RULE_MAIN, RULE_TRADE,
    GAME, _illegal, refusal,
)
from rules.biome_blitz.fast.listing import legal_actions
from rules.biome_blitz.costs import _names, abilities, cancel_payment, can_be_attacked, discover_cost, payments
from rules.eventtexts import Texts, joined, named, player, say
from rules.protocol import IllegalAction, Seat
from rules.rulebook import LANGUAGES



def _deck(name: object, rule: str) -> Deck:
    if name not in DECK_NAMES:
        _illegal("deck", rule, decks=_deck_names(), name=repr(name))
    return DECK_NAMES.index(name)


def _symbols(names: object, rule: str) -> Hand:
    """The symbols a payment names (a tuple or list of symbol names), as sorted indices; refused with
    the rule ``rule`` when it names anything else."""
    found = None
    if isinstance(names, (tuple, list)):
        try:
            found = _symbols_of(tuple(names))
        except TypeError:       # unhashable parts: refused below
            pass
    if found is None:
        _illegal("payment", rule, symbols=joined(map(_term, SYMBOLS)), names=repr(names))
    return found


@lru_cache(maxsize=10000)
def _symbols_of(names: tuple[object, ...]) -> Hand | None:
    """The sorted symbol indices of a tuple of names, or None when one is no symbol's name; remembered:
    payments repeat."""
    if any(n not in SYMBOLS for n in names):
        return None
    return tuple(sorted(SYMBOLS.index(n) for n in names))


def _animal(state: State, name: object, rule: str) -> AnimalCard:
    index = state.cards.animal_by_id.get(name) if isinstance(name, str) else None
    if index is None:
        _illegal("no_animal", rule, name=repr(name))
    return index


def _describe(action: object) -> Texts:
    """The action in words in every language (as ``BiomeBlitz.action_label`` names it), or its repr
    when its fields are malformed."""
    try:
        english = str(action)
    except Exception:
        return {lang: repr(action) for lang in LANGUAGES}
    return {lang: _label(action, lang, english) for lang in LANGUAGES}


def _label(action: object, lang: str, english: str) -> str:
    """``action_label(action, lang)``, or ``english`` when the action's fields name nothing the game knows."""
    from rules import get_game      # (here: the game module imports the engine)
    try:
        return get_game(GAME).action_label(action, lang)
    except Exception:
        return english


def _is_legal(state: State, seat: Seat, action: Action) -> bool:
    """``action in legal_actions(state, seat)``, answered without listing every action for the
    frequent kinds (the same conditions, checked for this one action)."""
    cards = state.cards
    if type(action) is Discover or type(action) is Compete or type(action) is Explore:
        pay = action.pay
        if not isinstance(pay, tuple) or any(p not in SYMBOLS for p in pay):
            return False
        paid = tuple(sorted(SYMBOLS.index(p) for p in pay))
        if _names(paid) != pay:
            return False
    if type(action) is Discover:
        if action.deck not in ("animal", "ecosystem") or type(action.slot) is not int or not 1 <= action.slot <= MARKET:
            return False
        d = DECK_NAMES.index(action.deck)
        card = state.markets[d][action.slot - 1]
        if card == EMPTY:
            return False
        cost, free, substitute = discover_cost(state, seat, d, card)
        return paid in payments(state.hands[seat], cost, free=free, substitute=substitute)
    if type(action) is Compete:
        attacker = cards.animal_by_id.get(action.attacker) if isinstance(action.attacker, str) else None
        defender = cards.animal_by_id.get(action.defender) if isinstance(action.defender, str) else None
        animal_label = partial(cards.card_label, ANIMAL)
        if attacker is None or defender is None or attacker not in state.teams[seat]:
            return False
        if state.phase == FRENZY and attacker != state.pending[0]:
            return False
        if state.owner(defender) in (NOBODY, seat) or can_be_attacked(state, attacker, defender) is not None:
            return False
        return paid in payments(state.hands[seat], cards.animals[attacker].battle_cost)
    if type(action) is Explore:
        if action.deck not in DECK_NAMES or not all(hand_has(state.hands[seat], paid)):
            return False
        d = DECK_NAMES.index(action.deck)
        if not (state.decks[d] or state.discards[d] or any(c != EMPTY for c in state.markets[d])):
            return False
        if len(paid) == 2 and paid[0] == paid[1] and paid[0] != WILD:
            return True
        return any(a.get("count") == len(paid) for _, a in abilities(state, seat, "explore_cost"))
    if type(action) is TradeWith:
        return (state.trades < TRADES_PER_TURN and type(action.seat) is int and 0 <= action.seat < state.players
                and action.seat != seat)
    if type(action) is TradeGive or type(action) is TradeAsk:
        if action.symbol not in SYMBOLS:
            return False
        partner, give, ask = cast(TradeOffer, state.pending)
        sym = SYMBOLS.index(action.symbol)
        if type(action) is TradeAsk:
            return len(ask) < len(state.hands[partner])
        return state.hands[seat].count(sym) > give.count(sym)
    if type(action) is TradePropose:
        offer = cast(TradeOffer, state.pending)
        return bool(offer[1] or offer[2])
    if type(action) is CancelCompete and action.cancel is True:
        owner, _, defender = cast(CancelQuestion, state.pending)[:3]
        return cancel_payment(state, defender, owner) is not None
    if type(action) is TradeCancel or type(action) is CancelCompete or type(action) is Reroll:
        return type(getattr(action, "cancel", getattr(action, "reroll", True))) is bool
    if type(action) is ForagePick:
        if type(action.slot) is not int or not 0 <= action.slot <= MARKET:
            return False
        if action.slot:
            return state.markets[RESOURCE][action.slot - 1] not in (EMPTY, WILD)
        return bool(state.decks[RESOURCE] or state.discards[RESOURCE])
    if type(action) is Forage:
        if type(action.slot) is not int or not 0 <= action.slot <= MARKET:
            return False
        if action.slot:
            return state.markets[RESOURCE][action.slot - 1] != EMPTY
        # (no resource left anywhere: the forage draws nothing, see choices._forages)
        return bool(state.decks[RESOURCE] or state.discards[RESOURCE]) or all(c == EMPTY for c in state.markets[RESOURCE])
    return action in legal_actions(state, seat)


def hand_has(hand: Hand, paid: Hand) -> Iterator[bool]:
    """Per symbol of ``paid``: does the hand hold that many?"""
    for sym in set(paid):
        yield hand.count(sym) >= paid.count(sym)


def _rule_of(kind: type[Action]) -> str:
    return {Explore: RULE_EXPLORE, TradeWith: RULE_TRADE, TradeGive: RULE_TRADE, TradeAsk: RULE_TRADE,
            TradePropose: RULE_TRADE, TradeAnswer: RULE_TRADE, Forage: RULE_FORAGE, ForagePick: RULE_FORAGE,
            ForageAll: RULE_ABILITY, Discover: RULE_DISCOVER, Replace: RULE_ECOSYSTEMS, Compete: RULE_COMPETE,
            Peek: RULE_ABILITY, CancelCompete: RULE_ABILITY}.get(kind, RULE_MAIN)


def _refusal(state: State, seat: Seat, action: Action) -> Texts:
    """A plain reason an action of the right kind is not allowed, in every language."""
    cards = state.cards
    hand = Counter(state.hands[seat])
    if isinstance(action, (Explore, Discover, Compete)):
        try:
            paid = Counter(_symbols(action.pay, RULE_MAIN))
        except IllegalAction as error:
            return error.reasons
        if paid - hand:
            missing = joined(_term(SYMBOLS[s]) for s in (paid - hand).elements())
            return refusal("not_held", who=player(seat), cards=missing)
    if isinstance(action, Explore):
        if action.deck not in DECK_NAMES:
            return refusal("deck", decks=_deck_names(), name=repr(action.deck))
        return refusal("explore_pair")
    if isinstance(action, TradeWith):
        return (refusal("trades_used") if state.trades >= TRADES_PER_TURN
                else refusal("no_partner", seat=repr(action.seat)))
    if isinstance(action, TradeAnswer):
        return refusal("cards_asked", who=player(seat))
    if isinstance(action, (Forage, ForagePick)):
        if type(action.slot) is not int or not 0 <= action.slot <= MARKET:
            return refusal("pick_slot", last=MARKET, slot=repr(action.slot))
        if action.slot and state.markets[RESOURCE][action.slot - 1] == WILD:
            return refusal("wild_first")
        return refusal("slot_empty") if action.slot else refusal("resources_gone")
    if isinstance(action, Discover):
        if action.deck not in ("animal", "ecosystem") or type(action.slot) is not int or not 1 <= action.slot <= MARKET:
            return refusal("discover_what")
        d = DECK_NAMES.index(action.deck)
        card = state.markets[d][action.slot - 1]
        if card == EMPTY:
            return refusal("market_empty", deck=_term(action.deck), slot=action.slot)
        cost, free, _ = discover_cost(state, seat, d, card)
        less = refusal("cost.less", free=free) if free else {lang: "" for lang in LANGUAGES}
        return refusal("cost", paid=joined(map(_term, action.pay), _term("nothing")), cost=_cost_texts(cost), less=less)
    if isinstance(action, Compete):
        attacker = cards.animal_by_id.get(action.attacker) if isinstance(action.attacker, str) else None
        defender = cards.animal_by_id.get(action.defender) if isinstance(action.defender, str) else None
        animal_label = partial(cards.card_label, ANIMAL)
        if attacker is None or attacker not in state.teams[seat]:
            return refusal("not_attacker", attacker=named(action.attacker, attacker, animal_label), who=player(seat))
        if defender is None or state.owner(defender) in (NOBODY, seat):
            return refusal("not_defender", defender=named(action.defender, defender, animal_label))
        if state.phase == FRENZY and attacker != state.pending[0]:
            return refusal("frenzy_same")
        why = can_be_attacked(state, attacker, defender)
        if why:
            return why
        return refusal("battle_cost", cost=_cost_texts(cards.animals[attacker].battle_cost))
    if isinstance(action, CancelCompete):
        symbol, count = cast(CancelQuestion, state.pending)[3:5]
        return refusal("cancel_unpaid", who=player(seat), count=count, symbol=_term(SYMBOLS[symbol]))
    if isinstance(action, ForageAll):
        return refusal("forage_all", animal=repr(action.animal), ability=repr(action.ability))
    if isinstance(action, Replace):
        return refusal("no_ecosystem", who=player(seat), ecosystem=repr(action.ecosystem))
    if isinstance(action, Peek):
        return refusal("decks", decks=_deck_names())
    return refusal("not_now", action=_describe(action))


def _term(name: str) -> Texts:
    """A word of the game (a symbol, a deck) in every language: the template ``term.<name>``."""
    return say(GAME, f"term.{name}")


def _deck_names() -> Texts:
    return joined(map(_term, DECK_NAMES))


def _cost_texts(cost: Cost) -> Texts:
    """A cost in words: "2 leaf + 1 water", "葉2つ＋水1つ"; "nothing" when it is free."""
    parts = [refusal("cost.part", count=n, symbol=_term(SYMBOLS[s])) for s, n in enumerate(cost) if n]
    if not parts:
        return _term("nothing")
    return {lang: (" + " if lang == "en" else "＋").join(part[lang] for part in parts) for lang in LANGUAGES}
