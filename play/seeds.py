"""The one seed rule: which seed a bot decides with, wherever bots play.

A game dealt from ``seed`` is played by a fresh bot per decision: the bot that decides for ``seat``
when ``step`` moves have been made since the deal (or since the what-if position the line starts
from) is seeded with ``decision_seed(seed, seat, step)`` (``play.bots.bot_move``). The command line
and simulations (``play/simulate.py``), the explorer's ``GameSession.autoplay``, the playtest tables'
hub and the advisor's rollouts all use it, so "seed 7, greedy" is one game everywhere
(tests/play/test_seed_rule.py). A bot's move depends only on the seed, the seat, the step and the position:
bots can start at any step (the explorer's autoplay from the cursor, a table's server restarting)
and still make the same moves.

A random bot's move is ``random_index``: the ``splitmix64`` of its decision seed, modulo the number of
legal moves. This module is compiled with the rules (``rules/build.py``): an advisor's rollout draws
from it at every decision (``play/rollout.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

MASK64: Final = (1 << 64) - 1


def splitmix64(value: int) -> int:
    """SplitMix64's finaliser: a 64-bit value whose bits all depend on every bit of ``value``."""
    value = (value + 0x9E3779B97F4A7C15) & MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & MASK64
    return value ^ (value >> 31)


def decision_seed(seed: int, seat: int, step: int) -> int:
    """The seed of the bot deciding for ``seat`` (< 2**32) at ``step`` (< 2**32) in the game dealt from
    ``seed``: two decisions of one game never share a seed (each SplitMix64 step is one-to-one)."""
    return _from_key(game_key(seed), seat, step)


@lru_cache(maxsize=1024)
def game_key(seed: int) -> int:
    """``splitmix64(seed & MASK64)``: what every decision seed of the game dealt from ``seed`` starts
    from. The same for every decision of a game, so worked out once (a simulated game asks for it at
    each of its decisions, and SplitMix64's big-number arithmetic is a good part of an engine's decision)."""
    return splitmix64(seed & MASK64)


def random_index(key: int, seat: int, step: int, count: int) -> int:
    """The random bot's choice among ``count`` legal moves for ``seat`` at ``step`` of the game whose
    ``game_key`` is ``key``: ``RandomBot(decision_seed(seed, seat, step))``'s first draw."""
    return splitmix64(_from_key(key, seat, step)) % count


def _from_key(key: int, seat: int, step: int) -> int:
    """The decision seed of ``seat`` at ``step`` in the game whose ``game_key`` is ``key``."""
    return splitmix64(key ^ (seat << 32 | step))
