"""The Starligned board in English and Japanese (``explorer/locales/<lang>/starligned_board.json``).

English: the board reads as before its texts moved to the resource files: for fixed seeded games,
steps and viewing seats, each element's text, classes and attributes (read back with
``tests/board_html.py``). Japanese: the board shows Japanese and
none of the board's own English labels, for every phase, every seat, the teacher and a spectator;
what comes from the engine (the events, an action's label) or the card data (card ids,
constellations, the card list's name) is not the board's text and is left out of that check. An
event in the board's language is shown when the game writes one.
"""

from __future__ import annotations

import html
import json
import re
import string
from html.parser import HTMLParser

import pytest

from explorer.core.i18n import LOCALES
from explorer.core.session import GameSession
from explorer.core.i18n import event_text
from explorer.boards.starligned import StarlignedBoard, starligned_html
from explorer.components.timeline import replay_problem_text
from rules.protocol import Event
from tests.helpers.board_html import HOSTILE, parse, parse_escaped
from tests.helpers.seeded_games import autoplay_as_before

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def load(lang: str) -> dict[str, str]:
    return json.loads((LOCALES / lang / "starligned_board.json").read_text(encoding="utf-8"))


def has_placeholders(template: str) -> bool:
    return any(name for _, name, _, _ in string.Formatter().parse(template))


def static_english_labels() -> list[str]:
    """The board's English texts without placeholders, differing from their Japanese, longer than 3 characters."""
    en, ja = load("en"), load("ja")
    labels = []
    for key, value in en.items():
        if has_placeholders(value) or value == ja[key]:
            continue
        shown = html.unescape(re.sub(r"<[^>]+>", "", value))
        if len(shown.strip()) > 3:
            labels.append(shown)
    return labels


def english_fragments() -> list[str]:
    """The fixed words of the board's English texts with placeholders, 8 characters or longer ("Seen by ", " moon cards on the row")."""
    en, ja = load("en"), load("ja")
    fragments = set()
    for key, value in en.items():
        if not has_placeholders(value) or value == ja[key]:
            continue
        for literal, _, _, _ in string.Formatter().parse(value):
            for piece in re.split(r"<[^>]+>", literal):
                if len(piece.strip()) >= 8:
                    fragments.add(html.unescape(piece))
    return sorted(fragments)


class Shown(HTMLParser):
    """The text a reader sees (text nodes and title tooltips), without the engine's events."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.data: list[str] = []
        self.titles: list[str] = []

    def handle_starttag(self, tag, attrs):
        title = dict(attrs).get("title")
        if title:
            self.titles.append(title)

    def handle_data(self, data):
        self.data.append(data)


def shown_text(page: str) -> str:
    page = re.sub(r'<div class="sl-events">.*?</ul></div>', "", page, flags=re.S)       # the engine's events
    # (The preview's action label is read too: a Japanese board showed it in English, "rotate S203 in hand".)
    parser = Shown()
    parser.feed(page)
    return "".join(parser.data) + "\n" + "\n".join(parser.titles)


@pytest.fixture(scope="module")
def games() -> dict[str, GameSession]:
    """Seeded greedy games played to the end: 2 players (seed 1), 4 players (seed 5), 4 players watched by a spectator."""
    found = {"two": GameSession(game="starligned", players=2, seed=1),
             "four": GameSession(game="starligned", players=4, seed=5),
             "spectated": GameSession(game="starligned", players=4, seed=5, teacher=False),
             "three": GameSession(game="starligned", players=3, seed=1)}
    for session in found.values():
        autoplay_as_before(session, "greedy")
    return found


def at(session: GameSession, step: int, seat: int | None, select: bool = False) -> GameSession:
    session.selected_action = None
    session.goto(step)
    session.viewing_seat = seat
    if select:
        session.selected_action = session.spec.encode_action(session.log[step][1])
    return session


# ------------------------------------------------------------------ English: what each element says

def children(node) -> list:
    """The element children of ``node``, in order."""
    return [part for part in node.parts if not isinstance(part, str)]


def status_of(page) -> list[tuple[list, str]]:
    """The status line: (classes, text) of each of its elements."""
    return [(child.classes, child.text) for child in children(page.one("sl-status"))]


def seat_box(page, seat: int):
    return page.one("sl-seat", f"seat-{seat}")


def head_of(page, seat: int) -> list[tuple[list, str]]:
    """A seat's head line: (classes, text) of its name, badges, moons and score."""
    return [(child.classes, child.text) for child in children(seat_box(page, seat).one("sl-head"))]


