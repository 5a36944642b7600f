"""The playtest tables' pages in English and Japanese (``explorer/locales/<lang>/tables.json``):
the English is what it always was, word for word, and in Japanese the lobby, a seat's page and a
spectator's page show Japanese and none of their English labels."""

from __future__ import annotations

import html
import json
import random
import re

import panel as pn
import pytest

from explorer.core.i18n import texts
from explorer.tables.hub import HUMAN, TableHub
from explorer.pages.table_pages import Lobby, TablePage, create_tables_page, review_replay
from explorer.tables.store import key_path
from rules.protocol import IllegalAction


@pytest.fixture
def hub(tmp_path):
    hub = TableHub(tmp_path / "tables.sqlite3", bot_delay=3600)      # the tests move the bots themselves
    yield hub
    hub.close()


def play_out(hub, table, page, seed=1):
    """Play ``table`` to its end: ``page``'s seat through its picker, the bots by hand."""
    rng = random.Random(seed)
    while not table.over:
        if page.seat in table.to_move:
            page.picker.click(rng.randrange(len(page.picker.choices)))
            assert page.picker.confirm(), page.picker.message
        else:
            hub._bot_turn(table, table.step)


def shown_text(part) -> str:
    """What the part of the page that is the tables' own shows (not the board, log or picker inside
    it, which have their own tests): its labels, titles, headings and HTML, as plain text."""
    panel = part.__panel__()
    out = [pane.object for pane in panel.select(pn.pane.Markdown)]
    out += [card.title for card in panel.select(pn.Card)]
    if isinstance(part, Lobby):
        widgets = [part.game, part.players, part.seed, part.create_button, part.rematch_of, part.rematch_button,
                   part.refresh_button, *part.seats.objects, *part.variants.objects]
        out += [getattr(widget, "label", None) or widget.name for widget in widgets]
        out += [part.seed.placeholder, part.message.object, part.created.object, part.listing.object]
        out += [str(option) for seat in part.seats.objects for option in seat.options]
    else:
        out += [part.header.object, part.status.object, part.end_links.object, part.download.label,
                part.rematch_button.label]
        if part.picker is not None:
            out += [part.picker.WAITING, part.picker.message]
    return plain("\n".join(out))


def plain(shown: str) -> str:
    """``shown`` without its markup and its links' addresses (``/tables?table=...``)."""
    return re.sub(r"\S*\?table=\S*", " ", html.unescape(re.sub(r"<[^>]+>", " ", shown)))


