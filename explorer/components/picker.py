"""Playing on: the action picker and the "played by" choice per seat (docs/architecture.md, "Explorer").

:class:`ActionPicker` offers, as buttons, ``spec.legal_actions(state, seat)`` for the seats that
``spec.to_move(state)`` names and that a person plays (``session.controller(seat) == "human"``).
It decides nothing itself: what is legal comes from the rules, and each button is labelled with
``str(action)`` ("play taiga-4", "take cloud 3 to hand"), so where the cards go is read before the
move is made. Choosing takes two steps: a click *selects* an action (``session.selected_action``,
which the board previews) and **Confirm** plays it (``session.play``); the bots then answer until a
person must decide (``play_bots``); **Cancel** drops the selection.

On a served page the bots play in a thread of their own (``play_bots``, :class:`BotRun`): the server's
one loop stays free for this page and every other while slow bots (MCTS) play, their moves are shown
as they come, and the bots button reads "Stop the bots" meanwhile. Elsewhere they play in one go.

The action buttons are drawn by one small ``JSComponent`` (:class:`ActionButtons`) from a list of
labels, rather than as one Panel widget per action: a position change then costs one message
instead of a dozen new Bokeh models, and every list carries a ``version``, so a click on a list
the page no longer shows (a stale page) is recognised and refused instead of choosing whatever
now stands in its place.

Who may act: viewing as a seat, only that seat (if a person plays it); the teacher may act for any
seat a person plays, and when several such seats decide at once (Subastral's disturbance pass),
picks which one with "Act for". When only bots are to move, the picker says so ("Player 4 (greedy
bot) is to move") with a **Let bots play** button; when nobody plays by hand yet, one click on
"Play as Player N" takes that seat from this step.

Errors from the rules (``IllegalAction``: a stale page's click) are shown in the picker, never
raised into Panel.

:class:`SeatControllers` holds the sidebar's "Played by" selectors, one per seat, which assign
``session.seat_players``.

CSS classes the tests and the browser rely on: ``action-picker``, ``picker-status``, ``act-for``,
``action-group action-group-<type>``, ``action action-<type>`` (``<button>`` elements; the
selected one also ``selected``), ``selection-line``, ``confirm-action``, ``cancel-action``,
``let-bots-play``, ``take-seat-<s>``, ``view-as-mover``, ``picker-note``, ``picker-message``,
``played-by-<s>``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import panel as pn
import param

from explorer.components.board_clicks import matching
from explorer.components.bot_run import DONE, QUICK_BOTS, QUICK_SECONDS, BotRun, BotsBusy
from explorer.core.i18n import bot_name, counted_text, literal, text, texts
from explorer.core.links import refusal_markdown
from explorer.core.session import GameSession, autoplay_limit, bots_to_move, player_label
from explorer.core.stylesheets import stylesheet
from play.bots import BOTS
from rules.protocol import IllegalAction, InvalidPosition, RulesError
from rules.rulebook import LANGUAGES

esc = html.escape

HUMAN = "human"

def group_titles(game: str, lang: str = "en") -> dict[str, str]:
    """Headings for groups of actions of ``game`` (locale files: ``picker.group.<game>.<type>``), by
    the ``type`` of their JSON form; other types get their own name."""
    prefix = f"picker.group.{game}."
    return {key[len(prefix):]: value for key, value in texts(lang).items() if key.startswith(prefix)}


PICKER_CSS = stylesheet("components/picker")

FRAME_STYLES = {"border": "1px solid #d3dbe6", "border-radius": "10px", "background": "#f7f9fc", "padding": "4px 6px"}


def action_group(spec, action) -> str:
    """The group an action's button goes in: the ``type`` of its JSON form (or its class name)."""
    data = spec.encode_action(action)
    if isinstance(data, Mapping) and isinstance(data.get("type"), str):
        return data["type"]
    return type(action).__name__


def group_title(group: str, game: str = "subastral", lang: str = "en") -> str:
    return group_titles(game, lang).get(group) or group.replace("_", " ").capitalize()


