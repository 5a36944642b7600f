"""A file's unknown keys are named so that the message stays a message: short, and holding none of the
key's control characters.

An outside tester gave a position a key holding U+202E (right-to-left override): the page's refusal
then read its own "Nothing changed." backwards; a key of 200,000 characters made a message as long;
ANSI escapes in a key reached the terminal of ``rules-explorer score``; a newline forged a second line.
Positions, actions, replays and run files name such keys as ``repr`` does, cut short."""

from __future__ import annotations

import pytest

import rules
from play.run_file import check_run
from rules import replay as replays
from rules.protocol import RulesError

HOSTILE = {"abc\u202e.evil ,dedaol yllufsseccuS": 1, "x" * 200_000: 2, "\x1b]0;title\x07\x1b[2J": 3, "a\nrules-explorer: ok": 4}


def plain(message: str) -> None:
    assert len(message) < 400, len(message)
    assert message.isprintable(), repr(message)


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_positions_unknown_keys_are_quoted_short_and_printable(game_id):
    game = rules.get_game(game_id)
    data = game.encode(game.new_game(game.player_counts[0], 1))
    data["state"].update(HOSTILE)
    with pytest.raises(RulesError) as refused:
        game.decode(data)
    for message in refused.value.problems.values():
        plain(message)
    assert "'abc\\u202e.evil" in refused.value.problems["en"]


def test_a_replays_and_a_run_files_unknown_keys_are_quoted_short_and_printable():
    game = rules.get_game("subastral")
    record = replays.record(game, 2, 1, None, [])
    with pytest.raises(RulesError) as refused:
        replays.read({**record, **HOSTILE})
    for message in refused.value.problems.values():
        plain(message)
    with pytest.raises(RulesError) as refused:
        check_run({**HOSTILE})
    plain(str(refused.value))


def test_a_plain_unknown_key_is_named_as_written():
    game = rules.get_game("subastral")
    data = game.encode(game.new_game(2, 1))
    data["state"]["score"] = 3
    with pytest.raises(RulesError) as refused:
        game.decode(data)
    assert refused.value.problem.endswith("unknown field(s) score")



def test_a_move_by_a_seat_below_0_is_named_by_that_seat():
    """A replay's move by seat -1 was refused as "move 1 (Player 0: ...)": no such player exists."""
    game = rules.get_game("subastral")
    state = game.new_game(2, 1)
    seat = game.to_move(state)[0]
    record = replays.record(game, 2, 1, None, [(seat, game.legal_actions(state, seat)[0])])
    record["actions"][0]["seat"] = -1
    with pytest.raises(RulesError) as refused:
        replays.states(record)
    assert "Player 0" not in refused.value.problems["en"] and "seat -1" in refused.value.problems["en"], refused.value.problems
    assert "プレイヤー0" not in refused.value.problems["ja"]


def test_a_run_that_would_deal_past_the_seeds_a_replay_holds_is_refused():
    """``simulate --seed 9007199254740990 --games 3`` played seeds past 2**53 - 1, whose replays are then
    refused; a run file with seed 2**60 was played (an outside tester)."""
    from play.simulate import simulate
    from play.sweep import compare
    from rules.fields import SEED_LIMIT
    from rules.protocol import InvalidPosition

    last = SEED_LIMIT - 1
    for run in (lambda: simulate("subastral", 2, 3, last - 1), lambda: compare("subastral", 2, 3, last - 1),
                lambda: simulate("subastral", 2, 1, -SEED_LIMIT)):
        with pytest.raises(InvalidPosition) as refused:
            run()
        assert refused.value.where == "seed" and "9,007,199,254,740,991" in refused.value.problem
    assert simulate("subastral", 2, 2, last - 1)["games"] == 2          # (the last seeds themselves deal)
    run = {"format": "rules-explorer-run", "format_version": 2, "game": "subastral", "game_version": "1.0",
           "players": 2, "seed": 2 ** 60, "games": 3, "curves": False, "a": {}, "b": {}, "pairing": {}, "answer": "",
           "results": {}}
    with pytest.raises(RulesError) as refused:
        check_run(run)
    assert str(refused.value).startswith("run file: seed: the run deals from seeds 1,152,921,504,606,846,976"), refused.value
