"""The Jump Gate board in English and Japanese: every interface text comes from
``explorer/locales/<lang>/jump_gate_board.json``.

The English board is the one the other tests (and screenshots) know: fixed, seeded sessions are
read back element by element (``tests/board_html.py``), each element's text, classes and attributes
checked as they were drawn before the board's texts moved to the locale files. The Japanese board
shows Japanese and none of the board's English labels: planets and resource types by the component
file's ``name_ja`` (オーレル, ジェム（白）), so no word in Latin letters but the game's name; NavComp
cards keep their codes (``J5-S1``).
"""

from __future__ import annotations

import dataclasses
import html
import re
import string
from html.parser import HTMLParser

import pytest

from explorer.boards.base import card_set_words
from explorer.boards.registry import board_for
from explorer.core.i18n import texts
from explorer.boards.jump_gate import JumpGateBoard, event_text, jump_gate_html, resource_face
from explorer.core.session import GameSession
from tests.helpers.board_html import HOSTILE, parse, parse_escaped
from tests.helpers.seeded_games import autoplay_as_before

PREFIX = "jump_gate_board."
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")      # a word in Latin letters (as tools/page_check.py reads a page)


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
    """Names from the card data (as printed in either language) and texts from the engine, which the
    board shows as they are."""
    comps = session.spec.comps
    names = {comps.name, *comps.navcomp_names, *comps.resource_names}
    names.update(card_set_words("jump_gate", {"name": comps.name, "provenance": comps.provenance}, lang)[0]
                 for lang in ("en", "ja"))
    for kind in comps.types:
        for name in filter(None, (kind.name, kind.name_ja)):
            names.add(name)
            names.update(part for part in resource_face(name, {"group_name": name}) if part)
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


# ------------------------------------------------------------------ English: what each element says

def children(node) -> list:
    """The element children of ``node``, in order."""
    return [part for part in node.parts if not isinstance(part, str)]


def status_of(page) -> list[tuple[str, str]]:
    """The status line: (first class, text) of each of its elements."""
    return [(child.classes[0], child.text) for child in children(page.one("jg-status"))]


def seat_box(page, seat: int):
    return page.one("seat", f"seat-{seat}")


def code_faces(node) -> list[tuple[str, str, str]]:
    """(shape class, title, text) of the codes inside ``node``."""
    return [(code.classes[1], code.attrs["title"], code.text) for code in node.all("jg-code")]


def ships(node) -> list[tuple[list, str, str, str]]:
    return [(ship.classes, ship.attrs["style"], ship.attrs["title"], ship.text) for ship in node.all("jg-ship")]


TEACHER = "Teacher view: every hand and hidden resource shown"


