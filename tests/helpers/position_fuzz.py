"""Shared machinery of the games' property tests on hand-written positions (test_*bad_input.py).

Each game's test module brings its own samples (real positions of every phase) and its own
vocabulary of wrong values; the mutation of a position and the checks of what decodes are the same
for every game.
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HYPOTHESIS = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def json_paths(node, prefix=()):
    """Every path into a JSON value (the value itself first)."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from json_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from json_paths(value, prefix + (index,))


def mutated_positions(samples: list, junk, card_values: list):
    """A strategy: one sample with one field replaced by junk or a card value, deleted, or doubled."""

    @st.composite
    def mutated(draw):
        data = copy.deepcopy(draw(st.sampled_from(samples)))
        path = draw(st.sampled_from(list(json_paths(data))[1:]))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        how = draw(st.sampled_from(["junk", "delete", "card", "duplicate"]))
        if how == "junk":
            parent[last] = draw(junk)
        elif how == "delete":
            del parent[last]
        elif how == "card":
            parent[last] = draw(st.sampled_from(card_values))
        elif isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:
            parent[last] = [parent[last], copy.deepcopy(parent[last])]
        return data

    return mutated()


def roundtrips(game, state) -> None:
    """The state's position survives JSON text and decoding unchanged."""
    encoded = game.encode(state)
    assert game.encode(game.decode(json.loads(json.dumps(encoded)))) == encoded


def can_be_played(game, state) -> None:
    """A position the engine accepts is one the game can go on from: someone moves unless it is over."""
    movers = game.to_move(state)
    assert bool(movers) != game.is_over(state), f"to_move {movers} but is_over {game.is_over(state)} in phase {state.phase}"
    for seat in movers:
        actions = game.legal_actions(state, seat)
        assert actions, f"seat {seat} must move in phase {state.phase} but has no legal action"
        for action in actions:
            game.apply(state, seat, action)


def position_junk(game, variants: dict, samples: list, state_keys, junk):
    """A strategy: position files whose every top-level field and state field is a real value (from
    the samples) or junk."""
    return junk | st.fixed_dictionaries({
        "game": st.just(game.id) | junk, "version": st.just(game.version) | junk,
        "variants": st.just(variants) | junk,
        "state": junk | st.fixed_dictionaries(
            {key: st.sampled_from([sample["state"][key] for sample in samples]) | junk for key in state_keys}),
    }, optional={"cards": junk, "comment": junk})


def junk_decode_tests(game, positions, actions):
    """The two property tests every game has: junk positions and junk actions raise nothing but
    InvalidPosition, and whatever decodes survives a round trip. Assign them to module-level test names."""
    from rules import InvalidPosition

    @HYPOTHESIS
    @given(positions)
    def test_decode_junk_raises_only_invalid_position(data):
        try:
            state = game.decode(data)
        except InvalidPosition:
            return
        roundtrips(game, state)

    @HYPOTHESIS
    @given(actions)
    def test_decode_action_junk_raises_only_invalid_position(data):
        try:
            action = game.decode_action(data)
        except InvalidPosition:
            return
        assert game.decode_action(game.encode_action(action)) == action

    return test_decode_junk_raises_only_invalid_position, test_decode_action_junk_raises_only_invalid_position


# -- starved positions ------------------------------------------------------------------------------
#: Per game, the zones a position file can empty (decks, discards, markets, rows, hands, supplies): a
#: name and the path patterns into ``position["state"]`` it covers (``"*"``: every index or key;
#: ``MOVER``/``OTHERS``: the hands of the seats to move / of the rest). The format decides what an
#: emptied zone is: a list loses its cards (a list of fixed slots keeps them, null), a row of named
#: slots holds null, a supply count is 0; cards the format requires to stay (``KEEP``) stay.
MOVER, OTHERS = "<to move>", "<others>"
STARVABLE = {
    "subastral": {"deck": [("deck",)], **{f"cloud {n}": [("clouds", str(n))] for n in range(1, 7)},
                  "hand to move": [("hands", MOVER)], "other hands": [("hands", OTHERS)]},
    "stellar": {"deck": [("deck",)], "discard": [("discard",)], "box": [("box",)], "row": [("row",)],
                "starters": [("starters", "*")], "hand to move": [("hands", MOVER)], "other hands": [("hands", OTHERS)]},
    "jump_gate": {"deck": [("deck",)], "discard": [("discard",)], "unused": [("unused",)],
                  "ring resources": [("ring", "*", "resources")], "hand to move": [("hands", MOVER)],
                  "other hands": [("hands", OTHERS)], "hidden resources": [("hidden", "*")]},
    "starligned": {"deck": [("deck",)], "box": [("box",)], "discard": [("discard",)], "rows": [("rows", "*")],
                   "moon supply": [("moon_supply",)], "hand to move": [("hands", MOVER)],
                   "other hands": [("hands", OTHERS)]},
    "biome_blitz": {**{f"{deck} {zone}": [("decks", deck, zone)] for deck in ("resource", "animal", "ecosystem")
                       for zone in ("deck", "discard", "market")},
                    "hand to move": [("hands", MOVER)], "other hands": [("hands", OTHERS)]},
}
#: Zones of fixed slots: emptied, each slot holds null (a market of three, a planet's resource slots).
#: (Told, not guessed from a null already there: a full market emptied to no slots at all never
#: decoded, so no starved position had an empty Biome Blitz market or Jump Gate planet, and a forage
#: left with nothing for its second pick went unseen until an outside test found it.)
FIXED_SLOTS = {"jump_gate": {"ring resources"},
               "biome_blitz": {"resource market", "animal market", "ecosystem market"}}
