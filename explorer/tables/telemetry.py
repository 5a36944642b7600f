"""What the playtest tables measured, summed up for a designer (issue #24, item 4).

The hub stores, per table (:mod:`explorer.tables.store`, schema 3): the seconds each person's seat
took per decision (from when it could move to its move, on the server's clock) and every move the
rules refused a person, by the refusal's rule. This module reads them back:

- :func:`table_summary`: per seat of one table: decisions, median and mean seconds, refusals by rule;
- :func:`decision_rows`: every timed decision of one table: its seat, move number, the kind of action
  it was (the action's ``type``, from the stored move) and its seconds;
- :func:`rule_summary`: across tables, per game and rule: how many refusals, at how many tables,
  by how many seats (the rules people trip over most first);
- :func:`time_summary`: across tables, per game (and per player count): decisions, median and mean
  seconds per decision;
- :func:`csv_text`: all of it as CSV (the table page's download, the lobby's, ``rules-explorer tables
  telemetry --csv``).

The store keeps no game phase, so a decision is told apart only by its action's kind.
"""

from __future__ import annotations

import csv
import io
import statistics
from collections import Counter, defaultdict

from explorer.tables.store import TableStore

#: The CSV's columns, per kind of row (``kind`` is the first column of every row).
SEAT_COLUMNS = ("kind", "table", "game", "player", "decisions", "median_seconds", "mean_seconds", "refusals",
                "refusals_by_rule")
RULE_COLUMNS = ("kind", "game", "rule", "refusals", "tables", "seats")
DECISION_COLUMNS = ("kind", "table", "game", "player", "step", "action_type", "seconds")
TIME_COLUMNS = ("kind", "game", "players", "decisions", "tables", "seats", "median_seconds", "mean_seconds")


def table_summary(store: TableStore, table_id: str) -> list[dict]:
    """One row per seat of the table (``seat`` 0-based): ``decisions`` (timed moves), ``median_seconds``
    and ``mean_seconds`` (None without any), ``refusals`` and ``by_rule`` ({rule: count}, most first).
    Raises KeyError for an unknown table."""
    record = store.table(table_id)
    if record is None:
        raise KeyError(f"there is no table {table_id!r} in {store.path}")
    times: dict[int, list[float]] = defaultdict(list)
    for _, _, seat, seconds in store.decisions(table_id):
        times[seat].append(seconds)
    rules: dict[int, Counter] = defaultdict(Counter)
    for _, _, seat, rule, _ in store.refusals(table_id):
        rules[seat][rule] += 1
    rows = []
    for seat in range(record.players):
        taken = times.get(seat, [])
        refused = rules.get(seat, Counter())
        rows.append({"table": table_id, "game": record.game, "seat": seat, "controller": record.controllers[seat],
                     "decisions": len(taken),
                     "median_seconds": round(statistics.median(taken), 3) if taken else None,
                     "mean_seconds": round(statistics.fmean(taken), 3) if taken else None,
                     "refusals": sum(refused.values()), "by_rule": dict(refused.most_common())})
    return rows


def decision_rows(store: TableStore, table_id: str) -> list[dict]:
    """Every timed decision of the table in move order: ``table``, ``game``, ``seat`` (0-based), ``step``
    (the move's number, 1-based, as stored), ``action_type`` (the stored action's ``type``; "" if it
    has none) and ``seconds``. Raises KeyError for an unknown table."""
    record = store.table(table_id)
    if record is None:
        raise KeyError(f"there is no table {table_id!r} in {store.path}")
    moves = store.moves(table_id)
    rows = []
    for _, step, seat, seconds in store.decisions(table_id):
        action = moves[step - 1][1] if 0 < step <= len(moves) else None
        kind = action.get("type") if isinstance(action, dict) else None
        rows.append({"table": table_id, "game": record.game, "seat": seat, "step": step,
                     "action_type": kind if isinstance(kind, str) else "", "seconds": seconds})
    return rows


