"""Checks for the fields of hand-written JSON files (positions, replays, actions), shared by every game.

Each returns the value when it is right and otherwise raises :class:`InvalidPosition` saying what is
wrong and where (``where`` is the field's path, e.g. ``"state.hands[1]"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.protocol import InvalidPosition, load_json


def times(n: int, one: str = "time", many: str = "times") -> str:
    """``"no times"``, ``"1 time"``, ``"3 times"`` (or other words: ``times(1, "copy", "copies")``)."""
    return f"{'no' if n == 0 else n} {one if n == 1 else many}"


def whole_number(value: Any, where: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise InvalidPosition(f"must be a whole number from {span}, not {value!r}", where=where)
    return value


def json_list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise InvalidPosition(f"must be a list, not {type(value).__name__}", where=where)
    return value


def json_bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise InvalidPosition(f"must be true or false, not {value!r}", where=where)
    return value


def read_json_file(path: str | Path) -> Any:
    """A JSON file's contents (a replay, a position, a card file), with errors that name the file."""
    path = Path(path)
    try:
        text = path.read_bytes()
    except OSError as error:
        raise InvalidPosition(f"cannot read: {error.strerror}", where=str(path)) from None
    return load_json(text, what=str(path))


def per_seat(value: Any, players: int, what: str, where: str) -> list:
    """A list with one entry per player (a hand, a journal, a score...)."""
    value = json_list(value, where)
    if len(value) != players:
        raise InvalidPosition(f"needs one {what} per player ({players}), found {len(value)}", where=where)
    return value


def position_header(game, data: Any, parse_cards, default_cards, state_keys) -> tuple[dict, Any, dict]:
    """The checks every position file starts with: its keys, game, rules version, variants and card
    file (``parse_cards`` reads one; ``default_cards`` when there is none). Returns ``(variants, card
    set, the "state" object)``; the state's keys are checked too."""
    from rules.protocol import require_keys

    require_keys(data, ("game", "version", "variants", "state"), where="position", optional=("cards", "comment"))
    if data["game"] != game.id:
        raise InvalidPosition(f"this is a position for {data['game']!r}, not {game.id!r}", where="position.game")
    if str(data["version"]).split(".")[0] != game.version.split(".")[0]:
        raise InvalidPosition(f"written for rules version {data['version']!r}; this engine reads {game.version}",
                              where="position.version")
    variants = game.check_variants(data["variants"])
    cards = parse_cards(data["cards"], where="position.cards") if "cards" in data else default_cards
    require_keys(data["state"], state_keys, where="state")
    return variants, cards, data["state"]
