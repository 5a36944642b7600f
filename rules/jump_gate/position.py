"""Jump Gate positions and actions as JSON (docs/formats.md).

A position names every card (resources ``"sand"``, ``"sand-bh"``; NavComp cards ``"J1-S3"``), lists
the ring of planets in order with each planet's four resource slots (``{"card", "face_up",
"marker"}`` or ``null`` once taken) and its claimer, each ship's planet (``"gate"`` before the first
Jump), hands, hidden and gained resources and the black hole. ``decode`` checks everything a
hand-written file can get wrong and says what and where; it never guesses.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from rules.fields import (action_fields, json_bool as _bool, json_list as _list, per_seat, position_header,
                          seed_number, times as _times, whole_number as _int)
from rules.eventtexts import joined, player, say_shared
from rules.jump_gate.cards import Components, NavCompKind, PlanetIndex, ResourceKind, bad_file as _bad, parse_components
from rules.jump_gate.state import (
    ACTION, ACTIONS_PER_TURN, BLACK_HOLE_LIMIT, CLAIM_PICK, CLAIM_TAKE, EMPTY, GATE, HAND_SIZE, HIDDEN_BY_PLAYERS,
    MARK, MARKERS, NOBODY, OVER, PHASES, PLANETS_BY_PLAYERS, RESEARCH, SLOTS, Action, RingPosition,
    ClaimPick, Discard, Draw, Fly, Harvest, Jump, LandClaim, Mark, Pass, Research, Scan, State, TakeMarked,
)
from rules.protocol import JSON, JSONObject, PositionField, Seat, require_keys, shown

if TYPE_CHECKING:
    from rules.jump_gate.game import JumpGate

STATE_KEYS = ("players", "seed", "shuffles", "start_player", "seat", "round", "actions_left", "phase", "ring", "ships",
              "deck", "discard", "hands", "hidden", "gained", "black_hole", "unused", "focus", "waiting")
#: Added after the first files were written: a file without it still loads (as if no reshuffle happened).
OPTIONAL_KEYS = ("reshuffled",)
GATE_NAME = "gate"


def planet_json(state: State, pos: RingPosition, *, hide_face_down: bool = False) -> JSONObject:
    """One ring planet: id, claimer and resource slots (face-down cards hidden when asked)."""
    comps = state.comps
    slots: list[JSONObject | None] = []
    for kind, up, owner in zip(state.resources[pos], state.face_up[pos], state.markers[pos]):
        if kind == EMPTY:
            slots.append(None)
            continue
        entry: JSONObject = {"card": comps.resource_names[kind], "face_up": up, "marker": None if owner == NOBODY else owner}
        if hide_face_down and not up:
            del entry["card"]
        slots.append(entry)
    claimer = state.claimed[pos]
    return {"planet": comps.planets[state.ring[pos]].id, "claimed_by": None if claimer == NOBODY else claimer,
            "resources": slots}


def ship_name(state: State, pos: RingPosition) -> str:
    return GATE_NAME if pos == GATE else state.comps.planets[state.ring[pos]].id


def encode(game: JumpGate, state: State) -> JSONObject:
    comps = state.comps

    def nav(kinds: Iterable[NavCompKind]) -> list[str]:
        return [comps.navcomp_names[k] for k in kinds]

    def res(kinds: Iterable[ResourceKind]) -> list[str]:
        return [comps.resource_names[k] for k in kinds]

    data: JSONObject = {
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
            "reshuffled": nav(state.reshuffled),
        },
    }
    if not comps.is_standard:
        data["cards"] = comps.raw
    return data



def _count(n: int, one: str = "time", many: str = "times") -> dict[str, str]:
    """A count in every language: ``times(n)`` in English ("3 times", "1 copy"), "3枚" in Japanese."""
    return {"en": _times(n, one, many), "ja": f"{n}枚"}


def _navcomps(comps: Components, value: JSON, where: str) -> tuple[NavCompKind, ...]:
    return tuple(comps.navcomp(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))


def _resources(comps: Components, value: JSON, where: str) -> tuple[ResourceKind, ...]:
    return tuple(comps.resource(name, where=f"{where}[{i}]") for i, name in enumerate(_list(value, where)))


def _seat_or_none(value: JSON, players: int, where: str) -> Seat:
    return NOBODY if value is None else _int(value, where, 0, players - 1)


#: The ring as ``State`` holds it: ``ring``, ``resources``, ``face_up``, ``markers`` and ``claimed``.
Ring = tuple[tuple[PlanetIndex, ...], tuple[tuple[ResourceKind, ...], ...], tuple[tuple[bool, ...], ...],
             tuple[tuple[Seat, ...], ...], tuple[Seat, ...]]


def _ring(comps: Components, raw: JSON, players: int) -> Ring:
    raw = _list(raw, "state.ring")
    count = PLANETS_BY_PLAYERS[players]
    if len(raw) != count:
        raise _bad("ring_size", "state.ring", players=players, count=count, found=len(raw))
    ring: list[PlanetIndex] = []
    resources: list[tuple[ResourceKind, ...]] = []
    face_up: list[tuple[bool, ...]] = []
    markers: list[tuple[Seat, ...]] = []
    claimed: list[Seat] = []
    for i, entry in enumerate(raw):
        at = f"state.ring[{i}]"
        require_keys(entry, ("planet", "claimed_by", "resources"), where=at)
        planet = comps.planet(entry["planet"], where=f"{at}.planet")
        if planet in ring:
            raise _bad("ring_twice", f"{at}.planet", planet=entry['planet'])
        slots = _list(entry["resources"], f"{at}.resources")
        if len(slots) != SLOTS:
            raise _bad("slots", f"{at}.resources", slots=SLOTS, found=len(slots))
        kinds: list[ResourceKind] = []
        ups: list[bool] = []
        owners: list[Seat] = []
        for j, slot in enumerate(slots):
            slot_at = f"{at}.resources[{j}]"
            if slot is None:
                kinds.append(EMPTY)
                ups.append(True)
                owners.append(NOBODY)
                continue
            require_keys(slot, ("card", "face_up", "marker"), where=slot_at)
            kinds.append(comps.resource(slot["card"], where=f"{slot_at}.card"))
            ups.append(_bool(slot["face_up"], f"{slot_at}.face_up"))
            owner = _seat_or_none(slot["marker"], players, f"{slot_at}.marker")
            if owner != NOBODY and not ups[-1]:
                raise _bad("marker_face_down", f"{slot_at}.marker")
            if owner != NOBODY and owner in owners:
                raise _bad("two_markers", f"{slot_at}.marker", who=player(owner))
            owners.append(owner)
        claimer = _seat_or_none(entry["claimed_by"], players, f"{at}.claimed_by")
        if claimer != NOBODY and False in ups:
            raise _bad("claimed_face_down", f"{at}.resources")
        ring.append(planet)
        resources.append(tuple(kinds))
        face_up.append(tuple(ups))
        markers.append(tuple(owners))
        claimed.append(claimer)
    return tuple(ring), tuple(resources), tuple(face_up), tuple(markers), tuple(claimed)


def decode(game: JumpGate, data: JSON) -> State:
    variants, comps, raw = position_header(game, data, parse_components, game.comps, STATE_KEYS, OPTIONAL_KEYS)

    players = raw["players"]
    if type(players) is not int or players not in game.player_counts:
        raise _bad("players", "state.players", players=shown(players))
    seed = seed_number(raw["seed"], "state.seed")
    shuffles = _int(raw["shuffles"], "state.shuffles", 0)
    start = _int(raw["start_player"], "state.start_player", 0, players - 1)
    seat = _int(raw["seat"], "state.seat", 0, players - 1)
    round_ = _int(raw["round"], "state.round", 0)
    actions_left = _int(raw["actions_left"], "state.actions_left", 0, ACTIONS_PER_TURN)
    phase = raw["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _bad("phase", "state.phase", phases=joined(PHASES), value=repr(phase))
    phase = PHASES[PHASES.index(phase)]

    ring, resources, face_up, markers, claimed = _ring(comps, raw["ring"], players)
    ids = [comps.planets[p].id for p in ring]

    def position_of(name: JSON, where: str, *, gate: bool) -> RingPosition:
        if gate and name == GATE_NAME:
            return GATE
        if name not in ids:
            allowed = ([GATE_NAME] if gate else []) + ids
            raise _bad("one_of", where, allowed=joined(allowed), value=repr(name))
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
    reshuffled = tuple(sorted(_navcomps(comps, raw.get("reshuffled", []), "state.reshuffled")))
    if reshuffled and Counter(deck) - Counter(reshuffled):
        raise _bad("deck_not_reshuffled", "state.reshuffled",
                   cards=joined(comps.navcomp_names[k] for k in sorted((Counter(deck) - Counter(reshuffled)).elements())))

    # Impossible counts: no zone may hold more copies of a card than the game has.
    counts = Counter(k for row in resources for k in row if k != EMPTY)
    for zone in (hidden, gained):
        for pile in zone:
            counts.update(pile)
    counts.update(unused)
    for kind, count in sorted(counts.items()):
        if count > comps.resource_copies[kind]:
            raise _bad("too_many_copies", "state", card=comps.resource_names[kind], count=_count(count),
                       copies=_count(comps.resource_copies[kind], "copy", "copies"))
    counts = Counter(deck + discard + tuple(k for hand in hands for k in hand))
    for kind, count in sorted(counts.items()):
        if count > comps.navcomp_copies[kind]:
            raise _bad("too_many_copies", "state", card=comps.navcomp_names[kind], count=_count(count),
                       copies=_count(comps.navcomp_copies[kind], "copy", "copies"))
    for s in range(players):
        if len(hands[s]) > HAND_SIZE:
            raise _bad("hand_size", f"state.hands[{s}]", size=HAND_SIZE, found=len(hands[s]))
        most = HIDDEN_BY_PLAYERS[players]
        if len(hidden[s]) > most:
            raise _bad("hidden_count", f"state.hidden[{s}]", players=players, most=most, found=len(hidden[s]))
        for i, kind in enumerate(hidden[s]):
            if comps.scoring_of(kind) == "fame":
                raise _bad("hidden_fame", f"state.hidden[{s}]")
        icons = sum(comps.black_hole[k] for k in gained[s])
        if black_hole[s] != icons:
            raise _bad("black_hole_count", f"state.black_hole[{s}]", who=player(s), icons=_count(icons, "resource", "resources"),
                       count=black_hole[s])
        on_board = claimed.count(s) + sum(row.count(s) for row in markers)
        if on_board > MARKERS:
            raise _bad("markers_on_board", "state.ring", who=player(s), count=on_board, markers=MARKERS)

    # The phase must fit the zones, so whoever is to move can move.
    total = sum(black_hole)
    if total >= BLACK_HOLE_LIMIT and phase != OVER:
        raise _bad("over_black_hole", "state.phase", total=total, limit=BLACK_HOLE_LIMIT)
    if phase == OVER and total < BLACK_HOLE_LIMIT and NOBODY in claimed:
        raise _bad("over_early", "state.phase")
    if phase in (MARK, CLAIM_TAKE, CLAIM_PICK):
        if focus == NOBODY:
            raise _bad("focus_needed", "state.focus", phase=phase)
        if ships[seat] != focus:
            raise _bad("ship_at_focus", "state.ships", who=player(seat), planet=ids[focus])
    elif focus != NOBODY:
        raise _bad("focus_not_allowed", "state.focus", phase=phase)
    if phase == MARK:
        if seat in markers[focus] or not any(k != EMPTY and up and m == NOBODY
                                             for k, up, m in zip(resources[focus], face_up[focus], markers[focus])):
            raise _bad("mark_needs_slot", "state.ring")
        used = claimed.count(seat) + black_hole[seat] + sum(row.count(seat) for row in markers)
        if used >= MARKERS:
            raise _bad("mark_needs_marker", "state.phase", who=player(seat), markers=MARKERS)
    if phase in (CLAIM_TAKE, CLAIM_PICK) and claimed[focus] != seat:
        raise _bad("claim_follows", "state.focus", who=player(seat))
    if phase == CLAIM_TAKE:
        if not waiting or len(set(waiting)) != len(waiting) or any(s not in markers[focus] for s in waiting):
            raise _bad("waiting_once", "state.waiting")
        if set(markers[focus]) - {NOBODY} != set(waiting):
            raise _bad("waiting_all", "state.waiting")
        if list(waiting) != sorted(waiting, key=lambda s: (s - seat) % players):
            raise _bad("waiting_order", "state.waiting", who=player(seat))
    elif waiting:
        raise _bad("waiting_phase", "state.waiting")
    if phase == CLAIM_PICK:
        if set(markers[focus]) != {NOBODY}:
            raise _bad("pick_after_markers", f"state.ring[{focus}]")
        if all(k == EMPTY for k in resources[focus]):
            raise _bad("pick_needs_resource", f"state.ring[{focus}]")
    if phase in (ACTION, MARK, RESEARCH, CLAIM_TAKE, CLAIM_PICK) and actions_left < 1:
        raise _bad("actions_left", "state.actions_left")

    return State(
        comps=comps, players=players, variants=tuple(sorted(variants.items())), seed=seed, shuffles=shuffles,
        ring=ring, resources=resources, face_up=face_up, markers=markers, claimed=claimed, ships=ships, deck=deck,
        discard=discard, hands=hands, hidden=hidden, gained=gained, black_hole=black_hole, unused=unused,
        start_player=start, seat=seat, round=round_, actions_left=actions_left, phase=phase, focus=focus,
        waiting=waiting, reshuffled=reshuffled, log=(),
    )


ACTION_TYPES: dict[str, type[Action]] = {
    "fly": Fly, "jump": Jump, "scan": Scan, "mark": Mark, "land_claim": LandClaim, "take_marked": TakeMarked,
    "claim_pick": ClaimPick, "harvest": Harvest, "research": Research, "discard": Discard, "draw": Draw, "pass": Pass}
TYPE_OF: dict[type[Action], str] = {cls: name for name, cls in ACTION_TYPES.items()}


def encode_action(action: Action) -> JSONObject:
    name = TYPE_OF.get(type(action))
    if name is None:
        raise TypeError(f"not a Jump Gate action: {action!r}")
    data: JSONObject = {"type": name}
    if isinstance(action, LandClaim):
        data["cards"] = list(action.cards)
    else:
        data.update(action_fields(action))
    return data


def decode_action(game: JumpGate, data: JSON) -> Action:
    if not isinstance(data, Mapping):
        raise _bad("action_object", "action", kind=type(data).__name__)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise _bad("action_type", "action.type", types=joined(ACTION_TYPES), value=repr(kind))
    comps = game.comps
    cls = ACTION_TYPES[kind]
    fields = tuple(cls.__dataclass_fields__)
    require_keys(data, ("type",) + fields, where="action")
    values: dict[str, JSON] = {}
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
                raise _bad("land_two_cards", at, count=len(pair))
            for i, name in enumerate(pair):
                comps.navcomp(name, where=f"{at}[{i}]")
            value = tuple(sorted(pair, key=comps.navcomp_by_name.__getitem__))
        values[field] = value
    return cls(**values)


def fields(game: JumpGate, data: Mapping[str, Any]) -> tuple[PositionField, ...]:
    """What a person edits in a Jump Gate position (:meth:`~rules.protocol.GameSpec.position_fields`):
    the NavComp deck and discards, the resources set aside, each seat's hand, hidden and gained
    resources, ship and black-hole markers, and whose turn, which round, the actions left, the phase
    and the planet a scan or claim is about. The ring (planets with their resource slots, markers and
    claimers), ``waiting``, ``reshuffled`` and the seed are left to the JSON. ``()`` for data that is
    not a position's shape."""
    from rules import position_fields as f
    from rules.eventtexts import say

    seated = f.seated(game, data)
    if seated is None:
        return ()
    state, hands, players = seated
    comps = game.comps
    navcomp = list(comps.navcomp_names)
    resources = list(comps.resource_names)
    secret = [name for kind, name in enumerate(resources) if comps.scoring_of(kind) != "fame"]
    # The planets a ship may be at: the ring's, in ring order (all of the card file's if the ring is unreadable).
    ring = state["ring"] if isinstance(state.get("ring"), list) else []
    planets = list(dict.fromkeys(entry["planet"] for entry in ring if isinstance(entry, Mapping)
                                 and isinstance(entry.get("planet"), str) and entry["planet"] in comps.planet_by_id))
    planets = planets or [planet.id for planet in comps.planets]
    planet_labels = [comps.planet_label(comps.planet_by_id[planet]) for planet in planets]
    table = f.table()
    found = [
        f.to_move(), f.start_player(), f.round_number(),
        f.number(("actions_left",), say(game.id, "editor.actions_left"), high=ACTIONS_PER_TURN),
        f.phase(PHASES, [say(game.id, f"editor.phase.{phase}") for phase in PHASES]),
        PositionField(path=("focus",), kind="choice", label=say(game.id, "editor.focus"), group=table,
                      note=say(game.id, "editor.focus.note"), choices=tuple(planets),
                      choice_labels=tuple(planet_labels), optional=True),
        f.deck(("deck",), navcomp),
        f.cards(("discard",), say_shared("editor.discard"), table, navcomp, ordered=True),
        f.cards(("unused",), say(game.id, "editor.unused"), table, resources),
    ]

    def listed(key: str, seat: int) -> bool:
        """Does the file hold ``seat``'s entry of the per-seat list ``key``?"""
        return isinstance(state.get(key), list) and seat < len(state[key])

    for s in range(players):
        who = player(s)
        if listed("hands", s):
            found.append(f.hand(s, navcomp))
        if listed("hidden", s):
            found.append(f.cards(("hidden", s), say(game.id, "editor.hidden", player=who), who, secret))
        if listed("gained", s):
            found.append(f.cards(("gained", s), say(game.id, "editor.gained", player=who), who, resources))
        if listed("ships", s):
            found.append(f.choice(("ships", s), say(game.id, "editor.ship", player=who), [GATE_NAME] + planets,
                                  [say(game.id, "editor.gate")] + planet_labels, group=who))
        if listed("black_hole", s):
            found.append(f.number(("black_hole", s), say(game.id, "editor.black_hole", player=who),
                                  high=BLACK_HOLE_LIMIT, group=who, note=say(game.id, "editor.black_hole.note")))
    return tuple(found)
