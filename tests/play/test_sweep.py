"""Sweeps: the same statistics wherever the games run, paired A/B on the same deals, honest intervals."""

import json
import math
import statistics
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

from play.stats import mean_ci, mean_interval, wilson
from play.sweep import CtrlC, Tally, WIN_UNIT, chunk_plan, compare, setting_stats, simulate_sweep
from tests.helpers.cli import cli


def test_mean_interval_matches_the_textbook_formula():
    values = [3, 7, 7, 19, 24, 1, 0, 12]
    ci = mean_ci(sum(values), sum(v * v for v in values), len(values))
    half = 1.959963984540054 * statistics.stdev(values) / math.sqrt(len(values))
    assert ci["mean"] == round(statistics.mean(values), 4)
    assert ci["low"] == pytest.approx(statistics.mean(values) - half, abs=1e-4)
    assert ci["high"] == pytest.approx(statistics.mean(values) + half, abs=1e-4)
    assert mean_ci(5, 25, 1)["low"] is None and mean_ci(0, 0, 0)["mean"] is None



def test_the_advisors_interval_from_values_is_the_sweeps_from_sums():
    values = [1, 2, 3, 4, 7]
    ci = mean_ci(sum(values), sum(v * v for v in values), len(values))
    assert tuple(round(x, 4) for x in mean_interval(values)) == (ci["mean"], ci["low"], ci["high"])
    assert mean_interval([5]) == (5, 5, 5)

