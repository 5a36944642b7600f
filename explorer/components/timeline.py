"""Moving along a line of play: stepper, arrow keys, clickable event log, lines of play (docs/architecture.md, "Explorer").

Every component here watches a :class:`~explorer.core.session.GameSession` and only moves its cursor
(``goto``/``undo``/``redo``) or switches its line (``switch_branch``); none knows a game's rules.

* :class:`Stepper`: |◀ ◀ ▶ ▶| buttons and a slider over steps 0..len(log), plus :class:`StepKeys`.
* :class:`StepKeys`: a small ``JSComponent`` listening to the whole page's keyboard: Left/Right
  step back/forward, Home/End jump to the deal/the last step. Keys typed into a text field, a
  select or the slider (which steps by itself) are left alone, as are keys with a modifier
  (Alt+Left is the browser's "back").
* :class:`EventLog`: every step of the line as a line of text (step, player, the plain-language
  events as the viewing seat may see them); clicking a line jumps there. The teacher's log lists the
  whole line, sent to the browser once per line of play, and moving the cursor only moves the
  highlight (``current``); viewed as a seat, the log stops at the step shown (no future moves of
  the recorded line), growing and shrinking with the cursor. A shared table's pages (no teacher)
  list the table's whole record: every seat has lived through it. Under each step, the notes
  pinned to it that the viewpoint may read (``session.visible_notes``), their text escaped.
* :class:`NoteForm`: pin a note to the step at the cursor (the explorer: as the viewing seat or the
  teacher, into the session; a table's page: through its hub). Part of the event log's panel.
* :class:`BranchesPanel`: the lines kept aside (``session.branches``) with a button each to
  switch to it; :class:`ReplayProblem`: what a variant change did (``session.variant_change``): a
  prominent notice when it cut the line at a move the new rules forbid, a note when every move is
  still legal, each with the scores at the end of the line before and after.

CSS classes the tests and the browser rely on: ``step-start``/``step-back``/``step-forward``/
``step-end`` (buttons), ``step-slider``, ``step-keys``; ``event-log``, ``step`` (``data-step``),
``step current``, ``step future``; ``notes``, ``note`` (``data-seat``: a seat or ``teacher``),
``note-form``, ``note-text``, ``pin-note``, ``note-message``; ``branches``, ``current-line``, ``branch-line``,
``switch-branch-<i>``; ``replay-problem``, ``variant-change``.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from typing import Any

import panel as pn
import param

import rules
from explorer.core.i18n import literal, text
from explorer.core.links import rule_link_html, rules_path
from explorer.core.notes import NOTE_LIMIT, author_label
from explorer.core.session import (GameSession, Line, player_label, variant_label, variant_value_label,
                                   variants_text)
from explorer.core.stylesheets import stylesheet
from rules.protocol import IllegalAction, RulesError
from rules.rulebook import LANGUAGES, rulebook

esc = html.escape

#: Keyboard key -> stepper move.
KEY_MOVES = {"ArrowLeft": "back", "ArrowRight": "forward", "Home": "start", "End": "end"}


def step(session: GameSession, move: str) -> None:
    """Move the cursor: ``"start"``, ``"back"``, ``"forward"`` or ``"end"`` (nothing happens past either end)."""
    if move == "start":
        session.goto(0)
    elif move == "back":
        session.undo()
    elif move == "forward":
        session.redo()
    elif move == "end":
        session.goto(len(session.log))
    else:
        raise ValueError(f"unknown move {move!r}; moves: start, back, forward, end")


def live_replay_problem(session: GameSession) -> dict | None:
    """``session.replay_problem`` while it still describes the line shown, else None.

    Once the cut line is back (switched to in the lines of play), its move N is there again and
    the notice would only confuse.
    """
    problem = session.replay_problem
    if not problem:
        return None
    move = problem.get("move")
    if isinstance(move, int) and 0 < move <= len(session.log):
        seat, action = session.log[move - 1]
        if seat == problem.get("seat") and str(action) == problem.get("action"):
            return None
    return problem


# --------------------------------------------------------------------------- keyboard


class StepKeys(pn.custom.JSComponent):
    """Left/Right/Home/End anywhere on the page step the session (see module docstring)."""

    session = param.ClassSelector(class_=GameSession, constant=True, precedence=-1)
    hint = param.String(default="Keys: ← → step · Home / End", doc="The short hint shown beside the slider.")
    hint_title = param.String(default="Keyboard: Left/Right step back/forward, Home/End jump to the deal/the last step",
                              doc="The hint's tooltip.")

    _rename = {"session": None}      # the session stays on the server

    _esm = """
    const MOVES = {ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end"};

    // Keys aimed at a field, a select or a slider belong to it (the slider steps by itself).
    function ownedByAField(event) {
      for (const node of event.composedPath()) {
        if (!(node instanceof HTMLElement)) continue;
        const tag = node.tagName;
        if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || node.isContentEditable) return true;
        if (node.getAttribute("role") === "slider" || node.classList.contains("noUi-handle")) return true;
      }
      return false;
    }

    export function render({ model, el }) {
      const hint = document.createElement("span");
      hint.className = "key-hint";
      hint.title = model.hint_title;
      hint.textContent = model.hint;
      el.appendChild(hint);
      const onKey = (event) => {
        const move = MOVES[event.key];
        if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
        if (event.defaultPrevented || event.isComposing || ownedByAField(event)) return;
        event.preventDefault();        // Home/End would scroll the page
        model.send_msg({ key: event.key });
      };
      document.addEventListener("keydown", onKey);
      model.on("remove", () => document.removeEventListener("keydown", onKey));
    }
    """

    _stylesheets = [stylesheet("components/step_keys")]

    def _handle_msg(self, data: Any) -> None:
        key = data.get("key") if isinstance(data, dict) else None
        # (a message forged in the browser may hold anything: only a key's name is looked up)
        if type(key) is str and key in KEY_MOVES and self.session is not None:
            step(self.session, KEY_MOVES[key])


# --------------------------------------------------------------------------- stepper


class Stepper(pn.viewable.Viewer):
    """The step buttons, the slider over all steps and the page's arrow keys, for one session."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of labels and tips.")

    def __init__(self, **params):
        super().__init__(**params)
        c = self.controls = {}
        tips = {move: text(f"timeline.tip.{move}", self.lang) for move in ("start", "back", "forward", "end")}
        for move, label in (("start", "|◀"), ("back", "◀"), ("forward", "▶"), ("end", "▶|")):
            button = pn.widgets.Button(label=label, css_classes=[f"step-{move}"], width=52, description=tips[move],
                                       margin=(5, 2))
            button.on_click(lambda event, move=move: step(self.session, move))
            c[move] = button
        # One step counter per page: the board's ("Step 3 / 57") sits under the slider, which shows no number.
        c["step"] = pn.widgets.IntSlider(label="", show_value=False, start=0, end=max(1, len(self.session.log)),
                                         value=self.session.cursor, css_classes=["step-slider"],
                                         sizing_mode="stretch_width", margin=(0, 12))
        c["step"].param.watch(self._on_slider, "value")
        self.keys = StepKeys(session=self.session, hint=text("timeline.keys", self.lang),
                             hint_title=text("timeline.keys_title", self.lang), css_classes=["step-keys"], margin=(5, 5))
        self.session.param.watch(self._sync, ["cursor", "log"])
        self._sync()
        self._layout = pn.Row(c["start"], c["back"], c["forward"], c["end"], c["step"], self.keys,
                              sizing_mode="stretch_width", css_classes=["stepper"], margin=(0, 5),
                              styles={"align-items": "center"})

    def _sync(self, *events) -> None:
        session, c = self.session, self.controls
        moves = len(session.log)
        c["step"].param.update(end=max(1, moves), value=session.cursor, disabled=moves == 0)
        c["start"].disabled = c["back"].disabled = session.cursor == 0
        c["forward"].disabled = c["end"].disabled = session.cursor >= moves

    def _on_slider(self, event) -> None:
        if not 0 <= event.new <= len(self.session.log):
            # (a value forged in the browser, past either end of the line: goto refused it into the
            # server's log and the slider stayed there; now it goes back to the step shown)
            self._sync()
        elif event.new != self.session.cursor:
            self.session.goto(event.new)

    def __panel__(self):
        return self._layout


