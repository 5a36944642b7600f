"""What a seat knows of hidden cards, and the determinizations that keep it (``sample_hidden``).

A determinization for seat s re-deals what s cannot see; every card s knows to be in an opponent's
hand (taken face up, traded, stolen: public) or at a place in a deck (what s's peek showed) stays
where it is. The positions are written as in ``test_biome_blitz_rules``.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules.biome_blitz import Discover, Forage, ForagePick, TradeAnswer, TradeAsk, TradeGive, TradePropose, TradeWith
from tests.helpers.biome_blitz import (
    SYMBOLS, after_opponents_turn, compete, decoded, hand, play, position, state_of,
)

GAME = rules.get_game("biome_blitz")
DECK = ("meat", "leaf", "water", "leaf", "meat", "water", "leaf", "water", "meat", "leaf", "wild", "wild", "meat")


def samples(state, seat, count=40):
    return [GAME.sample_hidden(state, seat, random.Random(i)) for i in range(count)]


def known(state, seat: int) -> list[str]:
    return [SYMBOLS[s] for s in state.known[seat]]


def test_cards_taken_from_the_face_up_market_stay_in_the_takers_hand_in_every_sample():
    # Player 2 starts with no cards and forages two face-up cards: everyone knows their whole hand.
    state = state_of(seat=1, hands=[["leaf", "water", "meat", "wild"], []], resource_deck=DECK,
                     resource_market=("water", "wild", "meat"))
    state = play(state, Forage(slot=1), ForagePick(slot=3))
    assert hand(state, 1) == ["water", "meat"] and known(state, 1) == ["water", "meat"]
    twins = samples(state, 0)
    assert all(hand(twin, 1) == ["water", "meat"] for twin in twins)
    assert len({twin.decks[0] for twin in twins}) > 1       # the rest is still re-dealt


def test_cards_drawn_from_the_deck_are_not_known_to_the_others():
    state = state_of(seat=1, hands=[["leaf", "water", "meat", "wild"], []], resource_deck=DECK)
    state = play(state, Forage(slot=0), ForagePick(slot=0))
    assert known(state, 1) == [] and len({tuple(hand(twin, 1)) for twin in samples(state, 0)}) > 1


def test_a_paid_card_may_have_been_a_known_one():
    state = state_of(hands=[["water"], ["leaf"]], resource_deck=DECK, resource_market=("leaf", "water", "meat"),
                     animal_market=["leafcutter_ant", "heron", "owl"])
    state = play(state, Forage(slot=1), ForagePick(slot=3))     # a face-up leaf and meat
    assert known(state, 0) == ["leaf", "meat"]
    state = play(state, Forage(slot=0), ForagePick(slot=0))     # Player 2's turn
    state = play(state, Discover(deck="animal", slot=1, pay=("leaf",)))
    assert known(state, 0) == ["meat"] and hand(state, 0) == ["water", "meat"]
    assert all("meat" in hand(twin, 0) for twin in samples(state, 1))


def test_cards_passed_on_in_a_trade_are_known_where_they_went():
    state = state_of(players=3, hands=[["leaf", "water"], ["meat", "meat"], ["wild", "wild"]], resource_deck=DECK)
    state = play(state, TradeWith(seat=1), TradeGive(symbol="leaf"), TradeAsk(symbol="meat"), TradePropose(),
                 TradeAnswer(accept=True))
    assert known(state, 0) == ["meat"] and known(state, 1) == ["leaf"]
    for twin in samples(state, 2):
        assert "meat" in hand(twin, 0) and "leaf" in hand(twin, 1)
    for twin in samples(state, 0):          # Player 1 knows the leaf they gave is in Player 2's hand
        assert "leaf" in hand(twin, 1)


def test_cards_taken_by_a_steal_are_known_in_the_attackers_hand():
    state = decoded(teams=[["crocodile"], ["gazelle"]], hands=[["meat"], ["meat", "meat", "wild"]], faces=(6, 1))
    after = play(state, compete("crocodile", "gazelle"))
    assert known(after, 0) == ["meat"] and all("meat" in hand(twin, 0) for twin in samples(after, 1))


def test_what_a_peek_showed_stays_at_its_place_in_the_owners_samples_owl():
    after = after_opponents_turn(teams=[["owl"], []], resource_deck=("meat", "water", "wild", "leaf", "leaf", "meat"))
    assert SYMBOLS[after.decks[0][0]] == "wild" and after.peeked
    assert all(SYMBOLS[twin.decks[0][0]] == "wild" for twin in samples(after, 0))
    assert {SYMBOLS[twin.decks[0][0]] for twin in samples(after, 1)} != {"wild"}       # the others never saw it


def test_a_peeked_card_that_left_its_deck_is_no_longer_held_in_place_owl():
    after = after_opponents_turn(teams=[["owl"], []], resource_deck=("meat", "water", "wild", "leaf", "leaf", "meat"))
    after = play(after, Forage(slot=0))      # the owl's owner draws the wild they saw
    assert SYMBOLS[after.pending[0]] == "wild"
    assert {SYMBOLS[twin.decks[0][0]] for twin in samples(after, 0)} != {"leaf"}


def test_knowledge_is_written_in_positions_and_old_positions_load_without_it():
    after = after_opponents_turn(teams=[["owl"], []], resource_deck=("meat", "water", "wild", "leaf", "leaf", "meat"),
                                 resource_market=("leaf", "water", "meat"))
    after = play(after, Forage(slot=1))
    data = GAME.encode(after)
    assert data["state"]["known"] == [["leaf"], []]
    assert data["state"]["peeked"] == [{"seat": 0, "deck": "resource", "from_bottom": 3, "card": "wild", "shuffles": 0}]
    assert GAME.decode(data) == after._replace(log=())
    plain = position()
    assert "known" not in plain["state"] and GAME.decode(plain).known == ((), ())


@pytest.mark.parametrize("field, value, says", [
    ("known", [["wild"], []], "what the others know Player 1 holds must be cards of that hand"),
    ("peeked", [{"seat": 0, "deck": "resource", "from_bottom": 9, "card": "wild", "shuffles": 0}],
     "the peek saw wild there"),
    # A peek dated after a reshuffle still to come was read as an old peek and accepted; once the game
    # reached that reshuffle, its own position was refused, and a bot's re-deal failed (an outside tester).
    ("peeked", [{"seat": 0, "deck": "resource", "from_bottom": 0, "card": "wild", "shuffles": 1}],
     "state.peeked[0].shuffles: must be a whole number from 0 to 0, not 1"),
])
def test_knowledge_that_does_not_match_the_cards_is_invalid(field, value, says):
    data = position()
    data["state"][field] = value
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in str(caught.value)


def test_a_re_dealt_world_does_not_know_how_the_next_compete_rolls():
    """The game's seed names every die to come, and no seat knows it: a look-ahead's worlds roll their
    own dice. (With the real seed, 30 worlds of 30 knew the roll: a bot or the advisor saw the future.)"""
    state = GAME.new_game(2, 7)
    pick = random.Random(7).random
    while True:     # a seeded random game, up to the first decision that may start a compete
        seat = GAME.to_move(state)[0]
        actions = GAME.legal_actions(state, seat)
        competes = [action for action in actions if type(action).__name__ == "Compete"]
        if competes:
            break
        state = GAME.apply(state, seat, actions[int(pick() * len(actions))])
    rolled = {GAME.apply(twin, seat, competes[0]).last_compete for twin in samples(state, seat, 30)}
    assert len(rolled) > 1
    assert GAME.apply(state, seat, competes[0]).last_compete is not None
