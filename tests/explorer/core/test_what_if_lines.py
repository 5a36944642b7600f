"""Applying a what-if position keeps the old line under "Lines of play" (issue #22, item 6).

``GameSession.load_position`` starts a line elsewhere; the line shown (if it has moves) and the lines
kept before stay in ``branches``, each knowing where it begins (``Line.origin``), so switching back
restores the game, card file, players, seed, start position, variants, moves and cursor exactly,
and switching again brings the what-if line back. Every test is seeded.
"""

from __future__ import annotations

import copy

import pytest

import rules
from explorer.core.session import GameSession
from rules import replay as replay_files
from rules.protocol import RulesError
from rules.stellar.cards import standard_cards

SEED = 8


def snapshot(session: GameSession) -> tuple:
    """Everything a line is: its replay file (game, cards, players, seed, variants, start, moves),
    its moves as objects, the cursor and the state there."""
    return (session.replay(), session.log, session.cursor, session.game, session.players, session.start,
            session.variants, session.spec.encode(session.state))


def what_if(session: GameSession) -> dict:
    """The position at the cursor with the player to move holding one card fewer."""
    position = session.position()
    seat = position["state"]["seat"]
    del position["state"]["hands"][seat][0]
    return position


def test_a_what_if_position_keeps_the_line_shown_and_switching_back_restores_it_exactly():
    session = GameSession(game="subastral", players=4, seed=SEED, variants={"disturbance": True})
    session.autoplay("greedy", then_goto=10)
    old = snapshot(session)
    position = what_if(session)
    session.load_position(position)
    assert session.log == [] and session.cursor == 0 and session.start is not None
    (kept,) = session.branches
    assert kept.log == tuple(old[1]) and kept.cursor == 10 and kept.origin is not None
    session.autoplay("random", until_over=False)
    session.autoplay("random", until_over=False)
    new = snapshot(session)
    session.switch_branch(0)
    assert snapshot(session) == old and session.start is None
    (left,) = session.branches
    assert left.log == tuple(new[1]) and left.origin is not None
    session.switch_branch(0)
    assert snapshot(session) == new
    assert session.start["state"] == position["state"]


def test_a_line_without_moves_is_not_kept():
    session = GameSession(game="subastral", players=3, seed=SEED)
    session.load_position(session.position())
    assert session.branches == []


def test_lines_kept_before_stay_and_each_begins_where_it_began():
    session = GameSession(game="subastral", players=4, seed=SEED)
    session.autoplay("greedy", then_goto=6)
    first = list(session.log)
    spec = session.spec
    seat = spec.to_move(session.state)[0]
    session.play(seat, next(a for a in spec.legal_actions(session.state, seat) if (seat, a) != first[6]))
    fork = list(session.log)                          # a fork of the dealt game, the first line kept aside
    session.load_position(what_if(session))
    assert [line.log for line in session.branches] == [tuple(first), tuple(fork)]
    assert all(line.origin is not None for line in session.branches)
    session.switch_branch(0)                          # straight to the first line, from the what-if line
    assert session.log == first and session.start is None and session.cursor == 6
    # back where they began: the fork shares its start again, the what-if line does not
    fork_line, what_if_line = session.branches[1], session.branches[0]
    assert fork_line.log == tuple(fork) and fork_line.origin is None
    assert what_if_line.log == () and what_if_line.origin is not None
    session.switch_branch(1)
    assert session.log == fork


def test_a_what_if_position_of_another_game_keeps_the_line_of_the_first_game():
    session = GameSession(game="subastral", players=3, seed=SEED, variants={"disturbance": True})
    session.autoplay("greedy", then_goto=5)
    old = snapshot(session)
    other = GameSession(game="jump_gate", players=2, seed=SEED)
    other.autoplay("greedy", then_goto=4)
    session.load_position(other.position())
    assert session.game == "jump_gate" and session.players == 2
    session.autoplay("greedy", until_over=False)
    session.switch_branch(0)
    assert snapshot(session) == old
    assert session.param.viewing_seat.objects == [None, 0, 1, 2]
    assert session.variant_switches.disturbance is True


def test_a_line_played_with_its_own_card_file_comes_back_with_it():
    cards = copy.deepcopy(dict(standard_cards().raw))
    cards["satellites"] = {**cards["satellites"], "copies": 6}
    spec = rules.get_game("stellar").with_card_file(cards)
    session = GameSession(game="stellar", players=2, seed=SEED)
    session.load({"game": "stellar", "version": spec.version, "players": 2, "seed": SEED, "variants": {},
                  "actions": [], "cards": cards})
    session.autoplay("greedy", then_goto=3)
    old = snapshot(session)
    assert old[0]["cards"] == cards
    session.load_position(rules.get_game("stellar").encode(rules.get_game("stellar").new_game(2, 1)))
    assert "cards" not in session.replay()
    session.switch_branch(0)
    assert snapshot(session) == old and session.replay()["cards"] == cards


def test_a_line_that_cannot_begin_again_is_refused_and_nothing_changes(monkeypatch):
    session = GameSession(game="subastral", players=4, seed=SEED)
    session.autoplay("greedy", then_goto=4)
    session.load_position(what_if(session))
    session.autoplay("greedy", until_over=False)
    here = snapshot(session), session.branches

    def refuse(data):
        raise rules.InvalidPosition("the card file changed since")
    monkeypatch.setattr(replay_files, "read", refuse)
    with pytest.raises(RulesError):
        session.switch_branch(0)
    assert (snapshot(session), session.branches) == here
