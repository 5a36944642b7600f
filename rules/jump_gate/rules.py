"""Jump Gate's turn: setup, legal actions and their effects.

Follows the rules text (手番ですること, ブラックホール, ゲーム終了条件) as read by docs/readings.md,
"Jump Gate". What the texts leave open is decided here, each with its
reason:
- Setup: the ring's planets are drawn at random from the component file. Each player's hidden
  resources are dealt first, a Fame card dealt this way being set aside and replaced; the set-aside
  Fame cards are shuffled back into the resources (the rules text), and
  then each planet gets four (three face down, one face up). The start player is drawn at random.
- At the gate a ship is at no planet, so Fly, Scan, Land & Claim and Harvest are impossible; the
  only way out is a Jump. Research and passing need no planet and stay allowed, so a player whose
  hand holds no usable jump code is never stuck.
- Pass ends the turn at once (the remaining action is given up). Research is split into the
  decisions a player makes: start Research, discard cards one at a time, then draw up to five.
- A Jump goes to another planet (jumping to the planet the ship is at would move nothing).
- A scan reveals the lowest face-down slot (the face-down cards are indistinguishable); the
  revealed card is then public. The marker is decided after seeing it. Scanning with nothing face
  down is not allowed (switch ``scan_without_face_down``: allowed when a marker can be placed, as the
  Japanese help reads).
- Markers: ten per player. A player with none left cannot mark a resource or claim a planet
  (assumed). A black-hole marker is placed even from an empty supply (the count is
  what the rule measures).
- Claim order for the marked resources: the claimer first, then clockwise (docs/readings.md, "Jump Gate 4", assumed).
  Every take is optional, because of the black hole.
- Harvesting at a planet another player claimed is allowed (assumed).
- Hidden resources never put markers on the black hole (assumed).
- When the NavComp deck runs out, the discards are shuffled into a new deck, seeded from the state.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Callable, Final, Iterator, NoReturn, TypeVar, cast

from rules.chance import shuffled
from rules.eventtexts import joined, player, say
from rules.jump_gate.cards import NO_CODE, WILD, Codes, Components, NavCompKind, PlanetIndex, ResourceKind, bad_file
from rules.jump_gate.state import make_state
from rules.jump_gate.state import (
    ACTION, ACTIONS_PER_TURN, BLACK_HOLE_LIMIT, CLAIM_PICK, CLAIM_TAKE, EMPTY, FACE_DOWN_AT_SETUP, GATE,
    HAND_SIZE, HIDDEN_BY_PLAYERS, MARK, NOBODY, OVER, PLANETS_BY_PLAYERS, RESEARCH, SLOTS, Action, LogRecord,
    RingPosition, ClaimPick, Discard, Draw, Fly, Harvest, Jump, LandClaim, Mark, Pass, Research, Scan, State, TakeMarked,
)
from rules.protocol import IllegalAction, Seat
from rules.rulebook import LANGUAGES

GAME: Final = "jump_gate"

RULE_TURN: Final = "turn order: only the player whose turn it is acts"
RULE_ACTIONS: Final = "your turn: two actions from Fly, Jump, Scan, Land & Claim, Harvest and Research, or pass"
RULE_GATE: Final = "start: ships begin at the Jump Gate, which is no planet; the only way out is a Jump"
RULE_FLY: Final = "Fly: move to a neighbouring planet of the ring (free)"
RULE_JUMP: Final = "Jump: discard a card whose jump code (blue square) matches the planet; ~ matches any"
RULE_SCAN: Final = "Scan: discard a card matching the planet's scan code (green circle) and reveal a face-down resource"
RULE_MARK: Final = "Scan: you may mark an unmarked face-up resource, at most one of your markers per planet"
RULE_LAND: Final = ("Land & Claim: discard two cards matching the land code (yellow triangle) at an unclaimed planet "
             "with no face-down resource")
RULE_CLAIM: Final = ("Land & Claim: from the claimer clockwise, each marker's owner may take that resource; then the "
              "claimer may take one face-up resource")
RULE_HARVEST: Final = ("Harvest: discard any card and take your marked resource here, or any unmarked resource when "
                "none is face down")
RULE_RESEARCH: Final = "Research: discard 0 to 5 cards, then draw up to 5"
RULE_MARKERS: Final = "markers: ten per player"
RULE_OVER: Final = "game end: seven black-hole markers end the game at once; all planets claimed ends it after the round"

JUMP: Final = 0
SCAN: Final = 1
LAND: Final = 2

#: A ring's codes, worked out once (``_Actions.ring_codes``): per jump code, the ring positions carrying
#: it (``[WILD]``: every position); per ring position, its planet's (jump, scan, land) codes.
RingCodes = tuple[tuple[tuple[RingPosition, ...], ...], tuple[Codes, ...]]

T = TypeVar("T")


# -- setup ---------------------------------------------------------------------------------------
def new_state(comps: Components, players: int, seed: int, variants: tuple[tuple[str, object], ...]) -> State:
    rng = random.Random(seed)
    count = PLANETS_BY_PLAYERS[players]
    if len(comps.planets) < count:
        raise bad_file("too_few_planets", "cards", name=repr(comps.name), have=len(comps.planets), players=players, need=count)
    ring = tuple(rng.sample(range(len(comps.planets)), count))
    pile = list(comps.resources())
    rng.shuffle(pile)
    hidden_each = HIDDEN_BY_PLAYERS[players]
    fame = [comps.scoring_of(k) == "fame" for k in range(len(comps.resource_names))]
    needed = count * SLOTS
    if sum(not fame[k] for k in pile) < players * hidden_each or len(pile) < needed + players * hidden_each:
        raise bad_file("too_few_resources", "cards", name=repr(comps.name), planets=count, slots=SLOTS, hidden=hidden_each)
    # The hidden resources first: a Fame card dealt this way is set aside and replaced, and the set-aside
    # Fame cards are shuffled back before the planets are dealt.
    hidden: list[tuple[ResourceKind, ...]] = []
    set_aside: list[ResourceKind] = []
    for _ in range(players):
        mine: list[ResourceKind] = []
        while len(mine) < hidden_each:
            card = pile.pop()
            (set_aside if fame[card] else mine).append(card)
        hidden.append(tuple(sorted(mine)))
    pile += set_aside
    rng.shuffle(pile)
    resources = tuple(tuple(pile[SLOTS * i:SLOTS * i + SLOTS]) for i in range(count))
    unused = pile[needed:]
    deck = list(comps.navcomp_deck())
    rng.shuffle(deck)
    if len(deck) < players * HAND_SIZE:
        raise bad_file("too_few_navcomp", "cards", name=repr(comps.name), have=len(deck), players=players, size=HAND_SIZE,
                       need=players * HAND_SIZE)
    hands = tuple(tuple(sorted(deck[HAND_SIZE * s:HAND_SIZE * s + HAND_SIZE])) for s in range(players))
    start = rng.randrange(players)
    face_up = (False,) * FACE_DOWN_AT_SETUP + (True,) * (SLOTS - FACE_DOWN_AT_SETUP)
    return State(
        comps=comps, players=players, variants=variants, seed=seed, shuffles=0, ring=ring, resources=resources,
        face_up=(face_up,) * count, markers=((NOBODY,) * SLOTS,) * count, claimed=(NOBODY,) * count,
        ships=(GATE,) * players, deck=tuple(deck[players * HAND_SIZE:]), discard=(), hands=hands,
        hidden=tuple(hidden), gained=((),) * players, black_hole=(0,) * players, unused=tuple(unused),
        start_player=start, seat=start, round=0, actions_left=ACTIONS_PER_TURN, phase=ACTION, focus=-1, waiting=(),
        reshuffled=(),
        log=(("setup", None, (), (start, len(set_aside))),
             *(("setup_reveal", None, (resources[i][-1],), (ring[i], SLOTS)) for i in range(count))),
    )


# -- who acts ------------------------------------------------------------------------------------
def to_move(state: State) -> tuple[Seat, ...]:
    phase = state.phase
    if phase == OVER:
        return ()
    if phase == CLAIM_TAKE:
        return (state.waiting[0],)
    return (state.seat,)


# -- prebuilt actions ----------------------------------------------------------------------------
class _Actions:
    """Every action object a component file can need, built once, so legal_actions only picks."""

    def __init__(self, comps: Components):
        planets = [p.id for p in comps.planets]
        names = comps.navcomp_names
        self.fly = tuple(Fly(planet=p) for p in planets)
        self.jump = tuple(tuple(Jump(card=name, planet=p) for p in planets) for name in names)
        self.scan = tuple(Scan(card=name) for name in names)
        self.harvest = tuple(tuple(Harvest(card=name, slot=slot + 1) for slot in range(SLOTS)) for name in names)
        self.discard = tuple(Discard(card=name) for name in names)
        self.mark = tuple(Mark(slot=slot + 1) for slot in range(SLOTS))
        self.no_mark = Mark(slot=None)
        self.pick = tuple(ClaimPick(slot=slot + 1) for slot in range(SLOTS))
        self.no_pick = ClaimPick(slot=None)
        self.take = (TakeMarked(take=True), TakeMarked(take=False))
        self.research, self.draw, self.pass_ = Research(), Draw(), Pass()
        self.land: dict[tuple[NavCompKind, NavCompKind], LandClaim] = {}
        for a, b in combinations_with_replacement(range(len(names)), 2):
            self.land[a, b] = LandClaim(cards=(names[a], names[b]))
        #: codes[shape][kind]
        self.codes = tuple(tuple(c[shape] for c in comps.codes) for shape in range(3))
        #: per ring (cached by value): per shape, per code, the ring positions carrying it
        self.rings: dict[tuple[PlanetIndex, ...], RingCodes] = {}

    def ring_codes(self, comps: Components, ring: tuple[PlanetIndex, ...]) -> RingCodes:
        """``(targets, codes)``: ``targets[code]`` the ring positions whose jump code is ``code``
        (``targets[WILD]`` every position); ``codes[i]`` planet i's (jump, scan, land) codes."""
        found = self.rings.get(ring)
        if found is None:
            codes = tuple((comps.planets[p].jump, comps.planets[p].scan, comps.planets[p].land) for p in ring)
            top = max(c[JUMP] for c in codes)
            targets = [tuple(i for i, c in enumerate(codes) if c[JUMP] == code) for code in range(top + 1)]
            targets[WILD] = tuple(range(len(ring)))
            if len(self.rings) > 1024:
                self.rings.clear()
            found = self.rings[ring] = (tuple(targets), codes)
        return found


