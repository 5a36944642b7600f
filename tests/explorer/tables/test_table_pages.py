"""The playtest tables' pages in plain pytest: what each page holds, and what its buttons do.

Every Bokeh model of a seat's page (its whole document, as the server would send it) is read
after each move; no page may hold a card that its seat's observations never showed it but
another seat's did (tests/helpers/tables_server.py). The browser tests check the same on the wire.
"""

import asyncio
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import panel as pn
import param
import pytest
from tornado.websocket import WebSocketClosedError

import rules
from explorer.pages.app import create_app
from explorer.tables.hub import HUMAN, TableHub
from explorer.pages.serve import quiet_closed_pages
from explorer.pages.table_pages import Lobby, TablePage, review_replay
from rules.registry import get_game
from tests.helpers.tables_server import Secrets
from tests.helpers.tables import DocumentText, document_text, mounted
from tests.helpers.tiers import quick_once

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def hub(tmp_path):
    hub = TableHub(tmp_path / "tables.sqlite3", bot_delay=0.0)
    yield hub
    hub.close()


@pytest.mark.parametrize("game", quick_once(rules.GAMES, "stellar"))
def test_no_page_holds_what_its_seat_may_not_see(hub, game):
    spec = get_game(game)
    players = 3 if 3 in spec.player_counts else spec.player_counts[0]
    table, tokens = hub.create(game, players, seed=17)
    pages = {seat: TablePage(hub, table.id, tokens[seat]) for seat in range(players)}
    pages[None] = TablePage(hub, table.id, None)
    documents = {seat: mounted(page) for seat, page in pages.items()}
    texts = {seat: DocumentText(document) for seat, document in documents.items()}
    for page in pages.values():
        page.plots_card.collapsed = False            # the plots too: opening their card makes them
        assert page.plots is not None
    secrets = Secrets(spec, players)
    secrets.add_state(table.state)
    rng = random.Random(game)
    for _ in range(25):
        if table.over:
            break
        seat = rng.choice(table.to_move)
        action = rng.choice(spec.legal_actions(table.state, seat))
        hub.act(table.id, tokens[seat], table.step, spec.encode_action(action))
        secrets.add_state(table.state)
        for viewer, document in documents.items():
            assert len(pages[viewer].session.log) == table.step
            leaks = secrets.leaks(viewer, texts[viewer]())
            assert not leaks, f"step {table.step}: {viewer}'s page holds {leaks}"
    for viewer, document in documents.items():      # (the last read in full: the reads above missed no change)
        assert texts[viewer]() == document_text(document)
    # Biome Blitz hides only how many of each resource a hand holds; resources are public market
    # cards too, so no card name is secret (its board tests check that other hands show counts only).
    assert secrets.cards_hidden > 0 or game == "biome_blitz"


def test_the_check_finds_a_page_that_shows_everything(hub):
    """The check above is not vacuous: a seat's page drawn as the teacher's is caught."""
    table, tokens = hub.create("subastral", 3, seed=2)
    page = TablePage(hub, table.id, tokens[0])
    with param.edit_constant(page.session):     # (reaching past the fixed viewpoint, as no page object can)
        page.session.viewing_seat = 1           # another seat's view: its hand
    document = mounted(page)
    secrets = Secrets(table.spec, 3)
    secrets.add_state(table.state)
    assert secrets.leaks(0, document_text(document))


def test_a_seat_plays_through_its_picker_and_every_page_follows(hub):
    table, tokens = hub.create("subastral", 2, seed=3)
    mover = table.to_move[0]
    pages = {seat: TablePage(hub, table.id, tokens[seat]) for seat in (0, 1)}
    waiting = pages[1 - mover]
    assert waiting.picker.mode == "person" and waiting.picker.choices == []
    picker = pages[mover].picker
    assert picker.mode == "choose"
    picker.click(0)
    chosen = picker.selected[1]
    assert picker.confirm()
    assert table.moves == [(mover, chosen)]
    assert all(page.session.log == [(mover, chosen)] for page in pages.values())
    after = table.to_move[0]
    assert "Your move" in pages[after].status.object and "Waiting for" in pages[1 - after].status.object


