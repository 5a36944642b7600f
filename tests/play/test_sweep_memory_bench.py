"""The sweep benchmark's memory and identity figures (benchmarks/sweep.py, issue #23 "Memory and scale
figures kept honest"): a process's peak is its own VmHWM; sweeps compare equal on everything but the
executor's name and the time; every process of a Dask LocalCluster is counted once, under its role."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from sweep import measure_dask_memory, peak_rss_mb, statistics  # noqa: E402

from play.sweep import simulate_sweep  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peaks are read from Linux's /proc")


def resident_mb() -> float:
    """This process's resident memory now (VmRSS), in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def test_a_peak_stays_after_the_memory_is_freed():
    """The peak is the most ever resident, kept once the memory goes back. (Compared with what is resident
    while the block is held, not with the peak before it: a process that freed memory earlier, as a
    pytest worker after other tests, can hold 64 MB more and stay under its old peak.)"""
    block = bytearray(64 * 1024 * 1024)
    block[::4096] = b"x" * len(block[::4096])        # (touched, so the pages are resident)
    held = resident_mb()
    del block                                        # (64 MB is above malloc's mmap threshold: given back at once)
    assert resident_mb() <= held - 60
    # (1 MB of slack: Linux counts a thread's pages in batches, so VmRSS and VmHWM can differ by a few
    # hundred kB; the 60 MB above is what the test is about.)
    assert peak_rss_mb() >= held - 1
    assert peak_rss_mb("self") == peak_rss_mb()


def test_sweeps_compare_on_their_statistics_not_on_where_or_how_fast_they_ran():
    whole = simulate_sweep("subastral", 3, 12, 5, chunk=12)
    split = simulate_sweep("subastral", 3, 12, 5, chunk=5)
    assert statistics(whole) == statistics(split)
    assert "executor" not in statistics(whole) and "elapsed_s" not in statistics(whole)
    assert statistics(whole) != statistics(simulate_sweep("subastral", 3, 12, 6, chunk=12))


@pytest.mark.slow
def test_every_process_of_the_dask_cluster_is_counted_once_under_its_role():
    # In a fresh process, as the benchmark runs it: every process below the one that runs the cluster is
    # counted. Run in a pytest worker, that counted the worker's other children too (a browser test's
    # Chromium and Playwright driver), whose peaks need not grow from one reading to the next: CI failed
    # once on it.
    run = measure_dask_memory(40, 20, 10)
    peaks = run["memory"]["peaks"]
    roles = sorted(peak["process"].split(" ")[0] for peak in peaks.values())
    assert roles.count("worker") == 2 and roles.count("client") == 1, peaks
    client = next(peak for peak in peaks.values() if peak["process"].startswith("client"))
    assert "the scheduler" in client["process"] and "2 nannies" in client["process"]
    # (the processes named, so that a failure on a busy machine says which process came or went)
    assert set(run["same"]["peaks"]) == set(peaks), (run["same"]["peaks"], peaks)
    assert all(peaks[pid]["peak_mb"] >= run["same"]["peaks"][pid]["peak_mb"] > 0 for pid in peaks), \
        (run["same"]["peaks"], peaks)
    assert run["same"]["statistics"] == statistics(simulate_sweep("subastral", 4, 20, 2026, chunk=10))
