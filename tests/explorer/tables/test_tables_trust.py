"""Playtest tables you can trust (issue #20): the deal is secret until the game ends; write failures
are survived; one server per database; limits and the creator's and operator's controls.

Every test works on real SQLite files; the server tests start a real ``panel serve``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest

import rules
from rules import chance
from explorer.tables.hub import HUMAN, SetUpRefused, TableError, TableHub
from explorer.tables.store import SCHEMA_VERSION, SEED_LIMIT, StoreError, TableStore, key_path, token_digest
from rules.registry import get_game
from tests.helpers.biome_blitz import competing_line
from tests.helpers.tables import play_first_legal, wait_for
from tests.helpers.tables import Locked


def play_to_the_end(hub, table, tokens):
    while not table.over:
        play_first_legal(hub, table, tokens)


# --------------------------------------------------------------------------------------------
# The deal is secret until the game ends
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", rules.GAMES)
def test_the_seed_a_creator_types_does_not_reproduce_the_deal(hub, game):
    spec = get_game(game)
    players = spec.player_counts[0]
    table, _ = hub.create(game, players, seed=7)
    # What `/explorer?game=G&players=N&seed=7` would deal: not the table's game.
    assert spec.new_game(players, 7) != table.states[0]
    assert table.record.table_seed == 7 and table.record.seed != 7
    assert table.summary()["seed"] is None                     # the lobby's view of a live table


def test_no_other_table_deals_a_live_tables_game(db, hub):
    """A table's deal is made from its id with its seed. When the seed alone made it, a seat (or the
    creator, who typed the seed) made a table with the same seed, ended it, and read the live table's
    hands and deck from that table's review (an outside attack did: 11 cards matched, the whole deal
    recovered). Tables dealt before keep their deals."""
    from explorer.pages.table_pages import review_replay

    live, _ = hub.create("subastral", 3, seed=4321, controllers=(HUMAN, HUMAN, HUMAN))
    copy, copy_tokens = hub.create("subastral", 3, seed=4321, controllers=(HUMAN, HUMAN, HUMAN),
                                   creator_digest=token_digest("the copier"))
    hub.abandon(copy.id, "the copier")
    revealed = review_replay(copy.id, hub)["seed"]            # the copy's deal, public now it has ended
    assert revealed == copy.record.seed != live.record.seed
    assert get_game("subastral").new_game(3, revealed) != live.states[0]
    # A table stored the old way (its deal made from its seed alone) is dealt as it always was.
    store = TableStore(db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE tables SET deal = 'hmac-sha256' WHERE id = ?", (live.id,))
    from explorer.tables.store import deal_seed
    assert store.table(live.id).seed == deal_seed(store.deal_key(create=False), 4321) != live.record.seed
    store.close()


def test_the_deal_seed_and_replay_become_public_when_the_game_ends_and_replay_it(hub):
    from explorer.pages.table_pages import review_replay

    table, tokens = hub.create("subastral", 2, seed=3)
    with pytest.raises(TableError, match="still being played"):
        review_replay(table.id, hub)
    play_to_the_end(hub, table, tokens)
    assert table.summary()["seed"] == table.record.seed
    replay = review_replay(table.id, hub)
    assert replay["seed"] == table.record.seed != 3
    _, final = rules.replay.final_state(replay)
    assert final == table.state
    listed = {entry["id"]: entry for entry in hub.listing()}
    assert listed[table.id]["seed"] == table.record.seed


def test_the_deal_key_is_made_on_first_use_beside_the_database_readable_by_its_owner_only(db, hub):
    assert not key_path(db).exists()
    hub.create("subastral", 2, seed=1)
    mode = stat.S_IMODE(os.stat(key_path(db)).st_mode)
    assert mode == 0o600
    assert len(bytes.fromhex(key_path(db).read_text().strip())) == 32


def test_a_typed_seed_deals_each_table_its_own_game_which_it_keeps(db, tmp_path):
    """The same typed seed deals another game at every table, on one server as on another (once it
    dealt the same game at every table of a server: see test_no_other_table_deals_a_live_tables_game);
    a table keeps its game when the server starts again."""
    first = TableHub(db, bot_delay=0.0)
    a, _ = first.create("stellar", 2, seed=11)
    b, _ = first.create("stellar", 2, seed=11)
    assert a.states[0] != b.states[0]
    other = TableHub(tmp_path / "other.sqlite3", bot_delay=0.0)
    c, _ = other.create("stellar", 2, seed=11)
    assert c.states[0] not in (a.states[0], b.states[0])
    first.close()
    again = TableHub(db, bot_delay=0.0)
    assert again.table(a.id).states[0] == a.states[0] and again.table(b.id).states[0] == b.states[0]
    again.close()
    other.close()


def test_a_missing_deal_key_is_named_not_guessed(db):
    hub = TableHub(db, bot_delay=0.0)
    table, _ = hub.create("subastral", 2, seed=1)
    hub.close()
    key_path(db).unlink()
    with pytest.raises(StoreError, match=r"deal key .*tables\.sqlite3\.key.* missing"):
        TableHub(db, bot_delay=0.0)


SCHEMA_1 = """
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, seed INTEGER NOT NULL,
    variants TEXT NOT NULL, controllers TEXT NOT NULL, created REAL NOT NULL, rematch_of TEXT REFERENCES tables(id),
    finished REAL, final_scores TEXT, winners TEXT);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), step INTEGER NOT NULL, seat INTEGER NOT NULL,
    action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, step));
