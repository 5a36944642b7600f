"""The Biome Blitz board in English and Japanese: its texts come from ``explorer/locales/<lang>/biome_blitz_board.json``.

The English board is the one the other tests read (its words checked here element by element, read back
with ``tests/board_html.py``);
the Japanese board shows Japanese and none of the English board's own labels, for several positions
and viewing seats, and names every card as the card file prints it in Japanese (an animal's and an
ecosystem's ``name_ja``, an ability's ``name_ja`` and ``text_ja``; the standard card set by
``card_set_words``). What stays in Latin letters on the Japanese board: the game's name, the families
(as printed), the card ids in the markup, the ecosystem symbol chips (``SAV``: the template prints the
id), an animal's own provenance note and an ability's effect (tooltips written for designers).
"""

from __future__ import annotations

import copy
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
from rules.biome_blitz.cards import parse_cards
from tests.helpers.board_html import HOSTILE, parse, parse_escaped
from tests.helpers.biome_blitz_board import SEED, cancel_decision, rich_table, what_if
from tests.helpers.seeded_games import autoplay_as_before

CARDS = Path(__file__).resolve().parents[3] / "rules" / "biome_blitz" / "data" / "cards.json"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")      # a word in Latin letters (as tools/page_check.py reads a page)


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


@lru_cache(maxsize=None)
def card_file() -> dict:
    return json.loads(CARDS.read_text(encoding="utf-8"))


def latin_left(page: str) -> list[str]:
    """Words in Latin letters the Japanese board shows, but for what may stay so (the module's docstring)."""
    data = card_file()
    families = {animal["family"] for animal in data["animals"]}
    notes = {animal["provenance"] for animal in data["animals"] if animal.get("provenance")}
    chips = {eco["id"] for eco in data["ecosystems"]}
    effects = {ability["effect"] for animal in data["animals"] for ability in animal["abilities"]}
    found = []
    for chunk in Shown(page).chunks:
        if chunk in chips or chunk in effects:
            continue
        for note in notes:
            chunk = chunk.replace(note, " ")
        found += [word for word in LATIN.findall(chunk) if word not in families and word not in ("Biome", "Blitz")]
    return found


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


# ------------------------------------------------------------------ English: what each element says


def test_the_english_board_is_the_default_and_the_board_class_draws_the_same():
    session = rich_table()
    for viewer in (0, 1, None):
        session.viewing_seat = viewer
        page = biome_blitz_html(session)
        assert biome_blitz_html(session, "en") == page == BiomeBlitzBoard(session=session, lang="en").html()


def badges(page) -> list[tuple[list, str]]:
    return [(badge.classes, badge.text) for badge in page.all("bb-badge")]


