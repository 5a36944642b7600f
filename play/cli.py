"""``rules-explorer``: the command line (docs/architecture.md, "Command line").

games · play · replay · score · simulate · compare (``explorer/cli.py`` adds serve · tables). Errors in files or arguments print one clear line
and exit with status 2; nothing is written when something is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from tqdm import tqdm

from rules import replay as replays
from play.bots import BOTS
from rules.protocol import S, AnyGame, GameSpec, JSONObject, RulesError, dumps
from rules.registry import GAMES, get_game
from play.simulate import play_game, simulate
from play.card_stats import USES
from play.pairing import pairing_words
from play.run_file import card_data, check_run, rerun, run_record
from play.sweep import DEFAULT_CHUNK, compare, simulate_sweep


def parse_variants(game: AnyGame, items: list[str] | None) -> dict[str, Any]:
    """``--variant disturbance`` switches a boolean on; ``--variant name=value`` sets any value."""
    chosen: dict[str, Any] = {}
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


def cmd_games(args: argparse.Namespace) -> int:
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


def game_with_cards(args: argparse.Namespace) -> AnyGame:
    """The registered game, or the same game with the card file given by ``--cards``."""
    game = get_game(args.game)
    if getattr(args, "cards", None):
        game = game.with_card_file(replays.load(args.cards))
    return game


def cmd_play(args: argparse.Namespace) -> int:
    game = game_with_cards(args)
    players = game.check_players(args.players)
    variants = parse_variants(game, args.variant)
    bots = parse_bots(args.bots, players)
    state, result, actions = play_game(game, players, args.seed, bots, variants, keep_actions=True)
    assert actions is not None          # (kept: keep_actions=True)
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


def _print_scores(game: GameSpec[S, Any], state: S) -> None:
    scores = game.scores(state)
    winners = game.winners(state)
    for seat, breakdown in enumerate(game.score_breakdown(state)):
        mark = "  winner" if seat in winners else ""
        parts = ", ".join(f"{c['category']} {c['points']}" for c in breakdown["categories"]) or "nothing scored"
        print(f"Player {seat + 1}: {scores[seat]} points ({parts}){mark}")


def cmd_replay(args: argparse.Namespace) -> int:
    game, state = replays.final_state(replays.load(args.file))
    if args.json:
        print(json.dumps({"game": game.id, "over": game.is_over(state), "scores": list(game.scores(state)),
                          "winners": list(game.winners(state))}))
        return 0
    status = "finished" if game.is_over(state) else "not finished (scores are provisional)"
    print(f"{game.title}: replay verified, game {status}.")
    _print_scores(game, state)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
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


def cmd_simulate(args: argparse.Namespace) -> int:
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
    with _bar(args, args.games) as progress:
        summary = simulate(game.id, players, args.games, args.seed, bots=bots, variants=variants, progress=progress,
                           game=game)
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


def _executor(args: argparse.Namespace) -> str:
    if args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS"):
        return "dask"
    return "processes" if args.workers > 1 else "inprocess"


@contextmanager
def _bar(args: argparse.Namespace, total: int) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr (tqdm), drawn only on a terminal and never with ``--json``; yields
    the callback a run reports its finished games to (``progress(done, ...)``)."""
    try:
        sized = all(os.get_terminal_size(sys.stderr.fileno()))
    except (OSError, ValueError):
        sized = False
    # tqdm draws nothing on a terminal that reports no size (a bare pseudo-terminal): 80 x 24 then.
    with tqdm(total=total, unit="games", file=sys.stderr, disable=True if args.json else None,
              ncols=None if sized else 80, nrows=None if sized else 24) as bar:
        def progress(done: int, *_: object) -> None:
            bar.update(done - bar.n)
        yield progress


def _ci(stat: JSONObject, digits: int = 1) -> str:
    if stat["mean"] is None:
        return "n/a"
    if stat["low"] is None:
        return f"{stat['mean']:.{digits}f}"
    return f"{stat['mean']:.{digits}f} [{stat['low']:.{digits}f}, {stat['high']:.{digits}f}]"


def _rate(stat: JSONObject) -> str:
    return "n/a" if stat["rate"] is None else f"{stat['rate']:.1%} [{stat['low']:.1%}, {stat['high']:.1%}]"


def _print_setting(stats: JSONObject, indent: str = "  ") -> None:
    for seat in stats["seats"]:
        print(f"{indent}Player {seat['seat'] + 1}: score {_ci(seat['score'])}, win rate {_rate(seat['win_rate'])}")
    first = stats["first_player_advantage"]
    print(f"{indent}first player: win rate {_rate(first['win_rate'])} against a fair {first['fair_share']:.1%}"
          + (" (significant)" if first["significant"] else ""))
    print(f"{indent}game length: {_ci(stats['game_length'])} decisions; score spread: {_ci(stats['score_spread'])}")


