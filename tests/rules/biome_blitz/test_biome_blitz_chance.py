"""Biome Blitz 1.1 draws its dice and reshuffles by ``rules.chance.BLAKE2B``; what was recorded with
1.0 (replays, positions without ``chance``) keeps ``MERSENNE``, so every old game replays as it was
played."""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules import chance
from rules import replay as replay_files
from rules.biome_blitz.table import _Table
from rules.protocol import InvalidPosition

GAME = rules.get_game("biome_blitz")


def played(game, players: int, seed: int, moves: int = 400):
    """A seeded random game of ``game``: its states and moves (``moves`` at most)."""
    rng, states, log = random.Random(seed), [game.new_game(players, seed)], []
    while not game.is_over(states[-1]) and len(log) < moves:
        seat = game.to_move(states[-1])[0]
        action = rng.choice(game.legal_actions(states[-1], seat))
        log.append((seat, action))
        states.append(game.apply(states[-1], seat, action))
    return states, log


def dice_rolled(states):
    """Per compete's first dice: (the state's seed, the rolls counted before, attack, defence)."""
    for before, after in zip(states, states[1:]):
        for kind, _, cards, _ in after.log:
            if kind == "dice":
                yield before.seed, before.rolls, cards[0], cards[1]


@pytest.mark.parametrize("game, scheme", [(GAME, chance.BLAKE2B), (GAME.recorded("1.0"), chance.MERSENNE)])
def test_a_competes_dice_are_drawn_by_the_games_scheme(game, scheme):
    rolled = []
    for seed in range(3):
        states, _ = played(game, 3, seed)
        assert {state.chance for state in states} == {scheme}
        rolled += dice_rolled(states)
    assert len(rolled) > 10
    for seed, rolls, attack, defend in rolled:
        assert attack == chance.die_by(scheme, f"biome_blitz:{seed}:die:{rolls}")
        assert defend == chance.die_by(scheme, f"biome_blitz:{seed}:die:{rolls + 1}")


@pytest.mark.parametrize("scheme", chance.SCHEMES)
def test_a_reshuffle_is_drawn_by_the_states_scheme(scheme):
    state = GAME.new_game(2, 11)._replace(chance=scheme)
    resource_deck, resource_discard = state.decks[0], state.discards[0] + tuple(range(5)) * 2
    state = state._replace(decks=((),) + state.decks[1:], discards=(resource_deck + resource_discard,) + state.discards[1:],
                           shuffles=4)
    table = _Table(state)
    top = table.draw(0)
    expected = chance.shuffled_by(scheme, f"biome_blitz:{state.seed}:shuffle:4", state.discards[0])
    assert (top, table.decks[0]) == (expected[0], tuple(expected[1:])) and table.shuffles == 5


def test_the_two_schemes_play_different_games_from_one_seed():
    # (else the version a record carries would not matter)
    new, _ = played(GAME, 2, 5)
    old, _ = played(GAME.recorded("1.0"), 2, 5)
    assert new[0]._replace(chance=chance.MERSENNE) == old[0]        # the same deal
    assert [s.log for s in new] != [s.log for s in old]


def test_a_replay_recorded_with_1_0_replays_with_its_dice_and_a_new_one_with_1_1():
    for game, version, scheme in ((GAME.recorded("1.0"), "1.0", chance.MERSENNE), (GAME, "1.1", chance.BLAKE2B)):
        states, log = played(game, 2, 9)
        assert any(True for _ in dice_rolled(states))
        data = replay_files.record(game, 2, 9, None, log, state=states[0])
        assert data["version"] == version == game.version_of(states[-1])
        replayed, replayed_states = replay_files.states(data)
        assert replayed_states == states and replayed_states[-1].chance == scheme
        assert replayed.new_game(2, 9).chance == scheme
    # An old file read as 1.1 would not replay: its first compete's dice differ.
    states, log = played(GAME.recorded("1.0"), 2, 9)
    data = replay_files.record(GAME.recorded("1.0"), 2, 9, None, log, state=states[0])
    with pytest.raises(replay_files.InvalidReplay, match="is illegal"):
        replay_files.states({**data, "version": "1.1"})


def test_recorded_keeps_the_card_file_and_leaves_other_versions_alone():
    assert GAME.recorded("1.1") is GAME and GAME.recorded("1.7") is GAME
    assert GAME.chance_scheme == chance.BLAKE2B and GAME.recorded("1.0").chance_scheme == chance.MERSENNE
    data = json.loads(json.dumps(GAME.cards.raw))
    data["animals"][0]["stars"] += 1          # (a card file of its own)
    edited = GAME.with_card_file(data)
    old = edited.recorded("1.0")
    assert old.cards is edited.cards and not old.cards.is_standard and old.chance_scheme == chance.MERSENNE
    assert old.new_game(2, 4).cards is edited.cards and old.new_game(2, 4).chance == chance.MERSENNE
    assert old.with_card_file(data).chance_scheme == chance.MERSENNE       # (a card file keeps the scheme)


def test_a_position_says_its_scheme_and_one_without_it_is_of_rules_1_0():
    state = GAME.new_game(3, 2)
    data = GAME.encode(state)
    assert data["state"]["chance"] == chance.BLAKE2B and GAME.decode(data).chance == chance.BLAKE2B
    older = {**data, "state": {k: v for k, v in data["state"].items() if k != "chance"}}
    assert GAME.decode(older).chance == chance.MERSENNE
    assert GAME.encode(GAME.decode(older))["state"]["chance"] == chance.MERSENNE
    with pytest.raises(InvalidPosition, match="chance must be one of mersenne-twister") as refused:
        GAME.decode({**data, "state": {**data["state"], "chance": "dice"}})
    assert refused.value.where == "state.chance" and "chance" in refused.value.problems["ja"]
