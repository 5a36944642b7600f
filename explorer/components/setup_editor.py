"""The setup editor: write a what-if position by hand; load and save positions and replays.

docs/architecture.md, "Explorer": edit any zone, deck order included, then validate through
``decode``. The position file format is docs/formats.md. The editor knows no game's rules: its
form is generated from the *structure* of the position the session gives for the viewed step
(``GameSession.position()``), one widget per top-level field of ``"state"``, chosen by the
field's JSON type:

=========================  ==========================================================
value in the position      widget
=========================  ==========================================================
``true``/``false``         Checkbox
a whole number             IntInput (emptied = ``null``)
a number                   FloatInput (emptied = ``null``)
a text                     TextInput
``null``                   TextInput: empty = ``null``, else read as JSON (``3``), or
                           kept as text when it is not JSON (``taiga-4``)
a list or an object        TextAreaInput holding compact JSON (one item per line for a
                           list of lists, one key per line for an object)
=========================  ==========================================================

plus the position's ``"variants"`` as JSON. Other top-level keys of the position (``game``,
``version``, a non-standard ``cards`` file...) are carried over unchanged. Whether a position is
*valid* is decided by the rules alone: "Apply" hands the assembled file to
``session.load_position``, whose ``InvalidPosition`` is shown next to the field its ``where``
names (``"state.hands[1][2]"`` -> the hands field; anything else in the general area on top).

Following the session
    While the form holds no edits it follows the session: every new viewed state (a step, a new
    game, a loaded file) refills it. Once the user edits a field it stops following (``edited``
    is True) and only says when the game has moved on; "Load from current step" discards the
    edits, and a successful "Apply" or a loaded file refills it from the session.

Hidden information
    The form shows every card, deck order included. While the session views the game as one seat
    (``viewing_seat`` is not None) the editor hides itself and says so, as every view of a seat
    must show no more than ``observe(state, seat)``.

Nothing here changes the session except through ``load_position`` and ``load``, which change
nothing when they refuse a file.
"""

from __future__ import annotations

import html
import io
import json
import re
import textwrap
from typing import Any, Callable, Mapping

import panel as pn
import param

from explorer.components.file_input import JsonFileInput
from explorer.components.position_form import PositionForm
from explorer.core.i18n import text as say
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.web.shell import heading
from rules.protocol import IllegalAction, InvalidPosition, RulesError, load_json
from rules.rulebook import LANGUAGES

ERROR_STYLE = {"color": "#b00020", "font-size": "0.9em", "white-space": "pre-wrap"}
OK_STYLE = {"color": "#1b6e34", "font-size": "0.9em"}
NOTE_STYLE = {"color": "#5a6878", "font-size": "0.85em"}
JSON_STYLESHEET = stylesheet("components/json_field")
JSON_LINE_WIDTH = 76      # characters per line of a wrapped list in a JSON field
VARIANTS = "position.variants"   # key of the position's variants field (a state may have its own "variants")
#: What the paste box's placeholder shows of each file (JSON, the same in every language).
PASTE_EXAMPLES = {"position": '{"game": "...", "state": {...}}', "replay": '{"game": ..., "actions": [...]}'}


# ---------------------------------------------------------------------------- JSON, readable


#: The largest file or pasted text the editor reads (the longest 5-player replays are under 100 kB).
MAX_FILE_BYTES = 2_000_000
#: What a file's data can raise beyond RulesError when it is not what it claims (an int too large
#: for an index, nesting that exhausts recursion...): said to the reader, never a traceback.
BAD_DATA_ERRORS = (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError, RecursionError)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def to_json_text(value: Any, width: int = JSON_LINE_WIDTH) -> str:
    """JSON for a person to edit: short values on one line, else one item (or key) per line.

    >>> print(to_json_text([["taiga-4", "savanna-3"], ["chaparral-1"]]))
    [
      ["taiga-4", "savanna-3"],
      ["chaparral-1"]
    ]
    >>> print(to_json_text({"1": ["taiga-3"], "2": []}))
    {
      "1": ["taiga-3"],
      "2": []
    }
    """
    if isinstance(value, Mapping) and value:
        lines = [f"  {json.dumps(str(key), ensure_ascii=False)}: {_compact(item)}" for key, item in value.items()]
        return "{\n" + ",\n".join(lines) + "\n}"
    if isinstance(value, list) and any(isinstance(item, (list, Mapping)) for item in value):
        return "[\n" + ",\n".join(f"  {_compact(item)}" for item in value) + "\n]"
    text = _compact(value)
    if isinstance(value, list) and len(text) > width:
        # A long flat list (a deck): items wrapped to lines, in order, so the order stays easy to read.
        items = ", ".join(_compact(item) for item in value)
        lines = textwrap.wrap(items, width=width - 2, break_long_words=False, break_on_hyphens=False)
        return "[\n" + "\n".join(f"  {line}" for line in lines) + "\n]"
    return text