def test_the_english_board_keeps_its_words():
    session = rich_table()
    session.viewing_seat = 1
    page = parse(biome_blitz_html(session))
    status = page.one("bb-status")
    assert [status.one(c).text for c in ("step-counter", "bb-turn", "viewer", "bb-phase")] == [
        "Step 0 / 0 · no moves yet", "Turn 10 · Player 2's turn", "Seen by Player 2: other hands face down",
        "Player 2: optional actions (Explore, Trade) any number of times, then one main action (Forage, Discover, Compete)."]
    piles = page.all("bb-pile")
    assert [pile.one("title").text for pile in piles] == ["Resources", "Animals", "Ecosystems"]
    assert "discards: 3" in [span.text for pile in piles for span in pile.all_tags("span")]
    assert "top: meat" in page.texts("bb-discard-top")
    assert ("wild (any one resource)", "✱ wild") in [(r.attrs["title"], r.text) for r in page.all("bb-resource", "res-wild")]
    compete = page.one("bb-compete")
    assert compete.one("title").text == "Last compete"
    attack = compete.one("bb-dice-row", "attack").all_tags("span")[1]
    assert attack.text.startswith("Player 1's African lion: ") and attack.text.endswith(" attack")
    assert attack.text == f"Player 1's African lion: {attack.one('bb-total', 'attack-total').text} attack"
    assert "Komodo dragon (discarded)" in compete.text
    assert compete.one("bb-winner").text == "Player 1 wins (attacker)"
    assert [(die.classes, die.attrs["title"]) for die in compete.all("bb-die")] == [
        (["bb-die", "attack"], "attack die"), (["bb-die", "defence"], "defence die")]
    assert "22 / 30 points" in page.texts("bb-points") and "2 / 5 animals" in page.texts("bb-animal-count")
    labels = page.texts("zone-label")
    assert {"Team", "Ecosystems (1 of at most 3)", "Hand (4 resource cards)"} <= set(labels)
    first = page.one("bb-hand", "hand-seat-0")
    assert {back.attrs["title"] for back in first.all("bb-back")} == {"one of Player 1's resource cards"}
    assert first.one("count").text == "4 cards, face down"
    shown = badges(page)
    # (the viewing seat's own turn is "your turn": "their turn · to decide · you" spoke of it as another's)
    assert (["bb-badge"], "your turn") in shown and (["bb-badge", "deciding"], "to decide") in shown
    assert (["bb-badge"], "you") in shown and (["bb-badge"], "their turn") not in shown
    session.viewing_seat = 0
    assert (["bb-badge"], "their turn") in badges(parse(biome_blitz_html(session)))
    boosted = [power for power in page.all("bb-power") if power.all("bb-bonus")]
    assert any(power.text.startswith("pow 4 +") for power in boosted)
    assert {bonus.attrs["title"] for power in boosted for bonus in power.all("bb-bonus")} == {"ecosystem bonus"}
    costs = page.all("bb-cost")
    assert costs and all(cost.text.startswith("Cost ") and cost.all("chip") for cost in costs)
    battles = page.all("bb-battle-cost")
    assert battles and all(cost.text.startswith("Battle ") and cost.all("chip") for cost in battles)
    assert {symbol.attrs.get("title") for symbol in page.all("bb-animal")[0].all("bb-eco-symbol")} == {"ecosystem symbol"}
    ecosystems = page.all("bb-ecosystem")
    assert "SAV animals: pow +1 def +1" in [eco.one("bb-stats").text for eco in ecosystems]
    assert "ecosystem Savanna" in [eco.attrs["title"] for eco in ecosystems]
    assert "Discover" in page.texts("trigger")
    key = [part for part in page.one("legend").parts if not isinstance(part, str)][-1]
    assert key.text == "★ stars (points) · pow power · def defence · +n ecosystem bonus" and key.one("bb-bonus").text == "+n"
    provenance = page.one("provenance").text
    assert provenance.startswith("Card file: Biome Blitz") and provenance.endswith(
        "(provenance: assumed; the resource counts, the ecosystems and most of the animal roster are a placeholder "
        "model until the real card list is known)")
    session.viewing_seat = None
    assert parse(biome_blitz_html(session)).one("viewer").text == "Teacher view: every hand and peek shown"
    start = parse(biome_blitz_html(GameSession(game="biome_blitz", players=2, seed=SEED, teacher=False)))
    assert start.one("viewer").text == "Spectator view: no hand is shown"
    assert start.one("bb-events").one_tag("b").text == "The deal:"
    assert start.one("bb-compete").one("none").text == \
        "No compete yet: attack = die + power, defence = die + defence; ties go to the attacker."
    empty = start.texts("empty")
    assert "no animals yet" in empty and "no ecosystems" in empty and "no discards" in start.texts("bb-discard-top")
    assert "discards: 0" not in start.all_text()      # (said once: "no discards")


def test_the_english_decisions_keep_their_words():
    page = parse(biome_blitz_html(cancel_decision()))
    assert "may discard 1 water to cancel the compete of African lion against Common octopus." in page.one("bb-phase").text
    pending = page.one("bb-pending")
    decider = pending.one("decider")
    assert decider.tag == "b" and pending.text.startswith(f"Waiting for {decider.text}: ")
    assert pending.text.endswith("discard 1 water to cancel it?")
    page = parse(biome_blitz_html(reroll_decision()))
    assert "may reroll the attack die (an ability) or keep it." in page.one("bb-phase").text
    pending = page.one("bb-pending")
    assert pending.text.endswith("attack die 2 defence die 5; reroll the attack die?")
    assert [(die.classes, die.text) for die in pending.all("bb-die")] == [(["bb-die", "attack"], "2"), (["bb-die", "defence"], "5")]
    page = parse(biome_blitz_html(trade_reply()))
    assert "accepts or refuses Player 2's trade offer." in page.one("bb-phase").text
    pending = page.one("bb-pending")
    assert "Trade offer from Player 2 to Player 3: gives" in pending.text and pending.text.endswith("asks for meat.")
    assert [b.text for b in pending.all_tags("b")][1:] == ["Player 2", "Player 3"]
    assert pending.one("ask").text == "meat"
    session = trade_reply()
    partner = session.spec.to_move(session.state)[0]
    for seat, start in ((partner, "Your decision: Trade offer from Player"), ((partner + 2) % 3, "Waiting for Player")):
        session.viewing_seat = seat     # (a review: the partner's own page said "Waiting for Player 3: ..." to Player 3)
        pending = parse(biome_blitz_html(session)).one("bb-pending")
        assert pending.text.startswith(start), pending.text
    session.viewing_seat = partner
    japanese = parse(biome_blitz_html(session, lang="ja")).one("bb-pending").text
    assert japanese.startswith("あなたの決定：") and "決定待ち" not in japanese
    session = selected_discover()
    session.viewing_seat = session.state.seat
    line = parse(biome_blitz_html(session)).one("preview-line")
    assert line.text.startswith(f"Selected, not yet played: {line.one_tag('b').text}. ")
    over = parse(biome_blitz_html(finished(players=2, seed=1)))
    assert re.fullmatch(r"Game over\. Won by Player \d\.", over.one("bb-phase").text)
    assert (["bb-badge", "winner"], "winner") in badges(over)


