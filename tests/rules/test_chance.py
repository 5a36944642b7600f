"""rules.chance: the MERSENNE scheme gives exactly what random.Random(key) gives (old replays must play
out the same); the BLAKE2B scheme draws as its definition says, from BLAKE2b digests, and never changes."""

import random

import pytest

from rules import chance


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 64, 100])
def test_shuffled_is_random_shuffle_of_the_same_key(size):
    for n in range(25):
        key = f"biome_blitz:{n}:shuffle:{size}"
        items = tuple(range(size)) if n % 2 else tuple(i % 4 for i in range(size))
        expected = list(items)
        random.Random(key).shuffle(expected)
        assert chance.shuffled(key, items) == expected


def test_shuffled_leaves_its_input_alone():
    items = [3, 1, 2, 0]
    chance.shuffled("stellar:1:0", items)
    assert items == [3, 1, 2, 0]


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 8, 12, 20])
def test_die_is_random_randint_of_the_same_key(sides):
    for n in range(300):
        key = f"biome_blitz:{n}:die:{n % 7}"
        assert chance.die(key, sides) == random.Random(key).randint(1, sides)


def test_the_fast_versions_are_the_ones_in_use_on_this_python():
    # If this fails, random changed and chance fell back to calling it (still correct, slower).
    assert chance._agrees()
    assert chance.shuffled is chance._fast_shuffled and chance.die is chance._fast_die


def test_the_fallback_gives_the_same_answers():
    key = "jump_gate:5:2"
    assert chance._plain_shuffled(key, range(40)) == chance._fast_shuffled(key, range(40))
    assert chance._plain_die(key) == chance._fast_die(key)


@pytest.mark.parametrize("seed", [0, 1, 42, -7, 10**6, 2**80 + 3])
def test_seeded_shuffles_and_draws_as_random_random_of_the_seed(seed):
    fast, plain = chance.seeded(seed), random.Random(seed)
    for n in (1, 2, 3, 9, 40, 70, 4, 6):
        fast_pile, plain_pile = list(range(n)), list(range(n))
        fast.shuffle(fast_pile)
        plain.shuffle(plain_pile)
        assert fast_pile == plain_pile
        assert fast.randrange(n) == plain.randrange(n)


def test_seeded_refuses_an_empty_range():
    with pytest.raises(ValueError, match="at least 1"):
        chance.seeded(3).randrange(0)


def test_seeded_takes_any_seed_random_takes():
    for seed in ("stellar", 2.5, b"bytes"):
        fast, plain = chance.seeded(seed), random.Random(seed)
        fast_pile, plain_pile = list(range(30)), list(range(30))
        fast.shuffle(fast_pile)
        plain.shuffle(plain_pile)
        assert fast_pile == plain_pile and fast.randrange(7) == plain.randrange(7)


def test_no_rules_module_imports_the_private_random_module():
    # (chance.py once did, to skip random.Random's Python seeding: 0.5% of a compiled playout, issue #23)
    from pathlib import Path
    rules_dir = Path(chance.__file__).parent
    users = sorted(str(path.relative_to(rules_dir)) for path in rules_dir.rglob("*.py")
                   if "_random import" in path.read_text(encoding="utf-8") or "import _random" in path.read_text(encoding="utf-8"))
    assert users == []


