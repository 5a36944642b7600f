"""Simulation sweeps at any scale: one process, local processes or a Dask cluster, same answers.

A run of ``games`` games from a master ``seed`` plays game ``i`` from seed ``seed + i`` (its deal
and its bots' choices), so any game can be replayed on its own. The games are split into chunks;
each chunk returns :class:`Tally` sums (whole numbers only, so adding tallies is exact and its
order does not matter), never game records. The tallies are added in chunk order, so the
statistics are identical however the work is split and wherever it runs:

- ``executor="inprocess"``: in this process (small runs, tests, notebooks);
- ``executor="processes"``: a local process pool of ``workers`` (the default for large runs);
- ``executor="dask"``: the Dask cluster at ``scheduler`` (``tcp://host:8786``; or the
  ``DASK_SCHEDULER_ADDRESS`` environment variable). Workers need this package installed.

A **paired comparison** (:func:`compare`) plays every game twice on the same deal — once with
setting A, once with setting B (a variant switch, or the bots) — and tallies the per-game
differences as well, so the difference between A and B is measured without the noise of
different deals. Results carry 95% confidence intervals: normal intervals for means (mean +- 1.96
standard errors) and Wilson score intervals for proportions (win rates).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import operator
import os
import signal
import threading
import time
from collections import Counter
from concurrent import futures
from dataclasses import dataclass, field, fields
from itertools import chain
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

from rules.fields import check_seed_run
from rules.protocol import AnyGame, JSONObject
from rules.registry import get_game
from play.card_stats import READERS, USES
from play.pairing import pairing
from play.simulate import GameResult, play_game
from play.stats import mean_ci, wilson

if TYPE_CHECKING:
    from distributed import Client

DEFAULT_CHUNK = 250
#: Chunks handed to a pool at a time, per worker: enough that no worker waits for its next chunk.
IN_FLIGHT_PER_WORKER = 4


#: Win shares are counted in units of 1/60 (a two-, three-, four-, five- or six-way shared win is whole).
WIN_UNIT = 60


def win_share(seat: int, winners: Sequence[int]) -> int:
    """``seat``'s share of the game's win, in units of WIN_UNIT (a shared win split evenly; 0 for a loss)."""
    return WIN_UNIT // len(winners) if seat in winners else 0


# -- tallies ------------------------------------------------------------------------------------
#: A card use's ``(use, card)``, from its ``(seat, use, card)``.
_USE_AND_CARD = operator.itemgetter(1, 2)


@dataclass
class Tally:
    """Sums over games for one setting (whole numbers: adding tallies is exact and order-free).

    ``wins`` counts shared wins as fractions of ``WIN_UNIT`` so they stay whole numbers.
    """

    players: int
    games: int = 0
    score: list[int] = field(default_factory=list)            # per seat: sum of scores
    score2: list[int] = field(default_factory=list)           # per seat: sum of squared scores
    wins: list[int] = field(default_factory=list)             # per seat: sum of win shares x WIN_UNIT
    wins2: list[int] = field(default_factory=list)            # per seat: sum of squared win shares x WIN_UNIT^2
    #: The first player's (the deal's start player's) wins: games that have one, win shares x WIN_UNIT.
    first_games: int = 0
    first_wins: int = 0
    first_wins2: int = 0
    length: int = 0                                           # sum of decisions per game
    length2: int = 0
    spread: int = 0                                           # sum of (best score - worst score)
    spread2: int = 0
    hist: list[dict[int, int]] = field(default_factory=list)  # per seat: {final score: games}
    #: Provisional-score curves (only when asked for): games still going at decision k, and per seat
    #: the sum, lowest and highest provisional score after decision k.
    curve_n: list[int] = field(default_factory=list)
    curve_sum: list[list[int]] = field(default_factory=list)
    curve_min: list[list[int]] = field(default_factory=list)
    curve_max: list[list[int]] = field(default_factory=list)
    #: Per-card figures (only when asked for): ``cards[use][card]`` = [uses in all games, sum of squared
    #: uses per game, seat-games whose seat used it, sum of those seats' final scores, sum of squares].
    cards: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("score", "score2", "wins", "wins2"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)
        if not self.hist:
            self.hist = [{} for _ in range(self.players)]
        for name in ("curve_sum", "curve_min", "curve_max"):
            if not getattr(self, name):
                setattr(self, name, [[] for _ in range(self.players)])

    def add_game(self, scores: Sequence[int], winners: Sequence[int], decisions: int, first: int | None = None) -> None:
        """One game's final ``scores``, ``winners``, length, and the seat that played ``first`` (None: none)."""
        self.games += 1
        if first is not None:
            share = win_share(first, winners)
            self.first_games += 1
            self.first_wins += share
            self.first_wins2 += share * share
        for s in range(self.players):
            self.score[s] += scores[s]
            self.score2[s] += scores[s] * scores[s]
            share = win_share(s, winners)
            self.wins[s] += share
            self.wins2[s] += share * share
        self.length += decisions
        self.length2 += decisions * decisions
        spread = max(scores) - min(scores)
        self.spread += spread
        self.spread2 += spread * spread
        for s in range(self.players):
            self.hist[s][scores[s]] = self.hist[s].get(scores[s], 0) + 1

    def add_card_uses(self, uses: Iterable[tuple[int, str, str]], scores: Sequence[int]) -> None:
        """One game's card uses (``(seat, use, card)``, ``play/card_stats.py``) and its final scores."""
        uses = list(uses)
        # (Counted by the interpreter's own loops: a game has a hundred uses or more, of fewer cards.)
        per_game = Counter(map(_USE_AND_CARD, uses))        # (use, card) -> uses in the game
        for (use, card), count in per_game.items():
            sums = self.cards.setdefault(use, {}).setdefault(card, [0, 0, 0, 0, 0])
            sums[0] += count
            sums[1] += count * count
        for seat, use, card in set(uses):                   # each seat that used a card once
            sums = self.cards[use][card]
            sums[2] += 1
            sums[3] += scores[seat]
            sums[4] += scores[seat] * scores[seat]

    def add_curve(self, curve: Sequence[Sequence[int]]) -> None:
        """One game's provisional scores after each decision (``curve[k][seat]``): at each decision k
        one more game counts, its scores add to the sums and widen the minimum and maximum. (A seat's
        column at a time: a game's curve is hundreds of decisions, added to the running lists by
        ``map`` rather than item by item, which was a seventh of an analysis run.)"""
        steps = len(curve)
        known = len(self.curve_n)
        if steps > known:                   # a game longer than any before: its tail starts the lists
            self.curve_n.extend([0] * (steps - known))
            for s in range(self.players):
                tail = [scores[s] for scores in curve[known:]]
                self.curve_sum[s].extend([0] * (steps - known))
                self.curve_min[s].extend(tail)
                self.curve_max[s].extend(tail)
        self.curve_n[:steps] = [n + 1 for n in self.curve_n[:steps]]
        for s in range(self.players):
            column = [scores[s] for scores in curve]
            for kept, combine in ((self.curve_sum[s], operator.add), (self.curve_min[s], min),
                                  (self.curve_max[s], max)):
                kept[:steps] = map(combine, kept[:steps], column)

    def __add__(self, other: "Tally") -> "Tally":
        out = Tally(self.players)
        for name in ("games", "first_games", "first_wins", "first_wins2", "length", "length2", "spread", "spread2"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for name in ("score", "score2", "wins", "wins2"):
            setattr(out, name, [x + y for x, y in zip(getattr(self, name), getattr(other, name))])
        out.hist = [{k: a.get(k, 0) + b.get(k, 0) for k in sorted(set(a) | set(b))} for a, b in zip(self.hist, other.hist)]
        out.curve_n = _merge(self.curve_n, other.curve_n, int.__add__)
        out.curve_sum = [_merge(a, b, int.__add__) for a, b in zip(self.curve_sum, other.curve_sum)]
        out.curve_min = [_merge(a, b, min) for a, b in zip(self.curve_min, other.curve_min)]
        out.curve_max = [_merge(a, b, max) for a, b in zip(self.curve_max, other.curve_max)]
        out.cards = {use: {card: [x + y for x, y in zip(self.cards.get(use, {}).get(card, [0] * 5),
                                                        other.cards.get(use, {}).get(card, [0] * 5))]
                           for card in sorted(set(self.cards.get(use, {})) | set(other.cards.get(use, {})))}
                     for use in sorted(set(self.cards) | set(other.cards))}
        return out

    def to_json(self) -> JSONObject:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["hist"] = [{str(k): n for k, n in h.items()} for h in self.hist]
        return data


def _merge(a: list[int], b: list[int], combine: Callable[[int, int], int]) -> list[int]:
    """Element-wise ``combine`` of two lists of different lengths (the longer one's tail kept)."""
    short = min(len(a), len(b))
    return [combine(x, y) for x, y in zip(a, b)] + (a[short:] if len(a) > short else b[short:])




@dataclass
class ChunkResult:
    """What a chunk sends back: a tally per setting and, for paired runs, the per-game differences
    (B - A) per seat for scores and win shares, as sums and sums of squares."""

    first: int
    tallies: list[Tally]
    diff: list[int] = field(default_factory=list)   # per seat: sum of (score B - score A)
    diff2: list[int] = field(default_factory=list)
    wdiff: list[int] = field(default_factory=list)  # per seat: sum of (win B - win A) x WIN_UNIT
    wdiff2: list[int] = field(default_factory=list)
    #: The first player's win share B - A (x WIN_UNIT), over the games where both settings have a first player.
    fgames: int = 0
    fdiff: int = 0
    fdiff2: int = 0


# -- statistics ---------------------------------------------------------------------------------
def setting_stats(t: Tally) -> JSONObject:
    n = t.games
    seats = []
    for s in range(t.players):
        seats.append({"seat": s, "score": mean_ci(t.score[s], t.score2[s], n),
                      "win_rate": wilson(t.wins[s] / WIN_UNIT, n)})
    fair = 1 / t.players
    # (the deal's start player, whichever seat it is: the start is drawn at random in every game here)
    first = wilson(t.first_wins / WIN_UNIT, t.first_games)
    return {
        "games": n,
        "seats": seats,
        "score_histogram": [sorted([score, count] for score, count in h.items()) for h in t.hist],
        "score_curve": score_curve(t),
        "first_player_advantage": {"win_rate": first, "fair_share": round(fair, 4),
                                   "excess": None if first["rate"] is None else round(first["rate"] - fair, 4),
                                   "significant": None if first["rate"] is None else not (first["low"] <= fair <= first["high"])},
        "game_length": mean_ci(t.length, t.length2, n),
        "score_spread": mean_ci(t.spread, t.spread2, n),
        "cards": card_figures(t),
    }


def card_figures(t: Tally) -> list[JSONObject]:
    """Per card and use (taken, bought, played): uses per game, and the final score of the seats that
    used it, each with its 95% interval; sorted by use, then card."""
    rows = []
    for use in USES:
        for card, (count, count2, seats, score, score2) in sorted(t.cards.get(use, {}).items()):
            rows.append({"use": use, "card": card, "per_game": mean_ci(count, count2, t.games), "seats": seats,
                         "score_of_users": mean_ci(score, score2, seats)})
    return rows


def score_curve(t: Tally, points: int = 200) -> JSONObject | None:
    """The provisional-score envelope per seat, by decision: mean over the games still going, and the
    lowest and highest; at most ``points`` decisions (evenly spaced). None when not recorded."""
    if not t.curve_n:
        return None
    # Evenly spaced from the first decision to the last: every decision of a game shorter than ``points``
    # (spacing them over ``points`` even then cut a 95-decision game at its 45th decision).
    count = min(points, len(t.curve_n))
    steps = sorted({round(i * (len(t.curve_n) - 1) / max(count - 1, 1)) for i in range(count)})
    return {"decision": [k + 1 for k in steps], "games": [t.curve_n[k] for k in steps],
            "mean": [[round(t.curve_sum[s][k] / t.curve_n[k], 3) for k in steps] for s in range(t.players)],
            "low": [[t.curve_min[s][k] for k in steps] for s in range(t.players)],
            "high": [[t.curve_max[s][k] for k in steps] for s in range(t.players)]}


# -- playing chunks -----------------------------------------------------------------------------
#: One setting of a run: its bots (one for everyone, or one per seat) and its variants as sorted
#: ``(name, value)`` pairs.
Setting = tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play a chunk (picklable: names and plain data only)."""

    game: str
    players: int
    seed: int
    settings: tuple[Setting, ...]        # one, or A and B (a paired comparison)
    #: Per setting, a non-standard card file's JSON, or None (the standard file): read by each worker.
    card_files: tuple[JSONObject | None, ...] = ()
    curves: bool = False                 # also tally the provisional-score curves (costs a score per decision)
    cards: bool = False                  # also tally which cards each seat takes, buys or plays
    #: The rules version the games are dealt and drawn as (``GameSpec.recorded``: a run file made with
    #: an earlier version re-runs as it ran); None: the game's current version.
    version: str | None = None


def run_chunk(job: Job, first: int, count: int) -> ChunkResult:
    """Play games ``first .. first + count - 1`` of ``job`` under every setting (a worker's task)."""
    standard = get_game(job.game) if job.version is None else get_game(job.game).recorded(job.version)
    games = [standard if data is None else standard.with_card_file(data)
             for data in (job.card_files or (None,) * len(job.settings))]
    tallies = [Tally(job.players) for _ in job.settings]
    paired = len(job.settings) == 2
    zeros = [0] * job.players
    diff, diff2, wdiff, wdiff2 = list(zeros), list(zeros), list(zeros), list(zeros)
    fgames = fdiff = fdiff2 = 0
    for i in range(first, first + count):
        seed = job.seed + i
        results: list[GameResult] = []
        for game, tally, (bots, variants) in zip(games, tallies, job.settings):
            curve: list[tuple[int, ...]] = []
            logs: list[tuple[Any, ...]] = []
            on_step = _recorder(game, curve if job.curves else None, logs if job.cards else None)
            final, result, _ = play_game(game, job.players, seed, bots, dict(variants), on_step=on_step)
            tally.add_game(result.scores, result.winners, result.decisions, result.first)
            if job.curves:
                tally.add_curve(curve)
            if job.cards:
                tally.add_card_uses(READERS[game.id](final, chain.from_iterable(logs)), result.scores)
            results.append(result)
        if paired:
            a, b = results
            for s in range(job.players):
                d = b.scores[s] - a.scores[s]
                diff[s] += d
                diff2[s] += d * d
                wa = win_share(s, a.winners)
                wb = win_share(s, b.winners)
                wdiff[s] += wb - wa
                wdiff2[s] += (wb - wa) ** 2
            if a.first is not None and b.first is not None:
                fa = win_share(a.first, a.winners)
                fb = win_share(b.first, b.winners)
                fgames += 1
                fdiff += fb - fa
                fdiff2 += (fb - fa) ** 2
    if not paired:
        return ChunkResult(first, tallies)
    return ChunkResult(first, tallies, diff, diff2, wdiff, wdiff2, fgames, fdiff, fdiff2)


def _recorder(game: AnyGame, curve: list[tuple[int, ...]] | None,
              logs: list[tuple[Any, ...]] | None) -> Callable[[Any], None] | None:
    """What a game's ``on_step`` records: the provisional scores (``curve``), each decision's log records
    (``logs``: read for the card uses once the game has ended, ``play/card_stats.py``), or nothing."""
    if curve is None and logs is None:
        return None

    def record(state: Any) -> None:
        if curve is not None:
            curve.append(game.scores(state))
        if logs is not None:
            logs.append(state.log)
    return record


def chunk_plan(games: int, chunk: int) -> list[tuple[int, int]]:
    """``(first, count)`` per chunk.

    >>> chunk_plan(10, 4)
    [(0, 4), (4, 4), (8, 2)]
    """
    return [(first, min(chunk, games - first)) for first in range(0, games, chunk)]


#: Asked while a run waits for its chunks: True stops the run now (a page's Stop; its tab closed).
Cancel = Callable[[], bool]


class Cancelled(KeyboardInterrupt):
    """A run's ``cancel`` said stop: as for Ctrl-C, the chunks finished so far are kept; a chunk being
    played is given up (a local pool's workers are ended, :meth:`FuturesExecutor.close`)."""


class Executor:
    """Runs chunks and yields their results as they finish (any order): here, in this process."""

    name = "inprocess"

    def map(self, job: Job, plan: Sequence[tuple[int, int]], cancel: Cancel | None = None) -> Iterable[ChunkResult]:
        """With ``cancel``, a chunk is played a game at a time, asked between games (a chunk of slow games,
        MCTS bots', took minutes before a Stop was heard); its sums are the same (:func:`combined`)."""
        for first, count in plan:
            if cancel is None:
                yield run_chunk(job, first, count)
                continue
            played: ChunkResult | None = None
            for i in range(first, first + count):
                if cancel():
                    raise Cancelled
                one = run_chunk(job, i, 1)
                played = one if played is None else combined(played, one)
            assert played is not None          # (a plan's chunks hold at least one game)
            yield played

    def close(self) -> None:
        pass


class FuturesExecutor(Executor):
    """Chunks on a :class:`concurrent.futures.Executor`: a local process pool, or a Dask client's
    (``Client.get_executor``, whose futures are plain ``concurrent.futures`` futures that cancel
    their Dask tasks when cancelled).

    The pool is handed the plan's chunks in order, never further ahead than ``in_flight`` chunks
    past the earliest one not yet back: a run of any length holds at most that many futures (a
    future keeps its result) and :class:`Prefix` at most that many chunks waiting for an earlier
    one, however slow one chunk is. ``workers()`` says how many chunks the pool runs at once, asked
    again as chunks come back (a Dask cluster's workers may join during the run); the window is
    :data:`IN_FLIGHT_PER_WORKER` chunks per worker."""

    def __init__(self, name: str, pool: futures.Executor, workers: Callable[[], int],
                 close: Callable[[], None] | None = None):
        self.name, self.pool, self.workers, self._close = name, pool, workers, close
        self._running: dict[futures.Future[ChunkResult], int] = {}      # each future's place in the plan
        self._cancelled = False         # (a cancelled run's close ends a local pool's workers)

    @property
    def in_flight(self) -> int:
        return IN_FLIGHT_PER_WORKER * max(self.workers(), 1)

    def map(self, job: Job, plan: Sequence[tuple[int, int]], cancel: Cancel | None = None) -> Iterable[ChunkResult]:
        running, following = self._running, 0          # following: the next chunk of the plan to hand out
        ctrl_c = CtrlC()
        try:
            with ctrl_c.deferred():
                while True:
                    earliest = min(running.values(), default=following)
                    limit = min(len(plan), earliest + self.in_flight)
                    while following < limit:
                        ctrl_c.stop_here()
                        first, count = plan[following]
                        running[self.pool.submit(run_chunk, job, first, count)] = following
                        following += 1
                    if not running:
                        return
                    done, _ = futures.wait(running, timeout=CtrlC.LOOK_EVERY, return_when=futures.FIRST_COMPLETED)
                    ctrl_c.stop_here()
                    if cancel is not None and cancel():
                        self._cancelled = True
                        raise Cancelled
                    # Several back at once come in the plan's order (a set's order is its hashes'): the
                    # gap-free beginning then grows a chunk at a time, and a page draws each step.
                    for future in sorted(done, key=running.__getitem__):
                        del running[future]
                        yield future.result()
        finally:
            if self._pool_to_end is None:
                for future in running:
                    future.cancel()
            running.clear()

    @property
    def handed_out(self) -> int:
        """Chunks handed to the pool and not yet given back."""
        return len(self._running)

    @property
    def _pool_to_end(self) -> futures.ProcessPoolExecutor | None:
        """The pool whose workers :meth:`close` ends (a cancelled run's local pool), else None. Its chunks not
        started are then not cancelled: the ended pool fails them (``BrokenProcessPool``). Python 3.11's
        pool, finding a worker gone, sets that failure on every chunk it still holds, and a cancelled one
        refuses it (``InvalidStateError``): the pool's manager thread died there with a traceback in the
        server's log, before it ended the other workers and closed the pool's pipes (Python 3.12 passes
        over a cancelled chunk; ``tests/play/test_sweep.py`` holds a pool to that moment)."""
        return self.pool if self._cancelled and isinstance(self.pool, futures.ProcessPoolExecutor) else None

    def close(self) -> None:
        """Cancel the chunks not started and shut the pool down: after the chunks being played, or, when
        the run was cancelled, at once, a local pool's workers ended (a page's Stop, or its tab closed,
        waited for the chunks in play: with MCTS bots, minutes to hours, the server's analysis slot held)."""
        pool = self._pool_to_end
        if pool is not None:
            _end_workers(pool)
        else:
            for future in self._running:        # (Dask's executor has no shutdown(cancel_futures=))
                future.cancel()
        self.pool.shutdown(wait=True)
        if self._close is not None:
            self._close()


def _end_workers(pool: futures.ProcessPoolExecutor) -> None:
    """End a process pool's workers now, whatever they are playing (its shutdown then returns at once).
    Python 3.14 says so (``terminate_workers``); before, the pool's processes are only in its
    ``_processes`` (pid -> process)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


class CtrlC:
    """Ctrl-C during a pool's run, raised only where the run can stop cleanly.

    A ``KeyboardInterrupt`` raised at any instruction could land inside ``concurrent.futures``
    while it hands a chunk to the pool (half a message in the pipe its manager thread reads), and
    the pool's shutdown then waited for ever: a clean clone's CI run saw no exit 120 s after Ctrl-C,
    its workers ignoring Ctrl-C already (``_leave_ctrl_c_to_the_parent``). So while ``deferred`` is
    open in the main thread, Ctrl-C only notes that it was pressed, and ``stop_here`` raises it: before
    a chunk is handed out and after each wait, which looks again every :attr:`LOOK_EVERY` seconds. In
    another thread (a page's run) nothing changes: signals reach the main thread alone."""

    #: How often a run waiting for its chunks looks whether Ctrl-C was pressed (seconds).
    LOOK_EVERY = 0.2

    def __init__(self) -> None:
        self.pressed = False

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        before = signal.signal(signal.SIGINT, self._note)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)

    def _note(self, signum: int, frame: object) -> None:
        self.pressed = True

    def stop_here(self) -> None:
        if self.pressed:
            self.pressed = False
            raise KeyboardInterrupt


def process_context() -> multiprocessing.context.BaseContext:
    """How a local pool starts its workers: forked from this process while it runs a single thread
    (the command line: the quickest start), else from a fork server. A process with other threads (a
    web server, a page's run in the background) may be forked while one of them holds a lock, which
    the child would then wait for forever; the fork server is a clean process that has imported the
    rules once (its preload) and forks each worker from itself."""
    if threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return _fork_server()


def _fork_server() -> multiprocessing.context.BaseContext:
    """The fork-server context, its server importing the sweep and every game's rules once."""
    from rules.registry import GAMES
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["play.sweep", *(f"rules.{game}" for game in GAMES)])
    return context


def warm_process_pool() -> None:
    """Start the fork server now, in the background, for a process that will run pools from a thread
    (a page's run): its first run then does not wait for it (~0.5 s of imports)."""
    from multiprocessing import forkserver
    _fork_server()
    threading.Thread(target=forkserver.ensure_running, daemon=True, name="fork-server-start").start()


def _leave_ctrl_c_to_the_parent() -> None:
    """A pool worker's initializer: Ctrl-C interrupts the whole process group, and the parent alone
    stops the run (keeping the chunks finished) and shuts the pool down. A worker interrupted too could
    die halfway through sending a result back, and the parent's shutdown then waited for that result
    for ever (seen once in a clean clone's `make test`: no exit 120 s after Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_executor(scheduler: str | None = None, client: Client | None = None) -> FuturesExecutor:
    """The Dask cluster at ``scheduler`` (or ``DASK_SCHEDULER_ADDRESS``), or the given ``client``
    (left open: its owner closes it)."""
    from distributed import Client
    own = client is None
    # (distributed leaves Client's methods unannotated: hence the ignores.)
    cluster: Client = client or Client(scheduler or os.environ["DASK_SCHEDULER_ADDRESS"])  # type: ignore[no-untyped-call]
    # pure=False: a chunk is cheap to send and must run even if an identical one ran before.
    pool: futures.Executor = cluster.get_executor(pure=False)  # type: ignore[no-untyped-call]

    def threads() -> int:      # (workers may join during the run)
        return sum(cluster.nthreads().values())  # type: ignore[no-untyped-call]

    return FuturesExecutor("dask", pool, threads, cluster.close if own else None)


def make_executor(executor: str | None = None, *, workers: int | None = None, scheduler: str | None = None,
                  games: int = 0) -> Executor:
    """The executor asked for; by default Dask when a scheduler is given (argument or
    ``DASK_SCHEDULER_ADDRESS``), local processes for large runs, else this process."""
    scheduler = scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS")
    if executor is None:
        executor = "dask" if scheduler else ("processes" if games >= 2000 and (workers or os.cpu_count() or 1) > 1 else "inprocess")
    if executor == "dask":
        return dask_executor(scheduler)
    if executor == "processes":
        count = workers or os.cpu_count() or 1
        return FuturesExecutor("processes", futures.ProcessPoolExecutor(max_workers=count, mp_context=process_context(),
                                                                        initializer=_leave_ctrl_c_to_the_parent),
                               lambda: count)
    if executor == "inprocess":
        return Executor()
    raise ValueError(f"unknown executor {executor!r}: inprocess, processes or dask")


# -- runs ---------------------------------------------------------------------------------------
#: Told after every chunk of a run: the games played so far (every setting's, every chunk finished), and
#: the sum of the finished chunks that begin the plan without a gap (games 0 .. n-1; None before the
#: plan's first chunk is in): :class:`Prefix`.
Progress = Callable[[int, ChunkResult | None], None]


def _plus(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)] if a and b else list(a or b)


def combined(a: ChunkResult, b: ChunkResult) -> ChunkResult:
    """Two chunks' sums as one (``a``'s ``first``): a run's statistics depend on its sums alone."""
    return ChunkResult(a.first, [x + y for x, y in zip(a.tallies, b.tallies)], _plus(a.diff, b.diff),
                       _plus(a.diff2, b.diff2), _plus(a.wdiff, b.wdiff), _plus(a.wdiff2, b.wdiff2),
                       a.fgames + b.fgames, a.fdiff + b.fdiff, a.fdiff2 + b.fdiff2)