def check_first_deal_as_the_teacher(page):
    assert status_of(page) == [("step-counter", "Step 0 / 200"), ("round", "Round 1"),
                               ("jg-turn", "Player 1's turn · 2 actions left"),
                               ("jg-phase", "Player 1 chooses an action, or passes"), ("viewer", TEACHER)]
    assert page.one("jg-phase").classes == ["jg-phase", "phase-action"]
    assert page.one("actions-left").text == "2 actions left"
    gate = page.one("jg-gate")
    assert [gate.one("title").text, gate.one("note").text] == ["Jump Gate", "ships waiting: their first move is a Jump"]
    assert ships(gate) == [(["jg-ship", f"ship-seat-{s}"], f"background:{colour}", f"Player {s + 1}'s ship", f"P{s + 1}")
                           for s, colour in enumerate(("#2f6fdb", "#d1495b", "#2a9d5c"))]
    hole = page.one("jg-black-hole")
    assert hole.attrs["data-total"] == "0" and hole.one("title").text == "Black hole: 0 of 7"
    assert [m.classes for m in hole.all("bh-marker")] == [["bh-marker"]] * 7
    assert hole.texts("note") == ["P1: 0, P2: 0, P3: 0",
                                  "at 7 the game ends at once; most markers lose their hidden resources"]
    first = seat_box(page, 0)
    head = first.one("seat-head")
    assert [head.one("seat-name").text, head.one("seat-note").text] == ["Player 1", "to move · start player"]
    assert head.one("seat-score").text == "0 pts"
    assert head.one("seat-score").attrs["title"] == "provisional: gained resources and claims"
    line = first.one("jg-seat-line")
    assert children(line)[0].text == "Ship: at the Jump Gate"
    markers = line.one("markers-left")
    assert markers.attrs["title"] == "markers in the supply" and markers.text == "10 markers left"
    assert [(m.classes, m.attrs["style"], m.attrs["title"]) for m in markers.all("jg-marker")] == \
        [(["jg-marker", "marker-seat-0"], "background:#2f6fdb", "Player 1's marker")] * 10
    assert line.one("claimed-planets").text == "Claimed: none"
    assert first.texts("zone-label") == ["NavComp hand", "Gained resources", "Hidden resources"]
    hand = first.one("jg-hand", "hand-seat-0")
    assert hand.attrs["data-seat"] == "0"
    card = hand.all("jg-navcomp")[0]
    assert card.classes == ["jg-navcomp"] and card.attrs["data-card"] == "J1-S3"
    assert card.attrs["title"] == "NavComp card J1-S3"
    assert code_faces(card) == [("jg-code-jump", "Jump (blue square) code 1", "1"),
                                ("jg-code-scan", "Scan (green circle) code 3", "3")]
    assert ("jg-code-land", "Land & Claim (yellow triangle) code 6", "6") in code_faces(page)
    assert ("jg-code-scan", "Scan (green circle) code ~ (wild: any number)", "~") in code_faces(page)
    assert first.one("jg-gained", "gained-seat-0").texts("empty-zone") == ["none yet"]
    sand = first.one("jg-hidden", "hidden-seat-0").all("jg-resource")[0]
    assert sand.classes == ["jg-resource", "res-sand"] and sand.attrs["data-card"] == "sand-bh"
    assert sand.attrs["title"] == "Sand, black-hole icon"
    assert sand.attrs["style"] == "background:#e9c46a;color:#3d2a00" and sand.one_tag("b").text == "Sand"
    assert sand.one("jg-bh-icon").attrs["title"] == "black-hole icon"
    events = page.one("jg-events")
    assert events.one_tag("b").text == "The deal:"
    assert events.all_tags("li")[0].text.startswith("Setup: a ring of 7 planets")
    legend = children(page.one("legend"))
    assert [code_faces(entry) for entry in legend[:3]] == [[(f"jg-code-{shape}", f"{name} code #", "#")] for shape, name in
                                                           (("jump", "Jump (blue square)"), ("scan", "Scan (green circle)"),
                                                            ("land", "Land & Claim (yellow triangle)"))]
    # (and how a move's name spells a NavComp card: "jump to Brisa with J2-S4" named no card a learner saw)
    assert [entry.text for entry in legend[:6]] == [
        "# Jump", "# Scan", "# Land & Claim", "black-hole icon",
        "in a move's name a NavComp card is its codes: J#-S# is a card with Jump # and Scan # (L: Land & Claim; "
        "~: any number)", "Fame"]
    assert legend[3].one("jg-bh-icon").attrs["style"] == "position:static;display:inline-block"
    assert legend[5].one("swatch").attrs["style"] == "background:#7b2cbf"
    assert page.one("provenance").text == (
        "Card file: Jump Gate standard cards (provenance: assumed; which planet has which "
        "codes, the NavComp deck and the resource mix are an assumed model until the real lists are known)")
    assert "resource 1: face down" in [slot.attrs["title"] for slot in page.all("jg-resource", "slot-1")]


