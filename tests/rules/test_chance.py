"""rules.chance gives exactly what random.Random(key) gives: old replays must play out the same."""

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
    assert chance.randrange is chance._fast_randrange


def test_randrange_leaves_a_subclass_and_a_bad_range_to_random():
    class Last(random.Random):
        def randrange(self, n):
            return n - 1

    assert chance.randrange(Last(0), 9) == 8
    with pytest.raises(ValueError):
        chance.randrange(random.Random(0), 0)
