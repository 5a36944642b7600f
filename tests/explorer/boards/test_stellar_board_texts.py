"""The Stellar board in English and Japanese: its texts come from ``locales/<lang>/stellar_board.json``;
the English board reads exactly as before, the Japanese one shows none of the English labels."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from explorer.core.i18n import LOCALES, text
from explorer.core.session import GameSession
from explorer.boards.stellar import StellarBoard, card_face, stellar_html
from rules.protocol import ALL
from tests.helpers.board_html import parse

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

def face(card) -> tuple[str, str]:
    """A drawn card's number (its ``<b>``) and the rest of its text."""
    number = card.all()[0].text
    return number, card.text[len(number):].strip()


def test_the_english_board_says_each_thing_in_its_place():
    session = played(12)
    html = board(session, "en")
    assert html == stellar_html(session) == stellar_html(session, "en")
    page = parse(html)
    assert page.one("step-counter").text == "Step 12 / 12"
    assert page.one("round-status").text == "Round 3 of 11 · play · to move: Player 1"
    assert page.one("viewer").text == "Teacher view: every hand shown"
    assert page.one("deck").text == "Deck 39 cards" and page.one("deck-count").text == "39"
    first = page.one("seat-0")
    assert (first.one("seat-name").text, first.one("seat-score").text) == ("Player 1", "12 pts")
    assert first.texts("zone-label") == ["Hand", "Telescope", "Notebook"]
    assert first.texts("section-title") == ["top (5)", "middle (3)", "bottom (4)"]
    assert "Top 2" in page.texts("t-slot", "slot-top-2") and "empty" in page.texts("empty")     # a slot by its place, not its id
    faces = {face(card) for card in page.all("st-card")}
    assert {("5", "planet ★"), ("6/0", "black hole"), ("2", "satellite")} <= faces
    assert "interstellar cloud" in page.texts("stack-name")
    runs = {(run.text, run.attrs["title"]) for run in page.all("stack-run")}
    assert {("run 1 × 2★ = 2", "2 telescope stars x notebook run of 1"),
            ("run 0 × 1★ = 0", "1 telescope star x notebook run of 0")} <= runs
    events = page.one("events")
    assert events.all()[0].text == "This step:" and events.texts() and all(events.texts()[1:])
    assert page.one("card-list").text == "Card file: Stellar standard cards (provenance: assumed)"
    seen = parse(board(session, "en", 1))
    assert seen.one("viewer").text == "Seen by Player 2"
    other = seen.one("hand-seat-0")
    # (Player 1 took two cards from the row, face up for all to see: they show; the third is face down)
    known = session.observation(1)["hands"][0]["known"]
    assert len(known) == 2
    assert other.one("count").text == "1 face down · 2 seen taken from the row" and len(other.all("st-card", "back")) == 1
    assert sorted(card.attrs["data-card"] for card in other.all() if "data-card" in card.attrs) == sorted(known)
    assert parse(board(played(3, teacher=False), "en")).one("viewer").text == "Spectator view: no hand is shown"


def test_the_english_board_at_the_end_and_with_a_cut_line():
    session = played(200, seed=7)
    page = parse(board(session, "en"))
    assert page.one("round-status").text == "Game over · final scores"       # (it said "Round 12 of 11")
    session.goto(len(session.log) - 1)           # the final notebook cards, after the eleventh round
    assert parse(board(session, "en")).one("round-status").text.startswith("After round 11 · final · to move: ")
    session.goto(len(session.log))
    assert "winner" in page.one("seat-1").classes
    # Hands are empty at the end: each says so (it was a blank gap under "Hand"), in both languages.
    for lang, words in (("en", "no cards"), ("ja", "カードなし")):
        shown = parse(board(session, lang))
        for seat in (0, 1):
            assert shown.one(f"hand-seat-{seat}").text == words
    # a stack's run says "with a satellite" exactly where the rules' scoring gave it one
    helped = 0
    for seat, scored in enumerate(session.spec.score_breakdown(session.state)):
        for category in scored["categories"]:
            if "run" in category:
                kind = category["category"].lower().replace(" ", "_")
                title = page.one(f"notebook-seat-{seat}").one(f"stack-{kind}").one("stack-run").attrs["title"]
                assert title.endswith("(with a satellite)") == category["satellite"]
                helped += category["satellite"]
    assert helped
    downs = [card for s in (4, 7) for n in (60, 200) for card in parse(board(played(n, seed=s), "en")).all("face-down")]
    assert downs and all(face(card) == ("3", "face down") and re.fullmatch(r"face down: \S+", card.attrs["title"])
                         for card in downs)
    session = played(20)
    session.replay_problem = {"move": 21, "seat": 1, "action": "take 3", "message": "no card there",
                              "text": "Move 21 (Player 2: take 3) is illegal under these rules: no card there"}
    assert (parse(board(session, "en")).one("problem").text
            == "Move 21 (Player 2: take 3) is illegal under these rules: no card there")


