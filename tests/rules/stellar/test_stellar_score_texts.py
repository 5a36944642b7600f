"""Stellar's score breakdown in English and Japanese (``score.*`` of ``rules/stellar/data/events.json``):
the English is what it always said, the Japanese names every category and detail in Japanese, and the
numbers and keys are the same in both languages, at every position of seeded games (mid-game and
finished, every player count)."""

from __future__ import annotations

import re

import pytest

import rules
from rules.eventtexts import templates
from tests.helpers.seeded_games import JAPANESE, positions
from tests.helpers.stellar import notebook, over, telescope

GAME = rules.get_game("stellar")
CATEGORIES = ["Planet", "Moon", "Asteroid", "Interstellar cloud", "Black hole",
              "top section", "middle section", "bottom section", "diversity"]
TEXTS = ("category", "detail")
NUMBER = re.compile(r"\d+")


def seeded_positions():
    return [(game, state) for game, state, _ in positions("stellar", seeds=4)]


@pytest.fixture(scope="module")
def seeded():
    found = seeded_positions()
    assert any(GAME.is_over(state) for _, state in found)
    assert any(not GAME.is_over(state) for _, state in found)
    assert {state.players for _, state in found} == set(GAME.player_counts)
    return found


def old_english(breakdown: list[dict]) -> None:
    """The breakdown reads as it did before it had a language (the known strings, from its numbers)."""
    for entry in breakdown:
        categories = entry["categories"]
        assert [c["category"] for c in categories] == CATEGORIES
        for c in categories[:5]:
            plain = f"{c['stars']} telescope star{'' if c['stars'] == 1 else 's'} x notebook run of {c['run']}"
            assert c["detail"] in (plain, plain + " (with a satellite)"), c
        for c in categories[5:8]:
            others = [o for o in breakdown if o is not entry]
            other = max((o["categories"][categories.index(c)]["sum"] for o in others), default=0)
            assert c["detail"] == f"card numbers {c['sum']} against {other}", c
        assert re.fullmatch(r"[0-5] of 5 types face up in the telescope", categories[8]["detail"]), categories[8]
        assert entry["total"] == sum(c["points"] for c in categories)


def without_texts(breakdown: list[dict]) -> list[dict]:
    return [{**entry, "categories": [{k: v for k, v in c.items() if k not in TEXTS} for c in entry["categories"]]}
            for entry in breakdown]


def test_the_english_is_the_default_and_unchanged(seeded):
    for game, state in seeded:
        english = game.score_breakdown(state)
        assert english == game.score_breakdown(state, "en") == game.score_breakdown(state, lang="en")
        old_english(english)


def test_the_japanese_has_the_same_numbers_and_keys(seeded):
    satellites = 0
    for game, state in seeded:
        english, japanese = game.score_breakdown(state), game.score_breakdown(state, "ja")
        assert without_texts(japanese) == without_texts(english)
        assert [list(entry) for entry in japanese] == [list(entry) for entry in english]
        for en_entry, ja_entry in zip(english, japanese):
            for en, ja in zip(en_entry["categories"], ja_entry["categories"]):
                assert list(ja) == list(en)
                for key in TEXTS:
                    assert isinstance(ja[key], str) and JAPANESE.search(ja[key]), (key, ja)
                    assert sorted(NUMBER.findall(ja[key])) == sorted(NUMBER.findall(en[key])), (en[key], ja[key])
                if en["detail"].endswith(" (with a satellite)"):
                    satellites += 1
                    assert ja["detail"].endswith("（サテライトを含む）"), ja
                else:
                    assert "サテライト" not in ja["detail"], ja
    assert satellites  # the seeded games use a notebook satellite somewhere


def test_every_score_text_is_a_template_in_both_languages():
    keys = {key for key in templates("stellar") if key.startswith("score.")}
    assert len(keys) >= 8
    for key in keys:
        assert JAPANESE.search(templates("stellar")[key]["ja"]), key





def test_the_rulebook_example_in_both_languages():
    """Rulebook: a six-card planet run x 5 stars = 30 (スター × 連続数); the top section 3 against 0."""
    state = over([telescope(top_1="planet-1-3stars", top_2="planet-2-2stars", top_3="moon-1-3stars"), telescope()],
                 [notebook("planet-1-3stars", "planet-2-2stars", "planet-3-2stars", "planet-4-1star", "planet-5-0stars",
                           "planet-6/0-0stars", "moon-1-3stars", "satellite"), notebook()])
    english, japanese = GAME.score_breakdown(state)[0]["categories"], GAME.score_breakdown(state, "ja")[0]["categories"]
    pairs = {(en["category"], en["detail"]): (ja["category"], ja["detail"]) for en, ja in zip(english, japanese)}
    assert pairs == {
        ("Planet", "5 telescope stars x notebook run of 6"): ("惑星（スター × 連続数）", "望遠鏡のスター5個 × ノートブックの連続数6"),
        ("Moon", "3 telescope stars x notebook run of 2 (with a satellite)"):
            ("月（スター × 連続数）", "望遠鏡のスター3個 × ノートブックの連続数2（サテライトを含む）"),
        ("Asteroid", "0 telescope stars x notebook run of 0"): ("小惑星（スター × 連続数）", "望遠鏡のスター0個 × ノートブックの連続数0"),
        ("Interstellar cloud", "0 telescope stars x notebook run of 0"):
            ("星間雲（スター × 連続数）", "望遠鏡のスター0個 × ノートブックの連続数0"),
        ("Black hole", "0 telescope stars x notebook run of 0"):
            ("ブラックホール（スター × 連続数）", "望遠鏡のスター0個 × ノートブックの連続数0"),
        ("top section", "card numbers 4 against 0"): ("上部セクション", "カードの数字の合計 4 対 0"),
        ("middle section", "card numbers 0 against 0"): ("中央セクション", "カードの数字の合計 0 対 0"),
        ("bottom section", "card numbers 0 against 0"): ("下部セクション", "カードの数字の合計 0 対 0"),
        ("diversity", "2 of 5 types face up in the telescope"): ("多様性ボーナス", "望遠鏡で表向きの種類：5種類中2種類"),
    }
    assert [c["points"] for c in japanese] == [c["points"] for c in english] == [30, 6, 0, 0, 0, 10, 0, 0, 0]
    one_star = over([telescope(top_1="planet-4-1star"), telescope()], [notebook("planet-1-3stars"), notebook()])
    planet = GAME.score_breakdown(one_star)[0]["categories"][0]
    assert planet["detail"] == "1 telescope star x notebook run of 1"
    assert GAME.score_breakdown(one_star, "ja")[0]["categories"][0]["detail"] == "望遠鏡のスター1個 × ノートブックの連続数1"


def test_a_language_the_game_does_not_write_is_english():
    state = seeded_positions()[-1][1]
    assert GAME.score_breakdown(state, "xx") == GAME.score_breakdown(state)