# --------------------------------------------------------------------------- event log

LOG_CSS = stylesheet("components/event_log")
NOTES_CSS = stylesheet("components/notes")


#: A card's code of letters and numbers joined by hyphens (Jump Gate's NavComp cards: "J5-L~", "J2-S5").
CODE = re.compile(r"\b[A-Z][0-9~]+(?:-[A-Z][0-9~]+)+")


def unbroken_codes(html_text: str) -> str:
    """``html_text`` with each card code (:data:`CODE`) kept on one line: the log broke "J5-" / "L~" at
    its hyphen, as a line breaks after any hyphen."""
    return CODE.sub(lambda found: f'<span class="code">{found.group()}</span>', html_text)


#: How many steps' lines the log sends at each move before it sends them all again (see EventLog._refresh).
RECENT_LINES = 32


class LogList(pn.custom.JSComponent):
    """The browser side of :class:`EventLog`: draws ``content``, marks ``current``, reports clicks."""

    session = param.ClassSelector(class_=GameSession, constant=True, precedence=-1)
    content = param.String(default="", doc="The log's lines (HTML, without the cursor's marks) before ``recent``.")
    recent = param.String(default="", doc="The log's latest lines (at most RECENT_LINES steps), after ``content``.")
    current = param.Integer(default=0, doc="The step at the cursor: marked, and scrolled into view.")

    _rename = {"session": None}

    _esm = """
    export function render({ model, el }) {
      const box = document.createElement("div");
      box.className = "event-log";
      el.appendChild(box);
      // Scrolling reads the layout: done at the next frame, when the page lays itself out anyway
      // (read at once, it made the browser lay out the whole page in the middle of every update).
      // The log follows the cursor: it scrolls when the cursor or the lines change, never because
      // something else on the page was laid out again (a reader scrolling back through the log kept
      // being taken back to the cursor, and a click on an earlier line could land on another one).
      let scrollTo = null;
      let owed = false;       // the cursor's line could not be scrolled to yet: the log had no height
      function scroll() {
        const here = scrollTo;
        scrollTo = null;
        if (!here || !here.isConnected) return;
        owed = !box.clientHeight;
        if (owed) return;
        const top = here.offsetTop, bottom = top + here.offsetHeight;
        if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) {
          box.scrollTop = Math.max(0, top - box.clientHeight / 3);
        }
      }
      function mark(follow) {
        let here = null;
        for (const line of box.querySelectorAll(".step")) {
          const step = Number(line.dataset.step);
          line.classList.toggle("current", step === model.current);
          line.classList.toggle("future", step > model.current);
          if (step === model.current) here = line;
        }
        if (here && follow) {
          if (scrollTo === null) requestAnimationFrame(scroll);
          scrollTo = here;
        }
      }
      // The log is content + recent. A log that only grew (the usual case: a move was made) gets its
      // new lines appended, not redrawn; so does a message that moves recent lines into content.
      // A log cut shorter (a seat's page stepping back: no future steps) drops its last lines.
      let drawn = "";
      let pending = false;
      function draw() {
        pending = false;
        const content = model.content + model.recent;
        const kept = content.length < drawn.length && drawn.startsWith(content)
          ? (content.match(/<div class="step" data-step="/g) || []).length : -1;
        if (drawn && content.length > drawn.length && content.startsWith(drawn)) {
          box.insertAdjacentHTML("beforeend", content.slice(drawn.length));
        } else if (kept >= 0 && box.children.length >= kept) {
          while (box.children.length > kept) box.lastElementChild.remove();
        } else if (content !== drawn) {
          box.innerHTML = content;
        }
        drawn = content;
        mark(true);
      }
      function redraw() {      // once for a message that changes both parts
        if (!pending) {
          pending = true;
          queueMicrotask(draw);
        }
      }
      box.addEventListener("click", (event) => {
        if (event.target.closest("a.rule-link")) return;     // a rule's page opens; the cursor stays
        const line = event.target.closest("[data-step]");
        if (line) model.send_msg({ goto: Number(line.dataset.step) });
      });
      model.on("content", redraw);
      model.on("recent", redraw);
      model.on("current", () => mark(true));
      model.on("after_layout", () => mark(owed));
      draw();
    }
    """

    _stylesheets = [LOG_CSS, NOTES_CSS]

    @property
    def lines(self) -> str:
        """Every line of the log, as the page draws it (without the cursor's marks)."""
        return self.content + self.recent

    def _handle_msg(self, data: Any) -> None:
        target = data.get("goto") if isinstance(data, dict) else None
        session = self.session
        # a stale page may name a step the line no longer has: ignored
        if session is not None and type(target) is int and 0 <= target <= len(session.log):
            session.goto(target)


