"""A playtest table's creator page: ``/tables?table=ID&creator=KEY`` (the creator link, shown once
when the table is made; only its SHA-256 is stored, like the seats' keys).

The creator can end the table before its game is over (no more moves; its bots stop; its deal and
replay become public, as for a finished game) and give a person's seat a new link, after which the
old link stops working (a link that was passed on too far). The page shows no hand: the creator
plays, if at all, from their own seat's link.

The creator is the table's teacher for notes: it pins a note to any step the table has reached
(``TableHub.add_note`` with the creator link), and reads the notes a spectator may read plus its
own (a seat's note on its hidden draw stays hidden here too until the game ends). The page follows
the table: its status and notes change as the table does.
"""

from __future__ import annotations

import panel as pn
import param

from explorer.components.timeline import NOTES_CSS
from explorer.tables.hub import HUMAN, TableError, TableHub
from explorer.core.i18n import bot_name, text
from explorer.core.notes import NOTE_LIMIT, TEACHER, author_label
from explorer.core.links import explorer_path, seat_link
from explorer.pages.table_texts import card_file_html, esc, seat_name, t
from explorer.core.stylesheets import stylesheet
from explorer.plots.live import OnLoop
from rules.rulebook import LANGUAGES


PAGE_CSS = stylesheet("tables")


