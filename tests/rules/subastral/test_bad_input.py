"""Bad input: every illegal move and every malformed file is refused with a message that says what is
wrong (docs/protocol.md, "Errors"; docs/formats.md).

* ``apply`` raises :class:`rules.IllegalAction` naming the rule, and leaves the state as it was.
* ``decode`` / ``decode_action`` / ``load_json`` raise :class:`rules.InvalidPosition`, and nothing
  else, whatever they are given (hypothesis, derandomized so every run is the same).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.helpers.position_fuzz import HYPOTHESIS, can_be_played, mutated_positions
from tests.helpers.position_fuzz import junk_decode_tests, position_junk as position_junk_of
from tests.helpers.position_fuzz import roundtrips as shared_roundtrips
from rules.protocol import dumps, load_json
from rules.subastral import OpenColumn, PassCard, PlayCard, TakeCloud
from rules.subastral.cards import parse_cards
from rules.subastral.position import STATE_KEYS

GAME = rules.get_game("subastral")
CARD_NAMES = list(GAME.cards.kind_names)
CLOUDS = {1: ["savanna-4"], 2: ["taiga-3", "savanna-2"], 3: ["subtropical_desert-1"],
          4: ["arctic_tundra-6", "arctic_tundra-4"], 5: [], 6: ["subtropical_desert-3"]}


def position(*, players=2, hands=None, journals=None, clouds=None, deck=("taiga-5", "END"), seat=0,
             start_player=0, round=0, phase="play", played_cloud=None, end_triggered=False, last_round=None,
             pending=(), passes=None, disturbance=False) -> dict:
    """A position file with only the given zones filled; ``clouds`` is ``{number: [cards]}``."""
    return {
        "game": "subastral",
        "version": "1.0",
        "variants": {"disturbance": disturbance},
        "state": {
            "players": players, "start_player": start_player, "seat": seat, "round": round, "phase": phase,
            "played_cloud": played_cloud, "end_triggered": end_triggered, "last_round": last_round,
            "deck": list(deck),
            "clouds": {str(n): list((CLOUDS if clouds is None else clouds).get(n, ())) for n in range(1, 7)},
            "hands": [list(h) for h in hands] if hands is not None else [["taiga-1", "taiga-6"], ["savanna-5"]],
            "journals": ([[list(c) for c in j] for j in journals] if journals is not None
                         else [[] for _ in range(players)]),
            "pending": list(pending),
            "passes": list(passes) if passes is not None else [None] * players,
        },
    }


def decoded(**zones):
    return GAME.decode(position(**zones))


def refused(state, seat, action, *, rule: str, says: str) -> rules.IllegalAction:
    """``apply`` refuses, names a rule containing ``rule``, says ``says``, and changes nothing."""
    before, snapshot = GAME.encode(state), state._replace()
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, seat, action)
    error = caught.value
    assert error.rule and rule in error.rule
    assert says in error.reason
    assert str(error) == f"{error.reason} (rule: {error.rule})"
    assert GAME.encode(state) == before and state == snapshot
    if type(seat) is int and seat in GAME.to_move(state):
        # repr, not ==: TakeCloud(cloud=3.0) == TakeCloud(cloud=3), yet only whole numbers are clouds.
        assert repr(action) not in map(repr, GAME.legal_actions(state, seat))
    return error


def invalid(data, *, says: str, where: str | None = None) -> rules.InvalidPosition:
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in str(caught.value)
    if where is not None:
        assert caught.value.where == where
    return caught.value


# -- illegal moves -------------------------------------------------------------------------------------
def test_wrong_seat_is_refused():
    state = decoded()
    refused(state, 1, PlayCard(card="savanna-5"), rule="turn order", says="it is Player 1's turn, not Player 2's")


@pytest.mark.parametrize("seat", [2, -1, "0", None, 0.0, True])
def test_seat_that_does_not_exist_is_refused(seat):
    refused(decoded(), seat, PlayCard(card="taiga-1"), rule="turn order", says="there is no seat")


@pytest.mark.parametrize("card", ["taiga-4", "savanna-5", "dragon-3", "END", "", None, 3, ["taiga-1"]])
def test_card_not_in_hand_is_refused(card):
    """A card of the set is named as players name it ("Taiga 4"; the refusal said 'taiga-4', its id);
    anything else as it was sent."""
    shown = {"taiga-4": "Taiga 4", "savanna-5": "Savanna 5"}[card] if card in ("taiga-4", "savanna-5") else repr(card)
    refused(decoded(), 0, PlayCard(card=card), rule="turn step 1", says=f"{shown} is not in Player 1's hand")


def test_taking_the_played_cloud_is_refused():
    state = GAME.apply(decoded(), 0, PlayCard(card="taiga-6"))
    for to in ("hand", "journal"):
        refused(state, 0, TakeCloud(cloud=6, to=to), rule="turn step 2",
                says="cloud 6 was played on this turn; take from another cloud")


def test_taking_an_empty_cloud_is_refused():
    state = GAME.apply(decoded(), 0, PlayCard(card="taiga-6"))
    refused(state, 0, TakeCloud(cloud=5, to="hand"), rule="turn step 2",
            says="cloud 5 is empty; take from a cloud with cards")


@pytest.mark.parametrize("cloud", [0, 7, -1, "3", 3.0, True, None])
def test_taking_a_cloud_that_does_not_exist_is_refused(cloud):
    state = GAME.apply(decoded(), 0, PlayCard(card="taiga-6"))
    refused(state, 0, TakeCloud(cloud=cloud, to="hand"), rule="turn step 2", says="there is no cloud")


@pytest.mark.parametrize("card, cloud, to, says", [
    ("taiga-6", 2, "journal", "cloud 2 lies between cloud 6 and the deck, so its cards go to the hand"),
    ("taiga-1", 4, "hand", "cloud 4 lies between cloud 1 and the sun, so its cards go to the journal"),
    ("taiga-1", 2, "sun", "so its cards go to the journal"),
])
def test_wrong_destination_is_refused(card, cloud, to, says):
    state = GAME.apply(decoded(), 0, PlayCard(card=card))
    refused(state, 0, TakeCloud(cloud=cloud, to=to), rule="turn step 2", says=says)


@pytest.mark.parametrize("to", ["sun", "", None, "Hand"])
def test_ends_of_row_destination_must_be_hand_or_journal(to):
    state = GAME.apply(decoded(), 0, PlayCard(card="taiga-1"))
    refused(state, 0, TakeCloud(cloud=6, to=to), rule="special rule", says="go to 'hand' or 'journal'")


def order_phase():
    clouds = {**CLOUDS, 5: ["taiga-5", "temperate_grassland-5", "arctic_tundra-5"]}
    state = decoded(clouds=clouds, journals=[[["chaparral-1"]], []], deck=["savanna-6", "END"])
    state = GAME.apply(state, 0, PlayCard(card="taiga-1"))
    return GAME.apply(state, 0, TakeCloud(cloud=5, to="journal"))


def disturbance_phase():
    return decoded(hands=[["taiga-1"], ["savanna-5"]], clouds={}, deck=[], phase="disturbance",
                   end_triggered=True, last_round=0, disturbance=True)


@pytest.mark.parametrize("phase, action, rule, says", [
    ("play", TakeCloud(cloud=2, to="hand"), "turn step 1", "Player 1 must first play a card from hand"),
    ("play", OpenColumn(biome="taiga"), "turn step 1", "must first play a card"),
    ("play", PassCard(card="taiga-1"), "turn step 1", "must first play a card"),
    ("take", PlayCard(card="taiga-1"), "turn step 2", "Player 1 has played on cloud 6 and must now take a cloud"),
    ("take", OpenColumn(biome="taiga"), "turn step 2", "must now take a cloud"),
    ("order", PlayCard(card="taiga-6"), "journal", "must first choose which new biome opens the next journal column"),
    ("order", TakeCloud(cloud=2, to="hand"), "journal", "must first choose which new biome"),
    ("disturbance", PlayCard(card="taiga-1"), "disturbance", "the disturbance pass is under way"),
])
def test_wrong_action_type_for_the_phase_is_refused(phase, action, rule, says):
    state = {"play": decoded, "take": lambda: GAME.apply(decoded(), 0, PlayCard(card="taiga-6")),
             "order": order_phase, "disturbance": disturbance_phase}[phase]()
    assert state.phase == phase
    refused(state, 0, action, rule=rule, says=says)


@pytest.mark.parametrize("biome", ["chaparral", "savanna", "jungle", None])
def test_open_column_for_a_biome_not_waiting_is_refused(biome):
    state = order_phase()
    # (A biome of the card set as players name it: 'chaparral', its id, was named so.)
    shown = {"chaparral": "Chaparral", "savanna": "Savanna"}.get(biome, repr(biome))
    error = refused(state, 0, OpenColumn(biome=biome), rule="journal", says=f"{shown} is not a new biome waiting")
    assert "(waiting: Arctic tundra, Taiga, Temperate grassland)" in error.reason


def test_passing_twice_is_refused():
    state = GAME.apply(disturbance_phase(), 0, PassCard(card="taiga-1"))
    refused(state, 0, PassCard(card="taiga-1"), rule="disturbance", says="Player 1 has already chosen a card to pass")


def test_passing_a_card_not_in_hand_is_refused():
    refused(disturbance_phase(), 1, PassCard(card="taiga-1"), rule="disturbance", says="Taiga 1 is not in Player 2's hand")


def test_passing_with_an_empty_hand_is_refused():
    state = decoded(hands=[["taiga-1"], []], clouds={}, deck=[], phase="disturbance", end_triggered=True,
                    last_round=0, disturbance=True)
    refused(state, 1, PassCard(card="taiga-1"), rule="disturbance", says="Player 2 has no card in hand and passes nothing")


@pytest.mark.parametrize("action", [PlayCard(card="taiga-1"), PassCard(card="taiga-1"), TakeCloud(cloud=1, to="hand")])
def test_acting_after_game_over_is_refused(action):
    state = decoded(phase="over", deck=[], end_triggered=True, last_round=0)
    assert GAME.to_move(state) == () and GAME.legal_actions(state, 0) == []
    refused(state, 0, action, rule="game end", says="the game is over")


@pytest.mark.parametrize("action", [None, "play taiga-1", {"type": "play", "card": "taiga-1"}, 42, object(),
                                    ("play", "taiga-1"), PlayCard])
def test_nonsense_action_objects_are_refused(action):
    refused(decoded(), 0, action, rule="turn step 1", says="must first play a card")


# -- malformed positions --------------------------------------------------------------------------------
def test_truncated_json_text_is_invalid():
    text = dumps(GAME.encode(GAME.new_game(2, seed=1)))
    for cut in (0, 1, len(text) // 2, len(text) - 3):
        with pytest.raises(rules.InvalidPosition, match="not valid JSON") as caught:
            load_json(text[:cut], what="position.json")
        assert caught.value.where == "position.json"
    with pytest.raises(rules.InvalidPosition, match="ends inside a UTF-16 character") as caught:  # (its mark, then one byte)
        load_json(b"\xff\xfe{", what="position.json")
    assert caught.value.where == "position.json"
    assert GAME.encode(GAME.decode(load_json(text, what="position.json"))) == json.loads(text)


@pytest.mark.parametrize("card", ["taiga-7", "jungle-3", "taiga", "Taiga-3", 5, None, ["taiga-3"]])
def test_unknown_card_is_invalid(card):
    error = invalid(position(hands=[["taiga-1", card], ["savanna-5"]]), says="unknown card", where="state.hands[0][1]")
    assert "cards are named biome-number" in str(error)


def test_duplicated_cards_beyond_the_copies_are_invalid():
    # The 2-player deck has one taiga-4.
    data = position(hands=[["taiga-4", "taiga-1"], ["taiga-4"]])
    invalid(data, says="taiga-4 appears 2 times, but the 2-player deck has 1 copy (duplicated card", where="state")


def test_card_of_a_removed_marker_in_a_smaller_game_is_invalid():
    # tropical_rainforest-1 is marked ⑤ only: it is not in a 2-player deck, but it is in a 5-player one.
    data = position(hands=[["taiga-1", "tropical_rainforest-1"], ["savanna-5"]])
    invalid(data, says="tropical_rainforest-1 appears 1 time, but the 2-player deck has no copies", where="state")
    assert "a card removed for this player count" in str(invalid(data, says="deck has no copies"))
    five = position(players=5, hands=[["taiga-1", "tropical_rainforest-1"], [], [], [], []])
    assert GAME.decode(five).players == 5


@pytest.mark.parametrize("zone, count, says", [
    ("hands", 3, "needs one hand per player (2), found 3"),
    ("hands", 1, "needs one hand per player (2), found 1"),
    ("journals", 3, "needs one journal per player (2), found 3"),
    ("passes", 1, "needs one entry per player (2)"),
])
def test_wrong_number_of_hands_or_journals_is_invalid(zone, count, says):
    data = position()
    data["state"][zone] = ([["taiga-1"]] + [[] for _ in range(count - 1)]) if zone != "passes" else [None] * count
    invalid(data, says=says, where=f"state.{zone}")


@pytest.mark.parametrize("players", [1, 6, "2", 2.0, None])
def test_wrong_player_count_is_invalid(players):
    data = position()
    data["state"]["players"] = players
    invalid(data, says=f"Subastral is played by 2 to 5 players, not {players!r}", where="state.players")


@pytest.mark.parametrize("name", ["starlined", "Subastral", "", None])
def test_wrong_game_name_is_invalid(name):
    invalid({**position(), "game": name}, says=f"this is a position for {name!r}, not 'subastral'", where="position.game")
    with pytest.raises(rules.InvalidPosition, match="unknown game"):
        rules.get_game(name)


def test_wrong_rules_version_is_invalid():
    invalid({**position(), "version": "2.0"}, says="written for rules version '2.0'", where="position.version")


@pytest.mark.parametrize("variants, says", [
    ({"speed": True}, "Subastral has no variant 'speed'"),
    ({"disturbance": 1}, "variant 'disturbance' takes one of [False, True], not 1"),
    ({"disturbance": "yes"}, "takes one of [False, True]"),
    ([], "variants must be an object"),
])
def test_bad_variants_are_invalid(variants, says):
    invalid({**position(), "variants": variants}, says=says, where="variants")


def test_missing_end_card_is_invalid():
    invalid(position(deck=["taiga-5"]), says="the deck must hold the game-end card 'END' exactly once until it is revealed (found 0)",
            where="state.deck")


def test_two_end_cards_are_invalid():
    invalid(position(deck=["END", "taiga-5", "END"]), says="exactly once until it is revealed (found 2)", where="state.deck")


def test_end_card_in_deck_after_it_was_revealed_is_invalid():
    invalid(position(deck=["END"], end_triggered=True, last_round=1), says="the end card was already revealed")


def test_end_card_outside_the_deck_is_invalid():
    invalid(position(hands=[["taiga-1", "END"], ["savanna-5"]]), says="the game-end card can only be in the deck",
            where="state.hands[0][1]")


def test_mixed_biome_journal_column_is_invalid():
    data = position(journals=[[["taiga-2", "savanna-1"]], []])
    invalid(data, says="a journal column holds cards of one biome only", where="state.journals[0][0]")


def test_same_biome_in_two_columns_is_invalid():
    data = position(journals=[[], [["taiga-2"], ["savanna-1"], ["taiga-3"]]])
    invalid(data, says="Taiga already has column 1; each biome has one column", where="state.journals[1][2]")


def test_empty_journal_column_is_invalid():
    invalid(position(journals=[[["taiga-2"], []], []]), says="a journal column cannot be empty", where="state.journals[0][1]")


@pytest.mark.parametrize("phase", ["dance", "", None, "PLAY", 1])
def test_bad_phase_is_invalid(phase):
    invalid(position(phase=phase), says=f"phase must be one of play, take, order, disturbance, over, not {phase!r}",
            where="state.phase")


@pytest.mark.parametrize("phase, played, says, where", [
    ("play", 3, "must be null in the play phase (it is set between the play and the take)", "state.played_cloud"),
    ("over", 3, "must be null in the over phase", "state.played_cloud"),
    ("take", None, "must be a whole number from 1 to 6, not None", "state.played_cloud"),
    ("take", 7, "must be a whole number from 1 to 6, not 7", "state.played_cloud"),
    ("take", 5, "cloud 5 was played on, so it holds at least that card", "state.clouds"),
])
def test_played_cloud_inconsistent_with_phase_is_invalid(phase, played, says, where):
    data = position(phase=phase, played_cloud=played)
    if phase == "over":
        data = position(phase=phase, played_cloud=played, deck=[], end_triggered=True, last_round=0)
    invalid(data, says=says, where=where)


def test_unknown_fields_are_invalid():
    invalid({**position(), "score": 3}, says="unknown field(s) score", where="position")
    data = position()
    data["state"]["score"] = 3
    invalid(data, says="unknown field(s) score", where="state")
    data = position()
    del data["state"]["passes"]
    invalid(data, says="missing passes", where="state")
    invalid([position()], says="expected an object, got list", where="position")


@pytest.mark.parametrize("change, says, where", [
    (lambda s: s.update(seat=2), "must be a whole number from 0 to 1, not 2", "state.seat"),
    (lambda s: s.update(start_player=-1), "must be a whole number from 0 to 1, not -1", "state.start_player"),
    (lambda s: s.update(round=True), "must be a whole number from 0 or more, not True", "state.round"),
    (lambda s: s.update(end_triggered="no"), "must be true or false", "state.end_triggered"),
    (lambda s: s.update(last_round=2), "must be null until the end card is revealed", "state.last_round"),
    (lambda s: s.update(deck=["taiga-5"], end_triggered=True, round=2, last_round=1),
     "the last round (1) cannot lie before the current round (2)", "state.last_round"),
    # (a later last round made one move pass the turn round the table, every hand empty, up to it:
    # 10**9 hung the server and filled its memory)
    (lambda s: s.update(deck=["taiga-5"], end_triggered=True, round=2, last_round=4),
     "the last round (4) is at most the round after the current one (2)", "state.last_round"),
    (lambda s: s.update(deck=["taiga-5"], end_triggered=True, round=2, last_round=10**9),
     "the last round (1000000000) is at most the round after the current one (2)", "state.last_round"),
    (lambda s: s["clouds"].pop("6"), 'clouds must be an object with the keys "1" to "6"', "state.clouds"),
    (lambda s: s.update(clouds=[[], [], [], [], [], []]), 'clouds must be an object', "state.clouds"),
    (lambda s: s.update(deck="END"), "must be a list, not str", "state.deck"),
    (lambda s: s.update(pending=["taiga-5"], deck=["END"]), "only the order phase has pending cards", "state.pending"),
    (lambda s: s.update(passes=["taiga-1", None]), "cards are only chosen for passing in the disturbance phase",
     "state.passes[0]"),
    (lambda s: s.update(phase="disturbance"), "the disturbance phase needs the disturbance variant switched on",
     "state.phase"),
    (lambda s: s.update(hands=[[], ["savanna-5"]]), "Player 1 is to play but has no card in hand", "state.hands[0]"),
    (lambda s: s.update(phase="take", played_cloud=3, clouds={"3": ["taiga-3"], **{str(n): [] for n in (1, 2, 4, 5, 6)}}),
     "no cloud can be taken (the take would have been skipped)", "state.clouds"),
    (lambda s: s.update(phase="order", played_cloud=1, pending=["taiga-5"], deck=["END"]),
     "the order phase needs cards of at least two new biomes waiting", "state.pending"),
])
def test_impossible_state_is_invalid(change, says, where):
    data = position()
    change(data["state"])
    invalid(data, says=says, where=where)


def test_pending_biome_that_already_has_a_column_is_invalid():
    data = position(phase="order", played_cloud=1, pending=["taiga-5", "savanna-6"], deck=["END"],
                    journals=[[["taiga-2"]], []])
    invalid(data, says="pending cards must be of biomes without a column yet", where="state.pending")


def test_pass_of_a_card_not_in_hand_is_invalid():
    data = position(hands=[["taiga-1"], ["savanna-5"]], clouds={}, deck=[], phase="disturbance", end_triggered=True,
                    last_round=0, disturbance=True, passes=["savanna-5", None])
    invalid(data, says="savanna-5 is not in Player 1's hand", where="state.passes[0]")


def test_disturbance_phase_with_nobody_left_to_choose_is_invalid():
    # Everyone with a hand card has chosen (or nobody has one): the passes would already have been
    # made. Such a position has no seat to move and yet is not over.
    for hands, passes in (([[], []], [None, None]), ([["taiga-1"], []], ["taiga-1", None])):
        data = position(hands=hands, clouds={}, deck=[], phase="disturbance", end_triggered=True, last_round=0,
                        disturbance=True, passes=passes)
        invalid(data, says="disturbance")


def test_bad_card_file_in_a_position_is_invalid():
    invalid({**position(), "cards": {"format": "nope"}}, says="format must be 'subastral-cards/1'", where="position.cards")
    invalid({**position(), "cards": []}, says="a card file is a JSON object", where="position.cards")


# -- malformed actions ----------------------------------------------------------------------------------
@pytest.mark.parametrize("data, says", [
    (None, "an action is an object with a 'type', not NoneType"),
    ([], "an action is an object with a 'type', not list"),
    ("play taiga-1", "not str"),
    ({}, "action type must be one of play, take, open_column, pass, not None"),
    ({"type": "fly"}, "not 'fly'"),
    ({"type": "play"}, "missing card"),
    ({"type": "play", "card": "taiga-1", "cloud": 1}, "unknown field(s) cloud"),
    ({"type": "play", "card": "dragon-1"}, "unknown card 'dragon-1'"),
    ({"type": "pass", "card": None}, "unknown card None"),
    ({"type": "take", "cloud": 7, "to": "hand"}, "must be a whole number from 1 to 6, not 7"),
    ({"type": "take", "cloud": "3", "to": "hand"}, "not '3'"),
    ({"type": "take", "cloud": 3, "to": "sun"}, "'to' must be 'hand' or 'journal', not 'sun'"),
    ({"type": "take", "cloud": 3}, "missing to"),
    ({"type": "open_column", "biome": "jungle"}, "unknown biome 'jungle'"),
    ({"type": ["play"]}, "action type must be one of"),
    ({"type": {"play": 1}}, "action type must be one of"),
])
def test_decode_action_on_junk_is_invalid(data, says):
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode_action(data)
    assert says in str(caught.value)


@pytest.mark.parametrize("action", [PlayCard(card="taiga-1"), TakeCloud(cloud=6, to="hand"), OpenColumn(biome="taiga"),
                                    PassCard(card="savanna-5")])
def test_decode_action_reads_what_encode_action_writes(action):
    assert GAME.decode_action(GAME.encode_action(action)) == action
    assert GAME.decode_action(json.loads(json.dumps(GAME.encode_action(action)))) == action


# -- hypothesis: junk and mutations -----------------------------------------------------------------------
def sample_positions() -> list[dict]:
    """Encoded states of seeded random games, one of every phase, and one with its own card file."""
    found = {}
    for players in (2, 3, 4, 5):
        for seed in range(4):
            state = GAME.new_game(players, seed, {"disturbance": seed % 2 == 1})
            rng = random.Random(seed)
            while True:
                found.setdefault((players, state.phase, state.end_triggered), GAME.encode(state))
                if GAME.is_over(state):
                    break
                seat = rng.choice(GAME.to_move(state))
                state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    custom = json.loads(json.dumps(GAME.cards.raw))
    custom["name"] = "renamed taiga"
    custom["biomes"][2]["id"] = "boreal"
    game = GAME.with_cards(parse_cards(custom))
    extra = game.encode(game.new_game(3, seed=5))
    return [found[key] for key in sorted(found, key=str)] + [extra]


SAMPLES = sample_positions()


WORDS = ["subastral", "1.0", "END", "play", "take", "order", "over", "disturbance", "hand", "journal", "taiga",
         "taiga-1", "savanna-5", "tropical_rainforest-1", "open_column", "pass"]
KEYS = ["game", "version", "variants", "state", "cards", "comment", "type", "card", "cloud", "to", "biome",
        "format", "biomes", "id", "number", "min_players", *STATE_KEYS, *"123456"]
scalars = (st.none() | st.booleans() | st.integers(-2, 8) | st.integers() | st.floats()
           | st.text(max_size=8) | st.sampled_from(WORDS + CARD_NAMES))
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5),
    max_leaves=12,
)
action_junk = junk | st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "take", "open_column", "pass"]) | junk},
    optional={"card": junk, "cloud": junk, "to": junk, "biome": junk},
)
position_junk = position_junk_of(GAME, {"disturbance": True}, SAMPLES, STATE_KEYS, junk)


def roundtrips(state) -> None:
    shared_roundtrips(GAME, state)


test_decode_junk_raises_only_invalid_position, test_decode_action_junk_raises_only_invalid_position = \
    junk_decode_tests(GAME, position_junk, action_junk)


def test_sample_positions_cover_every_phase():
    assert {s["state"]["phase"] for s in SAMPLES} == {"play", "take", "order", "disturbance", "over"}
    for sample in SAMPLES:
        roundtrips(GAME.decode(sample))


mutated = mutated_positions(SAMPLES, junk, CARD_NAMES + ["END", "taiga-7", "boreal-1", "savanna"])


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
    # A position the engine accepts is one the game can go on from: someone must move unless it is over.
    try:
        state = GAME.decode(data)
    except rules.InvalidPosition:
        return
    can_be_played(GAME, state)