def test_a_move_redraws_each_part_of_a_page_at_most_once(hub):
    """Every page follows every move at the table: a part it redraws twice, or one it keeps hidden,
    costs each page that much again (each redraw is a Bokeh model change, sent and laid out)."""
    table, tokens = hub.create("subastral", 4, seed=8)
    pages = {seat: TablePage(hub, table.id, tokens[seat]) for seat in range(4)}
    pages[None] = TablePage(hub, table.id, None)
    changes = {seat: [] for seat in pages}
    for seat, page in pages.items():
        mounted(page).on_change(lambda event, seat=seat: changes[seat].append((event.model.id, event.attr)))
    rng = random.Random(8)
    for _ in range(12):
        mover = table.to_move[0]
        for list_ in changes.values():
            list_.clear()
        picker = pages[mover].picker
        picker.click(rng.randrange(len(picker.choices)))
        for list_ in changes.values():        # the selection's preview is not what is counted
            list_.clear()
        assert picker.confirm(), picker.message
        for seat, list_ in changes.items():
            twice = {change for change in list_ if list_.count(change) > 1}
            assert not twice, f"move {table.step}: {seat}'s page changed {twice} more than once"
            board = pages[seat].board._pane
            assert sum(1 for model_id, _ in list_ if model_id in {m.id for m, _ in board._models.values()}) == 1
    assert all(page.scores is None for page in pages.values())      # made when the game ends


def test_a_page_that_missed_a_move_is_refused_and_caught_up(hub):
    table, tokens = hub.create("subastral", 2, seed=4)
    mover = table.to_move[0]
    page = TablePage(hub, table.id, tokens[mover])
    unsubscribe = page._unsubscribe
    unsubscribe()                                   # this page hears of nothing from now on
    other = TablePage(hub, table.id, tokens[mover])  # the same seat in a second tab plays
    other.picker.click(0)
    assert other.picker.confirm()
    page.picker.click(0)
    assert not page.picker.confirm()
    assert "moved on" in page.picker.message or "not Player" in page.picker.message
    assert table.step == 1 and len(page.session.log) == 1     # caught up, nothing else played


def test_the_end_of_a_game_shows_scores_replay_and_rematch(tmp_path):
    hub = TableHub(tmp_path / "tables.sqlite3", bot_delay=3600)    # the test moves the bot itself
    table, tokens = hub.create("stellar", 2, seed=5, controllers=[HUMAN, "random"])
    page = TablePage(hub, table.id, tokens[0])
    rng = random.Random(1)
    while not table.over:
        if 0 in table.to_move:
            page.picker.click(rng.randrange(len(page.picker.choices)))
            assert page.picker.confirm(), page.picker.message
        else:
            assert "Waiting for Player 2 (random bot)." in page.status.object
            assert page.picker.status.object == page.picker.WAITING      # whom: said once, in the status line
            hub._bot_turn(table, table.step)
    assert page.end.visible and "Game over" in page.status.object
    replay = json.loads(page._replay_file().getvalue())
    assert len(replay["actions"]) == table.step
    rematch = page.rematch()
    assert rematch.record.rematch_of == table.id
    assert f"table={rematch.id}&amp;seat={tokens[0]}" in page.end_links.object
    assert review_replay(table.id, hub) == replay
    hub.close()


