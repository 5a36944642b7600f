"""Code the tests share (no tests here): seeded games, position fuzzing, a board's HTML read back, the playtest tables' server."""

from __future__ import annotations


def strings(data) -> set[str]:
    """Every string leaf of JSON-like data (an observation, a position): nested dicts, lists, tuples."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings(v) for v in data.values()))
    if isinstance(data, (list, tuple)):
        return set().union(*(strings(v) for v in data))
    return set()
