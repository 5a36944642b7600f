"""One viewpoint per page (``explorer/core/viewpoint.py``): a seat, a spectator, or the teacher, who alone
sees ``observe(state, ALL)``, and only on the explorer's page; a shared table's page never asks for it."""

from __future__ import annotations

import random

import pytest
from bokeh.document import Document

import rules
from explorer.boards.registry import board_for
from explorer.core.session import FixedViewSession, GameSession
from explorer.tables.hub import TableHub
from explorer.pages.table_pages import TablePage
from explorer.core.viewpoint import SPECTATOR, Viewpoint, ViewpointRefused, role_of
from rules.protocol import ALL
from tests.helpers.tiers import quick_once


def mounted(viewable) -> Document:
    document = Document()
    document.add_root(viewable.__panel__().get_root(document))
    return document


def test_only_a_teacher_page_may_see_everything():
    assert Viewpoint(ALL, teacher_page=True).sees_all
    for page in ({}, {"teacher_page": False}):
        with pytest.raises(ViewpointRefused):
            Viewpoint(ALL, **page)
    for odd in ("0", -1, True, 1.0, "ALL", "everything"):
        with pytest.raises(ViewpointRefused):
            Viewpoint(odd, teacher_page=True)
    assert Viewpoint.of(None, teacher=True).observer == ALL
    assert Viewpoint.of(None, teacher=False).observer is SPECTATOR
    assert Viewpoint.of(2, teacher=True) == Viewpoint(2, teacher_page=True)
    assert [Viewpoint(v, teacher_page=True).role for v in (ALL, None, 0)] == ["teacher", "spectator", "seat"]
    with pytest.raises(ViewpointRefused):
        Viewpoint(1).check(ALL)
    assert Viewpoint(1).check(1) == 1 and Viewpoint(None).check(None) is None
    for other in (0, 2, None):                       # a seat's page asks for its own view only
        with pytest.raises(ViewpointRefused):
            Viewpoint(1).check(other)
    assert [Viewpoint(ALL, teacher_page=True).check(v) for v in (0, None, ALL)] == [0, None, ALL]


@pytest.mark.parametrize("seat", [0, None])
def test_a_fixed_view_session_refuses_the_all_seeing_observation(seat):
    session = FixedViewSession(game="subastral", players=3, seed=1, seat=seat)
    assert session.viewpoint == Viewpoint(seat) and not session.sees_all
    with pytest.raises(ViewpointRefused):
        session.observation(ALL)
    with pytest.raises(ViewpointRefused):
        session.event_texts(0, None)          # "the teacher's" events: there is no teacher here
    with pytest.raises(ViewpointRefused):
        session.observation(1)                # another seat's (or, for a spectator, a seat's) view
    assert session.view() == session.spec.observe(session.state, seat)
    assert role_of(session.view()) == ("seat" if seat == 0 else "spectator")


@pytest.mark.parametrize("seat", [0, None])
def test_a_fixed_view_session_refuses_deck_knowledge_beyond_its_viewpoint(seat):
    """What the plots infer about unseen cards is asked through the viewpoint too: a seat's page gets
    its own seat's inference only, never another seat's, the spectator's or the teacher's."""
    session = FixedViewSession(game="subastral", players=3, seed=1, seat=seat)
    session.autoplay("greedy", then_goto=6)
    assert session.deck_knowledge(seat) == session.spec.deck_knowledge(session.state, seat)
    assert session.deck_knowledge(seat, 2) == session.spec.deck_knowledge(session.state_at(2), seat)
    for other in {0, 1, None, ALL} - {seat}:
        for step in (None, 0):
            with pytest.raises(ViewpointRefused):
                session.deck_knowledge(other, step)


def test_the_explorers_teacher_may_ask_any_seats_deck_knowledge():
    session = GameSession(game="subastral", players=3, seed=1)
    session.autoplay("greedy", then_goto=6)
    for seat in (0, 2, None):
        assert session.deck_knowledge(seat) == session.spec.deck_knowledge(session.state, seat)
    # the teacher's plots show what can be inferred from the table: the spectator's inference
    assert session.deck_knowledge(ALL) == session.spec.deck_knowledge(session.state, None)


def test_the_explorers_teacher_sees_the_all_seeing_observation():
    session = GameSession(game="stellar", players=2, seed=3)
    assert session.viewpoint.sees_all and session.view() == session.spec.observe(session.state, ALL)
    assert role_of(session.view()) == "teacher"
    session.viewing_seat = 1
    assert session.view() == session.spec.observe(session.state, 1)


@pytest.mark.parametrize("game", quick_once(rules.GAMES, "subastral"))
def test_a_table_page_never_asks_for_the_all_seeing_observation(tmp_path, monkeypatch, game):
    spec = rules.get_game(game)
    asked = []
    observe = type(spec).observe

    def recording(self, state, seat):
        asked.append(seat)
        return observe(self, state, seat)

    monkeypatch.setattr(type(spec), "observe", recording)
    hub = TableHub(tmp_path / "tables.sqlite3", bot_delay=0.0)
    try:
        players = spec.player_counts[0]
        table, tokens = hub.create(game, players, seed=5)
        pages = [TablePage(hub, table.id, tokens[0]), TablePage(hub, table.id, None)]
        for page in pages:
            mounted(page)
            page.plots_card.collapsed = False       # the plots too
        rng = random.Random(5)
        for _ in range(12):
            if table.over:
                break
            seat = rng.choice(table.to_move)
            hub.act(table.id, tokens[seat], table.step, spec.encode_action(rng.choice(spec.legal_actions(table.state, seat))))
        assert all(len(page.session.log) == table.step > 0 for page in pages)
    finally:
        hub.close()
    assert asked and ALL not in asked
    # The same recording catches the explorer's teacher asking for it: the check is not vacuous.
    session = GameSession(game=game, players=players, seed=5)
    mounted(board_for(session))
    assert ALL in asked
