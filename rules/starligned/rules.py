"""Starligned's rounds: setup, legal actions and their effects.

Follows ``starligned.ja.txt`` (セットアップ, ラウンドのプレイ, 効果の一覧, ステージとゲームの終了) as read by
RULINGS.md Starligned 1-8 and CARD-DATA-RESEARCH.md 2.3. What the texts leave open is decided here,
each with its reason:
- Dealt cards come off the shuffled deck in either orientation, at random (seeded): a two-ended deck
  has no "up" until it is dealt (switch ``deal_high_up``: every card dealt with its high half up).
- Phase 1 is simultaneous: every player still to choose is in ``to_move``; the chosen card leaves the
  hand face down and stays hidden until the last player has chosen.
- The moon bonus is optional ("can"), needs the row's last two cards to show a full moon where they
  meet; covering needs both unblocked and a moon card in the supply (else only removal remains).
- An effect must be resolved when it has a legal target; when it has none it does nothing. Stop, x2
  and x0 do nothing in phase 3. Move must change the card's place. Swap may include the card just
  played; Rotate star card may not pick the rotating card itself.
- Repeat may pick any card on the table showing a phase-3 effect, its own included, but not one whose
  effect an Exchange made ignored this round; the owner of that card resolves the effect again as if
  it were theirs (a Move moves that card, a Rotate star card may not pick that card). A repeated
  Repeat does nothing (RULINGS 5).
- Exchange: the chosen row's owner picks the hand card that takes the row card's place; it enters the
  row as it was held, the row card goes to the hand as it lay, and the incoming card's phase-3 effect
  is ignored for the rest of the round.
- Phase 4 is simultaneous too. The hands then pass left with the direction cards, so the start-player
  card moves one seat left every round in which hands are passed.
"""

from __future__ import annotations

import random
from typing import Sequence

from rules.protocol import IllegalAction
from rules.starligned.cards import LEFT, PHASE3_EFFECTS, RIGHT, CardSet
from rules.starligned.state import (
    EFFECT, EXCHANGE, HAND, MOON, NONE, OVER, PLAY, REPEAT, ROTATE, ROUNDS, STAGES,
    ExchangeCard, ExchangeWith, MoonBonus, MoveCard, PlayCard, RepeatEffect, RotateCard, RotateHandCard,
    RotateTelescope, State, Swap,
)

RULE_TURN = "turn order: only the players named to move act"
RULE_PLAY = "phase 1: every player puts one hand card face down at the right of their row, as it is held"
RULE_MOON = "phase 3 moon bonus: a full moon on your last two cards lets you cover them or remove an opponent's moon card"
RULE_EFFECT = "phase 3: resolve the active effect of your rightmost card, if it can be resolved"
RULE_SWAP = "Swap: exchange the places of two unblocked cards in one player's row"
RULE_MOVE = "Move: put this card anywhere in your row, but not between the two cards under a moon card"
RULE_ROTATE_CARD = "Rotate star card: turn one unblocked played card of any row, not this card itself"
RULE_ROTATE_TELESCOPE = "Rotate telescope: turn every card in one player's hand"
RULE_REPEAT = "Repeat: the owner of a phase-3 effect on the table resolves it again"
RULE_EXCHANGE = "Exchange: the row's owner swaps an unblocked row card with a card from their hand"
RULE_ROTATE_HAND = "phase 4: rotate one hand card, then pass the hand left"
RULE_BLOCKED = "blocked cards: a card under a moon card cannot be swapped, moved, rotated or exchanged"
RULE_OVER = "game end: two stages of five rounds"

EFFECT_RULES = {"swap": RULE_SWAP, "move": RULE_MOVE, "rotate_card": RULE_ROTATE_CARD,
                "rotate_telescope": RULE_ROTATE_TELESCOPE, "repeat": RULE_REPEAT, "exchange": RULE_EXCHANGE}
EFFECT_ACTION = {Swap: "swap", MoveCard: "move", RotateCard: "rotate_card", RotateTelescope: "rotate_telescope",
                 RepeatEffect: "repeat", ExchangeCard: "exchange"}


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


def _illegal(reason: str, rule: str):
    raise IllegalAction(reason, rule=rule)


