"""Subastral's score breakdown in English and Japanese: ``score_breakdown(state, lang)`` writes its
``category`` and ``detail`` texts from the ``score.*`` templates of ``rules/subastral/data/events.json``.

The English must stay exactly what it always was (the score tables, goldens and other tests read it),
so it is checked literally and against the old wording rebuilt from the journal's column heights; the
Japanese must be Japanese, with every number and key the same as in English.
"""

from __future__ import annotations

import re

import pytest

import rules
from rules.eventtexts import templates
from rules.rulebook import LANGUAGES
from rules.subastral import scoring
from tests.helpers.seeded_games import JAPANESE, positions
from tests.helpers.subastral import column, finished

GAME = rules.get_game("subastral")
NUMBER = re.compile(r"\d+")
TEXTS = ("category", "detail")


def old_english(state) -> list[dict]:
    """The breakdown as the game wrote it before it spoke Japanese (its English, verbatim)."""
    out = []
    for seat, journal in enumerate(state.journals):
        heights = [len(column) for column in journal]
        categories = []
        for k, run in enumerate(scoring.mixed_set_runs(heights), start=1):
            categories.append({"category": f"mixed set {k}",
                               "detail": f"{run} column{'s' if run != 1 else ''} from column 1",
                               "points": scoring.triangular(run)})
        for rank, (position, cards) in enumerate(scoring.matching_sets(heights), start=1):
            biome = state.cards.biome_name(state.cards.biome_of[journal[position - 1][0]])
            categories.append({"category": f"matching set {rank}",
                               "detail": f"{cards} card{'s' if cards != 1 else ''} in column {position} "
                                         f"({cards} x {position}), {biome}",
                               "points": cards * position, "column": position, "biome": biome})
        out.append({"categories": categories, "mixed": scoring.mixed_sets_score(heights),
                    "matching": scoring.matching_sets_score(heights), "total": scoring.journal_score(heights),
                    "journal_cards": sum(heights), "seat": seat})
    return out


def without_texts(breakdown: list[dict]) -> list[dict]:
    """The breakdown with its category and detail texts taken out: the numbers and keys."""
    return [{**seat, "categories": [{key: value for key, value in category.items() if key not in TEXTS}
                                    for category in seat["categories"]]}
            for seat in breakdown]


def assert_same_but_japanese(english: list[dict], japanese: list[dict]) -> None:
    assert without_texts(japanese) == without_texts(english)
    for en_seat, ja_seat in zip(english, japanese):
        assert list(ja_seat) == list(en_seat)
        for en, ja in zip(en_seat["categories"], ja_seat["categories"]):
            assert list(ja) == list(en)
            for key in TEXTS:
                assert JAPANESE.search(ja[key]), (key, ja[key])
                assert not re.search(r"[A-Za-z]", ja[key]), ja[key]  # the standard cards name biomes in Japanese
                assert sorted(NUMBER.findall(ja[key])) == sorted(NUMBER.findall(en[key])), (en[key], ja[key])


@pytest.fixture(scope="module")
def seeded():
    """``(state, English, Japanese)`` at every position of seeded games of every player count."""
    found = []
    for game, state, _ in positions("subastral", seeds=2):
        found.append((state, game.score_breakdown(state), game.score_breakdown(state, "ja")))
    return found


def test_the_seeded_games_cover_every_player_count_mid_game_and_finished(seeded):
    assert {(state.players, GAME.is_over(state)) for state, _, _ in seeded} == {
        (players, over) for players in GAME.player_counts for over in (False, True)}
    details = {category["detail"] for _, english, _ in seeded for seat in english for category in seat["categories"]}
    # both English plurals of both kinds of category occur
    assert any(d.startswith("1 column ") for d in details) and any(" columns " in d for d in details)
    assert any(d.startswith("1 card ") for d in details) and any(" cards " in d for d in details)


def test_the_english_is_unchanged_and_the_default(seeded):
    for state, english, _ in seeded:
        assert english == GAME.score_breakdown(state, "en") == old_english(state)


def test_the_japanese_has_the_same_numbers_and_keys(seeded):
    for _, english, japanese in seeded:
        assert_same_but_japanese(english, japanese)


def test_every_language_is_answered(seeded):
    state = seeded[-1][0]
    for lang in LANGUAGES:
        assert without_texts(GAME.score_breakdown(state, lang)) == without_texts(GAME.score_breakdown(state))


# The rulebook's examples (mixed and matching sets): columns of 2, 3 and 1 cards; one more column added on.
EXAMPLE = [column("chaparral", 2), column("taiga", 3), column("savanna", 1), column("arctic_tundra", 1)]

KNOWN = {
    "en": [
        ("mixed set 1", "4 columns from column 1", 10),
        ("mixed set 2", "2 columns from column 1", 3),
        ("matching set 1", "3 cards in column 2 (3 x 2), Taiga", 6),
        ("matching set 2", "2 cards in column 1 (2 x 1), Chaparral", 2),
    ],
    "ja": [
        ("ミックスセット1", "列1から右へ4列", 10),
        ("ミックスセット2", "列1から右へ2列", 3),
        ("マッチングセット1", "列2に3枚（3×2）、タイガ", 6),
        ("マッチングセット2", "列1に2枚（2×1）、チャパラル", 2),
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_known_texts(lang):
    (seat, *_) = GAME.score_breakdown(finished(EXAMPLE), lang)
    assert [(c["category"], c["detail"]) for c in seat["categories"]] == [(c, d) for c, d, _ in KNOWN[lang]]
    assert [c["points"] for c in seat["categories"]] == [10, 3, 6, 2]
    assert [(c.get("column"), c.get("biome")) for c in seat["categories"]][2:] == [(2, "Taiga"), (1, "Chaparral")]
    assert (seat["mixed"], seat["matching"], seat["total"], seat["journal_cards"]) == (13, 8, 21, 7)


def test_one_card_in_a_matching_set():
    state = finished([column("savanna", 1)])
    (en, *_) = GAME.score_breakdown(state)
    (ja, *_) = GAME.score_breakdown(state, "ja")
    assert [c["detail"] for c in en["categories"]] == ["1 column from column 1", "1 card in column 1 (1 x 1), Savanna"]
    assert [c["detail"] for c in ja["categories"]] == ["列1から右へ1列", "列1に1枚（1×1）、サバンナ"]


def test_the_scoring_module_alone_writes_both_languages():
    heights = [3, 1, 2, 3, 1, 3, 4, 1]
    english, japanese = scoring.breakdown(heights), scoring.breakdown(heights, "ja")
    assert english == scoring.breakdown(heights, "en")
    assert [c["detail"] for c in english["categories"]][-2:] == ["4 cards in column 7 (4 x 7)", "3 cards in column 1 (3 x 1)"]
    assert [c["detail"] for c in japanese["categories"]][-2:] == ["列7に4枚（4×7）", "列1に3枚（3×1）"]
    assert_same_but_japanese([english], [japanese])


def test_the_score_templates_are_in_both_languages_with_the_same_placeholders():
    score = {key: by_lang for key, by_lang in templates("subastral").items() if key.startswith("score.")}
    assert len(score) == 8
    for key, by_lang in score.items():
        assert set(by_lang) == set(LANGUAGES), key
        assert JAPANESE.search(by_lang["ja"]), key
        fields = [sorted(re.findall(r"\{(\w+)\}", text)) for text in by_lang.values()]
        assert all(f == fields[0] for f in fields), key
