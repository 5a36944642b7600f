"""The what-if setup editor and the replay-problem notice in English and Japanese.

The English is exactly what it was before the texts moved to ``explorer/locales/*/setup.json``
(the strings below are copied from the editor as it was); in Japanese every label, tip, heading
and message of the editor is Japanese, and none of its English static texts is left. What stays
as the data or the rules give it: the position file's field names, file names, the JSON examples,
game titles, and the rules' own (English-only) messages about a malformed file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from explorer.core.i18n import literal, text, texts
from explorer.core.session import GameSession
from explorer.components.setup_editor import VARIANTS, SetupEditor
from explorer.components.timeline import ReplayProblem, replay_problem_text, variant_change_text
from tests.helpers.seeded_games import autoplay_as_before

ROOT = Path(__file__).resolve().parents[3]
REPLAY_EXAMPLE = ROOT / "examples" / "subastral-4p-replay.json"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def played(step: int = 6) -> GameSession:
    session = GameSession(game="subastral", players=4, seed=11)
    autoplay_as_before(session, then_goto=step)
    return session


def shown(editor: SetupEditor) -> list[str]:
    """Every text the editor shows: widget labels, placeholders, tips, headings and messages."""
    found = []

    def walk(obj):
        if hasattr(obj, "__panel__") and not hasattr(obj, "objects"):
            obj = obj.__panel__()
        for name in ("label", "placeholder", "description", "object"):
            if name in obj.param and isinstance(getattr(obj, name), str) and getattr(obj, name).strip():
                if name != "object" or getattr(obj, "visible", True):
                    found.append(getattr(obj, name))
        for child in getattr(obj, "objects", None) or []:
            walk(child)

    walk(editor._layout)
    return found


def static_english() -> list[str]:
    """The English texts of the part with no placeholder (labels, headings, tips)."""
    return [value for key, value in texts("en").items() if key.startswith("setup.") and "{" not in value
            and key != "setup.labels.separator"]


# ---------------------------------------------------------------------------- English, unchanged


def test_the_english_editor_is_labelled_as_before():
    editor = SetupEditor(session=played())
    assert editor.lang == "en"
    assert editor.apply_button.label == "Apply: start a new line here"
    assert editor.reload_button.label == "Load from current step"
    assert editor.reload_button.description == "Discard the edits and show the step the game is at"
    assert editor.download_position.label == "Download position (this step)"
    assert editor.download_replay.label == "Download replay (this line)"
    assert editor.upload.description == 'A replay (with "actions") or a position (with "state")'
    assert editor.paste.label == "Paste JSON (a replay or a position)"
    assert editor.paste.placeholder == '{"game": "...", "state": {...}}  or  {"game": ..., "actions": [...]}'
    assert editor.paste_button.label == "Load pasted JSON"
    assert editor.variants_field.widget.label == "Variants"
    assert editor.fields["start_player"].widget.label == "Start player"
    assert editor.fields["last_round"].widget.placeholder == "empty = null"
    texts_shown = shown(editor)
    for heading in ("### Edit position", "### Files", "**Open a replay or a position file**"):
        assert heading in texts_shown
    assert editor.form_note.object == "Subastral, step 6: the form follows the game until you edit it."


def test_the_english_messages_are_as_before(monkeypatch):
    session = played()
    editor = SetupEditor(session=session)
    editor.fields["hands"].widget.value = "[[1, 2"
    session.goto(7)
    assert editor.form_note.object == ("Subastral, step 6, edited: the form no longer follows the game. The game has "
                                       "moved on (now step 7); \u201cLoad from current step\u201d discards your edits.")
    editor.variants_field.widget.value = "  "
    assert not editor.apply()
    assert editor.general_error.object == "Not loaded: not valid JSON in Hands, Variants (marked below). Nothing changed."
    assert editor.fields["hands"].error.object.endswith(": the text ends too early (cut off?)")
    assert editor.variants_field.error.object.endswith(": the text is empty")

    editor.load_form()
    editor.fields["phase"].widget.value = "no-such-phase"
    assert not editor.apply()
    assert editor.general_error.object == "The rules refuse this position (see Phase below). Nothing changed."
    editor.load_form()
    editor._extra["game"] = "nosuchgame"
    assert not editor.apply()
    assert editor.general_error.object.startswith("The rules refuse this position: game: unknown game")
    assert editor.general_error.object.endswith(". Nothing changed.")
    editor.load_form()
    assert editor.apply()
    assert editor.status.object == ("Position loaded: a new line starts here (step 0); the line you were on is kept "
                                    "under Lines of play. Play on from the board.")
    assert editor.apply()                                   # the line left has no moves: none is kept
    assert editor.status.object == "Position loaded: a new line starts here (step 0). Play on from the board."

    def broken(data):
        raise TypeError("no good")
    monkeypatch.setattr(session, "load_position", broken)
    assert not editor.apply()
    assert editor.general_error.object == "The rules could not read this position (TypeError: no good). Nothing changed."
    assert not editor.load_data({"state": {}}, "p.json")
    assert editor.files_error.object == "Could not load p.json as a position (TypeError: no good). Nothing changed."


def test_the_english_file_messages_read_as_sentences():
    session = played()
    editor = SetupEditor(session=session)
    editor.load_text("")
    assert editor.files_error.object == ("Could not read the pasted text: not valid JSON (Expecting value: line 1 column 1 "
                                         "(char 0)): the text is empty. Nothing changed.")
    editor.load_data([1])
    assert editor.files_error.object == ("Could not load the file: it is neither a replay (it has no &quot;actions&quot;) nor a "
                                         "position (it has no &quot;state&quot;). Nothing changed.")
    editor.paste.value = '{"a": 1}'
    editor._on_paste()
    assert editor.files_error.object.startswith("Could not load the pasted text: it is neither a replay")
    editor.upload.value = b'{"a": 1}'
    assert editor.files_error.object.startswith("Could not load the uploaded file: it is neither a replay")
    replay = json.loads(REPLAY_EXAMPLE.read_text())
    assert editor.load_data(replay, "r.json")
    assert editor.files_status.object == "Loaded the replay from r.json: Subastral, 4 players, 85 moves."
    editor.paste.value = json.dumps(replay)
    editor._on_paste()
    assert editor.files_status.object == "Loaded the replay from the pasted text: Subastral, 4 players, 85 moves."
    bad = {**replay, "players": "x"}
    assert not editor.load_data(bad, "bad.json")
    assert editor.files_error.object.startswith("Could not load bad.json as a replay: replay.players: ")
    assert editor.load_data(session.position(), "p.json")
    assert editor.files_status.object == ("Loaded the position from p.json: Subastral, 4 players; a new line starts here, "
                                          "and the line you were on is kept under Lines of play.")
    assert editor.load_data(session.position(), "p.json")
    assert editor.files_status.object == "Loaded the position from p.json: Subastral, 4 players; a new line starts here."
    session.viewing_seat = 1
    assert editor.hidden_note.object == ("*The setup editor shows every card, deck order included, so it is hidden "
                                         "while viewing as Player 2. Choose the teacher view to use it.*")


def cut_line(lang: str = "en") -> tuple[GameSession, ReplayProblem]:
    session = GameSession(seed=7, variants={"disturbance": True})
    notice = ReplayProblem(session=session, lang=lang)
    autoplay_as_before(session, "greedy")
    session.variant_switches.disturbance = False
    assert session.replay_problem
    return session, notice


def test_the_replay_problem_notice_shows_the_engines_words_as_text():
    # (They may name a card file's card: Markdown in it, a link, stays its characters.)
    session, notice = cut_line()
    session.replay_problem = {**session.replay_problem, "text": "the [lion](http://evil.example) <b>roars</b>"}
    said = notice.text()
    assert "the \\[lion\\](http\\://evil\\.example) &lt;b&gt;roars&lt;/b&gt;" in said and "<b>" not in said, said


def test_the_english_replay_problem_notice_is_as_before_then_tells_the_scores():
    session, notice = cut_line()
    problem = session.replay_problem
    move = problem["move"]
    # (the engine's words as their text: a card's name, a file's, may hold Markdown; "subtropical\\_desert")
    assert notice.text() == (f"**The variant change cut this line at move {move}.** {literal(problem['text'])}  \n"
                             f"The line kept its first {move - 1} moves; the whole old line is listed under "
                             f"*Lines of play*, where you can switch back to it (and to its rules).  \n"
                             + variant_change_text(session, session.variant_change))
    assert notice.alert.visible and notice.alert.object == notice.text()
    session.switch_branch(len(session.branches) - 1)
    assert notice.text() == "" and not notice.alert.visible


# ---------------------------------------------------------------------------- Japanese


def test_every_key_of_the_part_is_a_setup_key():
    from explorer.core.i18n import LOCALES
    for lang in ("en", "ja"):
        keys = json.loads((LOCALES / lang / "setup.json").read_text(encoding="utf-8"))
        assert keys and all(key.startswith("setup.") for key in keys)


def test_the_japanese_editor_shows_japanese_and_none_of_its_english_labels():
    session = played()
    editor = SetupEditor(session=session, lang="ja")
    seen = shown(editor)
    assert "### 局面を編集" in seen and "### ファイル" in seen
    assert editor.apply_button.label == "適用：ここから新しい手順を始める"
    assert editor.variants_field.widget.label == text("setup.field.variants", "ja")
    assert editor.fields["start_player"].widget.label == "start_player"      # the file's own field name
    assert editor.fields["last_round"].widget.placeholder == "空欄 = null"
    assert editor.form_note.object == "Subastral、6手目：編集するまで、フォームはゲームの進行に合わせて更新されます。"
    english = static_english()
    assert len(english) > 10
    for label in english:
        assert not any(label in piece for piece in seen), label
    for piece in (editor.apply_button.label, editor.reload_button.label, editor.reload_button.description,
                  editor.download_position.label, editor.download_replay.label, editor.upload.description,
                  editor.paste.label, editor.paste_button.label, editor.form_note.object):
        assert JAPANESE.search(piece), piece


ENGLISH_WORDS = ("Nothing changed", "Not loaded", "The rules", "Could not", "Loaded the", "Position loaded",
                 "is neither", "the text is empty", "ends too early", "step ", "edited", "pasted text",
                 "the file", "uploaded file", "players", "moves", "setup editor", "teacher view")


def japanese_message(message: str) -> None:
    assert JAPANESE.search(message), message
    for words in ENGLISH_WORDS:
        assert words not in message.replace("replay.players", ""), (words, message)


def test_the_japanese_messages(monkeypatch):
    session = played()
    editor = SetupEditor(session=session, lang="ja")
    editor.fields["hands"].widget.value = "[[1, 2"
    session.goto(7)
    japanese_message(editor.form_note.object)
    assert "7手目" in editor.form_note.object and "現在の手から読み込む" in editor.form_note.object
    editor.variants_field.widget.value = "  "
    assert not editor.apply()
    japanese_message(editor.general_error.object)
    assert "hands、バリアント" in editor.general_error.object
    assert editor.fields["hands"].error.object.endswith("：テキストが途中で終わっています（途切れていませんか？）")
    assert editor.variants_field.error.object.endswith("：テキストが空です")
    editor.load_form()
    editor.fields["phase"].widget.value = "no-such-phase"
    assert not editor.apply()
    japanese_message(editor.general_error.object)
    editor.load_form()
    assert editor.apply()
    japanese_message(editor.status.object)
    assert "それまでの手順は手順の分岐に残っています。" in editor.status.object

    editor.load_text("")
    japanese_message(editor.files_error.object.split("：", 1)[0])
    assert "貼り付けたテキスト" in editor.files_error.object
    editor.load_data([1])
    japanese_message(editor.files_error.object.replace("&quot;actions&quot;", "").replace("&quot;state&quot;", ""))
    editor.upload.value = b'{"a": 1}'
    assert editor.files_error.object.startswith("アップロードしたファイル")
    replay = json.loads(REPLAY_EXAMPLE.read_text())
    assert editor.load_data(replay, "r.json")
    japanese_message(editor.files_status.object)
    assert editor.files_status.object == "リプレイを読み込みました（r.json）：Subastral、4人、85手。"
    assert not editor.load_data({**replay, "players": "x"}, "bad.json")
    assert editor.files_error.object.startswith("bad.jsonをリプレイとして読み込めませんでした：replay.players: ")
    assert editor.load_data(session.position(), "p.json")
    japanese_message(editor.files_status.object)

    def broken(data):
        raise TypeError("no good")
    monkeypatch.setattr(session, "load_position", broken)
    assert not editor.apply()
    assert editor.general_error.object == "ルールがこの局面を読み取れませんでした（TypeError: no good）。何も変わっていません。"
    monkeypatch.undo()

    session.viewing_seat = 1
    japanese_message(editor.hidden_note.object)
    assert "プレイヤー2" in editor.hidden_note.object
    for label in static_english():
        assert not any(label in piece for piece in shown(editor)), label


def test_the_japanese_replay_problem_notice_names_the_move_in_japanese():
    session, notice = cut_line("ja")
    problem = session.replay_problem
    said = notice.text()
    assert said.startswith(f"**バリアントの変更により、この手順は{problem['move']}手目で切れました。**")
    assert f"プレイヤー{problem['seat'] + 1}" in said and f"最初の{problem['move'] - 1}手" in said
    assert "The variant change" not in said and "Lines of play" not in said and "illegal" not in said
    cut = session.branches[-1].log[problem["move"] - 1][1]
    assert session.spec.action_label(cut, "ja") in said
    assert notice.alert.visible and notice.alert.object == said
    # a problem the cut line no longer explains keeps the session's words for the action and the reason
    made_up = {"move": 3, "seat": 0, "action": "fly to X", "message": "no such planet", "text": "Move 3 ..."}
    assert replay_problem_text(session, made_up, "ja") == "3手目（プレイヤー1：fly to X）は、このルールでは行えません：no such planet"
    assert replay_problem_text(session, made_up, "en") == "Move 3 ..."
    assert replay_problem_text(session, {"text": "something else"}, "ja") == "something else"


@pytest.mark.parametrize("game", ["stellar", "jump_gate", "starligned", "biome_blitz"])
def test_every_game_s_editor_in_japanese_keeps_no_english_label(game):
    session = GameSession(game=game, seed=3)
    autoplay_as_before(session, then_goto=4)
    seen = shown(SetupEditor(session=session, lang="ja"))
    for label in static_english():
        assert not any(label in piece for piece in seen), label
    english = shown(SetupEditor(session=session))
    assert "### Edit position" in english and "Load pasted JSON" in english
