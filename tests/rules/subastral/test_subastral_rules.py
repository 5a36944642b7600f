"""Subastral's rules, one test per clause of the rules text as read by docs/readings.md,
"Subastral".

Each test builds exactly the situation its clause describes: a hand-written position (``position``
fills every zone it is not given with nothing) decoded by the engine, then the moves of the clause,
then the zones, events, phase and seat checked exactly. Whole games are seeded.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

import rules
from rules.subastral import OpenColumn, PassCard, PlayCard, Subastral, TakeCloud
from rules.subastral.cards import parse_cards

GAME = rules.get_game("subastral")
ROOT = Path(__file__).resolve().parents[3]
DECK_SIZES = {2: 61, 3: 75, 4: 89, 5: 103}


# -- helpers ---------------------------------------------------------------------------------------
def position(*, players=2, hands=None, journals=None, clouds=None, deck=("END",), seat=0, start_player=0,
             round=0, phase="play", played_cloud=None, end_triggered=False, last_round=None, pending=(),
             passes=None, disturbance=False) -> dict:
    """A position file with only the given zones filled; ``clouds`` is ``{number: [cards]}``."""
    return {
        "game": "subastral",
        "version": "1.0",
        "variants": {"disturbance": disturbance},
        "state": {
            "players": players,
            "start_player": start_player,
            "seat": seat,
            "round": round,
            "phase": phase,
            "played_cloud": played_cloud,
            "end_triggered": end_triggered,
            "last_round": last_round,
            "deck": list(deck),
            "clouds": {str(n): list((clouds or {}).get(n, ())) for n in range(1, 7)},
            "hands": [list(h) for h in hands] if hands is not None else [[] for _ in range(players)],
            "journals": ([[list(c) for c in j] for j in journals] if journals is not None
                         else [[] for _ in range(players)]),
            "pending": list(pending),
            "passes": list(passes) if passes is not None else [None] * players,
        },
    }


def decoded(**zones):
    return GAME.decode(position(**zones))


def zones(state) -> dict:
    """The state's zones by card name (the position file's ``state`` object)."""
    return GAME.encode(state)["state"]


def kinds(state) -> list[str]:
    return [event.kind for event in GAME.events(state)]


def texts(state) -> list[str]:
    return [event.text for event in GAME.events(state)]


def every_card(state) -> Counter:
    """Biome cards in every zone (the game-end card is not a biome card)."""
    z = zones(state)
    cards = [c for c in z["deck"] if c != "END"]
    cards += [c for pile in z["clouds"].values() for c in pile]
    cards += [c for hand in z["hands"] for c in hand]
    cards += [c for journal in z["journals"] for column in journal for c in column]
    cards += z["pending"]
    return Counter(cards)


def card_file() -> dict:
    text = resources.files("rules.subastral").joinpath("data/cards.json").read_text(encoding="utf-8")
    return json.loads(text)


def cards_marked(marker: int) -> Counter:
    """The card file's cards with this player-count marker (2 = unmarked)."""
    cards = Counter()
    for biome in card_file()["biomes"]:
        for card in biome["cards"]:
            if card.get("min_players", 2) == marker:
                cards[f"{biome['id']}-{card['number']}"] += 1
    return cards


def marked_deck(players: int) -> Counter:
    """The deck the card file's markers give for ``players`` (docs/readings.md, "Subastral 1")."""
    return sum((cards_marked(marker) for marker in range(2, players + 1)), Counter())


def play_turn(game, state, choose=lambda actions: actions[0]):
    """Finish the current seat's turn with ``choose``; returns the state and the events on the way."""
    seen = []
    while True:
        (seat,) = game.to_move(state)
        state = game.apply(state, seat, choose(game.legal_actions(state, seat)))
        seen += game.events(state)
        if any(e.kind in ("turn", "game_over", "disturbance") for e in game.events(state)):
            return state, seen


def turns_until_over(game, state, choose=lambda actions: actions[0]) -> tuple:
    """Play to the end; returns the final state and the seat of every turn in order.

    A turn is a seat's play, or an empty-hand draw (a whole turn by itself).
    """
    turns = []
    while not game.is_over(state):
        (seat,) = game.to_move(state)
        turns.append(seat)
        state, seen = play_turn(game, state, choose)
        turns += [e.seat for e in seen if e.kind == "empty_hand"]
    return state, turns


# -- setup ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, size", sorted(DECK_SIZES.items()))
def test_setup_deck_sizes_61_75_89_103_for_2_to_5_players(players, size):
    assert len(GAME.cards.deck(players)) == size
    state = GAME.new_game(players, seed=7)
    assert sum(every_card(state).values()) == size


def test_setup_4_players_removes_only_cards_marked_5():
    # The seed's "4 players: remove ③" line is a typo for the general rule (ruling 1).
    in_game = every_card(GAME.new_game(4, seed=3))
    assert [sum(cards_marked(m).values()) for m in (2, 3, 4, 5)] == [61, 14, 14, 14]
    assert in_game == cards_marked(2) + cards_marked(3) + cards_marked(4)
    assert sum(in_game.values()) == 103 - 14


