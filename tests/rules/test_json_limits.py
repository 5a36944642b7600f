"""Files too deep or numbers too long for Python are refused like any other bad file.

JSON nested past Python's recursion limit, and whole numbers with more digits than Python turns into a
number and back, used to escape as RecursionError / ValueError tracebacks. Every way in (text read by
``load_json``, hence replays, positions and card files from disk and the CLI; Python objects given to
``decode``, ``decode_action``, ``with_card_file`` and replay reading) shares one check,
``rules.protocol.check_json``, and raises ``InvalidPosition`` naming the problem in every language.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules import replay as replays
from rules.protocol import MAX_DEPTH, InvalidPosition, InvalidReplay, check_json, dumps, load_json
from tests.helpers.tiers import quick_once

ROOT = Path(__file__).resolve().parents[2]
DIGITS = sys.get_int_max_str_digits()

#: Texts each no JSON reader of the project can take: deep lists, deep objects, a huge number.
DEEP_LIST_TEXT = "[" * 100000 + "]" * 100000
DEEP_OBJECT_TEXT = '{"a":' * 5000 + "1" + "}" * 5000
LONG_NUMBER_TEXT = "1" + "0" * 5000
TOO_DEEP = ("nested more than", "入れ子")
TOO_LONG = ("digits", "桁")


def deep_list(depth: int):
    data: list = []
    for _ in range(depth):
        data = [data]
    return data


def deep_object(depth: int):
    data: dict = {}
    for _ in range(depth):
        data = {"a": data}
    return data


#: Python objects no reader can take, by name (built when a test asks: pytest cannot name a huge number).
JUNK = {"deep_list": lambda: deep_list(100000), "deep_object": lambda: deep_object(5000),
        "long_number": lambda: 10 ** 5000}
WORDS = {"deep_list": TOO_DEEP, "deep_object": TOO_DEEP, "long_number": TOO_LONG}


def says(error: InvalidPosition, words: tuple[str, str]) -> None:
    assert words[0] in error.problems["en"], error.problems
    assert words[1] in error.problems["ja"], error.problems


def inside(text: str, game_id: str) -> str:
    """A real position of ``game_id`` whose first hand is replaced by ``text`` (JSON)."""
    game = rules.get_game(game_id)
    data = game.encode(game.new_game(game.player_counts[0], 1))
    return json.dumps(data).replace('"hands": [', '"hands": [' + text + ", ", 1)


@pytest.mark.parametrize("text,words", [(DEEP_LIST_TEXT, TOO_DEEP), (DEEP_OBJECT_TEXT, TOO_DEEP),
                                        (LONG_NUMBER_TEXT, TOO_LONG), ("[" + LONG_NUMBER_TEXT + "]", TOO_LONG),
                                        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), TOO_DEEP)])
def test_load_json_refuses_deep_nesting_and_long_numbers(text, words):
    with pytest.raises(InvalidPosition) as error:
        load_json(text, what="some.json")
    assert error.value.where == "some.json"
    says(error.value, words)


def test_load_json_takes_nesting_up_to_the_limit_and_long_numbers_within_pythons():
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, what="x") == deep_list(MAX_DEPTH - 1)
    assert load_json("9" * DIGITS, what="x") == int("9" * DIGITS)


@pytest.mark.parametrize("make,words", [(lambda: deep_list(100000), TOO_DEEP), (lambda: deep_object(5000), TOO_DEEP),
                                        (lambda: {"a": [10 ** 5000]}, TOO_LONG), (lambda: -(10 ** 5000), TOO_LONG),
                                        (lambda: {10 ** 5000: 1}, TOO_LONG), (lambda: (((),),) * 2, None)],
                         ids=["deep_list", "deep_object", "long_number", "negative", "key", "tuples"])
def test_check_json_walks_python_objects_without_recursion(make, words):
    data = make()
    if words is None:
        assert check_json(data, what="x") is data
        return
    with pytest.raises(InvalidPosition) as error:
        check_json(data, what="x")
    says(error.value, words)


@pytest.mark.parametrize("game_id", rules.GAMES)
@pytest.mark.parametrize("text,words", [(DEEP_LIST_TEXT, TOO_DEEP), (DEEP_OBJECT_TEXT, TOO_DEEP),
                                        (LONG_NUMBER_TEXT, TOO_LONG)])
def test_positions_with_a_deep_or_long_field_are_invalid(game_id, text, words):
    game = rules.get_game(game_id)
    with pytest.raises(InvalidPosition) as error:
        game.decode(load_json(inside(text, game_id), what="position"))
    says(error.value, words)
    # The same data as Python objects, given to decode directly.
    data = game.encode(game.new_game(game.player_counts[0], 1))
    for name, make in JUNK.items():
        data["state"]["hands"] = [make()]
        with pytest.raises(InvalidPosition) as error:
            game.decode(data)
        says(error.value, WORDS[name])
        with pytest.raises(InvalidPosition):
            replays.decode_position(data)


@pytest.mark.parametrize("game_id", rules.GAMES)
@pytest.mark.parametrize("name", JUNK)
def test_actions_and_replays_with_a_deep_or_long_field_are_invalid(game_id, name):
    junk, words = JUNK[name](), WORDS[name]
    game = rules.get_game(game_id)
    state = game.new_game(game.player_counts[0], 1)
    seat = game.to_move(state)[0]
    action = game.encode_action(game.legal_actions(state, seat)[0])
    field = next(key for key in action if key != "type") if len(action) > 1 else "extra"
    with pytest.raises(InvalidPosition) as error:
        game.decode_action({**action, field: junk})
    says(error.value, words)
    with pytest.raises(InvalidPosition) as error:
        game.decode_action(junk)
    says(error.value, words)
    data = replays.record(game, game.player_counts[0], 1, None, [(seat, game.decode_action(action))])
    for bad in ({**data, "actions": [{"seat": seat, "action": {**action, field: junk}}]}, {**data, "seed": junk},
                {**data, "comment": junk}):
        with pytest.raises(InvalidReplay) as error:
            replays.read(bad)
        says(error.value, words)


@pytest.mark.parametrize("game_id", rules.GAMES)
@pytest.mark.parametrize("name", JUNK)
def test_card_files_too_deep_or_long_are_invalid(game_id, name):
    game, words = rules.get_game(game_id), WORDS[name]
    with pytest.raises(InvalidPosition) as error:
        game.with_card_file({"cards": [JUNK[name]()]})
    says(error.value, words)


@pytest.mark.parametrize("text,says_en", quick_once([(DEEP_LIST_TEXT, "nested more than"), (DEEP_OBJECT_TEXT, "nested more than"),
                                                     (LONG_NUMBER_TEXT, "digits")], (DEEP_LIST_TEXT, "nested more than")))
def test_cli_reports_deep_or_long_files_in_one_line(tmp_path, text, says_en):
    path = tmp_path / "bad.json"
    path.write_text(text)
    position = tmp_path / "position.json"
    position.write_text(inside(text, "subastral"))
    for args in (["replay", path], ["score", path], ["score", position],
                 ["play", "stellar", "--players", 2, "--seed", 1, "--cards", path]):
        done = subprocess.run([sys.executable, "-m", "explorer.cli", *map(str, args)], capture_output=True,
                              text=True, cwd=ROOT)
        assert done.returncode == 2, done.stderr
        assert says_en in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e400", '{"extra": [NaN]}'])
def test_numbers_json_has_not_are_refused_and_never_written(text):
    """Python's json reads NaN, Infinity and 1e400 (as inf) and writes them back; no other reader takes
    them (a browser's JSON.parse, jq): a card file saved with one could not be opened elsewhere."""
    with pytest.raises(InvalidPosition) as error:
        load_json(text, what="some.json")
    says(error.value, ("not finite", "有限でない数"))
    with pytest.raises(InvalidPosition):
        check_json({"a": [float(text) if text[0] != "{" else float("nan")]}, what="x")
    with pytest.raises(ValueError):
        dumps({"a": float("inf")})
    assert load_json("[1.5, -0.0, 1e300]", what="x") == [1.5, -0.0, 1e300]


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_card_files_with_a_number_json_has_not_are_invalid(game_id):
    game = rules.get_game(game_id)
    with pytest.raises(InvalidPosition) as error:
        game.with_card_file({"cards": [float("inf")]})
    says(error.value, ("not finite", "有限でない数"))


@pytest.mark.parametrize("what, ja", [("card file", "カードファイル"), ("position", "局面"), ("replay", "リプレイ")])
def test_a_whole_file_is_named_in_the_messages_language(what, ja):
    """A message names a whole file in its own language (a Japanese page said "card file: 正しいJSON..."); a
    field path stays as the file spells it."""
    with pytest.raises(InvalidPosition) as refused:
        load_json("{", what=what)
    assert refused.value.problem_in("en").startswith(f"{what}: not valid JSON (")
    assert refused.value.problem_in("ja").startswith(f"{ja}: 正しいJSONではありません（")
    with pytest.raises(InvalidPosition) as refused:
        check_json({"a": float("nan")}, what="action.card")
    assert refused.value.problem_in("ja").startswith("action.card")


@pytest.mark.parametrize("seed", [2 ** 53, -(2 ** 53), 10 ** 4000, -(2 ** 60)],
                         ids=["2**53", "-2**53", "10**4000", "-2**60"])
def test_a_replays_seed_is_one_a_browser_holds_exactly(seed):
    """A seed past 2**53 in size was read, dealt and played, then failed on its way to the page (a
    number a browser cannot hold) after the game had changed: refused as it is read, naming the range."""
    data = {**replays.record(rules.get_game("subastral"), 3, 1, {}, []), "seed": seed}
    with pytest.raises(InvalidReplay) as refused:
        replays.read(data)
    assert "seed must be a whole number from -9,007,199,254,740,991 to 9,007,199,254,740,991" in str(refused.value)
    assert "9,007,199,254,740,991" in refused.value.problem_in("ja") and len(str(refused.value)) < 300
    assert replays.read({**data, "seed": 2 ** 53 - 1})[1] is not None


@pytest.mark.parametrize("game_id", [game for game in rules.GAMES if "seed" in rules.get_game(game).encode(
    rules.get_game(game).new_game(2, 1))["state"]])
def test_a_positions_seed_is_held_to_the_replays_limit(game_id):
    """A replay's seed is refused beyond 2**53 - 1 (pages show it exactly); a position's was taken at
    any size, 2**80 written back as it was (found by an outside test starving the engines)."""
    from rules.fields import SEED_LIMIT

    game = rules.get_game(game_id)
    data = json.loads(json.dumps(game.encode(game.new_game(2, 1))))
    for seed in (SEED_LIMIT, -SEED_LIMIT, 2 ** 80):
        data["state"]["seed"] = seed
        with pytest.raises(InvalidPosition, match="seed must be a whole number from -9,007,199,254,740,991 to"):
            game.decode(data)
    data["state"]["seed"] = SEED_LIMIT - 1
    assert game.encode(game.decode(data))["state"]["seed"] == SEED_LIMIT - 1
    assert replays.SEED_LIMIT == SEED_LIMIT         # (one limit for both)


def _whole_number_paths(data, path=()):
    """The path of every whole number in a position's JSON (the first two items of each list)."""
    if isinstance(data, bool):
        return
    if isinstance(data, int):
        yield path
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _whole_number_paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:2]):
            yield from _whole_number_paths(value, (*path, i))


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_no_whole_number_in_a_position_goes_past_what_a_browser_holds_and_messages_quote_it_short(game_id):
    """Counters (rolls, shuffles, turns, rounds) were taken at any size, 10**300 written back as it was;
    and a refusal quoted such a number whole (360 characters). Every whole number of a position is now
    held to the seeds' limit, 2**53 - 1, and a message quotes a long value cut short."""
    game = rules.get_game(game_id)
    start = json.loads(json.dumps(game.encode(game.new_game(2, 1))))
    paths = list(_whole_number_paths(start))
    assert len(paths) >= 4
    for path in paths:
        for huge in (10 ** 300, -(10 ** 300)):
            data = json.loads(json.dumps(start))
            holder = data
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = huge
            with pytest.raises(InvalidPosition) as refused:
                game.decode(data)
            for lang in ("en", "ja"):
                assert len(refused.value.problem_in(lang)) < 200, (path, refused.value.problem_in(lang))
    counters = {"rolls", "shuffles", "turn", "round"} & set(start["state"])
    for name in counters:
        data = json.loads(json.dumps(start))
        data["state"][name] = 2 ** 53
        with pytest.raises(InvalidPosition, match=f"state.{name}: must be a whole number from .* to "):
            game.decode(data)