PRAGMA user_version = 1;
"""


def test_a_schema_1_database_keeps_its_tables_and_their_seeds(db):
    spec = get_game("subastral")
    state = spec.new_game(2, 7)
    raw = sqlite3.connect(db)
    raw.executescript(SCHEMA_1)
    raw.execute("INSERT INTO tables VALUES ('old1', 'subastral', 2, 7, '{}', '[\"human\", \"human\"]', 1.0, NULL, "
                "NULL, NULL, NULL)")
    raw.execute("INSERT INTO seats VALUES ('old1', 0, ?), ('old1', 1, ?)", (token_digest("a"), token_digest("b")))
    seat = spec.to_move(state)[0]
    action = spec.legal_actions(state, seat)[0]
    raw.execute("INSERT INTO moves VALUES ('old1', 1, ?, ?, 1.0)", (seat, json.dumps(spec.encode_action(action))))
    raw.commit()
    raw.close()
    hub = TableHub(db, bot_delay=0.0)
    table = hub.table("old1")
    assert table.record.seed == 7 and table.states[0] == state and table.step == 1
    assert hub.seat_of("old1", "a") == 0
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    new, _ = hub.create("subastral", 2, seed=7)          # new tables of the same file are dealt secretly
    assert new.states[0] != state
    hub.close()


@pytest.mark.parametrize("seed", [-1, SEED_LIMIT, 10 ** 30])
def test_seeds_out_of_range_are_refused_in_both_languages(hub, seed):
    with pytest.raises(SetUpRefused, match="seed must be a whole number from 0") as refused:
        hub.create("subastral", 2, seed=seed)
    assert "シード" in refused.value.problem_in("ja")
    assert hub.store.tables() == []


@pytest.mark.parametrize("typed, said", [
    ("-5", "from 0"), (str(SEED_LIMIT), "from 0"), ("9" * 5000, "from 0"), ("+7" + "0" * 30, "from 0"),
    # (Python's int() reads these as numbers; the lobby asks for digits 0-9)
    ("1_000", "whole number, not"), ("\u0661\u0662\u0663", "whole number, not"), ("１２", "whole number, not"),
    ("12.0", "whole number, not"), ("-", "whole number, not")])
def test_the_lobby_refuses_seeds_out_of_range_and_stays_usable(hub, typed, said):
    from explorer.pages.table_pages import Lobby

    lobby = Lobby(hub, origin="http://example.test")
    lobby.seed.value = typed
    assert lobby.create() is None
    assert lobby.message.visible and lobby.message.object.startswith("Not created: the seed must")
    assert said in lobby.message.object and hub.store.tables() == []
    assert len(lobby.message.object) < 200
    lobby.seed.value = " +12 "
    table, _ = lobby.create()
    assert table.record.table_seed == 12


def test_no_page_of_a_live_table_holds_its_deal_seed(hub):
    """Every model of every seat's, the spectator's, the creator's and the lobby's page, as the server
    would send them: the deal's seed is in none (with it, the explorer would deal every hand)."""
    from explorer.pages.table_creator import CreatorPage
    from explorer.pages.table_pages import Lobby, TablePage
    from tests.helpers.tables import document_text, mounted

    lobby = Lobby(hub, origin="http://example.test")
    lobby.seats.objects[1].value = "random"
    table, tokens = lobby.create()
    creator = lobby.created.object.split("creator=")[1].split('"')[0]
    if 0 in table.to_move:
        play_first_legal(hub, table, tokens)
    pages = [TablePage(hub, table.id, tokens[0]), TablePage(hub, table.id, None), CreatorPage(hub, table.id, creator)]
    secret = str(table.record.seed)
    for page in pages:
        assert secret not in document_text(mounted(page))
    lobby.refresh()
    assert secret not in document_text(mounted(lobby))