def rule_summary(store: TableStore, table_id: str | None = None, *, ended_only: bool = False) -> list[dict]:
    """Across every table (or one; ``ended_only``: every table that has ended): per game and rule,
    ``refusals``, ``tables`` and ``seats`` (distinct table seats) that tripped over it, most refusals
    first (then by game and rule)."""
    games = {record.id: record.game for record in store.tables() if record.finished is not None or not ended_only}
    counts: Counter = Counter()
    tables: dict[tuple, set] = defaultdict(set)
    seats: dict[tuple, set] = defaultdict(set)
    for each, _, seat, rule, _ in store.refusals(table_id):
        if each not in games:
            continue
        key = (games.get(each, "?"), rule)
        counts[key] += 1
        tables[key].add(each)
        seats[key].add((each, seat))
    return [{"game": game, "rule": rule, "refusals": count, "tables": len(tables[(game, rule)]),
             "seats": len(seats[(game, rule)])}
            for (game, rule), count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def time_summary(store: TableStore, table_id: str | None = None, *, ended_only: bool = False) -> list[dict]:
    """Across every table (or one; ``ended_only``: every table that has ended): per game, its timed
    decisions with their ``median_seconds`` and ``mean_seconds``, and the ``tables`` and ``seats``
    (distinct table seats) they came from: a row with ``players`` None (every player count), then one
    per player count played, fewest players first; games in id order. A game without any timed
    decision (bots only) has no row."""
    records = {record.id: record for record in store.tables() if record.finished is not None or not ended_only}
    times: dict[tuple, list[float]] = defaultdict(list)
    tables: dict[tuple, set] = defaultdict(set)
    seats: dict[tuple, set] = defaultdict(set)
    for each, _, seat, seconds in store.decisions(table_id):
        record = records.get(each)
        if record is None:
            continue
        for key in ((record.game, None), (record.game, record.players)):
            times[key].append(seconds)
            tables[key].add(each)
            seats[key].add((each, seat))
    return [{"game": game, "players": players, "decisions": len(times[(game, players)]),
             "tables": len(tables[(game, players)]), "seats": len(seats[(game, players)]),
             "median_seconds": round(statistics.median(times[(game, players)]), 3),
             "mean_seconds": round(statistics.fmean(times[(game, players)]), 3)}
            for game, players in sorted(times, key=lambda key: (key[0], key[1] or 0))]


def csv_text(store: TableStore, table_id: str | None = None, *, ended_only: bool = False) -> str:
    """The telemetry as CSV: a ``seat`` row per seat of the table (of every table when ``table_id`` is
    None; ``ended_only``: of every table that has ended, as the lobby gives it to anybody), then a
    ``rule`` row per game and rule refused (of that table, or across all), then a ``decision`` row per
    timed decision of those tables, then a ``time`` row per game (``players`` empty: every player
    count) and per game and player count. Every row starts with its kind; each kind has its own header
    row (:data:`SEAT_COLUMNS`, :data:`RULE_COLUMNS`, :data:`DECISION_COLUMNS`, :data:`TIME_COLUMNS`),
    in that order (the first two kinds as they always were). ``refusals_by_rule`` is ``rule=count``
    pairs joined by ``; ``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SEAT_COLUMNS)
    ids = [table_id] if table_id else [record.id for record in sorted(store.tables(), key=lambda r: (r.created, r.id))
                                       if record.finished is not None or not ended_only]
    for each in ids:
        for row in table_summary(store, each):
            writer.writerow(["seat", row["table"], row["game"], row["seat"] + 1, row["decisions"],
                             _number(row["median_seconds"]), _number(row["mean_seconds"]), row["refusals"],
                             "; ".join(f"{rule}={count}" for rule, count in row["by_rule"].items())])
    writer.writerow(RULE_COLUMNS)
    rules = rule_summary(store, table_id, ended_only=ended_only)
    for row in rules:
        writer.writerow(["rule", row["game"], row["rule"], row["refusals"], row["tables"], row["seats"]])
    writer.writerow(DECISION_COLUMNS)
    for each in ids:
        for row in decision_rows(store, each):
            writer.writerow(["decision", row["table"], row["game"], row["seat"] + 1, row["step"], row["action_type"],
                             _number(row["seconds"])])
    writer.writerow(TIME_COLUMNS)
    for row in time_summary(store, table_id, ended_only=ended_only):
        writer.writerow(["time", row["game"], "" if row["players"] is None else row["players"], row["decisions"],
                         row["tables"], row["seats"], _number(row["median_seconds"]), _number(row["mean_seconds"])])
    return out.getvalue()


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"
