"""The Jump Gate score breakdown in English and Japanese: ``score_breakdown(state, lang)`` writes its
``category`` and ``detail`` texts from the ``score.*`` templates of ``rules/jump_gate/data/events.json``.

The English is what the breakdown always said, byte for byte (checked against the old f-strings at
positions of seeded games of every player count, mid-game and finished, and against known strings of
games scored by hand); in Japanese every text is Japanese, and every number and key is the same.
"""

from __future__ import annotations

import re

import pytest

import rules
from rules.eventtexts import templates
from tests.helpers.seeded_games import JAPANESE, positions
from tests.helpers.jump_gate import finished

GAME = rules.get_game("jump_gate")
TEXTS = ("category", "detail")
NUMBER = re.compile(r"\d+")


def old_english(category: dict, black_hole: int) -> tuple[str, str]:
    """``(category, detail)`` as the breakdown wrote them before they came from the templates."""
    name = category["category"]
    if name in ("planets", "fame", "sand", "water", "hidden"):
        n = category["count"]
    if name == "planets":
        return name, f"{n} claimed x 4"
    if name == "fame":
        return name, f"{n} x 5"
    if name == "sand":
        return name, f"{n} card{'' if n == 1 else 's'} (table, 9+ = 45)"
    if name == "water":
        return name, f"{n} card{'' if n == 1 else 's'} (table, 8 = 32)"
    if name == "energel":
        dark, light = category["counts"]
        return name, f"{dark} dark, {light} light: {min(dark, light)} pair(s) x 7, {abs(dark - light)} single(s) x 2"
    if name == "gems":
        gems = category["counts"]
        return name, f"{sum(gems)} gem(s) x {max(gems, default=0)} of the commonest colour"
    assert name == "hidden", name
    if category["lost"]:
        return name, f"{n} hidden resource(s) lost: most black-hole markers ({black_hole})"
    return name, None  # pending or included: depends on the phase (checked by the caller)


def without_texts(rows: list[dict]) -> list[dict]:
    return [{**row, "categories": [{k: v for k, v in c.items() if k not in TEXTS} for c in row["categories"]]}
            for row in rows]


def check_languages(state) -> tuple[list[dict], list[dict]]:
    """The breakdown in English (the default) and Japanese, checked against each other."""
    en = GAME.score_breakdown(state)
    assert GAME.score_breakdown(state, "en") == en
    ja = GAME.score_breakdown(state, "ja")
    assert without_texts(ja) == without_texts(en)                       # same numbers and keys
    for row_en, row_ja in zip(en, ja):
        for c_en, c_ja in zip(row_en["categories"], row_ja["categories"]):
            for field in TEXTS:
                assert JAPANESE.search(c_ja[field]), (field, c_ja[field])
                assert sorted(map(int, NUMBER.findall(c_ja[field]))) == sorted(map(int, NUMBER.findall(c_en[field]))), \
                    (c_en[field], c_ja[field])
    return en, ja


def check_old_english(state, en: list[dict]) -> None:
    over = GAME.is_over(state)
    for row in en:
        assert [c["category"] for c in row["categories"]] == ["planets", "fame", "sand", "water", "energel", "gems",
                                                              "hidden"]
        for c in row["categories"]:
            name, detail = old_english(c, row["black_hole"])
            if detail is None:
                n = c["count"]
                detail = (f"{n} hidden resource(s) included above" if over
                          else f"{n} hidden resource(s), revealed and scored at the end")
            assert (c["category"], c["detail"]) == (name, detail)


def sampled_positions():
    """Every 5th position of seeded games (2 seeds, both variant settings, every player count) and
    every finished one."""
    for i, (game, state, _) in enumerate(positions("jump_gate", seeds=2)):
        if i % 5 == 0 or game.is_over(state):
            yield state


def test_templates_are_in_both_languages_with_the_same_placeholders():
    score = {key: texts for key, texts in templates("jump_gate").items() if key.startswith("score.")}
    assert len(score) == 18
    for key, texts in score.items():
        assert set(texts) == {"en", "ja"} and JAPANESE.search(texts["ja"]), key


def test_seeded_games_english_unchanged_japanese_same_numbers():
    counts, finished, notes = set(), 0, set()
    for state in sampled_positions():
        en, ja = check_languages(state)
        check_old_english(state, en)
        counts.add(state.players)
        finished += GAME.is_over(state)
        notes.update(row["categories"][-1]["detail"].split(" ", 1)[1] for row in en)
    assert counts == set(GAME.player_counts)
    assert finished == len(GAME.player_counts) * 2
    assert "hidden resource(s), revealed and scored at the end" in notes
    assert "hidden resource(s) included above" in notes


