"""The playtest tables' SQLite file: tables, seats and an append-only log of accepted moves.

One file (default: ``tables.sqlite3`` in the user's data directory, see :func:`default_path`),
opened in WAL mode with ``synchronous=FULL``: :meth:`TableStore.append_move` returns only once
the move is committed to disk, and a table's page is told of the move only after that, so a
crash (even ``kill -9``) can never lose a move somebody has seen.

Schema (``PRAGMA user_version`` = 4):

- ``tables``: one row per table: game, players, the table's seed, variants (JSON), who plays each
  seat (JSON list: ``"human"`` or a bot name), when it was created, the table it is a rematch of,
  and, once over, when it finished with its final scores and winners (JSON); ``deal`` says how the
  seed deals (below); ``creator_sha256`` the digest of the creator's link (NULL: none);
  ``ended`` why a table was ended before its game was over (``"abandoned"``: by its creator or the
  operator; ``"endless"``: its bots stopped a game that did not end, ``explorer.tables.hub``; NULL
  otherwise);
  ``card_name`` and ``card_file`` (schema 3) the card file the table plays: the name it had in the
  card library when the table was made, and a copy of its data (JSON), so later edits of the saved
  file never change a table in play; NULL for both: the game's standard cards.
  ``rules_version`` (schema 4) the game's rules version the table was made with
  (``GameSpec.version``): its seed deals and draws as that version's did (``GameSpec.recorded``:
  Biome Blitz 1.1 draws dice and reshuffles otherwise than 1.0). NULL: a table made before schema 4,
  whose games were all of rules 1.0.
- ``seats``: per human seat, the SHA-256 of its secret token (the token itself is only ever in the
  seat's link; a copied database file gives nobody a seat).

**The deal is secret.** A table's stored seed (random, or the one its creator typed) is not the
seed the game is dealt from: ``deal = 'hmac-sha256-table'`` (every new table) means the deal's seed is
the HMAC-SHA256 of the table's id and stored seed under a key kept beside the database
(``<database>.key``, 32 random bytes made on first use, mode 0600; see :func:`key_path`), cut to 53
bits. Nothing a seat or a spectator is shown lets anybody work the deal out; the deal's seed is shown
(and the replay, which carries it) only once the game has ended. The table's id is in the HMAC so
that no other table deals the same game: when the stored seed alone made the deal (``deal =
'hmac-sha256'``, tables made before), a seat (or the creator, who typed the seed) could make a table
with the same seed, end it, and read the live table's hands and deck from its review. Keep the key
with the database: without it, no table made since schema 2 can be restored. ``deal = 'hmac-sha256'``
tables keep their deals; ``deal`` NULL: a table made before schema 2, whose stored seed is its deal
(migration from schema 1 adds the columns and leaves every old row as it was).

**One server per file.** A server holds an exclusive ``flock`` on ``<database>.lock`` for its life
(:class:`TableStore` with ``exclusive=True``): a second server on the same file is refused at start
(two processes would each keep their own view of the tables and refuse each other's moves as
stale). Readers (``rules-explorer tables list``) need no lock: SQLite's own locking keeps them safe.
- ``moves``: ``(table_id, step, seat, action)``: the action's JSON form (``encode_action``) of
  move number ``step`` (1-based). Triggers refuse UPDATE and DELETE: the log only grows.
- ``notes`` (schema 3): the notes pinned to moves, ``(table_id, number, step, author, text, at)``:
  ``number`` counts a table's notes from 1, ``step`` is the move it is pinned to (0: the deal),
  ``author`` a seat's number or ``"teacher"`` (SQLite keeps each as it is given). Append-only like
  the moves, and committed the same way (:meth:`TableStore.append_note`) before anybody is told.
- ``decisions`` (schema 3): per accepted move of a person, how long its seat took:
  ``(table_id, step, seat, seconds)``, from when the seat could move to its move, on the server's
  clock (a restart counts from the restart, or from the last move before it).
- ``refusals`` (schema 3): per move the rules refused a person, ``(table_id, step, seat, rule, at)``:
  ``step`` the move it would have been, ``rule`` the refusal's rule (``IllegalAction.rule``; an
  action that could not be read: ``"(unreadable action)"``).

A schema-2 file is brought to schema 3 by adding the three tables and the two card-file columns
(NULL in every old row: its tables play with the standard cards), and any older file to schema 4
by adding ``rules_version`` (NULL in every old row: rules 1.0); every old row stays as it was.

Only the standard library is used; one connection per store, guarded by a lock (the server's
sessions and its bot timers share it).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import hmac
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from rules.replay import SEED_LIMIT  # (deal seeds stay below it: whole numbers a browser holds exactly)

SCHEMA_VERSION = 4
#: Why a table was ended before its game was over (its ``ended``): by its creator or the operator, or
#: by the hub when its bots had made their limit of moves in a row and the game had not ended.
ABANDONED, ENDLESS = "abandoned", "endless"
ENDED = (ABANDONED, ENDLESS)

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
    winners TEXT,
    deal TEXT,
    creator_sha256 TEXT,
    ended TEXT,
    card_name TEXT,
    card_file TEXT,
    rules_version TEXT
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
CREATE TABLE IF NOT EXISTS notes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    step INTEGER NOT NULL,
    author NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TRIGGER IF NOT EXISTS notes_no_update BEFORE UPDATE ON notes
    BEGIN SELECT RAISE(ABORT, 'notes are append-only: a note is never changed'); END;
CREATE TRIGGER IF NOT EXISTS notes_no_delete BEFORE DELETE ON notes
    BEGIN SELECT RAISE(ABORT, 'notes are append-only: a note is never deleted'); END;
CREATE TABLE IF NOT EXISTS decisions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (table_id, step)
);
CREATE TABLE IF NOT EXISTS refusals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    rule TEXT NOT NULL,
    at REAL NOT NULL
);
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


#: Columns added by schema 2 (old rows: NULL, which keeps their meaning; see the module docstring).
SCHEMA_2_COLUMNS = ("deal TEXT", "creator_sha256 TEXT", "ended TEXT")
#: Columns added by schema 3 to ``tables``: the card file a table plays (old rows: NULL, the standard cards).
SCHEMA_3_COLUMNS = ("card_name TEXT", "card_file TEXT")
#: Columns added by schema 4 to ``tables``: the rules version a table was made with (old rows: NULL, 1.0).
SCHEMA_4_COLUMNS = ("rules_version TEXT",)
#: The rules version of a table made before schema 4 (every game was at 1.0 then).
FIRST_RULES_VERSION = "1.0"
#: How tables are dealt (the ``deal`` column): new tables by their id and seed; tables made before
#: that by their seed alone (see the module's text).
TABLE_HMAC_DEAL = "hmac-sha256-table"
HMAC_DEAL = "hmac-sha256"


def key_path(path: str | os.PathLike) -> Path:
    """The deal key beside the database ``path``: ``tables.sqlite3`` -> ``tables.sqlite3.key``."""
    path = Path(path)
    return path.with_name(path.name + ".key")


def lock_path(path: str | os.PathLike) -> Path:
    """The lock file a server holds beside the database ``path`` (``tables.sqlite3.lock``)."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


