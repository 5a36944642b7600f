"""The explorer's model, GameSession, in plain pytest (no Panel, no browser).

Every test is seeded. The session must only ever *assign* new values, so several tests watch the
parameters and check that events fire and that old values are left as they were.
"""

from __future__ import annotations

import param
import pytest

import rules
from explorer.core.session import GameSession, Line, VariantSwitches
from rules.protocol import IllegalAction, InvalidReplay

SEED = 8          # a greedy game that ends with cards in hand (the disturbance variant then has passes to make)


def watch(session: param.Parameterized, *names: str) -> list:
    """Record every event of ``names`` on ``session``."""
    seen: list = []
    session.param.watch(lambda *events: seen.extend(events), list(names))
    return seen


@pytest.fixture
def played() -> GameSession:
    """A complete bot-played 4-player game, cursor at the end."""
    session = GameSession(game="subastral", players=4, seed=SEED)
    session.autoplay("greedy")
    return session


def legal_other_than(session: GameSession, step: int):
    """A legal move at ``step`` that differs from the log's own move there."""
    state = session.state_at(step)
    seat = session.spec.to_move(state)[0]
    logged = session.log[step] if step < len(session.log) else None
    for action in session.spec.legal_actions(state, seat):
        if (seat, action) != logged:
            return seat, action
    pytest.skip("only one legal move at this step")


# ------------------------------------------------------------------ set-up


def test_a_new_session_deals_from_game_players_seed_and_variants():
    session = GameSession(game="subastral", players=3, seed=SEED)
    spec = rules.get_game("subastral")
    assert session.spec is spec
    assert session.log == [] and session.cursor == 0 and session.branches == []
    assert session.variants == {"disturbance": False}
    assert spec.encode(session.state) == spec.encode(spec.new_game(3, SEED, {"disturbance": False}))
    assert session.param.viewing_seat.objects == [None, 0, 1, 2]


def test_players_are_bounded_by_the_specs_player_counts():
    session = GameSession()
    spec = session.spec
    assert session.param.players.bounds == (min(spec.player_counts), max(spec.player_counts))
    with pytest.raises(ValueError):
        session.players = max(spec.player_counts) + 1
    with pytest.raises(rules.InvalidPosition):
        GameSession(players=99)


def test_variant_switches_are_generated_from_the_spec():
    session = GameSession()
    switches = session.variant_switches
    assert isinstance(switches, VariantSwitches)
    for variant in session.spec.variants:
        parameter = switches.param[variant.name]
        assert isinstance(parameter, param.Boolean)
        assert parameter.default == variant.default
        assert variant.source in parameter.doc
    # Per session: two sessions' switches are independent.
    other = GameSession()
    switches.disturbance = True
    assert other.variant_switches.disturbance is False
    assert other.variants == {"disturbance": False}


def test_the_variants_dict_and_the_switches_stay_in_step():
    session = GameSession(seed=SEED)
    session.variant_switches.disturbance = True
    assert session.variants == {"disturbance": True}
    assert session.state.variant("disturbance") is True
    session.variants = {"disturbance": False}
    assert session.variant_switches.disturbance is False
    assert session.state.variant("disturbance") is False


def test_changing_players_or_seed_deals_a_new_game(played):
    played.viewing_seat = 3
    played.players = 3
    assert played.log == [] and played.cursor == 0 and played.branches == []
    assert played.viewing_seat is None                   # seat 3 no longer exists
    assert played.param.viewing_seat.objects == [None, 0, 1, 2]
    assert played.state.players == 3
    before = played.spec.encode(played.state)
    played.seed = SEED + 1
    assert played.spec.encode(played.state) != before
    assert played.state == played.spec.new_game(3, SEED + 1, played.variants)


def test_reset_deals_again_and_forgets_the_line(played):
    played.reset()
    assert played.log == [] and played.cursor == 0 and played.branches == []
    assert played.spec.encode(played.state) == played.spec.encode(played.spec.new_game(4, SEED, played.variants))


