"""Biome Blitz's score breakdown in English and Japanese (``score.*`` in ``data/events.json``): the
English is what it has always said, and the Japanese has the same numbers and keys, only its
``category`` and ``detail`` texts in Japanese."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rules.biome_blitz import rules as engine
from rules.eventtexts import templates
from tests.helpers.seeded_games import JAPANESE, positions

GAME_ID = "biome_blitz"
TEXTS = ("category", "detail")


def old_english(state) -> list[dict]:
    """The breakdown as it was written before it had languages (the reference for the English)."""
    cards = state.cards
    out = []
    for seat in range(state.players):
        team = state.teams[seat]
        categories = [
            {"category": "points", "detail": "stars of discovered cards and of defeated animals",
             "points": state.points[seat]},
            {"category": "animals", "detail": f"{len(team)} of {engine.WIN_ANIMALS} in the team (five wins)",
             "points": 0, "count": len(team), "animals": [cards.animal_ids[a] for a in team]},
            {"category": "ecosystems", "detail": ", ".join(cards.ecosystems[k].name for k in state.ecosystems[seat]) or "none",
             "points": 0, "count": len(state.ecosystems[seat])},
        ]
        out.append({"seat": seat, "categories": categories, "total": state.points[seat]})
    return out


def sampled_positions():
    """Every player count: positions along the way (mid-game) and every finished game."""
    for game, state, _ in positions(GAME_ID, seeds=3):
        finished = not game.to_move(state)
        if finished or state.turn % 7 == 0:
            yield game, state, finished


def without_texts(breakdown: list[dict]) -> list[dict]:
    return [{**row, "categories": [{k: v for k, v in c.items() if k not in TEXTS} for c in row["categories"]]}
            for row in breakdown]


def test_the_score_templates_are_in_both_languages():
    found = {key: by_lang for key, by_lang in templates(GAME_ID).items() if key.startswith("score.")}
    assert len(found) == 7
    for key, by_lang in found.items():
        assert by_lang["en"] and JAPANESE.search(by_lang["ja"]), key


def test_the_english_is_unchanged_and_the_default():
    finished = seen = 0
    players = set()
    for game, state, over in sampled_positions():
        english = game.score_breakdown(state)
        assert english == game.score_breakdown(state, "en") == old_english(state)
        seen += 1
        finished += over
        players.add(state.players)
    assert players == {2, 3, 4, 5, 6}
    assert finished >= 5 and seen > finished


def test_known_english_strings():
    game = next(positions(GAME_ID, seeds=1))[0]
    state = game.new_game(3, 4)
    rows = game.score_breakdown(state)
    assert [c["category"] for c in rows[0]["categories"]] == ["points", "animals", "ecosystems"]
    assert [c["detail"] for c in rows[2]["categories"]] == [
        "stars of discovered cards and of defeated animals", "0 of 5 in the team (five wins)", "none"]
    details = {c["detail"] for _, state, _ in sampled_positions()
               for row in game.score_breakdown(state) for c in row["categories"]}
    assert "Forest, Ocean, Forest" in details and "4 of 5 in the team (five wins)" in details


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_japanese_has_the_same_numbers_and_keys(players):
    finished = 0
    for game, state, over in sampled_positions():
        if state.players != players:
            continue
        finished += over
        english, japanese = game.score_breakdown(state, "en"), game.score_breakdown(state, "ja")
        assert without_texts(japanese) == without_texts(english)
        for row_en, row_ja in zip(english, japanese):
            assert list(row_ja) == list(row_en)
            for en, ja in zip(row_en["categories"], row_ja["categories"]):
                assert list(ja) == list(en)
                for field in TEXTS:
                    assert JAPANESE.search(ja[field]) and ja[field] != en[field], (field, ja[field])
                    assert not Counter(re.findall(r"\d+", en[field])) - Counter(re.findall(r"\d+", ja[field])), (en, ja)
    assert finished


def test_japanese_words_come_from_the_rulebook_and_events():
    game = next(positions(GAME_ID, seeds=1))[0]
    rows = game.score_breakdown(game.new_game(2, 1), "ja")
    assert [c["category"] for c in rows[0]["categories"]] == ["ポイント", "動物", "生態系"]
    assert [c["detail"] for c in rows[0]["categories"]] == [
        "発見したカードと倒した動物の★値", "チームに5匹中0匹（5匹で勝利）", "持っている生態系：なし"]
    details = {c["detail"] for _, state, _ in sampled_positions()
               for row in game.score_breakdown(state, "ja") for c in row["categories"]}
    assert "持っている生態系：森、海、森" in details and "チームに5匹中4匹（5匹で勝利）" in details
