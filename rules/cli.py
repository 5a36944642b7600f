"""``rules-explorer``: the command line (DESIGN.md, "Command line").

games · play · replay · score · simulate · compare · serve · tables. Errors in files or arguments print one clear line
and exit with status 2; nothing is written when something is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path

from rules import replay as replays
from rules.bots import BOTS
from rules.protocol import RulesError, dumps
from rules.registry import GAMES, get_game
from rules.simulate import Progress, play_game, simulate
from rules.sweep import DEFAULT_CHUNK, compare, simulate_sweep


def parse_variants(game, items: list[str] | None) -> dict:
    """``--variant disturbance`` switches a boolean on; ``--variant name=value`` sets any value."""
    chosen = {}
    for item in items or []:
        name, _, value = item.partition("=")
        variant = game.variant(name)
        if not value:
            chosen[name] = True
        elif isinstance(variant.default, bool):
            if value.lower() not in ("true", "false", "on", "off", "1", "0"):
                raise RulesError(f"variant {name} is on or off, not {value!r}")
            chosen[name] = value.lower() in ("true", "on", "1")
        else:
            chosen[name] = type(variant.default)(value)
    return game.check_variants(chosen)


def parse_bots(text: str, players: int) -> list[str]:
    bots = [b.strip() for b in text.split(",") if b.strip()]
    for bot in bots:
        if bot not in BOTS:
            raise RulesError(f"unknown bot {bot!r}; bots: {', '.join(BOTS)}")
    if len(bots) not in (1, players):
        raise RulesError(f"give one bot for everyone or one per seat ({players}), not {len(bots)}")
    return bots


def write_out(path: str, text: str) -> None:
    """Write ``--out``; a folder that does not exist (or any other refusal) is one clear RulesError."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise RulesError(f"cannot write {path}: {error.strerror or error}") from None


def cmd_games(args) -> int:
    specs = [get_game(name).describe() for name in GAMES]
    if args.json:
        print(json.dumps(specs, indent=1, ensure_ascii=False))
        return 0
    for spec in specs:
        counts = ", ".join(map(str, spec["player_counts"]))
        print(f"{spec['id']}  {spec['title']} {spec['version']}  players: {counts}")
        for v in spec["variants"]:
            print(f"    --variant {v['name']}  (default {v['default']}) {v['description']}  [{v['source']}]")
    return 0


def game_with_cards(args):
    """The registered game, or the same game with the card file given by ``--cards``."""
    game = get_game(args.game)
    if getattr(args, "cards", None):
        game = game.with_card_file(replays.load(args.cards))
    return game


def cmd_play(args) -> int:
    game = game_with_cards(args)
    players = game.check_players(args.players)
    variants = parse_variants(game, args.variant)
    bots = parse_bots(args.bots, players)
    state, result, actions = play_game(game, players, args.seed, bots, variants, keep_actions=True)
    data = replays.record(game, players, args.seed, variants, actions, state=state)
    if args.out:
        write_out(args.out, dumps(data))
    if args.json:
        print(json.dumps({"scores": list(result.scores), "winners": list(result.winners), "decisions": result.decisions}))
    else:
        # Teacher's view of the whole game: every event, hidden draws included.
        _, states = replays.states(data)
        for state_ in states:
            for event in game.events(state_):
                print(event.text)
        _print_scores(game, state)
        if args.out:
            print(f"replay written to {args.out}")
    return 0


def _print_scores(game, state) -> None:
    scores = game.scores(state)
    winners = game.winners(state)
    for seat, breakdown in enumerate(game.score_breakdown(state)):
        mark = "  winner" if seat in winners else ""
        parts = ", ".join(f"{c['category']} {c['points']}" for c in breakdown["categories"]) or "nothing scored"
        print(f"Player {seat + 1}: {scores[seat]} points ({parts}){mark}")


def cmd_replay(args) -> int:
    game, state = replays.final_state(replays.load(args.file))
    if args.json:
        print(json.dumps({"game": game.id, "over": game.is_over(state), "scores": list(game.scores(state)),
                          "winners": list(game.winners(state))}))
        return 0
    status = "finished" if game.is_over(state) else "not finished (scores are provisional)"
    print(f"{game.title}: replay verified, game {status}.")
    _print_scores(game, state)
    return 0