def test_hostile_texts_show_as_text(monkeypatch):
    """A replay notice, an event text and a card file's names holding markup show as the text they are."""
    session = GameSession(game="biome_blitz", players=2, seed=SEED)
    session.replay_problem = {"move": 999, "seat": 1, "action": HOSTILE, "message": HOSTILE, "text": f"Move 999: {HOSTILE}"}
    spec = session.spec
    real_observe = spec.observe

    def hostile(state, seat):
        view = dict(real_observe(state, seat), events=[{"kind": "x", "text": HOSTILE}],
                    card_set={"name": HOSTILE, "provenance": HOSTILE})
        view["decks"] = dict(view["decks"])
        animals = view["decks"]["animal"]
        animals = dict(animals, market=[dict(card, name=HOSTILE, family=HOSTILE) if card else card for card in animals["market"]])
        view["decks"]["animal"] = animals
        return view

    monkeypatch.setattr(spec, "observe", hostile)
    session._observations.clear()
    # the Japanese board names cards from the card file: one whose names in Japanese are hostile too
    data = copy.deepcopy(dict(session.card_set().raw))
    for entry in data["animals"]:
        entry["name_ja"] = HOSTILE
    monkeypatch.setattr(session, "card_set", lambda cards=parse_cards(data): cards)
    for lang in ("en", "ja"):
        tree = parse_escaped(biome_blitz_html(session, lang))
        assert HOSTILE in tree.one("problem").text
        assert [li.text for li in tree.one("bb-events").all_tags("li")] == [HOSTILE]
        assert HOSTILE in tree.one("provenance").text
        assert set(tree.one("market-animal").texts("bb-name")) == {HOSTILE}


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
        assert latin_left(page) == [], (position, viewer)


def test_the_japanese_board_uses_the_rulebooks_words():
    session = rich_table()
    session.viewing_seat = 0
    page = biome_blitz_html(session, "ja")
    for words in ("0手目 / 全0手", "ターン10 · プレイヤー2の番", "プレイヤー1の視点", "リソース", "動物", "生態系",
                  "捨て札：3", "直前の対戦", "プレイヤー1の勝ち（攻撃側）", "22 / 30 ポイント", "チーム", "手札（リソースカード4枚）",
                  "◆ 肉", "対戦コスト", "パワー 4", "防御 3", "生態系ボーナス", "<span class=\"trigger\">発見</span>",
                  "探索・取引", "採食・発見・対戦"):
        assert words in page, words
    # the card file's Japanese names: animals, abilities (name and text), ecosystems, the card set
    for words in ("アフリカライオン", "頂点捕食者", "★5以上の動物と対戦するとき、パワー+1。", "トムソンガゼル", "素早い蹴り",
                  "サバンナの動物：パワー+1 防御+1", "コモドオオトカゲ（捨て札）", "カードファイル：Biome Blitzの標準カード（出典：仮定"):
        assert words in page, words
    assert "African lion" not in page and "Savanna" not in page and "Apex" not in page
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


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_after_the_end_nobody_has_a_turn_and_chips_name_their_ecosystem(lang):
    session = finished()
    turns = session.spec.observe(session.state, None)["turn"] + 1
    page = biome_blitz_html(session, lang)
    over = {"en": f"Game over after {turns} turns", "ja": f"ゲーム終了（{turns}ターン）"}[lang]
    assert over in page and "'s turn" not in page and "の番" not in page.split("bb-status", 1)[1].split("</div>", 1)[0]
    chips = re.findall(r'<span class="bb-eco-symbol"[^>]*>([^<]*)</span>', page)
    assert chips
    if lang == "ja":       # the ecosystem's Japanese name, never its id (SAV, WET)
        assert not [chip for chip in chips if re.fullmatch(r"[A-Z]{3}", chip)], chips
    # An ecosystem card names itself once: no chip repeating its name beside it ("海 [海]").
    heads = re.findall(r'<div class="bb-ecosystem[^"]*"[^>]*>\s*<div class="bb-card-head">(.*?)</div>', page, re.S)
    assert heads
    for head in heads:
        name = re.search(r'<span class="bb-name">([^<]*)</span>', head).group(1)
        assert name not in re.findall(r'<span class="bb-eco-symbol"[^>]*>([^<]*)</span>', head), head
    if lang == "en":       # (the id beside the name: "DES" on "Desert")
        assert all('class="bb-eco-symbol"' in head for head in heads)
