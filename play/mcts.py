"""The MCTS bot: information-set Monte Carlo tree search, single observer (``play/bots.py`` says what it
does). Each iteration re-deals what the seat cannot see, walks the tree and plays the game out at
random (``play/rollout.py``); the walk and the tree's bookkeeping are most of a decision's time
beside the rules, so this module is compiled with them (``rules/build.py``). Run pure, it makes the
same moves (``tests/helpers/build_trace.py``).
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any, Sequence

from play.rollout import random_playout
from rules import chance
from rules.protocol import A, S, GameSpec, Seat


class _Node:
    __slots__ = ("visits", "total", "available", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[str, _Node] = {}


class MCTSBot:
    """Information-set MCTS (single observer); see the module docstring."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, max_playout: int = 300) -> None:
        self.rng = random.Random(seed)
        self.iterations, self.seconds = iterations, seconds
        self.exploration, self.max_playout = exploration, max_playout
        #: Each action's key, by ``id(action)``; the action is kept with it, so its id is not reused.
        self.keys: dict[int, tuple[object, str]] = {}

    def key(self, game: GameSpec[Any, A], action: A) -> str:
        found = self.keys.get(id(action))
        if found is None or found[0] is not action:
            found = self.keys[id(action)] = (action, json.dumps(game.encode_action(action), sort_keys=True))
        return found[1]

    def result(self, game: GameSpec[S, Any], state: S, seat: Seat) -> float:
        """The seat's share of the win at the end, or of the best provisional score when cut off."""
        winners: Sequence[Seat]
        if game.is_over(state):
            winners = game.winners(state)
        else:
            scores = game.scores(state)
            winners = [s for s, v in enumerate(scores) if v == max(scores)]
        return 1 / len(winners) if seat in winners else 0.0

    def __call__(self, game: GameSpec[S, A], state: S, seat: Seat) -> A:
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
                    k, action = fresh[chance.randrange(rng, len(fresh))]
                    child = node.children[k] = _Node()
                    child.available = 1
                    world = game.apply(world, actor, action)
                    path.append(child)
                    break
                best: float | None = None
                chosen = keyed[0]                    # (replaced by the first action below: best is None)
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
            world = random_playout(game, world, rng, self.max_playout)
            reward = self.result(game, world, seat)
            for n in path:
                n.visits += 1
                n.total += reward
        return max(actions, key=lambda a: (root.children[self.key(game, a)].visits
                                           if self.key(game, a) in root.children else -1))
