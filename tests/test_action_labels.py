"""Every game names its actions in English (``str(action)``, unchanged) and in Japanese, for the
picker's buttons: in every list of legal actions, the Japanese names tell the actions apart."""

from __future__ import annotations

import random
import re

import pytest

import rules

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_action_has_a_japanese_name_that_tells_it_apart(game_id):
    game = rules.get_game(game_id)
    lists = 0
    for players in game.player_counts:
        for seed in range(3):
            variants = {v.name: v.choices[-1] for v in game.variants} if seed % 2 else None
            pick = random.Random(seed).random
            state = game.new_game(players, seed, variants)
            while seats := game.to_move(state):
                for seat in seats:
                    actions = game.legal_actions(state, seat)
                    assert [game.action_label(a, "en") for a in actions] == [str(a) for a in actions]
                    names = [game.action_label(a, "ja") for a in actions]
                    assert all(JAPANESE.search(name) for name in names), names
                    assert len(set(names)) == len(names), names
                    lists += 1
                actions = game.legal_actions(state, seats[0])
                state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
    assert lists