@pytest.mark.parametrize("players", [2, 3, 5])
def test_setup_removes_cards_marked_above_the_player_count(players):
    assert every_card(GAME.new_game(players, seed=11)) == marked_deck(players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_setup_end_card_has_3_per_player_under_it(players, seed):
    deck = zones(GAME.new_game(players, seed))["deck"]
    assert deck.count("END") == 1
    assert len(deck) - deck.index("END") - 1 == 3 * players


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_3_cards_each(players):
    state = GAME.new_game(players, seed=5)
    assert [len(hand) for hand in zones(state)["hands"]] == [3] * players
    assert zones(state)["journals"] == [[]] * players


def test_setup_one_card_per_cloud_regardless_of_number():
    bottoms_off_number = 0
    for seed in range(20):
        clouds = zones(GAME.new_game(2, seed))["clouds"]
        assert all(len(pile) >= 1 for pile in clouds.values())
        bottoms_off_number += sum(int(pile[0].rsplit("-", 1)[1]) != int(n) for n, pile in clouds.items())
    # Six cards go out one per cloud whatever their number: most bottom cards are off-number.
    assert bottoms_off_number > 20 * 6 // 2


@pytest.mark.parametrize("seed", range(20))
def test_setup_two_more_cards_of_different_numbers_on_matching_clouds(seed):
    clouds = zones(GAME.new_game(3, seed))["clouds"]
    assert sum(map(len, clouds.values())) == 8
    doubled = [n for n, pile in clouds.items() if len(pile) == 2]
    assert len(doubled) == 2 and sorted(map(len, clouds.values())) == [1, 1, 1, 1, 2, 2]
    for n in doubled:
        assert clouds[n][1].endswith(f"-{n}")


def test_setup_repeated_number_goes_back_above_the_end_card():
    # A card file of only 1s and 2s: the second extra setup card often repeats the first's number.
    data = card_file()
    for biome in data["biomes"]:
        for i, card in enumerate(biome["cards"]):
            card["number"] = 1 + i % 2
    game = Subastral(parse_cards(data))
    for seed in range(10):
        state = game.new_game(2, seed)
        z = zones(state)
        assert len(z["deck"]) - z["deck"].index("END") - 1 == 6
        assert sorted(len(z["clouds"][n]) for n in "12") == [2, 2]
        assert z["clouds"]["1"][1].endswith("-1") and z["clouds"]["2"][1].endswith("-2")
        assert every_card(state) == Counter({k: v for k, v in zip(game.cards.kind_names, game.cards.copies[2]) if v})


def test_setup_start_player_chosen_by_the_seed():
    starts = {GAME.new_game(4, seed).start_player for seed in range(30)}
    assert starts == {0, 1, 2, 3}
    state = GAME.new_game(4, seed=9)
    assert state.seat == state.start_player and GAME.to_move(state) == (state.start_player,)
    assert GAME.encode(GAME.new_game(4, seed=9)) == GAME.encode(state)
    assert texts(state) == [f"Setup: 3 cards each, 8 cards on the clouds; Player {state.start_player + 1} starts."]


# -- turn step 1: play a card ------------------------------------------------------------------------
KAIRA_CLOUDS = {1: ["savanna-4"], 2: ["taiga-3", "savanna-2"], 3: ["subtropical_desert-1"],
                4: ["arctic_tundra-6", "arctic_tundra-4"], 5: ["savanna-1"], 6: ["subtropical_desert-3"]}


@pytest.mark.parametrize("card, cloud", [("temperate_grassland-2", 2), ("taiga-2", 2), ("tropical_rainforest-5", 5)])
def test_play_card_goes_on_cloud_of_its_number(card, cloud):
    # The rulebook's example: Kaira holds grassland 2, taiga 2 and rainforest 5.
    hand = ["temperate_grassland-2", "taiga-2", "tropical_rainforest-5"]
    state = decoded(hands=[hand, ["savanna-5"]], clouds=KAIRA_CLOUDS, deck=["savanna-3", "END"])
    state = GAME.apply(state, 0, PlayCard(card=card))
    after = zones(state)
    # Added to the cloud's other cards, all kept visible, in the order they were placed.
    assert after["clouds"][str(cloud)] == KAIRA_CLOUDS[cloud] + [card]
    assert sorted(after["hands"][0]) == sorted(c for c in hand if c != card)
    assert (after["phase"], after["played_cloud"], after["seat"]) == ("take", cloud, 0)
    printed = {"temperate_grassland-2": "Temperate grassland 2", "taiga-2": "Taiga 2", "tropical_rainforest-5": "Tropical rainforest 5"}
    assert texts(state) == [f"Player 1 plays {printed[card]} on cloud {cloud}."]


# -- turn step 2: take a cloud -----------------------------------------------------------------------
def take_phase(played: str, *, hand=("savanna-3",), clouds=None, deck=("chaparral-5", "chaparral-6", "END"), journal=()):
    """Seat 0 has just played ``played``; the take comes next."""
    clouds = copy.deepcopy(clouds or KAIRA_CLOUDS)
    state = decoded(hands=[[played, *hand], ["savanna-5"]], clouds=clouds, deck=deck, journals=[list(journal), []])
    return GAME.apply(state, 0, PlayCard(card=played))


def test_cannot_take_the_cloud_just_played():
    state = take_phase("taiga-2")
    assert [a.cloud for a in GAME.legal_actions(state, 0)] == [1, 3, 4, 5, 6]
    with pytest.raises(rules.IllegalAction, match="cloud 2 was played on this turn") as error:
        GAME.apply(state, 0, TakeCloud(cloud=2, to="hand"))
    assert error.value.rule.startswith("turn step 2")


def test_legal_takes_lower_to_hand_higher_to_journal():
    state = take_phase("subtropical_desert-3")
    assert GAME.legal_actions(state, 0) == [
        TakeCloud(cloud=1, to="hand"), TakeCloud(cloud=2, to="hand"),
        TakeCloud(cloud=4, to="journal"), TakeCloud(cloud=5, to="journal"), TakeCloud(cloud=6, to="journal"),
    ]


def test_lower_cloud_goes_to_hand_with_bonus_draw():
    state = take_phase("taiga-4", hand=["savanna-3"], deck=["taiga-5", "taiga-1", "temperate_forest-6", "END"])
    state = GAME.apply(state, 0, TakeCloud(cloud=2, to="hand"))
    after = zones(state)
    # Both cards of cloud 2, plus the deck's top card (taiga-5).
    assert sorted(after["hands"][0]) == sorted(["savanna-3", "taiga-3", "savanna-2", "taiga-5"])
    assert after["journals"][0] == []
    assert kinds(state)[:3] == ["take", "draw", "reveal"]
    assert texts(state)[:2] == [
        "Player 1 takes cloud 2 (Taiga 3, Savanna 2) into their hand.",
        "Player 1 draws Taiga 5 (the bonus draw for taking to hand).",
    ]
    # The drawn card is seen by its drawer only.
    other = [e for e in GAME.observe(state, 1)["events"] if e["kind"] == "draw"]
    assert other == [{"kind": "draw", "text": "Player 1 draws a card (the bonus draw for taking to hand).", "seat": 0,
                      "texts": {"en": "Player 1 draws a card (the bonus draw for taking to hand).",
                                "ja": "プレイヤー1がカードを1枚引きました（手札に取ったおまけの1枚）。"}}]


def test_higher_cloud_goes_to_journal():
    state = take_phase("taiga-2")
    assert TakeCloud(cloud=4, to="hand") not in GAME.legal_actions(state, 0)
    before = zones(state)
    state = GAME.apply(state, 0, TakeCloud(cloud=4, to="journal"))
    after = zones(state)
    assert after["journals"][0] == [["arctic_tundra-6", "arctic_tundra-4"]]
    assert (after["phase"], after["seat"]) == ("play", 1)
    assert after["hands"][0] == before["hands"][0]  # no bonus draw
    assert "draw" not in kinds(state)


@pytest.mark.parametrize("to", ["hand", "journal"])
def test_played_1_took_6_player_chooses_hand_or_journal(to):
    clouds = {**KAIRA_CLOUDS, 6: ["savanna-6", "savanna-1"]}
    state = take_phase("taiga-1", clouds=clouds, deck=["taiga-5", "chaparral-5", "END"])
    assert [a for a in GAME.legal_actions(state, 0) if a.cloud == 6] == [
        TakeCloud(cloud=6, to="hand"), TakeCloud(cloud=6, to="journal")]
    state = GAME.apply(state, 0, TakeCloud(cloud=6, to=to))
    after = zones(state)
    # The whole pile goes one way, never split; to the hand it brings the bonus draw (taiga-5).
    if to == "hand":
        assert sorted(after["hands"][0]) == sorted(["savanna-3", "savanna-6", "savanna-1", "taiga-5"])
        assert after["journals"][0] == []
    else:
        assert after["hands"][0] == ["savanna-3"]
        assert after["journals"][0] == [["savanna-6", "savanna-1"]]


@pytest.mark.parametrize("to", ["hand", "journal"])
def test_played_6_took_1_player_chooses_hand_or_journal(to):
    clouds = {**KAIRA_CLOUDS, 1: ["savanna-4", "savanna-1"]}
    state = take_phase("taiga-6", clouds=clouds, deck=["taiga-5", "chaparral-5", "END"])
    assert [a for a in GAME.legal_actions(state, 0) if a.cloud == 1] == [
        TakeCloud(cloud=1, to="hand"), TakeCloud(cloud=1, to="journal")]
    state = GAME.apply(state, 0, TakeCloud(cloud=1, to=to))
    after = zones(state)
    if to == "hand":
        assert sorted(after["hands"][0]) == sorted(["savanna-3", "savanna-4", "savanna-1", "taiga-5"])
        assert after["journals"][0] == []
    else:
        assert after["hands"][0] == ["savanna-3"]
        assert after["journals"][0] == [["savanna-4", "savanna-1"]]


@pytest.mark.parametrize("card, took, only", [
    ("taiga-1", 5, "journal"), ("taiga-1", 2, "journal"), ("taiga-6", 5, "hand"), ("taiga-6", 2, "hand"),
    ("taiga-2", 6, "journal"), ("taiga-5", 1, "hand"),
])
def test_1_to_5_is_not_the_special_rule(card, took, only):
    # Only the pair 1 <-> 6 lets the taker choose (docs/readings.md, "Subastral 3").
    state = take_phase(card)
    assert [a for a in GAME.legal_actions(state, 0) if a.cloud == took] == [TakeCloud(cloud=took, to=only)]
    wrong = "hand" if only == "journal" else "journal"
    with pytest.raises(rules.IllegalAction, match=f"so its cards go to the {only}"):
        GAME.apply(state, 0, TakeCloud(cloud=took, to=wrong))


# -- the journal ---------------------------------------------------------------------------------------
def test_new_biomes_open_columns_left_to_right():
    clouds = {**KAIRA_CLOUDS, 5: ["temperate_forest-2", "temperate_forest-5"]}
    deck = ["chaparral-5", "chaparral-6", "taiga-5", "END"]
    state = take_phase("taiga-2", clouds=clouds, journal=[["arctic_tundra-1"]], deck=deck)
    state = GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))
    # One new biome: its column opens at once, to the right of the existing one.
    assert zones(state)["journals"][0] == [["arctic_tundra-1"], ["temperate_forest-2", "temperate_forest-5"]]
    assert "Player 1 opens journal column 2 with Temperate forest 2, Temperate forest 5." in texts(state)
    assert "order" not in kinds(state)
    assert zones(state)["clouds"]["5"] == ["chaparral-5"]
    state = GAME.apply(state, 1, PlayCard(card="savanna-5"))
    state = GAME.apply(state, 1, TakeCloud(cloud=6, to="journal"))
    assert zones(state)["clouds"]["6"] == ["chaparral-6"]
    # The next new biome to arrive opens column 3.
    state = GAME.apply(state, 0, PlayCard(card="savanna-3"))
    state = GAME.apply(state, 0, TakeCloud(cloud=6, to="journal"))
    assert zones(state)["journals"] == [
        [["arctic_tundra-1"], ["temperate_forest-2", "temperate_forest-5"], ["chaparral-6"]],
        [["subtropical_desert-3"]],
    ]
    assert "Player 1 opens journal column 3 with Chaparral 6." in texts(state)


