"""Named chance: a shuffle or a die roll drawn for a text ``key``, by one of two schemes (below):
``random.Random(key)`` (``MERSENNE``) or BLAKE2b digests of the key (``BLAKE2B``).

The engines name each chance event after the game's seed and a counter (``"stellar:7:3"``: the third
reshuffle of seed 7), so a game replays from its seed and moves alone. ``shuffled`` and ``die`` give
exactly what ``random.Random(key).shuffle`` and ``random.Random(key).randint`` give, with less work
per event: the shuffle draws its numbers in one loop instead of a method call per card, and the die
its number directly. Random playouts reshuffle a small deck every few turns and roll dice in every
compete, so this is a measurable part of a playout.

``seeded(seed)`` stands for ``random.Random(seed)`` where only ``shuffle`` and ``randrange`` are
used, as in a game's setup: for an int seed with the same loop, for any other seed it is
``random.Random(seed)`` itself. ``shuffle(rng, pile)`` is ``rng.shuffle(pile)`` with the same loop,
for a bot's generator: a bot that looks ahead re-deals the cards it cannot see (``sample_hidden``)
at almost every decision, and ``random.shuffle``'s method call per card was most of that work.
``randrange(rng, n)`` is ``rng.randrange(n)`` the same way, for a bot's random playout (MCTS).

A game's seed names its chance to come (the next reshuffle, the next die), so no seat may know it: a
world re-dealt for a seat's look-ahead (``sample_hidden``) draws a seed of its own, ``unknown_seed(rng)``.

All are checked against ``random`` when this module is imported; if a future Python's ``random``
answers differently, they fall back to calling ``random`` itself, so results never change silently.

Two schemes name chance by a key (``SCHEMES``; a game's state says which it draws with):

- ``MERSENNE`` (``"mersenne-twister"``): ``shuffled`` and ``die`` above, ``random.Random(key)``. Making
  that generator costs about 6 microseconds (SHA-512 of the key, then 624 words of Mersenne Twister
  state, filled twice over), whatever is drawn from it after: in a Biome Blitz random playout, whose
  competes roll two dice each, about a tenth of the whole game's time.
- ``BLAKE2B`` (``"blake2b"``): ``hashed_shuffled`` and ``hashed_die``. The numbers are the bits of the
  BLAKE2b digests (512 bits each) of ``"KEY:0"``, ``"KEY:1"``... read from the lowest bit up, taken
  as ``random`` takes them: a number below ``n`` is the next ``n.bit_length()`` bits, drawn again
  while not below ``n`` (a digest's last bits too few for the next draw are skipped). A shuffle swaps
  each place from the last down to the second with a place drawn below it or at it (Fisher-Yates, as
  ``random.shuffle``); a die is a number below ``sides``, plus one. A die costs one digest, about a
  tenth of a Mersenne Twister's making. The bits are fixed by the BLAKE2b standard (RFC 7693), not by
  a Python version, so no check against ``random`` is needed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from hashlib import blake2b
from typing import Final, Protocol, TypeVar

#: A card, a die face: whatever a pile holds.
T = TypeVar("T")
#: What ``random.Random(seed)`` takes as a seed.
RandomSeed = int | float | str | bytes | bytearray | None


class SeededRandom(Protocol):
    """What :func:`seeded` gives (a ``random.Random`` does too): ``shuffle`` and ``randrange(n)``."""

    def shuffle(self, pile: list[T], /) -> None: ...

    def randrange(self, n: int, /) -> int: ...


def unknown_seed(rng: random.Random) -> int:
    """A seed for a re-dealt world, drawn from ``rng``: below 2**53, as a position's seed is
    (``rules.fields.SEED_LIMIT``). With the game's own seed, a look-ahead would play the real dice
    and reshuffles to come."""
    return rng.getrandbits(53)


def _generator(key: str) -> random.Random:
    """``random.Random(key)``: its seed made from the text and its SHA-512 (``random.seed``, version 2).

    (This once built CPython's private ``_random.Random`` from that number instead, skipping
    ``random.Random``'s Python ``__init__`` and ``seed``: about 3,500 machine instructions a generator.
    It did not earn its place: 0.5% of a compiled 4-player Biome Blitz playout, the game that makes
    the most generators, some 50 a game: 42,728 against 42,934 instructions a decision under
    callgrind, issue #23.)"""
    return random.Random(key)


def _fast_shuffled(key: str, items: Iterable[T]) -> list[T]:
    pile = list(items)
    _shuffle(_generator(key).getrandbits, pile)
    return pile


def _shuffle(bits: Callable[[int], int], pile: list[T]) -> None:
    # random.shuffle: for i from the end down to 1, swap with a number below i + 1, drawn by
    # _randbelow_with_getrandbits (bit_length(i + 1) bits, again while too large).
    steps = _STEPS.get(len(pile)) or _steps(len(pile))
    for i, k in steps:
        j = bits(k)
        while j > i:
            j = bits(k)
        pile[i], pile[j] = pile[j], pile[i]


#: Per pile length: (i, bit_length(i + 1)) for i from the end down to 1 (the shuffle's steps).
_STEPS: Final[dict[int, tuple[tuple[int, int], ...]]] = {}


def _steps(n: int) -> tuple[tuple[int, int], ...]:
    steps = _STEPS[n] = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    return steps


#: The same steps with the mask of their k bits, ``(1 << k) - 1`` (``hashed_shuffled``'s). Apart from
#: ``_STEPS``: a third item to unpack at every step made the compiled Mersenne Twister shuffle 10% slower.
_MASKED_STEPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def _masked_steps(n: int) -> tuple[tuple[int, int, int], ...]:
    steps = _MASKED_STEPS[n] = tuple((i, k, (1 << k) - 1) for i, k in _STEPS.get(n) or _steps(n))
    return steps


class _FastSeeded:
    """``random.Random(seed)`` for an int ``seed``, its ``shuffle`` and ``randrange(n)`` only."""

    def __init__(self, seed: int) -> None:
        self._bits = random.Random(seed).getrandbits

    def shuffle(self, pile: list[T]) -> None:
        _shuffle(self._bits, pile)

    def randrange(self, n: int) -> int:
        if type(n) is not int or n < 1:       # (random would refuse an empty range too)
            raise ValueError(f"randrange({n!r}): a whole number of at least 1 is needed")
        bits, k = self._bits, n.bit_length()     # _randbelow_with_getrandbits
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r


#: ``random.Random``, for ``type(rng) is _RANDOM``: a constant to compiled code, where ``random.Random``
#: is a lookup in the module at every use.
_RANDOM: Final = random.Random


def _fast_shuffle(rng: random.Random, pile: list[T]) -> None:
    if type(rng) is _RANDOM:      # (a subclass may draw its numbers otherwise)
        _shuffle(rng.getrandbits, pile)
    else:
        rng.shuffle(pile)


def _plain_shuffle(rng: random.Random, pile: list[T]) -> None:
    rng.shuffle(pile)


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: drawn here as ``random`` draws it (``_fast_randrange``) when the checks at
    import agree, which saves a method call per draw. A function, not a name bound at import as
    ``shuffle`` is: compiled code calls it directly (an MCTS playout draws twice a decision)."""
    if FAST:
        return _fast_randrange(rng, n)
    return rng.randrange(n)


def _fast_randrange(rng: random.Random, n: int) -> int:
    if type(rng) is not _RANDOM or type(n) is not int or n < 1:
        return rng.randrange(n)         # (a subclass may draw otherwise; random refuses a bad n itself)
    k = n.bit_length()      # _randbelow_with_getrandbits (a method call each: no bound method is made)
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _fast_die(key: str, sides: int = 6) -> int:
    bits = _generator(key).getrandbits
    k = sides.bit_length()
    r = bits(k)
    while r >= sides:
        r = bits(k)
    return r + 1


def _plain_shuffled(key: str, items: Iterable[T]) -> list[T]:
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
    for seed in (0, 1, 7, -3, 12345, 2**70 + 5):
        fast, plain = _FastSeeded(seed), random.Random(seed)
        for n in (1, 2, 5, 6, 60, 27, 12):
            fast_pile, plain_pile = list(range(n)), list(range(n))
            fast.shuffle(fast_pile)
            plain.shuffle(plain_pile)
            if fast_pile != plain_pile or fast.randrange(n) != plain.randrange(n):
                return False
    for seed in (0, 5, 2**40 + 3):
        fast_rng, plain_rng = random.Random(seed), random.Random(seed)
        for n in (0, 1, 2, 9, 45, 60):
            fast_pile, plain_pile = list(range(n)), list(range(n))
            _fast_shuffle(fast_rng, fast_pile)
            plain_rng.shuffle(plain_pile)
            if fast_pile != plain_pile or fast_rng.random() != plain_rng.random():
                return False
            if n and _fast_randrange(fast_rng, n) != plain_rng.randrange(n):
                return False
    return all(_fast_die(f"rules.chance:die:{n}", sides) == _plain_die(f"rules.chance:die:{n}", sides)
               for n in range(200) for sides in (2, 6, 20))


def _fast_seeded(seed: RandomSeed) -> SeededRandom:
    return _FastSeeded(seed) if type(seed) is int else random.Random(seed)


#: ``shuffled(key, items)``: ``items`` as a new list, shuffled as ``random.Random(key).shuffle`` would.
#: ``die(key, sides=6)``: a roll of a ``sides``-sided die (1 to ``sides``), as
#: ``random.Random(key).randint(1, sides)``. ``seeded(seed)`` and ``shuffle(rng, pile)``: see the
#: module's text, as ``randrange(rng, n)``.
seeded: Callable[[RandomSeed], SeededRandom]
shuffle: Callable[[random.Random, list[T]], None]
#: Do the fast versions agree with ``random`` (``_agrees``)? ``randrange`` reads it at every draw.
FAST: Final = _agrees()
if FAST:
    shuffled, die, seeded, shuffle = _fast_shuffled, _fast_die, _fast_seeded, _fast_shuffle
else:       # pragma: no cover - only on a Python whose random works otherwise
    shuffled, die, seeded, shuffle = _plain_shuffled, _plain_die, random.Random, _plain_shuffle



#: The chance schemes (see the module's text), by the name a position file gives them.
MERSENNE: Final = "mersenne-twister"
BLAKE2B: Final = "blake2b"
SCHEMES: Final = (MERSENNE, BLAKE2B)
#: The bits of one BLAKE2b digest.
DIGEST_BITS: Final = 512


def _digest(key: str, block: int) -> int:
    """Block ``block`` of ``key``'s bits: the BLAKE2b digest of ``"KEY:BLOCK"``, as a number (little-endian)."""
    return int.from_bytes(blake2b(f"{key}:{block}".encode()).digest(), "little")


def hashed_below(key: str, bounds: Iterable[int]) -> list[int]:
    """For each ``n`` of ``bounds`` in turn, a number from 0 to ``n - 1`` drawn from ``key``'s bits
    (the ``BLAKE2B`` scheme: see the module's text)."""
    out: list[int] = []
    bits, left, block = 0, 0, 0
    for n in bounds:
        k = n.bit_length()
        while True:
            if left < k:        # (the digest's last bits are too few: the next digest)
                bits, left, block = _digest(key, block), DIGEST_BITS, block + 1
            drawn = bits & ((1 << k) - 1)
            bits >>= k
            left -= k
            if drawn < n:
                break
        out.append(drawn)
    return out


#: The digest's bits a shuffle's ``window`` takes at a time (``DIGEST_BITS`` is a multiple), and their mask.
_WORD_BITS: Final = 32
_WORD: Final = (1 << _WORD_BITS) - 1


def hashed_shuffled(key: str, items: Iterable[T]) -> list[T]:
    """``items`` as a new list, shuffled from ``key``'s bits: each place ``i`` from the last down to
    the second swapped with a place drawn from 0 to ``i``, as ``hashed_below`` draws, written out (a
    shuffle draws a number per card) and read through a small number, ``window``, that takes the
    digest's bits 32 at a time: cutting each draw's bits off the 512-bit number made a new 512-bit
    number per draw. Read so, a Biome Blitz reshuffle costs half the machine instructions it did
    compiled, and a shuffle of 20 cards 18% less time pure (3.6 against 4.4 microseconds)."""
    pile = list(items)
    rest, words, block = 0, 0, 0    # the digest's bits not yet in the window, as that many 32-bit words
    window, held = 0, 0             # the next bits to draw, lowest first, and how many
    for i, k, mask in _MASKED_STEPS.get(len(pile)) or _masked_steps(len(pile)):
        while True:
            while held < k:
                if words:
                    window |= (rest & _WORD) << held
                    rest >>= _WORD_BITS
                    held += _WORD_BITS
                    words -= 1
                else:       # (the digest's last bits are too few: the next digest)
                    rest, words, block = _digest(key, block), DIGEST_BITS // _WORD_BITS, block + 1
                    window = held = 0
            j = window & mask
            window >>= k
            held -= k
            if j <= i:
                break
        pile[i], pile[j] = pile[j], pile[i]
    return pile


def hashed_die(key: str, sides: int = 6) -> int:
    """A roll of a ``sides``-sided die (1 to ``sides``) from ``key``'s bits."""
    if type(sides) is not int or sides < 1:
        raise ValueError(f"a die of {sides!r} sides: a whole number of at least 1 is needed")
    return hashed_below(key, (sides,))[0] + 1


def shuffled_by(scheme: str, key: str, items: Iterable[T]) -> list[T]:
    """``items`` shuffled for the chance named ``key``, by ``scheme`` (one of ``SCHEMES``)."""
    if scheme == BLAKE2B:
        return hashed_shuffled(key, items)
    if scheme == MERSENNE:
        return shuffled(key, items)
    raise ValueError(f"no chance scheme {scheme!r}: say {' or '.join(SCHEMES)}")


def die_by(scheme: str, key: str, sides: int = 6) -> int:
    """A die roll for the chance named ``key``, by ``scheme`` (one of ``SCHEMES``)."""
    if scheme == BLAKE2B:
        return hashed_die(key, sides)
    if scheme == MERSENNE:
        return die(key, sides)
    raise ValueError(f"no chance scheme {scheme!r}: say {' or '.join(SCHEMES)}")
