"""Playout speed of this checkout against another revision, in the same run: ``python
benchmarks/against.py REV [GAME:PLAYERS:GAMES ...] [--rounds N]``.

Each case plays GAMES seeded random games (game ``n`` is seed ``n``, picks from ``Random(seed)``)
through the protocol, in a fresh process per measurement, alternating this checkout and REV (a
temporary ``git worktree``), and keeps each side's best CPU time (``time.process_time``) of
``--rounds``: a busy machine slows both sides alike, and the best of several is the least disturbed.
Prints decisions/s and games/s for both and their ratio (this checkout / REV). Note that a change of
rules changes the games played, so decisions/s can move while the work per game does not.

``--instructions`` counts instead of timing: each side plays the games once under Valgrind's
callgrind (Debian's ``valgrind``; about 50x slower, so give fewer games) after two warm-up games,
minus a run that plays only the warm-up (start-up, imports, the caches a first game fills), with
``PYTHONHASHSEED=0``. The count is the same on every run, however
busy the machine: use it where timings of the same code differ by more than the change measured
(seen here: +-10% between runs of one checkout). It counts work, not time (caches and branches are
not in it), so report it beside the timings, not instead of them.

``--opcodes`` counts the Python bytecode instructions the engine runs (``sys.settrace`` with opcode
events, inside ``legal_actions`` and ``apply`` only), per kind of decision: ``legal:<phase>`` and
``apply:<action class>``. A change of rules changes the games played, so the per-game figures compare
different games; this one compares like with like: each kind's cost per decision, and the total at
REV's mix of decisions ("at REV's mix": what REV's games would cost with this checkout's cost per
kind, over kinds both sides have).

``--kinds`` times the same kinds of decision (``time.perf_counter_ns`` around each ``legal_actions``
and ``apply``, the best of ``--rounds`` per kind, alternating the trees) and totals them at REV's mix.
Opcodes weigh a cheap opcode (a local's load) as a dear one (an attribute, a call), and instructions
leave out cache misses and mispredicted branches: this says which kinds of decision changed in time.
Like every timing here it moves by a few percent from run to run: a kind's ratio that keeps its side
over several runs is a finding, the total at REV's mix within about 4% is not.

``--sweep DEALS`` times instead the greedy sweep ``benchmarks/sweep.py`` holds to issue #23's target:
DEALS paired 4-player Subastral deals with greedy bots, disturbance off against on, on 2 local
processes (wall time, the best of ``--rounds``, alternating the trees). This checkout runs the rules
its install built (``RULES_EXPLORER_BUILD=auto``: compiled where a compiler was found); a revision from
before the compiled build runs the pure ones. The issue measured 35.5 s for 10,000 deals at c33e259
and asked for 15 s (2.37x): ``make bench-against REV=c33e259 BENCH_ARGS="--sweep 2000 --rounds 3"``
says how far this checkout is from that on the machine it runs on, whatever its speed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAYOUTS = r"""
import json, random, sys, time
import rules
game, players, games = rules.get_game(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
for seed in range(10**6, 10**6 + int(sys.argv[4]) if len(sys.argv) > 4 else 0):   # warm-up games, not counted
    rng, state = random.Random(seed), game.new_game(players, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
start, decisions = time.process_time(), 0
for seed in range(games):
    rng, state = random.Random(seed), game.new_game(players, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        decisions += 1
print(json.dumps([time.process_time() - start, decisions]))
"""

BY_KIND = r"""
import collections, json, random, sys, time, rules
game, players, games, counting = rules.get_game(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ops, spent, count = collections.Counter(), collections.Counter(), collections.Counter()
current, clock = [None], time.perf_counter_ns
def trace(frame, event, arg):
    if event == "call":
        frame.f_trace_opcodes = True
    elif event == "opcode" and current[0] is not None:
        ops[current[0]] += 1
    return trace
def play(seeds, counted):
    # (The clock is read outside what the trace counts: the opcodes are the engine's and these lines'.)
    for seed in seeds:
        rng, state = random.Random(seed), game.new_game(players, seed)
        while not game.is_over(state):
            seat = rng.choice(game.to_move(state))
            kind = "legal:" + str(getattr(state, "phase", ""))
            count[kind] += counted
            start = clock()
            current[0] = kind if counted else None
            actions = game.legal_actions(state, seat)
            current[0] = None
            spent[kind] += (clock() - start) * counted
            action = rng.choice(actions)
            kind = "apply:" + type(action).__name__
            count[kind] += counted
            start = clock()
            current[0] = kind if counted else None
            state = game.apply(state, seat, action)
            current[0] = None
            spent[kind] += (clock() - start) * counted
play(range(10**6, 10**6 + 2), False)         # warm-up games: the caches a first game fills
if counting == "opcodes":
    sys.settrace(trace)
play(range(games), True)
sys.settrace(None)
print(json.dumps({kind: [count[kind], ops[kind] if counting == "opcodes" else spent[kind]] for kind in count}))
"""

SWEEP = r"""
import json, sys, time
try:
    from play.sweep import compare
except ImportError:         # (a revision from before play/ was carved out of rules/)
    from rules.sweep import compare
import rules
start = time.perf_counter()
compare("subastral", 4, int(sys.argv[1]), 2026, variants_b={"disturbance": True}, bots_a=("greedy",),
        executor="processes", workers=2)
build = getattr(rules, "BUILD", None)
print(json.dumps([time.perf_counter() - start, build.kind if build is not None else "pure"]))
"""

DEFAULT_CASES = ["subastral:4:300", "stellar:2:300", "jump_gate:4:40", "starligned:3:150",
                 "biome_blitz:2:150", "biome_blitz:4:150", "biome_blitz:6:100"]


def run_in(tree: Path, command: list[str], hash_seed: str | None = None, build: str | None = None):
    """Run ``command`` in ``tree`` with only that tree on the path; its last line of output, as JSON.
    ``build``: the rules it runs (``RULES_EXPLORER_BUILD``; none: the pure ones). A failure raises
    with the end of its error output."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", **({"PYTHONHASHSEED": hash_seed} if hash_seed else {}),
           **({"RULES_EXPLORER_BUILD": build} if build else {})}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{tree}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(tree: Path, game: str, players: str, games: str) -> tuple[float, int]:
    seconds, decisions = run_in(tree, [sys.executable, "-c", PLAYOUTS, game, players, games])
    return seconds, decisions


def instructions(tree: Path, game: str, players: str, games: str) -> tuple[int, int]:
    """Instructions (callgrind's total) to play ``games`` games, less those of a run that plays none
(both after the same two warm-up games), and the decisions made in them."""
    # (a fresh worktree has no bytecode yet: compiled first, or the first run would count compiling it)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "rules")], check=True)
    counts, decisions = [], 0
    for played in (games, "0"):
        with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
            _, played_decisions = run_in(tree, ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}",
                                                sys.executable, "-c", PLAYOUTS, game, players, played, "2"], "0")
            summary = [line for line in Path(out.name).read_text().splitlines() if line.startswith("summary:")]
            counts.append(int(summary[0].split()[1]))
            decisions = decisions or played_decisions
    return counts[0] - counts[1], decisions


def by_kind(tree: Path, game: str, players: str, games: str, counting: str) -> dict[str, list[int]]:
    """Per kind of decision: [decisions, what the engine's legal_actions/apply spent on them]: opcodes
    run (``counting="opcodes"``, with a fixed hash seed) or nanoseconds (``"time"``)."""
    counts: dict[str, list[int]] = run_in(tree, [sys.executable, "-c", BY_KIND, game, players, games, counting],
                                          "0" if counting == "opcodes" else None)
    return counts


def alternating(names: list[str], rounds: int) -> Iterator[str]:
    """Each name once per round, every other round in reverse order (so neither side always runs first)."""
    for round_ in range(rounds):
        yield from (names if round_ % 2 == 0 else names[::-1])


def print_by_kind(case: str, rev: str, new: dict, old: dict, what: str = "Python opcodes") -> None:
    """Each kind's opcodes (or ``what``) per decision on both sides, and the totals (see the module's
    docstring)."""
    print(f"{case}: {what} per decision, {rev} -> this checkout")
    for kind in sorted(set(new) | set(old), key=lambda kind: -old.get(kind, [0, 0])[1]):
        (n_old, o_old), (n_new, o_new) = old.get(kind, [0, 0]), new.get(kind, [0, 0])
        per_old, per_new = (o_old / n_old if n_old else 0), (o_new / n_new if n_new else 0)
        ratio = f"{per_new / per_old:.3f}x" if per_old and per_new else "-"
        print(f"  {kind:24s} {n_old:7d} x {per_old:8.1f} -> {n_new:7d} x {per_new:8.1f}  {ratio}")
    both = [kind for kind in old if kind in new and new[kind][0]]
    at_old_mix = sum(old[kind][0] * new[kind][1] / new[kind][0] for kind in both)
    print(f"  total {sum(o for _, o in old.values()):,} -> {sum(o for _, o in new.values()):,}; at {rev}'s mix "
          f"{at_old_mix / sum(old[kind][1] for kind in both):.3f}x", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the revision to compare against (e.g. a commit before a change)")
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES, help="GAME:PLAYERS:GAMES")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind instead of timing (fewer games: ~50x slower)")
    parser.add_argument("--opcodes", action="store_true",
                        help="count the engine's Python opcodes per kind of decision instead of timing")
    parser.add_argument("--kinds", action="store_true",
                        help="time the engine per kind of decision (best of --rounds) instead of per game")
    parser.add_argument("--sweep", type=int, metavar="DEALS",
                        help="time benchmarks/sweep.py's greedy sweep of DEALS paired deals instead (2 workers)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other), args.rev], check=True)
        try:
            trees = {"this": ROOT, args.rev: other}
            if args.sweep:
                swept: dict[str, tuple[float, str]] = {}
                for name in alternating(list(trees), args.rounds):
                    seconds, kind = run_in(trees[name], [sys.executable, "-c", SWEEP, str(args.sweep)], build="auto")
                    if name not in swept or seconds < swept[name][0]:
                        swept[name] = (seconds, kind)
                (new_s, new_kind), (old_s, old_kind) = swept["this"], swept[args.rev]
                print(f"greedy sweep, subastral 4p, {args.sweep:,} paired deals on 2 workers: {old_s:.2f} s ({old_kind}) "
                      f"-> {new_s:.2f} s ({new_kind}), {old_s / new_s:.2f}x faster", flush=True)
                return 0
            for case in args.cases:
                game, players, games = case.split(":")
                if args.opcodes:
                    counted, counted_before = (by_kind(trees[name], game, players, games, "opcodes") for name in trees)
                    print_by_kind(case, args.rev, counted, counted_before)
                    continue
                if args.kinds:
                    fastest: dict[str, dict[str, list[int]]] = {name: {} for name in trees}
                    for name in alternating(list(trees), args.rounds):
                        for kind, (n, spent) in by_kind(trees[name], game, players, games, "time").items():
                            known = fastest[name].get(kind)
                            fastest[name][kind] = [n, spent if known is None else min(known[1], spent)]
                    print_by_kind(case, args.rev, fastest["this"], fastest[args.rev], "nanoseconds (best of each kind)")
                    continue
                if args.instructions:
                    (new_i, new_d), (old_i, old_d) = (instructions(trees[name], game, players, games) for name in trees)
                    print(f"{game} {players}p x {games}: instructions per decision {old_i / old_d / 1e3:,.1f}k -> "
                          f"{new_i / new_d / 1e3:,.1f}k ({old_i / old_d / (new_i / new_d):.3f}x fewer); per game "
                          f"{old_i / int(games) / 1e6:,.1f}M -> {new_i / int(games) / 1e6:,.1f}M "
                          f"({old_i / new_i:.3f}x fewer)", flush=True)
                    continue
                best: dict[str, tuple[float, int]] = {}
                for name in alternating(list(trees), args.rounds):
                    seconds, decisions = measure(trees[name], game, players, games)
                    if name not in best or seconds < best[name][0]:
                        best[name] = (seconds, decisions)
                (new_s, new_d), (old_s, old_d) = best["this"], best[args.rev]
                print(f"{game} {players}p x {games}: decisions/s {old_d / old_s:,.0f} -> {new_d / new_s:,.0f} "
                      f"({new_d / new_s / (old_d / old_s):.3f}x); games/s {int(games) / old_s:,.1f} -> "
                      f"{int(games) / new_s:,.1f} ({old_s / new_s:.3f}x)", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
