"""Bots on a served page play in a thread of their own (explorer/components/bot_run.py): the same moves
as ``GameSession.autoplay`` plays in one go, put on the line on the page's loop, and a run stops when
asked, when the line or the seats' players change, and at the bots' limit.

The page's loop is the test's (``tests/helpers/served.py``): what the bots' thread hands it runs when
the test says, after the thread has ended (``thread.join``: a state, not a time)."""

from __future__ import annotations

from explorer.components.bot_run import DONE, STOPPED, BotRun
from explorer.components.picker import ActionPicker
from explorer.core.session import AUTOPLAY_LIMITS, GameSession
from tests.helpers.endless import ENDLESS_SEEDS, endless_jump_gate, endless_jump_gate_cards
from tests.helpers.served import FakeLoop, served_document

ALL_GREEDY = {0: "greedy", 1: "greedy", 2: "greedy", 3: "greedy"}


def drain(document, loop: FakeLoop) -> None:
    """Run what was handed to the page's loop, and what that adds to the document, until nothing is left."""
    from panel.io.state import set_curdoc

    with set_curdoc(document):
        while loop.callbacks or document.session_callbacks:
            while loop.callbacks:
                loop.callbacks.pop(0)()
            for callback in sorted(document.session_callbacks, key=lambda c: c.id):
                document.remove_next_tick_callback(callback)
                callback.callback()


def finished(run: BotRun, document, loop: FakeLoop) -> BotRun:
    run.thread.join(60)
    assert not run.thread.is_alive(), "the bots' thread did not end"
    drain(document, loop)
    return run


def session_with(seats: dict, game: str = "subastral", players: int = 4, seed: int = 5) -> GameSession:
    session = GameSession(game=game, players=players, seed=seed)
    session.seat_players = dict(seats)
    return session


def test_the_bots_play_the_moves_autoplay_plays_and_the_cursor_follows_them():
    expected = session_with(ALL_GREEDY)
    expected.autoplay(ALL_GREEDY)
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with(ALL_GREEDY)
    run = finished(BotRun(session, ALL_GREEDY, document=document).start(), document, loop)
    assert run.status == DONE and run.played == len(expected.log) > 0
    assert session.log == expected.log and session.cursor == len(session.log)
    assert session.spec.is_over(session.state) and not session.stopped_at_limit


def test_a_new_deal_is_played_to_its_end_and_shown_from_its_start():
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with(ALL_GREEDY, seed=8)
    run = finished(BotRun(session, ALL_GREEDY, follow=False, document=document).start(), document, loop)
    assert run.status == DONE and session.cursor == 0
    assert session.spec.is_over(session.state_at(len(session.log)))


def test_the_bots_stop_where_a_person_must_decide():
    seats = {0: "human", 1: "greedy", 2: "greedy", 3: "greedy"}
    expected = session_with(seats)
    first = expected.spec.legal_actions(expected.state, expected.spec.to_move(expected.state)[0])[0]
    expected.play_on(expected.spec.to_move(expected.state)[0], first)
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with(seats)
    session.play(session.spec.to_move(session.state)[0], first)
    bots = {seat: (None if name == "human" else name) for seat, name in seats.items()}
    finished(BotRun(session, bots, document=document).start(), document, loop)
    assert session.log == expected.log and len(session.log) > 1
    assert session.controller(session.spec.to_move(session.state)[0]) == "human"


def test_from_a_past_step_the_bots_start_a_new_line_there_and_the_old_one_is_kept():
    seats = {0: "random", 1: "random"}
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with({0: "greedy", 1: "greedy"}, players=2)
    session.autoplay()
    old = list(session.log)
    session.goto(3)
    run = finished(BotRun(session, seats, document=document).start(), document, loop)
    expected = session_with(seats, players=2)
    for seat, action in old[:3]:
        expected.play(seat, action)
    expected.autoplay(seats)
    assert run.status == DONE and session.log == expected.log != old
    assert session.branches[-1].log == tuple(old) and session.cursor == len(session.log)


def test_a_stopped_run_puts_nothing_more_on_the_line():
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with(ALL_GREEDY)
    run = BotRun(session, ALL_GREEDY, document=document).start()
    run.stop()                               # (on the page's loop, before any batch reached it)
    finished(run, document, loop)
    assert run.status == STOPPED and session.log == [] and session.cursor == 0


