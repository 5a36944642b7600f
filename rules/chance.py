"""Named chance: a shuffle or a die roll drawn from ``random.Random(key)`` for a text ``key``.

The engines name each chance event after the game's seed and a counter (``"stellar:7:3"``: the third
reshuffle of seed 7), so a game replays from its seed and moves alone. ``shuffled`` and ``die`` give
exactly what ``random.Random(key).shuffle`` and ``random.Random(key).randint`` give, with less work
per event: the text is turned into the generator's seed as ``random.seed`` does it (version 2: the
text and its SHA-512), and the shuffle draws its numbers in one loop instead of a method call per
card. Random playouts reshuffle a small deck every few turns and roll dice in every compete, so this
is a measurable part of a playout.

Both are checked against ``random`` when this module is imported; if a future Python's ``random``
answers differently, they fall back to calling ``random`` itself, so results never change silently.
"""

from __future__ import annotations

import random
from hashlib import sha512

from _random import Random as _Core


def _generator(key: str) -> _Core:
    """A generator in the state ``random.Random(key)`` starts in."""
    data = key.encode()
    return _Core(int.from_bytes(data + sha512(data).digest()))


def _fast_shuffled(key: str, items) -> list:
    bits = _generator(key).getrandbits
    pile = list(items)
    # random.shuffle: for i from the end down to 1, swap with a number below i + 1, drawn by
    # _randbelow_with_getrandbits (bit_length(i + 1) bits, again while too large).
    for i in range(len(pile) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        pile[i], pile[j] = pile[j], pile[i]
    return pile


def _fast_die(key: str, sides: int = 6) -> int:
    bits = _generator(key).getrandbits
    k = sides.bit_length()
    r = bits(k)
    while r >= sides:
        r = bits(k)
    return r + 1


def _plain_shuffled(key: str, items) -> list:
    pile = list(items)
    random.Random(key).shuffle(pile)
    return pile


def _plain_die(key: str, sides: int = 6) -> int:
    return random.Random(key).randint(1, sides)


def _agrees() -> bool:
    """Do the fast versions give what ``random`` gives (piles of 0-60 cards, dice of 2-20 sides)?"""
    for n in range(0, 61):
        key = f"rules.chance:check:{n}"
        items = list(range(n))
        if _fast_shuffled(key, items) != _plain_shuffled(key, items):
            return False
    return all(_fast_die(f"rules.chance:die:{n}", sides) == _plain_die(f"rules.chance:die:{n}", sides)
               for n in range(200) for sides in (2, 6, 20))


if _agrees():
    shuffled, die = _fast_shuffled, _fast_die
else:       # pragma: no cover - only on a Python whose random works otherwise
    shuffled, die = _plain_shuffled, _plain_die

shuffled.__doc__ = "``items`` as a new list, shuffled as ``random.Random(key).shuffle`` would."
die.__doc__ = "A roll of a ``sides``-sided die (1 to ``sides``), as ``random.Random(key).randint(1, sides)``."