# -- known strings: positions scored by hand -----------------------------------------------------
def texts_of(rows: list[dict]) -> list[list[tuple[str, str]]]:
    return [[(c["category"], c["detail"]) for c in row["categories"]] for row in rows]


BY_HAND = dict(
    gained=(["fame", "fame-bh", "sand", "sand", "sand", "sand-bh", "water", "water", "energel_dark", "energel_dark",
             "energel_dark", "energel_light", "gem_red", "gem_red", "gem_blue"],
            ["water-bh", "energel_light", "energel_light", "gem_white", "gem_white", "sand"]),
    hidden=(["sand", "water", "gem_white"], ["energel_dark", "gem_blue", "sand"]),
    claimed=(0, 0, 0, 0, 1, 1),
)


def test_a_finished_game_scored_by_hand_in_both_languages():
    en, ja = check_languages(finished(**BY_HAND))
    assert texts_of(en) == [
        [("planets", "4 claimed x 4"), ("fame", "2 x 5"), ("sand", "5 cards (table, 9+ = 45)"),
         ("water", "3 cards (table, 8 = 32)"), ("energel", "3 dark, 1 light: 1 pair(s) x 7, 2 single(s) x 2"),
         ("gems", "4 gem(s) x 2 of the commonest colour"), ("hidden", "3 hidden resource(s) included above")],
        [("planets", "2 claimed x 4"), ("fame", "0 x 5"), ("sand", "2 cards (table, 9+ = 45)"),
         ("water", "1 card (table, 8 = 32)"), ("energel", "1 dark, 2 light: 1 pair(s) x 7, 1 single(s) x 2"),
         ("gems", "3 gem(s) x 2 of the commonest colour"), ("hidden", "3 hidden resource(s) included above")],
    ]
    assert texts_of(ja)[0] == [
        ("惑星", "確保した惑星4つ×4点"), ("名声", "名声2枚×5点"), ("砂", "5枚（表による。9枚以上は45点）"),
        ("水", "3枚（表による。表は8枚＝32点まで）"), ("エナージェル", "ダーク3枚、ライト1枚：組1つ×7点、余り2枚×2点"),
        ("ジェム", "ジェム4枚×最も多い色の枚数2"), ("秘密の資源カード", "秘密の資源カード3枚は上の得点に含まれています"),
    ]
    assert [row["total"] for row in en] == [row["total"] for row in ja] == [75, 28]


def test_hidden_resources_lost_to_the_black_hole_in_both_languages():
    state = finished(gained=(["sand-bh", "water-bh", "fame-bh", "gem_red-bh"], ["sand-bh", "water-bh", "fame-bh"]),
                     hidden=(["gem_blue"] * 3, ["gem_white"] * 3), claimed=(None,) * 6)
    en, ja = check_languages(state)
    check_old_english(state, en)
    assert [row["categories"][-1]["detail"] for row in en] == [
        "3 hidden resource(s) lost: most black-hole markers (4)", "3 hidden resource(s) included above"]
    assert ja[0]["categories"][-1]["detail"] == "秘密の資源カード3枚を失いました：ブラックホールゾーンのマーカーが最多（4個）"
    assert en[0]["categories"][-1]["lost"] is ja[0]["categories"][-1]["lost"] is True


@pytest.mark.parametrize("players", GAME.player_counts)
def test_a_new_game_in_both_languages(players):
    state = GAME.new_game(players, 1)
    en, ja = check_languages(state)
    check_old_english(state, en)
    hidden = len(state.hidden[0])
    assert texts_of(en)[0] == [
        ("planets", "0 claimed x 4"), ("fame", "0 x 5"), ("sand", "0 cards (table, 9+ = 45)"),
        ("water", "0 cards (table, 8 = 32)"), ("energel", "0 dark, 0 light: 0 pair(s) x 7, 0 single(s) x 2"),
        ("gems", "0 gem(s) x 0 of the commonest colour"),
        ("hidden", f"{hidden} hidden resource(s), revealed and scored at the end")]
    assert texts_of(ja)[0][-1] == ("秘密の資源カード", f"秘密の資源カード{hidden}枚（終了時に公開して得点に加えます）")
