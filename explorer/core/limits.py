"""A server's limits, each read from its environment variable (``rules-explorer serve`` sets them from
its ``--max-...`` options): the playtest tables' (``explorer/tables/hub.py``), the explorer's MCTS runs
(``explorer/components/bot_run.py``) and the analyses at once (``explorer/pages/analysis.py``), those two
counted by :class:`RunsAtOnce`."""

from __future__ import annotations

import os
import threading


def server_limit(env: str, default: int) -> int:
    """The whole number ``$env`` says (below 0 counts as 0), else ``default`` (unset, or not a number)."""
    try:
        return max(0, int(os.environ.get(env, default)))
    except ValueError:
        return default


class RunsAtOnce:
    """At most ``$env`` (else ``default``; 0: none) runs of a kind at once in this server's process: a run
    is counted from ``take`` (True: it may start) until ``give_back`` (when its thread ends). The explorer's
    MCTS runs and the analyses each have one."""

    def __init__(self, env: str, default: int) -> None:
        self.env, self.default = env, default
        self._runs: set[object] = set()
        self._lock = threading.Lock()

    @property
    def limit(self) -> int:
        return server_limit(self.env, self.default)

    def take(self, run: object) -> bool:
        with self._lock:
            if len(self._runs) >= self.limit:
                return False
            self._runs.add(run)
            return True

    def give_back(self, run: object) -> None:
        with self._lock:
            self._runs.discard(run)