class Prefix:
    """A plan's chunk results, which come in any order, added up in the plan's order as soon as no
    earlier chunk is missing: ``total`` is the sum of the gap-free beginning (games 0 .. n-1), and only
    the chunks that finished after a gap are kept until it fills. So a run of any length holds a few
    chunks, not all of them, and adds each one once (a run of 40,000 chunks used to keep every one
    and walk the whole plan after each)."""

    def __init__(self, plan: Sequence[tuple[int, int]], players: int, settings: int) -> None:
        self.plan = plan
        self.total: ChunkResult | None = None
        self.chunks = 0                                   # the chunks in ``total``
        self._empty = ChunkResult(0, [Tally(players) for _ in range(settings)])
        self._waiting: dict[int, ChunkResult] = {}

    def add(self, result: ChunkResult, stop: Callable[[list[ChunkResult]], bool] | None = None) -> bool:
        """Take a finished chunk and add every chunk it lets in; True once ``stop`` says a beginning is
        enough, asked after each chunk added (so a run stops after the same chunk whatever order the
        chunks finish in), and then nothing after that chunk is added."""
        self._waiting[result.first] = result
        while self.chunks < len(self.plan) and self.plan[self.chunks][0] in self._waiting:
            # (from an empty tally, as the chunks were always summed: the same figures, in the same order)
            self.total = combined(self.total or self._empty, self._waiting.pop(self.plan[self.chunks][0]))
            self.chunks += 1
            if stop is not None and stop(self.results):
                return True
        return False

    @property
    def waiting(self) -> int:
        """How many finished chunks wait for an earlier one."""
        return len(self._waiting)

    @property
    def results(self) -> list[ChunkResult]:
        """The gap-free beginning as a list of chunk results: its sum, or nothing."""
        return [] if self.total is None else [self.total]