def cmd_score(args) -> int:
    game, state = replays.decode_position(replays.load(args.file))
    if args.json:
        print(json.dumps(game.score_breakdown(state), indent=1, ensure_ascii=False))
        return 0
    for breakdown in game.score_breakdown(state):
        print(f"Player {breakdown['seat'] + 1}: {breakdown['total']} points")
        for c in breakdown["categories"]:
            print(f"    {c['category']:<16} {c['points']:>4}  {c['detail']}")
        for key in ("journal_cards",):
            if key in breakdown:
                print(f"    tie-break: {breakdown[key]} journal cards")
    return 0


def cmd_simulate(args) -> int:
    game = game_with_cards(args)
    players = game.check_players(args.players)
    variants = parse_variants(game, args.variant)
    bots = parse_bots(args.bot, players)
    if args.games < 1:
        raise RulesError("--games must be at least 1")
    if args.workers < 1:
        raise RulesError("--workers must be at least 1")
    if args.workers > 1 or args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS"):
        return _simulate_sweep(args, game, players, variants, bots)
    bar = Progress(args.games, enabled=False if args.json else None)
    summary = simulate(game.id, players, args.games, args.seed, bots=bots, variants=variants, progress=bar.update, game=game)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"{game.title}, {players} players, {summary['games']} games from seed {args.seed}, bots {','.join(bots)}"
          + (f", variants {variants}" if any(variants.values()) else ""))
    for seat in summary["seats"]:
        print(f"  Player {seat['seat'] + 1}: mean {seat['mean_score']:.1f} (min {seat['min_score']}, "
              f"median {seat['median_score']}, max {seat['max_score']}), win share {seat['win_share']:.1%}")
    print(f"  shared wins: {summary['shared_wins']}, decisions per game: {summary['mean_decisions']}")
    print(f"  {summary['elapsed_s']:.2f} s, {summary['games_per_s']:,.0f} games/s")
    return 0


def _executor(args) -> str:
    if args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS"):
        return "dask"
    return "processes" if args.workers > 1 else "inprocess"


def _bar(args, total: int) -> tuple[Progress, object]:
    bar = Progress(total, enabled=False if args.json else None)
    return bar, lambda done, _chunks: bar.update(done)


def _ci(stat: dict, digits: int = 1) -> str:
    if stat["mean"] is None:
        return "n/a"
    if stat["low"] is None:
        return f"{stat['mean']:.{digits}f}"
    return f"{stat['mean']:.{digits}f} [{stat['low']:.{digits}f}, {stat['high']:.{digits}f}]"


def _rate(stat: dict) -> str:
    return "n/a" if stat["rate"] is None else f"{stat['rate']:.1%} [{stat['low']:.1%}, {stat['high']:.1%}]"


def _print_setting(stats: dict, indent: str = "  ") -> None:
    for seat in stats["seats"]:
        print(f"{indent}Player {seat['seat'] + 1}: score {_ci(seat['score'])}, win rate {_rate(seat['win_rate'])}")
    first = stats["first_player_advantage"]
    print(f"{indent}first player: win rate {_rate(first['win_rate'])} against a fair {first['fair_share']:.1%}"
          + (" (significant)" if first["significant"] else ""))
    print(f"{indent}game length: {_ci(stats['game_length'])} decisions; score spread: {_ci(stats['score_spread'])}")


def _simulate_sweep(args, game, players, variants, bots) -> int:
    bar, progress = _bar(args, args.games)
    summary = simulate_sweep(game.id, players, args.games, args.seed, bots=bots, variants=variants,
                             executor=_executor(args), workers=args.workers, scheduler=args.scheduler,
                             chunk=args.chunk, progress=progress, game=game)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"{game.title}, {players} players, {summary['games']} games from seed {args.seed}, bots {','.join(bots)}, "
          f"{summary['executor']}" + (" (interrupted: partial results)" if summary["interrupted"] else ""))
    print("95% confidence intervals in brackets")
    _print_setting(summary)
    print(f"  {summary['elapsed_s']:.2f} s")
    return 0


