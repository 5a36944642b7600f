"""Biome Blitz's choices: who decides, what each may choose (the legal actions worked out from the
rules: ``plain_legal_actions``; the engine puts the same lists together from remembered parts in
``fast/listing.py``), and the rules refusals name."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, Final, NoReturn, TypeVar, cast

from rules.biome_blitz.cards import ANIMAL, ECOSYSTEM, PLAIN, RESOURCE, SYMBOLS, WILD, Ability, AnimalCard, CardSet
from rules.biome_blitz.state import (
    ACTION, CANCEL, DECK_NAMES, EMPTY, FORAGE, FRENZY, MARKET, OVER, REPLACE, REROLL, TRADE, TRADE_REPLY,
    WILD_NOT_A_TYPE, TRADES_PER_TURN, Action, CancelCompete, CancelQuestion, Compete, Discover, Done, Explore, Forage,
    ForageAll, ForagePick, Hand, OfferToAnswer, Peek, Pile, Replace, Reroll, State, TradeAnswer, TradeAsk, TradeCancel,
    TradeGive, TradeOffer, TradePropose, TradeWith,
)
from rules.biome_blitz.costs import abilities, can_be_attacked, cancel_payment, discover_cost, payments
from rules.eventtexts import Texts, say
from rules.protocol import IllegalAction, Seat

T = TypeVar("T")

GAME: Final = "biome_blitz"

RULE_TURN: Final = "turn order: players take turns clockwise; only the player named to move acts"
RULE_MAIN: Final = "your turn: optional actions (Explore, Trade) any number of times, then one main action"
RULE_EXPLORE: Final = "Explore: pay two identical resources (leaf, water or meat) to replace one deck's face-up cards"
RULE_TRADE: Final = "Trade: on your turn, resource cards only, and only if the other player agrees"
RULE_FORAGE: Final = "Forage: take two resources, face up (refilled at once) or from the deck; a face-up wild only first, and it ends the forage"
RULE_DISCOVER: Final = "Discover: pay the card's exact cost (a wild is any one resource), gain its stars, refill"
RULE_ECOSYSTEMS: Final = "ecosystems: at most three; a fourth replaces one of them"
RULE_COMPETE: Final = "Compete: pay the battle cost, pick an animal of another team, both roll; ties go to the attacker"
RULE_ABILITY: Final = "animal abilities (the card's text)"
RULE_OVER: Final = "victory: 30 points or five animals ends the game"


def refusal(key: str, **values: Any) -> Texts:
    """Why a move is refused, in every language: the template ``refusal.<key>`` of ``data/events.json``."""
    return say(GAME, f"refusal.{key}", **values)


def _refuse(reasons: Texts, rule: str) -> NoReturn:
    raise IllegalAction(reasons["en"], rule=rule, reasons=reasons)


def _illegal(key: str, rule: str, **values: Any) -> NoReturn:
    """Refuse with the template ``refusal.<key>``, its placeholders filled with ``values`` (as ``say``)."""
    _refuse(refusal(key, **values), rule)


# -- who acts ------------------------------------------------------------------------------------
def to_move(state: State) -> tuple[Seat, ...]:
    phase = state.phase
    if phase == ACTION or phase == FORAGE or phase == TRADE:    # most decisions: asked first
        return _SEATS[state.seat]
    if phase == OVER:
        return ()
    if phase == TRADE_REPLY or phase == CANCEL or phase == REROLL:
        return (state.pending[0],)
    return (state.seat,)


#: (seat,) per seat, made once. (Typed as tuples of any length: mypyc keeps a value of a fixed-length
#: tuple type unboxed, and would build each (seat,) again as a new tuple when to_move returns it.)
_SEATS: Final[tuple[tuple[Seat, ...], ...]] = tuple((seat,) for seat in range(6))


# -- legal actions -------------------------------------------------------------------------------
def plain_legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every legal action for ``seat``, in a stable order, worked out from the rules alone: what the
    engine's ``legal_actions`` answers with the switch ``MEMO.enabled`` (``rules.biome_blitz.fast.memo``) off (with it on, the same
    lists put together from remembered parts: ``fast/listing.py``)."""
    phase = state.phase
    if phase == OVER or seat not in to_move(state):
        return []
    hand = state.hands[seat]
    if phase == ACTION:
        return _plain_action_phase(state, seat)
    if phase == FORAGE:
        has_deck = bool(state.decks[RESOURCE] or state.discards[RESOURCE])
        picks: list[Action] = [_FORAGE_PICK[i + 1] for i, s in enumerate(state.markets[RESOURCE]) if s not in (EMPTY, WILD)]
        return picks + ([_FORAGE_PICK[0]] if has_deck else [])
    if phase == TRADE:
        partner, give, ask = cast(TradeOffer, state.pending)
        return _trade_actions(hand, give, len(ask) < len(state.hands[partner]), bool(ask))
    if phase == TRADE_REPLY:
        ask = cast(OfferToAnswer, state.pending)[3]
        return [_ACCEPT, _REFUSE] if all(hand.count(s) >= ask.count(s) for s in set(ask)) else [_REFUSE]
    if phase == REPLACE:
        return [_replace_action(ecosystem=state.cards.ecosystems[k].id) for k in dict.fromkeys(state.ecosystems[seat])]
    if phase == CANCEL:     # "cancel" only in the owner's list, and only when they can pay
        owner, _, defender = cast(CancelQuestion, state.pending)[:3]
        return [*_CANCELS] if cancel_payment(state, defender, owner) else [*_CANCELS[1:]]
    if phase == REROLL:
        return [*_REROLLS]
    if phase == FRENZY:
        return _competes(state, seat, only=state.pending[0]) + [Done()]
    return [*_PEEKS]        # (PEEK)