def _run(job: Job, games: int, chunk: int, executor: Executor, progress: Progress | None,
         stop: Callable[[list[ChunkResult]], bool] | None = None,
         cancel: Cancel | None = None) -> tuple[list[ChunkResult], bool]:
    """Run the plan; stop early (whole chunks, in order) when ``stop`` says the answer is precise
    enough. Ctrl-C stops too, and ``cancel`` (asked while chunks are played): the chunks finished so far
    are kept. Returns (the gap-free beginning's sum, as a list of one result or none; interrupted)."""
    plan = chunk_plan(games, chunk)
    counts = dict(plan)
    prefix = Prefix(plan, job.players, len(job.settings))
    played, interrupted = 0, False
    try:
        for result in executor.map(job, plan, cancel):
            played += len(job.settings) * counts[result.first]
            enough = prefix.add(result, stop)
            if progress:
                progress(played, prefix.total)
            if enough:
                break
    except KeyboardInterrupt:
        interrupted = True
    # Only a gap-free prefix of the plan is reported, so the games counted are exactly 0 .. n-1.
    return prefix.results, interrupted


def _sum(results: Sequence[ChunkResult], players: int, settings: int) -> list[Tally]:
    totals = [Tally(players) for _ in range(settings)]
    for r in results:
        totals = [a + b for a, b in zip(totals, r.tallies)]
    return totals


