"""Starligned's score breakdown in English and Japanese (the ``score.*`` templates of
``rules/starligned/data/events.json``): the English is what it always was, the Japanese names every
card's position and value, and the numbers and keys are the same in both languages."""

from __future__ import annotations

import re

import pytest

from rules.starligned import position as files
from tests.helpers.seeded_games import JAPANESE, positions
from tests.helpers.starligned import EXAMPLE, GAME, finished, other_rows

TEXTS = ("category", "detail")
NUMBER = re.compile(r"\d+")


def old_english(state):
    """The category and detail texts as the breakdown wrote them before it took a language."""
    cards = state.cards
    out = []
    for row, breakdown in zip(state.rows, GAME.score_breakdown(state)):
        out.append([(f"{i + 1}. {files.entry_name(cards, e)}",
                     f"{c['value']}" + ("" if c["multiplier"] == 1 else f" x{c['multiplier']} (the card to its right)"))
                    for i, (e, c) in enumerate(zip(row, breakdown["categories"]))])
    return out


def without_texts(breakdowns):
    return [{**seat, "categories": [{k: v for k, v in c.items() if k not in TEXTS} for c in seat["categories"]]}
            for seat in breakdowns]


def sampled_positions():
    """Every player count: every 7th position of seeded games (mid-game) and each game's end (finished)."""
    for index, (game, state, _) in enumerate(positions("starligned", seeds=2)):
        if index % 7 == 0 or not game.to_move(state):
            yield state


def test_the_rulebook_example_in_both_languages():
    state = finished([EXAMPLE] + other_rows(EXAMPLE, 3))
    english = GAME.score_breakdown(state)
    assert english == GAME.score_breakdown(state, "en")
    first = english[0]["categories"]
    assert [(c["category"], c["detail"]) for c in first[:3]] == [
        ("1. S105", "6"), ("2. S106", "10 x2 (the card to its right)"), ("3. S208", "7")]
    assert (first[6]["category"], first[6]["detail"]) == ("7. S205", "10 x0 (the card to its right)")
    assert (first[7]["category"], first[7]["detail"]) == ("8. S210r", "1 x2 (the card to its right)")
    japanese = GAME.score_breakdown(state, "ja")[0]["categories"]
    assert (japanese[0]["category"], japanese[0]["detail"]) == ("左から1番目：S105", "値6")
    assert (japanese[1]["category"], japanese[1]["detail"]) == ("左から2番目：S106", "値10 x2（右隣のカードの効果）")
    assert (japanese[6]["category"], japanese[6]["detail"]) == ("左から7番目：S205", "値10 x0（右隣のカードの効果）")
    assert without_texts(GAME.score_breakdown(state, "ja")) == without_texts(english)


def test_every_position_english_unchanged_japanese_with_the_same_numbers():
    counts, finished_counts, multiplied = set(), set(), 0
    for state in sampled_positions():
        counts.add(state.players)
        if not GAME.to_move(state):
            finished_counts.add(state.players)
        english = GAME.score_breakdown(state)
        assert GAME.score_breakdown(state, "en") == english
        assert [[(c["category"], c["detail"]) for c in seat["categories"]] for seat in english] == old_english(state)
        japanese = GAME.score_breakdown(state, "ja")
        assert without_texts(japanese) == without_texts(english)
        for en_seat, ja_seat in zip(english, japanese):
            assert list(en_seat) == list(ja_seat)
            for en, ja in zip(en_seat["categories"], ja_seat["categories"]):
                assert list(en) == list(ja)
                multiplied += en["multiplier"] != 1
                for field in TEXTS:
                    assert JAPANESE.search(ja[field]), (field, ja[field])
                    assert ja[field] != en[field]
                    assert NUMBER.findall(ja[field]) == NUMBER.findall(en[field]), (en[field], ja[field])
    assert counts == finished_counts == set(GAME.player_counts)
    assert multiplied  # x2 and x0 details were seen


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_empty_row_has_no_categories(lang):
    state = GAME.new_game(2, 0)
    assert [seat["categories"] for seat in GAME.score_breakdown(state, lang)] == [[], []]