@pytest.mark.parametrize("seed", [0, 3, 2**64 + 1])
def test_shuffle_is_the_generators_own_shuffle_and_leaves_it_where_that_would(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in (0, 1, 2, 5, 44, 45, 61, 130):
        our_pile, their_pile = list(range(n)), list(range(n))
        chance.shuffle(ours, our_pile)
        theirs.shuffle(their_pile)
        assert our_pile == their_pile
        assert ours.getstate() == theirs.getstate()


def test_shuffle_leaves_a_subclass_to_its_own_shuffle():
    class Reversing(random.Random):
        def shuffle(self, pile):
            pile.reverse()

    pile = [1, 2, 3]
    chance.shuffle(Reversing(0), pile)
    assert pile == [3, 2, 1]
    assert chance.shuffle is chance._fast_shuffle


@pytest.mark.parametrize("seed", [0, 3, 2**64 + 1])
def test_randrange_is_the_generators_own_randrange_and_leaves_it_where_that_would(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in (1, 2, 3, 5, 7, 44, 64, 65, 130, 2**40 + 1):
        assert chance.randrange(ours, n) == theirs.randrange(n)
        assert ours.getstate() == theirs.getstate()
    assert chance.FAST      # (so the draws above were chance's own, not random's)


def test_randrange_leaves_a_subclass_and_a_bad_range_to_random():
    class Last(random.Random):
        def randrange(self, n):
            return n - 1

    assert chance.randrange(Last(0), 9) == 8
    with pytest.raises(ValueError):
        chance.randrange(random.Random(0), 0)


def test_randrange_asks_random_itself_where_the_checks_at_import_disagreed(monkeypatch):
    class Counting(random.Random):
        asked = 0

        def randrange(self, n):
            Counting.asked += 1
            return super().randrange(n)

    monkeypatch.setattr(chance, "FAST", False)
    rng, plain = random.Random(4), random.Random(4)
    assert [chance.randrange(rng, 10) for _ in range(20)] == [plain.randrange(10) for _ in range(20)]
    chance.randrange(Counting(0), 3)
    assert Counting.asked == 1


# -- the BLAKE2B scheme ------------------------------------------------------------------------
def _reference_bits(key: str):
    """The scheme's definition, written apart from rules.chance: the bits of BLAKE2b("KEY:0"),
    BLAKE2b("KEY:1")... from the lowest bit of each little-endian number up, as (digest, offset)."""
    import hashlib

    block = 0
    while True:
        number = int.from_bytes(hashlib.blake2b(f"{key}:{block}".encode()).digest(), "little")
        yield number, 512
        block += 1


def _reference_draws(key: str, bounds):
    """Per bound n: the next n.bit_length() bits, again while not below n; a digest's last bits too
    few for a draw are skipped."""
    digests = _reference_bits(key)
    number, left = 0, 0
    out = []
    for n in bounds:
        k = n.bit_length()
        while True:
            if left < k:
                number, left = next(digests)
            drawn, number, left = number % (1 << k), number >> k, left - k
            if drawn < n:
                break
        out.append(drawn)
    return out


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 64, 100, 200, 1500])
def test_hashed_shuffled_is_fisher_yates_on_the_keys_digests(size):
    for n in range(25):
        key = f"biome_blitz:{n}:shuffle:{size}"
        items = tuple(range(size)) if n % 2 else tuple(i % 4 for i in range(size))
        expected = list(items)
        for i, j in zip(range(size - 1, 0, -1), _reference_draws(key, range(size, 1, -1))):
            expected[i], expected[j] = expected[j], expected[i]
        assert chance.hashed_shuffled(key, items) == expected
        assert chance.shuffled_by(chance.BLAKE2B, key, items) == expected
        assert chance.hashed_below(key, range(size, 1, -1)) == _reference_draws(key, range(size, 1, -1))


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 8, 12, 20, 1000])
def test_hashed_die_is_a_draw_below_its_sides_plus_one(sides):
    for n in range(300):
        key = f"biome_blitz:{n}:die:{n % 7}"
        assert chance.hashed_die(key, sides) == _reference_draws(key, [sides])[0] + 1
        assert chance.die_by(chance.BLAKE2B, key, sides) == chance.hashed_die(key, sides)
        assert chance.die_by(chance.MERSENNE, key, sides) == random.Random(key).randint(1, sides)


def test_the_blake2b_scheme_never_changes():
    # Games are replayed from their seeds: these draws are what every saved game of the scheme was dealt.
    assert [chance.hashed_die(f"biome_blitz:7:die:{n}") for n in range(12)] == [2, 5, 5, 1, 1, 5, 3, 4, 6, 4, 2, 1]
    assert chance.hashed_shuffled("biome_blitz:7:shuffle:0", range(12)) == [11, 8, 3, 0, 4, 9, 5, 1, 6, 7, 10, 2]


def test_the_blake2b_scheme_draws_evenly():
    # 6,000 dice and 6,000 shuffles of three: each face and each order about 1,000 times (chi-squared with
    # 5 degrees of freedom under 20.5: exceeded by chance once in a thousand tries; the keys are fixed, so
    # the result is too).
    def chi2(counts, n):
        expected = n / len(counts)
        return sum((c - expected) ** 2 / expected for c in counts)
    faces = [0] * 6
    for n in range(6000):
        faces[chance.hashed_die(f"stellar:{n}:die:0") - 1] += 1
    orders: dict[tuple[str, ...], int] = {}
    for n in range(6000):
        order = tuple(chance.hashed_shuffled(f"jump_gate:{n}:shuffle:1", "abc"))
        orders[order] = orders.get(order, 0) + 1
    assert len(orders) == 6
    assert chi2(faces, 6000) < 20.5 and chi2(list(orders.values()), 6000) < 20.5


def test_hashed_shuffled_leaves_its_input_alone_and_keeps_every_card():
    items = [3, 1, 2, 0, 3]
    assert sorted(chance.hashed_shuffled("biome_blitz:1:shuffle:0", items)) == [0, 1, 2, 3, 3]
    assert items == [3, 1, 2, 0, 3]


def test_an_unknown_scheme_or_die_is_refused():
    with pytest.raises(ValueError, match="no chance scheme 'dice'"):
        chance.die_by("dice", "k")
    with pytest.raises(ValueError, match="no chance scheme"):
        chance.shuffled_by("", "k", [1, 2])
    with pytest.raises(ValueError, match="at least 1"):
        chance.hashed_die("k", 0)
