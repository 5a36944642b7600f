"""Every event of every game is written in English and Japanese (``rules/<game>/data/events.json``):
the English is ``Event.text`` as before, each template has the same placeholders in both languages,
and a seat that may not see an event gets its public text in both languages, never the full one."""

from __future__ import annotations

import pytest

import rules
from rules.eventtexts import templates
from rules.rulebook import LANGUAGES
from tests.helpers.seeded_games import JAPANESE, positions


def events_of_random_games(game_id: str):
    for game, state, _ in positions(game_id, seeds=4):
        yield state, game.events(state)


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_template_is_in_both_languages(game_id):
    for key, by_lang in templates(game_id).items():
        assert set(by_lang) == set(LANGUAGES), key
        assert JAPANESE.search(by_lang["ja"]), (key, by_lang["ja"])


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_event_is_written_in_both_languages_the_english_unchanged(game_id):
    kinds = set()
    for state, events in events_of_random_games(game_id):
        for event in events:
            kinds.add(event.kind)
            assert event.texts and set(event.texts) == set(LANGUAGES), event
            assert event.texts["en"] == event.text
            assert event.texts["ja"].strip() and event.texts["ja"] != event.text, event
            if event.public_text is not None:
                assert event.public_texts and event.public_texts["en"] == event.public_text, event
                for seat in range(6):
                    seen = event.seen_by(seat)
                    if event.visible_to is not None and seat not in event.visible_to:
                        assert seen["texts"] == dict(event.public_texts) and seen["text"] == event.public_text
    assert kinds
