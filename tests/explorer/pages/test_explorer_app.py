"""The explorer app without a browser: build it, drive its widgets in Python, read the board's HTML.

The board is checked against the engine's own state (``state.clouds``, ``state.hands``): the HTML
is parsed and each CSS-classed zone (``cloud-<n>``, ``hand-seat-<s>``, ``journal-seat-<s>``) is
read on its own, because the same card name may rightly lie on a cloud and in a hand.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import panel as pn
import pytest
from bokeh.document import Document

import rules
from explorer.pages.app import TEACHER, ExplorerApp, addressed_session, bot_session, create_app, next_seed
from explorer.boards.subastral import SubastralBoard, subastral_html
from explorer.core.i18n import literal
from explorer.core.session import GameSession
from explorer.components.timeline import RECENT_LINES, EventLog
from tests.helpers.explorer_app import Zones
from tests.helpers.served import switch_address

SEED = 12  # a greedy game that ends with cards in hand (the disturbance tests pass them)


def names(state, kinds) -> list[str]:
    return [state.cards.card_name(kind) for kind in kinds]


@pytest.fixture
def app() -> ExplorerApp:
    return ExplorerApp(session=_played_session())


def _played_session() -> GameSession:
    session = GameSession(game="subastral", players=4, seed=SEED)
    session.autoplay("greedy", then_goto=0)
    return session


def click(widget: pn.widgets.Button) -> None:
    widget.clicks += 1          # what a browser click does on the server


# ------------------------------------------------------------------ the page


def test_create_app_returns_a_template_with_a_bot_played_game_at_step_0():
    template = create_app()
    assert isinstance(template, pn.template.BaseTemplate)
    app = template.explorer
    session = app.session
    assert session.game == "subastral" and session.players == 4
    assert len(session.log) > 0 and session.cursor == 0
    assert session.spec.is_over(session.state_at(len(session.log)))
    zones = Zones(app.board.html())
    assert "Step 0 / " in zones.text["step-counter"]
    assert "assumed" in zones.text["provenance"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_one_step_counter_per_page(lang):
    """The board says "Step 5 / 80" ("5手目 / 全80手"); the slider above it and the picker's note do
    not count again (there were three counters: "Step: 5", "You are at step 5 of 80", the board's)."""
    app = create_app().explorer if lang == "en" else ExplorerApp(session=bot_session(), lang=lang)
    session = app.session
    session.goto(5)
    moves = len(session.log)
    slider = app.controls["step"]
    assert slider.show_value is False and not slider.label
    zones = Zones(app.board.html())
    assert str(moves) in zones.text["step-counter"] and "5" in zones.text["step-counter"]
    assert app.picker.note.visible and not re.search(rf"\b{moves}\b", app.picker.note.object), app.picker.note.object


def test_each_app_has_its_own_session_and_widgets():
    first, second = create_app().explorer, create_app().explorer
    assert first.session is not second.session
    assert first.controls["forward"] is not second.controls["forward"]
    click(first.controls["forward"])
    assert first.session.cursor == 1 and second.session.cursor == 0


# ------------------------------------------------------------------ stepping


def test_stepper_buttons_move_the_cursor_and_redraw_the_board(app):
    session, c = app.session, app.controls
    moves = len(session.log)
    assert c["start"].disabled and c["back"].disabled and not c["forward"].disabled
    for _ in range(3):
        click(c["forward"])
    assert session.cursor == 3 and c["step"].value == 3
    assert "Step 3 / " in Zones(app.board.html()).text["step-counter"]
    click(c["back"])
    assert session.cursor == 2 and c["step"].value == 2
    click(c["end"])
    assert session.cursor == moves and c["forward"].disabled and c["end"].disabled
    assert "Game over" in Zones(app.board.html()).text["to-move-line"]
    click(c["start"])
    assert session.cursor == 0


def test_the_slider_moves_the_cursor(app):
    app.controls["step"].value = 12
    assert app.session.cursor == 12
    assert app.session.state is app.session.state_at(12)
    assert app.controls["step"].end == len(app.session.log)


def test_the_board_shows_the_engines_clouds_in_order(app):
    session = app.session
    for step in (0, 1, 2, 3, 10, len(session.log)):
        session.goto(step)
        zones = Zones(app.board.html())
        state = session.state
        for number, pile in enumerate(state.clouds, start=1):
            assert zones.cards[f"cloud-{number}"] == names(state, pile), f"cloud {number} at step {step}"
        deck = session.observation(None)["deck"]
        assert f"Deck: {deck['count']} cards" in zones.text["deck"]


def test_a_move_changes_the_clouds_on_the_board(app):
    before = {n: Zones(app.board.html()).cards[f"cloud-{n}"] for n in range(1, 7)}
    for _ in range(3):
        click(app.controls["forward"])
    after = {n: Zones(app.board.html()).cards[f"cloud-{n}"] for n in range(1, 7)}
    assert before != after


def test_journals_show_the_engines_columns(app):
    session = app.session
    session.goto(len(session.log))
    html = app.board.html()
    zones = Zones(html)
    for seat, journal in enumerate(session.state.journals):
        expected = [name for column in journal for name in names(session.state, column)]
        assert zones.cards[f"journal-seat-{seat}"] == expected


# ------------------------------------------------------------------ who sees what


def test_teacher_view_shows_every_hand(app):
    session = app.session
    for step in (0, 5, 20):
        session.goto(step)
        zones = Zones(app.board.html())
        for seat, hand in enumerate(session.state.hands):
            assert Counter(zones.cards[f"hand-seat-{seat}"]) == Counter(names(session.state, hand))


@pytest.mark.parametrize("viewer", [1, 0, 3])
def test_a_seat_sees_its_own_hand_and_no_other_hand_cards(app, viewer):
    session, c = app.session, app.controls
    c["view_as"].value = viewer
    assert session.viewing_seat == viewer
    for step in range(0, len(session.log) + 1, 7):
        session.goto(step)
        zones = Zones(app.board.html())
        state = session.state
        assert Counter(zones.cards[f"hand-seat-{viewer}"]) == Counter(names(state, state.hands[viewer]))
        for seat, hand in enumerate(state.hands):
            if seat == viewer:
                continue
            assert zones.cards[f"hand-seat-{seat}"] == [], f"seat {seat}'s hand shown to seat {viewer} at step {step}"
            assert zones.backs[f"hand-seat-{seat}"] == len(hand)


def test_a_seats_page_holds_only_its_observation(app):
    """Nothing on the page (board or log) names a card another seat drew unseen."""
    session = app.session
    app.controls["view_as"].value = 1
    session.goto(len(session.log))
    secret = [e.text for step in range(len(session.log) + 1) for e in session.spec.events(session.state_at(step))
              if e.visible_to is not None and 1 not in e.visible_to]
    assert secret, "this game should have private draws"
    page = app.board.html() + app.log_view.html()
    for text in secret:
        assert text not in page
    app.controls["view_as"].value = TEACHER
    assert session.viewing_seat is None
    teacher_page = app.board.html() + app.log_view.html()
    assert any(text in teacher_page for text in secret)


def test_the_event_log_lists_every_step_and_marks_the_cursor(app):
    session = app.session
    session.goto(6)
    zones = Zones(app.log_view.html())
    assert zones.text["current"].startswith("Step 6")
    html = app.log_view.html()
    for step in range(len(session.log) + 1):
        assert f'data-step="{step}"' in html
    assert zones.text["future"].startswith("Step 7")
    assert html.count('class="step future"') == len(session.log) - 6


def test_a_move_sends_the_log_s_latest_lines_and_the_whole_log_only_now_and_then():
    """A long game's log is not sent whole at every move (at the end of a Jump Gate game it is ~350 kB):
    a move adds its lines to ``recent``, and the whole log (``content``) is sent again once every
    RECENT_LINES steps. The page still holds every line."""
    session = GameSession(game="jump_gate", players=4, seed=SEED)
    log_view = EventLog(session=session)
    played, rng = GameSession(game="jump_gate", players=4, seed=SEED), random.Random(SEED)
    spec = played.spec
    for _ in range(5 * RECENT_LINES):
        seat = spec.to_move(played.state)[0]
        played.play(seat, spec.encode_action(rng.choice(spec.legal_actions(played.state, seat))))
    moves = played.log
    assert len(moves) > 4 * RECENT_LINES
    sent = []
    log_view.list.param.watch(lambda *events: sent.extend((event.name, event.new) for event in events),
                              ["content", "recent"])
    for step in range(len(moves)):
        session.follow(moves[step:step + 1], [played.state_at(step + 1)])
        assert log_view.list.lines == log_view.lines()
    wholes = [value for name, value in sent if name == "content"]
    assert len(wholes) <= len(moves) // RECENT_LINES + 1
    assert all(value.count('class="step"') <= RECENT_LINES + 1 for name, value in sent if name == "recent")
    assert sum(map(len, (value for _, value in sent))) < len(moves) * len(log_view.list.lines) / 8


def test_the_event_log_grows_by_the_new_steps_and_reads_as_if_drawn_afresh():
    """Moves played at the end of the line add their steps' lines; any other change redraws the log.
    Either way the log holds what a log drawn from nothing would hold."""
    session = GameSession(game="subastral", players=3, seed=SEED)
    log_view = EventLog(session=session)
    played = GameSession(game="subastral", players=3, seed=SEED)
    played.autoplay("greedy", until_over=False)
    for _ in range(6):
        played.autoplay("greedy", until_over=False)
    moves, states = played.log, [played.state_at(step) for step in range(1, len(played.log) + 1)]
    session.follow(moves[:1], states[:1])
    session.follow(moves[1:4], states[1:4])                 # several at once
    assert log_view.list.lines == log_view.lines()
    session.viewing_seat = 1                                 # another point of view: redrawn
    session.follow(moves[4:], states[4:])
    assert log_view.list.lines == log_view.lines() == EventLog(session=session).list.lines
    assert log_view.list.lines.count('class="step"') == len(moves) + 1
    session.goto(2)
    session.play_on(*moves[2])                               # the same move again: the line is unchanged
    session.goto(2)
    other = next(a for a in session.spec.legal_actions(session.state, moves[2][0]) if a != moves[2][1])
    session.play_on(moves[2][0], other)                      # a new line from step 2: redrawn
    assert log_view.list.lines == log_view.lines()
    assert log_view.list.lines.count('class="step"') == 4


# ------------------------------------------------------------------ set-up widgets


def test_the_variant_switch_replays_the_log_under_the_new_rules(app):
    session = app.session
    log = session.log
    app.controls["variant:disturbance"].value = True
    assert session.variants == {"disturbance": True}
    assert session.log == log
    session.goto(len(log))
    assert session.state.phase == "disturbance"


def test_changing_players_deals_a_new_game_and_updates_view_as(app):
    session = app.session
    app.controls["view_as"].value = 3
    app.controls["players"].value = 3
    # dealt and played through by the bots, as the default page (the cursor at the deal)
    assert session.players == 3 and session.cursor == 0 and session.spec.is_over(session.state_at(len(session.log)))
    assert list(app.controls["view_as"].options.values()) == [TEACHER, 0, 1, 2]
    assert app.controls["view_as"].value == TEACHER
    click(app.controls["new_game"])
    assert len(session.log) > 0 and session.cursor == 0
    assert not app.controls["step"].disabled
    assert len(Zones(app.board.html()).cards["hand-seat-2"]) == 3


def test_a_typed_seed_deals_that_game_played_by_the_chosen_bot(app):
    session = app.session
    app.controls["bot"].value = "random"
    app.controls["seed"].value = SEED + 1
    reference = GameSession(players=4, seed=SEED + 1)
    reference.autoplay("random")
    assert session.log == reference.log and session.cursor == 0


def test_new_game_deals_a_new_seed_shown_in_the_seed_field(app):
    session = app.session
    app.controls["bot"].value = "random"
    seeds = {session.seed}
    for _ in range(3):
        click(app.controls["new_game"])
        assert session.seed not in seeds and app.controls["seed"].value == session.seed
        seeds.add(session.seed)
        reference = GameSession(players=4, seed=session.seed)
        reference.autoplay("random")
        assert session.log == reference.log and session.cursor == 0
    click(app.controls["new_game_human"])
    assert session.seed not in seeds and session.viewing_seat == 0
    assert session.spec.to_move(session.state) == [0] or 0 in session.spec.to_move(session.state)
    click(app.controls["new_game"])                  # the teacher's view again, as the default page
    assert session.viewing_seat is None
    # the seeds follow one from another on every machine (next_seed): a page's new games can be replayed
    fresh = ExplorerApp(session=bot_session(seed=SEED))
    click(fresh.controls["new_game"])
    assert fresh.session.seed == next_seed(SEED) != SEED


@pytest.mark.parametrize("game", [game for game in rules.GAMES if game != "subastral"])
def test_a_game_switched_to_opens_as_the_default_page_does(app, game):
    """Played through by the bots, the cursor at the deal, every seat a bot, whatever its player count."""
    app.controls["game"].value = game
    session = app.session
    assert session.game == game and session.cursor == 0
    assert session.spec.is_over(session.state_at(len(session.log)))
    assert sorted(session.seat_players) == list(range(session.players))
    assert all(name != "human" for name in session.seat_players.values())


# ------------------------------------------------------------------ Bokeh models


def test_the_rendered_bokeh_model_follows_the_cursor(app):
    board_pane = app.board.__panel__()
    doc = Document()
    root = board_pane.get_root(doc)
    model = board_pane._models[root.ref["id"]][0]
    assert "Step 0 / " in model.text
    click(app.controls["forward"])
    assert "Step 1 / " in model.text


def test_board_html_renders_a_fresh_deal_for_every_player_count():
    for players in (2, 3, 4, 5):
        session = GameSession(players=players, seed=SEED)
        zones = Zones(SubastralBoard(session=session).html())
        assert len([cls for cls in zones.cards if cls.startswith("hand-seat-")]) == players
        html = subastral_html(session.observation(0), step=0, moves=0)
        assert Zones(html).cards["hand-seat-1"] == []


# ------------------------------------------------------------------ lines of play, replay problems, tabs


def test_a_different_move_at_a_past_step_keeps_the_old_line_to_switch_back_to(app):
    session, spec = app.session, app.session.spec
    old_log = session.log
    assert "No other lines yet" in app.branches.lines.objects[0].object
    session.goto(5)
    seat = spec.to_move(session.state)[0]
    other = next(a for a in spec.legal_actions(session.state, seat) if (seat, a) != old_log[5])
    app.picker.click(app.picker.offers().index((seat, other)))   # every seat here is played by a person
    click(app.picker.confirm_button)
    assert session.log[:5] == old_log[:5] and session.log[5] == (seat, other) and len(session.log) == 6
    assert [str(line) for line in session.branches] == [f"{len(old_log)} moves, forked after move 5"]
    assert f"{len(old_log)} moves, forked after move 5" in app.branches.lines.objects[0].objects[0].object
    assert "This line: 6 moves" in app.branches.current_line.object
    click(app.branches.switch_buttons[0])
    assert session.log == old_log and session.cursor == 5
    assert [str(line) for line in session.branches] == ["6 moves, forked after move 5"]


def test_a_variant_change_that_cuts_the_line_is_shown_until_the_old_line_is_back(app):
    session = app.session
    app.controls["variant:disturbance"].value = True
    session.goto(len(session.log))
    session.autoplay("greedy")                    # the disturbance passes
    full = session.log
    assert not app.replay_problem.alert.visible
    app.controls["variant:disturbance"].value = False
    problem = session.replay_problem
    assert problem and "illegal" in problem["text"]
    assert app.replay_problem.alert.visible and literal(problem["text"]) in app.replay_problem.alert.object   # (as its text)
    assert problem["text"] in Zones(app.board.html()).text["problem"]
    assert len(session.log) == problem["move"] - 1
    assert "played with Disturbance variant: on" in app.branches.lines.objects[0].objects[0].object
    click(app.branches.switch_buttons[-1])
    assert session.log == full and session.variants == {"disturbance": True}
    assert not app.replay_problem.alert.visible and "problem" not in Zones(app.board.html()).text


def test_further_views_are_tabs_beside_the_table(app):
    assert app.tabs._names == ["Table", "Plots & scores", "What-if setup"]
    notes = pn.pane.Markdown("notes here")
    app.add_tab("Notes", notes)
    assert app.tabs._names == ["Table", "Plots & scores", "What-if setup", "Notes"]
    assert list(app.tabs[3]) == []
    app.tabs.active = 3
    assert list(app.tabs[3]) == [notes]


def test_only_the_shown_tab_holds_its_view_and_a_hidden_one_is_drawn_afresh_when_shown_again():
    """A hidden tab's parts have no Bokeh models for Panel to update out of the page's document (an
    HTML pane updated so set the page's shared stylesheet to Panel's CDN, see _mount_shown_tab); they
    follow the session in Python and are drawn from it when their tab is shown again."""
    app = create_app().explorer
    document = Document()
    document.add_root(app.template.main[0].get_root(document))
    board = app.board.__panel__()
    assert board._models and [list(mount) != [] for mount in app.tabs] == [True, False, False]

    app.tabs.active = 1                          # the plots: the table's parts are taken out
    assert [list(mount) != [] for mount in app.tabs] == [False, True, False]
    assert not board._models and not app.log_view.list._models
    (scores, _), = app.scores.__panel__()._models.values()
    assert scores.document is document
    app.session.goto(3)                          # followed in Python, nothing to update in the page
    assert "Step 3 / " in app.board.html() and not board._models

    app.tabs.active = 0                          # drawn afresh, at the step the session is at
    assert [list(mount) != [] for mount in app.tabs] == [True, False, False]
    (model, _), = board._models.values()
    assert model.document is document and "Step 3 / " in model.text
    assert not app.scores.__panel__()._models


def test_a_stale_switch_is_reported_not_raised(app):
    app.branches.switch(3)
    assert "no longer listed" in app.branches.message and app.branches.alert.visible
    assert app.session.branches == []


def test_a_game_without_its_own_board_gets_the_observation_board(app):
    # Every registered game works in the dashboard; one without a board view shows its observation.
    from explorer.boards.registry import BOARDS, ObservationBoard
    from rules.protocol import ALL

    session = app.session
    before = app.board
    BOARDS_backup = dict(BOARDS)
    try:
        BOARDS.pop("subastral")
        app._on_game(None)           # what a change of game does
        assert isinstance(app.board, ObservationBoard) and len(app.board_slot.objects) == 1
        assert "Step 0 / " in app.board.header()
        assert session.viewing_seat is None          # the teacher's page: the all-seeing observation
        assert app.board.view() == session.observation(ALL) and app.board.view()["viewer"] == ALL
    finally:
        BOARDS.update(BOARDS_backup)
    assert before.html()             # the Subastral board still draws while the game is Subastral


def test_the_move_advisor_sits_beside_the_table_and_ranks_the_moves(app):
    session = app.session
    session.goto(5)
    app.advisor.budget = 40
    values = app.advisor.compute()
    seat = session.spec.to_move(session.state)[0]
    assert sorted(str(v.action) for v in values) == sorted(str(a) for a in session.spec.legal_actions(session.state, seat))
    assert all(v.rollouts > 0 and v.low <= v.mean <= v.high for v in values)
    assert [v.mean for v in values] == sorted((v.mean for v in values), reverse=True)
    # its chart: a plain Bokeh figure of the advisor's own, in the pane, showing the moves ranked (best on top)
    assert isinstance(app.advisor.plot, pn.pane.Bokeh) and app.advisor.plot.object is app.advisor.chart.figure
    assert app.advisor.chart.source.data["move"] == [v.label for v in reversed(values)]
    assert app.advisor.chart.figure.y_range.factors[-1] == values[0].label


def test_the_advisor_is_put_in_its_card_when_the_card_is_first_opened(app):
    """A page that never asks for advice does not build the advisor's chart and settings."""
    document = Document()
    document.add_root(app.template.main[0].get_root(document))
    before = len(document.models)
    figure = app.advisor.chart.figure
    assert app.advisor_card.objects == [] and document.get_model_by_id(figure.id) is None
    app.advisor_card.collapsed = False
    shown = list(app.advisor_card.objects)
    assert len(shown) == 1 and app.advisor.plot in shown[0].select(pn.pane.Bokeh)
    assert document.get_model_by_id(figure.id) is figure and len(document.models) > before + 20
    app.advisor_card.collapsed = True
    app.advisor_card.collapsed = False              # (shut and opened again: the same advisor)
    assert list(app.advisor_card.objects) == shown


def test_the_address_names_the_game_players_and_seed():
    session, why = addressed_session({"game": "biome_blitz", "players": "3", "seed": "7"}.get, "en")
    assert why is None and (session.game, session.players, session.seed) == ("biome_blitz", 3, 7)
    assert session.state == rules.get_game("biome_blitz").new_game(3, 7)
    session, why = addressed_session({"game": "stellar"}.get, "en")
    assert why is None and session.game == "stellar" and session.players in rules.get_game("stellar").player_counts
    assert addressed_session({}.get, "en") == (None, None)


@pytest.mark.parametrize("address, words", [
    ({"game": "chess"}, "'chess'"), ({"game": "stellar", "players": "5"}, "Stellar is played by 2 players, not '5'"),
    ({"game": "biome_blitz", "players": "two"}, "'two'"), ({"seed": "1.5"}, "'1.5'"),
    # (int() reads these: a crash before the page was built, an outside tester found)
    ({"game": "biome_blitz", "players": "\u00b2"}, "not '\u00b2'"), ({"players": "3" * 5000}, "not '" + "3" * 120 + "…'"),
    ({"seed": "9" * 4000}, "whole number from -9,007,199,254,740,991 to 9,007,199,254,740,991, not '" + "9" * 120 + "…'"),
    ({"seed": "1_000"}, "'1_000'"), ({"seed": str(2 ** 53)}, f"'{2 ** 53}'"),
])
def test_an_address_the_explorer_cannot_play_is_named_in_either_language(address, words):
    session, why = addressed_session(address.get, "en")
    assert session is None and words in why and "usual game" in why
    session, why = addressed_session(address.get, "ja")
    assert session is None and "いつものゲーム" in why


@pytest.mark.parametrize("game", rules.GAMES)
def test_the_final_scores_show_under_the_board_at_the_end_only(game):
    app = ExplorerApp(session=bot_session(game=game, seed=3))
    session, final = app.session, app.final_scores
    assert not final.__panel__().visible and final._pane.object == ""       # not drawn before the end
    session.goto(len(session.log))
    assert final.__panel__().visible and "score-table" in final._pane.object
    totals = session.spec.scores(session.state)
    assert all(f'class="points">{total}<' in final._pane.object for total in totals), final._pane.object[:400]
    session.goto(len(session.log) - 1)
    assert not final.__panel__().visible


def test_the_advisor_sits_where_the_player_decides():
    """Under the move picker, above the board (it was below the lines of play, out of sight)."""
    app = ExplorerApp(session=bot_session())
    [column] = [c for c in app._tab_views[0].select(pn.Column) if app.advisor_card in c.objects]
    objects = list(column.objects)
    assert objects[:3] == [app.picker.__panel__(), app.advisor_card, app.board_slot]


def test_a_tab_shows_its_spinner_before_its_view_is_drawn():
    """In a served page: the spinner first (its own message), the view on the next tick."""
    from panel.io.state import set_curdoc
    from tests.helpers.served import FakeLoop, run_next_tick, served_document

    document = served_document(FakeLoop())
    with set_curdoc(document):
        app = ExplorerApp(session=bot_session())
        plots = 1
        app.tabs.active = plots
        assert list(app.tabs[plots]) == [app._drawing] and "busy" in app._drawing.css_classes   # not yet the view
        run_next_tick(document)
        assert list(app.tabs[plots]) == [app._tab_views[plots]]
        assert list(app.tabs[0]) == []                                       # the table tab let go of its view
        app.tabs.active = 2                                                  # left before it was drawn:
        app.tabs.active = plots
        assert [list(mount) for mount in app.tabs] == [[], [app._drawing], []]  # one placeholder, in one tab
        run_next_tick(document)
        run_next_tick(document)
        assert [list(mount) for mount in app.tabs] == [[], [app._tab_views[plots]], []]
    app.tabs.active = 0                                                      # (outside a server: at once)
    assert list(app.tabs[0]) == [app._tab_views[0]]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["starligned", "biome_blitz"])
