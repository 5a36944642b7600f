"""Each game's rulebook: the rules in our own words, in English and Japanese, in teaching order.

A rulebook is a data file, ``rules/<game>/data/rulebook.json``: chapters of rules, each rule with an
id, the headings of the rules text (``source`` names it by its title) it follows, the numbers of the
readings (``docs/readings.md``, the game's section) that settle it, and in both languages a title, a one-line
summary (shown with an illegal move's explanation) and a teaching text.

It is also where references are resolved:

- an engine names the rule an illegal move breaks in ``IllegalAction.rule`` (its ``RULE_*`` texts);
  each ``RULE_*`` constant of the game's package is listed under exactly one rule (``engine``), so
  :meth:`Rulebook.for_refusal` finds the rule for a refusal;
- each event kind the game logs is listed under exactly one rule (``events``): :meth:`Rulebook.for_event`.

Nothing here imports the explorer: pages and tutorials read rulebooks, the engines never do.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from rules.protocol import JSON, InvalidPosition

#: The languages every text is written in (the first is the fallback).
LANGUAGES = ("en", "ja")

#: Where the rules texts live (reference only: never shipped): ``$RULES_EXPLORER_RULES_TEXTS``, else
#: the team's folder beside the project. Tests that compare rulebooks with the texts need them.
RULES_TEXTS = Path(os.environ.get("RULES_EXPLORER_RULES_TEXTS")
                   or Path(__file__).resolve().parent.parent.parent / "shared" / "rules")


@dataclass(frozen=True)
class Rule:
    """One rule, as a learner meets it."""

    id: str
    chapter: str
    sections: tuple[str, ...]        # headings of the Japanese rules text it follows
    rulings: tuple[int, ...]         # numbers of readings in docs/readings.md, the game's section
    title: Mapping[str, str]
    summary: Mapping[str, str]
    text: Mapping[str, str]
    engine: tuple[str, ...]          # the engine's RULE_* constants naming this rule
    events: tuple[str, ...]          # the event kinds this rule explains
    #: ``sections`` in English words, in the same order (the rulebook's ``heading_words``): what a
    #: reader who does not read Japanese looks for (ゲームプレイ, "Gameplay").
    sections_en: tuple[str, ...] = ()

    def reference(self, game_name: str, lang: str = "en") -> str:
        """Where the rule comes from, in words: game, the original text's sections (their titles, in
        Japanese: the text's own words, without its markup; in English followed by their English
        words, "ゲームプレイ (Gameplay)"), rulings."""
        titles = [heading_title(heading) for heading in self.sections]
        if lang != "ja" and self.sections_en:
            titles = [f"{title} ({words})" for title, words in zip(titles, self.sections_en)]
        where = " / ".join(titles)
        if where:
            where = f"原文：{where}" if lang == "ja" else f"original rules: {where}"
        rulings = ("、" if lang == "ja" else ", ").join(f"{'裁定' if lang == 'ja' else 'ruling'} {n}" for n in self.rulings)
        return " · ".join(part for part in (game_name, where, rulings) if part)


def heading_title(heading: str) -> str:
    """A heading of a rules text as a title: without its wiki markup (``==ゲームの目的==``), bullet
    (``●ジャンプ``) or closing colon (``フェーズ 3: 月ボーナスと効果の実行:``, which a source line
    showed followed by " · ")."""
    return heading.strip().strip("=").strip().lstrip("●○■□◆◇・").strip().rstrip(":：").strip()


@dataclass(frozen=True)
class Chapter:
    id: str
    title: Mapping[str, str]
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Rulebook:
    game: str
    source: str                      # the rules text's title (the text itself is not in the repository)
    chapters: tuple[Chapter, ...]
    headings: tuple[str, ...]        # every heading of the rules text, in order (what ``sections`` name)
    ruling_count: int                # how many readings docs/readings.md has for the game

    @property
    def rules(self) -> tuple[Rule, ...]:
        return tuple(rule for chapter in self.chapters for rule in chapter.rules)

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(f"{self.game} has no rule {rule_id!r}")

    def for_event(self, kind: str) -> Rule | None:
        return _by_event(self.game).get(kind)

    def for_refusal(self, rule_text: str | None) -> Rule | None:
        """The rule an ``IllegalAction.rule`` text names (None for a text no RULE_* constant holds)."""
        return None if rule_text is None else _by_refusal(self.game).get(rule_text)


def _text(value: JSON, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or set(value) != set(LANGUAGES):
        raise InvalidPosition(f"needs a text in each of {', '.join(LANGUAGES)}", where=where)
    for lang, text in value.items():
        if not isinstance(text, str) or not text.strip():
            raise InvalidPosition(f"the {lang} text is empty", where=f"{where}.{lang}")
    return dict(value)


def _strings(value: JSON, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise InvalidPosition("must be a list of texts", where=where)
    return tuple(value)


def parse(data: JSON, where: str = "rulebook") -> Rulebook:
    """A rulebook from its JSON data, or InvalidPosition naming the field that is wrong."""
    if not isinstance(data, dict):
        raise InvalidPosition("must be an object", where=where)
    chapters, seen = [], set()
    for c, chapter in enumerate(data.get("chapters") or ()):
        at = f"{where}.chapters[{c}]"
        rules = []
        for r, rule in enumerate(chapter.get("rules") or ()):
            rat = f"{at}.rules[{r}]"
            rule_id = rule.get("id")
            if not isinstance(rule_id, str) or not rule_id:
                raise InvalidPosition("needs an id", where=f"{rat}.id")
            if rule_id in seen:
                raise InvalidPosition(f"the id {rule_id!r} is used twice", where=f"{rat}.id")
            seen.add(rule_id)
            rulings = rule.get("rulings", [])
            if not isinstance(rulings, list) or not all(type(n) is int and n > 0 for n in rulings):
                raise InvalidPosition("must be a list of ruling numbers", where=f"{rat}.rulings")
            rules.append(Rule(rule_id, chapter.get("id", ""), _strings(rule.get("sections", []), f"{rat}.sections"),
                              tuple(rulings), _text(rule.get("title"), f"{rat}.title"),
                              _text(rule.get("summary"), f"{rat}.summary"), _text(rule.get("text"), f"{rat}.text"),
                              _strings(rule.get("engine", []), f"{rat}.engine"),
                              _strings(rule.get("events", []), f"{rat}.events")))
        if not rules:
            raise InvalidPosition("a chapter needs at least one rule", where=f"{at}.rules")
        chapters.append(Chapter(chapter.get("id", ""), _text(chapter.get("title"), f"{at}.title"), tuple(rules)))
    if not chapters:
        raise InvalidPosition("needs at least one chapter", where=f"{where}.chapters")
    headings = _strings(data.get("headings", []), f"{where}.headings")
    heading_words = data.get("heading_words", {})
    words = heading_words.get("en", {}) if isinstance(heading_words, dict) else None
    if not isinstance(words, dict) or not all(isinstance(w, str) and w.strip() for w in words.values()):
        raise InvalidPosition("must map headings to their English words", where=f"{where}.heading_words.en")
    count = data.get("ruling_count", 0)
    if type(count) is not int or count < 0:
        raise InvalidPosition("must be a whole number", where=f"{where}.ruling_count")
    for chapter in chapters:
        for rule in chapter.rules:
            for heading in rule.sections:
                if heading not in headings:
                    raise InvalidPosition(f"{heading!r} is not a heading of the rules text",
                                          where=f"{where} rule {rule.id!r}.sections")
                if heading not in words:
                    raise InvalidPosition(f"the heading {heading!r} has no English words",
                                          where=f"{where}.heading_words.en")
            for number in rule.rulings:
                if number > count:
                    raise InvalidPosition(f"there is no ruling {number} (the game has {count})",
                                          where=f"{where} rule {rule.id!r}.rulings")
    chapters = [Chapter(chapter.id, chapter.title, tuple(replace(rule, sections_en=tuple(words[h] for h in rule.sections))
                                                         for rule in chapter.rules)) for chapter in chapters]
    return Rulebook(str(data.get("game", "")), str(data.get("source", "")), tuple(chapters), headings, count)


@lru_cache(maxsize=None)
def rulebook(game: str) -> Rulebook:
    """The shipped rulebook of ``game`` (a registered game id, also its package's name)."""
    path = Path(importlib.import_module(f"rules.{game}").__path__[0]) / "data" / "rulebook.json"
    book = parse(json.loads(path.read_text(encoding="utf-8")), where=f"{game} rulebook")
    if book.game != game:
        raise InvalidPosition(f"is the rulebook of {book.game!r}, not {game!r}", where=f"{game} rulebook.game")
    return book


def engine_rules(game: str) -> dict[str, str]:
    """Every ``RULE_*`` constant of the game's package: name -> text (as IllegalAction.rule holds it)."""
    package = importlib.import_module(f"rules.{game}")
    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"rules.{game}.{info.name}")
        for name, value in vars(module).items():
            if name.startswith("RULE_") and isinstance(value, str):
                if found.get(name, value) != value:
                    raise ValueError(f"{game}: {name} has two different texts")
                found[name] = value
    return found


@lru_cache(maxsize=None)
def _by_event(game: str) -> dict[str, Rule]:
    return {kind: rule for rule in rulebook(game).rules for kind in rule.events}


@lru_cache(maxsize=None)
def _by_refusal(game: str) -> dict[str, Rule]:
    texts = engine_rules(game)
    return {texts[name]: rule for rule in rulebook(game).rules for name in rule.engine if name in texts}
