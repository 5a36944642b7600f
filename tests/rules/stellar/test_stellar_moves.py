"""A Stellar position always has a move (issue #19): a card file whose deck cannot last the 11 rounds
is refused, and a position written by hand that runs out of cards plays on to the end instead of
leaving a seat in ``to_move`` with nothing to do.

The count (``rules.stellar.cards.deck_cards_needed``): setup deals 2 cards to each hand and 5 to the
row; each of the 22 turns takes a row card and a second card and refills the row from the deck; the
last turn's second card may have to be the deck's top card, so 2x2 + 5 + 2x21 + 1 = 52 for two players.
"""

from __future__ import annotations

import copy
import random

import pytest

import rules
from rules.stellar import Stellar
from rules.stellar.cards import deck_cards_needed, parse_cards, standard_cards
from tests.helpers.stellar import load, telescope

GAME = rules.get_game("stellar")


def card_file(satellites: int) -> dict:
    """The standard card file with ``satellites`` satellites (it has 5, and 55 cards besides the starters)."""
    raw = copy.deepcopy(dict(standard_cards().raw))
    raw["satellites"] = {**raw["satellites"], "copies": satellites}
    return raw


def random_game(game, state, seed: int):
    """Every state of a seeded random game from ``state``, each seat in ``to_move`` checked to have a move."""
    rng = random.Random(seed)
    states = [state]
    while not game.is_over(state):
        movers = game.to_move(state)
        assert movers, f"phase {state.phase}: nobody to move but the game is not over"
        for seat in movers:
            assert game.legal_actions(state, seat), f"seat {seat} must move in phase {state.phase} but cannot"
        seat = rng.choice(movers)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def missed(states) -> set[str]:
    """The parts of turns the deck could not supply."""
    out = set()
    for state in states:
        for kind, _, _, extra in state.log:
            if kind in ("take_skipped", "turn_skipped") or (kind == "deck_empty" and extra == "second card"):
                out.add(kind if kind != "deck_empty" else "second card")
    return out


def test_deck_cards_needed_for_a_full_two_player_game_is_52():
    assert deck_cards_needed(2) == 2 * 2 + 5 + 2 * 21 + 1 == 52
    assert len(standard_cards().deck()) == 55  # the shipped file has enough


def test_card_file_whose_deck_cannot_last_11_rounds_is_refused_in_both_languages():
    with pytest.raises(rules.InvalidPosition) as caught:
        parse_cards(card_file(1))  # 51 cards besides the starters
    problems = caught.value.problems
    assert "51 cards besides the starters" in problems["en"] and "needs 52" in problems["en"]
    assert "51枚" in problems["ja"] and "52枚" in problems["ja"]


@pytest.mark.parametrize("to_box", [False, True])
def test_card_file_with_exactly_enough_cards_plays_full_games(to_box):
    game = Stellar(parse_cards(card_file(2)))  # exactly 52 cards besides the starters
    for seed in range(15):
        states = random_game(game, game.new_game(2, seed, {"fifth_starter_to_box": to_box}), seed)
        assert missed(states) == set(), seed
        final = states[-1]
        assert all(-1 not in scope for scope in final.telescopes)
        assert [len(notebook) for notebook in final.notebooks] == [13, 13]


def test_one_card_fewer_than_needed_can_leave_a_turn_without_its_second_card():
    # The boundary is tight: a deck one card short (a position, as the card file is refused) lets a
    # random game reach a last turn whose second card must come from the empty deck.
    game = Stellar(parse_cards(card_file(2)))
    short = 0
    for seed in range(20):
        data = game.encode(game.new_game(2, seed, {"fifth_starter_to_box": True}))
        data["state"]["deck"].pop()
        short += "second card" in missed(random_game(game, game.decode(data), seed))
    assert short


# -- positions written by hand ---------------------------------------------------------------------
def test_a_position_whose_cards_run_out_plays_on_to_the_end():
    # Round 9 of 11 with an empty deck and one row card: the takes, then the turns, run out, and
    # every seat in to_move still has a move until the game is over.
    row = [None, None, "black_hole-3-2stars", None, None]
    state = load(round=8, deck=(), row=row)
    for seed in range(10):
        states = random_game(GAME, state, seed)
        assert {"take_skipped", "turn_skipped"} <= missed(states)
        assert GAME.is_over(states[-1])


def test_hands_empty_at_the_end_of_round_11_end_the_game():
    # Nobody holds a card for the final notebook card: the game is over at once.
    state = load(round=10, seat=1, hands=((), ()))
    after = GAME.apply(GAME.apply(state, 1, rules.stellar.TakeRowCard(slot=1)), 1,
                       rules.stellar.PlayToNotebook(card="moon-1-3stars"))
    after = GAME.apply(after, 1, GAME.legal_actions(after, 1)[0])  # the second card into the telescope
    assert GAME.is_over(after) and GAME.to_move(after) == ()


def test_a_telescope_that_fills_before_the_game_ends_is_refused():
    # Player 2 has 10 empty slots at round 0 but 11 turns to play, each putting a card in.
    full = telescope(top_1="moon-3-1star", top_2="moon-1-3stars")
    with pytest.raises(rules.InvalidPosition) as caught:
        load(telescopes=[telescope(top_1="planet-3-1star"), full])
    assert caught.value.where == "state.telescopes[1]"
    assert "10 empty slots" in str(caught.value) and "11 more cards" in str(caught.value)
    assert "10か所" in caught.value.problems["ja"]
    load(round=1, telescopes=[telescope(top_1="planet-3-1star", top_2="planet-2-2stars"), full])  # one round on: fine
