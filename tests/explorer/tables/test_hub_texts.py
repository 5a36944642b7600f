"""The playtest tables' own refusals (unknown table, wrong link, spectator, stale page, not your
turn) say what was wrong in English, as before, and in Japanese."""

from __future__ import annotations

import pytest

from explorer.tables.hub import TableError, TableHub
from rules.protocol import IllegalAction
from tests.helpers.seeded_games import JAPANESE


@pytest.fixture
def hub(tmp_path):
    hub = TableHub(tmp_path / "tables.sqlite3", bot_delay=0.0)
    yield hub
    hub.close()


def refused(call) -> Exception:
    with pytest.raises((TableError, IllegalAction)) as caught:
        call()
    return caught.value


def test_every_refusal_of_the_tables_is_said_in_both_languages(hub):
    table, tokens = hub.create("subastral", 2, seed=1)
    mover = table.to_move[0]
    other = 1 - mover
    action = table.spec.encode_action(table.spec.legal_actions(table.state, mover)[0])
    errors = [
        refused(lambda: hub.table("nope")),
        refused(lambda: hub.table("")),
        refused(lambda: hub.seat_of(table.id, "wrong-key")),
        refused(lambda: hub.act(table.id, None, 0, action)),
        refused(lambda: hub.act(table.id, "wrong-key", 0, action)),
        refused(lambda: hub.act(table.id, tokens[mover], "two", action)),
        refused(lambda: hub.act(table.id, tokens[mover], 5, action)),
        refused(lambda: hub.act(table.id, tokens[other], 0, action)),
    ]
    for error in errors:
        english = error.problem if isinstance(error, TableError) else error.reason
        japanese = error.problem_in("ja") if isinstance(error, TableError) else error.reason_in("ja")
        assert english == str(error).split(" (rule: ")[0]
        assert JAPANESE.search(japanese) and japanese != english, (english, japanese)
    assert errors[0].problem == "there is no table 'nope': check the link"
    assert errors[-1].reason == f"it is not Player {other + 1}'s turn: the table waits for Player {mover + 1}"