@pytest.mark.parametrize("first, second", [("temperate_grassland", "taiga"), ("taiga", "temperate_grassland")])
def test_several_new_biomes_taker_chooses_order(first, second):
    # The rulebook's example: Kaira's journal holds tundra, forest, chaparral, desert; she plays on
    # cloud 3 and takes cloud 4 (forest, taiga, grassland): forest joins its column, she orders the rest.
    journal = [["arctic_tundra-1"], ["temperate_forest-1"], ["chaparral-1"], ["subtropical_desert-1"]]
    clouds = {**KAIRA_CLOUDS, 4: ["temperate_forest-2", "taiga-4", "temperate_grassland-4"]}
    state = take_phase("savanna-3", hand=["savanna-1"], clouds=clouds, journal=journal)
    state = GAME.apply(state, 0, TakeCloud(cloud=4, to="journal"))
    assert zones(state)["journals"][0][1] == ["temperate_forest-1", "temperate_forest-2"]
    assert (zones(state)["phase"], GAME.to_move(state)) == ("order", (0,))
    assert GAME.legal_actions(state, 0) == [OpenColumn(biome="taiga"), OpenColumn(biome="temperate_grassland")]
    assert kinds(state) == ["take", "journal", "order"]
    assert texts(state)[2] == "Player 1 took 2 new biomes at once and chooses the order of their columns."
    state = GAME.apply(state, 0, OpenColumn(biome=first))
    cards = {"taiga": "taiga-4", "temperate_grassland": "temperate_grassland-4"}
    assert zones(state)["journals"][0][4:] == [[cards[first]], [cards[second]]]
    assert (zones(state)["phase"], zones(state)["seat"]) == ("play", 1)


