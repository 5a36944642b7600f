"""Bots that play on a served page without holding up its server (docs/architecture.md, "Explorer").

A served page shares its server's one loop with every other page (and every playtest table). A bot's
move can be slow (an MCTS move of 4-player Jump Gate takes some 0.7 s here), and bots may play a whole
game in one go: played on the loop, as ``GameSession.autoplay`` plays them, they would freeze every
page of the server for minutes. The picker plays quick bots (:data:`QUICK_BOTS`) on the loop for
:data:`QUICK_SECONDS` at most (``ActionPicker.play_bots``), so their answers to a move reach the page
with it, in one change, as before; what is left, and any MCTS move, goes to a run. A :class:`BotRun`
plays them in a thread of its own and puts their moves on the line in batches, on the page's own loop
(:class:`explorer.plots.live.OnLoop`): at most one batch every :data:`BATCH_SECONDS`, and one at the
end, so a slow game shows its moves as they come.

The moves are those ``autoplay`` plays: ``explorer.core.session.bot_moves`` (the one seed rule), from the state at
the run's start, to the same limit (``AUTOPLAY_LIMITS``). Only the batches' sizes depend on time,
never a move. The first batch goes after the step the run started from (a new line there when the
cursor was at a past step, as ``autoplay`` does); each later one after the last. The cursor follows
the bots while it stands after their last move, unless ``follow`` is False (a new deal shown from
its start); it stays wherever the person moved it meanwhile.

A run stops (what it put on the line stays) when asked (``stop``), when the line changes otherwise (a
move by hand, another game, seed, players, variant or branch: the log is replaced), when who plays
the seats changes, and when the page's session ends (the picker stops it). ``status`` says how it ended; ``error`` holds a
bot's failure (a game that cannot go on), which the picker shows.

Off a server (a notebook cell, a test without a page) there is no loop to keep free: the picker plays
the bots in one go there, as before (``GameSession.autoplay``).

MCTS bots take a core's worth of work for minutes: at most :func:`max_mcts_runs` runs with an MCTS bot
play at once on a server's pages (``$RULES_EXPLORER_MAX_MCTS_RUNS``, ``rules-explorer serve
--max-mcts-runs``, default 4; 0: none). One more is refused (:class:`BotsBusy`), and the picker says so;
a page that opens many pages cannot set the server's cores playing for it alone (the playtest tables
have their own limit, ``max_mcts_seats``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping

from explorer.core.limits import RunsAtOnce
from explorer.core.session import GameSession, autoplay_limit, bot_moves, bots_to_move
from explorer.plots.live import OnLoop
from rules.protocol import RulesError

#: At most one batch of moves goes to the page in this many seconds (and one when the run ends).
BATCH_SECONDS = 0.25
#: Bots whose moves take about a millisecond (an MCTS move: 0.1 to 0.7 s here), and how long the picker
#: lets them play on the loop before it hands the rest to a run: their answers to a person's move
#: then reach the page with that move, in one change, as before (``ActionPicker.play_bots``).
QUICK_BOTS = frozenset({"random", "greedy"})
QUICK_SECONDS = 0.05
RUNNING, DONE, STOPPED, FAILED = "running", "done", "stopped", "failed"
log = logging.getLogger(__name__)
MAX_MCTS_RUNS_ENV, DEFAULT_MAX_MCTS_RUNS = "RULES_EXPLORER_MAX_MCTS_RUNS", 4

#: The runs with an MCTS bot whose thread has not ended.
_mcts_runs = RunsAtOnce(MAX_MCTS_RUNS_ENV, DEFAULT_MAX_MCTS_RUNS)


def max_mcts_runs() -> int:
    """How many runs with an MCTS bot may play at once on this server (``$RULES_EXPLORER_MAX_MCTS_RUNS``)."""
    return _mcts_runs.limit


class BotsBusy(Exception):
    """The server already plays ``limit`` runs with an MCTS bot (:func:`max_mcts_runs`)."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"this server's limit of MCTS games playing at once ({limit}) is reached")


