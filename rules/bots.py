"""Bots that play any registered game through the protocol alone.

Every bot is seeded: ``make_bot(name, seed)`` returns a callable ``bot(game, state, seat) -> action``
that picks among ``game.legal_actions(state, seat)``; the same seed and states give the same choices.
"""

from __future__ import annotations

import random
from typing import Callable

BOTS = ("random", "greedy")


class RandomBot:
    """Uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, game, state, seat):
        return self.rng.choice(game.legal_actions(state, seat))


class GreedyBot:
    """Best own provisional score after this decision and the seat's own follow-up decisions.

    It looks ahead through the decisions the same seat must make next (in Subastral: the play, then
    the take, then any column order), never through other seats' turns or hidden cards it would not
    know. Ties are broken at random (seeded).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, depth: int = 3):
        self.rng = random.Random(seed)
        self.depth = depth

    def _value(self, game, state, seat, depth):
        if depth == 0 or game.to_move(state) != (seat,):
            return game.scores(state)[seat]
        return max(self._value(game, game.apply(state, seat, a), seat, depth - 1)
                   for a in game.legal_actions(state, seat))

    def __call__(self, game, state, seat):
        actions = game.legal_actions(state, seat)
        values = [self._value(game, game.apply(state, seat, a), seat, self.depth - 1) for a in actions]
        best = max(values)
        return self.rng.choice([a for a, v in zip(actions, values) if v == best])


def make_bot(name: str, seed: int = 0) -> Callable:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
