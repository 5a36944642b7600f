"""``set_aside``: the cards a deal leaves out of play (the box, unused components, cards never dealt),
by name; with the inventory, the whole card file. What the card editor's counts per player count read."""

from collections import Counter

import pytest

import rules


@pytest.mark.parametrize("game_id, players, variants, aside, in_play", [
    ("starligned", 2, {}, 20, 40), ("starligned", 3, {}, 20, 40), ("starligned", 4, {}, 0, 60), ("starligned", 5, {}, 0, 60),
    ("jump_gate", 2, {}, 18, 78), ("jump_gate", 5, {}, 2, 94),
    ("stellar", 2, {}, 0, 60), ("stellar", 2, {"fifth_starter_to_box": True}, 1, 59),
    ("subastral", 2, {}, 42, 61), ("subastral", 5, {}, 0, 103), ("biome_blitz", 2, {}, 0, 99),
])
def test_a_deal_sets_aside_what_its_player_count_leaves_out(game_id, players, variants, aside, in_play):
    game = rules.get_game(game_id)
    state = game.new_game(players, 3, variants)
    out = game.set_aside(state)
    assert sum(out.values()) == aside
    # The whole file (what the largest table plays or sets aside; a box the state keeps is in its inventory
    # too) less what this deal sets aside: the cards it plays, as the card editor counts them.
    largest = game.new_game(max(game.player_counts), 3, variants)
    whole = Counter(game.inventory(largest)) | Counter(game.set_aside(largest))
    assert not Counter(out) - whole and sum(whole.values()) - aside == in_play
