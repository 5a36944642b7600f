"""Starligned: who acts and what they may choose (``to_move``, ``legal_actions``), with the rules
each refusal names. The choices' effects are applied in ``rules.starligned.rules``, whose docstring
gives the readings of the rules text both modules follow.
"""

from __future__ import annotations

from typing import Final, NoReturn, Protocol, Sequence

from rules.eventtexts import Texts, joined, player, say
from rules.protocol import IllegalAction, Seat
from rules.starligned.cards import LEFT, PHASE3_EFFECTS, RIGHT, Card, CardSet, Entry
from rules.starligned.state import (
    EFFECT, EXCHANGE, MOON, NONE, PLAY, REPEAT, ROTATE, ROUNDS, STAGES,
    Action, EffectAction, ExchangeCard, ExchangeWith, MoonBonus, MoonPair, MoveCard, PlayCard, RepeatEffect,
    RotateCard, RotateHandCard, RotateTelescope, State, Swap, Switches,
)

RULE_TURN: Final = "turn order: only the players named to move act"
RULE_PLAY: Final = "phase 1: every player puts one hand card face down at the right of their row, as it is held"
RULE_MOON: Final = "phase 3 moon bonus: a full moon on your last two cards lets you cover them or remove an opponent's moon card"
RULE_EFFECT: Final = "phase 3: resolve the active effect of your rightmost card, if it can be resolved"
RULE_SWAP: Final = "Swap: exchange the places of two unblocked cards in one player's row"
RULE_MOVE: Final = "Move: put this card anywhere in your row, but not between the two cards under a moon card"
RULE_ROTATE_CARD: Final = "Rotate star card: turn one unblocked played card of any row, not this card itself"
RULE_ROTATE_TELESCOPE: Final = "Rotate telescope: turn every card in one player's hand"
RULE_REPEAT: Final = "Repeat: the owner of a phase-3 effect on the table resolves it again"
RULE_EXCHANGE: Final = "Exchange: the row's owner swaps an unblocked row card with a card from their hand"
RULE_ROTATE_HAND: Final = "phase 4: rotate one hand card, then pass the hand left"
# (quoted in full by the refusal "blocked" of data/events.json)
RULE_BLOCKED: Final = "blocked cards: a card under a moon card cannot be swapped, moved, rotated or exchanged"
RULE_OVER: Final = "game end: two stages of five rounds"

EFFECT_RULES = {"swap": RULE_SWAP, "move": RULE_MOVE, "rotate_card": RULE_ROTATE_CARD,
                "rotate_telescope": RULE_ROTATE_TELESCOPE, "repeat": RULE_REPEAT, "exchange": RULE_EXCHANGE}
EFFECT_ACTION: dict[type[Action], str] = {
    Swap: "swap", MoveCard: "move", RotateCard: "rotate_card", RotateTelescope: "rotate_telescope",
    RepeatEffect: "repeat", ExchangeCard: "exchange"}


def refusal(key: str, **values: object) -> Texts:
    """Why a move is refused, in every language: the template ``refusal.<key>`` of ``data/events.json``."""
    return say("starligned", f"refusal.{key}", **values)


def effect_name(effect: str) -> Texts:
    """An effect's name in every language ("rotate card", "星カードの回転")."""
    return say("starligned", f"effect.{effect}")


def _refuse(reasons: Texts, rule: str) -> NoReturn:
    raise IllegalAction(reasons["en"], rule=rule, reasons=reasons)


def _illegal(key: str, rule: str, **values: object) -> NoReturn:
    """Refuse the move with ``refusal.<key>`` filled with ``values``, naming ``rule``."""
    _refuse(refusal(key, **values), rule)