def controller_label(name: str, lang: str = "en") -> str:
    """``"human"`` -> ``"a person"``, ``"greedy"`` -> ``"greedy bot"``."""
    return text("controller.person", lang) if name == HUMAN else text("controller.bot", lang, name=bot_name(name, lang))


def seats_text(seats, label=player_label, lang: str = "en") -> str:
    """"Player 1", "Player 1 and Player 3", ...: ``label(seat)`` for each, joined."""
    names = [label(seat) for seat in seats]
    if len(names) == 1:
        return names[0]
    return ("、" if lang == "ja" else ", ").join(names[:-1]) + text("seats.and", lang) + names[-1]


ACTION_BUTTONS_CSS = stylesheet("components/action_buttons")


class ActionButtons(pn.custom.JSComponent):
    """The browser side of the picker's buttons: draws ``groups``, marks ``selected``, reports clicks.

    ``groups`` is ``[{"title", "kind", "count", "actions": [{"label", "index"}]}]`` (``count``: "33
    moves", said beside the title of a group folded on a phone); a click sends ``{"select": index,
    "version": version}`` to ``on_choose(index, version)``.
    """

    groups = param.List(default=[], doc="The buttons, grouped: title, kind (CSS class) and the actions' labels.")
    selected = param.Integer(default=-1, doc="Index of the selected action, -1 for none.")
    version = param.Integer(default=0, doc="Bumped with every new list, so clicks on an old list can be told apart.")

    # One draw per list however many of its parameters a message changes (a new list changes
    # ``groups`` and ``version`` together), and buttons whose kind, index and label stay are kept:
    # a click on one (resolved before the message came) still lands, now for the new list.
    _esm = """
    // On a phone, a group of many moves (Stellar: a card to any of its telescope places, ~35 buttons,
    // two screens before the board) starts folded to its title and count: a tap opens it, and the
    // board's own cards and places select moves too. Wider screens show every group open.
    const FOLD_AT = 8;
    const narrow = window.matchMedia("(max-width: 600px)");
    export function render({ model, el }) {
      const root = document.createElement("div");
      root.className = "action-buttons";
      el.appendChild(root);
      let shown = model.version;       // the version of the list the buttons show
      let pending = false;
      function mark() {
        for (const button of root.querySelectorAll("button.action")) {
          const on = Number(button.dataset.index) === model.selected;
          button.classList.toggle("selected", on);
          button.setAttribute("aria-pressed", on ? "true" : "false");
        }
      }
      function newButton(kind, action) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = `action action-${kind}`;
        button.dataset.kind = kind;
        button.dataset.index = action.index;
        button.textContent = action.label;
        button.addEventListener("click", () => model.send_msg({ select: action.index, version: shown }));
        return button;
      }
      function newGroup() {
        const box = document.createElement("details");
        box.open = true;
        const title = document.createElement("summary");
        title.className = "group-title";
        // (a group that cannot fold is not closed by a click on its title)
        title.addEventListener("click", (event) => { if (!box.classList.contains("foldable")) event.preventDefault(); });
        const row = document.createElement("div");
        row.className = "group-buttons";
        box.append(title, row);
        return box;
      }
      function draw() {
        pending = false;
        shown = model.version;
        const groups = model.groups;
        groups.forEach((group, g) => {
          const box = root.children[g] || root.appendChild(newGroup());
          const foldable = Boolean(group.title) && narrow.matches && group.actions.length > FOLD_AT;
          box.className = `action-group action-group-${group.kind}` + (foldable ? " foldable" : "");
          // Folded when it becomes foldable (another kind of moves here, more moves, a narrower
          // screen); while it stays so, as the person left it.
          const folding = foldable ? group.kind : "";
          if (box.dataset.folding !== folding) {
            box.dataset.folding = folding;
            box.open = !foldable;
          }
          const [title, row] = box.children;
          const said = foldable ? `${group.title} · ${group.count}` : group.title;
          if (title.textContent !== said) title.textContent = said;
          group.actions.forEach((action, i) => {
            const old = row.children[i];
            if (old && old.dataset.kind === group.kind && old.dataset.index === String(action.index)
                && old.textContent === action.label) return;
            const button = newButton(group.kind, action);
            if (old) old.replaceWith(button); else row.appendChild(button);
          });
          while (row.children.length > group.actions.length) row.lastElementChild.remove();
        });
        while (root.children.length > groups.length) root.lastElementChild.remove();
        mark();
      }
      function redraw() {
        if (!pending) {
          pending = true;
          queueMicrotask(draw);
        }
      }
      model.on("groups", redraw);
      model.on("version", redraw);
      model.on("selected", mark);
      narrow.addEventListener("change", draw);
      model.on("remove", () => narrow.removeEventListener("change", draw));   // (a tab drawn again makes a new one)
      draw();
    }
    """

    _stylesheets = [ACTION_BUTTONS_CSS]

    def __init__(self, **params):
        super().__init__(**params)
        self.on_choose = None          # set by the picker: callable(index, version)

    def show(self, groups: list[dict], new_list: bool, **values) -> None:
        """Show ``groups``. A new list (``new_list``: the actions behind the buttons changed, or other
        groups) goes in one message with a new version; the same list again keeps its version (a click
        on it still means the same) and is not sent again."""
        if new_list or groups != self.groups:
            self.param.update(groups=groups, version=self.version + 1, **values)

    def _handle_msg(self, data: Any) -> None:
        if not isinstance(data, dict) or self.on_choose is None:
            return
        index, version = data.get("select"), data.get("version")
        if type(index) is int and type(version) is int:
            self.on_choose(index, version)


