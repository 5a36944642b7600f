"""A card file's counts are bounded, so no file can ask for a deck no machine holds.

Jump Gate's resources and NavComp cards, and Stellar's cards and satellites, took any number of copies:
a file with ``"copies": 9007199254740992`` (a number a browser still sends exactly) was accepted, and
dealing it ran out of memory (a billion took gigabytes and minutes first). Biome Blitz bounded its copies
already. Subastral's ``dots`` (printed, never counted) took any whole number. Each is now refused past its
bound, naming the bound in every language, like any other bad field."""

from __future__ import annotations

import pytest

from explorer.cardfiles import standard_file
from rules import get_game
from rules.protocol import InvalidPosition

#: (game, path to the count in the standard file, the largest value taken, what the refusal says).
COUNTS = [
    ("jump_gate", ("resources", 0, "copies"), 99, ("from 1 to 99", "1から99")),
    ("jump_gate", ("navcomp", 0, "copies"), 99, ("from 1 to 99", "1から99")),
    ("stellar", ("types", 0, "cards", 0, "copies"), 99, ("from 1 to 99", "1から99")),
    ("stellar", ("satellites", "copies"), 99, ("copies: 0-99", "copies: 0〜99")),
    ("subastral", ("biomes", 0, "dots"), 99, ("from 0 to 99", "0から99")),
    ("biome_blitz", ("animals", 0, "copies"), 20, ("from 1 to 20", "1")),
]


def with_count(game_id: str, path: tuple, value: int) -> dict:
    data = standard_file(game_id)
    inner = data
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return data


@pytest.mark.parametrize("game_id, path, largest, words", COUNTS,
                         ids=[f"{game_id}-{'.'.join(map(str, path))}" for game_id, path, _, _ in COUNTS])
def test_a_count_past_its_bound_is_refused_naming_the_bound(game_id, path, largest, words):
    game = get_game(game_id)
    for too_many in (largest + 1, 10 ** 9, 2 ** 53):
        with pytest.raises(InvalidPosition) as refused:
            game.with_card_file(with_count(game_id, path, too_many))
        assert words[0] in refused.value.problems["en"] and words[1] in refused.value.problems["ja"], refused.value.problems
    game.with_card_file(with_count(game_id, path, largest)).new_game(game.player_counts[0], seed=1)
