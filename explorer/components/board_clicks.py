"""Play by clicking the table: a click on a card, a cloud, a slot or a planet of the board chooses a move.

The boards mark what a move can touch with ``data-*`` attributes (``data-card="savanna-3"``,
``data-cloud="4"``, ``data-slot="top-2"``, ``data-planet="PC"``, ``data-kind="forage forage_pick"``: the
kinds of move a place is for...). :class:`BoardClicks` sends the server the attributes of the element
clicked (of the place around it, if that place is marked ``data-whole``: a market slot, not its card);
:func:`matching` finds, among the moves the picker offers (only those: a click can choose nothing a
button could not), the moves whose fields hold those values; the picker selects one and the board
previews it, to be confirmed as a button's choice is.

- A thing that several moves touch (a cloud taken into the hand or into the journal) selects them in
  turn, one more per click.
- A click that names nothing a move touches alone adds to the click before it: a card, then the slot it
  goes to (Stellar's telescope), selects the move that has both.

The move list stays, for keyboards and screen readers; the board is a second way to choose.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import panel as pn
import param

#: The ``data-*`` attributes a click reports, and the fields of a move's JSON each may name.
FIELDS: dict[str, tuple[str, ...]] = {
    "card": ("card", "cards", "telescope", "notebook", "attacker", "defender", "first", "second", "animal",
             "symbol", "ecosystem"),
    "cloud": ("cloud",),
    "slot": ("slot",),
    "planet": ("planet",),
    "deck": ("deck",),
    "seat": ("seat",),
    "kind": ("type",),        # the kinds of move a place is for, space-separated ("forage forage_pick")
}
#: The longest value a click may report (a forged message with more is ignored).
MAX_VALUE = 80


def clicked_values(data: Any) -> dict[str, str]:
    """The attributes of a click message, as sent by the page (``{"attrs": {name: value}}``): only the
    names of ``FIELDS`` with short text values; anything else (a forged message) gives ``{}``."""
    attrs = data.get("attrs") if isinstance(data, Mapping) else None
    if not isinstance(attrs, Mapping):
        return {}
    return {name: value for name, value in attrs.items()
            if name in FIELDS and isinstance(value, str) and 0 < len(value) <= MAX_VALUE}


def _holds(encoded: Mapping, name: str, value: str) -> bool:
    """Whether a move's JSON names ``value`` in one of the fields ``name`` stands for (``kind``: one of
    the space-separated move kinds is the move's ``type``)."""
    if name == "kind":
        return encoded.get("type") in value.split()
    for field in FIELDS[name]:
        held = encoded.get(field)
        if isinstance(held, (list, tuple)):
            if any(str(item) == value for item in held):
                return True
        elif held is not None and not isinstance(held, bool) and str(held) == value:
            return True
    return False


def matching(offers: Sequence[tuple[int, Any]], encode, clicked: Mapping[str, str],
             before: Mapping[str, str] | None = None) -> list[tuple[int, Any]]:
    """The offered ``(seat, action)`` pairs a click on an element with the attributes ``clicked`` chooses:
    those that hold every clicked value and, where some also hold the click ``before``'s (a card, then
    its slot), those only."""
    def holds_all(pairs, values):
        return [(seat, action) for seat, action in pairs
                if values and all(_holds(encode(action), name, value) for name, value in values.items())]

    found = holds_all(offers, clicked)
    if before and set(before) != set(clicked):
        both = holds_all(found, before)
        if both:
            return both
    return found


class BoardClicks(pn.custom.JSComponent):
    """Reports clicks on the board's marked elements (``data-card``, ``data-cloud``...) to ``on_click``.

    One per page: it listens on the document for clicks whose path crosses a board (an element with
    the class ``board``, the boards' pane), and sends the nearest marked element's attributes."""

    on_click = param.Callable(default=None, precedence=-1, doc="Called on the server with the clicked attributes.")

    _rename = {"on_click": None}      # (stays on the server)

    _esm = """
    const NAMES = NAMES_FROM_SERVER;

    export function render({ model, el }) {
      el.style.display = "none";
      const onClick = (event) => {
        const path = event.composedPath();
        if (!path.some((node) => node instanceof HTMLElement && node.classList.contains("board"))) return;
        // A place clicked as a whole (a market slot: data-whole) reports itself, not the card lying in it.
        const whole = path.find((node) => node instanceof HTMLElement && node.hasAttribute("data-whole"));
        for (const node of whole ? [whole] : path) {
          if (!(node instanceof HTMLElement)) continue;
          if (node.closest && node.closest("button, a, input, select, textarea")) return;
          const attrs = {};
          for (const name of NAMES) {
            const value = node.getAttribute("data-" + name);
            if (value !== null && value !== "") attrs[name] = value;
          }
          if (Object.keys(attrs).length) { model.send_msg({ attrs }); return; }
          if (node.classList.contains("board")) return;
        }
      };
      document.addEventListener("click", onClick, true);
      model.on("remove", () => document.removeEventListener("click", onClick, true));
    }
    """.replace("NAMES_FROM_SERVER", json.dumps(list(FIELDS)))      # (the names of FIELDS, one list for both sides)

    def _handle_msg(self, data: Any) -> None:
        clicked = clicked_values(data)
        if clicked and self.on_click is not None:
            self.on_click(clicked)
