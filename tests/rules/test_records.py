"""rules.records: the one way engines build a State from all its fields at once."""

from pathlib import Path

import pytest

import rules
from rules.records import from_fields


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_state_made_from_its_fields_is_the_state_the_constructor_makes(game_id):
    game = rules.get_game(game_id)
    state = game.new_game(game.player_counts[0], 3)
    kind = type(state)
    made = from_fields(kind)(list(state))
    assert type(made) is kind and made == kind(*state) and made._asdict() == state._asdict()


def test_no_engine_builds_a_state_with_tuple_new_itself():
    rules_dir = Path(rules.__file__).parent
    users = sorted(str(path.relative_to(rules_dir)) for path in rules_dir.rglob("*.py")
                   if "tuple.__new__" in path.read_text(encoding="utf-8"))
    assert users == ["records.py"]


def test_what_an_engine_works_out_once_per_card_set_is_a_cached_property():
    from functools import cached_property
    for game_id in ("jump_gate", "stellar", "starligned", "subastral"):
        cards = rules.get_game(game_id).cards
        assert isinstance(vars(type(cards))["action_table"], cached_property), game_id
        assert cards.action_table is cards.action_table
    rules_dir = Path(rules.__file__).parent
    patched = sorted(str(path.relative_to(rules_dir)) for path in rules_dir.rglob("*.py")
                     if '__dict__["' in path.read_text(encoding="utf-8") or "__dict__.get(" in path.read_text(encoding="utf-8"))
    assert patched == []


def test_field_positions_are_held_to_the_class_by_name():
    from typing import NamedTuple

    from rules.records import check_positions

    class Point(NamedTuple):
        x: int
        y: int

    check_positions(Point, x=0, y=1)
    for wrong in ({"x": 1, "y": 0}, {"x": 0}, {"x": 0, "y": 1, "z": 2}):
        with pytest.raises(ImportError, match="Point's field positions disagree"):
            check_positions(Point, **wrong)


def test_the_engines_field_positions_are_their_states():
    from rules.biome_blitz import state as biome_blitz
    from rules.stellar import state as stellar

    for module in (biome_blitz, stellar):
        assert [getattr(module, f"AT_{name.upper()}") for name in module.State._fields] == list(range(len(module.State._fields)))