@pytest.fixture
def quick_hub(db):
    hub = TableHub(TableStore(db, exclusive=True, busy_timeout=0.1), bot_delay=0.0, retry_delay=0.05)
    yield hub
    hub.close()


def test_a_move_that_cannot_be_written_is_refused_as_not_recorded_and_can_be_made_again(quick_hub, db):
    from explorer.tables.hub import WriteRefused

    table, tokens = quick_hub.create("subastral", 2, seed=1)
    seat = table.to_move[0]
    action = table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0])
    locked = Locked(db)
    with pytest.raises(WriteRefused, match="not recorded") as refused:
        quick_hub.act(table.id, tokens[seat], 0, action)
    assert "記録されませんでした" in refused.value.problem_in("ja")
    assert table.step == 0 and len(table.states) == 1
    locked.release()
    assert quick_hub.act(table.id, tokens[seat], 0, action) == 1
    assert len(quick_hub.store.moves(table.id)) == 1


def test_a_read_only_database_refuses_moves_without_losing_the_table(quick_hub, db):
    table, tokens = quick_hub.create("subastral", 2, seed=1)
    quick_hub.store._db.execute("PRAGMA query_only = ON")       # SQLite: "attempt to write a readonly database"
    seat = table.to_move[0]
    action = table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0])
    with pytest.raises(TableError, match="not recorded.*readonly"):
        quick_hub.act(table.id, tokens[seat], 0, action)
    quick_hub.store._db.execute("PRAGMA query_only = OFF")
    assert quick_hub.act(table.id, tokens[seat], 0, action) == 1


def test_a_bot_move_that_could_not_be_stored_is_tried_again_and_the_table_goes_on(quick_hub, db, caplog):
    table, tokens = quick_hub.create("subastral", 2, seed=2, controllers=[HUMAN, "random"])
    # A bot's turn waits for the table's lock. Held from Player 1's moves until the database is locked, it
    # makes the bot's next move meet the locked database however busy the machine is (with two bots and no
    # delay, a fresh clone's run once saw them play the whole game before the test could lock it).
    with table.lock:
        while 0 in table.to_move:
            play_first_legal(quick_hub, table, tokens)
        locked = Locked(db)
    assert wait_for(lambda: any("was not recorded" in r.getMessage() for r in caplog.records), timeout=30)
    assert len(quick_hub.store.moves(table.id)) == table.step      # nothing half-kept
    locked.release()
    while not table.over:
        step = table.step
        if 0 in table.to_move:
            play_first_legal(quick_hub, table, tokens)
        else:
            assert wait_for(lambda: table.step > step, timeout=120), f"the bot stalled at step {step}"
    assert len(quick_hub.store.moves(table.id)) == table.step


def test_a_page_told_its_move_was_not_recorded_stays_usable(quick_hub, db):
    from explorer.pages.table_pages import TablePage

    table, tokens = quick_hub.create("subastral", 2, seed=3)
    seat = table.to_move[0]
    page = TablePage(quick_hub, table.id, tokens[seat])
    locked = Locked(db)
    page.picker.click(0)
    assert not page.picker.confirm()
    assert "not recorded" in page.picker.message and table.step == 0
    locked.release()
    page.picker.click(0)
    assert page.picker.confirm() and table.step == 1


