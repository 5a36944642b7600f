"""``panel serve --setup explorer/tables_setup.py``: restore every unfinished playtest table as the
server starts, so their bots carry on before anybody opens a page. The database file: ``--args --db
FILE`` (read from the command line), else ``$RULES_EXPLORER_TABLES_DB``, else the user's data directory."""
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from explorer.table_hub import get_hub  # noqa: E402
from explorer.table_pages import db_path_from_args  # noqa: E402

get_hub(db_path_from_args())
