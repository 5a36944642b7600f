"""Bots play through the protocol only, are seeded, and never sense cards their seat cannot see."""

import random

import pytest

import rules
from play.bots import BOTS, MCTSBot, make_bot
from play.simulate import play_game, simulate


def sample_states(game, players, seed, every=7, limit=8):
    """(state, seat) pairs along a seeded random game."""
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    out, step = [], 0
    while not game.is_over(state) and len(out) < limit:
        seat = game.to_move(state)[0]
        if step % every == 3:
            out.append((state, seat))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        step += 1
    return out


def bot(name, seed):
    return MCTSBot(seed, iterations=12, max_playout=40) if name == "mcts" else make_bot(name, seed)


def _cards(game, state) -> dict:
    """A position's file but its seed (a re-dealt world always draws a seed of its own)."""
    data = game.encode(state)["state"]
    return {key: value for key, value in data.items() if key != "seed"}


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_bot_cannot_tell_states_that_differ_only_in_hidden_cards(game_id, name):
    game = rules.get_game(game_id)
    players = game.player_counts[0]
    differed = 0
    for state, seat in sample_states(game, players, 11):
        twin = game.sample_hidden(state, seat, random.Random(99))
        assert game.observe(twin, seat) == game.observe(state, seat)
        differed += _cards(game, twin) != _cards(game, state)
        assert bot(name, 5)(game, state, seat) == bot(name, 5)(game, twin, seat)
    assert differed, "the test needs states with hidden cards that differ"


@pytest.mark.parametrize("name", BOTS)
def test_bots_are_seeded(name):
    game = rules.get_game("subastral")
    for state, seat in sample_states(game, 3, 4, limit=4):
        assert bot(name, 8)(game, state, seat) == bot(name, 8)(game, state, seat)
        assert bot(name, 8)(game, state, seat) in game.legal_actions(state, seat)


def test_greedy_beats_random_in_every_game():
    for game_id, players in (("subastral", 2), ("stellar", 2), ("starligned", 2), ("biome_blitz", 2)):
        summary = simulate(game_id, players, 30, 3, bots=["greedy", "random"])
        assert summary["seats"][0]["win_share"] > 0.6, (game_id, summary["seats"])


def test_greedy_against_greedy_does_not_favour_the_seat_asked_last_in_a_simultaneous_step():
    """Starligned's phase 1 is simultaneous; the drivers ask the seats in order. The seat asked last
    once saw the step resolve in its look-ahead and the first did not: Player 2 won 94% of two-player
    greedy games (Player 3, 91% at three). Random bots split them evenly, and so must greedy ones."""
    for players, games in ((2, 120), (3, 90)):
        summary = simulate("starligned", players, games, 0, bots=["greedy"])
        shares = [seat["win_share"] for seat in summary["seats"]]
        assert max(shares) < 1 / players + 0.25, (players, shares)


def test_greedy_heads_for_its_chances_at_jump_gate():
    """Moving and researching score nothing by themselves; greedy once took them at random and its
    games ran 300 to 2,100 decisions (issue #22). Valuing what the ship can reach, it now plays a
    game in about 150 (at most 245 over seeds 0-29 for 2-4 players)."""
    game = rules.get_game("jump_gate")
    for players in (2, 3, 4):
        for seed in (0, 1):
            _, result, _ = play_game(game, players, seed, ["greedy"])
            assert result.decisions <= 300, (players, seed, result.decisions)


def test_greedy_beats_random_at_jump_gate():
    summary = simulate("jump_gate", 2, 6, 3, bots=["greedy", "random"])
    assert summary["seats"][0]["win_share"] > 0.8, summary["seats"]


def final_decisions(game, players, seeds):
    """States where every legal action ends the game, from seeded random games."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while not game.is_over(state):
            seat = game.to_move(state)[0]
            actions = game.legal_actions(state, seat)
            if len(game.to_move(state)) == 1 and all(game.is_over(game.apply(state, seat, a)) for a in actions):
                out.append((state, seat))
            state = game.apply(state, seat, rng.choice(actions))
    return out


def test_mcts_finds_the_winning_last_move():
    game = rules.get_game("subastral")
    checked = 0
    for state, seat in final_decisions(game, 2, range(12)):
        shares = {}
        for action in game.legal_actions(state, seat):
            winners = game.winners(game.apply(state, seat, action))
            shares[action] = 1 / len(winners) if seat in winners else 0
        if len(set(shares.values())) < 2:
            continue
        choice = MCTSBot(1, iterations=60)(game, state, seat)
        assert shares[choice] == max(shares.values())
        checked += 1
    assert checked >= 2