def test_a_table_its_creator_ended_leads_to_its_replay_review_and_rematch(hub):
    """A table ended before its game's end (its creator's button) leads its players on as a finished
    one does: the replay, the review, the rematch (the lobby's rematch of it said "their finished table's
    page now leads to the rematch", and a seat page showed neither the rematch nor the review). No
    "Final scores": the game did not end. A table still being played has no rematch, however asked."""
    from explorer.tables.hub import TableError

    table, tokens = hub.create("biome_blitz", 3, seed=4)
    with pytest.raises(TableError, match="still being played"):
        hub.rematch(table.id)         # (a forged lobby request: the lobby offers ended tables only)
    assert table.rematch is None
    seat = table.to_move[0]
    hub.act(table.id, tokens[seat], table.step, table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0]))
    pages = [TablePage(hub, table.id, tokens[0]), TablePage(hub, table.id, tokens[1], lang="ja"),
             TablePage(hub, table.id, None)]
    assert not any(page.end.visible for page in pages)
    assert pages[0].rematch() is None                 # (live: nothing made)
    hub.abandon(table.id, operator=True)
    for page in pages:
        assert page.end.visible and page.scores is None
        assert f"?table={table.id}" in page.end_links.object and "review-link" in page.end_links.object
        assert "rematch-link" not in page.end_links.object
    assert pages[0].end_heading.object == "### The table has ended"
    assert pages[1].end_heading.object == "### 卓は終了しました"
    replay = json.loads(pages[2]._replay_file().getvalue())      # (the button shown: it gives the replay)
    assert replay["seed"] == table.record.seed and len(replay["actions"]) == table.step == 1
    # Anyone in the lobby may not undo the creator's decision: its menu leaves the table out, and a
    # forged request is refused; its players may, from their pages.
    lobby = Lobby(hub, origin="http://example.test")
    lobby.refresh()
    assert table.id not in lobby.rematch_of.options.values()
    with pytest.raises(TableError, match="ended before its game was over"):
        hub.rematch(table.id)
    lobby.rematch_of.options = {table.id: table.id}      # (forged: the menu never offered it)
    lobby.rematch_of.value = table.id
    assert lobby.rematch() is None and "only its players can start a rematch" in lobby.message.object
    assert table.rematch is None
    assert pages[0].rematch_button.visible and not pages[2].rematch_button.visible      # (a spectator: none)
    rematch = pages[1].rematch()
    assert rematch.record.rematch_of == table.id and rematch.record.controllers == table.record.controllers
    for page in pages:
        assert f"table={rematch.id}" in page.end_links.object, page.end_links.object
    assert f"table={rematch.id}&amp;seat={tokens[0]}" in pages[0].end_links.object
    assert not pages[0].rematch_button.visible


def test_the_explorer_reviews_a_finished_table_with_every_hand(hub, monkeypatch):
    table, _ = hub.create("subastral", 2, seed=6, controllers=["random", "random"])
    while not table.over:
        hub._bot_turn(table, table.step)
    monkeypatch.setattr("explorer.pages.table_pages.get_hub", lambda path=None: hub)
    monkeypatch.setattr("explorer.pages.app.query_arg", lambda name: table.id if name == "table" else None)
    session = create_app().explorer.session
    assert session.log == table.moves and session.viewing_seat is None and session.sees_all


def test_the_lobby_creates_tables_and_refuses_bad_set_ups(hub):
    lobby = Lobby(hub, origin="http://example.test")
    lobby.game.value = "jump_gate"
    assert lobby.players.options == list(get_game("jump_gate").player_counts)
    lobby.players.value = 4
    lobby.seats.objects[2].value = "greedy"
    menu = lobby.seats.objects[2]
    lobby.players.value = 3                     # the seats that stay keep their menu and choice
    assert lobby.seats.objects[2] is menu and len(lobby.seats.objects) == 3
    lobby.seed.value = "12"
    table, tokens = lobby.create()
    assert table.record.controllers == (HUMAN, HUMAN, "greedy") and table.record.table_seed == 12
    assert table.record.seed != 12          # the typed seed is not the deal's (explorer.tables.store)
    for seat, token in tokens.items():
        assert f"http://example.test/tables?table={table.id}&amp;seat={token}" in lobby.created.object
    assert f'data-table="{table.id}"' in lobby.listing.object
    lobby.seed.value = "twelve"
    assert lobby.create() is None and "whole number" in lobby.message.object
    assert len(hub.store.tables()) == 1