class Board(Protocol):
    """What ``switch``, ``move_positions`` and ``resolvable`` read of a state: a :class:`State`, or the
    working copy of one apply (``rules._Table``), which answers them as the state it becomes."""

    @property
    def cards(self) -> CardSet: ...

    @property
    def players(self) -> int: ...

    @property
    def variants(self) -> Switches: ...

    @property
    def hands(self) -> tuple[tuple[Entry, ...], ...]: ...

    @property
    def rows(self) -> tuple[tuple[Entry, ...], ...]: ...

    @property
    def moons(self) -> tuple[tuple[MoonPair, ...], ...]: ...

    @property
    def ignored(self) -> tuple[Card, ...]: ...

    def blocked(self, seat: Seat, card: Card) -> bool: ...


#: The effect being resolved (``_source``): (actor, effect, row, card); a repeated effect's actor is its row's owner.
Source = tuple[Seat, str, Seat, Card]


def switch(state: Board, name: str) -> bool:
    """The variant ``name`` of a state, or of ``rules._Table`` (a working copy, which has ``variants`` too)."""
    for key, value in state.variants:
        if key == name:
            return value
    raise KeyError(name)


# -- who acts ------------------------------------------------------------------------------------
#: to_move's answers in phase 4, per ``chosen`` (1 or NONE per seat: a few patterns come back all game)
_WAITING: Final[dict[tuple[int, ...], tuple[Seat, ...]]] = {}
#: _SEATS_FROM[first][players]: the seats from ``first`` on
_SEATS_FROM = tuple(tuple(tuple(range(first, players)) for players in range(6)) for first in range(6))


def to_move(state: State) -> tuple[Seat, ...]:
    phase = state.phase
    if phase == PLAY or phase == ROTATE:
        chosen = state.chosen
        try:
            first = chosen.index(NONE)
        except ValueError:
            return ()
        if chosen.count(NONE) == len(chosen) - first:
            # The seats still to choose are the last ones (players who take turns in to_move's order choose
            # in seat order): a prebuilt tuple, found without a Python loop.
            return _SEATS_FROM[first][len(chosen)]
        waiting = _WAITING.get(chosen)
        if waiting is None:
            waiting = tuple([s for s, c in enumerate(chosen) if c == NONE])
            if phase == ROTATE:                           # (phase 1's chosen cards are seen once)
                if len(_WAITING) > 100000:
                    _WAITING.clear()
                _WAITING[chosen] = waiting
        return waiting
    if phase == MOON or phase == EFFECT:
        return (state.resolver,)
    if phase == REPEAT or phase == EXCHANGE:
        return (state.pending[0],)
    return ()


