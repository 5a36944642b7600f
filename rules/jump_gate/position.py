"""Jump Gate positions and actions as JSON (DESIGN.md, "File formats").

A position names every card (resources ``"sand"``, ``"sand-bh"``; NavComp cards ``"J1-S3"``), lists
the ring of planets in order with each planet's four resource slots (``{"card", "face_up",
"marker"}`` or ``null`` once taken) and its claimer, each ship's planet (``"gate"`` before the first
Jump), hands, hidden and gained resources and the black hole. ``decode`` checks everything a
hand-written file can get wrong and says what and where; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from rules.fields import json_bool as _bool, json_list as _list, times as _times, whole_number as _int, per_seat, position_header
from rules.jump_gate.cards import Components, parse_components
from rules.jump_gate.state import (
    ACTION, ACTIONS_PER_TURN, BLACK_HOLE_LIMIT, CLAIM_PICK, CLAIM_TAKE, EMPTY, GATE, HAND_SIZE, HIDDEN_BY_PLAYERS,
    MARK, MARKERS, NOBODY, OVER, PHASES, PLANETS_BY_PLAYERS, RESEARCH, SLOTS,
    ClaimPick, Discard, Draw, Fly, Harvest, Jump, LandClaim, Mark, Pass, Research, Scan, State, TakeMarked,
)
from rules.protocol import InvalidPosition, require_keys

STATE_KEYS = ("players", "seed", "shuffles", "start_player", "seat", "round", "actions_left", "phase", "ring", "ships",
              "deck", "discard", "hands", "hidden", "gained", "black_hole", "unused", "focus", "waiting")
GATE_NAME = "gate"


def planet_json(state: State, pos: int, *, hide_face_down: bool = False) -> dict:
    """One ring planet: id, claimer and resource slots (face-down cards hidden when asked)."""
    comps = state.comps
    slots = []
    for kind, up, owner in zip(state.resources[pos], state.face_up[pos], state.markers[pos]):
        if kind == EMPTY:
            slots.append(None)
            continue
        entry = {"card": comps.resource_names[kind], "face_up": up, "marker": None if owner == NOBODY else owner}
        if hide_face_down and not up:
            del entry["card"]
        slots.append(entry)
    claimer = state.claimed[pos]
    return {"planet": comps.planets[state.ring[pos]].id, "claimed_by": None if claimer == NOBODY else claimer,
            "resources": slots}


def ship_name(state: State, pos: int) -> str:
    return GATE_NAME if pos == GATE else state.comps.planets[state.ring[pos]].id


def encode(game, state: State) -> dict:
    comps = state.comps
    nav = lambda kinds: [comps.navcomp_names[k] for k in kinds]  # noqa: E731
    res = lambda kinds: [comps.resource_names[k] for k in kinds]  # noqa: E731
    data = {
        "game": game.id,
        "version": game.version,
        "variants": dict(state.variants),
        "state": {
            "players": state.players,
            "seed": state.seed,
            "shuffles": state.shuffles,
            "start_player": state.start_player,
            "seat": state.seat,
            "round": state.round,
            "actions_left": state.actions_left,
            "phase": state.phase,
            "ring": [planet_json(state, i) for i in range(len(state.ring))],
            "ships": [ship_name(state, p) for p in state.ships],
            "deck": nav(state.deck),
            "discard": nav(state.discard),
            "hands": [nav(hand) for hand in state.hands],
            "hidden": [res(h) for h in state.hidden],
            "gained": [res(g) for g in state.gained],
            "black_hole": list(state.black_hole),
            "unused": res(state.unused),
            "focus": None if state.focus < 0 else ship_name(state, state.focus),
            "waiting": list(state.waiting),
        },
    }
    if not comps.is_standard:
        data["cards"] = comps.raw
    return data



def _navcomps(comps: Components, value: Any, where: str) -> tuple[int, ...]:
    return tuple(comps.navcomp(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))


def _resources(comps: Components, value: Any, where: str) -> tuple[int, ...]:
    return tuple(comps.resource(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))


def _seat_or_none(value: Any, players: int, where: str) -> int:
    return NOBODY if value is None else _int(value, where, 0, players - 1)


def _ring(comps: Components, raw: Any, players: int):
    raw = _list(raw, "state.ring")
    count = PLANETS_BY_PLAYERS[players]
    if len(raw) != count:
        raise InvalidPosition(f"{players} players play with a ring of {count} planets, found {len(raw)}", where="state.ring")
    ring, resources, face_up, markers, claimed = [], [], [], [], []
    for i, entry in enumerate(raw):
        at = f"state.ring[{i}]"
        require_keys(entry, ("planet", "claimed_by", "resources"), where=at)
        planet = comps.planet(entry["planet"], where=f"{at}.planet")
        if planet in ring:
            raise InvalidPosition(f"planet {entry['planet']} is in the ring twice", where=f"{at}.planet")
        slots = _list(entry["resources"], f"{at}.resources")
        if len(slots) != SLOTS:
            raise InvalidPosition(f"a planet has {SLOTS} resource slots (null once taken), found {len(slots)}",
                                  where=f"{at}.resources")
        kinds, ups, owners = [], [], []
        for j, slot in enumerate(slots):
            slot_at = f"{at}.resources[{j}]"
            if slot is None:
                kinds.append(EMPTY), ups.append(True), owners.append(NOBODY)
                continue
            require_keys(slot, ("card", "face_up", "marker"), where=slot_at)
            kinds.append(comps.resource(slot["card"], where=f"{slot_at}.card"))
            ups.append(_bool(slot["face_up"], f"{slot_at}.face_up"))
            owner = _seat_or_none(slot["marker"], players, f"{slot_at}.marker")
            if owner != NOBODY and not ups[-1]:
                raise InvalidPosition("a marker goes only on a face-up resource", where=f"{slot_at}.marker")
            if owner != NOBODY and owner in owners:
                raise InvalidPosition(f"Player {owner + 1} has two markers on this planet; the limit is one", where=f"{slot_at}.marker")
            owners.append(owner)
        claimer = _seat_or_none(entry["claimed_by"], players, f"{at}.claimed_by")
        if claimer != NOBODY and False in ups:
            raise InvalidPosition("a claimed planet has no face-down resource (claiming needs them all revealed)",
                                  where=f"{at}.resources")
        ring.append(planet), resources.append(tuple(kinds)), face_up.append(tuple(ups))
        markers.append(tuple(owners)), claimed.append(claimer)
    return tuple(ring), tuple(resources), tuple(face_up), tuple(markers), tuple(claimed)


def decode(game, data: Any) -> State:
    variants, comps, raw = position_header(game, data, parse_components, game.comps, STATE_KEYS)

    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise InvalidPosition(f"Jump Gate is played by 2 to 5 players, not {players!r}", where="state.players")
    seed = raw["seed"]
    if type(seed) is not int:
        raise InvalidPosition(f"must be a whole number, not {seed!r}", where="state.seed")
    shuffles = _int(raw["shuffles"], "state.shuffles", 0)
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    seat = _int(raw["seat"], "state.seat", 0, players - 1)
    round_ = _int(raw["round"], "state.round", 0)
    actions_left = _int(raw["actions_left"], "state.actions_left", 0, ACTIONS_PER_TURN)
    phase = raw["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise InvalidPosition(f"phase must be one of {', '.join(PHASES)}, not {phase!r}", where="state.phase")
    phase = PHASES[PHASES.index(phase)]

    ring, resources, face_up, markers, claimed = _ring(comps, raw["ring"], players)
    ids = [comps.planets[p].id for p in ring]

    def position_of(name: Any, where: str, *, gate: bool) -> int:
        if gate and name == GATE_NAME:
            return GATE
        if name not in ids:
            allowed = ([GATE_NAME] if gate else []) + ids
            raise InvalidPosition(f"must be one of {', '.join(allowed)}, not {name!r}", where=where)
        return ids.index(name)

    ships = tuple(position_of(name, f"state.ships[{s}]", gate=True)
                  for s, name in enumerate(per_seat(raw["ships"], players, "ship", "state.ships")))
    deck = _navcomps(comps, raw["deck"], "state.deck")
    discard = _navcomps(comps, raw["discard"], "state.discard")
    hands = tuple(tuple(sorted(_navcomps(comps, h, f"state.hands[{s}]")))
                  for s, h in enumerate(per_seat(raw["hands"], players, "hand", "state.hands")))
    hidden = tuple(tuple(sorted(_resources(comps, h, f"state.hidden[{s}]")))
                   for s, h in enumerate(per_seat(raw["hidden"], players, "hidden resource list", "state.hidden")))
    gained = tuple(tuple(sorted(_resources(comps, g, f"state.gained[{s}]")))
                   for s, g in enumerate(per_seat(raw["gained"], players, "gained resource list", "state.gained")))
    black_hole = tuple(_int(n, f"state.black_hole[{s}]", 0)
                       for s, n in enumerate(per_seat(raw["black_hole"], players, "black-hole count", "state.black_hole")))
    unused = _resources(comps, raw["unused"], "state.unused")
    focus = NOBODY if raw["focus"] is None else position_of(raw["focus"], "state.focus", gate=False)
    waiting = tuple(_int(s, f"state.waiting[{i}]", 0, players - 1) for i, s in enumerate(_list(raw["waiting"], "state.waiting")))

    # Impossible counts: no zone may hold more copies of a card than the game has.
    counts = Counter(k for row in resources for k in row if k != EMPTY)
    for zone in (hidden, gained):
        for pile in zone:
            counts.update(pile)
    counts.update(unused)
    for kind, count in sorted(counts.items()):
        if count > comps.resource_copies[kind]:
            raise InvalidPosition(f"{comps.resource_names[kind]} appears {_times(count)}, but the game has "
                                  f"{_times(comps.resource_copies[kind], 'copy', 'copies')}", where="state")
    counts = Counter(deck + discard + tuple(k for hand in hands for k in hand))
    for kind, count in sorted(counts.items()):
        if count > comps.navcomp_copies[kind]:
            raise InvalidPosition(f"{comps.navcomp_names[kind]} appears {_times(count)}, but the game has "
                                  f"{_times(comps.navcomp_copies[kind], 'copy', 'copies')}", where="state")
    for s in range(players):
        if len(hands[s]) > HAND_SIZE:
            raise InvalidPosition(f"a hand holds at most {HAND_SIZE} NavComp cards, found {len(hands[s])}", where=f"state.hands[{s}]")
        most = HIDDEN_BY_PLAYERS[players]
        if len(hidden[s]) > most:
            raise InvalidPosition(f"with {players} players each has {most} hidden resources, found {len(hidden[s])}",
                                  where=f"state.hidden[{s}]")
        for i, kind in enumerate(hidden[s]):
            if comps.scoring_of(kind) == "fame":
                raise InvalidPosition("Fame is never a hidden resource: setup replaces it", where=f"state.hidden[{s}]")
        icons = sum(comps.black_hole[k] for k in gained[s])
        if black_hole[s] != icons:
            raise InvalidPosition(f"Player {s + 1} gained {_times(icons, 'resource', 'resources')} with the black-hole icon, "
                                  f"so has that many black-hole markers, not {black_hole[s]}", where=f"state.black_hole[{s}]")
        on_board = claimed.count(s) + sum(row.count(s) for row in markers)
        if on_board > MARKERS:
            raise InvalidPosition(f"Player {s + 1} has {on_board} markers on planets and resources; each player has {MARKERS}",
                                  where="state.ring")

    # The phase must fit the zones, so whoever is to move can move.
    total = sum(black_hole)
    if total >= BLACK_HOLE_LIMIT and phase != OVER:
        raise InvalidPosition(f"{total} black-hole markers end the game at once (the limit is {BLACK_HOLE_LIMIT}): phase must be over",
                              where="state.phase")
    if phase == OVER and total < BLACK_HOLE_LIMIT and NOBODY in claimed:
        raise InvalidPosition("the game ends with seven black-hole markers or every planet claimed; neither holds here",
                              where="state.phase")
    if phase in (MARK, CLAIM_TAKE, CLAIM_PICK):
        if focus == NOBODY:
            raise InvalidPosition(f"phase {phase} is about a planet: name it in focus", where="state.focus")
        if ships[seat] != focus:
            raise InvalidPosition(f"Player {seat + 1}'s ship must be at the focus planet {ids[focus]}", where="state.ships")
    elif focus != NOBODY:
        raise InvalidPosition(f"only a scan's marker or a claim has a focus planet, not phase {phase}", where="state.focus")
    if phase == MARK:
        if seat in markers[focus] or not any(k != EMPTY and up and m == NOBODY
                                             for k, up, m in zip(resources[focus], face_up[focus], markers[focus])):
            raise InvalidPosition("the mark phase needs an unmarked face-up resource and no marker of the player there",
                                  where="state.ring")
        used = claimed.count(seat) + black_hole[seat] + sum(row.count(seat) for row in markers)
        if used >= MARKERS:
            raise InvalidPosition(f"the mark phase needs a marker in Player {seat + 1}'s supply; all {MARKERS} are in use",
                                  where="state.phase")
    if phase in (CLAIM_TAKE, CLAIM_PICK) and claimed[focus] != seat:
        raise InvalidPosition(f"the claim phases follow Player {seat + 1}'s claim of the focus planet", where="state.focus")
    if phase == CLAIM_TAKE:
        if not waiting or len(set(waiting)) != len(waiting) or any(s not in markers[focus] for s in waiting):
            raise InvalidPosition("waiting lists, once each, the players whose markers are on the claimed planet", where="state.waiting")
        if set(markers[focus]) - {NOBODY} != set(waiting):
            raise InvalidPosition("every marker still on the claimed planet belongs to a player who is waiting", where="state.waiting")
        if list(waiting) != sorted(waiting, key=lambda s: (s - seat) % players):
            raise InvalidPosition(f"waiting players decide in turn from the claimer clockwise (Player {seat + 1} first)",
                                  where="state.waiting")
    elif waiting:
        raise InvalidPosition("only the claim_take phase has players waiting", where="state.waiting")
    if phase == CLAIM_PICK:
        if set(markers[focus]) != {NOBODY}:
            raise InvalidPosition("the claimer's pick comes after every marker left the planet", where=f"state.ring[{focus}]")
        if all(k == EMPTY for k in resources[focus]):
            raise InvalidPosition("the claimer's pick needs a resource left on the planet", where=f"state.ring[{focus}]")
    if phase in (ACTION, MARK, RESEARCH, CLAIM_TAKE, CLAIM_PICK) and actions_left < 1:
        raise InvalidPosition("a turn in progress has one or two actions left", where="state.actions_left")

    return State(
        comps=comps, players=players, variants=tuple(sorted(variants.items())), seed=seed, shuffles=shuffles,
        ring=ring, resources=resources, face_up=face_up, markers=markers, claimed=claimed, ships=ships, deck=deck,
        discard=discard, hands=hands, hidden=hidden, gained=gained, black_hole=black_hole, unused=unused,
        start_player=start, seat=seat, round=round_, actions_left=actions_left, phase=phase, focus=focus,
        waiting=waiting, log=(),
    )


ACTION_TYPES = {"fly": Fly, "jump": Jump, "scan": Scan, "mark": Mark, "land_claim": LandClaim, "take_marked": TakeMarked,
                "claim_pick": ClaimPick, "harvest": Harvest, "research": Research, "discard": Discard, "draw": Draw,
                "pass": Pass}
TYPE_OF = {cls: name for name, cls in ACTION_TYPES.items()}


def encode_action(action) -> dict:
    name = TYPE_OF.get(type(action))
    if name is None:
        raise TypeError(f"not a Jump Gate action: {action!r}")
    data = {"type": name}
    if isinstance(action, LandClaim):
        data["cards"] = list(action.cards)
    else:
        data.update(action.__dict__)
    return data


def decode_action(game, data: Any):
    if not isinstance(data, Mapping):
        raise InvalidPosition(f"an action is an object with a 'type', not {type(data).__name__}", where="action")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise InvalidPosition(f"action type must be one of {', '.join(ACTION_TYPES)}, not {kind!r}", where="action.type")
    comps = game.comps
    cls = ACTION_TYPES[kind]
    fields = tuple(cls.__dataclass_fields__)
    require_keys(data, ("type",) + fields, where="action")
    values = {}
    for field in fields:
        value, at = data[field], f"action.{field}"
        if field == "card":
            comps.navcomp(value, where=at)
        elif field == "planet":
            comps.planet(value, where=at)
        elif field == "slot":
            if value is not None or cls is Harvest:
                _int(value, at, 1, SLOTS)
        elif field == "take":
            _bool(value, at)
        elif field == "cards":
            pair = _list(value, at)
            if len(pair) != 2:
                raise InvalidPosition(f"Land & Claim takes two cards, not {len(pair)}", where=at)
            for i, name in enumerate(pair):
                comps.navcomp(name, where=f"{at}[{i}]")
            value = tuple(sorted(pair, key=comps.navcomp_by_name.__getitem__))
        values[field] = value
    return cls(**values)
