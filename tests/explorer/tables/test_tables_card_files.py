"""Playtest tables played with an edited card file: the lobby names a file saved in the card library,
the table keeps a copy of its data (restarts, later edits and removal of the saved file change
nothing), a rematch plays it again, its pages say which file it plays, and its replay carries it."""

from __future__ import annotations

import json
import sqlite3

import pytest

from explorer.cardfiles import CardLibrary, standard_file
from explorer.core.i18n import literal
from explorer.pages.table_creator import CreatorPage
from explorer.pages.table_pages import Lobby, TablePage
from explorer.tables.hub import HUMAN, SetUpRefused, TableHub, table_spec
from explorer.tables.store import SCHEMA_VERSION
from rules import replay as replay_files
from tests.helpers.tables import mounted, play_first_legal, wait_for

GAME = "biome_blitz"


@pytest.fixture
def library(tmp_path):
    return CardLibrary(tmp_path / "cards")


def edited(stars: int = 3) -> dict:
    """The standard Biome Blitz cards with the first animal's stars raised by ``stars``."""
    data = standard_file(GAME)
    data["animals"][0]["stars"] += stars
    return data


def first_stars(table) -> int:
    """The first animal's stars in the card file the table's state is played with."""
    return table.spec.card_set(table.state).animals[0].stars


def lobby_table(hub, library, name: str, lang: str = "en"):
    """A two-seat Biome Blitz table made from the lobby's form with the saved file ``name``."""
    lobby = Lobby(hub, library=library, lang=lang)
    lobby.game.value = GAME
    lobby.players.value = 2
    assert name in lobby.cards.options.values()
    lobby.cards.value = name
    made = lobby.create()
    assert made is not None, lobby.message.object
    return lobby, *made


def test_a_table_plays_a_saved_file_through_restarts_and_later_edits(db, library):
    standard = standard_file(GAME)["animals"][0]["stars"]
    library.save(GAME, "big lion", edited(3))
    hub = TableHub(db, bot_delay=0.0)
    lobby, table, tokens = lobby_table(hub, library, "big lion")
    assert table.record.card_name == "big lion" and first_stars(table) == standard + 3
    assert table_spec(table.record).card_file(table.state)["animals"][0]["stars"] == standard + 3
    for _ in range(3):
        play_first_legal(hub, table, tokens)
    position = table.spec.encode(table.state)      # (two readings of one file make equal, not identical, cards)
    hub.close()
    # The saved file is edited, then deleted: the table keeps its own copy.
    library.save(GAME, "big lion", edited(7))
    hub = TableHub(db, bot_delay=0.0)
    again = hub.table(table.id)
    assert again.problem is None and again.step == 3 and again.spec.encode(again.state) == position and first_stars(again) == standard + 3
    library.delete(GAME, "big lion")
    play_first_legal(hub, again, tokens)
    assert hub.store.moves(table.id)[-1][1] == again.spec.encode_action(again.moves[-1][1])
    # A rematch (of the table once ended) plays the same file; a standard table keeps the standard cards.
    hub.abandon(table.id, operator=True)
    rematch = hub.rematch(table.id, by_player=True)     # (ended early: a seat's page asks)
    assert rematch.record.card_name == "big lion" and first_stars(rematch) == standard + 3
    plain, _ = hub.create(GAME, 2, seed=4)
    assert plain.record.card_file is None and first_stars(plain) == standard
    assert plain.spec.card_file(plain.state) is None
    hub.close()


def test_the_replay_carries_the_card_file_and_verifies(hub, library, tmp_path, capsys):
    from explorer import cli
    from play import cli as play_cli

    library.save(GAME, "big lion", edited(2))
    _, table, tokens = lobby_table(hub, library, "big lion")
    for _ in range(6):
        play_first_legal(hub, table, tokens)
    replay = table.replay()
    assert replay["cards"] == edited(2)
    spec, first, moves = replay_files.read(replay)
    assert spec.card_set(first).animals[0].stars == first_stars(table)
    out = tmp_path / "table.json"
    assert cli.main(["tables", "export", table.id, "--db", str(hub.store.path), "--out", str(out)]) == 0
    exported = json.loads(out.read_text())
    assert exported["cards"] == edited(2) and exported["actions"] == replay["actions"]
    capsys.readouterr()
    assert play_cli.main(["replay", str(out), "--json"]) == 0
    verified = json.loads(capsys.readouterr().out)
    assert verified["scores"] == list(table.spec.scores(table.state))
    # Without its card file the same moves are another game: the file is what makes the replay verify.
    standard = replay_files.read({key: value for key, value in replay.items() if key != "cards"})[1]
    assert standard.cards != first.cards


def test_the_pages_say_which_file_the_table_plays_escaped(hub, library, tmp_path):
    hostile = CardLibrary(tmp_path / "cards")
    name = "lion & <b>co"       # not a simple name: the library refuses it, so store one by hand
    with pytest.raises(Exception, match="not a simple name"):
        hostile.save(GAME, name, edited())
    table, tokens = hub.create(GAME, 2, seed=3, cards=edited(), card_name=name, creator_digest=None)
    seat_page = TablePage(hub, table.id, tokens[0])
    mounted(seat_page)
    header = seat_page.header.object
    assert "Card file: <b>lion &amp; &lt;b&gt;co</b>" in header and "<b>co" not in header
    # The lobby's list and the Japanese page name it too; the standard cards are said as such.
    lobby = Lobby(hub, library=library, lang="ja")
    assert "カードファイル：lion &amp; &lt;b&gt;co" in lobby.listing.object
    plain, plain_tokens = hub.create(GAME, 2, seed=4)
    assert "table-cards" not in TablePage(hub, plain.id, plain_tokens[0])._header_html()
    assert "カードファイル：<b>lion &amp; &lt;b&gt;co</b>" in TablePage(hub, table.id, None, lang="ja")._header_html()
    # The seat's page is dealt with the table's own cards.
    assert seat_page.session.spec.card_set(seat_page.session.state).animals[0].stars == first_stars(table)


