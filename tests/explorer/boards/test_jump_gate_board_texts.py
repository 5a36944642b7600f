"""The Jump Gate board in English and Japanese: every interface text comes from
``explorer/locales/<lang>/jump_gate_board.json``.

The English board is the one the other tests (and screenshots) know, byte for byte: fixed, seeded
sessions are checked against fragments of the board as it was drawn before its texts moved to the
locale files. The Japanese board shows Japanese and none of the board's English labels; what stays
as it is are the card data's names (planets, resource types, the component set, NavComp cards) and
the events the engine has not yet written in Japanese.
"""

from __future__ import annotations

import dataclasses
import re
import string
from html.parser import HTMLParser

import pytest

from explorer.boards.registry import board_for
from explorer.core.i18n import texts
from explorer.boards.jump_gate import JumpGateBoard, event_text, jump_gate_html, resource_face
from explorer.core.session import GameSession
from tests.helpers.seeded_games import autoplay_as_before

PREFIX = "jump_gate_board."
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")


def board_texts(lang: str) -> dict[str, str]:
    return {key[len(PREFIX):]: value for key, value in texts(lang).items() if key.startswith(PREFIX)}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def english_labels() -> list[str]:
    """The board's English static labels: texts without placeholders, not the same in Japanese,
    longer than three characters."""
    en, ja = board_texts("en"), board_texts("ja")
    return sorted({text for key, text in en.items() if not fields(text) and text != ja[key] and len(text) > 3})


def english_fragments() -> list[str]:
    """The words between the placeholders of the English templates (``"Seen by "`` of ``"Seen by
    {who}: ..."``), where they hold a word longer than three characters."""
    found = set()
    for key, template in board_texts("en").items():
        if not fields(template):
            continue
        for literal, _, _, _ in string.Formatter().parse(template):
            literal = literal.strip(" :;,.()·")
            if len(literal) > 3 and re.search(r"[A-Za-z]{2}", literal):
                found.add(literal)
    return sorted(found)


class Shown(HTMLParser):
    """What a person reads on the board: the text and the tooltips (``title``)."""

    def __init__(self, page: str):
        super().__init__()
        self.pieces: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.pieces += [value for name, value in attrs if name == "title" and value]

    def handle_data(self, data):
        if data.strip():
            self.pieces.append(data)


def card_data(session: GameSession) -> set[str]:
    """Names from the card data and texts from the engine, which the board shows as they are."""
    comps = session.spec.comps
    names = {comps.name, *comps.navcomp_names, *comps.resource_names}
    for kind in comps.types:
        names.add(kind.name)
        names.update(part for part in resource_face(kind.name, {"group_name": kind.name}) if part)
    for planet in session.observation(None)["ring"]:
        names.update((planet["name"], planet["planet"]))
    for event in session.spec.events(session.state):
        names.update(filter(None, (event.text, event.public_text, *(event.texts or {}).values(),
                                   *(event.public_texts or {}).values())))
    problem = session.replay_problem or {}
    names.update(str(problem[key]) for key in ("action", "message") if key in problem)
    return names


def without_card_data(session: GameSession, page: str) -> str:
    shown = "\n".join(Shown(page).pieces)
    for name in sorted(card_data(session), key=len, reverse=True):
        shown = shown.replace(name, "\u241f")
    return shown


@pytest.fixture(scope="module")
def games() -> dict[tuple, GameSession]:
    """Seeded whole games (cursor at 0): (players, seed, bot) -> session."""
    found = {}
    for key in ((3, 5, "greedy"), (2, 5, "greedy"), (2, 1, "greedy"), (5, 5, "random"), (4, 9, "random")):
        session = GameSession(game="jump_gate", players=key[0], seed=key[1])
        autoplay_as_before(session, key[2], then_goto=0)
        found[key] = session
    return found


def at(session: GameSession, step: int, seat: int | None) -> GameSession:
    session.selected_action = None
    session.goto(step if step >= 0 else len(session.log) + 1 + step)
    session.viewing_seat = seat
    return session


