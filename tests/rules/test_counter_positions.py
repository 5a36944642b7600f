"""A position's counters, at every value the engine accepts, lead only to positions it accepts again.

An outside tester wrote a Stellar position in the ``take`` phase of round 11 (rounds count from 0, so the
game's eleventh round is round 10). The engine took it, played on, and four moves later reached round 12,
which it then refused to load: a game saved there could not be opened again. Each game's positions, one
per phase, get each whole-number field of their ``state`` (round, seat, trades, shuffles...) set to
every value from 0 to 15; those the engine accepts are played on at random, and every position on the
way must survive being written and read back, and give a seat to move a legal action.
"""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules import InvalidPosition
from tests.helpers.position_fuzz import no_move, phase_states
from tests.helpers.tiers import quick_once

VALUES = range(16)
MOVES_ON = 12


def counters(data: dict) -> list[str]:
    """The whole-number fields of a position's ``state`` (the seed aside: any seed deals)."""
    return [key for key, value in data["state"].items() if type(value) is int and key not in ("seed", "players")]


@pytest.mark.parametrize("game_id", quick_once(rules.GAMES, "stellar"))
def test_every_counter_value_the_engine_accepts_leads_to_positions_it_accepts(game_id):
    game = rules.get_game(game_id)
    tried = accepted = 0
    for start in phase_states(game, seeds=1):
        data = game.encode(start)
        for key in counters(data):
            for value in VALUES:
                changed = json.loads(json.dumps(data))
                changed["state"][key] = value
                tried += 1
                try:
                    state = game.decode(changed)
                except InvalidPosition:
                    continue
                accepted += 1
                rng = random.Random(value)
                for step in range(MOVES_ON):
                    encoded = game.encode(state)
                    where = f"{key}={value} in phase {data['state'].get('phase')}, {step} moves on"
                    try:
                        assert game.encode(game.decode(json.loads(json.dumps(encoded)))) == encoded, where
                    except InvalidPosition as refused:
                        pytest.fail(f"{where}: the engine refuses the position it reached: {refused}")
                    assert no_move(game, state) is None, where
                    if game.is_over(state):
                        break
                    seat = rng.choice(game.to_move(state))
                    state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert accepted and accepted < tried      # (some values are refused, some played on)