def field_kind(value: Any) -> str:
    """Which widget edits ``value``: bool, int, float, text, nullable or json."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "nullable"
    return "json"


def field_for_where(where: str | None, names: Any) -> str | None:
    """The field an error's ``where`` points at, or None (then the error concerns the whole position).

    ``"state.hands[1][2]"`` -> ``"hands"`` (a field of the state); ``"variants"`` -> ``VARIANTS``.
    """
    if not where:
        return None
    parts = [part for part in re.split(r"[.\[\]]", where) if part]
    if parts and parts[0] == "position":
        parts = parts[1:]
    if len(parts) >= 2 and parts[0] == "state" and parts[1] in names:
        return parts[1]
    if parts and parts[0] == "variants":
        return VARIANTS
    return None


def _label(name: str, lang: str = "en") -> str:
    """A state field's label: ``hands`` -> ``Hands`` in English; in other languages the field's own
    name, as the position file and the rules' messages (``state.hands``) spell it."""
    return name.replace("_", " ").capitalize() if lang == "en" else name


def _json_problem(error: InvalidPosition, text: str, lang: str = "en") -> str:
    """load_json's message, plus what a person can do about the two most common causes."""
    english, problem = error.problem, error.problems.get(lang, error.problem)
    if not text.strip():
        return say("setup.json.empty", lang, problem=problem)
    found = re.search(r"\(char (\d+)\)", english)
    at_end = found is not None and int(found.group(1)) >= len(text.rstrip())
    if _cut_off(text) and (at_end or english.startswith("not valid JSON (Unterminated string")):
        problem = say("setup.json.cut_off", lang, problem=problem)
    return problem


def _cut_off(text: str) -> bool:
    """True if ``text`` ends inside a string or with brackets still open: a file cut short."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
    return in_string or depth > 0


def _reason(error: RulesError, lang: str = "en") -> str:
    """The rules' message: the whole message in English; in ``lang`` elsewhere (an illegal action's
    reason; a malformed file's field and problem)."""
    if lang != "en" and isinstance(error, IllegalAction):
        return error.reason_in(lang)
    if isinstance(error, InvalidPosition):
        return error.problem_in(lang)
    return str(error)


# ---------------------------------------------------------------------------- one field


