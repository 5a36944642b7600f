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