class BotRun:
    """The bots of ``bots`` (seat -> bot name, ``None``: a person) playing ``session``'s line from step
    ``at`` (default: the cursor) in a thread, ``limit`` moves at most, the cursor following them
    (``follow``) while it stands after their last move; see the module's text.
    ``document``: the served page's (default: the current). ``on_change(run)`` is called on the page's
    loop after each batch and when the run ends."""

    def __init__(self, session: GameSession, bots: Mapping[int, str | None], follow: bool = True,
                 on_change: Callable[[BotRun], None] | None = None, document=None, at: int | None = None,
                 limit: int | None = None):
        at = session.cursor if at is None else at
        if type(at) is not int or not 0 <= at <= len(session.log):
            raise ValueError(f"at must be a step of the line (0 to {len(session.log)}), not {at!r}")
        self.session = session
        self.agents = {seat: name for seat, name in bots.items() if name}
        self.follow = follow
        self.on_change = on_change
        #: The step the bots play from (default: the cursor) and how many moves they play at most
        #: (default: ``AUTOPLAY_LIMITS``'s).
        self.spec, self.seed, self.from_step = session.spec, session.seed, at
        self.limit = autoplay_limit(self.agents) if limit is None else limit
        self.status = RUNNING
        self.played = 0                      # moves put on the line so far
        self.stopped_at_limit = False
        self.error: Exception | None = None
        self._begin = session.state_at(at)
        self._seats = dict(session.seat_players)
        self._log = session.log              # the line as the run last left it (replaced, never mutated)
        self._lock = threading.Lock()
        self._moves: list = []               # computed, not yet on the line (with their states)
        self._states: list = []
        self._finished = False
        self._cancel = threading.Event()
        self._put = OnLoop(self._put_batch, document)
        if self._put.document is None:
            raise RuntimeError("a BotRun needs a served page (off a server, GameSession.autoplay plays in one go)")
        self.thread = threading.Thread(target=self._play, daemon=True, name="explorer-bots")
        # (A new deal's empty log is equal to an empty one before it: Param reports no change of the log
        # then, but the state changes, and the log is another list.)
        self._watchers = [session.param.watch(self._on_line, ["log", "state"]),
                          session.param.watch(self._on_seats, ["seat_players"])]

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    def start(self) -> BotRun:
        """Set the bots playing; :class:`BotsBusy` (the run ended, nothing changed) when the server
        already plays :func:`max_mcts_runs` runs with an MCTS bot and this one has one."""
        if "mcts" in self.agents.values() and not _mcts_runs.take(self):
            self._end(STOPPED)
            raise BotsBusy(_mcts_runs.limit)
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop at the next move (what is on the line stays; moves not yet put there are dropped)."""
        self._cancel.set()
        if self.running:
            self._end(STOPPED)

    # ------------------------------------------------------------------ the bots' thread
    def _play(self) -> None:
        limit = self.limit
        last_put = time.monotonic()
        count = 0
        last = self._begin
        try:
            for move, state in bot_moves(self.spec, self._begin, self.agents, self.seed, self.from_step):
                if self._cancel.is_set() or count >= limit:
                    break
                count, last = count + 1, state
                with self._lock:
                    self._moves.append(move)
                    self._states.append(state)
                if time.monotonic() - last_put >= BATCH_SECONDS:
                    last_put = time.monotonic()
                    self._put()
        except Exception as error:           # (a rules' refusal, or a fault: said on the page, not lost)
            if not isinstance(error, RulesError):
                log.exception("the bots could not play on from step %s", self.from_step + count)
            self.error = error
        finally:
            _mcts_runs.give_back(self)
        self.stopped_at_limit = count >= limit and self.error is None and bots_to_move(self.spec, last, self.agents)
        with self._lock:
            self._finished = True
        self._put()

    # ------------------------------------------------------------------ the page's loop
    def _put_batch(self) -> None:
        if not self.running:
            return
        with self._lock:
            moves, states, finished = self._moves, self._states, self._finished
            self._moves, self._states = [], []
        session = self.session
        if session.log is not self._log or session.spec is not self.spec:
            self._end(STOPPED)               # (the watchers stop it first; this is the last guard)
            return
        if moves:
            at = self.from_step + self.played
            following = self.follow and session.cursor == at
            if following:
                end = at + len(moves)
            else:                            # where it is (no further than a new line's end)
                end = session.cursor
                if end > at + len(moves) and session.log[at:at + len(moves)] != moves:
                    end = at + len(moves)
            self.played += len(moves)        # (before the line changes: the page's watchers read it)
            self._log = None                 # (our own change: the watcher lets it pass)
            try:
                session.put_moves(at, moves, states, end)
            finally:
                self._log = session.log
        if finished:
            session.stopped_at_limit = self.stopped_at_limit
            self._end(FAILED if self.error is not None else DONE)
        elif self.on_change is not None:
            self.on_change(self)

    def _end(self, status: str) -> None:
        self.status = status
        self._cancel.set()
        for watcher in self._watchers:
            self.session.param.unwatch(watcher)
        self._watchers = []
        if self.on_change is not None:
            self.on_change(self)

    def _on_line(self, *events) -> None:
        if self._log is not None and (self.session.log is not self._log or self.session.spec is not self.spec):
            self.stop()

    def _on_seats(self, event) -> None:
        if dict(event.new) != self._seats:
            self.stop()