def test_a_table_the_locked_database_cannot_create_end_or_relink_is_refused_on_the_page_and_nothing_changes(quick_hub, db):
    """The lobby's Create, the creator's End and New link say what failed, in the page's language,
    and leave the database and the table as they were (before, the error escaped the page: nothing shown)."""
    from explorer.pages.table_creator import CreatorPage
    from explorer.pages.table_pages import Lobby

    lobby = Lobby(quick_hub, lang="ja")
    table, tokens = quick_hub.create("subastral", 2, seed=4, creator_digest=token_digest("the-creator"))
    creator = CreatorPage(quick_hub, table.id, "the-creator")
    locked = Locked(db)
    try:
        assert lobby.create() is None
        assert lobby.message.visible and "卓は作られませんでした" in lobby.message.object
        assert "database is locked" in lobby.message.object and "created" not in lobby.created.object
        creator.end()
        assert not table.ended and "not ended (" in creator.message.object
        assert creator.new_link(1) is None and "not stored (" in creator.message.object
    finally:
        locked.release()
    assert [record.id for record in quick_hub.store.tables()] == [table.id]
    assert quick_hub.seat_of(table.id, tokens[1]) == 1                       # the old link still works
    assert not quick_hub.store.table(table.id).abandoned
    made, _ = lobby.create()                                                 # and once the database is free
    creator.end()
    assert made.id != table.id and table.ended


def test_a_database_path_that_cannot_be_opened_is_named(tmp_path):
    folder = tmp_path / "a-folder.sqlite3"
    folder.mkdir()
    with pytest.raises(StoreError, match=f"cannot use {folder}"):
        TableHub(folder)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError, match=f"{blocker}"):
        TableHub(blocker / "tables.sqlite3")
    not_ours = tmp_path / "notes.txt"
    not_ours.write_text("shopping list\n" * 200)
    with pytest.raises(StoreError, match=f"cannot use {not_ours}.*not a database"):
        TableHub(not_ours)


def test_a_second_hub_on_the_same_database_is_refused_until_the_first_closes(db):
    first = TableHub(db, bot_delay=0.0)
    with pytest.raises(StoreError, match=f"another Rules Explorer server is using the tables database {db}"):
        TableHub(db, bot_delay=0.0)
    reader = TableStore(db)            # `rules-explorer tables list` reads beside a running server
    reader.close()
    first.close()
    TableHub(db, bot_delay=0.0).close()


# --------------------------------------------------------------------------------------------
# Limits for an exposed server; the creator's and the operator's controls
# --------------------------------------------------------------------------------------------
def test_bot_only_tables_and_mcts_seats_are_capped_per_server(db):
    hub = TableHub(db, bot_delay=3600, max_bot_tables=2, max_mcts_seats=3)
    bots = ["random", "random"]
    first, _ = hub.create("subastral", 2, seed=1, controllers=bots)
    hub.create("subastral", 2, seed=2, controllers=bots)
    with pytest.raises(SetUpRefused, match="at most 2 tables of bots only") as refused:
        hub.create("subastral", 2, seed=3, controllers=bots)
    assert "2卓まで" in refused.value.problem_in("ja")
    hub.create("subastral", 2, seed=3, controllers=[HUMAN, "random"])      # a person's table is not capped
    hub.abandon(first.id, operator=True)                                   # an ended table frees its place
    hub.create("subastral", 2, seed=4, controllers=bots)
    hub.create("subastral", 3, seed=5, controllers=[HUMAN, "mcts", "mcts"])
    with pytest.raises(SetUpRefused, match="at most 3 MCTS seats"):
        hub.create("subastral", 3, seed=6, controllers=[HUMAN, "mcts", "mcts"])
    assert len(hub.store.tables()) == 5
    hub.close()


