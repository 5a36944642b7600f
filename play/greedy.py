"""The greedy bot's decision (``play.bots.GreedyBot``): every legal action tried one ply ahead on a
re-dealt world and valued by the seat's provisional score plus the game's heuristic. With the rules'
applies it is most of a greedy decision, so this module is compiled with them (``rules/build.py``); run
pure, it picks the same actions (the rules' differential trace plays greedy games in both builds,
``tests/helpers/build_trace.py``).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol, Sequence

from rules import chance
from rules.protocol import A, S, GameSpec, Seat

#: ``heuristic(game, state, seat)``: what ``state`` is worth to ``seat`` beyond its provisional score,
#: in points (``play.bots.HEURISTICS``).
Heuristic = Callable[[GameSpec[Any, Any], Any, Seat], float]


def best_actions(game: GameSpec[S, A], world: S, seat: Seat, actions: Sequence[A],
                 together: Sequence[tuple[Seat, float]], heuristic: Heuristic | None) -> list[A]:
    """The actions of ``actions`` worth the most to ``seat`` one ply ahead on ``world``, in their order.

    Each is applied to ``world``; then each seat of ``together`` (choosing in the same step, unseen)
    that is still to move answers with the legal action at its fraction of the list. The result is
    valued by ``seat``'s provisional score (``game.score``), plus ``heuristic`` when the game has one."""
    apply, score, to_move, legal_actions = game.apply, game.score, game.to_move, game.legal_actions
    best = 0.0
    choices: list[A] = []
    for action in actions:
        after = apply(world, seat, action)
        for other, pick in together:
            if other in to_move(after):
                answers = legal_actions(after, other)
                after = apply(after, other, answers[int(pick * len(answers))])
        value = score(after, seat) + (heuristic(game, after, seat) if heuristic is not None else 0.0)
        if not choices or value > best:
            best, choices = value, [action]
        elif value == best:
            choices.append(action)
    return choices


class Greedy(Protocol):
    """What :func:`greedy_move` asks of the bot it decides for (``play.bots.GreedyBot``)."""

    @property
    def rng(self) -> random.Random: ...

    def together(self, game: GameSpec[S, A], state: S, seat: Seat) -> list[tuple[Seat, float]]: ...


def greedy_move(bot: Greedy, game: GameSpec[S, A], state: S, seat: Seat, heuristic: Heuristic | None) -> A:
    """``bot``'s move for ``seat``: the only legal one, else one of the best one ply ahead
    (:func:`best_actions`) on a world re-dealt from what the seat knows (``sample_hidden``), drawn from
    ``bot.rng`` as ``rng.choice`` draws. Here, compiled, rather than in the bot's ``__call__``: its
    steps in the interpreter were 2-3% of a compiled greedy game (400 4-player Subastral games on one
    core, the same moves)."""
    actions = game.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    rng = bot.rng          # (made at the first choice that needs it: a forced move does not seed it)
    world = game.sample_hidden(state, seat, rng)
    if world is None:
        world = state          # a game without hidden information
    choices = best_actions(game, world, seat, actions, bot.together(game, state, seat), heuristic)
    return choices[chance.randrange(rng, len(choices))]     # (rng.choice(choices): the same draw)