def test_a_new_deal_or_a_seat_taken_by_a_person_stops_the_run():
    for change in ({"seed": 6}, {"seat_players": {**ALL_GREEDY, 2: "human"}}):
        loop = FakeLoop()
        document = served_document(loop)
        session = session_with(ALL_GREEDY)
        run = BotRun(session, ALL_GREEDY, document=document).start()
        session.param.update(**change)      # (the page's loop, while the bots' thread plays)
        assert run.status == STOPPED, change  # (at once: the thread stops at its next move)
        finished(run, document, loop)
        assert run.status == STOPPED and session.log == [], change


def test_the_bots_stop_at_their_limit_in_a_game_that_never_ends_and_the_picker_says_so(monkeypatch):
    monkeypatch.setattr("explorer.components.picker.QUICK_BOTS", frozenset())    # (every move in a run)
    game = endless_jump_gate()
    position = {**game.encode(game.new_game(2, ENDLESS_SEEDS[0])), "cards": endless_jump_gate_cards()}
    session = GameSession(game="jump_gate", players=2, seed=ENDLESS_SEEDS[0])
    session.load_position(position)
    session.seat_players = {0: "greedy", 1: "random"}
    loop = FakeLoop()
    document = served_document(loop)
    picker = ActionPicker(session=session)
    run = BotRun(session, session.seat_players, document=document, on_change=picker._on_run)
    picker.run = run
    finished(run.start(), document, loop)
    assert run.status == DONE and len(session.log) == AUTOPLAY_LIMITS["greedy"] and session.stopped_at_limit
    assert "The bots played 2,000 moves" in picker.message
    from panel.io.state import set_curdoc

    with set_curdoc(document):
        picker.let_bots_play()               # they play on from there, and are stopped by hand
        again = picker.run
        picker.stop_bots()
    finished(again, document, loop)
    assert again.status == STOPPED and picker.message == "", "a run stopped by hand is not one stopped at its limit"


def test_off_a_server_a_run_is_refused_and_the_picker_plays_in_one_go():
    session = session_with(ALL_GREEDY)
    try:
        BotRun(session, ALL_GREEDY)
    except RuntimeError as error:
        assert "served page" in str(error)
    else:
        raise AssertionError("a BotRun off a server was made")
    picker = ActionPicker(session=session)
    assert picker.play_bots(ALL_GREEDY, then_goto=0) == len(session.log) > 0 and session.cursor == 0
    assert picker.run is None


def test_a_bots_button_fired_again_and_again_keeps_one_run_and_the_line_of_one(monkeypatch):
    """A served widget can be fired from the browser's console at will: each start stops the run before
    it (or is a stop, while one runs), so one thread at most plays, and the line is the bots' one line."""
    from panel.io.state import set_curdoc

    monkeypatch.setattr("explorer.components.picker.QUICK_BOTS", frozenset())    # (every move in a run)

    expected = session_with(ALL_GREEDY)
    expected.autoplay(ALL_GREEDY)
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with(ALL_GREEDY)
    with set_curdoc(document):
        picker = ActionPicker(session=session)
        runs = []
        for _ in range(10):
            picker.play_bots(ALL_GREEDY)
            runs.append(picker.run)
            assert sum(run.running for run in runs) == 1
        for presses in range(1, 6):          # (the button: a stop while the bots play, else a start)
            picker._on_bots_button()
            runs.append(picker.run)
            assert sum(run.running for run in {id(r): r for r in runs}.values()) == (presses % 2 == 0)
        picker._on_bots_button()
        runs.append(picker.run)
    for run in runs:
        finished(run, document, loop)
    assert picker.run.status == DONE and session.log == expected.log
    assert all(run.status == STOPPED for run in runs if run is not picker.run)


