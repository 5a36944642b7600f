"""Checks for the fields of hand-written JSON files (positions, replays, actions), shared by every game.

Each returns the value when it is right and otherwise raises :class:`InvalidPosition` saying what is
wrong and where (``where`` is the field's path, e.g. ``"state.hands[1]"``), in every language: the
texts are the ``file.*`` templates of ``rules/data/messages.json``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any, Final, NoReturn, Protocol, TypeVar

from rules.eventtexts import say_shared, shared_templates
from rules.protocol import JSON, AnyGame, InvalidPosition, load_json, shown

#: A game's card set (what its ``parse_cards`` reads).
CardSet = TypeVar("CardSet")
CardSet_co = TypeVar("CardSet_co", covariant=True)     # (the same, as a reader gives it)


class CardReader(Protocol[CardSet_co]):
    """A game's ``parse_cards``: a card file's parsed JSON to its card set, errors naming ``where``."""

    def __call__(self, data: JSON, /, *, where: str) -> CardSet_co: ...


def _bad(key: str, where: str | None, cls: type[InvalidPosition] = InvalidPosition, **values: object) -> NoReturn:
    """Raise ``cls`` (:class:`InvalidPosition`) with the shared text ``file.<key>`` in every language."""
    problems = say_shared(f"file.{key}", **values)
    raise cls(problems["en"], where=where, problems=problems)


def _term(word: str | Mapping[str, str]) -> str | Mapping[str, str]:
    """A word per language: as given when it is a dict per language, else its ``term.<word>`` of
    ``rules/data/messages.json`` (the word itself, in every language, when it has none)."""
    if isinstance(word, Mapping):
        return word
    return shared_templates().get(f"term.{word}", word)


def times(n: int, one: str = "time", many: str = "times") -> str:
    """``"no times"``, ``"1 time"``, ``"3 times"`` (or other words: ``times(1, "copy", "copies")``)."""
    return f"{'no' if n == 0 else n} {one if n == 1 else many}"


#: Whole numbers in a file (seeds, counters, scores) are less than 2**53 in size: every page shows them
#: exactly (a browser's numbers hold no more), and what a file holds is what a page shows.
SEED_LIMIT = 2 ** 53


def whole_number(value: JSON, where: str, low: int, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (no ``high``: to ``SEED_LIMIT - 1``, the most a file holds)."""
    top = high if high is not None else SEED_LIMIT - 1
    if type(value) is not int or value < low or value > top:
        if high is not None or (type(value) is int and value > top):
            _bad("whole_number_range", where, low=low, high=f"{top:,}" if high is None else high, value=shown(value))
        _bad("whole_number_min", where, low=low, value=shown(value))
    return value


def seed_number(value: JSON, where: str, cls: type[InvalidPosition] = InvalidPosition) -> int:
    """A seed read from a file (a position's, a replay's: ``cls`` says which error): a whole number
    from -(2**53 - 1) to 2**53 - 1 (``SEED_LIMIT``)."""
    if type(value) is not int:
        _bad("seed", where, cls, value=shown(value))
    if not -SEED_LIMIT < value < SEED_LIMIT:
        _bad("seed_range", where, cls, limit=f"{SEED_LIMIT - 1:,}", value=shown(value))
    return value


def check_seed_run(seed: int, games: int) -> None:
    """A run of ``games`` games from ``seed`` deals from ``seed`` to ``seed + games - 1``: each within the
    seeds a file holds (:func:`seed_number`), or InvalidPosition naming the run (a game dealt past them
    was played, and its replay then refused)."""
    last = seed + max(games, 1) - 1
    if not (-SEED_LIMIT < seed and last < SEED_LIMIT):
        _bad("seed_run", "seed", InvalidPosition, first=f"{seed:,}", last=f"{last:,}", limit=f"{SEED_LIMIT - 1:,}")


def json_list(value: JSON, where: str) -> list[JSON]:
    if not isinstance(value, list):
        _bad("list", where, kind=type(value).__name__)
    return value


def json_bool(value: JSON, where: str) -> bool:
    if type(value) is not bool:
        _bad("bool", where, value=repr(value))
    return value


def read_json_file(path: str | Path) -> JSON:
    """A JSON file's contents (a replay, a position, a card file), with errors that name the file."""
    path = Path(path)
    try:
        text = path.read_bytes()
    except OSError as error:
        reason = error.strerror  # raised below, outside the handler (as ``from None``)
    else:
        return load_json(text, what=str(path))
    _bad("cannot_read", str(path), reason=reason)


def per_seat(value: JSON, players: int, what: str | Mapping[str, str], where: str) -> list[JSON]:
    """A list with one entry per player (a hand, a journal, a score...). ``what`` names an entry: a
    word of ``rules/data/messages.json`` (``term.<word>``), or a dict per language."""
    entries = json_list(value, where)
    if len(entries) != players:
        _bad("per_seat", where, what=_term(what), players=players, found=len(entries))
    return entries


def position_header(game: AnyGame, data: JSON, parse_cards: CardReader[CardSet], default_cards: CardSet,
                    state_keys: Iterable[str],
                    optional_keys: Iterable[str] = ()) -> tuple[dict[str, Any], CardSet, Mapping[str, JSON]]:
    """The checks every position file starts with: its keys, game, rules version, variants and card
    file (``parse_cards`` reads one; ``default_cards`` when there is none). Returns ``(variants, card
    set, the "state" object)``; the state's keys are checked too (``optional_keys`` may be missing)."""
    from rules.protocol import check_texts, require_keys

    require_keys(data, ("game", "version", "variants", "state"), where="position", optional=("cards", "comment"))
    if data["game"] != game.id:
        _bad("other_game", "position.game", found=repr(data["game"]), game=repr(game.id))
    rules_version(game, data["version"], "position.version")
    variants = game.check_variants(data["variants"])
    cards = (parse_cards(check_texts(data["cards"], where="position.cards"), where="position.cards") if "cards" in data
             else default_cards)
    require_keys(data["state"], state_keys, where="state", optional=optional_keys)
    return variants, cards, data["state"]


#: A rules version as files write it: ``"MAJOR.MINOR"``, digits (each game's ``GameSpec.version``).
VERSION_FORM: Final = re.compile(r"([0-9]{1,6})\.([0-9]{1,6})")


def rules_version(game: AnyGame, value: object, where: str, cls: type[InvalidPosition] = InvalidPosition) -> str:
    """A file's rules ``version`` (a position's, a replay's, a run file's), checked against ``game``'s:
    a text ``"MAJOR.MINOR"`` of the same major number and a minor number no later than the engine's.
    An earlier minor version is played as it was (``GameSpec.recorded``); a later one may deal and draw
    otherwise from the same seed, so it is refused rather than played as this one. Returns the version
    as ``GameSpec.version`` writes it (``"01.0"``: ``"1.0"``)."""
    match = VERSION_FORM.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        _bad("version_form", where, cls, found=shown(value), version=repr(game.version))
    major, minor = int(match[1]), int(match[2])
    own_major, own_minor = (int(part) for part in game.version.split("."))
    if major != own_major:
        _bad("version", where, cls, found=repr(value), version=game.version)
    if minor > own_minor:
        _bad("version_newer", where, cls, found=repr(value), version=game.version)
    return f"{major}.{minor}"


def action_fields(action: object) -> dict[str, Any]:
    """An action's fields by name, in order (an action is a dataclass; compiled ones have no ``__dict__``)."""
    return {field.name: getattr(action, field.name) for field in dataclass_fields(action)}  # type: ignore[arg-type]
