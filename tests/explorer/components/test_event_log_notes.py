"""Notes in the explorer's event log (issue #24, item 3): pinned from the form under the log to the
step at the cursor, shown under that step, escaped, and only to a viewpoint that may read them."""

from __future__ import annotations

import re

import pytest

from explorer.components.timeline import EventLog
from explorer.core.notes import NOTE_LIMIT
from explorer.core.session import GameSession

ALL = "all"


def notes_under(lines: str) -> dict[int, list[str]]:
    """step -> the notes' texts shown under it (as the page's HTML holds them)."""
    found: dict[int, list[str]] = {}
    for step, body in re.findall(r'<div class="step" data-step="(\d+)"(.*?)</div>', lines, re.S):
        found[int(step)] = re.findall(r'<span class="note-said">(.*?)</span>', body)
    return {step: said for step, said in found.items() if said}


@pytest.fixture
def session() -> GameSession:
    """Six moves of a Subastral game (not over: hidden moves stay hidden)."""
    played = GameSession(game="subastral", players=2, seed=3)
    spec = played.spec
    for _ in range(6):
        seat = spec.to_move(played.state)[0]
        played.play(seat, spec.legal_actions(played.state, seat)[0])
    return played


def hidden_from(session: GameSession, seat: int) -> int:
    """A step whose move ``seat`` does not see in full."""
    spec = session.spec
    return next(step for step in range(1, len(session.log) + 1)
                if spec.observe(session.state_at(step), seat)["events"] != spec.observe(session.state_at(step), ALL)["events"])


def test_the_teacher_pins_a_note_at_the_cursor_and_it_shows_under_that_step_escaped(session):
    log_view = EventLog(session=session)
    session.goto(2)
    log_view.form.text_input.value = "<script>alert('x')</script> a turning point"
    assert log_view.form.submit()
    assert "Note pinned to step 2" in log_view.form.message.object
    assert notes_under(log_view.list.lines) == {2: ["&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; a turning point"]}
    assert "<script>" not in log_view.list.lines
    assert log_view.form.text_input.value == ""            # emptied for the next note


def test_a_seat_reads_no_note_on_a_move_it_did_not_see_in_full(session):
    log_view = EventLog(session=session)
    hidden = hidden_from(session, 0)
    session.add_note(hidden, "the teacher saw the card")
    session.goto(len(session.log))
    assert notes_under(log_view.list.lines) == {hidden: ["the teacher saw the card"]}
    session.viewing_seat = 0
    assert notes_under(log_view.list.lines) == {}
    session.viewing_seat = None
    assert notes_under(log_view.list.lines) == {hidden: ["the teacher saw the card"]}


@pytest.mark.parametrize("typed, problem", [("", "the note is empty"), ("   ", "the note is empty"),
                                            ("z" * (NOTE_LIMIT + 1), "at most 2000")])
def test_a_bad_note_is_refused_in_the_form_and_changes_nothing(session, typed, problem):
    log_view = EventLog(session=session, lang="en")
    before = log_view.list.lines
    log_view.form.text_input.value = typed
    assert not log_view.form.submit()
    assert problem in log_view.form.message.object and "refused" in log_view.form.message.object
    assert session.notes == [] and log_view.list.lines == before


def test_the_form_speaks_japanese(session):
    log_view = EventLog(session=session, lang="ja")
    session.goto(3)
    assert "3手目" in log_view.form.heading.object
    log_view.form.text_input.value = "ここが勝負所"
    assert log_view.form.submit() and "3手目にメモを付けました" in log_view.form.message.object
    assert notes_under(log_view.list.lines) == {3: ["ここが勝負所"]}
    assert "先生" in log_view.list.lines


def test_a_log_without_a_pin_has_no_form(session):
    assert EventLog(session=session, pin=None).form is None
