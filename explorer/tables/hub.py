"""Playtest tables: live games shared by the sessions of one server process (docs/architecture.md, "Explorer").

A :class:`TableHub` owns every table of one database file (:mod:`explorer.tables.store`); the
pages of a server process share it (``get_hub``). A :class:`Table` is a game being played: its
set-up, the accepted moves, the states along them, a lock, and the pages listening to it.

How a move is taken (:meth:`TableHub.act`), always under the table's lock, so two seats acting
at once are served one after the other:

1. the seat's token is checked against every seat's digest in constant time (``hmac.compare_digest``);
2. the page must have seen the table as it is now; a page that is behind may still act only when
   every move since was another seat's and its own choices are the same (a simultaneous phase:
   the others chose meanwhile). Otherwise the move is refused as stale;
3. the rules decide (``to_move``, ``decode_action``, ``apply``): a refusal names the rule;
4. the move is committed to SQLite (WAL, ``synchronous=FULL``), and only then kept in memory and
   told to the listening pages. A crash at any point loses nothing anybody has seen.

A move that cannot be committed (disk full, a read-only or locked file) is refused as "not
recorded": nothing changed, the page stays usable, and the move can be made again. A bot's move
that could not be committed is tried again after ``retry_delay`` seconds, so the table never stalls.

Bots play their seats from a timer thread after ``bot_delay`` seconds (visible, not instant). A
bot's seed is derived from the table's (secret) deal seed, its seat and the step (the one seed rule,
``play/seeds.py``: the same game as ``rules-explorer play`` from that seed), so the bot moves
of a table do not depend on when the server was restarted. On start, every unfinished table is
restored by replaying its log; its bots carry on.

A game can have no end: a card file can make it so (docs/architecture.md, "One seed rule", its
paragraph "A game that never ends"). Bots that have made ``bot_limits`` moves in a row at a table,
nobody else moving between, end it (``ended = "endless"``, :mod:`explorer.tables.store`): its pages
say why, its replay becomes public, and it no longer counts against the server's limits. The limit
is the lowest of its bots' (by default the explorer's ``AUTOPLAY_LIMITS``: 2,000 moves in a row for
greedy or MCTS bots, 20,000 for random ones, far beyond any game that ends), counted again from the
log when a table is restored.

The deal is secret until the game ends (:mod:`explorer.tables.store`): a table's summary holds its
seed only once the game is over or the table was ended, and so does everything the pages show.

Limits for a server open to a network: at most ``max_tables`` live tables in all
(``$RULES_EXPLORER_MAX_TABLES``, default 200), ``max_bot_tables`` live tables that only bots play
(``$RULES_EXPLORER_MAX_BOT_TABLES``, default 4) and ``max_mcts_seats`` MCTS seats over all
live tables (``$RULES_EXPLORER_MAX_MCTS_SEATS``, default 8); 0 means none. A table's creator (with
the creator link) or the operator (``rules-explorer tables abandon ID``) can end a table, and the
creator can give a seat a new link (the old one stops working).

Notes (:meth:`TableHub.add_note`): a seat (its link) or the teacher (the creator's link) pins a note
to a step of the table; it is checked (:func:`explorer.core.notes.check_note`), committed like a
move, then kept and told. :meth:`TableHub.visible_notes` gives each viewer only the notes it may
read (:func:`explorer.core.notes.note_visible`, the one rule); the replay carries every note, and
is given out only once the table has ended. Each author (a seat, the teacher) pins at most
``max_notes`` notes to a table (``$RULES_EXPLORER_MAX_NOTES``, default 100): every page is sent a
table's notes again when one is pinned, and an outside test pinned 150 notes of 1,900 characters in
30 s, which sent each open page 23 MB.

Telemetry: each person's move is committed with the seconds its seat took (from when that seat
could move: the move before, the table's creation, or for a restored table the last stored move),
measured on the server; each move the rules refuse a person is committed with the refusal's rule
(``IllegalAction.rule``; the hub's own refusals, a stale page or another's turn, are not the
game's rules and are not counted). :mod:`explorer.tables.telemetry` sums them up.

Card files: a table plays the card file it was made with (``create(..., cards=DATA, card_name=NAME)``,
the data a page read from the card library, :mod:`explorer.cardfiles`), stored as a copy in the
table's row: :func:`table_spec` is its game with that file, and everything a table does (deal,
moves, bots, restore, replay) uses it. A later edit or removal of the saved file changes no table;
a rematch plays the same file.

Nothing here imports Panel: the pages (:mod:`explorer.pages.table_pages`) subscribe with a callback,
which is called from whichever thread accepted the move and must only schedule work.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import secrets
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import takewhile
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from rules import replay as replay_files
from play.bots import BOTS, bot_move
from rules.protocol import AnyGame, IllegalAction, InvalidPosition, RulesError, shown
from rules.registry import GAMES, get_game

from explorer.core.i18n import text
from explorer.core.limits import server_limit
from explorer.core.notes import TEACHER, NoteRefused, check_note, note_visible
from explorer.core.session import AUTOPLAY_LIMITS, player_label
from rules.rulebook import LANGUAGES, engine_rules
from explorer.tables.store import ENDLESS, SEED_LIMIT, TableRecord, TableStore, WriteError, default_path, token_digest

log = logging.getLogger(__name__)

HUMAN = "human"
CONTROLLERS = (HUMAN, *BOTS)
#: Seconds a bot waits before it moves, so people see what happens (``RULES_EXPLORER_BOT_DELAY``).
DEFAULT_BOT_DELAY = 0.8
#: Seconds before a bot's move that could not be committed is tried again.
DEFAULT_RETRY_DELAY = 2.0
#: Environment variables of the server's limits (``rules-explorer serve --max-bot-tables N --max-mcts-seats N``).
MAX_BOT_TABLES_ENV, MAX_MCTS_SEATS_ENV = "RULES_EXPLORER_MAX_BOT_TABLES", "RULES_EXPLORER_MAX_MCTS_SEATS"
DEFAULT_MAX_BOT_TABLES, DEFAULT_MAX_MCTS_SEATS = 4, 8
#: Live tables over all (each is held in memory and listed in every lobby): an outside test made 1,900
#: tables in minutes, from one lobby, and the lobby then took 3.6 s to open.
MAX_TABLES_ENV, DEFAULT_MAX_TABLES = "RULES_EXPLORER_MAX_TABLES", 200
#: Notes each author (a seat, the teacher) may pin to one table (see the module docstring).
MAX_NOTES_ENV, DEFAULT_MAX_NOTES = "RULES_EXPLORER_MAX_NOTES", 100


class TableError(Exception):
    """A request the tables refuse: an unknown table, a wrong link, a stale page, a spectator acting...

    ``problem`` says what was wrong in plain words; nothing was changed.
    """

    def __init__(self, problem: str, texts: dict[str, str] | None = None):
        super().__init__(problem)
        self.problem = problem
        self.texts = texts or {"en": problem}

    def problem_in(self, lang: str) -> str:
        """What was wrong, in ``lang`` (English where there is no text in it)."""
        return self.texts.get(lang, self.problem)


class WriteRefused(TableError):
    """A change the database did not commit (disk full, read-only, locked): a move, a new table, an
    ended table, a seat's new link. Nothing changed."""


