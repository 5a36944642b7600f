"""Bad input never gives a traceback (issue #20): files too large for the setup editor, nesting and
numbers past the shared JSON limits, and the command line's files and folders. One clear message
each (exit status 2 on the command line), and the page stays usable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from explorer.core.session import GameSession
from explorer.components.setup_editor import MAX_FILE_BYTES, SetupEditor
from explorer import cli

ROOT = Path(__file__).resolve().parents[3]
SCORING_EXAMPLE = ROOT / "examples" / "subastral-scoring-example.json"


@pytest.fixture
def editor():
    return SetupEditor(session=GameSession(game="subastral", players=4, seed=1))


def test_a_file_over_the_size_limit_is_refused_unread_and_the_editor_still_loads_files(editor):
    session = editor.session
    before = session.state
    big = b'{"state": ' + b" " * MAX_FILE_BYTES + b"}"
    editor.upload.param.update(filename="huge.json", value=big)
    assert editor.files_error.visible and "Could not read huge.json: it is 2.0 MB" in editor.files_error.object
    assert f"up to {MAX_FILE_BYTES // 1_000_000} MB" in editor.files_error.object
    assert session.state is before
    editor.upload.param.update(filename=SCORING_EXAMPLE.name, value=SCORING_EXAMPLE.read_bytes())
    assert not editor.files_error.visible and session.spec.scores(session.state)[0] == 78


def test_the_browser_reports_a_file_over_the_limit_unread_and_the_server_refuses_forged_content(editor):
    session = editor.session
    before = session.state
    assert editor.upload.max_bytes == MAX_FILE_BYTES           # the browser checks file.size against it
    editor.upload._handle_msg({"too_big": "huge.json", "size": 50_000_000})
    assert editor.files_error.visible and "Could not read huge.json: it is 50.0 MB" in editor.files_error.object
    assert f"up to {MAX_FILE_BYTES // 1_000_000} MB" in editor.files_error.object
    assert session.state is before
    editor.upload._handle_msg({"name": SCORING_EXAMPLE.name, "text": SCORING_EXAMPLE.read_text()})
    assert not editor.files_error.visible and session.spec.scores(session.state)[0] == 78
    loaded = session.state
    # A forged message: text over the limit (counted in UTF-8 bytes) is refused unparsed ...
    editor.upload._handle_msg({"name": "forged.json", "text": '{"state": "' + "é" * (MAX_FILE_BYTES // 2) + '"}'})
    assert editor.files_error.visible and "Could not read forged.json: it is 2.0 MB" in editor.files_error.object
    # ... and values that are not text, or a size that is not a count, change nothing.
    editor._files_message()
    for message in ({"name": "x.json", "text": b"{}"}, {"name": 1, "text": "{}"}, {"name": "x.json", "text": ["{}"]},
                    {"too_big": "x.json", "size": "big"}, {"too_big": "x.json", "size": -1}, ["x"], None):
        editor.upload._handle_msg(message)
        assert not editor.files_error.visible and not editor.files_status.visible, message
    assert session.state is loaded


def test_the_paste_box_stops_at_the_size_limit_in_the_browser(editor):
    assert editor.paste.max_length == MAX_FILE_BYTES


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"state": ' + "9" * 5000 + "}"])
def test_pasted_or_uploaded_json_too_deep_or_with_huge_numbers_is_named_not_a_traceback(editor, text):
    before = editor.session.state
    editor.paste.value = text
    editor._on_paste()
    assert editor.files_error.visible and "Nothing changed" in editor.files_error.object
    editor.upload.param.update(filename="bad.json", value=text.encode())
    assert editor.files_error.visible and "bad.json" in editor.files_error.object
    assert editor.session.state is before


# --------------------------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------------------------
def test_out_into_a_missing_folder_says_so_and_writes_nothing(tmp_path, capsys):
    target = tmp_path / "no-such-folder" / "game.json"
    assert cli.main(["play", "subastral", "--players", "2", "--seed", "1", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot write {target}" in err and "no-such-folder" in err
    assert not target.parent.exists()


def test_tables_export_into_a_missing_folder_says_so(tmp_path, capsys):
    from explorer.tables.hub import TableHub

    db = tmp_path / "tables.sqlite3"
    hub = TableHub(db, bot_delay=3600)
    table, _ = hub.create("subastral", 2, seed=1)
    hub.close()
    target = tmp_path / "missing" / "replay.json"
    assert cli.main(["tables", "export", table.id, "--db", str(db), "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot write {target}" in err


@pytest.mark.parametrize("content", [b"shopping list\n" * 300, b"", b"\x00" * 4096])
def test_tables_list_on_a_file_that_is_not_a_tables_database_says_so(tmp_path, capsys, content):
    not_ours = tmp_path / "notes.sqlite3"
    not_ours.write_bytes(content)
    assert cli.main(["tables", "list", "--db", str(not_ours)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(not_ours) in err and "Traceback" not in err
    assert not_ours.read_bytes() == content          # a file that is not ours is left as it was


def test_tables_list_on_another_programs_sqlite_database_says_so(tmp_path, capsys):
    import sqlite3

    other = tmp_path / "other.sqlite3"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE tables (name TEXT)")
    raw.commit()
    raw.close()
    assert cli.main(["tables", "list", "--db", str(other)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(other) in err