def test_a_move_made_while_a_page_is_being_made_is_shown(hub, monkeypatch):
    """A bot may move between the page's first look at the table and its subscribing to it."""
    import explorer.pages.table_pages as table_pages

    table, tokens = hub.create("subastral", 2, seed=1)
    mover = table.to_move[0]
    make_board = table_pages.board_for

    def board_for_then_a_move(session, lang="en"):
        action = table.spec.legal_actions(table.state, mover)[0]
        hub.act(table.id, tokens[mover], table.step, table.spec.encode_action(action))
        return make_board(session, lang)

    monkeypatch.setattr(table_pages, "board_for", board_for_then_a_move)
    page = TablePage(hub, table.id, tokens[1 - mover])
    assert table.step == 1 and len(page.session.log) == 1



def test_a_page_closed_while_an_update_is_on_its_way_is_not_logged_as_an_error(caplog, tmp_path):
    """What ``panel serve --setup explorer/pages/serve_setup.py`` installs on the server's loop: a write to
    a closed websocket that nobody awaited is dropped quietly; any other such exception is logged."""
    loop = asyncio.new_event_loop()         # (not run: the handler is called as asyncio calls it)
    try:
        with caplog.at_level("ERROR", logger="asyncio"):
            for error in (WebSocketClosedError(), ValueError("a real problem")):
                quiet_closed_pages(loop, {"message": "Task exception was never retrieved", "exception": error})
    finally:
        loop.close()
    assert "a real problem" in caplog.text and "WebSocketClosedError" not in caplog.text
    # ...and the setup script puts it on the loop the server runs.
    code = ("import runpy; from tornado.ioloop import IOLoop; runpy.run_path('explorer/pages/serve_setup.py'); "
            "print(IOLoop.current().asyncio_loop.get_exception_handler().__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "RULES_EXPLORER_TABLES_DB": str(tmp_path / "tables.sqlite3")})
    assert done.stdout.strip() == "quiet_closed_pages", done.stderr


@pytest.mark.parametrize("game", rules.GAMES)
def test_no_widget_of_a_seat_or_spectator_page_changes_its_viewpoint(hub, game):
    """docs/architecture.md, "One viewpoint per page": a page has one viewpoint, fixed when it opens. Any server-side widget, hidden or
    disabled, can be fired from the browser: every button of the page is clicked and every choice of
    every other widget taken, with the waiting player to move (the old "view as mover" button)."""
    spec = get_game(game)
    players = 2 if 2 in spec.player_counts else spec.player_counts[0]
    table, tokens = hub.create(game, players, seed=11)
    mover = table.to_move[0]
    others = [seat for seat in range(players) if seat not in table.to_move]
    viewers = [others[0] if others else (mover + 1) % players, None]
    for viewer in viewers:
        page = TablePage(hub, table.id, tokens[viewer] if viewer is not None else None)
        mounted(page)
        for widget in page.__panel__().select(pn.widgets.Widget):
            if isinstance(widget, pn.widgets.Button):
                widget.clicks += 1
            elif getattr(widget, "options", None):
                options = widget.options.values() if isinstance(widget.options, dict) else widget.options
                for option in options:
                    widget.value = option
            elif isinstance(widget.param["value"] if "value" in widget.param else None, param.Boolean):
                widget.value = not widget.value
            assert page.session.viewing_seat == viewer and not page.session.sees_all
        if page.picker is not None:     # no such widget is made, and the session refuses another view
            assert page.picker.view_as_button is None and page.picker.take_seat is None
            assert page.picker.bots_button is None
        for other in [None, *range(players)]:
            if other != viewer:
                with pytest.raises(TypeError):
                    page.session.viewing_seat = other


def test_a_move_chosen_at_a_past_step_is_refused_and_changes_nothing(hub):
    """A move is judged against the position the player saw: at a past step (an event-log line
    clicked) none is offered, and one sent anyway is refused, saying why; the table and its file
    are unchanged. (Stellar's start: both seats choose at once, so Player 2's choice at the deal is
    still legal after Player 1's.)"""
    spec = get_game("stellar")
    table, tokens = hub.create("stellar", 2, seed=1)
    first = spec.legal_actions(table.state, 0)[0]
    hub.act(table.id, tokens[0], 0, spec.encode_action(first))
    page = TablePage(hub, table.id, tokens[1])
    deal = page.session.state_at(0)
    action = next(a for a in spec.legal_actions(deal, 1) if a in spec.legal_actions(table.state, 1))
    page.log_view.list._handle_msg({"goto": 0})        # the event log's first line, clicked
    assert page.session.cursor == 0 and page.picker.choices == []
    assert "step 0 of 1" in page.picker.status.object
    assert not page.send(action)
    assert "at step 1" in page.picker.message and "step 0" in page.picker.message
    assert table.step == 1 and hub.store.moves(table.id) == [(0, spec.encode_action(first))]
    page.session.goto(1)                                # at the latest step the same move is played
    assert page.picker.choices and page.send(action)
    assert table.step == 2


def test_a_past_step_is_explained_in_japanese(hub):
    table, tokens = hub.create("stellar", 2, seed=1)
    spec = table.spec
    hub.act(table.id, tokens[0], 0, spec.encode_action(spec.legal_actions(table.state, 0)[0]))
    page = TablePage(hub, table.id, tokens[1], lang="ja")
    page.session.goto(0)
    assert "0手目（全1手）を見ています" in page.picker.status.object
    assert not page.send(spec.legal_actions(page.session.state, 1)[0])
    assert "0手目で選ばれました" in page.picker.message and table.step == 1


#: A seat the board marks as deciding (every board's seat panel gets the class ``to-move``).
DECIDING_SEAT = re.compile(r'class="[^"]*seat-\d[^"]*\bto-move\b')


@pytest.mark.parametrize("game", rules.GAMES)
def test_a_table_ended_early_shows_no_one_to_move_and_says_so(hub, game):
    """A table its creator ended before its game's end: its last position is not over, but no one may
    move there any more. Every page (seats and spectator, English and Japanese) says it ended, marks
    no seat as deciding and offers no move; an earlier step of its replay still shows whose turn it was."""
    from explorer.core.i18n import text

    table, tokens = hub.create(game, 2, seed=3)
    for _ in range(2):
        seat = table.to_move[0]
        hub.act(table.id, tokens[seat], table.step, table.spec.encode_action(table.spec.legal_actions(table.state, seat)[0]))
    pages = [TablePage(hub, table.id, tokens[0]), TablePage(hub, table.id, tokens[1], lang="ja"),
             TablePage(hub, table.id, None)]
    for page in pages:
        assert page.session.ended_early is None and DECIDING_SEAT.search(page.board.html())
    hub.abandon(table.id, operator=True)
    assert not table.spec.is_over(table.state) and table.spec.to_move(table.state)
    said = {lang: (text("board.ended_early", lang), text("stellar_board.round_status.ended", lang, round=1))
            for lang in ("en", "ja")}
    for page in pages:
        session = page.session
        assert session.ended_early == 2 and session.view()["to_move"] == [] and session.view()["legal_actions"] == []
        html = page.board.html()
        assert any(words in html for words in said[page.lang]), html[:600]
        assert not DECIDING_SEAT.search(html)
        assert page.picker is None or (page.picker.actable_seats() == [] and not page.picker.choices)
        session.goto(1)         # the replay, a step back: that position was live
        assert session.view()["to_move"] and DECIDING_SEAT.search(page.board.html())
        assert not any(words in page.board.html() for words in said[page.lang])
