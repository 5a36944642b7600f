"""A playtest table whose game never ends: bots that have made their limit of moves in a row end it,
its pages and the lobby say why in English and Japanese, and the count goes on from the log when
the server restarts; a person's move starts the count again."""

from __future__ import annotations

import pytest

from explorer.core.session import AUTOPLAY_LIMITS
from explorer.pages.table_pages import Lobby, TablePage
from explorer.tables.hub import HUMAN, SetUpRefused, TableHub, bot_run_limit
from explorer.tables.store import ENDLESS
from tests.helpers.endless import endless_jump_gate_cards
from tests.helpers.tables import play_first_legal, wait_for

NAME = "12 NavComp"


def endless_table(hub, controllers=("random", "random")):
    return hub.create("jump_gate", len(controllers), seed=0, controllers=list(controllers),
                      cards=endless_jump_gate_cards(), card_name=NAME)


def trailing_bot_moves(table) -> int:
    """The moves at the end of the table's log made by bots' seats, counted from its moves."""
    run = 0
    for seat, _ in reversed(table.moves):
        if table.controller(seat) == HUMAN:
            break
        run += 1
    return run


def test_bots_end_a_table_whose_game_does_not_end_and_its_pages_say_why(db, capsys):
    from explorer import cli

    # (0.05 s between bot moves: the table cannot end before the second one is asked for, 2 s on.)
    hub = TableHub(db, bot_delay=0.05, bot_limits={"random": 40}, max_bot_tables=1)
    try:
        table, _ = endless_table(hub)
        with pytest.raises(SetUpRefused):
            endless_table(hub)
        assert wait_for(lambda: table.ended, timeout=120), f"still playing at move {table.step}"
        # Ended at the limit, not over: no result, nothing more played, the store knows why.
        assert table.step == 40 and table.bot_run == 40 and not table.over
        assert hub.store.ended(table.id) == ENDLESS and hub.store.table(table.id).final_scores is None
        assert hub.store.move_counts()[table.id] == 40
        assert table.summary()["ended"] == ENDLESS and table.summary()["seed"] is not None   # its deal is public
        assert cli.main(["tables", "list", "--db", str(db)]) == 0
        assert "40 moves  ended by its bots: the game did not end" in capsys.readouterr().out
        for lang, says, listed in (
                ("en", "The bots ended this table at step 40: they had made 40 moves in a row and the game had not ended",
                 "ended by its bots: the game did not end"),
                ("ja", "ボットが40手目でこの卓を終了しました。ボットだけで40手続けてもゲームが終わらなかった",
                 "ボットが終了（ゲームが終わらなかった）")):
            page = TablePage(hub, table.id, None, lang=lang)
            assert says in page.status.object and "ended-endless" in page.status.object
            lobby = Lobby(hub, lang=lang)
            lobby.refresh()
            assert listed in lobby.listing.object
        # Ended, it no longer counts against the server's limit of bot-only tables.
        other, _ = endless_table(hub)
        hub.abandon(other.id, operator=True)
    finally:
        hub.close()
    # Restarted, the ended table stays ended: its bots do not play on.
    hub = TableHub(db, bot_delay=0.0, bot_limits={"random": 40})
    try:
        again = hub.table(table.id)
        assert again.ended and again.record.ended == ENDLESS and again.step == 40 and hub.restored == []
    finally:
        hub.close()


def test_the_count_goes_on_from_the_log_when_the_server_restarts(db):
    hub = TableHub(db, bot_delay=0.0, bot_limits={"random": 10_000})
    table, _ = endless_table(hub)
    assert wait_for(lambda: table.step >= 12, timeout=60)
    hub.close()
    hub = TableHub(db, bot_delay=0.0, bot_limits={"random": 10_000})
    played = hub.table(table.id).step
    hub.close()
    assert played >= 12
    # Restored with a limit a few moves further: it counts the moves already made, and stops there.
    hub = TableHub(db, bot_delay=0.0, bot_limits={"random": played + 5})
    try:
        again = hub.table(table.id)
        assert again.bot_run >= played      # (restored: counted from the log before the bots go on)
        assert wait_for(lambda: again.ended, timeout=60), f"still playing at move {again.step}"
        assert again.step == played + 5 and again.record.ended == ENDLESS
    finally:
        hub.close()


def test_a_persons_move_starts_the_count_again(db):
    # A person and a bot: the bots' moves in a row are those since the person's last move, also when
    # the table is restored; with a person playing, the table plays on.
    hub = TableHub(db, bot_delay=0.0, bot_limits={"random": 200})
    table, tokens = endless_table(hub, controllers=(HUMAN, "random"))
    try:
        for _ in range(8):
            assert wait_for(lambda: 0 in table.to_move, timeout=60)
            play_first_legal(hub, table, tokens)
            assert table.bot_run <= trailing_bot_moves(table)
        assert wait_for(lambda: 0 in table.to_move, timeout=60)
        assert any(table.controller(seat) != HUMAN for seat, _ in table.moves)
        assert table.bot_run == trailing_bot_moves(table) and not table.ended
    finally:
        hub.close()
    hub = TableHub(db, bot_delay=0.0, bot_limits={"random": 200})
    try:
        again = hub.table(table.id)
        assert again.bot_run == trailing_bot_moves(again) and again.step == table.step and not again.ended
    finally:
        hub.close()


def test_a_tables_limit_is_its_lowest_bots():
    assert bot_run_limit(("random", HUMAN, "greedy"), AUTOPLAY_LIMITS) == AUTOPLAY_LIMITS["greedy"] == 2_000
    assert bot_run_limit(("random", "random"), AUTOPLAY_LIMITS) == AUTOPLAY_LIMITS["random"] == 20_000
    assert bot_run_limit(("newbot", HUMAN), {"random": 30, "greedy": 5}) == 5     # (a bot not named: the lowest)