def step_who(session: GameSession, step: int, lang: str) -> str:
    """Who made ``step``: the player who moved; step 0 is the deal, or the what-if position the line
    begins from (set up by hand: the log says there is no deal to tell)."""
    if step:
        return text("explorer.player", lang, n=session.log[step - 1][0] + 1)
    return text("timeline.position" if session.start is not None else "timeline.deal", lang)


class EventLog(pn.viewable.Viewer):
    """The steps of the line, as the viewing seat may see them; a click on a step jumps there.

    The teacher sees the whole line, the cursor's step marked; viewed as a seat, the log lists the
    steps up to the cursor only: what is still to come in the recorded line is not that seat's to
    know yet (issue #22, item 6). A shared table's seat or spectator (a page without a teacher) reads
    the table's whole record, which it has lived through.
    """

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the rule links.")
    pin = param.Parameter(default="session", doc="How a note is pinned: pin(step, text) raising NoteRefused or a "
                          "refusal with problem_in(lang); 'session': session.add_note; None: no note form.")

    def __init__(self, **params):
        super().__init__(**params)
        self._notes: dict[int, list[dict]] = {}     # step -> the notes the viewpoint may read there
        self._notes_key: tuple = ()
        self._key: tuple | None = None
        self._made: list[str] = []      # the lines made for ``_key``, step by step from the deal
        self._sent = -1                 # the last step whose line the page holds
        self._recent_steps = 0          # how many steps' lines ``list.recent`` holds
        self.list = LogList(session=self.session, sizing_mode="stretch_width", css_classes=["event-log-pane"],
                            margin=0)
        self.session.param.watch(self._refresh, ["state", "log", "viewing_seat", "notes", "notes_public"])
        self.param.watch(self._relabel, "lang")
        pin = self.session.add_note if self.pin == "session" else self.pin
        self.form = NoteForm(session=self.session, lang=self.lang, pin=pin) if pin is not None else None
        self._refresh()

    def last_step(self) -> int:
        """The last step the log lists: the cursor when the page's teacher views it as a seat, else
        the line's end."""
        session = self.session
        return session.cursor if session.teacher and session.viewing_seat is not None else len(session.log)

    def _relabel(self, event) -> None:
        self._made, self._recent_steps, self._sent = [], 0, self.last_step()
        self.list.param.update(content=self._lines_upto(self._sent), recent="")

    def lines(self) -> str:
        """The log's lines as HTML, one ``div.step`` per step 0..:meth:`last_step`, without cursor marks."""
        return "".join(self._step_line(step) for step in range(self.last_step() + 1))

    def _lines_upto(self, last: int, first: int = 0) -> str:
        """Steps ``first``..``last``'s lines, made once per line of play and point of view."""
        while len(self._made) <= last:
            self._made.append(self._step_line(len(self._made)))
        return "".join(self._made[first:last + 1])

    def _step_line(self, step: int) -> str:
        session = self.session
        game, lang = session.game, self.lang
        who = step_who(session, step, lang)
        path = rules_path()
        items = "".join(f"<li>{unbroken_codes(esc(said))}{_event_rule_link(game, kind, lang, path)}</li>"
                        for kind, said in session.event_items(step, lang=lang))
        if not step and not items and session.start is not None:
            items = f'<li class="position-note">{esc(text("timeline.position_note", lang))}</li>'
        notes = "".join(f'<li class="note" data-seat="{esc(str(note["seat"]))}"><b>{esc(author_label(note["seat"], lang))}</b>'
                        f'<span class="note-said">{esc(note["text"])}</span></li>' for note in self._notes.get(step, ()))
        return (f'<div class="step" data-step="{step}" title="{esc(text("timeline.jump_to", lang, step=step))}">'
                f'<span class="step-no">{esc(text("timeline.step", lang, step=step))}</span>'
                f'<span class="who">{esc(who)}</span><ul>{items}</ul>'
                f'{f"<ul class=notes>{notes}</ul>" if notes else ""}</div>')

    def html(self) -> str:
        """The log as the page shows it: its lines, the cursor's marked ``current``, later ones ``future``."""
        cursor = self.session.cursor
        lines = self.list.lines
        for number in range(len(self.session.log) + 1):
            mark = " current" if number == cursor else " future" if number > cursor else ""
            lines = lines.replace(f'<div class="step" data-step="{number}"', f'<div class="step{mark}" data-step="{number}"', 1)
        return f'<div class="event-log">{lines}</div>'

    def _refresh(self, *events) -> None:
        session = self.session
        # The lines change with the line of play (a new log or first state) or the point of view,
        # not with the cursor: the objects are compared by identity (the session replaces them).
        key = (session.log, session.state_at(0), session.viewing_seat)
        notes = session.visible_notes()
        notes_key = tuple((note["step"], str(note["seat"]), note["text"], note.get("at")) for note in notes)
        if notes_key != self._notes_key:          # the notes shown changed: every line is made again
            self._notes_key, self._notes, self._key = notes_key, {}, None
            for note in notes:
                self._notes.setdefault(note["step"], []).append(note)
        old, last = self._key, self.last_step()
        # A line that grew (a move was played at its end) keeps the lines made for it.
        same = (old is not None and old[1] is key[1] and old[2] == key[2]
                and (old[0] is key[0] or (len(key[0]) > len(old[0]) and key[0][:len(old[0])] == old[0])))
        self._key = key
        if not same:
            self._made, self._recent_steps = [], 0
            update = {"content": self._lines_upto(last), "recent": ""}
        elif last > self._sent:
            # Only the new steps' lines are sent (``recent``): the whole log (350 kB at the end of a
            # Jump Gate game) goes to the page once every RECENT_LINES steps, not at every move.
            new = self._lines_upto(last, first=self._sent + 1)
            self._recent_steps += last - self._sent
            if self._recent_steps > RECENT_LINES:
                self._recent_steps = 0
                update = {"content": self.list.content + self.list.recent + new, "recent": ""}
            else:
                update = {"recent": self.list.recent + new}
        elif last < self._sent:             # a seat's cursor went back: the later steps leave its log
            self._recent_steps = 0
            update = {"content": self._lines_upto(last), "recent": ""}
        else:
            self.list.current = session.cursor
            return
        self._sent = last
        self.list.param.update(**update, current=session.cursor)

    def __panel__(self):
        if self.form is None:
            return self.list
        return pn.Column(self.list, self.form, sizing_mode="stretch_width", margin=0)