def test_the_creator_page_names_the_card_file(hub, library):
    from explorer.tables.store import token_digest

    table, _ = hub.create(GAME, 2, seed=3, cards=edited(), card_name="big lion", creator_digest=token_digest("key"))
    header = CreatorPage(hub, table.id, "key").__panel__()[0].object
    assert 'data-cards="big lion"' in header and "Card file: <b>big lion</b>" in header


@pytest.mark.parametrize("forged, problem", [
    ("no such file", "no saved biome_blitz card file called 'no such file'"),
    ("../stellar/big lion", "is not a simple name"),
    ("/etc/passwd", "is not a simple name"),
    ("stellar lion", "no saved biome_blitz card file called 'stellar lion'"),
    ('<img src=x onerror="alert(1)">', "is not a simple name"),
    (["big lion"], "a card file needs a name"),
])
def test_forged_card_file_choices_are_refused_and_create_nothing(hub, library, forged, problem):
    library.save(GAME, "big lion", edited())
    library.save("stellar", "stellar lion", standard_file("stellar"))      # another game's file
    lobby = Lobby(hub, library=library)
    lobby.game.value = GAME
    lobby.players.value = 2
    lobby.cards.value = forged          # as fired from the browser's console: any value at all
    assert lobby.create() is None
    assert lobby.message.visible and literal(problem) in lobby.message.object
    assert "<img" not in lobby.message.object
    assert hub.store.tables() == []


def test_the_hub_refuses_a_file_the_game_refuses_or_an_unnamed_one(hub):
    bad = edited()
    bad["animals"][2]["stars"] = -1
    with pytest.raises(SetUpRefused, match=r"animals\[2\]\.stars"):
        hub.create(GAME, 2, cards=bad, card_name="bad")
    with pytest.raises(SetUpRefused, match="needs the name"):
        hub.create(GAME, 2, cards=edited())
    assert hub.store.tables() == []


def test_the_hub_refuses_a_file_too_small_for_the_players_and_stores_nothing(hub):
    """A Jump Gate file of 12 NavComp cards deals 2 players, not 4: the table is refused before anything
    is stored (it used to be stored, then fail to deal)."""
    from tests.helpers.endless import endless_jump_gate_cards

    with pytest.raises(SetUpRefused, match="have 12 NavComp cards; 4 hands of 5 need 20"):
        hub.create("jump_gate", 4, cards=endless_jump_gate_cards(), card_name="few")
    assert hub.store.tables() == []
    table, _ = hub.create("jump_gate", 2, cards=endless_jump_gate_cards(), card_name="few")
    assert [record.id for record in hub.store.tables()] == [table.id]


def test_the_lobby_offers_the_chosen_games_saved_files(hub, library):
    library.save(GAME, "big lion", edited())
    library.save("stellar", "stellar lion", standard_file("stellar"))
    lobby = Lobby(hub, library=library, lang="ja")
    lobby.game.value = GAME
    assert lobby.cards.options == {"標準のカードファイル": "", "big lion": "big lion"} and lobby.cards.value == ""
    lobby.game.value = "stellar"
    assert list(lobby.cards.options.values()) == ["", "stellar lion"]
    library.save("stellar", "another", standard_file("stellar"))
    lobby.cards.value = "stellar lion"
    lobby.refresh()                 # a file saved meanwhile appears; the chosen one stays chosen
    assert list(lobby.cards.options.values()) == ["", "another", "stellar lion"] and lobby.cards.value == "stellar lion"


def test_a_schema_2_file_gets_the_card_columns_null_and_its_tables_play_standard_cards(db):
    hub = TableHub(db, bot_delay=0.0)
    table, tokens = hub.create(GAME, 2, seed=5, controllers=[HUMAN, HUMAN])
    for _ in range(2):
        play_first_legal(hub, table, tokens)
    hub.close()
    # A real schema-2 file: no schema-3 tables, and no card-file columns in ``tables``.
    raw = sqlite3.connect(db)
    raw.executescript("DROP TABLE notes; DROP TABLE decisions; DROP TABLE refusals; "
                      "ALTER TABLE tables DROP COLUMN card_name; ALTER TABLE tables DROP COLUMN card_file; "
                      "ALTER TABLE tables DROP COLUMN rules_version; PRAGMA user_version = 2;")
    before = {name: raw.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall() for name in ("tables", "seats", "moves")}
    raw.close()
    from explorer import cli

    out = db.parent / "old.json"         # read as it is (read-only): a replay with the standard cards
    assert cli.main(["tables", "export", table.id, "--db", str(db), "--out", str(out)]) == 0
    assert "cards" not in json.loads(out.read_text())

    hub = TableHub(db, bot_delay=0.0)
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    after = {name: raw.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall() for name in ("tables", "seats", "moves")}
    assert after["tables"] == [row + (None, None, None) for row in before["tables"]]
    assert after["seats"] == before["seats"] and after["moves"] == before["moves"]
    raw.close()
    old = hub.table(table.id)
    assert old.record.card_file is None and old.step == 2 and old.spec.card_file(old.state) is None
    play_first_legal(hub, old, tokens)
    assert wait_for(lambda: old.step == 3)
    hub.close()
