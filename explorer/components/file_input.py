"""A file input that checks a file's size in the browser before reading it.

Panel's ``FileInput`` reads the whole file in the browser and sends it over the websocket; a file
larger than the websocket's message limit closes the connection before the server can say anything.
:class:`JsonFileInput` looks at ``file.size`` first: a file over ``max_bytes`` is reported by name
and size only (``{"too_big": name, "size": size}``); a smaller one is read as text (UTF-8, or UTF-16
after its byte order mark) and sent (``{"name": name, "text": text}``), or, when it is not text in that
encoding, as its bytes (``{"name": name, "base64": ...}``: the server's reader says what is wrong). The
server checks again: a message can carry anything.

The control is one button in the page's language (the browser's own file control, hidden, would say
"Choose File" on a Japanese page). It names no file: what a page works from is its owner's to say
(a name shown here would stay after the page went back to another file). What a file holds and its
name live on the server only: they are never sent back to the browser, and a browser cannot set them
but by the one message the server checks.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, Callable

import panel as pn
import param

from explorer.core.i18n import DEFAULT, text
from explorer.core.stylesheets import stylesheet


class JsonFileInput(pn.custom.JSComponent):
    """A button that opens the browser's file chooser; the chosen file lands in ``filename`` and
    ``value`` (its text) on the server.

    The browser sends the same file again when it is chosen again (watch ``value`` with
    ``onlychanged=False`` to load it again). A file over ``max_bytes`` is not read: its
    name and size go to ``on_too_big(name, size)``. Of two files chosen in quick succession, only the
    later one is sent (a large file read first would otherwise arrive after it).
    """

    accept = param.String(default=".json", doc="The file types the browser offers.")
    max_bytes = param.Integer(default=2_000_000, bounds=(0, None), doc="Files larger than this are not read.")
    description = param.String(default="", doc="The tooltip.")
    choose_text = param.String(default="", doc="The button's words (``file.choose`` in the page's language).")
    filename = param.String(default="", precedence=-1, doc="The name of the last file read (server only).")
    value = param.Parameter(default=None, precedence=-1, doc="The text (or bytes) of the last file read (server only).")

    _esm = """
    export function render({ model, el }) {
      const input = document.createElement("input");
      input.type = "file";
      input.hidden = true;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "file-choose";
      let chosen = 0;                    // the latest choice: an earlier one still being read is dropped
      function attrs() {
        input.accept = model.accept;
        button.textContent = model.choose_text;
        button.title = model.description;
      }
      button.addEventListener("click", () => input.click());
      input.addEventListener("change", async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        input.value = "";                // choosing the same file again is a change again
        const choice = ++chosen;
        if (file.size > model.max_bytes) {
          model.send_msg({ too_big: file.name, size: file.size });
          return;
        }
        let bytes;
        try {
          bytes = new Uint8Array(await file.arrayBuffer());
        } catch (error) {                // (gone or unreadable since it was chosen: nothing is sent)
          console.warn("file not read:", file.name, error);
          return;
        }
        // UTF-8, or UTF-16 when the file begins with its byte order mark (as Windows' Notepad saves);
        // the mark itself is dropped. (Chromium's file.text() sniffs the mark too; the File API's
        // text() is UTF-8 only, so other browsers would read such a file as noise.) A file that is not
        // text in its encoding goes as it is (base64), for the server to say so: decoded here, its
        // unreadable bytes became U+FFFD without a word ("Thömson" in Latin-1 loaded as "Th\uFFFDmson").
        const encoding = bytes[0] === 0xFF && bytes[1] === 0xFE ? "utf-16le"
          : bytes[0] === 0xFE && bytes[1] === 0xFF ? "utf-16be" : "utf-8";
        let message;
        try {
          message = { name: file.name, text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
        } catch (error) {
          let binary = "";
          for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          message = { name: file.name, base64: btoa(binary) };
        }
        if (choice === chosen) model.send_msg(message);
      });
      for (const name of ["accept", "description", "choose_text"]) model.on(name, attrs);
      attrs();
      el.append(button, input);
    }
    """
    _stylesheets = [stylesheet("components/file_input")]
    # Not synced with the browser at all: ``precedence=-1`` keeps them out of the browser's model, this
    # out of what the server sends when they change.
    _rename = {"filename": None, "value": None}

    def __init__(self, lang: str = DEFAULT, **params):
        params.setdefault("choose_text", text("file.choose", lang))
        params.setdefault("margin", (5, 10))        # (as Panel's widgets beside it)
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
        elif isinstance(data.get("name"), str) and isinstance(data.get("base64"), str):
            # (a file that is not text: its bytes, for the reader to refuse by name; a forged message may
            # hold anything, so what is not base64 of at most max_bytes is dropped)
            if len(data["base64"]) > (self.max_bytes + 2) // 3 * 4:
                return
            try:
                content = base64.b64decode(data["base64"], validate=True)
            except (binascii.Error, ValueError):
                return
            self.receive(data["name"], content)
