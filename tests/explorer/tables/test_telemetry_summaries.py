"""Telemetry a designer can use (issue #24, item 4): each decision's seconds in the CSV, the time per
decision summed up across tables per game, and the lobby's summary of the ended tables."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest

from explorer.pages.table_pages import Lobby, telemetry_across_html
from explorer.tables import telemetry
from explorer.tables.hub import HUMAN
from explorer.tables.store import TableStore
from rules.protocol import IllegalAction
from tests.helpers.tables import play_first_legal

FORMATS = Path(__file__).resolve().parents[3] / "docs" / "formats.md"


def rows_of(kind: str, text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row[0] == kind]


def test_each_decision_is_a_row_with_its_move_and_kind_of_action_as_the_docs_show(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite3")
    store.create_table("t1", "subastral", 2, 1, {}, [HUMAN, "greedy"], {0: "d"}, created=1.0)
    for step, (kind, seconds) in enumerate((("play", 4.0), ("take", 1.0), ("play", 10.0)), start=1):
        store.append_move("t1", step, 0, {"type": kind, "card": step}, decision=seconds)
    store.append_move("t1", 4, 1, {"type": "play", "card": 4})          # the bot's: untimed, no row
    store.append_refusal("t1", 5, 0, "play a card first")
    assert telemetry.decision_rows(store, "t1") == [
        {"table": "t1", "game": "subastral", "seat": 0, "step": 1, "action_type": "play", "seconds": 4.0},
        {"table": "t1", "game": "subastral", "seat": 0, "step": 2, "action_type": "take", "seconds": 1.0},
        {"table": "t1", "game": "subastral", "seat": 0, "step": 3, "action_type": "play", "seconds": 10.0}]
    with pytest.raises(KeyError, match="no table 'nope'"):
        telemetry.decision_rows(store, "nope")
    text = telemetry.csv_text(store)
    rows = list(csv.reader(io.StringIO(text)))
    headers = [row for row in rows if row[0] == "kind"]
    assert headers == [list(columns) for columns in (telemetry.SEAT_COLUMNS, telemetry.RULE_COLUMNS,
                                                     telemetry.DECISION_COLUMNS, telemetry.TIME_COLUMNS)]
    assert rows_of("decision", text) == [["decision", "t1", "subastral", "1", "1", "play", "4.000"],
                                         ["decision", "t1", "subastral", "1", "2", "take", "1.000"],
                                         ["decision", "t1", "subastral", "1", "3", "play", "10.000"]]
    # docs/formats.md shows exactly this file.
    documented = re.search(r"\*\*Telemetry CSV\*\*.*?```\n(.*?)```", FORMATS.read_text(encoding="utf-8"), re.S)
    assert documented and documented.group(1) == text
    store.close()


def test_time_per_decision_across_tables_per_game_and_player_count(tmp_path, capsys):
    from explorer import cli

    db = tmp_path / "tables.sqlite3"
    store = TableStore(db)
    store.create_table("a", "subastral", 2, 1, {}, [HUMAN, HUMAN], {0: "d", 1: "e"}, created=1.0)
    for step, seat, seconds in ((1, 0, 2.0), (2, 1, 6.0), (3, 0, 4.0)):
        store.append_move("a", step, seat, {"type": "play"}, decision=seconds)
    store.finish("a", [3, 1], [0])
    store.create_table("b", "subastral", 3, 2, {}, [HUMAN, "greedy", "greedy"], {0: "f"}, created=2.0)
    store.append_move("b", 1, 0, {"type": "take"}, decision=10.0)
    store.abandon("b")
    store.create_table("c", "stellar", 2, 3, {}, [HUMAN, HUMAN], {0: "g", 1: "h"}, created=3.0)
    store.append_move("c", 1, 1, {"type": "take"}, decision=3.0)        # still playing
    store.create_table("d", "stellar", 2, 4, {}, ["greedy", "greedy"], {}, created=4.0)
    store.append_move("d", 1, 0, {"type": "take"})                       # bots only: untimed
    subastral = [
        {"game": "subastral", "players": None, "decisions": 4, "tables": 2, "seats": 3,
         "median_seconds": 5.0, "mean_seconds": 5.5},
        {"game": "subastral", "players": 2, "decisions": 3, "tables": 1, "seats": 2,
         "median_seconds": 4.0, "mean_seconds": 4.0},
        {"game": "subastral", "players": 3, "decisions": 1, "tables": 1, "seats": 1,
         "median_seconds": 10.0, "mean_seconds": 10.0}]
    stellar = [{"game": "stellar", "players": players, "decisions": 1, "tables": 1, "seats": 1,
                "median_seconds": 3.0, "mean_seconds": 3.0} for players in (None, 2)]
    assert telemetry.time_summary(store) == stellar + subastral
    assert telemetry.time_summary(store, ended_only=True) == subastral       # the live table's stay private
    assert telemetry.time_summary(store, "a") == [dict(subastral[1], players=None), subastral[1]]
    assert rows_of("time", telemetry.csv_text(store, ended_only=True)) == [
        ["time", "subastral", "", "4", "2", "3", "5.000", "5.500"],
        ["time", "subastral", "2", "3", "1", "2", "4.000", "4.000"],
        ["time", "subastral", "3", "1", "1", "1", "10.000", "10.000"]]
    assert {row[1] for row in rows_of("decision", telemetry.csv_text(store, ended_only=True))} == {"a", "b"}
    assert cli.main(["tables", "telemetry", "--db", str(db)]) == 0
    said = capsys.readouterr().out
    assert "time per decision, per game (and per player count):" in said
    assert "subastral    all counts  median 5.0s, mean 5.5s over 4 decisions (2 tables, 3 seats)" in said
    assert "subastral    3 players   median 10.0s, mean 10.0s over 1 decisions (1 tables, 1 seats)" in said
    assert cli.main(["tables", "telemetry", "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["times"] == stellar + subastral and len(data["decisions"]) == 5
    store.close()


def test_the_lobby_sums_up_the_ended_tables_only_in_english_and_japanese(hub):
    live, live_tokens = hub.create("subastral", 2, seed=3)
    ended, ended_tokens = hub.create("subastral", 2, seed=4)
    for table, tokens in ((live, live_tokens), (ended, ended_tokens)):
        with pytest.raises(IllegalAction) as refused:
            hub.act(table.id, tokens[table.to_move[0]], 0, {"type": "take", "cloud": 1, "to": "hand"})
        for _ in range(3):
            play_first_legal(hub, table, tokens)
    hub.store.append_refusal(live.id, 4, 0, "a rule only the live table tripped over")
    lobby = Lobby(hub)
    assert "No ended table" in lobby.telemetry_across.object
    hub.abandon(ended.id, operator=True)
    lobby.refresh()
    said = lobby.telemetry_across.object
    rule = html.escape(refused.value.rule)
    assert f"<td>Subastral</td><td>{rule}</td><td>1</td><td>1</td>" in said     # the live table's not counted
    assert "only the live table" not in said
    timed = len(hub.store.decisions(ended.id))
    assert timed == 3 and f"({timed} decisions)" in said
    japanese = Lobby(hub, lang="ja").telemetry_across.object
    assert "引っかかりやすいルール" in japanese and f"（{timed}手）" in japanese
    hub.abandon(live.id, operator=True)          # once it has ended, its telemetry is summed up too
    lobby.refresh()
    said = lobby.telemetry_across.object
    assert f"<td>{rule}</td><td>2</td><td>2</td>" in said and "only the live table" in said
    assert f"({2 * timed} decisions)" in said


def test_the_lobbys_summary_escapes_what_the_database_holds(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite3")
    game, rule = "<script>alert(1)</script>", '<img src=x onerror="alert(2)">'
    store.create_table("t1", game, 2, 1, {}, [HUMAN, HUMAN], {0: "d", 1: "e"})
    store.append_move("t1", 1, 0, {"type": "<b>"}, decision=2.0)
    store.append_refusal("t1", 2, 1, rule)
    assert "<script" not in telemetry_across_html(store) and "No ended table" in telemetry_across_html(store)
    store.finish("t1", [0, 0], [0, 1])
    for lang in ("en", "ja"):
        said = telemetry_across_html(store, lang)
        assert html.escape(game) in said and html.escape(rule) in said
        assert "<script" not in said and "<img" not in said and "<b>" not in said
    store.close()