# -- prebuilt actions ----------------------------------------------------------------------------
class _Actions:
    def __init__(self, cards: CardSet) -> None:
        ids = cards.ids
        self.play = tuple(PlayCard(card=c) for c in ids)
        self.rotate_hand = tuple(RotateHandCard(card=c) for c in ids)
        #: card_of[id(action)]: the card of a PlayCard or RotateHandCard above (checked with ``is``:
        #: the objects live as long as this table, so their ids are not reused)
        self.card_of = {id(a): c for actions in (self.play, self.rotate_hand) for c, a in enumerate(actions)}
        #: the same actions indexed by a hand entry (2 * card + rotated)
        self.play_entry = tuple(self.play[e >> 1] for e in range(2 * len(ids)))
        self.rotate_entry = tuple(self.rotate_hand[e >> 1] for e in range(2 * len(ids)))
        self.exchange_with = tuple(ExchangeWith(card=c) for c in ids)
        self.rotate_telescope = tuple(RotateTelescope(seat=s) for s in range(5))
        self.rotate_card = tuple(tuple(RotateCard(row=r, card=c) for c in ids) for r in range(5))
        self.repeat = tuple(tuple(RepeatEffect(row=r, card=c) for c in ids) for r in range(5))
        self.exchange = tuple(tuple(ExchangeCard(row=r, card=c) for c in ids) for r in range(5))
        self.cover = MoonBonus(choice="cover")
        self.no_bonus = MoonBonus(choice="none")
        self.remove = tuple(tuple(MoonBonus(choice="remove", row=r, pair=c) for c in ids) for r in range(5))
        self.ids = ids
        self.cards = cards
        #: repeatable[entry]: the half that is up shows a phase-3 effect (Repeat can pick it); with the
        #: switch ``repeat_picks_repeat`` off, ``not_repeat`` says the same of every effect but Repeat
        self.repeatable = tuple(effect in PHASE3_EFFECTS for effect in cards.effect)
        self.not_repeat = tuple(effect in PHASE3_EFFECTS and effect != "repeat" for effect in cards.effect)
        #: swap_grids[row][b][a]: the Swap of the entries a and b in ``row`` (``swaps_in``), made on first use
        self.swap_grids: list[tuple[tuple[Swap, ...], ...] | None] = [None] * 5
        #: swap_last[row]: (entries, moons, unblocked entries, swaps) of the last ``swaps_in`` of ``row``
        self.swap_last: list[tuple[tuple[Entry, ...], tuple[MoonPair, ...], tuple[Entry, ...], tuple[Swap, ...]]
                             | None] = [None] * 5
        #: (state, seat, actions, source) of the last phase-3 listing (``source``: the effect's ``_source``,
        #: None for the moon bonus and the exchange's hand card): apply recognises those objects
        self.handed_out: tuple[State | None, Seat | None, Sequence[Action], Source | None] = (None, None, (), None)
        self.moves: list[tuple[MoveCard, ...] | None] = [None] * len(ids)
        #: in_play's answers per player count
        self.decks: dict[int, tuple[tuple[Card, ...], tuple[Card, ...]]] = {}

    def in_play(self, players: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The cards in play with ``players`` players and those left in the box (worked out once per count)."""
        found = self.decks.get(players)
        if found is None:
            in_play = self.cards.deck(players)
            playing = set(in_play)
            found = self.decks[players] = (in_play, tuple(i for i in range(len(self.ids)) if i not in playing))
        return found

    def swaps_in(self, row: Seat, entries: tuple[Entry, ...], moons: tuple[MoonPair, ...]) -> tuple[Swap, ...]:
        """Every Swap of two unblocked cards in ``row``, ordered by the right-hand card, then the left one.
        The last answer per row is kept with the row's own tuples: a row no move touched is the same
        object in the next state, so it is found by ``is``."""
        last = self.swap_last[row]
        if last is not None and last[0] is entries and last[1] is moons:
            return last[3]
        if moons:
            blocked = {card for pair in moons for card in pair}
            free = tuple([e for e in entries if e >> 1 not in blocked])
        else:
            free = entries
        by_right = self.swap_grids[row]
        if by_right is None:
            # Every Swap of this row, built once (a few thousand small objects per card set), and looked up
            # by the entries of its right-hand and left-hand cards: by_right[b][a] swaps a and b.
            ids = self.ids
            by_card = [[Swap(row=row, first=ids[a], second=ids[b]) for a in range(len(ids))] for b in range(len(ids))]
            every_entry = range(2 * len(ids))
            by_right = self.swap_grids[row] = tuple(tuple(by_card[b >> 1][a >> 1] for a in every_entry)
                                                    for b in every_entry)
        # By that order the pairs among the first k unblocked cards are the first k * (k - 1) / 2 swaps. A
        # row mostly only grows on the right between two listings, so the last answer's pairs among the
        # cards both lists start with are kept and only the pairs of the cards after them are new.
        known = 0
        found: tuple[Swap, ...] = ()
        if last is not None:
            before = last[2]
            if free[:len(before)] == before:
                known = len(before)
            else:
                for a, b in zip(before, free):
                    if a != b:
                        break
                    known += 1
            found = last[3][:known * (known - 1) // 2]
        # (``for column in (...,)`` names the right-hand card's swaps once for all its left-hand cards)
        found += tuple([column[a] for j in range(known, len(free))
                        for column in (by_right[free[j]],) for a in free[:j]])
        self.swap_last[row] = (entries, moons, free, found)
        return found

    def moves_of(self, card: Card) -> tuple[MoveCard, ...]:
        """The moves of ``card``: moves_of(card)[p - 1] moves it to position p."""
        found = self.moves[card]
        if found is None:
            # (a row holds at most STAGES * ROUNDS cards)
            found = self.moves[card] = tuple(MoveCard(card=self.ids[card], position=p)
                                             for p in range(1, STAGES * ROUNDS + 1))
        return found


def actions_for(cards: CardSet) -> _Actions:
    """The action table of a card set, made on first use and kept with it (``CardSet.action_table``)."""
    return cards.action_table


# -- what the table allows ------------------------------------------------------------------------
def full_moon(cards: CardSet, row: tuple[Entry, ...]) -> bool:
    """Do the row's last two cards show a full moon where they meet?"""
    return len(row) >= 2 and cards.moon_edge[row[-2]] == RIGHT and cards.moon_edge[row[-1]] == LEFT


def moon_actions(state: State, seat: Seat) -> list[MoonBonus]:
    """The moon bonus choices of ``seat`` (empty when it has none to take)."""
    row = state.rows[seat]
    cards = state.cards
    if not full_moon(cards, row):
        return []
    table = cards.action_table
    out: list[MoonBonus] = []
    if state.moon_supply > 0 and not state.blocked(seat, row[-1] >> 1) and not state.blocked(seat, row[-2] >> 1):
        out.append(table.cover)
    for other, pairs in enumerate(state.moons):
        if pairs and other != seat:
            remove = table.remove[other]
            out += [remove[left] for left, _ in pairs]
    if out:
        out.append(table.no_bonus)
    return out


def move_positions(state: Board, seat: Seat, card: Card) -> list[int]:
    """Positions (1 = leftmost) ``card`` may move to in ``seat``'s row: any place but its own and
    none between the two cards under a moon card (nor, with the switch ``move_between_moon_pairs`` off,
    between two blocked cards under different moon cards). Empty when the card is blocked."""
    entries = state.rows[seat]
    here = _index(entries, card)
    if here < 0 or state.blocked(seat, card):
        return []
    pairs = state.moons[seat]
    if not pairs:                                     # the usual case: every other place
        return [k + 1 for k in range(len(entries)) if k != here]
    row = [e >> 1 for e in entries]
    rest = row[:here] + row[here + 1:]
    blocked: set[Card] = set() if switch(state, "move_between_moon_pairs") else {c for pair in pairs for c in pair}
    moon_pairs = set(pairs)
    out = []
    for k in range(len(rest) + 1):
        if k == here:
            continue
        if 0 < k < len(rest) and ((rest[k - 1], rest[k]) in moon_pairs
                                  or (rest[k - 1] in blocked and rest[k] in blocked)):
            continue
        out.append(k + 1)
    return out


def effect_actions(state: State, actor: Seat, effect: str, row: Seat, card: Card) -> list[EffectAction]:
    """The ways ``actor`` can resolve ``effect`` of ``card`` (in ``row``'s owner's row); empty when it
    cannot be resolved (or acts at another time: stop, x2, x0)."""
    table = state.cards.action_table
    rows, moons = state.rows, state.moons
    out: list[EffectAction] = []
    if effect == "swap":
        swaps_in = table.swaps_in
        for r, entries in enumerate(rows):
            out += swaps_in(r, entries, moons[r])
    elif effect == "move":
        moves = table.moves_of(card)
        out = [moves[p - 1] for p in move_positions(state, row, card)]
    elif effect == "rotate_card":
        for r, entries in enumerate(rows):
            rotations = table.rotate_card[r]
            if moons[r]:
                blocked = {c for pair in moons[r] for c in pair}
                out += [rotations[e >> 1] for e in entries if e >> 1 not in blocked and e >> 1 != card]
            else:
                out += [rotations[e >> 1] for e in entries if e >> 1 != card]
    elif effect == "rotate_telescope":
        out = [table.rotate_telescope[s] for s, hand in enumerate(state.hands) if hand]
    elif effect == "repeat":
        repeatable = table.repeatable if switch(state, "repeat_picks_repeat") else table.not_repeat
        ignored = state.ignored
        for r, entries in enumerate(rows):
            repeats = table.repeat[r]
            if ignored:
                out += [repeats[e >> 1] for e in entries if repeatable[e] and e >> 1 not in ignored]
            else:
                out += [repeats[e >> 1] for e in entries if repeatable[e]]
    elif effect == "exchange":
        for r, entries in enumerate(rows):
            if state.hands[r]:
                exchanges = table.exchange[r]
                if moons[r]:
                    blocked = {c for pair in moons[r] for c in pair}
                    out += [exchanges[e >> 1] for e in entries if e >> 1 not in blocked]
                else:
                    out += [exchanges[e >> 1] for e in entries]
    return out


def resolvable(state: Board, effect: str, row: Seat, card: Card) -> bool:
    """Has ``effect`` of ``card`` (in ``row``'s owner's row) a legal target? (``effect_actions`` is
    non-empty, answered without building the actions.)"""
    rows, moons = state.rows, state.moons
    # The usual case first: the card's own row, without moon cards, already gives a target.
    own, own_moons = rows[row], moons[row]
    if effect == "swap":
        if not own_moons and len(own) >= 2:
            return True
        return any(len(r) - 2 * len(m) >= 2 for r, m in zip(rows, moons))
    if effect == "move":
        return bool(move_positions(state, row, card))
    if effect == "rotate_card":
        if not own_moons and len(own) >= 2:
            return True
        return any(len(r) - 2 * len(m) - (1 if s == row and not state.blocked(row, card) else 0) >= 1
                   for s, (r, m) in enumerate(zip(rows, moons)))
    if effect == "rotate_telescope":
        return any(state.hands)
    if effect == "repeat":
        effects, ignored = state.cards.effect, state.ignored
        if not switch(state, "repeat_picks_repeat"):
            return any(effects[e] in PHASE3_EFFECTS and effects[e] != "repeat" and e // 2 not in ignored
                       for r in rows for e in r)
        if card not in ignored:
            # The card itself shows a phase-3 effect (a Repeat repeating itself)? It is mostly the row's last.
            here = len(own) - 1 if own and own[-1] >> 1 == card else _index(own, card)
            if here >= 0 and effects[own[here]] in PHASE3_EFFECTS:
                return True
        return any(effects[e] in PHASE3_EFFECTS and e // 2 not in ignored for r in rows for e in r)
    if effect == "exchange":
        hands = state.hands
        if hands[row] and len(own) > 2 * len(own_moons):
            return True
        return any(h and len(r) > 2 * len(m) for h, r, m in zip(hands, rows, moons))
    return False


def effect_refusal(state: State, effect: str, row: Seat, card: Card, action: Action) -> Texts | None:
    """Why ``action`` cannot resolve ``effect`` of ``card`` now (in every language), or None when it can."""
    by_id = state.cards.by_id

    def row_card(r: Seat, name: str) -> tuple[Card | None, Texts | None]:
        if type(r) is not int or not 0 <= r < state.players:
            return None, refusal("no_row", row=repr(r), players=state.players)
        c = by_id.get(name) if isinstance(name, str) else None
        if c is None or _index(state.rows[r], c) < 0:
            return None, refusal("not_in_row", card=repr(name), owner=player(r))
        if effect != "repeat" and state.blocked(r, c):
            return None, refusal("blocked", card=name)
        return c, None

    if effect == "swap" and type(action) is Swap:
        a, why = row_card(action.row, action.first)
        b, why2 = row_card(action.row, action.second)
        return why or why2 or (refusal("swap_itself") if a == b else None)
    if effect == "move" and type(action) is MoveCard:
        if action.card != state.cards.ids[card]:
            return refusal("move_other_card", card=state.cards.ids[card], other=repr(action.card))
        positions = move_positions(state, row, card)
        if action.position not in positions:
            return (refusal("blocked", card=action.card) if state.blocked(row, card) else
                    refusal("move_position", card=action.card, position=repr(action.position),
                            possible=joined(positions)))
        return None
    if effect == "rotate_card" and type(action) is RotateCard:
        c, why = row_card(action.row, action.card)
        return why or (refusal("rotate_itself") if c == card else None)
    if effect == "rotate_telescope" and type(action) is RotateTelescope:
        if type(action.seat) is not int or not 0 <= action.seat < state.players:
            return refusal("no_seat_numbered", seat=repr(action.seat), players=state.players)
        return None if state.hands[action.seat] else refusal("no_hand_to_rotate", who=player(action.seat))
    if effect == "repeat" and type(action) is RepeatEffect:
        c, why = row_card(action.row, action.card)
        if c is None:
            return why
        e = state.rows[action.row][_index(state.rows[action.row], c)]
        if c in state.ignored:
            return refusal("repeat_ignored", card=action.card)
        if state.cards.effect[e] == "repeat" and not switch(state, "repeat_picks_repeat"):
            return refusal("repeat_picks_repeat", card=action.card)
        return None if state.cards.effect[e] in PHASE3_EFFECTS else refusal("repeat_no_effect", card=action.card)
    if effect == "exchange" and type(action) is ExchangeCard:
        c, why = row_card(action.row, action.card)
        return why or (None if state.hands[action.row] else refusal("no_hand_to_exchange", who=player(action.row)))
    return refusal("nothing_to_resolve", effect={"en": effect, "ja": effect_name(effect)["ja"]})


def _index(entries: tuple[Entry, ...], card: Card) -> int:
    """Where ``card`` lies among ``entries`` (a row or a hand), or -1."""
    for i, e in enumerate(entries):
        if e >> 1 == card:
            return i
    return -1


def _source(state: State) -> Source:
    """The effect being resolved now: (actor, effect, row, card)."""
    if state.phase == REPEAT:
        owner, card = state.pending
        row = state.rows[owner]
        return owner, state.cards.effect[row[_index(row, card)]], owner, card
    seat = state.resolver
    last = state.rows[seat][-1]
    return seat, state.cards.effect[last], seat, last // 2


def legal_actions(state: State, seat: Seat) -> Sequence[Action]:
    phase = state.phase
    table = state.cards.action_table
    if phase == PLAY:
        if not 0 <= seat < state.players or state.chosen[seat] != NONE:
            return []
        play = table.play_entry
        return [play[e] for e in state.hands[seat]]  # (faster than map with a tuple's __getitem__)
    if phase == ROTATE:
        if not 0 <= seat < state.players or state.chosen[seat] != NONE:
            return []
        rotate = table.rotate_entry
        return [rotate[e] for e in state.hands[seat]]
    if phase == MOON:
        if seat != state.resolver:
            return []
        out: Sequence[Action] = moon_actions(state, seat)
        table.handed_out = (state, seat, out, None)
        return out
    if phase == EFFECT or phase == REPEAT:
        if seat != (state.resolver if phase == EFFECT else state.pending[0]):   # to_move(state)[0]
            return []
        source = _source(state)
        out = effect_actions(state, *source)
        # Remembered for apply: an action object handed out here for this very state and seat is legal.
        table.handed_out = (state, seat, out, source)
        return out
    if phase == EXCHANGE:
        if seat != state.pending[0]:
            return []
        exchange_with = table.exchange_with
        out = [exchange_with[e >> 1] for e in state.hands[seat]]
        table.handed_out = (state, seat, out, None)
        return out
    return []