def check_step_25_as_player_2(page):
    assert status_of(page) == [("step-counter", "Step 25 / 200"), ("round", "Round 3"),
                               ("jg-turn", "Player 3's turn · 1 action left"),
                               ("jg-phase", "Player 3 chooses an action, or passes"),
                               ("viewer", "Seen by Player 2: other hands and hidden resources face down")]
    gate = page.one("jg-gate")
    assert gate.one("title").text == "Jump Gate" and ships(gate) == [] and gate.one("note").text == "every ship has jumped"
    assert "start player" in page.texts("seat-note") and seat_box(page, 1).one("seat-note").text == "you"
    assert "Ship: Elara" in [children(line)[0].text for line in page.all("jg-seat-line")]
    other = seat_box(page, 0)
    hand = children(other.one("jg-hand"))
    assert [(c.classes, c.attrs.get("title"), c.text) for c in hand[-2:]] == [
        (["jg-navcomp", "back"], "a NavComp card, face down", ""), (["count"], None, "4 cards, face down")]
    hidden = children(other.one("jg-hidden"))
    assert [(c.classes, c.attrs.get("title"), c.text) for c in hidden[-2:]] == [
        (["jg-resource", "face-down"], "a hidden resource", ""), (["count"], None, "2 hidden, revealed at the end")]
    events = page.one("jg-events")
    assert events.one_tag("b").text == "This step:" and events.all_tags("li")[0].text == "Player 3 jumps to Elara with J5-L~."
    assert page.one("jg-ring-note").text == "The ring wraps round: Dross and Jovet are neighbours."


def check_the_end_as_player_1(page):
    assert status_of(page) == [("step-counter", "Step 200 / 200"), ("round", "Round 21"),
                               ("jg-phase", "Game over. Won by Player 2."),
                               ("viewer", "Seen by Player 1: other hands and hidden resources face down")]
    assert page.one("jg-phase").classes == ["jg-phase", "phase-over"]
    hole = page.one("jg-black-hole")
    assert hole.attrs["data-total"] == "5" and hole.one("title").text == "Black hole: 5 of 7"
    filled = hole.all("bh-marker", "filled")[0]
    assert (filled.attrs["style"], filled.attrs["title"]) == ("background:#2f6fdb", "Player 1's marker")
    assert hole.texts("note")[0] == "P1: 2, P2: 2, P3: 1"
    assert seat_box(page, 0).one("seat-note").text == "start player · you"
    assert seat_box(page, 1).one("seat-note").text == "winner"
    assert ("claimed by Player 2", "★ claimed by P2") in [(c.attrs["title"], c.text) for c in page.all("claim")]
    assert ("resource 1: taken", "–") in [(r.attrs["title"], r.text) for r in page.all("jg-resource", "empty")]


def check_a_black_hole_ending(page):
    assert page.one("jg-phase").text == "Game over. Won by Player 1."
    assert page.one("jg-black-hole").one("note", "lost").text == "Player 2 loses the hidden resources"
    assert seat_box(page, 1).one("jg-hidden").one("lost").text == "lost to the black hole"


def check_a_claim_pick(page):
    phase = page.one("jg-phase")
    assert phase.classes == ["jg-phase", "phase-claim_pick"]
    assert phase.text == "Player 4 (the claimer) may take one remaining face-up resource of Ixion (PI)"


PAGES = [((3, 5, "greedy"), 0, None, check_first_deal_as_the_teacher),
         ((3, 5, "greedy"), 25, 1, check_step_25_as_player_2),
         ((3, 5, "greedy"), -1, 0, check_the_end_as_player_1),
         ((2, 1, "greedy"), -1, None, check_a_black_hole_ending),
         ((5, 5, "random"), 710, None, check_a_claim_pick)]


@pytest.mark.parametrize("game, step, seat, check", PAGES, ids=[check.__name__[6:] for *_, check in PAGES])
def test_the_english_board_says_what_each_element_shows(games, game, step, seat, check):
    session = at(games[game], step, seat)
    page = jump_gate_html(session)
    check(parse(page))
    assert jump_gate_html(session, "en") == page == JumpGateBoard(session=session).html()
    assert not JAPANESE.search(page)


