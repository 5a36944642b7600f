"""The boards draw from the page's observation, events and the line's public card file (asked of the
session: ``card_info``, ``card_set``), never from a state: a board cannot show what its viewpoint may
not see, since it never holds what that would be (docs/architecture.md, "One viewpoint per page")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.state_scan import state_uses

BOARDS = Path(__file__).resolve().parents[3] / "explorer" / "boards"


def test_the_scan_sees_what_the_boards_used_to_do():
    caught = state_uses("def card(session):\n    info = session.spec.card_info(session.state, 'x')\n"
                        "    movers = spec.to_move(state)\n    cards = session.state.cards\n")
    assert len(caught) == 4, caught
    assert state_uses("session.card_info('x')\nsession.card_set().ecosystems\nsession.view()['to_move']\n") == []


@pytest.mark.parametrize("path", sorted(BOARDS.glob("*.py")), ids=lambda path: path.name)
def test_no_board_touches_a_state(path):
    assert state_uses(path.read_text(encoding="utf-8")) == [], path.name
