"""``rules-explorer``: the whole command line (docs/architecture.md, "Command line"; the console script).

``play/cli.py`` has the commands that need no web app (games · play · replay · score · simulate ·
compare); this module adds ``serve`` (the routes of ``explorer/pages/serve.py``) and ``tables`` (the
playtest tables' database: list, export, end one). Errors print one clear line and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from explorer.pages.serve import ROUTES, serve_command
from explorer.tables import telemetry
from explorer.tables.hub import table_spec
from explorer.tables.store import ENDLESS, StoreError, TableStore, default_path
from play import cli as play_cli
from play.cli import write_out
from rules import replay as replays
from rules.protocol import RulesError


def cmd_serve(args) -> int:
    """Serve the explorer, analysis, tables, rules and tutorial pages (the same as ``make serve``)."""
    command = serve_command(args)
    env = dict(os.environ)
    for flag, variable in (("max_tables", "RULES_EXPLORER_MAX_TABLES"),
                           ("max_notes", "RULES_EXPLORER_MAX_NOTES"),
                           ("max_bot_tables", "RULES_EXPLORER_MAX_BOT_TABLES"),
                           ("max_mcts_seats", "RULES_EXPLORER_MAX_MCTS_SEATS"),
                           ("max_mcts_runs", "RULES_EXPLORER_MAX_MCTS_RUNS"),
                           ("max_analysis_runs", "RULES_EXPLORER_MAX_ANALYSIS_RUNS"),
                           ("max_advice_runs", "RULES_EXPLORER_MAX_ADVICE_RUNS")):
        value = getattr(args, flag)
        if value is not None:
            if value < 0:
                raise RulesError(f"--{flag.replace('_', '-')} must be 0 or more, not {value}")
            env[variable] = str(value)
    try:        # a database that cannot be used, or that another server holds, is named here
        TableStore(args.db or default_path(), exclusive=True).close()
    except StoreError as error:
        raise RulesError(str(error)) from None
    base = f"http://{args.address}:{args.port}"
    print("serving " + ", ".join(f"{base}/{name}" for name in ROUTES), flush=True)
    # The server replaces this process (stopping `rules-explorer serve` stops the server; nothing is left behind).
    os.execve(sys.executable, command, env)
    return 0


def cmd_tables(args) -> int:
    """List the playtest tables of a database file, export one game as a replay file, or end one."""
    path = Path(args.db) if args.db else default_path()
    if not path.exists():
        raise RulesError(f"no tables database at {path}")
    try:
        store = TableStore(path, read_only=args.action != "abandon")
        return _tables(args, store, path)
    except StoreError as error:
        raise RulesError(str(error)) from None


def _tables(args, store, path: Path) -> int:
    try:
        if args.action == "list":
            counts = store.move_counts()
            # (a live table's deal seed is not listed: output gets pasted; `export` gives it to the operator)
            tables = [{"id": r.id, "game": r.game, "players": r.players,
                       "seed": r.seed if r.finished is not None else None, "variants": r.variants,
                       "controllers": list(r.controllers), "moves": counts.get(r.id, 0), "finished": r.finished is not None,
                       "abandoned": r.abandoned, "ended": r.ended, "final_scores": r.final_scores, "winners": r.winners,
                       "rematch_of": r.rematch_of}
                      for r in store.tables()]
            if args.json:
                print(json.dumps(tables, indent=1))
            for t in [] if args.json else tables:
                state = ("ended by its bots: the game did not end" if t["ended"] == ENDLESS else
                         "ended early" if t["abandoned"] else
                         f"over, scores {', '.join(map(str, t['final_scores']))}" if t["finished"] else "open")
                print(f"{t['id']}  {t['game']:<12} {t['players']} players  {t['moves']:>5} moves  {state}")
            return 0
        if args.action == "telemetry":
            return _telemetry(args, store, path)
        if not args.table:
            raise RulesError(f"tables {args.action} needs a table id (see `rules-explorer tables list`)")
        record = store.table(args.table)
        if record is None:
            raise RulesError(f"there is no table {args.table!r} in {path}")
        if args.action == "abandon":
            if record.finished is not None:
                raise RulesError(f"table {record.id} has already ended")
            store.abandon(record.id)       # a running server refuses the table's next move, its bots stop
            print(f"table {record.id} ended: no more moves; its replay can now be reviewed")
            return 0
        game = table_spec(record)       # with the table's own card file (the replay carries it)
        moves = [(seat, game.decode_action(action)) for seat, action in store.moves(record.id)]
        notes = store.notes(record.id)
        data = replays.record(game, record.players, record.seed, record.variants, moves, notes=notes,
                              state=game.new_game(record.players, record.seed, record.variants))
        text = json.dumps(data, indent=1)
        if args.out:
            write_out(args.out, text + "\n")
            print(f"wrote {len(moves)} moves and {len(notes)} notes of table {record.id} to {args.out}")
        else:
            print(text)
        return 0
    finally:
        store.close()


def _telemetry(args, store, path: Path) -> int:
    """``tables telemetry [ID] [--csv] [--out FILE]``: decision times per seat and refused moves by
    rule, of one table or of every table (then also which rules people trip over most, and each
    game's time per decision)."""
    if args.table and store.table(args.table) is None:
        raise RulesError(f"there is no table {args.table!r} in {path}")
    if args.csv or args.json:
        if args.json:
            ids = [args.table] if args.table else [record.id for record in store.tables()]
            out = json.dumps({"seats": [row for each in ids for row in telemetry.table_summary(store, each)],
                              "rules": telemetry.rule_summary(store, args.table),
                              "decisions": [row for each in ids for row in telemetry.decision_rows(store, each)],
                              "times": telemetry.time_summary(store, args.table)}, indent=1)
        else:
            out = telemetry.csv_text(store, args.table)
        if args.out:
            write_out(args.out, out if out.endswith("\n") else out + "\n")
            print(f"wrote the telemetry of {'table ' + args.table if args.table else 'every table'} to {args.out}")
        else:
            print(out, end="" if out.endswith("\n") else "\n")
        return 0
    ids = [args.table] if args.table else [record.id for record in store.tables()]
    for each in ids:
        for row in telemetry.table_summary(store, each):
            times = (f"median {row['median_seconds']:.1f}s, mean {row['mean_seconds']:.1f}s over {row['decisions']} decisions"
                     if row["decisions"] else "no timed decisions")
            rules = ", ".join(f"{rule} ×{count}" for rule, count in row["by_rule"].items()) or "none"
            print(f"{row['table']}  {row['game']:<12} Player {row['seat'] + 1} ({row['controller']}): {times}; "
                  f"refused: {rules}")
    if not args.table:
        print("rules people trip over most:")
        for row in telemetry.rule_summary(store)[:20] or [{"game": "-", "rule": "no refused moves yet", "refusals": 0,
                                                           "tables": 0, "seats": 0}]:
            print(f"  {row['refusals']:>5}  {row['game']:<12} {row['rule']}  ({row['tables']} tables, {row['seats']} seats)")
        print("time per decision, per game (and per player count):")
        game_times = telemetry.time_summary(store)
        for row in game_times:
            count = "all counts" if row["players"] is None else f"{row['players']} players"
            print(f"  {row['game']:<12} {count:<10}  median {row['median_seconds']:.1f}s, mean {row['mean_seconds']:.1f}s"
                  f" over {row['decisions']} decisions ({row['tables']} tables, {row['seats']} seats)")
        if not game_times:
            print("  no timed decisions yet")
    return 0


def add_commands(sub) -> None:
    """``serve`` and ``tables``, added to ``play``'s subcommands."""
    p = sub.add_parser("serve", help="serve the web app (explorer, analysis, playtest tables, rules, tutorials)",
                       epilog="Anything after -- goes to `panel serve` as it is (e.g. -- --basic-auth FILE "
                              "--cookie-secret S, or --oauth-provider ...).")
    p.add_argument("--address", default="127.0.0.1", help="the address to listen on (0.0.0.0: every network)")
    p.add_argument("--port", type=int, default=5006)
    p.add_argument("--allow-origin", action="append", metavar="HOST[:PORT]",
                   help="an address players' browsers use (repeatable; needed with --address 0.0.0.0)")
    p.add_argument("--use-xheaders", action="store_true",
                   help="behind a reverse proxy: trust X-Forwarded-Proto/For (seat links become https://)")
    p.add_argument("--db", metavar="FILE", help="the playtest tables' database (default: the user's data directory)")
    p.add_argument("--max-tables", type=int, metavar="N", help="live playtest tables in all (default 200)")
    p.add_argument("--max-bot-tables", type=int, metavar="N", help="live tables of bots only (default 4)")
    p.add_argument("--max-notes", type=int, metavar="N", help="notes each person may pin to a table (default 100)")
    p.add_argument("--max-mcts-seats", type=int, metavar="N", help="MCTS seats over all live tables (default 8)")
    p.add_argument("--max-mcts-runs", type=int, metavar="N",
                   help="explorer pages whose MCTS bots play at once (default 4)")
    p.add_argument("--max-analysis-runs", type=int, metavar="N",
                   help="analysis runs at once, over all analysis pages (default 2)")
    p.add_argument("--max-advice-runs", type=int, metavar="N",
                   help="move advice worked out at once, over all explorer pages (default 2)")
    p.add_argument("panel_args", nargs="*", metavar="-- PANEL_ARGS", help=argparse.SUPPRESS)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("tables", help="list playtest tables, export one game as a replay file (with its notes), "
                                      "end one, or sum up their telemetry")
    p.add_argument("action", choices=("list", "export", "abandon", "telemetry"))
    p.add_argument("table", nargs="?", help="the table id (export, abandon; telemetry: one table, else all)")
    p.add_argument("--db", metavar="FILE", help="the tables' database (default: the user's data directory)")
    p.add_argument("--out", metavar="REPLAY.json")
    p.add_argument("--json", action="store_true")
    p.add_argument("--csv", action="store_true",
                   help="telemetry: as CSV (a row per seat, per rule refused, per decision, per game's time per decision)")
    p.set_defaults(run=cmd_tables)


def build_parser() -> argparse.ArgumentParser:
    return play_cli.build_parser(extend=add_commands)


def main(argv: list[str] | None = None) -> int:
    return play_cli.main(argv, parser=build_parser())


if __name__ == "__main__":
    sys.exit(main())
