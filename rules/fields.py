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
