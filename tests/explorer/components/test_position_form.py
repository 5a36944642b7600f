"""The what-if editor for people (issue #22, item 7), without a browser: the "Cards and turn" tab of
the setup editor names every card as printed, counts seats and rounds as players do, keeps the JSON
tab in step, shows the rules' refusal next to the field it names, and ignores forged edits.
"""

from __future__ import annotations

import json

import pytest

import rules
from explorer.components.card_zone import MAX_CARDS, CardZone
from explorer.components.position_form import FieldWidget
from explorer.components.setup_editor import SetupEditor
from explorer.core.session import GameSession
from rules.registry import get_game


def editor_for(game: str, players: int | None = None, lang: str = "en", step: int = 0) -> SetupEditor:
    spec = get_game(game)
    session = GameSession(game=game, players=players or spec.player_counts[0], seed=5)
    if step:
        session.autoplay(then_goto=step)
    return SetupEditor(session=session, lang=lang)


def widget(editor: SetupEditor, where: str) -> FieldWidget:
    return next(w for w in editor.form.widgets if w.field.where == where)


def snapshot(session: GameSession) -> tuple:
    return json.dumps(session.replay(), sort_keys=True), session.cursor, len(session.branches)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", rules.GAMES)
def test_the_form_names_every_card_as_printed_in_the_page_language(game, lang):
    editor = editor_for(game, lang=lang)
    spec = editor.session.spec
    zones = [w.widget for w in editor.form.widgets if isinstance(w.widget, CardZone)]
    assert zones, f"{game}: no card zone in the form"
    for zone in zones:
        assert zone.title and zone.texts["add"]
        for card in zone.choices:
            printed = spec.card_label(card)
            expected = printed if isinstance(printed, str) else printed[lang]
            assert zone.labels[card] == expected
    if lang == "ja":
        titles = " ".join(zone.title for zone in zones)
        assert "Player" not in titles and "hand" not in titles


def test_a_card_taken_out_and_the_deck_reordered_in_the_form_are_the_position_applied():
    editor = editor_for("subastral", 3, step=4)
    session = editor.session
    hand = widget(editor, "state.hands[0]").widget
    deck = widget(editor, "state.deck").widget
    kept = hand.value[1:]
    assert hand.edit(kept)
    swapped = [deck.value[1], deck.value[0], *deck.value[2:]]
    assert deck.edit(swapped)
    assert editor.edited
    assert json.loads(editor.fields["hands"].widget.value)[0] == kept       # the JSON tab shows the same
    assert json.loads(editor.fields["deck"].widget.value) == swapped
    assert editor.apply(), editor.general_error.object
    state = session.position()["state"]
    assert sorted(state["hands"][0]) == sorted(kept) and state["deck"] == swapped


def test_seats_and_rounds_are_counted_as_players_count_them():
    editor = editor_for("subastral", 3, step=7)
    file_state = editor.session.position()["state"]
    seat = widget(editor, "state.seat").widget
    assert list(seat.options) == ["Player 1", "Player 2", "Player 3"]
    assert seat.value == file_state["seat"]
    round_ = widget(editor, "state.round").widget
    assert round_.value == file_state["round"] + 1 and round_.label == "Round"
    round_.value = round_.value + 1
    assert json.loads(editor.fields["round"].widget.value if isinstance(editor.fields["round"].widget.value, str)
                      else str(editor.fields["round"].widget.value)) == file_state["round"] + 1
    ja = editor_for("subastral", 3, lang="ja")
    assert list(widget(ja, "state.seat").widget.options) == ["プレイヤー1", "プレイヤー2", "プレイヤー3"]


def test_a_refused_position_is_marked_at_the_forms_field_in_words_and_nothing_changes():
    editor = editor_for("subastral", 3, step=3)
    session = editor.session
    before = snapshot(session)
    phase = widget(editor, "state.phase").widget
    played = widget(editor, "state.played_cloud")
    phase.value = "take"
    played.widget.value = None
    assert not editor.apply()
    assert snapshot(session) == before
    assert "played_cloud" in played.error.object and played.error.visible
    assert editor.general_error.object == "The rules refuse this position (see Cloud played on this turn below). Nothing changed."
    ja = editor_for("subastral", 3, lang="ja", step=3)
    widget(ja, "state.phase").widget.value = "take"
    widget(ja, "state.played_cloud").widget.value = None
    assert not ja.apply()
    assert "このターンにカードを出した雲" in ja.general_error.object