# ------------------------------------------------------------------ playing and stepping


def test_play_appends_and_assigns_new_values():
    session = GameSession(seed=SEED)
    events = watch(session, "log", "cursor", "state")
    old_log = session.log
    (seat,) = session.spec.to_move(session.state)
    action = session.spec.legal_actions(session.state, seat)[0]
    session.play(seat, action)
    assert session.log == [(seat, action)] and session.cursor == 1
    assert old_log == [] and session.log is not old_log      # replaced, not mutated
    assert {e.name for e in events} == {"log", "cursor", "state"}
    assert session.state == session.spec.apply(session.state_at(0), seat, action)


def test_play_accepts_the_json_form_of_an_action():
    session = GameSession(seed=SEED)
    (seat,) = session.spec.to_move(session.state)
    action = session.spec.legal_actions(session.state, seat)[0]
    session.play(seat, session.spec.encode_action(action))
    assert session.log == [(seat, action)]


def test_an_illegal_play_raises_and_changes_nothing():
    session = GameSession(seed=SEED)
    events = watch(session, "log", "cursor", "state", "branches")
    (seat,) = session.spec.to_move(session.state)
    other = (seat + 1) % session.players
    with pytest.raises(IllegalAction):
        session.play(other, session.spec.legal_actions(session.state, seat)[0])
    assert session.log == [] and session.cursor == 0 and events == []


def test_undo_redo_and_goto_move_the_cursor_only(played):
    moves = len(played.log)
    log = played.log
    events = watch(played, "cursor", "state", "log")
    assert played.undo() and played.cursor == moves - 1
    assert played.redo() and played.cursor == moves
    assert not played.redo()
    played.goto(0)
    assert played.state is played.state_at(0)
    assert not played.undo()
    played.goto(5)
    assert played.state is played.state_at(5)
    assert played.log is log
    assert {e.name for e in events} == {"cursor", "state"}
    with pytest.raises(ValueError):
        played.goto(moves + 1)
    with pytest.raises(ValueError):
        played.goto(-1)


def test_stepping_reads_the_cache_and_applies_nothing(played, monkeypatch):
    spec = played.spec
    for step in range(len(played.log) + 1):
        played.state_at(step)
    calls = []
    original = type(spec).apply
    monkeypatch.setattr(type(spec), "apply", lambda *a, **k: calls.append(a) or original(*a, **k))
    for step in (0, 10, 3, len(played.log), 1):
        played.goto(step)
    played.undo()
    played.redo()
    assert calls == []


def test_assigning_the_cursor_directly_keeps_the_state_right(played):
    """What the step slider does: it assigns ``cursor``."""
    played.cursor = 4
    assert played.state is played.state_at(4)
    with pytest.raises(ValueError):
        played.cursor = len(played.log) + 1          # the cursor's bounds follow the log


def test_assigning_the_log_directly_keeps_cursor_and_state_right(played):
    full = played.log
    played.log = full[:10]
    assert played.cursor == 10 and played.state is played.state_at(10)
    assert played.param.cursor.bounds == (0, 10)
    played.log = full
    played.goto(len(full))
    assert played.spec.is_over(played.state)


def test_the_same_move_at_a_past_cursor_just_steps_forward(played):
    played.goto(3)
    log = played.log
    played.play(*log[3])
    assert played.cursor == 4 and played.log is log and played.branches == []


def test_another_move_at_a_past_cursor_forks_and_keeps_the_old_line(played):
    old_log = played.log
    played.goto(3)
    seat, action = legal_other_than(played, 3)
    events = watch(played, "log", "branches")
    played.play(seat, action)
    assert played.log == old_log[:3] + [(seat, action)]
    assert played.cursor == 4
    assert played.branches == [Line(log=tuple(old_log), cursor=3, variants=(("disturbance", False),), forked_at=3)]
    assert {e.name for e in events} == {"log", "branches"}
    # the old line is still reachable, and the new one is kept when switching back
    new_log = played.log
    played.switch_branch(0)
    assert played.log == old_log and played.cursor == 3
    assert played.branches[0].log == tuple(new_log)
    played.goto(len(old_log))
    assert played.spec.is_over(played.state)


