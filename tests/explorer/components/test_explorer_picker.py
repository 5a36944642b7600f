"""The action picker, the "played by" selectors and the timeline's keyboard/log components, without a browser.

Every check compares the picker with the rules themselves (``spec.to_move``, ``spec.legal_actions``):
the picker must offer exactly what the rules allow, to exactly the seats a person plays and the
viewer may act for. Clicks are simulated the way a browser's click reaches the server
(``button.clicks += 1``); the JS components' messages are fed to their ``_handle_msg``.
"""

from __future__ import annotations

import re

import panel as pn
import pytest
from bokeh.document import Document

from explorer.pages.app import ExplorerApp, bot_session
from explorer.components.picker import ActionPicker
from explorer.core.session import GameSession
from tests.helpers.explorer_app import Zones
from tests.helpers.seeded_games import autoplay_as_before

SEED = 11


def click(widget: pn.widgets.Button) -> None:
    widget.clicks += 1          # what a browser click does on the server




def human_game(seed: int = SEED, players: int = 4, **variants) -> GameSession:
    """Player 1 played by a person, the others by the greedy bot, the bots' first turns played."""
    session = GameSession(game="subastral", players=players, seed=seed, variants=variants)
    session.seat_players = {0: "human", **{seat: "greedy" for seat in range(1, players)}}
    session.advance_bots()
    return session


def choose(picker: ActionPicker, action) -> None:
    """Click the button of ``action``, as the browser reports it (index and list version)."""
    index = [offered for _, offered in picker.choices].index(action)
    picker.buttons._handle_msg({"select": index, "version": picker.buttons.version})


def cloud_classes(html: str, number: int) -> list[str]:
    return re.search(rf'<div class="([^"]*)" data-cloud="{number}"', html).group(1).split()


def disturbance_step(session: GameSession) -> int:
    """The first step of a finished line where several seats must decide at once."""
    spec = session.spec
    return next(step for step in range(len(session.log) + 1) if len(spec.to_move(session.state_at(step))) > 1)


# ------------------------------------------------------------------ what is offered


def test_the_buttons_are_the_legal_actions_of_the_seat_to_move_at_every_step():
    session = GameSession(game="subastral", players=4, seed=SEED)     # every seat played by a person
    autoplay_as_before(session, "greedy", then_goto=0)
    picker = ActionPicker(session=session)
    spec = session.spec
    for step in range(len(session.log) + 1):
        session.goto(step)
        movers = spec.to_move(session.state)
        if not movers:
            assert picker.mode == "over" and picker.choices == []
            continue
        seat = movers[0]
        expected = list(spec.legal_actions(session.state, seat))
        assert picker.mode == "choose" and picker.acting_seat == seat
        assert picker.offers() == [(seat, action) for action in expected], f"step {step}"
        assert picker.labels() == [spec.action_label(action, "en") for action in expected]


def test_buttons_are_grouped_by_the_kind_of_action():
    session = human_game()
    picker = ActionPicker(session=session)
    assert [g["kind"] for g in picker.buttons.groups] == ["play"]
    assert [g["title"] for g in picker.buttons.groups] == ["Play a card"]
    choose(picker, picker.offers()[0][1])
    click(picker.confirm_button)
    assert [g["kind"] for g in picker.buttons.groups] == ["take"]
    assert all(label.startswith("take cloud ") for label in picker.labels())


# ------------------------------------------------------------------ select, preview, confirm


def test_select_previews_the_target_cloud_and_confirm_plays_it():
    session = human_game()
    app = ExplorerApp(session=session)
    picker, spec = app.picker, session.spec
    seat, play = picker.offers()[0]
    assert seat == 0 and str(play).startswith("play ")
    length = len(session.log)

    choose(picker, play)
    assert session.selected_action == spec.encode_action(play)
    assert len(session.log) == length, "selecting must not play"
    assert picker.buttons.selected == 0 and not picker.confirm_button.disabled
    cloud = spec.card_info(session.state, play.card)["number"]
    html = app.board.html()
    zones = Zones(html)
    assert "target" in cloud_classes(html, cloud)
    assert [n for n in range(1, 7) if "target" in cloud_classes(html, n)] == [cloud]
    assert zones.cards[f"cloud-{cloud}"] == session.observation(None)["clouds"][cloud - 1], "the ghost is no card"
    assert f'data-preview-card="{play.card}"' in html
    assert "Selected, not yet played: play " in zones.text["preview-line"]
    assert zones.cards["selected"] == [play.card]

    click(picker.confirm_button)
    assert session.log[length] == (0, play) and session.cursor == length + 1
    assert session.selected_action is None and "preview-line" not in app.board.html()
    assert picker.mode == "choose" and picker.acting_seat == 0       # step 2 of the same turn: take a cloud


