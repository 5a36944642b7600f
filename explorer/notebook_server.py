"""The notebooks' Jupyter server extension: Panel's resources from this machine, never from a CDN.

In a notebook, Panel and Bokeh load their JavaScript and stylesheets from public CDNs by default
(``cdn.bokeh.org``, ``cdn.holoviz.org``): on a school network or a LAN without internet every Panel
output stayed empty. Loaded into the Jupyter server (``make notebook`` does it:
``--ServerApp.jpserver_extensions``), this extension

- serves Panel's ``dist`` folder (stylesheets, themes, the ES-module shim) under the server's own
  address, ``<base_url>rules-explorer/panel/<version>/dist/``, and points Panel's CDN root there
  (``PANEL_CDN_ROOT``): every address Panel would give the browser for its files is this server's;
- asks for Bokeh's and Panel's JavaScript inline (``PANEL_INLINE``): ``pn.extension()`` puts it in the
  notebook's output instead of a ``<script src>`` to a CDN.

Both are environment variables that Panel reads when it is imported, so they are set in the server's
process before any kernel starts: kernels inherit them. A variable already set is left as it is.

The address is the server's own full one (``connection_url``, e.g. ``http://127.0.0.1:8888/``): Panel
turns an address that starts with the kernel's base path into one relative to the page, which in
JupyterLab is the notebook's (``/lab/tree/...``), not the server's root. A browser on another machine
must therefore reach the server by the name it was started with (``--ip``).
"""

from __future__ import annotations

import os
from typing import Any

#: Where the extension serves Panel's files, under the Jupyter server's base URL.
ROUTE = "rules-explorer/panel/"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "explorer.notebook_server"}]


def panel_dist() -> tuple[str, str]:
    """(Panel's JavaScript version as its CDN spells it, the folder its CDN's ``dist`` mirrors)."""
    from panel.io.resources import DIST_DIR, JS_VERSION

    return JS_VERSION, str(DIST_DIR)


def _load_jupyter_server_extension(server_app: Any) -> None:
    from jupyter_server.utils import url_path_join
    from tornado.web import StaticFileHandler

    version, folder = panel_dist()
    base_url = server_app.web_app.settings["base_url"]
    route = url_path_join(base_url, ROUTE, version, "dist", "(.*)")
    server_app.web_app.add_handlers(".*$", [(route, StaticFileHandler, {"path": folder})])
    os.environ.setdefault("PANEL_CDN_ROOT", url_path_join(server_app.connection_url, ROUTE))
    os.environ.setdefault("PANEL_INLINE", "true")
    server_app.log.info("rules-explorer: Panel's resources served at %s (no CDN)", url_path_join(base_url, ROUTE))


# (the name older Jupyter servers look for)
load_jupyter_server_extension = _load_jupyter_server_extension