def simulate_sweep(game_id: str, players: int, games: int, seed: int, *, bots: Sequence[str] = ("random",),
                   variants: Mapping[str, Any] | None = None, executor: str | None = None, workers: int | None = None,
                   scheduler: str | None = None, chunk: int = DEFAULT_CHUNK, progress: Progress | None = None,
                   game: AnyGame | None = None, curves: bool = False, cards: bool = False,
                   cancel: Cancel | None = None) -> JSONObject:
    """Statistics of ``games`` games of one setting (see the module docstring); ``curves``: also the
    provisional-score envelope; ``cards``: also the per-card figures (``compare`` always has them)."""
    game = game or get_game(game_id)
    players = game.check_players(players)
    variants = game.check_variants(variants)
    job = Job(game.id, players, seed, ((tuple(bots), tuple(sorted(variants.items()))),),
              (game.card_file(game.new_game(players, seed, variants)),), curves, cards)
    runner = make_executor(executor, workers=workers, scheduler=scheduler, games=games)
    start = time.perf_counter()
    try:
        results, interrupted = _run(job, games, chunk, runner, progress, cancel=cancel)
    finally:
        runner.close()
    total = _sum(results, players, 1)[0]
    elapsed = time.perf_counter() - start
    return {"game": game.id, "players": players, "seed": seed, "bots": list(bots), "variants": variants,
            "executor": runner.name, "interrupted": interrupted, "elapsed_s": round(elapsed, 3),
            **setting_stats(total), "tally": total.to_json()}


