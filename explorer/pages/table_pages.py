"""The playtest tables' pages: the lobby, a seat's or a spectator's table, and the review link.

``apps/tables`` serves :func:`create_tables_page`, which reads the address:

- ``/tables``: the lobby: create a table (game, card file, players, variants, seed, who plays each seat), get
  one secret link per human seat and the spectator link; the open and finished tables; rematch.
- ``/tables?table=ID&seat=KEY``: that seat's page. ``/tables?table=ID``: the spectator's page.

A table page is an explorer :class:`~explorer.core.session.FixedViewSession` that follows the shared
table (``session.follow``), viewed as the page's seat, or as a spectator (only ``observe(state,
None)``), fixed when the page opens: no object on the page can change it, and its picker has no
"view as", "take a seat" or "let bots play" widgets at all (any server-side widget, hidden or
disabled, can be fired from the browser). Its board, event log and plots are the explorer's own components, which
draw only observations of the viewing seat, so the page holds nothing that seat may not see (the
tests read every websocket message to check). Moves go to the table through the hub
(:class:`TablePicker`), never into the page's session directly; the hub then tells every page.

A seat pins notes to moves from under its event log (:class:`~explorer.components.timeline.NoteForm`,
through :meth:`TableHub.add_note`, which checks the seat's link); every page shows the notes its
viewpoint may read (:meth:`TableHub.visible_notes`), and only those are ever given to the page. A
finished table's page offers its telemetry as CSV (:mod:`explorer.tables.telemetry`); the lobby sums
up the ended tables' (the rules people trip over, the time per decision, per game) and offers it as CSV.

A table plays the card file chosen in the lobby: the standard cards, or one saved in the card
library for its game (:mod:`explorer.cardfiles`), named in the form and read on the server by that
name (never a path; a name the library does not hold for the game is refused, creating nothing);
its data is copied into the table (:meth:`TableHub.create`), and every page of the table says which
file it plays.

Finished games open in the explorer with every hand shown: ``/explorer?table=ID`` (the explorer's
path: ``$RULES_EXPLORER_EXPLORER_PATH``, default ``/explorer``; only once the
game is over: before, the replay would show every hand).

Every page speaks the language of its address's ``?lang=`` or else the browser's (English or
Japanese, :func:`~explorer.core.i18n.page_language`; texts: ``explorer/locales/<lang>/tables.json``),
with a language switch in its header that keeps the table and seat.
"""

from __future__ import annotations

import html
import io
import json
import secrets
import time

import panel as pn
import param

import rules
from explorer.cardfiles import CardFileError, CardLibrary, served_library
from explorer.core.i18n import bot_name, counted_text, literal, text
from explorer.boards.registry import board_for
from explorer.plots.live import LivePlots, OnLoop
from explorer.components.board_clicks import BoardClicks
from explorer.components.picker import ActionPicker, assign, seats_text
from explorer.core.links import creator_page_link, explorer_path, refusal_markdown, seat_link
from explorer.components.scores import ScoreBreakdown
from explorer.core.session import FixedViewSession, player_label, variant_label, variant_options, variant_summary
from explorer.tables.hub import CONTROLLERS, HUMAN, TableError, TableHub, db_path_from_args, get_hub
from explorer.tables.store import ENDLESS, SEED_LIMIT, TableStore, token_digest
from explorer.tables.telemetry import (csv_text as telemetry_csv, rule_summary as telemetry_rules,
                                      table_summary as telemetry_summary, time_summary as telemetry_times)
from explorer.components.timeline import EventLog
from explorer.pages.table_texts import card_file_html, esc, seat_name, t
from explorer.web.request import (LONG_WORDS_WRAP, WHOLE_NUMBER, page_language, page_origin, page_path, query_arg, shown_value,
                                  whole_number)
from explorer.core.stylesheets import stylesheet
from explorer.web.shell import PageTemplate, heading, use_page_design
from rules.protocol import IllegalAction, InvalidPosition, RulesError
from rules.replay import record as replay_record
from rules.registry import get_game
from rules.rulebook import LANGUAGES

PAGE_CSS = stylesheet("tables")
LONG_LABEL_CSS = stylesheet("components/long_label")
#: How often an open table page asks whether the operator ended its table from the command line.
ENDED_CHECK_MS = 5000


def variant_description(game: str, variant, lang: str = "en") -> str:
    """What a variant switch does, in ``lang`` (English: the engine's description), without its source
    (players read it beside a checkbox; the rules page gives the source, file names and headings)."""
    return variant.description if lang == "en" else variant_summary(game, variant.name, lang)