def _simulate_sweep(args: argparse.Namespace, game: AnyGame, players: int, variants: dict[str, Any],
                    bots: list[str]) -> int:
    with _bar(args, args.games) as progress:
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


def _card_file(path: str | None, what: str) -> JSONObject | None:
    """The card file at ``path`` (None without one); a file that is not JSON names the option."""
    if not path:
        return None
    try:
        data = replays.load(path)
    except RulesError as error:
        raise RulesError(f"{what} {path}: {error}") from None
    if not isinstance(data, dict):
        raise RulesError(f"{what} {path}: a card file is a JSON object")
    return data


def _setting_cards(game: AnyGame, data: JSONObject | None, what: str) -> AnyGame:
    """``game`` with the card file ``data`` (the engine's own message, naming the option, if it refuses it)."""
    if data is None:
        return game
    try:
        return game.with_card_file(data)
    except RulesError as error:
        raise RulesError(f"{what}: {error}") from None


def cmd_compare(args: argparse.Namespace) -> int:
    if args.run_file:
        return _compare_run(args)
    if args.game is None or args.players is None or args.games is None:
        raise RulesError("give GAME, --players and --games (or --run RUN.json)")
    args.seed = 0 if args.seed is None else args.seed
    args.bot_a = args.bot_a or "random"
    game = game_with_cards(args)
    cards_a = _card_file(args.cards_a, "--cards-a")
    cards_b = _card_file(args.cards_b, "--cards-b")
    game_a = _setting_cards(game, cards_a, "--cards-a")
    game_b = _setting_cards(game_a, cards_b, "--cards-b")
    players = game.check_players(args.players)
    variants_a = parse_variants(game, args.variant_a)
    variants_b = parse_variants(game, args.variant_b)
    bots_a = parse_bots(args.bot_a, players)
    bots_b = parse_bots(args.bot_b or args.bot_a, players)
    if args.games < 1:
        raise RulesError("--games must be at least 1")
    if args.workers < 1:
        raise RulesError("--workers must be at least 1")
    whole_a = card_data(game_a, players, args.seed, variants_a)
    whole_b = card_data(game_b, players, args.seed, variants_b)
    if variants_a == variants_b and bots_a == bots_b and whole_a == whole_b:
        raise RulesError("A and B are the same setting: change a variant (--variant-b), the bots (--bot-b) "
                         "or the cards (--cards-b)")
    if args.until_ci is not None and args.until_ci <= 0:
        raise RulesError("--until-ci must be a positive number of points")
    with _bar(args, 2 * args.games) as progress:
        result = compare(game.id, players, args.games, args.seed, variants_a=variants_a, variants_b=variants_b,
                         bots_a=bots_a, bots_b=bots_b, executor=_executor(args), workers=args.workers,
                         scheduler=args.scheduler, chunk=args.chunk, until_ci=args.until_ci, progress=progress,
                         game=game_a, curves=args.curves, cards_b=cards_b)
    record = run_record(result, whole_a, whole_b)
    if args.out:
        write_out(args.out, dumps(record))
    _print_compare(args, game, result, record)
    return 0


def _compare_run(args: argparse.Namespace) -> int:
    """``compare --run RUN.json``: play the run file again; its results must come out the same."""
    given = [option for option, value in (
        ("GAME", args.game), ("--players", args.players), ("--games", args.games), ("--seed", args.seed),
        ("--variant-a", args.variant_a), ("--variant-b", args.variant_b), ("--bot-a", args.bot_a),
        ("--bot-b", args.bot_b), ("--cards", args.cards), ("--cards-a", args.cards_a), ("--cards-b", args.cards_b),
        ("--until-ci", args.until_ci), ("--curves", args.curves or None)) if value is not None]
    if given:
        raise RulesError(f"--run plays the run file's own settings (game, players, deals, seed, variants, bots, "
                         f"cards, curves): give no {', '.join(given)}")
    if args.workers < 1:
        raise RulesError("--workers must be at least 1")
    data = replays.load(args.run_file)
    arguments = check_run(data)
    with _bar(args, 2 * arguments["games"]) as progress:
        result, record, differ = rerun(data, executor=_executor(args), workers=args.workers,
                                       scheduler=args.scheduler, chunk=args.chunk, progress=progress)
    if differ:
        raise RulesError(f"{args.run_file}: the re-run differs from the file at {differ} (the file was changed, or "
                         "made by other rules)")
    if args.out:
        write_out(args.out, dumps(record))
    _print_compare(args, get_game(record["game"]), result, record)
    if not args.json:
        print(f"reproduced {args.run_file}: the same results")
    return 0