TEACHER = "Teacher view: every hand and face-down card shown"
LEGEND = ("Large: the active (upper) half · small, upside down: the other half · ½ moon on the card edge; two halves "
          "meeting make a full moon · a card id ending in r: the card turned round, its low half up")


def check_two_step_9(page):
    assert status_of(page) == [
        (["step-counter"], "Step 9 / 63"), (["sl-stage"], "Stage 1 of 2 · round 2 of 5"), (["viewer"], TEACHER),
        (["sl-phase", "phase-repeat"],
         "Phase 3, Repeat: Player 2, the owner of S305, resolves its effect again for Player 1's Repeat.")]
    pending = page.one("sl-pending")
    assert pending.classes == ["sl-pending", "pending-seat-1"]
    assert pending.text == "Waiting for Player 2, who resolves the repeated effect of S305; then Player 1's phase 3 turn goes on."
    assert [b.text for b in pending.all_tags("b")] == ["Player 2", "S305"]
    table = children(page.one("sl-table"))
    assert [(c.classes, c.text) for c in table] == [
        (["sl-direction"], "Start player: Player 1"), (["sl-order"], "Phase 3 order: P1 → P2"),
        ([], "Hands pass left: P1 → P2 → P1"), (["sl-deck"], "Deck: 28"), (["moon-supply"], "Moon cards in the supply: 12"),
        ([], "Discarded: 0"), ([], "Box: 20 white-star cards (out of this game)")]
    assert table[0].attrs["title"] == "the start-player direction card; it passes left with the hands"
    assert [b.text for b in table[0].all_tags("b") + table[3].all_tags("b") + table[4].all_tags("b")] == ["Player 1", "28", "12"]
    assert table[1].one("now").text == "P1"
    assert head_of(page, 0) == [(["name"], "Player 1"), (["sl-badge", "start-card"], "★ start player (direction card)"),
                                (["sl-badge"], "resolving phase 3"), (["moons"], "0 moon cards on the row"),
                                (["score"], "11 pts")]
    assert children(page.one("legend"))[-1].text == LEGEND
    assert page.one("provenance").text == "Card file: Starligned standard cards (provenance: assumed)"
    first = seat_box(page, 0)
    assert "Row, left to right (2 of 10)" in first.texts("zone-label")
    card = first.one("sl-row").all("sl-card")[0]
    assert card.classes == ["sl-card", "moon-left"] and card.attrs["data-face"] == card.attrs["data-card"] == "S102"
    assert card.attrs["title"] == "S102: 9 Swap (up) / 2 Rotate telescope (down), C1, half-moon on the left edge"
    assert card.attrs["style"] == "background:#c0392b;color:#ffffff"
    assert [(c.classes, c.text) for c in children(card)] == [
        (["pos"], "1"), (["cid"], "S102"), (["moon"], ""), (["up"], "9Swap"), (["down"], "2 Rotate telescope")]
    assert card.one("up").one_tag("b").text == "9"


