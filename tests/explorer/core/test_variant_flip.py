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
from rules.protocol import RulesError

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


def test_a_switch_the_what_if_position_cannot_hold_goes_back_and_the_picker_says_why():
    """A Subastral position in the disturbance phase (the variant on), then the switch turned off: the
    position cannot be played without the variant. The game kept the variant, but the switch (and so the
    page's checkbox) showed it off, with no word, and the refusal was raised into Panel's log from the
    switch's watcher. Now the switch goes back, nothing changes, and the picker says why, in its language."""
    from explorer.components.picker import ActionPicker

    played = GameSession(game="subastral", players=3, seed=5)
    played.variants = {"disturbance": True}
    played.autoplay("random")
    position = next(played.spec.encode(played.state_at(k)) for k in range(len(played.log) + 1)
                    if played.spec.encode(played.state_at(k))["state"]["phase"] == "disturbance")
    session = GameSession(game="subastral", players=3, seed=5)
    session.load_position(position)
    pickers = {lang: ActionPicker(session=session, lang=lang) for lang in ("en", "ja")}
    state, log = session.state, list(session.log)
    session.variant_switches.disturbance = False          # as the page's checkbox does: nothing raised
    assert session.variant_switches.disturbance is True and session.variants == {"disturbance": True}
    assert session.state is state and session.log == log and session.variant_change is None
    assert isinstance(session.variants_refused, RulesError)
    assert "so the switch went back" in pickers["en"].message
    assert "スイッチを元に戻しました" in pickers["ja"].message
    with pytest.raises(rules.IllegalAction, match="start position must be valid"):   # (code is told)
        session.variants = {"disturbance": False}
    assert session.variant_switches.disturbance is True and session.variants == {"disturbance": True}
    session.reset()                     # variants taken with a new line: no refusal left to tell
    assert session.variants_refused is None
