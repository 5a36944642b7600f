"""The Biome Blitz board in English and Japanese: its texts come from ``explorer/locales/<lang>/biome_blitz_board.json``.

The English board is the one the other tests read (its words checked here against literal strings);
the Japanese board shows Japanese and none of the English board's own labels, for several positions
and viewing seats. What stays English on the Japanese board is what the board does not write: the
card file's names, families, abilities and provenance, the card ids, the engine's event texts (until a
game writes them in Japanese) and the action label of a selection.
"""

from __future__ import annotations

import dataclasses
import json
import re
import string
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

from explorer.boards.biome_blitz import BiomeBlitzBoard, biome_blitz_html, event_text
from explorer.core.i18n import LOCALES
from explorer.core.session import GameSession
from tests.helpers.biome_blitz_board import SEED, cancel_decision, rich_table, what_if
from tests.helpers.seeded_games import autoplay_as_before

CARDS = Path(__file__).resolve().parents[3] / "rules" / "biome_blitz" / "data" / "cards.json"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def board_texts(lang: str) -> dict[str, str]:
    return json.loads((LOCALES / lang / "biome_blitz_board.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def static_labels() -> tuple[str, ...]:
    """The English file's texts without placeholders that differ from the Japanese and are longer than 3 characters."""
    en, ja = board_texts("en"), board_texts("ja")
    return tuple(sorted({value for key, value in en.items()
                   if not any(name for _, name, _, _ in string.Formatter().parse(value))
                   and value != ja[key] and len(value.strip()) > 3}))


@lru_cache(maxsize=None)
def card_strings() -> tuple[str, ...]:
    """Everything the card file prints (names, families, abilities, provenance, ids), longest first."""
    data = json.loads(CARDS.read_text(encoding="utf-8"))
    found = {data["name"], data["provenance"]}
    for animal in data["animals"]:
        found |= {animal["id"], animal["name"], animal["family"], animal["ecosystem"], animal.get("provenance", "")}
        for ability in animal["abilities"]:
            found |= {ability["name"], ability["text"], ability["effect"]}
    for eco in data["ecosystems"]:
        found |= {eco["id"], eco["name"]}
    return tuple(sorted((s for s in found if s), key=len, reverse=True))


class Shown(HTMLParser):
    """The text a reader sees (text and ``title`` tooltips), leaving out the engine's event texts, the
    replay problem and the selected action's label (written by the rules, not by the board)."""

    def __init__(self, page: str):
        super().__init__()
        self.chunks: list[str] = []
        self.stack: list[tuple[str, bool]] = []
        self.skipping = 0
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        skip = bool({"bb-event", "problem"} & set(classes)) or (tag == "b" and self.stack and self.stack[-1][0] == "preview")
        self.stack.append(("preview" if "preview-line" in classes else tag, skip))
        self.skipping += skip
        if attrs.get("title") and not self.skipping:
            self.chunks.append(attrs["title"])

    def handle_endtag(self, tag):
        while self.stack:
            opened, skip = self.stack.pop()
            self.skipping -= skip
            if opened == tag or (opened == "preview" and tag == "span"):
                break

    def handle_data(self, data):
        if data.strip() and not self.skipping:
            self.chunks.append(data.strip())


def english_left(page: str) -> list[str]:
    """The board's own English labels found among the shown texts, once the card file's strings are taken out."""
    cards = card_strings()
    found = []
    for chunk in Shown(page).chunks:
        for printed in cards:
            chunk = chunk.replace(printed, " ")
        found += [label for label in static_labels() if label in chunk]
    return found


# ------------------------------------------------------------------ positions


def finished(players: int = 3, seed: int = SEED, teacher: bool = True) -> GameSession:
    session = GameSession(game="biome_blitz", players=players, seed=seed, teacher=teacher)
    autoplay_as_before(session, "greedy")
    return session


def at(session: GameSession, step: int) -> GameSession:
    session.goto(min(step, len(session.log)))
    return session


def reroll_decision() -> GameSession:
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    seat = session.state.seat
    session.load_position(what_if(session, {seat: ["komodo", "shark"], 1 - seat: ["gazelle"]}, phase="reroll",
                                  pending={"seat": seat, "attacker": "komodo", "defender": "gazelle", "attack_roll": 2,
                                           "defence_roll": 5, "die": "attack"}))
    return session


def trade_reply() -> GameSession:
    session = GameSession(game="biome_blitz", players=3, seed=SEED)
    spec = session.spec
    partner = (session.state.seat + 1) % 3
    give = session.observation(session.state.seat)["hands"][session.state.seat]["cards"][0]
    for data in ({"type": "trade_with", "seat": partner}, {"type": "trade_give", "symbol": give},
                 {"type": "trade_ask", "symbol": "meat"}, {"type": "trade_propose"}):
        session.play(spec.to_move(session.state)[0], spec.decode_action(data))
    return session


def selected_discover() -> GameSession:
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    seat = session.state.seat
    session.load_position(what_if(session, hands={seat: ["leaf", "leaf", "leaf", "water", "water", "meat", "meat", "meat"]}))
    discover = next(a for a in session.spec.legal_actions(session.state, seat) if type(a).__name__ == "Discover")
    session.selected_action = session.spec.encode_action(discover)
    return session


POSITIONS = {
    "start": lambda: GameSession(game="biome_blitz", players=3, seed=SEED),
    "midgame": lambda: at(finished(), 40),
    "over": lambda: finished(players=2, seed=1),
    "six players": lambda: at(finished(players=6, seed=3), 60),
    "spectator": lambda: at(finished(players=4, seed=7, teacher=False), 30),
    "rich table": rich_table,
    "cancel": cancel_decision,
    "reroll": reroll_decision,
    "trade reply": trade_reply,
    "selected discover": selected_discover,
}


# ------------------------------------------------------------------ English stays as it was


def test_the_english_board_is_the_default_and_the_board_class_draws_the_same():
    session = rich_table()
    for viewer in (0, 1, None):
        session.viewing_seat = viewer
        page = biome_blitz_html(session)
        assert biome_blitz_html(session, "en") == page == BiomeBlitzBoard(session=session, lang="en").html()


def test_the_english_board_keeps_its_words():
    session = rich_table()
    session.viewing_seat = 1
    page = biome_blitz_html(session)
    for words in ('<span class="step-counter">Step 0 / 0</span>', "Turn 10 · Player 2's turn",
                  "Seen by Player 2: other hands face down", "Player 2: optional actions (Explore, Trade) any number of "
                  "times, then one main action (Forage, Discover, Compete).", '<span class="title">Resources</span>',
                  '<span class="title">Animals</span>', '<span class="title">Ecosystems</span>', "<span>discards: 3</span>",
                  "top: meat", 'title="wild (any one resource)"', "✱ wild", '<span class="title">Last compete</span>',
                  "Player 1's African lion: ", "</span> attack</span>", "Komodo dragon (discarded)", "Player 1 wins (attacker)",
                  'title="attack die"', 'title="defence die"', "22 / 30 points", "2 / 5 animals", '<div class="zone-label">Team</div>',
                  "Ecosystems (1 of at most 3)", "Hand (4 resource cards)", "one of Player 1's resource cards",
                  "4 cards, face down", '<span class="bb-badge">their turn</span>', '<span class="bb-badge deciding">to decide</span>',
                  '<span class="bb-badge">you</span>', "pow 4 <span", 'title="ecosystem bonus"', "Cost <span", "Battle <span",
                  'title="ecosystem symbol"', "SAV animals: pow +1 def +1", 'title="ecosystem Savanna"',
                  '<span class="trigger">Discover</span>', "★ stars (points) · pow power · def defence · "
                  '<span class="bb-bonus">+n</span> ecosystem bonus', "Card file: Biome Blitz", "(provenance: assumed; the resource "
                  "counts, the ecosystems and most of the animal roster are a placeholder model until the real card list is known)"):
        assert words in page, words
    session.viewing_seat = None
    assert "Teacher view: every hand and peek shown" in biome_blitz_html(session)
    start = GameSession(game="biome_blitz", players=2, seed=SEED, teacher=False)
    page = biome_blitz_html(start)
    assert "Spectator view: no hand is shown" in page and "<b>The deal:</b>" in page
    assert ("No compete yet: attack = die + power, defence = die + defence; ties go to the attacker." in page
            and "no animals yet" in page and "no ecosystems" in page and "no discards" in page)


def test_the_english_decisions_keep_their_words():
    page = biome_blitz_html(cancel_decision())
    assert "may discard 1 water to cancel the compete of African lion against Common octopus." in page
    assert "Waiting for <b class=\"decider\">" in page and "discard 1 water to cancel it?" in page
    page = biome_blitz_html(reroll_decision())
    assert "may reroll the attack die (an ability) or keep it." in page
    assert ('attack die <span class="bb-die attack">2</span> defence die <span class="bb-die defence">5</span>; '
            'reroll the attack die?') in page
    page = biome_blitz_html(trade_reply())
    assert "accepts or refuses Player 2&#x27;s trade offer." in page
    assert "Trade offer from <b>Player 2</b> to <b>Player 3</b>: gives" in page and '<span class="ask">meat</span>.' in page
    session = selected_discover()
    session.viewing_seat = session.state.seat
    assert "Selected, not yet played: <b>" in biome_blitz_html(session)
    over = finished(players=2, seed=1)
    assert re.search(r"Game over: Player \d wins\.", biome_blitz_html(over))
    assert '<span class="bb-badge winner">winner</span>' in biome_blitz_html(over)


# ------------------------------------------------------------------ Japanese


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_the_japanese_board_is_japanese_for_every_viewer(position):
    session = POSITIONS[position]()
    for viewer in (0, 1, None):
        session.viewing_seat = viewer
        page = biome_blitz_html(session, "ja")
        assert page == BiomeBlitzBoard(session=session, lang="ja").html()
        assert JAPANESE.search(page), (position, viewer)
        assert english_left(page) == [], (position, viewer)
        assert "プレイヤー" in page and "Player 1" not in " ".join(Shown(page).chunks)


def test_the_japanese_board_uses_the_rulebooks_words():
    session = rich_table()
    session.viewing_seat = 0
    page = biome_blitz_html(session, "ja")
    for words in ("ステップ 0 / 0", "ターン10 · プレイヤー2の番", "プレイヤー1の視点", "リソース", "動物", "生態系",
                  "捨て札：3", "直前の対戦", "プレイヤー1の勝ち（攻撃側）", "22 / 30 ポイント", "チーム", "手札（リソースカード4枚）",
                  "◆ 肉", "対戦コスト", "パワー 4", "防御 3", "生態系ボーナス", "<span class=\"trigger\">発見</span>",
                  "探索・取引", "採食・発見・対戦"):
        assert words in page, words
    # the card file's names stay as printed
    assert "African lion" in page and "Savanna" in page
    assert "採食" in biome_blitz_html(at(finished(), 1), "ja")


def test_the_board_shows_an_events_japanese_text_when_the_game_has_one(monkeypatch):
    written = {"text": "Player 1 draws.", "texts": {"ja": "プレイヤー1が引きます。"}}
    assert event_text(written, "ja") == "プレイヤー1が引きます。" and event_text(written, "en") == "Player 1 draws."
    assert event_text({"text": "Player 1 draws."}, "ja") == "Player 1 draws."
    session = at(finished(), 5)
    spec, events = session.spec, session.spec.events
    session.viewing_seat = None            # the teacher reads the Event objects themselves

    def in_japanese(state):
        return [dataclasses.replace(e, texts={"en": e.text, "ja": f"日本語：{e.kind}"}) for e in events(state)]

    monkeypatch.setattr(spec, "events", in_japanese)
    page = biome_blitz_html(session, "ja")
    shown = [e for e in events(session.state) if e.text]
    assert shown and all(f"日本語：{e.kind}" in page for e in shown)
    assert all(e.text in biome_blitz_html(session, "en") for e in shown)
