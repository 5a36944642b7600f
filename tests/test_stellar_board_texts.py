"""The Stellar board in English and Japanese: its texts come from ``locales/<lang>/stellar_board.json``;
the English board reads exactly as before, the Japanese one shows none of the English labels."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from explorer.i18n import LOCALES
from explorer.session import GameSession
from explorer.stellar_board import StellarBoard, stellar_html

EN = json.loads((LOCALES / "en" / "stellar_board.json").read_text(encoding="utf-8"))
JA = json.loads((LOCALES / "ja" / "stellar_board.json").read_text(encoding="utf-8"))
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def played(steps: int, seed: int = 4, teacher: bool = True) -> GameSession:
    session = GameSession(game="stellar", players=2, seed=seed, teacher=teacher)
    rng = random.Random(seed)
    for _ in range(steps):
        spec, state = session.spec, session.state
        if not spec.to_move(state):
            break
        seat = spec.to_move(state)[0]
        session.play(seat, rng.choice(spec.legal_actions(state, seat)))
    return session


def board(session: GameSession, lang: str, seat=None) -> str:
    session.viewing_seat = seat
    return StellarBoard(session=session, lang=lang).html()


def test_every_key_is_the_boards_and_both_files_agree():
    assert set(EN) == set(JA)
    assert all(key.startswith("stellar_board.") for key in EN)


# ---------------------------------------------------------------------------------------- English

def test_the_english_board_reads_as_before():
    session = played(12)
    html = board(session, "en")
    assert html == stellar_html(session) == stellar_html(session, "en")
    for fragment in (
        '<span class="step-counter">Step 12 / 12</span><span>Round 3 of 11 · play · to move: Player 1</span>'
        '<span class="viewer">Teacher view: every hand shown</span>',
        '<div class="deck">Deck<br><b>39</b> cards</div>',
        '<span class="seat-name">Player 1</span><span class="seat-score">12 pts</span>',
        '<div class="zone-label">Hand</div>', '<div class="zone-label">Telescope</div>',
        '<div class="zone-label">Notebook</div>', '<div class="section-title">top (5)</div>',
        '<div class="section-title">middle (3)</div>', '<div class="section-title">bottom (4)</div>',
        '<span class="t-slot slot-top-2">top-2</span>', '<span class="empty">empty</span>',
        '<b>5</b>planet ★</span>', '<b>6/0</b>black hole </span>', '<b>2</b>satellite </span>',
        '<span class="stack-name">interstellar cloud</span>',
        '<span class="stack-run" title="2 telescope stars x notebook run of 1">run 1 × 2★ = 2</span>',
        '<span class="stack-run" title="1 telescope star x notebook run of 0">run 0 × 1★ = 0</span>',
        '<div class="events"><b>This step:</b><ul><li>',
        '<div class="zone-label">Card list: Stellar standard deck (assumed model) (provenance: assumed)</div>',
    ):
        assert fragment in html, fragment
    seen = board(session, "en", 1)
    assert '<span class="viewer">Seen by Player 2</span>' in seen
    assert '</span> <span class="count">3 face down</span>' in seen
    assert '<span class="viewer">Spectator view: no hand is shown</span>' in board(played(3, teacher=False), "en")


def test_the_english_board_at_the_end_and_with_a_cut_line():
    html = board(played(200, seed=7), "en")
    assert "<span>Round 12 of 11 · over · to move: nobody</span>" in html and 'class="seat seat-1 winner"' in html
    assert re.search(r'title="\d+ telescope stars? x notebook run of \d+ \(with a satellite\)">run ', html)
    faces = [h for h in (board(played(n, seed=s), "en") for s in (4, 7) for n in (60, 200)) if "face-down" in h]
    assert faces and all(re.search(r'title="face down: [^"]+"><b>3</b>face down</span>', h) for h in faces)
    session = played(20)
    session.replay_problem = {"move": 21, "seat": 1, "action": "take 3", "message": "no card there",
                              "text": "Move 21 (Player 2: take 3) is illegal under these rules: no card there"}
    assert ('<span class="problem">Move 21 (Player 2: take 3) is illegal under these rules: no card there</span>'
            in board(session, "en"))


# --------------------------------------------------------------------------------------- Japanese

#: The board's English labels that must not show on the Japanese board.
LABELS = sorted(value for key, value in EN.items()
                if "{" not in value and value != JA[key] and len(value) > 3)


def shown(session: GameSession, html: str) -> str:
    """The Japanese board's words: its text and tooltips, without what the engine and card data name
    (card names, the card list's name, event texts and the rules' reason in a replay notice)."""
    html = re.sub(r"<li>.*?</li>", "", html)
    html = re.sub(r'<span class="problem">.*?</span>', "", html)
    cards = set(re.findall(r'data-card="([^"]*)"', html)) | {"satellite"}
    titles = [title for title in re.findall(r'title="([^"]*)"', html) if title not in cards]
    titles = [re.sub(r"[a-z_]+-[0-9/]+-\d+stars?", " ", title) for title in titles]   # a face-down card's name
    words = re.sub(r"<[^>]*>", " ", html) + " " + " ".join(titles)
    return words.replace(session.observation(None)["card_set"]["name"], " ")


SESSIONS = [(0, 4, True), (1, 4, True), (12, 4, True), (25, 7, True), (60, 2020, True), (200, 7, True),
            (200, 2020, True), (12, 4, False), (200, 9, False)]


@pytest.mark.parametrize("steps, seed, teacher", SESSIONS)
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_the_japanese_board_shows_no_english_label(steps, seed, teacher, seat):
    session = played(steps, seed, teacher)
    html = board(session, "ja", seat)
    assert JAPANESE.search(html)
    words = shown(session, html)
    left = [label for label in LABELS if label in words]
    assert not left, left
    assert "プレイヤー1" in html and "Player 1" not in words


def test_the_japanese_board_names_the_rulebooks_terms():
    html = board(played(12), "ja")
    for word in ("ステップ 12 / 12", "第 3 ラウンド", "フェーズ 2：手札を出す", "手番：プレイヤー1",
                 "先生の視点", "山札<br><b>39</b> 枚", "手札", "望遠鏡", "ノートブック", "上部（5）",
                 "中央（3）", "下部（4）", "惑星", "ブラックホール", "星間雲", "サテライト",
                 "連続数 1 × 2★ = 2", "このステップ：",
                 "カードリスト：Stellar standard deck (assumed model)（由来：想定）"):
        assert word in html, word
    assert "プレイヤー2の視点" in board(played(12), "ja", 1)
    assert "観戦者の視点" in board(played(3, teacher=False), "ja")


def test_the_japanese_replay_notice_keeps_the_rules_reason():
    session = played(20)
    session.replay_problem = {"move": 21, "seat": 1, "action": "take 3", "message": "no card there",
                              "text": "Move 21 (Player 2: take 3) is illegal under these rules: no card there"}
    notice = "21手目（プレイヤー2：take 3）は、このルールでは行えません：no card there"    # as every board and the timeline
    assert f'<span class="problem">{notice}</span>' in board(session, "ja")


def test_the_board_follows_its_language():
    session = played(12)
    view = StellarBoard(session=session, lang="en")
    assert "Step 12 / 12" in view.html()
    view.lang = "ja"
    assert "ステップ 12 / 12" in view.html()


@pytest.mark.parametrize("seat", [None, 0])
def test_events_are_shown_in_the_boards_language_where_the_game_writes_them(monkeypatch, seat):
    session = played(12)
    spec = session.spec
    original = type(spec).events

    def events(state):
        return tuple(dataclasses.replace(e, texts={"en": e.text, "ja": "日本語：" + e.text},
                                         public_texts={"en": e.public_text, "ja": "日本語：" + e.public_text}
                                         if e.public_text else None)
                     for e in original(spec, state))

    monkeypatch.setattr(spec, "events", events)
    session._observations.clear()
    ja, en = board(session, "ja", seat), board(session, "en", seat)
    assert "<li>日本語：" in ja
    assert "<li>日本語：" not in en and "<li>Player" in en


def test_a_face_down_card_the_viewer_does_not_know_is_drawn_without_a_name():
    from explorer.stellar_board import stellar_card_html

    assert "None" not in stellar_card_html({"face_down": None})
    assert 'title="face down"' in stellar_card_html({"face_down": None})
    assert "planet-4-1star" in stellar_card_html({"face_down": "planet-4-1star"})