class NoteForm(pn.viewable.Viewer):
    """Pin a note to the step at the session's cursor: a text field, a button, what happened.

    ``pin(step, text)`` does it (the explorer: ``session.add_note``; a table's page: its hub, which
    checks the seat's link). Whatever the browser sends (a forged step or text) is checked there; a
    refusal is shown here, escaped, and changes nothing."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the form.")
    pin = param.Callable(doc="pin(step, text): pins the note, or raises a refusal.")

    def __init__(self, **params):
        super().__init__(**params)
        lang = self.lang
        self.heading = pn.pane.HTML("", css_classes=["note-heading-pane"], stylesheets=[NOTES_CSS], margin=(4, 5, 0, 5),
                                    sizing_mode="stretch_width")
        self.text_input = pn.widgets.TextAreaInput(placeholder=text("timeline.note.placeholder", lang, limit=NOTE_LIMIT),
                                                   max_length=NOTE_LIMIT, rows=2, css_classes=["note-text"],
                                                   sizing_mode="stretch_width", margin=(2, 5))
        self.button = pn.widgets.Button(label=text("timeline.note.pin", lang), css_classes=["pin-note"], margin=(2, 5))
        self.button.on_click(lambda event: self.submit())
        self.message = pn.pane.HTML("", css_classes=["note-message-pane"], stylesheets=[NOTES_CSS], margin=(0, 5),
                                    sizing_mode="stretch_width")
        self.session.param.watch(self._heading, ["cursor", "log", "start"])
        self._heading()
        self._layout = pn.Column(self.heading, self.text_input, self.button, self.message, css_classes=["note-form"],
                                 sizing_mode="stretch_width", margin=(6, 0, 0, 0))

    def _heading(self, *events) -> None:
        session, lang = self.session, self.lang
        step = session.cursor
        who = step_who(session, step, lang)
        self.heading.object = f'<div class="note-heading">{esc(text("timeline.note.on_step", lang, step=step, who=who))}</div>'

    def submit(self) -> bool:
        """Pin the typed note to the cursor's step; True once pinned (the field is then emptied)."""
        step, lang = self.session.cursor, self.lang
        try:
            self.pin(step, self.text_input.value_input or self.text_input.value)
        except Exception as error:
            # A refusal (NoteRefused, a table's TableError: each says it with problem_in): shown, nothing changed.
            if not hasattr(error, "problem_in") and not isinstance(error, (ValueError, RulesError)):
                raise
            problem = error.problem_in(lang) if hasattr(error, "problem_in") else str(error)
            self.message.object = (f'<div class="note-message refused">'
                                   f'{esc(text("timeline.note.refused", lang, problem=problem))}</div>')
            return False
        self.text_input.param.update(value="", value_input="")
        self.message.object = f'<div class="note-message">{esc(text("timeline.note.pinned", lang, step=step))}</div>'
        return True

    def __panel__(self):
        return self._layout