# ---------------------------------------------------------------------------------------------
# English: unchanged
# ---------------------------------------------------------------------------------------------
def test_the_lobby_in_english_is_unchanged(hub):
    lobby = Lobby(hub, origin="http://example.test")
    assert lobby.listing.object == "<i>No tables yet.</i>" and lobby.rematch_of.value is None
    assert not lobby.rematch_row.visible        # (no finished table: no empty menu)
    assert [lobby.game.name, lobby.players.name, lobby.seed.name, lobby.seed.placeholder] == \
        ["Game", "Players", "Seed (empty: random)", "random"]
    assert [lobby.create_button.label, lobby.rematch_of.name, lobby.rematch_button.label, lobby.refresh_button.label] == \
        ["Create the table", "Rematch a finished table", "Rematch (same seats, new seed)", "Refresh"]
    lobby.game.value = "stellar"
    assert lobby.variants.objects[0].name.startswith("Fifth starter card goes to the box: The fifth starter card goes back")
    lobby.players.value = 2
    assert [w.name for w in lobby.seats.objects] == ["Player 1", "Player 2"]
    assert lobby.seats.objects[1].options == {"person": "human", "random": "random", "greedy": "greedy", "MCTS": "mcts"}
    lobby.seats.objects[1].value = "random"
    lobby.seed.value = "twelve"
    assert lobby.create() is None and lobby.message.object == "Not created: the seed must be a whole number, not 'twelve'"
    assert lobby.rematch() is None and lobby.message.object == "Not created: choose a finished table to rematch"
    lobby.seed.value = "12"
    table, tokens = lobby.create()
    link = f"http://example.test/tables?table={table.id}&amp;seat={tokens[0]}"
    spectator = f"http://example.test/tables?table={table.id}"
    creator = "http://example.test/tables?table={}&amp;creator={}".format(
        table.id, re.search(r"creator=([\w-]+)", lobby.created.object).group(1))
    assert lobby.created.object == (
        f'<div class="created" data-table="{table.id}"><b>Table {table.id} is ready</b> (Stellar, 2 players; '
        'the deal stays secret until the game ends). '
        'Send each player their own link: it is their seat, and it is shown only now.<table class="links">'
        f'<tr><td>Player 1</td><td><a class="seat-link seat-link-0" href="{link}" target="_blank">{link}</a></td></tr>'
        '<tr><td>Player 2</td><td>random bot</td></tr>'
        f'<tr><td>Spectators</td><td><a class="spectator-link" href="{spectator}" target="_blank">{spectator}</a></td></tr>'
        f'<tr><td>You (creator)</td><td><a class="creator-link" href="{creator}" target="_blank">{creator}</a></td></tr>'
        '</table><p>Your creator link ends the table or gives a seat a new link; keep it to yourself: it too is shown '
        'only now.</p></div>')
    assert lobby.listing.object == (
        '<table><tr><th>Table</th><th>Game</th><th>Players</th><th>Status</th><th>Open</th></tr>'
        f'<tr class="open" data-table="{table.id}"><td><code>{table.id}</code></td><td>Stellar</td>'
        '<td>2 (person, random)</td><td>Step 0: waiting for Player 1, Player 2</td>'
        f'<td><a href="/tables?table={table.id}" target="_blank">watch</a></td></tr></table>')
    page = TablePage(hub, table.id, tokens[0])
    play_out(hub, table, page)
    lobby.refresh()
    scores = ", ".join(f"Player {s + 1} {p}" for s, p in enumerate(table.summary()["scores"]))
    won = ", ".join(f"Player {s + 1}" for s in table.summary()["winners"])
    assert (f'<td>over: {scores}; won by {won}</td><td><a href="/tables?table={table.id}" target="_blank">watch</a> · '
            f'<a href="/explorer?table={table.id}" target="_blank">review</a></td>') in lobby.listing.object
    lobby.rematch_of.value = table.id
    rematch = lobby.rematch()
    spectator = f"http://example.test/tables?table={rematch.id}"
    assert lobby.created.object == (
        f'<div class="created" data-table="{rematch.id}"><b>Rematch: table {rematch.id}</b>. Every player keeps their '
        "link: their finished table's page now leads to the rematch. Spectators: "
        f'<a class="spectator-link" href="{spectator}">{spectator}</a></div>')
    text = shown_text(lobby)
    for label in ("### New table", "**Variants**", "**Who plays each seat**", "### Tables"):
        assert label in text


def test_a_table_page_in_english_is_unchanged(hub):
    table, tokens = hub.create("stellar", 2, seed=5, controllers=[HUMAN, "random"])
    page, spectator = TablePage(hub, table.id, tokens[0]), TablePage(hub, table.id, None)
    assert page.header.object == (f'<b>Stellar</b> · table <code>{table.id}</code> · You are <span class="you">Player 1'
                                  '</span><br><span class="quiet">Player 1: a person, Player 2: random bot</span>')
    assert spectator.header.object == (f'<b>Stellar</b> · table <code>{table.id}</code> · <span class="you">Spectator</span>'
                                       '<br><span class="quiet">Player 1: a person, Player 2: random bot</span>')
    assert page.status.object == '<div class="table-status your-turn" data-step="0">Step 0: Your move.</div>'
    # (said once: the picker below it said "Player 1, your move." too)
    assert page.picker.status.object == '<span class="hint">Click a move, or what it plays on the board, to see it there; then Confirm.</span>'
    assert page.plots_card.title == "Score curves and cards (open to follow them)"
    assert page.download.label == "Download the replay (every hand)"
    assert page.rematch_button.label == "Rematch: same seats, new seed"
    assert page.end[0].object == "### Final scores"
    assert "Events" in shown_text(page)
    # A seat's page has one viewpoint: no "take a seat" widget is made, and the call changes nothing.
    page.picker.take_seat_here(1)
    assert page.picker.take_seat is None and page.session.viewing_seat == 0 and page.picker.message == ""
    assert page.picker.WAITING == '<span class="hint">Your choices appear here on your turn.</span>'
    assert json.loads(page._replay_file().getvalue()) == {"error": "the table has not ended: its replay would show every hand"}
    with pytest.raises(Exception, match=f"^table {table.id} is still being played: it can be reviewed once the game is over$"):
        review_replay(table.id, hub)
    page.picker.click(0)
    assert page.picker.confirm()
    assert page.status.object == '<div class="table-status" data-step="1">Step 1: Waiting for Player 2 (random bot).</div>'
    assert not page.send(table.spec.legal_actions(table.state, 1)[0])
    # The refusal names the game's own turn rule, linked to its rules page.
    assert page.picker.message.startswith("Not played: it is not Player 1's turn: the table waits for Player 2  \n"
                                          "Rule: [Turns and rounds](/rules?game=stellar&lang=en#rule-turn). ")
    play_out(hub, table, page)
    scores, winners = table.spec.scores(table.state), table.spec.winners(table.state)
    won = ", ".join(f"Player {s + 1} ({scores[s]} points)" for s in winners)
    assert page.status.object == (f'<div class="table-status game-over">Game over after {table.step} moves. '
                                  f'Won by {won}.</div>')
    page.show_plots()
    assert page.plots_card.title == "Score curves and cards"
    rematch = page.rematch()
    assert page.end_links.object == (
        f'<a class="rematch-link" href="/tables?table={rematch.id}&amp;seat={tokens[0]}">Go to the rematch (table '
        f'{rematch.id})</a> · <a class="review-link" href="/explorer?table={table.id}" target="_blank">'
        'Review the whole game in the explorer, every hand shown</a>')


