"""Random playouts, the inner loop of every look-ahead: the advisor's rollouts (``play_out``: random bots
by the one seed rule, ``play/seeds.py``) and the MCTS bot's playouts (``random_playout``: its own
generator).

A look-ahead spends most of its time here and in the rules it calls, so this module is compiled with
the rules (``rules/build.py``); run pure, it plays the same moves (the rules' differential test
traces advisor rollouts and MCTS decisions in both builds, ``tests/helpers/build_trace.py``).
"""

from __future__ import annotations

import random

from play.limits import MOVE_LIMIT, EndlessGame
from play.seeds import game_key, random_index
from rules import chance
from rules.protocol import A, S, GameSpec


def play_out(spec: GameSpec[S, A], state: S, seed: int, step: int = 0) -> S:
    """The final state after random bots play every seat from ``state``, seeded by the one seed rule
    (``play/seeds.py``) with ``state`` taken as step ``step`` of the game dealt from ``seed``: the bot
    to move (the first seat of ``to_move``) plays ``random_index`` of its legal moves. Raises
    EndlessGame when the game has not ended after ``MOVE_LIMIT`` moves of the rollout."""
    to_move, legal_actions, apply = spec.to_move, spec.legal_actions, spec.apply
    key = game_key(seed)
    for _ in range(MOVE_LIMIT):
        seats = to_move(state)
        if not seats:
            return state
        seat = seats[0]
        actions = legal_actions(state, seat)
        state = apply(state, seat, actions[random_index(key, seat, step, len(actions))])
        step += 1
    if not to_move(state):
        return state
    raise EndlessGame(MOVE_LIMIT, seed, rollout=True)


def random_playout(spec: GameSpec[S, A], state: S, rng: random.Random, limit: int) -> S:
    """The state after at most ``limit`` random moves from ``state`` (fewer when the game ends): at
    each, a seat drawn from ``to_move`` plays a legal move drawn from ``rng`` (``rng.randrange``). The
    game is over when no seat is to move (a live position always has one: the conformance suite)."""
    to_move, legal_actions, apply = spec.to_move, spec.legal_actions, spec.apply
    for _ in range(limit):
        movers = to_move(state)
        if not movers:
            break
        actor = movers[chance.randrange(rng, len(movers))]
        legal = legal_actions(state, actor)
        state = apply(state, actor, legal[chance.randrange(rng, len(legal))])
    return state
