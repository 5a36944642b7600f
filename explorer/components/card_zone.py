"""A zone of cards a person edits: a hand, a deck, a row, one slot.

:class:`CardZone` shows the zone's cards by their printed names, each with a button to take it out
and, where the order is part of the game (a deck: its first card is drawn next), arrows to move it and
drag-and-drop; below, a menu of the cards that may go there and "Add". A slot (``single``) is one
menu: a card or nothing.

Everything it draws comes from ``labels`` and ``texts`` and is set as text (``textContent``), never
as HTML: a card file's names cannot carry markup into the page. What the browser sends back is a
new list of card ids; the server keeps it only if every id is one of ``choices`` (a forged message
with anything else, or more than :data:`MAX_CARDS` cards, changes nothing).
"""

from __future__ import annotations

from typing import Any, Callable

import panel as pn
import param

from explorer.core.stylesheets import stylesheet

#: The most cards a zone may hold (the longest deck holds 120): a longer list from the page is refused.
MAX_CARDS = 400


class CardZone(pn.custom.JSComponent):
    """One zone of cards (see the module docstring). ``value``: the card ids, in order."""

    value = param.List(default=[], item_type=str, doc="The zone's cards (ids), first first.")
    choices = param.List(default=[], item_type=str, doc="The card ids that may go here, in the order offered.")
    labels = param.Dict(default={}, doc="Each card id's printed name in the page's language.")
    ordered = param.Boolean(default=False, doc="The order is part of the game: arrows and drag-and-drop.")
    single = param.Boolean(default=False, doc="One card or none (a slot): a menu.")
    title = param.String(default="", doc="What the zone is (\"Player 2's hand\").")
    note = param.String(default="", doc="How to read it (\"top first\").")
    error = param.String(default="", doc="What the rules said is wrong here (shown under the zone).")
    texts = param.Dict(default={}, doc="The widget's words: add, remove, up, down, empty, none, count.")

    _esm = """
    function make(tag, cls, text) {
      const node = document.createElement(tag);
      if (cls) node.className = cls;
      if (text !== undefined) node.textContent = text;
      return node;
    }

    export function render({ model, el }) {
      const root = make("div", "zone");
      el.appendChild(root);
      let dragged = null;

      function send(cards) { model.send_msg({ value: cards }); }
      function name(id) { return (model.labels && model.labels[id]) || id; }
      function word(key, fallback) { return (model.texts && model.texts[key]) || fallback; }

      function draw() {
        root.replaceChildren();
        const cards = model.value.slice();
        const head = make("div", "zone-head");
        head.appendChild(make("span", "zone-title", model.title));
        if (!model.single) {
          const count = cards.length === 1 ? word("count_one", "{n} card") : word("count", "{n} cards");
          head.appendChild(make("span", "zone-count", count.replace("{n}", cards.length)));
        }
        root.appendChild(head);
        if (model.note) root.appendChild(make("div", "zone-note", model.note));
        if (model.single) {
          const menu = make("select", "zone-slot");
          menu.setAttribute("aria-label", model.title);
          const none = make("option", "", word("none", "(empty)"));
          none.value = "";
          menu.appendChild(none);
          for (const id of model.choices) {
            const option = make("option", "", name(id));
            option.value = id;
            menu.appendChild(option);
          }
          menu.value = cards.length ? cards[0] : "";
          menu.addEventListener("change", () => send(menu.value ? [menu.value] : []));
          root.appendChild(menu);
        } else {
          const list = make("ol", model.ordered ? "zone-cards ordered" : "zone-cards");
          if (!cards.length) list.appendChild(make("li", "zone-empty", word("empty", "no cards")));
          cards.forEach((id, at) => {
            const item = make("li", "zone-card");
            item.dataset.card = id;
            item.appendChild(make("span", "zone-card-name", name(id)));
            if (model.ordered) {
              item.draggable = true;
              item.addEventListener("dragstart", (event) => { dragged = at; event.dataTransfer.effectAllowed = "move"; });
              item.addEventListener("dragover", (event) => { event.preventDefault(); item.classList.add("over"); });
              item.addEventListener("dragleave", () => item.classList.remove("over"));
              item.addEventListener("drop", (event) => {
                event.preventDefault();
                if (dragged === null || dragged === at) return;
                const moved = cards.slice();
                const [card] = moved.splice(dragged, 1);
                moved.splice(at, 0, card);
                dragged = null;
                send(moved);
              });
              const up = make("button", "zone-up", "↑");
              up.title = up.ariaLabel = word("up", "move up") + ": " + name(id);
              up.disabled = at === 0;
              up.addEventListener("click", () => { const moved = cards.slice(); [moved[at - 1], moved[at]] = [moved[at], moved[at - 1]]; send(moved); });
              const down = make("button", "zone-down", "↓");
              down.title = down.ariaLabel = word("down", "move down") + ": " + name(id);
              down.disabled = at === cards.length - 1;
              down.addEventListener("click", () => { const moved = cards.slice(); [moved[at], moved[at + 1]] = [moved[at + 1], moved[at]]; send(moved); });
              item.append(up, down);
            }
            const out = make("button", "zone-remove", "✕");
            out.title = out.ariaLabel = word("remove", "take out") + ": " + name(id);
            out.addEventListener("click", () => { const kept = cards.slice(); kept.splice(at, 1); send(kept); });
            item.appendChild(out);
            list.appendChild(item);
          });
          root.appendChild(list);
          const add = make("div", "zone-add");
          const menu = make("select", "zone-choice");
          menu.setAttribute("aria-label", word("add", "add") + ": " + model.title);
          for (const id of model.choices) {
            const option = make("option", "", name(id));
            option.value = id;
            menu.appendChild(option);
          }
          const button = make("button", "zone-add-button", word("add", "add"));
          button.addEventListener("click", () => { if (menu.value) send(cards.concat([menu.value])); });
          add.append(menu, button);
          root.appendChild(add);
        }
        if (model.error) root.appendChild(make("div", "zone-error", model.error));
      }
      for (const name of ["value", "choices", "labels", "ordered", "single", "title", "note", "error", "texts"])
        model.on(name, draw);
      draw();
    }
    """

    _stylesheets = [stylesheet("components/card_zone")]

    def __init__(self, **params):
        super().__init__(**params)
        self.on_edit: Callable[[list[str]], None] | None = None

    def edit(self, cards: Any) -> bool:
        """The zone as the person left it: kept (and ``on_edit`` told) only if it is a list of at most
        :data:`MAX_CARDS` ids of ``choices`` (one at most in a slot); otherwise nothing changes."""
        allowed = set(self.choices)
        if (not isinstance(cards, list) or len(cards) > (1 if self.single else MAX_CARDS)
                or not all(isinstance(card, str) and card in allowed for card in cards)):
            return False
        self.value = list(cards)
        if self.on_edit is not None:
            self.on_edit(list(cards))
        return True

    def _handle_msg(self, data: Any) -> None:
        if isinstance(data, dict) and "value" in data:
            self.edit(data["value"])