def test_the_pages_in_english_are_unchanged(hub, monkeypatch):
    table, tokens = hub.create("subastral", 2, seed=3)
    args = {}
    monkeypatch.setattr("explorer.pages.table_pages.query_arg", lambda name: args.get(name))
    lobby_page = create_tables_page(hub)
    assert lobby_page.title == "Rules Explorer – playtest tables" and isinstance(lobby_page.lobby, Lobby)
    args.update(table=table.id, seat="wrong-key")
    refused = create_tables_page(hub)
    assert refused.main[0].object == (f"This link's seat key is not valid for table {table.id}: ask the organiser "
                                      "for your link (nothing was shown or changed).")
    assert refused.main[1].object == '<a href="/tables">Go to the lobby</a>'
    # (The creator's link refused says once that nothing changed: it said so twice.)
    del args["seat"]
    args.update(creator="wrong-key")
    assert create_tables_page(hub).main[0].object == (f"This link is not the creator link of table {table.id}: check "
                                                      "the link (nothing was shown or changed).")
    del args["creator"]
    args.update(seat=tokens[0])
    assert create_tables_page(hub).table_page.lang == "en"


# ---------------------------------------------------------------------------------------------
# Japanese
# ---------------------------------------------------------------------------------------------
def english_labels() -> list[str]:
    """The English static texts of the tables' pages: whole texts, and the words around placeholders
    (long enough not to be a bot's name or a piece of markup)."""
    found = set()
    for key, value in texts("en").items():
        if not key.startswith("tables.") or key in ("tables.seed_placeholder", "tables.list_separator"):
            continue
        for part in re.split(r"\{[^}]*\}", value):
            part = part.strip(" .:;,()")
            if len(part) >= 4 or (part and "{" not in value):
                found.add(part)
    return sorted(found, key=len, reverse=True)


def assert_japanese(text: str, *expected: str) -> None:
    text = plain(text)
    for japanese in expected:
        assert japanese in text
    for english in english_labels():
        pattern = re.escape(english) if " " in english else rf"\b{re.escape(english)}\b"
        assert not re.search(pattern, text), f"English label {english!r} in the Japanese page"


def test_the_lobby_in_japanese(hub):
    lobby = Lobby(hub, origin="http://example.test", lang="ja")
    assert_japanese(shown_text(lobby), "新しい卓", "卓を作る", "ゲーム", "シード（空欄：ランダム）",
                    "各席のプレイヤー", "プレイヤー1", "まだ卓はありません。", "更新")
    lobby.game.value = "stellar"
    lobby.players.value = 2
    from explorer.core.session import variant_summary
    # What the switch does, not its source (file names and a web site beside a checkbox; the rules page gives them).
    assert lobby.variants.objects[0].name == ("5枚目のスターターを箱へ戻すバリアント："
                                              + variant_summary("stellar", "fifth_starter_to_box", "ja"))
    for game in ("stellar", "biome_blitz", "subastral", "starligned", "jump_gate"):
        lobby.game.value = game
        for widget in lobby.variants.objects:
            said = f"{widget.name} {getattr(widget, 'description', '') or ''}"
            assert "出典" not in said and "docs/" not in said and ".md" not in said, said
    lobby.game.value = "stellar"
    assert lobby.seats.objects[1].options["人間"] == HUMAN
    lobby.seats.objects[1].value = "random"
    lobby.seed.value = "twelve"
    assert lobby.create() is None and lobby.message.object.startswith("作成されませんでした：シードは整数")
    lobby.seed.value = "12"
    table, tokens = lobby.create()
    assert f"卓 {table.id} の準備ができました" in lobby.created.object
    page = TablePage(hub, table.id, tokens[0], lang="ja")
    play_out(hub, table, page)
    lobby.refresh()
    lobby.rematch_of.value = table.id
    rematch = lobby.rematch()
    assert f"再戦：卓 {rematch.id}" in lobby.created.object
    assert_japanese(shown_text(lobby), "終了：", "勝者：", "観戦", "振り返る", "0手目：", "を待っています",
                    "状況", "開く", "終わった卓で再戦", "2（人間、ランダム）")


