"""What a person edits in a position (``GameSpec.position_fields``, the setup editor's form) and the cards'
printed names (``GameSpec.card_label``), for every game and player count, along played games.

Each field must point at a value the position holds, of its kind; a zone's cards must be among the
cards it offers; the words must exist in every language; and a position rebuilt from the fields'
values alone (what the form writes) must decode to the same state.
"""

from __future__ import annotations

import copy
import random

import pytest

import rules
from rules.protocol import FIELD_KINDS, PositionField
from rules.registry import get_game
from rules.rulebook import LANGUAGES

CASES = [(game, players) for game in rules.GAMES for players in get_game(game).player_counts]
#: Games whose printed cards carry no other name than the id a position file uses.
IDS_ARE_PRINTED: set[str] = set()


def value_at(state, path):
    for key in path:
        state = state[key]
    return state


def positions(spec, players: int, seed: int = 3, every: int = 7):
    """Encoded positions along one random game: the deal, every ``every``-th step and the end."""
    state, rng, step = spec.new_game(players, seed), random.Random(seed), 0
    yield spec.encode(state)
    while not spec.is_over(state):
        seat = spec.to_move(state)[0]
        state = spec.apply(state, seat, rng.choice(spec.legal_actions(state, seat)))
        step += 1
        if step % every == 0:
            yield spec.encode(state)
    yield spec.encode(state)


def check_field(field: PositionField, value, players: int) -> None:
    assert field.kind in FIELD_KINDS
    for words in (field.label, field.group) + ((field.note,) if field.note else ()):
        assert set(words) >= set(LANGUAGES) and all(words[lang].strip() for lang in LANGUAGES), field
    if value is None:
        assert field.optional or field.kind == "card", f"{field.where} is null but not optional"
        return
    if field.kind == "cards":
        assert isinstance(value, list), field.where
        assert set(value) <= set(field.cards), f"{field.where}: {sorted(set(value) - set(field.cards))} not offered"
    elif field.kind == "card":
        assert value in field.cards, f"{field.where}: {value!r} not offered"
    elif field.kind == "seat":
        assert type(value) is int and 0 <= value < players, field.where
    elif field.kind == "number":
        assert type(value) is int, field.where
        assert field.low is None or value >= field.low, field.where
        assert field.high is None or value <= field.high, field.where
    elif field.kind == "choice":
        assert value in field.choices, f"{field.where}: {value!r} not among {field.choices}"
        for label in field.choice_labels:
            assert isinstance(label, str) or set(label) >= set(LANGUAGES)
    elif field.kind == "flag":
        assert isinstance(value, bool), field.where


@pytest.mark.parametrize("game,players", CASES)
def test_every_field_names_a_value_of_its_kind_and_the_fields_alone_rebuild_the_position(game, players):
    spec = get_game(game)
    seen_kinds = set()
    for position in positions(spec, players):
        fields = spec.position_fields(position)
        assert fields, f"{game} lists nothing to edit"
        wheres = [field.where for field in fields]
        assert len(wheres) == len(set(wheres)), "a field listed twice"
        blank = copy.deepcopy(position)
        for field in fields:
            value = value_at(position["state"], field.path)
            check_field(field, value, players)
            seen_kinds.add(field.kind)
            # What the form writes: every field's value put back in place (lists as new lists).
            holder = value_at(blank["state"], field.path[:-1])
            holder[field.path[-1]] = copy.deepcopy(value)
        assert spec.encode(spec.decode(blank)) == position
    assert {"cards", "seat"} <= seen_kinds


@pytest.mark.parametrize("game,players", CASES)
def test_every_hand_and_deck_is_a_field(game, players):
    """A person can edit every seat's hand (or its hidden cards) and the draw pile from the form."""
    spec = get_game(game)
    position = spec.encode(spec.new_game(players, 1))
    fields = spec.position_fields(position)
    groups = {field.group["en"] for field in fields if field.kind == "cards"}
    for seat in range(players):
        assert f"Player {seat + 1}" in groups, f"no zone of Player {seat + 1}"
    assert any(field.ordered and field.kind == "cards" for field in fields), "no ordered pile (a deck)"


@pytest.mark.parametrize("game", rules.GAMES)
def test_every_card_on_the_table_has_a_printed_name_in_every_language(game):
    spec = get_game(game)
    state = spec.new_game(spec.player_counts[-1], 1)
    offered = {card for field in spec.position_fields(spec.encode(state)) for card in field.cards}
    for card in sorted(offered | set(spec.inventory(state) or {})):
        label = spec.card_label(card)
        if game in IDS_ARE_PRINTED:
            assert isinstance(label, str) or label
            continue
        assert isinstance(label, dict) and set(label) >= set(LANGUAGES), f"{game}: {card!r} has no printed name"
        assert all(label[lang].strip() for lang in LANGUAGES)
        assert label["en"] != card or not any(c in card for c in "-_"), f"{game}: {card!r} named by its id"
    assert spec.card_label("no-such-card") == "no-such-card"


def test_a_field_says_where_it_is_as_the_rules_messages_do():
    field = PositionField(path=("hands", 1), kind="cards", label={"en": "h", "ja": "h"}, group={"en": "g", "ja": "g"})
    assert field.where == "state.hands[1]"
    assert PositionField(path=("clouds", "3"), kind="cards", label={}, group={}).where == "state.clouds.3"
    with pytest.raises(ValueError, match="kind must be one of"):
        PositionField(path=("x",), kind="deck", label={}, group={})
