"""Every game names its actions in English (``str(action)``, unchanged) and in Japanese, for the
picker's buttons: in every list of legal actions, the Japanese names tell the actions apart."""

from __future__ import annotations

import pytest

import rules
from tests.helpers.seeded_games import JAPANESE, positions


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_action_has_a_japanese_name_that_tells_it_apart(game_id):
    lists = 0
    for game, state, _ in positions(game_id):
        for seat in game.to_move(state):
            actions = game.legal_actions(state, seat)
            assert [game.action_label(a, "en") for a in actions] == [str(a) for a in actions]
            names = [game.action_label(a, "ja") for a in actions]
            assert all(JAPANESE.search(name) for name in names), names
            assert len(set(names)) == len(names), names
            lists += 1
    assert lists
