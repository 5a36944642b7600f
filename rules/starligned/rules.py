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
def _deal(rng: random.Random, deck: list[int], players: int, high_up: bool) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
    hands = []
    for _ in range(players):
        hand = deck[:HAND]
        del deck[:HAND]
        hands.append(tuple(sorted(2 * card + (0 if high_up else rng.randrange(2)) for card in hand)))
    return tuple(hands), deck


def new_state(cards: CardSet, players: int, seed: int, variants: tuple) -> State:
    rng = random.Random(seed)
    in_play = list(cards.deck(players))
    playing = set(in_play)
    box = tuple(i for i in range(len(cards.ids)) if i not in playing)
    rng.shuffle(in_play)
    high_up = dict(variants).get("deal_high_up", False)
    hands, deck = _deal(rng, in_play, players, high_up)
    start = rng.randrange(players)
    return State(
        cards=cards, players=players, variants=variants, seed=seed, deck=tuple(deck), box=box, discard=(),
        hands=hands, rows=((),) * players, moons=((),) * players, moon_supply=cards.moon_cards,
        chosen=(NONE,) * players, start_player=start, stage=0, round=0, phase=PLAY, resolver=NONE, pending=(),
        ignored=(), stopped=False,
        log=(("setup", None, (), start), *(("deal", s, hands[s], None) for s in range(players))),
    )


# -- who acts ------------------------------------------------------------------------------------
_WAITING: dict = {}


def to_move(state: State) -> tuple[int, ...]:
    phase = state.phase
    if phase == PLAY or phase == ROTATE:
        chosen = state.chosen
        waiting = _WAITING.get(chosen)
        if waiting is None:
            if len(_WAITING) > 100000:
                _WAITING.clear()
            waiting = _WAITING[chosen] = tuple([s for s, c in enumerate(chosen) if c == NONE])
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
        #: repeatable[entry]: the half that is up shows a phase-3 effect (Repeat can pick it)
        self.repeatable = tuple(effect in PHASE3_EFFECTS for effect in cards.effect)
        self.swap_grids = [None] * 5
        self.swap_last = [None] * 5
        #: (state, actions) of the last effect or moon-bonus listing: apply recognises those objects
        self.handed_out = (None, ())
        #: swaps_in's answers per (row, unblocked cards): a row changes about once a round
        self.swap_rows = {}
        self.moves = {}

    def swaps_in(self, row: int, entries: tuple[int, ...], moons: tuple) -> tuple[Swap, ...]:
        """Every Swap of two unblocked cards in ``row``. The last answer per row is kept with the row's
        own tuples: a row no move touched is the same object in the next state, so it is found by ``is``."""
        last = self.swap_last[row]
        if last is not None and last[0] is entries and last[1] is moons:
            return last[2]
        found = self._swaps_in(row, entries, moons)
        self.swap_last[row] = (entries, moons, found)
        return found

    def _swaps_in(self, row: int, entries: tuple[int, ...], moons: tuple) -> tuple[Swap, ...]:
        if moons:
            blocked = {card for pair in moons for card in pair}
            free = tuple([e >> 1 for e in entries if e >> 1 not in blocked])
        else:
            free = tuple([e >> 1 for e in entries])
        key = (row, free)
        found = self.swap_rows.get(key)
        if found is not None:
            return found
        grid = self.swap_grids[row]
        if grid is None:
            # Every Swap of this row, built once: grid[a][b] (a few thousand small objects per card set).
            ids = self.ids
            grid = self.swap_grids[row] = tuple(tuple(Swap(row=row, first=ids[a], second=ids[b]) for b in range(len(ids)))
                                                for a in range(len(ids)))
        if len(self.swap_rows) > 20000:
            self.swap_rows.clear()
        shorter = self.swap_rows.get((row, free[:-1])) if free else None
        if shorter is not None:
            # A card was added on the right since the last time: only its pairs are new.
            last = free[-1]
            found = shorter + tuple([grid[a][last] for a in free[:-1]])
        else:
            # Ordered by the right-hand card, then the left one, so adding a card appends its pairs.
            found = tuple([grid[free[i]][free[j]] for j in range(1, len(free)) for i in range(j)])
        self.swap_rows[key] = found
        return found

    def move(self, card: int, position: int) -> MoveCard:
        key = (card, position)
        action = self.moves.get(key)
        if action is None:
            action = self.moves[key] = MoveCard(card=self.ids[card], position=position)
        return action


