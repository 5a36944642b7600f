"""/tables, the playtest tables' lobby and pages: `panel serve apps/tables --setup explorer/pages/serve_setup.py`
(or `rules-explorer serve`, `make serve`). The database file: `--args --db FILE`, $RULES_EXPLORER_TABLES_DB,
or the user's data directory."""
from explorer.pages.table_pages import create_tables_page

create_tables_page().servable(title="Rules Explorer – playtest tables")