def test_live_tables_are_capped_per_server(db):
    """Tables were made without limit (an outside test made 1,900 in minutes from one lobby, which then
    took 3.6 s to open): a server holds at most max_tables live tables; an ended one frees its place."""
    hub = TableHub(db, bot_delay=3600, max_tables=2)
    first, _ = hub.create("subastral", 2, seed=1)
    hub.create("stellar", 2, seed=2)
    with pytest.raises(SetUpRefused, match="at most 2 tables in play at a time") as refused:
        hub.create("subastral", 2, seed=3)
    assert "2卓まで" in refused.value.problem_in("ja") and len(hub.store.tables()) == 2      # nothing stored
    hub.abandon(first.id, operator=True)
    hub.create("subastral", 2, seed=3)
    hub.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_lists_the_newest_ended_tables_and_more_on_request(db, lang):
    """Ended tables pile up for good (each one ended frees a live place): the lobby listed every one,
    and its rematch menu offered every one (2,000 ended tables: 540 kB of HTML at every refresh). It
    lists the live tables and the newest LOBBY_ENDED_PER_PAGE ended ones; a button lists more."""
    from explorer.pages.table_pages import LOBBY_ENDED_PER_PAGE, Lobby

    hub = TableHub(db, bot_delay=3600)      # (the test moves the bots itself)
    ended = []
    for seed in range(LOBBY_ENDED_PER_PAGE + 3):
        # (played to their end: the rematch menu offers those only, not a table ended early)
        table, _ = hub.create("subastral", 2, seed=seed, controllers=["random", "random"])
        while not table.over:
            hub._bot_turn(table, table.step)
        ended.append(table.id)
    live, _ = hub.create("subastral", 2, seed=99, controllers=[HUMAN, HUMAN])
    newest_first = [record.id for record in hub.store.tables() if record.id != live.id]
    lobby = Lobby(hub, lang=lang)

    def listed() -> set[str]:
        return {table_id for table_id in [live.id, *ended] if f'data-table="{table_id}"' in lobby.listing.object}

    assert listed() == {live.id, *newest_first[:LOBBY_ENDED_PER_PAGE]}
    assert set(lobby.rematch_of.options.values()) == set(newest_first[:LOBBY_ENDED_PER_PAGE])
    assert lobby.more_ended.visible
    assert lobby.more_ended.label == ("Show 3 older ended tables (3 not listed)" if lang == "en"
                                      else "終わった卓をあと3卓表示（未表示：3卓）")
    lobby.more_ended.clicks += 1          # (as a click in the page)
    assert listed() == {live.id, *ended} and not lobby.more_ended.visible
    assert set(lobby.rematch_of.options.values()) == set(ended)
    lobby.refresh()                       # a refresh keeps what was asked for
    assert listed() == {live.id, *ended}
    hub.close()


def test_the_limits_come_from_the_environment(db, monkeypatch):
    monkeypatch.setenv("RULES_EXPLORER_MAX_BOT_TABLES", "0")
    monkeypatch.setenv("RULES_EXPLORER_MAX_MCTS_SEATS", "0")
    monkeypatch.setenv("RULES_EXPLORER_MAX_TABLES", "3")
    hub = TableHub(db, bot_delay=3600)
    assert hub.max_tables == 3
    with pytest.raises(SetUpRefused):
        hub.create("subastral", 2, controllers=["random", "random"])
    with pytest.raises(SetUpRefused):
        hub.create("subastral", 2, controllers=[HUMAN, "mcts"])
    hub.close()


def test_the_creator_ends_a_table_and_a_seat_link_holder_cannot(hub):
    from explorer.pages.table_creator import CreatorPage
    from explorer.pages.table_pages import Lobby

    lobby = Lobby(hub, origin="http://example.test")
    table, tokens = lobby.create()
    creator = lobby.created.object.split("creator=")[1].split('"')[0]
    assert table.record.creator_digest == token_digest(creator) and creator not in str(hub.store.table(table.id))
    for wrong in (tokens[0], "forged", None):
        with pytest.raises(TableError, match="not the creator link"):
            hub.abandon(table.id, wrong)
        with pytest.raises(TableError):
            CreatorPage(hub, table.id, wrong)
    page = CreatorPage(hub, table.id, creator, lang="ja")
    # The button asks first (ending is for good); "keep playing" changes nothing.
    page.end_button.clicks += 1
    assert not table.ended and page.end_question.visible and not page.end_button.visible
    assert "元に戻せません" in page.end_question[0].object
    keep = page.end_question[1][1]
    keep.clicks += 1
    assert not table.ended and not page.end_question.visible and page.end_button.visible
    page.end_button.clicks += 1
    page.end_question[1][0].clicks += 1            # "End the table now"
    assert table.ended and hub.store.table(table.id).abandoned and "終了" in page.status.object
    assert not page.end_question.visible and not page.end_button.visible
    seat = table.spec.to_move(table.state)[0]
    with pytest.raises(TableError, match="was ended"):
        hub.act(table.id, tokens[seat], 0, table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0]))
    from explorer.pages.table_pages import review_replay
    assert review_replay(table.id, hub)["seed"] == table.record.seed       # ended: its deal is public
    lobby.refresh()
    assert "ended at step 0" in lobby.listing.object