class CreatorPage(pn.viewable.Viewer):
    """End the table, or give a seat a new link (see the module docstring)."""

    lang = param.Selector(default="en", objects=list(LANGUAGES), doc="The language of the page's texts.")

    def __init__(self, hub: TableHub, table_id: str, token: str | None, origin: str = "", path: str = "/tables",
                 **params):
        super().__init__(**params)
        self.hub, self.origin, self.path = hub, origin, path
        self.table = hub.creator_table(table_id, token)          # TableError: unknown table, not the creator's link
        self.token, lang = token, self.lang
        self.status = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["creator-status"], sizing_mode="stretch_width")
        # Ending is for good: the button asks first (one click ended the game for every seat).
        self.end_button = pn.widgets.Button(label=t("end_table", lang), color="danger", css_classes=["end-table"])
        self.end_button.on_click(lambda event: self.ask_end())
        confirm = pn.widgets.Button(label=t("end_table_confirm", lang), color="danger", css_classes=["confirm-end-table"])
        confirm.on_click(lambda event: self.end())
        keep = pn.widgets.Button(label=t("end_table_keep", lang), css_classes=["keep-table"])
        keep.on_click(lambda event: self._ask(False))
        self.end_question = pn.Column(
            pn.pane.HTML(esc(t("end_table_question", lang)), stylesheets=[PAGE_CSS], css_classes=["end-table-question"],
                         sizing_mode="stretch_width"),
            pn.Row(confirm, keep, styles={"flex-wrap": "wrap"}), visible=False, sizing_mode="stretch_width")
        self.seat_buttons = []
        for seat in sorted(self.table.record.token_digests):
            button = pn.widgets.Button(label=t("new_link", lang, player=seat_name(seat, lang)),
                                       css_classes=["new-seat-link", f"new-seat-link-{seat}"])
            button.on_click(lambda event, seat=seat: self.new_link(seat))
            self.seat_buttons.append(button)
        self.message = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["creator-message", "links"],
                                    sizing_mode="stretch_width")
        self.note_step = pn.widgets.IntInput(label=t("note_step", lang), value=self.table.step, start=0,
                                             css_classes=["note-step"], width=120)
        self.note_text = pn.widgets.TextAreaInput(placeholder=text("timeline.note.placeholder", lang, limit=NOTE_LIMIT),
                                                  max_length=NOTE_LIMIT, rows=2, css_classes=["note-text"],
                                                  sizing_mode="stretch_width")
        self.pin_button = pn.widgets.Button(label=text("timeline.note.pin", lang), css_classes=["pin-note"])
        self.pin_button.on_click(lambda event: self.pin_note(self.note_step.value,
                                                             self.note_text.value_input or self.note_text.value))
        self.notes = pn.pane.HTML("", stylesheets=[PAGE_CSS, NOTES_CSS], css_classes=["creator-notes"], sizing_mode="stretch_width")
        # The hub calls it from whichever thread changed the table: it runs on this page's own loop.
        self._on_table_change = OnLoop(self._show)
        self._unsubscribe = hub.subscribe(self.table.id, self._on_table_change)
        if self._on_table_change.document is not None:
            self._on_table_change.document.on_session_destroyed(lambda context: self._unsubscribe())
        self._show()

    def pin_note(self, step, note_text) -> dict | None:
        """Pin a teacher's note (the hub checks the creator link, the step and the text); a refusal is
        shown, changing nothing."""
        try:
            note = self.hub.add_note(self.table.id, None, step, note_text, creator_token=self.token)
        except TableError as error:
            self.message.object = esc(text("timeline.note.refused", self.lang, problem=error.problem_in(self.lang)))
            return None
        self.note_text.param.update(value="", value_input="")
        self.message.object = esc(text("timeline.note.pinned", self.lang, step=note["step"]))
        self._show()
        return note

    def _notes_html(self) -> str:
        """The notes a spectator may read, and the teacher's own, in step order (escaped)."""
        table, lang = self.table, self.lang
        shown = table.visible_notes(None)
        notes = sorted((note for note in table.notes if note["seat"] == TEACHER or note in shown),
                       key=lambda note: note["step"])
        rows = "".join(f'<li class="note" data-seat="{esc(str(note["seat"]))}">'
                       f'{esc(text("timeline.step", lang, step=note["step"]))} · <b>{esc(author_label(note["seat"], lang))}</b> '
                       f'<span class="note-said">{esc(note["text"])}</span></li>' for note in notes)
        return f'<b>{esc(text("timeline.note.title", lang))}</b><ul class="notes">{rows}</ul>' if rows else ""

    def ask_end(self) -> None:
        """Ask whether to end the table (``end`` ends it)."""
        self._ask(not self.table.ended)

    def _ask(self, asking: bool) -> None:
        self.end_question.visible = asking
        self.end_button.visible = not asking and not self.table.ended

    def end(self) -> None:
        """End the table (its creator's answer to ``ask_end``; the hub checks the creator link)."""
        try:
            self.hub.abandon(self.table.id, self.token)
        except TableError as error:
            self.message.object = esc(error.problem_in(self.lang))
        self._show()

    def new_link(self, seat: int) -> str | None:
        try:
            token = self.hub.new_seat_link(self.table.id, self.token, seat)
        except TableError as error:
            self.message.object = esc(error.problem_in(self.lang))
            return None
        link = seat_link(self.table.id, token, self.origin, self.path)
        anchor = f'<a class="seat-link seat-link-{seat}" href="{esc(link)}" target="_blank">{esc(link)}</a>'
        self.message.object = t("new_link_made", self.lang, player=esc(seat_name(seat, self.lang)), link=anchor)
        return token

    def _show(self) -> None:
        table, lang = self.table, self.lang
        if table.ended:
            review = f'{esc(explorer_path())}?table={esc(table.id)}' + ("" if lang == "en" else f"&lang={lang}")
            self.status.object = (f'<div class="table-status ended">{esc(t("ended", lang, table=table.id))} '
                                  f'<a class="review-link" href="{review}" target="_blank">{t("review", lang)}</a></div>')
        else:
            waiting = t("list_separator", lang).join(seat_name(s, lang) for s in table.to_move)
            self.status.object = f'<div class="table-status">{esc(t("open_status", lang, n=table.step, players=waiting))}</div>'
        self.end_button.visible = not table.ended and not self.end_question.visible
        if table.ended:
            self.end_question.visible = False
        for button in self.seat_buttons:
            button.visible = not table.ended
        self.note_step.end = table.step         # (the hub refuses a forged step past it all the same)
        self.notes.object = self._notes_html()

    def __panel__(self):
        record, lang = self.table.record, self.lang
        seats = t("list_separator", lang).join(
            t("seat_controller", lang, player=seat_name(s, lang), controller=t("person", lang) if c == HUMAN else t("bot", lang, name=bot_name(c, lang)))
            for s, c in enumerate(record.controllers))
        header = pn.pane.HTML(f'<b>{esc(t("creator_title", lang, table=record.id))}</b> · {esc(self.table.spec.title)}'
                              f'<br><span class="quiet">{esc(seats)}{card_file_html(self.table.record.card_name, lang)}</span>',
                              stylesheets=[PAGE_CSS],
                              css_classes=["table-header"], sizing_mode="stretch_width")
        return pn.Column(header, self.status, pn.Row(*self.seat_buttons, styles={"flex-wrap": "wrap"}), self.message, self.end_button,
                         self.end_question,
                         # The note's step, its text across the page, the button: one above the other, as the
                         # seats' note form (in a row, a phone squeezed the text between the other two).
                         pn.Column(self.note_step, self.note_text, self.pin_button, sizing_mode="stretch_width"),
                         self.notes,
                         sizing_mode="stretch_width")

