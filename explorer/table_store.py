"""The playtest tables' SQLite file: tables, seats and an append-only log of accepted moves.

One file (default: ``tables.sqlite3`` in the user's data directory, see :func:`default_path`),
opened in WAL mode with ``synchronous=FULL``: :meth:`TableStore.append_move` returns only once
the move is committed to disk, and a table's page is told of the move only after that, so a
crash (even ``kill -9``) can never lose a move somebody has seen.

Schema (``PRAGMA user_version`` = 1):

- ``tables``: one row per table: game, players, seed, variants (JSON), who plays each seat
  (JSON list: ``"human"`` or a bot name), when it was created, the table it is a rematch of, and,
  once over, when it finished with its final scores and winners (JSON).
- ``seats``: per human seat, the SHA-256 of its secret token (the token itself is only ever in the
  seat's link; a copied database file gives nobody a seat).
- ``moves``: ``(table_id, step, seat, action)``: the action's JSON form (``encode_action``) of
  move number ``step`` (1-based). Triggers refuse UPDATE and DELETE: the log only grows.

Only the standard library is used; one connection per store, guarded by a lock (the server's
sessions and its bot timers share it).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    variants TEXT NOT NULL,
    controllers TEXT NOT NULL,
    created REAL NOT NULL,
    rematch_of TEXT REFERENCES tables(id),
    finished REAL,
    final_scores TEXT,
    winners TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, step)
);
CREATE TRIGGER IF NOT EXISTS moves_no_update BEFORE UPDATE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only: a move is never changed'); END;
CREATE TRIGGER IF NOT EXISTS moves_no_delete BEFORE DELETE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only: a move is never deleted'); END;
"""

#: Environment variable naming the database file (``panel serve ... --args --db FILE`` also works).
DB_ENV = "RULES_EXPLORER_TABLES_DB"


def default_path() -> Path:
    """``$RULES_EXPLORER_TABLES_DB``, else ``$XDG_DATA_HOME/rules-explorer/tables.sqlite3``
    (``~/.local/share/...`` when XDG_DATA_HOME is unset)."""
    if os.environ.get(DB_ENV):
        return Path(os.environ[DB_ENV]).expanduser()
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "rules-explorer" / "tables.sqlite3"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class TableRecord:
    """A table as stored: its set-up, seats, and (once over) its result."""

    id: str
    game: str
    players: int
    seed: int
    variants: dict
    controllers: tuple[str, ...]
    created: float
    rematch_of: str | None
    finished: float | None
    final_scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    token_digests: dict[int, str]      # seat -> SHA-256 of its token (human seats only)


class StoreError(RuntimeError):
    """The database file cannot be used (not ours, a newer schema...)."""


class TableStore:
    """The SQLite file behind the playtest tables (see the module docstring)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        # isolation_level=None: autocommit; every write below is its own explicit transaction.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer Rules Explorer (schema {version}; this one reads {SCHEMA_VERSION})")
        with self._lock:
            self._db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ writing
    def create_table(self, table_id: str, game: str, players: int, seed: int, variants: dict,
                     controllers: Iterable[str], token_digests: dict[int, str], rematch_of: str | None = None,
                     created: float | None = None) -> None:
        created = time.time() if created is None else created
        with self._lock, self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, game, players, seed, variants, controllers, created, rematch_of) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, game, players, seed, json.dumps(variants, sort_keys=True),
                 json.dumps(list(controllers)), created, rematch_of))
            self._db.executemany("INSERT INTO seats (table_id, seat, token_sha256) VALUES (?, ?, ?)",
                                 [(table_id, seat, digest) for seat, digest in sorted(token_digests.items())])

    def append_move(self, table_id: str, step: int, seat: int, action: Any) -> None:
        """Commit move ``step`` (1-based); raises ``sqlite3.IntegrityError`` if that step exists."""
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO moves (table_id, step, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, step, seat, json.dumps(action, sort_keys=True), time.time()))

    def finish(self, table_id: str, scores: Iterable[int], winners: Iterable[int]) -> None:
        with self._lock, self._transaction():
            self._db.execute("UPDATE tables SET finished = ?, final_scores = ?, winners = ? WHERE id = ?",
                             (time.time(), json.dumps(list(scores)), json.dumps(list(winners)), table_id))

    # ------------------------------------------------------------------ reading
    def table(self, table_id: str) -> TableRecord | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
            return self._record(row) if row else None

    def tables(self) -> list[TableRecord]:
        """Every table, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM tables ORDER BY created DESC, id").fetchall()
            return [self._record(row) for row in rows]

    def moves(self, table_id: str) -> list[tuple[int, Any]]:
        """The table's accepted moves in order: ``[(seat, action JSON), ...]``."""
        with self._lock:
            rows = self._db.execute("SELECT step, seat, action FROM moves WHERE table_id = ? ORDER BY step",
                                    (table_id,)).fetchall()
        for expected, (step, _, _) in enumerate(rows, start=1):
            if step != expected:
                raise StoreError(f"table {table_id}: move {expected} is missing from the log (found {step})")
        return [(seat, json.loads(action)) for _, seat, action in rows]

    def move_counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self._db.execute("SELECT table_id, COUNT(*) FROM moves GROUP BY table_id").fetchall())

    # ------------------------------------------------------------------ internals
    def _transaction(self):
        db = self._db

        class _Transaction:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, error, trace):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
                return False

        return _Transaction()

    def _record(self, row) -> TableRecord:
        (table_id, game, players, seed, variants, controllers, created, rematch_of, finished,
         final_scores, winners) = row
        digests = dict(self._db.execute("SELECT seat, token_sha256 FROM seats WHERE table_id = ? ORDER BY seat",
                                        (table_id,)).fetchall())
        return TableRecord(id=table_id, game=game, players=players, seed=seed, variants=json.loads(variants),
                           controllers=tuple(json.loads(controllers)), created=created, rematch_of=rematch_of,
                           finished=finished,
                           final_scores=tuple(json.loads(final_scores)) if final_scores else None,
                           winners=tuple(json.loads(winners)) if winners else None, token_digests=digests)
