"""``panel serve --setup explorer/tables_setup.py``: restore every unfinished playtest table as the
server starts, so their bots carry on before anybody opens a page; a page closed while an update was
on its way is not logged as an error (``quiet_closed_pages``). The database file: ``--args --db
FILE`` (read from the command line), else ``$RULES_EXPLORER_TABLES_DB``, else the user's data directory."""
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tornado.ioloop import IOLoop  # noqa: E402

from explorer.table_hub import get_hub  # noqa: E402
from explorer.table_pages import db_path_from_args, quiet_closed_pages  # noqa: E402

get_hub(db_path_from_args())
IOLoop.current().asyncio_loop.set_exception_handler(quiet_closed_pages)     # the loop the server runs
