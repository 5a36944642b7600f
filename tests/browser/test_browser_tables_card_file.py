"""A playtest table dealt with an edited card file, in real Chromium against a real ``panel serve``:
the lobby's card-file chooser offers a file saved in the server's card library
(``RULES_EXPLORER_CARDS_DIR``), the table is made with it, both seats' pages say which file the table
plays and that its cards are edited (the file keeps the standard file's name), their boards show the
edited cards, the table's stored game and its exported replay carry the file, and a move clicked in
the mover's page reaches both pages.

The model of the same contract (restarts, rematches, forged choices, escaping of hostile names) is
tests/explorer/tables/test_tables_card_files.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from explorer.cardfiles import CARDS_ENV, CardLibrary, standard_file
from explorer.core.i18n import text
from explorer.tables.hub import table_spec
from explorer.tables.store import TableStore
from rules import replay as replay_files
from rules.registry import get_game
from tests.helpers.table_seats import (
    LOAD_TIMEOUT, SeatPage, choose_first_move, close_clean, create_in_lobby, read_table, your_turn,
)
from tests.helpers.tables_server import ROOT, TablesServer

pytestmark = pytest.mark.browser

GAME = "biome_blitz"
CARD_NAME = "stronger animals"
#: How many stars the saved file adds to every animal (so any animal a page shows face up is an edited one).
MORE_STARS = 3


def stronger_animals() -> dict:
    """The standard Biome Blitz file, every animal ``MORE_STARS`` stars stronger; it keeps the standard
    file's name (as the card editor's edits do), so boards say it is edited (explorer/boards/base.py,
    ``card_set_words``)."""
    data = standard_file(GAME)
    for animal in data["animals"]:
        animal["stars"] += MORE_STARS
    return data


@pytest.fixture
def server(tmp_path):
    """A server whose card library is a fresh folder holding one saved file, saved before it starts."""
    cards = tmp_path / "cards"
    CardLibrary(cards).save(GAME, CARD_NAME, stronger_animals())
    server = TablesServer(tmp_path / "tables.sqlite3", extra_env={CARDS_ENV: str(cards)}).start()
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


def check_page_plays_the_file(page: SeatPage, edited: dict) -> None:
    """The page names the table's card file, its board calls the cards edited, and every animal it
    shows face up has the file's stars (not the standard ones)."""
    header = page.page.locator(".table-header .table-cards")
    expect(header).to_have_attribute("data-cards", CARD_NAME)
    expect(header).to_have_text(f"Card file: {CARD_NAME}")
    expect(page.page.locator(".bb-board .provenance")).to_contain_text(
        text("cards.edited", "en", game=get_game(GAME).title))
    stars = {animal["id"]: animal["stars"] for animal in edited["animals"]}
    shown = page.page.locator(".bb-board .bb-animal[data-card]")
    expect(shown.first).to_be_visible(timeout=LOAD_TIMEOUT)
    for card, printed in shown.evaluate_all(
            "(cards) => cards.map((card) => [card.dataset.card, card.querySelector('.bb-stars').textContent])"):
        assert printed == f"★{stars[card]}", f"{card} shows {printed}, the file says ★{stars[card]}"


def test_a_table_made_in_the_lobby_with_a_saved_card_file_plays_it_on_every_seat(browser, server):
    edited = stronger_animals()
    standard_stars = [animal["stars"] for animal in standard_file(GAME)["animals"]]
    made = create_in_lobby(browser, server, GAME, 2, ["human", "human"], cards=CARD_NAME)
    # The lobby says which file the new table plays.
    expect(made.lobby.locator(".created .table-cards")).to_have_attribute("data-cards", CARD_NAME)
    expect(made.lobby.locator(".created .table-cards")).to_have_text(f"Card file: {CARD_NAME}")
    made.lobby.context.close()
    table_id, links = made.id, made.links
    assert sorted(links) == [0, 1]

    # The table's row keeps a copy of the file, under the name it was saved as.
    row, moves = read_table(server.db, table_id)
    assert row["card_name"] == CARD_NAME and json.loads(row["card_file"]) == edited and moves == []
    store = TableStore(server.db)        # (a reader: the deal's seed is worked out with the key beside the file)
    record = store.table(table_id)
    store.close()
    spec = table_spec(record)
    first = spec.new_game(record.players, record.seed, record.variants)
    assert [animal.stars for animal in spec.card_set(first).animals] == [s + MORE_STARS for s in standard_stars]

    pages = [SeatPage(browser, links[seat], seat) for seat in (0, 1)]
    for page in pages:
        check_page_plays_the_file(page, edited)

    mover = your_turn(pages)
    assert mover.seat in spec.to_move(first)
    choose_first_move(mover)
    for page in pages:
        page.wait_for_step(1)
    _, moves = read_table(server.db, table_id)
    assert len(moves) == 1 and moves[0][0] == mover.seat
    for page in pages:                   # after the move, still the table's file
        check_page_plays_the_file(page, edited)

    # The replay the operator exports carries the file, and its move replays with it.
    out = server.db.parent / "table.json"
    subprocess.run([sys.executable, "-m", "explorer.cli", "tables", "export", table_id, "--db", str(server.db),
                    "--out", str(out)], check=True, capture_output=True, cwd=ROOT, timeout=60)
    replay = json.loads(out.read_text())
    assert replay["cards"] == edited and len(replay["actions"]) == 1
    replayed, start, _ = replay_files.read(replay)
    assert [animal.stars for animal in replayed.card_set(start).animals] == [s + MORE_STARS for s in standard_stars]
    assert replayed.encode(start) == spec.encode(first)     # (two readings of one file: equal cards, not the same)

    close_clean(pages)
    assert not server.errors(), server.errors()
