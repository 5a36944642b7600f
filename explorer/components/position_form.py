"""The what-if position as a person reads it: each zone by its cards' printed names, whose turn and
which round as players count them (the setup editor's "Cards and turn" tab).

The form is drawn from the game's :meth:`~rules.protocol.GameSpec.position_fields`: a
:class:`~explorer.components.card_zone.CardZone` for a zone or a slot of cards, a menu of players for
a seat, a number shown as players count it (round 0 of the file is "Round 1"), a menu of words for a
phase, a checkbox for a flag. It edits a copy of the position (``draft``); every edit is handed to
``on_edit(key)`` with the top-level key of ``"state"`` it changed, so the editor's JSON tab (the
complete file, and what "Apply" reads) shows the same position. The form knows no rule: whether a
position is legal is the rules' answer, shown next to the field it names (:meth:`show_error`).
"""

from __future__ import annotations

import copy
import html
import unicodedata
from typing import Any, Callable, Iterable, Mapping

import panel as pn

from explorer.components.card_zone import CardZone
from explorer.core.i18n import text as say
from explorer.core.stylesheets import stylesheet
from rules import position_fields
from rules.protocol import GameSpec, PositionField

ERROR_STYLE = {"color": "#b00020", "font-size": "0.85em", "white-space": "pre-wrap"}
NOTE_STYLE = {"color": "#5a6878", "font-size": "0.85em"}
WIDGET_CSS = stylesheet("components/position_form")
HEADING_STYLE = {"font-size": "15px", "font-weight": "600", "color": "#22303f"}
#: The menu's value for "nobody"/"none" (a Select shows no option for None): null in the file.
NOTHING = "\u2205"


def in_lang(words: Mapping[str, str] | str | None, lang: str) -> str:
    """``words`` (a text per language, or one text) in ``lang``, English where it is missing."""
    if words is None:
        return ""
    if isinstance(words, str):
        return words
    return words.get(lang) or words.get("en") or next(iter(words.values()), "")


def at_path(state: Any, path: tuple) -> tuple[bool, Any]:
    """(found, value) of ``path`` in ``state``."""
    for key in path:
        if isinstance(state, Mapping) and key in state:
            state = state[key]
        elif isinstance(state, list) and type(key) is int and 0 <= key < len(state):
            state = state[key]
        else:
            return False, None
    return True, state


def names_field(field: PositionField, where: str | None) -> bool:
    """Whether the rules' ``where`` (``"state.hands[1][2]"``) points into ``field``."""
    if not where:
        return False
    where = where.removeprefix("position.")
    return where == field.where or where.startswith(field.where + "[") or where.startswith(field.where + ".")


def slug(field: PositionField) -> str:
    """A class name for the field: ``("hands", 1)`` -> ``hands-1``, ``("clouds", "3")`` -> ``clouds-3``."""
    return "-".join(str(key) for key in field.path).replace("_", "-")


def _select_width(labels: Iterable[str]) -> int:
    """A menu wide enough for its longest choice, from 200 to 360 pixels (a phone's width but for the
    margins): a full-width character (Japanese) counts twice. (At 200 px, Biome Blitz's phase in
    Japanese, オプションアクションとメインアクション, was cut after メイン.)"""
    units = max((sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in label) for label in labels), default=0)
    return min(360, max(200, 8 * units + 48))


class FieldWidget:
    """One field's widget, its error line, and how to show and read the file's value."""

    def __init__(self, field: PositionField, lang: str, players: int, labels: dict[str, str],
                 on_edit: Callable[["FieldWidget", Any], None]):
        self.field, self.lang, self._on_edit = field, lang, on_edit
        self._filling = False
        label = in_lang(field.label, lang)
        classes = ["position-field", f"position-field-{field.kind}", f"position-{slug(field)}"]
        style = dict(css_classes=classes, stylesheets=[WIDGET_CSS])
        self.error = pn.pane.HTML("", visible=False, styles=ERROR_STYLE, margin=(0, 10, 4, 10),
                                  css_classes=["position-field-error"])
        if field.kind in ("cards", "card"):
            texts = {key: say(f"setup.zone.{key}", lang) for key in ("add", "remove", "up", "down", "empty", "none", "count", "count_one")}
            self.widget = CardZone(choices=list(field.cards), labels={card: labels[card] for card in field.cards},
                                   ordered=field.ordered, single=field.kind == "card", title=label,
                                   note=in_lang(field.note, lang), texts=texts, css_classes=classes,
                                   sizing_mode="stretch_width", margin=(4, 10))
            self.widget.on_edit = lambda cards: self._edited(
                cards if field.kind == "cards" else (cards[0] if cards else None))
            self.layout = self.widget       # (its error is drawn inside the zone)
            return
        if field.kind == "seat":
            options = {say("explorer.player", lang, n=seat + 1): seat for seat in range(players)}
            if field.optional:
                options = {say("setup.form.nobody", lang): NOTHING, **options}
            self.widget = pn.widgets.Select(label=label, options=options, width=_select_width(options), **style)
        elif field.kind == "choice":
            options = {in_lang(words, lang) if field.choice_labels else str(value): value
                       for value, words in zip(field.choices, field.choice_labels or field.choices)}
            if field.optional:
                options = {say("setup.form.none", lang): NOTHING, **options}
            self.widget = pn.widgets.Select(label=label, options=options, width=_select_width(options), **style)
        elif field.kind == "number":
            low = None if field.low is None else field.low + field.shown_from
            high = None if field.high is None else field.high + field.shown_from
            self.widget = pn.widgets.IntInput(label=label, start=low, end=high, width=200, **style,
                                              placeholder=say("setup.form.none", lang) if field.optional else "")
        else:
            self.widget = pn.widgets.Checkbox(label=label, margin=(22, 10, 0, 10), **style)
        self.widget.param.watch(self._on_widget, "value")
        note = in_lang(field.note, lang)
        parts = [self.widget] + ([pn.pane.HTML(html.escape(note), styles=NOTE_STYLE, margin=(0, 10))] if note else [])
        self.layout = pn.Column(*parts, self.error, margin=0)

    def show(self, value: Any) -> None:
        """Show the file's ``value`` (not an edit)."""
        field = self.field
        self._filling = True
        try:
            if field.kind == "cards":
                self.widget.value = [card for card in value if isinstance(card, str)] if isinstance(value, list) else []
            elif field.kind == "card":
                self.widget.value = [value] if isinstance(value, str) else []
            elif field.kind == "number":
                self.widget.value = value + field.shown_from if type(value) is int else None
            elif field.kind in ("seat", "choice"):
                value = NOTHING if value is None and field.optional else value
                options = self.widget.options
                if value not in options.values():          # (a hand-written value the menu does not hold)
                    self.widget.options = {**options, str(value): value}
                self.widget.value = value
            else:
                self.widget.value = bool(value)
        finally:
            self._filling = False

    def _on_widget(self, event) -> None:
        if self._filling:
            return
        value = None if event.new is NOTHING or event.new == NOTHING else event.new
        if self.field.kind == "number" and value is not None:
            value = value - self.field.shown_from
        self._edited(value)

    def _edited(self, value: Any) -> None:
        if not self._filling:
            self._on_edit(self, value)

    def set_error(self, message: str | None) -> None:
        if isinstance(self.widget, CardZone):
            self.widget.error = message or ""
        else:
            self.error.object = html.escape(message) if message else ""
            self.error.visible = bool(message)


