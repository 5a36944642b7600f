"""Run files: a paired comparison's exact settings and its results, in one JSON file that re-runs it.

``rules-explorer compare ... --out RUN.json`` and the Analysis page's download write one;
``rules-explorer compare --run RUN.json`` plays it again and checks that the results are the file's.
Everything that decides the games is in the file, and nothing about where they were played (the
executor, workers, chunk size and time change no number: ``play/sweep.py``), so a run file made on a
Dask cluster re-runs on a laptop. Its keys (docs/formats.md, "Run file"):

``format`` (``"rules-explorer-run"``), ``format_version`` (2), ``game``, ``game_version``,
``players``, ``seed``, ``games`` (the deals played: a run stopped early records the games it
finished, which are the first ones), ``curves`` (whether the provisional-score envelopes were
tallied), ``a`` and ``b`` (``variants``: every switch's value; ``bots``: one name, or one per seat;
``cards``: the whole card file the setting played with, the standard one included), ``pairing``
(``play/pairing.py``), ``answer`` (the verdict in English, ``play/verdict.py``) and ``results``
(``play.sweep.paired_stats``: every figure, with the exact integer tallies they come from).

A file is checked key by key before anything runs; a bad value is a :class:`~rules.protocol.RulesError`
naming the key (``run file: a.bots: ...``), and a card file the game refuses gets the game's own message.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from play.bots import BOTS
from play.sweep import compare
from play.verdict import sentence, verdict
from rules.fields import check_seed_run, rules_version
from rules.protocol import AnyGame, InvalidPosition, JSONObject, RulesError, key_names
from rules.registry import GAMES, get_game

FORMAT = "rules-explorer-run"
#: 2: first-player advantage counts the deal's start player (1 counted seat 1's wins, whoever started).
FORMAT_VERSION = 2
KEYS = ("format", "format_version", "game", "game_version", "players", "seed", "games", "curves", "a", "b",
        "pairing", "answer", "results")
SETTING_KEYS = ("variants", "bots", "cards")


def card_data(game: AnyGame, players: int, seed: int, variants: Mapping[str, Any]) -> JSONObject:
    """The whole card file ``game`` deals with (the standard one too), as plain JSON data."""
    cards = game.card_set(game.new_game(players, seed, dict(variants)))  # type: ignore[attr-defined]
    data: JSONObject = json.loads(json.dumps(cards.raw))
    return data


def _plain(data: JSONObject) -> JSONObject:
    """``data`` as it reads back from a JSON file (tuples as lists, keys as strings)."""
    plain: JSONObject = json.loads(json.dumps(data))
    return plain


def run_record(result: Mapping[str, Any], cards_a: JSONObject, cards_b: JSONObject) -> JSONObject:
    """The run file of ``result`` (what ``compare`` returned), with both settings' whole card files."""
    game = get_game(result["game"])
    stats = result["results"]
    return _plain({
        "format": FORMAT, "format_version": FORMAT_VERSION, "game": game.id,
        "game_version": result.get("version") or game.version,
        "players": result["players"], "seed": result["seed"], "games": stats["games"],
        "curves": stats["a"]["score_curve"] is not None,
        "a": {"variants": result["a"]["variants"], "bots": result["a"]["bots"], "cards": cards_a},
        "b": {"variants": result["b"]["variants"], "bots": result["b"]["bots"], "cards": cards_b},
        "pairing": result["pairing"], "answer": sentence(verdict(stats, result["pairing"])), "results": stats})


def _bad(key: str, problem: str) -> RulesError:
    return RulesError(f"run file: {key}: {problem}")


def _whole(data: Mapping[str, Any], key: str, low: int) -> int:
    value = data[key]
    if type(value) is not int or value < low:
        raise _bad(key, f"must be a whole number of at least {low}, not {str(value)[:40]!r}")
    return value


