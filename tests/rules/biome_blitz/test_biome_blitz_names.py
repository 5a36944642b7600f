"""Biome Blitz names its cards as printed: events and action names say "Saltwater crocodile" /
"イリエワニ", "Savanna" / "サバンナ", never the ids ``crocodile`` and ``SAV`` that files, actions
(``str(action)``) and observations keep. The names come from the card file (``name``/``name_ja``, an
ability's ``name``/``name_ja`` and ``text``/``text_ja``); a file without the Japanese ones shows the
English on Japanese pages, and one whose Japanese name is not a text is refused saying where.
"""

from __future__ import annotations

import random
import re

import pytest

import rules
from rules.registry import get_game
from rules.biome_blitz import Compete, Discover, Forage, ForageAll, ForagePick, Replace
from rules.biome_blitz.cards import parse_cards, standard_cards
from tests.helpers.biome_blitz import (
    GAME, ability, after_opponents_turn, animal, base_card_file, compete, decoded, play,
)

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: What an id looks like in a text (``dung_beetle``, ``lion#2``) and the ecosystem symbols.
CARD_ID = re.compile(r"\b[a-z]+_[a-z]+\b|#\d|\b(?:SAV|RAI|WET|DES|OCE|FOR)\b")


def texts(state, lang: str = "en") -> list[str]:
    return [event.texts[lang] for event in GAME.events(state)]


def test_every_card_of_the_standard_file_has_a_japanese_name_and_every_ability_a_japanese_text():
    data = standard_cards().raw
    for entry in data["ecosystems"] + data["animals"]:
        assert JAPANESE.search(entry["name_ja"]), entry["id"]
    for entry in data["animals"]:
        for found in entry["abilities"]:
            assert JAPANESE.search(found["name_ja"]) and JAPANESE.search(found["text_ja"]), (entry["id"], found["name"])
            assert found["text_ja"] != found["text"]


def test_the_rules_texts_card_example_keeps_its_japanese_words():
    """カードの構造 prints トムソンガゼル with アジャイル and 素早い蹴り; 対戦の例 names イリエワニ."""
    cards = standard_cards()
    gazelle = cards.animals[cards.animal_by_id["gazelle"]]
    assert cards.animal_label("gazelle") == {"en": "Thomson's gazelle", "ja": "トムソンガゼル"}
    assert [a.label["ja"] for a in gazelle.abilities] == ["アジャイル", "素早い蹴り"]
    assert cards.animal_label("crocodile") == {"en": "Saltwater crocodile", "ja": "イリエワニ"}
    assert gazelle.family == "Bovidae"                        # families stay in Latin: abilities name them
    assert cards.ecosystem_label("SAV") == {"en": "Savanna", "ja": "サバンナ"}


def test_a_compete_and_its_abilities_are_told_with_the_printed_names():
    state = decoded(teams=[["crocodile"], ["gazelle", "dung_beetle"]], hands=[["meat", "meat"], ["water"]], faces=(6, 1))
    after = play(state, compete("crocodile", "gazelle"))
    assert "Player 1's Saltwater crocodile competes against Player 2's Thomson's gazelle." in texts(after)
    assert "プレイヤー1のイリエワニがプレイヤー2のトムソンガゼルと対戦します。" in texts(after, "ja")
    # Ambush Predator steals; Recycler (any animal defeated) draws
    assert any(text.startswith("Ambush Predator: Player 1 takes") for text in texts(after))
    assert any(text.startswith("待ち伏せ：プレイヤー1がプレイヤー2から") for text in texts(after, "ja"))
    assert any(text.endswith(" (Dung beetle's Recycler).") for text in texts(after))
    assert any(text.endswith("（フンコロガシのリサイクル）。") for text in texts(after, "ja"))
    for lang in ("en", "ja"):
        assert not any(CARD_ID.search(text) for text in texts(after, lang)), texts(after, lang)


def test_the_quick_kick_that_wins_a_compete_is_named_as_printed():
    state = decoded(teams=[["lion"], ["gazelle"]], hands=[["meat"], []], faces=(2, 1))
    after = play(state, compete("lion", "gazelle"))
    assert "Player 2 wins the compete (Quick Kick wins it for the defender)." in texts(after)
    assert "プレイヤー2が対戦に勝ちます（素早い蹴りで防御側の勝ち）。" in texts(after, "ja")


def test_revealed_and_discovered_ecosystems_are_named_not_by_their_symbol():
    state = decoded(hands=[["leaf", "leaf", "meat"], []], ecosystem_deck=("DES", "OCE"))
    after = play(state, Discover(deck="ecosystem", slot=1, pay=("leaf", "leaf", "meat")))
    assert "Player 1 discovers Savanna paying leaf + leaf + meat." in texts(after)
    assert "Ecosystem slot 1: Desert is revealed." in texts(after)
    assert "生態系のスロット1に砂漠が表向きになります。" in texts(after, "ja")


def test_actions_name_animals_abilities_and_ecosystems_as_printed_in_both_languages():
    assert GAME.action_label(Compete(attacker="lion", defender="crocodile", pay=("meat",))) == \
        "compete: African lion against Saltwater crocodile paying meat"
    assert GAME.action_label(Compete(attacker="lion", defender="crocodile", pay=("meat",)), "ja") == \
        "対戦：アフリカライオンでイリエワニに挑む（支払い：肉）"
    assert GAME.action_label(ForageAll(animal="koala", ability="Folivore")) == "forage with Koala's Folivore"
    assert GAME.action_label(ForageAll(animal="koala", ability="Folivore"), "ja") == "コアラの葉食いで採食"
    assert GAME.action_label(Replace(ecosystem="WET")) == "replace the Wetland ecosystem"
    assert GAME.action_label(Replace(ecosystem="WET"), "ja") == "生態系湿地を捨てて入れ替える"
    # files and str(action) keep the ids
    assert str(Compete(attacker="lion", defender="crocodile", pay=("meat",))) == "compete: lion against crocodile paying meat"
    assert GAME.encode_action(Replace(ecosystem="WET")) == {"type": "replace", "ecosystem": "WET"}


def test_an_immunity_refusal_names_the_animal_and_its_ability_as_printed():
    state = decoded(teams=[["dung_beetle"], ["elephant"]], hands=[["leaf"], []])
    with pytest.raises(rules.IllegalAction) as caught:
        GAME.apply(state, 0, compete("dung_beetle", "elephant", pay=("leaf",)))
    assert "African elephant's Matriarch" in caught.value.reasons["en"]
    assert "アフリカゾウの群れの長" in caught.value.reasons["ja"]


def test_a_card_file_without_japanese_names_loads_and_shows_the_english_ones():
    data = base_card_file()
    for entry in data["ecosystems"] + data["animals"]:
        entry.pop("name_ja")
        for found in entry.get("abilities", ()):
            found.pop("name_ja"), found.pop("text_ja")
    cards = parse_cards(data)
    assert cards.animal_label("crocodile") == {"en": "Saltwater crocodile", "ja": "Saltwater crocodile"}
    assert cards.ecosystem_label("SAV") == {"en": "Savanna", "ja": "Savanna"}
    gazelle = cards.animals[cards.animal_by_id["gazelle"]]
    assert gazelle.abilities[1].label == {"en": "Quick Kick", "ja": "Quick Kick"}
    assert gazelle.abilities[1].texts["ja"] == gazelle.abilities[1].text
    game = GAME.with_card_file(data)
    assert game.action_label(Replace(ecosystem="SAV"), "ja") == "生態系Savannaを捨てて入れ替える"


@pytest.mark.parametrize("where, value", [
    ("animals[1].name_ja", ""), ("animals[1].name_ja", 3), ("ecosystems[0].name_ja", ["サバンナ"]),
    ("animals[0].abilities[1].name_ja", None), ("animals[0].abilities[1].text_ja", ""),
])
def test_a_japanese_name_or_text_that_is_not_a_text_is_refused_saying_where(where, value):
    data = base_card_file()
    path = re.findall(r"(\w+)(?:\[(\d+)\])?", where)
    entry = data
    for key, index in path[:-1]:
        entry = entry[key][int(index)] if index else entry[key]
    entry[path[-1][0]] = value
    with pytest.raises(rules.InvalidPosition) as caught:
        parse_cards(data, where="cards")
    assert caught.value.where == f"cards: {where}" and "must be a text" in caught.value.problem


def test_a_second_copy_of_an_animal_is_told_apart_by_its_number():
    data = base_card_file()
    data["animals"].append(animal("meerkat", ability("Sentinel", "prevent", "immune", max_attacker_power=0)) | {"copies": 2})
    game = GAME.with_card_file(data)
    assert game.cards.animal_label("meerkat#2") == {"en": "Meerkat #2", "ja": "Meerkat #2"}
    assert game.action_label(Compete(attacker="meerkat", defender="meerkat#2", pay=("leaf",))) == \
        "compete: Meerkat against Meerkat #2 paying leaf"


def test_a_forage_ability_draw_names_its_animal_and_ability():
    state = decoded(teams=[["orangutan"], []], resource_deck=("meat", "water", "wild", "leaf"))
    after = play(state, Forage(slot=0), ForagePick(slot=0))
    assert "Player 1 draws wild (Orangutan's Forager)." in texts(after)
    assert "プレイヤー1がワイルドを引きます（オランウータンの採集上手）。" in texts(after, "ja")


def test_a_start_of_turn_ability_is_told_in_both_languages():
    state = after_opponents_turn(teams=[["orca"], []], resource_market=("meat", "water", "leaf"))
    assert any(text.startswith("Orca's ability: Player 1 takes the face-up meat") for text in texts(state))
    assert any(text.startswith("シャチの能力：プレイヤー1が表向きの肉を取ります") for text in texts(state, "ja"))


def test_a_competes_result_says_whose_total_is_which():
    """"Dice: attack 5, defence 1." then "Player 3 wins the compete (5 against 2)." did not agree until
    one worked out the bonuses: the result names each side's total and what it adds up."""
    game = get_game("biome_blitz")
    for seed in range(40):
        state = game.new_game(2, seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            seat = game.to_move(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            for event in game.events(state):
                if event.kind == "result" and "wins it for" not in event.text:
                    assert re.fullmatch(r"Player \d wins the compete: the attacker's total \d+, the defender's \d+ "
                                        r"\(die plus power or defence, with bonuses\)\.", event.text)
                    assert "合計：攻撃側" in event.texts["ja"]
                    return
    raise AssertionError("no compete in 40 random games")
