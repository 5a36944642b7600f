"""The Starligned board in English and Japanese (``explorer/locales/<lang>/starligned_board.json``).

English: the board reads exactly as before its texts moved to the resource files (known pieces of
its HTML, for fixed seeded games, steps and viewing seats). Japanese: the board shows Japanese and
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
    page = re.sub(r'(<span class="preview-line">[^<]*)<b>.*?</b>', r"\1", page)           # the engine's action label
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


# ------------------------------------------------------------------ English: exactly as before

ENGLISH = [
    ("two", 9, None, False, [
        '<div class="sl-status"><span class="step-counter">Step 9 / 63</span><span class="sl-stage">Stage 1 of 2 · round 2 of 5'
        '</span><span class="viewer">Teacher view: every hand and face-down card shown</span><span class="sl-phase phase-repeat">'
        'Phase 3, Repeat: Player 2, the owner of S305, resolves its effect again for Player 1&#x27;s Repeat.</span></div>',
        '<div class="sl-pending pending-seat-1">Waiting for <b>Player 2</b>, who resolves the repeated effect of <b>S305</b>; '
        "then Player 1's phase-3 turn goes on.</div>",
        '<div class="sl-table"><span class="sl-direction" title="the start-player direction card; it passes left with the hands">'
        'Start player: <b>Player 1</b></span><span class="sl-order">Phase 3 order: <span class="now">P1</span> → P2</span>'
        '<span>Hands pass left: P1 → P2 → P1</span><span class="sl-deck">Deck: <b>28</b></span><span class="moon-supply">'
        'Moon cards in the supply: <b>12</b></span><span>Discarded: 0</span><span>Box: 20 white-star cards (out of this game)'
        '</span></div>',
        '<div class="sl-head"><span class="name">Player 1</span><span class="sl-badge start-card">★ start player (direction card)'
        '</span><span class="sl-badge">resolving phase 3</span><span class="moons">0 moon cards on the row</span>'
        '<span class="score">11 pts</span></div>',
        '<span>Large: the active (upper) half · small, upside down: the other half · ½ moon on the card edge; two halves meeting '
        'make a full moon</span></div>',
        '<div class="provenance">Card list: Starligned (assumed card model) (provenance: assumed)</div>',
        '<div class="zone-label">Row, left to right (2 of 10)</div>',
        '<div class="sl-card moon-left" data-card="S102" title="S102: 9 Swap (up) / 2 Rotate telescope (down), C1, half-moon on '
        'the left edge" style="background:#c0392b;color:#ffffff"><span class="pos">1</span><span class="cid">S102</span>'
        '<span class="moon"></span><span class="up"><b>9</b>Swap</span><span class="down">2 Rotate telescope</span></div>',
    ]),
    ("two", 15, 1, False, [
        '<span class="viewer">Seen by Player 2: other hands and face-down cards hidden</span><span class="sl-phase phase-moon">'
        'Phase 3, moon bonus: Player 2&#x27;s last two cards meet in a full moon: cover them with a moon card, remove a moon card '
        'from an opponent&#x27;s row, or take no bonus.</span></div>',
        '<span class="sl-back" title="one of Player 1&#x27;s hand cards">',
        '<div class="sl-card moon-right rotated" data-card="S102r" title="S102r: 2 Rotate telescope (up) / 9 Swap (down), C1, '
        'half-moon on the right edge"',
    ]),
    ("two", 63, None, False, [
        '<span class="step-counter">Step 63 / 63</span><span class="sl-stage">Stage 2 of 2 · every row is complete</span>',
        '<span class="sl-phase phase-over">Game over: winner: Player 2.</span></div>',
        '<span>Came in by Exchange, effect ignored this round: S304</span></div>',
        '<span class="sl-badge winner">winner</span>',
        '<span class="empty">no cards</span>',
    ]),
    ("four", 2, 0, False, [
        '<span class="sl-chosen chosen-seat-0">Face down (only you see it): <div class="sl-card moon-right rotated" '
        'data-card="S502r" title="S502r: 1 Repeat (up) / 10 Exchange (down), C5, half-moon on the right edge"',
        '<span class="sl-chosen chosen-seat-1"><span class="sl-back" title="a card chosen face down"></span> chosen, face down</span>',
        '<span class="sl-chosen chosen-seat-2 waiting">still choosing…</span>',
        '<div class="zone-label">Hand (5), as held</div>',
        '<div class="zone-label">Phase 1 choice</div>',
        '<span class="viewer">Seen by Player 1: other hands and face-down cards hidden</span><span class="sl-phase phase-play">'
        'Phase 1: everyone puts one hand card face down at the right of their row. Still choosing: Player 3, Player 4.</span>',
        '<div class="sl-head"><span class="name">Player 1</span><span class="sl-badge">you</span><span class="moons">0 moon cards '
        'on the row</span><span class="score">0 pts</span></div>',
        '<div class="sl-events"><b>This step:</b><ul><li>Player 2 puts a card face down.</li></ul></div>',
    ]),
    ("four", 1, None, False, [
        "Face down (the teacher's view): ",
        '<span class="sl-badge deciding">to decide</span>',
    ]),
    ("four", 10, None, False, [
        '<span class="sl-chosen chosen-seat-0">has rotated a hand card</span>',
        '<span class="sl-chosen chosen-seat-1 waiting">still to rotate a hand card…</span>',
        '<div class="zone-label">Phase 4</div>',
        '<span class="sl-phase phase-rotate">Phase 4: everyone rotates one hand card, then the hands pass left. Still to rotate: '
        'Player 2, Player 3, Player 4.</span>',
    ]),
    ("four", 100, None, False, [
        '<span class="sl-moon-card" title="a moon card covers S203 S504: both are blocked">☾ moon card</span>',
        '<span><b>Stop</b> was revealed: no phase 3 this round</span>',
        '<span class="moons">2 moon cards on the row</span><span class="score">98 pts</span>',
        'half-moon on the left edge, under a moon card"',
    ]),
    ("four", 8, None, False, [
        '<span class="sl-phase phase-exchange">Phase 3, Exchange: Player 2 picks the hand card that takes S110&#x27;s place in '
        'their row (Player 2&#x27;s Exchange).</span>',
        '<div class="sl-pending pending-seat-1">Waiting for <b>Player 2</b>, who picks a hand card to replace <b>S110</b>; '
        "then Player 2's phase-3 turn goes on.</div>",
    ]),
    ("spectated", 6, None, False, [
        '<span class="viewer">Spectator view: no hand is shown</span><span class="sl-phase phase-effect">Phase 3: Player 1 '
        'resolves the Repeat of S502, the rightmost card of their row.</span>',
    ]),
    ("four", 0, None, True, [
        '<span class="preview-line">Selected, not yet played: <b>play S502</b>. Confirm or Cancel it in the action panel.</span>',
    ]),
    ("three", 0, None, False, [
        '<div class="sl-row row-seat-0"><span class="empty">no cards yet</span></div>',
        '<div class="sl-status"><span class="step-counter">Step 0 / 87</span><span class="sl-stage">Stage 1 of 2 · round 1 of 5'
        '</span><span class="viewer">Teacher view: every hand and face-down card shown</span><span class="sl-phase phase-play">'
        'Phase 1: everyone puts one hand card face down at the right of their row. Still choosing: Player 1, Player 2, Player 3.'
        '</span></div>',
    ]),
]


@pytest.mark.parametrize("game, step, seat, select, pieces", ENGLISH,
                         ids=[f"{g}-step{s}-seat{v}{'-selected' if sel else ''}" for g, s, v, sel, _ in ENGLISH])
def test_the_english_board_reads_as_before(games, game, step, seat, select, pieces):
    session = at(games[game], step, seat, select)
    page = starligned_html(session)
    assert page == starligned_html(session, "en") == StarlignedBoard(session=session).html()
    for piece in pieces:
        assert piece in page
    assert not JAPANESE.search(page)
    session.selected_action = None


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
                checked += 1
        session.selected_action = None
    assert checked >= 40


def test_the_japanese_board_uses_the_rulebook_words(games):
    page = starligned_html(at(games["four"], 100, None), "ja")
    for word in ("プレイヤー1", "スタートプレイヤー", "月カード", "山札", "行の月カード", "フェーズ4", "ストップ", "ステージ 2 / 2"):
        assert word in page, word
    page = starligned_html(at(games["two"], 9, None), "ja")
    assert "フェーズ3・リピート" in page and "S305" in page and "先生ビュー" in page
    page = starligned_html(at(games["four"], 2, 0), "ja")
    assert "プレイヤー1の視点" in page and "あなたにだけ見えています" in page and 'data-card="S502r"' in page
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
    assert f'<span class="problem">{html.escape(session.replay_problem["text"])}</span>' in starligned_html(session)
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
