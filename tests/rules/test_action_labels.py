"""Every game names its actions in English and in Japanese, for the picker's buttons: in every list of
legal actions, the names tell the actions apart. In English a name is ``str(action)`` but where the
action holds a card or slot id: the games in ``PRINTED_NAMES`` name a card as printed (``play Savanna 3``,
not ``savanna-3``; ``play Moon 1 ★★★ to telescope top 2``, not ``moon-1-3stars`` and ``top-2``;
``compete: African lion against Saltwater crocodile``, not ``lion`` and ``crocodile``; ``fly to Aurel``,
not ``PA``), and their Japanese names hold no id and no English word from the card file."""

from __future__ import annotations

import re

import pytest

import rules
from tests.helpers.seeded_games import JAPANESE, positions

CARD_ID = re.compile(r"\b[a-z]+(?:_[a-z]+)*-\d\b")       # savanna-3, tropical_rainforest-5, top-2
PRINTED_NAMES = ("subastral", "stellar", "biome_blitz", "jump_gate")
#: An id in a Japanese name: ``dung_beetle``, ``gem_white-bh``, ``lion#2``, ``PA``, ``SAV``.
ID_IN_JAPANESE = re.compile(r"[a-z]+_[a-z]+|-bh\b|#\d|\b[A-Z]{2,3}\b")
#: A word in Latin letters (a NavComp card's codes, ``J5-S1``, are one letter and a number each).
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_action_has_a_japanese_name_that_tells_it_apart(game_id):
    lists = 0
    for game, state, _ in positions(game_id):
        for seat in game.to_move(state):
            actions = game.legal_actions(state, seat)
            english = [game.action_label(a, "en") for a in actions]
            if game_id in PRINTED_NAMES:
                assert not any(CARD_ID.search(name) for name in english), english
                assert len(set(english)) == len(english), english
            else:
                assert english == [str(a) for a in actions]
            names = [game.action_label(a, "ja") for a in actions]
            assert all(JAPANESE.search(name) for name in names), names
            assert len(set(names)) == len(names), names
            lists += 1
    assert lists


@pytest.mark.parametrize("game_id", ["biome_blitz", "jump_gate"])
def test_actions_name_cards_as_the_card_file_prints_them(game_id):
    """Each card an action spells by its id is named by the card file's ``name`` in English and its
    ``name_ja`` in Japanese; neither name holds an id, and the Japanese none of the English words."""
    for game, state, _ in positions(game_id, seeds=2):
        for seat in game.to_move(state):
            for action in game.legal_actions(state, seat):
                english, japanese = game.action_label(action, "en"), game.action_label(action, "ja")
                for card in (value for value in vars(action).values() if isinstance(value, str)):
                    printed = card_label(game, card)
                    if printed:
                        assert printed["en"] in english and printed["ja"] in japanese, (english, japanese)
                assert not ID_IN_JAPANESE.search(english.replace("Player", "")), english
                assert not ID_IN_JAPANESE.search(japanese) and not LATIN.search(japanese), japanese


def card_label(game, card: str) -> dict[str, str] | None:
    """The card file's names of the card ``card`` (an animal, an ecosystem, a planet id), if it is one."""
    cards = game.cards
    if game.id == "biome_blitz":
        printed = cards.animal_label(card) if card in cards.animal_by_id else cards.ecosystem_label(card)
    else:
        printed = cards.planet_label(cards.planet_by_id[card]) if card in cards.planet_by_id else card
    return printed if isinstance(printed, dict) else None


def test_starligned_names_a_card_with_the_half_it_shows_where_it_lies():
    """Starligned's move buttons said "play S508": the id is small print in a card's corner, what one
    sees is its half up ("2 Repeat"), and the log spelled the same card "S508r". Given the state, a card
    in a hand or a row is named as it lies with its half, as the log and the tutorial name it."""
    from rules.starligned.game import lying

    named = 0
    for game, state, _ in positions("starligned"):
        halves = lying(state)
        for seat in game.to_move(state):
            actions = game.legal_actions(state, seat)
            for lang in ("en", "ja"):
                labels = [game.action_label(action, lang, state) for action in actions]
                assert len(set(labels)) == len(labels), labels
                for action, label in zip(actions, labels):
                    for card in (getattr(action, name, None) for name in ("card", "first", "second")):
                        if card in halves:
                            shown, value, effect = halves[card]
                            said = f"{shown} ({value}, " if lang == "en" else f"{shown}（{value}・"
                            assert said in label, (label, halves[card])
                            named += 1
    assert named > 100
