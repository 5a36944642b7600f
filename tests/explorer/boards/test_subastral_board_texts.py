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

from explorer.boards.subastral import SubastralBoard, action_label, subastral_html
from explorer.core.i18n import texts
from explorer.core.session import GameSession
from tests.helpers.seeded_games import autoplay_as_before
from tests.helpers.board_html import parse

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def board(players: int, seed: int, step: int, seat: int | None, *, lang: str = "en", variants: dict | None = None,
          teacher: bool = True, preview: int | None = None, cut: bool = False) -> tuple[str, GameSession]:
    """The board's HTML for a greedy game at ``step`` seen by ``seat``; ``preview``: the index of a legal
    action of the (first) seat to move (modulo their number), selected but not played; ``cut``: the disturbance switched off
    after a full game with it (a replay problem)."""
    session = GameSession(game="subastral", players=players, seed=seed, variants=variants or {}, teacher=teacher)
    autoplay_as_before(session, "greedy", then_goto=0)
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

def card(node) -> tuple[str, str, str, str]:
    """A drawn card: its name, tooltip, number and biome word."""
    return node.attrs.get("data-card"), node.attrs["title"], node.one_tag("b").text, node.one_tag("small").text


def deal_seen_by_player_1(page):
    assert page.one("step-counter").text == "Step 0 / 46" and page.one("round").text == "Round 1"
    assert page.one("to-move-line").text == "Player 2 to play a card onto the cloud of its number (turn step 1)"
    assert page.one("viewer").text == "Seen by Player 1: other hands face down"
    deck = page.one("deck")
    assert deck.attrs["data-count"] == "47" and deck.one("pile").text == "47"
    assert deck.one("deck-label").text == "Deck: 47 cards"
    assert deck.one("end-line").text == "End card still in the deck: 41 cards above it"
    assert deck.one("end-line").one_tag("b").text == "41"
    cloud = page.one("cloud-1")
    assert cloud.one("cloud-label").text == "☁ 1"
    assert card(cloud.all("card")[0]) == ("savanna-6", "Savanna 6", "6", "savanna")
    assert page.one("sun").text == "Sun"
    other = page.one("hand-seat-1")
    assert [back.attrs["title"] for back in other.all("card", "back")] == ["a face-down card"] * 3
    assert other.one("count").text == "3 face down" and not other.all("card", "biome-savanna")
    first = page.one("seat-0")
    assert (first.one("seat-score").text, first.one("seat-score").attrs["title"]) == ("0 pts", "provisional score")
    assert first.texts("zone-label") == ["Hand", "Journal"]
    assert first.one("journal").text == "no columns yet" and first.one("seat-note").text == "you"
    events = page.one("last-events")
    assert events.one_tag("b").text == "The deal:" and events.all_tags("li")
    legend = {(entry.all("swatch")[0].attrs["style"], entry.text) for entry in page.one("legend").all_tags("span")
              if entry.all("swatch")}
    assert ("background:#cfe8f3", "Arctic tundra") in legend
    assert page.one("provenance").text == ("Card file: Subastral standard cards (provenance: assumed; "
                                           "a card list of our own until the real one is known)")


def a_take_previewed_for_the_teacher(page):
    assert page.one("to-move-line").text == "Player 2 to take every card from another cloud (turn step 2)"
    assert page.one("last-move").text == "Last move: Player 2: play Subtropical desert 6"
    assert page.one("viewer").text == "Teacher view: every hand shown"
    line = page.one("preview-line")
    assert line.text == "Selected, not yet played: take cloud 1 to hand. Confirm or Cancel it in the action panel."
    assert line.one_tag("b").text == "take cloud 1 to hand"
    assert page.one("cloud-1", "target").one("target-note").text == "taken to Player 2's hand"
    assert page.one("cloud-6").one("played-mark").text == "played this turn"
    second = page.one("seat-1")
    assert (second.one("seat-name").text, second.one("seat-note").text) == ("Player 2", "to move · start player")
    assert second.one("zone-label", "destination").text == "Hand ← the cloud goes here"
    assert "destination" in second.one("hand").classes
    events = page.one("last-events")
    assert events.one_tag("b").text == "This step:"
    assert [item.text for item in events.all_tags("li")] == ["Player 2 plays Subtropical desert 6 on cloud 6."]


def a_column_to_open(page):
    assert page.one("to-move-line").text == "Player 1 to choose the order of the new journal columns"
    assert "empty" in page.texts("empty")
    waiting = page.one("seat-0").one("waiting-column")
    assert waiting.text.startswith("Waiting for a journal column:") and "taiga-5" in [card(c)[0] for c in waiting.all("card")]
    assert page.one("seat-0").one("seat-note").text == "to move · you"


