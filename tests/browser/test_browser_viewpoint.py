"""A seat's page shows that seat and nothing else, whatever the browser fires (real Chromium against a
real ``panel serve``).

Any server-side widget, hidden or disabled, can be fired from the browser's console. For every game,
a seat's page and a spectator's page fire the server-side event of every model of their document
(each button's click, every choice of every selector and button group, every Card opened and shut,
every message the event log and the action buttons understand, garbage included), twice (the first
round makes new models, e.g. the plots). Then no websocket frame the page received, and nothing in
its final page (shadow roots included), may name a card hidden from it: a card that another seat's
observation or the full position (deck order included) held at some step, and that its own
observations never showed it (:class:`Hidden`); nor may any board there say it is drawn as seen by
another seat.

Also, a move chosen at a past step (an event-log line clicked) is not played at the present.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3

import pytest
from playwright.sync_api import Browser, expect

import rules
from explorer.tables.hub import TableHub
from rules.registry import get_game
from tests.helpers import strings
from tests.helpers.tables_server import Secrets, TablesServer
from tests.helpers.tiers import quick_once
from tests.helpers.notes_pages import LOG_EVENT_JS

LOAD_TIMEOUT = 30_000
MOVES_BEFORE = 4
#: How each game's board names the seat whose view it draws (``Seen by Player 2: ...``).
SEEN_BY = re.compile(r"Seen by (Player \d+)")

#: Fires every server-side event of every model of the page's document (see the module docstring);
#: returns how many it fired. Navigation models (Location) are left alone: the page would go away.
FIRE_ALL_JS = """
() => {
  const {ButtonClick, ModelEvent} = Bokeh.require("core/bokeh_events");
  class AnyEvent extends ModelEvent {
    constructor(name, data) { super(); this.name_ = name; this.data = data; }
    get event_name() { return this.name_; }
    get event_values() { return {model: this.origin, data: this.data}; }
  }
  const doc = Bokeh.documents[0];
  const models = [...doc.all_models].filter((m) => !/Location|BrowserInfo|DocumentConfig|StyleSheet/.test(m.type));
  let fired = 0;
  const set = (model, name, value) => { try { model[name] = value; fired++; } catch (error) {} };
  const send = (model, name, data) => { model.trigger_event(new AnyEvent(name, data)); fired++; };
  // Values: every option, every index, every switch both ways, every counter once more.
  for (const m of models) {
    const p = m.properties;
    if (p.options && p.value && Array.isArray(m.options))
      for (const option of m.options) set(m, "value", Array.isArray(option) ? option[0] : option);
    if (p.labels && p.active && Array.isArray(m.labels)) {
      for (let i = 0; i < m.labels.length; i++) set(m, "active", Array.isArray(m.active) ? [i] : i);
    }
    if (p.active && typeof m.active === "boolean") { set(m, "active", !m.active); set(m, "active", !m.active); }
    if (p.tabs && p.active && Array.isArray(m.tabs)) for (let i = 0; i < m.tabs.length; i++) set(m, "active", i);
    if (p.clicks && typeof m.clicks === "number") set(m, "clicks", m.clicks + 1);
    if (p.collapsed && typeof m.collapsed === "boolean") {
      const was = m.collapsed;
      set(m, "collapsed", !was);
      if (was === false) set(m, "collapsed", false);
    }
    if (p.value && typeof m.value === "number" && p.start && p.end) { set(m, "value", m.start); set(m, "value", m.end); }
  }
  // The action buttons' messages: every button of this list, some of the lists before and after, garbage.
  const clickAll = () => {
    for (const m of models)
      if (m.subscribed_events && m.subscribed_events.has("button_click")) { m.trigger_event(new ButtonClick()); fired++; }
  };
  const garbage = [null, {}, {goto: "1"}, {select: "0", version: "0"}];
  let log = null;
  for (const m of models) {
    const data = m.data, kind = data && data.type ? data.type : "";
    if (!(m.subscribed_events && m.subscribed_events.has("data_event"))) continue;
    if (kind.startsWith("LogList")) { log = m; continue; }
    if (kind.startsWith("ActionButtons")) {
      const count = data.groups.reduce((n, group) => n + group.actions.length, 0);
      for (let index = -1; index <= count + 1; index++) send(m, "data_event", {select: index, version: data.version});
      for (const version of [data.version - 1, data.version + 1])
        for (const index of [0, count - 1]) send(m, "data_event", {select: index, version});
    }
    for (const junk of garbage) send(m, "data_event", junk);
  }
  // Every other event a model's server side listens to, then every button's click (Confirm after a
  // selection): at the latest step, then at every step of the event log, last first.
  for (const m of models)
    for (const name of (m.subscribed_events || []))
      if (name !== "button_click" && name !== "data_event") send(m, name, {});
  clickAll();
  if (log !== null) {
    const steps = ((log.data.content + log.data.recent).match(/data-step="/g) || []).length;
    for (let step = steps + 1; step >= -1; step--) { send(log, "data_event", {goto: step}); clickAll(); }
    for (const junk of garbage) send(log, "data_event", junk);
  }
  return fired;
}
"""

#: After the events above, the page's session has handled them all once this round trip is back
#: (``window.__roundTrip``): the event log sent to its last step N, to 0, then to N again, and the
#: page's cursor seen going from 0 straight to N (the fired events send the log's steps last first,
#: and a move played meanwhile moves it past N: only this does). The page is left at the latest step.
ROUND_TRIP_JS = """
() => {
""" + LOG_EVENT_JS + """  const seen = [];
  window.__roundTrip = false;
  log.data.properties.current.change.connect(() => {
    seen.push(log.data.current);
    if (seen.length >= 2 && seen[seen.length - 2] === 0 && seen[seen.length - 1] === last) window.__roundTrip = true;
  });
  const last = ((log.data.content + log.data.recent).match(/data-step="/g) || []).length - 1;
  for (const step of [last, 0, last]) log.trigger_event(new DataEvent({goto: step}));
}
"""

#: Every element's markup, shadow roots included (``page.content()`` leaves shadow roots out).
PAGE_TEXT_JS = """
() => {
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) { parts.push(el.shadowRoot.innerHTML); walk(el.shadowRoot); }
  };
  parts.push(document.documentElement.outerHTML);
  walk(document);
  return parts.join("\\n");
}
"""


class Hidden(Secrets):
    """Secrets over a whole game so far: for each seat (None: a spectator), the cards that another
    seat's observation, or the full position (hands, decks and their order), held at some step and
    that its own observations never showed. (A card it saw at any step is left out, so a page may
    show it at every step.)"""

    def __init__(self, spec, players: int, states):
        super().__init__(spec, players)
        held: set[str] = set()
        for state in states:
            views = {seat: set(strings(spec.observe(state, seat))) for seat in self.seen}
            for seat, view in views.items():
                self.seen[seat] |= view
            held |= {text for text in set(strings(spec.encode(state))).union(*views.values())
                     if len(text) >= self.MIN_LENGTH and self.is_card(state, text)}
        self.secret = {seat: held - self.seen[seat] for seat in self.seen}


def table_states(db, table_id: str):
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        game, players, variants = connection.execute(
            "SELECT game, players, variants FROM tables WHERE id = ?", (table_id,)).fetchone()
        moves = [(seat, json.loads(action)) for seat, action in
                 connection.execute("SELECT seat, action FROM moves WHERE table_id = ? ORDER BY step", (table_id,))]
    finally:
        connection.close()
    from explorer.tables.store import TableStore

    store = TableStore(db, read_only=True)      # the deal's seed is worked out with the key beside the file
    try:
        deal_seed = store.table(table_id).seed
    finally:
        store.close()
    spec = get_game(game)
    states = [spec.new_game(players, deal_seed, json.loads(variants))]
    for seat, action in moves:
        states.append(spec.apply(states[-1], seat, spec.decode_action(action)))
    return spec, players, states


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module, with a table per game (every seat a person) a few moves in, and
    Stellar's start for the past-step test."""
    db = tmp_path_factory.mktemp("viewpoint") / "tables.sqlite3"
    hub = TableHub(db, bot_delay=0.0)
    tables = {}
    for game in rules.GAMES:
        spec = get_game(game)
        players = 2 if 2 in spec.player_counts else spec.player_counts[0]
        table, tokens = hub.create(game, players, seed=21)
        rng = random.Random(game)
        for _ in range(MOVES_BEFORE):
            seat = rng.choice(table.to_move)
            action = rng.choice(spec.legal_actions(table.state, seat))
            hub.act(table.id, tokens[seat], table.step, spec.encode_action(action))
        waiting = [seat for seat in range(players) if seat not in table.to_move]
        tables[game] = (table.id, tokens, waiting[0] if waiting else 0)
    # Stellar's start: both seats choose at once, so Player 2's choice at the deal is still legal
    # after Player 1's (the past-step test).
    stellar = get_game("stellar")
    table, tokens = hub.create("stellar", 2, seed=1)
    hub.act(table.id, tokens[0], 0, stellar.encode_action(stellar.legal_actions(table.state, 0)[0]))
    tables["past-step"] = (table.id, tokens, 1)
    hub.close()
    server = TablesServer(db).start()
    server.tables = tables
    yield server
    print("--- the server's log (shown when the test fails) ---\n" + server.log_text()[-6000:])
    server.stop()


class RecordedPage:
    """A page in its own browser context, keeping every websocket frame it received."""

    def __init__(self, browser: Browser, url: str):
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.goto(url)
        expect(self.page.locator(".table-status")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(self.page.locator(".event-log .step").first).to_be_visible(timeout=LOAD_TIMEOUT)

    def _frame(self, payload) -> None:
        self.frames.append(payload if isinstance(payload, str) else bytes(payload).decode("utf-8", "replace"))

    def fire_everything(self) -> int:
        fired = self.page.evaluate(FIRE_ALL_JS)
        self.round_trip()
        return fired

    def round_trip(self) -> None:
        """Until the server has handled every event sent so far, and the page received its answers."""
        self.page.evaluate(ROUND_TRIP_JS)
        self.page.wait_for_function("window.__roundTrip === true", timeout=60_000)

    def everything_received(self) -> str:
        return "\n".join(self.frames) + "\n" + self.page.evaluate(PAGE_TEXT_JS)


@pytest.mark.parametrize("game", quick_once(rules.GAMES, "subastral"))
def test_no_event_fired_from_a_seat_or_spectator_page_shows_a_hidden_card(browser, server, game):
    table_id, tokens, seat = server.tables[game]
    pages = {seat: RecordedPage(browser, f"{server.base}/tables?table={table_id}&seat={tokens[seat]}"),
             None: RecordedPage(browser, f"{server.base}/tables?table={table_id}")}
    for page in pages.values():
        first = page.fire_everything()
        again = page.fire_everything()            # the models the first round made (plots) too
        assert first > 10 and again > 10
    spec, players, states = table_states(server.db, table_id)
    hidden = Hidden(spec, players, states)
    assert hidden.secret[seat] and hidden.secret[None]        # there is something to leak
    for viewer, page in pages.items():
        text = page.everything_received()
        # Every board says whose view it draws: never another seat's. (Biome Blitz's hands and Jump
        # Gate's hold cards whose names are public too: what they hide is which and how many.)
        seen_by = set(SEEN_BY.findall(text))
        assert seen_by <= ({f"Player {viewer + 1}"} if viewer is not None else set()), \
            f"{game}: the page of {viewer} was drawn as seen by {sorted(seen_by)}"
        leaks = hidden.leaks(viewer, text)
        if leaks:
            where = text.find(sorted(leaks)[0])
            raise AssertionError(f"{game}: the page of {viewer} received cards hidden from it: {sorted(leaks)[:6]}, "
                                 f"e.g. ...{text[max(0, where - 300):where + 100]}...")
        page.context.close()


def test_a_move_chosen_at_a_past_step_is_not_played_and_the_page_says_why(browser, server):
    table_id, tokens, seat = server.tables["past-step"]
    recorded = RecordedPage(browser, f"{server.base}/tables?table={table_id}&seat={tokens[seat]}")
    page = recorded.page
    expect(page.locator(".action-picker button.action").first).to_be_visible(timeout=LOAD_TIMEOUT)
    page.locator('.event-log .step[data-step="0"] .step-no').click()      # back to the deal, where Player 2 chose too
    expect(page.locator('.event-log .step.current[data-step="0"]')).to_be_visible()
    expect(page.locator(".action-picker .past-step")).to_contain_text("step 0 of 1")
    expect(page.locator(".action-picker button.action")).to_have_count(0)
    # Try to play all the same, as a page's console can: select every button the deal offered, confirm.
    page.evaluate(FIRE_ALL_JS)
    recorded.round_trip()
    spec, _, states = table_states(server.db, table_id)
    assert len(states) == 2, "a move chosen at a past step was played"
    expect(page.locator(".table-status")).to_contain_text("Step 1:")
    page.context.close()
