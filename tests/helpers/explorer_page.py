"""Driving the explorer page in Chromium: open it, wait for it, pick, switch games, take screenshots."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from rules.protocol import RulesError


RESULTS = Path(__file__).resolve().parents[2] / "test-results"
SCREENS = Path("/tmp/screens")
LOAD_TIMEOUT = 30_000


def open_app(page: Page, served, width: int = 1600, height: int = 1000):
    url, apps = served
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    wait_for_board(page)
    return apps[-1]


def wait_for_board(page: Page) -> None:
    expect(page.locator(".step-counter")).to_contain_text("Step 0 / ", timeout=LOAD_TIMEOUT)


def wait_until(predicate, timeout: float = 10.0, what: str = "the server") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def wait_for_played(page: Page, session, length: int, what: str, counter: str = ".step-counter") -> None:
    """Until the move clicked (when the log was ``length`` long) and the bots' answers are played and the
    page's step counter shows that latest step.

    The session is read from the test's thread while the server's may be changing it (a move, then the
    bots' answers, each assigning the log, the cursor and the state one after another), so one read can
    mix two moments: "Step 18 / 15" was once expected of a page showing "Step 18 / 18". The page and the
    session are read again until they agree."""
    steps = page.locator(counter)

    def agreed() -> bool:
        if not (len(session.log) > length and settled(session)):
            return False
        latest = len(session.log)
        return session.cursor == latest and steps.inner_text().split() == ["Step", str(latest), "/", str(latest)]
    wait_until(agreed, what=what)


def shot(page: Page, name: str) -> None:
    """A full-page screenshot in test-results/ and /tmp/screens/ (no button tooltip in it)."""
    RESULTS.mkdir(exist_ok=True)
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)
    path = RESULTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, SCREENS / path.name)


def settled(session) -> bool:
    """The server is done for now: a person must decide, or the game is over (bots play in one go)."""
    spec, state = session.spec, session.state
    return spec.is_over(state) or any(session.controller(seat) == "human" for seat in spec.to_move(state))


def end_of_line(session):
    """The state at the end of the session's line, worked out here from one reading of its first state
    and its log, or None while those two readings come from two different lines.

    Never ``session.state_at(len(session.log))`` in a wait: the server's thread deals and plays on
    while the test reads, and ``state_at`` fills the session's own cache of states. Read between a new
    deal's first state and its (empty) log, it once applied the old line's moves to the new deal
    (an IllegalAction in the test, and wrong states in the server's cache)."""
    spec, first, log = session.spec, session.state_at(0), session.log     # (state_at(0) is always cached)
    state = first
    try:
        for seat, action in log:
            state = spec.apply(state, seat, action)
    except RulesError:
        return None
    return state


def new_game(page: Page, session, *, human: bool, timeout: float = 10.0) -> None:
    """Click "New game: me as Player 1" (``human``) or "New game (bots)" and wait for the new deal on the
    server: a new seed, dealt (a new first state), then played by the bots up to Player 1's first decision,
    or through the whole game with the cursor at the deal.

    The old game may itself wait for Player 1 at its deal, so "Player 1 to decide" alone can be read
    from the old game, before the click reached the server."""
    seed, dealt = session.seed, session.state_at(0)
    page.locator(".new-game-human button" if human else ".new-game button").click()

    def done() -> bool:
        if session.seed == seed or session.state_at(0) is dealt:
            return False
        if human:
            return session.viewing_seat == 0 and session.controller(0) == "human" and settled(session)
        spec = session.spec
        end = end_of_line(session) if session.cursor == 0 and session.log else None
        return end is not None and spec.is_over(end)

    wait_until(done, timeout=timeout, what="the new game" + (", Player 1 to decide" if human else ", played by the bots"))


def picker_labels(page: Page, app, seat: int = 0) -> list[str]:
    """The labels of ``seat``'s moves, once the picker offers the position's moves on the server and the page.

    The session's log and state are assigned before the picker (a watcher of them) builds the new
    list, so labels read as soon as the log has grown can be the last position's.
    """
    session = app.session
    wait_until(lambda: settled(session) and app.picker.offers()
               == [(seat, action) for action in session.spec.legal_actions(session.state, seat)],
               what="the picker to offer the position's moves")
    labels = app.picker.labels()
    expect(page.locator(".action-picker button.action")).to_have_text(labels)
    return labels


def switch_game(page: Page, session, label: str, game: str, players: int) -> None:
    """Choose ``label`` in the game menu, then lower the player count with the slider's arrow keys."""
    page.locator(".game-select select").select_option(label=label)
    wait_until(lambda: session.game == game, what="the game switch")
    handle = page.locator(".noUi-handle").first
    while session.players > players:
        before = session.players
        handle.focus()
        page.keyboard.press("ArrowLeft")
        wait_until(lambda: session.players < before, what="fewer players")


def button_label(action, state=None) -> str:
    """The English name the picker's button gives ``action`` offered in ``state`` (its game's
    ``action_label``: Subastral's names a card as printed, not by the id ``str(action)`` holds;
    Starligned's, given the state, with the half it shows)."""
    import rules

    return rules.get_game(type(action).__module__.split(".")[1]).action_label(action, "en", state)


def select(page: Page, action, state=None) -> None:
    """Click ``action``'s button until the picker shows it selected.

    A click that lands while the picker redraws the same buttons (a new list version) is refused
    by design ("no longer shows"); only then is it clicked again.
    """
    label = button_label(action, state)
    button = page.locator(".action-picker").get_by_role("button", name=label, exact=True)
    selection = page.locator(".action-picker .selection-line")
    for _ in range(3):
        button.click()
        try:
            expect(selection).to_contain_text(label, timeout=2_000)
            return
        except AssertionError:
            expect(page.locator(".picker-message")).to_contain_text("no longer shows")
    expect(selection).to_contain_text(label)
