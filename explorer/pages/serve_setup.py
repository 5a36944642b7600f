"""``panel serve --setup explorer/pages/serve_setup.py`` (``rules-explorer serve`` passes it): restore every
unfinished playtest table as the server starts, so their bots carry on before anybody opens a page; a
page closed while an update was on its way is not logged as an error (``quiet_closed_pages``), and no log
record is longer than a few thousand characters and a value forged for a widget is one warning line, not
two tracebacks holding it whole (``cap_log_records``), and
an address value Panel's own reading cannot turn into a number stays text (``tolerant_query_reading``), and
no other site may show a page in a frame (``frame_guard``), and Bokeh's warning about a model definition a
page echoes back (a click on a model the server just sent) is not written (``quiet_echoed_models``). The
database file: ``--args --db FILE`` (read from the command line), else ``$RULES_EXPLORER_TABLES_DB``, else
the user's data directory."""
from tornado.ioloop import IOLoop

from explorer.pages.serve import (cap_log_records, frame_guard, quiet_closed_pages, quiet_echoed_models,
                                  tolerant_query_reading)
from explorer.tables.hub import db_path_from_args, get_hub

get_hub(db_path_from_args())
IOLoop.current().asyncio_loop.set_exception_handler(quiet_closed_pages)     # the loop the server runs
cap_log_records()
tolerant_query_reading()
frame_guard()
quiet_echoed_models()