#: Cards a zone keeps when emptied because the format requires them there (Subastral's end card
#: stays in the deck until it is revealed).
KEEP = {"subastral": {"END"}}
#: What every seat knows of each hand (cards taken face up...), by seat: emptied with the hand, as
#: the format holds it to the hand (without it, no position with a starved hand that anyone knew a
#: card of decoded, and a Stellar deadlock of that kind went unseen).
HAND_KNOWLEDGE = {"subastral": "known_hands", "stellar": "known_hands", "biome_blitz": "known"}


def _paths(node, pattern, movers):
    """The concrete paths into ``node`` that ``pattern`` names."""
    if not pattern:
        yield ()
        return
    step, rest = pattern[0], pattern[1:]
    if step in ("*", MOVER, OTHERS):
        keys = range(len(node)) if isinstance(node, list) else list(node)
        if step == MOVER:
            keys = [k for k in keys if k in movers]
        elif step == OTHERS:
            keys = [k for k in keys if k not in movers]
    else:
        keys = [step] if step in node else []
    for key in keys:
        for tail in _paths(node[key], rest, movers):
            yield (key, *tail)


def _emptied(value, keep, fixed):
    if isinstance(value, dict):
        return {key: None for key in value}
    if isinstance(value, int) and not isinstance(value, bool):
        return 0
    if fixed:           # fixed slots: each empty
        return [None] * len(value)
    return [item for item in value if isinstance(item, str) and item in keep]


def starved(game, state, zones):
    """The position of ``state`` with ``zones`` (names of ``STARVABLE[game.id]``) emptied, as JSON."""
    data = json.loads(json.dumps(game.encode(state)))
    movers = set(game.to_move(state))
    keep = KEEP.get(game.id, set())
    for zone in zones:
        for pattern in STARVABLE[game.id][zone]:
            for path in list(_paths(data["state"], pattern, movers)):
                parent = data["state"]
                for step in path[:-1]:
                    parent = parent[step]
                parent[path[-1]] = _emptied(parent[path[-1]], keep, zone in FIXED_SLOTS.get(game.id, ()))
                knowledge = data["state"].get(HAND_KNOWLEDGE.get(game.id, ""))
                if path[0] == "hands" and len(path) == 2 and isinstance(knowledge, list):
                    knowledge[path[1]] = []
    return data


def seeded_states(game, *, seeds=2, points=(0.0, 0.35, 0.7), players=None, variants=None):
    """States of real seeded playouts (``players``, else each player count at its fewest and most;
    ``variants``, else the defaults): for every seed, the states ``points`` (fractions) of the way
    through the game."""
    import random

    counts = [players] if players is not None else sorted({game.player_counts[0], game.player_counts[-1]})
    for count in counts:
        for seed in range(seeds):
            rng = random.Random(seed)
            state, line = game.new_game(count, seed, variants), []
            while not game.is_over(state):
                line.append(state)
                seat = rng.choice(game.to_move(state))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            for point in points:
                yield line[int(point * (len(line) - 1))]


def phase_states(game, *, seeds=3, players=None, variants=None):
    """The first state of each phase (``encode(state)["state"]["phase"]``) met in ``seeds`` seeded
    random playouts: the rare phases too (a pending choice, a clear, the last round), which the
    fractions of :func:`seeded_states` seldom land on."""
    import random

    found = {}
    counts = [players] if players is not None else sorted({game.player_counts[0], game.player_counts[-1]})
    for count in counts:
        for seed in range(seeds):
            rng = random.Random(seed)
            state = game.new_game(count, seed, variants)
            while not game.is_over(state):
                found.setdefault((count, game.encode(state)["state"].get("phase")), state)
                seat = rng.choice(game.to_move(state))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return list(found.values())


def no_move(game, state):
    """The seat that must move but has no legal action (None if there is none; a game that is not
    over with nobody to move counts as seat -1)."""
    movers = game.to_move(state)
    if not movers:
        return None if game.is_over(state) else -1
    for seat in movers:
        if not game.legal_actions(state, seat):
            return seat
    return None


def deadlocks(game, *, moves_on=30, budget=4096, seeds=2, points=(0.0, 0.35, 0.7), players=None, variants=None,
              states=None, sizes=None):
    """Every starved position that cannot go on: from seeded states (as many as keep the starved
    positions within ``budget``, in :func:`seeded_states`' order; or the given ``states``), every
    subset of the game's starvable zones emptied (of the ``sizes`` given, else of every size; the
    position keeps the game's ``variants``), decoded (positions the format refuses are skipped),
    checked, then played on with up to ``moves_on`` seeded random moves, each position checked.

    Yields ``(zones, start, moves, position, seat)``: the zones emptied, the starved position's JSON,
    the moves played from it (``(seat, action JSON)``), the JSON of the position reached, and the seat
    that must move there but cannot (-1: nobody moves in a game that is not over).
    """
    import itertools
    import random

    from rules import InvalidPosition

    names = list(STARVABLE[game.id])
    seen = set()
    if states is None:
        states = itertools.islice(seeded_states(game, seeds=seeds, points=points, players=players, variants=variants),
                                  max(1, budget >> len(names)))
    for state in states:
        for size in sizes or range(1, len(names) + 1):
            for zones in itertools.combinations(names, size):
                start = starved(game, state, zones)
                key = json.dumps(start, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                try:
                    position = game.decode(start)
                except InvalidPosition:
                    continue
                rng = random.Random(key)
                moves = []
                for _ in range(moves_on + 1):
                    seat = no_move(game, position)
                    if seat is not None:
                        yield zones, start, moves, game.encode(position), seat
                        break
                    if game.is_over(position):
                        break
                    mover = rng.choice(game.to_move(position))
                    action = rng.choice(game.legal_actions(position, mover))
                    moves.append((mover, game.encode_action(action)))
                    position = game.apply(position, mover, action)