def actions_for(comps: Components) -> _Actions:
    """The action table of a card set, made on first use and kept with it (``Components.action_table``)."""
    return comps.action_table


def _matches(own: int, code: int) -> bool:
    return own == WILD or (own == code and own != NO_CODE)


def can_mark(state: State, seat: Seat, pos: RingPosition) -> bool:
    """May ``seat`` put a marker on planet ``pos`` now: none of its markers there yet, one in supply,
    and an unmarked face-up resource?"""
    markers = state.markers[pos]
    if seat in markers or state.markers_left(seat) <= 0:
        return False
    resources, face_up = state.resources[pos], state.face_up[pos]
    return any(resources[j] != EMPTY and face_up[j] and markers[j] == NOBODY for j in range(SLOTS))


def harvest_slots(state: State, seat: Seat, pos: RingPosition) -> list[int]:
    """Slots (0-3) ``seat`` may harvest at planet ``pos``: its marked one, and every unmarked resource
    when nothing is face down."""
    markers, resources = state.markers[pos], state.resources[pos]
    all_up = False not in state.face_up[pos]
    return [j for j in range(SLOTS)
            if resources[j] != EMPTY and (markers[j] == seat or (all_up and markers[j] == NOBODY))]


def legal_actions(state: State, seat: Seat) -> list[Action]:
    phase = state.phase
    comps = state.comps
    table = comps.action_table
    if phase == ACTION:
        if seat != state.seat:
            return []
        hand = tuple(dict.fromkeys(state.hands[seat]))
        targets, ring_codes = table.ring_codes(comps, state.ring)
        ring = state.ring
        ship = state.ships[seat]
        out: list[Action] = []
        jump_codes = table.codes[JUMP]
        jump = table.jump
        top = len(targets) - 1
        if ship != GATE:
            n = len(ring)
            fly = table.fly
            left, right = ring[(ship - 1) % n], ring[(ship + 1) % n]
            out.append(fly[left])
            if right != left:
                out.append(fly[right])
        for kind in hand:
            code = jump_codes[kind]
            if code != NO_CODE and code <= top:
                moves = jump[kind]
                out += [moves[ring[i]] for i in targets[code] if i != ship]
        if ship != GATE:
            jump_code, scan_code, land_code = ring_codes[ship]
            face_up = state.face_up[ship]
            has_down = False in face_up
            if has_down or (state.variants and dict(state.variants).get("scan_without_face_down") and can_mark(state, seat, ship)):
                scan_codes = table.codes[SCAN]
                scan = table.scan
                out += [scan[k] for k in hand if _matches(scan_codes[k], scan_code)]
            if not has_down and state.claimed[ship] == NOBODY and state.markers_left(seat) > 0:
                land_codes = table.codes[LAND]
                fits = [k for k in state.hands[seat] if _matches(land_codes[k], land_code)]
                if len(fits) >= 2:
                    land = table.land
                    out.extend(land[pair] for pair in dict.fromkeys(combinations_with_replacement_from(fits)))
            slots = harvest_slots(state, seat, ship)
            if slots:
                harvest = table.harvest
                for kind in hand:
                    row = harvest[kind]
                    out += [row[j] for j in slots]
        out.append(table.research)
        out.append(table.pass_)
        return out
    if phase == RESEARCH:
        if seat != state.seat:
            return []
        discard = table.discard
        out = [discard[k] for k in dict.fromkeys(state.hands[seat])]
        out.append(table.draw)
        return out
    if phase == MARK:
        if seat != state.seat:
            return []
        pos = state.focus
        resources, face_up, markers = state.resources[pos], state.face_up[pos], state.markers[pos]
        out = [table.mark[j] for j in range(SLOTS) if resources[j] != EMPTY and face_up[j] and markers[j] == NOBODY]
        out.append(table.no_mark)
        return out
    if phase == CLAIM_TAKE:
        return list(table.take) if seat == state.waiting[0] else []
    if phase == CLAIM_PICK:
        if seat != state.seat:
            return []
        resources = state.resources[state.focus]
        out = [table.pick[j] for j in range(SLOTS) if resources[j] != EMPTY]
        out.append(table.no_pick)
        return out
    return []  # OVER