def test_a_card_zone_error_is_drawn_inside_the_zone():
    editor = editor_for("subastral", 2)
    hand = widget(editor, "state.hands[1]").widget
    hand.edit([])
    widget(editor, "state.seat").widget.value = 1
    widget(editor, "state.phase").widget.value = "play"
    assert not editor.apply()
    assert "Player 2" in hand.error and "hand" in hand.error


def test_the_json_tab_and_the_form_show_the_same_edit():
    editor = editor_for("subastral", 2)
    hand = widget(editor, "state.hands[0]").widget
    hands = json.loads(editor.fields["hands"].widget.value)
    hands[0] = hands[0][:1]
    editor.fields["hands"].widget.value = json.dumps(hands)
    assert hand.value == hands[0]
    editor.fields["hands"].widget.value = '[["savanna-3", '        # half typed: the form waits
    assert hand.value == hands[0]


@pytest.mark.parametrize("forged", [
    "savanna-3", [1, 2], ["no-such-card"], ["<img src=x onerror=alert(1)>"], [None], {"0": "savanna-3"},
    ["savanna-3"] * (MAX_CARDS + 1),
])
def test_a_forged_zone_edit_from_the_page_changes_nothing(forged):
    editor = editor_for("subastral", 2)
    session = editor.session
    before, hand = snapshot(session), widget(editor, "state.hands[0]").widget
    shown, text = list(hand.value), editor.fields["hands"].widget.value
    hand._handle_msg({"value": forged})
    hand._handle_msg(forged)
    assert hand.value == shown and editor.fields["hands"].widget.value == text
    assert not editor.edited and snapshot(session) == before


def test_a_slot_takes_one_card_at_most():
    editor = editor_for("subastral", 2)
    slot = widget(editor, "state.passes[0]").widget
    assert slot.single
    card = slot.choices[0]
    assert not slot.edit([card, card])
    assert slot.edit([card]) and json.loads(editor.fields["passes"].widget.value)[0] == card
    assert slot.edit([]) and json.loads(editor.fields["passes"].widget.value)[0] is None


def test_the_form_follows_the_game_until_edited_and_rebuilds_only_for_a_new_shape():
    editor = editor_for("subastral", 2)
    session = editor.session
    session.autoplay(then_goto=2)
    zones = list(editor.form.widgets)
    editor.load_form()
    assert editor.form.widgets == zones                     # the same fields: only the values change
    assert widget(editor, "state.hands[0]").widget.value == session.position()["state"]["hands"][0]
    session.param.update(players=4, seed=9)
    session.reset()
    editor.load_form()
    assert sum(1 for w in editor.form.widgets if w.field.label["en"].endswith("'s hand")) == 4


def test_an_empty_optional_menu_says_none_and_choosing_none_writes_null():
    editor = editor_for("subastral", 2)
    played = widget(editor, "state.played_cloud").widget
    shown = {value: label for label, value in played.options.items()}
    assert shown[played.value] == "none"                   # (a menu on None would show no option at all)
    played.value = played.options["Cloud 3"]
    assert json.loads(editor.fields["played_cloud"].widget.value or "null") == 3
    played.value = played.options["none"]
    assert (editor.fields["played_cloud"].widget.value or "").strip() in ("", "null")


def test_a_position_with_its_own_card_file_names_its_cards_its_way():
    editor = editor_for("subastral", 2)
    session = editor.session
    position = session.position()
    raw = json.loads(json.dumps(session.spec.new_game(2, 1).cards.raw))
    raw["biomes"][0]["name"] = "Dune sea"
    position["cards"] = raw
    assert editor.load_data(position)
    first = raw["biomes"][0]["id"]
    assert widget(editor, "state.deck").widget.labels[f"{first}-1"] == "Dune sea 1"
