"""Rules-engine benchmarks: ``make bench`` (or ``python benchmarks/run.py``).

Prints, per game and player count, random-playout games/s and decisions/s on one core through the
public protocol (``to_move`` + ``legal_actions`` + ``apply``), with RLCard's Uno as a peer baseline
(its game API: ``get_legal_actions`` + ``step``) measured alongside: the game and Uno take turns in
short slices (``paired_with_uno``), so a slower or busier machine slows both alike, each in a fresh
process of its own, so neither's heap slows the other. Then Uno on its own (game API, and its RL
environment API, which also builds observations) and the peak memory of simulating 10,000 games.

Both builds of the rules are measured where the install compiled them (rules/build.py): pure Python
and compiled (mypyc), each game's worker running one of them, and the ratio printed.

Targets: Subastral 4 players >= 1,500 games/s (pure) and 10,000 simulated games under 200 MB peak
memory (issue "Foundation"); every game, at every player count, decisions/s >= RLCard Uno's (game
API) with the pure rules and >= 2x with the compiled rules (issue #23).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from rules.build import SWITCH as BUILD_SWITCH, read_manifest  # noqa: E402

TARGET_GAMES_PER_S = 1500
#: decisions/s against RLCard Uno's (game API, measured alongside), per build (issue #23)
TARGET_UNO_RATIO = {"pure": 1.0, "compiled": 2.0}
TARGET_PEAK_MB = 200
SLICES = 6          # turns each for the game and Uno in a paired measurement


def pin_to_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


class Playouts:
    """Seeded random playouts through the public protocol, run in slices: each ``run`` goes on with
    the next game where the last one stopped (game ``n`` is seed ``n``; picks from ``Random(seed)``)."""

    def __init__(self, game, players: int, variants=None):
        self.game, self.players, self.variants = game, players, variants
        self.games = self.decisions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        """Whole games for about ``seconds`` (the clock is read after each game)."""
        games = decisions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            decisions += self.play(self.games + games)
            games += 1
            if time.perf_counter() >= deadline:
                break
        self.seconds += time.perf_counter() - start
        self.decisions += decisions
        self.games += games

    def play(self, seed: int) -> int:
        """One game with random legal moves; its number of decisions."""
        game = self.game
        to_move, legal_actions, apply = game.to_move, game.legal_actions, game.apply
        pick = random.Random(seed).random
        state = game.new_game(self.players, seed, self.variants)
        decisions = 0
        while True:
            seats = to_move(state)
            if not seats:
                return decisions
            seat = seats[0]
            actions = legal_actions(state, seat)
            state = apply(state, seat, actions[int(pick() * len(actions))])
            decisions += 1

    def figures(self) -> dict:
        return {"games": self.games, "decisions": self.decisions, "seconds": self.seconds,
                "games_per_s": self.games / self.seconds, "decisions_per_s": self.decisions / self.seconds}


class UnoPlayouts(Playouts):
    """RLCard's Uno (2 players) through its game API with random legal moves, run in slices."""

    def __init__(self):
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        super().__init__(None, 2)
        self.uno = UnoGame(num_players=2)
        self.uno.np_random = np.random.RandomState(0)
        self.pick = random.Random(0).random

    def play(self, seed: int) -> int:
        uno, pick = self.uno, self.pick
        uno.init_game()
        decisions = 0
        while not uno.is_over():
            actions = uno.get_legal_actions()
            uno.step(actions[int(pick() * len(actions))])
            decisions += 1
        return decisions


def protocol_playouts(game, players: int, seconds: float, variants=None) -> dict:
    """Seeded random playouts through the public protocol for about ``seconds`` (seeds from 0)."""
    playouts = Playouts(game, players, variants)
    playouts.run(seconds)
    return playouts.figures()


def paired_with_uno(game_id: str, players: int, seconds: float, slices: int = SLICES, build: str = "pure") -> tuple[dict, dict]:
    """The game's playouts and Uno's, interleaved: ``slices`` turns each of ``seconds / slices``,
    alternating which goes first (ABBA), so both are measured under the same machine conditions.
    (On a shared or virtual machine, two 3-second runs a minute apart can differ by 10%.)

    Each side plays in a fresh process of its own, on the same core, while the other waits: one
    side's heap cannot slow the other. (In one process, Uno ran 6-7% slower beside an engine whose
    caches grew or were emptied now and then than beside one whose caches stayed put, and slower
    after the games measured before it.) ``build``: the rules' build the game's process runs,
    ``"pure"`` or ``"compiled"`` (rules/build.py)."""
    with _Side(("game", game_id, players, build)) as ours, _Side(("uno",)) as uno:
        for i in range(slices):
            for side in ((ours, uno) if i % 2 == 0 else (uno, ours)):
                side.run(seconds / slices)
        return ours.figures(), uno.figures()


