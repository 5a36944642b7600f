"""The Subastral board in English and Japanese: its texts come from
``explorer/locales/<lang>/subastral_board.json``.

English must stay exactly as it was (other tests read it), so known English pieces of the board are
checked literally. The Japanese board must hold Japanese and none of the board's own English labels;
the engine's texts (events, action names, a replay problem) and the card data (card names, the card
list's name) are taken out first, as they are the engine's to translate.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from html.parser import HTMLParser

import pytest

from explorer.board import SubastralBoard, action_label, subastral_html
from explorer.i18n import texts
from explorer.session import GameSession

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def board(players: int, seed: int, step: int, seat: int | None, *, lang: str = "en", variants: dict | None = None,
          teacher: bool = True, preview: int | None = None, cut: bool = False) -> tuple[str, GameSession]:
    """The board's HTML for a greedy game at ``step`` seen by ``seat``; ``preview``: the index of a legal
    action of the (first) seat to move (modulo their number), selected but not played; ``cut``: the disturbance switched off
    after a full game with it (a replay problem)."""
    session = GameSession(game="subastral", players=players, seed=seed, variants=variants or {}, teacher=teacher)
    session.autoplay("greedy", then_goto=0)
    view = SubastralBoard(session=session, lang=lang)
    session.goto(min(step, len(session.log)))
    if cut:
        session.variants = {"disturbance": False}
    session.viewing_seat = seat
    spec, state = session.spec, session.state
    if preview is not None and spec.to_move(state):
        actions = list(spec.legal_actions(state, spec.to_move(state)[0]))
        session.selected_action = spec.encode_action(actions[preview % len(actions)])
    return view.html(), session


# --------------------------------------------------------------------------------------------- English

ENGLISH = [
    (dict(players=2, seed=1, step=0, seat=0), [
        '<span class="step-counter">Step 0 / 46</span><span class="round">Round 1</span>'
        '<span class="to-move-line">Player 2 to play a card onto the cloud of its number (turn step 1)</span>'
        '<span class="viewer">Seen by Player 1: other hands face down</span></div>',
        '<div class="deck" data-count="47"><div class="pile">47</div><div>Deck: 47 cards</div>'
        '<div>End card still in the deck: <b>41</b> cards above it</div></div>',
        '<span class="cloud-label">☁ 1</span><span class="card biome-savanna" data-card="savanna-6" title="Savanna 6" '
        'style="background:#e07a2f;color:#ffffff"><b>6</b><small>savanna</small></span>',
        '<div class="sun"><div class="disc"></div><div>Sun</div></div>',
        '<span class="card back" title="a face-down card"></span>',
        '<span class="count">3 face down</span>',
        '<span class="seat-score" title="provisional score">0 pts</span>',
        '<div class="zone-label">Hand</div>', '<div class="zone-label">Journal</div>',
        '<span class="empty">no columns yet</span>', '<span class="seat-note">you</span>',
        '<div class="last-events"><b>The deal:</b><ul><li>',
        '<span><span class="swatch" style="background:#cfe8f3"></span>Arctic tundra</span>',
        '<div class="provenance">Card list: Subastral standard deck (assumed model) (provenance: assumed, '
        'an assumed card list until the real one is known)</div>',
    ]),
    (dict(players=2, seed=1, step=1, seat=None, preview=0), [
        '<span class="to-move-line">Player 2 to take every card from another cloud (turn step 2)</span>'
        '<span class="last-move">Last move: Player 2: play subtropical_desert-6</span>'
        '<span class="viewer">Teacher view: every hand shown</span>'
        '<span class="preview-line">Selected, not yet played: <b>take cloud 1 to hand</b>. '
        'Confirm or Cancel it in the action panel.</span>',
        '<span class="target-note">taken to Player 2&#x27;s hand</span>',
        '<span class="played-mark">played this turn</span>',
        '<span class="seat-name">Player 2</span><span class="seat-note">to move · start player</span>',
        '<div class="zone-label destination">Hand ← the cloud goes here</div>',
        '<div class="last-events"><b>This step:</b><ul><li>Player 2 plays subtropical_desert-6 on cloud 6.</li></ul></div>',
    ]),
    (dict(players=2, seed=1, step=9, seat=0), [
        '<span class="to-move-line">Player 1 to choose the order of the new journal columns</span>',
        '<span class="empty">empty</span>',
        '<div class="pending">Waiting for a journal column: <span class="card biome-taiga" data-card="taiga-5" title="Taiga 5"',
        '<span class="seat-note">to move · you</span>',
    ]),
    (dict(players=3, seed=9, step=81, seat=1, variants={"disturbance": True}, teacher=False), [
        '<span class="to-move-line">Player 3 to choose a hand card to pass left (disturbance)</span>',
        '<div class="pending">Passes left: <span class="card biome-savanna" data-card="savanna-6" title="Savanna 6"',
        '<div><span class="end-card">End card revealed</span>: the game ends after round 15, then everyone takes one more turn</div>',
    ]),
    (dict(players=3, seed=9, step=81, seat=0, variants={"disturbance": True}, teacher=False), [
        '<div class="pending">Has chosen a card to pass.</div>', '<span class="empty">no cards</span>',
    ]),
    (dict(players=4, seed=12, step=10_000, seat=None, variants={"disturbance": True}, cut=True), [
        '<span class="to-move-line">Game over: winner: Player 4</span>'
        '<span class="last-move">Last move: Player 1: take cloud 6 to journal</span>',
        '<span class="problem">Move 94 (Player 2: pass subtropical_desert-1 left) is illegal under these rules',
        '<span class="seat-score" title="provisional score">115 pts</span>',
        'title="Savanna"><span class="col-head">1 · 4</span>',
    ]),
]


@pytest.mark.parametrize("where, pieces", ENGLISH, ids=lambda x: "" if isinstance(x, list) else str(x))
def test_the_english_board_is_unchanged(where, pieces):
    html, _ = board(**where)
    for piece in pieces:
        assert piece in html, piece
    assert board(**where, lang="en")[0] == html            # the default language is English
    assert not JAPANESE.search(html)


def test_the_english_board_of_an_observation_needs_no_language():
    session = GameSession(game="subastral", players=3, seed=5)
    view = session.observation(0)
    assert subastral_html(view, step=0, moves=0) == subastral_html(view, step=0, moves=0, lang="en")
    assert "Seen by Player 1: other hands face down" in subastral_html(view, step=0, moves=0)


# -------------------------------------------------------------------------------------------- Japanese

def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@lru_cache(maxsize=None)
def english_labels() -> tuple[str, ...]:
    """The board's English texts without placeholders, longer than 3 characters, not the same in Japanese."""
    en, ja = texts("en"), texts("ja")
    return tuple(value for key, value in en.items() if key.startswith("subastral_board.")
                 and not placeholders(value) and len(value) > 3 and value != ja[key])


