"""Event texts in every language, from each game's resource file ``rules/<game>/data/events.json``.

The file maps a text's key to its template per language: ``{"turn": {"en": "{who}'s turn.", "ja":
"{who}の手番です。"}}``. A game's ``events`` fills them with :func:`say`; a value that differs by
language (a player's name, a list joined by the language's comma) is passed as a dict per language
(:func:`player`, :func:`joined`), anything else (a number, a card's name) as it is. The English is
what ``Event.text`` has always said, so logs, goldens and tests read the same.

Every key has a template in every language, with the same placeholders (checked when the file is
read, and by ``tests/rules/test_event_texts.py``).

Texts shared by every game (what is wrong with a malformed position, replay or action file: keys
``file.*``, and the words they name: ``term.*``) live in ``rules/data/messages.json``, in the same
form; :func:`say_shared` fills them.
"""

from __future__ import annotations

import importlib
import json
import string
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from rules.protocol import Seat
from rules.rulebook import LANGUAGES

#: A text in every language: language -> text.
Texts = dict[str, str]
#: A template file: text key -> language -> template.
Templates = dict[str, dict[str, str]]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _read_templates(path: Path) -> Templates:
    """A template file (key -> language -> template), checked: every language, the same placeholders."""
    data: Templates = json.loads(path.read_text(encoding="utf-8"))
    for key, by_lang in data.items():
        if not isinstance(by_lang, dict) or set(by_lang) != set(LANGUAGES):
            raise ValueError(f"{path.name}: {key!r} needs a template in each of {', '.join(LANGUAGES)}")
        if len({frozenset(_fields(t)) for t in by_lang.values()}) != 1:
            raise ValueError(f"{path.name}: {key!r} has different placeholders in its languages")
    return data


@lru_cache(maxsize=None)
def templates(game: str) -> Templates:
    """The game's event templates (key -> language -> template), checked."""
    return _read_templates(Path(importlib.import_module(f"rules.{game}").__path__[0]) / "data" / "events.json")


@lru_cache(maxsize=None)
def shared_templates() -> Templates:
    """The templates every game shares (``rules/data/messages.json``), checked like :func:`templates`."""
    return _read_templates(Path(__file__).parent / "data" / "messages.json")


def say(game: str, key: str, **values: object) -> Texts:
    """The text ``key`` of ``game`` in every language, its placeholders filled with ``values`` (a dict
    per language for values that differ by language)."""
    return _fill(templates(game)[key], values)


def say_in(game: str, key: str, lang: str, **values: object) -> str:
    """The text ``key`` of ``game`` in ``lang`` alone (:func:`say` picked to one language, without
    filling the others): score tables and action labels ask for one language many times a move."""
    return _fill_in(templates(game)[key], values, lang)


def say_shared(key: str, **values: object) -> Texts:
    """The shared text ``key`` (``rules/data/messages.json``, e.g. ``"file.missing"``) in every language,
    filled like :func:`say`: ``say_shared("file.missing", keys="seed")`` ->
    ``{"en": "missing seed", "ja": "seedがありません"}``."""
    return _fill(shared_templates()[key], values)


def _fill(found: Mapping[str, str], values: Mapping[str, object]) -> Texts:
    return {lang: _fill_in(found, values, lang) for lang in LANGUAGES}


def _fill_in(found: Mapping[str, str], values: Mapping[str, object], lang: str) -> str:
    """``found``'s template in ``lang``, each value in ``lang`` where it differs by language."""
    return found[lang].format(**{name: value[lang] if isinstance(value, Mapping) else value
                                 for name, value in values.items()})


def named(sent: object, found: int | None, label: Callable[[int], Texts]) -> Texts | str:
    """A card (a biome, an animal) a refusal names: as players name it, ``label(found)`` ("Arctic
    tundra 3", "極地ツンドラ 3"), when the value ``sent`` is one of the card set's (``found``, its
    number); else ``sent`` quoted as it was sent. (Refusals named cards by the ids files use:
    "'arctic_tundra-3' is not in Player 1's hand".)"""
    return repr(sent) if found is None else label(found)


def player(seat: Seat) -> Texts:
    """A seat's name: "Player 1", "プレイヤー1"; a seat a file wrote below 0, as written ("seat -1", not
    "Player 0": the refusal of a move by no seat named one)."""
    if seat < 0:
        return {"en": f"seat {seat}", "ja": f"席{seat}"}
    return {"en": f"Player {seat + 1}", "ja": f"プレイヤー{seat + 1}"}


def joined(items: Iterable[object], empty: Mapping[str, str] | None = None) -> Texts:
    """Items listed in each language ("a, b"; "a、b"); ``empty`` when there are none."""
    items = list(items)
    if not items and empty is not None:
        return dict(empty)
    pick: Callable[[object, str], str] = lambda item, lang: (  # noqa: E731
        item[lang] if isinstance(item, Mapping) else str(item))
    return {"en": ", ".join(pick(i, "en") for i in items), "ja": "、".join(pick(i, "ja") for i in items)}