def test_three_new_biomes_taker_opens_them_one_by_one():
    clouds = {**KAIRA_CLOUDS, 5: ["taiga-5", "temperate_grassland-5", "arctic_tundra-5", "taiga-1"]}
    state = take_phase("savanna-3", clouds=clouds, journal=[["chaparral-1"]])
    state = GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))
    assert len(GAME.legal_actions(state, 0)) == 3
    state = GAME.apply(state, 0, OpenColumn(biome="temperate_grassland"))
    assert zones(state)["phase"] == "order"
    assert GAME.legal_actions(state, 0) == [OpenColumn(biome="taiga"), OpenColumn(biome="arctic_tundra")]
    state = GAME.apply(state, 0, OpenColumn(biome="arctic_tundra"))
    assert zones(state)["journals"][0] == [
        ["chaparral-1"], ["temperate_grassland-5"], ["arctic_tundra-5"], ["taiga-5", "taiga-1"]]
    assert zones(state)["phase"] == "play"


def test_last_new_biome_opens_by_itself_so_choosing_it_is_refused_saying_so():
    # Ruling 4: the taker orders the new biomes; once one is left, its column opens by itself. A client
    # that sends that last choice anyway is told why, not "it is Player 2's turn".
    journal = [["arctic_tundra-1"], ["temperate_forest-1"], ["chaparral-1"], ["subtropical_desert-1"]]
    clouds = {**KAIRA_CLOUDS, 4: ["temperate_forest-2", "taiga-4", "temperate_grassland-4"]}
    state = take_phase("savanna-3", hand=["savanna-1"], clouds=clouds, journal=journal)
    state = GAME.apply(state, 0, TakeCloud(cloud=4, to="journal"))
    state = GAME.apply(state, 0, OpenColumn(biome="taiga"))
    assert GAME.to_move(state) == (1,)
    with pytest.raises(rules.IllegalAction) as error:
        GAME.apply(state, 0, OpenColumn(biome="temperate_grassland"))
    assert error.value.reason == ("Temperate grassland was the last new biome waiting, so its column (column 6 of "
                                  "Player 1's journal) opened by itself: nothing is left to order")
    assert error.value.rule.startswith("journal: a column per biome")
    assert error.value.reason_in("ja").startswith("温帯草原は最後に残った新しいバイオームだったので")
    # The biome just chosen, or another seat, still hear the usual refusal.
    with pytest.raises(rules.IllegalAction, match="it is Player 2's turn"):
        GAME.apply(state, 0, OpenColumn(biome="taiga"))


def test_existing_biome_joins_its_column():
    clouds = {**KAIRA_CLOUDS, 5: ["temperate_forest-2", "arctic_tundra-5"]}
    journal = [["arctic_tundra-1"], ["temperate_forest-1"], ["chaparral-1"]]
    state = take_phase("taiga-2", clouds=clouds, journal=journal)
    state = GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))
    assert zones(state)["journals"][0] == [
        ["arctic_tundra-1", "arctic_tundra-5"], ["temperate_forest-1", "temperate_forest-2"], ["chaparral-1"]]
    assert "Player 1 adds Temperate forest 2, Arctic tundra 5 to existing journal columns." in texts(state)
    assert "column" not in kinds(state)


# -- turn step 3: refill -------------------------------------------------------------------------------
def test_refill_puts_one_card_on_emptied_cloud_regardless_of_number():
    # Clouds 1 (played on) and 2 hold two cards after the take: the emptied cloud's card is enough.
    state = take_phase("taiga-1", deck=["temperate_forest-6", "taiga-5", "END"])
    state = GAME.apply(state, 0, TakeCloud(cloud=4, to="journal"))
    after = zones(state)
    assert after["clouds"]["4"] == ["temperate_forest-6"]
    assert after["clouds"]["6"] == ["subtropical_desert-3"]
    assert after["deck"] == ["taiga-5", "END"]
    assert [e.text for e in GAME.events(state) if e.kind == "reveal"] == [
        "Refill: Temperate forest 6 is revealed onto cloud 4 (the emptied cloud)."]


def test_refill_reveals_until_two_clouds_hold_two():
    # After playing on 2 and taking cloud 4, only cloud 2 holds two cards or more.
    deck = ["savanna-6", "taiga-2", "temperate_forest-1", "arctic_tundra-3", "taiga-5", "END"]
    state = take_phase("tropical_rainforest-2", deck=deck, hand=["taiga-6"])
    state = GAME.apply(state, 0, TakeCloud(cloud=4, to="journal"))
    after = zones(state)
    # savanna-6 onto the emptied cloud 4; then taiga-2 (cloud 2 still the only pile of two),
    # temperate_forest-1 onto cloud 1 (two piles now): stop.
    assert after["clouds"] == {
        "1": ["savanna-4", "temperate_forest-1"], "2": ["taiga-3", "savanna-2", "tropical_rainforest-2", "taiga-2"],
        "3": ["subtropical_desert-1"], "4": ["savanna-6"], "5": ["savanna-1"], "6": ["subtropical_desert-3"]}
    assert after["deck"] == ["arctic_tundra-3", "taiga-5", "END"]
    assert [(e.cloud, e.cards) for e in GAME.events(state) if e.kind == "reveal"] == [
        (4, ("savanna-6",)), (2, ("taiga-2",)), (1, ("temperate_forest-1",))]
    assert texts(state)[-2] == "Refill: Temperate forest 1 is revealed onto cloud 1 (the cloud of its number)."


def test_refill_first_card_goes_on_the_cloud_just_taken_not_on_another_empty_cloud():
    # Step 3 (docs/readings.md, "Subastral 5"): the first card goes onto the cloud just taken. A hand-written position may have
    # another, lower-numbered empty cloud: it does not get that card (it may fill later by number).
    clouds = {**KAIRA_CLOUDS, 1: [], 2: ["taiga-3", "savanna-2", "taiga-1"]}
    state = take_phase("tropical_rainforest-4", clouds=clouds, deck=["temperate_forest-6", "taiga-5", "END"])
    state = GAME.apply(state, 0, TakeCloud(cloud=3, to="hand"))   # temperate_forest-6 is the bonus draw
    assert zones(state)["clouds"]["3"] == ["taiga-5"]
    assert zones(state)["clouds"]["1"] == []
    # The same after the taker orders new biomes (the phase in between remembers the cloud taken).
    clouds = {**KAIRA_CLOUDS, 1: [], 2: ["taiga-3", "savanna-2", "taiga-1"], 5: ["chaparral-5", "taiga-5"]}
    state = take_phase("tropical_rainforest-4", clouds=clouds, deck=["temperate_forest-6", "savanna-6", "END"])
    state = GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))
    assert zones(state)["taken_cloud"] == 5
    state = GAME.apply(state, 0, OpenColumn(biome="taiga"))
    assert zones(state)["clouds"]["5"] == ["temperate_forest-6"]
    assert zones(state)["clouds"]["1"] == []
    assert zones(state)["taken_cloud"] is None