class SetUpRefused(TableError, ValueError):
    """A table the hub will not make (a seed out of range, over the server's limits): nothing stored."""


def _limit(value: int | None, env: str, default: int) -> int:
    return value if value is not None else server_limit(env, default)


def table_spec(record: TableRecord) -> AnyGame:
    """The game a stored table plays: its game with the card file stored in its row (the standard
    cards when there is none), dealing as the rules version it was made with did (``GameSpec.recorded``).
    InvalidPosition (the engine's message) if the stored file no longer reads."""
    if record.card_file is None:
        return get_game(record.game).recorded(record.rules_version)
    return _game_with_cards(record.game, json.dumps(record.card_file, sort_keys=True)).recorded(record.rules_version)


@lru_cache(maxsize=32)
def _game_with_cards(game: str, cards: str) -> AnyGame:
    """``game`` with the card file ``cards`` (JSON text), read once per file (the lobby lists many tables)."""
    return get_game(game).with_card_file(json.loads(cards))


def bot_run_limit(controllers: Sequence[str], limits: Mapping[str, int]) -> int:
    """The moves a table's bots may make in a row (``controllers``: who plays each seat): the lowest of
    its bots' ``limits`` (a bot not named there: the lowest of them all)."""
    lowest = min(limits.values(), default=0)
    return min((limits.get(name, lowest) for name in controllers if name != HUMAN), default=lowest)


@lru_cache(maxsize=None)
def _turn_rule(game: str) -> str:
    """The game's own turn-order rule (its ``RULE_TURN``): a refusal names it, and pages link it."""
    return engine_rules(game)["RULE_TURN"]


def _card_file_refused(card_name: str, error: InvalidPosition) -> SetUpRefused:
    """The table's card file refused by the game (its data, or a deal of this many players), in every language."""
    texts = {lang: text("hub.card_file_refused", lang, name=shown(card_name), problem=error.problem_in(lang))
             for lang in LANGUAGES}
    return SetUpRefused(texts["en"], texts)


def _refused(key: str, kind: type = TableError, **values) -> TableError:
    """A TableError saying ``hub.<key>`` (``explorer/locales/<lang>/hub.json``) in every language."""
    texts = {lang: text(f"hub.{key}", lang, **values) for lang in LANGUAGES}
    return kind(texts["en"], texts)


