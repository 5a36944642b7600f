"""Starligned's rounds: setup and the effects of the players' choices (``choices.py``: who acts and
what they may choose).

Follows the rules text (セットアップ, ラウンドのプレイ, 効果の一覧, ステージとゲームの終了) as read by
docs/readings.md, "Starligned". What the texts leave open is decided here,
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
  Repeat does nothing (docs/readings.md, "Starligned 5"). Switch ``repeat_picks_repeat`` off: no Repeat card, this one
  included, is a target (so a Repeat cannot dodge another effect by repeating a Repeat).
- Move may go between two blocked cards under different moon cards (each moon card holds only its own
  two cards together); switch ``move_between_moon_pairs`` off: not between any two blocked cards.
- Exchange: the chosen row's owner picks the hand card that takes the row card's place; it enters the
  row as it was held, the row card goes to the hand as it lay, and the incoming card's phase-3 effect
  is ignored for the rest of the round.
- Phase 4 is simultaneous too. The hands then pass left with the direction cards, so the start-player
  card moves one seat left every round in which hands are passed.
"""

from __future__ import annotations

import random
from typing import Sequence, TypeVar, cast

from rules.chance import SeededRandom, seeded
from rules.eventtexts import joined, player
from rules.protocol import Seat
from rules.starligned.cards import LEFT, RIGHT, Card, CardSet, Entry
# to_move and legal_actions are the engine's too (ModuleGame finds them here, beside apply and new_state; the
# ``as`` exports them to a type checker).
from rules.starligned.choices import (  # noqa: F401
    EFFECT_ACTION, EFFECT_RULES, RULE_EFFECT, RULE_EXCHANGE, RULE_MOON, RULE_OVER, RULE_PLAY, RULE_ROTATE_HAND,
    RULE_TURN, Source, _illegal, _index, _refuse, _source, actions_for, effect_name, effect_refusal, full_moon,
    legal_actions as legal_actions, resolvable, to_move as to_move,
)
from rules.starligned.state import make_state
from rules.starligned.state import (
    EFFECT, EXCHANGE, HAND, MOON, NONE, OVER, PLAY, REPEAT, ROTATE, ROUNDS, STAGES,
    Action, EffectAction, ExchangeCard, ExchangeWith, MoonBonus, MoonPair, MoveCard, PlayCard, Record, RepeatEffect,
    RotateCard, RotateHandCard, RotateTelescope, State, Swap, Switches,
)

#: A zone's contents (a hand, a row, a moon list...), in ``_put``.
Z = TypeVar("Z")


# -- setup ---------------------------------------------------------------------------------------
def _deal(rng: SeededRandom, deck: Sequence[Card], players: int,
          high_up: bool) -> tuple[tuple[tuple[Entry, ...], ...], Sequence[Card]]:
    """Six cards from the top of ``deck`` to each player in turn: the hands, and the rest of the deck."""
    hands: list[tuple[Entry, ...]] = []
    randrange = rng.randrange
    for top in range(0, players * HAND, HAND):
        if high_up:
            hand = [2 * card for card in deck[top:top + HAND]]
        else:
            hand = [2 * card + randrange(2) for card in deck[top:top + HAND]]
        hand.sort()
        hands.append(tuple(hand))
    return tuple(hands), deck[players * HAND:]


def new_state(cards: CardSet, players: int, seed: int, variants: Switches) -> State:
    rng = seeded(seed)   # (the draws of random.Random(seed), faster)
    table = cards.action_table
    in_play, box = table.in_play(players)
    shuffled = list(in_play)
    rng.shuffle(shuffled)
    high_up = dict(variants).get("deal_high_up", False)
    hands, deck = _deal(rng, shuffled, players, high_up)
    start = rng.randrange(players)
    return State(
        cards=cards, players=players, variants=variants, seed=seed, deck=tuple(deck), box=box, discard=(),
        hands=hands, rows=((),) * players, moons=((),) * players, moon_supply=cards.moon_cards,
        chosen=(NONE,) * players, start_player=start, stage=0, round=0, phase=PLAY, resolver=NONE, pending=(),
        ignored=(), stopped=False, exchanged=(),
        log=(("setup", None, (), start), *[("deal", s, hands[s], None) for s in range(players)]),
    )


# -- applying ------------------------------------------------------------------------------------
def _put(zones: tuple[Z, ...], index: int, value: Z) -> tuple[Z, ...]:
    changed = list(zones)
    changed[index] = value
    return tuple(changed)


