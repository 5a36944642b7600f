"""Every game names its actions in English and in Japanese, for the picker's buttons: in every list of
legal actions, the names tell the actions apart. In English a name is ``str(action)`` but where the
action holds a card or slot id: the games in ``PRINTED_NAMES`` name a card as printed (``play Savanna 3``,
not ``savanna-3``; ``play Moon 1 ★★★ to telescope top 2``, not ``moon-1-3stars`` and ``top-2``)."""

from __future__ import annotations

import re

import pytest

import rules
from tests.helpers.seeded_games import JAPANESE, positions

CARD_ID = re.compile(r"\b[a-z]+(?:_[a-z]+)*-\d\b")       # savanna-3, tropical_rainforest-5, top-2
PRINTED_NAMES = ("subastral", "stellar")


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_action_has_a_japanese_name_that_tells_it_apart(game_id):
    lists = 0
    for game, state, _ in positions(game_id):
        for seat in game.to_move(state):
            actions = game.legal_actions(state, seat)
            english = [game.action_label(a, "en") for a in actions]
            if game_id in PRINTED_NAMES:
                assert not any(CARD_ID.search(name) for name in english), english
                assert len(set(english)) == len(english), english
            else:
                assert english == [str(a) for a in actions]
            names = [game.action_label(a, "ja") for a in actions]
            assert all(JAPANESE.search(name) for name in names), names
            assert len(set(names)) == len(names), names
            lists += 1
    assert lists
