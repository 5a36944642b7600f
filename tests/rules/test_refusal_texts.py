"""Every refusal of every game says why in English and Japanese (``IllegalAction.reasons``; the
English is ``reason``, unchanged): moves offered in other positions, or to another seat, are tried
against many positions of seeded games, and each refusal is checked."""

from __future__ import annotations

import pytest

import rules
from rules.protocol import IllegalAction
from rules.rulebook import LANGUAGES
from tests.helpers.seeded_games import JAPANESE, positions


def refusals(game_id: str):
    """IllegalActions from moves offered elsewhere: earlier positions' moves, other seats' moves."""
    seen = []
    for game, state, pick in positions(game_id):
        if not game.to_move(state):
            continue
        seen.extend(game.legal_actions(state, game.to_move(state)[0]))
        players = len(game.scores(state))
        for _ in range(3):
            tried, seat = seen[int(pick() * len(seen))], int(pick() * players)
            try:
                game.apply(state, seat, tried)
            except IllegalAction as error:
                yield error


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_refusal_says_why_in_both_languages(game_id):
    rules_seen, count = set(), 0
    for error in refusals(game_id):
        assert set(error.reasons) == set(LANGUAGES), (error.reasons, str(error))
        assert error.reasons["en"] == error.reason
        assert JAPANESE.search(error.reasons["ja"]), error.reasons
        rules_seen.add(error.rule)
        count += 1
    assert count > 100 and len(rules_seen) > 1
