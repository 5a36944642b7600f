"""Playtest tables in real Chromium against a real ``panel serve``: one browser context per seat.

Every move is made by clicking in the mover's page; after each, every page must show it, the
database must hold it, and no page may have received (websocket messages, or the page itself) a
string that its seat's observations never showed it but another seat's did (tests/helpers/tables_server.py).
"""

from __future__ import annotations

import json
import random
import re
import signal
import sqlite3

import pytest
from playwright.sync_api import Browser, expect

import rules
from explorer.tables.store import TableStore
from rules.registry import get_game
from tests.helpers.tables_server import Secrets, TablesServer
from tests.helpers.table_seats import LOAD_TIMEOUT, SeatPage, create_in_lobby, read_table
from tests.helpers.tiers import quick_once, slow


#: Per game whose board marks each hand: a selector for a face-up card in seat ``{seat}``'s hand.
FACE_UP_IN_HAND = {"subastral": ".hand-seat-{seat} .card:not(.back)",
                   "biome_blitz": ".hand-seat-{seat} > :not(.bb-back):not(.count)"}
STEP_RE = re.compile(r"Step (\d+) / (\d+)")
#: A patch that gives a part of the page its stylesheets again (the browser then restyles it and lays the page out).
RESTYLED = re.compile(r'"attr":\s*"stylesheets"')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module's tables (each test makes its own): a server start is seconds of work
    no test here is about (the SIGKILL test restarts it, on the same port and file)."""
    server = TablesServer(tmp_path_factory.mktemp("tables") / "tables.sqlite3").start()
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


def create_table(browser: Browser, server: TablesServer, game: str, players: int, seats: list[str] | None = None,
                 seed: int = 5) -> tuple[str, dict[int, str], str]:
    """Create a table in the lobby's form; returns (table id, seat -> link, spectator link)."""
    created = create_in_lobby(browser, server, game, players, seats, seed)
    created.close()
    return created.id, created.links, created.spectator


class Game:
    """The table's game as the test follows it: states replayed from the database, and the secrets."""

    def __init__(self, server: TablesServer, table_id: str):
        self.server, self.table_id = server, table_id
        row, _ = read_table(server.db, table_id)
        self.spec = get_game(row["game"])
        self.players = row["players"]
        store = TableStore(server.db)        # (a reader: the deal's seed is worked out with the key beside the file)
        self.deal_seed = store.table(table_id).seed
        store.close()
        self.states = [self.spec.new_game(row["players"], self.deal_seed, json.loads(row["variants"]))]
        self.secrets = Secrets(self.spec, self.players)
        self.secrets.add_state(self.states[0])
        self.restyled = 0           # stylesheets sent again, in the messages check() read
        self.restyled_where = ""    # (the last such message, around it)

    @property
    def state(self):
        return self.states[-1]

    def catch_up(self) -> int:
        """Replay the committed moves not yet followed; returns how many moves the database holds."""
        _, moves = read_table(self.server.db, self.table_id)
        for seat, data in moves[len(self.states) - 1:]:
            self.states.append(self.spec.apply(self.state, seat, self.spec.decode_action(data)))
            self.secrets.add_state(self.state)
        return len(moves)

    def check(self, pages: list[SeatPage]) -> None:
        for page in pages:
            text = page.take_frames()
            for found in RESTYLED.finditer(text):
                self.restyled += 1
                self.restyled_where = text[max(0, found.start() - 300):found.start() + 200]
            leaks = self.secrets.leaks(page.seat, text)
            if leaks:
                where = text.find(leaks[0])
                raise AssertionError(f"at step {len(self.states) - 1}, {page.seat}'s page received what it may not see: "
                                     f"{sorted(leaks)[:5]}, e.g. ...{text[max(0, where - 400):where + 100]}...")


def check_own_hands_face_up(game: Game, pages: dict[int | None, SeatPage]) -> None:
    """At the deal, each seat sees its own hand face up (so FACE_UP_IN_HAND finds cards when they are shown)."""
    face_up = FACE_UP_IN_HAND.get(game.spec.id)
    for seat, page in pages.items():
        if face_up and seat is not None:
            assert page.page.locator(face_up.format(seat=seat)).count() > 0


def play_moves(game: Game, pages: dict[int | None, SeatPage], count: int | None, rng: random.Random) -> int:
    """Click ``count`` moves (None: to the end) in the movers' pages, checking every page after each."""
    played = 0
    everyone = list(pages.values())
    while not game.spec.is_over(game.state) and (count is None or played < count):
        step = len(game.states) - 1
        movers = game.spec.to_move(game.state)
        humans = [seat for seat in movers if seat in pages]
        if humans:
            mover = humans[0]
            if all(seat in pages for seat in range(game.players)):     # (no bot to move meanwhile)
                for seat, page in pages.items():
                    if seat is not None and seat not in movers:
                        assert page.buttons().count() == 0, f"Player {seat + 1} is offered moves out of turn"
            pages[mover].play(rng)
        for page in everyone:
            page.wait_for_step(step + 1)
        assert game.catch_up() >= step + 1        # committed before any page showed it
        game.check(everyone)
        face_up = FACE_UP_IN_HAND.get(game.spec.id)
        if face_up:                               # the board marks each hand: others' are face down
            for seat, page in pages.items():
                others = [other for other in range(game.players) if other != seat]
                # (one query per page: a query walks every shadow root of the page)
                if page.page.locator(", ".join(face_up.format(seat=other) for other in others)).count():
                    shown = [other + 1 for other in others if page.page.locator(face_up.format(seat=other)).count()]
                    raise AssertionError(f"{seat}'s page shows the hand of Player {shown}")
        played += 1
    return played