@lru_cache(maxsize=None)
def _event_rule_link(game: str, kind: str, lang: str, path: str) -> str:
    """The link to the rule that explains events of ``kind`` ("" for none), made once per game, kind,
    language and rules path (``path``: where the link points, part of the key): the rulebook is read once
    per process, and a log's lines name the same few rules again and again (a whole Jump Gate game's
    log: 2,450 links to at most twenty rules)."""
    rule = rulebook(game).for_event(kind)
    return "" if rule is None else rule_link_html(game, rule, lang)


# --------------------------------------------------------------------------- lines of play

BRANCHES_CSS = stylesheet("components/branches")


class BranchesPanel(pn.viewable.Viewer):
    """The current line and the lines kept aside, each with a button to switch to it."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    message = param.String(default="", doc="Why the last switch failed (shown, never raised).")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the panel's texts.")

    def __init__(self, **params):
        super().__init__(**params)
        self.switch_buttons: list[pn.widgets.Button] = []
        self.current_line = pn.pane.HTML("", sizing_mode="stretch_width", margin=(0, 5), stylesheets=[BRANCHES_CSS])
        self.lines = pn.Column(sizing_mode="stretch_width", margin=0)
        self.alert = pn.pane.Alert(" ", alert_type="danger", visible=False, margin=(2, 5))
        self._layout = pn.Column(self.current_line, self.lines, self.alert, sizing_mode="stretch_width",
                                 css_classes=["branches"], margin=(0, 5))
        # the list (and its buttons) is rebuilt only when the lines change, not with every move
        self.session.param.watch(self._draw_current, ["log", "variants"])
        self.session.param.watch(self._draw_lines, ["branches", "variants"])
        self.param.watch(self._show_message, "message")
        self._draw_current()
        self._draw_lines()

    def _draw_current(self, *events) -> None:
        session = self.session
        rules_text = variants_text(session.game, session.variants, self.lang) or text("branches.standard", self.lang)
        self.current_line.object = (f'<div class="current-line">'
                                    f'{esc(text("branches.this_line", self.lang, moves=len(session.log), rules=rules_text))}</div>')

    def _draw_lines(self, *events) -> None:
        rows: list = []
        self.switch_buttons = []
        if not self.session.branches:
            rows.append(pn.pane.HTML(f'<div class="branch-none">{esc(text("branches.none", self.lang))}</div>',
                                     sizing_mode="stretch_width", margin=(0, 5), stylesheets=[BRANCHES_CSS]))
        for index, line in enumerate(self.session.branches):
            button = pn.widgets.Button(label=text("branches.switch", self.lang), css_classes=["switch-branch", f"switch-branch-{index}"],
                                       width=150, margin=(2, 5))
            button.on_click(lambda event, index=index: self.switch(index))
            self.switch_buttons.append(button)
            rows.append(pn.Row(pn.pane.HTML(self._describe(line), css_classes=["branch-line", f"branch-line-{index}"],
                                            sizing_mode="stretch_width", margin=(0, 5), stylesheets=[BRANCHES_CSS]),
                               button, sizing_mode="stretch_width", margin=(2, 0)))
        self.lines.objects = rows

    def _describe(self, line: Line) -> str:
        variants = dict(line.variants)
        game = self.session.game
        one = ".one" if len(line.log) == 1 else ""
        if line.origin is None:
            moves = text("branches.line" + one, self.lang, moves=len(line.log), forked=line.forked_at)
        else:                                   # left for a what-if position: where it begins
            origin = json.loads(line.origin)
            game = origin["game"]
            key = "branches.line.from_position" if "start" in origin else "branches.line.from_deal"
            moves = text(key + one, self.lang, moves=len(line.log), game=rules.get_game(game).title,
                         players=origin["players"], seed=origin["seed"])
        played = (f'<br><small>{esc(text("branches.played_with", self.lang, variants=variants_text(game, variants, self.lang)))}</small>'
                  if variants and (variants != self.session.variants or game != self.session.game) else "")
        return f'<div class="branch-line">{esc(moves)}{played}</div>'

    def switch(self, index: int) -> None:
        """Switch to ``branches[index]``; a stale index or a line these rules refuse is reported, not raised."""
        self.message = ""
        if not 0 <= index < len(self.session.branches):
            self.message = text("branches.gone", self.lang)
            return
        try:
            self.session.switch_branch(index)
        except RulesError as error:
            self.message = text("branches.refused", self.lang, error=literal(str(error)))

    def _show_message(self, event) -> None:
        self.alert.param.update(object=event.new or " ", visible=bool(event.new))

    def __panel__(self):
        return self._layout


class ReplayProblem(pn.viewable.Viewer):
    """What the last variant change did to the line, until the line changes again.

    ``alert``: a prominent notice while the change has cut the line at a move the new rules forbid
    (which move, and why), ending with the scores of the whole old line and of the cut line.
    ``change``: a note when every move is still legal, with the scores at the end of the line before
    and after. The numbers are the rules' (``session.variant_change``); the words the locale files'.
    """

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the notice.")

    def __init__(self, **params):
        super().__init__(**params)
        self.alert = pn.pane.Alert("", alert_type="warning", visible=False, css_classes=["replay-problem"],
                                   sizing_mode="stretch_width", margin=(0, 5, 8, 5))
        self.change = pn.pane.Alert("", alert_type="info", visible=False, css_classes=["variant-change"],
                                    sizing_mode="stretch_width", margin=(0, 5, 8, 5))
        self._layout = pn.Column(self.alert, self.change, sizing_mode="stretch_width", margin=0)
        self.session.param.watch(self._refresh, ["replay_problem", "variant_change", "log"])
        self.param.watch(self._refresh, "lang")
        self._refresh()

    def text(self) -> str:
        """The cut-line notice (Markdown), "" while no variant change has cut the line shown."""
        problem = live_replay_problem(self.session)
        if problem is None:
            return ""
        said = text("setup.replay_problem", self.lang, move=problem["move"], kept=problem["move"] - 1,
                    problem=literal(replay_problem_text(self.session, problem, self.lang)))   # (it may name a file's card)
        change = self.session.variant_change
        if change and change.get("illegal") == problem:
            said += "  \n" + variant_change_text(self.session, change, self.lang)
        return said

    def change_text(self) -> str:
        """The note after a variant change that left every move legal (Markdown), else ""."""
        change = self.session.variant_change
        if not change or change.get("illegal") is not None:
            return ""
        return variant_change_text(self.session, change, self.lang)

    def _refresh(self, *events) -> None:
        cut, change = self.text(), self.change_text()
        self.alert.param.update(object=cut or " ", visible=bool(cut))
        self.change.param.update(object=change or " ", visible=bool(change))

    def __panel__(self):
        return self._layout


def variant_change_text(session: GameSession, change: dict, lang: str = "en") -> str:
    """What a variant change did (``session.variant_change``), in ``lang`` (Markdown): the variants
    changed; "every move still legal" (or "no moves yet") when nothing was cut; the scores at the end
    of the line before and after, per player (of a cut line: the whole old line's and the cut line's).
    The cut itself, which move and why, is :func:`replay_problem_text`'s."""
    before, after = change["before"], change["after"]
    old, new = before["variants"], after["variants"]
    changed = [text("timeline.change.variant", lang, variant=variant_label(session.game, name, lang),
                    old=variant_value_label(session.game, name, old.get(name), lang),
                    new=variant_value_label(session.game, name, new.get(name), lang))
               for name in sorted(set(old) | set(new)) if old.get(name) != new.get(name)]
    said = text("timeline.change.variants", lang, changes=text("variants.separator", lang).join(changed))
    if change.get("illegal") is None:
        legal = text("timeline.change.all_legal" if after["moves"] else "timeline.change.no_moves", lang)
        said = f"**{said}** {legal}"
    pairs = list(zip(before["scores"], after["scores"]))
    unchanged = change.get("illegal") is None and all(points == now for points, now in pairs)
    scores = text("timeline.change.separator", lang).join(
        text("timeline.change.score_same" if unchanged else "timeline.change.score", lang,
             player=text("explorer.player", lang, n=seat + 1), before=points, after=now)
        for seat, (points, now) in enumerate(pairs))
    if change.get("illegal") is not None:
        return f"{said}  \n" + text("timeline.change.scores.cut", lang, scores=scores, before=_line_end_text(before, lang),
                                    after=_line_end_text(after, lang))
    # Every move still legal: the line is as long as before; only whether it ends the game can change
    # (a pass the disturbance variant adds after the last turn). Said as such: "(the game over after 79
    # moves -> 79 moves played, the game not over yet)" read as nonsense.
    if before["over"] and not after["over"]:
        end = text("timeline.change.end_now_open", lang, moves=after["moves"])
    elif after["over"] and not before["over"]:
        end = text("timeline.change.end_now_over", lang, moves=after["moves"])
    else:
        end = text("timeline.change.end_same", lang, end=_line_end_text(after, lang))
    return f"{said}  \n{end} " + text("timeline.change.scores_unchanged" if unchanged else "timeline.change.scores", lang,
                                      scores=scores)


