"""A playtest hub on a fresh SQLite file (``db``, ``hub``) for the tables' tests."""

from __future__ import annotations

import pytest

from explorer.tables.hub import TableHub


@pytest.fixture
def db(tmp_path):
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def hub(db):
    hub = TableHub(db, bot_delay=0.0)
    yield hub
    hub.close()
