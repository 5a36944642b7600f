"""Biome Blitz's remembered list parts (``fast/caches.py``) give the lists worked out afresh: games are
played with the caches warm (entries shared between hands, seats and games), and at many decisions the
list is compared with the one a fresh set of caches gives for the same state."""

from __future__ import annotations

import random

import pytest

from rules.biome_blitz.fast import listing
from rules.biome_blitz.fast.memo import MEMO
from rules.biome_blitz.fast.caches import caches_for
from tests.helpers.biome_blitz import EXTENDED, GAME, SWITCHED


def afresh(game, state, seat) -> list:
    """The legal actions with every remembered part forgotten."""
    cards = state.cards
    kept = cards.__dict__.pop("speed_caches", None)      # (a cached property)
    last = MEMO.last_caches, MEMO.last_action_phase
    MEMO.last_caches, MEMO.last_action_phase = None, (None, ())
    try:
        return game.legal_actions(state, seat)
    finally:
        cards.__dict__["speed_caches"] = kept
        MEMO.last_caches, MEMO.last_action_phase = last


#: Every switch at the reading that is not its default (immune_power "effective" makes the compete
#: pairs depend on the teams' ecosystems, all_different_wild the ForageAll lists on the market's wilds).
@pytest.mark.parametrize("variants", [None, SWITCHED], ids=["default", "switched"])
@pytest.mark.parametrize("game", [GAME, EXTENDED], ids=["standard", "every-ability"])
def test_remembered_lists_are_the_lists_worked_out_afresh(game, variants):
    compared = 0
    for players in range(2, 7):
        for seed in range(8):
            pick = random.Random(seed * 13 + players).random
            state = game.new_game(players, seed, variants)
            while seats := game.to_move(state):
                actions = game.legal_actions(state, seats[0])
                if pick() < 0.2:
                    assert actions == afresh(game, state, seats[0]), (players, seed, state.turn)
                    compared += 1
                state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
    assert compared > 1000


def test_hands_with_the_same_capped_counts_share_their_entry():
    """Counts beyond what any price or battle cost can use do not matter: such hands share one entry."""
    caches = caches_for(GAME.cards)
    for players in (2, 3):
        for seed in range(20):
            state = GAME.new_game(players, seed, None)
            pick = random.Random(seed).random
            while seats := GAME.to_move(state):
                actions = GAME.legal_actions(state, seats[0])
                state = GAME.apply(state, seats[0], actions[int(pick() * len(actions))])
    groups = [group for group in caches.by_hand.values() if group.caps is not None]
    assert groups and any(len(group.by_counts) < len(group) for group in groups)
    for group in groups:
        for hand, entry in group.items():
            capped = tuple(min(hand.count(symbol), cap) for symbol, cap in enumerate(group.caps))
            assert entry.counts == capped and group.by_counts[capped] is entry
    # The caps bound every price's and battle cost's use of a symbol (wild last).
    for records in caches.cards_for.values():
        for deck in records[1:]:
            for record in filter(None, deck):
                assert all(c <= g for c, g in zip(record.caps, caches.whole_caps))
    assert all(c <= g for caps in caches.battle_caps for c, g in zip(caps, caches.printed_caps))


def test_what_is_worked_out_once_per_card_set_is_a_cached_property():
    from functools import cached_property
    from pathlib import Path

    from rules.biome_blitz.cards import CardSet
    for name in ("piles", "speed_caches", "speed_flags"):
        assert isinstance(vars(CardSet)[name], cached_property), name
    assert caches_for(GAME.cards) is GAME.cards.speed_caches is GAME.cards.speed_caches
    package = Path(caches_for.__code__.co_filename).parent.parent
    patched = [path.name for path in package.rglob("*.py") if '__dict__["' in path.read_text(encoding="utf-8")
               or '__dict__.get(' in path.read_text(encoding="utf-8")]
    assert patched == []