def test_the_creator_gives_a_seat_a_new_link_and_the_old_one_stops_working(hub):
    from explorer.pages.table_creator import CreatorPage

    table, tokens = hub.create("subastral", 2, seed=1, creator_digest=token_digest("the-creator"))
    page = CreatorPage(hub, table.id, "the-creator", origin="http://example.test")
    new = page.new_link(1)
    assert f"http://example.test/tables?table={table.id}&amp;seat={new}" in page.message.object
    with pytest.raises(TableError, match="not valid"):
        hub.seat_of(table.id, tokens[1])
    assert hub.seat_of(table.id, new) == 1
    with pytest.raises(TableError, match="not the creator link"):
        hub.new_seat_link(table.id, tokens[0], 1)
    hub.close()
    again = TableHub(hub.store.path, bot_delay=0.0)          # kept across a restart
    assert again.seat_of(table.id, new) == 1
    with pytest.raises(TableError):
        again.seat_of(table.id, tokens[1])
    again.close()


def test_a_page_open_on_a_seat_link_the_creator_replaced_drops_the_table_and_says_why(hub):
    from explorer.pages.table_pages import TablePage
    from tests.helpers.tables import document_text, mounted

    table, tokens = hub.create("subastral", 2, seed=1, creator_digest=token_digest("the-creator"))
    old, other = TablePage(hub, table.id, tokens[1]), TablePage(hub, table.id, tokens[0])
    old.plots_card.collapsed = False                # its plots open too
    shut = TablePage(hub, table.id, tokens[1])      # another page on the old link, its plots never opened
    hand = table.spec.observe(table.state, 1)["hands"][1]["cards"]
    assert hand[0] in document_text(mounted(old)) and old.plots_card.objects
    tokens = {**tokens, 1: hub.new_seat_link(table.id, "the-creator", 1)}
    shown = document_text(mounted(old))
    assert "not valid" in shown and not any(card in shown for card in hand)
    assert not old.plots_card.visible and not old.plots_card.objects
    assert "not valid" in document_text(mounted(shut))
    shut.plots_card.collapsed = False               # fired from the console: no plots are made
    assert shut.plots is None and not shut.plots_card.objects
    play_first_legal(hub, table, tokens)            # the table goes on without the old page
    assert "not valid" in document_text(mounted(old)) and len(old.session.log) == 0
    assert len(other.session.log) == 1


def test_the_operator_ends_a_table_from_the_command_line_while_the_server_runs(hub, capsys):
    from explorer import cli

    from explorer.pages.table_pages import TablePage

    table, tokens = hub.create("subastral", 2, seed=1, controllers=[HUMAN, HUMAN])
    watching = TablePage(hub, table.id, tokens[1])
    assert cli.main(["tables", "abandon", table.id, "--db", str(hub.store.path)]) == 0
    assert "ended" in capsys.readouterr().out
    seat = 0
    with pytest.raises(TableError, match="was ended"):
        hub.act(table.id, tokens[seat], table.step, {"type": "pass"})
    assert wait_for(lambda: table.ended)
    # The refusal found the end: the other seat's page says so too (it said whose move it was).
    assert "This table was ended at step 0" in watching.status.object
    assert cli.main(["tables", "abandon", table.id, "--db", str(hub.store.path)]) == 2
    assert cli.main(["tables", "list", "--db", str(hub.store.path)]) == 0
    assert "ended early" in capsys.readouterr().out


