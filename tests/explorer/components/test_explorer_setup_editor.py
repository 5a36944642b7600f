"""The setup editor without a browser: fill its widgets in Python, click its buttons, read its messages.

Every refusal must leave the session exactly as it was: its replay (log, variants, start
position), its cursor and its viewed state are compared before and after.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.core.session import GameSession
from explorer.components.setup_editor import VARIANTS, SetupEditor, field_for_where, field_kind, to_json_text

ROOT = Path(__file__).resolve().parents[3]
SCORING_EXAMPLE = ROOT / "examples" / "subastral-scoring-example.json"
REPLAY_EXAMPLE = ROOT / "examples" / "subastral-4p-replay.json"
SEED = 11
STEP = 6


@pytest.fixture
def session() -> GameSession:
    session = GameSession(game="subastral", players=4, seed=SEED)
    session.autoplay(then_goto=STEP)
    return session


@pytest.fixture
def editor(session) -> SetupEditor:
    return SetupEditor(session=session)


def snapshot(session: GameSession) -> tuple:
    return json.dumps(session.replay(), sort_keys=True), session.cursor, session.state, len(session.branches)


def click(button) -> None:
    button.clicks += 1


def json_field(editor: SetupEditor, name: str):
    return json.loads(editor.fields[name].widget.value)


def set_json(editor: SetupEditor, name: str, value) -> None:
    editor.fields[name].widget.value = json.dumps(value)


def visible_errors(editor: SetupEditor) -> dict[str, str]:
    fields = {**editor.fields, VARIANTS: editor.variants_field}
    return {name: f.error.object for name, f in fields.items() if f.error.visible}


# ---------------------------------------------------------------------------- the form


def test_form_has_one_widget_per_state_field_chosen_by_json_type(editor, session):
    state = session.position()["state"]
    assert list(editor.fields) == list(state)
    kinds = {name: type(field.widget).__name__ for name, field in editor.fields.items()}
    assert kinds["players"] == "IntInput"
    assert kinds["end_triggered"] == "Checkbox"
    assert kinds["phase"] == "TextInput"
    assert kinds["last_round"] == "TextInput"          # null: empty text = null
    for zone in ("deck", "clouds", "hands", "journals", "pending", "passes"):
        assert kinds[zone] == "TextAreaInput"
        assert json_field(editor, zone) == state[zone]
    assert json.loads(editor.variants_field.widget.value) == session.position()["variants"]
    assert editor.fields["last_round"].widget.value == ""


def test_zones_are_readable_json_one_hand_and_one_cloud_per_line(editor, session):
    state = session.position()["state"]
    hands_lines = editor.fields["hands"].widget.value.splitlines()
    assert hands_lines[0] == "[" and hands_lines[-1] == "]"
    assert len(hands_lines) == len(state["hands"]) + 2
    assert editor.fields["clouds"].widget.value.splitlines()[1].startswith('  "1": [')
    assert max(map(len, editor.fields["deck"].widget.value.splitlines())) <= 80


def test_json_text_helpers_work_on_any_structure():
    assert to_json_text([]) == "[]" and to_json_text({}) == "{}"
    assert to_json_text([["a"], []]) == '[\n  ["a"],\n  []\n]'
    assert to_json_text({"x": 1, "y": [2]}) == '{\n  "x": 1,\n  "y": [2]\n}'
    long = [f"card-{i}" for i in range(40)]
    assert json.loads(to_json_text(long)) == long
    # Kinds come from the value only, so a game with other zones gets fields for them too.
    assert [field_kind(v) for v in (True, 3, 2.5, "x", None, [], {})] == [
        "bool", "int", "float", "text", "nullable", "json", "json"]
    names = {"hands", "deck", "discard"}
    assert field_for_where("state.hands[1][2]", names) == "hands"
    assert field_for_where("state.discard.3[0]", names) == "discard"
    assert field_for_where("variants", names) == VARIANTS
    assert field_for_where("position.variants", names) == VARIANTS
    assert field_for_where("state.variants", names | {"variants"}) == "variants"   # a state's own field
    assert field_for_where("state", names) is None
    assert field_for_where("position.game", names) is None
    assert field_for_where("state.unknown", names) is None
    assert field_for_where(None, names) is None


def test_unchanged_form_applies_to_the_same_position(editor, session):
    position = session.position()
    click(editor.apply_button)
    assert not visible_errors(editor) and not editor.general_error.visible
    assert session.position() == position
    assert session.cursor == 0 and session.log == [] and session.start == position


def test_editing_a_hand_and_applying_puts_that_hand_in_the_state(editor, session):
    hands, deck = json_field(editor, "hands"), json_field(editor, "deck")
    top = next(card for card in deck if card != "END")
    deck[deck.index(top)], hands[1][0] = hands[1][0], top       # swap a hand card with a deck card
    set_json(editor, "hands", hands)
    set_json(editor, "deck", deck)
    assert editor.edited
    click(editor.apply_button)
    assert not editor.general_error.visible, editor.general_error.object
    assert editor.status.visible
    assert sorted(session.position()["state"]["hands"][1]) == sorted(hands[1])
    assert sorted(session.spec.encode(session.state)["state"]["hands"][1]) == sorted(hands[1])
    assert session.position()["state"]["deck"] == deck
    assert session.cursor == 0 and session.log == [] and session.start is not None
    assert not editor.edited                                   # the form shows the new line again


def test_scalar_fields_are_read_back_with_their_types(editor, session):
    position = session.position()
    editor.fields["last_round"].widget.value = "   "
    data, problems = editor.assemble()
    assert not problems
    assert data["state"] == position["state"] and data["variants"] == position["variants"]
    assert data["game"] == position["game"] and data["version"] == position["version"]
    editor.fields["last_round"].widget.value = "4"
    assert editor.assemble()[0]["state"]["last_round"] == 4


def test_unknown_card_in_a_hand_is_shown_next_to_hands_and_changes_nothing(editor, session):
    before = snapshot(session)
    hands = json_field(editor, "hands")
    hands[1][0] = "tiaga-4"
    set_json(editor, "hands", hands)
    click(editor.apply_button)
    errors = visible_errors(editor)
    assert list(errors) == ["hands"]
    assert "unknown card" in errors["hands"] and "tiaga-4" in errors["hands"]
    assert "state.hands[1][0]" in errors["hands"]
    assert "field-error" in editor.fields["hands"].error.css_classes
    assert editor.fields["hands"].error.styles["color"]
    assert editor.general_error.visible and "Nothing changed" in editor.general_error.object
    assert not editor.status.visible
    assert snapshot(session) == before
    assert json_field(editor, "hands") == hands                # the edits stay for fixing


def test_invalid_json_in_the_deck_is_shown_next_to_deck(editor, session):
    before = snapshot(session)
    editor.fields["deck"].widget.value = '["savanna-1", "taiga-2",'
    click(editor.apply_button)
    errors = visible_errors(editor)
    assert list(errors) == ["deck"]
    assert "not valid JSON" in errors["deck"] and "line 1" in errors["deck"]
    assert "ends too early" in errors["deck"]
    assert snapshot(session) == before


def test_every_field_with_bad_json_gets_its_own_error(editor, session):
    before = snapshot(session)
    editor.fields["deck"].widget.value = "[oops]"
    editor.fields["pending"].widget.value = ""
    editor.variants_field.widget.value = "{disturbance: false}"
    assert editor.apply() is False
    errors = visible_errors(editor)
    assert set(errors) == {"deck", "pending", VARIANTS}
    assert errors["deck"].startswith("state.deck: not valid JSON")
    assert "empty" in errors["pending"]
    assert "ends too early" not in errors["deck"]
    assert snapshot(session) == before


@pytest.mark.parametrize("payload, problem", [("9" * 4400, "digits"), ("[" * 2500 + "]" * 2500, "nested more than"),
                                              ("NaN", "NaN"), ("[1e400]", "inf")])
def test_a_field_that_may_be_empty_says_what_is_wrong_with_json_past_python_s_limits(editor, session, payload, problem):
    """"Played cloud", "Taken cloud", "Last round": empty, a bare name or JSON. 4,400 digits or 2,500 nested
    lists (both under the box's 5,000 characters) raised from the field's watcher and from Apply into the
    server's log, and the page said nothing; now the field says what is wrong, and nothing changes."""
    before = snapshot(session)
    nullable = [name for name, field in editor.fields.items() if field.kind == "nullable"]
    assert nullable
    for name in nullable:
        editor.load_form()
        editor.fields[name].widget.value = payload            # (the watcher: no exception)
        assert editor.apply() is False
        errors = visible_errors(editor)
        assert set(errors) == {name} and problem in errors[name], errors
        assert snapshot(session) == before


def test_deck_without_the_end_card_is_refused_next_to_deck(editor, session):
    before = snapshot(session)
    set_json(editor, "deck", [card for card in json_field(editor, "deck") if card != "END"])
    click(editor.apply_button)
    errors = visible_errors(editor)
    assert list(errors) == ["deck"]
    assert "END" in errors["deck"]
    assert snapshot(session) == before


def test_a_bad_variant_is_shown_next_to_variants(editor, session):
    before = snapshot(session)
    editor.variants_field.widget.value = '{"disturbance": "yes"}'
    click(editor.apply_button)
    assert list(visible_errors(editor)) == [VARIANTS]
    assert snapshot(session) == before


def test_problems_of_the_whole_position_go_to_the_general_area(editor, session):
    before = snapshot(session)
    hands = json_field(editor, "hands")
    hands[0].append(hands[0][0])
    hands[0].append(hands[0][0])
    hands[0].append(hands[0][0])           # more copies than the deck has: where="state"
    set_json(editor, "hands", hands)
    click(editor.apply_button)
    assert not visible_errors(editor)
    assert editor.general_error.visible and "appears" in editor.general_error.object
    assert "field-error" in editor.general_error.css_classes
    assert snapshot(session) == before


# ---------------------------------------------------------------------------- following the session


def test_the_form_follows_the_session_until_edited(editor, session):
    hands_widget = editor.fields["hands"].widget
    session.goto(STEP + 4)
    assert editor.form_step == STEP + 4
    assert editor.fields["hands"].widget is hands_widget      # refilled, not rebuilt
    assert json_field(editor, "hands") == session.position()["state"]["hands"]
    editor.fields["round"].widget.value = 5
    assert editor.edited
    session.goto(STEP)
    assert editor.form_step == STEP + 4 and editor.fields["round"].widget.value == 5
    assert "moved on" in editor.form_note.object
    click(editor.reload_button)
    assert not editor.edited and editor.form_step == STEP
    assert editor.fields["round"].widget.value == session.position()["state"]["round"]


def test_the_editor_hides_while_viewing_as_a_seat(editor, session):
    editor.__panel__()
    assert not editor.hidden_note.visible
    session.viewing_seat = 1
    assert editor.hidden and editor.hidden_note.visible and not editor._body.visible
    assert "Player 2" in editor.hidden_note.object
    session.viewing_seat = None
    assert not editor.hidden_note.visible and editor._body.visible


def widget_values(editor: SetupEditor) -> str:
    """Every value the editor's widgets hold (what the browser is sent, shown or hidden), as one text."""
    fields = [str(field.widget.value) for field in editor.fields.values()]
    form = [str(getattr(widget, "value", "")) for widget in editor.form.widgets]
    return " ".join(fields + form + [str(editor.variants_field.widget.value)])


def test_a_hidden_editor_holds_no_card_while_viewing_as_a_seat(editor, session):
    """A hidden widget's value still reaches the browser: while the explorer shows one seat's view, the
    editor's form holds nothing of the position (an outside tester read the deck's order and every hand in
    the page's messages), nor do its downloads, which a browser can still press. It fills again on showing."""
    hand = session.position()["state"]["hands"][0]
    assert all(card in widget_values(editor) for card in hand)
    session.viewing_seat = 1
    assert not any(card in widget_values(editor) for card in hand)
    assert editor._position_download().read() == editor._replay_download().read() == ""
    session.play_on(*next((seat, session.spec.legal_actions(session.state, seat)[0])
                          for seat in session.spec.to_move(session.state)))
    assert not any(card in widget_values(editor) for card in hand)       # (stepping on fills nothing)
    session.viewing_seat = None
    assert session.position()["state"]["hands"][0][0] in widget_values(editor)
    assert json.loads(editor._position_download().read())["state"] == session.position()["state"]


# ---------------------------------------------------------------------------- files


def upload(editor: SetupEditor, data: bytes, filename: str) -> None:
    editor.upload.param.update(filename=filename, value=data)


def test_uploading_a_position_shows_it(editor, session):
    upload(editor, SCORING_EXAMPLE.read_bytes(), SCORING_EXAMPLE.name)
    assert not editor.files_error.visible, editor.files_error.object
    assert editor.files_status.visible and "position" in editor.files_status.object
    assert session.spec.scores(session.state)[0] == 78
    assert session.log == [] and session.players == 4
    assert editor.form_step == 0 and json_field(editor, "journals") == session.position()["state"]["journals"]


def test_uploading_a_replay_loads_its_moves(editor, session):
    data = json.loads(REPLAY_EXAMPLE.read_text())
    upload(editor, REPLAY_EXAMPLE.read_bytes(), REPLAY_EXAMPLE.name)
    assert not editor.files_error.visible, editor.files_error.object
    assert session.seed == data["seed"] and len(session.log) == len(data["actions"])
    assert session.replay()["actions"] == data["actions"]
    assert session.cursor == len(data["actions"])
    assert f"{len(data['actions'])} moves" in editor.files_status.object


def test_uploading_the_same_file_again_loads_it_again(editor, session):
    content = SCORING_EXAMPLE.read_bytes()
    upload(editor, content, SCORING_EXAMPLE.name)
    session.reset()                        # a fresh deal: the form follows it
    assert session.spec.scores(session.state)[0] != 78
    upload(editor, content, SCORING_EXAMPLE.name)
    assert session.spec.scores(session.state)[0] == 78


def test_uploading_truncated_json_says_so_and_changes_nothing(editor, session):
    before = snapshot(session)
    content = REPLAY_EXAMPLE.read_bytes()
    upload(editor, content[: len(content) // 2], "cut.json")
    assert editor.files_error.visible
    message = editor.files_error.object
    assert "cut.json" in message and "not valid JSON" in message and "ends too early" in message
    assert "field-error" in editor.files_error.css_classes
    assert not editor.files_status.visible
    assert snapshot(session) == before


def test_uploading_a_position_with_an_unknown_card_changes_nothing(editor, session):
    before = snapshot(session)
    data = json.loads(SCORING_EXAMPLE.read_text())
    data["state"]["deck"][0] = "tiaga-4"
    upload(editor, json.dumps(data).encode(), "typo.json")
    assert "unknown card" in editor.files_error.object and "state.deck[0]" in editor.files_error.object
    assert snapshot(session) == before


def test_uploading_a_replay_with_an_illegal_move_changes_nothing(editor, session):
    before = snapshot(session)
    data = json.loads(REPLAY_EXAMPLE.read_text())
    data["actions"][3]["seat"] = 0
    upload(editor, json.dumps(data).encode(), "bad-replay.json")
    assert "replay" in editor.files_error.object and "move 4" in editor.files_error.object
    assert snapshot(session) == before


def test_a_file_that_is_neither_replay_nor_position_is_refused(editor, session):
    before = snapshot(session)
    assert editor.load_text('{"game": "subastral"}', "odd.json") is False
    assert "neither a replay" in editor.files_error.object
    assert editor.load_text("[1, 2]", "list.json") is False
    assert snapshot(session) == before


def test_pasted_json_loads_like_an_upload(editor, session):
    editor.paste.value = SCORING_EXAMPLE.read_text()
    click(editor.paste_button)
    assert session.spec.scores(session.state)[0] == 78
    before = snapshot(session)
    editor.paste.value = '{"game": "subastral", "state": '
    click(editor.paste_button)
    assert "pasted text" in editor.files_error.object and "ends too early" in editor.files_error.object
    assert snapshot(session) == before
    # Past the size a file may have: refused on the server too (a browser's max_length can be forged
    # past: an outside tester loaded a 17.5 MB replay so), a valid replay as much as any other text.
    data = json.loads(SCORING_EXAMPLE.read_text())
    data["comment"] = "x" * 2_000_000
    editor.paste.value = json.dumps(data)
    click(editor.paste_button)
    assert editor.files_error.object.startswith("Could not read the pasted text: it is 2.0 MB, and the editor reads files up to 2 MB")
    assert snapshot(session) == before


def test_a_loaded_file_replaces_edits_in_the_form(editor, session):
    editor.fields["round"].widget.value = 7
    assert editor.edited
    editor.load_text(SCORING_EXAMPLE.read_text(), "example.json")
    assert not editor.edited
    assert editor.fields["round"].widget.value == json.loads(SCORING_EXAMPLE.read_text())["state"]["round"]


def test_downloaded_position_decodes_to_the_viewed_state(editor, session):
    fileobj = editor.download_position.callback()
    assert editor.download_position.filename == f"subastral-step-{STEP}.json"
    data = json.loads(fileobj.read())
    assert session.spec.encode(session.spec.decode(data)) == session.position() == data


def test_downloaded_replay_replays_the_line(editor, session):
    fileobj = editor.download_replay.callback()
    assert editor.download_replay.filename.endswith(".json")
    data = json.loads(fileobj.read())
    other = GameSession(game="subastral", players=2, seed=1)
    other.load(data, cursor=STEP)
    assert other.log == session.log and other.state == session.state


def test_downloads_of_a_what_if_line_load_back(editor, session):
    editor.load_text(SCORING_EXAMPLE.read_text(), "example.json")
    position = json.loads(editor.download_position.callback().read())
    replay = json.loads(editor.download_replay.callback().read())
    other = GameSession(game="subastral", players=2, seed=1)
    SetupEditor(session=other).load_data(replay, "replay.json")
    assert other.state == session.state and other.spec.scores(other.state)[0] == 78
    assert session.spec.encode(session.spec.decode(position)) == session.position()


def test_a_hidden_editor_refills_once_when_shown_again():
    from explorer.pages.app import create_app

    app = create_app().explorer
    editor, session = app.setup_editor, app.session
    assert editor.following is False               # the Table tab is shown first
    form_step = editor.form_step
    session.goto(5)
    assert editor.form_step == form_step           # not refilled while out of sight
    app.tabs.active = app.setup_tab
    assert editor.following is True and editor.form_step == 5
    session.goto(6)
    assert editor.form_step == 6


def test_an_explorer_page_makes_its_editor_when_the_tab_is_first_shown():
    """Most visits never open the what-if tab: the page makes the editor (a third of the page's making)
    when the tab is first shown, filled from the step shown then, and keeps that one editor."""
    from explorer.pages.app import create_app

    app = create_app().explorer
    assert "setup_editor" not in vars(app)           # not made with the page
    assert list(app._setup_slot) == []
    app.session.goto(4)
    app.tabs.active = app.setup_tab
    editor = vars(app)["setup_editor"]
    assert list(app._setup_slot) == [editor.__panel__()] and app.setup_editor is editor
    assert list(app.tabs[app.setup_tab]) == [app._setup_slot]       # (shown: see the next test)
    assert editor.following is True and editor.form_step == 4
    app.tabs.active = 0
    assert editor.following is False
    app.tabs.active = app.setup_tab
    assert app.setup_editor is editor and list(app._setup_slot) == [editor.__panel__()]


def test_a_part_of_the_page_failing_after_a_load_is_not_called_nothing_changed(editor, session):
    """"Nothing changed" only where it holds: when the game was loaded and a part of the page then
    failed on it (a watcher of the session), the message says the game shown is the one loaded (it said
    "Nothing changed", an outside tester found, with the new game on the board)."""
    def failing(event):
        raise ValueError("a plot failed")

    watcher = session.param.watch(failing, ["state"])
    try:
        assert not editor.load_text(SCORING_EXAMPLE.read_text(), "example.json")
    finally:
        session.param.unwatch(watcher)
    assert session.spec.scores(session.state)[0] == 78                 # loaded
    assert editor.files_error.object.startswith("Loaded example.json as a position, but") and "Nothing changed" not in editor.files_error.object
    assert "a plot failed" in editor.files_error.object


def test_a_replay_with_an_illegal_move_is_refused_in_the_pages_language(session):
    """On a Japanese page the refusal of a replay's illegal move was a Japanese sentence around an English
    reason ("…読み込めませんでした：replay.actions[38]: move 39 (Player 1: take cloud 5 to journal) is
    illegal: it is Player 2's turn, …"; an outside tester): the session read the moves itself and said
    why in English only. It now refuses as ``rules.replay`` does, in every language."""
    editor = SetupEditor(session=session, lang="ja")
    before = snapshot(session)
    data = json.loads(REPLAY_EXAMPLE.read_text())
    data["actions"][3]["seat"] = 0
    assert editor.load_text(json.dumps(data), "bad-replay.json") is False
    said = editor.files_error.object
    assert "4手目" in said and "ルール違反です" in said and "is illegal" not in said and "turn" not in said, said
    assert snapshot(session) == before


@pytest.mark.parametrize("lang, words", [("en", "stops at the box&#x27;s limit of 2,000,000 characters"), ("ja", "入力欄の上限（2,000,000文字）")])
def test_a_paste_the_browser_cut_at_the_boxs_limit_says_so(session, lang, words):
    """A 3 MB paste is stopped by the browser at the box's max_length, and what came was called broken JSON
    ("the text ends too early (cut off?)") as if the file were (an outside tester). A text that fills the
    box to its limit was cut: said so, nothing changed."""
    from explorer.components.setup_editor import MAX_FILE_BYTES

    editor = SetupEditor(session=session, lang=lang)
    before = snapshot(session)
    editor.paste.value = ('{"game": "subastral", "notes": "' + "x" * MAX_FILE_BYTES)[:MAX_FILE_BYTES]
    click(editor.paste_button)
    assert words in editor.files_error.object and snapshot(session) == before
