"""``rules-explorer``: the command line (DESIGN.md, "Command line").

games · play · replay · score · simulate · serve. Errors in files or arguments print one clear line
and exit with status 2; nothing is written when something is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from rules import replay as replays
from rules.bots import BOTS
from rules.protocol import RulesError, dumps
from rules.registry import GAMES, get_game
from rules.simulate import Progress, play_game, simulate


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
        Path(args.out).write_text(dumps(data), encoding="utf-8")
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
    if args.workers != 1 or args.scheduler:
        raise RulesError("distributed runs (--workers, --scheduler) are not available yet: run with --workers 1")
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


def cmd_serve(args) -> int:
    spec = find_spec("explorer")
    if spec is None or spec.origin is None:
        raise RulesError("the explorer package is not installed")
    app = Path(spec.origin).parent / "app.py"
    command = [sys.executable, "-m", "panel", "serve", str(app), "--address", args.address, "--port", str(args.port),
               f"--allow-websocket-origin={args.address}:{args.port}", f"--allow-websocket-origin=localhost:{args.port}",
               "--liveness"]
    print(f"serving the explorer at http://{args.address}:{args.port}/app", flush=True)
    return subprocess.call(command, env=os.environ)


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
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--scheduler", metavar="ADDRESS")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("serve", help="serve the web app")
    p.add_argument("--address", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5006)
    p.set_defaults(run=cmd_serve)
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