def check_two_step_15_as_player_2(page):
    assert status_of(page)[2:] == [
        (["viewer"], "Seen by Player 2: other hands and face-down cards hidden"),
        (["sl-phase", "phase-moon"], "Phase 3, moon bonus: Player 2's last two cards meet in a full moon: cover them with "
                                     "a moon card, remove a moon card from an opponent's row, or take no bonus.")]
    backs = seat_box(page, 0).one("sl-hand").all("sl-back")
    assert backs and {b.attrs["title"] for b in backs} == {"one of Player 1's hand cards"}
    rotated = [c for c in page.all("sl-card") if c.attrs["data-face"] == "S102r"]
    assert rotated and rotated[0].classes == ["sl-card", "moon-right", "rotated"]
    assert rotated[0].attrs["title"] == "S102r: 2 Rotate telescope (up) / 9 Swap (down), C1, half-moon on the right edge"


def check_two_the_end(page):
    assert status_of(page)[:2] == [(["step-counter"], "Step 63 / 63"), (["sl-stage"], "Stage 2 of 2 · every row is complete")]
    assert status_of(page)[-1] == (["sl-phase", "phase-over"], "Game over. Won by Player 2.")
    assert children(page.one("sl-table"))[-1].text == "Came in by Exchange, effect ignored this round: S304"
    assert ["winner"] == [b.text for b in page.all("sl-badge", "winner")]
    assert "no cards" in [e.text for hand in page.all("sl-hand") for e in hand.all("empty")]


def check_four_step_2_as_player_1(page):
    mine = page.one("sl-chosen", "chosen-seat-0")
    assert mine.classes == ["sl-chosen", "chosen-seat-0"] and mine.text.startswith("Face down (only you see it):")
    card = mine.one("sl-card")
    assert card.classes == ["sl-card", "moon-right", "rotated"] and card.attrs["data-face"] == "S502r" and card.attrs["data-card"] == "S502"
    assert card.attrs["title"] == "S502r: 1 Repeat (up) / 10 Exchange (down), C5, half-moon on the right edge"
    theirs = page.one("sl-chosen", "chosen-seat-1")
    assert theirs.classes == ["sl-chosen", "chosen-seat-1"] and theirs.text == "chosen, face down"
    assert children(theirs)[0].classes == ["sl-back"] and children(theirs)[0].attrs["title"] == "a card chosen face down"
    waiting = page.one("sl-chosen", "chosen-seat-2")
    assert waiting.classes == ["sl-chosen", "chosen-seat-2", "waiting"] and waiting.text == "still choosing…"
    labels = seat_box(page, 0).texts("zone-label")
    assert "Hand (5), as held" in labels and "Phase 1 choice" in labels
    assert status_of(page)[2:] == [
        (["viewer"], "Seen by Player 1: other hands and face-down cards hidden"),
        (["sl-phase", "phase-play"], "Phase 1: everyone puts one hand card face down at the right of their row. "
                                     "Still choosing: Player 3, Player 4.")]
    assert head_of(page, 0) == [(["name"], "Player 1"), (["sl-badge"], "you"), (["moons"], "0 moon cards on the row"),
                                (["score"], "0 pts")]
    events = page.one("sl-events")
    assert events.one_tag("b").text == "This step:" and [li.text for li in events.all_tags("li")] == ["Player 2 puts a card face down."]


def check_four_step_1(page):
    assert any(c.text.startswith("Face down (the teacher's view): ") for c in page.all("sl-chosen"))
    assert "to decide" in [b.text for b in page.all("sl-badge", "deciding")]


def check_four_step_10(page):
    assert page.one("sl-chosen", "chosen-seat-0").classes == ["sl-chosen", "chosen-seat-0"]
    assert page.one("sl-chosen", "chosen-seat-0").text == "has rotated a hand card"
    assert page.one("sl-chosen", "chosen-seat-1").classes == ["sl-chosen", "chosen-seat-1", "waiting"]
    assert page.one("sl-chosen", "chosen-seat-1").text == "still to rotate a hand card…"
    assert "Phase 4" in page.texts("zone-label")
    assert status_of(page)[-1] == (["sl-phase", "phase-rotate"], "Phase 4: everyone rotates one hand card, then the "
                                                                 "hands pass left. Still to rotate: Player 2, Player 3, Player 4.")


