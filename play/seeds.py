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

SplitMix64 multiplies 64-bit numbers, whose products have 128 bits: Python's unbounded integers, which
compiled code handles no faster than the interpreter (each a number object made and freed). So the
compiled build works ``random_index`` and ``decision_seed`` out in 32-bit halves held in machine
integers (``_mix``: mypyc's ``i64``, no product past 48 bits, so nothing overflows): the same numbers
(tests/play/test_seed_rule.py checks them against ``splitmix64`` on 3,000 generated keys each and the
edge values, and the builds' differential trace on 20,000 draws), ``random_index`` about 7 times as
fast compiled, ``decision_seed`` 2.5 times. Interpreted, the halves take four times as long as
``splitmix64``, so the pure build keeps it (:data:`IN_HALVES`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

import rules

if TYPE_CHECKING:       # (annotations only: a machine integer to mypyc, an int to the interpreter)
    from mypy_extensions import i64

MASK64: Final = (1 << 64) - 1
#: Does ``random_index`` work in 32-bit halves (``_mix``)? In the compiled build, which runs this
#: module compiled (all the compiled modules or none: rules/build.py).
IN_HALVES: Final = rules.BUILD.kind == "compiled"


def splitmix64(value: int) -> int:
    """SplitMix64's finaliser: a 64-bit value whose bits all depend on every bit of ``value``."""
    value = (value + 0x9E3779B97F4A7C15) & MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & MASK64
    return value ^ (value >> 31)


def decision_seed(seed: int, seat: int, step: int) -> int:
    """The seed of the bot deciding for ``seat`` (< 2**32) at ``step`` (< 2**32) in the game dealt from
    ``seed``: two decisions of one game never share a seed (each SplitMix64 step is one-to-one)."""
    key = game_key(seed)
    if IN_HALVES and 0 <= seat <= 0xFFFFFFFF and 0 <= step <= 0xFFFFFFFF:
        return decision_seed_in_halves(key, seat, step)
    return _from_key(key, seat, step)


def decision_seed_in_halves(key: int, seat: int, step: int) -> int:
    """``_from_key``, worked out in 32-bit halves (``_mix``), for a ``game_key`` ``key`` and ``seat`` and
    ``step`` below ``2**32``: the greedy and MCTS bots' seed at each of their decisions."""
    high, low = _mix((key >> 32) ^ seat, (key & 0xFFFFFFFF) ^ step)
    return int(high) << 32 | int(low)      # (as Python integers: a 64-bit value past i64's range)


@lru_cache(maxsize=1024)
def game_key(seed: int) -> int:
    """``splitmix64(seed & MASK64)``: what every decision seed of the game dealt from ``seed`` starts
    from. The same for every decision of a game, so worked out once (a simulated game asks for it at
    each of its decisions, and SplitMix64's big-number arithmetic is a good part of an engine's decision)."""
    return splitmix64(seed & MASK64)


def random_index(key: int, seat: int, step: int, count: int) -> int:
    """The random bot's choice among ``count`` legal moves for ``seat`` at ``step`` of the game whose
    ``game_key`` is ``key``: ``RandomBot(decision_seed(seed, seat, step))``'s first draw."""
    if IN_HALVES and 0 <= key <= MASK64 and 0 <= seat <= 0xFFFFFFFF and 0 <= step <= 0xFFFFFFFF and 0 < count < 1 << 24:
        return random_index_in_halves(key, seat, step, count)
    return splitmix64(_from_key(key, seat, step)) % count


def random_index_in_halves(key: int, seat: int, step: int, count: int) -> int:
    """``random_index``, worked out in 32-bit halves (``_mix``): ``splitmix64`` twice, then the
    remainder of ``high * 2**32 + low`` by ``count`` from the halves' remainders. For ``key`` below
    ``2**64``, ``seat`` and ``step`` below ``2**32`` and ``count`` from 1 to ``2**24 - 1`` (no
    product then passes 48 bits); ``random_index`` takes ``splitmix64`` for any other."""
    high, low = _mix((key >> 32) ^ seat, (key & 0xFFFFFFFF) ^ step)
    high, low = _mix(high, low)
    n: i64 = count
    return ((high % n) * ((1 << 32) % n) + low) % n


def _mix(high: i64, low: i64) -> tuple[i64, i64]:
    """``splitmix64`` of the 64-bit number ``high * 2**32 + low`` (each below ``2**32``), as its two
    halves. Each step of ``splitmix64`` on halves:
    - ``+ c``: the low halves added, their carry into the high ones;
    - ``v ^ (v >> s)``: each half takes the bits shifted down into it (the low one, the high one's last ``s``);
    - ``* c`` (the low 64 bits of the product): ``low * c_low`` whole, in 16-bit pieces of ``c_low``; of
      ``low * c_high`` and ``high * c_low``, the low 32 bits (the rest is past bit 64): a 32-bit half
      times a 16-bit piece never passes 48 bits."""
    # value + 0x9E3779B97F4A7C15
    low += 0x7F4A7C15
    high = (high + 0x9E3779B9 + (low >> 32)) & 0xFFFFFFFF
    low &= 0xFFFFFFFF
    # value ^ (value >> 30), then * 0xBF58476D1CE4E5B9
    low ^= (low >> 30 | high << 2) & 0xFFFFFFFF
    high ^= high >> 30
    pieces = low * 0xE5B9 + ((low * 0x1CE4 & 0xFFFF) << 16)       # low * 0x1CE4E5B9, less what passes bit 48
    high = ((pieces >> 32) + (low * 0x1CE4 >> 16)
            + low * 0x476D + ((low * 0xBF58 & 0xFFFF) << 16) + high * 0xE5B9 + ((high * 0x1CE4 & 0xFFFF) << 16)) & 0xFFFFFFFF
    low = pieces & 0xFFFFFFFF
    # value ^ (value >> 27), then * 0x94D049BB133111EB
    low ^= (low >> 27 | high << 5) & 0xFFFFFFFF
    high ^= high >> 27
    pieces = low * 0x11EB + ((low * 0x1331 & 0xFFFF) << 16)
    high = ((pieces >> 32) + (low * 0x1331 >> 16)
            + low * 0x49BB + ((low * 0x94D0 & 0xFFFF) << 16) + high * 0x11EB + ((high * 0x1331 & 0xFFFF) << 16)) & 0xFFFFFFFF
    low = pieces & 0xFFFFFFFF
    # value ^ (value >> 31)
    low ^= (low >> 31 | high << 1) & 0xFFFFFFFF
    high ^= high >> 31
    return high, low


def _from_key(key: int, seat: int, step: int) -> int:
    """The decision seed of ``seat`` at ``step`` in the game whose ``game_key`` is ``key``."""
    return splitmix64(key ^ (seat << 32 | step))