# -- setup ---------------------------------------------------------------------------------------
def _deal(rng: random.Random, deck: Sequence[int], players: int,
          high_up: bool) -> tuple[tuple[tuple[int, ...], ...], Sequence[int]]:
    """Six cards from the top of ``deck`` to each player in turn: the hands, and the rest of the deck."""
    hands = []
    randrange = rng.randrange
    for top in range(0, players * HAND, HAND):
        if high_up:
            hand = [2 * card for card in deck[top:top + HAND]]
        else:
            hand = [2 * card + randrange(2) for card in deck[top:top + HAND]]
        hand.sort()
        hands.append(tuple(hand))
    return tuple(hands), deck[players * HAND:]


def new_state(cards: CardSet, players: int, seed: int, variants: tuple) -> State:
    rng = random.Random(seed)
    table = cards.__dict__.get("_actions") or actions_for(cards)
    in_play, box = table.in_play(players)
    in_play = list(in_play)
    rng.shuffle(in_play)
    high_up = dict(variants).get("deal_high_up", False)
    hands, deck = _deal(rng, in_play, players, high_up)
    start = rng.randrange(players)
    return State(
        cards=cards, players=players, variants=variants, seed=seed, deck=tuple(deck), box=box, discard=(),
        hands=hands, rows=((),) * players, moons=((),) * players, moon_supply=cards.moon_cards,
        chosen=(NONE,) * players, start_player=start, stage=0, round=0, phase=PLAY, resolver=NONE, pending=(),
        ignored=(), stopped=False,
        log=(("setup", None, (), start), *[("deal", s, hands[s], None) for s in range(players)]),
    )


# -- who acts ------------------------------------------------------------------------------------
#: to_move's answers in phase 4, per ``chosen`` (1 or NONE per seat: a few patterns come back all game)
_WAITING: dict = {}
#: _SEATS_FROM[first][players]: the seats from ``first`` on
_SEATS_FROM = tuple(tuple(tuple(range(first, players)) for players in range(6)) for first in range(6))


