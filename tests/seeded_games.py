"""Seeded random games of every player count, with and without the variants, for tests that check
something at every position (texts in both languages, refusals, action names)."""

from __future__ import annotations

import random
import re

import rules

#: Japanese text: kana or kanji.
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def positions(game_id: str, seeds: int = 3):
    """``(game, state, pick)`` at every position of seeded random games: every player count, each
    seed with the variants at their defaults (even seeds) or at their last choice (odd seeds).
    ``pick()`` is the game's own random stream (for choosing what to try at this position)."""
    game = rules.get_game(game_id)
    for players in game.player_counts:
        for seed in range(seeds):
            variants = {v.name: v.choices[-1] for v in game.variants} if seed % 2 else None
            pick = random.Random(seed).random
            state = game.new_game(players, seed, variants)
            yield game, state, pick
            while seats := game.to_move(state):
                actions = game.legal_actions(state, seats[0])
                state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
                yield game, state, pick