class _Side:
    """Playouts in a worker process (``_serve``): ``run(seconds)`` plays there for that long."""

    def __init__(self, spec: tuple):
        import multiprocessing

        context = multiprocessing.get_context("spawn")     # a fresh interpreter: nothing inherited
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, spec, _core()), daemon=True)
        # (a game's worker chooses its build of the rules when it imports them: rules/build.py)
        before = os.environ.get(BUILD_SWITCH)
        os.environ[BUILD_SWITCH] = spec[3] if spec[0] == "game" else "pure"
        try:
            self.process.start()
        finally:
            if before is None:
                del os.environ[BUILD_SWITCH]
            else:
                os.environ[BUILD_SWITCH] = before
        theirs.close()
        self._answer()      # ready: imported and set up, so no slice pays for that

    def run(self, seconds: float) -> None:
        self.conn.send(("run", seconds))
        self._answer()

    def figures(self) -> dict:
        self.conn.send(("figures",))
        return self._answer()

    def _answer(self):
        try:
            kind, value = self.conn.recv()
        except EOFError:
            self.process.join(10)
            raise RuntimeError(f"benchmark worker exited before answering (exit code {self.process.exitcode})") from None
        if kind == "error":
            raise RuntimeError(f"benchmark worker failed:\n{value}")
        return value

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.conn.send(("stop",))
        except (BrokenPipeError, OSError):
            pass
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()


def _core() -> int | None:
    return sorted(os.sched_getaffinity(0))[0] if hasattr(os, "sched_getaffinity") else None


def _serve(conn, spec: tuple, core: int | None) -> None:
    """A worker: Uno's playouts (``("uno",)``) or a game's (``("game", id, players)``), run on request."""
    import traceback

    try:
        if core is not None:
            os.sched_setaffinity(0, {core})
        if spec[0] == "uno":
            playouts = UnoPlayouts()
        else:
            if rules.BUILD.kind != spec[3]:
                raise RuntimeError(f"the {spec[3]} rules were asked for, this process runs {rules.BUILD}")
            playouts = Playouts(rules.get_game(spec[1]), spec[2])
        conn.send(("ready", None))
        while True:
            request = conn.recv()
            if request[0] == "run":
                playouts.run(request[1])
                conn.send(("ran", None))
            elif request[0] == "figures":
                conn.send(("figures", playouts.figures()))
            else:
                return
    except Exception:       # reported to the parent, which raises it
        conn.send(("error", traceback.format_exc()))