def actions_for(cards: CardSet) -> _Actions:
    table = cards.__dict__.get("_actions")
    if table is None:
        table = cards.__dict__["_actions"] = _Actions(cards)
    return table


# -- what the table allows ------------------------------------------------------------------------
def _blocked_cards(state: State, seat: int) -> set[int]:
    return {card for pair in state.moons[seat] for card in pair}


def full_moon(cards: CardSet, row: tuple[int, ...]) -> bool:
    """Do the row's last two cards show a full moon where they meet?"""
    return len(row) >= 2 and cards.moon_edge[row[-2]] == RIGHT and cards.moon_edge[row[-1]] == LEFT


def moon_actions(state: State, seat: int) -> list:
    """The moon bonus choices of ``seat`` (empty when it has none to take)."""
    row = state.rows[seat]
    if not full_moon(state.cards, row):
        return []
    table = actions_for(state.cards)
    out = []
    blocked = _blocked_cards(state, seat)
    if state.moon_supply > 0 and row[-1] // 2 not in blocked and row[-2] // 2 not in blocked:
        out.append(table.cover)
    for other in range(state.players):
        if other != seat:
            out.extend(table.remove[other][left] for left, _ in state.moons[other])
    if out:
        out.append(table.no_bonus)
    return out


def move_positions(state: State, seat: int, card: int) -> list[int]:
    """Positions (1 = leftmost) ``card`` may move to in ``seat``'s row: any place but its own and
    none between the two cards under a moon card. Empty when the card is blocked."""
    row = [e // 2 for e in state.rows[seat]]
    if card not in row or state.blocked(seat, card):
        return []
    here = row.index(card)
    rest = row[:here] + row[here + 1:]
    pairs = set(state.moons[seat])
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
        out = [table.move(card, p) for p in move_positions(state, row, card)]
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
        if card not in ignored and any(e >> 1 == card and effects[e] in PHASE3_EFFECTS for e in own):
            return True            # the card itself shows a phase-3 effect (a Repeat repeating itself)
        return any(effects[e] in PHASE3_EFFECTS and e // 2 not in ignored for r in rows for e in r)
    if effect == "exchange":
        return any(h and len(r) > 2 * len(m) for h, r, m in zip(state.hands, rows, moons))
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
        return list(map(table.play_entry.__getitem__, state.hands[seat]))
    if phase == ROTATE:
        if not 0 <= seat < state.players or state.chosen[seat] != NONE:
            return []
        return list(map(table.rotate_entry.__getitem__, state.hands[seat]))
    if phase == MOON:
        if seat != state.resolver:
            return []
        out = moon_actions(state, seat)
        table.handed_out = (state, out)
        return out
    if phase == EFFECT or phase == REPEAT:
        if seat != to_move(state)[0]:
            return []
        actor, effect, row, card = _source(state)
        out = effect_actions(state, actor, effect, row, card)
        # Remembered for apply: an action object handed out here for this very state is legal.
        table.handed_out = (state, out)
        return out
    if phase == EXCHANGE:
        if seat != state.pending[0]:
            return []
        return [table.exchange_with[e // 2] for e in state.hands[seat]]
    return []


# -- applying ------------------------------------------------------------------------------------
def _put(zones: tuple, index: int, value) -> tuple:
    zones = list(zones)
    zones[index] = value
    return tuple(zones)


class _Table:
    """A working copy of a state for one apply."""

    __slots__ = ("s", "deck", "discard", "hands", "rows", "moons", "moon_supply", "chosen", "start_player", "stage",
                 "round", "phase", "resolver", "pending", "ignored", "stopped", "log")

    def __init__(self, state: State):
        self.s = state
        (_, _, _, _, self.deck, _, self.discard, self.hands, self.rows, self.moons, self.moon_supply, self.chosen,
         self.start_player, self.stage, self.round, self.phase, self.resolver, self.pending, self.ignored,
         self.stopped, _) = state
        self.log = []

    def freeze(self) -> State:
        s = self.s
        return tuple.__new__(State, (
            s.cards, s.players, s.variants, s.seed, self.deck, s.box, self.discard, self.hands, self.rows, self.moons,
            self.moon_supply, self.chosen, self.start_player, self.stage, self.round, self.phase, self.resolver,
            self.pending, self.ignored, self.stopped, tuple(self.log)))

    # -- the questions ``resolvable`` and ``move_positions`` ask of a state, asked of the working copy
    @property
    def cards(self) -> CardSet:
        return self.s.cards

    @property
    def players(self) -> int:
        return self.s.players

    def blocked(self, seat: int, card: int) -> bool:
        for pair in self.moons[seat]:
            if card in pair:
                return True
        return False

    def has_moon_bonus(self, seat: int) -> bool:
        """``moon_actions`` is not empty (asked without building the actions)."""
        row = self.rows[seat]
        if not full_moon(self.s.cards, row):
            return False
        if self.moon_supply > 0 and not self.blocked(seat, row[-1] >> 1) and not self.blocked(seat, row[-2] >> 1):
            return True
        return any(self.moons[other] for other in range(self.s.players) if other != seat)

    def rotate_in_row(self, seat: int, card: int) -> None:
        row = tuple(e ^ 1 if e // 2 == card else e for e in self.rows[seat])
        self.rows = _put(self.rows, seat, row)

    # -- the round's steps -------------------------------------------------------------------
    def reveal(self) -> None:
        cards = self.s.cards
        rows = list(self.rows)
        for seat, e in enumerate(self.chosen):
            rows[seat] = rows[seat] + (e,)
            self.log.append(("reveal", seat, (e,), None))
        self.rows = tuple(rows)
        played = self.chosen
        self.chosen = (NONE,) * self.s.players
        self.ignored = ()
        effect = cards.effect
        stoppers = tuple([s for s, e in enumerate(played) if effect[e] == "stop"])
        self.stopped = bool(stoppers)
        if stoppers:
            self.log.append(("stop", None, (), stoppers))
            self.end_phase3()
        else:
            self.begin_turn(self.start_player)

    def begin_turn(self, seat: int) -> None:
        self.resolver = seat
        self.pending = ()
        if self.has_moon_bonus(seat):
            self.phase = MOON
            self.log.append(("moon_offer", seat, (), None))
            return
        self.begin_effect()

    def begin_effect(self) -> None:
        seat = self.resolver
        last = self.rows[seat][-1]
        effect = self.s.cards.effect[last]
        if last // 2 in self.ignored:
            self.log.append(("ignored", seat, (last,), effect))
            return self.next_resolver()
        if effect not in PHASE3_EFFECTS:
            self.log.append(("no_effect", seat, (last,), effect))
            return self.next_resolver()
        self.phase = EFFECT
        if not resolvable(self, effect, seat, last // 2):
            self.log.append(("unresolvable", seat, (last,), effect))
            return self.next_resolver()
        self.log.append(("effect", seat, (last,), effect))

    def next_resolver(self) -> None:
        self.pending = ()
        nxt = (self.resolver + 1) % self.s.players
        if nxt == self.start_player:
            self.end_phase3()
        else:
            self.begin_turn(nxt)

    def end_phase3(self) -> None:
        self.resolver = NONE
        self.pending = ()
        if self.round == ROUNDS - 1:
            self.end_stage()
        else:
            self.phase = ROTATE
            self.chosen = (NONE,) * self.s.players
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
        deck = list(self.deck)
        self.hands, deck = _deal(rng, deck, state.players, state.variant("deal_high_up"))
        self.deck = tuple(deck)
        self.phase = PLAY
        self.chosen = (NONE,) * state.players
        self.log.append(("stage", None, (), self.stage))
        self.log.extend(("deal", s, self.hands[s], None) for s in range(state.players))

    def pass_left(self) -> None:
        n = self.s.players
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


_HANDS, _CHOSEN, _LOG = State._fields.index("hands"), State._fields.index("chosen"), State._fields.index("log")
_START, _ROUND, _PHASE = State._fields.index("start_player"), State._fields.index("round"), State._fields.index("phase")


def _quick_choice(state: State, seat: int, action, playing: bool) -> State | None:
    """Phase 1 or 4 for a seat still to choose (every such call): the new state built directly (the
    last choice of phase 1 then reveals through ``_Table``), or None when anything is unusual (the
    full path then checks and explains)."""
    chosen = state.chosen
    if type(seat) is not int or not 0 <= seat < state.players or chosen[seat] != NONE:
        return None
    last = chosen.count(NONE) == 1
    table = state.cards.__dict__.get("_actions") or actions_for(state.cards)
    card = table.card_of.get(id(action))
    if card is None or (table.play if playing else table.rotate_hand)[card] is not action:
        # not one of the objects legal_actions hands out: find the card by its name
        card = state.cards.by_id.get(action.card) if isinstance(action.card, str) else None
    hand = state.hands[seat]
    for i, e in enumerate(hand):
        if e >> 1 == card:
            break
    else:
        return None
    fields = list(state)
    hands = list(state.hands)
    picked = list(chosen)
    if playing:
        hands[seat] = hand[:i] + hand[i + 1:]
        picked[seat] = e
        fields[_LOG] = (("chosen", seat, (e,), None),)
    else:
        rotated = list(hand)
        rotated[i] = e ^ 1
        rotated.sort()
        hands[seat] = tuple(rotated)
        picked[seat] = 1
        fields[_LOG] = (("rotate_hand", seat, (e ^ 1,), None),)
        if last:
            # The last rotation: every hand passes left with its direction card (_Table.pass_left).
            n = state.players
            start = (state.start_player + 1) % n
            hands = [hands[(s - 1) % n] for s in range(n)]
            picked = [NONE] * n
            fields[_START], fields[_ROUND], fields[_PHASE] = start, state.round + 1, PLAY
            fields[_LOG] += (("pass", None, (), start),)
    fields[_HANDS] = tuple(hands)
    fields[_CHOSEN] = tuple(picked)
    if last and playing:
        # Everyone has chosen: the cards are revealed and phase 3 begins.
        table = _Table(tuple.__new__(State, fields))
        table.log = list(fields[_LOG])
        table.reveal()
        return table.freeze()
    return tuple.__new__(State, fields)


def apply(state: State, seat: int, action) -> State:
    phase = state.phase
    kind = type(action)
    if (phase == PLAY and kind is PlayCard) or (phase == ROTATE and kind is RotateHandCard):
        quick = _quick_choice(state, seat, action, phase == PLAY)
        if quick is not None:
            return quick
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
        return _moon(state, seat, action)
    if phase == EXCHANGE:
        if kind is not ExchangeWith:
            _illegal(f"{seat_name(seat)} must choose the hand card to exchange", RULE_EXCHANGE)
        return _exchange_with(state, seat, action)
    # EFFECT or REPEAT
    actor, effect, row, card = _source(state)
    handed = (state.cards.__dict__.get("_actions") or actions_for(state.cards)).handed_out
    if handed[0] is state:
        for listed in handed[1]:
            if listed is action:                          # one of the actions just listed for this state
                return _resolve(state, actor, action, card)
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


def _moon(state: State, seat: int, action: MoonBonus) -> State:
    handed = (state.cards.__dict__.get("_actions") or actions_for(state.cards)).handed_out
    listed = handed[0] is state and any(a is action for a in handed[1])
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
        a, b = by_id[action.first], by_id[action.second]
        row = list(state.rows[action.row])
        i, j = _index(state.rows[action.row], a), _index(state.rows[action.row], b)
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
        card = by_id[action.card]
        table.rotate_in_row(action.row, card)
        e = state.rows[action.row][_index(state.rows[action.row], card)] ^ 1
        table.log.append(("rotate_card", actor, (e,), action.row))
    elif kind is RotateTelescope:
        table.hands = _put(state.hands, action.seat, tuple(sorted(e ^ 1 for e in state.hands[action.seat])))
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
    _, card = state.pending
    table = _Table(state)
    row = list(state.rows[seat])
    i = next(k for k, e in enumerate(row) if e // 2 == card)
    outgoing = row[i]
    row[i] = incoming
    table.rows = _put(state.rows, seat, tuple(row))
    table.hands = _put(state.hands, seat, tuple(sorted([e for e in state.hands[seat] if e != incoming] + [outgoing])))
    table.ignored = state.ignored + (incoming // 2,)
    table.log.append(("exchanged", seat, (incoming,), outgoing))
    table.next_resolver()
    return table.freeze()