# ------------------------------------------------------------------ English: unchanged

PAGES = [
    ((3, 5, "greedy"), 0, None, [
        '<div class="jg-status"><span class="step-counter">Step 0 / 1911</span><span class="round">Round 1</span>'
        '<span class="jg-turn">Player 1\'s turn · <span class="actions-left">2 actions left</span></span>'
        '<span class="jg-phase phase-action">Player 1 chooses an action, or passes</span>'
        '<span class="viewer">Teacher view: every hand and hidden resource shown</span></div>',
        '<div class="jg-centre"><div class="jg-gate"><div class="title">Jump Gate</div><div class="jg-ships">'
        '<span class="jg-ship ship-seat-0" style="background:#2f6fdb" title="Player 1\'s ship">P1</span>'
        '<span class="jg-ship ship-seat-1" style="background:#d1495b" title="Player 2\'s ship">P2</span>'
        '<span class="jg-ship ship-seat-2" style="background:#2a9d5c" title="Player 3\'s ship">P3</span></div>'
        '<div class="note">ships waiting: their first move is a Jump</div></div>'
        '<div class="jg-black-hole" data-total="0"><div class="title">Black hole: 0 of 7</div><div class="track">'
        + '<span class="bh-marker"></span>' * 7 + '</div><div class="note">P1: 0, P2: 0, P3: 0</div>'
        '<div class="note">at 7 the game ends at once; most markers lose their hidden resources</div></div></div>',
        '<div class="seat-head"><span class="seat-name">Player 1</span><span class="seat-note">to move · start player</span>'
        '<span class="seat-score" title="provisional: gained resources and claims">0 pts</span></div>'
        '<div class="jg-seat-line"><span>Ship: at the Jump Gate</span><span class="markers-left" '
        'title="markers in the supply">10 markers left <span class="jg-marker marker-seat-0" '
        'style="background:#2f6fdb" title="Player 1\'s marker"></span>',
        '<span class="claimed-planets">Claimed: none</span></div><div class="zone-label">NavComp hand</div>'
        '<div class="jg-hand hand-seat-0" data-seat="0"><span class="jg-navcomp" data-card="J1-S3" '
        'title="NavComp card J1-S3"><span class="jg-code jg-code-jump" title="Jump (blue square) code 1">1</span>'
        '<span class="jg-code jg-code-scan" title="Scan (green circle) code 3">3</span></span>',
        '<span class="jg-code jg-code-land" title="Land &amp; Claim (yellow triangle) code 6">6</span>',
        '<div class="zone-label">Gained resources</div><div class="jg-gained gained-seat-0">'
        '<span class="empty-zone">none yet</span></div><div class="zone-label">Hidden resources</div>'
        '<div class="jg-hidden hidden-seat-0"><span class="jg-resource res-sand" data-card="sand-bh" '
        'title="Sand, black-hole icon" style="background:#e9c46a;color:#3d2a00"><b>Sand</b>'
        '<span class="jg-bh-icon" title="black-hole icon"></span></span>',
        '<div class="jg-events"><b>The deal:</b><ul><li>Setup: a ring of 7 planets',
        '<div class="legend"><span><span class="jg-code jg-code-jump" title="Jump (blue square) code #">#</span> Jump</span>'
        '<span><span class="jg-code jg-code-scan" title="Scan (green circle) code #">#</span> Scan</span>'
        '<span><span class="jg-code jg-code-land" title="Land &amp; Claim (yellow triangle) code #">#</span> '
        'Land &amp; Claim</span><span><span class="jg-bh-icon" style="position:static;display:inline-block"></span> '
        'black-hole icon</span><span><span class="swatch" style="background:#7b2cbf"></span>Fame</span>',
        '<div class="provenance">Components: Jump Gate, 3rd edition (assumed component model) (provenance: assumed; '
        'which planet has which codes, the NavComp deck and the resource mix are an assumed model until the real '
        'lists are known)</div></div>',
        'title="resource 1: face down"',
    ]),
    ((3, 5, "greedy"), 25, 1, [
        '<div class="jg-status"><span class="step-counter">Step 25 / 1911</span><span class="round">Round 3</span>'
        '<span class="jg-turn">Player 3\'s turn · <span class="actions-left">2 actions left</span></span>'
        '<span class="jg-phase phase-action">Player 3 chooses an action, or passes</span>'
        '<span class="viewer">Seen by Player 2: other hands and hidden resources face down</span></div>',
        '<div class="jg-gate"><div class="title">Jump Gate</div><div class="jg-ships"></div>'
        '<div class="note">every ship has jumped</div></div>',
        '<span class="seat-note">start player</span>',
        '<div class="jg-seat-line"><span>Ship: PD</span>',
        '<span class="jg-navcomp back" title="a NavComp card, face down"></span><span class="count">5 cards, face down</span>',
        '<span class="jg-resource face-down" title="a hidden resource"></span><span class="count">2 hidden, revealed at the end</span>',
        '<span class="seat-note">you</span>',
        '<div class="jg-events"><b>This step:</b><ul><li>Player 2 jumps to PA with J~-S2.</li>',
        'title="Scan (green circle) code ~ (wild: any number)">~</span>',
        '<div class="jg-ring-note">The ring wraps round: PD and PJ are neighbours.</div>',
    ]),
    ((3, 5, "greedy"), -1, 0, [
        '<div class="jg-status"><span class="step-counter">Step 1911 / 1911</span><span class="round">Round 240</span>'
        '<span class="jg-phase phase-over">Game over: winner: Player 2</span>'
        '<span class="viewer">Seen by Player 1: other hands and hidden resources face down</span></div>',
        '<div class="jg-black-hole" data-total="5"><div class="title">Black hole: 5 of 7</div><div class="track">'
        '<span class="bh-marker filled" style="background:#d1495b" title="Player 2\'s marker"></span>',
        '<div class="note">P1: 0, P2: 1, P3: 4</div>',
        '<span class="seat-note">start player · you</span>', '<span class="seat-note">winner</span>',
        '<span class="claim" title="claimed by Player 2">★ claimed by P2</span>',
        'title="resource 1: taken">–</span>',
    ]),
    ((2, 1, "greedy"), -1, None, [
        '<span class="jg-phase phase-over">Game over: winner: Player 1</span>',
        '<div class="note lost">Player 2 lose(s) the hidden resources</div>',
        '<span class="lost">lost to the black hole</span>',
    ]),
    ((5, 5, "random"), 710, None, [
        '<span class="jg-phase phase-claim_pick">Player 4 (the claimer) may take one remaining face-up resource '
        'of Ixion (PI)</span>',
    ]),
]


