"""Biome Blitz's speed code (``rules.biome_blitz.fast``) changes no result: the same seeded games are
played with the switch ``fast.MEMO.enabled`` on and off (off: every apply checked and built on the plain
rules' ``_Table``), and every state, legal action list and event must be equal. Standard cards and a
card file with every ability effect, every player count, each switch at its default and its other
reading."""

from __future__ import annotations

import random

import pytest

from rules.biome_blitz import fast
from tests.helpers.biome_blitz import EXTENDED, GAME, SWITCHED


def record(game, players: int, seed: int, variants) -> list:
    """Every decision of a seeded random game: (state, seat, legal actions, events after the apply)."""
    pick = random.Random(seed * 7 + players).random
    state = game.new_game(players, seed, variants)
    steps = []
    while seats := game.to_move(state):
        seat = seats[int(pick() * len(seats))]
        actions = game.legal_actions(state, seat)
        following = game.apply(state, seat, actions[int(pick() * len(actions))])
        steps.append((tuple(state), seat, actions, game.events(following)))
        state = following
    steps.append((tuple(state), None, [], []))
    return steps


@pytest.mark.parametrize("variants", [None, SWITCHED], ids=["default", "switched"])
@pytest.mark.parametrize("game", [GAME, EXTENDED], ids=["standard", "every-ability"])
def test_the_speed_code_plays_the_games_the_plain_rules_play(game, variants, monkeypatch):
    games = [(players, seed) for players in range(2, 7) for seed in range(4)]
    monkeypatch.setattr(fast.MEMO, "enabled", True)
    with_speed = [record(game, players, seed, variants) for players, seed in games]
    monkeypatch.setattr(fast.MEMO, "enabled", False)
    plain = [record(game, players, seed, variants) for players, seed in games]
    for (players, seed), ours, theirs in zip(games, with_speed, plain):
        assert len(ours) == len(theirs), f"{players} players, seed {seed}: the games differ in length"
        for step, (a, b) in enumerate(zip(ours, theirs)):
            assert a[0] == b[0], f"{players} players, seed {seed}: states differ before decision {step}"
            assert a[1:3] == b[1:3], f"{players} players, seed {seed}: legal actions differ at decision {step}"
            assert a[3] == b[3], f"{players} players, seed {seed}: events differ after decision {step}"


def test_the_switch_is_on_by_default_and_the_plain_path_checks_every_action(monkeypatch):
    from rules.biome_blitz import rules as engine
    from rules.protocol import IllegalAction
    assert fast.MEMO.enabled
    state = GAME.new_game(3, 5, None)
    seat = GAME.to_move(state)[0]
    listed = GAME.legal_actions(state, seat)
    calls = []
    original = engine._is_legal
    monkeypatch.setattr(engine, "_is_legal", lambda *args: calls.append(args) or original(*args))
    GAME.apply(state, seat, listed[0])
    assert calls == []          # with the switch on, an action just offered is trusted
    monkeypatch.setattr(fast.MEMO, "enabled", False)
    GAME.legal_actions(state, seat)
    GAME.apply(state, seat, listed[0])
    assert len(calls) == 1      # off: checked like any other
    with pytest.raises(IllegalAction):
        GAME.apply(state, (seat + 1) % 3, listed[0])


def test_the_environment_variable_starts_a_process_on_the_plain_rules():
    import os
    import subprocess
    import sys
    script = ("from rules.biome_blitz import fast; import rules; g = rules.get_game('biome_blitz'); "
              "s = g.new_game(3, 1); a = g.legal_actions(s, g.to_move(s)[0]); g.apply(s, g.to_move(s)[0], a[0]); "
              "print(fast.MEMO.enabled)")
    for value, expected in (("1", "False"), ("0", "True"), ("", "True")):
        env = {**os.environ, "RULES_EXPLORER_PLAIN": value}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        assert done.stdout.strip() == expected, value