def test_refill_cloud_taken_survives_a_position_file_in_the_order_phase():
    clouds = {**KAIRA_CLOUDS, 1: [], 5: []}
    data = position(hands=[["savanna-3"], ["savanna-5"]], clouds=clouds, deck=["temperate_forest-6", "END"],
                    phase="order", played_cloud=4, pending=["chaparral-5", "taiga-5"])
    data["state"]["taken_cloud"] = 5
    state = GAME.decode(data)
    assert GAME.decode(GAME.encode(state)) == state
    state = GAME.apply(state, 0, OpenColumn(biome="taiga"))
    assert (zones(state)["clouds"]["5"], zones(state)["clouds"]["1"]) == (["temperate_forest-6"], [])
    # A file written before the field existed: the lowest empty cloud, as the refill used to choose.
    del data["state"]["taken_cloud"]
    assert zones(GAME.decode(data))["taken_cloud"] == 1
    data["state"]["taken_cloud"] = 4
    with pytest.raises(rules.InvalidPosition, match="cloud 4 cannot be the cloud just taken"):
        GAME.decode(data)


def test_refill_after_a_skipped_take_goes_by_number_only():
    # Ruling 8: with no other cloud to take the take is skipped; no cloud was taken, so no card goes to
    # an empty cloud regardless of number: the refill reveals cards onto their numbers' clouds.
    state = decoded(hands=[["taiga-2", "taiga-3"], ["savanna-5"]], clouds={2: ["savanna-2"]},
                    deck=["temperate_forest-6", "taiga-6", "arctic_tundra-1", "END"])
    state = GAME.apply(state, 0, PlayCard(card="taiga-2"))
    assert [(e.cloud, e.cards) for e in GAME.events(state) if e.kind == "reveal"] == [
        (6, ("temperate_forest-6",)), (6, ("taiga-6",))]


# -- the empty hand ----------------------------------------------------------------------------------
def test_empty_hand_draws_one_and_ends_turn():
    state = decoded(hands=[["taiga-2"], []], clouds=KAIRA_CLOUDS, deck=["temperate_forest-6", "taiga-5", "savanna-6", "END"])
    state = GAME.apply(state, 0, PlayCard(card="taiga-2"))
    state = GAME.apply(state, 0, TakeCloud(cloud=1, to="hand"))  # draws temperate_forest-6
    after = zones(state)
    # Player 2 starts the turn with no card: draws savanna-6, and the turn ends (no play, take or refill).
    assert after["hands"][1] == ["savanna-6"]
    assert after["clouds"]["1"] == ["taiga-5"]
    assert after["deck"] == ["END"]
    assert (after["phase"], after["seat"], after["round"]) == ("play", 0, 1)
    assert kinds(state)[-4:] == ["turn", "empty_hand", "draw", "turn"]
    assert texts(state)[-3] == "Player 2 starts the turn with no card in hand: draw one card, and the turn ends."
    assert GAME.turns_taken(state) == (1, 1)


# -- the game-end card --------------------------------------------------------------------------------
def test_end_card_revealed_is_set_aside_and_replaced():
    state = take_phase("taiga-1", deck=["END", "temperate_forest-6", "taiga-5"])
    state = GAME.apply(state, 0, TakeCloud(cloud=4, to="journal"))
    after = zones(state)
    assert after["clouds"]["4"] == ["temperate_forest-6"]
    assert after["deck"] == ["taiga-5"]
    assert (after["end_triggered"], after["last_round"]) == (True, 1)
    assert kinds(state)[-3:] == ["end_card", "reveal", "turn"]
    assert texts(state)[-3] == ("The game-end card is revealed and set aside: play goes on to the end of this round, "
                                "then everyone takes one more turn.")
    assert GAME.observe(state, None)["deck"] == {"count": 1, "end_card_in_deck": False, "cards_above_end_card": None}


def test_end_card_revealed_by_bonus_draw():
    state = take_phase("taiga-4", deck=["END", "taiga-5", "temperate_forest-6"])
    state = GAME.apply(state, 0, TakeCloud(cloud=2, to="hand"))
    assert kinds(state)[:3] == ["take", "end_card", "draw"]
    after = zones(state)
    assert "taiga-5" in after["hands"][0]
    assert after["clouds"]["2"] == ["temperate_forest-6"]
    assert (after["end_triggered"], after["last_round"], after["deck"]) == (True, 1, [])


def three_player_game(revealing_seat: int):
    """Three players, Player 2 (seat 1) starts; ``revealing_seat`` is about to reveal the end card."""
    hands = [["savanna-1", "savanna-3", "taiga-4"], ["savanna-4", "taiga-1", "taiga-6"],
             ["subtropical_desert-4", "arctic_tundra-2", "temperate_grassland-1"]]
    deck = ["END", "arctic_tundra-3", "temperate_grassland-5", "taiga-3", "savanna-5", "subtropical_desert-2",
            "temperate_forest-3", "arctic_tundra-6", "temperate_grassland-2", "subtropical_desert-6",
            "savanna-6", "taiga-5", "tropical_rainforest-2", "temperate_forest-5", "chaparral-4",
            "subtropical_desert-5", "arctic_tundra-5", "tropical_rainforest-3", "savanna-2", "taiga-2"]
    clouds = {1: ["subtropical_desert-3", "temperate_grassland-1"], 2: ["chaparral-3"],
              3: ["temperate_forest-2", "tropical_rainforest-3"], 4: ["temperate_forest-1"],
              5: ["arctic_tundra-1"], 6: ["chaparral-6"]}
    return decoded(players=3, start_player=1, seat=revealing_seat, hands=hands, clouds=clouds, deck=deck)


@pytest.mark.parametrize("revealing_seat, rest_of_round", [(1, [2, 0]), (2, [0]), (0, [])])
def test_end_card_then_finish_round_then_one_more_round(revealing_seat, rest_of_round):
    state = three_player_game(revealing_seat)
    state, seen = play_turn(GAME, state, lambda actions: actions[-1])
    assert "end_card" in [e.kind for e in seen]
    assert (state.end_triggered, state.last_round) == (True, 1)
    state, turns = turns_until_over(GAME, state, lambda actions: actions[-1])
    # The round is finished, then everyone takes exactly one more turn; the seat before the start
    # player (seat 0) always takes the last one, and everyone has taken the same number of turns.
    assert turns == rest_of_round + [1, 2, 0]
    assert GAME.is_over(state) and GAME.turns_taken(state) == (2, 2, 2)
    assert kinds(state)[-1] == "game_over"


