"""A server's limits, each read from its environment variable (``rules-explorer serve`` sets them from
its ``--max-...`` options): the playtest tables' (``explorer/tables/hub.py``), the explorer's MCTS runs
(``explorer/components/bot_run.py``) and the analyses at once (``explorer/pages/analysis.py``)."""

from __future__ import annotations

import os


def server_limit(env: str, default: int) -> int:
    """The whole number ``$env`` says (below 0 counts as 0), else ``default`` (unset, or not a number)."""
    try:
        return max(0, int(os.environ.get(env, default)))
    except ValueError:
        return default