def assign(target: param.Parameterized, **values) -> None:
    """Set the values that differ from ``target``'s, in one batch.

    Panel redraws a pane's Bokeh model on every assignment, an equal value included (up to a
    millisecond each); a table page follows every move at the table, so its steady parts are left be.
    """
    changed = {name: value for name, value in values.items() if getattr(target, name) != value}
    if changed:
        target.param.update(**changed)


class ActionPicker(pn.viewable.Viewer):
    """Buttons for the legal actions of the seat a person plays; select, then confirm."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    acting_seat = param.Integer(default=None, allow_None=True,
                                doc="The seat whose actions are offered (one of actable_seats()), or None.")
    mode = param.Selector(default="over", objects=["choose", "person", "bots", "over"], constant=True,
                          doc="choose: a person may act here; person: a person must decide, but not from this view; "
                              "bots: only bots are to move; over: the game is over.")
    message = param.String(default="", doc="The last refusal (e.g. a stale click), shown in the picker.")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of rule explanations.")

    #: The explorer's shortcuts for a teacher: "Let bots play", "View as ... to play", "Play as ...".
    shortcuts = True

    def __init__(self, **params):
        super().__init__(**params)
        self._selected: tuple[int, Any] | None = None
        self._built_for: tuple | None = None
        # The last click on the board, and the position it was made at (a click adds to the one before
        # only at the same position).
        self._last_click: dict[str, str] = {}
        self._last_click_at: tuple | None = None
        #: (seat, action) behind each button, in the rules' order (the buttons' indexes).
        self.choices: list[tuple[int, Any]] = []
        #: The bots playing on a served page, in a thread of their own (see ``play_bots``), or None.
        self.run: BotRun | None = None
        self._run_before = 0               # (the moves its quick part played on the loop before it)
        self._run_document = None          # (the page whose end stops them: watched once)

        self.status = pn.pane.HTML("", css_classes=["picker-status"], sizing_mode="stretch_width", margin=(2, 5),
                                   stylesheets=[PICKER_CSS])
        self.act_for = pn.widgets.RadioButtonGroup(label=text("picker.act_for", self.lang), options={}, css_classes=["act-for"], visible=False,
                                                   color="primary", margin=(2, 5))
        self.act_for.param.watch(self._on_act_for, "value")
        self.buttons = ActionButtons(sizing_mode="stretch_width", margin=(0, 5), css_classes=["action-buttons"])
        self.buttons.on_choose = self._on_choose
        self.selection = pn.pane.HTML("", css_classes=["selection-line"], stylesheets=[PICKER_CSS],
                                      sizing_mode="stretch_width", margin=(8, 5))
        self.confirm_button = pn.widgets.Button(label=text("picker.confirm", self.lang), color="success", css_classes=["confirm-action"],
                                                disabled=True, width=110, margin=(4, 4))
        self.confirm_button.on_click(lambda event: self.confirm())
        self.cancel_button = pn.widgets.Button(label=text("picker.cancel", self.lang), css_classes=["cancel-action"], disabled=True,
                                               width=90, margin=(4, 4))
        self.cancel_button.on_click(lambda event: self.cancel())
        self.decide_row = pn.Row(self.selection, self.confirm_button, self.cancel_button, visible=False,
                                 sizing_mode="stretch_width", margin=0)
        # The shortcuts exist only where they may be used: a page whose viewpoint is fixed (a shared
        # table's seat) has no such widget at all, since any widget can be fired from the browser.
        self.bots_button = self.view_as_button = self.buttons_row = self.take_seat = None
        self._take_seat_buttons: list[pn.widgets.Button] = []
        if self.shortcuts:
            self.bots_button = pn.widgets.Button(label=text("picker.let_bots_play", self.lang), color="primary",
                                                 css_classes=["let-bots-play"], width=140, margin=(4, 5))
            self.bots_button.on_click(lambda event: self._on_bots_button())
            self.view_as_button = pn.widgets.Button(label="", color="primary", variant="outline",
                                                    css_classes=["view-as-mover"], margin=(4, 5))
            self.view_as_button.on_click(lambda event: self._view_as_mover())
            # (Both rows wrap: a seat button that does not fit goes below, never under the event log.)
            self.buttons_row = pn.Row(self.bots_button, self.view_as_button, margin=0, styles={"flex-wrap": "wrap"})
            self.take_seat = pn.Row(margin=0, css_classes=["take-seat"], styles={"flex-wrap": "wrap"})
        self.note = pn.pane.HTML("", css_classes=["picker-note"], stylesheets=[PICKER_CSS],
                                 sizing_mode="stretch_width", margin=(0, 5))
        self.alert = pn.pane.Alert(" ", alert_type="danger", visible=False, css_classes=["picker-message"],
                                   margin=(4, 5))
        shortcuts = [self.buttons_row, self.take_seat] if self.shortcuts else []
        self._layout = pn.Column(self.status, self.act_for, self.buttons, self.decide_row, *shortcuts,
                                 self.note, self.alert, css_classes=["action-picker"],
                                 sizing_mode="stretch_width", styles=FRAME_STYLES, margin=(0, 5, 8, 5))
        self.session.param.watch(self._refresh, ["state", "viewing_seat", "seat_players", "players"])
        self.session.param.watch(lambda event: self._say_refused("picker.setup_refused", event.new), "setup_refused")
        self.session.param.watch(lambda event: self._say_refused("picker.variants_refused", event.new), "variants_refused")
        self.param.watch(self._show_message, "message")
        self._refresh()

    # ------------------------------------------------------------------ what is offered
    def actable_seats(self) -> list[int]:
        """Seats to move that a person plays and that this view may act for."""
        session = self.session
        humans = [seat for seat in session.spec.to_move(session.state) if session.controller(seat) == HUMAN]
        viewer = session.viewing_seat
        return humans if viewer is None else [seat for seat in humans if seat == viewer]

    def offers(self) -> list[tuple[int, Any]]:
        """``(seat, action)`` behind each button, in the rules' order."""
        return list(self.choices)

    def labels(self) -> list[str]:
        """The buttons' labels, in order."""
        return [action["label"] for group in self.buttons.groups for action in group["actions"]]

    def click(self, index: int) -> None:
        """What a click on button ``index`` of the list the page shows does (for tests and notebooks)."""
        self.buttons._handle_msg({"select": index, "version": self.buttons.version})

    @property
    def selected(self) -> tuple[int, Any] | None:
        return self._selected

    # ------------------------------------------------------------------ choosing
    def select(self, seat: int, action) -> bool:
        """Select ``action`` for ``seat`` (the board previews it); False, with a message, if it is stale."""
        session = self.session
        spec, state = session.spec, session.state
        if seat not in self.actable_seats() or action not in spec.legal_actions(state, seat):
            self.message = text("picker.stale_move", self.lang, action=action, player=self._player(seat))
            self._refresh(force=True)
            return False
        self.message = ""
        self._selected = (seat, action)
        session.selected_action = spec.encode_action(action)
        self._show_selection()
        return True

    def choose_on_board(self, clicked: dict[str, str]) -> bool:
        """A click on the board (``explorer.components.board_clicks``): select the offered move it
        touches; the next such move on another click of the same thing; with the click before, the
        move both touch (a card, then its slot). False when no offered move touches it."""
        session = self.session
        before = self._last_click if self._last_click_at == self._built_for else None
        found = matching(self.choices, session.spec.encode_action, clicked, before)
        if not found:
            self._last_click, self._last_click_at = dict(clicked), self._built_for
            return False
        after = found.index(self._selected) + 1 if self._selected in found and clicked == self._last_click else 0
        chosen = found[after % len(found)]
        self._last_click, self._last_click_at = dict(clicked), self._built_for
        return self.select(*chosen)

    def cancel(self) -> None:
        self._selected = None
        self.session.selected_action = None
        self._show_selection()

    def confirm(self) -> bool:
        """Play the selected action, then the bots answer (``session.play_on``, through ``play_bots``);
        the rules' refusal is shown, not raised."""
        if self._selected is None:
            return False
        seat, action = self._selected
        self.cancel()
        try:
            self.session.play(seat, action)
        except IllegalAction as error:      # the rule that forbids it, linked to the rules page
            self.message = text("picker.not_played", self.lang, reason=refusal_markdown(self.session.game, error, self.lang))
            return False
        except (RulesError, ValueError) as error:
            self.message = text("picker.not_played", self.lang, reason=literal(str(error)))
            return False
        self.message = ""
        self.let_bots_play()                # (the bots answer until a person must decide: session.play_on)
        return True

    def let_bots_play(self) -> int:
        """The bots play until a person must decide (``session.advance_bots``); how many moves they played
        at once (on a served page, slow bots play on in a thread of their own: ``play_bots``)."""
        return self.play_bots(self.session.bot_seats())

    def play_bots(self, bots: Mapping[int, str | None], then_goto: int | None = None) -> int:
        """``bots`` (seat -> bot name, None: a person) play from the cursor while only they are to move,
        then the cursor goes to ``then_goto`` (default: after their last move), as
        ``session.autoplay``; returns how many moves they played at once. On a served page, quick bots
        (``QUICK_BOTS``) play at once for ``QUICK_SECONDS`` at most, and what is left (an MCTS bot's every
        move) is played in a thread of their own (:class:`BotRun`: the server's loop stays free for this
        page and every other), the moves shown as they come, the bots button stopping them. Elsewhere,
        all of it at once."""
        self.stop_bots()
        agents = {seat: name for seat, name in bots.items() if name}
        if not agents:
            return 0
        session = self.session
        document = pn.state.curdoc
        served = document is not None and document.session_context is not None
        # Quick bots play on the loop first, for QUICK_SECONDS at most: most answers end there, and reach
        # the page with the move they answer. Off a server, all of it.
        quick = not served or set(agents.values()) <= QUICK_BOTS
        start, limit = session.cursor, autoplay_limit(agents)
        played = 0
        if quick:
            try:
                played = session.autoplay(bots, then_goto=then_goto, seconds=QUICK_SECONDS if served else None)
            except (RulesError, ValueError) as error:
                self._say_bots_failed(error)
                return 0
            if not served or played >= limit or not bots_to_move(session.spec, session.state_at(start + played), agents):
                self._say_bots_stopped(played)
                return played
        if self._run_document is not document:
            self._run_document = document
            document.on_session_destroyed(lambda context: self.stop_bots())
        run = BotRun(session, bots, follow=then_goto is None, on_change=self._on_run, document=document,
                     at=start + played, limit=limit - played)
        try:
            run.start()
        except BotsBusy as busy:           # (0: the server plays no MCTS bots at all)
            self.message = text("picker.bots_busy" if busy.limit else "picker.bots_busy_none", self.lang, limit=busy.limit)
            return played
        self.message = ""
        self.run, self._run_before = run, played
        if then_goto is not None and session.cursor != then_goto:
            session.goto(then_goto)        # (the run goes on after the step it started from)
        self._refresh(force=True)
        return played

    def stop_bots(self) -> None:
        """Stop the bots a served page's ``play_bots`` set playing (what they played stays)."""
        if self.run is not None and self.run.running:
            self.run.stop()

    def _on_bots_button(self) -> None:
        if self.run is not None and self.run.running:
            self.stop_bots()
        else:
            self.let_bots_play()

    def _on_run(self, run: BotRun) -> None:
        """A batch of the bots' moves is on the line, or their run ended (on the page's loop)."""
        if run is not self.run:
            return
        if run.error is not None:
            self._say_bots_failed(run.error)
        elif run.status == DONE and run.stopped_at_limit:
            self._say_bots_stopped(self._run_before + run.played)
        self._refresh(force=not run.running)      # (the count of moves: the line grew; the button's label: forced)

    def _say_bots_failed(self, error: Exception) -> None:
        self.message = text("picker.bots_failed", self.lang, reason=literal(str(error)))   # (it may name a file's card)

    def _say_bots_stopped(self, played: int) -> None:
        stopped = self.session.stopped_at_limit
        self.message = counted_text("picker.bots_stopped", self.lang, played, n=f"{played:,}") if stopped else ""

    def take_seat_here(self, seat: int) -> None:
        """One click to play: ``seat`` is played by a person from this step, seen from that seat."""
        if not self.shortcuts:
            return
        session = self.session
        session.seat_players = {**{s: session.controller(s) for s in range(session.players)}, seat: HUMAN}
        session.viewing_seat = seat
        self.let_bots_play()

    # ------------------------------------------------------------------ drawing
    def _player(self, seat: int) -> str:
        return text("explorer.player", self.lang, n=seat + 1)

    def _refresh(self, *events, force: bool = False) -> None:
        session = self.session
        spec, state = session.spec, session.state
        movers = spec.to_move(state)
        actable = self.actable_seats()
        acting = self.acting_seat if self.acting_seat in actable else (actable[0] if actable else None)
        controllers = tuple(session.controller(seat) for seat in range(session.players))
        key = (state, tuple(actable), acting, session.viewing_seat, controllers, session.cursor, len(session.log))
        if key == self._built_for and not force:
            return
        changed_position = self._built_for is None or self._built_for[0] is not state
        self._built_for = key
        if self._selected is not None and (changed_position or self._selected[0] != acting):
            self._selected = None
            session.selected_action = None
        if changed_position and not force:
            self.message = ""
        self.acting_seat = acting
        if len(actable) > 1:
            assign(self.act_for, options={self._player(seat): seat for seat in actable}, value=acting, visible=True)
        else:
            # Hidden, it keeps its last options (they are set again when it shows): new labels on a
            # hidden group still made the page redraw it and lay itself out, at every change of turn.
            assign(self.act_for, visible=False)

        if not movers:
            mode = "over"
        elif actable:
            mode = "choose"
        elif any(session.controller(seat) == HUMAN for seat in movers):
            mode = "person"
        else:
            mode = "bots"
        with param.edit_constant(self):
            self.mode = mode

        choices: list[tuple[int, Any]] = []
        groups: list[dict] = []
        note = ""
        bots_visible = view_as_visible = False
        if mode == "over":
            view = session.view()          # (scores are public: the page's observation holds them)
            winners, scores = view["winners"], view["scores"]
            names = ", ".join(text("picker.winner", self.lang, player=self._player(s), score=scores[s])
                              for s in winners) or text("picker.nobody", self.lang)
            status = text("picker.game_over", self.lang, names=esc(names))
        elif mode == "choose":
            status = self._choose_html(acting)
            choices, groups = self._buttons_for(acting)
        elif mode == "person":
            waiting = [seat for seat in movers if session.controller(seat) == HUMAN]
            status = self._waiting_html(movers, waiting)
            if self.shortcuts:
                self.view_as_button.label = text("picker.view_as_to_play", self.lang, player=self._player(waiting[0]))
            view_as_visible = self.shortcuts
        else:
            status = self._bots_html(movers)
            bots_visible = self.shortcuts
        running = self.run is not None and self.run.running
        if running:
            played = self._run_before + self.run.played
            note = counted_text("picker.bots_playing", self.lang, played, n=f"{played:,}")
        elif session.cursor < len(session.log):
            note = self._past_step_note(mode)
        assign(self.status, object=status)
        self.buttons.show(groups, choices != self.choices, selected=-1)
        self.choices = choices
        assign(self.buttons, visible=bool(groups))
        if self.shortcuts:
            label = text("picker.stop_bots" if running else "picker.let_bots_play", self.lang)
            assign(self.bots_button, visible=bots_visible or running, label=label)
            assign(self.view_as_button, visible=view_as_visible and not running)
            assign(self.buttons_row, visible=bots_visible or view_as_visible or running)
            self._draw_take_seat(mode)
        assign(self.note, object=note, visible=bool(note))
        self._show_selection()

    def _past_step_note(self, mode: str) -> str:
        """The note while the cursor is before the end of the line (what a move does from here)."""
        if mode not in ("choose", "bots"):
            return ""
        return text("picker.at_step_choose" if mode == "choose" else "picker.at_step_bots", self.lang)

    def _choose_html(self, acting: int) -> str:
        """The status while ``acting`` chooses from this view: whose move, and how to make it."""
        return text("picker.your_move", self.lang, player=esc(self._player(acting)))

    def _waiting_html(self, movers: list[int], waiting: list[int]) -> str:
        """The status while people who do not act from this view must decide."""
        return text("picker.must_decide", self.lang, players=esc(seats_text(waiting, self._player, self.lang)))

    def _bots_html(self, movers: list[int]) -> str:
        """The status while only bots are to move."""
        session = self.session
        # (Not "is thinking": here a bot moves only when asked, at once; until then it is only its turn.)
        controllers = {controller_label(session.controller(seat), self.lang) for seat in movers}
        if len(movers) > 1 and len(controllers) == 1:       # "Player 1, Player 2 and Player 3 (each a greedy bot)"
            return text("picker.bots_to_move_same", self.lang, players=esc(seats_text(movers, self._player, self.lang)),
                        controller=esc(controllers.pop()))
        players = seats_text(movers, lambda seat: text("picker.player_with_controller", self.lang, player=self._player(seat),
                                                       controller=controller_label(session.controller(seat), self.lang)),
                             self.lang)
        return text("picker.bots_to_move_one" if len(movers) == 1 else "picker.bots_to_move_many", self.lang,
                    players=esc(players))

    def _buttons_for(self, seat: int) -> tuple[list[tuple[int, Any]], list[dict]]:
        """The seat's legal actions, in the rules' order, and the same grouped by kind for the buttons."""
        session = self.session
        spec, state = session.spec, session.state
        choices = [(seat, action) for action in spec.legal_actions(state, seat)]
        grouped: dict[str, list[dict]] = {}
        for index, (_, action) in enumerate(choices):
            # (The seat's own actions, named as they look in this state: actable_seats.)
            grouped.setdefault(action_group(spec, action), []).append({"label": spec.action_label(action, self.lang, state),
                                                                       "index": index})
        groups = [{"title": group_title(kind, self.session.game, self.lang), "kind": kind, "actions": actions,
                   "count": counted_text("picker.group_count", self.lang, len(actions), n=len(actions))}
                  for kind, actions in grouped.items()]
        return choices, groups

    def _draw_take_seat(self, mode: str) -> None:
        session = self.session
        nobody_plays = all(session.controller(seat) != HUMAN for seat in range(session.players))
        show = self.shortcuts and mode == "bots" and nobody_plays
        if show and len(self._take_seat_buttons) != session.players:
            buttons = []
            for seat in range(session.players):
                button = pn.widgets.Button(label=text("picker.play_as", self.lang, player=self._player(seat)), color="success", variant="outline",
                                           css_classes=["take-seat-button", f"take-seat-{seat}"], margin=(3, 3))
                button.on_click(lambda event, seat=seat: self.take_seat_here(seat))
                buttons.append(button)
            self._take_seat_buttons = buttons
            # (the sentence a line of its own, the buttons below it in rows: after it, the third and
            # fourth wrapped under the sentence, out of line with the first two)
            self.take_seat.objects = [pn.pane.HTML(f'<span class="quiet">{html.escape(text("picker.take_seat_intro", self.lang))}</span>',
                                                   stylesheets=[PICKER_CSS], styles={"flex-basis": "100%"},
                                                   margin=(8, 5, 2, 5)), *buttons]
        assign(self.take_seat, visible=show)

    def _on_choose(self, index: int, version: int) -> None:
        if version != self.buttons.version or not 0 <= index < len(self.choices):
            self.message = text("picker.stale_button", self.lang)
            return
        self.select(*self.choices[index])

    def _show_selection(self) -> None:
        selected = self._selected
        assign(self.buttons, selected=self.choices.index(selected) if selected in self.choices else -1)
        assign(self.decide_row, visible=self.mode == "choose")
        assign(self.confirm_button, disabled=selected is None)
        assign(self.cancel_button, disabled=selected is None)
        if selected is None:
            assign(self.selection, object=f'<span class="quiet">{esc(text("picker.nothing_selected", self.lang))}</span>')
        else:
            assign(self.selection, object=text("picker.selected", self.lang, player=esc(self._player(selected[0])),
                                               action=esc(self.session.spec.action_label(selected[1], self.lang,
                                                                                         self.session.state))))

    def _say_refused(self, key: str, error: RulesError | None) -> None:
        """A setting the session refused and put back, nothing else changed: players or a seed the game
        could not deal (a card file with too few cards: ``GameSession.setup_refused``), or variants the
        what-if position cannot hold (``variants_refused``). The reason is said here (``key``), as text."""
        if error is not None:
            reason = error.problem_in(self.lang) if isinstance(error, InvalidPosition) else str(error)
            self.message = text(key, self.lang, reason=literal(reason))        # (Markdown: a file's words as text)

    def _show_message(self, event) -> None:
        self.alert.param.update(object=event.new or " ", visible=bool(event.new))

    def _on_act_for(self, event) -> None:
        if event.new is not None and event.new != self.acting_seat and event.new in self.actable_seats():
            self.acting_seat = event.new
            self._refresh(force=True)

    def _view_as_mover(self) -> None:
        if not self.shortcuts:
            return
        session = self.session
        waiting = [seat for seat in session.spec.to_move(session.state) if session.controller(seat) == HUMAN]
        if waiting:
            session.viewing_seat = waiting[0]

    def __panel__(self):
        return self._layout