class Field:
    """One widget of the form, the error shown under it, and how to read its value back."""

    def __init__(self, name: str, kind: str, label: str, on_edit: Callable, where: str | None = None,
                 lang: str = "en"):
        self.name, self.kind, self.lang = name, kind, lang
        self.where = where or f"state.{name}"      # how the rules' messages name the field
        common = dict(label=label, css_classes=["setup-field", f"setup-field-{name}"],
                      margin=(24, 10, 0, 10) if kind == "bool" else (5, 10, 0, 10))
        empty = say("setup.placeholder.null", lang)
        if kind == "bool":
            self.widget = pn.widgets.Checkbox(**common)
        elif kind == "int":
            self.widget = pn.widgets.IntInput(**common, placeholder=empty, width=150)
        elif kind == "float":
            self.widget = pn.widgets.FloatInput(**common, placeholder=empty, width=150)
        elif kind == "nullable":
            self.widget = pn.widgets.TextInput(**common, placeholder=empty, width=150)
        elif kind == "text":
            self.widget = pn.widgets.TextInput(**common, width=150)
        else:
            self.widget = pn.widgets.TextAreaInput(**common, auto_grow=True, rows=1, max_rows=14,
                                                   resizable="height", sizing_mode="stretch_width",
                                                   stylesheets=[JSON_STYLESHEET])
        self.error = pn.pane.HTML("", visible=False, styles=ERROR_STYLE, margin=(2, 10, 4, 10),
                                  css_classes=["field-error", f"field-error-{name}"],
                                  sizing_mode="stretch_width" if kind == "json" else None,
                                  width=None if kind == "json" else 170)
        self.layout = pn.Column(self.widget, self.error, margin=0,
                                sizing_mode="stretch_width" if kind == "json" else None)
        self.widget.param.watch(on_edit, "value")

    def show(self, value: Any) -> None:
        if self.kind == "json":
            self.widget.value = to_json_text(value)
        elif self.kind == "nullable":
            self.widget.value = "" if value is None else (value if isinstance(value, str) else _compact(value))
        else:
            self.widget.value = value

    def read(self) -> Any:
        """The field's value as JSON data; raises InvalidPosition if a JSON field does not parse, or a
        nullable one holds JSON past what Python reads (4,400 digits, 2,500 nested lists)."""
        value = self.widget.value
        if self.kind == "json":
            return self._loaded(value)
        if self.kind == "nullable":
            if not value.strip():
                return None
            try:
                json.loads(value)
            except json.JSONDecodeError:
                return value            # a bare name (``taiga-4``) needs no quotes
            except (ValueError, RecursionError):
                pass        # (past Python's digits or nesting: load_json says which, as for a JSON field)
            return self._loaded(value)
        return value

    def _loaded(self, value: str) -> Any:
        """``value`` read by ``load_json`` (the limits every file has), or InvalidPosition saying, for this
        field, what is wrong and what to do about it."""
        try:
            return load_json(value, what=self.where)
        except InvalidPosition as error:
            raise InvalidPosition(_json_problem(error, value), where=self.where,
                                  problems={lang: _json_problem(error, value, lang) for lang in LANGUAGES}) from None

    def set_error(self, message: str | None) -> None:
        self.error.object = html.escape(message) if message else ""
        self.error.visible = bool(message)


# ---------------------------------------------------------------------------- the editor