def test_the_english_preview_and_replay_notice(games):
    session = at(games[(2, 5, "greedy")], 0, 0)
    jump = next(a for a in session.spec.legal_actions(session.state, 0) if str(a) == "jump to PA with J1-S3")
    session.selected_action = session.spec.encode_action(jump)
    line = parse(jump_gate_html(session)).one("preview-line")
    assert line.text == "Selected, not yet played: jump to Aurel with J1-S3. Confirm or Cancel it in the action panel."
    assert line.one_tag("b").text == "jump to Aurel with J1-S3"
    session.selected_action = None
    problem = GameSession(game="jump_gate", players=2, seed=5)
    problem.replay_problem = {"move": 999, "seat": 1, "action": "fly to X", "message": "no such planet",
                              "text": "Move 999 (Player 2: fly to X) is illegal under these rules: no such planet"}
    assert parse(jump_gate_html(problem)).one("problem").text == \
        "Move 999 (Player 2: fly to X) is illegal under these rules: no such planet"


def test_hostile_texts_show_as_text(games, monkeypatch):
    """A replay notice and an event text holding markup are shown as the text they are, never as markup."""
    session = GameSession(game="jump_gate", players=2, seed=5)
    session.replay_problem = {"move": 999, "seat": 1, "action": HOSTILE, "message": HOSTILE,
                              "text": f"Move 999: {HOSTILE}"}
    spec = type(session.spec)
    original = spec.events
    monkeypatch.setattr(spec, "events", lambda self, state: tuple(
        dataclasses.replace(event, text=HOSTILE, texts=None, public_text=None, public_texts=None)
        for event in original(self, state)))
    for lang in ("en", "ja"):
        tree = parse_escaped(jump_gate_html(session, lang))
        assert HOSTILE in tree.one("problem").text
        assert tree.one("jg-events").all_tags("li")[0].text == HOSTILE


# ------------------------------------------------------------------ Japanese


JA_PAGES = [((3, 5, "greedy"), step) for step in (0, 1, 25, 150, -1)] + \
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
            latin = [word for word in LATIN.findall("\n".join(Shown(page).pieces)) if word not in ("Jump", "Gate")]
            assert not latin, (seat, selection, latin)
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


def test_an_action_under_way_is_not_counted_as_left():
    """While a Scan waits for its marker (or a Research for its discards) the state still holds the
    action under way (an action is counted once it has ended): the board said "2 actions left" beside
    a tutorial step saying one was."""
    from rules.jump_gate import Fly, Jump, Research, Scan

    session = GameSession(game="jump_gate", players=2, seed=4)
    shown = {}
    for _ in range(400):
        state = session.state
        if session.spec.is_over(state) or len(shown) == 2:
            break
        seat = session.spec.to_move(state)[0]
        actions = session.spec.legal_actions(state, seat)
        # A Scan with both actions left, a Research with the last one; else on the way to a planet.
        wanted = Scan if state.phase == "action" and state.actions_left == 2 else Research
        chosen = next((a for a in actions if isinstance(a, wanted)), None)
        session.play(seat, chosen or next((a for a in actions if isinstance(a, (Jump, Fly))), actions[0]))
        if chosen is not None and session.state.phase in ("mark", "research"):
            shown.setdefault(state.actions_left, (html.unescape(jump_gate_html(session, "en")), jump_gate_html(session, "ja")))
    assert set(shown) == {1, 2}
    english, japanese = shown[2]
    assert "this action under way, then 1 more" in english and "アクション中（このあと残り1回）" in japanese
    assert "2 actions left" not in english
    english, japanese = shown[1]
    assert "the turn's last action under way" in english and "このターン最後のアクション中" in japanese


def test_a_long_japanese_resource_name_breaks_between_its_halves_not_before_its_last_letter():
    # エナージェル is six full-width letters on a 36-pixel tile: two lines. Left to the browser, Japanese
    # breaks anywhere and the tile read エナージェ / ル; it now breaks only between エナー and ジェル.
    found = 0
    for seed in range(1, 30):
        page = jump_gate_html(GameSession(game="jump_gate", players=2, seed=seed), "ja")
        tiles = re.findall(r"<b(?: class=\"long\")?>(.*?)</b>", page)
        assert "エナージェル" not in tiles
        found += tiles.count("エナー<wbr>ジェル")
        if found:
            break
    assert found
    english = jump_gate_html(GameSession(game="jump_gate", players=2, seed=seed), "en")
    assert "<wbr>" not in english and "EnerGel" in english