def test_a_table_page_in_japanese(hub, monkeypatch):
    # A known deal key and table id (explorer.tables.store: a table is dealt from its id and seed): seed 5
    # then deals a game that Player 1 begins. (Subastral: its game ends in ~70 moves, where a Jump Gate
    # game took ~700 and 40 s of the suite.)
    key_path(hub.store.path).write_text("00" * 32)
    ids = iter(["5eed0005", "5eed0006"])
    monkeypatch.setattr(hub, "_new_id", lambda: next(ids))
    table, tokens = hub.create("subastral", 2, seed=5, controllers=[HUMAN, "random"])
    page, spectator = TablePage(hub, table.id, tokens[0], lang="ja"), TablePage(hub, table.id, None, lang="ja")
    assert page.picker.lang == page.log_view.lang == page.board.lang == "ja"
    assert_japanese(shown_text(page), "あなたは", "プレイヤー1：人間、プレイヤー2：ランダムボット", "0手目：あなたの手番です。",
                    "イベント", "得点の推移とカード（開くと表示が更新されます）")
    # (The header names the spectator; the board says what it shows: once, not twice in other words.)
    assert_japanese(shown_text(spectator), "観戦者")
    assert "手札は表示されません" not in shown_text(spectator)
    page.session.goto(0)            # (nothing was played yet: the past-step text, from the texts)
    assert_japanese(page.picker._past_step_html(), "0手目（全0手）を見ています", "最新のステップ")
    assert_japanese(page._replay_file().getvalue().encode().decode("unicode_escape"), "卓はまだ終わっていません")
    with pytest.raises(Exception, match="まだプレイ中です"):
        review_replay(table.id, hub, lang="ja")
    page.picker.click(0)
    assert page.picker.confirm()
    if 1 in table.to_move:
        assert "1手目：プレイヤー2（ランダムボット）を待っています。" in page.status.object
        assert_japanese(page.picker.WAITING, "あなたの手番になると")
    play_out(hub, table, page)
    page.show_plots()
    page.rematch()
    for shown in (page, spectator):
        assert_japanese(shown.header.object + shown.status.object + shown.end_links.object + shown.end[0].object
                        + shown.download.label + shown.rematch_button.label + shown.plots_card.title,
                        "手でゲーム終了。勝者：", "最終得点", "リプレイをダウンロード", "エクスプローラーでゲーム全体を振り返る")
    assert "再戦へ（卓 " in page.end_links.object and "&amp;lang=ja" in page.end_links.object


def test_a_refused_move_is_explained_in_japanese_by_the_rules(hub):
    table, tokens = hub.create("subastral", 2, seed=4)
    seat = table.to_move[0]
    page = TablePage(hub, table.id, tokens[seat], lang="ja")
    error = IllegalAction("not allowed", reasons={"ja": "そのカードは出せません"}, rule=None)
    assert page._refusal(error) == "そのカードは出せません"


def test_the_pages_in_japanese_and_the_language_switch(hub, monkeypatch):
    table, tokens = hub.create("subastral", 2, seed=3)
    args = {}
    monkeypatch.setattr("explorer.pages.table_pages.query_arg", lambda name: args.get(name))
    lobby_page = create_tables_page(hub, lang="ja")
    assert lobby_page.title == "ルール・エクスプローラー：テストプレイ卓" and lobby_page.lobby.lang == "ja"
    switch = lobby_page.language_switch.object
    assert 'href="?lang=en"' in switch and "<b>日本語</b>" in switch and "言語：" in switch
    args.update(table=table.id, seat="wrong-key")
    refused = create_tables_page(hub, lang="ja")
    assert refused.main[0].object.endswith("（何も表示・変更していません）。")
    assert refused.main[1].object == '<a href="/tables?lang=ja">ロビーへ</a>'
    args.update(seat=tokens[0])
    seat_page = create_tables_page(hub, lang="ja")
    assert seat_page.table_page.lang == "ja"
    assert f'href="?table={table.id}&amp;seat={tokens[0]}&amp;lang=en"' in seat_page.language_switch.object
    english = create_tables_page(hub)          # outside a server: English
    assert f'href="?table={table.id}&amp;seat={tokens[0]}&amp;lang=ja"' in english.language_switch.object
    assert "<b>English</b>" in english.language_switch.object and "Language: " in english.language_switch.object
