"""A whole-number box whose bounds reach the browser as whole numbers.

Bokeh sends a Python int to the browser as a JSON number only when it is above -(2**53 - 1) and at
most 2**53 - 1 (``bokeh.core.serialization.Serializer._encode_int``); any other int goes as a float,
and the server's log gets the warning "out of range integer may result in loss of precision". Its
lower test is strict, though JavaScript holds -(2**53 - 1) exactly, so a seed box bounded as a
position's seeds are (``rules.fields.SEED_LIMIT``: -(2**53 - 1) to 2**53 - 1) put that warning in the
log at every page that showed one.
"""

from __future__ import annotations

from typing import Any

import panel as pn

#: The lowest and the highest whole number Bokeh sends to a browser as one.
BROWSER_LOW = -(2**53 - 2)
BROWSER_HIGH = 2**53 - 1


class WholeNumberInput(pn.widgets.IntInput):
    """``IntInput`` whose bounds are sent to the browser within Bokeh's whole numbers (``BROWSER_LOW``
    to ``BROWSER_HIGH``). Only what the browser's box lets one type is narrowed: the widget's own
    ``start`` and ``end``, and the parameter behind a widget made ``from_param``, keep theirs (a seed of
    -(2**53 - 1) from a position file is still one the server takes)."""

    def _process_param_change(self, params: dict[str, Any]) -> dict[str, Any]:
        params = super()._process_param_change(params)      # (start and end go as the model's low and high)
        if params.get("low") is not None:
            params["low"] = max(params["low"], BROWSER_LOW)
        if params.get("high") is not None:
            params["high"] = min(params["high"], BROWSER_HIGH)
        return params