def test_end_card_revealed_by_empty_hand_draw():
    state = decoded(hands=[["taiga-2", "savanna-3"], []], clouds=KAIRA_CLOUDS,
                    deck=["taiga-5", "END", "savanna-6", "taiga-1"])
    state = GAME.apply(state, 0, PlayCard(card="taiga-2"))
    state = GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))  # refill reveals taiga-5
    # Player 2's empty-hand draw reveals the end card during round 0: round 1 is the last.
    assert kinds(state)[-5:] == ["turn", "empty_hand", "end_card", "draw", "turn"]
    assert zones(state)["hands"][1] == ["savanna-6"]
    assert (state.end_triggered, state.last_round, state.round) == (True, 1, 1)


# -- the deck runs out (ruling 8) --------------------------------------------------------------------
def test_empty_deck_skips_draw():
    state = decoded(hands=[["taiga-4"], ["savanna-5"]], clouds=KAIRA_CLOUDS, deck=[], end_triggered=True, last_round=1)
    state = GAME.apply(state, 0, PlayCard(card="taiga-4"))
    state = GAME.apply(state, 0, TakeCloud(cloud=2, to="hand"))
    after = zones(state)
    assert sorted(after["hands"][0]) == sorted(["taiga-3", "savanna-2"])
    assert after["clouds"]["2"] == []
    assert kinds(state) == ["take", "deck_empty", "deck_empty", "turn"]
    assert texts(state)[1:3] == ["The deck is empty: the bonus is skipped.", "The deck is empty: the refill is skipped."]


def test_empty_cloud_cannot_be_taken():
    clouds = {**KAIRA_CLOUDS, 5: []}
    state = decoded(hands=[["taiga-4"], ["savanna-5"]], clouds=clouds, deck=[], end_triggered=True, last_round=1)
    state = GAME.apply(state, 0, PlayCard(card="taiga-4"))
    assert [a.cloud for a in GAME.legal_actions(state, 0)] == [1, 2, 3, 6]
    with pytest.raises(rules.IllegalAction, match="cloud 5 is empty"):
        GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))


def test_no_takeable_cloud_skips_take():
    state = decoded(hands=[["taiga-4", "taiga-1"], ["savanna-5"]], clouds={4: ["savanna-4"]}, deck=[],
                    end_triggered=True, last_round=1)
    state = GAME.apply(state, 0, PlayCard(card="taiga-4"))
    assert kinds(state) == ["play", "take_skipped", "deck_empty", "turn"]
    assert texts(state)[1] == "No other cloud holds a card: the take is skipped."
    after = zones(state)
    assert after["clouds"]["4"] == ["savanna-4", "taiga-4"]
    assert (after["phase"], after["seat"], after["hands"][0]) == ("play", 1, ["taiga-1"])


# -- winning ------------------------------------------------------------------------------------------
def finished(journals, players=None):
    players = players or len(journals)
    return decoded(players=players, journals=journals, phase="over", deck=[], end_triggered=True, last_round=0)


def test_most_points_wins():
    state = finished([[["taiga-1"]], [["taiga-2", "taiga-3"]]])
    assert GAME.scores(state) == (2, 4)
    assert GAME.winners(state) == (1,)


def test_tie_break_fewest_journal_cards():
    # 6 points each: one column of three cards, or two columns of one; a single card scores 2.
    state = finished([[["taiga-1", "taiga-2", "taiga-3"]], [["savanna-1"], ["chaparral-1"]], [["arctic_tundra-1"]]])
    assert GAME.scores(state) == (6, 6, 2)
    assert GAME.winners(state) == (1,)


def test_tie_still_tied_is_shared():
    state = finished([[["taiga-1", "taiga-2"], ["savanna-1"]], [["taiga-3"]],
                      [["chaparral-1"], ["savanna-3", "savanna-4"]]])
    assert GAME.scores(state) == (8, 2, 8)
    assert GAME.winners(state) == (0, 2)


def test_no_winner_before_the_game_is_over():
    state = decoded(hands=[["taiga-1"], []], journals=[[["taiga-2"]], []])
    assert GAME.winners(state) == ()
    assert GAME.scores(state) == (2, 0)  # provisional


# -- disturbance variant (docs/readings.md, "Subastral 10") ----------------------------------------------------
def test_disturbance_is_off_by_default():
    assert GAME.describe()["variants"][0]["name"] == "disturbance"
    assert GAME.describe()["variants"][0]["default"] is False
    state = GAME.new_game(2, seed=1)
    assert dict(state.variants) == {"disturbance": False}
    rng = random.Random(1)
    while not GAME.is_over(state):
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert any(zones(state)["hands"])  # cards were left in hand, and nothing was passed
    assert "disturbance" not in kinds(state)


def last_turn(disturbance: bool):
    """Seat 1 takes the game's last turn (round 1 of 1, seat 1 is the seat before the start player)."""
    return decoded(hands=[["taiga-1", "savanna-3"], ["taiga-2", "chaparral-4"]], clouds=KAIRA_CLOUDS,
                   deck=["savanna-6", "taiga-5"], seat=1, round=1, end_triggered=True, last_round=1,
                   disturbance=disturbance)


def test_disturbance_starts_after_the_last_turn_before_scoring():
    state = last_turn(disturbance=True)
    state = GAME.apply(state, 1, PlayCard(card="taiga-2"))
    state = GAME.apply(state, 1, TakeCloud(cloud=1, to="hand"))
    assert kinds(state)[-1] == "disturbance"
    assert zones(state)["phase"] == "disturbance" and not GAME.is_over(state)
    assert GAME.to_move(state) == (0, 1)
    assert texts(state)[-1] == "Disturbance: everyone with a hand card chooses one to pass left."
    assert GAME.winners(state) == ()
    # Without the variant the same turn ends the game.
    state = last_turn(disturbance=False)
    state = GAME.apply(state, 1, PlayCard(card="taiga-2"))
    state = GAME.apply(state, 1, TakeCloud(cloud=1, to="hand"))
    assert GAME.is_over(state) and kinds(state)[-1] == "game_over"


def disturbance(hands, journals=None, players=3, passes=None):
    return decoded(players=players, hands=hands, journals=journals, phase="disturbance", deck=[],
                   end_triggered=True, last_round=0, disturbance=True, passes=passes)