def test_a_server_plays_at_most_its_limit_of_mcts_runs_and_the_picker_says_so(monkeypatch):
    """MCTS bots take a core for minutes: pages opened one after another cannot set them all playing."""
    from panel.io.state import set_curdoc

    from explorer.components.bot_run import MAX_MCTS_RUNS_ENV, BotsBusy

    monkeypatch.setenv(MAX_MCTS_RUNS_ENV, "1")
    mcts = dict.fromkeys(range(4), "mcts")
    loop = FakeLoop()
    document = served_document(loop)
    first = BotRun(session_with(mcts, game="jump_gate"), mcts, document=document).start()
    assert first.thread.is_alive()                    # (a whole MCTS game: minutes)
    session = session_with(mcts, game="jump_gate", seed=6)
    with set_curdoc(document):
        picker = ActionPicker(session=session)
        assert picker.play_bots(mcts) == 0 and picker.run is None
    assert "limit of MCTS games playing at once (1) is reached" in picker.message and picker.alert.visible
    greedy = BotRun(session_with(ALL_GREEDY), ALL_GREEDY, document=document).start()   # other bots: not counted
    refused = BotRun(session, mcts, document=document)
    try:
        refused.start()
    except BotsBusy as busy:
        assert busy.limit == 1 and refused.status == STOPPED and not refused.thread.is_alive()
    else:
        raise AssertionError("a second MCTS run started")
    first.stop()
    finished(first, document, loop)                   # (its thread has ended: its place is free)
    finished(greedy, document, loop)
    again = BotRun(session, mcts, document=document).start()
    again.stop()
    finished(again, document, loop)
    assert session.log == [] and again.status == STOPPED
    monkeypatch.setenv(MAX_MCTS_RUNS_ENV, "0")
    try:
        BotRun(session, mcts, document=document).start()
    except BotsBusy as busy:
        assert busy.limit == 0
    else:
        raise AssertionError("an MCTS run started where none may")
    with set_curdoc(document):
        assert picker.play_bots(mcts) == 0
    assert picker.message == "The bots did not start: this server plays no games of MCTS bots. Choose other bots."



def test_quick_bots_answer_a_move_at_once_and_mcts_bots_never_play_on_the_loop():
    """Greedy answers to a person's move reach the page with the move (no run, one change of the page,
    as before: a run's button flashed "Stop the bots" on every move); what a quick part leaves, and any
    MCTS move, is played in a run, and the line is the same."""
    from panel.io.state import set_curdoc

    dealt = session_with({})
    starts = dealt.spec.to_move(dealt.state)[0]
    seats = {seat: "human" if seat == starts else "greedy" for seat in range(4)}
    expected = session_with(seats)
    loop = FakeLoop()
    document = served_document(loop)
    session = session_with(seats)
    with set_curdoc(document):
        picker = ActionPicker(session=session)
        answered = False
        while not answered:                          # the person's moves, up to the end of their turn
            move = expected.spec.legal_actions(expected.state, starts)[0]
            answered = expected.play_on(starts, move) > 0
            before = len(session.log)
            assert picker.select(starts, move) and picker.confirm()
            assert len(session.log) >= before + 1 + answered    # the move, and at least one answer at once
            if picker.run is not None and picker.run.running:    # (a machine so busy that greedy moves took 50 ms)
                finished(picker.run, document, loop)
            assert session.log == expected.log and picker.message == ""

    mcts = {0: "mcts", 1: "mcts"}
    session = session_with(mcts, players=2)
    with set_curdoc(document):
        picker = ActionPicker(session=session)
        assert picker.play_bots(mcts) == 0 and session.log == [] and picker.run.running
        picker.stop_bots()
    finished(picker.run, document, loop)



def test_then_goto_puts_the_cursor_there_and_the_run_leaves_it_there(monkeypatch):
    from panel.io.state import set_curdoc

    monkeypatch.setattr("explorer.components.picker.QUICK_BOTS", frozenset())    # (every move in a run)
    expected = session_with(ALL_GREEDY)
    expected.autoplay(ALL_GREEDY)
    session = session_with({})
    for seat, action in expected.log[:4]:
        session.play(seat, action)           # (four moves by hand: then the bots from step 4)
    loop = FakeLoop()
    document = served_document(loop)
    with set_curdoc(document):
        picker = ActionPicker(session=session)
        assert picker.play_bots(ALL_GREEDY, then_goto=2) == 0 and session.cursor == 2
    finished(picker.run, document, loop)
    assert picker.run.status == DONE and session.log == expected.log and session.cursor == 2
