"""Sweep statistics chosen by hand, for the Analysis page's tests."""

from __future__ import annotations

from play.sweep import ChunkResult, Tally, paired_stats


def known_stats() -> dict:
    """Two 2-player games per setting, scores chosen by hand: B adds 4 points to seat 0 in both games.

    A: (10, 20) seat 1 wins, (12, 18) seat 1 wins -> seat 0 mean 11, seat 1 mean 19.
    B: (14, 20) seat 1 wins, (16, 18) seat 1 wins -> seat 0 mean 15; difference seat 0: 4 and 4.
    Lengths: A 30 and 32 decisions, B 31 and 33. Seat 0 starts the first deal and seat 1 the second:
    the first player wins one game of two under each setting, the same deal each time (no difference).
    """
    a, b = Tally(2), Tally(2)
    a.add_game((10, 20), (1,), 30, first=0)
    a.add_game((12, 18), (1,), 32, first=1)
    b.add_game((14, 20), (1,), 31, first=0)
    b.add_game((16, 18), (1,), 33, first=1)
    chunk = ChunkResult(0, [a, b], diff=[8, 0], diff2=[32, 0], wdiff=[0, 0], wdiff2=[0, 0], fgames=2, fdiff=0, fdiff2=0)
    return paired_stats([chunk], 2)


def win_rate_verdict_stats() -> dict:
    """A comparison's figures chosen by hand whose one significant difference is Player 1's win rate
    (4.1 points higher, 95% CI 1.2 to 7.0, on 500 deals): what the verdict's sentence is tested on."""
    return {"games": 500, "difference_b_minus_a": [
        {"seat": 0, "win_rate_difference": {"mean": 0.041, "low": 0.012, "high": 0.070},
         "score_difference": {"mean": 0.1, "low": -0.5, "high": 0.7}}],
        "a": {"game_length": {"mean": 10, "low": 9, "high": 11}, "score_spread": {"mean": 5, "low": 4, "high": 6}},
        "b": {"game_length": {"mean": 10, "low": 9, "high": 11}, "score_spread": {"mean": 5, "low": 4, "high": 6}}}