class _Table:
    """A working copy of a state for one apply."""

    __slots__ = ("s", "cards", "players", "deck", "discard", "hands", "rows", "moons", "moon_supply", "chosen",
                 "start_player", "stage", "round", "phase", "resolver", "pending", "ignored", "stopped", "exchanged",
                 "log")

    s: State
    cards: CardSet
    players: int
    deck: tuple[Card, ...]
    discard: tuple[Entry, ...]
    hands: tuple[tuple[Entry, ...], ...]
    rows: tuple[tuple[Entry, ...], ...]
    moons: tuple[tuple[MoonPair, ...], ...]
    moon_supply: int
    chosen: tuple[int, ...]
    start_player: Seat
    stage: int
    round: int
    phase: str
    resolver: Seat
    pending: tuple[int, ...]
    ignored: tuple[Card, ...]
    stopped: bool
    exchanged: tuple[Card, ...]
    log: list[Record]

    def __init__(self, state: State):
        self.s = state
        # ``cards`` and ``players`` are copied too: ``resolvable`` and ``move_positions`` ask them of this copy.
        (self.cards, self.players, _, _, self.deck, _, self.discard, self.hands, self.rows, self.moons,
         self.moon_supply, self.chosen, self.start_player, self.stage, self.round, self.phase, self.resolver,
         self.pending, self.ignored, self.stopped, self.exchanged, _) = state
        self.log = []

    def freeze(self) -> State:
        s = self.s
        return make_state((
            self.cards, self.players, s.variants, s.seed, self.deck, s.box, self.discard, self.hands, self.rows,
            self.moons, self.moon_supply, self.chosen, self.start_player, self.stage, self.round, self.phase,
            self.resolver, self.pending, self.ignored, self.stopped, self.exchanged, tuple(self.log)))

    # -- the questions ``resolvable`` and ``move_positions`` ask of a state, asked of the working copy
    @property
    def variants(self) -> Switches:
        return self.s.variants

    def blocked(self, seat: Seat, card: Card) -> bool:
        for pair in self.moons[seat]:
            if card in pair:
                return True
        return False

    def has_moon_bonus(self, seat: Seat) -> bool:
        """``moon_actions`` is not empty (asked without building the actions)."""
        row = self.rows[seat]
        if not full_moon(self.cards, row):
            return False
        if self.moon_supply > 0 and not self.blocked(seat, row[-1] >> 1) and not self.blocked(seat, row[-2] >> 1):
            return True
        return any(self.moons[other] for other in range(self.players) if other != seat)

    def rotate_in_row(self, seat: Seat, card: Card) -> Entry:
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

    def begin_turn(self, seat: Seat) -> None:
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

    def phase3_from(self, seat: Seat, moon_offered: bool) -> None:
        """Phase 3 from ``seat`` on, seat after seat, up to the first decision (a moon bonus, or an effect
        with a target) or the end of the phase. A seat whose card does nothing is logged and passed."""
        # One loop over the seats rather than calls from seat to seat: this runs after every phase-3 move.
        cards, log, players, start = self.cards, self.log, self.players, self.start_player
        effects, moon_edge = cards.effect, cards.moon_edge
        shows_phase3 = cards.action_table.repeatable
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
        self.exchanged = ()
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


def _hand_entry(state: State, seat: Seat, name: str, rule: str) -> Entry:
    card = state.cards.by_id.get(name) if isinstance(name, str) else None
    for e in state.hands[seat]:
        if e // 2 == card:
            return e
    _illegal("not_in_hand", rule, who=player(seat), card=repr(name))