def check_run(data: Any) -> JSONObject:
    """``compare``'s keyword arguments for the run file ``data`` (parsed JSON), every key checked."""
    if not isinstance(data, Mapping):
        raise _bad("(the file)", f"must be a JSON object, not {type(data).__name__}")
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise _bad(missing[0], "missing (a run file has " + ", ".join(KEYS) + ")")
    unknown = sorted(str(k) for k in data if k not in KEYS)
    if unknown:
        raise _bad(key_names(unknown, most=1)[0], "not a run file key (the keys are " + ", ".join(KEYS) + ")")
    if data["format"] == FORMAT and data["format_version"] == 1:
        raise _bad("format_version", "1: its first-player figures counted Player 1's wins, whoever started; "
                   f"this version ({FORMAT_VERSION}) counts the start player's, so the file cannot come out the "
                   "same: compare its settings again with --out for a version 2 file")
    if data["format"] != FORMAT or data["format_version"] != FORMAT_VERSION:
        raise _bad("format", f"not a run file of this version ({FORMAT!r}, format_version {FORMAT_VERSION})")
    if data["game"] not in GAMES:
        raise _bad("game", f"unknown game {str(data['game'])[:40]!r}; the games are {', '.join(GAMES)}")
    game = get_game(data["game"])
    try:
        version = rules_version(game, data["game_version"], "game_version")
    except InvalidPosition as error:
        raise _bad("game_version", error.problem) from None
    if data["players"] not in game.player_counts or type(data["players"]) is not int:
        raise _bad("players", f"{game.title} is for {', '.join(map(str, game.player_counts))} players, "
                              f"not {str(data['players'])[:20]!r}")
    players = data["players"]
    seed = data["seed"]
    if type(seed) is not int:
        raise _bad("seed", f"must be a whole number, not {str(seed)[:40]!r}")
    games = _whole(data, "games", 1)
    try:
        check_seed_run(seed, games)
    except InvalidPosition as error:
        raise _bad("seed", error.problem) from None
    if type(data["curves"]) is not bool:
        raise _bad("curves", "must be true or false")
    # (An earlier minor version is played as it was: ``GameSpec.recorded``.)
    arguments: JSONObject = {"game_id": game.id, "players": players, "games": games, "seed": seed,
                             "curves": data["curves"], "version": version}
    for name in ("a", "b"):
        setting = data[name]
        if not isinstance(setting, Mapping) or sorted(setting) != sorted(SETTING_KEYS):
            raise _bad(name, "must be an object with exactly " + ", ".join(SETTING_KEYS))
        try:
            arguments[f"variants_{name}"] = game.check_variants(setting["variants"])
        except RulesError as error:
            raise _bad(f"{name}.variants", str(error)) from None
        bots = setting["bots"]
        if (not isinstance(bots, list) or len(bots) not in (1, players)
                or not all(isinstance(b, str) and b in BOTS for b in bots)):
            raise _bad(f"{name}.bots", f"must list one bot, or one per seat ({players}), of {', '.join(BOTS)}")
        arguments[f"bots_{name}"] = tuple(bots)
        try:
            game.with_card_file(setting["cards"])
        except RulesError as error:
            raise _bad(f"{name}.cards", str(error)) from None
        arguments[f"cards_{name}"] = setting["cards"]
    for key in ("pairing", "results"):
        if not isinstance(data[key], Mapping):
            raise _bad(key, "must be an object")
    if not isinstance(data["answer"], str):
        raise _bad("answer", "must be a sentence (text)")
    return arguments


def first_difference(a: Any, b: Any, path: str) -> str | None:
    """The first key path where ``a`` and ``b`` differ (``results.a.seats[0].score.mean``), or None."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} against {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b and type(a) is type(b) else path


def rerun(data: Any, **where: Any) -> tuple[JSONObject, JSONObject, str | None]:
    """Play the run file ``data`` again (``where``: ``executor``, ``workers``, ``scheduler``, ``chunk``,
    ``progress``); returns (``compare``'s result, the new run file, the first key where the new run
    file's pairing, answer or results differ from the file's, or None when it reproduces them)."""
    arguments = check_run(data)
    result = compare(**arguments, **where)
    record = run_record(result, arguments["cards_a"], arguments["cards_b"])
    differ = None
    for key in ("pairing", "answer", "results"):
        differ = differ or first_difference(data[key], record[key], key)
    return result, record, differ