def a_pass_chosen_by_player_2(page):
    assert page.one("to-move-line").text == "Player 3 to choose a hand card to pass left (disturbance)"
    passing = page.one("seat-1").one("passing")
    assert passing.text.startswith("Passes left:") and card(passing.one("card"))[0] == "savanna-6"
    end = page.one("end-line")
    assert end.text == "End card revealed: the game ends after round 15, then everyone takes one more turn"
    assert end.one("end-card").text == "End card revealed"


def a_pass_chosen_by_another(page):
    assert page.one("seat-1").one("has-chosen").text == "Has chosen a card to pass."
    assert not page.one("seat-1").all("passing") and "no cards" in page.texts("empty")


def the_end_with_a_cut_line(page):
    assert page.one("to-move-line").text == "Game over. Won by Player 4."
    assert page.one("last-move").text == "Last move: Player 1: take cloud 6 to journal"
    # The move as its button names it, not its code ("pass subtropical_desert-1 left"), in English too.
    assert page.one("problem").text.startswith("Move 94 (Player 2: pass Subtropical desert 1 left) is illegal under these rules")
    assert "115 pts" in page.texts("seat-score")
    assert "1 · 4" in [column.one("col-head").text for column in page.all("journal-column") if column.attrs["title"] == "Savanna"]


ENGLISH = [
    (dict(players=2, seed=1, step=0, seat=0), deal_seen_by_player_1),
    (dict(players=2, seed=1, step=1, seat=None, preview=0), a_take_previewed_for_the_teacher),
    (dict(players=2, seed=1, step=9, seat=0), a_column_to_open),
    (dict(players=3, seed=9, step=81, seat=1, variants={"disturbance": True}, teacher=False), a_pass_chosen_by_player_2),
    (dict(players=3, seed=9, step=81, seat=0, variants={"disturbance": True}, teacher=False), a_pass_chosen_by_another),
    (dict(players=4, seed=12, step=10_000, seat=None, variants={"disturbance": True}, cut=True), the_end_with_a_cut_line),
]


@pytest.mark.parametrize("where, check", ENGLISH, ids=lambda x: getattr(x, "__name__", ""))
def test_the_english_board_says_each_thing_in_its_place(where, check):
    html, _ = board(**where)
    check(parse(html))
    assert board(**where, lang="en")[0] == html            # the default language is English
    assert not JAPANESE.search(html)


def test_a_spectator_is_told_it_sees_no_hand():
    """(The board once called a table's spectator view the teacher's.)"""
    html, _ = board(3, 9, 5, None, teacher=False)
    page = parse(html)
    assert page.one("viewer").text == "Spectator: every hand face down"
    assert not [c for seat in range(3) for c in page.one(f"hand-seat-{seat}").all() if "data-card" in c.attrs]


def test_the_board_escapes_every_text_it_is_given():
    """Jinja2's autoescape: a replay notice or a move with markup shows as its characters."""
    session = GameSession(game="subastral", players=2, seed=1)
    html = subastral_html(session.observation(0), step=0, moves=0, problem="<img src=x onerror=alert(1)>",
                          last_move="<script>alert(1)</script>", preview={"label": "<i>x</i>"})
    page = parse(html)
    assert "<img" not in html and "<script" not in html and "<i>" not in html
    assert page.one("problem").text == "<img src=x onerror=alert(1)>"
    assert page.one("last-move").text == "Last move: <script>alert(1)</script>"
    assert page.one("preview-line").one_tag("b").text == "<i>x</i>"


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
    """What a person reads: the text and the tooltips (``title``), the card chips' biome words included."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        title = dict(attrs).get("title")
        if title:
            self.parts.append(title)

    def handle_data(self, data):
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
    card_set = session.spec.observe(session.state, None).get("card_set") or {}
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
                  "このステップ：", "極地ツンドラ"):
        assert piece in html, piece
    html, _ = board(2, 1, 0, 0, lang="ja")
    assert "プレイヤー1の視点：ほかの人の手札は裏向き" in html and "配札：" in html and 'title="裏向きのカード"' in html
    # a card's id stays in its data-card; its chip names the biome in Japanese
    assert 'data-card="savanna-6"' in html and "<small>サバンナ</small>" in html
    # the standard card list is named in Japanese; a card file of one's own keeps its name (its data)
    assert "カードファイル：Subastralの標準カード（出典：仮定。" in html and "standard deck" not in html


def test_events_and_action_names_in_the_boards_language(monkeypatch):
    session = GameSession(game="subastral", players=2, seed=1)
    autoplay_as_before(session, "greedy", then_goto=1)
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