def _quick_choice(state: State, seat: Seat, action: PlayCard | RotateHandCard, playing: bool) -> State | None:
    """Phase 1 or 4 for a seat still to choose (every such call): the new state built directly (the
    last choice of phase 1 then reveals through ``_Table``), or None when anything is unusual (the
    full path then checks and explains)."""
    # The state is unpacked once into locals and the new one built as one tuple: attribute reads and a
    # field list were a good part of the cost of these, the most frequent decisions.
    (cards, players, variants, seed, deck, box, discard, hands, rows, moons, moon_supply, chosen, start_player, stage,
     round_, phase, resolver, pending, ignored, stopped, exchanged, _) = state
    if type(seat) is not int or not 0 <= seat < players or chosen[seat] != NONE:
        return None
    action_table = cards.action_table
    # An action legal_actions handed out is known by its id (the table keeps those objects alive, so no
    # other object can have that id); any other is found by its card's name.
    card = action_table.card_of.get(id(action))
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
    new_hands = list(hands)
    log: tuple[Record, ...]
    if playing:
        new_hands[seat] = hand[:i] + hand[i + 1:]
        chosen = chosen[:seat] + (e,) + chosen[seat + 1:]
        log = (("chosen", seat, (e,), None),)
        if last:
            # Everyone has chosen: the cards are revealed and phase 3 begins.
            table = _Table(state)
            table.hands, table.chosen, table.log = tuple(new_hands), chosen, list(log)
            table.reveal()
            return table.freeze()
    else:
        # Turning a card changes only its entry's last bit: the hand stays sorted.
        new_hands[seat] = hand[:i] + (e ^ 1,) + hand[i + 1:]
        chosen = chosen[:seat] + (1,) + chosen[seat + 1:]
        log = (("rotate_hand", seat, (e ^ 1,), None),)
        if last:
            # The last rotation: every hand passes left with its direction card (_Table.pass_left).
            start_player = (start_player + 1) % players
            new_hands = new_hands[-1:] + new_hands[:-1]   # seat s gets the hand of seat s - 1
            chosen = (NONE,) * players
            round_ += 1
            phase = PLAY
            log += (("pass", None, (), start_player),)
    return make_state((cards, players, variants, seed, deck, box, discard, tuple(new_hands), rows, moons,
                                 moon_supply, chosen, start_player, stage, round_, phase, resolver, pending, ignored,
                                 stopped, exchanged, log))


