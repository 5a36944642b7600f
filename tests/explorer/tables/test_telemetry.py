"""Telemetry of the playtest tables (issue #24, item 4): decision times and refused moves, stored
with the table, summed up per seat and across tables, as CSV."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest

from explorer.pages.table_pages import TablePage
from explorer.tables import telemetry
from explorer.tables.hub import HUMAN, TableHub
from explorer.tables.store import TableStore
from rules.protocol import IllegalAction
from tests.helpers.tables import play_first_legal, wait_for


def illegal_take(table):
    """A move Subastral's rules refuse the mover at the start of its turn (it must play a card first)."""
    return {"type": "take", "cloud": 1, "to": "hand"}


def test_each_persons_decision_is_timed_on_the_server_and_bots_are_not(hub):
    table, tokens = hub.create("subastral", 2, seed=3, controllers=[HUMAN, "random"])
    assert wait_for(lambda: 0 in table.to_move)
    table.start_clocks(time.time() - 5)           # Player 1 could move five seconds ago
    play_first_legal(hub, table, tokens)
    rows = hub.store.decisions(table.id)
    assert len(rows) == 1 and rows[0][0] == table.id and rows[0][2] == 0 and table.moves[rows[0][1] - 1][0] == 0
    assert 5 <= rows[0][3] < 60
    while table.step < 8:                         # (the deal, so who starts, is secret: any order)
        assert wait_for(lambda: 0 in table.to_move)
        play_first_legal(hub, table, tokens)
    assert any(seat == 1 for seat, _ in table.moves)
    seats = {seat for _, _, seat, _ in hub.store.decisions(table.id)}
    assert seats == {0}                           # the bot's moves are not timed
    steps = [step for _, step, _, _ in hub.store.decisions(table.id)]
    assert all(table.moves[step - 1][0] == 0 for step in steps)


def test_a_seat_still_choosing_in_a_simultaneous_phase_keeps_its_clock(hub):
    table, tokens = hub.create("starligned", 3, seed=13)
    movers = list(table.to_move)
    assert len(movers) == 3                       # a Starligned round is played by all at once
    table.start_clocks(time.time() - 30)
    first = movers[0]
    action = table.spec.encode_action(table.spec.legal_actions(table.state, first)[0])
    hub.act(table.id, tokens[first], table.step, action)
    waiting = [seat for seat in movers[1:] if seat in table.to_move]
    assert waiting and all(time.time() - table.turn_since[seat] >= 30 for seat in waiting)
    seat = waiting[0]
    hub.act(table.id, tokens[seat], table.step, table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0]))
    seconds = {row[2]: row[3] for row in hub.store.decisions(table.id)}
    assert seconds[first] >= 30 and seconds[seat] >= 30


def test_moves_the_rules_refuse_are_stored_by_rule_and_others_are_not(hub):
    table, tokens = hub.create("subastral", 2, seed=3)
    mover = table.to_move[0]
    with pytest.raises(IllegalAction) as refused:
        hub.act(table.id, tokens[mover], 0, illegal_take(table))
    with pytest.raises(IllegalAction):
        hub.act(table.id, tokens[mover], 0, illegal_take(table))
    with pytest.raises(IllegalAction):            # another's turn: the hub's refusal, not a rule tripped over
        hub.act(table.id, tokens[1 - mover], 0, illegal_take(table))
    rows = hub.store.refusals(table.id)
    assert [(step, seat, rule) for _, step, seat, rule, _ in rows] == [(1, mover, refused.value.rule)] * 2
    assert table.step == 0                        # nothing was played


