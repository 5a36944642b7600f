"""A card file's texts show what they hold (``rules.protocol.check_texts``, ``rules.showable``).

A card file's names and texts are drawn on every page that plays with it, a playtest table's seats
among them. Pages escape them, so none becomes HTML; but every game accepted a set name holding U+202E
(its letters shown in another order: a card could read as another), one of 3,000 line breaks, marks
stacked by the dozen on a letter, or one that shows nothing. Now each way a card file comes in (a card
file, a position file's ``cards``) refuses them, naming the text, in both languages, and the standard
files and real writing pass.
"""

from __future__ import annotations

import copy
import json

import pytest

import rules
from rules.protocol import CARD_TEXT_LIMIT, InvalidPosition

#: Texts no card file may hold, each with words its refusal says (English, Japanese).
BAD = {
    "reorders": ("\u202eevil", ("U+202E", "changes the order"), "表示順"),
    "isolate": ("see \u2066this\u2069", ("U+2066",), "U+2066"),
    "control": ("bell\x07", ("U+0007", "control character"), "制御文字"),
    "broken": ("half \ud83d of a character", ("U+D83D", "lone surrogate"), "サロゲート"),
    "lines": ("tall" + "\n" * 300, ("at most 20 lines, not 300",), "20行"),
    "stacked": ("z" + "\u0336" * 30, ("at most 8 marks", "U+0336"), "8個"),
    "blank": ("\u200b\u3164\u2800", ("must show something",), "見える文字"),
    "too_long": ("w" * (CARD_TEXT_LIMIT + 1), (f"at most {CARD_TEXT_LIMIT} characters, not {CARD_TEXT_LIMIT + 1}",), "文字まで"),
}
#: Writing every card file may hold.
GOOD = ["Tiếng Việt", "ภาษาไทย", "שָׁלוֹם", "日本語の名前", "a\u0301" + "\u0302" * 7, "two\nlines", "👍🏽", "", "nbsp\u00a0here"]


def standard_data(game_id: str) -> dict:
    game = rules.get_game(game_id)
    state = game.new_game(min(game.player_counts), 1)
    return json.loads(json.dumps(dict(game.card_set(state).raw)))


def first_name(data: dict) -> tuple[list, str | int, str]:
    """The first ``"name"`` text inside ``data`` but the set's own: its container, key and path."""
    stack: list[tuple[object, str]] = [(data, "")]
    while stack:
        node, at = stack.pop(0)
        if isinstance(node, dict):
            if node is not data and isinstance(node.get("name"), str):
                return node, "name", f"cards: {at}.name"       # type: ignore[return-value]
            stack.extend((value, f"{at}.{key}" if at else key) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend((value, f"{at}[{i}]") for i, value in enumerate(node))
    raise AssertionError("no name in the card file")


@pytest.mark.parametrize("game_id", rules.GAMES)
@pytest.mark.parametrize("kind", BAD)
def test_a_card_file_text_that_would_not_show_what_it_holds_is_refused_naming_it(game_id, kind):
    text, english, japanese = BAD[kind]
    data = standard_data(game_id)
    for where in ("set", "card"):
        changed = copy.deepcopy(data)
        if where == "set":
            changed["name"], path = text, "cards: name"
        else:
            node, key, path = first_name(changed)
            node[key] = text
        before = copy.deepcopy(changed)
        with pytest.raises(InvalidPosition) as refused:
            rules.get_game(game_id).with_card_file(changed)
        assert refused.value.where == path
        for words in english:
            assert words in refused.value.problems["en"], refused.value.problems
        assert japanese in refused.value.problems["ja"], refused.value.problems
        assert changed == before         # nothing changed


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_the_card_editor_marks_the_refused_text_and_a_refused_key_s_card(game_id):
    """The refusal names a text as the games' readers name a field, so the card editor marks its cell
    (``card_edits.locate``); a key that does not show what it holds marks the card that holds it."""
    from explorer.core.card_edits import locate

    data = standard_data(game_id)
    node, key, path = first_name(data)
    node[key] = "\u202eevil"
    with pytest.raises(InvalidPosition) as refused:
        rules.get_game(game_id).with_card_file(data)
    marked = locate(data, refused.value.where)
    assert marked.key == "name" and marked.row is not None and marked.deck, (refused.value.where, marked)
    node[key] = "ok"
    node["\u202enote"] = "a key of its own"
    with pytest.raises(InvalidPosition) as refused:
        rules.get_game(game_id).with_card_file(data)
    assert refused.value.where == path.rsplit(".", 1)[0] and "U+202E" in refused.value.problems["ja"]


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_a_position_file_s_cards_are_held_to_the_same_texts(game_id):
    game = rules.get_game(game_id)
    data = standard_data(game_id)
    data["name"] = "my set\u202e"
    played = game.with_card_file(standard_data(game_id) | {"name": "my set"})
    position = played.encode(played.new_game(min(game.player_counts), 3))
    assert position["cards"]["name"] == "my set"
    position["cards"] = data
    with pytest.raises(InvalidPosition, match="U\\+202E") as refused:
        game.decode(position)
    assert refused.value.where == "position.cards: name"


@pytest.mark.parametrize("game_id", rules.GAMES)
def test_the_standard_cards_and_any_writing_pass(game_id):
    game = rules.get_game(game_id)
    game.with_card_file(standard_data(game_id))
    for text in GOOD:
        data = standard_data(game_id)
        node, key, _ = first_name(data)
        node[key] = text or node[key]       # (a card's name may not be empty: the set's notes may)
        data["notes"] = text
        assert game.with_card_file(data).card_set(game.with_card_file(data).new_game(min(game.player_counts), 1)).raw["notes"] == text
