"""The routes of the web app and how they are served: ``rules-explorer serve`` and ``make serve`` (which
calls it) run ``panel serve`` on the same apps with the same options.

Each route ``/<name>`` is the directory app ``apps/<name>/main.py`` (a folder, so that no file named
``explorer.py`` or ``rules.py`` shadows the packages on ``sys.path`` while Panel runs it); ``/`` shows
the home page (``--index``). ``explorer/pages/serve_setup.py`` runs once as the server starts.
"""

from __future__ import annotations

import sys
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