def test_the_sidebar_says_what_each_switch_changes_and_links_its_source(game, lang):
    """The note under a switch gave its source in full, file names and all ("rules/starligned/rules.py
    docstring", "rules/biome_blitz/data/cards.json Matriarch"): a teacher reads what it changes, and
    the source sits on the rules page's section on the switch, linked."""
    from explorer.core.session import variant_note

    app = ExplorerApp(session=GameSession(game=game, players=2, seed=1), lang=lang)
    notes = [pane for pane in app.variant_box.objects if isinstance(pane, pn.pane.HTML)]
    switches = rules.get_game(game).variants
    assert len(notes) == len(switches)
    for note, variant in zip(notes, switches):
        shown = note.object
        assert "rules/" not in shown and "docs/" not in shown and "(source:" not in shown and "出典：" not in shown
        assert f'#switch-{variant.name}" target="rules">{"(source)" if lang == "en" else "（出典）"}</a>' in shown
        assert variant_note(game, variant.name, lang).startswith(shown.split(" <a ")[0].replace("&#x27;", "'"))


def test_a_game_for_one_player_count_says_so_instead_of_a_slider_of_one_value():
    """Stellar is for two: its player slider, from 2 to 2, showed its thumb parked at the left, as if
    broken. The set-up says "Players: 2" instead, and the slider comes back for a game with a choice."""
    app = ExplorerApp(lang="en")
    session, controls = app.session, app.controls
    assert controls["players"].visible and not controls["players_fixed"].visible
    session.game = "stellar"
    assert not controls["players"].visible and controls["players_fixed"].visible
    assert controls["players_fixed"].object == "Players: 2 (this game is for 2 players)"
    # (a slider whose ends meet is refused by Bokeh: each Stellar page logged an error on the server)
    assert controls["players"].start == 2 < controls["players"].end and controls["players"].value == 2
    session.game = "jump_gate"
    assert controls["players"].visible and not controls["players_fixed"].visible
    low, high = session.param.players.bounds
    assert (controls["players"].start, controls["players"].end) == (low, high) and low < high
    stellar = ExplorerApp(session=bot_session(game="stellar"), lang="en")
    assert stellar.controls["players"].start < stellar.controls["players"].end
    japanese = ExplorerApp(lang="ja")
    japanese.session.game = "stellar"
    assert japanese.controls["players_fixed"].object == "人数：2人（このゲームは2人用です）"


