"""A position always has a move: starved positions (decks, discards, markets, rows, hands, supplies
emptied) and what they lead to are either over or give every seat to move a legal action.

The conformance suite runs the generator (``position_fuzz.deadlocks``) over every game; this module
checks the generator itself, and keeps the deadlocks it found as reproducers (``tests/starved/``: a
replay from the starved position to the position with no move) and the two Biome Blitz ones of
issue #19 written out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from tests.helpers.position_fuzz import STARVABLE, _paths, deadlocks, no_move, phase_states, seeded_states, starved
from rules import IllegalAction, InvalidPosition
from rules import replay as replays

FOUND = sorted((Path(__file__).resolve().parents[1] / "starved").glob("*.json"))


@pytest.mark.parametrize("path", FOUND, ids=[p.stem for p in FOUND])
def test_deadlocks_found_by_the_generator_are_gone(path):
    """Each file is a replay from a starved position: every position on the way has a move (a move
    the fixed rules refuse ends the line: the position before it had one)."""
    data = replays.load(path)
    game, state, moves = replays.read(data)
    for seat, action in moves:
        assert no_move(game, state) is None, f"{data['comment']}; at {json.dumps(game.encode(state))}"
        try:
            state = game.apply(state, seat, action)
        except IllegalAction:
            return
    assert no_move(game, state) is None, data["comment"]


BIOME_BLITZ = rules.get_game("biome_blitz")


def biome_blitz_without_resources(market, hands, **state):
    """A 2-player Biome Blitz position (seed 0's deal) with no resource deck nor discards, this
    resource market and these hands, seat 0 to move."""
    data = BIOME_BLITZ.encode(BIOME_BLITZ.new_game(2, 0))
    data["state"].update(seat=0, hands=hands, **state)
    data["state"]["decks"]["resource"] = {"deck": [], "discard": [], "market": market}
    return BIOME_BLITZ.decode(data)


def test_biome_blitz_forage_of_the_last_face_up_leaf_leaves_a_move():
    """Deadlock (a): nothing to draw and one leaf face up; foraging it must not leave the seat
    without a way to finish the forage."""
    state = biome_blitz_without_resources(["leaf", None, None], [["meat"] * 4, ["leaf", "leaf", "meat", "wild"]])
    forage = BIOME_BLITZ.decode_action({"type": "forage", "slot": 1})
    assert forage in BIOME_BLITZ.legal_actions(state, 0)
    after = BIOME_BLITZ.apply(state, 0, forage)
    assert no_move(BIOME_BLITZ, after) is None, json.dumps(BIOME_BLITZ.encode(after)["state"])


def test_biome_blitz_main_action_after_three_trade_offers_with_nothing_to_draw_or_pay():
    """Deadlock (b): no resources to draw, nothing affordable, and the turn's three trade offers made:
    the seat must still have an action (the turn must be able to end)."""
    state = biome_blitz_without_resources([None, None, None], [["water"], ["leaf", "water"]], trades=3)
    assert no_move(BIOME_BLITZ, state) is None, json.dumps(BIOME_BLITZ.encode(state)["state"])


def test_biome_blitz_forage_waiting_for_a_second_pick_with_nothing_to_pick_is_refused():
    """Deadlock (c), found from outside in the What-if editor: a forage after its first pick, with the
    resource deck, its discards and the market emptied. It decoded, and the seat to move had no move
    ("Let bots play" failed on the server). The forage ends after the first pick then (``apply``), so
    no such position can arise: the file is refused, naming the rule, in both languages."""
    data = BIOME_BLITZ.encode(next(state for state in phase_states(BIOME_BLITZ, players=2) if state.phase == "forage"))
    data["state"]["decks"]["resource"] = {"deck": [], "discard": [], "market": [None, None, None]}
    with pytest.raises(InvalidPosition) as refused:
        BIOME_BLITZ.decode(data)
    assert refused.value.where == "state.phase" and "nothing is left to pick" in refused.value.problems["en"]
    assert "取れるものがありません" in refused.value.problems["ja"]
    # (a face-up wild alone cannot be the second pick either; one leaf can)
    data["state"]["decks"]["resource"]["market"] = ["wild", None, None]
    with pytest.raises(InvalidPosition, match="nothing is left to pick"):
        BIOME_BLITZ.decode(data)
    data["state"]["decks"]["resource"]["market"] = ["wild", "leaf", None]
    assert no_move(BIOME_BLITZ, BIOME_BLITZ.decode(data)) is None


#: Zones the position format can never show empty, and why: the generator's starved positions then
#: never empty them (every other zone must decode emptied in some position, or it starves nothing).
NEVER_EMPTY = {("starligned", "hand to move"): "a Starligned hand holds exactly the cards its stage and round deal"}


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_starvable_zone_is_emptied_in_some_position_that_decodes(game_id):
    """A zone whose emptied form no position file accepts starves nothing: a market emptied to no slots
    at all (it has three, null when empty) never decoded, so no starved position had an empty Biome
    Blitz market or Jump Gate planet, and deadlock (c) went unseen. Each zone, emptied alone, decodes
    from some seeded or phase position, but those the format cannot show empty (``NEVER_EMPTY``)."""
    game = rules.get_game(game_id)
    states = [*seeded_states(game), *phase_states(game)]
    for zone in STARVABLE[game_id]:
        decoded = 0
        for state in states:
            try:
                game.decode(starved(game, state, (zone,)))
                decoded += 1
            except InvalidPosition:
                pass
        assert (decoded == 0) == ((game_id, zone) in NEVER_EMPTY), (zone, decoded, len(states))


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_starvable_zone_names_fields_of_real_positions(game_id):
    """A zone renamed in the position format would starve nothing: each zone's patterns name fields
    of every seeded position, and the position with every zone emptied has empty hands."""
    game = rules.get_game(game_id)
    states = list(seeded_states(game))
    for state in states:
        data, movers = game.encode(state), set(game.to_move(state))
        for zone, patterns in STARVABLE[game_id].items():
            found = [path for pattern in patterns for path in _paths(data["state"], pattern, movers)]
            # (no hand is to move at the end; no other hand when every seat decides at once)
            nobody = {"hand to move": not movers, "other hands": len(movers) == state.players}
            assert found or nobody.get(zone), zone
    state = states[len(states) // 2]
    emptied = starved(game, state, list(STARVABLE[game_id]))["state"]
    assert emptied["hands"] == [[] for _ in emptied["hands"]]


class _StuckWhenCloudOneIsEmpty:
    """Subastral, but a seat to play has no legal action while cloud 1 is empty: a planted deadlock."""

    def __init__(self):
        self.game = rules.get_game("subastral")

    def __getattr__(self, name):
        return getattr(self.game, name)

    def legal_actions(self, state, seat):
        if state.phase == "play" and not state.clouds[0]:
            return []
        return self.game.legal_actions(state, seat)


def test_the_generator_finds_a_planted_deadlock():
    found = list(deadlocks(_StuckWhenCloudOneIsEmpty(), budget=512))
    assert found
    for zones, start, moves, position, seat in found:
        assert position["state"]["clouds"]["1"] == [] and position["state"]["phase"] == "play"
        assert seat == position["state"]["seat"]
    assert any(zones == ("cloud 1",) and not moves for zones, _, moves, _, _ in found)