def _plain_action_phase(state: State, seat: Seat) -> list[Action]:
    """Explore, Trade, Forage, ForageAll, Discover and Compete actions, in that order."""
    decks, discards, markets, hand = state.decks, state.discards, state.markets, state.hands[seat]
    explorable = sum(1 << d for d in range(len(DECK_NAMES)) if decks[d] or discards[d] or markets[d] != _NO_CARDS)
    out = _explores(state, seat, hand, explorable)
    if state.trades < TRADES_PER_TURN:
        out += _TRADE_WITH_BY[state.players][seat]
    out += _with_take_all(state, seat, _forages(markets[RESOURCE], bool(decks[RESOURCE] or discards[RESOURCE])))
    for d in (ANIMAL, ECOSYSTEM):
        for slot, card in enumerate(markets[d], 1):
            if card != EMPTY:
                cost, free, substitute = discover_cost(state, seat, d, card)
                for pay in payments(hand, cost, free=free, substitute=substitute):
                    out.append(_discover_action(deck=DECK_NAMES[d], slot=slot, pay=_named(pay)))
    return out + _competes(state, seat)


def _trade_actions(hand: Hand, give: Hand, can_ask: bool, asked: bool) -> list[Action]:
    out: list[Action] = [_GIVE[sym] for sym in range(4) if hand.count(sym) > give.count(sym)]
    if can_ask:
        out += _ASK
    if give or asked:
        out.append(_PROPOSE)
    out.append(_CANCEL_TRADE)
    return out


def _made(cls: Callable[..., T]) -> Callable[..., T]:
    """``cls`` behind a functools cache: action objects by their fields, made once, so legal_actions
    hands out the same objects each time (and ``apply`` knows them by identity)."""
    return lru_cache(maxsize=100000)(cls)


_explore_action = _made(Explore)
_discover_action = _made(Discover)
_compete_action = _made(Compete)
_replace_action = _made(Replace)
_forage_all_action = _made(ForageAll)
_GIVE: Final = tuple(TradeGive(symbol=name) for name in SYMBOLS)
_ASK: Final = tuple(TradeAsk(symbol=name) for name in SYMBOLS)
_PROPOSE: Final = TradePropose()
_CANCEL_TRADE: Final = TradeCancel()
_ACCEPT: Final = TradeAnswer(accept=True)
_REFUSE: Final = TradeAnswer(accept=False)
_CANCELS: Final = (CancelCompete(cancel=True), CancelCompete(cancel=False))
_REROLLS: Final = (Reroll(reroll=True), Reroll(reroll=False))
_PEEKS: Final = tuple(Peek(deck=name) for name in DECK_NAMES)
_FORAGE: Final = tuple(Forage(slot=i) for i in range(MARKET + 1))
_FORAGE_PICK: Final = tuple(ForagePick(slot=i) for i in range(MARKET + 1))
_TRADE_WITH: Final = tuple(TradeWith(seat=s) for s in range(6))
_TRADE_WITH_OTHERS: Final = {(players, seat): tuple(_TRADE_WITH[s] for s in range(players) if s != seat)
                      for players in range(1, 7) for seat in range(players)}
