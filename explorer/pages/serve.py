"""The routes of the web app and how they are served: ``rules-explorer serve`` and ``make serve`` (which
calls it) run ``panel serve`` on the same apps with the same options.

Each route ``/<name>`` is the directory app ``apps/<name>/main.py`` (a folder, so that no file named
``explorer.py`` or ``rules.py`` shadows the packages on ``sys.path`` while Panel runs it); ``/`` shows
the home page (``--index``). ``explorer/pages/serve_setup.py`` runs once as the server starts.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path

from rules.protocol import RulesError

#: The served routes, in the order ``rules-explorer serve`` lists them: apps/<name>/main.py at /<name>.
ROUTES = ("home", "explorer", "analysis", "tables", "rules", "tutorial", "cards")
#: The route ``/`` shows.
INDEX = "home"


def project_root() -> Path:
    spec = find_spec("explorer")
    if spec is None or spec.origin is None:
        raise RulesError("the explorer package is not installed")
    return Path(spec.origin).parent.parent


def serve_command(args) -> list[str]:
    """The ``panel serve`` command line of ``rules-explorer serve`` (see :func:`explorer.cli.cmd_serve`)."""
    root = project_root()
    apps = [root / "apps" / name for name in ROUTES]
    missing = [str(app) for app in apps if not (app / "main.py").exists()]
    if missing:
        raise RulesError(f"serve needs the project's apps/ folder (install from a checkout: pip install -e .); "
                         f"missing: {', '.join(missing)}")
    if not 0 < args.port < 65536:
        raise RulesError(f"--port must be from 1 to 65535, not {args.port}")
    origins = [f"127.0.0.1:{args.port}", f"localhost:{args.port}"]
    if args.address not in ("127.0.0.1", "localhost", "0.0.0.0", "::"):
        origins.append(f"{args.address}:{args.port}")
    origins += args.allow_origin or []
    if args.address in ("0.0.0.0", "::") and not args.allow_origin:
        raise RulesError(f"--address {args.address} serves every network this machine is on: name the address "
                         "players will use with --allow-origin HOST[:PORT] (README, \"Serving a group\")")
    command = [sys.executable, "-m", "panel", "serve", *map(str, apps), "--index", INDEX,
               "--setup", str(root / "explorer" / "pages" / "serve_setup.py"),
               "--address", args.address, "--port", str(args.port), "--liveness",
               *(f"--allow-websocket-origin={origin}" for origin in dict.fromkeys(origins))]
    if args.use_xheaders:
        command.append("--use-xheaders")
    command += args.panel_args or []
    if args.db:
        command += ["--args", "--db", args.db]
    return command


def quiet_closed_pages(loop, context: dict) -> None:
    """The server loop's handler of exceptions nobody awaited: a page closed while an update was on
    its way to it (Panel writes to a closed websocket) is no error and is not logged as one; anything
    else goes to asyncio's default handler. Installed by ``explorer/pages/serve_setup.py``."""
    from tornado.iostream import StreamClosedError
    from tornado.websocket import WebSocketClosedError

    if isinstance(context.get("exception"), (WebSocketClosedError, StreamClosedError)):
        return
    loop.default_exception_handler(context)


def quiet_echoed_models() -> None:
    """No ``BokehUserWarning: reference already known 'p…'`` on the server's stderr. BokehJS counts every
    model a server's patch brought to the page as new to the server until the page sends its next patch
    (``Document._apply_json_patch`` adds them to ``_new_models``; ``create_json_patch`` leaves those out of
    the references it may name by id): when that next patch is a click on such a model (a view drawn
    afresh, "Let bots play" after the Table tab is shown again, a "Play as" button just made), it carries
    the model's whole definition. Bokeh's deserializer finds the id among the document's models, warns,
    and uses the server's own model, the echoed definition dropped: the click is handled as any other.
    Models a page makes get uuid ids, never a server's ``p…``, so nothing else sends a known id in full.
    Only that warning is silenced. Installed by ``explorer/pages/serve_setup.py``."""
    import warnings

    from bokeh.util.warnings import BokehUserWarning

    warnings.filterwarnings("ignore", message=r"reference already known ", category=BokehUserWarning)