def test_disturbance_everyone_with_a_hand_card_passes_one_left_at_once():
    state = disturbance([["taiga-1", "savanna-2"], ["savanna-1"], ["chaparral-4"]],
                        journals=[[["taiga-2"]], [["savanna-3"]], [["chaparral-1"]]])
    assert GAME.to_move(state) == (0, 1, 2)
    assert GAME.legal_actions(state, 0) == [PassCard(card="savanna-2"), PassCard(card="taiga-1")]
    state = GAME.apply(state, 2, PassCard(card="chaparral-4"))
    state = GAME.apply(state, 0, PassCard(card="taiga-1"))
    # Nothing moves until everyone has chosen.
    assert zones(state)["hands"][0] == ["savanna-2", "taiga-1"]
    assert zones(state)["journals"] == [[["taiga-2"]], [["savanna-3"]], [["chaparral-1"]]]
    assert GAME.to_move(state) == (1,)
    state = GAME.apply(state, 1, PassCard(card="savanna-1"))
    after = zones(state)
    assert after["hands"] == [["savanna-2"], [], []]
    # Each card goes straight into the left neighbour's journal (seat 0 -> 1 -> 2 -> 0).
    assert after["journals"] == [[["taiga-2"], ["chaparral-4"]],
                                 [["savanna-3"], ["taiga-1"]],
                                 [["chaparral-1"], ["savanna-1"]]]
    assert GAME.is_over(state) and kinds(state)[-1] == "game_over"
    assert [e.text for e in GAME.events(state) if e.kind == "pass"] == [
        "Player 1 passes Taiga 1 into Player 2's journal.",
        "Player 2 passes Savanna 1 into Player 3's journal.",
        "Player 3 passes Chaparral 4 into Player 1's journal.",
    ]


def test_disturbance_received_card_of_a_known_biome_joins_its_column():
    state = disturbance([["taiga-1"], ["savanna-1"]], journals=[[["savanna-3"]], [["chaparral-1"], ["taiga-2"]]],
                        players=2)
    state = GAME.apply(state, 0, PassCard(card="taiga-1"))
    state = GAME.apply(state, 1, PassCard(card="savanna-1"))
    assert zones(state)["journals"] == [[["savanna-3", "savanna-1"]], [["chaparral-1"], ["taiga-2", "taiga-1"]]]


def test_disturbance_new_biome_opens_a_column_on_the_right():
    state = disturbance([["taiga-1"], []], journals=[[], [["chaparral-1"], ["savanna-3"]]], players=2)
    state = GAME.apply(state, 0, PassCard(card="taiga-1"))
    assert zones(state)["journals"][1] == [["chaparral-1"], ["savanna-3"], ["taiga-1"]]
    assert "Player 2 opens journal column 3 with Taiga 1." in texts(state)


def test_disturbance_empty_hand_passes_nothing_but_still_receives():
    state = disturbance([["taiga-1"], [], ["chaparral-4"]], journals=[[], [], []])
    assert GAME.to_move(state) == (0, 2)
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(rules.IllegalAction, match="no card in hand"):
        GAME.apply(state, 1, PassCard(card="taiga-1"))
    state = GAME.apply(state, 0, PassCard(card="taiga-1"))
    state = GAME.apply(state, 2, PassCard(card="chaparral-4"))
    after = zones(state)
    assert after["journals"] == [[["chaparral-4"]], [["taiga-1"]], []]
    assert after["hands"] == [[], [], []]
    assert GAME.is_over(state)


def test_disturbance_choices_stay_hidden_until_resolved():
    state = disturbance([["taiga-1"], ["savanna-1"], ["chaparral-4"]])
    state = GAME.apply(state, 0, PassCard(card="taiga-1"))
    mine, theirs, spectator = (GAME.observe(state, seat) for seat in (0, 1, None))
    assert mine["passes"] == [{"chosen": True, "card": "taiga-1"}, {"chosen": False}, {"chosen": False}]
    assert theirs["passes"] == [{"chosen": True}, {"chosen": False}, {"chosen": False}]
    assert spectator["passes"] == theirs["passes"]
    assert mine["events"] == [{"kind": "pass_chosen", "text": "Player 1 chooses to pass Taiga 1.", "seat": 0, "cards": ["taiga-1"],
                               "texts": {"en": "Player 1 chooses to pass Taiga 1.", "ja": "プレイヤー1はタイガ 1を渡すことにしました。"}}]
    assert theirs["events"] == [{"kind": "pass_chosen", "text": "Player 1 has chosen a card to pass.", "seat": 0,
                                 "texts": {"en": "Player 1 has chosen a card to pass.", "ja": "プレイヤー1は渡すカードを選びました。"}}]
    assert "taiga-1" not in json.dumps(theirs) and "taiga-1" not in json.dumps(spectator)
    # Once everyone has chosen, the passes are public.
    state = GAME.apply(state, 1, PassCard(card="savanna-1"))
    state = GAME.apply(state, 2, PassCard(card="chaparral-4"))
    assert "taiga-1" in json.dumps(GAME.observe(state, 1)["journals"])
    assert GAME.observe(state, 1)["passes"] is None


def test_disturbance_with_no_hand_cards_ends_the_game_at_once():
    state = decoded(hands=[[], ["taiga-2"]], clouds=KAIRA_CLOUDS, deck=["savanna-6", "taiga-5"], seat=1, round=1,
                    end_triggered=True, last_round=1, disturbance=True)
    state = GAME.apply(state, 1, PlayCard(card="taiga-2"))
    state = GAME.apply(state, 1, TakeCloud(cloud=5, to="journal"))
    assert GAME.is_over(state) and "disturbance" not in kinds(state)


