"""A file input that checks a file's size in the browser before reading it.

Panel's ``FileInput`` reads the whole file in the browser and sends it over the websocket; a file
larger than the websocket's message limit closes the connection before the server can say anything.
:class:`JsonFileInput` looks at ``file.size`` first: a file over ``max_bytes`` is reported by name
and size only (``{"too_big": name, "size": size}``); a smaller one is read as text and sent
(``{"name": name, "text": text}``). The server checks again: a message can carry anything.
"""

from __future__ import annotations

from typing import Any, Callable

import panel as pn
import param


class JsonFileInput(pn.custom.JSComponent):
    """``<input type="file">`` whose chosen file lands in ``filename`` and ``value`` (text or bytes).

    The browser sends the same file again when it is chosen again (watch ``value`` with
    ``onlychanged=False`` to load it again). A file over ``max_bytes`` is not read: its
    name and size go to ``on_too_big(name, size)``.
    """

    accept = param.String(default=".json", doc="The file types the browser offers.")
    max_bytes = param.Integer(default=2_000_000, bounds=(0, None), doc="Files larger than this are not read.")
    description = param.String(default="", doc="The tooltip.")
    filename = param.String(default="", doc="The name of the last file read.")
    value = param.Parameter(default=None, doc="The text (or bytes) of the last file read.")

    _esm = """
    export function render({ model, el }) {
      const input = document.createElement("input");
      input.type = "file";
      input.style.width = "100%";
      function attrs() {
        input.accept = model.accept;
        input.title = model.description;
      }
      input.addEventListener("change", async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        input.value = "";                // choosing the same file again is a change again
        if (file.size > model.max_bytes) {
          model.send_msg({ too_big: file.name, size: file.size });
          return;
        }
        const text = await file.text();
        model.send_msg({ name: file.name, text: text });
      });
      model.on("accept", attrs);
      model.on("description", attrs);
      attrs();
      el.appendChild(input);
    }
    """

    def __init__(self, **params):
        super().__init__(**params)
        self.on_too_big: Callable[[str, int], None] | None = None

    def receive(self, name: str, data: str | bytes) -> None:
        """A file's content arrived: set ``filename`` and ``value``."""
        self.param.update(filename=name, value=data)

    def _handle_msg(self, data: Any) -> None:
        if not isinstance(data, dict):
            return
        if "too_big" in data:
            name, size = data.get("too_big"), data.get("size")
            if isinstance(name, str) and type(size) is int and size >= 0 and self.on_too_big is not None:
                self.on_too_big(name, size)
        elif isinstance(data.get("name"), str) and isinstance(data.get("text"), str):
            self.receive(data["name"], data["text"])