def test_pure_answers_are_functools_caches_and_only_caches_py_clears_a_dict():
    """Answers of pure functions of immutable arguments are remembered by bounded functools caches
    (no module dict cleared by hand), and the one place a Caches dict starts over is ``remember``. The
    trade and forage phases' lists (compiled code calls a functools cache through the interpreter) are
    in module dicts that only ``remember`` fills."""
    import ast
    from pathlib import Path

    from rules.biome_blitz import checks, choices, costs
    from rules.biome_blitz.fast import caches as caches_module

    remembered = [costs._payments, checks._symbols_of, choices._named, choices._explore_action,
                  choices._discover_action, choices._compete_action, choices._replace_action,
                  choices._forage_all_action]
    for function in remembered:
        info = function.cache_info()        # (a functools cache)
        assert info.maxsize is None or info.maxsize <= 100000, function
    # Warm: the caches answer, and the same objects come back (apply knows offered actions by identity).
    state = GAME.new_game(4, 3, None)
    for _ in range(200):
        if not (seats := GAME.to_move(state)):
            break
        actions = GAME.legal_actions(state, seats[0])
        assert all(a is b for a, b in zip(actions, GAME.legal_actions(state, seats[0])))
        state = GAME.apply(state, seats[0], actions[len(actions) // 2])
    assert costs._payments.cache_info().hits and checks._symbols_of.cache_info().hits
    for made in (listing._TRADE_LISTS, listing._SECOND_PICKS, listing._REPLIES):
        assert made and len(made) <= caches_module.LIMIT + 1
    source_of_listing = (Path(listing.__file__).parent / "listing.py").read_text(encoding="utf-8")
    for name in ("_TRADE_LISTS", "_SECOND_PICKS", "_REPLIES"):     # filled by remember alone
        assert f"{name}[" not in source_of_listing and f"remember({name}, " in source_of_listing
    assert costs.payments((0, 0, 3), (2, 0, 0)) is costs.payments((0, 0, 0, 3), (2, 0, 0))   # counts capped
    package = Path(caches_module.__file__).parent.parent
    clears = {}
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "clear":
                clears.setdefault(path.name, []).append(node.lineno)
    source = Path(caches_module.__file__).read_text(encoding="utf-8").splitlines()
    # caches.py: remember's, and Caches.hand's start-over of the by_hand groups in place.
    assert set(clears) == {"caches.py"}, clears
    assert all("cache.clear()" in source[n - 1] or "made" in source[n - 1] for n in clears["caches.py"])


def test_payments_are_every_exact_payment_found_by_brute_force():
    """``costs.payments`` (remembered, with its search over units) against every sub-multiset of the
    hand tried by brute force: a card pays a unit of its own symbol, or any unit if wild, or one its
    symbol substitutes for; ``free`` units (at most the cost's) are left unpaid."""
    from itertools import combinations, permutations

    from rules.biome_blitz import costs
    from rules.biome_blitz.cards import WILD

    def pays(card, unit, substitute):
        return card == unit or card == WILD or substitute.get(unit) == card

    def brute(hand, cost, free, substitute):
        needs = [s for s in range(3) for _ in range(cost[s])]
        size = len(needs) - min(free, len(needs))
        found = set()
        for cards in set(combinations(sorted(hand), size)):
            if any(all(pays(c, u, substitute) for c, u in zip(cards, units)) for units in permutations(needs, size)):
                found.add(cards)
        return tuple(sorted(found))

    pick = random.Random(5)
    for _ in range(300):
        hand = tuple(sorted(pick.randrange(4) for _ in range(pick.randrange(7))))
        cost = tuple(pick.randrange(3) for _ in range(3))
        free = pick.choice((0, 0, 1, 2))
        substitute = pick.choice(({}, {}, {0: 1}, {2: 0}, {1: 2, 0: 2}))
        assert costs.payments(hand, cost, free=free, substitute=substitute) == brute(hand, cost, free, substitute), (
            hand, cost, free, substitute)