def cmd_compare(args) -> int:
    game = game_with_cards(args)
    players = game.check_players(args.players)
    variants_a = parse_variants(game, args.variant_a)
    variants_b = parse_variants(game, args.variant_b)
    bots_a = parse_bots(args.bot_a, players)
    bots_b = parse_bots(args.bot_b or args.bot_a, players)
    if args.games < 1:
        raise RulesError("--games must be at least 1")
    if args.workers < 1:
        raise RulesError("--workers must be at least 1")
    if variants_a == variants_b and bots_a == bots_b:
        raise RulesError("A and B are the same setting: change a variant (--variant-b) or the bots (--bot-b)")
    if args.until_ci is not None and args.until_ci <= 0:
        raise RulesError("--until-ci must be a positive number of points")
    bar, progress = _bar(args, 2 * args.games)
    result = compare(game.id, players, args.games, args.seed, variants_a=variants_a, variants_b=variants_b,
                     bots_a=bots_a, bots_b=bots_b, executor=_executor(args), workers=args.workers,
                     scheduler=args.scheduler, chunk=args.chunk, until_ci=args.until_ci, progress=progress, game=game)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    stats = result["results"]
    print(f"{game.title}, {players} players: {stats['games']} paired games (the same deals under A and B) from seed "
          f"{args.seed}, {result['executor']}" + (" (interrupted: partial results)" if result["interrupted"] else ""))
    print(f"A: variants {variants_a}, bots {','.join(bots_a)}")
    print(f"B: variants {variants_b}, bots {','.join(bots_b)}")
    print("95% confidence intervals in brackets")
    print("A:")
    _print_setting(stats["a"])
    print("B:")
    _print_setting(stats["b"])
    print("B - A on the same deals:")
    for seat in stats["difference_b_minus_a"]:
        print(f"  Player {seat['seat'] + 1}: score {_ci(seat['score_difference'], 2)}, "
              f"win rate {_ci(seat['win_rate_difference'], 3)}" + ("  (significant)" if seat["significant"] else ""))
    print(f"  {result['elapsed_s']:.2f} s")
    return 0


#: What ``rules-explorer serve`` (and ``make serve``, which calls it) serves: apps/<name>.py at /<name>.
SERVED_APPS = ("explorer", "analysis", "tables", "rules", "tutorial")


def serve_command(args) -> list[str]:
    """The ``panel serve`` command line of ``rules-explorer serve`` (see :func:`cmd_serve`)."""
    spec = find_spec("explorer")
    if spec is None or spec.origin is None:
        raise RulesError("the explorer package is not installed")
    root = Path(spec.origin).parent.parent
    apps = [root / "apps" / f"{name}.py" for name in SERVED_APPS]
    missing = [str(app) for app in apps if not app.exists()]
    if missing:
        raise RulesError(f"serve needs the project's apps/ folder (install from a checkout: pip install -e .); "
                         f"missing: {', '.join(missing)}")
    if not 0 < args.port < 65536:
        raise RulesError(f"--port must be from 1 to 65535, not {args.port}")
    origins = [f"127.0.0.1:{args.port}", f"localhost:{args.port}"]
    if args.address not in ("127.0.0.1", "localhost", "0.0.0.0", "::"):
        origins.append(f"{args.address}:{args.port}")
    origins += args.allow_origin or []
    if args.address in ("0.0.0.0", "::") and not args.allow_origin:
        raise RulesError(f"--address {args.address} serves every network this machine is on: name the address "
                         "players will use with --allow-origin HOST[:PORT] (README, \"Serving a group\")")
    command = [sys.executable, "-m", "panel", "serve", *map(str, apps),
               "--setup", str(root / "explorer" / "tables_setup.py"),
               "--address", args.address, "--port", str(args.port), "--liveness",
               *(f"--allow-websocket-origin={origin}" for origin in dict.fromkeys(origins))]
    if args.use_xheaders:
        command.append("--use-xheaders")
    command += args.panel_args or []
    if args.db:
        command += ["--args", "--db", args.db]
    return command


def cmd_serve(args) -> int:
    """Serve the explorer, analysis, tables, rules and tutorial pages (the same as ``make serve``)."""
    command = serve_command(args)
    env = dict(os.environ)
    for flag, variable in (("max_bot_tables", "RULES_EXPLORER_MAX_BOT_TABLES"),
                           ("max_mcts_seats", "RULES_EXPLORER_MAX_MCTS_SEATS")):
        value = getattr(args, flag)
        if value is not None:
            if value < 0:
                raise RulesError(f"--{flag.replace('_', '-')} must be 0 or more, not {value}")
            env[variable] = str(value)
    from explorer.table_store import StoreError, TableStore, default_path

    try:        # a database that cannot be used, or that another server holds, is named here
        TableStore(args.db or default_path(), exclusive=True).close()
    except StoreError as error:
        raise RulesError(str(error)) from None
    base = f"http://{args.address}:{args.port}"
    print("serving " + ", ".join(f"{base}/{name}" for name in SERVED_APPS), flush=True)
    # The server replaces this process (stopping `rules-explorer serve` stops the server; nothing is left behind).
    os.execve(sys.executable, command, env)
    return 0