# ---------------------------------------------------------------------------------------------
# A table's page
# ---------------------------------------------------------------------------------------------
class TablePicker(ActionPicker):
    """The explorer's picker for one seat at a shared table: Confirm sends the move to the table.

    Moves are offered at the table's latest step only: a move is judged against the position the
    player saw, and a past step (an event-log line clicked) is not the position the table is in.
    """

    # Bots play on their own, and each seat is played from its own link: none of the explorer's
    # "view as", "take a seat" or "let bots play" widgets is made (the page's viewpoint is fixed).
    shortcuts = False

    def actable_seats(self) -> list[int]:
        return super().actable_seats() if self.session.at_end and not self.page.table.ended else []

    def __init__(self, page: "TablePage", **params):
        self.page = page
        super().__init__(**params)

    def confirm(self) -> bool:
        if self._selected is None:
            return False
        _, action = self._selected
        self._selected = None       # the board's preview goes with the move's new position (one redraw)
        return self.page.send(action)

    def let_bots_play(self) -> int:      # the table's bots play on their own timer
        return 0

    # Whom the table waits for is the page's own status line (TablePage._status_html); said again
    # here, it would be a second redraw on every page after every move. The picker's line stays put.
    @property
    def WAITING(self) -> str:
        return f'<span class="hint">{t("choices_on_your_turn", self.lang)}</span>'

    def _choose_html(self, acting: int) -> str:     # (the page's status says whose move it is)
        return f'<span class="hint">{esc(t("choose_hint", self.lang))}</span>'

    def _waiting_html(self, movers: list[int], waiting: list[int]) -> str:
        return self.WAITING if self.session.at_end else self._past_step_html()

    def _bots_html(self, movers: list[int]) -> str:
        return self.WAITING if self.session.at_end else self._past_step_html()

    def _past_step_html(self) -> str:
        session = self.session
        return (f'<span class="past-step">'
                f'{esc(t("past_step", self.lang, step=session.cursor, steps=len(session.log)))}</span>')

    def _past_step_note(self, mode: str) -> str:       # (the status says it)
        return ""


