"""A game that never ends stops the bots with a clear message instead of running forever: a simulated
game and an advisor's rollout after ``MOVE_LIMIT`` moves (``EndlessGame``), on the command line as one
line (status 2), in worker processes too; a real game is far shorter than the limit."""

from __future__ import annotations

import json
import pickle

import pytest

import rules
from play.advise import play_out
from play.bots import MOVE_LIMIT, EndlessGame
from play.simulate import play_game
from tests.helpers.cli import cli
from tests.helpers.endless import ENDLESS_SEEDS, endless_jump_gate, endless_jump_gate_cards


def test_a_game_that_does_not_end_stops_at_the_limit_and_says_which():
    game = endless_jump_gate()
    with pytest.raises(EndlessGame) as raised:
        play_game(game, 2, ENDLESS_SEEDS[0], ("random",))
    assert raised.value.moves == MOVE_LIMIT
    assert str(raised.value).startswith(f"the game dealt from seed {ENDLESS_SEEDS[0]} has not ended after 100,000 moves")
    assert "never ends" in str(raised.value)
    _, result, _ = play_game(game, 2, 1, ("random",))      # the same cards can give a game that ends
    assert result.decisions < MOVE_LIMIT


def test_the_error_crosses_a_process_boundary_whole():
    error = pickle.loads(pickle.dumps(EndlessGame(MOVE_LIMIT, 2, rollout=True)))
    assert isinstance(error, EndlessGame) and (error.moves, error.seed, error.rollout) == (MOVE_LIMIT, 2, True)
    assert str(error) == str(EndlessGame(MOVE_LIMIT, 2, rollout=True))


def test_an_advisor_rollout_that_does_not_end_stops_at_the_limit():
    game = endless_jump_gate()
    with pytest.raises(EndlessGame, match="a rollout of the advisor .* has not ended after 100,000 moves"):
        play_out(game, game.new_game(2, ENDLESS_SEEDS[0]), ENDLESS_SEEDS[0])


def test_real_games_end_far_below_the_limit():
    """The limit is no false alarm: the longest random games (Jump Gate's) are a few thousand moves."""
    for game_id in rules.GAMES:
        game = rules.get_game(game_id)
        longest = max(play_game(game, game.player_counts[0], seed, ("random",))[1].decisions for seed in range(20))
        assert longest * 10 < MOVE_LIMIT, game_id


def test_the_command_line_says_it_in_one_line(tmp_path):
    cards = tmp_path / "few.json"
    cards.write_text(json.dumps(endless_jump_gate_cards()))
    # (two worker processes: the error comes back from one pickled)
    done = cli("simulate", "jump_gate", "--players", 2, "--games", 3, "--cards", cards, "--workers", 2, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "rules-explorer simulate: the game dealt from seed 0 has not ended after 100,000 moves, so the bots "
        "stopped: these cards, variants or this position may give a game that never ends"], done.stderr
