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
#: the look-ahead's rollouts/s, compiled against pure measured alongside (issue #23: ">= 2x today's",
#: today's being the pure rules)
TARGET_ROLLOUT_RATIO = 2.0
#: what ``--parts`` can choose
PARTS = ("playouts", "fastpaths", "lookahead", "memory")
MCTS_ITERATIONS = 50


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


def lookahead_position(game, players: int):
    """The position the look-ahead is measured on: seed 1 dealt and played at random (``Random(1)``) up
    to its 10th decision or later, the first where the seat to move has more than one legal move."""
    pick = random.Random(1).random
    state = game.new_game(players, 1)
    decisions = 0
    while True:
        seats = game.to_move(state)
        if not seats:
            raise RuntimeError(f"{game.id}: seed 1 ended before a choice after its 10th decision")
        actions = game.legal_actions(state, seats[0])
        if decisions >= 10 and len(actions) > 1:
            return state, seats[0]
        state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
        decisions += 1


class Rollouts(Playouts):
    """The look-ahead's rollouts on one position (``lookahead_position``), run in slices: the move
    advisor (``play.advise.advise``: a re-deal, the move and a random playout per rollout, 4 per legal
    move a call) or the MCTS bot (``play.bots.MCTSBot``: 50 iterations a decision, each a re-deal, a walk
    down its tree and a random playout). Each call has the next seed: ``games`` counts the calls here,
``decisions`` their rollouts."""

    def __init__(self, game, players: int, kind: str):
        super().__init__(game, players)
        self.kind = kind
        self.state, self.seat = lookahead_position(game, players)
        self.moves = len(game.legal_actions(self.state, self.seat))

    def play(self, seed: int) -> int:
        """One call of the advisor or one MCTS decision; its number of rollouts (counted in ``games``)."""
        if self.kind == "advisor":
            from play.advise import advise
            values = advise(self.game, self.state, self.seat, budget=4 * self.moves, seed=seed)
            return sum(value.rollouts for value in values)
        from play.bots import MCTSBot
        MCTSBot(seed, iterations=MCTS_ITERATIONS)(self.game, self.state, self.seat)
        return MCTS_ITERATIONS

    def figures(self) -> dict:
        return {"calls": self.games, "rollouts": self.decisions, "seconds": self.seconds,
                "rollouts_per_s": self.decisions / self.seconds}


def paired_sides(specs: dict[str, tuple], seconds: float, slices: int = SLICES) -> dict[str, dict]:
    """Two workers (``_Side``), named, interleaved as ``paired_with_uno`` interleaves a game and Uno:
    each's figures by its name."""
    (name_a, spec_a), (name_b, spec_b) = specs.items()
    with _Side(spec_a) as a, _Side(spec_b) as b:
        for i in range(slices):
            for side in ((a, b) if i % 2 == 0 else (b, a)):
                side.run(seconds / slices)
        return {name_a: a.figures(), name_b: b.figures()}


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
    both = paired_sides({"game": ("game", game_id, players, build), "uno": ("uno",)}, seconds, slices)
    return both["game"], both["uno"]


