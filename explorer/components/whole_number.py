"""A whole-number box whose numbers reach the browser without Bokeh's "out of range integer" warning.

Bokeh sends a Python int to the browser as a JSON number only when it is above -(2**53 - 1) and at
most 2**53 - 1 (``bokeh.core.serialization.Serializer._encode_int``); any other int goes as a float,
and the server's log gets the warning "out of range integer may result in loss of precision". Its
lower test is strict, though JavaScript holds -(2**53 - 1) exactly, so a seed box bounded as a
position's seeds are (``rules.fields.SEED_LIMIT``: -(2**53 - 1) to 2**53 - 1) put that warning in the
log at every page that showed one, and again for a seed of -(2**53 - 1) (an outside tester's address).
"""

from __future__ import annotations

from typing import Any

import panel as pn

#: The whole numbers a float holds exactly (and JavaScript's numbers): up to 2**53 either way.
EXACT = 2**53


def browser_number(value: Any) -> Any:
    """``value`` as the box sends it to the browser: a whole number Bokeh would send as a float with a
    warning, and that a float holds exactly, as that float (the same number in the browser); any other
    value as it is."""
    if type(value) is int and -EXACT <= value <= EXACT and not -(2**53 - 1) < value <= 2**53 - 1:
        return float(value)
    return value


class WholeNumberInput(pn.widgets.IntInput):
    """``IntInput`` whose value and bounds reach the browser as the same numbers without Bokeh's warning
    (:func:`browser_number`). The widget's parameters keep their ints."""

    def _process_param_change(self, params: dict[str, Any]) -> dict[str, Any]:
        params = super()._process_param_change(params)      # (start and end go as the model's low and high)
        for name in ("value", "low", "high"):
            if name in params:
                params[name] = browser_number(params[name])
        return params