def test_a_take_lights_the_cloud_and_where_its_cards_go_then_the_bots_answer():
    session = human_game()
    app = ExplorerApp(session=session)
    picker, spec = app.picker, session.spec
    choose(picker, picker.offers()[0][1])
    click(picker.confirm_button)
    take = next(action for _, action in picker.offers() if action.to == "journal")
    choose(picker, take)
    html = app.board.html()
    assert [n for n in range(1, 7) if "target" in cloud_classes(html, n)] == [take.cloud]
    assert 'journal journal-seat-0 destination' in html and 'hand hand-seat-0 destination' not in html
    length = len(session.log)
    click(picker.confirm_button)
    assert session.log[length] == (0, take)
    # an open-column choice may follow; then the bots play until Player 1 must play again
    while spec.to_move(session.state) == (0,) and picker.offers()[0][1].__class__.__name__ == "OpenColumn":
        picker.click(0)
        click(picker.confirm_button)
    assert len(session.log) > length + 1, "the bots answered"
    assert {seat for seat, _ in session.log[length + 1:]} - {0}
    assert spec.to_move(session.state) == (0,) and picker.mode == "choose"
    assert str(picker.offers()[0][1]).startswith("play ")


def test_cancel_drops_the_selection():
    session = human_game()
    picker = ActionPicker(session=session)
    picker.click(1)
    assert session.selected_action is not None and picker.buttons.selected == 1
    click(picker.cancel_button)
    assert session.selected_action is None and picker.selected is None
    assert picker.confirm_button.disabled and picker.buttons.selected == -1


def test_moving_the_cursor_drops_a_selection():
    session = human_game()
    picker = ActionPicker(session=session)
    picker.click(0)
    session.undo()
    assert session.selected_action is None and picker.selected is None


# ------------------------------------------------------------------ who may act


def test_viewing_as_a_seat_offers_only_that_seats_actions():
    session = GameSession(game="subastral", players=4, seed=SEED)     # every seat played by a person
    autoplay_as_before(session, "greedy", then_goto=0)
    picker = ActionPicker(session=session)
    spec = session.spec
    session.viewing_seat = 1
    offered_steps = 0
    for step in range(0, len(session.log) + 1):
        session.goto(step)
        movers = spec.to_move(session.state)
        if 1 in movers:
            offered_steps += 1
            assert picker.mode == "choose"
            assert picker.offers() == [(1, a) for a in spec.legal_actions(session.state, 1)]
        elif movers:
            assert picker.mode == "person" and picker.offers() == []
            assert picker.view_as_button.visible
    assert offered_steps > 5
    session.viewing_seat = None
    session.goto(0)
    assert picker.offers() and picker.acting_seat == spec.to_move(session.state)[0]


def test_a_seat_played_by_a_bot_is_offered_to_nobody():
    session = human_game()
    picker = ActionPicker(session=session)
    session.viewing_seat = 2                           # a bot's seat
    assert picker.mode == "person" and picker.offers() == []
    session.viewing_seat = None
    session.goto(0)                                     # the deal: Player 4 (a bot) starts
    assert picker.mode == "bots" and picker.offers() == []


def test_the_hidden_act_for_buttons_are_left_alone_as_turns_go_by():
    """With one seat to act for, the "Act for" buttons stay hidden and unchanged as turns go by: new
    labels on a hidden group made the page redraw it and lay itself out at every change of turn."""
    session = human_game()
    picker = ExplorerApp(session=session).picker
    changes = []
    picker.act_for.param.watch(lambda *events: changes.extend(event.name for event in events), ["options", "value", "visible"])
    for _ in range(4):
        choose(picker, picker.choices[0][1])
        click(picker.confirm_button)
    assert len(session.log) > 8 and changes == [] and not picker.act_for.visible


