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
    """The greedy bot as the texts' positions were played with:
    - before it answered for the seats choosing with it in a simultaneous step (its look-ahead left
      them unanswered: play/bots.py, ``GreedyBot.together``);
    - before a re-dealt world drew a seed of its own (``rules.chance.unknown_seed``): its worlds kept
      the game's seed, and its generator drew nothing for one."""

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = _NoSeedDrawn(self.seed)
        return self._rng

    def __call__(self, game, state, seat):
        return super().__call__(_WorldsKeepTheSeed(game), state, seat)

    def together(self, game, state, seat):
        return []


class _NoSeedDrawn(random.Random):
    """``random.Random``, but a draw of 53 bits (only ``rules.chance.unknown_seed`` asks for as many)
    draws nothing. (A subclass: ``chance.shuffle`` then calls its ``shuffle``, which draws the same.)"""

    def getrandbits(self, k: int) -> int:
        return 0 if k == 53 else super().getrandbits(k)


class _WorldsKeepTheSeed:
    """A game whose re-dealt worlds keep the game's own seed."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def sample_hidden(self, state, seat, rng):
        world = self._game.sample_hidden(state, seat, rng)
        return world if world is None or not hasattr(state, "seed") else world._replace(seed=state.seed)


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