def test_the_summary_per_seat_and_across_tables(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite3")
    store.create_table("t1", "subastral", 2, 1, {}, [HUMAN, "greedy"], {0: "d"})
    store.create_table("t2", "stellar", 2, 2, {}, [HUMAN, HUMAN], {0: "d", 1: "e"})
    for step, seconds in enumerate((4.0, 1.0, 10.0), start=1):
        store.append_move("t1", step, 0, {"n": step}, decision=seconds)
    store.append_move("t1", 4, 1, {"n": 4})       # the bot's: untimed
    for rule, seat in (("play first", 0), ("play first", 0), ("the cloud must hold a card", 0)):
        store.append_refusal("t1", 5, seat, rule)
    store.append_refusal("t2", 1, 1, "play first")
    store.append_refusal("t2", 1, 1, "a card of your hand")
    seats = telemetry.table_summary(store, "t1")
    assert seats[0] == {"table": "t1", "game": "subastral", "seat": 0, "controller": HUMAN, "decisions": 3,
                        "median_seconds": 4.0, "mean_seconds": 5.0, "refusals": 3,
                        "by_rule": {"play first": 2, "the cloud must hold a card": 1}}
    assert seats[1]["decisions"] == 0 and seats[1]["median_seconds"] is None and seats[1]["refusals"] == 0
    assert telemetry.rule_summary(store) == [
        {"game": "subastral", "rule": "play first", "refusals": 2, "tables": 1, "seats": 1},
        {"game": "stellar", "rule": "a card of your hand", "refusals": 1, "tables": 1, "seats": 1},
        {"game": "stellar", "rule": "play first", "refusals": 1, "tables": 1, "seats": 1},
        {"game": "subastral", "rule": "the cloud must hold a card", "refusals": 1, "tables": 1, "seats": 1}]
    with pytest.raises(KeyError, match="no table 'nope'"):
        telemetry.table_summary(store, "nope")
    rows = list(csv.reader(io.StringIO(telemetry.csv_text(store))))
    assert rows[0] == list(telemetry.SEAT_COLUMNS)
    assert rows[1] == ["seat", "t1", "subastral", "1", "3", "4.000", "5.000", "3",
                       "play first=2; the cloud must hold a card=1"]
    assert rows[2] == ["seat", "t1", "subastral", "2", "0", "", "", "0", ""]
    assert [row[:4] for row in rows[3:5]] == [["seat", "t2", "stellar", "1"], ["seat", "t2", "stellar", "2"]]
    assert rows[5] == list(telemetry.RULE_COLUMNS)
    assert rows[6] == ["rule", "subastral", "play first", "2", "1", "1"] and [row[0] for row in rows].count("rule") == 4
    assert rows[10] == list(telemetry.DECISION_COLUMNS)           # (then the kinds added since: after these)
    one = list(csv.reader(io.StringIO(telemetry.csv_text(store, "t2"))))
    assert [row[1] for row in one if row[0] == "seat"] == ["t2", "t2"]
    assert [row[2] for row in one if row[0] == "rule"] == ["a card of your hand", "play first"]
    store.close()


def test_the_cli_and_the_finished_tables_page_give_the_csv(hub, capsys, tmp_path):
    from explorer import cli

    table, tokens = hub.create("subastral", 2, seed=3)
    mover = table.to_move[0]
    with pytest.raises(IllegalAction) as refused:
        hub.act(table.id, tokens[mover], 0, illegal_take(table))
    for _ in range(3):
        play_first_legal(hub, table, tokens)
    page = TablePage(hub, table.id, tokens[0])
    assert "not over" in page._telemetry_file().read()          # (the download waits for the end)
    assert not page.telemetry_box.visible
    seat = table.to_move[0]
    page = TablePage(hub, table.id, tokens[seat])
    assert page.picker.offers() and page.picker_box.visible and "Your move" in page.status.object
    hub.abandon(table.id, operator=True)
    page._follow()
    # An ended table's page says so and offers no move; it sums the table up and offers the download,
    # as a finished one's does.
    assert "ended at step 3" in page.status.object and "Your move" not in page.status.object
    assert not page.picker_box.visible and not page.picker.offers() and not page.picker.actable_seats()
    assert page.telemetry_box.visible and page.end.visible and page.scores is None     # (no final scores: replay, rematch)
    assert refused.value.rule in page.telemetry.object and "Time per decision" in page.telemetry.object
    downloaded = page._telemetry_file().read()
    assert downloaded == telemetry.csv_text(hub.store, table.id)
    rows = list(csv.reader(io.StringIO(downloaded)))
    decided = [row for row in rows if row[0] == "seat"]
    assert sum(int(row[4]) for row in decided) == 3
    assert ["rule", "subastral", refused.value.rule, "1", "1", "1"] in rows
    db = str(hub.store.path)
    capsys.readouterr()
    assert cli.main(["tables", "telemetry", table.id, "--db", db, "--csv"]) == 0
    assert capsys.readouterr().out == downloaded
    assert cli.main(["tables", "telemetry", "--db", db, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"][0]["rule"] == refused.value.rule and len(data["seats"]) == 2
    assert cli.main(["tables", "telemetry", "--db", db]) == 0
    said = capsys.readouterr().out
    assert "rules people trip over most" in said and refused.value.rule in said
    out = tmp_path / "telemetry.csv"
    assert cli.main(["tables", "telemetry", "--db", db, "--csv", "--out", str(out)]) == 0
    assert out.read_text() == telemetry.csv_text(hub.store)
    assert cli.main(["tables", "telemetry", "nope", "--db", db]) == 2


def test_a_finished_tables_page_sums_up_each_seats_decisions_and_refusals(hub):
    table, tokens = hub.create("subastral", 2, seed=3)
    mover = table.to_move[0]
    with pytest.raises(IllegalAction) as refused:
        hub.act(table.id, tokens[mover], 0, illegal_take(table))
    page = TablePage(hub, table.id, tokens[mover], lang="ja")
    while not table.over:
        play_first_legal(hub, table, tokens)
    page._follow()
    assert page.telemetry_box.visible and page.end.visible
    said = page.telemetry.object
    summary = telemetry.table_summary(hub.store, table.id)
    assert all(row["decisions"] > 10 for row in summary)
    for row in summary:
        assert f'{row["median_seconds"]:.1f}' in said and f'（{row["decisions"]}手）' in said
    assert f"{refused.value.rule} ×1" in said and "1手ごとの考慮時間" in said


def test_a_restored_table_times_the_waiting_seat_from_its_last_stored_move(db):
    hub = TableHub(db, bot_delay=0.0)
    table, tokens = hub.create("subastral", 2, seed=3)
    for _ in range(2):
        play_first_legal(hub, table, tokens)
    last = hub.store.last_move_at(table.id)
    hub.store.close()                             # the server "dies"
    again = TableHub(db, bot_delay=0.0)
    restored = again.table(table.id)
    assert restored.turn_since == {seat: last for seat in restored.to_move}
    play_first_legal(again, restored, tokens)
    _, step, _, seconds = again.store.decisions(table.id)[-1]
    assert step == 3 and seconds >= 0
    again.close()


def test_the_lobby_gives_the_telemetry_of_ended_tables_only(hub):
    from explorer.pages.table_pages import Lobby

    live, live_tokens = hub.create("subastral", 2, seed=3)
    ended, ended_tokens = hub.create("subastral", 2, seed=4)
    for table, tokens in ((live, live_tokens), (ended, ended_tokens)):
        with pytest.raises(IllegalAction):
            hub.act(table.id, tokens[table.to_move[0]], 0, illegal_take(table))
        play_first_legal(hub, table, tokens)
    hub.abandon(ended.id, operator=True)
    rows = list(csv.reader(io.StringIO(Lobby(hub).telemetry_download.callback().read())))
    assert {row[1] for row in rows if row[0] == "seat"} == {ended.id}
    assert [row[3:] for row in rows if row[0] == "rule"] == [["1", "1", "1"]]       # the live table's not counted
    assert len(telemetry.rule_summary(hub.store)) == 1 and telemetry.rule_summary(hub.store)[0]["tables"] == 2


def test_the_creators_page_follows_the_tables_notes(hub):
    from explorer.pages.table_creator import CreatorPage
    from explorer.tables.store import token_digest

    table, tokens = hub.create("subastral", 2, seed=3, creator_digest=token_digest("c"))
    play_first_legal(hub, table, tokens)
    page = CreatorPage(hub, table.id, "c")
    assert page.notes.object == ""
    hub.add_note(table.id, tokens[0], 1, "seen by everybody")       # pinned from a seat's page
    assert "seen by everybody" in page.notes.object