class Shown(HTMLParser):
    """What a person reads: the text and the tooltips (``title``), without the card faces' biome words."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "small":
            self.skip += 1
        title = dict(attrs).get("title")
        if title:
            self.parts.append(title)

    def handle_endtag(self, tag):
        if tag == "small":
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)

    @property
    def text(self) -> str:
        return "\n".join(self.parts)


def board_text(html: str, session: GameSession) -> str:
    """The board's own text: events, action names, a replay problem and the card list's name left out."""
    html = re.sub(r"<li>.*?</li>", "", html)
    html = re.sub(r'(<span class="preview-line">[^<]*<b>).*?(</b>)', r"\1\2", html)
    html = re.sub(r'<span class="problem">.*?</span>', "", html)
    text = Shown(html).text
    if session.cursor and session.sees_all:
        text = text.replace(action_label(session.spec, session.log[session.cursor - 1][1], "ja"), "")
    card_set = session.observation(None).get("card_set") or {}
    for value in (card_set.get("name"), card_set.get("provenance")):
        text = text.replace(value or "\0", "")
    return text


JAPANESE_BOARDS = [
    dict(players=2, seed=1, steps=range(0, 47, 3), seats=(None, 0, 1)),
    dict(players=2, seed=1, steps=(1, 9, 46), seats=(None, 1), previews=(0, 1, 2)),
    dict(players=3, seed=9, steps=(0, 40, 80, 81, 82), seats=(None, 0, 1, 2), variants={"disturbance": True}),
    dict(players=3, seed=9, steps=(81,), seats=(None, 1), variants={"disturbance": True}, teacher=False, previews=(0,)),
    dict(players=4, seed=12, steps=(0, 1, 50, 93), seats=(None, 3), variants={"disturbance": True}),
    dict(players=4, seed=12, steps=(10_000,), seats=(None, 0), variants={"disturbance": True}, cut=True),
    dict(players=5, seed=3, steps=(0, 2, 30), seats=(None, 0, 4), previews=(None, 0)),
]


@pytest.mark.parametrize("where", JAPANESE_BOARDS, ids=lambda w: f"{w['players']}p-seed{w['seed']}")
def test_the_japanese_board_shows_no_english_labels(where):
    where = dict(where)
    steps, seats, previews = where.pop("steps"), where.pop("seats"), where.pop("previews", (None,))
    labels = english_labels()
    assert {"Hand", "Journal", "provisional score", "Teacher view: every hand shown"} <= set(labels)
    checked = 0
    for step in steps:
        for seat in seats:
            for preview in previews:
                html, session = board(**where, step=step, seat=seat, preview=preview, lang="ja")
                assert JAPANESE.search(html)
                shown = board_text(html, session)
                left = [label for label in labels if label in shown]
                assert not left, f"step {step}, seat {seat}, preview {preview}: English left: {left}"
                checked += 1
    assert checked >= len(steps)


def test_japanese_board_terms():
    html, _ = board(2, 1, 1, None, lang="ja", preview=0)
    for piece in ("1手目 / 全46手", "1巡目", "プレイヤー2の手番：ほかの雲のカードを全部取る（ステップ2）",
                  "先生の視点：全員の手札を表示", "直前の手：プレイヤー2：", "プレイヤー2の手札へ取る",
                  "手札 ← 雲のカードはここへ", ">ジャーナル<", ">太陽<", "デッキ：47枚", 'title="暫定得点"',
                  "この手：", "極地ツンドラ"):
        assert piece in html, piece
    html, _ = board(2, 1, 0, 0, lang="ja")
    assert "プレイヤー1の視点：ほかの人の手札は裏向き" in html and "配り：" in html and 'title="裏向きのカード"' in html
    # card names stay as the card data writes them
    assert 'data-card="savanna-6"' in html and "<small>savanna</small>" in html


def test_events_and_action_names_in_the_boards_language(monkeypatch):
    session = GameSession(game="subastral", players=2, seed=1)
    session.autoplay("greedy", then_goto=1)
    # an observation's event with texts per language
    view = session.observation(0)
    view["events"] = [dict(view["events"][0], texts={"en": view["events"][0]["text"], "ja": "イベントの日本語"})]
    assert "<li>イベントの日本語</li>" in subastral_html(view, step=1, moves=2, lang="ja")
    assert f"<li>{view['events'][0]['text']}</li>" in subastral_html(view, step=1, moves=2, lang="en")
    # the teacher's events (Event objects) and the engine's action names
    spec = session.spec
    events = spec.events(session.state)
    from dataclasses import replace
    monkeypatch.setattr(spec, "events", lambda state: tuple(replace(e, texts={"en": e.text, "ja": "先生用の日本語"})
                                                          for e in events))
    monkeypatch.setattr(spec, "action_label", lambda action, lang="en": "日本語の手" if lang == "ja" else str(action),
                        raising=False)
    assert session.view()["events"][0]["texts"]["ja"] == "先生用の日本語"
    ja = SubastralBoard(session=session, lang="ja").html()
    assert "<li>先生用の日本語</li>" in ja and "直前の手：プレイヤー2：日本語の手" in ja
    en = SubastralBoard(session=session, lang="en").html()
    assert f"<li>{events[0].text}</li>" in en and "Last move: Player 2: play subtropical_desert-6" in en


def test_the_board_redraws_when_its_language_changes():
    session = GameSession(game="subastral", players=2, seed=1)
    view = SubastralBoard(session=session)
    assert "Teacher view" in view.html()
    view.lang = "ja"
    assert "先生の視点" in view.html()