class PositionForm(pn.viewable.Viewer):
    """The form of a position (see the module docstring). ``load(spec, position)`` fills it;
    ``draft`` is the position it shows, with the person's edits."""

    def __init__(self, lang: str = "en", on_edit: Callable[[str], None] | None = None, **params):
        super().__init__(**params)
        self.lang = lang
        self.on_edit = on_edit
        self.draft: dict = {}
        self.widgets: list[FieldWidget] = []
        self._shape: tuple = ()
        self.intro = pn.pane.HTML(html.escape(say("setup.form.intro", lang)), styles=NOTE_STYLE,
                                  sizing_mode="stretch_width", margin=(0, 10, 6, 10), css_classes=["position-form-intro"])
        self.groups = pn.FlexBox(flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width", margin=0)
        self._layout = pn.Column(self.intro, self.groups, sizing_mode="stretch_width", margin=0,
                                 css_classes=["position-form"])

    def __panel__(self):
        return self._layout

    def load(self, spec: GameSpec, position: Mapping) -> None:
        """Show ``position`` (as ``spec.encode`` writes it); the widgets are rebuilt only when its
        shape (the fields, the players, the cards offered) differs from the one shown."""
        self.draft = copy.deepcopy(dict(position))
        fields = spec.position_fields(self.draft)
        seated = position_fields.seated(spec, self.draft)          # (None: no field to show)
        state, players = (seated[0], seated[2]) if seated else ({}, 0)
        # (the cards' names are part of the shape: a position with its own card file names them its way)
        labels = {card: in_lang(spec.card_label(card), self.lang) for field in fields for card in field.cards}
        shape = (spec.id, players, tuple((f.path, f.kind, f.cards, f.choices, f.optional) for f in fields),
                 tuple(labels.items()))
        if shape != self._shape:
            self._build(fields, players, labels)
            self._shape = shape
        for widget in self.widgets:
            found, value = at_path(state, widget.field.path)
            widget.show(value if found else None)
        self.clear_errors()

    def _build(self, fields: tuple[PositionField, ...], players: int, labels: dict[str, str]) -> None:
        self.widgets = [FieldWidget(field, self.lang, players, labels, self._edited) for field in fields]
        groups: dict[str, list[FieldWidget]] = {}
        for widget in self.widgets:
            groups.setdefault(in_lang(widget.field.group, self.lang), []).append(widget)
        columns = []
        for title, members in groups.items():
            small = [w.layout for w in members if w.field.kind not in ("cards", "card")]
            zones = [w.layout for w in members if w.field.kind in ("cards", "card")]
            parts = [pn.pane.HTML(html.escape(title), styles=HEADING_STYLE, margin=(4, 10), css_classes=["position-group-title"])]
            if small:
                parts.append(pn.FlexBox(*small, flex_wrap="wrap", sizing_mode="stretch_width", margin=0))
            parts.extend(zones)
            columns.append(pn.Column(*parts, margin=(0, 0, 10, 0), css_classes=["position-group"],
                                     styles={"flex": "1 1 360px", "min-width": "0"}))
        self.groups.objects = columns

    def _edited(self, widget: FieldWidget, value: Any) -> None:
        path = widget.field.path
        found, holder = at_path(self.draft.get("state", {}), path[:-1])
        if not found:
            return
        holder[path[-1]] = value
        widget.set_error(None)
        if self.on_edit is not None:
            self.on_edit(path[0])

    # ------------------------------------------------------------------ the rules' answer
    def show_error(self, where: str | None, message: str) -> str | None:
        """Show ``message`` at the field ``where`` points into and return that field's label; None if
        no field holds it (the editor then says it above the form)."""
        for widget in self.widgets:
            if names_field(widget.field, where):
                widget.set_error(message)
                return in_lang(widget.field.label, self.lang)
        return None

    def clear_errors(self) -> None:
        for widget in self.widgets:
            widget.set_error(None)