# -- whole games --------------------------------------------------------------------------------------
def random_game(players: int, seed: int, disturbance: bool = False):
    """Yield every state of a seeded random game."""
    state = GAME.new_game(players, seed, {"disturbance": disturbance})
    rng = random.Random(seed)
    yield state
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        yield state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("disturbance", [False, True])
def test_card_conservation_through_a_whole_game(players, disturbance):
    for seed in range(3):
        for state in random_game(players, seed, disturbance):
            assert every_card(state) == marked_deck(players)
            assert GAME.inventory(state) == dict(marked_deck(players))
            ends = zones(state)["deck"].count("END")
            assert ends == (0 if state.end_triggered else 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_everyone_takes_the_same_number_of_turns_and_the_seat_before_the_start_player_ends(players):
    for seed in range(4):
        game = list(random_game(players, seed))
        final = game[-1]
        turns = GAME.turns_taken(final)
        assert len(set(turns)) == 1 and turns[0] == final.last_round + 1
        last_actor = next(e.seat for s in reversed(game) for e in reversed(GAME.events(s))
                          if e.kind in ("play", "empty_hand"))
        assert last_actor == (final.start_player - 1) % players


def test_same_seed_same_game():
    first = [GAME.encode(s) for s in random_game(3, seed=42)]
    again = [GAME.encode(s) for s in random_game(3, seed=42)]
    assert first == again
    assert GAME.encode(GAME.new_game(3, 43)) != first[0]


# -- another card file ---------------------------------------------------------------------------------
def test_custom_card_file_is_played():
    # Every ⑤ card becomes unmarked: a 2-player deck of 61 + 14 cards.
    data = card_file()
    data["name"] = "no fifth-player markers"
    for biome in data["biomes"]:
        for card in biome["cards"]:
            if card.get("min_players") == 5:
                card["min_players"] = 2
    cards = parse_cards(data)
    game = GAME.with_cards(cards)
    assert isinstance(game, Subastral) and game.cards is cards and GAME.cards is not cards
    state = game.new_game(2, seed=4)
    assert sum(every_card(state).values()) == 75
    assert "tropical_rainforest-1" in json.dumps(game.encode(state))
    # The position carries its card file, so any Subastral reads it back.
    encoded = game.encode(state)
    assert encoded["cards"]["name"] == "no fifth-player markers"
    assert GAME.encode(GAME.decode(encoded)) == encoded
    assert "cards" not in GAME.encode(GAME.new_game(2, seed=4))
    assert GAME.observe(state, 0)["card_set"]["name"] == "no fifth-player markers"
    assert GAME.card_file(state) == data and GAME.card_file(GAME.new_game(2, seed=4)) is None
    assert GAME.with_card_file(data).encode(state) == encoded
    rng = random.Random(4)
    while not game.is_over(state):
        (seat,) = game.to_move(state)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        assert sum(every_card(state).values()) == 75


def test_custom_card_file_with_renamed_biome():
    data = card_file()
    data["biomes"][2]["id"] = "boreal"
    data["biomes"][2]["name"] = "Boreal forest"
    game = Subastral(parse_cards(data))
    state = game.decode({**position(hands=[["boreal-2"], []], clouds={4: ["savanna-4"]}), "cards": data})
    state = game.apply(state, 0, PlayCard(card="boreal-2"))
    assert "Player 1 plays Boreal forest 2 on cloud 2." in texts(state)      # the card file's name for it
    assert game.action_label(PlayCard(card="boreal-2")) == "play Boreal forest 2"
    with pytest.raises(rules.InvalidPosition, match="unknown card 'taiga-2'"):
        game.decode({**position(hands=[["taiga-2"], []]), "cards": data})


def test_custom_card_file_too_small_for_setup_is_refused():
    data = card_file()
    data["biomes"] = data["biomes"][:1]
    with pytest.raises(rules.InvalidPosition, match="setup needs at least"):
        Subastral(parse_cards(data)).new_game(2, seed=0)


def test_custom_card_file_with_one_number_cannot_be_set_up():
    # Setup step 5 needs two different numbers; a card file of only 1s must be refused, not loop.
    program = (
        "import json, sys\n"
        "from rules import InvalidPosition\n"
        "from rules.subastral import Subastral\n"
        "from rules.subastral.cards import parse_cards\n"
        "data = json.load(open('rules/subastral/data/cards.json'))\n"
        "for b in data['biomes']:\n"
        "    for c in b['cards']: c['number'] = 1\n"
        "try:\n"
        "    Subastral(parse_cards(data)).new_game(2, seed=0)\n"
        "except (ValueError, InvalidPosition) as error:\n"
        "    print(type(error).__name__, error)\n"
        "    sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail("new_game never returns for a card file whose cards all have the same number")
    assert done.returncode == 0, done.stderr


# -- what every player knows about hidden hands ---------------------------------------------------------
def test_cards_taken_from_a_cloud_into_hand_stay_known_in_every_sample():
    # Turn step 2: the cards of a cloud taken into the hand go there in view of all (the bonus draw does
    # not). A re-deal of what Player 2 cannot see keeps them in Player 1's hand; playing one crosses it off.
    state = take_phase("tropical_rainforest-3", hand=["savanna-3"],
                       deck=["chaparral-5", "chaparral-6", "taiga-5", "taiga-6", "savanna-6", "END"])
    state = GAME.apply(state, 0, TakeCloud(cloud=2, to="hand"))
    for seed in range(200):
        twin = GAME.sample_hidden(state, 1, random.Random(seed))
        assert {"savanna-2", "taiga-3"} <= set(zones(twin)["hands"][0])
        assert GAME.observe(twin, 1) == GAME.observe(state, 1)
    assert zones(state)["known_hands"] == [["savanna-2", "taiga-3"], []]
    # The plots' unseen cards leave them out too: Player 2 has seen them.
    knowledge, forgetful = GAME.deck_knowledge(state, 1), GAME.deck_knowledge(state._replace(known=((), ())), 1)
    for card in ("savanna-2", "taiga-3"):
        assert knowledge["unseen"].get(card, 0) == forgetful["unseen"][card] - 1
    assert (knowledge["unseen_in_hands"], forgetful["unseen_in_hands"]) == (2, 4)   # savanna-3 and the bonus draw
    assert GAME.decode(GAME.encode(state)) == state._replace(log=())
    state = GAME.apply(state, 1, PlayCard(card="savanna-5"))
    state = GAME.apply(state, 1, TakeCloud(cloud=1, to="hand"))
    state = GAME.apply(state, 0, PlayCard(card="taiga-3"))
    assert zones(state)["known_hands"] == [["savanna-2"], ["savanna-4"]]


def test_known_hand_cards_must_be_in_the_hand():
    data = position(hands=[["savanna-3"], ["savanna-5"]], clouds=KAIRA_CLOUDS, deck=["taiga-5", "END"])
    data["state"]["known_hands"] = [["savanna-3"], ["taiga-6"]]
    with pytest.raises(rules.InvalidPosition, match=r"state.known_hands\[1\]: taiga-6 cannot be known"):
        GAME.decode(data)
    # A file written before the field existed: nobody knows anything about the hands.
    del data["state"]["known_hands"]
    assert zones(GAME.decode(data))["known_hands"] == [[], []]
