"""Seeded random games of every player count, with and without the variants, for tests that check
something at every position (texts in both languages, refusals, action names)."""

from __future__ import annotations

import random
import re

import rules
from play.bots import GreedyBot

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


class GreedyAsBefore(GreedyBot):
    """The greedy bot before it answered for the seats choosing with it in a simultaneous step (its
    look-ahead left them unanswered: play/bots.py, ``GreedyBot.together``)."""

    def together(self, game, state, seat):
        return []


def autoplay_as_before(session, bots: str | None = None, *, then_goto: int | None = None) -> None:
    """``session.autoplay(bots, then_goto=...)`` from the deal as the explorer seeded its bots before the one
    seed rule (play/seeds.py): seat ``s`` kept one bot seeded ``seed * 1000 + s`` for the whole game,
    a random bot drawing with ``random.Random``, a greedy one as it was then (``GreedyAsBefore``). Tests
    of texts at fixed positions use it, so their positions (and the texts written for them) stay the
    ones they were written against."""
    from play.bots import make_bot
    from rules import replay as replays

    assert not session.log and session.start is None, "plays from a fresh deal"
    spec, state, name = session.spec, session.state, bots or session.bot
    agents = {}
    moves = []
    while seats := spec.to_move(state):
        seat = seats[0]
        if seat not in agents:
            agents[seat] = (random.Random(session.seed * 1000 + seat) if name == "random"
                            else GreedyAsBefore(session.seed * 1000 + seat) if name == "greedy"
                            else make_bot(name, session.seed * 1000 + seat))
        agent = agents[seat]
        legal = spec.legal_actions(state, seat)
        action = agent.choice(legal) if isinstance(agent, random.Random) else agent(spec, state, seat)
        moves.append((seat, action))
        state = spec.apply(state, seat, action)
    session.load(replays.record(spec, session.players, session.seed, session.variants, moves),
                 cursor=len(moves) if then_goto is None else then_goto)