#: The most characters of a served page's log record kept, for its message and for its traceback each.
LOG_RECORD_LIMIT = 4000
#: The most warnings and errors a log handler writes in ``LOG_WINDOW_SECONDS``; the rest are counted,
#: and the count is written with the next one let through (a page's console can send thousands of
#: refused values a second; a server in good health writes a few warnings an hour).
LOG_BURST, LOG_WINDOW_SECONDS = 60, 60.0


def _cut(text: str, limit: int) -> str:
    """``text`` kept to about ``limit`` characters: its beginning and its end, and how much was cut."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} [... {len(text) - 2 * half:,} characters cut ...] {text[-half:]}"


#: The project's own code: a traceback that passes through none of it is Panel or param refusing a value
#: a page sent (:func:`refused_value`).
OWN_CODE = tuple(str(Path(__file__).resolve().parents[2] / name) + os.sep for name in ("explorer", "rules", "play", "apps"))
#: The most characters of a refused value's error kept in its log line.
REFUSED_LIMIT = 200


def refused_value(exc_info) -> bool:
    """Is the logged exception Panel or param refusing a value sent from a page for a widget (a value not
    among a menu's options, a number past its bounds), or Bokeh refusing one for a model's property (a
    slider's value that is no number), before any of the project's code ran? A page's widgets send only
    the values they offer, so such a value was forged (from the browser's console). Panel handles a
    page's values in ``_process_events``; Bokeh checks a property's value in ``prepare_value`` as it
    applies the page's patch (``_handle_patch``). An error raised from our own callbacks has frames of
    our code in its traceback, and is not this."""
    _, error, trace = exc_info          # (a record's: logging makes a tuple of any exc_info it is given)
    if error is None or trace is None:
        return False
    frames = traceback.extract_tb(trace)
    if any(frame.filename.startswith(OWN_CODE) for frame in frames):
        return False
    names = {frame.name for frame in frames}
    return "_process_events" in names or {"_handle_patch", "prepare_value"} <= names


def _refused_by(message: str, error: str) -> str:
    """What refused a value: Bokeh names the model and its property at the start of its ``error``
    ("failed to validate Slider(id='p20340', ...).value: ..."), Panel the widget by its repr in the
    logged ``message`` ("Callback failed for object named 'Act for' ...")."""
    model = re.match(r"failed to validate (\w{1,60})\(id='(\w{1,40})'[^)]{0,20}\)\.(\w{1,60})", error)
    if model:
        return f"the {model.group(1)} {model.group(2)}'s {model.group(3)}"
    widget = re.search(r"object named (['\"])(.{0,80}?)\1", message)
    if widget:
        return f"the widget {widget.group(1)}{widget.group(2)}{widget.group(1)}"
    return "a widget"


class CappedRecords(logging.Filter):
    """A log handler's filter: each record's message and traceback cut to ``limit`` characters, and at
    most ``burst`` warnings and errors written in ``window`` seconds (the others counted, and said).

    A value forged from a browser's console (a select's value that is not one of its options, say)
    is refused by Panel, which logs the refusal with its traceback, each holding the whole value: a
    message of a websocket's size (Bokeh takes 20 MB) was written to the log twice. Cut, a record
    keeps what names the problem; and one page sending refused values in a loop (4 MB of log in 20 s,
    an outside tester measured) writes ``burst`` of them a window. A visitor cannot fill the disk.

    Such a refusal (:func:`refused_value`) is written as one warning that names the widget and the
    error, its value cut to ``REFUSED_LIMIT`` characters, without Panel's or Bokeh's traceback (no code of ours
    ran: it says nothing of ours), and once: Panel raises it again to the server's loop, which logged
    it a second time."""

    def __init__(self, limit: int = LOG_RECORD_LIMIT, burst: int = LOG_BURST, window: float = LOG_WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.limit, self.burst, self.window, self.clock = limit, burst, window, clock
        self._started, self._written, self._left_out = clock(), 0, 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and refused_value(record.exc_info):
            error = record.exc_info[1]
            if getattr(error, "logged_as_refused", False):
                return False            # (the same refusal, raised again to the loop)
            with contextlib.suppress(AttributeError):      # (an exception without a __dict__: said twice)
                error.logged_as_refused = True  # type: ignore[union-attr]
            refused_by = _refused_by(record.getMessage(), str(error))
            record.msg = "a page sent a value %s cannot take: refused, nothing changed (%s: %s)"
            record.args = (refused_by, type(error).__name__, _cut(str(error), REFUSED_LIMIT))
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.exc_info, record.exc_text = None, None
        if record.levelno >= logging.WARNING:
            with self._lock:
                now = self.clock()
                if now - self._started >= self.window:
                    self._started, self._written = now, 0
                if self._written >= self.burst:
                    self._left_out += 1
                    return False
                self._written += 1
                left_out, self._left_out = self._left_out, 0
            if left_out:
                record.msg, record.args = f"[{left_out:,} warnings and errors left out before this one] " \
                                          f"{record.getMessage()}", None
        message = record.getMessage()
        if len(message) > self.limit:
            record.msg, record.args = _cut(message, self.limit), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and len(record.exc_text) > self.limit:
            record.exc_text = _cut(record.exc_text, self.limit)
        return True


def cap_log_records(limit: int = LOG_RECORD_LIMIT) -> None:
    """Cut every record the server's log handlers write (:class:`CappedRecords`): the root logger's and
    those of the loggers with handlers of their own (Panel's writes its callbacks' errors itself).
    Installed by ``explorer/pages/serve_setup.py``, once the server has set up its logging."""
    loggers = [logging.getLogger(), *(logger for logger in logging.Logger.manager.loggerDict.values()
                                      if isinstance(logger, logging.Logger))]
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(f, CappedRecords) for f in handler.filters):
                handler.addFilter(CappedRecords(limit))


def frame_guard() -> None:
    """Every response of the server says it may be shown in a frame of this site only
    (``X-Frame-Options: SAMEORIGIN``, ``Content-Security-Policy: frame-ancestors 'self'``): a seat's or
    a creator's page framed by another site could be clicked through unseen (a Confirm or "End this
    table" under a decoy). No page of ours frames another site's. Installed by
    ``explorer/pages/serve_setup.py``, for the whole process (every Tornado handler it serves)."""
    from tornado.web import RequestHandler

    original = RequestHandler.set_default_headers
    if getattr(original, "frame_guard", False):
        return

    def set_default_headers(self: RequestHandler) -> None:
        original(self)
        self.set_header("X-Frame-Options", "SAMEORIGIN")
        self.set_header("Content-Security-Policy", "frame-ancestors 'self'")

    set_default_headers.frame_guard = True  # type: ignore[attr-defined]
    RequestHandler.set_default_headers = set_default_headers  # type: ignore[method-assign]


def tolerant_query_reading() -> None:
    """Panel reads a page's address itself (``panel.util.parse_query``, for ``pn.state.location``) and
    turns a value ``str.isdigit`` calls digits into a number with ``int()``, which fails on "²" and on a
    number of more than 4,300 digits: the page's session then failed before it was built (a blank page).
    Here a value it cannot read is kept as the text it was sent as; the pages read their arguments
    themselves (``explorer.web.request.query_arg``) and say what they could not use. Installed by
    ``explorer/pages/serve_setup.py``."""
    from urllib.parse import parse_qsl

    import panel.io.location as location

    read = location.parse_query
    if getattr(read, "tolerant", False):
        return

    def parse_query(query: str) -> dict:
        try:
            return read(query)
        except ValueError:      # (a value int() cannot read: every value as the text it was sent as)
            return dict(parse_qsl(query[1:]))

    parse_query.tolerant = True     # type: ignore[attr-defined]
    location.parse_query = parse_query
