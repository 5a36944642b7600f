"""Viewing as a seat shows no future in the event log (issue #22, item 6).

Viewed as a seat, the log reads up to the step shown, never the moves still to come in the recorded
line; the teacher reads the whole line with the step shown marked. Stepping forward sends the new
step's line only; stepping back drops the later ones. A shared table's pages (no teacher) list the
table's whole record, lived through by every seat. Every test is seeded.
"""

from __future__ import annotations

import html
import re

import pytest

from explorer.components.timeline import RECENT_LINES, EventLog
from explorer.core.session import FixedViewSession, GameSession

SEED = 8


def steps(html: str) -> list[int]:
    return [int(step) for step in re.findall(r'data-step="(\d+)"', html)]


@pytest.fixture(params=["subastral", "stellar"])
def session(request) -> GameSession:
    """A whole greedy game: Subastral's hands are hidden, Stellar's draws too."""
    played = GameSession(game=request.param, seed=SEED)
    played.autoplay("greedy")
    return played


def test_a_seat_s_log_stops_at_the_step_shown(session):
    log_view = EventLog(session=session)
    session.viewing_seat = 1
    for step in (10, 11, 14, 3, 0, 2, len(session.log), 7):
        session.goto(step)
        assert steps(log_view.list.lines) == list(range(step + 1)), step
        assert log_view.list.lines == log_view.lines() == EventLog(session=session).list.lines
        assert "future" not in log_view.html() and log_view.list.current == step


def test_the_teacher_still_reads_the_whole_line_with_the_step_shown_marked(session):
    log_view = EventLog(session=session)
    session.viewing_seat = 1
    session.goto(5)
    session.viewing_seat = None
    assert steps(log_view.list.lines) == list(range(len(session.log) + 1))
    shown = log_view.html()
    assert 'class="step current" data-step="5"' in shown
    assert shown.count('class="step future"') == len(session.log) - 5


@pytest.mark.parametrize("seat", [None, 1])
def test_a_table_s_pages_list_the_record_the_table_has_lived_through(seat):
    table = FixedViewSession(seat=seat, game="subastral", players=3, seed=SEED)
    table.autoplay("greedy", then_goto=6)
    log_view = EventLog(session=table)
    assert steps(log_view.list.lines) == list(range(len(table.log) + 1))
    assert log_view.html().count('class="step future"') == len(table.log) - 6


def test_a_seat_stepping_forward_is_sent_one_line_and_stepping_back_none(session):
    log_view = EventLog(session=session)
    session.viewing_seat = 0
    session.goto(0)
    sent = []
    log_view.list.param.watch(lambda *events: sent.extend((event.name, event.new) for event in events),
                              ["content", "recent"])
    for step in range(1, RECENT_LINES):
        session.goto(step)
        assert sent[-1][0] == "recent" and steps(sent[-1][1]) == list(range(1, step + 1))
    sent.clear()
    session.goto(3)
    assert sent == [("content", log_view.lines()), ("recent", "")] and steps(log_view.list.lines) == [0, 1, 2, 3]


def test_the_seat_s_lines_hold_none_of_a_later_step_s_events(session):
    log_view = EventLog(session=session)
    session.viewing_seat = 1
    session.goto(4)
    later = {said for step in range(5, len(session.log) + 1) for said in session.event_texts(step, 1)}
    earlier = {said for step in range(5) for said in session.event_texts(step, 1)}
    assert later - earlier
    for said in later - earlier:
        assert html.escape(said) not in log_view.list.lines