@pytest.mark.parametrize("successes,n,low,high", [
    (50, 100, 0.4038, 0.5962),     # standard published values of the Wilson interval
    (1, 10, 0.0179, 0.4042),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(successes, n, low, high):
    ci = wilson(successes, n)
    assert (ci["low"], ci["high"]) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_tallies_add_exactly_in_any_order():
    a, b = Tally(3), Tally(3)
    a.add_game([10, 4, 10], [0, 2], 50)
    b.add_game([1, 2, 3], [2], 40)
    assert (a + b).to_json() == (b + a).to_json()
    total = a + b
    assert total.games == 2 and total.wins == [WIN_UNIT // 2, 0, WIN_UNIT // 2 + WIN_UNIT]
    stats = setting_stats(total)
    assert stats["seats"][2]["win_rate"]["rate"] == 0.75
    assert stats["game_length"]["mean"] == 45 and stats["score_spread"]["mean"] == 4


def test_chunks_cover_every_game_once():
    plan = chunk_plan(1001, 250)
    assert sum(count for _, count in plan) == 1001 and plan[-1] == (1000, 1)


def test_identical_statistics_in_process_in_a_process_pool_and_on_dask():
    from distributed import LocalCluster

    here = simulate_sweep("subastral", 3, 60, 7, executor="inprocess", chunk=60)
    pool = simulate_sweep("subastral", 3, 60, 7, executor="processes", workers=2, chunk=7)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask = simulate_sweep("subastral", 3, 60, 7, executor="dask", scheduler=cluster.scheduler_address, chunk=11)
    assert here["tally"] == pool["tally"] == dask["tally"]
    assert here["seats"] == pool["seats"] == dask["seats"]
    assert (here["executor"], pool["executor"], dask["executor"]) == ("inprocess", "processes", "dask")


def test_a_paired_run_is_the_two_single_runs_on_the_same_deals():
    paired = compare("subastral", 3, 40, 3, variants_b={"disturbance": True}, executor="inprocess", chunk=9)
    a = simulate_sweep("subastral", 3, 40, 3, executor="inprocess", cards=True)
    b = simulate_sweep("subastral", 3, 40, 3, variants={"disturbance": True}, executor="inprocess", cards=True)
    assert paired["results"]["tallies"]["a"] == a["tally"]
    assert paired["results"]["tallies"]["b"] == b["tally"]
    diffs = paired["results"]["difference_b_minus_a"]
    for seat in range(3):
        expected = (b["tally"]["score"][seat] - a["tally"]["score"][seat]) / 40
        assert diffs[seat]["score_difference"]["mean"] == pytest.approx(expected, abs=1e-4)


def test_the_same_setting_twice_differs_by_exactly_nothing():
    same = compare("stellar", 2, 12, 5, bots_a=("random",), bots_b=("random",), executor="inprocess", chunk=5)
    for seat in same["results"]["difference_b_minus_a"]:
        assert seat["score_difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0, "n": 12}
        assert seat["significant"] is False


def test_sequential_stopping_stops_once_precise_enough():
    wide = compare("subastral", 2, 400, 1, variants_b={"disturbance": True}, executor="inprocess", chunk=20,
                   until_ci=50.0)
    assert wide["results"]["games"] == 20          # the first chunk is already within +- 50 points
    tight = compare("subastral", 2, 60, 1, variants_b={"disturbance": True}, executor="inprocess", chunk=20,
                    until_ci=0.001)
    assert tight["results"]["games"] == 60         # never precise enough: every game is played


def test_chunks_finishing_in_any_order_add_up_as_in_order_and_only_those_after_a_gap_are_kept():
    from play.sweep import Job, Prefix, chunk_plan, paired_stats, run_chunk

    job = Job("stellar", 2, 1, ((("random",), ()), (("greedy",), ())))
    plan = chunk_plan(40, 10)
    results = [run_chunk(job, first, count) for first, count in plan]
    prefix = Prefix(plan, 2, 2)
    seen = []
    for result in (results[2], results[1], results[3], results[0]):     # as a pool may finish them
        prefix.add(result)
        seen.append((prefix.chunks, prefix.waiting, None if prefix.total is None else prefix.total.tallies[0].games))
    assert seen == [(0, 1, None), (0, 2, None), (0, 3, None), (4, 0, 40)]
    assert paired_stats(prefix.results, 2) == paired_stats(results, 2)
    # Asked to stop after two chunks, it stops there though the first one's arrival let in three.
    stopping = Prefix(plan, 2, 2)
    enough = lambda results: results[0].tallies[0].games >= 20          # noqa: E731
    assert [stopping.add(result, enough) for result in (results[2], results[1], results[0])] == [False, False, True]
    assert stopping.chunks == 2 and paired_stats(stopping.results, 2) == paired_stats(results[:2], 2)
    assert paired_stats(prefix.results, 2)["difference_b_minus_a"] != paired_stats(results[:1], 2)["difference_b_minus_a"]


class HeldFirst(ThreadPoolExecutor):
    """A pool (threads) whose chunk of game 0 waits until ``release`` is set: a slow chunk."""

    def __init__(self):
        super().__init__(2)
        self.release = threading.Event()

    def submit(self, fn, job, first, count):
        if first == 0:
            return super().submit(lambda: self.release.wait(120) and fn(job, first, count))
        return super().submit(fn, job, first, count)


def test_a_pool_is_never_handed_chunks_far_past_a_slow_one_and_gives_every_one_back():
    from play.sweep import IN_FLIGHT_PER_WORKER, FuturesExecutor, Job, chunk_plan

    pool = HeldFirst()
    runner = FuturesExecutor("threads", pool, workers=lambda: 1)
    plan = chunk_plan(30, 2)
    chunks = runner.map(Job("stellar", 2, 1, ((("random",), ()),)), plan)
    try:
        # While the plan's first chunk runs on, only the chunks within the window past it come back; then
        # the pool is handed nothing more (a run kept them all waiting for the first before).
        early = [next(chunks).first for _ in range(IN_FLIGHT_PER_WORKER - 1)]
        assert 0 not in early and runner.handed_out == 1
        pool.release.set()
        given = early + [result.first for result in chunks]
    finally:
        pool.release.set()
        runner.close()
    assert sorted(given) == [first for first, _ in plan] and len(plan) == 15 and runner.handed_out == 0


class AtOnce(Executor):
    """A pool that runs each chunk as it is handed one: every future is done before the runner waits."""

    def submit(self, fn, *args):
        future: Future = Future()
        future.set_result(fn(*args))
        return future


def test_chunks_back_at_once_come_in_the_plans_order():
    """``futures.wait`` gives the chunks done by then as a set, in its hashes' order: a run whose chunks
    all came back while its progress callback waited (a page drawing) then met chunk 3 before chunk 1,
    and its gap-free beginning jumped from 10 games to the end (a page drew nothing between)."""
    from play.sweep import IN_FLIGHT_PER_WORKER, FuturesExecutor, Job, chunk_plan

    runner = FuturesExecutor("at once", AtOnce(), workers=lambda: 4)
    plan = chunk_plan(40, 2)
    given = [result.first for result in runner.map(Job("stellar", 2, 1, ((("random",), ()),)), plan)]
    assert given == [first for first, _ in plan] and IN_FLIGHT_PER_WORKER * 4 > 2


def test_ctrl_c_keeps_the_finished_chunks():
    seen = []

    def progress(played, prefix):
        seen.append(played)
        if prefix.tallies[0].games == 20:
            raise KeyboardInterrupt

    partial = simulate_sweep("stellar", 2, 50, 1, executor="inprocess", chunk=10, progress=progress)
    assert partial["interrupted"] is True and partial["games"] == 20
    full = simulate_sweep("stellar", 2, 20, 1, executor="inprocess", chunk=10)
    assert partial["tally"] == full["tally"]


@pytest.mark.parametrize("executor", ["inprocess", "processes"])
def test_cancel_keeps_the_finished_chunks_and_gives_up_the_one_in_play(executor):
    """``cancel`` (a page's Stop) is asked while chunks are played: the run stops with the chunks
    finished so far, exactly as a shorter run's; the chunk in play is given up (in this process, between
    its games; a local pool's workers are ended), so a stop no longer waits for a chunk of slow games."""
    finished = []

    def progress(played, prefix):
        finished.append(prefix.tallies[0].games if prefix is not None else 0)

    partial = simulate_sweep("stellar", 2, 400, 1, executor=executor, workers=1, chunk=10, progress=progress,
                             cancel=lambda: bool(finished) and finished[-1] >= 20)
    assert partial["interrupted"] is True and partial["games"] >= 20 and partial["games"] % 10 == 0
    assert partial["games"] < 400
    full = simulate_sweep("stellar", 2, partial["games"], 1, executor="inprocess", chunk=10)
    assert partial["tally"] == full["tally"]


def test_a_stopped_local_pool_ends_its_workers_and_no_thread_dies(monkeypatch):
    """A Stop on a local pool ends its workers with chunks not yet started: the pool fails those
    chunks. Cancelled first, they made Python 3.11's pool manager thread die (InvalidStateError, a
    traceback in the server's log) before it ended the other workers and closed its pipes. The pool is
    held until it has seen its workers go, the moment at which that happened."""
    from play import sweep

    died = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args.exc_value))
    seen_gone = []
    end_workers = sweep._end_workers

    def end_and_hold(pool):
        end_workers(pool)
        deadline = time.monotonic() + 60
        while not pool._broken and time.monotonic() < deadline:     # (the pool's own note: a worker went)
            time.sleep(0.01)
        seen_gone.append(bool(pool._broken))

    monkeypatch.setattr(sweep, "_end_workers", end_and_hold)
    # Long games in big chunks on one worker: two chunks in the worker's queue, two more held back.
    stats = simulate_sweep("jump_gate", 2, 1000, 1, executor="processes", workers=1, chunk=100, cancel=lambda: True)
    assert stats["interrupted"] is True and stats["games"] == 0
    assert seen_gone == [True]
    assert died == []


def test_every_registered_game_sweeps():
    import rules

    for game_id in rules.GAMES:
        game = rules.get_game(game_id)
        stats = simulate_sweep(game_id, game.player_counts[0], 3, 1, executor="inprocess")
        assert stats["games"] == 3 and len(stats["seats"]) == game.player_counts[0]


def test_compare_command_answers_with_confidence_intervals():
    data = json.loads(cli("compare", "subastral", "--players", 3, "--variant-b", "disturbance", "--games", 30,
                          "--workers", 2, "--chunk", 8, "--json").stdout)
    assert data["executor"] == "processes" and data["results"]["games"] == 30
    assert {"low", "high", "mean"} <= set(data["results"]["difference_b_minus_a"][0]["score_difference"])
    text = cli("compare", "subastral", "--players", 3, "--variant-b", "disturbance", "--games", 10, "--workers", 1).stdout
    assert "B - A on the same deals" in text and "[" in text
    same = cli("compare", "subastral", "--players", 3, "--games", 10, check=False)
    assert same.returncode == 2 and "same setting" in same.stderr


def test_compare_command_records_the_score_curves_the_analysis_page_draws():
    """``--curves``: the same score envelope the Analysis page computes for its plot (compare(curves=True))."""
    arguments = ("compare", "subastral", "--players", 3, "--variant-b", "disturbance", "--games", 6, "--workers", 1)
    data = json.loads(cli(*arguments, "--curves", "--json").stdout)
    expected = compare("subastral", 3, 6, 0, variants_b={"disturbance": True}, executor="inprocess", curves=True)
    assert data["results"]["a"]["score_curve"] == json.loads(json.dumps(expected["results"]["a"]["score_curve"]))
    assert data["results"]["a"]["score_curve"]["decision"][0] == 1
    assert json.loads(cli(*arguments, "--json").stdout)["results"]["a"]["score_curve"] is None


def test_simulate_command_uses_local_processes_when_asked():
    data = json.loads(cli("simulate", "stellar", "--players", 2, "--games", 20, "--workers", 2, "--chunk", 6,
                          "--json").stdout)
    assert data["executor"] == "processes" and data["games"] == 20
    single = json.loads(cli("simulate", "stellar", "--players", 2, "--games", 20, "--workers", 2, "--chunk", 20,
                            "--json").stdout)
    assert single["tally"] == data["tally"]


def test_ctrl_c_on_a_process_pool_run_prints_the_partial_results():
    """Ctrl-C once the progress bar (drawn on a terminal: stderr is a pseudo-terminal here) shows ten
    finished chunks: the run stops and prints the games of the chunks finished, from the first deal on.
    Waiting for the bar, not for a fixed time: on a busy machine the first chunks can take seconds.
    Chunks finish in any order and only a gap-free prefix counts, so one finished chunk is not enough
    (it can be the second worker's); ten mean the first worker has been on the first chunk while the
    other finished nine of the same size."""
    import contextlib
    import os
    import pty
    import re
    import select
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers.cli import ROOT

    games = 20000
    terminal, stderr = pty.openpty()
    run = subprocess.Popen([sys.executable, "-m", "play.cli", "compare", "subastral", "--players", "4", "--variant-b",
                            "disturbance", "--games", str(games), "--bot-a", "greedy", "--workers", "2", "--chunk",
                            "20"], cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True)
    os.close(stderr)
    try:
        bar, deadline = "", time.monotonic() + 120
        while not any(int(done) >= 10 * 2 * 20 for done in re.findall(r"\| (\d+)/\d+ \[", bar)):
            assert run.poll() is None and time.monotonic() < deadline, f"no finished chunk on the progress bar: {bar!r}"
            if select.select([terminal], [], [], 0.5)[0]:
                bar += os.read(terminal, 4096).decode()
        os.killpg(run.pid, signal.SIGINT)         # what Ctrl-C does: the whole foreground process group
        deadline = time.monotonic() + 120
        while run.poll() is None:                 # (reading the terminal on, so no write to it blocks the run)
            assert time.monotonic() < deadline, "the run did not stop after Ctrl-C"
            if select.select([terminal], [], [], 0.1)[0]:
                with contextlib.suppress(OSError):
                    os.read(terminal, 4096)
        out = run.stdout.read()
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        os.close(terminal)
    assert run.returncode == 0, out
    assert "(interrupted: partial results)" in out, out
    paired = int(re.search(r"(\d+) paired games", out).group(1))
    assert 0 < paired < games
    assert paired % 20 == 0                       # whole chunks only, from the first deal on


def test_score_histograms_and_curves_add_up_and_agree_across_executors():
    here = simulate_sweep("stellar", 2, 30, 4, executor="inprocess", chunk=30, curves=True)
    pool = simulate_sweep("stellar", 2, 30, 4, executor="processes", workers=2, chunk=7, curves=True)
    assert here["tally"] == pool["tally"] and here["score_curve"] == pool["score_curve"]
    for seat, histogram in enumerate(here["score_histogram"]):
        assert sum(count for _, count in histogram) == 30
        mean = sum(score * count for score, count in histogram) / 30
        assert mean == pytest.approx(here["seats"][seat]["score"]["mean"], abs=1e-3)
    curve = here["score_curve"]
    assert curve["games"][0] == 30 and curve["decision"][0] == 1
    for seat in range(2):
        assert all(lo <= m <= hi for lo, m, hi in zip(curve["low"][seat], curve["mean"][seat], curve["high"][seat]))
    # the last point of a game's curve is its final score: the envelope's end holds the final means
    assert simulate_sweep("stellar", 2, 30, 4, executor="inprocess")["score_curve"] is None


def test_process_pool_workers_leave_ctrl_c_to_the_parent():
    """Ctrl-C reaches every process of the group; a pool worker ignores it, so none dies halfway through
    sending a result back (the parent's shutdown waited for such a result for ever, once)."""
    import signal

    from play.sweep import make_executor

    executor = make_executor("processes", workers=1)
    try:
        assert executor.pool.submit(signal.getsignal, signal.SIGINT).result(timeout=60) == signal.SIG_IGN
    finally:
        executor.close()


def test_ctrl_c_during_a_pool_run_waits_for_a_place_where_the_run_can_stop():
    """While a pool's run is deferring Ctrl-C (``CtrlC.deferred``, main thread), the signal only notes
    that it came: no KeyboardInterrupt lands inside concurrent.futures. ``stop_here`` raises it once;
    the handler before comes back after."""
    import os
    import signal

    before = signal.getsignal(signal.SIGINT)
    ctrl_c = CtrlC()
    with ctrl_c.deferred():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):           # (the handler runs between instructions: give it some)
            if ctrl_c.pressed:
                break
        assert ctrl_c.pressed
        with pytest.raises(KeyboardInterrupt):
            ctrl_c.stop_here()
        ctrl_c.stop_here()              # (once)
    assert signal.getsignal(signal.SIGINT) is before
    with pytest.raises(KeyboardInterrupt):      # Ctrl-C raises at once again
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass


def test_a_pool_run_in_another_thread_leaves_ctrl_c_alone():
    """Signals reach the main thread alone: a page's run (another thread) installs no handler."""
    import signal

    before, seen = signal.getsignal(signal.SIGINT), []

    def run():
        with CtrlC().deferred():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [before]
