"""No knowledge where none is due (issue #19): what a Stellar seat may know, and nothing more.

- A card played face down shows its identity only to its owner, and to the seats that saw it in the
  public row before (taken from the row, or the second card from the row).
- A second card drawn from the deck for the telescope is its player's own until it lies face up.
- The simultaneous choices (the two starters, the final notebook card) stay hidden from the other
  seat until both have chosen: its observation, events, legal actions and to_move are the same
  whichever choice was made.
- ``sample_hidden`` keeps what a seat knows: the cards it saw an opponent take stay in that hand.
"""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules.stellar import ChooseStarters, FinalNotebookCard, PlayToNotebook, PlayToTelescope, TakeRowCard
from tests.helpers.stellar import ROW, load, play, position, state_json, telescope

GAME = rules.get_game("stellar")
VIEWERS = (None, 0, 1)


def seen(state, seat) -> str:
    """Everything ``seat`` is shown, as one text."""
    return json.dumps(GAME.observe(state, seat), ensure_ascii=False)


def twins_agree(state, samples: int = 30) -> None:
    """Every re-deal of what a viewer cannot see gives that viewer the same observation."""
    rng = random.Random(1)
    for viewer in VIEWERS:
        view = GAME.observe(state, viewer)
        for _ in range(samples):
            assert GAME.observe(GAME.sample_hidden(state, viewer, rng), viewer) == view


# -- a card played face down -----------------------------------------------------------------------
# The only planet sits at the apex, whose neighbours are filled: a planet fits nowhere face up.
BLOCKED = telescope(top_1="planet-3-1star", top_2="moon-1-3stars", top_3="moon-2-2stars")


def test_a_card_played_face_down_shows_its_identity_only_to_its_owner():
    # planet-4-1star was dealt (nobody else saw it) and goes face down.
    state = load(phase="play", round=2, hands=(("planet-4-1star", "moon-4-1star", "moon-5-1star"), ()),
                 telescopes=[BLOCKED, telescope(top_1="moon-3-1star")])
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot="bottom-2", face_down=True))
    assert GAME.observe(state, 0)["telescopes"][0]["bottom-2"] == {"face_down": "planet-4-1star"}
    for viewer in (1, None):
        assert GAME.observe(state, viewer)["telescopes"][0]["bottom-2"] == {"face_down": None}
        assert "planet-4-1star" not in seen(state, viewer)
    texts = [event["text"] for event in GAME.observe(state, 1)["events"]]
    assert "Player 1 plays a card face down (number 3, no type, no stars) into telescope slot bottom 2." in texts
    twins_agree(state)


def test_a_card_seen_taken_from_the_row_stays_known_when_played_face_down():
    row = list(ROW)
    row[4] = "planet-5-1star"
    state = load(round=2, row=row, deck=("planet-2-2stars", "moon-5-0stars", "black_hole-5-1star"),
                 telescopes=[BLOCKED, telescope(top_1="moon-3-1star")])
    state = play(state, (0, TakeRowCard(slot=5)))
    assert GAME.observe(state, 1)["hands"][0]["known"] == ["planet-5-1star"]
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-5-1star", slot="bottom-1", face_down=True))
    for viewer in VIEWERS:
        assert GAME.observe(state, viewer)["telescopes"][0]["bottom-1"] == {"face_down": "planet-5-1star"}
    assert GAME.observe(state, 1)["hands"][0]["known"] == []
    twins_agree(state)


