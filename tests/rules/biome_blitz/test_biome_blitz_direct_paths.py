"""Biome Blitz's direct paths (``fast/quick.py`` and ``fast/direct.py``) build the
same states as the general path through ``_Table``: the same games are played twice, once as the
engine plays them and once with every direct path declining, and each state must be equal (fields
and log). The card files are the standard roster and one with every ability effect in play."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.biome_blitz.fast import direct, quick
from tests.helpers.biome_blitz import EXTENDED, GAME

#: The direct paths that can decline (module, name): declining sends the apply to ``_Table``.
DIRECT = [(direct, "forage_pick"), (direct, "discover"), (quick, "explore"), (quick, "end_turn"),
          (quick, "start_abilities"), (quick, "refill_slot"), (quick, "forage_draws"), (quick, "discover_draws"),
          (quick, "compete")]


def play(game, players: int, seed: int) -> list:
    """The states of a seeded random game (random picks from the legal actions)."""
    pick = random.Random(seed * 31 + players).random
    state = game.new_game(players, seed, None)
    states = [state]
    while seats := game.to_move(state):
        actions = game.legal_actions(state, seats[0])
        state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
        states.append(state)
    return states


@pytest.mark.parametrize("game", [GAME, EXTENDED], ids=["standard", "every-ability"])
def test_direct_paths_build_what_the_general_path_builds(game, monkeypatch):
    games = [(players, seed) for players in range(2, 7) for seed in range(12)]
    built = Counter()
    for module, name in DIRECT:       # count the direct answers: the comparison must not be empty
        def counted(*args, _original=getattr(module, name), _name=name):
            answer = _original(*args)
            built[_name] += answer is not None and answer is not False
            if _name == "compete" and answer is not None:     # the abilities a direct compete applies
                built.update(f"compete {entry[0]}" for entry in answer.log if entry[0] in ("reroll", "destroyed", "draw"))
            return answer
        monkeypatch.setattr(module, name, counted)
    direct = [play(game, *g) for g in games]
    for module, name in DIRECT:
        monkeypatch.setattr(module, name, lambda *args: None)
    general = [play(game, *g) for g in games]
    for (players, seed), ours, theirs in zip(games, direct, general):
        assert len(ours) == len(theirs), f"{players} players, seed {seed}: the games differ in length"
        for step, (a, b) in enumerate(zip(ours, theirs)):
            assert tuple(a) == tuple(b), f"{players} players, seed {seed}: states differ after decision {step}"
    # Every direct path was taken: those for rarer cases at least a few times.
    assert all(built[name] > 0 for _, name in DIRECT), built
    # Direct competes apply rerolls with fixed results, a defeated animal's destroy_attacker and draws.
    assert all(built[f"compete {kind}"] > 0 for kind in ("reroll", "destroyed", "draw")), built
