"""The greedy bot's look-ahead (``play.bots.GreedyBot``): every legal action tried one ply ahead on a
re-dealt world and valued by the seat's provisional score plus the game's heuristic. With the rules'
applies it is most of a greedy decision, so this module is compiled with them (``rules/build.py``); run
pure, it picks the same actions (the rules' differential trace plays greedy games in both builds,
``tests/helpers/build_trace.py``).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

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