@contextmanager
def _written(refusal: str, what: str):
    """A write to the database: if it fails, ``what`` went wrong is logged and the change is refused
    as ``hub.<refusal>`` (:class:`WriteRefused`, in every language). Nothing was changed."""
    try:
        yield
    except WriteError as error:
        log.error("%s: %s", what, error)
        raise _refused(refusal, WriteRefused, error=error) from None


@dataclass(eq=False)
class Table:
    """One shared game: its record, the accepted moves and the states along them."""

    record: TableRecord
    spec: Any
    states: list
    moves: list[tuple[int, Any]]
    problem: str | None = None           # set when the stored log no longer replays: the table is frozen
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: dict[int, Callable[[], None]] = field(default_factory=dict)
    rematch: str | None = None           # the id of this table's rematch, once there is one
    notes: list[dict] = field(default_factory=list)        # every note, as stored, in the order pinned
    turn_since: dict[int, float] = field(default_factory=dict)   # seat -> when it could move (time.time())
    bot_run: int = 0                     # the moves bots made in a row at the end of the log (nobody else between)
    _note_events: dict = field(default_factory=dict)       # (step, observer) -> observe()["events"]

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def state(self):
        return self.states[-1]

    @property
    def step(self) -> int:
        return len(self.moves)

    @property
    def over(self) -> bool:
        return self.spec.is_over(self.state)

    @property
    def ended(self) -> bool:
        """The game is over, or the table was ended before: its deal and replay are public."""
        return self.record.abandoned or self.over

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.problem or self.record.abandoned else tuple(self.spec.to_move(self.state))

    def controller(self, seat: int) -> str:
        return self.record.controllers[seat]

    def seat_for(self, token: str | None) -> int | None:
        """The human seat whose token this is, or None. Every digest is compared, in constant time."""
        if not isinstance(token, str) or not token:
            return None
        digest = token_digest(token)
        found = None
        for seat, stored in self.record.token_digests.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    def replay(self) -> dict:
        """The game so far as a replay file, with the seed it was dealt from (every hand can be
        worked out from it: the pages give it out only once the table has ended)."""
        return replay_files.record(self.spec, self.record.players, self.record.seed, self.record.variants,
                                   self.moves, state=self.states[0], notes=self.notes)

    def start_clocks(self, since: float) -> None:
        """Every seat that may move now could move since ``since`` (a new or restored table)."""
        self.turn_since = {seat: since for seat in self.to_move}

    def visible_notes(self, viewer: int | str | None) -> list[dict]:
        """The notes ``viewer`` (a seat, None: a spectator) may read, in step order (the rule:
        :func:`explorer.core.notes.note_visible`; everybody's once the table has ended)."""
        ended = self.ended
        visible = [note for note in self.notes if note_visible(note, viewer, ended, self._events)]
        return sorted(visible, key=lambda note: note["step"])

    def _events(self, step: int, observer) -> Any:
        key = (step, observer)
        if key not in self._note_events:          # (a table's states never change: kept for its life)
            self._note_events[key] = self.spec.observe(self.states[step], observer)["events"]
        return self._note_events[key]

    def summary(self) -> dict:
        """What the lobby lists (no secrets: the spectator's view of the table)."""
        record = self.record
        return {"id": record.id, "game": record.game, "title": self.spec.title, "card_name": record.card_name,
                "players": record.players,
                "controllers": list(record.controllers), "seed": record.seed if self.ended else None,
                "variants": dict(record.variants), "abandoned": record.abandoned, "ended": record.ended,
                "step": self.step, "to_move": list(self.to_move), "over": self.over, "created": record.created,
                "scores": list(self.spec.scores(self.state)) if self.over else None,
                "winners": list(self.spec.winners(self.state)) if self.over else None,
                "rematch_of": record.rematch_of, "rematch": self.rematch, "problem": self.problem}

    def _notify(self) -> None:
        for callback in list(self.listeners.values()):
            try:
                callback()
            except Exception:        # a closed page must not stop the others from hearing of the move
                log.exception("table %s: a listener failed", self.id)


