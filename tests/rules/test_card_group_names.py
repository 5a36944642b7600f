"""``card_info`` names each card's group in every language (issue #22, item 9: plots fitted to each game).

``group_names`` (``{"en", "ja"}``) stands beside ``group_name`` (the English, kept as it was for
anyone who reads it): the explorer's plots name a group in the page's language. The names come from
the card file (``name_ja``) and the game's own terms; a card file without ``name_ja`` keeps the
English on a Japanese page.
"""

from __future__ import annotations

import copy
import re

import pytest

import rules
from rules.rulebook import LANGUAGES

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def every_card(spec, state) -> list[str]:
    """Every kind of card on the table at the deal, as the explorer's plots ask about them."""
    copies = spec.inventory(state)
    if copies is None:
        copies = spec.deck_knowledge(state, None)["unseen"]
    return sorted(copies)


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_card_group_is_named_in_every_language(game_id):
    spec = rules.get_game(game_id)
    state = spec.new_game(max(spec.player_counts), seed=1)
    named: dict[str, dict] = {}
    for card in every_card(spec, state):
        info = spec.card_info(state, card)
        names = info["group_names"]
        assert set(names) == set(LANGUAGES), (card, names)
        assert names["en"] == info["group_name"], card             # the English is the name it always had
        assert JAPANESE.search(names["ja"]), (card, names)           # the standard files name every group in Japanese
        assert named.setdefault(info["group"], names) == names, card  # one group, one name
    japanese = [names["ja"] for names in named.values()]
    assert len(set(japanese)) == len(japanese), "two groups share a Japanese name"


def test_a_card_file_without_japanese_names_keeps_the_english():
    spec = rules.get_game("subastral")
    data = copy.deepcopy(dict(spec.cards.raw))
    for biome in data["biomes"]:
        biome.pop("name_ja", None)
    other = spec.with_card_file(data)
    state = other.new_game(2, seed=1)
    info = other.card_info(state, every_card(other, state)[0])
    assert info["group_names"] == {"en": info["group_name"], "ja": info["group_name"]}


def test_biome_blitz_names_an_animals_group_by_its_ecosystem():
    spec = rules.get_game("biome_blitz")
    state = spec.new_game(2, seed=1)
    info = spec.card_info(state, "camel")
    assert info["group"] == "animal_DES"
    assert info["group_names"] == {"en": "Animal (Desert)", "ja": "動物（砂漠）"}
    assert spec.card_info(state, "leaf")["group_names"] == {"en": "Leaf", "ja": "葉"}


def test_jump_gate_names_its_navcomp_cards_as_its_texts_do():
    spec = rules.get_game("jump_gate")
    state = spec.new_game(2, seed=1)
    assert spec.card_info(state, "J5-S1") == {"group": "navcomp", "group_name": "NavComp card",
                                             "group_names": {"en": "NavComp card", "ja": "手札カード"}, "number": 0}
    assert spec.card_info(state, "gem_white-bh")["group_names"] == {"en": "Gem (white)", "ja": "ジェム（白）"}
