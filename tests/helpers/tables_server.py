"""A real ``panel serve`` of the playtest tables (and the explorer) in its own process, for the
browser tests and the benchmarks: start, SIGKILL, restart on the same port and database.

Also the check that a page holds nothing its seat may not see (:class:`Secrets`): the strings a
seat's observations never showed it, but another seat's (or the spectator's, for nobody) did.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from explorer.tables.store import key_path
from tests.helpers import strings
from tests.helpers.processes import free_port

ROOT = Path(__file__).resolve().parents[2]

#: Installed in every page: when each step first shows ("Step k / k" in a model change, then drawn),
#: and when Confirm was clicked (epoch milliseconds, the same clock as every other page's).
PAGE_JS = """
window.__seen = {}; window.__confirmed = [];
document.addEventListener('click', (event) => {
  if (event.composedPath().some((el) => el.classList && el.classList.contains('confirm-action')))
    window.__confirmed.push(Date.now());
}, true);
(function hook() {
  const docs = window.Bokeh && window.Bokeh.documents;
  if (!docs || !docs.length) { setTimeout(hook, 20); return; }
  const note = (text) => {
    for (const m of String(text).matchAll(/Step (\\d+) \\/ (\\d+)/g)) {
      if (m[1] === m[2] && !(m[1] in window.__seen)) {
        const step = m[1];
        window.__seen[step] = -1;
        requestAnimationFrame(() => { window.__seen[step] = Date.now(); });
      }
    }
  };
  for (const model of docs[0].all_models) if (typeof model.text === 'string') note(model.text);
  docs[0].on_change((event) => { if (event.value !== undefined) note(event.value); });
})();
"""


class TablesServer:
    """``panel serve apps/tables apps/explorer --setup explorer/pages/serve_setup.py`` on ``db`` (``apps``:
    other pages too, e.g. ``apps/rules``)."""

    def __init__(self, db: Path, port: int | None = None, bot_delay: float = 0.3, extra_env: dict | None = None,
                 setup: str = "explorer/pages/serve_setup.py", apps: tuple[str, ...] = ("apps/tables", "apps/explorer")):
        self.db, self.port, self.bot_delay, self.setup = Path(db), port or free_port(), bot_delay, setup
        self.apps = tuple(apps)
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="tables-serve-", suffix=".log", delete=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "panel", "serve", *self.apps,
                "--setup", self.setup, "--address", "127.0.0.1", "--port", str(self.port),
                f"--allow-websocket-origin=127.0.0.1:{self.port}", "--liveness", "--args", "--db", str(self.db)]

    def start(self, timeout: float = 90.0) -> "TablesServer":
        self._fix_deal_key()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "RULES_EXPLORER_BOT_DELAY": str(self.bot_delay), **self.extra_env}
        self.proc = subprocess.Popen(self.command(), cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"panel serve exited ({self.proc.returncode}):\n{self.log_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/liveness", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"panel serve not up after {timeout:.0f}s:\n{self.log_text()[-3000:]}")
            time.sleep(0.1)

    def _fix_deal_key(self) -> None:
        """The database's deal key (``explorer/tables/store.py``: a server makes a random one on first use)
        is a fixed test key, so a failure can be replayed: a table is dealt from this key, its random id
        and its seed, all three in the test's database and log; a key already beside the database is kept."""
        path = key_path(self.db)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(hashlib.sha256(b"rules-explorer tests: deal key").hexdigest() + "\n")
            path.chmod(0o600)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(5)
        self.proc = None

    def stop(self) -> None:
        self.kill(signal.SIGTERM)
        self.log.close()
        with contextlib.suppress(OSError):
            os.unlink(self.log.name)

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def errors(self) -> list[str]:
        """Server log lines that report an error (tracebacks, Bokeh/Panel errors)."""
        return [line for line in self.log_text().splitlines()
                if re.search(r"\bERROR\b|Traceback|Exception", line)]


# --------------------------------------------------------------------------------------------
# What a seat may not see
# --------------------------------------------------------------------------------------------


class Secrets:
    """For each seat (None: a spectator), the strings hidden from it so far in a table's game.

    ``seen[seat]`` grows with every state's ``observe(state, seat)``; a string is a secret from
    ``seat`` at a step when another seat's observation of that step holds it and ``seat`` has never
    seen it. Short strings (under 4 characters) are left out: they are words, not cards.
    """

    MIN_LENGTH = 4

    def __init__(self, spec, players: int):
        self.spec, self.players = spec, players
        self.cards_hidden = 0            # how many (seat, card) secrets there were, over the game
        self.seen: dict[int | None, set[str]] = {seat: set() for seat in [None, *range(players)]}
        self.secret: dict[int | None, set[str]] = {seat: set() for seat in self.seen}

    def add_state(self, state) -> None:
        views = {seat: set(strings(self.spec.observe(state, seat))) for seat in self.seen}
        for seat in self.seen:
            self.seen[seat] |= views[seat]
        for seat in self.seen:
            others = set().union(*(views[s] for s in range(self.players) if s != seat))
            self.secret[seat] = {text for text in others - self.seen[seat] if self.is_card(state, text)}
            self.cards_hidden += len(self.secret[seat])

    def is_card(self, state, text: str) -> bool:
        """``text`` names a card, and not also its group (Stellar's "satellite": the legends say it)."""
        try:
            info = self.spec.card_info(state, text)
        except Exception:
            return False
        if info is None:
            return False
        return text.lower() not in {str(info.get("group", "")).lower(), str(info.get("group_name", "")).lower()}

    def leaks(self, seat: int | None, text: str) -> list[str]:
        """The secrets from ``seat`` that occur in ``text`` as whole words."""
        found = []
        for secret in self.secret[seat]:
            if secret in text and re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text):
                found.append(secret)
        return found