class TableHub:
    """Every table of one database file, live in one process (see the module docstring)."""

    def __init__(self, store: TableStore | str | os.PathLike | None = None, *, bot_delay: float | None = None,
                 retry_delay: float = DEFAULT_RETRY_DELAY, max_bot_tables: int | None = None,
                 max_mcts_seats: int | None = None, bot_limits: Mapping[str, int] | None = None, max_tables: int | None = None,
                 max_notes: int | None = None):
        """The hub of a database (a path: opened holding its lock, so one hub per file; StoreError if
        it cannot be). Limits: see the module docstring (None: from the environment, else the default);
        ``bot_limits``: each bot's moves in a row before it ends a table (None: ``AUTOPLAY_LIMITS``)."""
        self.store = store if isinstance(store, TableStore) else TableStore(store or default_path(), exclusive=True)
        if bot_delay is None:
            bot_delay = float(os.environ.get("RULES_EXPLORER_BOT_DELAY", DEFAULT_BOT_DELAY))
        self.bot_delay, self.retry_delay = bot_delay, retry_delay
        self.max_bot_tables = _limit(max_bot_tables, MAX_BOT_TABLES_ENV, DEFAULT_MAX_BOT_TABLES)
        self.max_mcts_seats = _limit(max_mcts_seats, MAX_MCTS_SEATS_ENV, DEFAULT_MAX_MCTS_SEATS)
        self.max_tables = _limit(max_tables, MAX_TABLES_ENV, DEFAULT_MAX_TABLES)
        self.max_notes = _limit(max_notes, MAX_NOTES_ENV, DEFAULT_MAX_NOTES)
        self.bot_limits = dict(AUTOPLAY_LIMITS if bot_limits is None else bot_limits)
        self._tables: dict[str, Table] = {}
        self._lock = threading.RLock()
        self._timers: set[threading.Timer] = set()
        self._closed = False
        self._listener_ids = iter(range(1, 1 << 62))
        self.restored = self._restore()

    # ------------------------------------------------------------------ tables
    def create(self, game: str, players: int, *, seed: int | None = None, variants: Mapping | None = None,
               controllers: Sequence[str] | None = None, rematch_of: str | None = None,
               creator_digest: str | None = None, cards: Mapping | None = None, card_name: str | None = None,
               _digests: dict[int, str] | None = None) -> tuple[Table, dict[int, str]]:
        """A new table; returns it and the secret token of each human seat (seat -> token).

        ``controllers``: ``"human"`` or a bot name per seat (default: every seat human); ``seed``:
        the table's seed, 0 <= seed < 2**53 (None: a random one); the game is dealt from a secret
        seed made from it (:func:`explorer.tables.store.deal_seed`). ``creator_digest``: the digest
        of the creator link's token (it may end the table and give seats new links). ``cards``: the
        data of the card file the table plays (None: the standard cards), checked by the game and
        stored as a copy; ``card_name`` the name it was saved under (shown on the table's pages). Bad set-ups
        raise ValueError naming the problem (SetUpRefused, in every language, for a seed out of
        range or a server limit); nothing is stored.
        """
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
        spec = get_game(game)
        if cards is not None:
            if not isinstance(card_name, str) or not card_name:
                raise _refused("card_file_unnamed", SetUpRefused)
            try:
                spec = spec.with_card_file(cards)
            except InvalidPosition as error:
                raise _card_file_refused(card_name, error) from None
            cards = json.loads(json.dumps(cards))        # the table's own copy: nothing else changes it
        if type(players) is not int:
            raise ValueError(f"players must be a whole number, not {players!r}")
        try:
            spec.check_players(players)
            variants = spec.check_variants(dict(variants or {}))
        except RulesError as error:
            raise ValueError(str(error)) from None
        controllers = tuple(controllers) if controllers is not None else (HUMAN,) * players
        if len(controllers) != players:
            raise ValueError(f"{len(controllers)} seat controllers given for {players} players")
        for seat, name in enumerate(controllers):
            if name not in CONTROLLERS:
                raise ValueError(f"{player_label(seat)}: unknown controller {name!r}; choose one of {', '.join(CONTROLLERS)}")
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        if type(seed) is not int:
            raise ValueError(f"the seed must be a whole number, not {seed!r}")
        if not 0 <= seed < SEED_LIMIT:
            raise _refused("seed_range", SetUpRefused, seed=shown(seed), limit=SEED_LIMIT - 1)
        if cards is not None:
            try:        # (a file can hold too few cards for this many players: refused before anything is stored)
                spec.new_game(players, seed, variants)
            except InvalidPosition as error:
                raise _card_file_refused(card_name, error) from None
        self._check_limits(controllers)
        first = None
        tokens: dict[int, str] = {}
        if _digests is None:
            tokens = {seat: secrets.token_urlsafe(18) for seat in range(players) if controllers[seat] == HUMAN}
            digests = {seat: token_digest(token) for seat, token in tokens.items()}
        else:
            digests = {seat: digest for seat, digest in _digests.items() if controllers[seat] == HUMAN}
        with self._lock:
            self._check_limits(controllers)
            table_id = self._new_id()
            with _written("not_created", f"table {table_id} was not created"):
                self.store.create_table(table_id, game, players, seed, variants, controllers, digests,
                                        rematch_of=rematch_of, creator_digest=creator_digest,
                                        card_name=card_name if cards is not None else None, card_file=cards,
                                        rules_version=spec.version)
            record = self.store.table(table_id)
            first = spec.new_game(players, record.seed, variants)
            table = Table(record=record, spec=spec, states=[first], moves=[])
            table.start_clocks(record.created)
            self._tables[table_id] = table
        self._schedule_bots(table)
        return table, tokens

    def rematch(self, table_id: str, *, by_player: bool = False) -> Table:
        """The same game, card file, players, variants and seats (the same links' tokens) with a new random
        seed, for a table whose game was played to its end; TableError else. ``by_player``: asked from a
        seat's page (its link's holder), which may rematch a table its creator ended early too; anyone
        in the lobby may not (they would undo the creator's decision to stop it)."""
        old = self.table(table_id)
        with old.lock:
            if old.rematch is not None:
                return self.table(old.rematch)
            if not old.ended:       # (the lobby offers finished tables only; a forged request may name any)
                raise _refused("rematch_live", table=repr(old.id))
            if not old.over and not by_player:
                raise _refused("rematch_ended_early", table=repr(old.id))
            record = old.record
            table, _ = self.create(record.game, record.players, variants=record.variants,
                                   controllers=record.controllers, rematch_of=record.id,
                                   creator_digest=record.creator_digest, cards=record.card_file,
                                   card_name=record.card_name, _digests=record.token_digests)
            old.rematch = table.id
        old._notify()
        return table

    def table(self, table_id: Any) -> Table:
        """The table with this id; TableError if there is none."""
        if not isinstance(table_id, str) or not table_id:
            raise _refused("no_table_named")
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                record = self.store.table(table_id)
                if record is None:
                    raise _refused("no_such_table", table=shown(table_id, most=100))     # (whole up to 100 characters: an id is 8)
                table = self._tables[table_id] = self._replayed(record)
                table.rematch = self.store.rematch_of(table_id)
                self._schedule_bots(table)        # a table another process created: its bots play here
            return table

    def tables(self) -> list[Table]:
        """Every table of the database, newest first (finished ones are replayed on demand: slow)."""
        return [self.table(record.id) for record in self.store.tables()]

    def listing(self) -> list[dict]:
        """What the lobby lists: every table's summary, newest first. Live tables are in memory;
        ended ones are read from their stored result, never replayed (a lobby opens at once)."""
        records = self.store.tables()
        rematches = {record.rematch_of: record.id for record in records if record.rematch_of}
        summaries = []
        for record in records:
            with self._lock:
                table = self._tables.get(record.id)
            if table is None and (record.finished is None or record.final_scores is None and not record.abandoned):
                table = self.table(record.id)
            if table is not None:
                summaries.append(table.summary())
                continue
            summaries.append({    # (the game's title is the same with any card file: no file is read)
                "id": record.id, "game": record.game, "title": get_game(record.game).title,
                "card_name": record.card_name, "players": record.players,
                "controllers": list(record.controllers), "seed": record.seed, "variants": dict(record.variants),
                "abandoned": record.abandoned, "ended": record.ended, "step": None, "to_move": [],
                "over": not record.abandoned,
                "created": record.created,
                "scores": list(record.final_scores) if record.final_scores else None,
                "winners": list(record.winners) if record.winners else None,
                "rematch_of": record.rematch_of, "rematch": rematches.get(record.id), "problem": None})
        return summaries

    def seat_of(self, table_id: str, token: str | None) -> int | None:
        """The seat of ``token`` at the table; None for no token (a spectator); TableError for a wrong one."""
        table = self.table(table_id)
        if token in (None, ""):
            return None
        seat = table.seat_for(token)
        if seat is None:
            raise _refused("bad_key", table=table_id)
        return seat

    # ------------------------------------------------------------------ playing
    def act(self, table_id: str, token: str | None, seen_step: Any, action: Any) -> int:
        """A person plays ``action`` (its JSON form) on the table; returns the new step.

        ``seen_step``: how many moves the acting page had seen. Raises TableError (wrong link,
        spectator, stale page, finished game) or IllegalAction (the rules refuse, naming the rule);
        either way nothing changed.
        """
        table = self.table(table_id)
        if token in (None, ""):
            raise _refused("spectator")
        seat = table.seat_for(token)
        if seat is None:
            raise _refused("bad_key_move", table=table_id)
        if type(seen_step) is not int or seen_step < 0:
            raise _refused("bad_step", step=shown(seen_step))
        with table.lock:
            self._check_open(table)
            if seen_step > table.step:
                raise _refused("step_ahead", seen=seen_step, step=table.step)
            if seat not in table.to_move:
                reasons = {lang: text("hub.not_your_turn", lang, player=text("explorer.player", lang, n=seat + 1),
                                      waiting=("、" if lang == "ja" else ", ").join(
                                          text("explorer.player", lang, n=s + 1) for s in table.to_move))
                           for lang in LANGUAGES}
                raise IllegalAction(reasons["en"], rule=_turn_rule(table.spec.id), reasons=reasons)
            try:
                decoded = table.spec.decode_action(action)
            except RulesError:
                raise
            except Exception as error:
                raise _refused("unreadable", error=error) from None
            if seen_step < table.step and not self._still_current(table, seat, seen_step):
                raise _refused("moved_on", seen=seen_step, step=table.step)
            try:
                self._accept(table, seat, decoded)
            except IllegalAction as error:
                self._count_refusal(table, seat, error.rule)
                raise
            return table.step

    def add_note(self, table_id: str, token: str | None, step: Any, note_text: Any, *,
                 creator_token: str | None = None) -> dict:
        """Pin a note to ``step`` (0: the deal) of the table, written by the seat whose link ``token``
        is, or by the teacher (``creator_token``: the table's creator link). Returns the note once it
        is committed; then every page is told. Raises TableError (in every language), changing
        nothing: a spectator, a wrong link, a step the table has not reached, a blank or over-long
        text, a stopped table, an author who has pinned ``max_notes`` notes to it already, or a note
        the database did not commit."""
        table = self.table(table_id)
        if creator_token not in (None, ""):
            if not self.is_creator(table_id, creator_token):
                raise _refused("not_creator", table=table_id)
            author: int | str = TEACHER
        else:
            if token in (None, ""):
                raise _refused("note_spectator")
            seat = table.seat_for(token)
            if seat is None:
                raise _refused("bad_key_note", table=table_id)
            author = seat
        with table.lock:
            if table.problem:
                raise _refused("note_frozen", table=table.id, problem=table.problem)
            try:
                step, cleaned = check_note(step, note_text, table.step)
            except NoteRefused as refusal:
                raise TableError(refusal.texts["en"], refusal.texts) from None
            if sum(1 for note in table.notes if note["seat"] == author) >= self.max_notes:
                raise _refused("too_many_notes", table=table.id, limit=self.max_notes)
            with _written("note_not_recorded", f"table {table.id}: a note on step {step} was not recorded"):
                note = self.store.append_note(table.id, step, author, cleaned)
            table.notes.append(note)
        table._notify()
        return note

    def visible_notes(self, table_id: str, viewer: int | None) -> list[dict]:
        """The table's notes ``viewer`` (a seat, None: a spectator) may read (:meth:`Table.visible_notes`)."""
        table = self.table(table_id)
        with table.lock:
            return table.visible_notes(viewer)

    def is_creator(self, table_id: str, token: str | None) -> bool:
        """Whether ``token`` is the table's creator token (compared in constant time)."""
        digest = self.table(table_id).record.creator_digest
        return bool(digest and isinstance(token, str) and token
                    and hmac.compare_digest(token_digest(token), digest))

    def creator_table(self, table_id: str, token: str | None) -> Table:
        """The table, for its creator's link; TableError for any other link."""
        if not self.is_creator(table_id, token):
            raise _refused("not_creator", table=table_id)
        return self.table(table_id)

    def abandon(self, table_id: str, creator_token: str | None = None, *, operator: bool = False) -> Table:
        """End the table before its game is over (its creator, or the operator with ``operator=True``):
        no more moves, its bots stop, its replay becomes public. Ending an ended table changes nothing."""
        table = self.table(table_id) if operator else self.creator_table(table_id, creator_token)
        with table.lock:
            if not table.ended:
                with _written("not_ended", f"table {table.id} was not ended"):
                    self.store.abandon(table.id)
                table.record = self.store.table(table.id)
        table._notify()
        return table

    def new_seat_link(self, table_id: str, creator_token: str | None, seat: Any) -> str:
        """The creator gives human seat ``seat`` a new token (returned, never stored); the old one stops
        working, also in pages open on it (told, like every listener: they close the table)."""
        table = self.creator_table(table_id, creator_token)
        if type(seat) is not int or seat not in table.record.token_digests:
            raise _refused("no_such_seat", table=table_id, seat=shown(seat))
        token = secrets.token_urlsafe(18)
        with table.lock:
            with _written("link_not_stored", f"table {table.id}: {player_label(seat)}'s new link was not stored"):
                self.store.set_seat_digest(table.id, seat, token_digest(token))
            table.record = self.store.table(table.id)
        table._notify()
        return token

    def subscribe(self, table_id: str, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change of the table (from any thread); returns the unsubscriber."""
        table = self.table(table_id)
        key = next(self._listener_ids)
        table.listeners[key] = callback
        return lambda: table.listeners.pop(key, None)

    def close(self) -> None:
        """Stop the bots' timers and close the database (tests, benchmarks). A bot's turn under way
        is let finish first (its table's lock): closing under it refused its move as "not recorded"."""
        with self._lock:
            self._closed = True
            for timer in list(self._timers):
                timer.cancel()
            tables = list(self._tables.values())
        for table in tables:
            with table.lock:                # (a turn that starts now sees _closed and plays nothing)
                pass
        self.store.close()

    # ------------------------------------------------------------------ internals
    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(4)
            if table_id not in self._tables and self.store.table(table_id) is None:
                return table_id

    def _check_limits(self, controllers: Sequence[str]) -> None:
        """Refuse a table over the server's limits (live tables, bot-only tables, MCTS seats), counting
        live tables."""
        with self._lock:
            live = [t for t in self._tables.values() if not t.ended and not t.problem]
        if len(live) + 1 > self.max_tables:
            raise _refused("too_many_tables", SetUpRefused, limit=self.max_tables)
        if all(name != HUMAN for name in controllers):
            bot_only = sum(all(name != HUMAN for name in t.record.controllers) for t in live)
            if bot_only + 1 > self.max_bot_tables:
                raise _refused("too_many_bot_tables", SetUpRefused, limit=self.max_bot_tables)
        wanted = sum(name == "mcts" for name in controllers)
        if wanted:
            used = sum(name == "mcts" for t in live for name in t.record.controllers)
            if used + wanted > self.max_mcts_seats:
                raise _refused("too_many_mcts_seats", SetUpRefused, limit=self.max_mcts_seats, used=used)

    def notice_end(self, table_id: str) -> bool:
        """Whether the table was ended early; one the operator ended from the command line (another
        process: ``rules-explorer tables abandon``) is read again, and every page of it told. Cheap:
        asked before every move and by each open page of the table every few seconds."""
        table = self.table(table_id)
        with table.lock:
            if table.record.abandoned:
                return True
            if not self.store.ended(table.id):
                return False
            table.record = self.store.table(table.id)
        table._notify()
        return True

    def _check_open(self, table: Table) -> None:
        if table.problem:
            raise _refused("frozen", table=table.id, problem=table.problem)
        if self.notice_end(table.id):
            raise _refused("abandoned", table=table.id)
        if table.over:
            raise _refused("over", table=table.id)

    def _still_current(self, table: Table, seat: int, seen_step: int) -> bool:
        """A page behind the table may act only if the moves since were others' and its choices stand."""
        spec = table.spec
        if any(mover == seat for mover, _ in table.moves[seen_step:]):
            return False
        seen = table.states[seen_step]
        if seat not in spec.to_move(seen):
            return False
        return spec.legal_actions(seen, seat) == spec.legal_actions(table.state, seat)

    def _count_refusal(self, table: Table, seat: int, rule: str) -> None:
        """Keep a move the rules refused a person (telemetry: a failure to write is only logged)."""
        try:
            self.store.append_refusal(table.id, table.step + 1, seat, rule)
        except WriteError as error:
            log.error("table %s: a refused move was not counted: %s", table.id, error)

    def _accept(self, table: Table, seat: int, action) -> None:
        """Apply, commit, then keep and tell (the caller holds the table's lock)."""
        spec = table.spec
        new_state = spec.apply(table.state, seat, action)     # IllegalAction: nothing happened
        now = time.time()
        since = table.turn_since.get(seat)
        decision = round(max(0.0, now - since), 3) if since is not None and table.controller(seat) == HUMAN else None
        with _written("not_recorded", f"table {table.id}: move {table.step + 1} was not recorded"):
            self.store.append_move(table.id, table.step + 1, seat, spec.encode_action(action), decision=decision)
        before = set(table.to_move)
        table.moves.append((seat, action))
        table.states.append(new_state)
        table.bot_run = table.bot_run + 1 if table.controller(seat) != HUMAN else 0
        # A seat's clock starts when it becomes a mover (again, after its own move); a seat still
        # choosing in a simultaneous phase keeps its own.
        table.turn_since = {s: now if s == seat or s not in before else table.turn_since.get(s, now)
                            for s in table.to_move}
        if spec.is_over(new_state):
            self._store_result(table)
        table._notify()
        self._schedule_bots(table)

    def _store_result(self, table: Table) -> None:
        """Write the final scores and winners (the lobby reads them); a failure is only logged: the
        move is committed, and the result is written again when the table is next restored."""
        spec = table.spec
        try:
            self.store.finish(table.id, spec.scores(table.state), spec.winners(table.state))
            table.record = self.store.table(table.id)
        except WriteError as error:
            log.error("table %s: the result was not recorded (written at the next start): %s", table.id, error)

    def _schedule_bots(self, table: Table, delay: float | None = None) -> None:
        if self._closed or table.problem or table.ended:
            return
        if not any(table.controller(seat) != HUMAN for seat in table.to_move):
            return
        timer = threading.Timer(self.bot_delay if delay is None else delay, self._bot_turn, (table, table.step))
        timer.daemon = True
        with self._lock:
            self._timers.add(timer)
        timer.start()

    def _bot_turn(self, table: Table, step: int) -> None:
        try:
            with table.lock:
                if self._closed or table.step != step or table.ended or table.problem:
                    return            # somebody moved meanwhile; that move scheduled what follows
                if self.store.ended(table.id):          # the operator ended it from the command line
                    table.record = self.store.table(table.id)
                    table._notify()
                    return
                if table.bot_run >= bot_run_limit(table.record.controllers, self.bot_limits):
                    self._end_endless(table)
                    return
                seat = next(s for s in table.to_move if table.controller(s) != HUMAN)
                action = bot_move(table.controller(seat), table.spec, table.state, seat, table.record.seed, step)
                self._accept(table, seat, action)
        except WriteRefused:
            self._schedule_bots(table, self.retry_delay)      # the same move is chosen again (same seed)
        except Exception:
            log.exception("table %s: the bot could not move at step %s", table.id, step)
        finally:
            with self._lock:
                self._timers = {t for t in self._timers if t.is_alive() and t is not threading.current_thread()}

    def _end_endless(self, table: Table) -> None:
        """End a table whose bots made their limit of moves in a row and whose game did not end (the
        caller holds its lock). WriteRefused if the store does not take it: tried again at the next turn."""
        with _written("not_ended", f"table {table.id} was not ended"):
            self.store.abandon(table.id, ENDLESS)
        table.record = self.store.table(table.id)
        log.warning("table %s: its bots made %s moves in a row and the game did not end: the table is ended",
                    table.id, table.bot_run)
        table._notify()

    def _replayed(self, record: TableRecord) -> Table:
        """A stored table brought back: its log replayed from the seed (a bad log freezes it, losing nothing)."""
        moves: list[tuple[int, Any]] = []
        problem = None
        try:
            spec = table_spec(record)
        except RulesError as error:       # (a copy the game no longer reads: the table stays, frozen)
            spec = get_game(record.game).recorded(record.rules_version)
            problem = f"its card file {record.card_name!r} no longer reads: {error}"
        states = [spec.new_game(record.players, record.seed, record.variants)]
        for step, (seat, data) in enumerate([] if problem else self.store.moves(record.id), start=1):
            try:
                action = spec.decode_action(data)
                states.append(spec.apply(states[-1], seat, action))
            except (RulesError, ValueError, KeyError, TypeError) as error:
                # (Every seat and the lobby read the problem: the move, maybe a hidden choice, and the
                # refusal, which may name the card, go to the server's log only.)
                log.error("table %s: stored move %s (%s: %s) no longer replays: %s", record.id, step,
                          player_label(seat), data, error)
                problem = f"stored move {step} ({player_label(seat)}) no longer replays (the server's log says why)"
                break
            moves.append((seat, action))
        run = sum(1 for _ in takewhile(lambda move: record.controllers[move[0]] != HUMAN, reversed(moves)))
        table = Table(record=record, spec=spec, states=states, moves=moves, problem=problem,
                      notes=self.store.notes(record.id), bot_run=run)
        table.start_clocks(self.store.last_move_at(record.id) or record.created)
        if problem is None and table.over and (record.finished is None or record.final_scores is None):
            # The process died between the last move and writing the result.
            self._store_result(table)
        return table

    def _restore(self) -> list[str]:
        """Replay every unfinished table (and note rematches); their bots carry on. Returns their ids."""
        restored = []
        records = self.store.tables()
        for record in records:
            if record.finished is None:
                self._tables[record.id] = table = self._replayed(record)
                restored.append(record.id)
                self._schedule_bots(table)
        for record in records:       # (a finished table learns of its rematch when it is read: table())
            if record.rematch_of in self._tables:
                self._tables[record.rematch_of].rematch = record.id
        return restored


_HUBS: dict[Path, TableHub] = {}
_HUBS_LOCK = threading.Lock()


def db_path_from_args(argv: list[str] | None = None) -> str | None:
    """``panel serve ... --args --db FILE`` (``rules-explorer serve --db FILE``): the database file, or None (the default)."""
    argv = sys.argv if argv is None else argv
    if "--db" in argv:
        index = argv.index("--db")
        if index + 1 < len(argv):
            return argv[index + 1]
    return None



def get_hub(path: str | os.PathLike | None = None) -> TableHub:
    """The process's hub for ``path`` (default: :func:`explorer.tables.store.default_path`), made once."""
    key = Path(path or default_path()).expanduser().resolve()
    with _HUBS_LOCK:
        hub = _HUBS.get(key)
        if hub is None:
            hub = _HUBS[key] = TableHub(key)
        return hub

