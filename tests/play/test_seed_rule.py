"""The one seed rule (play/seeds.py): the same seed and bots give the same game in the command line,
the explorer, the playtest tables and the advisor."""

import itertools
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from explorer.core.session import GameSession
from explorer.tables.hub import TableHub
from play.advise import play_out
from play.bots import bot_move
from play.cli import main as play_cli
from play.seeds import (MASK64, _from_key, decision_seed, decision_seed_in_halves, game_key, random_index,
                        random_index_in_halves, splitmix64)
from play.simulate import play_game

GAME, PLAYERS = "subastral", 3


def cli_moves(tmp_path, seed: int, bots: str) -> list[tuple[int, dict]]:
    """``rules-explorer play GAME --players N --seed S --bots B --out FILE``'s moves."""
    out = tmp_path / f"cli-{seed}-{bots}.json"
    assert play_cli(["play", GAME, "--players", str(PLAYERS), "--seed", str(seed), "--bots", bots,
                     "--out", str(out), "--json"]) == 0
    return [(move["seat"], move["action"]) for move in json.loads(out.read_text())["actions"]]


def encoded(spec, moves) -> list[tuple[int, dict]]:
    return [(seat, spec.encode_action(action)) for seat, action in moves]


@pytest.mark.parametrize("bots", ["greedy", "random"])
def test_the_explorer_plays_the_command_lines_game(tmp_path, bots):
    session = GameSession(game=GAME, players=PLAYERS, seed=7)
    session.autoplay(bots)
    assert session.spec.is_over(session.state)
    assert encoded(session.spec, session.log) == cli_moves(tmp_path, 7, bots)


def test_the_explorer_gives_the_same_moves_from_any_step(tmp_path):
    """A bot's move depends on the seed, seat, step and position only: autoplay from the middle continues
    the same game (the old per-autoplay seeding restarted the bots' random numbers at the cursor)."""
    whole = cli_moves(tmp_path, 11, "greedy")
    session = GameSession(game=GAME, players=PLAYERS, seed=11)
    session.autoplay("greedy", until_over=False)
    session.autoplay("greedy", until_over=False)
    session.autoplay("greedy")
    assert encoded(session.spec, session.log) == whole


def test_a_playtest_table_of_bots_plays_the_command_lines_game(tmp_path):
    hub = TableHub(tmp_path / "tables.sqlite3", bot_delay=0.0)
    try:
        table, _ = hub.create(GAME, PLAYERS, seed=5, controllers=["greedy"] * PLAYERS)
        deadline = time.monotonic() + 120
        while not table.over and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.over, "the table's bots did not finish"
        # The table is dealt from a secret seed made from its seed: the same game is that deal seed's.
        assert encoded(table.spec, table.moves) == cli_moves(tmp_path, table.record.seed, "greedy")
    finally:
        hub.close()


def test_the_advisors_rollout_is_the_command_lines_random_game():
    spec = rules.get_game(GAME)
    for seed in (3, 4):
        final, _, _ = play_game(spec, PLAYERS, seed, ["random"])
        assert play_out(spec, spec.new_game(PLAYERS, seed), seed) == final


def test_the_rule_is_one_function_of_seed_seat_and_step():
    seeds = {decision_seed(seed, seat, step) for seed in range(-3, 30) for seat in range(6) for step in range(200)}
    assert len(seeds) == 33 * 6 * 200                      # no two decisions share a seed
    spec = rules.get_game(GAME)
    state = spec.new_game(PLAYERS, 9)
    seat = spec.to_move(state)[0]
    moves = {spec.encode_action(bot_move("random", spec, state, seat, 9, step))["card"] for step in range(40)}
    assert len(moves) > 1                                  # the step matters...
    assert bot_move("greedy", spec, state, seat, 9, 0) == bot_move("greedy", spec, state, seat, 9, 0)   # ...and only it


def test_splitmix64_is_the_published_generators_finaliser():
    # SplitMix64 (Steele, Lea and Flood) seeded with 0 and 1: its first outputs, as every port gives them.
    assert splitmix64(0) == 0xE220A8397B1DCDAF
    assert splitmix64(1) == 0x910A2DEC89025CC1


@settings(max_examples=3000, deadline=None)
@given(key=st.integers(0, MASK64), seat=st.integers(0, 2**32 - 1), step=st.integers(0, 2**32 - 1),
       count=st.integers(1, 2**24 - 1))
def test_the_halves_give_the_seed_rules_index(key, seat, step, count):
    """The compiled build's ``random_index`` works in 32-bit halves: the same index as ``splitmix64``
    twice (here run by the interpreter, whose integers never overflow; tests/rules/test_compiled_build.py
    compares the compiled halves with the pure rule)."""
    assert random_index_in_halves(key, seat, step, count) == splitmix64(splitmix64(key ^ (seat << 32 | step))) % count


@settings(max_examples=3000, deadline=None)
@given(key=st.integers(0, MASK64), seat=st.integers(0, 2**32 - 1), step=st.integers(0, 2**32 - 1))
def test_the_halves_give_the_seed_rules_decision_seed(key, seat, step):
    """So does its ``decision_seed`` (the greedy and MCTS bots' seed)."""
    assert decision_seed_in_halves(key, seat, step) == splitmix64(key ^ (seat << 32 | step))


def test_decision_seed_on_the_edges_in_the_halves_and_outside_them():
    edges = [0, 1, 2**31, 2**32 - 1]
    for seed in [0, 1, -1, 7, 2**53, 2**64 + 3]:
        for seat, step in itertools.product(edges, edges):
            assert decision_seed(seed, seat, step) == decision_seed_in_halves(game_key(seed), seat, step)
            assert decision_seed(seed, seat, step) == _from_key(game_key(seed), seat, step)
    for seat, step in [(-1, 0), (0, -1), (2**32, 0), (0, 2**32)]:
        assert decision_seed(5, seat, step) == _from_key(game_key(5), seat, step)


def test_the_halves_on_the_edges_and_random_index_outside_them():
    edges = [0, 1, 2**31, 2**32 - 1]
    for key in [0, 1, 2**32 - 1, 2**32, 2**63, MASK64]:
        for seat, step, count in itertools.product(edges, edges, [1, 2, 6, 2**24 - 1]):
            assert random_index_in_halves(key, seat, step, count) == splitmix64(_from_key(key, seat, step)) % count
    # Past the halves' ranges, random_index takes splitmix64 itself, in both builds.
    for key, seat, step, count in [(MASK64 + 1, 0, 0, 5), (-1, 0, 0, 5), (3, 0, 2**32, 5), (3, -1, 0, 5),
                                   (3, 0, 0, 2**24), (3, 0, 0, 2**40)]:
        assert random_index(key, seat, step, count) == splitmix64(_from_key(key, seat, step)) % count