def test_the_disturbance_pass_lets_the_teacher_choose_which_seat_to_act_for():
    session = GameSession(game="subastral", players=4, seed=3, variants={"disturbance": True})
    autoplay_as_before(session, "greedy")
    spec = session.spec
    session.goto(disturbance_step(session))
    movers = spec.to_move(session.state)
    assert len(movers) == 3                             # seed 3: three seats still hold cards
    humans = [movers[0], movers[-1]]                    # the one between is a bot
    session.seat_players = {seat: ("human" if seat in humans else "greedy") for seat in range(4)}
    app = ExplorerApp(session=session)
    picker = app.picker
    assert picker.act_for.visible and list(picker.act_for.options.values()) == humans
    assert picker.acting_seat == humans[0]
    assert picker.offers() == [(humans[0], a) for a in spec.legal_actions(session.state, humans[0])]

    picker.act_for.value = humans[1]
    assert picker.acting_seat == humans[1]
    offers = picker.offers()
    assert offers == [(humans[1], a) for a in spec.legal_actions(session.state, humans[1])]
    assert all(str(a).startswith("pass ") for _, a in offers)
    step = session.cursor
    choose(picker, offers[0][1])
    click(picker.confirm_button)
    assert session.log[step] == offers[0] and session.cursor == step + 1
    # the other person has not passed yet, so the bots wait for them
    assert humans[0] in spec.to_move(session.state)
    assert not picker.act_for.visible and picker.acting_seat == humans[0]

    session.viewing_seat = humans[1]                     # has passed: nothing left to do
    assert picker.offers() == [] and picker.mode == "person"
    session.viewing_seat = humans[0]
    assert [s for s, _ in picker.offers()] == [humans[0]] * len(picker.offers())
    picker.click(0)
    click(picker.confirm_button)
    assert session.log[-1][0] == movers[1], "the bot passed once no person was left to decide"
    assert spec.is_over(session.state) and picker.mode == "over"
    assert len(session.branches) == 1                   # a new line from the disturbance step


def test_the_bots_turn_says_whose_it_is_and_lets_the_bots_play():
    session = human_game()
    session.goto(0)                                     # the deal: the bots have not played yet
    picker = ActionPicker(session=session)
    start = session.spec.to_move(session.state)[0]
    assert picker.mode == "bots"
    assert f"Player {start + 1} (greedy bot) is to move" in picker.status.object
    assert picker.bots_button.visible and not picker.take_seat.visible
    click(picker.bots_button)
    assert session.spec.to_move(session.state) == (0,) and picker.mode == "choose"


def test_a_stale_click_is_shown_never_raised():
    session = human_game()
    picker = ActionPicker(session=session)
    shown = picker.buttons.version
    session.undo()                                      # the page moved on; its old buttons are stale
    picker.buttons._handle_msg({"select": 0, "version": shown})
    assert picker.selected is None and "no longer shows" in picker.message
    assert picker.alert.visible and session.selected_action is None
    session.redo()
    # an action that is no longer legal (e.g. from a notebook holding an old list)
    old_seat, old_action = picker.offers()[0]
    session.undo()
    assert picker.select(old_seat, old_action) is False
    assert "not a move Player 1 can make here" in picker.message
    session.redo()
    # a selection made illegal behind the picker's back: the rules' reason is shown
    seat, action = picker.offers()[0]
    picker.select(seat, action)
    picker._selected = (seat, type(action)(card="chaparral-6"))
    assert picker.confirm() is False
    assert picker.message.startswith("Not played: ") and "rule" in picker.message
    assert picker.alert.visible and session.cursor == len(session.log)


def test_an_unchanged_list_is_not_sent_again_and_a_new_one_is_sent_once():
    """Every list sent redraws the page's buttons (a click in flight then misses): only a new one is sent."""
    session = human_game()
    picker = ActionPicker(session=session)
    sent = []
    picker.buttons.param.watch(lambda *events: sent.append(sorted(e.name for e in events)), ["groups", "version"])
    version, offers = picker.buttons.version, picker.offers()
    session.seat_players = {**session.seat_players, 2: "random"}       # another seat's bot: the same choices
    assert picker.select(0, type(offers[0][1])(card="chaparral-6")) is False   # a refused click redraws
    assert sent == [] and picker.buttons.version == version and picker.offers() == offers
    picker.buttons._handle_msg({"select": 0, "version": version})       # the page's list is still this one
    assert picker.selected == offers[0] and picker.message == ""
    click(picker.confirm_button)                                        # a new position: one message
    assert sent == [["groups", "version"]] and picker.buttons.version == version + 1


# ------------------------------------------------------------------ taking a seat