class _Side:
    """Playouts in a worker process (``_serve``): ``run(seconds)`` plays there for that long."""

    def __init__(self, spec: tuple):
        import multiprocessing

        context = multiprocessing.get_context("spawn")     # a fresh interpreter: nothing inherited
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, spec, _core()), daemon=True)
        # (a game's worker chooses its build of the rules when it imports them: rules/build.py)
        before = os.environ.get(BUILD_SWITCH)
        os.environ[BUILD_SWITCH] = spec[3] if spec[0] != "uno" else "pure"
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
    """A worker: Uno's playouts (``("uno",)``), a game's (``("game", id, players, build)``) or the
    look-ahead's rollouts on a game (``("advisor" or "mcts", id, players, build)``), run on request.
    A game's spec may end with ``"plain"``: Biome Blitz with its speed code switched off."""
    import traceback

    try:
        if core is not None:
            os.sched_setaffinity(0, {core})
        if spec[0] == "uno":
            playouts = UnoPlayouts()
        else:
            if rules.BUILD.kind != spec[3]:
                raise RuntimeError(f"the {spec[3]} rules were asked for, this process runs {rules.BUILD}")
            game = rules.get_game(spec[1])
            if spec[4:] == ("plain",):      # Biome Blitz without its speed code (rules/biome_blitz/fast)
                import rules.biome_blitz.fast as fast
                fast.MEMO.enabled = False
            playouts = Playouts(game, spec[2]) if spec[0] == "game" else Rollouts(game, spec[2], spec[0])
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
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"which measurements, comma-separated (default all: {','.join(PARTS)})")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    if not parts <= set(PARTS):
        parser.error(f"--parts: {', '.join(sorted(parts - set(PARTS)))} is not one of {', '.join(PARTS)}")
    pin_to_one_core()
    print(f"Python {sys.version.split()[0]}, one core, {args.seconds:g} s per measurement\n")
    results = {"protocol": [], "fastpaths": [], "lookahead": [], "rlcard_uno": None}
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
    if "playouts" in parts:
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
    if "fastpaths" in parts:
        print("\nBiome Blitz's speed code (rules/biome_blitz/fast: direct paths, remembered list parts) on and "
              "off, per build, interleaved as above: decisions/s.\n")
        print(f"{'game':<12}{'players':>8}{'build':>10}{'with':>12}{'without':>12}{'with/without':>14}")
        for players in rules.get_game("biome_blitz").player_counts:
            for build in builds:
                both = paired_sides({"with": ("game", "biome_blitz", players, build),
                                     "without": ("game", "biome_blitz", players, build, "plain")}, args.seconds)
                ratio = both["with"]["decisions_per_s"] / both["without"]["decisions_per_s"]
                results["fastpaths"].append({"players": players, "build": build, **both, "ratio": ratio})
                print(f"{'biome_blitz':<12}{players:>8}{build:>10}{both['with']['decisions_per_s']:>12,.0f}"
                      f"{both['without']['decisions_per_s']:>12,.0f}{ratio:>13.2f}x", flush=True)
    if "lookahead" in parts and len(builds) == 2:
        print(f"\nThe look-ahead on one position per game (seed 1, its first choice from the 10th decision): "
              f"the advisor (4 rollouts a move a call) and MCTS ({MCTS_ITERATIONS} iterations a decision), "
              "rollouts/s, pure and compiled interleaved as above.\n")
        print(f"{'game':<12}{'players':>8}{'look-ahead':>12}{'pure':>12}{'compiled':>12}{'compiled/pure':>15}")
        for game_id in rules.GAMES:
            counts = rules.get_game(game_id).player_counts
            players = 4 if 4 in counts else counts[-1]
            for kind in ("advisor", "mcts"):
                both = paired_sides({"pure": (kind, game_id, players, "pure"),
                                     "compiled": (kind, game_id, players, "compiled")}, args.seconds)
                ratio = both["compiled"]["rollouts_per_s"] / both["pure"]["rollouts_per_s"]
                results["lookahead"].append({"game": game_id, "players": players, "kind": kind, **both, "ratio": ratio})
                print(f"{game_id:<12}{players:>8}{kind:>12}{both['pure']['rollouts_per_s']:>12,.0f}"
                      f"{both['compiled']['rollouts_per_s']:>12,.0f}{ratio:>14.2f}x", flush=True)
    elif "lookahead" in parts:
        print("\nThe look-ahead's rollouts are compared between the builds: not measured without the compiled build.")
    uno = rlcard_uno(args.seconds) if "playouts" in parts else None
    results["rlcard_uno"] = uno
    if uno is None and "playouts" in parts:
        print("\nRLCard is not installed (pip install -e '.[bench]'): no peer baseline this run.")
    elif uno is not None:
        print("\nRLCard's Uno on its own (2 players):")
        for api, label in (("game_api", "game API"), ("env_api", "env API")):
            u = uno[api]
            print(f"{'uno ' + label:<12}{2:>8}{u['games_per_s']:>12,.0f}{u['decisions_per_s']:>14,.0f}   (RLCard {uno['version']})")
    checks = []
    if "memory" in parts:
        memory = simulation_peak_memory(args.memory_games)
        results["simulation_memory"] = memory
        print(f"\nsimulate subastral 4p x {memory['games']:,}: peak {memory['peak_mb']:.0f} MB in {memory['seconds']:.1f} s")
        checks.append((f"simulation peak < {TARGET_PEAK_MB} MB", memory["peak_mb"] < TARGET_PEAK_MB))
    if "playouts" in parts:
        sub4 = next(r for r in results["protocol"] if r["game"] == "subastral" and r["players"] == 4 and r["build"] == "pure")
        checks.append((f"Subastral 4p >= {TARGET_GAMES_PER_S:,} games/s", sub4["games_per_s"] >= TARGET_GAMES_PER_S))
    if uno is not None:
        for r in results["protocol"]:
            target = TARGET_UNO_RATIO[r["build"]]
            checks.append((f"{r['game']} {r['players']}p {r['build']}: decisions/s >= {target:g}x RLCard Uno (game API, "
                           "measured alongside)", r["decisions_per_s"] >= target * r["uno_decisions_per_s"]))
    for r in results["lookahead"]:
        checks.append((f"{r['game']} {r['players']}p {r['kind']}: compiled rollouts/s >= {TARGET_ROLLOUT_RATIO:g}x the pure "
                       "rules' (measured alongside)", r["ratio"] >= TARGET_ROLLOUT_RATIO))
    print()
    for label, ok in checks:
        print(f"{'met ' if ok else 'MISSED'}  {label}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