class SeatControllers(pn.viewable.Viewer):
    """One "Played by" selector per seat (a person or a bot), assigning ``session.seat_players``."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the labels.")

    OPTIONS = {controller_label(name): name for name in (HUMAN, *BOTS)}     # (in English)

    def __init__(self, **params):
        super().__init__(**params)
        self.selectors: dict[int, pn.widgets.Select] = {}
        self._layout = pn.GridBox(ncols=2, sizing_mode="stretch_width", css_classes=["played-by"], margin=0)
        self.session.param.watch(self._rebuild, ["players"])
        self.session.param.watch(self._sync, ["seat_players"])
        self._rebuild()

    def _rebuild(self, *events) -> None:
        selectors = {}
        for seat in range(self.session.players):
            options = {controller_label(name, self.lang): name for name in (HUMAN, *BOTS)}
            select = pn.widgets.Select(label=text("explorer.player", self.lang, n=seat + 1), options=options,
                                       value=self.session.controller(seat),
                                       css_classes=[f"played-by-{seat}"], sizing_mode="stretch_width", margin=(2, 5))
            select.param.watch(lambda event, seat=seat: self._on_select(seat, event.new), "value")
            selectors[seat] = select
        self.selectors = selectors
        self._layout.objects = list(selectors.values())

    def _sync(self, *events) -> None:
        for seat, select in self.selectors.items():
            select.value = self.session.controller(seat)

    def _on_select(self, seat: int, name: str) -> None:
        session = self.session
        if name == session.controller(seat):
            return
        session.seat_players = {**{s: session.controller(s) for s in range(session.players)}, seat: name}

    def __panel__(self):
        return self._layout