def test_one_click_takes_a_seat_in_a_bot_game():
    app = ExplorerApp(session=bot_session(seed=SEED))
    session, picker = app.session, app.picker
    assert picker.mode == "bots" and picker.take_seat.visible
    take = [b for b in picker.take_seat.objects if isinstance(b, pn.widgets.Button)]
    assert [b.label for b in take] == [f"Play as Player {n}" for n in range(1, 5)]
    click(take[1])
    assert session.controller(1) == "human" and session.viewing_seat == 1
    assert session.spec.to_move(session.state) == (1,) and picker.mode == "choose"
    assert all(seat == 1 for seat, _ in picker.offers())
    assert app.seat_controllers.selectors[1].value == "human"


@pytest.mark.parametrize("lang, intro, label", [("en", "Every seat is played by a bot.", "Play as Player 1"),
                                                  ("ja", "すべての席をボットがプレイしています。", "プレイヤー1としてプレイ")])
def test_the_take_a_seat_line_speaks_the_pages_language(lang, intro, label):
    app = ExplorerApp(session=bot_session(seed=SEED), lang=lang)
    intro_pane, first = app.picker.take_seat.objects[:2]
    assert intro in intro_pane.object and first.label == label
    if lang == "ja":
        assert "Every seat" not in intro_pane.object


def test_new_game_as_player_1_starts_at_player_1s_first_decision():
    app = ExplorerApp(session=bot_session(seed=SEED))
    session = app.session
    click(app.controls["new_game_human"])
    assert session.seat_players == {0: "human", 1: "greedy", 2: "greedy", 3: "greedy"}
    assert session.viewing_seat == 0 and session.cursor == len(session.log)
    assert session.spec.to_move(session.state) == (0,) and app.picker.mode == "choose"
    assert session.branches == []


def test_played_by_selectors_and_seat_players_follow_each_other():
    app = ExplorerApp(session=bot_session(seed=SEED))
    session, selectors = app.session, app.seat_controllers.selectors
    assert [s.value for s in selectors.values()] == ["greedy"] * 4
    selectors[2].value = "random"
    assert session.seat_players[2] == "random" and session.controller(2) == "random"
    selectors[0].value = "human"
    assert session.controller(0) == "human"
    session.seat_players = {0: "greedy", 1: "human", 2: "greedy", 3: "greedy"}
    assert [s.value for s in selectors.values()] == ["greedy", "human", "greedy", "greedy"]
    app.controls["players"].value = 3
    assert list(app.seat_controllers.selectors) == [0, 1, 2]


# ------------------------------------------------------------------ keyboard and log (JS components)


def test_the_keyboard_components_messages_move_the_cursor():
    app = ExplorerApp(session=bot_session(seed=SEED))
    session, keys = app.session, app.stepper.keys
    keys._handle_msg({"key": "ArrowRight"})
    keys._handle_msg({"key": "ArrowRight"})
    assert session.cursor == 2
    keys._handle_msg({"key": "ArrowLeft"})
    assert session.cursor == 1
    keys._handle_msg({"key": "End"})
    assert session.cursor == len(session.log)
    keys._handle_msg({"key": "ArrowRight"})             # past the end: nothing
    assert session.cursor == len(session.log)
    keys._handle_msg({"key": "Home"})
    assert session.cursor == 0
    for junk in ({"key": "a"}, {}, None, "ArrowRight", {"key": None}):
        keys._handle_msg(junk)
    assert session.cursor == 0 and app.controls["step"].value == 0


def test_a_slider_value_forged_past_either_end_goes_back_to_the_step_shown(caplog):
    """The step slider's value set from the browser's console: -5 (or past the last step) raised in
    goto, into the server's log, and the slider stayed at -5. Now nothing moves and it shows the step."""
    app = ExplorerApp(session=bot_session(seed=SEED))
    session, slider = app.session, app.controls["step"]
    session.goto(3)
    state = session.state
    for forged in (-5, len(session.log) + 1, 10 ** 9):
        slider.value = forged
        assert session.cursor == 3 and session.state is state and slider.value == 3
    slider.value = 1                                      # the slider still works
    assert session.cursor == 1
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_a_click_on_a_log_line_jumps_there():
    app = ExplorerApp(session=bot_session(seed=SEED))
    session, log_list = app.session, app.log_view.list
    log_list._handle_msg({"goto": 9})
    assert session.cursor == 9 and log_list.current == 9
    assert Zones(app.log_view.html()).text["current"].startswith("Step 9")
    for junk in ({"goto": len(session.log) + 1}, {"goto": -1}, {"goto": "3"}, {"goto": 2.0}, {}, None):
        log_list._handle_msg(junk)
    assert session.cursor == 9