def cmd_tables(args) -> int:
    """List the playtest tables of a database file, export one game as a replay file, or end one."""
    # The tables' store is part of the explorer package, like `serve`; it uses only the standard library.
    from explorer.table_store import StoreError, TableStore, default_path

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
                       "abandoned": r.abandoned, "final_scores": r.final_scores, "winners": r.winners,
                       "rematch_of": r.rematch_of}
                      for r in store.tables()]
            if args.json:
                print(json.dumps(tables, indent=1))
            for t in [] if args.json else tables:
                state = ("ended early" if t["abandoned"] else
                         f"over, scores {', '.join(map(str, t['final_scores']))}" if t["finished"] else "open")
                print(f"{t['id']}  {t['game']:<12} {t['players']} players  {t['moves']:>5} moves  {state}")
            return 0
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
        game = get_game(record.game)
        moves = [(seat, game.decode_action(action)) for seat, action in store.moves(record.id)]
        data = replays.record(game, record.players, record.seed, record.variants, moves)
        text = json.dumps(data, indent=1)
        if args.out:
            write_out(args.out, text + "\n")
            print(f"wrote {len(moves)} moves of table {record.id} to {args.out}")
        else:
            print(text)
        return 0
    finally:
        store.close()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rules-explorer", description="Learn, explore and playtest card game rules.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("games", help="list games, player counts and variants")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_games)

    p = sub.add_parser("play", help="play a game with bots and print it")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--variant", action="append", metavar="NAME[=VALUE]")
    p.add_argument("--bots", default="random", help=f"one bot or one per seat, comma-separated ({', '.join(BOTS)})")
    p.add_argument("--cards", metavar="CARDS.json", help="play with another card file")
    p.add_argument("--out", metavar="REPLAY.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("replay", help="verify a replay file and print the final scores")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("score", help="score breakdown of a position file")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_score)

    p = sub.add_parser("simulate", help="play many seeded bot games and summarise them")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot", default="random", help=f"one bot or one per seat, comma-separated ({', '.join(BOTS)})")
    p.add_argument("--variant", action="append", metavar="NAME[=VALUE]")
    p.add_argument("--cards", metavar="CARDS.json", help="play with another card file")
    p.add_argument("--workers", type=int, default=1, help="local processes (more than 1: a process pool)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (or set DASK_SCHEDULER_ADDRESS)")
    p.add_argument("--chunk", type=int, default=DEFAULT_CHUNK, help="games per chunk of work")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("compare", help="paired A/B comparison on the same deals, with confidence intervals")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--games", type=int, required=True, help="deals (each is played under A and under B)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant-a", action="append", metavar="NAME[=VALUE]")
    p.add_argument("--variant-b", action="append", metavar="NAME[=VALUE]")
    p.add_argument("--bot-a", default="random", help=f"bots of A ({', '.join(BOTS)})")
    p.add_argument("--bot-b", help="bots of B (default: as A)")
    p.add_argument("--cards", metavar="CARDS.json", help="play with another card file")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local processes (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (or set DASK_SCHEDULER_ADDRESS)")
    p.add_argument("--chunk", type=int, default=DEFAULT_CHUNK, help="deals per chunk of work")
    p.add_argument("--until-ci", type=float, metavar="POINTS",
                   help="stop once every seat's score difference is known within +- POINTS (95%%)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_compare)

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
    p.add_argument("--max-bot-tables", type=int, metavar="N", help="live tables of bots only (default 4)")
    p.add_argument("--max-mcts-seats", type=int, metavar="N", help="MCTS seats over all live tables (default 8)")
    p.add_argument("panel_args", nargs="*", metavar="-- PANEL_ARGS", help=argparse.SUPPRESS)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("tables", help="list playtest tables, export one game as a replay file, or end one")
    p.add_argument("action", choices=("list", "export", "abandon"))
    p.add_argument("table", nargs="?", help="the table id (export, abandon)")
    p.add_argument("--db", metavar="FILE", help="the tables' database (default: the user's data directory)")
    p.add_argument("--out", metavar="REPLAY.json")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_tables)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except RulesError as error:
        print(f"rules-explorer {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