def apply(state: State, seat: Seat, action: Action) -> State:
    phase = state.phase
    if (phase == PLAY and type(action) is PlayCard) or (phase == ROTATE and type(action) is RotateHandCard):
        quick = _quick_choice(state, seat, action, phase == PLAY)
        if quick is not None:
            return quick
    # A phase-3 choice that legal_actions just listed for this very state and this seat is legal: recognised
    # by identity, it skips the checks below and the search for the effect being resolved.
    handed_state, handed_seat, listed, source = state.cards.action_table.handed_out
    if handed_state is state and type(seat) is int and seat == handed_seat:
        for candidate in listed:
            if candidate is action:
                # (listed for this phase: a moon bonus, a hand card to exchange, or an action of the effect ``source``)
                if phase == MOON:
                    return _moon(state, seat, cast(MoonBonus, action), listed=True)
                if phase == EXCHANGE:
                    return _exchange_with(state, seat, cast(ExchangeWith, action))
                return _resolve(state, seat, cast(EffectAction, action), cast(Source, source)[3])
    if phase == OVER:
        _illegal("game_over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal("no_seat", RULE_TURN, seat=repr(seat), players=state.players)
    if phase == PLAY or phase == ROTATE:
        waiting = state.chosen[seat] == NONE
    else:
        waiting = seat == to_move(state)[0]
    if not waiting:
        _illegal("not_to_move", RULE_TURN, movers=joined(player(s) for s in to_move(state)), who=player(seat))
    if phase == PLAY:
        if type(action) is not PlayCard:
            _illegal("play_first", RULE_PLAY, who=player(seat))
        entry = _hand_entry(state, seat, action.card, RULE_PLAY)
        table = _Table(state)
        table.hands = _put(state.hands, seat, tuple(e for e in state.hands[seat] if e != entry))
        table.chosen = _put(state.chosen, seat, entry)
        table.log.append(("chosen", seat, (entry,), None))
        if NONE not in table.chosen:
            table.reveal()
        return table.freeze()
    if phase == ROTATE:
        if type(action) is not RotateHandCard:
            _illegal("rotate_hand_first", RULE_ROTATE_HAND, who=player(seat))
        entry = _hand_entry(state, seat, action.card, RULE_ROTATE_HAND)
        table = _Table(state)
        table.hands = _put(state.hands, seat, tuple(sorted(e ^ 1 if e == entry else e for e in state.hands[seat])))
        table.chosen = _put(state.chosen, seat, 1)
        table.log.append(("rotate_hand", seat, (entry ^ 1,), None))
        if NONE not in table.chosen:
            table.pass_left()
        return table.freeze()
    if phase == MOON:
        if type(action) is not MoonBonus:
            _illegal("moon_first", RULE_MOON, who=player(seat))
        return _moon(state, seat, action, listed=False)
    if phase == EXCHANGE:
        if type(action) is not ExchangeWith:
            _illegal("exchange_with_first", RULE_EXCHANGE, who=player(seat))
        return _exchange_with(state, seat, action)
    # EFFECT or REPEAT
    actor, effect, row, card = _source(state)
    kind = type(action)
    wanted = EFFECT_ACTION.get(kind)
    if wanted != effect:
        # (an action of another phase is named by its type, as spelled in the code)
        offered = {"en": wanted, "ja": effect_name(wanted)["ja"]} if wanted else kind.__name__
        _illegal("other_effect", RULE_EFFECT, who=player(seat), effect=effect_name(effect), offered=offered)
    refusal = effect_refusal(state, effect, row, card, action)
    if refusal:
        _refuse(refusal, EFFECT_RULES[effect])
    return _resolve(state, actor, cast(EffectAction, action), card)     # (an action of ``effect``: EFFECT_ACTION)


def _moon_allowed(state: State, seat: Seat, action: MoonBonus) -> bool:
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


def _moon(state: State, seat: Seat, action: MoonBonus, listed: bool) -> State:
    """``seat`` takes (or declines) the moon bonus; ``listed``: ``action`` is one legal_actions just listed."""
    if not listed and not _moon_allowed(state, seat, action):
        if action.choice == "cover":
            _illegal("cover", RULE_MOON)
        if action.choice == "remove":
            # (the English has always quoted the owner's name: "in 'Player 2''s row")
            owner = ({"en": repr(player(action.row)["en"]), "ja": player(action.row)["ja"]}
                     if isinstance(action.row, int) else repr(action.row))
            _illegal("no_moon_card", RULE_MOON, pair=repr(action.pair), owner=owner)
        _illegal("not_moon_bonus", RULE_MOON, choice=repr(action.choice))
    table = _Table(state)
    if action.choice == "cover":
        row = state.rows[seat]
        pair = (row[-2] // 2, row[-1] // 2)
        table.moons = _put(state.moons, seat, state.moons[seat] + (pair,))
        table.moon_supply -= 1
        table.log.append(("cover", seat, (row[-2], row[-1]), None))
    elif action.choice == "remove":
        # (allowed, so it names a row and the left card of a moon card's pair there)
        other, left_id = action.row, action.pair
        assert other is not None and left_id is not None
        left = state.cards.by_id[left_id]
        pair = next(p for p in state.moons[other] if p[0] == left)
        table.moons = _put(state.moons, other, tuple(p for p in state.moons[other] if p != pair))
        table.moon_supply += 1
        table.log.append(("remove_moon", seat, (), (other, pair)))
    else:
        table.log.append(("no_bonus", seat, (), None))
    table.begin_effect()
    return table.freeze()


def _resolve(state: State, actor: Seat, action: EffectAction, source: Card) -> State:
    table = _Table(state)
    cards = state.cards
    by_id = cards.by_id
    if type(action) is Swap:
        entries = state.rows[action.row]
        i, j = _index(entries, by_id[action.first]), _index(entries, by_id[action.second])
        row = list(entries)
        row[i], row[j] = row[j], row[i]
        table.rows = _put(state.rows, action.row, tuple(row))
        table.log.append(("swap", actor, (row[j], row[i]), action.row))
    elif type(action) is MoveCard:
        card = by_id[action.card]
        row = list(state.rows[actor])
        e = row.pop(_index(state.rows[actor], card))
        row.insert(action.position - 1, e)
        table.rows = _put(state.rows, actor, tuple(row))
        table.log.append(("move", actor, (e,), action.position))
    elif type(action) is RotateCard:
        e = table.rotate_in_row(action.row, by_id[action.card])
        table.log.append(("rotate_card", actor, (e,), action.row))
    elif type(action) is RotateTelescope:
        # (every entry's last bit flipped: the hand stays sorted)
        table.hands = _put(state.hands, action.seat, tuple([e ^ 1 for e in state.hands[action.seat]]))
        table.log.append(("rotate_telescope", actor, (), action.seat))
    elif type(action) is RepeatEffect:
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
    elif type(action) is ExchangeCard:
        card = by_id[action.card]
        e = state.rows[action.row][_index(state.rows[action.row], card)]
        table.phase = EXCHANGE
        table.pending = (action.row, card)
        table.log.append(("exchange", actor, (e,), action.row))
        return table.freeze()
    table.next_resolver()
    return table.freeze()


def _exchange_with(state: State, seat: Seat, action: ExchangeWith) -> State:
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
    if card not in state.exchanged:
        table.exchanged = state.exchanged + (card,)
    table.log.append(("exchanged", seat, (incoming,), outgoing))
    table.next_resolver()
    return table.freeze()