def combinations_with_replacement_from(sorted_kinds: list[NavCompKind]) -> Iterator[tuple[NavCompKind, NavCompKind]]:
    """Distinct pairs (a <= b) of cards from a sorted hand: a pair of one kind needs two copies."""
    n = len(sorted_kinds)
    for i in range(n):
        for j in range(i + 1, n):
            yield sorted_kinds[i], sorted_kinds[j]


# -- applying ------------------------------------------------------------------------------------
def _illegal(key: str, rule: str, **values: object) -> NoReturn:
    """Refuse with the template ``refusal.<key>`` of ``data/events.json`` in every language (the
    English is ``reason``). Seats are named by ``player(seat)``, planets and NavComp cards by their
    ids; what the player sent that names nothing in the game is quoted as its ``repr``."""
    reasons = say(GAME, f"refusal.{key}", **values)
    raise IllegalAction(reasons["en"], rule=rule, reasons=reasons)


def _action_names(action: object) -> dict[str, str]:
    """``action`` in every language, as the picker names it (``JumpGate.action_label``); an object
    that is no Jump Gate action, or whose fields the picker cannot write, keeps its ``str``."""
    from rules import get_game      # here: the game module imports this engine
    try:
        return {lang: get_game(GAME).action_label(action, lang) for lang in LANGUAGES}
    except (TypeError, ValueError, KeyError):
        return {lang: str(action) for lang in LANGUAGES}