#: The same by players, then seat (indexing needs no hashing).
_TRADE_WITH_BY: Final = ((),) + tuple(tuple(_TRADE_WITH_OTHERS[players, seat] for seat in range(players))
                               for players in range(1, 7))
_NO_CARDS: Final = (EMPTY,) * MARKET


@lru_cache(maxsize=None)
def _named(pay: Hand) -> tuple[str, ...]:
    """A payment's symbols (indices) by name; remembered (few payments exist: multisets of at most a
    cost's units)."""
    return tuple(SYMBOLS[s] for s in pay)


def _with_take_all(state: State, seat: Seat, forages: Iterable[Action]) -> list[Action]:
    """The ``forages`` and the ForageAll actions of the seat's take_all_faceup abilities usable now."""
    out = [*forages]
    for animal, ability in abilities(state, seat, "take_all_faceup"):
        if _take_all(state, ability):
            action = _forage_all_action(animal=state.cards.animal_ids[animal], ability=ability.name)
            if action not in out:
                out.append(action)
    return out


def _forages(market: Pile, deck_has_cards: bool) -> list[Forage]:
    out = [_FORAGE[i + 1] for i, sym in enumerate(market) if sym != EMPTY]
    if deck_has_cards or not out:
        # With no resource left anywhere, a forage from the deck draws nothing ("when both are empty,
        # nothing is drawn"): a main action always exists.
        out.append(_FORAGE[0])
    return out


def second_pick_exists(deck: Pile, discard: Pile, market: Pile) -> bool:
    """Can a forage's second pick take anything: the deck (or its discards) or a face-up card that is
    not a wild? When not, the forage ends after its first pick."""
    return bool(deck or discard) or any(s != EMPTY and s != WILD for s in market)


def _explores(state: State, seat: Seat, hand: Hand, flags: int) -> list[Action]:
    """The Explore actions of ``hand`` for the decks ``flags`` (bits by deck) lets explore."""
    pays: list[Hand] = [(sym, sym) for sym in PLAIN if hand.count(sym) >= 2]
    cheap = [a for _, a in abilities(state, seat, "explore_cost")]
    if cheap:
        extra = set(pays)
        for ability in cheap:
            extra |= set(_sub_multisets(hand, ability.get("count")))
        pays = sorted(extra)
    return [_explore_action(deck=name, pay=_named(p)) for d, name in enumerate(DECK_NAMES) if flags >> d & 1 for p in pays]


def _sub_multisets(hand: Hand, size: int) -> list[Hand]:
    out: set[Hand] = {()}
    for card in hand:
        out |= {tuple(sorted(p + (card,))) for p in out if len(p) < size}
    return sorted(p for p in out if len(p) == size)


def _take_all(state: State, ability: Ability) -> tuple[int, ...]:
    """The market slots a take_all_faceup ability would take now (empty: it cannot be used)."""
    market = state.markets[RESOURCE]
    if ability.get("all_different"):
        shown = [s for s in market if s != EMPTY]
        if WILD in shown and WILD_NOT_A_TYPE in state.variants:     # (switch all_different_wild)
            return ()
        return tuple(range(MARKET)) if len(shown) == MARKET and len(set(shown)) == MARKET else ()
    return tuple(i for i, s in enumerate(market) if s == ability.get("symbol"))


def _competes(state: State, seat: Seat, only: AnimalCard | None = None) -> list[Action]:
    """Every (attacker, defender, payment) no ability forbids and the hand can pay the attacker's
    battle cost for, attackers in team order, defenders by seat then team order (the action phase
    puts the same list together from remembered pairs: ``_listing``)."""
    out: list[Action] = []
    cards, teams, hand = state.cards, state.teams, state.hands[seat]
    for attacker in teams[seat]:
        if only is not None and attacker != only:
            continue
        pays = tuple(map(_named, payments(hand, cards.animals[attacker].battle_cost)))
        for other in range(state.players):
            if other != seat:
                for defender in teams[other]:
                    if can_be_attacked(state, attacker, defender) is None:
                        out += _pair_actions(cards, attacker, defender, pays)
    return out


def _pair_actions(cards: CardSet, attacker: AnimalCard, defender: AnimalCard, pays: tuple[tuple[str, ...], ...]
                  ) -> tuple[Compete, ...]:
    a_id, d_id = cards.animal_ids[attacker], cards.animal_ids[defender]
    return tuple([_compete_action(attacker=a_id, defender=d_id, pay=p) for p in pays])
