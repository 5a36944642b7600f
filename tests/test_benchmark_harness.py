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
    with _Side(("game", "subastral", 3, "pure")) as side:
        side.run(0.0)
        side.run(0.0)
        figures = side.figures()
    assert figures["games"] == 2 and figures["decisions"] == sum(Playouts(rules.get_game("subastral"), 3).play(seed)
                                                                 for seed in range(2))
    assert side.process.exitcode == 0
    with pytest.raises(RuntimeError, match="no_such_game"):
        _Side(("game", "no_such_game", 2, "pure"))


def test_opcode_counts_compare_each_kind_of_decision_and_the_old_mix(capsys):
    """benchmarks/against.py --opcodes and --kinds: the engine's opcodes, or its time, are counted per
    kind of decision (one real game here), and the total is weighed at the other side's mix of decisions."""
    from against import BY_KIND, print_by_kind
    import json
    import subprocess
    root = Path(__file__).resolve().parent.parent
    measured = {}
    for counting in ("opcodes", "time"):
        done = subprocess.run([sys.executable, "-c", BY_KIND, "subastral", "2", "1", counting], cwd=root,
                              capture_output=True, text=True, check=True)
        measured[counting] = counts = json.loads(done.stdout.strip().splitlines()[-1])
        assert any(kind.startswith("legal:") for kind in counts) and any(kind.startswith("apply:") for kind in counts)
        assert all(decisions > 0 and cost > 0 for decisions, cost in counts.values())
    # The same game, the same decisions; opcodes are counted the same on every run, time is not.
    decisions = {counting: {kind: n for kind, (n, _) in counts.items()} for counting, counts in measured.items()}
    assert decisions["opcodes"] == decisions["time"]
    # Twice the cost of one kind, the other the same, at a mix of one to three: (1*2 + 3*1) / 4.
    old = {"legal:a": [10, 100], "apply:B": [30, 300]}
    new = {"legal:a": [20, 400], "apply:B": [5, 50], "apply:C": [1, 7]}
    print_by_kind("g:2:1", "old", new, old)
    out = capsys.readouterr().out
    assert "2.000x" in out and "1.000x" in out and "at old's mix 1.250x" in out


def test_the_tables_benchmark_reports_each_pages_main_thread_per_move():
    """``benchmarks/tables.py``: Chromium's cumulative counters (seconds, counts), grown over the
    moves, summed over the pages and divided by the pages' moves; durations in ms."""
    from tables import MAIN_THREAD, per_page_move

    before = [dict.fromkeys(MAIN_THREAD, 1.0), dict.fromkeys(MAIN_THREAD, 2.0)]
    after = [{**dict.fromkeys(MAIN_THREAD, 1.5), "RecalcStyleCount": 41.0},
             {**dict.fromkeys(MAIN_THREAD, 2.3), "RecalcStyleCount": 42.0}]
    figures = per_page_move(before, after, page_moves=8)
    assert figures["TaskDuration"] == pytest.approx((0.5 + 0.3) / 8 * 1000)        # 100 ms a page and move
    assert figures["RecalcStyleCount"] == pytest.approx((40 + 40) / 8)


def test_the_tables_benchmark_reports_the_cpu_of_a_move_by_process():
    """``benchmarks/tables.py``: each process is counted under its kind (Chromium's renderers before
    its other processes), and the kinds' CPU seconds grown over the moves are given per move in ms."""
    from tables import cpu_per_move, kind_of

    assert kind_of("/usr/lib/chromium/chromium --type=renderer --lang=en-US") == "renderers"
    assert kind_of("/usr/lib/chromium/chromium --type=gpu-process --no-sandbox") == "chromium"
    assert kind_of("/usr/lib/chromium/chromium --headless --remote-debugging-pipe") == "chromium"
    assert kind_of("/work/main/.venv/bin/python -m panel serve apps/tables apps/explorer") == "server"
    assert kind_of(".venv/lib/python3.11/site-packages/playwright/driver/node cli.js run-driver") == "playwright"
    assert kind_of("/usr/bin/python3 benchmarks/tables.py") is None
    before = {"renderers": 10.0, "chromium": 2.0, "server": 5.0, "playwright": 1.0}
    after = {"renderers": 13.6, "chromium": 2.3, "server": 5.6, "playwright": 1.3}
    figures = cpu_per_move(before, after, moves=12)
    assert figures["renderers"] == pytest.approx(300) and figures["server"] == pytest.approx(50)
    assert figures["total"] == pytest.approx((3.6 + 0.3 + 0.6 + 0.3) / 12 * 1000)
