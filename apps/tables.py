"""Playtest tables: the lobby and each table's pages: `panel serve apps/tables.py` (or `make serve`).

The database file: `--args --db FILE`, or $RULES_EXPLORER_TABLES_DB, or the user's data directory.
"""
import sys
from pathlib import Path

# `panel serve` puts this file's folder first on sys.path, where apps/explorer.py would pass for the
# `explorer` package; the project root goes in front of it.
ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

from explorer.table_pages import create_tables_page  # noqa: E402

create_tables_page().servable(title="Rules Explorer – playtest tables")
