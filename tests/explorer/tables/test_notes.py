"""Notes pinned to moves (issue #24, item 3): stored like moves, shown only to who may read them,
exported with the replay, every bad note refused with nothing changed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.core.notes import NOTE_LIMIT, TEACHER
from explorer.core.session import GameSession
from explorer.pages.table_pages import TablePage
from explorer.tables.hub import HUMAN, TableError, TableHub
from explorer.tables.store import SCHEMA_VERSION, TableStore, token_digest
from rules import replay as replay_files
from rules.protocol import InvalidReplay
from tests.helpers.tables import document_text, mounted, play_first_legal

ROOT = Path(__file__).resolve().parents[3]


def hidden_draw(hub, table, tokens) -> tuple[int, int]:
    """Play first legal moves until one whose events the other seat (and a spectator) see only in
    part (Subastral: a cloud taken into the hand); returns (its step, the seat that made it)."""
    spec = table.spec
    for _ in range(40):
        seat, _ = play_first_legal(hub, table, tokens)
        state = table.state
        full = spec.observe(state, "all")["events"]
        if spec.observe(state, seat)["events"] == full and spec.observe(state, None)["events"] != full:
            return table.step, seat
    raise AssertionError("no hidden draw in 40 moves")


def public_move(table) -> int:
    """A step of the table whose events every seat and a spectator see in full."""
    spec = table.spec
    for step in range(1, table.step + 1):
        events = [spec.observe(table.states[step], viewer)["events"] for viewer in (*range(table.record.players), None)]
        if all(seen == spec.observe(table.states[step], "all")["events"] for seen in events):
            return step
    raise AssertionError("no public move")


def test_a_note_is_committed_before_any_page_is_told_and_survives_a_new_process(db):
    hub = TableHub(db, bot_delay=0.0)
    table, tokens = hub.create("subastral", 2, seed=3)
    for _ in range(3):
        play_first_legal(hub, table, tokens)
    told = []
    hub.subscribe(table.id, lambda: told.append(TableStore(db, read_only=True).notes(table.id)))
    note = hub.add_note(table.id, tokens[0], 2, "  the cloud was a trap  ")
    assert note["text"] == "the cloud was a trap" and note["seat"] == 0 and note["step"] == 2
    assert told == [[note]]                      # when the page heard of it, it was already on disk
    hub.store.close()                            # the process "dies"
    again = TableHub(db, bot_delay=0.0)
    assert again.table(table.id).notes == [note]
    again.close()


def test_notes_are_append_only(hub):
    table, tokens = hub.create("subastral", 2, seed=1)
    hub.add_note(table.id, tokens[1], 0, "a good deal")
    raw = sqlite3.connect(hub.store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("UPDATE notes SET text = 'changed'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM notes")
    raw.close()


def test_a_schema_2_database_becomes_the_current_schema_keeping_every_row(db):
    hub = TableHub(db, bot_delay=0.0)
    table, tokens = hub.create("subastral", 2, seed=5)
    for _ in range(4):
        play_first_legal(hub, table, tokens)
    hub.abandon(table.id, operator=True)
    other, _ = hub.create("stellar", 2, seed=6, controllers=[HUMAN, HUMAN])
    hub.close()
    # Made a schema-2 file: what schemas 3 and 4 added taken away (with their triggers), version 2.
    raw = sqlite3.connect(db)
    raw.executescript("DROP TABLE notes; DROP TABLE decisions; DROP TABLE refusals; "
                      "ALTER TABLE tables DROP COLUMN rules_version; PRAGMA user_version = 2;")
    before = {name: raw.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall() for name in ("tables", "seats", "moves")}
    raw.close()
    assert sum(map(len, before.values())) == 2 + 4 + 4
    # Read as it is (``tables export`` opens it read-only, changing nothing): a replay without notes.
    from explorer import cli

    out = db.parent / "old.json"
    assert cli.main(["tables", "export", table.id, "--db", str(db), "--out", str(out)]) == 0
    assert "notes" not in json.loads(out.read_text()) and len(json.loads(out.read_text())["actions"]) == 4
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == 2

    hub = TableHub(db, bot_delay=0.0)
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    after = {name: raw.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall() for name in ("tables", "seats", "moves")}
    assert after == {**before, "tables": [row + (None,) for row in before["tables"]]}       # (rules_version: 1.0)
    assert raw.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 0
    raw.close()
    restored = hub.table(table.id)
    assert restored.step == 4 and restored.record.abandoned and hub.table(other.id).step == 0
    note = hub.add_note(table.id, tokens[0], 4, "after the migration")
    assert hub.store.notes(table.id) == [note]
    hub.close()


def test_a_note_on_a_hidden_draw_is_its_authors_until_the_game_ends(hub):
    table, tokens = hub.create("subastral", 2, seed=3)
    step, drawer = hidden_draw(hub, table, tokens)
    other = 1 - drawer
    mine = hub.add_note(table.id, tokens[drawer], step, "I kept the big one")
    theirs = hub.add_note(table.id, tokens[other], step, "they took a cloud")
    shown = public_move(table)
    public = hub.add_note(table.id, tokens[other], shown, "everybody saw this")
    assert hub.visible_notes(table.id, drawer) == sorted([mine, theirs, public], key=lambda n: n["step"])
    assert hub.visible_notes(table.id, other) == sorted([theirs, public], key=lambda n: n["step"])
    # A spectator saw the draw as the other seat did: it may read that seat's note, not the drawer's.
    assert hub.visible_notes(table.id, None) == sorted([theirs, public], key=lambda n: n["step"])
    # Each page holds only what its seat may read.
    pages = {viewer: TablePage(hub, table.id, tokens.get(viewer)) for viewer in (drawer, other, None)}
    texts = {viewer: document_text(mounted(page)) for viewer, page in pages.items()}
    assert "I kept the big one" in texts[drawer]
    assert "I kept the big one" not in texts[other] and "I kept the big one" not in texts[None]
    assert all("everybody saw this" in text for text in texts.values())
    hub.abandon(table.id, operator=True)          # the game ended: every note is everybody's
    for viewer, page in pages.items():
        page._follow()
        assert hub.visible_notes(table.id, viewer) == sorted([mine, theirs, public], key=lambda n: n["step"])
        assert "I kept the big one" in page.log_view.list.lines


def test_the_teacher_pins_with_the_creator_link_and_its_note_needs_a_full_view(hub):
    creator = "the-creator-token"
    table, tokens = hub.create("subastral", 2, seed=3, creator_digest=token_digest(creator))
    step, drawer = hidden_draw(hub, table, tokens)
    note = hub.add_note(table.id, None, step, "watch this draw", creator_token=creator)
    assert note["seat"] == TEACHER
    assert hub.visible_notes(table.id, drawer) == [note]           # the drawer saw all of it
    assert hub.visible_notes(table.id, 1 - drawer) == []
    with pytest.raises(TableError, match="creator"):
        hub.add_note(table.id, None, step, "forged", creator_token="not-the-creator")
    assert hub.store.notes(table.id) == [note]
    # The creator's page pins through the hub: a forged step past the table is refused there.
    from explorer.pages.table_creator import CreatorPage

    page = CreatorPage(hub, table.id, creator)
    assert page.pin_note(table.step + 5, "the future") is None and "no step" in page.message.object
    drawers = hub.add_note(table.id, tokens[drawer], step, "my secret draw")
    pinned = page.pin_note(0, "<i>a fair deal</i>")
    assert pinned["seat"] == TEACHER and hub.store.notes(table.id) == [note, drawers, pinned]
    assert "&lt;i&gt;a fair deal&lt;/i&gt;" in page.notes.object and "watch this draw" in page.notes.object
    assert "my secret draw" not in page.notes.object        # the creator page reads as a spectator does


@pytest.mark.parametrize("step, text, problem", [
    (0, "", "empty"), (0, " \n\t ", "empty"), (0, "x" * (NOTE_LIMIT + 1), "at most 2000"),
    (3, "a move not made yet", "no step 3"), (-1, "before the deal", "no step -1"), ("1", "a text step", "no step '1'"),
    (True, "a boolean step", "no step True"), (1.0, "a fraction", "no step 1.0"), (0, None, "a note is text"),
    (0, ["list"], "a note is text"),
    # (a note must show what it holds: "\u202eevil" showed "live" on the other seats' pages)
    (0, "\u202eevil", "U\\+202E"), (1, "ok \u2066hidden\u2069 order", "U\\+2066"),
    # (nor one that shows as nothing: NUL, escape, DEL; a line break and a tab are text)
    (0, "a\x00b", "U\\+0000"), (1, "esc \x1b[31m red", "U\\+001B"), (0, "del\x7f", "U\\+007F"),
    # (nor half a character: a lone surrogate a forged message can carry raised from the database's write)
    (1, "half \ud83d", "U\\+D83D, half of a character"),
    # (nor one that shows nothing at all: each was pinned, an author's name over an empty note, and a note
    # is never taken back: zero-width spaces, Hangul fillers, braille blanks, marks with nothing under them)
    (0, "\u200b\u200b\u200b", "shows nothing"), (1, "\u3164" * 3, "shows nothing"), (0, "\u2800\u2800", "shows nothing"),
    (1, "\u0301" * 50, "shows nothing"), (0, " \u200d\ufeff\u2060 \u115f\uffa0 ", "shows nothing"),
    # (nor one that swamps every viewer's log: 1,990 line breaks stood 29,000 pixels tall, and dozens of
    # marks stacked on one letter were drawn over the log's lines above and below)
    (0, "top" + "\n" * 1990 + "bottom", "1991 lines; at most 20"), (1, "line\n" * 20 + "line", "21 lines; at most 20"),
    (0, "e" + "\u0301" * 1990, "more than 8 marks on one character \\(U\\+0301"),
    (1, "ok a" + "\u0300\u0301\u0302" * 3, "U\\+0302 is one too many"),
    (0, "a" + ("\u0301" * 4 + "\u200d") * 3, "more than 8 marks")])       # (a joiner between them draws nothing)
def test_bad_notes_are_refused_naming_the_problem_and_change_nothing(hub, step, text, problem):
    table, tokens = hub.create("subastral", 2, seed=2)
    for _ in range(2):
        play_first_legal(hub, table, tokens)
    with pytest.raises(TableError, match=problem) as refused:
        hub.add_note(table.id, tokens[0], step, text)
    assert refused.value.problem_in("ja") != refused.value.problem      # said in Japanese too
    assert hub.store.notes(table.id) == [] and table.notes == []


@pytest.mark.parametrize("text", [
    "Tiếng Việt: nước đi này hay", "ภาษาไทย: ตาที่ดี", "שָׁלוֹם", "日本語のメモ\n二行目", "line\n" * 19 + "line 20",
    "a" + "\u0301" * 8, "👍🏽 nice", "nbsp\u00a0and\u3000ideographic space", "\u3164 ㅋㅋ (a filler, then letters)"])
def test_notes_in_any_writing_are_pinned_as_written(hub, text):
    """The limits refuse what shows nothing or swamps the log, not writing: accents, vowel and tone marks,
    20 lines, 8 marks on one letter, emoji with a skin tone, every kind of space between words."""
    table, tokens = hub.create("subastral", 2, seed=2)
    play_first_legal(hub, table, tokens)
    note = hub.add_note(table.id, tokens[0], 1, text)
    assert note["text"] == text.strip() and hub.store.notes(table.id) == [note]


def test_notes_from_wrong_links_and_spectators_are_refused(hub):
    table, tokens = hub.create("subastral", 2, seed=2)
    elsewhere, other_tokens = hub.create("subastral", 2, seed=4)
    play_first_legal(hub, table, tokens)
    with pytest.raises(TableError, match="not valid for table"):
        hub.add_note(table.id, other_tokens[0], 1, "another table's seat")
    with pytest.raises(TableError, match="not valid for table"):
        hub.add_note(table.id, "forged-token", 1, "a forged link")
    with pytest.raises(TableError, match="spectators read notes"):
        hub.add_note(table.id, None, 1, "a spectator")
    with pytest.raises(TableError, match="no table"):
        hub.add_note("nope", tokens[0], 1, "no such table")
    assert hub.store.notes(table.id) == [] and hub.store.notes(elsewhere.id) == []


def test_a_page_escapes_notes_and_refuses_forged_form_events(hub):
    table, tokens = hub.create("subastral", 2, seed=3)
    for _ in range(2):
        play_first_legal(hub, table, tokens)
    page, spectator = TablePage(hub, table.id, tokens[0]), TablePage(hub, table.id, None)
    assert spectator.log_view.form is None                 # a spectator's page has no form to fire
    form = page.log_view.form
    page.session.goto(1)
    form.text_input.value = '<img src=x onerror="alert(1)">'
    assert form.submit()
    public = public_move(table) == 1
    html = page.log_view.list.lines
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html and "<img" not in html
    # Forged from the browser's console: a value past the field's max_length, a step past the table.
    form.text_input.value = "y" * (NOTE_LIMIT + 5)
    assert not form.submit() and "at most 2000" in form.message.object
    with pytest.raises(TableError, match="no step 7"):
        page.pin_note(7, "the future")
    assert [note["text"] for note in hub.store.notes(table.id)] == ['<img src=x onerror="alert(1)">']
    spectator._follow()
    assert ("&lt;img" in spectator.log_view.list.lines) == public


def test_a_finished_table_exports_its_notes_and_the_explorer_keeps_them(hub, tmp_path, capsys):
    from explorer import cli

    table, tokens = hub.create("subastral", 2, seed=3)
    step, drawer = hidden_draw(hub, table, tokens)
    notes = [hub.add_note(table.id, tokens[drawer], step, "hidden until the end"),
             hub.add_note(table.id, tokens[1 - drawer], 0, "ｄｅａｌ — 配られた札")]
    hub.abandon(table.id, operator=True)
    data = table.replay()
    assert data["notes"] == notes
    out = tmp_path / "replay.json"
    assert cli.main(["tables", "export", table.id, "--db", str(hub.store.path), "--out", str(out)]) == 0
    assert "2 notes" in capsys.readouterr().out
    exported = json.loads(out.read_text())
    assert exported["notes"] == notes and exported["actions"] == data["actions"]
    session = GameSession(game="subastral", players=2, seed=1)
    session.load(exported)
    assert session.notes == notes
    again = session.replay()
    assert again["notes"] == notes
    replay_files.read(again)


@pytest.mark.parametrize("notes, where, problem", [
    ({"step": 0}, "replay.notes", "must be a list"),
    (["a note"], "replay.notes[0]", "each note is"),
    ([{"step": 0, "seat": 0}], "replay.notes[0]", "each note is"),
    ([{"step": 0, "seat": 0, "text": "x", "colour": "red"}], "replay.notes[0]", "each note is"),
    ([{"step": 9, "seat": 0, "text": "x"}], "replay.notes[0].step", "from 0 .the deal. to 2, not 9"),
    ([{"step": 1, "seat": 2, "text": "x"}], "replay.notes[0].seat", 'from 0 to 1 or "teacher", not 2'),
    ([{"step": 1, "seat": "Teacher", "text": "x"}], "replay.notes[0].seat", "not 'Teacher'"),
    ([{"step": 1, "seat": 0, "text": " "}], "replay.notes[0].text", "1 to 2000 characters"),
    ([{"step": 1, "seat": 0, "text": "x", "at": "noon"}], "replay.notes[0].at", "seconds, not 'noon'"),
    ([{"step": 1, "seat": 0, "text": "see \u202dthis"}], "replay.notes[0].text", "U\\+202D"),
    ([{"step": 1, "seat": 0, "text": "nul\x00"}], "replay.notes[0].text", "U\\+0000, a control character"),
    ([{"step": 1, "seat": 0, "text": "half \ud83d"}], "replay.notes[0].text", "U\\+D83D, half of a character")])
def test_a_replays_bad_notes_are_refused_naming_the_field(notes, where, problem):
    session = GameSession(game="subastral", players=2, seed=3)
    for _ in range(2):
        seat = session.spec.to_move(session.state)[0]
        session.play(seat, session.spec.legal_actions(session.state, seat)[0])
    data = {**session.replay(), "notes": notes}
    with pytest.raises(InvalidReplay, match=problem) as refused:
        replay_files.read(data)
    assert refused.value.where == where and refused.value.problem_in("ja") != str(refused.value)
    fresh = GameSession(game="subastral", players=2, seed=3)
    with pytest.raises(InvalidReplay):
        fresh.load(data)
    assert fresh.log == [] and fresh.notes == []          # nothing changed


def test_notes_pinned_before_the_limits_are_kept_and_a_finished_table_still_loads(db):
    """A note that shows nothing, has more than 20 lines or stacks more than 8 marks is no longer pinned;
    one stored before (in a table's database) stays, and the finished table's replay, with every note,
    still loads in the explorer: a replay's notes are read as they were pinned (what no page may show,
    a reordering or control character, is refused however old)."""
    hub = TableHub(db, bot_delay=0.0)
    table, tokens = hub.create("subastral", 2, seed=2)
    play_first_legal(hub, table, tokens)
    before = ["\u200b\u3164", "a\n" * 21 + "end", "z" + "\u0336" * 30]
    for text in before:                 # (stored as an older version pinned them: past today's checks)
        hub.store.append_note(table.id, 1, 0, text, 1.0)
    hub.close()
    hub = TableHub(db, bot_delay=0.0)
    table = hub.table(table.id)
    while not table.ended:
        play_first_legal(hub, table, tokens)
    data = table.replay()
    assert [note["text"] for note in data["notes"]] == before
    session = GameSession(game="subastral", players=2, seed=2)
    session.load(data)
    assert [note["text"] for note in session.notes] == before
    hub.close()


def test_explorer_notes_follow_their_line_and_the_viewpoint(tmp_path):
    session = GameSession(game="subastral", players=2, seed=3)
    spec = session.spec
    for _ in range(6):
        seat = spec.to_move(session.state)[0]
        session.play(seat, spec.legal_actions(session.state, seat)[0])
    hidden = next(step for step in range(1, 7)
                  if spec.observe(session.state_at(step), 0)["events"] != spec.observe(session.state_at(step), "all")["events"])
    note = session.add_note(hidden, "teacher's remark")          # the teacher's view: no viewing seat
    assert note["seat"] == TEACHER and session.visible_notes() == [note]
    session.viewing_seat = 0
    assert session.visible_notes() == []                          # seat 0 did not see that move in full
    mine = session.add_note(1, "Player 1 thinks")
    assert mine["seat"] == 0
    session.viewing_seat = None
    # A new move at an earlier step: the notes after it stay with the old line, and come back with it.
    session.goto(0)
    seat = spec.to_move(session.state)[0]
    session.play(seat, spec.legal_actions(session.state, seat)[-1])
    assert session.notes == [] and list(session.branches[-1].notes) == [note, mine]
    session.switch_branch(len(session.branches) - 1)
    assert session.notes == [note, mine]
    with pytest.raises(ValueError, match="no step 99"):
        session.add_note(99, "beyond the line")
    assert session.notes == [note, mine]


@pytest.mark.timeout(120)
def test_a_note_survives_kill_9_of_the_process_that_pinned_it_and_is_exported(tmp_path):
    """A real process pins notes (printing each once add_note returned) and is SIGKILLed while it
    pins more; every note it said was pinned is in the database and in `tables export`'s replay."""
    db = tmp_path / "tables.sqlite3"
    code = f"""
import json, sys
from explorer.tables.hub import TableHub
hub = TableHub({str(db)!r}, bot_delay=0.0)
table, tokens = hub.create("subastral", 2, seed=3)
for _ in range(3):
    seat = table.to_move[0]
    hub.act(table.id, tokens[seat], table.step, table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0]))
print(json.dumps({{"table": table.id}}), flush=True)
number = 0
while True:
    number += 1
    hub.add_note(table.id, tokens[number % 2], number % 4, f"note {{number}}")
    print(f"pinned {{number}}", flush=True)
"""
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        table_id = json.loads(proc.stdout.readline())["table"]
        acknowledged = 0
        while acknowledged < 25:
            line = proc.stdout.readline()
            assert line.startswith("pinned "), line
            acknowledged = int(line.split()[1])
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    stored = TableStore(db, read_only=True).notes(table_id)
    assert [note["text"] for note in stored[:acknowledged]] == [f"note {n}" for n in range(1, acknowledged + 1)]
    out = tmp_path / "replay.json"
    done = subprocess.run([sys.executable, "-m", "explorer.cli", "tables", "export", table_id, "--db", str(db),
                           "--out", str(out)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    exported = json.loads(out.read_text())
    assert exported["notes"] == stored and len(exported["actions"]) == 3
    replay_files.read(exported)
    hub = TableHub(db, bot_delay=0.0)             # a server restarted on the file shows them
    assert hub.table(table_id).notes == stored
    hub.close()


def test_each_person_pins_at_most_max_notes_to_a_table(db, monkeypatch):
    """A seat pinned 150 notes of 1,900 characters in 30 s from the console, and every open page was sent
    the table's notes again at each: 23 MB to a spectator. Each author (seat, teacher) pins at most
    ``max_notes`` to one table; the next is refused in words, and others may still pin theirs."""
    monkeypatch.setenv("RULES_EXPLORER_MAX_NOTES", "3")
    hub = TableHub(db, bot_delay=3600)
    assert hub.max_notes == 3
    table, tokens = hub.create("subastral", 2, seed=2)
    play_first_legal(hub, table, tokens)
    for n in range(3):
        hub.add_note(table.id, tokens[0], 1, f"note {n}")
    with pytest.raises(TableError, match="pinned 3 notes to table .*nothing was pinned") as refused:
        hub.add_note(table.id, tokens[0], 1, "one too many")
    assert "3件のメモ" in refused.value.problem_in("ja")
    hub.add_note(table.id, tokens[1], 1, "the other seat's own")
    assert [note["text"] for note in hub.store.notes(table.id)] == ["note 0", "note 1", "note 2", "the other seat's own"]
    hub.close()