def test_the_log_lines_are_sent_once_per_line_not_per_step():
    app = ExplorerApp(session=bot_session(seed=SEED))
    session, log_list = app.session, app.log_view.list
    content, recent = log_list.content, log_list.recent
    for _ in range(5):
        session.redo()
    assert log_list.content is content and log_list.recent is recent and log_list.current == 5
    session.viewing_seat = 2
    assert log_list.lines != content + recent


def test_every_component_renders_to_bokeh_models():
    app = ExplorerApp(session=human_game())
    doc = Document()
    for obj in app.template.main.objects + app.template.sidebar.objects:
        pn.panel(obj).get_root(doc)
    app.picker.click(0)
    click(app.picker.confirm_button)
    assert app.picker.mode == "choose"



def test_more_seats_in_a_bot_game_are_bots_too():
    app = ExplorerApp(session=bot_session(seed=SEED))
    app.controls["players"].value = 5
    assert app.session.seat_players == {seat: "greedy" for seat in range(5)}
    assert [s.value for s in app.seat_controllers.selectors.values()] == ["greedy"] * 5
    assert app.picker.mode == "bots" and "(greedy bot) is to move" in app.picker.status.object


if __name__ == "__main__":          # pragma: no cover
    pytest.main([__file__, "-q"])


def test_the_game_over_line_reads_the_winners_and_scores_from_the_pages_observation(monkeypatch):
    """Scores are public and decided in the rules: the picker's last line shows the observation's, it
    asks the spec nothing about the final state."""
    session = GameSession(game="subastral", players=3, seed=2)
    session.autoplay("greedy")
    view = session.view()
    assert not view["to_move"] and view["winners"]
    spec = type(session.spec)
    for question in ("winners", "scores"):
        monkeypatch.setattr(spec, question, lambda self, state: pytest.fail("the picker asked the spec"))
    picker = ActionPicker(session=session)
    assert picker.mode == "over"
    for seat in view["winners"]:
        assert f"Player {seat + 1} ({view['scores'][seat]} pts)" in picker.status.object


@pytest.mark.parametrize("lang, said", [
    ("en", "Player 1, Player 2 and Player 3 (each a greedy bot) are to move."),
    ("ja", "プレイヤー1、プレイヤー2とプレイヤー3（いずれも貪欲ボット）の番です。")])
def test_seats_choosing_at_once_are_listed_once_with_their_bot(lang, said):
    """"Player 1 (greedy bot) and Player 2 (greedy bot) and Player 3 (greedy bot) are to move.": the
    seats are listed as a list is, their bot named once when they share it."""
    session = GameSession(game="starligned", players=3, seed=1)        # phase 1: every seat chooses at once
    session.seat_players = {seat: "greedy" for seat in range(3)}
    picker = ActionPicker(session=session, lang=lang)
    assert said in re.sub(r"<[^>]+>", "", picker.status.object)
    session.seat_players = {0: "greedy", 1: "random", 2: "greedy"}     # (bots of two kinds: each named)
    picker = ActionPicker(session=session, lang=lang)
    assert re.sub(r"<[^>]+>", "", picker.status.object) == (
        "Player 1 (greedy bot), Player 2 (random bot) and Player 3 (greedy bot) are to move." if lang == "en" else
        "プレイヤー1（貪欲ボット）、プレイヤー2（ランダムボット）とプレイヤー3（貪欲ボット）の番です。")


def test_a_reason_that_quotes_a_card_file_is_shown_as_its_text():
    """The picker's message is Markdown: a card file's words in a reason (the bots failed, the file
    deals no game) show as their characters, a name written as a link or as HTML too."""
    from rules.protocol import RulesError

    picker = ActionPicker(session=GameSession(game="subastral", players=2, seed=1))
    picker._say_bots_failed(RulesError("the [lion](http://evil.example) <b>roars</b>"))
    assert "the \\[lion\\](http\\://evil\\.example) &lt;b&gt;roars&lt;/b&gt;" in picker.message, picker.message
    assert "<b>" not in picker.message and "[lion](" not in picker.message