@pytest.mark.parametrize("slot, face_down", [("top-2", False), ("bottom-2", True)])
def test_of_two_copies_in_hand_one_seen_taken_the_copy_played_is_the_seen_one(slot, face_down):
    # Player 1 holds two planet-4-1star: one dealt (unseen), one seen taken from the row. The copy
    # played is the one the others know of (face down, they know it); the copy left is unseen.
    telescopes = [BLOCKED if face_down else telescope(top_1="planet-3-1star"), telescope(top_1="moon-3-1star")]
    data = position(phase="play", round=2, hands=(("planet-4-1star", "planet-4-1star", "moon-5-1star"), ()),
                    telescopes=telescopes)
    data["state"]["known_hands"] = [["planet-4-1star"], []]
    state = GAME.decode(data)
    assert GAME.observe(state, 1)["hands"][0]["known"] == ["planet-4-1star"]
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-4-1star", slot=slot, face_down=face_down))
    shown = {"face_down": "planet-4-1star"} if face_down else "planet-4-1star"
    for viewer in VIEWERS:
        assert GAME.observe(state, viewer)["telescopes"][0][slot] == shown
    assert state_json(state)["hands"][0] == ["planet-4-1star", "moon-5-1star"]
    assert state_json(state)["known_hands"] == [[], []]
    assert GAME.decode(GAME.encode(state)) == state._replace(log=())
    twins_agree(state)


def test_a_second_card_drawn_from_the_deck_for_the_telescope_is_hidden_until_placed():
    # moon-2-2stars to the notebook; row slot 2 is empty, so the second card is the deck's top card,
    # planet-5-1star, which fits nowhere face up and goes face down.
    row = list(ROW)
    row[1] = None
    state = load(phase="play", round=2, row=row, hands=(("planet-4-1star", "moon-2-2stars", "moon-4-1star"), ()),
                 deck=("planet-5-1star", "planet-2-2stars", "moon-5-0stars"), telescopes=[BLOCKED, telescope(top_1="moon-3-1star")])
    state = GAME.apply(state, 0, PlayToNotebook(card="moon-2-2stars"))
    assert state.phase == "place"
    assert GAME.observe(state, 0)["pending"] == "planet-5-1star"
    for viewer in (1, None):
        assert GAME.observe(state, viewer)["pending"] == {"hidden": True}
        assert "planet-5-1star" not in seen(state, viewer)
    twins_agree(state)
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-5-1star", slot="bottom-4", face_down=True))
    assert GAME.observe(state, 1)["telescopes"][0]["bottom-4"] == {"face_down": None}
    assert "planet-5-1star" not in seen(state, 1)
    twins_agree(state)


def test_a_second_card_from_the_row_is_seen_by_everyone_even_face_down():
    state = load(phase="play", round=2, hands=(("black_hole-5-0stars", "moon-2-2stars", "moon-4-1star"), ()),
                 row=["moon-1-3stars", "planet-2-2stars", "black_hole-3-2stars", "moon-4-1star", "asteroid-5-1star"],
                 telescopes=[BLOCKED, telescope(top_1="moon-3-1star")])
    state = GAME.apply(state, 0, PlayToNotebook(card="moon-2-2stars"))
    assert GAME.observe(state, 1)["pending"] == "planet-2-2stars"
    state = GAME.apply(state, 0, PlayToTelescope(card="planet-2-2stars", slot="bottom-4", face_down=True))
    assert GAME.observe(state, 1)["telescopes"][0]["bottom-4"] == {"face_down": "planet-2-2stars"}
    twins_agree(state)


# -- simultaneous choices --------------------------------------------------------------------------
def the_other_seat_learns_nothing(first, second, other: int) -> None:
    assert GAME.observe(first, other) == GAME.observe(second, other)
    assert GAME.observe(first, None) == GAME.observe(second, None)
    assert GAME.to_move(first) == GAME.to_move(second) == (other,)
    assert GAME.legal_actions(first, other) == GAME.legal_actions(second, other)


def test_the_starters_choice_stays_hidden_until_both_have_chosen():
    state = GAME.new_game(2, seed=3)
    a, b = state_json(state)["starters"][0]
    up_a = GAME.apply(state, 0, ChooseStarters(telescope=a, notebook=b))
    up_b = GAME.apply(state, 0, ChooseStarters(telescope=b, notebook=a))
    the_other_seat_learns_nothing(up_a, up_b, 1)
    assert GAME.observe(up_a, 0)["chosen"][0] == {"done": True, "card": a}
    assert GAME.observe(up_a, 1)["chosen"][0] == {"done": True}
    twins_agree(up_a)


