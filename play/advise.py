"""The move advisor's numbers: each legal move's value for one seat, estimated by rollouts from what
that seat knows (the Panel component is ``explorer/components/advisor.py``).

For each legal move of the seat, a rollout (1) re-deals everything the seat cannot see with the
game's ``sample_hidden(state, seat, rng)`` -- the real hidden cards are never read, (2) applies the
move, (3) plays the game out with random bots seeded by the one seed rule (``play/seeds.py``) and
(4) records the seat's final score or its win share (1/k of a k-way shared win). Rollout ``r`` uses
the same re-dealt world and the same bot seeds for every move (common random numbers), so moves are
compared on the same futures, and the same seed gives the same values.

Simplifications: the opponents play at random (a move that is good against random play may not be
against people); each seat's past observations are not used beyond what ``sample_hidden`` keeps
(e.g. a card seen going into a hand is re-dealt like any unseen card). Every game's
``sample_hidden`` starts from a canonical order, so two positions that differ only in cards the
seat cannot see give identical values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Generic, Sequence

from play.rollout import play_out as play_out
from play.stats import mean_interval
from rules.protocol import A, S, GameSpec, Seat


OBJECTIVES = ("score", "win share")


class CannotResample(ValueError):
    """The game cannot re-deal what a seat does not see (no ``sample_hidden``): no honest advice."""

    def __init__(self, game: str):
        self.game = game
        super().__init__(f"{game} cannot re-deal hidden information (no sample_hidden): "
                         "the advisor would have to peek at the real cards")


@dataclass(frozen=True, kw_only=True)
class MoveValue(Generic[A]):
    """One move's estimated value for the seat: the mean over ``rollouts`` and its 95% interval."""

    action: A
    label: str
    mean: float
    low: float
    high: float
    rollouts: int


def world_seed(seed: int, rollout: int) -> int:
    """The seed of rollout ``rollout``'s re-dealt world and bots (the same for every move)."""
    return seed * 1_000_003 + rollout


def outcome(spec: GameSpec[S, Any], final_state: S, seat: Seat, objective: str) -> float:
    if objective == "win share":
        winners = spec.winners(final_state)
        return 1 / len(winners) if seat in winners else 0.0
    return float(spec.scores(final_state)[seat])


def sample_world(spec: GameSpec[S, Any], state: S, seat: Seat, seed: int) -> S:
    """A state ``seat`` cannot tell from ``state`` (its hidden part re-dealt from ``seed``)."""
    world = spec.sample_hidden(state, seat, random.Random(seed))
    if world is None:
        raise CannotResample(spec.title)
    return world


def move_labels(actions: Sequence[A], name: Callable[[A], str] = str) -> list[str]:
    """The moves as a log line reads (``name(action)``: ``str`` in English), made unique (a plot axis
    needs distinct names)."""
    labels: list[str] = []
    seen: dict[str, int] = {}
    for action in actions:
        said = name(action)
        seen[said] = seen.get(said, 0) + 1
        labels.append(said if seen[said] == 1 else f"{said} ({seen[said]})")
    return labels


def advise(spec: GameSpec[S, A], state: S, seat: Seat, *, budget: int = 200, seed: int = 0, objective: str = "score",
           should_stop: Callable[[], bool] | None = None, lang: str = "en") -> list[MoveValue[A]]:
    """Every legal move of ``seat`` with its estimated value, best first (labelled in ``lang``).

    ``budget`` rollouts in all, shared evenly between the moves (at least one each). Ties keep the
    rules' order of the moves. ``should_stop`` (checked between rollouts) ends early; every move then
    has the same number of rollouts.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    actions = list(spec.legal_actions(state, seat))
    if not actions:
        return []
    per_move = max(1, budget // len(actions))
    values: list[list[float]] = [[] for _ in actions]
    for rollout in range(per_move):
        if should_stop is not None and rollout > 0 and should_stop():
            break
        seed_r = world_seed(seed, rollout)
        world = sample_world(spec, state, seat, seed_r)
        for index, action in enumerate(actions):
            final = play_out(spec, spec.apply(world, seat, action), seed_r)
            values[index].append(outcome(spec, final, seat, objective))
    ranked: list[MoveValue[A]] = []
    for action, label, results in zip(actions, move_labels(actions, lambda a: spec.action_label(a, lang, state)), values):
        mean, low, high = mean_interval(results)
        ranked.append(MoveValue(action=action, label=label, mean=mean, low=low, high=high, rollouts=len(results)))
    return sorted(ranked, key=lambda value: -value.mean)