@pytest.mark.parametrize("game, step, seat, fragments", PAGES)
def test_the_english_board_is_drawn_as_before(games, game, step, seat, fragments):
    session = at(games[game], step, seat)
    page = jump_gate_html(session)
    for fragment in fragments:
        assert fragment in page
    assert jump_gate_html(session, "en") == page == JumpGateBoard(session=session).html()
    assert not JAPANESE.search(page)


def test_the_english_preview_and_replay_notice_are_drawn_as_before(games):
    session = at(games[(2, 5, "greedy")], 0, 0)
    jump = next(a for a in session.spec.legal_actions(session.state, 0) if str(a) == "jump to PA with J1-S3")
    session.selected_action = session.spec.encode_action(jump)
    assert ('<span class="preview-line">Selected, not yet played: <b>jump to PA with J1-S3</b>. '
            'Confirm or Cancel it in the action panel.</span>') in jump_gate_html(session)
    session.selected_action = None
    problem = GameSession(game="jump_gate", players=2, seed=5)
    problem.replay_problem = {"move": 999, "seat": 1, "action": "fly to X", "message": "no such planet",
                              "text": "Move 999 (Player 2: fly to X) is illegal under these rules: no such planet"}
    assert ('<span class="problem">Move 999 (Player 2: fly to X) is illegal under these rules: no such planet</span>'
            in jump_gate_html(problem))


