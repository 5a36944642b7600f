"""The page's arrow keys (``StepKeys``): a key's name steps the session; whatever else a message
forged in the browser holds changes nothing and raises nothing (a list as the key raised TypeError,
an outside tester found)."""

from __future__ import annotations

import pytest

from explorer.components.timeline import StepKeys
from explorer.core.session import GameSession


@pytest.fixture
def keys():
    session = GameSession(game="subastral", players=2, seed=3)
    session.autoplay()
    session.goto(2)
    return StepKeys(session=session)


@pytest.mark.parametrize("data", [{"key": ["End"]}, {"key": {"End": 1}}, {"key": None}, {"key": 7}, ["End"], "End",
                                  {"key": "Delete"}, {}])
def test_a_forged_key_message_changes_nothing(keys, data):
    keys._handle_msg(data)
    assert keys.session.cursor == 2


@pytest.mark.parametrize("key, cursor", [("ArrowLeft", 1), ("ArrowRight", 3), ("Home", 0), ("End", None)])
def test_a_key_steps_the_session(keys, key, cursor):
    keys._handle_msg({"key": key})
    assert keys.session.cursor == (len(keys.session.log) if cursor is None else cursor)