def _page(address: dict[str, str]) -> ExplorerApp:
    """The explorer page a browser gets for ``address``, served (without a server)."""
    from panel.io.state import set_curdoc
    from tests.helpers.served import FakeLoop, load_document, served_document

    document = served_document(FakeLoop(), address)
    with set_curdoc(document):
        app = create_app().explorer
    load_document(document)
    app.document = document
    return app


def test_the_language_switch_carries_the_game_played_by_hand():
    """An outside review: the 日本語 link kept only the game, so a line played by hand reopened as a
    fresh bot game. The link now names the page's game by a key; the page it opens holds a copy of
    the line, its cursor, the line kept aside, who plays each seat and the point of view, in Japanese.
    After the first page closed, its link still leads to the game as it was left."""
    from tests.helpers.carried import hand_played, line
    from tests.helpers.served import address_once_ready, close_document

    english = _page({"game": "biome_blitz", "lang": "en"})
    played = hand_played()
    english.session.load(played.replay(), cursor=5)
    english.session.param.update(branches=played.branches, seat_players=played.seat_players, bot=played.bot,
                                 viewing_seat=played.viewing_seat)
    assert len(english.session.log) == 7 and english.session.branches
    address = switch_address(english.template.language_switch.object, "ja")
    assert set(address) == {"game", "resume", "lang"} and address["lang"] == "ja"
    japanese = _page(address)
    assert japanese.lang == "ja" and line(japanese.session) == line(english.session)
    assert Zones(japanese.board.html()).text["step-counter"] == "5手目 / 全7手"
    assert not [pane for pane in japanese.template.main.objects if "resume-refused" in pane.css_classes]
    back = switch_address(japanese.template.language_switch.object, "en")
    assert back["resume"] != address["resume"]           # the Japanese page's own key: its own game from now
    # ... in its address too (a reload, a bookmark, a shared link: this page's game, not the English one's)
    assert address_once_ready(japanese.document) == f"?game=biome_blitz&resume={back['resume']}&lang=ja"
    assert address_once_ready(english.document) is None          # (opened by its own address: kept as it is)
    japanese.session.goto(0)
    assert english.session.cursor == 5
    english.session.goto(6)
    close_document(english.document)
    english.session.goto(1)                              # (a page closed: nothing changes it; the game is kept)
    again = _page(address)
    assert again.session.log == english.session.log and again.session.cursor == 6
    for page in (japanese, again):
        close_document(page.document)


