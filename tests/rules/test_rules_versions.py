"""A file's rules version (``rules.fields.rules_version``): a position or a replay of every game reads
only a version of its engine's major number and no later minor one, written as two whole numbers with
a dot between. An outside tester loaded a position of version "1.0<b>", and a Biome Blitz replay of
"1.7" played with 1.1's dice without a word: the check only compared the text before the first dot."""

from __future__ import annotations

import pytest

import rules
from rules.protocol import InvalidPosition, InvalidReplay
from rules.replay import decode_position, read, record
from rules.registry import GAMES


def later(version: str) -> str:
    major, minor = version.split(".")
    return f"{major}.{int(minor) + 1}"


def other_major(version: str) -> str:
    return f"{int(version.split('.')[0]) + 1}.0"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_position_and_a_replay_read_only_their_engines_versions(game_id):
    game = rules.get_game(game_id)
    players = game.player_counts[0]
    position = game.encode(game.new_game(players, 5))
    replay = record(game, players, 5, None, [])
    assert decode_position({**position, "version": game.version})[0].id == game_id
    assert read({**replay, "version": game.version})[0].id == game_id
    refused = {
        "1.0<b>": "must be a text of two whole numbers with a dot between, such as",
        "1": "such as", "1.": "such as", " 1.0": "such as", "1.0.0": "such as", "١.٠": "such as",
        1.0: "not 1.0", None: "not None", 1: "not 1",
        later(game.version): f"later than this engine's {game.version}",
        other_major(game.version): f"this engine reads {game.version}",
    }
    for version, says in refused.items():
        with pytest.raises(InvalidPosition, match=says) as error:
            decode_position({**position, "version": version})
        assert error.value.where == "position.version"
        assert "ja" in error.value.problems and error.value.problems["ja"] != error.value.problems["en"]
        with pytest.raises(InvalidReplay, match=says) as error:
            read({**replay, "version": version})
        assert error.value.where == "replay.version"


def test_an_earlier_minor_version_is_read_as_it_was_played():
    # Biome Blitz 1.1 reads 1.0's replays with 1.0's dice; "01.0" is 1.0 (it was read as 1.1: the
    # dice scheme went by the text).
    game = rules.get_game("biome_blitz")
    replay = record(game, 2, 5, None, [])
    assert game.version == "1.1"
    dice = {version: read({**replay, "version": version})[0].chance_scheme for version in ("1.0", "01.0", "1.1")}
    assert dice["1.0"] == dice["01.0"] != dice["1.1"]


@pytest.mark.parametrize("field, value", [("version", "1.0"), ("cards", "A file")])
def test_a_replays_header_naming_other_cards_or_rules_than_its_start_is_refused(field, value):
    """A replay from a position wrote its card file and rules version twice (header and start); a header
    naming others was read past and the start's played (an outside tester): refused, naming the field."""
    from explorer.cardfiles import standard_file

    cards = standard_file("biome_blitz")
    cards["name"] = "B file"
    game = rules.get_game("biome_blitz").with_card_file(cards)
    state = game.new_game(2, 1)
    replay = record(game, 2, 1, None, [], state=state, start=game.encode(state))
    read(replay)
    if field == "cards":
        replay["cards"] = {**replay["cards"], "name": value}
    else:
        replay[field] = value
    with pytest.raises(InvalidReplay) as refused:
        read(replay)
    assert refused.value.where == f"replay.start.{field}" and f'"{field}" is not the same' in refused.value.problem