class SetupEditor(pn.viewable.Viewer):
    """Edit the viewed position and start a new line from it; download and upload files.

    Python API (what the buttons do): ``load_form()``, ``apply()``, ``load_text(text, source)``,
    ``load_data(data, source)``, ``position_file()``, ``replay_file()``. Widgets: ``fields``
    (state field name -> :class:`Field`), ``variants_field``, ``apply_button``, ``reload_button``,
    ``download_position``, ``download_replay``, ``upload``, ``paste``, ``paste_button``; messages:
    ``general_error``, ``status``, ``files_error``, ``files_status``.
    """

    session = param.ClassSelector(class_=GameSession, constant=True)
    edited = param.Boolean(default=False, doc="The form holds edits not applied yet; it then stops following the session.")
    following = param.Boolean(default=True, doc=(
        "Refill the form on every new viewed state. An app sets it False while the editor is out of sight "
        "(a hidden tab): the form is then refilled once, when it is shown again."))
    form_step = param.Integer(default=0, doc="The session's step the form was last filled from.")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), constant=True,
                          doc="The language of the editor's labels and messages.")

    def __init__(self, session: GameSession, **params):
        super().__init__(session=session, **params)
        self._filling = False          # the form is being filled: value changes are not edits
        self._own_change = False       # this editor is loading into the session: refill afterwards
        self._extra: dict = {}         # top-level keys of the position carried over (game, version, cards...)
        self._stale = False            # edited, and the session has moved on since the form was filled
        self.fields: dict[str, Field] = {}
        self.variants_field = Field("variants", "json", self._t("setup.field.variants"), self._on_edit,
                                    where="variants", lang=self.lang)
        self.form = PositionForm(lang=self.lang, on_edit=self._on_form_edit)
        self._build_widgets()
        self._layout = self._build_layout()
        self.load_form()
        session.param.watch(self._on_session_change, ["state"])
        session.param.watch(self._on_viewing_seat, ["viewing_seat"])
        self._shown_hidden = False      # (whether the form was last filled for a hidden editor)
        self._on_viewing_seat()

    # ------------------------------------------------------------------ widgets and layout
    def _build_widgets(self) -> None:
        self.general_error = pn.pane.HTML("", visible=False, styles=ERROR_STYLE, sizing_mode="stretch_width",
                                          css_classes=["field-error", "setup-general-error"], margin=(0, 10))
        self.status = pn.pane.HTML("", visible=False, styles=OK_STYLE, css_classes=["setup-status"], margin=(0, 10))
        self.form_note = pn.pane.HTML("", styles=NOTE_STYLE, css_classes=["setup-form-note"], margin=(0, 10),
                                      sizing_mode="stretch_width")
        self.apply_button = pn.widgets.Button(label=self._t("setup.apply"), color="primary",
                                              css_classes=["setup-apply"], width=230)
        self.apply_button.on_click(self.apply)
        self.reload_button = pn.widgets.Button(label=self._t("setup.reload"), css_classes=["setup-reload"], width=190,
                                               description=self._t("setup.reload.tip"))
        self.reload_button.on_click(self.load_form)
        self.scalar_box = pn.FlexBox(flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width", margin=0)
        self.json_box = pn.Column(sizing_mode="stretch_width", margin=0)

        self.download_position = pn.widgets.FileDownload(
            callback=self._position_download, filename=self._position_filename(), label=self._t("setup.download.position"),
            css_classes=["download-position"], sizing_mode="stretch_width")
        self.download_replay = pn.widgets.FileDownload(
            callback=self._replay_download, filename=self._replay_filename(), label=self._t("setup.download.replay"),
            css_classes=["download-replay"], sizing_mode="stretch_width")
        # Checks the size in the browser before reading: a file past the websocket's limit would close it.
        self.upload = JsonFileInput(lang=self.lang, accept=".json", max_bytes=MAX_FILE_BYTES, css_classes=["upload-file"],
                                    sizing_mode="stretch_width", description=self._t("setup.upload.tip"))
        self.upload.on_too_big = self._too_big
        # onlychanged=False: uploading the same file again (after playing on) must load it again.
        self.upload.param.watch(self._on_upload, "value", onlychanged=False)
        self.paste = pn.widgets.TextAreaInput(label=self._t("setup.paste.label"), rows=5, max_rows=12,
                                              max_length=MAX_FILE_BYTES,     # (the browser stops a longer paste)
                                              auto_grow=True, resizable="height", sizing_mode="stretch_width",
                                              placeholder=self._t("setup.paste.placeholder", **PASTE_EXAMPLES),
                                              css_classes=["paste-json"], stylesheets=[JSON_STYLESHEET])
        self.paste_button = pn.widgets.Button(label=self._t("setup.paste.button"), css_classes=["load-pasted"], width=160)
        self.paste_button.on_click(self._on_paste)
        self.files_error = pn.pane.HTML("", visible=False, styles=ERROR_STYLE, sizing_mode="stretch_width",
                                        css_classes=["field-error", "files-error"], margin=(0, 10))
        self.files_status = pn.pane.HTML("", visible=False, styles=OK_STYLE, sizing_mode="stretch_width",
                                         css_classes=["files-status"], margin=(0, 10))
        self.hidden_note = pn.pane.Markdown(
            "", visible=False, css_classes=["setup-hidden"], styles=NOTE_STYLE, sizing_mode="stretch_width")

    def __panel__(self):
        return self._layout

    def _t(self, key: str, **values) -> str:
        return say(key, self.lang, **values)

    def _build_layout(self) -> pn.Column:
        # The form for people first; the whole file as JSON fields (every key, and what Apply reads) after.
        self.tabs = pn.Tabs((self._t("setup.tab.form"), self.form),
                            (self._t("setup.tab.json"), pn.Column(self.scalar_box, self.json_box, margin=0,
                                                                  sizing_mode="stretch_width")),
                            dynamic=False, sizing_mode="stretch_width", css_classes=["setup-tabs"])
        form = pn.Column(
            heading(self._t("setup.heading.form"), margin=(0, 10)),
            self.form_note,
            self.general_error,
            self.status,
            pn.FlexBox(self.apply_button, self.reload_button, flex_wrap="wrap", margin=(0, 0, 5, 0)),   # (one under the other on a phone)
            self.tabs,
            styles={"flex": "100 1 520px", "min-width": "0"}, margin=0, css_classes=["setup-form"],
        )
        files = pn.Column(
            heading(self._t("setup.heading.files"), margin=(0, 10)),
            self.download_position, self.download_replay,
            pn.pane.Markdown(self._t("setup.heading.open"), margin=(8, 10, 0, 10)),
            self.upload,
            self.paste, self.paste_button,
            self.files_error, self.files_status,
            styles={"flex": "1 1 280px", "max-width": "400px"}, margin=0, css_classes=["setup-files"],
        )
        # The files column sits right of the form on wide screens and below it on narrow ones.
        self._body = pn.FlexBox(form, files, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")
        return pn.Column(self.hidden_note, self._body, sizing_mode="stretch_width", margin=0,
                         css_classes=["setup-editor"])

    # ------------------------------------------------------------------ the form
    def load_form(self, event=None) -> None:
        """Fill the form from the session's viewed step, discarding edits and errors. While the editor
        hides itself (a seat's view) the form holds nothing: a hidden widget's value still reaches the
        browser, and the position has every card."""
        position = {} if self.hidden else self.session.position()
        state = position.get("state", {})
        self._extra = {key: value for key, value in position.items() if key not in ("state", "variants")}
        # A field whose JSON type changed (null in one phase, a number in the next) gets a new
        # widget; the others are kept, so stepping through a game does not rebuild the form.
        old = self.fields
        fields = {name: old[name] if name in old and old[name].kind == field_kind(value)
                  else Field(name, field_kind(value), _label(name, self.lang), self._on_edit, lang=self.lang)
                  for name, value in state.items()}
        if list(fields.items()) != list(old.items()):
            self.fields = fields
            self.scalar_box.objects = [f.layout for f in self.fields.values() if f.kind != "json"]
            self.json_box.objects = [self.variants_field.layout] + [f.layout for f in self.fields.values() if f.kind == "json"]
        self._filling = True
        try:
            for name, value in state.items():
                self.fields[name].show(value)
            self.variants_field.show(position.get("variants", {}))
        finally:
            self._filling = False
        self.form.load(self.session.spec, position)
        self._clear_errors()
        self.status.visible = False
        self._stale = False
        self.param.update(edited=False, form_step=self.session.cursor)
        self._update_note()

    def assemble(self) -> tuple[dict, dict[str, str]]:
        """The position file the form describes, and the fields whose JSON does not parse."""
        state, problems = {}, {}
        for name, field in self.fields.items():
            try:
                state[name] = field.read()
            except InvalidPosition as error:
                problems[name] = error.problems.get(self.lang, error.problem)
        variants = None
        try:
            variants = self.variants_field.read()
        except InvalidPosition as error:
            problems[VARIANTS] = error.problems.get(self.lang, error.problem)
        return {**self._extra, "variants": variants, "state": state}, problems

    def apply(self, event=None) -> bool:
        """Start a new line from the form's position; on a refusal show why, next to the field, and change nothing."""
        self._clear_errors()
        self.status.visible = False
        data, problems = self.assemble()
        if problems:
            for name, problem in problems.items():
                self._field(name).set_error(f"{self._field(name).where}: {problem}")
            labels = self._t("setup.labels.separator").join(self._field(name).widget.label for name in problems)
            self._set_general(self._t("setup.apply.bad_json", labels=labels))
            return False
        kept = bool(self.session.log)      # the line left is kept under the lines of play
        try:
            self._load_into_session(self.session.load_position, data)
        except RulesError as error:
            self._show_refusal(error)
            return False
        except BAD_DATA_ERRORS as error:
            self._set_general(self._t("setup.apply.unreadable", error_type=type(error).__name__, error=error))
            return False
        self.load_form()
        self._set_status(self._t("setup.apply.done.kept" if kept else "setup.apply.done"))
        return True

    def _show_refusal(self, error: RulesError) -> None:
        where = getattr(error, "where", None)
        name = field_for_where(where, self.fields)
        message = _reason(error, self.lang)
        shown = self.form.show_error(where, message)   # the form's field, by its words ("Player 2's hand")
        if shown is not None:
            if name is not None:                         # (and the JSON tab's, for who edits there)
                self._field(name).set_error(message)
            self._set_general(self._t("setup.refused.field", label=shown))
            return
        if name is None:
            self._set_general(self._t("setup.refused", message=message))
            return
        self._field(name).set_error(message)
        self._set_general(self._t("setup.refused.field", label=self._field(name).widget.label))

    def _field(self, name: str) -> Field:
        return self.variants_field if name == VARIANTS else self.fields[name]

    def _clear_errors(self) -> None:
        for field in (*self.fields.values(), self.variants_field):
            field.set_error(None)
        self.form.clear_errors()
        self.general_error.visible = False

    def _set_general(self, message: str) -> None:
        self.general_error.object = html.escape(message)
        self.general_error.visible = True

    def _set_status(self, message: str) -> None:
        self.status.object = html.escape(message)
        self.status.visible = True

    def _update_note(self) -> None:
        session = self.session
        title = session.spec.title
        if not self.edited:
            text = self._t("setup.note.following", title=title, step=self.form_step)
        else:
            text = self._t("setup.note.edited", title=title, step=self.form_step)
            if self._stale:
                text += self._t("setup.note.stale", step=session.cursor)
        self.form_note.object = html.escape(text)

    def _on_form_edit(self, key: str) -> None:
        """The form changed ``state[key]``: the JSON tab shows the same value (and Apply reads it)."""
        field = self.fields.get(key)
        if field is not None:
            self._filling = True
            try:
                field.show(self.form.draft["state"][key])
            finally:
                self._filling = False
            field.set_error(None)
        self._mark_edited()

    def _on_edit(self, event) -> None:
        if self._filling:
            return
        # A JSON field edited: the form shows its value once it reads (a half-typed list waits).
        name = next((name for name, field in self.fields.items() if field.widget is event.obj), None)
        if name is not None and isinstance(self.form.draft.get("state"), dict):
            try:
                value = self.fields[name].read()
            except InvalidPosition:
                pass
            else:
                self.form.draft["state"][name] = value
                self.form.load(self.session.spec, self.form.draft)     # (a new column, a new seat: new fields)
        self._mark_edited()

    def _mark_edited(self) -> None:
        if not self.edited:
            self._stale = False
            self.edited = True
            self.status.visible = False
            self._update_note()

    # ------------------------------------------------------------------ files
    def position_file(self) -> str:
        """The viewed step as a position file (docs/formats.md: one key per line)."""
        return json.dumps(self.session.position(), indent=1, ensure_ascii=False) + "\n"

    def replay_file(self) -> str:
        """The current line as a replay file."""
        return json.dumps(self.session.replay(), indent=1, ensure_ascii=False) + "\n"

    def _position_filename(self) -> str:
        return f"{self.session.game}-step-{self.session.cursor}.json"

    def _replay_filename(self) -> str:
        return f"{self.session.game}-replay-{len(self.session.log)}-moves.json"

    def _position_download(self) -> io.StringIO:
        # (hidden with the editor in a seat's view, yet a browser can still press it: nothing then)
        self.download_position.filename = self._position_filename()
        return io.StringIO("" if self.hidden else self.position_file())

    def _replay_download(self) -> io.StringIO:
        self.download_replay.filename = self._replay_filename()
        return io.StringIO("" if self.hidden else self.replay_file())

    def load_text(self, text: str | bytes, source: str | None = None) -> bool:
        """Load a replay or a position from JSON text; on any problem say so and change nothing.

        ``source`` names the text in the messages (default: "the pasted text", in the editor's language)."""
        source = self._t("setup.source.the_pasted") if source is None else source
        # (the browser's own limits, max_length and the file input's check, can be passed by a forged message)
        size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            self._files_message(error=self._t("setup.files.too_big", source=source, size=f"{size / 1e6:.1f}",
                                              limit=f"{MAX_FILE_BYTES / 1e6:.0f}"))
            return False
        try:
            data = load_json(text, what=source)
        except InvalidPosition as error:
            decoded = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
            self._files_message(error=self._t("setup.files.unreadable_json", source=source,
                                                     problem=_json_problem(error, decoded, self.lang)))
            return False
        return self.load_data(data, source)

    def load_data(self, data: Any, source: str | None = None) -> bool:
        """Load a replay (it has "actions") or a position (it has "state"); the form then shows it.

        ``source`` names the data in the messages (default: "the file", in the editor's language)."""
        source = self._t("setup.source.file") if source is None else source
        if isinstance(data, Mapping) and "actions" in data:
            kind, load = "replay", self.session.load
        elif isinstance(data, Mapping) and "state" in data:
            kind, load = "position", self.session.load_position
        else:
            self._files_message(error=self._t("setup.files.neither", source=source))
            return False
        message = f"setup.files.loaded.{kind}" + (".kept" if kind == "position" and self.session.log else "")
        session = self.session
        before = (session.spec, session.state, session.log)
        try:
            self._load_into_session(load, data)
        except RulesError as error:
            self._files_message(error=self._t(f"setup.files.refused.{kind}", source=source, error=_reason(error, self.lang)))
            return False
        except BAD_DATA_ERRORS as error:
            # "Nothing changed" only where that holds: a page's part may fail once the game is loaded.
            changed = (session.spec, session.state, session.log) != before
            self._files_message(error=self._t(f"setup.files.{'shown_badly' if changed else 'unreadable'}.{kind}",
                                              source=source, error_type=type(error).__name__, error=error))
            if changed:
                self.load_form()
            return False
        self.load_form()
        self._files_message(status=self._t(message, source=source, title=session.spec.title,
                                           players=session.players, moves=len(session.log)))
        return True

    def _load_into_session(self, load: Callable, data: Any) -> None:
        self._own_change = True
        try:
            load(data)
        finally:
            self._own_change = False

    def _files_message(self, *, error: str | None = None, status: str | None = None) -> None:
        self.files_error.param.update(object=html.escape(error or ""), visible=bool(error))
        self.files_status.param.update(object=html.escape(status or ""), visible=bool(status))

    def _on_upload(self, event) -> None:
        if event.new is None:
            return
        name = self.upload.filename or self._t("setup.source.uploaded")
        data = event.new
        if not isinstance(data, (str, bytes)):   # (only a forged message: the browser sends text)
            data = b""
        size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
        if size > MAX_FILE_BYTES:      # (not parsed: a replay or position is a few kilobytes)
            self._too_big(name, size)
            return
        self.load_text(data, source=name)

    def _too_big(self, name: str, size: int) -> None:
        """Refuse a file over the size limit (the browser reports it unread, by name and size)."""
        self._files_message(error=self._t("setup.files.too_big", source=name or self._t("setup.source.uploaded"),
                                          size=f"{size / 1e6:.1f}", limit=f"{MAX_FILE_BYTES / 1e6:.0f}"))

    def _on_paste(self, event=None) -> None:
        text = self.paste.value or ""
        if len(text) == MAX_FILE_BYTES:
            # The browser stops a paste at the box's max_length: the text that came is cut, and was said
            # to be broken JSON ("the text ends too early") as if the file were (an outside tester).
            self._files_message(error=self._t("setup.paste.cut", limit=f"{MAX_FILE_BYTES:,}",
                                              mb=f"{MAX_FILE_BYTES / 1e6:.0f}"))
            return
        self.load_text(text, source=self._t("setup.source.the_pasted"))

    # ------------------------------------------------------------------ following the session
    def _on_session_change(self, *events) -> None:
        if self._own_change:
            return                      # apply/load refill the form themselves, once the load succeeded
        if self.hidden:
            self._stale = True          # (filled when the editor shows again)
            return
        if self.edited:
            self._stale = True
            self._update_note()
        elif not self.following:
            self._stale = True
        else:
            self.load_form()

    @param.depends("following", watch=True)
    def _on_following(self) -> None:
        if self.following and self._stale and not self.edited:
            self.load_form()

    def _on_viewing_seat(self, *events) -> None:
        seat = self.session.viewing_seat
        hidden = seat is not None
        if hidden:
            self.hidden_note.object = self._t("setup.hidden", player=say("explorer.player", self.lang, n=seat + 1))
        self.hidden_note.visible = hidden
        self._body.visible = not hidden
        if hidden != self._shown_hidden:        # emptied as it hides, filled as it shows
            self._shown_hidden = hidden
            self.load_form()

    @property
    def hidden(self) -> bool:
        """True while the editor hides itself (the session views the game as one seat)."""
        return self.session.viewing_seat is not None
