"""Biome Blitz's checks of an action that was not just offered: is it legal, and if not, which
rule refuses it and why (the message a player reads)."""

from __future__ import annotations

from collections import Counter

from rules.biome_blitz.cards import SYMBOLS, WILD
from rules.biome_blitz.state import (
    DECK_NAMES, EMPTY, FRENZY, MARKET, NOBODY, TRADES_PER_TURN, CancelCompete, Compete, Discover, Explore, Forage,
    ForageAll, ForagePick, Peek, Replace, Reroll, State, TradeAnswer, TradeAsk, TradeCancel, TradeGive, TradePropose,
    TradeWith,
)
from rules.biome_blitz.choices import (
    RULE_ABILITY, RULE_COMPETE, RULE_DISCOVER, RULE_ECOSYSTEMS, RULE_EXPLORE, RULE_FORAGE, RULE_MAIN, RULE_TRADE,
    _illegal, legal_actions, seat_name,
)
from rules.biome_blitz.costs import _names, abilities, can_be_attacked, discover_cost, payments
from rules.protocol import IllegalAction

RESOURCE, ANIMAL, ECOSYSTEM = range(3)


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