def to_move(state: State) -> tuple[int, ...]:
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
    def __init__(self, cards: CardSet):
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
        #: repeatable[entry]: the half that is up shows a phase-3 effect (Repeat can pick it)
        self.repeatable = tuple(effect in PHASE3_EFFECTS for effect in cards.effect)
        self.swap_grids = [None] * 5
        self.swap_last = [None] * 5
        #: (state, seat, actions, source) of the last phase-3 listing (``source``: the effect's ``_source``,
        #: None for the moon bonus and the exchange's hand card): apply recognises those objects
        self.handed_out = (None, None, (), None)
        self.moves = [None] * len(ids)
        #: in_play's answers per player count
        self.decks = {}

    def in_play(self, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The cards in play with ``players`` players and those left in the box (worked out once per count)."""
        found = self.decks.get(players)
        if found is None:
            in_play = self.cards.deck(players)
            playing = set(in_play)
            found = self.decks[players] = (in_play, tuple(i for i in range(len(self.ids)) if i not in playing))
        return found

    def swaps_in(self, row: int, entries: tuple[int, ...], moons: tuple) -> tuple[Swap, ...]:
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
        known, found = 0, ()
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

    def moves_of(self, card: int) -> tuple[MoveCard, ...]:
        """The moves of ``card``: moves_of(card)[p - 1] moves it to position p."""
        found = self.moves[card]
        if found is None:
            # (a row holds at most STAGES * ROUNDS cards)
            found = self.moves[card] = tuple(MoveCard(card=self.ids[card], position=p)
                                             for p in range(1, STAGES * ROUNDS + 1))
        return found


def actions_for(cards: CardSet) -> _Actions:
    table = cards.__dict__.get("_actions")
    if table is None:
        table = cards.__dict__["_actions"] = _Actions(cards)
    return table


# -- what the table allows ------------------------------------------------------------------------
def full_moon(cards: CardSet, row: tuple[int, ...]) -> bool:
    """Do the row's last two cards show a full moon where they meet?"""
    return len(row) >= 2 and cards.moon_edge[row[-2]] == RIGHT and cards.moon_edge[row[-1]] == LEFT


def moon_actions(state: State, seat: int) -> list:
    """The moon bonus choices of ``seat`` (empty when it has none to take)."""
    row = state.rows[seat]
    cards = state.cards
    if not full_moon(cards, row):
        return []
    table = cards.__dict__.get("_actions") or actions_for(cards)
    out = []
    if state.moon_supply > 0 and not state.blocked(seat, row[-1] >> 1) and not state.blocked(seat, row[-2] >> 1):
        out.append(table.cover)
    for other, pairs in enumerate(state.moons):
        if pairs and other != seat:
            remove = table.remove[other]
            out += [remove[left] for left, _ in pairs]
    if out:
        out.append(table.no_bonus)
    return out


def move_positions(state: State, seat: int, card: int) -> list[int]:
    """Positions (1 = leftmost) ``card`` may move to in ``seat``'s row: any place but its own and
    none between the two cards under a moon card. Empty when the card is blocked."""
    entries = state.rows[seat]
    here = _index(entries, card)
    if here < 0 or state.blocked(seat, card):
        return []
    pairs = state.moons[seat]
    if not pairs:                                     # the usual case: every other place
        return [k + 1 for k in range(len(entries)) if k != here]
    row = [e >> 1 for e in entries]
    rest = row[:here] + row[here + 1:]
    pairs = set(pairs)
    out = []
    for k in range(len(rest) + 1):
        if k == here:
            continue
        if 0 < k < len(rest) and (rest[k - 1], rest[k]) in pairs:
            continue
        out.append(k + 1)
    return out


def effect_actions(state: State, actor: int, effect: str, row: int, card: int) -> list:
    """The ways ``actor`` can resolve ``effect`` of ``card`` (in ``row``'s owner's row); empty when it
    cannot be resolved (or acts at another time: stop, x2, x0)."""
    table = state.cards.__dict__.get("_actions") or actions_for(state.cards)
    rows, moons = state.rows, state.moons
    out = []
    if effect == "swap":
        swaps_in = table.swaps_in
        for r, entries in enumerate(rows):
            out += swaps_in(r, entries, moons[r])
    elif effect == "move":
        moves = table.moves_of(card)
        out = [moves[p - 1] for p in move_positions(state, row, card)]
    elif effect == "rotate_card":
        for r, entries in enumerate(rows):
            actions = table.rotate_card[r]
            if moons[r]:
                blocked = {c for pair in moons[r] for c in pair}
                out += [actions[e >> 1] for e in entries if e >> 1 not in blocked and e >> 1 != card]
            else:
                out += [actions[e >> 1] for e in entries if e >> 1 != card]
    elif effect == "rotate_telescope":
        out = [table.rotate_telescope[s] for s, hand in enumerate(state.hands) if hand]
    elif effect == "repeat":
        repeatable, ignored = table.repeatable, state.ignored
        for r, entries in enumerate(rows):
            actions = table.repeat[r]
            if ignored:
                out += [actions[e >> 1] for e in entries if repeatable[e] and e >> 1 not in ignored]
            else:
                out += [actions[e >> 1] for e in entries if repeatable[e]]
    elif effect == "exchange":
        for r, entries in enumerate(rows):
            if state.hands[r]:
                actions = table.exchange[r]
                if moons[r]:
                    blocked = {c for pair in moons[r] for c in pair}
                    out += [actions[e >> 1] for e in entries if e >> 1 not in blocked]
                else:
                    out += [actions[e >> 1] for e in entries]
    return out


def resolvable(state: State, effect: str, row: int, card: int) -> bool:
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


def effect_refusal(state: State, effect: str, row: int, card: int, action) -> str | None:
    """Why ``action`` cannot resolve ``effect`` of ``card`` now, or None when it can."""
    by_id = state.cards.by_id

    def row_card(r, name) -> tuple[int | None, str | None]:
        if type(r) is not int or not 0 <= r < state.players:
            return None, f"there is no row {r!r} in a {state.players}-player game (rows are numbered from 0)"
        c = by_id.get(name) if isinstance(name, str) else None
        if c is None or _index(state.rows[r], c) < 0:
            return None, f"{name!r} is not in {seat_name(r)}'s row"
        if effect != "repeat" and state.blocked(r, c):
            return None, f"{name} is under a moon card ({RULE_BLOCKED})"
        return c, None

    if effect == "swap":
        a, why = row_card(action.row, action.first)
        b, why2 = row_card(action.row, action.second)
        return why or why2 or ("a card cannot be swapped with itself" if a == b else None)
    if effect == "move":
        if action.card != state.cards.ids[card]:
            return f"this Move moves {state.cards.ids[card]}, not {action.card!r}"
        positions = move_positions(state, row, card)
        if action.position not in positions:
            return (f"{action.card} is under a moon card ({RULE_BLOCKED})" if state.blocked(row, card) else
                    f"{action.card} cannot go to position {action.position!r} (possible: {', '.join(map(str, positions))})")
        return None
    if effect == "rotate_card":
        c, why = row_card(action.row, action.card)
        return why or ("the rotating card cannot rotate itself" if c == card else None)
    if effect == "rotate_telescope":
        if type(action.seat) is not int or not 0 <= action.seat < state.players:
            return f"there is no seat {action.seat!r} in a {state.players}-player game (seats are numbered from 0)"
        return None if state.hands[action.seat] else f"{seat_name(action.seat)} has no hand card to rotate"
    if effect == "repeat":
        c, why = row_card(action.row, action.card)
        if why:
            return why
        e = state.rows[action.row][_index(state.rows[action.row], c)]
        if c in state.ignored:
            return f"{action.card} came in by Exchange this round: its effect is ignored"
        return None if state.cards.effect[e] in PHASE3_EFFECTS else f"{action.card} shows no phase-3 effect"
    if effect == "exchange":
        c, why = row_card(action.row, action.card)
        return why or (None if state.hands[action.row] else f"{seat_name(action.row)} has no hand card to exchange")
    return f"{effect} has nothing to resolve"


def _index(entries: tuple[int, ...], card: int) -> int:
    """Where ``card`` lies among ``entries`` (a row or a hand), or -1."""
    for i, e in enumerate(entries):
        if e >> 1 == card:
            return i
    return -1


def _source(state: State) -> tuple[int, str, int, int]:
    """The effect being resolved now: (actor, effect, row, card)."""
    if state.phase == REPEAT:
        owner, card = state.pending
        row = state.rows[owner]
        return owner, state.cards.effect[row[_index(row, card)]], owner, card
    seat = state.resolver
    last = state.rows[seat][-1]
    return seat, state.cards.effect[last], seat, last // 2


def legal_actions(state: State, seat: int) -> list:
    phase = state.phase
    table = state.cards.__dict__.get("_actions") or actions_for(state.cards)
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
        out = moon_actions(state, seat)
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


# -- applying ------------------------------------------------------------------------------------
def _put(zones: tuple, index: int, value) -> tuple:
    zones = list(zones)
    zones[index] = value
    return tuple(zones)


class _Table:
    """A working copy of a state for one apply."""

    __slots__ = ("s", "cards", "players", "deck", "discard", "hands", "rows", "moons", "moon_supply", "chosen",
                 "start_player", "stage", "round", "phase", "resolver", "pending", "ignored", "stopped", "log")

    def __init__(self, state: State):
        self.s = state
        # ``cards`` and ``players`` are copied too: ``resolvable`` and ``move_positions`` ask them of this copy.
        (self.cards, self.players, _, _, self.deck, _, self.discard, self.hands, self.rows, self.moons,
         self.moon_supply, self.chosen, self.start_player, self.stage, self.round, self.phase, self.resolver,
         self.pending, self.ignored, self.stopped, _) = state
        self.log = []

    def freeze(self) -> State:
        s = self.s
        return tuple.__new__(State, (
            self.cards, self.players, s.variants, s.seed, self.deck, s.box, self.discard, self.hands, self.rows,
            self.moons, self.moon_supply, self.chosen, self.start_player, self.stage, self.round, self.phase,
            self.resolver, self.pending, self.ignored, self.stopped, tuple(self.log)))

    # -- the questions ``resolvable`` and ``move_positions`` ask of a state, asked of the working copy
    def blocked(self, seat: int, card: int) -> bool:
        for pair in self.moons[seat]:
            if card in pair:
                return True
        return False

    def has_moon_bonus(self, seat: int) -> bool:
        """``moon_actions`` is not empty (asked without building the actions)."""
        row = self.rows[seat]
        if not full_moon(self.cards, row):
            return False
        if self.moon_supply > 0 and not self.blocked(seat, row[-1] >> 1) and not self.blocked(seat, row[-2] >> 1):
            return True
        return any(self.moons[other] for other in range(self.players) if other != seat)

    def rotate_in_row(self, seat: int, card: int) -> int:
        """Turn ``card`` in ``seat``'s row; the card's new entry."""
        row = self.rows[seat]
        i = _index(row, card)
        e = row[i] ^ 1
        self.rows = _put(self.rows, seat, row[:i] + (e,) + row[i + 1:])
        return e

    # -- the round's steps -------------------------------------------------------------------
    def reveal(self) -> None:
        rows = list(self.rows)
        log = self.log
        for seat, e in enumerate(self.chosen):
            rows[seat] = rows[seat] + (e,)
            log.append(("reveal", seat, (e,), None))
        self.rows = tuple(rows)
        played = self.chosen
        self.chosen = (NONE,) * self.players
        self.ignored = ()
        effect = self.cards.effect
        stoppers = tuple([s for s, e in enumerate(played) if effect[e] == "stop"])
        self.stopped = bool(stoppers)
        if stoppers:
            log.append(("stop", None, (), stoppers))
            self.end_phase3()
        else:
            self.begin_turn(self.start_player)

    def begin_turn(self, seat: int) -> None:
        """``seat``'s turn in phase 3: its moon bonus, then its effect."""
        self.phase3_from(seat, moon_offered=False)

    def begin_effect(self) -> None:
        """The resolver's effect, its moon bonus (if any) taken."""
        self.phase3_from(self.resolver, moon_offered=True)

    def next_resolver(self) -> None:
        self.pending = ()
        nxt = (self.resolver + 1) % self.players
        if nxt == self.start_player:
            self.end_phase3()
        else:
            self.phase3_from(nxt, moon_offered=False)

    def phase3_from(self, seat: int, moon_offered: bool) -> None:
        """Phase 3 from ``seat`` on, seat after seat, up to the first decision (a moon bonus, or an effect
        with a target) or the end of the phase. A seat whose card does nothing is logged and passed."""
        # One loop over the seats rather than calls from seat to seat: this runs after every phase-3 move.
        cards, log, players, start = self.cards, self.log, self.players, self.start_player
        effects, moon_edge = cards.effect, cards.moon_edge
        shows_phase3 = (cards.__dict__.get("_actions") or actions_for(cards)).repeatable
        while True:
            if not moon_offered:
                self.resolver = seat
                self.pending = ()
                row = self.rows[seat]
                # (the full-moon test of ``has_moon_bonus``, first, inline: most rows end without one)
                if (len(row) >= 2 and moon_edge[row[-2]] == RIGHT and moon_edge[row[-1]] == LEFT
                        and self.has_moon_bonus(seat)):
                    self.phase = MOON
                    log.append(("moon_offer", seat, (), None))
                    return
            moon_offered = False
            last = self.rows[seat][-1]
            effect = effects[last]
            if last >> 1 in self.ignored:
                log.append(("ignored", seat, (last,), effect))
            elif not shows_phase3[last]:
                log.append(("no_effect", seat, (last,), effect))
            else:
                self.phase = EFFECT
                if resolvable(self, effect, seat, last >> 1):
                    log.append(("effect", seat, (last,), effect))
                    return
                log.append(("unresolvable", seat, (last,), effect))
            self.pending = ()
            seat = (seat + 1) % players
            if seat == start:
                self.end_phase3()
                return

    def end_phase3(self) -> None:
        self.resolver = NONE
        self.pending = ()
        if self.round == ROUNDS - 1:
            self.end_stage()
        else:
            self.phase = ROTATE
            self.chosen = (NONE,) * self.players
            self.log.append(("rotate_phase", None, (), None))

    def end_stage(self) -> None:
        state = self.s
        discarded = tuple(e for hand in self.hands for e in hand)
        for seat, hand in enumerate(self.hands):
            if hand:
                self.log.append(("discard", seat, hand, None))
        self.discard = self.discard + discarded
        self.hands = ((),) * state.players
        if self.stage == STAGES - 1:
            self.phase = OVER
            self.log.append(("game_over", None, (), None))
            return
        self.stage += 1
        self.round = 0
        rng = random.Random(f"starligned:{state.seed}:stage{self.stage}")
        self.hands, deck = _deal(rng, self.deck, state.players, state.variant("deal_high_up"))
        self.deck = tuple(deck)
        self.phase = PLAY
        self.chosen = (NONE,) * state.players
        self.log.append(("stage", None, (), self.stage))
        self.log.extend(("deal", s, self.hands[s], None) for s in range(state.players))

    def pass_left(self) -> None:
        n = self.players
        self.hands = tuple(self.hands[(s - 1) % n] for s in range(n))
        self.start_player = (self.start_player + 1) % n
        self.round += 1
        self.phase = PLAY
        self.chosen = (NONE,) * n
        self.log.append(("pass", None, (), self.start_player))


def _hand_entry(state: State, seat: int, name, rule: str) -> int:
    card = state.cards.by_id.get(name) if isinstance(name, str) else None
    for e in state.hands[seat]:
        if e // 2 == card:
            return e
    _illegal(f"{seat_name(seat)} has no {name!r} in hand", rule)


def _quick_choice(state: State, seat: int, action, playing: bool) -> State | None:
    """Phase 1 or 4 for a seat still to choose (every such call): the new state built directly (the
    last choice of phase 1 then reveals through ``_Table``), or None when anything is unusual (the
    full path then checks and explains)."""
    # The state is unpacked once into locals and the new one built as one tuple: attribute reads and a
    # field list were a good part of the cost of these, the most frequent decisions.
    (cards, players, variants, seed, deck, box, discard, hands, rows, moons, moon_supply, chosen, start_player, stage,
     round_, phase, resolver, pending, ignored, stopped, _) = state
    if type(seat) is not int or not 0 <= seat < players or chosen[seat] != NONE:
        return None
    table = cards.__dict__.get("_actions") or actions_for(cards)
    # An action legal_actions handed out is known by its id (the table keeps those objects alive, so no
    # other object can have that id); any other is found by its card's name.
    card = table.card_of.get(id(action))
    if card is None:
        card = cards.by_id.get(action.card) if isinstance(action.card, str) else None
        if card is None:
            return None
    hand = hands[seat]
    e = card << 1
    if e not in hand:
        e += 1                                            # the card is held rotated
        if e not in hand:
            return None
    i = hand.index(e)
    last = chosen.count(NONE) == 1
    hands = list(hands)
    if playing:
        hands[seat] = hand[:i] + hand[i + 1:]
        chosen = chosen[:seat] + (e,) + chosen[seat + 1:]
        log = (("chosen", seat, (e,), None),)
        if last:
            # Everyone has chosen: the cards are revealed and phase 3 begins.
            table = _Table(state)
            table.hands, table.chosen, table.log = tuple(hands), chosen, list(log)
            table.reveal()
            return table.freeze()
    else:
        # Turning a card changes only its entry's last bit: the hand stays sorted.
        hands[seat] = hand[:i] + (e ^ 1,) + hand[i + 1:]
        chosen = chosen[:seat] + (1,) + chosen[seat + 1:]
        log = (("rotate_hand", seat, (e ^ 1,), None),)
        if last:
            # The last rotation: every hand passes left with its direction card (_Table.pass_left).
            start_player = (start_player + 1) % players
            hands = hands[-1:] + hands[:-1]               # seat s gets the hand of seat s - 1
            chosen = (NONE,) * players
            round_ += 1
            phase = PLAY
            log += (("pass", None, (), start_player),)
    return tuple.__new__(State, (cards, players, variants, seed, deck, box, discard, tuple(hands), rows, moons,
                                 moon_supply, chosen, start_player, stage, round_, phase, resolver, pending, ignored,
                                 stopped, log))


def apply(state: State, seat: int, action) -> State:
    phase = state.phase
    kind = type(action)
    if (phase == PLAY and kind is PlayCard) or (phase == ROTATE and kind is RotateHandCard):
        quick = _quick_choice(state, seat, action, phase == PLAY)
        if quick is not None:
            return quick
    # A phase-3 choice that legal_actions just listed for this very state and this seat is legal: recognised
    # by identity, it skips the checks below and the search for the effect being resolved.
    table = state.cards.__dict__.get("_actions") or actions_for(state.cards)
    handed_state, handed_seat, listed, source = table.handed_out
    if handed_state is state and type(seat) is int and seat == handed_seat:
        for candidate in listed:
            if candidate is action:
                if phase == MOON:
                    return _moon(state, seat, action, listed=True)
                if phase == EXCHANGE:
                    return _exchange_with(state, seat, action)
                return _resolve(state, seat, action, source[3])
    if phase == OVER:
        _illegal("the game is over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal(f"there is no seat {seat!r} in a {state.players}-player game", RULE_TURN)
    if phase == PLAY or phase == ROTATE:
        waiting = state.chosen[seat] == NONE
    else:
        waiting = seat == to_move(state)[0]
    if not waiting:
        movers = to_move(state)
        names = ", ".join(seat_name(s) for s in movers)
        _illegal(f"{names} must decide now, not {seat_name(seat)}", RULE_TURN)
    kind = type(action)
    if phase == PLAY:
        if kind is not PlayCard:
            _illegal(f"phase 1: {seat_name(seat)} must first put a card face down", RULE_PLAY)
        entry = _hand_entry(state, seat, action.card, RULE_PLAY)
        table = _Table(state)
        table.hands = _put(state.hands, seat, tuple(e for e in state.hands[seat] if e != entry))
        table.chosen = _put(state.chosen, seat, entry)
        table.log.append(("chosen", seat, (entry,), None))
        if NONE not in table.chosen:
            table.reveal()
        return table.freeze()
    if phase == ROTATE:
        if kind is not RotateHandCard:
            _illegal(f"phase 4: {seat_name(seat)} must rotate one hand card", RULE_ROTATE_HAND)
        entry = _hand_entry(state, seat, action.card, RULE_ROTATE_HAND)
        table = _Table(state)
        table.hands = _put(state.hands, seat, tuple(sorted(e ^ 1 if e == entry else e for e in state.hands[seat])))
        table.chosen = _put(state.chosen, seat, 1)
        table.log.append(("rotate_hand", seat, (entry ^ 1,), None))
        if NONE not in table.chosen:
            table.pass_left()
        return table.freeze()
    if phase == MOON:
        if kind is not MoonBonus:
            _illegal(f"{seat_name(seat)} must first take or decline the moon bonus", RULE_MOON)
        return _moon(state, seat, action, listed=False)
    if phase == EXCHANGE:
        if kind is not ExchangeWith:
            _illegal(f"{seat_name(seat)} must choose the hand card to exchange", RULE_EXCHANGE)
        return _exchange_with(state, seat, action)
    # EFFECT or REPEAT
    actor, effect, row, card = _source(state)
    wanted = EFFECT_ACTION.get(kind)
    if wanted != effect:
        _illegal(f"{seat_name(seat)} resolves {effect.replace('_', ' ')} now, not {wanted or kind.__name__}", RULE_EFFECT)
    refusal = effect_refusal(state, effect, row, card, action)
    if refusal:
        _illegal(refusal, EFFECT_RULES[effect])
    return _resolve(state, actor, action, card)


def _moon_allowed(state: State, seat: int, action) -> bool:
    """``action in moon_actions(state, seat)`` without building the list."""
    if type(action) is not MoonBonus:
        return False
    row = state.rows[seat]
    if not full_moon(state.cards, row):
        return False
    others = any(state.moons[o] for o in range(state.players) if o != seat)
    cover = state.moon_supply > 0 and not state.blocked(seat, row[-1] >> 1) and not state.blocked(seat, row[-2] >> 1)
    if action.choice == "cover":
        return cover and action.row is None and action.pair is None
    if action.choice == "none":
        return (cover or others) and action.row is None and action.pair is None
    if action.choice != "remove" or type(action.row) is not int or not 0 <= action.row < state.players or action.row == seat:
        return False
    left = state.cards.by_id.get(action.pair) if isinstance(action.pair, str) else None
    return any(pair[0] == left for pair in state.moons[action.row])


def _moon(state: State, seat: int, action: MoonBonus, listed: bool) -> State:
    """``seat`` takes (or declines) the moon bonus; ``listed``: ``action`` is one legal_actions just listed."""
    if not listed and not _moon_allowed(state, seat, action):
        if action.choice == "cover":
            why = "covering needs a moon card in the supply and two unblocked cards"
        elif action.choice == "remove":
            why = f"there is no moon card over {action.pair!r} in {seat_name(action.row) if isinstance(action.row, int) else action.row!r}'s row"
        else:
            why = f"{action.choice!r} is not a moon bonus (cover, remove or none)"
        _illegal(why, RULE_MOON)
    table = _Table(state)
    if action.choice == "cover":
        row = state.rows[seat]
        pair = (row[-2] // 2, row[-1] // 2)
        table.moons = _put(state.moons, seat, state.moons[seat] + (pair,))
        table.moon_supply -= 1
        table.log.append(("cover", seat, (row[-2], row[-1]), None))
    elif action.choice == "remove":
        left = state.cards.by_id[action.pair]
        pair = next(p for p in state.moons[action.row] if p[0] == left)
        table.moons = _put(state.moons, action.row, tuple(p for p in state.moons[action.row] if p != pair))
        table.moon_supply += 1
        table.log.append(("remove_moon", seat, (), (action.row, pair)))
    else:
        table.log.append(("no_bonus", seat, (), None))
    table.begin_effect()
    return table.freeze()


def _resolve(state: State, actor: int, action, source: int) -> State:
    table = _Table(state)
    cards = state.cards
    by_id = cards.by_id
    kind = type(action)
    if kind is Swap:
        entries = state.rows[action.row]
        i, j = _index(entries, by_id[action.first]), _index(entries, by_id[action.second])
        row = list(entries)
        row[i], row[j] = row[j], row[i]
        table.rows = _put(state.rows, action.row, tuple(row))
        table.log.append(("swap", actor, (row[j], row[i]), action.row))
    elif kind is MoveCard:
        card = by_id[action.card]
        row = list(state.rows[actor])
        e = row.pop(_index(state.rows[actor], card))
        row.insert(action.position - 1, e)
        table.rows = _put(state.rows, actor, tuple(row))
        table.log.append(("move", actor, (e,), action.position))
    elif kind is RotateCard:
        e = table.rotate_in_row(action.row, by_id[action.card])
        table.log.append(("rotate_card", actor, (e,), action.row))
    elif kind is RotateTelescope:
        # (every entry's last bit flipped: the hand stays sorted)
        table.hands = _put(state.hands, action.seat, tuple([e ^ 1 for e in state.hands[action.seat]]))
        table.log.append(("rotate_telescope", actor, (), action.seat))
    elif kind is RepeatEffect:
        card = by_id[action.card]
        e = state.rows[action.row][_index(state.rows[action.row], card)]
        effect = cards.effect[e]
        table.log.append(("repeat", actor, (e,), action.row))
        if effect == "repeat":
            table.log.append(("repeat_repeat", actor, (e,), action.row))
        elif not resolvable(state, effect, action.row, card):
            table.log.append(("unresolvable", action.row, (e,), effect))
        else:
            table.phase = REPEAT
            table.pending = (action.row, card)
            table.log.append(("effect", action.row, (e,), effect))
            return table.freeze()
    elif kind is ExchangeCard:
        card = by_id[action.card]
        e = state.rows[action.row][_index(state.rows[action.row], card)]
        table.phase = EXCHANGE
        table.pending = (action.row, card)
        table.log.append(("exchange", actor, (e,), action.row))
        return table.freeze()
    table.next_resolver()
    return table.freeze()


def _exchange_with(state: State, seat: int, action: ExchangeWith) -> State:
    incoming = _hand_entry(state, seat, action.card, RULE_EXCHANGE)
    card = state.pending[1]
    table = _Table(state)
    row = state.rows[seat]
    i = _index(row, card)
    outgoing = row[i]
    table.rows = _put(state.rows, seat, row[:i] + (incoming,) + row[i + 1:])
    hand = [e for e in state.hands[seat] if e != incoming]
    hand.append(outgoing)
    hand.sort()
    table.hands = _put(state.hands, seat, tuple(hand))
    table.ignored = state.ignored + (incoming // 2,)
    table.log.append(("exchanged", seat, (incoming,), outgoing))
    table.next_resolver()
    return table.freeze()