def test_the_lobby_reads_finished_tables_results_without_replaying_them(db):
    hub = TableHub(db, bot_delay=0.0)
    finished = []
    for seed in range(3):
        table, tokens = hub.create("subastral", 2, seed=seed)
        play_to_the_end(hub, table, tokens)
        finished.append(table)
    live, _ = hub.create("subastral", 2, seed=9)
    hub.close()
    again = TableHub(db, bot_delay=0.0)
    from explorer.pages.table_pages import Lobby

    lobby = Lobby(again)
    assert not any(table.id in again._tables for table in finished)         # nothing replayed
    for table in finished:
        row = f'data-table="{table.id}"'
        assert row in lobby.listing.object
        scores = table.spec.scores(table.state)
        assert f"Player 1 {scores[0]}, Player 2 {scores[1]}" in lobby.listing.object
    assert live.id in again._tables
    assert set(lobby.rematch_of.options.values()) == {table.id for table in finished} and lobby.rematch_row.visible
    newest = next(record.id for record in again.store.tables() if record.id in {table.id for table in finished})
    assert lobby.rematch_of.value == newest         # the menu shows a table, never blank over its options
    lobby.rematch_of.value = finished[0].id if newest != finished[0].id else finished[1].id
    chosen = lobby.rematch_of.value
    lobby.refresh()
    assert lobby.rematch_of.value == chosen         # a refresh keeps the one chosen
    again.close()


def test_a_refusal_quotes_a_long_value_cut_short(hub):
    """A table id of 5,000 digits in a page's address was quoted whole: the page's message ran far past
    the screen's edge. Refusals quote what they were sent cut short (``rules.protocol.shown``)."""
    table, tokens = hub.create("subastral", 2, seed=4)
    for call in (lambda: hub.table("9" * 5000), lambda: hub.seat_of(table.id, "k" * 5000),
                 lambda: hub.act(table.id, tokens[table.to_move[0]], "7" * 5000, {"type": "x"})):
        with pytest.raises(TableError) as refused:
            call()
        for lang in ("en", "ja"):
            assert len(refused.value.problem_in(lang)) < 200, refused.value.problem_in(lang)


def test_a_table_made_before_schema_4_replays_with_the_dice_of_the_rules_it_was_made_with(db):
    # Biome Blitz 1.1 draws dice and reshuffles otherwise than 1.0: a table stored before the rules
    # version was (schema 3, no rules_version) was played with 1.0's dice, and must replay with them.
    hub = TableHub(db, bot_delay=0.0)
    table, _ = hub.create("biome_blitz", 2, seed=3, controllers=[HUMAN, HUMAN])
    assert table.record.rules_version == "1.1" and table.state.chance == chance.BLAKE2B
    dealt = table.record.seed
    hub.close()
    old = get_game("biome_blitz").recorded("1.0")
    # The deal's seed comes from the database's random key, so the moves are sought: a compete is
    # chosen whenever one is legal, and another line of random moves is tried until one rolls dice
    # twice (one in 18 deals needs a second line; 2,000 deals needed 4 at most).
    for attempt in range(50):
        moves, state, competes = competing_line(old, 2, dealt, attempt)
        if competes >= 2:       # (dice the two schemes roll differently)
            break
    assert competes >= 2
    raw = sqlite3.connect(db)
    raw.executescript("ALTER TABLE tables DROP COLUMN rules_version; PRAGMA user_version = 3;")
    raw.executemany("INSERT INTO moves (table_id, step, seat, action, at) VALUES (?, ?, ?, ?, 1.0)",
                    [(table.id, step, seat, json.dumps(old.encode_action(action), sort_keys=True))
                     for step, (seat, action) in enumerate(moves, start=1)])
    raw.commit()
    raw.close()
    hub = TableHub(db, bot_delay=0.0)
    restored = hub.table(table.id)
    assert restored.problem is None and restored.step == len(moves) and restored.state == state
    assert restored.record.rules_version == "1.0" and restored.state.chance == chance.MERSENNE
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert raw.execute("SELECT rules_version FROM tables WHERE id = ?", (table.id,)).fetchone() == (None,)
    raw.close()
    assert restored.replay()["version"] == "1.0"
    new, _ = hub.create("biome_blitz", 2, seed=3, controllers=[HUMAN, HUMAN])
    assert new.record.rules_version == "1.1" and new.state.chance == chance.BLAKE2B
    hub.close()