def _line_end_text(end: dict, lang: str) -> str:
    """"final after 85 moves" or "59 moves, not over": where a line ends, for the scores there."""
    key = "timeline.change.end." + ("over" if end["over"] else "open") + (".one" if end["moves"] == 1 else "")
    return text(key, lang, moves=end["moves"])


def replay_problem_text(session: GameSession, problem: dict, lang: str = "en") -> str:
    """Which move the new rules refuse, and why: the session's own (English) text in English; in
    another language the same sentence with the player, the action's name and the rules' reason in
    that language where the game writes them (the move is found again on the cut line, kept in the
    lines of play, and replayed to get the refusal), else as the session gives them."""
    if lang == "en" or not all(key in problem for key in ("move", "seat", "action", "message")):
        return problem["text"]
    move, seat = problem["move"], problem["seat"]
    action_name, reason = problem["action"], problem["message"]
    action = next((line.log[move - 1][1] for line in reversed(session.branches)
                   if line.forked_at == move - 1 and len(line.log) >= move and line.log[move - 1][0] == seat
                   and str(line.log[move - 1][1]) == problem["action"]), None)
    if action is not None and 0 < move <= len(session.log) + 1:
        action_name = session.spec.action_label(action, lang)
        try:
            session.spec.apply(session.state_at(move - 1), seat, action)
        except IllegalAction as error:
            reason = error.reason_in(lang)
        except RulesError:
            pass
    player = text("explorer.player", lang, n=seat + 1) if isinstance(seat, int) else str(seat)
    return text("setup.replay_problem.move", lang, move=move, player=player, action=action_name, reason=reason)