def check_four_step_100(page):
    moons = [(m.attrs["title"], m.text) for m in page.all("sl-moon-card")]
    assert ("a moon card covers S203 S504: both are blocked", "☾ moon card") in moons
    pair = next(p for p in page.all("sl-pair") if p.attrs["data-pair"] == "S203 S504")
    assert [c.attrs["data-card"].rstrip("r") for c in pair.all("sl-card")] == ["S203", "S504"]
    stop = next(c for c in children(page.one("sl-table")) if c.text == "Stop was revealed: no phase 3 this round")
    assert stop.one_tag("b").text == "Stop"
    heads = [head[-2:] for head in (head_of(page, seat) for seat in range(4))]
    assert [(["moons"], "2 moon cards on the row"), (["score"], "98 pts")] in heads
    assert any(c.attrs["title"].endswith("half-moon on the left edge, under a moon card") and "blocked" in c.classes
               for c in page.all("sl-card"))


def check_four_step_8(page):
    assert status_of(page)[-1] == (["sl-phase", "phase-exchange"], "Phase 3, Exchange: Player 2 picks the hand card that "
                                                                   "takes S110's place in their row (Player 2's Exchange).")
    pending = page.one("sl-pending")
    assert pending.classes == ["sl-pending", "pending-seat-1"]
    assert pending.text == "Waiting for Player 2, who picks a hand card to replace S110; then Player 2's phase 3 turn goes on."
    assert [b.text for b in pending.all_tags("b")] == ["Player 2", "S110"]


def check_a_spectator_at_step_6(page):
    assert status_of(page)[2:] == [(["viewer"], "Spectator view: no hand is shown"),
                                   (["sl-phase", "phase-effect"],
                                    "Phase 3: Player 1 resolves the Repeat of S502, the rightmost card of their row.")]


def check_a_selection(page):
    line = page.one("preview-line")
    # (the card named with the half it shows, as the picker names it: the id is small print on the card)
    assert line.text == "Selected, not yet played: play S502r (1, repeat). Confirm or Cancel it in the action panel."
    assert line.one_tag("b").text == "play S502r (1, repeat)"


def check_three_the_deal(page):
    assert [(e.classes, e.text) for e in children(page.one("sl-row", "row-seat-0"))] == [(["empty"], "no cards yet")]
    assert status_of(page) == [
        (["step-counter"], "Step 0 / 87"), (["sl-stage"], "Stage 1 of 2 · round 1 of 5"), (["viewer"], TEACHER),
        (["sl-phase", "phase-play"], "Phase 1: everyone puts one hand card face down at the right of their row. Still "
                                     "choosing: Player 1, Player 2, Player 3.")]


def check_two_step_9_as_player_2(page):
    """The decider's own page says it is theirs to decide (it said "Waiting for Player 2" to Player 2)."""
    pending = page.one("sl-pending")
    assert pending.classes == ["sl-pending", "pending-seat-1"]
    assert pending.text == "Your decision: resolve the repeated effect of S305; then Player 1's phase 3 turn goes on."


ENGLISH = [("two", 9, None, False, check_two_step_9), ("two", 9, 1, False, check_two_step_9_as_player_2), ("two", 15, 1, False, check_two_step_15_as_player_2),
           ("two", 63, None, False, check_two_the_end), ("four", 2, 0, False, check_four_step_2_as_player_1),
           ("four", 1, None, False, check_four_step_1), ("four", 10, None, False, check_four_step_10),
           ("four", 100, None, False, check_four_step_100), ("four", 8, None, False, check_four_step_8),
           ("spectated", 6, None, False, check_a_spectator_at_step_6), ("four", 0, None, True, check_a_selection),
           ("three", 0, None, False, check_three_the_deal)]


@pytest.mark.parametrize("game, step, seat, select, check", ENGLISH,
                         ids=[f"{g}-step{s}-seat{v}{'-selected' if sel else ''}" for g, s, v, sel, _ in ENGLISH])