@slow   # a whole game in five browser pages (the quick tier plays a Stellar table below)
def test_four_seats_play_a_whole_subastral_game_and_no_page_holds_another_hand(browser, server):
    table_id, links, spectator_link = create_table(browser, server, "subastral", 4, seed=3)
    assert sorted(links) == [0, 1, 2, 3] and len(set(links.values())) == 4
    pages = {seat: SeatPage(browser, link, seat) for seat, link in links.items()}
    pages[None] = SeatPage(browser, spectator_link, None)
    game = Game(server, table_id)
    game.check(list(pages.values()))
    assert pages[None].buttons().count() == 0
    expect(pages[None].page.locator(".table-header")).to_contain_text("Spectator")
    check_own_hands_face_up(game, pages)
    # The plots open on one seat's page and the spectator's, the two kinds of viewpoint, for the whole
    # game: following a move with the plots open costs the five pages 1.6 s of CPU, 0.6 s with them
    # closed (docs/architecture.md, "Tests"), and a seat's plots are the same code whichever the seat.
    # Every seat's plots are checked, on every page, over the first 10 moves of each other game
    # (below) and in every model of every page over 25 moves of each game
    # (tests/explorer/tables/test_table_pages.py).
    for seat in (0, None):
        pages[seat].open_plots()
    played = play_moves(game, pages, None, random.Random(1))
    assert game.spec.is_over(game.state) and played > 20
    assert game.secrets.cards_hidden > 100         # there was plenty to leak
    for page in pages.values():
        expect(page.page.locator(".table-end")).to_be_visible()
        expect(page.page.locator(".table-status")).to_contain_text("Game over")
        html = page.page.content()
        assert not game.secrets.leaks(page.seat, html)
        assert not page.errors, page.errors
    # The spectator never sees a hand card: no face-up card in any hand on its page.
    assert pages[None].page.locator(".hand .card:not(.back)").count() == 0
    row, moves = read_table(server.db, table_id)
    assert row["finished"] is not None and json.loads(row["final_scores"]) == list(game.spec.scores(game.state))
    assert len(moves) == len(game.states) - 1
    # Every step's line is in every page's event log, in order (a move sends the latest lines, the
    # whole log now and then: explorer/components/timeline.py, RECENT_LINES).
    for page in pages.values():
        steps = page.page.locator(".event-log .step")
        expect(steps).to_have_count(len(moves) + 1)
        assert steps.evaluate_all("lines => lines.map(line => Number(line.dataset.step))") == list(range(len(moves) + 1))
    for page in pages.values():
        page.close()
    assert not server.errors(), server.errors()


@slow   # (the quick tier: tests/explorer/tables/test_tables.py replays a table's file in a new process)
def test_a_sigkilled_server_restarts_with_every_acknowledged_move(browser, server):
    table_id, links, _ = create_table(browser, server, "subastral", 3, seats=["human", "human", "greedy"], seed=8)
    pages = {seat: SeatPage(browser, link, seat) for seat, link in links.items()}
    game = Game(server, table_id)
    rng = random.Random(2)
    play_moves(game, pages, 7, rng)
    acknowledged = len(game.states) - 1          # every page has shown these moves
    _, before = read_table(server.db, table_id)
    server.kill(signal.SIGKILL)
    server.start()
    for page in pages.values():                  # the restored table: every page shows it again
        page.open()
        page.wait_for_step(acknowledged)
    _, after = read_table(server.db, table_id)
    assert after[:acknowledged] == before[:acknowledged]
    again = Game(server, table_id)               # replayed from the file: the very game the pages showed
    again.catch_up()
    assert again.states[acknowledged] == game.states[acknowledged]
    played = play_moves(game, pages, 4, rng)      # the game goes on, bots included
    assert played == 4
    for page in pages.values():
        page.close()


