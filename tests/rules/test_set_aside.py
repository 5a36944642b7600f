"""``set_aside``: the cards a deal leaves out of play (the box, unused components), by name, among the
game's inventory; what the card editor's counts per player count read."""

from collections import Counter

import pytest

import rules


@pytest.mark.parametrize("game_id, players, variants, aside", [
    ("starligned", 2, {}, 20), ("starligned", 3, {}, 20), ("starligned", 4, {}, 0), ("starligned", 5, {}, 0),
    ("jump_gate", 2, {}, 18), ("jump_gate", 5, {}, 2),
    ("stellar", 2, {}, 0), ("stellar", 2, {"fifth_starter_to_box": True}, 1),
    ("subastral", 2, {}, 0), ("biome_blitz", 2, {}, 0),
])
def test_a_deal_sets_aside_what_its_player_count_leaves_out(game_id, players, variants, aside):
    game = rules.get_game(game_id)
    state = game.new_game(players, 3, variants)
    out = game.set_aside(state)
    assert sum(out.values()) == aside
    assert not Counter(out) - Counter(game.inventory(state))