def test_the_english_board_says_what_each_element_shows(games, game, step, seat, select, check):
    session = at(games[game], step, seat, select)
    page = starligned_html(session)
    assert page == starligned_html(session, "en") == StarlignedBoard(session=session).html()
    check(parse(page))
    assert not JAPANESE.search(page)
    session.selected_action = None


def test_hostile_texts_show_as_text(monkeypatch):
    """A replay notice and an event text holding markup are shown as the text they are, never as markup."""
    session = GameSession(game="starligned", players=3, seed=1)
    session.replay_problem = {"move": 999, "seat": 1, "action": HOSTILE, "message": HOSTILE, "text": f"Move 999: {HOSTILE}"}
    spec = session.spec
    real_observe = spec.observe
    monkeypatch.setattr(spec, "observe", lambda state, seat: dict(
        real_observe(state, seat), events=[{"text": HOSTILE}], card_set={"name": HOSTILE, "provenance": HOSTILE}))
    session._observations.clear()
    for lang in ("en", "ja"):
        tree = parse_escaped(starligned_html(session, lang))
        assert HOSTILE in tree.one("problem").text
        assert [li.text for li in tree.one("sl-events").all_tags("li")] == [HOSTILE]
        assert tree.one("provenance").text.count(HOSTILE) == 2


def test_a_board_in_japanese_says_so_and_follows_its_language(games):
    session = at(games["two"], 9, None)
    board = StarlignedBoard(session=session, lang="ja")
    assert board.html() == starligned_html(session, "ja") != starligned_html(session, "en")


# ------------------------------------------------------------------ Japanese: no English label left

PHASES = ("play", "rotate", "moon", "effect", "repeat", "exchange", "over")


def japanese_cases(session: GameSession) -> list[tuple[int, bool]]:
    """(step, select) for the first step of each phase, a step with a moon card and a stop, and a selection."""
    steps = []
    for phase in PHASES:
        found = next((i for i in range(len(session.log) + 1) if session.state_at(i).phase == phase), None)
        if found is not None:
            steps.append((found, False))
    found = next(i for i in range(len(session.log) + 1)
                 if any(session.state_at(i).moons) and session.observation(None, i)["stopped"])
    steps.append((found, False))
    steps.append((0, True))
    return steps


def test_the_japanese_board_shows_no_english_label(games):
    labels = static_english_labels()
    assert len(labels) >= 30 and "Phase 1 choice" in labels and "winner" in labels
    fragments = english_fragments()
    assert " moon cards on the row" in fragments and len(fragments) >= 40
    checked = 0
    for name, session in games.items():
        seats = [None] if not session.teacher else [None, *range(session.players)]
        for step, select in japanese_cases(session):
            for seat in seats:
                at(session, step, seat, select)
                page = starligned_html(session, "ja")
                assert JAPANESE.search(page), (name, step, seat)
                shown = shown_text(page)
                left = [label for label in labels if label in shown]
                assert not left, (name, step, seat, left)
                left = [fragment for fragment in fragments if fragment in shown]
                assert not left, (name, step, seat, left)
                for english in ("Player ", "Step ", "Stage ", " pts", "Seen by", "Hand (", "Row, left"):
                    assert english not in shown, (name, step, seat, english)
                mover, action = session.log[step] if select else (None, None)
                if select and seat in (None, mover):     # (named as the picker names it)
                    # (with the half its card shows where the view shows that card: not a spectator's)
                    sees = seat == mover or session.teacher
                    label = session.spec.action_label(action, "ja", session.state_at(step) if sees else None)
                    assert f"<b>{label}</b>" in page, (name, step, seat)
                checked += 1
        session.selected_action = None
    assert checked >= 40