# ------------------------------------------------------------------ Japanese


JA_PAGES = [((3, 5, "greedy"), step) for step in (0, 1, 25, 400, -1)] + \
    [((2, 1, "greedy"), -1), ((5, 5, "random"), 710), ((4, 9, "random"), 300), ((2, 5, "greedy"), 6)]


@pytest.mark.parametrize("game, step", JA_PAGES)
def test_the_japanese_board_shows_no_english_label(games, game, step):
    labels, fragments = english_labels(), english_fragments()
    assert "Teacher view: every hand and hidden resource shown" in labels and "NavComp hand" in labels
    assert "Seen by" in fragments
    session = games[game]
    for seat in [None, *range(session.players)]:
        at(session, step, seat)
        selections = [None]
        if not session.spec.is_over(session.state):
            mover = session.spec.to_move(session.state)[0]
            selections += [session.spec.encode_action(a) for a in session.spec.legal_actions(session.state, mover)[:6]]
        for selection in selections:
            session.selected_action = selection
            page = jump_gate_html(session, "ja")
            assert JAPANESE.search(page)
            shown = without_card_data(session, page)
            assert JAPANESE.search(shown)
            left = [label for label in labels + fragments if label in shown]
            assert not left, (seat, selection, left)
            assert "Player" not in shown and "プレイヤー1" in shown
        session.selected_action = None


def test_a_spectator_and_a_replay_notice_in_japanese():
    session = GameSession(game="jump_gate", players=3, seed=5, teacher=False)
    autoplay_as_before(session, "greedy", then_goto=12)
    session.replay_problem = {"move": 999, "seat": 1, "action": "fly to X", "message": "no such planet",
                              "text": "Move 999 (Player 2: fly to X) is illegal under these rules: no such planet"}
    page = jump_gate_html(session, "ja")
    assert "観戦者の視点" in page
    assert "999手目（プレイヤー2：fly to X）は、このルールでは行えません：no such planet" in page    # as every board and the timeline
    shown = without_card_data(session, page)
    assert not [label for label in english_labels() + english_fragments() if label in shown]


def test_the_board_takes_the_page_language(games):
    session = at(games[(2, 5, "greedy")], 4, 0)
    board = board_for(session, "ja")
    assert isinstance(board, JumpGateBoard) and board.lang == "ja"
    assert "プレイヤー1の視点" in board.html() and "ジャンプゲート" in board.html()
    board.lang = "en"
    assert board.html() == jump_gate_html(session)


def test_events_are_shown_in_the_board_language_where_the_game_writes_them(games, monkeypatch):
    assert event_text({"text": "Player 1 passes.", "texts": {"en": "Player 1 passes.", "ja": "プレイヤー1はパス。"}},
                      "ja") == "プレイヤー1はパス。"
    assert event_text({"text": "Player 1 passes."}, "ja") == "Player 1 passes."
    spec = type(games[(2, 5, "greedy")].spec)
    original = spec.events

    def translated(self, state):
        return tuple(dataclasses.replace(
            event, texts={"en": event.text, "ja": f"【和】{event.text}"},
            public_texts={"en": event.public_text, "ja": f"【和】{event.public_text}"} if event.public_text else None)
            for event in original(self, state))

    monkeypatch.setattr(spec, "events", translated)
    session = GameSession(game="jump_gate", players=2, seed=5)
    autoplay_as_before(session, "greedy", then_goto=5)
    for seat in (None, 0, 1):
        session.viewing_seat = seat
        ja, en = jump_gate_html(session, "ja"), jump_gate_html(session)
        items = re.findall(r"<li>(.*?)</li>", ja)
        assert items and all(item.startswith("【和】") for item in items), items
        assert "【和】" not in en and re.findall(r"<li>(.*?)</li>", en)
