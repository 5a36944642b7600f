"""The suite's two tiers (docs/architecture.md, "Two tiers").

``make test`` runs every test not marked ``slow``: each contract once (one game, one language, one
player count, one page) in a few minutes. ``make test-slow`` runs the ``slow`` ones: the same contracts
again for the other games, languages, player counts, variant settings and pages, the whole long games
and the long runs. CI runs both (``.ci/run``), so nothing the suite checks is left out of a landing;
``make test-all`` runs both in one go.

A test is ``slow`` only if the quick tier already checks its contract in another case, or if it is
long by nature (a whole game in four browsers, a simulation sweep). ``quick_once`` makes the cases of a
parametrized contract and refuses a list without its quick case.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

slow = pytest.mark.slow


def quick_once(values: Iterable, quick, *, ids=None) -> list:
    """``values`` as pytest parameters: ``quick`` in the quick tier, every other one ``slow``.

    ``values`` may hold tuples (several arguments per case); ``ids`` names the cases (a function of a
    value, as pytest takes it)."""
    params = []
    for value in values:
        marks = () if value == quick else (slow,)
        args = value if isinstance(value, tuple) else (value,)
        params.append(pytest.param(*args, marks=marks, id=ids(value) if ids else None))
    if not any(not p.marks for p in params):
        raise ValueError(f"{quick!r} is not among the values, so no case would be quick")
    return params
