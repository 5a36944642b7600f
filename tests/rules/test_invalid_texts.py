"""A malformed position or action says what is wrong in English (unchanged) and in Japanese
(``InvalidPosition.problems``): every field of real positions of every game is replaced by junk or
deleted, and every refusal of the decoder is checked."""

from __future__ import annotations

import itertools
import json

import pytest

import rules
from rules.protocol import InvalidPosition
from rules.rulebook import LANGUAGES
from tests.helpers.position_fuzz import json_paths
from tests.helpers.seeded_games import JAPANESE, positions

JUNK = (None, "x", -1, 2.5, [], {}, True, [None], {"x": 1})


def invalid_positions(game_id: str):
    """InvalidPositions from real positions with one field replaced or deleted."""
    game = rules.get_game(game_id)
    samples = [game.encode(state) for _, state, _ in itertools.islice(positions(game_id, seeds=1), 0, None, 40)][:6]
    for data in samples:
        text = json.dumps(data)         # each case decodes a fresh copy, read from the text (as a file is)
        for path in list(json_paths(data))[1:]:
            for junk in (*JUNK, "delete"):
                broken = json.loads(text)
                parent = broken
                for step in path[:-1]:
                    parent = parent[step]
                if junk == "delete":
                    if isinstance(parent, dict):
                        del parent[path[-1]]
                    else:
                        parent.pop(path[-1])
                else:
                    parent[path[-1]] = junk
                try:
                    game.decode(broken)
                except InvalidPosition as error:
                    yield error
    for junk in (*JUNK, {"type": "nonsense"}, {"type": None}):
        try:
            game.decode_action(junk)
        except InvalidPosition as error:
            yield error


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_malformed_position_says_what_is_wrong_in_both_languages(game_id):
    count = 0
    for error in invalid_positions(game_id):
        assert set(error.problems) >= set(LANGUAGES), str(error)
        assert error.problems["en"] == error.problem
        assert JAPANESE.search(error.problems["ja"]), (str(error), error.problems)
        assert error.problem_in("en") == str(error)
        count += 1
    assert count > 50