def paired_stats(results: Sequence[ChunkResult], players: int) -> JSONObject:
    a, b = _sum(results, players, 2)
    n = a.games
    diff = [sum(r.diff[s] for r in results) for s in range(players)]
    diff2 = [sum(r.diff2[s] for r in results) for s in range(players)]
    wdiff = [sum(r.wdiff[s] for r in results) for s in range(players)]
    wdiff2 = [sum(r.wdiff2[s] for r in results) for s in range(players)]
    seats = []
    for s in range(players):
        score = mean_ci(diff[s], diff2[s], n)
        win = mean_ci(wdiff[s], wdiff2[s], n, scale=WIN_UNIT)
        seats.append({"seat": s, "score_difference": score, "win_rate_difference": win,
                      "significant": None if score["low"] is None else not (score["low"] <= 0 <= score["high"])})
    first = mean_ci(sum(r.fdiff for r in results), sum(r.fdiff2 for r in results), sum(r.fgames for r in results),
                    scale=WIN_UNIT)
    return {"games": n, "a": setting_stats(a), "b": setting_stats(b), "difference_b_minus_a": seats,
            "first_player_difference": first, "tallies": {"a": a.to_json(), "b": b.to_json()}}


def compare(game_id: str, players: int, games: int, seed: int, *, variants_a: Mapping[str, Any] | None = None,
            variants_b: Mapping[str, Any] | None = None, bots_a: Sequence[str] = ("random",),
            bots_b: Sequence[str] | None = None, executor: str | None = None, workers: int | None = None,
            scheduler: str | None = None, chunk: int = DEFAULT_CHUNK, until_ci: float | None = None,
            progress: Progress | None = None, game: AnyGame | None = None, curves: bool = False,
            cards_a: JSONObject | None = None, cards_b: JSONObject | None = None,
            version: str | None = None, cancel: Cancel | None = None) -> JSONObject:
    """A paired A/B comparison on the same deals (see the module docstring). With ``until_ci``, the
    run stops once every seat's score-difference interval is at most that wide on each side (or at
    ``games``).

    ``cards_a`` / ``cards_b``: a card file's data for that setting (checked by the game's own reader);
    None: ``game``'s cards (the standard file when ``game`` is None). The result's ``pairing`` says
    whether the two settings were dealt the same cards (``play/pairing.py``); each setting's figures
    include per-card figures (``cards``). ``version``: the rules version to deal and draw as
    (``GameSpec.recorded``; a run file's ``game_version``); the result's ``version`` is the one played.
    ``cancel``: asked while chunks are played; True stops the run as Ctrl-C does, giving up the chunks in
    play (``interrupted``; the page's Stop)."""
    check_seed_run(seed, games)
    game = game or get_game(game_id)
    if version is not None:
        game = game.recorded(version)
    game_a = game.with_card_file(cards_a) if cards_a is not None else game
    game_b = game.with_card_file(cards_b) if cards_b is not None else game_a
    players = game.check_players(players)
    a, b = game.check_variants(variants_a), game.check_variants(variants_b)
    bots_b = tuple(bots_b or bots_a)
    settings = ((tuple(bots_a), tuple(sorted(a.items()))), (bots_b, tuple(sorted(b.items()))))
    first_a, first_b = game_a.new_game(players, seed, a), game_b.new_game(players, seed, b)
    card_files = (game_a.card_file(first_a), game_b.card_file(first_b))
    played = game_a.version_of(first_a)
    job = Job(game.id, players, seed, settings, card_files, curves, cards=True, version=played)
    pair = pairing(game_a, game_b, players, seed, a, b)
    runner = make_executor(executor, workers=workers, scheduler=scheduler, games=2 * games)

    def precise(prefix: list[ChunkResult]) -> bool:
        stats = paired_stats(prefix, players)
        halves = [(d["score_difference"]["high"] - d["score_difference"]["low"]) / 2
                  for d in stats["difference_b_minus_a"] if d["score_difference"]["low"] is not None]
        return len(halves) == players and max(halves) <= until_ci

    start = time.perf_counter()
    try:
        results, interrupted = _run(job, games, chunk, runner, progress, precise if until_ci else None, cancel)
    finally:
        runner.close()
    elapsed = time.perf_counter() - start
    return {"game": game.id, "version": played, "players": players, "seed": seed,
            "a": {"variants": a, "bots": list(bots_a), "cards": "standard" if card_files[0] is None else "own"},
            "b": {"variants": b, "bots": list(bots_b), "cards": "standard" if card_files[1] is None else "own"},
            "pairing": pair, "executor": runner.name, "interrupted": interrupted,
            "until_ci": until_ci, "elapsed_s": round(elapsed, 3), "results": paired_stats(results, players)}
