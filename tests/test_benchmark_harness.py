"""The benchmark's playout slices (benchmarks/run.py): a game measured in several slices plays the
same games, seed after seed, as one run would."""

import sys
from pathlib import Path

import rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from run import Playouts  # noqa: E402


def test_slices_go_on_with_the_next_seed():
    game = rules.get_game("subastral")
    sliced = Playouts(game, 3)
    sliced.run(0.0)             # at least one whole game per slice
    sliced.run(0.0)
    sliced.run(0.05)
    assert sliced.games >= 3
    whole = Playouts(game, 3)
    assert sliced.decisions == sum(whole.play(seed) for seed in range(sliced.games))
    figures = sliced.figures()
    assert figures["games"] == sliced.games and figures["decisions_per_s"] > 0