# ------------------------------------------------------------------ bots


def test_autoplay_plays_to_the_end_and_is_seeded():
    a = GameSession(seed=SEED)
    b = GameSession(seed=SEED)
    c = GameSession(seed=SEED + 1)
    played = a.autoplay("greedy")
    assert played == len(a.log) > 0 and a.cursor == len(a.log)
    assert a.spec.is_over(a.state)
    b.autoplay("greedy")
    c.autoplay("greedy")
    assert a.log == b.log
    assert a.log != c.log


def test_autoplay_keeps_the_moves_played_before_a_bot_fails(monkeypatch):
    """A bot that failed took the moves played before it along: the page said "The bots could not play"
    and "Step 0 / 0" after 48 moves (an outside tester, on a position since refused). The moves stay, the
    cursor after them, and the error is still raised for the page to say."""
    from explorer.core import session as session_module
    from rules.protocol import RulesError

    real = session_module.bot_moves

    def failing_after_five(*args, **kwargs):
        for count, played in enumerate(real(*args, **kwargs)):
            if count == 5:
                raise RulesError("the bot failed")
            yield played

    monkeypatch.setattr(session_module, "bot_moves", failing_after_five)
    session = GameSession(game="subastral", players=2, seed=3)
    with pytest.raises(RulesError, match="the bot failed"):
        session.autoplay("random")
    assert len(session.log) == 5 and session.cursor == 5
    monkeypatch.setattr(session_module, "bot_moves", real)
    fresh = GameSession(game="subastral", players=2, seed=3)
    fresh.autoplay("random", limit=5)
    assert session.log == fresh.log                       # the same moves as the bots play unbroken


def test_autoplay_default_bot_and_then_goto():
    session = GameSession(seed=SEED, bot="random")
    session.autoplay(then_goto=0)
    assert session.cursor == 0 and len(session.log) > 0
    session.goto(len(session.log))
    assert session.spec.is_over(session.state)


def test_autoplay_one_action():
    session = GameSession(seed=SEED)
    assert session.autoplay(until_over=False) == 1
    assert len(session.log) == 1 and session.cursor == 1


def test_autoplay_stops_when_a_person_must_decide():
    session = GameSession(seed=SEED)
    human = session.spec.to_move(session.state)[0] - 1 if session.spec.to_move(session.state)[0] else 1
    bots = {seat: "random" for seat in range(session.players) if seat != human}
    session.autoplay(bots)
    assert session.spec.to_move(session.state) == (human,)
    assert all(seat != human for seat, _ in session.log)


# ------------------------------------------------------------------ replays


def test_replay_export_has_the_design_format(played):
    data = played.replay()
    assert set(data) == {"game", "version", "players", "seed", "variants", "actions"}
    assert data["game"] == "subastral" and data["players"] == 4 and data["seed"] == SEED
    assert data["variants"] == {"disturbance": False}
    assert len(data["actions"]) == len(played.log)
    assert data["actions"][0] == {"seat": played.log[0][0], "action": played.spec.encode_action(played.log[0][1])}


def test_replay_round_trip(played):
    data = played.replay()
    other = GameSession(players=2, seed=0)
    events = watch(other, "log", "players", "seed", "state")
    other.load(data)
    assert other.players == 4 and other.seed == SEED and other.variants == played.variants
    assert other.log == played.log and other.cursor == len(played.log)
    assert other.spec.encode(other.state) == played.spec.encode(played.state)
    assert other.replay() == data
    assert {e.name for e in events} == {"log", "players", "seed", "state"}
    other.load(data, cursor=0)
    assert other.cursor == 0 and other.state is other.state_at(0)


