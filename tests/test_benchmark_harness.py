"""The benchmark's playout slices (benchmarks/run.py): a game measured in several slices plays the
same games, seed after seed, as one run would, in a process of its own when paired with Uno."""

import sys
from pathlib import Path

import pytest

import rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from run import Playouts, _Side  # noqa: E402


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


def test_a_side_plays_in_its_own_process_and_reports_failures():
    with _Side(("game", "subastral", 3)) as side:
        side.run(0.0)
        side.run(0.0)
        figures = side.figures()
    assert figures["games"] == 2 and figures["decisions"] == sum(Playouts(rules.get_game("subastral"), 3).play(seed)
                                                                 for seed in range(2))
    assert side.process.exitcode == 0
    with pytest.raises(RuntimeError, match="no_such_game"):
        _Side(("game", "no_such_game", 2))