def _print_compare(args: argparse.Namespace, game: AnyGame, result: JSONObject, record: JSONObject) -> None:
    if args.json:
        print(json.dumps({**result, "answer": record["answer"]}, indent=1))
        return
    stats = result["results"]
    players = result["players"]
    print(f"{game.title}, {players} players: {stats['games']} paired games from seed {result['seed']}, "
          f"{pairing_words(result['pairing'], stats['games'])}, {result['executor']}"
          + (" (interrupted: partial results)" if result["interrupted"] else ""))
    for name in ("a", "b"):
        side = result[name]
        standard = card_data(get_game(game.id), players, result["seed"], side["variants"])
        cards = ("the same cards as A" if name == "b" and record["b"]["cards"] == record["a"]["cards"] else
                 "standard cards" if record[name]["cards"] == standard else "its own card file")
        print(f"{name.upper()}: variants {side['variants']}, bots {','.join(side['bots'])}, {cards}")
    print(record["answer"])
    print("95% confidence intervals in brackets")
    print("A:")
    _print_setting(stats["a"])
    print("B:")
    _print_setting(stats["b"])
    print("B - A on the same " + ("deals:" if result["pairing"]["same_deals"] else "seeds:"))
    for seat in stats["difference_b_minus_a"]:
        print(f"  Player {seat['seat'] + 1}: score {_ci(seat['score_difference'], 2)}, "
              f"win rate {_ci(seat['win_rate_difference'], 3)}" + ("  (significant)" if seat["significant"] else ""))
    first = stats["first_player_difference"]
    if first["low"] is not None:
        print(f"  first player: win rate {_ci(first, 3)}"
              + ("  (significant)" if not first["low"] <= 0 <= first["high"] else ""))
    print("Cards (per game; final score of the seats that did), A then B:")
    _print_cards(stats)
    print(f"  {result['elapsed_s']:.2f} s")
    if args.out:
        print(f"run file written to {args.out}")


def _print_cards(stats: JSONObject) -> None:
    rows: dict[tuple[str, str], dict[str, JSONObject]] = {}
    for name in ("a", "b"):
        for row in stats[name]["cards"]:
            rows.setdefault((row["use"], row["card"]), {})[name] = row
    for (use, card), sides in sorted(rows.items(), key=lambda item: (USES.index(item[0][0]), item[0][1])):
        words = [f"{_ci(s['per_game'], 2)}; {_ci(s['score_of_users'])}" if s else "-"
                 for s in (sides.get("a"), sides.get("b"))]
        print(f"  {use} {card}: A {words[0]} | B {words[1]}")


def build_parser(extend: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None] | None = None) -> argparse.ArgumentParser:
    """The parser of the commands here; ``extend(subparsers)`` adds more (``explorer/cli.py``: serve, tables)."""
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
    p.add_argument("game", choices=GAMES, nargs="?", help="the game (not with --run)")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, help="deals (each is played under A and under B)")
    p.add_argument("--seed", type=int, help="the first deal's seed (default: 0)")
    p.add_argument("--variant-a", action="append", metavar="NAME[=VALUE]")
    p.add_argument("--variant-b", action="append", metavar="NAME[=VALUE]")
    p.add_argument("--bot-a", help=f"bots of A ({', '.join(BOTS)}; default: random)")
    p.add_argument("--bot-b", help="bots of B (default: as A)")
    p.add_argument("--cards", metavar="CARDS.json", help="play A and B with another card file")
    p.add_argument("--cards-a", metavar="CARDS.json", help="A's card file (default: --cards, else the standard file)")
    p.add_argument("--cards-b", metavar="CARDS.json", help="B's card file (default: as A)")
    p.add_argument("--out", metavar="RUN.json", help="write the run file: the exact settings and the results")
    p.add_argument("--run", dest="run_file", metavar="RUN.json", help="play a run file again and check its results come out the same")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local processes (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (or set DASK_SCHEDULER_ADDRESS)")
    p.add_argument("--chunk", type=int, default=DEFAULT_CHUNK, help="deals per chunk of work")
    p.add_argument("--until-ci", type=float, metavar="POINTS",
                   help="stop once every seat's score difference is known within +- POINTS (95%%)")
    p.add_argument("--curves", action="store_true",
                   help="also record each seat's provisional score after every decision (--json: score_curve, "
                        "the Analysis page's envelope plot)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_compare)
    if extend is not None:
        extend(sub)
    return parser


def main(argv: list[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run one command; ``parser``: the parser to use (``explorer/cli.py`` passes one with ``serve`` added)."""
    args = (parser or build_parser()).parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except RulesError as error:
        print(f"rules-explorer {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