@pytest.mark.parametrize("text, key", [('{"seed": 1, "seed": 7}', '"seed"'),
                                       ('{"state": {"hands": [[], []], "x": {"a": 1, "b": 2, "a": 1}}}', '"a"'),
                                       ('[{"名前": 1, "名前": 2}]', '"名前"')])
def test_a_key_written_twice_in_one_object_is_refused_by_name(text, key):
    """JSON's parser keeps the last of a key written twice without a word: a replay with "seed": 1 and
    "seed": 7 loaded as seed 7, a position with two "game" keys as the last (an outside tester)."""
    with pytest.raises(InvalidPosition) as error:
        load_json(text, what="position.json")
    assert f"the key {key} is written twice in one object" in str(error.value)
    assert f"キー{key}が2回書かれています" in error.value.problem_in("ja")


def test_the_same_key_in_different_objects_is_no_repetition():
    assert load_json('{"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}], "b": 4}', what="x") == {
        "a": {"b": 1}, "c": [{"b": 2}, {"b": 3}], "b": 4}


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_position_and_a_replay_with_a_key_written_twice_are_refused(game_id):
    game = rules.get_game(game_id)
    state = game.new_game(game.player_counts[0], 1)
    for data in (game.encode(state), replays.record(game, game.player_counts[0], 1, None, [], state=state)):
        text = json.dumps(data)
        assert text.startswith("{")
        with pytest.raises(InvalidPosition, match="is written twice"):
            load_json('{"game": "nonsense", ' + text[1:], what="file")


def test_a_file_that_is_not_utf8_is_refused_naming_the_byte():
    """A Latin-1 card file ("Thömson") was read with its ö turned into U+FFFD without a word (an outside
    tester): the file's bytes now reach the reader, which says which byte is not UTF-8."""
    with pytest.raises(InvalidPosition) as error:
        load_json('{"name": "Thömson"}'.encode("latin-1"), what="cards.json")
    assert str(error.value) == "cards.json: not UTF-8 text: byte 13 of the file (0xF6) cannot be read as UTF-8 (save the file as UTF-8)"
    assert "UTF-8のテキストではありません：13バイト目の0xF6" in error.value.problem_in("ja")
    # A file with UTF-16's byte order mark is read as UTF-16; a file cut inside a character says so.
    with pytest.raises(InvalidPosition, match=r"the file ends inside a UTF-16 character \(cut off\?\)"):
        load_json(b"\xff\xfe{", what="position.json")
    with pytest.raises(InvalidPosition, match=r"the file ends inside a UTF-8 character"):
        load_json('{"name": "月"}'.encode()[:-3], what="position.json")
    assert load_json('{"name": "Thömson"}'.encode("utf-8"), what="cards.json") == {"name": "Thömson"}
