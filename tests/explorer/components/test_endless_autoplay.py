"""Bots in the explorer stop in a game that does not end: ``GameSession.autoplay`` after
``AUTOPLAY_LIMITS`` actions (by bot), keeping what they played, and the picker says why in the page's language;
"Let bots play" then plays on from there. (A position with a card file that gives an endless Jump Gate
game, ``tests/helpers/endless.py``: before, the page's server ran the bots for ever.)"""

from __future__ import annotations

import pytest

from explorer.components.picker import ActionPicker
from explorer.core.session import AUTOPLAY_LIMITS, GameSession
from tests.helpers.endless import ENDLESS_SEEDS, endless_jump_gate, endless_jump_gate_cards


AUTOPLAY_LIMIT = AUTOPLAY_LIMITS["random"]


def endless_session(lang: str = "en") -> tuple[GameSession, ActionPicker]:
    game = endless_jump_gate()
    position = {**game.encode(game.new_game(2, ENDLESS_SEEDS[0])), "cards": endless_jump_gate_cards()}
    session = GameSession(game="jump_gate", players=2, seed=ENDLESS_SEEDS[0])
    session.load_position(position)
    session.seat_players = {0: "random", 1: "random"}
    return session, ActionPicker(session=session, lang=lang)


@pytest.mark.parametrize("lang, says", [("en", "The bots played 20,000 moves and the game has not ended"),
                                        ("ja", "ボットは20,000手進めましたが、ゲームが終わらない")], ids=["en", "ja"])
def test_the_bots_stop_at_the_limit_keep_their_moves_and_say_why(lang, says):
    session, picker = endless_session(lang)
    assert picker.let_bots_play() == AUTOPLAY_LIMIT
    assert len(session.log) == AUTOPLAY_LIMIT and session.cursor == AUTOPLAY_LIMIT
    assert not session.spec.is_over(session.state)
    assert says in picker.message and picker.alert.visible
    session.goto(AUTOPLAY_LIMIT // 2)           # every state on the way is kept, as for any line
    session.goto(AUTOPLAY_LIMIT)


def test_let_bots_play_plays_on_from_where_they_stopped():
    session, picker = endless_session()
    picker.let_bots_play()
    kept = list(session.log)
    assert picker.let_bots_play() == AUTOPLAY_LIMIT
    assert session.log[:AUTOPLAY_LIMIT] == kept and len(session.log) == 2 * AUTOPLAY_LIMIT


def test_a_game_that_ends_says_nothing():
    session, picker = endless_session()
    session.autoplay(limit=50)                   # (the same limit, lower: stopped, with moves left)
    assert len(session.log) == 50 and not session.spec.is_over(session.state) and session.stopped_at_limit
    ended = GameSession(game="subastral", players=2, seed=1)
    ended.seat_players = {0: "random", 1: "random"}
    picker = ActionPicker(session=ended)
    assert 0 < picker.let_bots_play() < AUTOPLAY_LIMIT
    assert ended.spec.is_over(ended.state) and picker.message == "" and not ended.stopped_at_limit


def test_greedy_bots_stop_sooner():
    """A greedy move costs some 1 ms: the page waits 2,000 of them at most (real greedy games are under 300)."""
    session, picker = endless_session()
    session.seat_players = {0: "greedy", 1: "random"}
    assert picker.let_bots_play() == AUTOPLAY_LIMITS["greedy"] == 2_000
    assert session.stopped_at_limit and "The bots played 2,000 moves" in picker.message