def test_load_rejects_an_illegal_replay_and_changes_nothing(played):
    data = played.replay()
    data["actions"][5], data["actions"][6] = data["actions"][6], data["actions"][5]
    fresh = GameSession(players=3, seed=1)
    with pytest.raises(InvalidReplay, match="move 6"):
        fresh.load(data)
    assert fresh.players == 3 and fresh.log == []
    with pytest.raises(InvalidReplay):
        fresh.load({"game": "subastral"})


# ------------------------------------------------------------------ variant changes


def test_a_variant_change_replays_the_same_moves_under_the_new_rules(played):
    log = played.log
    played.variant_switches.disturbance = True
    assert played.log == log and played.replay_problem is None
    assert played.state.variant("disturbance") is True
    # the same moves no longer end the game: the disturbance pass comes first
    assert not played.spec.is_over(played.state)
    assert played.state.phase == "disturbance"


def test_a_variant_change_stops_at_the_first_move_that_became_illegal():
    session = GameSession(seed=SEED, variants={"disturbance": True})
    session.autoplay("greedy")
    full = session.log
    passes = [i for i, (_, action) in enumerate(full) if type(action).__name__ == "PassCard"]
    assert passes, "the disturbance variant should end with passes"
    events = watch(session, "replay_problem", "log")
    session.variant_switches.disturbance = False
    first = passes[0]
    assert session.log == full[:first]
    assert session.cursor == first
    problem = session.replay_problem
    assert problem["move"] == first + 1 and problem["seat"] == full[first][0]
    assert problem["action"] == str(full[first][1])
    with pytest.raises(IllegalAction) as error:
        session.spec.apply(session.state, *full[first])
    assert problem["message"] == str(error.value)
    assert session.branches[-1].log == tuple(full)
    assert dict(session.branches[-1].variants) == {"disturbance": True}
    assert {e.name for e in events} == {"replay_problem", "log"}
    # the cut line can be brought back with its own rules
    session.switch_branch(len(session.branches) - 1)
    assert session.log == full and session.variants == {"disturbance": True}
    assert session.variant_switches.disturbance is True


# ------------------------------------------------------------------ what the views read


def test_observations_and_events_respect_the_viewing_seat(played):
    spec = played.spec
    for step in range(len(played.log) + 1):
        state = played.state_at(step)
        for seat in (0, 2):
            assert played.observation(seat, step) == spec.observe(state, seat)
            assert played.event_texts(step, seat) == [e["text"] for e in spec.observe(state, seat)["events"] if e["text"]]
        assert played.event_texts(step, None) == [e.text for e in spec.events(state)]
    played.viewing_seat = 1
    log = played.event_log()
    assert [entry["step"] for entry in log] == list(range(played.cursor + 1))
    assert log[-1]["events"] == played.event_texts(played.cursor, 1)


def test_autoplay_that_repeats_the_logs_continuation_does_not_fork(played):
    again = GameSession(seed=SEED)
    again.autoplay("greedy", then_goto=0)
    full = again.log
    again.autoplay("greedy")                  # same seed, same bots: the same moves again
    assert again.log == full and again.branches == [] and again.cursor == len(full)


# -- what-if positions and playing on -------------------------------------------------------------
def test_load_position_starts_a_line_from_it_and_replays_carry_it():
    session = GameSession(players=3, seed=SEED)
    spec = session.spec
    position = spec.encode(spec.new_game(3, SEED + 5))
    seat = position["state"]["seat"]
    del position["state"]["hands"][seat][1:]           # what if the player to move had one card?
    session.load_position(position)
    assert session.start is not None and session.log == [] and session.cursor == 0
    assert spec.encode(session.state)["state"]["hands"][seat] == position["state"]["hands"][seat]
    session.autoplay("random", until_over=False)
    session.autoplay("random", until_over=False)
    replay = session.replay()
    assert replay["start"]["state"]["hands"][seat] == position["state"]["hands"][seat]
    other = GameSession(players=4, seed=1)
    other.load(replay)
    assert other.start == replay["start"] and len(other.log) == 2
    assert spec.encode(other.state) == spec.encode(session.state)


