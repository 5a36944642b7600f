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
import time

import pytest
from playwright.sync_api import Browser, Page, expect

import rules
from explorer.tables.store import TableStore
from rules.registry import get_game
from tests.helpers.tables_server import PAGE_JS, Secrets, TablesServer

LOAD_TIMEOUT = 30_000
#: Per game whose board marks each hand: a selector for a face-up card in seat ``{seat}``'s hand.
FACE_UP_IN_HAND = {"subastral": ".hand-seat-{seat} .card:not(.back)",
                   "biome_blitz": ".hand-seat-{seat} > :not(.bb-back):not(.count)"}
STEP_RE = re.compile(r"Step (\d+) / (\d+)")


@pytest.fixture
def server(tmp_path):
    server = TablesServer(tmp_path / "tables.sqlite3").start()
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


def read_table(db, table_id: str) -> tuple[dict, list[tuple[int, dict]]]:
    """The table's row and its committed moves, read from the SQLite file (read-only)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        connection.row_factory = sqlite3.Row
        row = dict(connection.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone())
        moves = [(seat, json.loads(action)) for seat, action in
                 connection.execute("SELECT seat, action FROM moves WHERE table_id = ? ORDER BY step", (table_id,))]
    finally:
        connection.close()
    return row, moves


class SeatPage:
    """One browser context on one link; keeps every websocket message the page received."""

    def __init__(self, browser: Browser, url: str, seat: int | None):
        self.seat, self.url = seat, url
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.context.add_init_script(PAGE_JS)      # notes when each step first shows (window.__seen)
        self.page: Page = self.context.new_page()
        self.frames: list[str] = []
        self.last_frame = time.monotonic()
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.open()

    def _frame(self, payload) -> None:
        self.last_frame = time.monotonic()
        self.frames.append(payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace"))

    def open(self) -> None:
        self.page.goto(self.url)
        expect(self.page.locator(".table-status")).to_be_visible(timeout=LOAD_TIMEOUT)

    def open_plots(self) -> None:
        """Open the score and card plots (made on first opening), so they are checked too."""
        self.page.get_by_text("Score curves and cards").first.click()
        expect(self.page.locator(".plot-scores").first).to_be_visible(timeout=15_000)

    def take_frames(self) -> str:
        text, self.frames = "\n".join(self.frames), []
        return text

    def wait_for_step(self, step: int, timeout: float = 15_000) -> None:
        """Until the board has shown "Step k / k" for k >= ``step`` (the page notes that on the animation
        frame that draws it: PAGE_JS; read here every 50 ms, not on every frame of five pages, which kept
        the browser busy on a machine the server needs): bots may move on at once, and a page shows only
        the latest of moves that come together."""
        self.page.wait_for_function(
            "(step) => window.__seen && Object.entries(window.__seen).some(([k, t]) => Number(k) >= step && t > 0)",
            arg=step, polling=50, timeout=timeout)

    def buttons(self):
        return self.page.locator(".action-picker button.action")

    def play(self, rng: random.Random) -> str:
        """Select one of the offered moves (seeded choice) and confirm it; returns its label."""
        buttons = self.buttons()
        expect(buttons.first).to_be_visible(timeout=15_000)
        for _ in range(4):
            count = buttons.count()
            label = buttons.nth(rng.randrange(count)).inner_text()
            self.page.locator(".action-picker").get_by_role("button", name=label, exact=True).first.click()
            try:
                expect(self.page.locator(".action-picker .selection-line")).to_contain_text(label, timeout=3_000)
                break
            except AssertionError:        # the buttons were redrawn under the click: choose again
                continue
        self.page.locator(".confirm-action button").click()
        return label

    def close(self, quiet: float = 0.5, timeout: float = 15.0) -> None:
        """Close the page once the server has sent it nothing for ``quiet`` seconds: a page closed
        while a patch is on its way makes Panel log a traceback (writing to a closed websocket)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last_frame < quiet and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
        self.context.close()


class Created:
    """A table just made in the lobby's form: its id, the seats' links, the spectator's and the
    creator's links (shown once), and the lobby's page (still open: ``close()`` it)."""

    def __init__(self, lobby: Page, table_id: str, links: dict[int, str], spectator: str, creator: str):
        self.lobby, self.id, self.links, self.spectator, self.creator = lobby, table_id, links, spectator, creator

    def close(self) -> None:
        self.lobby.context.close()


def create_in_lobby(browser: Browser, server: TablesServer, game: str, players: int, seats: list[str] | None = None,
                    seed: int | str = 5, base: str | None = None) -> Created:
    """Create a table in the lobby's form at ``base`` (default: the server's own address)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    lobby = context.new_page()
    lobby.goto(f"{base or server.base}/tables")
    expect(lobby.locator(".create-table button")).to_be_visible(timeout=LOAD_TIMEOUT)
    lobby.locator(".lobby-game select").select_option(label=get_game(game).title)
    expect(lobby.locator(".lobby-players select")).to_be_visible()
    lobby.locator(".lobby-players select").select_option(str(players))
    for seat, controller in enumerate(seats or []):
        lobby.locator(f".lobby-seat-{seat} select").select_option(controller)
    lobby.locator(".lobby-seed input").fill(str(seed))
    lobby.locator(".lobby-seed input").press("Enter")
    lobby.locator(".create-table button").click()
    created = lobby.locator(".created")
    expect(created).to_be_visible(timeout=10_000)
    table_id = created.get_attribute("data-table")
    links = {}
    for seat in range(players):
        link = lobby.locator(f"a.seat-link-{seat}")
        if link.count():
            links[seat] = link.get_attribute("href")
    spectator = lobby.locator("a.spectator-link").get_attribute("href")
    creator = lobby.locator("a.creator-link").get_attribute("href")
    expect(lobby.locator(f'.tables-list tr[data-table="{table_id}"]')).to_be_visible()
    return Created(lobby, table_id, links, spectator, creator)


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
                for other in range(game.players):
                    if other != seat:
                        assert page.page.locator(face_up.format(seat=other)).count() == 0, \
                            f"{seat}'s page shows Player {other + 1}'s hand"
        played += 1
    return played


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
    for page in pages.values():
        page.open_plots()
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
    for page in pages.values():
        page.close()
    assert not server.errors(), server.errors()


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


@pytest.mark.parametrize("game_id", [g for g in rules.GAMES if g != "subastral"])
def test_every_game_plays_at_a_shared_table_with_hidden_hands(browser, server, game_id):
    spec = get_game(game_id)
    players = 2 if 2 in spec.player_counts else spec.player_counts[0]
    table_id, links, spectator_link = create_table(browser, server, game_id, players, seed=4)
    pages = {seat: SeatPage(browser, link, seat) for seat, link in links.items()}
    pages[None] = SeatPage(browser, spectator_link, None)
    game = Game(server, table_id)
    game.check(list(pages.values()))
    check_own_hands_face_up(game, pages)
    for page in pages.values():
        page.open_plots()
    play_moves(game, pages, 10, random.Random(game_id))
    # Biome Blitz hides how many of each resource a hand holds; resources are public market cards
    # too, so no card name is a secret: FACE_UP_IN_HAND checks its hands instead.
    assert game.secrets.cards_hidden > 0 or game_id == "biome_blitz"
    for page in pages.values():
        assert not game.secrets.leaks(page.seat, page.page.content())
        assert not page.errors, page.errors
        page.close()
    assert not server.errors(), server.errors()


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