class TablePage(pn.viewable.Viewer):
    """One seat's (or a spectator's) page of a shared table; see the module docstring."""

    lang = param.Selector(default="en", objects=list(LANGUAGES), doc="The language of the page's texts.")

    def __init__(self, hub: TableHub, table_id: str, token: str | None = None, path: str = "/tables", **params):
        super().__init__(**params)
        self.hub, self.path = hub, path
        self.table = table = hub.table(table_id)          # TableError: unknown table
        self.seat = hub.seat_of(table_id, token)          # TableError: wrong key; None: spectator
        self.token = token if self.seat is not None else None
        record = table.record
        # The page's viewpoint is fixed here, for as long as the page is open (FixedViewSession).
        session = self.session = FixedViewSession(game=record.game, players=record.players, seed=record.seed,
                                                  variants=dict(record.variants), seat=self.seat)
        if record.card_file is not None:     # the table's own card file (a copy in its row), not the standard one
            session.load(replay_record(table.spec, record.players, record.seed, record.variants, [],
                                       state=table.states[0]), cursor=0)
        session.seat_players = {seat: name for seat, name in enumerate(record.controllers)}
        self._sync()
        self.header = pn.pane.HTML(self._header_html(), stylesheets=[PAGE_CSS], css_classes=["table-header"],
                                   sizing_mode="stretch_width", margin=(0, 5))
        self.status = pn.pane.HTML("", stylesheets=[PAGE_CSS], sizing_mode="stretch_width", margin=(0, 5, 6, 5))
        lang = self.lang
        self.picker = TablePicker(page=self, session=session, lang=lang) if self.seat is not None else None
        # A click on the board chooses a move as in the explorer: one of this seat's offered moves only
        # (``ActionPicker.choose_on_board``), to be confirmed as a button's choice is.
        self.board_clicks = (BoardClicks(on_click=self.picker.choose_on_board, margin=0, width=0, height=0)
                             if self.picker is not None else None)
        self.board = board_for(session, lang)
        self.log_view = EventLog(session=session, lang=lang, pin=self.pin_note if self.seat is not None else None)
        # The plots are made when their card is first opened: following a move costs each page as
        # much again as everything else on it, and most players watch the table.
        self.plots: LivePlots | None = None
        self.plots_card = pn.Card(title=t("plots_closed", lang), collapsed=True,
                                  sizing_mode="stretch_width", css_classes=["plots-card"])
        self.plots_card.param.watch(self._on_plots_card, "collapsed")
        # The final scores are made when the game ends (until then they would be redrawn, unseen, every move).
        self.scores: ScoreBreakdown | None = None
        self.download = pn.widgets.FileDownload(callback=self._replay_file, filename=f"table-{table.id}.json",
                                                label=t("download_replay", lang), color="primary",
                                                css_classes=["download-replay"], margin=(4, 5))
        self.telemetry_download = pn.widgets.FileDownload(callback=self._telemetry_file,
                                                          filename=f"table-{table.id}-telemetry.csv",
                                                          label=t("download_telemetry", lang),
                                                          css_classes=["download-telemetry"], margin=(4, 5),
                                                          stylesheets=[LONG_LABEL_CSS])
        self.rematch_button = pn.widgets.Button(label=t("rematch_same_seats", lang), css_classes=["rematch"],
                                                margin=(4, 5), visible=self.seat is not None)
        self.rematch_button.on_click(lambda event: self.rematch())
        self.end_links = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["end-links"], margin=(4, 5))
        self.telemetry = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["table-telemetry"], margin=(4, 5),
                                      sizing_mode="stretch_width")
        # Once the table has ended: the final scores (a game played to its end), the replay, the rematch.
        self.end_heading = heading(f"### {t('final_scores', lang)}", margin=(0, 5))
        self.end = pn.Column(self.end_heading, pn.Spacer(height=0),
                             pn.Row(self.download, self.rematch_button, margin=0,
                                    styles={"flex-wrap": "wrap"}), self.end_links,
                             visible=False, css_classes=["table-end"], sizing_mode="stretch_width")
        # The telemetry once the table has ended: played to its end, or ended early by its creator.
        self.telemetry_box = pn.Column(self.telemetry_download, self.telemetry, visible=False,
                                       css_classes=["table-telemetry-box"], sizing_mode="stretch_width")
        # The hub calls it from whichever thread took the move: it runs on this page's own loop.
        self._on_table_change = OnLoop(self._follow)
        self._document = self._on_table_change.document
        self._unsubscribe = hub.subscribe(table.id, self._on_table_change)
        if self._document is not None:
            self._document.on_session_destroyed(lambda context: self._unsubscribe())
        self._layout = self._make_layout()
        self._sync()        # a bot may have moved while the page was being made, before it listened
        self._show()

    # ------------------------------------------------------------------ acting
    def send(self, action) -> bool:
        """This seat plays ``action`` at the table; a refusal is shown in the picker, changing nothing.

        The move is judged against the position the page shows: at a past step (an event-log line
        clicked) it is refused, since the table is no longer there.
        """
        session = self.session
        with pn.io.hold():              # one patch message for the page's whole update
            try:
                if not session.at_end:
                    raise TableError(t("past_step_refused", "en", step=session.cursor, steps=len(session.log)),
                                     {lang: t("past_step_refused", lang, step=session.cursor, steps=len(session.log))
                                      for lang in LANGUAGES})
                self.hub.act(self.table.id, self.token, session.cursor, session.spec.encode_action(action))
            except (TableError, RulesError, ValueError) as error:
                self._sync()            # first: a new position clears the picker's message
                self._show()
                if self.picker is not None:
                    self.picker.cancel()
                    self.picker.message = t("not_played", self.lang, reason=self._refusal(error))
                return False
            self._sync()
            self._show()
        return True

    def pin_note(self, step, note_text) -> dict:
        """This seat pins a note to ``step`` of the table (the hub checks the link, the step and the
        text; TableError names what was wrong, and nothing changes). Every page is told."""
        note = self.hub.add_note(self.table.id, self.token, step, note_text)
        with pn.io.hold():
            self._sync()
        return note

    def _refusal(self, error: Exception) -> str:
        """Why the table refused a move: the rules' refusal in the page's language with a link to the
        rule that forbids it; the hub's own refusals in the page's language too."""
        if isinstance(error, TableError):
            return literal(error.problem_in(self.lang))        # (it may quote a forged value)
        if not isinstance(error, IllegalAction):
            return literal(str(error))
        return refusal_markdown(self.session.game, error, self.lang)

    def rematch(self):
        if self.seat is None or not self.table.ended:
            return None
        table = self.hub.rematch(self.table.id, by_player=True)
        self._show()
        return table

    def show_plots(self) -> LivePlots:
        """Make the score and card plots (once) and put them in their card."""
        if self.plots is None:
            with pn.io.hold():          # one message: the plots and the card's title
                self.plots = LivePlots(session=self.session, lang=self.lang)
                self.plots_card.objects = [self.plots]
                self.plots_card.title = t("plots", self.lang)
        return self.plots

    def _on_plots_card(self, event) -> None:
        # Hidden once the page's seat link was replaced: opening it then (an event fired from the
        # browser's console) shows nothing.
        if not event.new and self.plots_card.visible:
            self.show_plots()

    # ------------------------------------------------------------------ following the table
    def _follow(self) -> None:
        """The table changed: follow it, with one patch message for everything a move changes here.
        A seat whose link the creator replaced since the page opened shows nothing of the table any
        more: the page stops following it and says why, as the old link now does when opened."""
        with pn.io.hold():
            if self.seat is not None and self.table.seat_for(self.token) != self.seat:
                self._unsubscribe()
                self._layout.objects = [refusal_pane(self._bad_key(), self.lang)]
                self.plots_card.visible = False         # (a root of its own: see roots)
                self.plots_card.objects = []
                return
            self._sync()
            self._show()

    def _sync(self) -> None:
        """Follow the table's new moves (their states are the table's own)."""
        table, session = self.table, self.session
        known = len(session.log)
        upto = min(len(table.moves), len(table.states) - 1)
        if upto > known:
            session.follow(table.moves[known:upto], table.states[known + 1:upto + 1])
        # Only the notes this page's seat may read ever reach its session (and so its page).
        notes = table.visible_notes(self.seat)
        # A table its creator (or the operator) ended: at its last step no one is to move, and the board says so.
        ended_early = len(session.log) if table.record.abandoned and len(session.log) == len(table.moves) else None
        if notes != session.notes or session.notes_public != table.record.abandoned or session.ended_early != ended_early:
            session.param.update(notes=notes, notes_public=table.record.abandoned, ended_early=ended_early)

    def _show(self) -> None:
        table, session = self.table, self.session
        over = session.spec.is_over(session.state)
        assign(self.status, object=self._status_html())
        # (A table its creator ended leads to its replay, review and rematch as a finished one does;
        # its scores are not final ones.)
        assign(self.end, visible=table.ended)
        if table.ended:
            if over and self.scores is None:
                self.scores = ScoreBreakdown(session=session, lang=self.lang)
                self.end[1] = self.scores
            assign(self.end_heading, object=f"### {t('final_scores' if over else 'table_ended', self.lang)}")
            links, lang = [], self.lang
            language = "" if lang == "en" else f"&lang={lang}"
            if table.rematch:
                links.append(f'<a class="rematch-link" href="{esc(seat_link(table.rematch, self.token, path=self.path) + language)}">'
                             f'{t("go_to_rematch", lang, table=esc(table.rematch))}</a>')
            links.append(f'<a class="review-link" href="{esc(explorer_path())}?table={esc(table.id)}{esc(language)}" target="_blank">'
                         f'{t("review_in_explorer", lang)}</a>')
            self.end_links.object = " · ".join(links)
            self.rematch_button.visible = self.seat is not None and table.rematch is None
        assign(self.telemetry_box, visible=table.ended)
        if table.ended:
            assign(self.telemetry, object=self._telemetry_html())
        if self.picker is not None and table.record.abandoned and self.picker_box.visible:
            self.picker_box.visible = False          # (and it offers nothing: TablePicker.actable_seats)
            self.picker._refresh()

    # ------------------------------------------------------------------ drawing
    def _header_html(self) -> str:
        record, lang = self.table.record, self.lang
        who = (t("you_are", lang, player=f'<span class="you">{esc(seat_name(self.seat, lang))}</span>')
               if self.seat is not None else
               t("spectator_note", lang, spectator=f'<span class="you">{t("spectator", lang)}</span>'))
        seats = t("list_separator", lang).join(
            t("seat_controller", lang, player=seat_name(s, lang), controller=t("person", lang) if c == HUMAN else t("bot", lang, name=bot_name(c, lang)))
            for s, c in enumerate(record.controllers))
        table = t("header_table", lang, table=f"<code>{esc(record.id)}</code>")
        return (f'<b>{esc(self.session.spec.title)}</b> · {table} · {who}'
                f'<br><span class="quiet">{esc(seats)}{card_file_html(self.table.record.card_name, lang)}</span>')

    def _status_html(self) -> str:
        session, table, lang = self.session, self.table, self.lang
        state = session.state
        if table.problem:
            return f'<div class="table-status">{t("stopped", lang, problem=esc(table.problem))}</div>'
        if table.record.ended == ENDLESS:
            return (f'<div class="table-status ended-early ended-endless">'
                    f'{t("ended_endless", lang, n=f"{len(table.moves):,}", moves=f"{table.bot_run:,}")}</div>')
        if table.record.abandoned:
            return f'<div class="table-status ended-early">{t("ended_early", lang, n=len(table.moves))}</div>'
        if session.spec.is_over(state):
            scores = session.spec.scores(state)
            winners = t("list_separator", lang).join(t("winner", lang, player=seat_name(s, lang), score=scores[s])
                                                     for s in session.spec.winners(state))
            return (f'<div class="table-status game-over">'
                    f'{t("game_over", lang, moves=len(session.log), winners=esc(winners))}</div>')
        movers = session.spec.to_move(state)
        mine = self.seat in movers
        status = t("your_move", lang) if mine else t("waiting_for", lang, players=seats_text(movers, self._seat_label, lang))
        return (f'<div class="table-status{" your-turn" if mine else ""}" data-step="{len(session.log)}">'
                f'{t("move_status", lang, n=len(session.log), status=esc(status))}</div>')

    def _bad_key(self) -> str:
        try:
            self.hub.seat_of(self.table.id, self.token)
        except TableError as error:
            return error.problem_in(self.lang)
        return ""

    def _seat_label(self, seat: int) -> str:
        controller, lang = self.table.controller(seat), self.lang
        return seat_name(seat, lang) if controller == HUMAN else t("seat_bot", lang, player=seat_name(seat, lang), name=bot_name(controller, lang))

    def _telemetry_html(self) -> str:
        """Once the table has ended (its game over, or ended early): per seat, its decisions' median and
        mean seconds and its refused moves by rule."""
        lang = self.lang
        rows = []
        for row in telemetry_summary(self.hub.store, self.table.id):
            times = "–" if not row["decisions"] else _times_text(row, lang)
            refused = t("list_separator", lang).join(f"{rule} ×{count}" for rule, count in row["by_rule"].items()) or "–"
            rows.append(f'<tr><td>{esc(self._seat_label(row["seat"]))}</td><td>{esc(times)}</td><td>{esc(refused)}</td></tr>')
        heads = "".join(f"<th>{esc(t(key, lang))}</th>" for key in ("column.player", "column.decision_time", "column.refused"))
        return (f'<details class="telemetry"><summary>{esc(t("telemetry_title", lang))}</summary>'
                f'<table><tr>{heads}</tr>{"".join(rows)}</table></details>')

    def _telemetry_file(self):
        """The table's telemetry as CSV (decision times per seat, refusals by rule): once it has ended."""
        if not self.table.ended:
            return io.StringIO(t("telemetry_not_over", self.lang) + "\n")
        return io.StringIO(telemetry_csv(self.hub.store, self.table.id))

    def _replay_file(self):
        """The replay, with the seed, once the table has ended (played to its end, or ended early)."""
        if not self.table.ended:
            return io.StringIO(json.dumps({"error": t("replay_not_over", self.lang)}))
        return io.StringIO(json.dumps(self.table.replay(), indent=1))

    @property
    def roots(self) -> tuple[pn.viewable.Viewable, ...]:
        """The page's parts, each its own root in the served page (:func:`create_tables_page`): the
        table (header, status, picker, board, log) and the plots' card below it.

        In the browser a change inside a root makes Bokeh lay that whole root out again, and every
        figure in it then measures and repaints itself, changed or not (its toolbar too). A move
        changes the board, the log, the picker's buttons and the status in the table's root; with
        the plots in the same root each of those changes repainted all five figures on every page
        at the table. In their own root the figures repaint only for their own new data (measured
        with the plots open: a seat's page took about a third of the browser's time per move)."""
        return self._layout, self.plots_card

    def __panel__(self):
        """The whole page as one layout (a notebook, a test's document); a served page puts :attr:`roots` in its template."""
        return pn.Column(*self.roots, sizing_mode="stretch_width", margin=0)

    def _make_layout(self) -> pn.Column:
        side = pn.Column(pn.Card(self.log_view, title=t("events", self.lang), collapsible=False, sizing_mode="stretch_width",
                                 css_classes=["log-card"]),
                         styles={"flex": "1 1 300px", "max-width": "440px"}, margin=(0, 5))
        self.picker_box = pn.Column(*([self.picker] if self.picker is not None else []), margin=0,
                                    sizing_mode="stretch_width")
        play = pn.Column(self.picker_box, self.board, *([self.board_clicks] if self.board_clicks is not None else []),
                         styles={"flex": "100 1 560px"}, margin=0)
        return pn.Column(self.header, self.status, self.end, self.telemetry_box,
                         pn.FlexBox(play, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width"),
                         sizing_mode="stretch_width")


# ---------------------------------------------------------------------------------------------
# The lobby
# ---------------------------------------------------------------------------------------------
class ScrollHere(pn.custom.JSComponent):
    """An empty mark in the page that scrolls the page to itself each time ``times`` grows. It sends
    nothing back: there is nothing on the server a forged message could reach."""

    times = param.Integer(default=0, doc="Bumped to bring the mark into view.")

    _esm = """
    export function render({ model, el }) {
      model.on("times", () => el.scrollIntoView({ block: "start" }));
    }
    """

    def __init__(self, **params):
        super().__init__(height=0, margin=0, sizing_mode="stretch_width", **params)


class Lobby(pn.viewable.Viewer):
    """Create tables and list them (see the module docstring)."""

    lang = param.Selector(default="en", objects=list(LANGUAGES), doc="The language of the lobby's texts.")

    def __init__(self, hub: TableHub, origin: str = "", path: str = "/tables", library: CardLibrary | None = None,
                 **params):
        super().__init__(**params)
        self.hub, self.origin, self.path = hub, origin, path
        self.library = library if library is not None else served_library()
        lang = self.lang
        self.game = pn.widgets.Select(label=t("game", lang), options={get_game(g).title: g for g in rules.GAMES},
                                      css_classes=["lobby-game"])
        # "" : the standard cards; else a name in the library (read by name when the table is made).
        self.cards = pn.widgets.Select(label=t("cards", lang), description=t("cards_help", lang),
                                       css_classes=["lobby-cards"])
        self.players = pn.widgets.Select(label=t("players", lang), css_classes=["lobby-players"])
        self.seed = pn.widgets.TextInput(label=t("seed", lang), placeholder=t("seed_placeholder", lang), css_classes=["lobby-seed"])
        self.variants = pn.Column(margin=0)
        # (the seats' menus side by side, two to a row in the form's width: one under the other, the form
        # ran past a laptop's screen and hid its Create button)
        self.seats = pn.FlexBox(margin=0, css_classes=["lobby-seats"], flex_wrap="wrap", sizing_mode="stretch_width")
        self.create_button = pn.widgets.Button(label=t("create", lang), color="primary", css_classes=["create-table"])
        self.create_button.on_click(lambda event: self.create())
        self.message = pn.pane.Alert("", alert_type="danger", visible=False, css_classes=["lobby-message"])
        self.created = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["created-links"], sizing_mode="stretch_width")
        #: Brings the new table's links (shown only once) into view: they sit at the top of the list of
        #: tables, out of view after a click on the button at the foot of a long form (1366x768).
        self.to_links = ScrollHere()
        self.listing = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["tables-list"], sizing_mode="stretch_width")
        # (As wide as its row allows: a table's label, "c39f1ba1 (Biome Blitz, 2026-12-06 04:21)", was cut short.)
        self.rematch_of = pn.widgets.Select(label=t("rematch_finished", lang), options=[], css_classes=["rematch-select"],
                                            sizing_mode="stretch_width", max_width=440, styles={"flex": "1 1 260px", "min-width": "0"})
        self.rematch_button = pn.widgets.Button(label=t("rematch_new_seed", lang), css_classes=["lobby-rematch"])
        #: The menu and its button, shown once a table has finished (before, an empty menu over nothing).
        self.rematch_row = pn.Row(self.rematch_of, self.rematch_button, styles={"flex-wrap": "wrap"}, visible=False,
                                  css_classes=["lobby-rematch-row"])
        self.rematch_button.on_click(lambda event: self.rematch())
        self.refresh_button = pn.widgets.Button(label=t("refresh", lang), css_classes=["refresh-tables"], width=100)
        #: How many ended tables the list shows, newest first (the live ones are all shown: at most
        #: the hub's max_tables). Ended tables pile up for good; the list (and the rematch menu) of
        #: 2,000 of them was 540 kB of HTML at every refresh.
        self.ended_shown = LOBBY_ENDED_PER_PAGE
        self.more_ended = pn.widgets.Button(label="", visible=False, css_classes=["more-ended-tables"],
                                            stylesheets=[LONG_LABEL_CSS])
        self.more_ended.on_click(lambda event: self.show_more_ended())
        # Across the tables that have ended (a live table's timings and refusals are its players' until the end).
        self.telemetry_download = pn.widgets.FileDownload(
            callback=lambda: io.StringIO(telemetry_csv(self.hub.store, ended_only=True)), filename="tables-telemetry.csv",
            label=t("download_all_telemetry", lang), css_classes=["download-all-telemetry"], margin=(4, 5),
            stylesheets=[LONG_LABEL_CSS])
        # ... and summed up on the page (read again only when another table has ended: an ended table's
        # telemetry no longer changes).
        self.telemetry_across = pn.pane.HTML("", stylesheets=[PAGE_CSS], css_classes=["lobby-telemetry"],
                                             margin=(4, 5), sizing_mode="stretch_width")
        self._telemetry_ended: frozenset | None = None
        self.refresh_button.on_click(lambda event: self.refresh())
        self.game.param.watch(self._on_game, "value")
        self.players.param.watch(self._on_players, "value")
        self._on_game()
        self.refresh()

    def _card_options(self) -> None:
        """The card files of the chosen game: the standard cards, then the library's saved files (a file
        saved meanwhile appears at the next refresh; the one chosen stays chosen while it is there)."""
        try:
            names = self.library.names(self.game.value)
        except (CardFileError, OSError):
            names = []
        options = {t("cards_standard", self.lang): "", **{name: name for name in names}}
        if options != self.cards.options:
            value = self.cards.value if self.cards.value in options.values() else ""
            self.cards.param.update(options=options, value=value)

    def _on_game(self, *events) -> None:
        self._card_options()
        spec = get_game(self.game.value)
        self.players.options = list(spec.player_counts)
        self.players.value = 4 if 4 in spec.player_counts else spec.player_counts[0]
        widgets = []
        for variant in spec.variants:
            game, lang = self.game.value, self.lang
            description = variant_description(game, variant, lang)
            label = variant_label(game, variant.name, lang)
            if set(variant.choices) == {False, True}:
                widget = pn.widgets.Checkbox(label=t("variant", lang, label=label, description=description),
                                             value=variant.default)
            else:
                widget = pn.widgets.Select(label=label, options=variant_options(game, variant.name, lang),
                                           value=variant.default, description=description)
            widget.variant_name = variant.name
            widgets.append(widget)
        self.variants.objects = widgets
        self.variants.css_classes = ["lobby-variants", f"lobby-variants-{self.game.value}"]   # (the game it shows)
        self._on_players()

    def _on_players(self, *events) -> None:
        """One "who plays" menu per seat: the seats that stay keep their menu (and what was chosen)."""
        count = self.players.value or 0
        kept = list(self.seats.objects[:count])
        lang = self.lang
        options = {t("person_short", lang) if name == HUMAN else bot_name(name, lang): name for name in CONTROLLERS}
        added = [pn.widgets.Select(label=seat_name(seat, lang), options=options, value=HUMAN,
                                   css_classes=[f"lobby-seat-{seat}"], width=160)
                 for seat in range(len(kept), count)]
        if added or len(kept) != len(self.seats.objects):
            self.seats.objects = kept + added

    def create(self):
        """Create the table from the form; the links are shown (once: only their digests are kept)."""
        seed_text = self.seed.value.strip()
        shown = repr(shown_value(seed_text, 40))
        # Digits 0-9 after an optional sign; a negative or long number is a number out of range.
        if seed_text and not WHOLE_NUMBER.fullmatch(seed_text):
            return self._refuse(t("bad_seed", self.lang, seed=shown))
        seed = whole_number(seed_text, 0, SEED_LIMIT - 1) if seed_text else None
        if seed_text and seed is None:
            return self._refuse(t("seed_range", self.lang, seed=shown, limit=SEED_LIMIT - 1))
        variants = {w.variant_name: w.value for w in self.variants.objects}
        controllers = [w.value for w in self.seats.objects]
        card_name, cards = self.cards.value or None, None
        if card_name is not None:
            # By name, from the game's own folder of the library (a forged value is only ever a name).
            try:
                cards = self.library.load(self.game.value, card_name)
            except (CardFileError, InvalidPosition) as error:
                return self._refuse(t("bad_cards", self.lang, problem=error.problem_in(self.lang)))
        creator = secrets.token_urlsafe(18)
        try:
            table, tokens = self.hub.create(self.game.value, self.players.value, seed=seed, variants=variants,
                                            controllers=controllers, creator_digest=token_digest(creator),
                                            cards=cards, card_name=card_name)
        except (ValueError, RulesError, TableError) as error:
            return self._refuse(error.problem_in(self.lang) if isinstance(error, TableError) else str(error))
        self.message.visible = False
        lang = self.lang
        rows = "".join(f'<tr><td>{esc(seat_name(seat, lang))}</td><td><a class="seat-link seat-link-{seat}" '
                       f'href="{esc(seat_link(table.id, token, self.origin, self.path))}" target="_blank">'
                       f'{esc(seat_link(table.id, token, self.origin, self.path))}</a></td></tr>'
                       for seat, token in sorted(tokens.items()))
        bots = "".join(f"<tr><td>{esc(seat_name(s, lang))}</td><td>{esc(t('bot', lang, name=bot_name(c, lang)))}</td></tr>"
                       for s, c in enumerate(table.record.controllers) if c != HUMAN)
        spectator = seat_link(table.id, None, self.origin, self.path)
        sentence = t("created", lang, ready=f'<b>{t("ready", lang, table=esc(table.id))}</b>',
                     details=t("ready_details", lang, game=esc(table.spec.title), players=table.record.players),
                     send=t("send_links", lang))
        creator_link = creator_page_link(table.id, creator, self.origin, self.path)
        self.created.object = (
            f'<div class="created" data-table="{esc(table.id)}">{sentence}{card_file_html(table.record.card_name, lang, before=" ")}'
            f'<table class="links">{rows}{bots}<tr><td>{t("spectators", lang)}</td><td><a class="spectator-link" '
            f'href="{esc(spectator)}" target="_blank">{esc(spectator)}</a></td></tr>'
            f'<tr><td>{t("creator", lang)}</td><td><a class="creator-link" href="{esc(creator_link)}" target="_blank">'
            f'{esc(creator_link)}</a></td></tr></table><p>{t("creator_note", lang)}</p></div>')
        self.to_links.times += 1
        self.refresh()
        return table, tokens

    def rematch(self):
        if not self.rematch_of.value:
            return self._refuse(t("choose_rematch", self.lang))
        try:
            table = self.hub.rematch(self.rematch_of.value)
        except TableError as error:
            return self._refuse(error.problem_in(self.lang) if isinstance(error, TableError) else str(error))
        spectator, lang = seat_link(table.id, None, self.origin, self.path), self.lang
        link = f'<a class="spectator-link" href="{esc(spectator)}">{esc(spectator)}</a>'
        sentence = t("rematch_created", lang, ready=f'<b>{t("rematch_ready", lang, table=esc(table.id))}</b>',
                     keeps=t("rematch_keeps_links", lang), spectators=t("spectators_link", lang, link=link))
        self.created.object = (f'<div class="created" data-table="{esc(table.id)}">{sentence}'
                               f'{card_file_html(table.record.card_name, lang, before=" ")}</div>')
        self.to_links.times += 1
        self.refresh()
        return table

    def _refuse(self, problem: str):
        # The problem may hold what the form sent (any value: a widget's value can be forged).
        self.message.object = t("not_created", self.lang, problem=literal(problem))
        self.message.visible = True
        return None

    def show_more_ended(self) -> None:
        """List the next ``LOBBY_ENDED_PER_PAGE`` older ended tables too."""
        self.ended_shown += LOBBY_ENDED_PER_PAGE
        self.refresh()

    def refresh(self) -> None:
        self._card_options()
        rows, finished, lang = [], {}, self.lang
        comma = t("list_separator", lang)
        ended_count = 0
        for info in self.hub.listing():
            if info["over"] or info["abandoned"]:
                ended_count += 1
                if ended_count > self.ended_shown:
                    continue
                result = comma.join(t("player_points", lang, player=seat_name(s, lang), points=p)
                                    for s, p in enumerate(info["scores"] or ()))
                won = comma.join(seat_name(s, lang) for s in info["winners"] or ())
                status = (t("over_status", lang, result=result, winners=won) if info["over"] else
                          t("endless_status", lang) if info["ended"] == ENDLESS else
                          t("abandoned_status", lang, n=info["step"]) if info["step"] is not None else
                          t("abandoned_status_short", lang))
                if info["over"]:    # (a table ended early is rematched by its players only, from their pages)
                    finished[f"{info['id']} ({info['title']}, {time.strftime('%Y-%m-%d %H:%M', time.localtime(info['created']))})"] = info["id"]
                language = "" if lang == "en" else f"&lang={lang}"
                review = (f' · <a href="{esc(explorer_path())}?table={esc(info["id"])}{esc(language)}" target="_blank">'
                          f'{t("review", lang)}</a>')
            else:
                waiting = comma.join(seat_name(s, lang) for s in info["to_move"])
                status = info["problem"] or t("open_status", lang, n=info["step"], players=waiting)
                review = ""
            seats = comma.join(t("person_short", lang) if c == HUMAN else bot_name(c, lang) for c in info["controllers"])
            cards = ("" if info["card_name"] is None else
                     f'<br><span class="quiet table-cards">{t("cards_played", lang, name=esc(info["card_name"]))}</span>')
            rows.append(f'<tr class="{"over" if info["over"] else "open"}" data-table="{esc(info["id"])}">'
                        f'<td><code>{esc(info["id"])}</code></td><td>{esc(info["title"])}{cards}</td>'
                        f'<td>{t("players_seats", lang, players=info["players"], seats=esc(seats))}</td><td>{esc(status)}</td>'
                        f'<td><a href="{esc(seat_link(info["id"], path=self.path) + ("" if lang == "en" else f"&lang={lang}"))}" '
                        f'target="_blank">{t("watch", lang)}</a>{review}</td></tr>')
        heads = "".join(f"<th>{t('column.' + column, lang)}</th>" for column in ("table", "game", "players", "status", "open"))
        self.listing.object = (f'<table><tr>{heads}</tr>'
                               + "".join(rows) + "</table>") if rows else f"<i>{t('no_tables', lang)}</i>"
        hidden = max(0, ended_count - self.ended_shown)
        assign(self.more_ended, visible=bool(hidden),
               label=t("more_ended", lang, n=min(hidden, LOBBY_ENDED_PER_PAGE), hidden=f"{hidden:,}"))
        self.rematch_of.options = finished
        self.rematch_row.visible = bool(finished)
        if self.rematch_of.value not in finished.values():     # (a blank menu read as "nothing to rematch")
            self.rematch_of.value = next(iter(finished.values()), None)       # the newest finished table
        # (the tables the summary reads: those the store marks ended, as telemetry_across_html does)
        ended = frozenset(record.id for record in self.hub.store.tables() if record.finished is not None)
        if ended != self._telemetry_ended:
            self._telemetry_ended = ended
            assign(self.telemetry_across, object=telemetry_across_html(self.hub.store, lang))

    def __panel__(self):
        lang = self.lang
        form = pn.Column(heading(f"### {t('new_table', lang)}"), self.game, self.cards, self.players,
                         pn.pane.Markdown(f"**{t('variants', lang)}**"), self.variants, self.seed,
                         pn.pane.Markdown(f"**{t('who_plays', lang)}**"), self.seats, self.create_button, self.message,
                         styles={"flex": "0 1 380px", "min-width": "0"})
        tables = pn.Column(self.to_links, self.created, pn.Row(heading(f"### {t('tables', lang)}"), self.refresh_button), self.listing,
                           self.more_ended, self.rematch_row,
                           self.telemetry_download, self.telemetry_across, styles={"flex": "1 1 560px", "min-width": "0"})
        return pn.FlexBox(form, tables, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")


#: How many more ended tables the lobby lists at a time, newest first (``Lobby.ended_shown``).
LOBBY_ENDED_PER_PAGE = 20

#: How many rules of each game the lobby's summary names, most refused first (the CSV has them all).
LOBBY_RULES_PER_GAME = 5


def telemetry_across_html(store: TableStore, lang: str = "en") -> str:
    """The lobby's summary of the tables that have ended (a live table's timings and refusals are its
    players' until the end): per game, the rules refused most and the time per decision. Game ids
    and rules come from the database: every text is escaped."""
    rules_by_game: dict[str, list[dict]] = {}
    for row in telemetry_rules(store, ended_only=True):
        rules_by_game.setdefault(row["game"], []).append(row)
    times = [row for row in telemetry_times(store, ended_only=True) if row["players"] is None]
    title = f'<summary>{esc(t("telemetry_across_title", lang))}</summary>'
    if not rules_by_game and not times:
        return f'<details class="telemetry across-tables">{title}<p><i>{esc(t("telemetry_none_ended", lang))}</i></p></details>'

    def heads(*keys: str) -> str:
        return "<tr>" + "".join(f"<th>{esc(t('column.' + key, lang))}</th>" for key in keys) + "</tr>"

    rules_rows = "".join(
        f'<tr class="tripped"><td>{esc(_game_title(game))}</td><td>{esc(row["rule"])}</td>'
        f'<td>{row["refusals"]}</td><td>{row["tables"]}</td></tr>'
        for game in sorted(rules_by_game, key=_game_title) for row in rules_by_game[game][:LOBBY_RULES_PER_GAME])
    times_rows = "".join(
        f'<tr class="game-time"><td>{esc(_game_title(row["game"]))}</td><td>{esc(_times_text(row, lang))}</td>'
        f'<td>{row["tables"]}</td></tr>' for row in sorted(times, key=lambda row: _game_title(row["game"])))
    tables = []
    if rules_rows:
        tables.append(f'<table class="tripped-rules"><caption>{esc(t("telemetry_rules_caption", lang))}</caption>'
                      f'{heads("game", "rule", "refusals", "tables_count")}{rules_rows}</table>')
    if times_rows:
        tables.append(f'<table class="game-times"><caption>{esc(t("telemetry_times_caption", lang))}</caption>'
                      f'{heads("game", "decision_time", "tables_count")}{times_rows}</table>')
    return f'<details class="telemetry across-tables">{title}{"".join(tables)}</details>'


def _times_text(row: dict, lang: str) -> str:
    return counted_text("tables.telemetry_times", lang, row["decisions"], median=f'{row["median_seconds"]:.1f}',
                        mean=f'{row["mean_seconds"]:.1f}', n=row["decisions"])


def _game_title(game: str) -> str:
    """A game's title; a game id this server does not know (a file from elsewhere), as it is."""
    return get_game(game).title if game in rules.GAMES else game


# ---------------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------------
def create_tables_page(hub: TableHub | None = None, lang: str | None = None) -> pn.template.BaseTemplate:
    """The page for the address: a table (``?table=ID`` with ``&seat=KEY`` for a seat) or the lobby,
    in the language of ``?lang=`` or the browser's (:func:`~explorer.core.i18n.page_language`), with a
    language switch in its header."""
    use_page_design()
    hub = hub or get_hub(db_path_from_args())
    lang = lang or page_language()
    table_id, token, creator = query_arg("table"), query_arg("seat"), query_arg("creator")
    template = PageTemplate(page="tables", lang=lang, title=t("page_title", lang),
                            switch={"table": table_id, "seat": token, "creator": creator})
    if table_id is None:
        lobby = Lobby(hub, origin=page_origin(), path=page_path(), lang=lang)
        template.main.append(lobby)
        if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
            pn.state.add_periodic_callback(lobby.refresh, period=5000)
        template.lobby = lobby
        return template
    try:
        if creator is not None:
            from explorer.pages.table_creator import CreatorPage

            page = CreatorPage(hub, table_id, creator, origin=page_origin(), path=page_path(), lang=lang)
        else:
            page = TablePage(hub, table_id, token, path=page_path(), lang=lang)
    except TableError as error:
        template.main.append(refusal_pane(error.problem_in(lang), lang))
        lobby_href = page_path() + ("" if lang == "en" else f"?lang={lang}")
        template.main.append(pn.pane.HTML(f'<a href="{esc(lobby_href)}">{t("go_to_lobby", lang)}</a>'))
        return template
    template.main.extend(page.roots if isinstance(page, TablePage) else [page])
    template.table_page = page
    if pn.state.curdoc is not None and pn.state.curdoc.session_context is not None:
        # (a table the operator ends from the command line: its pages say so within seconds)
        pn.state.add_periodic_callback(lambda: hub.notice_end(table_id), period=ENDED_CHECK_MS)
    return template


def refusal_pane(problem: str, lang: str) -> pn.pane.Alert:
    """Why a table's page shows nothing of the table (a wrong or replaced key, an unknown table)."""
    return pn.pane.Alert(literal(t("refused", lang, problem=f"{problem[:1].upper()}{problem[1:]}")),
                         alert_type="danger", css_classes=["table-refused"], styles=LONG_WORDS_WRAP)


def review_replay(table_id: str, hub: TableHub | None = None, lang: str = "en") -> dict:
    """The replay of a finished table, for the explorer's ``?table=ID``; TableError (in ``lang``) if not over."""
    hub = hub or get_hub(db_path_from_args())
    table = hub.table(table_id)
    if not table.ended:
        raise TableError(t("still_playing", lang, table=table_id))
    return table.replay()