def test_the_final_card_choice_stays_hidden_until_both_have_chosen():
    state = load(phase="final", round=11, hands=(("planet-4-1star", "moon-2-2stars"), ("asteroid-1-3stars", "black_hole-1-3stars")),
                 telescopes=[telescope(top_1="planet-3-1star"), telescope(top_1="moon-3-1star")])
    planet = GAME.apply(state, 0, FinalNotebookCard(card="planet-4-1star"))
    moon = GAME.apply(state, 0, FinalNotebookCard(card="moon-2-2stars"))
    the_other_seat_learns_nothing(planet, moon, 1)
    assert GAME.scores(planet) == GAME.scores(moon)
    twins_agree(planet)
    done = GAME.apply(planet, 1, FinalNotebookCard(card="asteroid-1-3stars"))
    assert GAME.is_over(done) and "planet-4-1star" in seen(done, 1)


# -- sample_hidden keeps what a seat knows ---------------------------------------------------------
def hand_known_from_takes():
    """Player 2's hand after two turns, each taking a row card and playing a dealt card: all known."""
    deck = ("planet-5-1star", "planet-2-2stars", "moon-5-0stars", "moon-5-1star", "asteroid-4-1star", "black_hole-2-2stars",
            "planet-1-3stars", "interstellar_cloud-4-1star", "interstellar_cloud-5-0stars", "asteroid-5-0stars",
            "moon-6/0-0stars", "black_hole-4-1star", "satellite", "moon-4-1star")
    state = load(deck=deck)
    state = play(state, (0, TakeRowCard(slot=3)), (0, PlayToTelescope(card="planet-4-1star", slot="top-2")))
    for dealt in ("asteroid-1-3stars", "black_hole-1-3stars"):
        state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])  # a row card
        state = GAME.apply(state, 1, PlayToNotebook(card=dealt))
        state = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])  # the second card into the telescope
        if state.seat == 0:
            state = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
            state = GAME.apply(state, 0, next(a for a in GAME.legal_actions(state, 0) if isinstance(a, PlayToNotebook)))
            if state.phase == "place":
                state = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    return state


def test_sample_hidden_keeps_an_opponents_hand_known_from_public_takes():
    state = hand_known_from_takes()
    known = GAME.observe(state, 0)["hands"][1]["known"]
    assert len(known) == 2 and sorted(known) == sorted(state_json(state)["hands"][1])
    rng = random.Random(0)
    samples = [GAME.sample_hidden(state, 0, rng) for _ in range(200)]
    assert all(sample.hands[1] == state.hands[1] for sample in samples)
    # What player 1 cannot know is still re-dealt.
    assert len({sample.deck for sample in samples}) > 1
    twins_agree(state)


# -- files ------------------------------------------------------------------------------------------
def test_a_position_written_before_the_knowledge_fields_loads_knowing_nothing():
    data = GAME.encode(hand_known_from_takes())
    for key in ("known_hands", "known_face_down", "pending_seen", "chosen"):
        del data["state"][key]
    state = GAME.decode(data)
    assert state.known == ((), ()) and state.chosen == (-1, -1)


@pytest.mark.parametrize("key,value,says", [
    ("known_hands", [["satellite"], []], "known_hands lists cards Player 1 does not hold"),
    ("known_face_down", [["top-2"], []], "holds no face-down card"),
    ("chosen", ["planet-4-1star", None], "choice must be one of"),
    ("pending_seen", True, "only the place phase"),
])
def test_knowledge_that_does_not_fit_the_zones_is_invalid(key, value, says):
    data = GAME.encode(load())
    data["state"][key] = value
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert says in str(caught.value)


def test_a_position_where_everyone_has_chosen_is_invalid():
    data = GAME.encode(GAME.new_game(2, seed=3))
    data["state"]["chosen"] = [pair[0] for pair in data["state"]["starters"]]
    with pytest.raises(rules.InvalidPosition) as caught:
        GAME.decode(data)
    assert "nobody is left to move" in str(caught.value)
