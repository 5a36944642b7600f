"""Jump Gate's scoring numbers are worked out once per state and read by scores, tie-breaks and the breakdown."""

from __future__ import annotations

import random

from rules.registry import get_game


def _finished(players: int, seed: int):
    game = get_game("jump_gate")
    rng, state = random.Random(seed), game.new_game(players, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_move(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return game, state


def test_the_tallies_are_worked_out_once_per_state_and_every_score_reads_them():
    game, state = _finished(3, 11)
    tallies = game.tallies(state)
    assert game.tallies(state) is tallies                     # asked again: not worked out again
    for lang in ("en", "ja"):
        breakdown = game.score_breakdown(state, lang)
        assert [b["total"] for b in breakdown] == list(game.scores(state))
        assert [sum(c["points"] for c in b["categories"]) for b in breakdown] == list(game.scores(state))
    assert game.winners(state)
    twin = game.decode(game.encode(state))                    # an equal state, another object: worked out afresh
    assert game.tallies(twin) is not tallies and game.tallies(twin) == tallies
    assert game.tallies(state) is not tallies                 # (only the last state is remembered) ...
    assert game.tallies(state) == tallies                     # ... and the numbers are the same
