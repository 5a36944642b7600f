"""The page's address kept in step with what the page shows, without adding to the browser's history.

Panel's ``Location`` pushes a history entry at every change of its query: a tutorial read step by step
filled the history with one entry per step, and Back then changed the address to the step before while
the page stayed where it was (a reload then opened another step than the one read). :class:`Address`
puts ``search`` in place of the address's query with ``history.replaceState``: a reload or a bookmark
opens what the page shows, and Back leaves the page.
"""

from __future__ import annotations

import panel as pn
import param

from explorer.core.stylesheets import stylesheet
from explorer.web.request import REPLACE_ADDRESS_JS


class Address(pn.custom.JSComponent):
    """Shows nothing; its ``search`` (``"?game=subastral&step=3"``, or "" to leave the address as it is)
    is the page's address query, replaced in place whenever it changes."""

    search = param.String(default="", doc="The address's query, with its '?' ('' leaves the address alone).")

    _esm = f"""
    export function render({{ model }}) {{
      function put() {{
        const search = model.search;
        if (search) {REPLACE_ADDRESS_JS};
      }}
      model.on("search", put);
      put();
    }}
    """
    _stylesheets = [stylesheet("components/address")]

    def __init__(self, **params):
        params.setdefault("margin", 0)
        super().__init__(**params)
