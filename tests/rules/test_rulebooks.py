"""Every game's rulebook (``rules/<game>/data/rulebook.json``): complete in both languages, and every
reference resolves: each engine RULE_* constant and each event kind to exactly one rule, each rule to
headings of the Japanese rules text and to rulings that exist."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

import rules
from rules.protocol import InvalidPosition
from rules.rulebook import LANGUAGES, RULES_TEXTS, engine_rules, parse, rulebook

ROOT = Path(__file__).resolve().parents[2]

GAMES = rules.GAMES


def rules_text(book) -> str:
    """The rules text ``book`` follows, from the team's copies in ``RULES_TEXTS`` (kept outside the
    repository; the rulebook's ``source`` names it by title): the one text holding the rulebook's
    first heading as a line. Skips the test when there are no texts at all."""
    texts = sorted(RULES_TEXTS.glob("*.txt")) if RULES_TEXTS.is_dir() else []
    if not texts:
        pytest.skip(f"no rules texts in {RULES_TEXTS} (set RULES_EXPLORER_RULES_TEXTS)")
    read = {path: path.read_text(encoding="utf-8") for path in texts}
    found = [path for path, text in read.items() if book.headings[0] in {line.strip() for line in text.splitlines()}]
    assert len(found) == 1, f"{book.game}: {len(found)} rules texts in {RULES_TEXTS} hold the heading {book.headings[0]!r}"
    return read[found[0]]


def event_kinds(game_id: str) -> set[str]:
    """The event kinds of seeded random games at every player count."""
    game = rules.get_game(game_id)
    kinds = set()
    for players in game.player_counts:
        for seed in range(6):
            pick = random.Random(seed).random
            state = game.new_game(players, seed, None)
            kinds |= {event.kind for event in game.events(state)}
            while seats := game.to_move(state):
                actions = game.legal_actions(state, seats[0])
                state = game.apply(state, seats[0], actions[int(pick() * len(actions))])
                kinds |= {event.kind for event in game.events(state)}
    return kinds


@pytest.mark.parametrize("game_id", GAMES)
def test_every_engine_rule_is_in_exactly_one_rule_of_the_rulebook(game_id):
    book = rulebook(game_id)
    listed = Counter(name for rule in book.rules for name in rule.engine)
    constants = engine_rules(game_id)
    assert set(listed) == set(constants), f"missing: {set(constants) - set(listed)}, unknown: {set(listed) - set(constants)}"
    assert max(listed.values()) == 1, [name for name, n in listed.items() if n > 1]
    for name, text in constants.items():
        assert book.for_refusal(text).engine.count(name) == 1


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_kind_is_explained_by_exactly_one_rule(game_id):
    book = rulebook(game_id)
    listed = Counter(kind for rule in book.rules for kind in rule.events)
    assert max(listed.values()) == 1, [kind for kind, n in listed.items() if n > 1]
    seen = event_kinds(game_id)
    assert seen <= set(listed), f"events without a rule: {sorted(seen - set(listed))}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_text_is_written_in_both_languages(game_id):
    book = rulebook(game_id)
    for chapter in book.chapters:
        assert set(chapter.title) == set(LANGUAGES)
        for rule in chapter.rules:
            for texts in (rule.title, rule.summary, rule.text):
                assert set(texts) == set(LANGUAGES) and all(texts[lang].strip() for lang in LANGUAGES)
                # The Japanese is Japanese, the English is not.
                assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", texts["ja"]), (rule.id, texts["ja"])
                assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", texts["en"]), (rule.id, texts["en"])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_points_at_existing_headings_and_rulings(game_id):
    book = rulebook(game_id)
    assert all(rule.sections for rule in book.rules), [rule.id for rule in book.rules if not rule.sections]
    # The game's section of docs/readings.md has exactly ruling_count readings, numbered from 1, and
    # every rule's rulings are among them.
    readings = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8").split("\n## ")
    name = rules.get_game(game_id).title
    ours = next(part for part in readings if part.startswith(name + "\n"))
    numbers = [int(n) for n in re.findall(rf"^### {name} (\d+): ", ours, flags=re.M)]
    assert numbers == list(range(1, book.ruling_count + 1))
    assert {n for rule in book.rules for n in rule.rulings} <= set(numbers)
    lines = {line.strip() for line in rules_text(book).splitlines()}
    assert [h for h in book.headings if h not in lines] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_an_english_reference_says_each_japanese_heading_in_english_words_too(game_id):
    """"original rules: ゲームプレイ (Gameplay) / 勝利 (Winning)": a reader who does not read Japanese
    still learns which part of the original a rule follows; the Japanese reference names the
    headings only."""
    book = rulebook(game_id)
    name = rules.get_game(game_id).title
    for rule in book.rules:
        assert len(rule.sections_en) == len(rule.sections) and all(w.strip() for w in rule.sections_en)
        english, japanese = rule.reference(name, "en"), rule.reference(name, "ja")
        assert all(f" ({words})" in english for words in rule.sections_en), english
        assert not any(words in japanese for words in rule.sections_en if words.isascii()), japanese
        assert not re.search(r"[A-Za-z]{3,}", japanese.replace(name, "")), japanese
        # A heading's own closing colon is not shown ("フェーズ 3: 月ボーナスと効果の実行: · 裁定 4"), and
        # a Japanese reference lists its rulings with 、, not ", ".
        assert not re.search(r"[:：] ·|[:：]$|[:：] /", japanese + "\n" + english), (japanese, english)
        assert ", " not in japanese.replace(name, ""), japanese


@pytest.mark.parametrize("game_id", GAMES)
def test_no_sentence_of_the_rules_text_is_copied(game_id):
    """Our explanations are our own: no run of 25 characters of the rules text appears in them."""
    book = rulebook(game_id)
    source = re.sub(r"\s+", "", rules_text(book))
    for rule in book.rules:
        ours = re.sub(r"\s+", "", rule.text["ja"] + rule.summary["ja"])
        copied = [ours[i:i + 25] for i in range(len(ours) - 24) if ours[i:i + 25] in source]
        assert not copied, (rule.id, copied[:1])


def test_a_malformed_rulebook_is_refused_naming_the_field():
    good = {"game": "g", "source": "g.txt", "headings": ["準備"], "heading_words": {"en": {"準備": "Setup"}},
            "ruling_count": 1, "chapters": [
        {"id": "c", "title": {"en": "C", "ja": "章"}, "rules": [
            {"id": "r", "sections": ["準備"], "rulings": [1], "title": {"en": "T", "ja": "題"},
             "summary": {"en": "S", "ja": "要"}, "text": {"en": "X", "ja": "文"}}]}]}
    assert parse(good).rule("r").rulings == (1,)
    for change, where in ((lambda d: d["chapters"][0]["rules"][0]["title"].pop("ja"), "rules[0].title"),
                          (lambda d: d["chapters"][0]["rules"][0].update(sections=["無い"]), "sections"),
                          (lambda d: d["chapters"][0]["rules"][0].update(rulings=[2]), "rulings"),
                          (lambda d: d["chapters"][0]["rules"].append(d["chapters"][0]["rules"][0]), "id"),
                          (lambda d: d["heading_words"]["en"].pop("準備"), "heading_words.en"),
                          (lambda d: d["heading_words"]["en"].update({"準備": " "}), "heading_words.en")):
        import copy
        data = copy.deepcopy(good)
        change(data)
        with pytest.raises(InvalidPosition) as caught:
            parse(data)
        assert where in str(caught.value)
