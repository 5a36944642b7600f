"""Flipping a variant tells what changed (issue #22, item 6): ``GameSession.variant_change``.

After a flip the session keeps, as data, the variants before and after, the move the new rules
refuse (or None: every move is still legal) and the scores at the end of the line before and
after, each from the rules (``spec.scores`` of the line's last state, replayed here independently).
Every test is seeded.
"""

from __future__ import annotations

import pytest

import rules
from explorer.core.session import GameSession

SEED = 8          # a greedy game that ends with cards in hand (the disturbance variant then has passes to make)


def end_of(spec, players: int, seed: int, variants: dict, log) -> dict:
    """The end of ``log`` dealt from ``seed`` under ``variants``, replayed with the rules alone."""
    state = spec.new_game(players, seed, variants)
    for seat, action in log:
        state = spec.apply(state, seat, action)
    return {"variants": variants, "moves": len(log), "over": spec.is_over(state), "scores": list(spec.scores(state))}


@pytest.fixture
def finished() -> GameSession:
    session = GameSession(game="subastral", players=4, seed=SEED)
    session.autoplay("greedy")
    return session


def test_a_flip_that_leaves_every_move_legal_says_so_with_the_scores_before_and_after(finished):
    spec, log = finished.spec, finished.log
    finished.variant_switches.disturbance = True
    change = finished.variant_change
    assert change["illegal"] is None and finished.log == log
    assert change["before"] == end_of(spec, 4, SEED, {"disturbance": False}, log)
    assert change["after"] == end_of(spec, 4, SEED, {"disturbance": True}, log)
    # the same moves no longer end the game: the disturbance passes are still to come
    assert change["before"]["over"] and not change["after"]["over"]


def test_a_flip_that_cuts_the_line_names_the_move_and_scores_the_old_line_and_the_cut_one():
    session = GameSession(seed=SEED, variants={"disturbance": True})
    session.autoplay("greedy")
    full, spec = session.log, session.spec
    session.variants = {"disturbance": False}
    change = session.variant_change
    assert change["illegal"] == session.replay_problem and change["illegal"]["move"] == len(session.log) + 1
    assert change["before"] == end_of(spec, 4, SEED, {"disturbance": True}, full)
    assert change["after"] == end_of(spec, 4, SEED, {"disturbance": False}, session.log)
    assert change["before"]["moves"] == len(full) > change["after"]["moves"]


def test_a_flip_on_a_line_without_moves_reports_the_deal():
    session = GameSession(game="subastral", players=3, seed=SEED)
    session.variants = {"disturbance": True}
    change = session.variant_change
    assert change["illegal"] is None
    assert change["before"]["moves"] == change["after"]["moves"] == 0
    assert change["before"]["variants"] == {"disturbance": False} and change["after"]["variants"] == {"disturbance": True}


@pytest.mark.parametrize("game", rules.GAMES)
def test_every_game_reports_a_flip_of_each_of_its_variants(game):
    session = GameSession(game=game, seed=3)
    session.autoplay("greedy")
    for variant in session.spec.variants:
        other = next(value for value in variant.choices if value != session.variants[variant.name])
        old = dict(session.variants)
        try:
            session.variants = {**old, variant.name: other}
        except rules.IllegalAction:
            continue                     # a start these rules cannot hold: nothing changed
        change = session.variant_change
        assert change["before"]["variants"] == old and change["after"]["variants"] == session.variants
        assert len(change["before"]["scores"]) == len(change["after"]["scores"]) == session.players
        assert change["after"]["moves"] == len(session.log)


def test_the_change_is_kept_while_stepping_and_forgotten_when_the_line_changes(finished):
    finished.variant_switches.disturbance = True
    change = finished.variant_change
    finished.goto(3)
    finished.undo()
    assert finished.variant_change is change
    seat = finished.spec.to_move(finished.state)[0]
    other = next(a for a in finished.spec.legal_actions(finished.state, seat) if (seat, a) != finished.log[2])
    finished.play(seat, other)                       # a new line: the change described the old one
    assert finished.variant_change is None
    finished.variants = {"disturbance": False}
    assert finished.variant_change is not None
    finished.switch_branch(0)
    assert finished.variant_change is None
    finished.variants = {"disturbance": True}
    finished.log = finished.log[:5]                  # a log assigned from outside
    assert finished.variant_change is None
    finished.variants = {"disturbance": False}
    finished.reset()
    assert finished.variant_change is None
