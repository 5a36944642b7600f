"""Seats of a playtest table in Chromium: create a table in the lobby, read it, play a first move."""

from __future__ import annotations

import json
import random
import sqlite3
import time

from playwright.sync_api import Browser, Page, expect

from playwright.sync_api import Error as PlaywrightError

from explorer.core.i18n import bot_name, text
from rules.registry import get_game
from tests.helpers.chromium import OutsideRequests
from tests.helpers.tables_server import PAGE_JS, TablesServer


LOAD_TIMEOUT = 30_000


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
        self.outside = OutsideRequests(self.context)
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
        return choose_and_confirm(self.page, rng)

    def close(self, quiet: float = 0.5, timeout: float = 15.0) -> None:
        """Close the page once the server has sent it nothing for ``quiet`` seconds: a page closed
        while a patch is on its way makes Panel log a traceback (writing to a closed websocket)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last_frame < quiet and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
        self.context.close()
        self.outside.check()


def choose_and_confirm(page: Page, rng: random.Random, attempts: int = 8) -> str:
    """Select one of the moves the page offers (seeded choice), see it selected, confirm it; returns
    its label.

    The mover's own page may show a move's step before its picker has the next decision's buttons
    (its board follows the table, the picker its own session: two messages), so the label read can
    belong to buttons being replaced. The choice is then made again from the buttons there are now,
    instead of waiting for a button that is gone (a click on a vanished label waited out its whole
    timeout, 30 s, under load)."""
    buttons = page.locator(".action-picker button.action")
    expect(buttons.first).to_be_visible(timeout=15_000)
    for _ in range(attempts):
        button = buttons.nth(rng.randrange(max(1, buttons.count())))
        try:
            label = button.inner_text(timeout=3_000)
            button.click(timeout=3_000)
            expect(page.locator(".action-picker .selection-line")).to_contain_text(label, timeout=3_000)
        except (AssertionError, PlaywrightError):        # the buttons were redrawn meanwhile: choose again
            continue
        page.locator(".confirm-action button").click()
        return label
    said = page.locator(".table-status, .action-picker").all_inner_texts()     # (what the page says instead)
    raise AssertionError(f"no move could be selected in {attempts} attempts; offered now: {buttons.all_inner_texts()}; "
                         f"the page says: {said}")


class Created:
    """A table just made in the lobby's form: its id, the seats' links, the spectator's and the
    creator's links (shown once), and the lobby's page (still open: ``close()`` it)."""

    def __init__(self, lobby: Page, table_id: str, links: dict[int, str], spectator: str, creator: str):
        self.lobby, self.id, self.links, self.spectator, self.creator = lobby, table_id, links, spectator, creator

    def close(self) -> None:
        self.lobby.context.close()


def create_in_lobby(browser: Browser, server: TablesServer, game: str, players: int, seats: list[str] | None = None,
                    seed: int | str = 5, base: str | None = None, cards: str | None = None) -> Created:
    """Create a table in the lobby's form at ``base`` (default: the server's own address), played with
    the card file saved as ``cards`` (default: the standard cards)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    lobby = context.new_page()
    lobby.goto(f"{base or server.base}/tables")
    expect(lobby.locator(".create-table button")).to_be_visible(timeout=LOAD_TIMEOUT)
    lobby.locator(".lobby-game select").select_option(label=get_game(game).title)
    # Each choice changes the form on the server (the game: its player counts, variants and seats; the
    # player count: the seats' menus), and the create button moves with it: wait until the page shows
    # the changed form, or a click aimed at the button's old place hits nothing (a loaded CI run did).
    expect(lobby.locator(f".lobby-variants-{game}")).to_be_attached()
    if cards is not None:           # (the game's saved files, offered once the game is chosen)
        expect(lobby.locator(".lobby-cards select option", has_text=cards)).to_be_attached()
        lobby.locator(".lobby-cards select").select_option(label=cards)
    lobby.locator(".lobby-players select").select_option(str(players))
    expect(lobby.locator(f".lobby-seat-{players - 1} select")).to_be_visible()
    expect(lobby.locator(".lobby-seats select")).to_have_count(players)
    for seat, controller in enumerate(seats or []):     # (the menu names them: "person", "greedy", "MCTS")
        label = text("tables.person_short", "en") if controller == "human" else bot_name(controller, "en")
        lobby.locator(f".lobby-seat-{seat} select").select_option(label=label)
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


def hand(page: Page, seat: int) -> list[str]:
    """The cards of ``seat``'s hand the page shows face up (once it shows some)."""
    cards = page.locator(f".hand-seat-{seat} .card[data-card]")
    expect(cards.first).to_be_visible(timeout=LOAD_TIMEOUT)
    return sorted(cards.evaluate_all("(cards) => cards.map((card) => card.dataset.card)"))


def close_clean(pages: list[SeatPage]) -> None:
    """Close the pages; none had a script error."""
    for page in pages:
        assert not page.errors, page.errors
        page.close()


def your_turn(pages: list[SeatPage]) -> SeatPage:
    return next(page for page in pages if page.page.locator(".table-status.your-turn").count())


def first_move_kept(server: TablesServer, table_id: str, pages: list[SeatPage]) -> None:
    """Every page shows the table's first move and the database holds it; then the pages close."""
    for page in pages:
        page.wait_for_step(1)
    assert len(read_table(server.db, table_id)[1]) == 1
    close_clean(pages)


def choose_first_move(seat: SeatPage) -> str:
    buttons = seat.buttons()
    expect(buttons.first).to_be_visible(timeout=15_000)
    label = buttons.first.inner_text()
    buttons.first.click()
    expect(seat.page.locator(".action-picker .selection-line")).to_contain_text(label)
    seat.page.locator(".confirm-action button").click()
    return label