def test_the_japanese_board_uses_the_rulebook_words(games):
    page = starligned_html(at(games["four"], 100, None), "ja")
    for word in ("プレイヤー1", "スタートプレイヤー", "月カード", "山札", "行の月カード", "フェーズ4", "ストップ", "ステージ 2 / 2"):
        assert word in page, word
    page = starligned_html(at(games["two"], 9, None), "ja")
    assert "フェーズ3・リピート" in page and "S305" in page and "先生の視点" in page
    page = starligned_html(at(games["four"], 2, 0), "ja")
    assert "プレイヤー1の視点" in page and "あなたにだけ見えています" in page and 'data-face="S502r"' in page
    assert "観戦ビュー" in starligned_html(at(games["spectated"], 6, None), "ja")


def test_a_replay_problem_in_japanese_keeps_the_engines_reason():
    problem = {"move": 12, "seat": 0, "action": "no moon bonus", "message": "not MoonBonus",
               "text": "Move 12 (Player 1: no moon bonus) is illegal under these rules: not MoonBonus"}
    session = GameSession(game="starligned", players=3, seed=1)
    # every board and the timeline say it in the same words (explorer.components.timeline.replay_problem_text)
    assert replay_problem_text(session, problem) == problem["text"]
    assert replay_problem_text(session, problem, "ja") == "12手目（プレイヤー1：no moon bonus）は、このルールでは行えません：not MoonBonus"
    assert replay_problem_text(session, {"text": "something else"}, "ja") == "something else"
    autoplay_as_before(session, "greedy")
    session.goto(len(session.log) // 2)
    session.variants = {"deal_high_up": True}
    assert session.replay_problem
    assert parse(starligned_html(session)).one("problem").text == session.replay_problem["text"]
    assert "手目（プレイヤー" in starligned_html(session, "ja")


# ------------------------------------------------------------------ events in the board's language


def test_an_event_is_shown_in_the_boards_language_where_the_game_writes_it(monkeypatch):
    assert event_text({"text": "Player 1 passes."}, "ja") == "Player 1 passes."
    assert event_text({"text": "Player 1 passes.", "texts": {"ja": "プレイヤー1がパスします。"}}, "ja") == "プレイヤー1がパスします。"
    session = GameSession(game="starligned", players=3, seed=2)
    autoplay_as_before(session, "greedy")
    session.goto(5)
    spec = session.spec
    real_events, real_observe = spec.events, spec.observe

    def events(state):
        return tuple(Event(kind=e.kind, text=e.text, seat=e.seat, texts={"en": e.text, "ja": f"【日本語】{e.text}"})
                     for e in real_events(state))

    def observe(state, seat):
        view = dict(real_observe(state, seat))
        view["events"] = [dict(e, texts={"en": e["text"], "ja": f"【日本語】{e['text']}"}) for e in view["events"]]
        return view

    monkeypatch.setattr(spec, "events", events)
    monkeypatch.setattr(spec, "observe", observe)
    session._observations.clear()
    for seat in (None, 0, 1):
        session.viewing_seat = seat
        english, japanese = starligned_html(session), starligned_html(session, "ja")
        items = re.findall(r"<li>(.*?)</li>", japanese)
        assert items and all(item.startswith("【日本語】") for item in items), seat
        assert "【日本語】" not in english and re.findall(r"<li>(.*?)</li>", english) == [i.removeprefix("【日本語】") for i in items]


def test_the_deal_is_titled_as_the_other_games_title_it():
    """At step 0 the events box is the deal's, as in Subastral, Biome Blitz and Jump Gate; after it, the step's."""
    session = GameSession(game="starligned", players=2, seed=1)
    spec = session.spec
    seat = spec.to_move(session.state)[0]
    session.play(seat, spec.legal_actions(session.state, seat)[0])
    for step, lang, title in ((0, "en", "The deal:"), (0, "ja", "配札："), (1, "en", "This step:")):
        session.goto(step)
        page = parse(StarlignedBoard(session=session, lang=lang).html())
        assert page.one("sl-events").one_tag("b").text == title
