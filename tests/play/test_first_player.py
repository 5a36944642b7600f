"""First-player advantage counts the deal's start player, whichever seat the deal made it (every game
here draws it at random: it used to count Player 1's wins), in a setting's figures, in the paired
difference B - A and in the verdict."""

from __future__ import annotations

import pytest

import rules
from play.simulate import play_game
from play.sweep import WIN_UNIT, compare, simulate_sweep
from play.verdict import findings


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_the_first_player_is_the_deals_start_player_and_not_always_seat_one(game_id):
    game = rules.get_game(game_id)
    players = game.player_counts[0]
    firsts = set()
    for seed in range(12):
        state = game.new_game(players, seed)
        first = game.first_player(state)
        turn = game.turn_of(state)
        if turn is not None and turn.seat is not None:          # a turn-based start: that seat's turn
            assert first == turn.seat
        firsts.add(first)
    assert firsts == set(range(players))


def test_a_sweep_counts_the_first_players_wins():
    game = rules.get_game("biome_blitz")
    shares = []
    for seed in range(40):
        _, result, _ = play_game(game, 2, seed, ("random",))
        assert result.first == game.first_player(game.new_game(2, seed))
        shares.append(WIN_UNIT // len(result.winners) if result.first in result.winners else 0)
    figures = simulate_sweep("biome_blitz", 2, 40, 0, executor="inprocess", chunk=7)
    rate = figures["first_player_advantage"]["win_rate"]
    assert rate["n"] == 40 and rate["rate"] == round(sum(shares) / WIN_UNIT / 40, 4)
    # (Player 1's own win rate is another figure: the start is drawn.)
    assert figures["seats"][0]["win_rate"]["rate"] != rate["rate"]


def test_a_comparison_pairs_the_first_players_win_rate_and_can_lead_the_verdict():
    # Random bots in A, greedy ones in B: the first player's win rate changes, paired on the same deals.
    result = compare("subastral", 2, 30, 0, bots_a=("random",), bots_b=("greedy",), executor="inprocess", chunk=10)
    stats = result["results"]
    first = stats["first_player_difference"]
    a, b = (stats[name]["first_player_advantage"]["win_rate"]["rate"] for name in "ab")
    assert first["n"] == 30 and first["mean"] == pytest.approx(b - a, abs=1e-3)
    kinds = {(f["kind"], f["seat"]) for f in findings(stats)}
    assert ("first_player", None) in kinds