def _put(zones: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    changed = list(zones)
    changed[index] = value
    return tuple(changed)


def _without(hand: tuple[NavCompKind, ...], kind: NavCompKind) -> tuple[NavCompKind, ...]:
    i = hand.index(kind)
    return hand[:i] + hand[i + 1:]


class _Table:
    """A working copy of a state for one apply: it copies only what the action changes."""

    __slots__ = ("s", "shuffles", "resources", "face_up", "markers", "claimed", "ships", "deck", "discard", "hands",
                 "gained", "black_hole", "seat", "round", "actions_left", "phase", "focus", "waiting", "reshuffled",
                 "log")

    def __init__(self, state: State):
        self.s = state
        self.shuffles = state.shuffles
        self.resources = state.resources
        self.face_up = state.face_up
        self.markers = state.markers
        self.claimed = state.claimed
        self.ships = state.ships
        self.deck = state.deck
        self.discard = state.discard
        self.hands = state.hands
        self.gained = state.gained
        self.black_hole = state.black_hole
        self.seat = state.seat
        self.round = state.round
        self.actions_left = state.actions_left
        self.phase = state.phase
        self.focus = state.focus
        self.waiting = state.waiting
        self.reshuffled = state.reshuffled
        self.log: list[LogRecord] = []

    def freeze(self) -> State:
        s = self.s
        return make_state((
            s.comps, s.players, s.variants, s.seed, self.shuffles, s.ring, self.resources, self.face_up, self.markers,
            self.claimed, self.ships, self.deck, self.discard, self.hands, s.hidden, self.gained, self.black_hole,
            s.unused, s.start_player, self.seat, self.round, self.actions_left, self.phase, self.focus, self.waiting,
            self.reshuffled, tuple(self.log)))

    def spend(self, seat: Seat, kind: NavCompKind) -> None:
        self.hands = _put(self.hands, seat, _without(self.hands[seat], kind))
        self.discard = self.discard + (kind,)

    def set_marker(self, pos: RingPosition, slot: int, owner: Seat) -> None:
        self.markers = _put(self.markers, pos, _put(self.markers[pos], slot, owner))

    def gain(self, seat: Seat, pos: RingPosition, slot: int, how: str) -> bool:
        """``seat`` takes the resource in ``slot`` of planet ``pos``; True when the black hole ends the game."""
        kind = self.resources[pos][slot]
        self.resources = _put(self.resources, pos, _put(self.resources[pos], slot, EMPTY))
        if self.markers[pos][slot] != NOBODY:
            self.set_marker(pos, slot, NOBODY)
        self.gained = _put(self.gained, seat, tuple(sorted(self.gained[seat] + (kind,))))
        self.log.append(("gain", seat, (kind,), (self.s.ring[pos], slot + 1, how)))
        if self.s.comps.black_hole[kind]:
            self.black_hole = _put(self.black_hole, seat, self.black_hole[seat] + 1)
            total = sum(self.black_hole)
            self.log.append(("black_hole", seat, (), total))
            if total >= BLACK_HOLE_LIMIT:
                self.phase = OVER
                self.focus, self.waiting = -1, ()
                self.log.append(("black_hole_end", None, (), None))
                return True
        return False

    def draw(self, seat: Seat) -> None:
        """Draw up to five; an empty deck is first rebuilt from the shuffled discards."""
        hand = list(self.hands[seat])
        drawn: list[NavCompKind] = []
        while len(hand) + len(drawn) < HAND_SIZE:
            if not self.deck:
                if not self.discard:
                    self.log.append(("deck_empty", seat, (), None))
                    break
                pile = shuffled(f"jump_gate:{self.s.seed}:{self.shuffles}", self.discard)
                self.shuffles += 1
                self.deck, self.discard = tuple(pile), ()
                self.reshuffled = tuple(sorted(pile))
                self.log.append(("reshuffle", None, (), len(pile)))
            drawn.append(self.deck[0])
            self.deck = self.deck[1:]
        hand.extend(drawn)
        self.hands = _put(self.hands, seat, tuple(sorted(hand)))
        self.log.append(("draw", seat, tuple(sorted(drawn)), len(drawn)))

    def action_done(self) -> None:
        self.phase = ACTION
        self.focus, self.waiting = -1, ()
        self.actions_left -= 1
        if self.actions_left <= 0:
            self.end_turn()

    def end_turn(self) -> None:
        state = self.s
        if self.seat == (state.start_player - 1) % state.players:
            self.round += 1
            if NOBODY not in self.claimed:
                self.seat = state.start_player
                self.actions_left = 0
                self.phase = OVER
                self.log.append(("claims_end", None, (), self.round))
                return
        self.seat = (self.seat + 1) % state.players
        self.actions_left = ACTIONS_PER_TURN
        self.phase = ACTION
        self.log.append(("turn", self.seat, (), self.round))

    def claim_next(self) -> None:
        """After a claim's marked resources: the claimer's pick, if anything is left."""
        pos = self.focus
        if any(k != EMPTY for k in self.resources[pos]):
            self.phase = CLAIM_PICK
            self.waiting = ()
        else:
            self.action_done()


def _hand_card(state: State, seat: Seat, name: object, rule: str) -> NavCompKind:
    comps = state.comps
    kind = comps.navcomp_by_name.get(name) if isinstance(name, str) else None
    if kind is None:
        _illegal("no_card", rule, card=repr(name))
    if kind not in state.hands[seat]:
        _illegal("not_in_hand", rule, who=player(seat), card=name)
    return kind


def _slot(state: State, pos: RingPosition, slot: object, rule: str) -> int:
    if type(slot) is not int or not 1 <= slot <= SLOTS:
        _illegal("no_slot", rule, slots=SLOTS, slot=repr(slot))
    if state.resources[pos][slot - 1] == EMPTY:
        _illegal("slot_empty", rule, slot=slot, planet=planet_label(state, pos))
    return slot - 1


def planet_label(state: State, pos: RingPosition) -> dict[str, str]:
    """The planet at ring position ``pos`` as players name it, in each language."""
    return state.comps.planet_label(state.ring[pos])


def _ring_position(state: State, name: object, rule: str) -> RingPosition:
    index = state.comps.planet_by_id.get(name) if isinstance(name, str) else None
    if index is None or index not in state.ring:
        # (a name no planet of the ring has: the ids the action may spell)
        _illegal("not_in_ring", rule, planet=repr(name), ring=joined(state.comps.planets[p].id for p in state.ring))
    return state.ring.index(index)


def apply(state: State, seat: Seat, action: Action) -> State:
    phase = state.phase
    if phase == OVER:
        _illegal("game_over", RULE_OVER)
    if type(seat) is not int or not 0 <= seat < state.players:
        _illegal("no_seat", RULE_TURN, seat=repr(seat), players=state.players)
    kind = type(action)
    if phase == CLAIM_TAKE:
        chooser = state.waiting[0]
        if seat != chooser:
            _illegal("claim_offer_waits", RULE_CLAIM, chooser=player(chooser), who=player(seat))
        if type(action) is not TakeMarked or type(action.take) is not bool:
            _illegal("claim_offer_first", RULE_CLAIM, who=player(seat))
        return _take_marked(state, seat, action.take)
    if seat != state.seat:
        _illegal("not_your_turn", RULE_TURN, current=player(state.seat), who=player(seat))
    if phase == ACTION:
        handler = _ACTIONS.get(kind)
        if handler is None:
            _illegal("not_an_action", RULE_ACTIONS, action=_action_names(action))
        return handler(state, seat, action)
    if phase == MARK:
        if kind is not Mark:
            _illegal("mark_first", RULE_MARK, who=player(seat))
        return _mark(state, seat, cast(Mark, action))
    if phase == RESEARCH:
        if kind is Discard:
            return _discard(state, seat, cast(Discard, action))
        if kind is Draw:
            table = _Table(state)
            table.draw(seat)
            table.action_done()
            return table.freeze()
        _illegal("researching", RULE_RESEARCH, who=player(seat))
    # CLAIM_PICK
    if kind is not ClaimPick:
        _illegal("claim_pick_first", RULE_CLAIM, who=player(seat))
    pick = cast(ClaimPick, action)
    table = _Table(state)
    if pick.slot is not None:
        slot = _slot(state, state.focus, pick.slot, RULE_CLAIM)
        if table.gain(seat, state.focus, slot, "claim"):
            return table.freeze()
    else:
        table.log.append(("no_pick", seat, (), None))
    table.action_done()
    return table.freeze()


def _at_planet(state: State, seat: Seat, what: str, rule: str) -> RingPosition:
    """The ring position of ``seat``'s ship, for the action named by the term ``term.<what>``."""
    ship = state.ships[seat]
    if ship == GATE:
        _illegal("at_gate", RULE_GATE, who=player(seat), action=say(GAME, f"term.{what}"))
    return ship


def _fly(state: State, seat: Seat, action: Fly) -> State:
    ship = _at_planet(state, seat, "fly", RULE_FLY)
    target = _ring_position(state, action.planet, RULE_FLY)
    n = len(state.ring)
    if target not in ((ship - 1) % n, (ship + 1) % n) or target == ship:
        _illegal("not_next", RULE_FLY, target=planet_label(state, target), planet=planet_label(state, ship))
    table = _Table(state)
    table.ships = _put(state.ships, seat, target)
    table.log.append(("fly", seat, (), state.ring[target]))
    table.action_done()
    return table.freeze()


def _jump(state: State, seat: Seat, action: Jump) -> State:
    card = _hand_card(state, seat, action.card, RULE_JUMP)
    target = _ring_position(state, action.planet, RULE_JUMP)
    code = state.comps.planets[state.ring[target]].jump
    if not _matches(state.comps.codes[card][JUMP], code):
        _illegal("no_jump_code", RULE_JUMP, card=action.card, code=code, planet=planet_label(state, target))
    if target == state.ships[seat]:
        _illegal("already_there", RULE_JUMP, who=player(seat), planet=planet_label(state, target))
    table = _Table(state)
    table.spend(seat, card)
    table.ships = _put(state.ships, seat, target)
    table.log.append(("jump", seat, (), (state.ring[target], card)))
    table.action_done()
    return table.freeze()


def _scan(state: State, seat: Seat, action: Scan) -> State:
    ship = _at_planet(state, seat, "scan", RULE_SCAN)
    card = _hand_card(state, seat, action.card, RULE_SCAN)
    code = state.comps.planets[state.ring[ship]].scan
    if not _matches(state.comps.codes[card][SCAN], code):
        _illegal("no_scan_code", RULE_SCAN, card=action.card, code=code, planet=planet_label(state, ship))
    face_up = state.face_up[ship]
    if False not in face_up:
        if not state.variant("scan_without_face_down"):
            _illegal("nothing_to_reveal", RULE_SCAN, planet=planet_label(state, ship))
        if not can_mark(state, seat, ship):
            _illegal("nothing_to_mark", RULE_SCAN, planet=planet_label(state, ship), who=player(seat))
    table = _Table(state)
    table.spend(seat, card)
    table.log.append(("scan", seat, (), (state.ring[ship], card)))
    if False in face_up:
        slot = face_up.index(False)
        table.face_up = _put(state.face_up, ship, _put(face_up, slot, True))
        table.log.append(("reveal", seat, (state.resources[ship][slot],), (state.ring[ship], slot + 1)))
    revealed = table.freeze()
    if can_mark(revealed, seat, ship):
        table.phase = MARK
        table.focus = ship
    else:
        table.action_done()
    return table.freeze()


def _mark(state: State, seat: Seat, action: Mark) -> State:
    pos = state.focus
    table = _Table(state)
    if action.slot is None:
        table.log.append(("no_mark", seat, (), state.ring[pos]))
    else:
        slot = _slot(state, pos, action.slot, RULE_MARK)
        if not state.face_up[pos][slot]:
            _illegal("mark_face_down", RULE_MARK, slot=action.slot, planet=planet_label(state, pos))
        if state.markers[pos][slot] != NOBODY:
            _illegal("already_marked", RULE_MARK, slot=action.slot, planet=planet_label(state, pos))
        table.set_marker(pos, slot, seat)
        table.log.append(("mark", seat, (state.resources[pos][slot],), (state.ring[pos], action.slot)))
    table.action_done()
    return table.freeze()


def _land(state: State, seat: Seat, action: LandClaim) -> State:
    ship = _at_planet(state, seat, "land_claim", RULE_LAND)
    pair = action.cards
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        _illegal("two_cards", RULE_LAND)
    first = _hand_card(state, seat, pair[0], RULE_LAND)
    second = _hand_card(state, seat, pair[1], RULE_LAND)
    if first == second and state.hands[seat].count(first) < 2:
        _illegal("only_one", RULE_LAND, who=player(seat), card=pair[0])
    label = planet_label(state, ship)
    code = state.comps.planets[state.ring[ship]].land
    for name, card in zip(pair, (first, second)):
        if not _matches(state.comps.codes[card][LAND], code):
            _illegal("no_land_code", RULE_LAND, card=name, code=code, planet=label)
    if state.claimed[ship] != NOBODY:
        _illegal("already_claimed", RULE_LAND, planet=label, owner=player(state.claimed[ship]))
    if False in state.face_up[ship]:
        _illegal("still_face_down", RULE_LAND, planet=label)
    if state.markers_left(seat) <= 0:
        _illegal("no_marker_left", RULE_MARKERS, who=player(seat))
    table = _Table(state)
    table.spend(seat, first)
    table.spend(seat, second)
    table.claimed = _put(state.claimed, ship, seat)
    table.log.append(("claim", seat, (), (state.ring[ship], first, second)))
    markers = state.markers[ship]
    table.focus = ship
    table.waiting = tuple(s for s in ((seat + i) % state.players for i in range(state.players)) if s in markers)
    if table.waiting:
        table.phase = CLAIM_TAKE
        table.log.append(("claim_offer", table.waiting[0], (), state.ring[ship]))
    else:
        table.claim_next()
    return table.freeze()


def _take_marked(state: State, seat: Seat, take: bool) -> State:
    pos = state.focus
    slot = state.markers[pos].index(seat)
    table = _Table(state)
    if take:
        if table.gain(seat, pos, slot, "marker"):
            return table.freeze()
    else:
        table.set_marker(pos, slot, NOBODY)
        table.log.append(("leave", seat, (state.resources[pos][slot],), (state.ring[pos], slot + 1)))
    table.waiting = state.waiting[1:]
    if table.waiting:
        table.log.append(("claim_offer", table.waiting[0], (), state.ring[pos]))
    else:
        table.claim_next()
    return table.freeze()


def _harvest(state: State, seat: Seat, action: Harvest) -> State:
    ship = _at_planet(state, seat, "harvest", RULE_HARVEST)
    card = _hand_card(state, seat, action.card, RULE_HARVEST)
    slot = _slot(state, ship, action.slot, RULE_HARVEST)
    if slot not in harvest_slots(state, seat, ship):
        owner = state.markers[ship][slot]
        if owner not in (NOBODY, seat):
            why = say(GAME, "refusal.harvest.marked_by_other", owner=player(owner), slot=action.slot)
        elif not state.face_up[ship][slot]:
            why = say(GAME, "refusal.harvest.face_down", slot=action.slot)
        else:
            why = say(GAME, "refusal.harvest.own_marker_only")
        _illegal("harvest", RULE_HARVEST, who=player(seat), slot=action.slot, planet=planet_label(state, ship), why=why)
    table = _Table(state)
    table.spend(seat, card)
    table.log.append(("harvest", seat, (), (state.ring[ship], card)))
    if not table.gain(seat, ship, slot, "harvest"):
        table.action_done()
    return table.freeze()


def _research(state: State, seat: Seat, action: Research) -> State:
    table = _Table(state)
    table.phase = RESEARCH
    table.log.append(("research", seat, (), None))
    return table.freeze()


def _discard(state: State, seat: Seat, action: Discard) -> State:
    card = _hand_card(state, seat, action.card, RULE_RESEARCH)
    table = _Table(state)
    table.spend(seat, card)
    table.log.append(("discard", seat, (card,), None))
    return table.freeze()


def _pass(state: State, seat: Seat, action: Pass) -> State:
    table = _Table(state)
    table.log.append(("pass", seat, (), state.actions_left))
    table.end_turn()
    return table.freeze()


#: The ACTION phase's handlers, by action class: each takes an action of its key's class (which a
#: dict's type cannot say, hence ``...``).
_ACTIONS: dict[type[Action], Callable[..., State]] = {
    Fly: _fly, Jump: _jump, Scan: _scan, LandClaim: _land, Harvest: _harvest, Research: _research, Pass: _pass}
