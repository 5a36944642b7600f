"""Bots that play any registered game through the protocol alone, never reading hidden cards.

Every bot is seeded: ``make_bot(name, seed)`` returns a callable ``bot(game, state, seat) -> action``
that picks among ``game.legal_actions(state, seat)``; the same seed and states give the same choices.
A bot that looks ahead does so on a *determinization*: ``game.sample_hidden(state, seat, rng)``
re-deals everything the seat cannot see, so two states that differ only in hidden cards give the
same choices (tests/play/test_bots.py checks this for every game).

- ``random``: a uniformly random legal action.
- ``greedy``: one ply — each legal action applied to a determinization and valued by the seat's
  provisional score plus a small per-game heuristic (``HEURISTICS``); ties broken at random.
- ``mcts``: information-set Monte Carlo tree search (single observer): each iteration samples a
  determinization, walks the tree of the seat's and the others' actions by UCB (counting how often
  each action was available), expands one action, plays the game out with random moves and backs
  up the seat's result (its share of the win; a playout cut off at ``max_playout`` decisions counts
  the seat's share of the best provisional score). Budget: ``iterations`` or ``seconds``.
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Callable

from play.seeds import MASK64, decision_seed, splitmix64

BOTS = ("random", "greedy", "mcts")


def _jump_gate(game, state, seat) -> float:
    """Reserved resources are worth something; black-hole markers risk the hidden resources."""
    marked = sum(row.count(seat) for row in state.markers)
    return 0.5 * marked - 1.0 * state.black_hole[seat]


def _biome_blitz(game, state, seat) -> float:
    """Resources in hand are the means to discover and compete."""
    return 0.2 * len(state.hands[seat])


#: A small bonus per game on top of the provisional score (the score alone decides elsewhere).
HEURISTICS: dict[str, Callable] = {"jump_gate": _jump_gate, "biome_blitz": _biome_blitz}


class RandomBot:
    """Uniformly random legal action. Its n-th choice is drawn from ``splitmix64`` of its seed and n
    (no Mersenne Twister to seed: a bot is made per decision, ``bot_move``, and this keeps random
    playouts as fast as one long-lived generator)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.drawn = seed & MASK64

    def __call__(self, game, state, seat):
        actions = game.legal_actions(state, seat)
        self.drawn = splitmix64(self.drawn)
        return actions[self.drawn % len(actions)]


class GreedyBot:
    """Best provisional score (plus the game's heuristic) one ply ahead, on a determinization."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._rng = None

    @property
    def rng(self) -> random.Random:
        """Made at the first choice that needs it (a forced move does not pay for seeding it)."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def __call__(self, game, state, seat):
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        world = game.sample_hidden(state, seat, self.rng)
        if world is None:
            world = state          # a game without hidden information
        heuristic = HEURISTICS.get(game.id)
        apply, scores = game.apply, game.scores
        best, choices = None, []
        for action in actions:
            after = apply(world, seat, action)
            value = scores(after)[seat] + (heuristic(game, after, seat) if heuristic else 0)
            if best is None or value > best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return self.rng.choice(choices)


class _Node:
    __slots__ = ("visits", "total", "available", "children")

    def __init__(self):
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[str, _Node] = {}


class MCTSBot:
    """Information-set MCTS (single observer); see the module docstring."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, max_playout: int = 300):
        self.rng = random.Random(seed)
        self.iterations, self.seconds = iterations, seconds
        self.exploration, self.max_playout = exploration, max_playout
        self.keys: dict = {}

    def key(self, game, action) -> str:
        found = self.keys.get(id(action))
        if found is None or found[0] is not action:
            found = self.keys[id(action)] = (action, json.dumps(game.encode_action(action), sort_keys=True))
        return found[1]

    def result(self, game, state, seat) -> float:
        """The seat's share of the win at the end, or of the best provisional score when cut off."""
        if game.is_over(state):
            winners = game.winners(state)
        else:
            scores = game.scores(state)
            winners = [s for s, v in enumerate(scores) if v == max(scores)]
        return 1 / len(winners) if seat in winners else 0.0

    def __call__(self, game, state, seat):
        actions = game.legal_actions(state, seat)
        if len(actions) == 1:
            return actions[0]
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        rng = self.rng
        done = 0
        while (deadline is None and done < self.iterations) or (deadline is not None and time.perf_counter() < deadline):
            done += 1
            world = game.sample_hidden(state, seat, rng) or state
            node, path = root, [root]
            # Selection and expansion: the seat's first decision is always ``seat``'s own.
            while not game.is_over(world):
                movers = game.to_move(world)
                actor = seat if seat in movers and node is root else movers[0]
                legal = game.legal_actions(world, actor)
                keyed = [(self.key(game, a), a) for a in legal]
                for k, _ in keyed:
                    child = node.children.get(k)
                    if child is not None:
                        child.available += 1
                fresh = [(k, a) for k, a in keyed if k not in node.children]
                if fresh:
                    k, action = fresh[rng.randrange(len(fresh))]
                    child = node.children[k] = _Node()
                    child.available = 1
                    world = game.apply(world, actor, action)
                    path.append(child)
                    break
                best, chosen = None, None
                for k, action in keyed:
                    child = node.children[k]
                    if child.visits:
                        mean = child.total / child.visits
                        if actor != seat:
                            mean = 1 - mean          # the others play against the seat
                        value = mean + self.exploration * math.sqrt(math.log(child.available) / child.visits)
                    else:
                        value = float("inf")
                    if best is None or value > best:
                        best, chosen = value, (k, action)
                node = node.children[chosen[0]]
                world = game.apply(world, actor, chosen[1])
                path.append(node)
            # Playout.
            steps = 0
            while not game.is_over(world) and steps < self.max_playout:
                movers = game.to_move(world)
                actor = movers[rng.randrange(len(movers))]
                legal = game.legal_actions(world, actor)
                world = game.apply(world, actor, legal[rng.randrange(len(legal))])
                steps += 1
            reward = self.result(game, world, seat)
            for n in path:
                n.visits += 1
                n.total += reward
        best = max(actions, key=lambda a: (root.children[self.key(game, a)].visits
                                           if self.key(game, a) in root.children else -1))
        return best


def make_bot(name: str, seed: int = 0) -> Callable:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "mcts":
        return MCTSBot(seed)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")


def bot_move(name: str, game, state, seat: int, seed: int, step: int):
    """The move of bot ``name`` for ``seat`` at ``step`` of the game dealt from ``seed``: the one seed rule
    (``play/seeds.py``), used wherever bots play."""
    if name == "random":        # RandomBot(decision seed)'s move, without making the bot (simulations' hot path)
        actions = game.legal_actions(state, seat)
        return actions[splitmix64(decision_seed(seed, seat, step)) % len(actions)]
    return make_bot(name, decision_seed(seed, seat, step))(game, state, seat)