def test_the_board_escapes_every_text_it_is_given():
    """Jinja2's autoescape: a text with markup (here a replay notice) shows as its characters."""
    session = played(3)
    session.replay_problem = {"text": '<img src=x onerror="alert(1)"> & <b>'}
    html = board(session, "en")
    assert "<img" not in html and "&lt;img src=x" in html
    assert parse(html).one("problem").text == '<img src=x onerror="alert(1)"> & <b>'


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
    return words.replace(session.spec.observe(session.state, None)["card_set"]["name"], " ")


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
    for word in ("12手目 / 全12手", "第3ラウンド", "フェーズ2：手札を出す", "手番：プレイヤー1",
                 "先生の視点", "手札", "望遠鏡", "ノートブック", "上部（5）",
                 "中央（3）", "下部（4）", "惑星", "ブラックホール", "星間雲", "サテライト",
                 "連続数1 × 2★ = 2", "このステップ：",
                 "カードファイル：Stellarの標準カード（出典：想定）"):
        assert word in html, word
    assert parse(html).one("deck").text == "山札 39枚"
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
    assert "12手目 / 全12手" in view.html()


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
    session = played(0)
    assert card_face(session, {"face_down": None}) == {"shown": "face_down", "label": "face down", "title": "face down"}
    assert card_face(session, {"face_down": "planet-4-1star"})["title"] == "face down: planet-4-1star"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_starter_cards_are_shown_while_they_are_placed_and_hidden_from_the_other_seat(lang):
    """Setup asks each player where their two starters go: the board shows the two it asks about (the
    buttons alone named them), face down to the other seat, and says when a seat has chosen."""
    session = played(0)
    starters = [session.spec.observe(session.state, ALL)["starters"][s]["cards"] for s in (0, 1)]
    label = text("stellar_board.starters", lang)
    teacher = parse(board(session, lang))
    assert [c.attrs["data-card"] for c in teacher.one("starters-seat-0").all("st-card")] == starters[0]
    assert [c.attrs["data-card"] for c in teacher.one("starters-seat-1").all("st-card")] == starters[1]
    seat_view = board(session, lang, 0)
    assert seat_view.count(label) == 2
    assert all(f'data-card="{card}"' not in seat_view for card in starters[1])
    hidden = parse(seat_view).one("starters-seat-1")
    assert hidden.text == text("stellar_board.hand_face_down", lang, count=2)
    # Seat 0 places its starters: the other seat's board says so, still face down.
    session.play(0, session.spec.legal_actions(session.state, 0)[0])
    other = board(session, lang, 1)
    assert parse(other).one("starters-seat-0").text.endswith(text("stellar_board.starters_chosen", lang))
    assert all(f'data-card="{card}"' not in other for card in starters[0])
    # Once both have chosen, the starters are placed: no such zone is left.
    session.play(1, session.spec.legal_actions(session.state, 1)[0])
    assert label not in board(session, lang, 0) and label not in board(session, lang)


def test_the_deal_is_titled_as_the_other_games_title_it():
    """At step 0 the events box is the deal's, as in Subastral, Biome Blitz and Jump Gate ("This step:"
    there said nothing of a deal); after it, the step's."""
    session = played(3)
    session.goto(0)
    assert parse(board(session, "en")).one("events").all()[0].text == "The deal:"
    assert parse(board(session, "ja")).one("events").all()[0].text == "配札："
    session.goto(1)
    assert parse(board(session, "en")).one("events").all()[0].text == "This step:"