def deal_seed(key: bytes, table_seed: int, table_id: str | None = None) -> int:
    """The seed a table is dealt from: the HMAC-SHA256 of its id and stored seed under the key, cut to 53
    bits (``table_id`` None: of its stored seed alone, as tables dealt ``HMAC_DEAL`` were)."""
    message = f"deal:{table_seed}" if table_id is None else f"deal:{table_id}:{table_seed}"
    digest = hmac.new(key, message.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class TableRecord:
    """A table as stored: its set-up, seats, and (once over) its result.

    ``seed`` is the seed the game is dealt from (secret until the game ends); ``table_seed`` the
    stored one (the one the creator typed, or a random one): the two are equal for old tables."""

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
    table_seed: int = 0
    creator_digest: str | None = None
    ended: str | None = None           # why it was ended before its game was over (ENDED); None otherwise
    card_name: str | None = None       # the card file's name in the library when the table was made
    card_file: dict | None = None      # a copy of that file's data (None: the standard cards)
    rules_version: str = FIRST_RULES_VERSION   # the game's rules version it was made with (GameSpec.recorded)

    @property
    def abandoned(self) -> bool:
        return self.ended is not None


class StoreError(RuntimeError):
    """The database file cannot be used (not ours, a newer schema, not openable, in use...)."""


class WriteError(StoreError):
    """A write was not committed (disk full, a read-only file, the database locked): nothing changed."""


class TableStore:
    """The SQLite file behind the playtest tables (see the module docstring)."""

    def __init__(self, path: str | os.PathLike, *, exclusive: bool = False, busy_timeout: float | None = None,
                 read_only: bool = False):
        """Open (or make) the database at ``path``. ``exclusive``: hold ``<path>.lock`` for the store's
        life (a server does; a second one is refused). ``busy_timeout``: seconds a write waits for
        another process's write (``$RULES_EXPLORER_TABLES_BUSY_TIMEOUT``, default 10) before it fails.
        ``read_only``: only read an existing file (``tables list``), changing nothing in it.
        Raises StoreError naming the path when the file cannot be used (another program's SQLite
        file is refused untouched, never given our tables)."""
        self.path = Path(path)
        self._lock = threading.Lock()
        self._key: bytes | None = None
        self._lock_file = None
        if busy_timeout is None:
            busy_timeout = float(os.environ.get("RULES_EXPLORER_TABLES_BUSY_TIMEOUT", 10))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot make the folder of the tables database {self.path}: {error.strerror or error}") from None
        if exclusive:
            self._hold_lock()
        try:
            # isolation_level=None: autocommit; every write below is its own explicit transaction.
            target = f"{self.path.resolve().as_uri()}?mode=ro" if read_only else self.path
            self._db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=busy_timeout,
                                       uri=read_only)
            self._db.row_factory = sqlite3.Row
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer Rules Explorer (schema {version}; "
                                 f"this one reads {SCHEMA_VERSION})")
            self._check_ours(read_only)
            if not read_only:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.execute("PRAGMA foreign_keys=ON")
                with self._lock:
                    self._migrate(version)
        except sqlite3.Error as error:
            self._release_lock()
            raise StoreError(f"cannot use {self.path} as the tables database: {error}") from None
        except StoreError:
            self._release_lock()
            raise

    def _check_ours(self, read_only: bool) -> None:
        """Refuse a SQLite file that holds other tables than ours (or, to read, none of ours)."""
        names = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        ours = {"tables", "seats", "moves"} <= names and {"game", "controllers", "seed"} <= columns
        if ours or (not names and not read_only):
            return
        held = ", ".join(sorted(names)[:5]) or "nothing"
        raise StoreError(f"{self.path} is not a Rules Explorer tables database (its tables: {held}); "
                         "nothing was changed in it")

    def _migrate(self, version: int) -> None:
        """Make the schema (a new file), or bring an older file to schema 3 in one transaction:
        schema 1's tables get schema 2's columns, NULL in every old row (an old table's seed stays
        its deal; it has no creator link); schema 3's tables (notes, decisions, refusals) are made
        empty, and its card-file columns added NULL (old tables play with the standard cards; also
        to a schema-3 file made before the columns were); schema 4's ``rules_version`` added NULL
        (old tables were made with rules 1.0). No old row is changed."""
        existing = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        added = "".join(f" ALTER TABLE tables ADD COLUMN {column};" for column in SCHEMA_2_COLUMNS + SCHEMA_3_COLUMNS + SCHEMA_4_COLUMNS
                        if existing and column.split()[0] not in existing)
        if added or version != SCHEMA_VERSION:
            self._db.executescript(f"BEGIN; {SCHEMA} {added} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    def _hold_lock(self) -> None:
        lock = lock_path(self.path)
        try:
            self._lock_file = open(lock, "a+")
        except OSError as error:
            raise StoreError(f"cannot open the lock file {lock} of the tables database: {error.strerror or error}") from None
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            self._lock_file.close()
            self._lock_file = None
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreError(f"another Rules Explorer server is using the tables database {self.path} "
                                 f"(it holds {lock}); stop it first, or give this one another database") from None
            raise StoreError(f"cannot lock {lock}: {error.strerror or error}") from None

    def _release_lock(self) -> None:
        if self._lock_file is not None:
            self._lock_file.close()          # closing the file releases its flock
            self._lock_file = None

    def close(self) -> None:
        with self._lock:
            self._db.close()
        self._release_lock()

    def deal_key(self, create: bool = True) -> bytes:
        """The deal key beside the database (made on first use, mode 0600); StoreError if unusable."""
        if self._key is None:
            path = key_path(self.path)
            try:
                if create and not path.exists():
                    try:
                        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                    except FileExistsError:
                        pass                    # made meanwhile by another process: read it
                    else:
                        with os.fdopen(descriptor, "w") as file:
                            file.write(os.urandom(32).hex() + "\n")
                text = path.read_text().strip()
            except FileNotFoundError:
                raise StoreError(f"the deal key {path} of the tables database is missing: the tables made with it "
                                 "cannot be dealt again (put the key back beside the database)") from None
            except OSError as error:
                raise StoreError(f"cannot read the deal key {path}: {error.strerror or error}") from None
            try:
                key = bytes.fromhex(text)
            except ValueError:
                key = b""
            if len(key) < 16:
                raise StoreError(f"the deal key {path} is not a key (expected 64 hexadecimal digits)")
            self._key = key
        return self._key

    # ------------------------------------------------------------------ writing
    def create_table(self, table_id: str, game: str, players: int, seed: int, variants: dict,
                     controllers: Iterable[str], token_digests: dict[int, str], rematch_of: str | None = None,
                     created: float | None = None, creator_digest: str | None = None,
                     card_name: str | None = None, card_file: dict | None = None,
                     rules_version: str | None = None) -> None:
        """Store a new table; ``seed`` is the table's seed, dealt through the key with the table's id
        (``deal`` = TABLE_HMAC_DEAL).
        ``card_file``: the data of the card file it plays (kept as a copy; None: the standard cards),
        ``card_name`` the name it was saved under; ``rules_version`` the game's rules version (its
        seed deals as that version's: ``GameSpec.recorded``; None: rules 1.0)."""
        created = time.time() if created is None else created
        self.deal_key()
        cards = None if card_file is None else json.dumps(card_file, ensure_ascii=False)
        with self._lock, self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, game, players, seed, variants, controllers, created, rematch_of, deal, "
                "creator_sha256, card_name, card_file, rules_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, game, players, seed, json.dumps(variants, sort_keys=True),
                 json.dumps(list(controllers)), created, rematch_of, TABLE_HMAC_DEAL, creator_digest,
                 None if card_file is None else card_name, cards, rules_version))
            self._db.executemany("INSERT INTO seats (table_id, seat, token_sha256) VALUES (?, ?, ?)",
                                 [(table_id, seat, digest) for seat, digest in sorted(token_digests.items())])

    def append_move(self, table_id: str, step: int, seat: int, action: Any, *,
                    decision: float | None = None) -> None:
        """Commit move ``step`` (1-based); raises ``sqlite3.IntegrityError`` if that step exists.
        ``decision``: the seconds its seat took (a person's move), committed with it."""
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO moves (table_id, step, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, step, seat, json.dumps(action, sort_keys=True), time.time()))
            if decision is not None:
                self._db.execute("INSERT INTO decisions (table_id, step, seat, seconds) VALUES (?, ?, ?, ?)",
                                 (table_id, step, seat, decision))

    def append_note(self, table_id: str, step: int, author: int | str, text: str, at: float | None = None) -> dict:
        """Commit a note pinned to ``step`` by ``author`` (a seat, or ``"teacher"``); returns it as
        the replay's ``notes`` hold it (``{"step", "seat", "text", "at"}``). Committed to disk
        (``synchronous=FULL``) before this returns."""
        at = round(time.time() if at is None else at, 3)
        with self._lock, self._transaction():
            number = self._db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM notes WHERE table_id = ?",
                                      (table_id,)).fetchone()[0]
            self._db.execute("INSERT INTO notes (table_id, number, step, author, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                             (table_id, number, step, author, text, at))
        return {"step": step, "seat": author, "text": text, "at": at}

    def append_refusal(self, table_id: str, step: int, seat: int, rule: str) -> None:
        """Commit a move the rules refused ``seat`` (it would have been move ``step``), by ``rule``."""
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO refusals (table_id, step, seat, rule, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, step, seat, rule, time.time()))

    def finish(self, table_id: str, scores: Iterable[int], winners: Iterable[int]) -> None:
        with self._lock, self._transaction():
            self._db.execute("UPDATE tables SET finished = ?, final_scores = ?, winners = ? WHERE id = ?",
                             (time.time(), json.dumps(list(scores)), json.dumps(list(winners)), table_id))

    def abandon(self, table_id: str, why: str = ABANDONED) -> None:
        """The table was ended before its game was over: no result, ``ended = why`` (one of :data:`ENDED`)."""
        if why not in ENDED:
            raise ValueError(f"a table is ended as one of {ENDED}, not {why!r}")
        with self._lock, self._transaction():
            self._db.execute("UPDATE tables SET finished = ?, ended = ? WHERE id = ? AND finished IS NULL",
                             (time.time(), why, table_id))

    def set_seat_digest(self, table_id: str, seat: int, digest: str) -> None:
        """A human seat's new token digest (its old link stops working)."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE seats SET token_sha256 = ? WHERE table_id = ? AND seat = ?", (digest, table_id, seat))

    # ------------------------------------------------------------------ reading
    def ended(self, table_id: str) -> str | None:
        """Why the table was ended early (one of :data:`ENDED`), or None (cheap: asked before every move)."""
        with self._lock:
            row = self._db.execute("SELECT ended FROM tables WHERE id = ?", (table_id,)).fetchone()
        return row[0] if row else None

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the table's rematch, or None."""
        with self._lock:
            row = self._db.execute("SELECT id FROM tables WHERE rematch_of = ? ORDER BY created LIMIT 1",
                                   (table_id,)).fetchone()
        return row[0] if row else None

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

    def notes(self, table_id: str) -> list[dict]:
        """The table's notes in the order they were pinned: ``[{"step", "seat", "text", "at"}, ...]``."""
        if not self._has("notes"):
            return []           # a schema-2 file read without migrating it (``tables export``)
        with self._lock:
            rows = self._db.execute("SELECT step, author, text, at FROM notes WHERE table_id = ? ORDER BY number",
                                    (table_id,)).fetchall()
        return [{"step": step, "seat": author, "text": text, "at": at} for step, author, text, at in rows]

    def last_move_at(self, table_id: str) -> float | None:
        """When the table's last move was committed (None: no moves yet)."""
        with self._lock:
            return self._db.execute("SELECT MAX(at) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0]

    def decisions(self, table_id: str | None = None) -> list[tuple[str, int, int, float]]:
        """``(table_id, step, seat, seconds)`` of every timed decision (of one table, or of all)."""
        if not self._has("decisions"):
            return []
        where, values = ("WHERE table_id = ?", (table_id,)) if table_id else ("", ())
        with self._lock:
            return [tuple(row) for row in self._db.execute(
                f"SELECT table_id, step, seat, seconds FROM decisions {where} ORDER BY table_id, step", values)]

    def refusals(self, table_id: str | None = None) -> list[tuple[str, int, int, str, float]]:
        """``(table_id, step, seat, rule, at)`` of every refused move (of one table, or of all)."""
        if not self._has("refusals"):
            return []
        where, values = ("WHERE table_id = ?", (table_id,)) if table_id else ("", ())
        with self._lock:
            return [tuple(row) for row in self._db.execute(
                f"SELECT table_id, step, seat, rule, at FROM refusals {where} ORDER BY table_id, at, rowid", values)]

    def move_counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self._db.execute("SELECT table_id, COUNT(*) FROM moves GROUP BY table_id").fetchall())

    # ------------------------------------------------------------------ internals
    def _has(self, name: str) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                    (name,)).fetchone() is not None

    def _transaction(self):
        db, path = self._db, self.path

        class _Transaction:
            def __enter__(self):
                try:
                    db.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as error:
                    raise WriteError(f"{path}: {error}") from error

            def __exit__(self, kind, error, trace):
                if kind is None:
                    try:
                        db.execute("COMMIT")
                        return False
                    except sqlite3.Error as failure:
                        error = failure
                if db.in_transaction:
                    try:
                        db.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                if isinstance(error, sqlite3.Error) and not isinstance(error, sqlite3.IntegrityError):
                    raise WriteError(f"{path}: {error}") from error
                if kind is None:
                    raise error
                return False

        return _Transaction()

    def _record(self, row) -> TableRecord:
        table_id, seed = row["id"], row["seed"]
        digests = dict(self._db.execute("SELECT seat, token_sha256 FROM seats WHERE table_id = ? ORDER BY seat",
                                        (table_id,)).fetchall())
        deal = row["deal"]
        if deal == TABLE_HMAC_DEAL:
            dealt = deal_seed(self.deal_key(create=False), seed, table_id)
        elif deal == HMAC_DEAL:
            dealt = deal_seed(self.deal_key(create=False), seed)
        else:
            dealt = seed
        final_scores, winners = row["final_scores"], row["winners"]
        # (a file of schema 1 or 2 read without migrating it, ``tables export``, has no card-file columns)
        cards = row["card_file"] if "card_file" in row.keys() else None
        return TableRecord(id=table_id, game=row["game"], players=row["players"], seed=dealt,
                           variants=json.loads(row["variants"]), controllers=tuple(json.loads(row["controllers"])),
                           created=row["created"], rematch_of=row["rematch_of"], finished=row["finished"],
                           final_scores=tuple(json.loads(final_scores)) if final_scores else None,
                           winners=tuple(json.loads(winners)) if winners else None, token_digests=digests,
                           table_seed=seed, creator_digest=row["creator_sha256"], ended=row["ended"],
                           card_name=row["card_name"] if cards is not None else None,
                           card_file=json.loads(cards) if cards is not None else None,
                           rules_version=(row["rules_version"] if "rules_version" in row.keys() else None)
                           or FIRST_RULES_VERSION)