def rlcard_uno(seconds: float, players: int = 2) -> dict | None:
    """RLCard's Uno with random legal moves: game API and environment API."""
    try:
        import rlcard
    except ImportError:
        return None
    out = {}
    game = UnoPlayouts()
    game.run(seconds)
    out["game_api"] = {key: value for key, value in game.figures().items() if key != "seconds"}
    env = rlcard.make("uno", config={"seed": 0, "game_num_players": players})
    pick = random.Random(0).random
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            actions = list(state["legal_actions"])
            state, _ = env.step(actions[int(pick() * len(actions))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    out["env_api"] = {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed, "games": games}
    out["version"] = rlcard.__version__
    return out


def simulation_peak_memory(games: int) -> dict:
    """Peak RSS of ``rules-explorer simulate`` over ``games`` games, in a fresh process."""
    # The peak is read from /proc (VmHWM belongs to the new process image): ru_maxrss survives exec, so
    # after fork it would report this benchmark's own size whenever that is larger.
    code = ("import resource, sys; from play.cli import main; "
            f"main(['simulate', 'subastral', '--players', '4', '--games', '{games}', '--seed', '0', '--json']); "
            "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')]; "
            "sys.stderr.write(hwm[0] if hwm else str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode:
        raise RuntimeError(done.stderr)
    peak_kb = int(done.stderr.strip().splitlines()[-1])
    return {"games": games, "peak_mb": peak_kb / 1024, "seconds": time.perf_counter() - start}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--memory-games", type=int, default=10_000)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    pin_to_one_core()
    print(f"Python {sys.version.split()[0]}, one core, {args.seconds:g} s per measurement\n")
    results = {"protocol": [], "rlcard_uno": None}
    try:
        import rlcard  # noqa: F401
        paired = True
    except ImportError:
        paired = False
    if paired:
        print("Each game is measured interleaved with RLCard's Uno (game API, 2 players): "
              f"{SLICES} turns each of {args.seconds / SLICES:g} s, so the two see the same machine; "
              "each in a fresh process of its own, on the same core.\n")
    manifest = read_manifest()
    builds = ["pure"] + (["compiled"] if manifest is not None and manifest.get("build") == "compiled" else [])
    if len(builds) == 1:
        print(f"The rules are not compiled here ({(manifest or {}).get('reason', 'no rules/_build.json')}): pure Python only.\n")
    print(f"{'game':<12}{'players':>8}{'build':>10}{'games/s':>12}{'decisions/s':>14}{'decisions/game':>16}"
          + (f"{'Uno alongside':>15}{'ratio':>8}" if paired else "") + f"{'compiled/pure':>15}")
    for game_id in rules.GAMES:
        game = rules.get_game(game_id)
        for players in game.player_counts:
            pure_rate = None
            for build in builds:
                if paired:
                    r, u = paired_with_uno(game_id, players, args.seconds, build=build)
                    r["uno_decisions_per_s"] = u["decisions_per_s"]
                elif build == "pure":
                    r = protocol_playouts(game, players, args.seconds)
                else:       # (without Uno, the compiled build in a worker of its own)
                    with _Side(("game", game_id, players, build)) as ours:
                        ours.run(args.seconds)
                        r = ours.figures()
                results["protocol"].append({"game": game_id, "players": players, "build": build, **r})
                line = (f"{game_id:<12}{players:>8}{build:>10}{r['games_per_s']:>12,.0f}{r['decisions_per_s']:>14,.0f}"
                        f"{r['decisions'] / r['games']:>16.1f}")
                if paired:
                    line += f"{u['decisions_per_s']:>15,.0f}{r['decisions_per_s'] / u['decisions_per_s']:>7.2f}x"
                if build == "pure":
                    pure_rate = r["decisions_per_s"]
                else:
                    line += f"{r['decisions_per_s'] / pure_rate:>14.2f}x"
                print(line, flush=True)
    uno = rlcard_uno(args.seconds)
    results["rlcard_uno"] = uno
    if uno is None:
        print("\nRLCard is not installed (pip install -e '.[bench]'): no peer baseline this run.")
    else:
        print("\nRLCard's Uno on its own (2 players):")
        for api, label in (("game_api", "game API"), ("env_api", "env API")):
            u = uno[api]
            print(f"{'uno ' + label:<12}{2:>8}{u['games_per_s']:>12,.0f}{u['decisions_per_s']:>14,.0f}   (RLCard {uno['version']})")
    memory = simulation_peak_memory(args.memory_games)
    results["simulation_memory"] = memory
    print(f"\nsimulate subastral 4p x {memory['games']:,}: peak {memory['peak_mb']:.0f} MB in {memory['seconds']:.1f} s")

    sub4 = next(r for r in results["protocol"] if r["game"] == "subastral" and r["players"] == 4 and r["build"] == "pure")
    checks = [(f"Subastral 4p >= {TARGET_GAMES_PER_S:,} games/s", sub4["games_per_s"] >= TARGET_GAMES_PER_S),
              (f"simulation peak < {TARGET_PEAK_MB} MB", memory["peak_mb"] < TARGET_PEAK_MB)]
    if uno is not None:
        for r in results["protocol"]:
            target = TARGET_UNO_RATIO[r["build"]]
            checks.append((f"{r['game']} {r['players']}p {r['build']}: decisions/s >= {target:g}x RLCard Uno (game API, "
                           "measured alongside)", r["decisions_per_s"] >= target * r["uno_decisions_per_s"]))
    print()
    for label, ok in checks:
        print(f"{'met ' if ok else 'MISSED'}  {label}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
