"""Sweep benchmarks: ``make bench-sweep`` (or ``python benchmarks/sweep.py``).

The issue "Bots, simulation and paired variant analysis" sets the targets, measured here in one run:
- 10,000 paired Subastral 4-player deals (20,000 games) with greedy bots, disturbance off against
  on, with local processes (2 workers): at most 60 s;
- 2 workers at least 1.7x faster than 1 (the same sweep, a smaller share of it for the single worker
  when ``--quick``);
- the same sweep on a Dask ``LocalCluster`` (2 worker processes, 1 thread each) within 15% of the
  local-process time.
Every run must give identical statistics (checked). Prints the figures and "met"/"MISSED" per target.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from play.sweep import compare  # noqa: E402

TARGET_SECONDS = 60.0
TARGET_SPEEDUP = 1.7
TARGET_DASK_SLOWDOWN = 1.15


def run(games: int, **how) -> tuple[float, dict]:
    start = time.perf_counter()
    result = compare("subastral", 4, games, 2026, variants_b={"disturbance": True}, bots_a=("greedy",), **how)
    return time.perf_counter() - start, result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="paired deals (each played twice)")
    parser.add_argument("--chunk", type=int, default=250)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    games = args.games
    print(f"compare subastral 4p, greedy bots, disturbance off vs on: {games:,} deals = {2 * games:,} games\n")

    two, result2 = run(games, executor="processes", workers=2, chunk=args.chunk)
    print(f"local processes, 2 workers: {two:6.1f} s  ({2 * games / two:,.0f} games/s)")
    one, result1 = run(games, executor="processes", workers=1, chunk=args.chunk)
    print(f"local processes, 1 worker:  {one:6.1f} s  ({2 * games / one:,.0f} games/s)")

    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        dask, result_dask = run(games, executor="dask", scheduler=cluster.scheduler_address, chunk=args.chunk)
    print(f"Dask LocalCluster, 2 workers: {dask:6.1f} s  ({2 * games / dask:,.0f} games/s)")

    same = result1["results"] == result2["results"] == result_dask["results"]
    diff = result2["results"]["difference_b_minus_a"][0]["score_difference"]
    print(f"\nseat 1 score, B - A: {diff['mean']:+.2f} [{diff['low']:+.2f}, {diff['high']:+.2f}]")
    checks = [
        (f"{2 * games:,} games with 2 workers in <= {TARGET_SECONDS:.0f} s (scaled to 20,000 games)",
         two * 20_000 / (2 * games) <= TARGET_SECONDS),
        (f"2 workers >= {TARGET_SPEEDUP}x faster than 1 ({one / two:.2f}x)", one / two >= TARGET_SPEEDUP),
        (f"Dask within {TARGET_DASK_SLOWDOWN - 1:.0%} of local processes ({dask / two:.2f}x)", dask <= TARGET_DASK_SLOWDOWN * two),
        ("identical statistics from every executor", same),
    ]
    print()
    for label, ok in checks:
        print(f"{'met   ' if ok else 'MISSED'}  {label}")
    if args.json:
        Path(args.json).write_text(json.dumps({"games": games, "two_workers_s": two, "one_worker_s": one, "dask_s": dask,
                                               "identical": same}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