def test_a_key_no_page_has_opens_the_addressed_game_and_says_why(tmp_path):
    from explorer.cardfiles import CardLibrary
    from tests.helpers.served import close_document

    cards = _served_cards_page(CardLibrary(tmp_path / "cards"))      # (a key the card editor gave: a draft, no game)
    for resume in ("A" * 22, "<img src=x onerror=alert(1)>", cards.carry_token):
        for lang, words in (("en", "does not keep for the explorer"), ("ja", "エクスプローラー用として保存されていません")):
            app = _page({"game": "stellar", "resume": resume, "lang": lang})
            [alert] = [pane for pane in app.template.main.objects if "resume-refused" in pane.css_classes]
            assert words in alert.object
            assert app.session.game == "stellar" and app.session.log and app.session.cursor == 0   # as the address asks
            close_document(app.document)
    # A refused key and a refused game: both said, both marked.
    app = _page({"game": "chess", "resume": "A" * 22, "lang": "en"})
    [alert] = [pane for pane in app.template.main.objects if "resume-refused" in pane.css_classes]
    assert "address-refused" in alert.css_classes and "does not keep" in alert.object and "'chess'" in alert.object
    close_document(app.document)
    close_document(cards.document)


def _served_cards_page(library):
    from panel.io.state import set_curdoc
    from explorer.pages.cards_page import create_page
    from tests.helpers.served import FakeLoop, served_document

    document = served_document(FakeLoop(), {"game": "biome_blitz"})
    with set_curdoc(document):
        page = create_page(library=library)
    page.document = document
    page.carry_token = switch_address(page.language_switch.object, "ja")["resume"]
    return page

