"""Scores are public: every observation carries them (``scores``, ``winners`` and
``score_breakdown`` in every interface language, ``rules.protocol.GameSpec.public_score_breakdown``),
the same for every viewer, so score tables and plots read them from the page's observation
(``public_scores``: that part of it alone, for score curves over a whole line).
"""

from __future__ import annotations

import pytest

import rules
from rules import protocol
from rules.protocol import ALL
from rules.rulebook import LANGUAGES
from tests.helpers.seeded_games import positions


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_every_viewer_sees_the_same_public_scores(game_id):
    checked = 0
    for index, (game, state, _) in enumerate(positions(game_id, seeds=1)):
        if index % 7:
            continue
        expected = {lang: game.score_breakdown(state, lang) for lang in LANGUAGES}
        for seat in (None, ALL, *range(state.players)):
            view = game.observe(state, seat)
            assert view["score_breakdown"] == expected
            assert view["scores"] == list(game.scores(state)) and view["winners"] == list(game.winners(state))
            assert {key: view[key] for key in ("scores", "winners", "score_breakdown")} == game.public_scores(state)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_the_breakdown_is_worked_out_once_per_state_and_shared_by_every_viewer(game_id, monkeypatch):
    game, state, _ = next(iter(positions(game_id, seeds=1)))
    monkeypatch.setattr(protocol, "_breakdowns", {})        # (nothing remembered yet)
    calls = []
    breakdown = type(game).score_breakdown
    monkeypatch.setattr(type(game), "score_breakdown",
                        lambda self, state, lang="en": calls.append(lang) or breakdown(self, state, lang))
    views = [game.observe(state, seat) for seat in (None, ALL, *range(state.players))]
    assert all(view["score_breakdown"] is views[0]["score_breakdown"] for view in views)
    assert sorted(lang for lang in calls if lang is not None) == sorted(LANGUAGES)   # once in each language


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_states_scored_alike_share_one_breakdown(game_id, monkeypatch):
    """The breakdown is remembered by the game's ``score_key``: along a game, a position whose key
    an earlier position had gets that very breakdown (most moves leave the score as it was), and it
    is the position's own, in every game."""
    monkeypatch.setattr(protocol, "_breakdowns", {})
    monkeypatch.setattr(protocol, "_BREAKDOWNS_KEPT", 10**6)     # (none forgotten: one game's keys)
    seen, shared = {}, 0
    for game, state, _ in positions(game_id, seeds=1):
        breakdown = game.public_score_breakdown(state)
        assert breakdown == {lang: game.score_breakdown(state, lang) for lang in LANGUAGES}
        key = game.score_key(state)
        if key in seen:
            assert breakdown is seen[key]
            shared += key is not state
        seen.setdefault(key, breakdown)
    assert shared > 0


def test_jump_gate_keys_its_breakdown_by_the_black_hole_markers_and_hidden_piles_too():
    """Black-hole markers are in every seat's breakdown, and the hidden piles' sizes before the end;
    in random play they seldom change alone (the conformance suite would not notice a key without
    them), so positions where only they change are made here."""
    game, state, _ = next(iter(positions("jump_gate", seeds=1)))
    marked = state._replace(black_hole=(1,) + state.black_hole[1:])
    hidden = state._replace(hidden=((0,) + state.hidden[0],) + state.hidden[1:])
    for position in (state, marked, hidden):
        assert game.public_score_breakdown(position) == {lang: game.score_breakdown(position, lang) for lang in LANGUAGES}
    assert game.public_score_breakdown(marked)["en"][0]["black_hole"] == 1
