"""Stellar bad input: illegal moves are refused naming the rule and change nothing; malformed
positions and actions raise :class:`rules.InvalidPosition` saying what and where, and nothing else
(hypothesis, derandomized), as ``tests/rules/subastral/test_bad_input.py`` does for Subastral.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.helpers.position_fuzz import HYPOTHESIS, can_be_played, mutated_positions
from tests.helpers.position_fuzz import junk_decode_tests, position_junk as position_junk_of
from tests.helpers.position_fuzz import roundtrips as shared_roundtrips
from rules.stellar import (
    ChooseStarters, ClearRow, FinalNotebookCard, PlayToNotebook, PlayToTelescope, TakeRowCard,
)
from rules.stellar.position import STATE_KEYS

GAME = rules.get_game("stellar")
CARD_NAMES = list(GAME.cards.kind_names)
SLOTS = list(GAME.cards.telescope.slot_names)


def sample_positions() -> list[dict]:
    """One position per (phase, variant setting) reached by seeded random games."""
    found = {}
    settings_ = [{}, {"satellite_clear": "after_take", "fifth_starter_to_box": True, "face_down_row_number": "three"}]
    for seed in range(12):
        variants = settings_[seed % 2]
        state = GAME.new_game(2, seed, variants)
        rng = random.Random(seed)
        while True:
            found.setdefault((state.phase, seed % 2), GAME.encode(state))
            if GAME.is_over(state):
                break
            seat = rng.choice(GAME.to_move(state))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return [found[key] for key in sorted(found, key=str)]


SAMPLES = sample_positions()


def sample(phase: str) -> dict:
    return copy.deepcopy(next(s for s in SAMPLES if s["state"]["phase"] == phase))


def refused(state, seat, action, *, rule: str, says: str) -> rules.IllegalAction:
    before, snapshot = GAME.encode(state), state._replace()
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, seat, action)
    error = caught.value
    assert rule in error.rule and says in error.reason
    assert str(error) == f"{error.reason} (rule: {error.rule})"
    assert GAME.encode(state) == before and state == snapshot
    return error


def invalid(data, *, says: str, where: str | None = None) -> rules.InvalidPosition:
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in str(caught.value), str(caught.value)
    if where is not None:
        assert caught.value.where == where
    return caught.value


# -- illegal moves -------------------------------------------------------------------------------
def test_samples_cover_every_phase():
    assert {s["state"]["phase"] for s in SAMPLES} == {"starters", "take", "play", "place", "clear", "final", "over"}


def test_wrong_starters_are_refused():
    state = GAME.decode(sample("starters"))
    seat = GAME.to_move(state)[0]
    refused(state, seat, ChooseStarters(telescope="satellite", notebook="planet-1-3stars"), rule="setup", says="starter cards are")


def test_taking_an_empty_or_missing_row_slot_is_refused():
    state = GAME.decode(sample("take"))
    seat = state.seat
    refused(state, seat, TakeRowCard(slot=0), rule="turn phase 1", says="no row card 0")
    refused(state, seat, TakeRowCard(slot="2"), rule="turn phase 1", says="no row card '2'")
    data = sample("take")
    data["state"]["row"]["4"] = None
    refused(GAME.decode(data), seat, TakeRowCard(slot=4), rule="turn phase 1", says="row slot 4 is empty")


def test_playing_a_card_not_in_hand_is_refused():
    state = GAME.decode(sample("play"))
    missing = next(c for c in CARD_NAMES if GAME.cards.kind(c, where="") not in state.hands[state.seat])
    refused(state, state.seat, PlayToNotebook(card=missing), rule="turn phase 2", says="is not in Player")


def test_playing_into_a_filled_or_unknown_slot_is_refused():
    state = GAME.decode(sample("play"))
    card = GAME.cards.card_name(state.hands[state.seat][0])
    refused(state, state.seat, PlayToTelescope(card=card, slot="top-1"), rule="telescope placement rule", says="already filled")
    refused(state, state.seat, PlayToTelescope(card=card, slot="top-9"), rule="telescope placement rule", says="no telescope slot")


def test_placing_another_card_than_the_second_card_is_refused():
    state = GAME.decode(sample("place"))
    other = next(c for c in CARD_NAMES if GAME.cards.kind(c, where="") != state.pending)
    refused(state, state.seat, PlayToTelescope(card=other, slot="bottom-1"), rule="turn phase 3", says="the second card is")
    refused(state, state.seat, PlayToNotebook(card=other), rule="turn phase 3", says="into the telescope")


def test_clear_decision_belongs_to_the_opponent():
    state = GAME.decode(sample("clear"))
    refused(state, state.seat, ClearRow(clear=True), rule="satellite", says="decides whether to clear the row")
    refused(state, 1 - state.seat, TakeRowCard(slot=1), rule="satellite", says="must first decide")


@pytest.mark.parametrize("action", [TakeRowCard(slot=1), PlayToNotebook(card="satellite"), ClearRow(clear=False)])
def test_wrong_action_for_the_final_phase_is_refused(action):
    state = GAME.decode(sample("final"))
    refused(state, GAME.to_move(state)[0], action, rule="scoring", says="final card")


@pytest.mark.parametrize("action", [TakeRowCard(slot=1), FinalNotebookCard(card="satellite")])
def test_acting_after_game_over_is_refused(action):
    refused(GAME.decode(sample("over")), 0, action, rule="game end", says="the game is over")


@pytest.mark.parametrize("seat", [2, -1, "0", None])
def test_seat_that_does_not_exist_is_refused(seat):
    refused(GAME.decode(sample("take")), seat, TakeRowCard(slot=1), rule="turn order", says="there is no seat")


@pytest.mark.parametrize("action", [None, "take", {"type": "take", "slot": 1}])
def test_nonsense_action_objects_are_refused(action):
    state = GAME.decode(sample("play"))
    refused(state, state.seat, action, rule="turn phase 2", says="must play a hand card")


# -- malformed positions -------------------------------------------------------------------------
def test_unknown_card_is_invalid():
    data = sample("take")
    data["state"]["deck"][0] = "planet-7-1star"
    invalid(data, says="unknown card 'planet-7-1star'", where="state.deck[0]")


def test_too_many_copies_are_invalid():
    data = sample("take")
    data["state"]["deck"] += ["satellite"] * 6
    invalid(data, says="satellite appears", where="state")


def test_card_in_the_wrong_notebook_stack_is_invalid():
    data = sample("take")
    data["state"]["notebooks"][0]["moon"].append("satellite")
    invalid(data, says="belongs in the satellite stack, not moon", where="state.notebooks[0].moon[0]"
            if not sample("take")["state"]["notebooks"][0]["moon"] else None)


def test_unknown_telescope_slot_is_invalid():
    data = sample("take")
    data["state"]["telescopes"][1]["top-6"] = None
    invalid(data, says="unknown field(s) top-6", where="state.telescopes[1]")


def test_wrong_player_count_is_invalid():
    data = sample("take")
    data["state"]["players"] = 3
    invalid(data, says="played by 2 players", where="state.players")


def test_pending_card_outside_the_place_phase_is_invalid():
    data = sample("take")
    data["state"]["pending"] = data["state"]["deck"].pop()
    invalid(data, says="only the place phase", where="state.pending")


def test_box_without_the_switch_is_invalid():
    data = sample("take")
    data["variants"]["fifth_starter_to_box"] = False
    starters = {GAME.cards.card_name(k) for k in GAME.cards.starters}
    zones = [data["state"]["deck"], data["state"]["discard"], *data["state"]["hands"]]
    zone = next(z for z in zones if starters & set(z))
    fifth = next(c for c in zone if c in starters)
    zone.remove(fifth)
    data["state"]["box"] = [fifth]
    invalid(data, says="fifth_starter_to_box", where=None)


def test_bad_variant_value_is_invalid():
    data = sample("take")
    data["variants"]["satellite_clear"] = "never"
    invalid(data, says="variant 'satellite_clear' takes one of", where="variants")


def test_game_over_with_hand_cards_is_invalid():
    data = sample("over")
    data["state"]["hands"][0] = [data["state"]["discard"].pop()]
    invalid(data, says="the game is over", where="state.hands")


@pytest.mark.parametrize("data,says", [
    (None, "an action is an object"),
    ({"type": "jump"}, "action type must be one of"),
    ({"type": "take", "slot": 6}, "must be a whole number from 1 to 5"),
    ({"type": "telescope", "card": "satellite", "slot": "top-0"}, "unknown telescope slot"),
    ({"type": "clear_row", "clear": "yes"}, "must be true or false"),
    ({"type": "final", "card": "sattelite"}, "unknown card"),
])
def test_decode_action_on_junk_is_invalid(data, says):
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode_action(data)
    assert says in str(caught.value)


def test_decode_action_reads_what_encode_action_writes():
    for action in (ChooseStarters(telescope="planet-3-1star", notebook="moon-3-1star"), TakeRowCard(slot=5),
                   PlayToTelescope(card="satellite", slot="middle-2"), PlayToTelescope(card="moon-1-3stars", slot="top-2", face_down=True),
                   PlayToNotebook(card="planet-6/0-0stars"), ClearRow(clear=False), FinalNotebookCard(card="satellite")):
        assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action


# -- hypothesis: junk and mutations --------------------------------------------------------------
WORDS = ["stellar", "1.0", "take", "play", "place", "clear", "final", "over", "starters", "telescope", "notebook",
         "satellite", "planet", "top-1", "bottom-4", "face_down", "choose_starters", "clear_row"]
KEYS = ["game", "version", "variants", "state", "cards", "comment", "type", "card", "slot", "face_down", "clear",
        "telescope", "notebook", *STATE_KEYS, *SLOTS, *"12345"]
scalars = (st.none() | st.booleans() | st.integers(-2, 13) | st.integers() | st.floats()
           | st.text(max_size=8) | st.sampled_from(WORDS + CARD_NAMES))
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5),
    max_leaves=12,
)
action_junk = junk | st.fixed_dictionaries(
    {"type": st.sampled_from(["choose_starters", "take", "telescope", "notebook", "clear_row", "final"]) | junk},
    optional={"card": junk, "slot": junk, "face_down": junk, "clear": junk, "telescope": junk, "notebook": junk},
)
position_junk = position_junk_of(GAME, {}, SAMPLES, STATE_KEYS, junk)


def roundtrips(state) -> None:
    shared_roundtrips(GAME, state)


test_decode_junk_raises_only_invalid_position, test_decode_action_junk_raises_only_invalid_position = \
    junk_decode_tests(GAME, position_junk, action_junk)


mutated = mutated_positions(SAMPLES, junk, CARD_NAMES + [None, "planet-7-1star", "comet-1-1star", {"face_down": "satellite"}])


@HYPOTHESIS
@given(mutated)
def test_mutated_position_roundtrips_or_is_invalid(data):
    try:
        state = GAME.decode(data)
    except rules.InvalidPosition:
        return
    roundtrips(state)


@HYPOTHESIS
@given(mutated)
def test_mutated_position_that_decodes_can_be_played(data):
    try:
        state = GAME.decode(data)
    except rules.InvalidPosition:
        return
    can_be_played(GAME, state)


@pytest.mark.parametrize("slot,down,says", [(None, False, "no telescope slot None"), ("top-2", "yes", "face_down is true or false")])
def test_malformed_telescope_play_is_refused(slot, down, says):
    state = GAME.decode(sample("play"))
    card = GAME.cards.card_name(state.hands[state.seat][0])
    refused(state, state.seat, PlayToTelescope(card=card, slot=slot, face_down=down), rule="telescope placement rule", says=says)


def test_a_clear_before_the_takers_play_needs_a_card_in_the_takers_hand():
    """With satellite_clear at "after_take" the opponent's clear comes before the taker plays a hand
    card: a file whose taker holds none decoded, and after either answer of the opponent the taker had
    no move (found by an outside test starving the engines)."""
    from tests.helpers.position_fuzz import phase_states

    variants = {"satellite_clear": "after_take"}
    state = next(s for s in phase_states(GAME, players=2, variants=variants) if s.phase == "clear")
    data = GAME.encode(state)
    data["state"]["hands"][state.seat] = []
    data["state"]["known_hands"][state.seat] = []
    with pytest.raises(rules.InvalidPosition, match=f"Player {state.seat + 1} is to play but has no card in hand"):
        GAME.decode(data)
    GAME.decode(GAME.encode(state))     # (as play left it, the taker holds the card it will play)