@pytest.mark.parametrize("game_id", quick_once([g for g in rules.GAMES if g != "subastral"], "stellar"))
def test_every_game_plays_at_a_shared_table_with_hidden_hands(browser, server, game_id):
    spec = get_game(game_id)
    players = 2 if 2 in spec.player_counts else spec.player_counts[0]
    table_id, links, spectator_link = create_table(browser, server, game_id, players, seed=4)
    pages = {seat: SeatPage(browser, link, seat) for seat, link in links.items()}
    pages[None] = SeatPage(browser, spectator_link, None)
    game = Game(server, table_id)
    for page in pages.values():
        page.open_plots()
    # Each pane is drawn with its stylesheets once (explorer.web.shell.use_page_design): no move gives
    # them again, where every page at the table restyled four panes and laid itself out at the first.
    game.check(list(pages.values()))
    check_own_hands_face_up(game, pages)
    game.restyled = 0
    play_moves(game, pages, 10, random.Random(game_id))
    assert game.restyled == 0, (f"{game.restyled} parts of pages had their stylesheets sent again during play, "
                                f"e.g. {game.restyled_where}")
    # Biome Blitz hides how many of each resource a hand holds; resources are public market cards
    # too, so no card name is a secret: FACE_UP_IN_HAND checks its hands instead.
    assert game.secrets.cards_hidden > 0 or game_id == "biome_blitz"
    for page in pages.values():
        assert not game.secrets.leaks(page.seat, page.page.content())
        assert not page.errors, page.errors
        page.close()
    assert not server.errors(), server.errors()


def test_a_seat_chooses_its_move_by_clicking_its_card_on_the_board(browser, server):
    """At a table as in the explorer, a click on one of the seat's hand cards chooses the move that plays
    it (confirmed as a button's choice is); a click on another seat's card, or out of turn, chooses nothing.
    (A playtest group who had used the explorer clicked the board at a table and nothing happened.)"""
    table_id, links, _ = create_table(browser, server, "subastral", 2, seed=6)
    pages = {seat: SeatPage(browser, link, seat) for seat, link in links.items()}
    game = Game(server, table_id)
    mover = game.spec.to_move(game.state)[0]
    other = 1 - mover
    me, them = pages[mover], pages[other]
    plays = {game.spec.encode_action(a)["card"]: a for a in game.spec.legal_actions(game.state, mover)
             if game.spec.encode_action(a)["type"] == "play"}
    # Out of turn, the other seat's click on its own card chooses nothing.
    them.page.locator(f".hand-seat-{other} [data-card]").first.click()
    card = me.page.locator(f".hand-seat-{mover} [data-card]").first
    expect(card).to_have_attribute("data-card", re.compile("^(" + "|".join(map(re.escape, plays)) + ")$"))
    action = plays[card.get_attribute("data-card")]
    card.click()
    label = game.spec.action_label(action, "en", game.state)
    expect(me.page.locator(".action-picker .selection-line")).to_contain_text(label)
    me.page.locator(".confirm-action button").click()
    for page in pages.values():
        page.wait_for_step(1)
    assert game.catch_up() == 1 and read_table(server.db, table_id)[1] == [(mover, game.spec.encode_action(action))]
    assert them.page.locator(".action-picker .selection-line").count() == 0 or \
        label not in them.page.locator(".action-picker .selection-line").inner_text()
    for page in pages.values():
        assert not page.errors, page.errors
        page.close()


def test_wrong_links_show_nothing_of_the_table(browser, server):
    table_id, links, _ = create_table(browser, server, "stellar", 2)
    context = browser.new_context()
    page = context.new_page()
    for url, message in [(f"{server.base}/tables?table={table_id}&seat=forged", "not valid"),
                         (f"{server.base}/tables?table=nosuchtable", "no table")]:
        page.goto(url)
        expect(page.locator(".table-refused")).to_contain_text(message, timeout=LOAD_TIMEOUT)
        assert page.locator(".card").count() == 0 and page.locator("button.action").count() == 0
    page.goto(f"{server.base}/explorer?table={table_id}")       # not over yet: no review
    expect(page.locator(".review-refused")).to_contain_text("still being played", timeout=LOAD_TIMEOUT)
    context.close()


def test_a_table_the_operator_ends_from_the_command_line_says_so_on_its_open_pages(browser, server):
    """No one moves: the open page asks every few seconds (``ENDED_CHECK_MS``) and says the table ended."""
    import subprocess
    import sys

    table_id, links, _ = create_table(browser, server, "subastral", 2, ["human", "human"])
    context = browser.new_context()
    page = context.new_page()
    page.goto(links[0])
    status = page.locator(".table-status")
    # (who begins depends on the deal, made from the table's random id: either seat may)
    expect(status).to_contain_text(re.compile(r"Step 0: (Your move|Waiting for Player 2)"), timeout=LOAD_TIMEOUT)
    subprocess.run([sys.executable, "-m", "explorer.cli", "tables", "abandon", table_id, "--db", str(server.db)],
                   check=True, capture_output=True)
    expect(status).to_contain_text("This table was ended at step 0", timeout=LOAD_TIMEOUT)
    expect(page.locator(".action-picker button.action")).to_have_count(0)
    context.close()


def test_the_lobby_shows_its_create_button_on_a_laptop_screen(browser, server):
    """At 1366x768 the new-table form, four seats' menus one under the other, ran past the screen: its
    Create button was out of sight. The menus now sit two to a row."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        lobby = context.new_page()
        lobby.goto(f"{server.base}/tables")
        button = lobby.locator(".create-table button")
        expect(button).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(lobby.locator(".lobby-seats select")).to_have_count(4)
        lobby.wait_for_function("() => document.fonts.status === 'loaded'")
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 768, box
    finally:
        context.close()