def test_load_position_rejects_a_bad_position_and_changes_nothing():
    session = GameSession(players=3, seed=SEED)
    session.autoplay("random", until_over=False)
    before = (session.replay(), session.cursor)
    position = session.position()
    position["state"]["hands"][0].append("unicorn-9")
    with pytest.raises(rules.InvalidPosition, match="unicorn-9"):
        session.load_position(position)
    assert (session.replay(), session.cursor) == before


def test_variant_switch_on_a_what_if_position_replays_from_that_position():
    session = GameSession(players=2, seed=SEED)
    session.load_position(session.position())
    session.autoplay("random", until_over=False)
    session.variants = {"disturbance": True}
    assert session.start is not None and len(session.log) == 1
    assert session.spec.encode(session.state_at(0))["variants"] == {"disturbance": True}


def test_play_on_lets_the_bots_answer_until_a_person_must_decide():
    session = GameSession(players=3, seed=SEED)
    session.seat_players = {0: "human", 1: "greedy", 2: "random"}
    session.advance_bots()
    spec = session.spec
    assert spec.to_move(session.state) == (0,) or spec.is_over(session.state)
    while not spec.is_over(session.state):
        (seat,) = spec.to_move(session.state)
        assert seat == 0, "the bots play every other seat"
        session.play_on(0, spec.legal_actions(session.state, 0)[0])
    assert session.at_end and spec.is_over(session.state)


def test_switching_to_a_kept_line_clears_the_replay_problem():
    session = GameSession(players=3, seed=SEED)
    session.autoplay("greedy")
    session.variants = {"disturbance": True}
    session.autoplay("greedy")                     # the passes of the disturbance variant...
    session.variants = {"disturbance": False}      # ...are illegal without it: the line is cut
    assert session.replay_problem is not None
    session.switch_branch(len(session.branches) - 1)
    assert session.replay_problem is None


def test_save_and_load_round_trip_and_branch_brings_back_a_kept_line():
    session = GameSession(players=3, seed=SEED)
    session.autoplay("greedy", then_goto=6)
    first_line = list(session.log)
    spec = session.spec
    seat = spec.to_move(session.state)[0]
    other = next(a for a in spec.legal_actions(session.state, seat) if (seat, a) != session.log[6])
    session.play(seat, other)                          # a new line; the old one is kept
    assert len(session.branches) == 1
    saved = session.save()
    again = GameSession(players=2, seed=0)
    again.load(saved)
    assert again.log == session.log and spec.encode(again.state) == spec.encode(session.state)
    session.branch(0)
    assert session.log == first_line and session.cursor == 6


def test_a_biome_blitz_replay_of_rules_1_0_keeps_its_dice_through_the_explorer():
    # Biome Blitz 1.1 draws dice otherwise than 1.0: the explorer plays a 1.0 file with 1.0's dice,
    # saves it as 1.0 (so it loads again), and a what-if move on it draws as that game does.
    from rules import chance
    from rules import replay as replay_files
    from tests.helpers.biome_blitz import competing_line

    old = rules.get_game("biome_blitz").recorded("1.0")
    moves, state, competes = competing_line(old, 2, 31, 4, longest=1000)
    assert competes == 3
    data = replay_files.record(old, 2, 31, None, moves, state=old.new_game(2, 31))
    assert data["version"] == "1.0"
    session = GameSession(game="biome_blitz", players=2, seed=31)
    assert session.state.chance == chance.BLAKE2B
    session.load(data)
    assert session.state == state and session.state.chance == chance.MERSENNE
    assert session.replay() == data
    session.cursor = 0
    session.autoplay("random")
    assert session.state.chance == chance.MERSENNE and session.replay()["version"] == "1.0"
    again = GameSession(players=2, seed=0)
    again.load(session.replay())
    assert again.state == session.state
