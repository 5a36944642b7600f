"""The explorer web app: deal a game, watch bots play it or play it yourself, step through it.

Layout (one :class:`ExplorerApp` per browser session, all state in one
:class:`~explorer.core.session.GameSession`; the widgets only assign to the session, the views watch it):

* sidebar: set-up (game, players, seed, variant switches, bot, "New game" buttons), who plays
  each seat ("Played by": a person or a bot) and the point of view ("View as");
* main, top: the replay-problem notice (when a variant change cut the line) and the stepper
  (|◀ ◀ ▶ ▶| buttons, slider; arrow keys work anywhere on the page);
* main, ``self.tabs``: the "Table" tab holds the action picker and the board, with the clickable
  event log and the lines of play beside them; "Plots & scores" the live plots and the score
  breakdown; "What-if setup" the setup editor (edit, load and save positions and replays; made when
  its tab is first shown).
  Further tabs are added with :meth:`ExplorerApp.add_tab`.

The default page is a bot-played 4-player Subastral game at step 0, to step through; taking a
seat is one click ("Play as Player N" in the picker, or "New game: me as Player 1").

``create_app()`` returns the Panel template; ``apps/explorer`` serves it. The
:class:`ExplorerApp` behind the template is reachable as ``template.explorer`` (tests drive its
widgets in Python through ``controls``, ``picker``, ``stepper``, ``log_view`` and ``branches``).
"""

from __future__ import annotations

from functools import cached_property
from html import escape as esc

import panel as pn
import param
from panel.io.state import set_curdoc

import rules
from play.seeds import splitmix64
from explorer.boards.registry import board_for
from explorer.components.advisor import MoveAdvisor
from explorer.components.board_clicks import BoardClicks
from explorer.core.carry import CARRIED, Carried, restored, snapshot
from explorer.core.i18n import bot_name, literal, text
from explorer.core.stylesheets import stylesheet
from explorer.core.links import rules_href, tutorial_href
from explorer.pages.tutorial import available as tutorials_available
from explorer.components.picker import HUMAN, ActionPicker, SeatControllers
from explorer.plots.live import LivePlots
from explorer.components.scores import FinalScores, ScoreBreakdown
from explorer.components.setup_editor import SetupEditor
from explorer.tables.hub import TableError
from explorer.cardfiles import CardFileError, served_library
from explorer.pages.table_pages import review_replay
from explorer.web.request import LONG_WORDS_WRAP, carry_key, page_language, query_arg, shown_value, whole_number
from explorer.core.session import (GameSession, VariantSwitches, player_label, variant_label, variant_note,
                                   variant_options, variant_summary)
from explorer.components.timeline import BranchesPanel, EventLog, ReplayProblem, Stepper
from explorer.components.whole_number import WholeNumberInput
from explorer.web.shell import PageTemplate, heading, use_page_design
from rules.rulebook import LANGUAGES
from rules.protocol import InvalidPosition, RulesError, load_json
from rules.replay import SEED_LIMIT, record

BUSY_CSS = stylesheet("components/busy")
NOTE_STYLE = {"font-size": "0.8em", "color": "#5a6878", "margin-top": "-4px"}


TEACHER = -1  # the "View as" widget's value for the teacher (a Select cannot show None as chosen)


def next_seed(seed: int) -> int:
    """The seed "New game" deals after ``seed``: another one, the same on every machine (a page's
    sequence of new games can be told and replayed: 1, then next_seed(1)...), below a million."""
    following = splitmix64(seed) % 1_000_000
    return following if following != seed else (seed + 1) % 1_000_000


def player_name(seat: int, lang: str) -> str:
    return text("explorer.player", lang, n=seat + 1)


def _options_for_seats(players: int, lang: str = "en") -> dict[str, int]:
    return {text("explorer.teacher", lang): TEACHER, **{player_name(seat, lang): seat for seat in range(players)}}


def bot_session(**params) -> GameSession:
    """The default page's session: every seat a bot, the whole game played, the cursor at the deal.
    ``params`` are GameSession's (``game``, ``players``, ``seed``); its defaults: 4-player Subastral, seed 1."""
    session = GameSession(**params)
    session.seat_players = {seat: session.bot for seat in range(session.players)}
    session.autoplay(then_goto=0)
    return session


class ExplorerApp(pn.viewable.Viewer):
    """Widgets, picker, board, log and lines of play around one session. One instance per browser session."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), constant=True,
                          doc="The page's language (``?lang=``, else the browser's): rule links and explanations.")
    card_file = param.String(default=None, allow_None=True, constant=True,
                             doc="The saved card file the address dealt the game with (``&cards=NAME``): the "
                                 "language switch keeps it while the session plays with that file.")

    def __init__(self, session: GameSession | None = None, **params):
        super().__init__(session=session or bot_session(), **params)
        session = self.session
        # (the game the card file was given for: another game, or a replay's own file, drops the name)
        self._card_file_spec = session.spec if self.card_file else None
        self.carry_token = carry_key(lambda: snapshot(self.session, self._kept_card_file()))
        self.controls: dict[str, pn.widgets.Widget] = {}
        self.seat_controllers = SeatControllers(session=session, lang=self.lang)
        self.stepper = Stepper(session=session, lang=self.lang)
        self.picker = ActionPicker(session=session, lang=self.lang)
        self.advisor = MoveAdvisor(session=session, lang=self.lang)
        self.board = board_for(session, self.lang)
        # Each game draws its own board: a new game in the same session swaps it.
        self.board_slot = pn.Column(self.board, sizing_mode="stretch_width", margin=0)
        session.param.watch(self._on_game, "game")
        self.log_view = EventLog(session=session, lang=self.lang)
        self.rules_links = pn.pane.HTML("", css_classes=["rules-links"], margin=(0, 10, 8, 10), sizing_mode="stretch_width")
        session.param.watch(self._sync_rules_links, ["game", "spec"])
        self._sync_rules_links()
        self.branches = BranchesPanel(session=session, lang=self.lang)
        self.replay_problem = ReplayProblem(session=session, lang=self.lang)
        self._build_controls()
        session.param.watch(self._sync_seats, ["players", "viewing_seat"])
        session.param.watch(self._sync_variants, ["variant_switches"])
        session.param.watch(self._play_the_new_deal, ["game", "players", "seed"])
        self.template = self._build_template()
        self.plots = LivePlots(session=session, lang=self.lang)
        self.scores = ScoreBreakdown(session=session, lang=self.lang)
        t = self._text
        self.add_tab(t("explorer.plots_tab"), pn.Column(self.plots, self.scores, sizing_mode="stretch_width"))
        # The what-if editor is made when its tab is first shown (or a caller asks for it): its form is
        # about a third of the server's work to make an explorer page, and most visits never open it.
        self._setup_slot = pn.Column(sizing_mode="stretch_width", margin=0, css_classes=["setup-slot"])
        self.add_tab(t("explorer.setup_tab"), self._setup_slot)
        self.setup_tab = len(self.tabs) - 1
        self.tabs.param.watch(self._on_tab, "active")
        self.template.explorer = self

    # ------------------------------------------------------------------ widgets
    def _build_controls(self) -> None:
        t = self._text
        session = self.session
        c = self.controls
        c["game"] = pn.widgets.Select.from_param(
            session.param.game, label=t("explorer.game"),
            options={rules.get_game(game).title: game for game in rules.GAMES}, css_classes=["game-select"])
        c["players"] = pn.widgets.IntSlider.from_param(session.param.players, label=t("explorer.players"))
        # (A game for one count, Stellar's two, gives the slider equal ends, which Bokeh refuses: every
        # such page logged an error on the server. The slider is hidden then; its end is kept one above.)
        c["players"].param.watch(self._keep_slider_ends_apart, ["start", "end"])
        self._keep_slider_ends_apart()
        # A game for one player count only (Stellar: two) says so; a slider of one value looked broken.
        c["players_fixed"] = pn.pane.HTML("", css_classes=["players-fixed"], margin=(5, 10))
        session.param.watch(self._sync_players, ["spec", "players"])
        self._sync_players()
        c["seed"] = WholeNumberInput.from_param(session.param.seed, label=t("explorer.seed"), css_classes=["seed-input"])
        c["bot"] = pn.widgets.RadioButtonGroup.from_param(
            session.param.bot, label=t("explorer.bots"),
            options={bot_name(name, self.lang): name for name in session.param.bot.objects})
        c["new_game"] = pn.widgets.Button(label=t("explorer.new_game"), color="primary", css_classes=["new-game"],
                                          sizing_mode="stretch_width", description=t("explorer.new_game_note"))
        c["new_game"].on_click(self._new_bot_game)
        c["new_game_human"] = pn.widgets.Button(label=t("explorer.new_game_human"), color="success",
                                                css_classes=["new-game-human"], sizing_mode="stretch_width",
                                                description=t("explorer.new_game_human_note"))
        c["new_game_human"].on_click(self._new_human_game)
        self.variant_box = pn.Column(sizing_mode="stretch_width", margin=0)
        self._sync_variants()
        c["view_as"] = pn.widgets.Select(label=t("explorer.view_as"), options=_options_for_seats(session.players, self.lang),
                                         value=self._seat_value(), css_classes=["view-as"])
        c["view_as"].param.watch(self._on_view_as, "value")
        c.update(self.stepper.controls)          # start, back, forward, end, step

    def _text(self, key: str, **values) -> str:
        return text(key, self.lang, **values)

    def _keep_slider_ends_apart(self, *events) -> None:
        slider = self.controls["players"]
        if slider.start >= slider.end:
            slider.end = slider.start + 1

    def _sync_players(self, *events) -> None:
        low, high = self.session.param.players.bounds
        fixed = low == high
        self.controls["players"].visible = not fixed
        self.controls["players_fixed"].visible = fixed
        if fixed:
            self.controls["players_fixed"].object = esc(self._text("explorer.players_fixed", n=low))

    def _sync_variants(self, *events) -> None:
        t = self._text
        switches: VariantSwitches = self.session.variant_switches
        game, lang = self.session.game, self.lang
        widgets = []
        for name, parameter in switches.param.objects("existing").items():
            if name == "name":
                continue
            label, note = variant_label(game, name, lang), variant_note(game, name, lang)
            if isinstance(parameter, param.Boolean):
                widget = pn.widgets.Checkbox.from_param(switches.param[name], label=label, css_classes=[f"variant-{name}"])
            else:
                widget = pn.widgets.Select.from_param(switches.param[name], name=label, description=note,
                                                      options=variant_options(game, name, lang),
                                                      css_classes=[f"variant-{name}"])
            self.controls[f"variant:{name}"] = widget
            widgets.append(widget)
            # What it changes; its source (file names, the rules text's headings) on the rules page.
            source = (f'<a class="variant-source" href="{esc(rules_href(game, lang))}#switch-{esc(name)}" '
                      f'target="rules">{esc(t("explorer.variant_source"))}</a>')
            widgets.append(pn.pane.HTML(f'{esc(variant_summary(game, name, lang))} {source}', styles=NOTE_STYLE,
                                        margin=(0, 10), css_classes=[f"variant-note-{name}"]))
        self.variant_box.objects = widgets or [pn.pane.Markdown(t("explorer.no_variants"))]

    def _sync_rules_links(self, *events) -> None:
        """The game's rules page and tutorial; the header's language switch keeps the game (and the
        saved card file while the game is dealt with it)."""
        lang, game = self.lang, self.session.game
        if events:
            self.template.keep_in_switch(**self._switch_args())
        title = rules.get_game(game).title
        tutorial = (f'<div><a class="tutorial-page-link" href="{esc(tutorial_href(game, lang))}" target="tutorial">'
                    f'{text("explorer.tutorial_link", lang, game=title)}</a></div>' if game in tutorials_available() else "")
        self.rules_links.object = (f'<div><a class="rules-page-link" href="{esc(rules_href(game, lang))}" target="rules">'
                                   f'{text("explorer.rules_link", lang, game=title)}</a></div>{tutorial}')

    def _switch_args(self) -> dict[str, str | None]:
        """What the language switch keeps in its addresses: the game, the key to this page's game
        (``resume``: the line, the cursor, the seats... see ``explorer.core.carry``), and the card
        file's name while the session is dealt with the file the address named."""
        return {"game": self.session.game, "resume": self.carry_token, "cards": self._kept_card_file()}

    def _kept_card_file(self) -> str | None:
        return self.card_file if self.card_file and self.session.spec is self._card_file_spec else None

    def _sync_seats(self, *events) -> None:
        options = _options_for_seats(self.session.players, self.lang)
        view_as = self.controls["view_as"]
        if list(view_as.options.values()) != list(options.values()):
            view_as.options = options
        view_as.value = self._seat_value()

    def _play_the_new_deal(self, *events) -> None:
        """A game, player count or seed chosen in the sidebar (or by "New game") opens as the default page
        does: when every seat is a bot, the bots play the whole game and the cursor waits at the deal;
        when someone plays by hand, the bots play up to the first decision that is theirs. A replay or a
        what-if position is shown as it was loaded (it has moves, or a start of its own)."""
        session = self.session
        if session.log or session.start is not None:
            return
        chosen = session.seat_players
        if not chosen or all(name != HUMAN for name in chosen.values()):
            session.seat_players = {seat: chosen.get(seat, session.bot) for seat in range(session.players)}
            self.picker.play_bots(session.seat_players, then_goto=0)
        else:
            self.picker.let_bots_play()

    def _seat_value(self) -> int:
        return TEACHER if self.session.viewing_seat is None else self.session.viewing_seat

    def _on_view_as(self, event) -> None:
        self.session.viewing_seat = None if event.new == TEACHER else event.new

    # ------------------------------------------------------------------ new games
    def _new_bot_game(self, event=None) -> None:
        """A new deal (a new seed, shown in the seed field), every seat a bot (the chosen one), the whole
        game played, the cursor at the deal."""
        session = self.session
        session.seat_players = {seat: session.bot for seat in range(session.players)}
        session.viewing_seat = None         # (the teacher's view, as the default page)
        self._deal_new_seed()

    def _new_human_game(self, event=None) -> None:
        """A new deal (a new seed) with Player 1 played by you (seen as Player 1), the other seats by the
        chosen bot, who play up to your first decision."""
        session = self.session
        session.seat_players = {0: HUMAN, **{seat: session.bot for seat in range(1, session.players)}}
        self._deal_new_seed()
        session.viewing_seat = 0

    def _deal_new_seed(self) -> None:
        """Deal the game again from the next seed (``next_seed``; ``_play_the_new_deal`` plays it). The seed
        field shows it, so the same deal can be had again by typing it (a typed seed deals at once)."""
        session = self.session
        session.seed = next_seed(session.seed)      # (the session deals anew when its seed changes)

    # ------------------------------------------------------------------ layout
    def _on_game(self, event) -> None:
        self.board = board_for(self.session, self.lang)
        self.board_slot.objects = [self.board]

    @cached_property
    def setup_editor(self) -> SetupEditor:
        """The what-if editor in its tab, made on first use. It refills its form only while its tab is
        shown (a refill costs more than a step)."""
        editor = SetupEditor(session=self.session, lang=self.lang, following=self.tabs.active == self.setup_tab)
        self._setup_slot.objects = [editor]
        return editor

    def _on_tab(self, event) -> None:
        """Show the chosen tab. In a served page its spinner goes out first and the view follows on the
        next tick: drawing the plots or the what-if form took a second, during which the tab was blank."""
        document = pn.state.curdoc
        if document is not None and document.session_context:
            for index, mount in enumerate(self.tabs):          # (a tab left while drawing holds nothing)
                shown = [self._drawing] if index == event.new else []
                if index in (event.old, event.new) and list(mount) != shown:
                    mount.objects = shown                       # (sent before the view is drawn)
            document.add_next_tick_callback(lambda: self._show_tab(document))
        else:
            self._show_tab()

    @cached_property
    def _drawing(self) -> pn.pane.HTML:
        """What a tab shows while its view is being drawn: a turning ring and "Drawing…"."""
        return pn.pane.HTML(f"<p>{esc(self._text('explorer.drawing'))}</p>", css_classes=["busy", "tab-drawing"],
                            stylesheets=[BUSY_CSS], margin=(20, 10))

    def _show_tab(self, document=None) -> None:
        """Mount the shown tab's view; ``document``: the served page's, made the current one (a view
        drawn outside its document takes Panel's CDN for the page's resources: see _mount_shown_tab)."""
        if document is not None:
            with set_curdoc(document):
                return self._show_tab()
        self._mount_shown_tab()
        if self.tabs.active == self.setup_tab:
            self.setup_editor.following = True
        elif "setup_editor" in self.__dict__:       # (made already: cached_property keeps it there)
            self.setup_editor.following = False

    def add_tab(self, title: str, view) -> None:
        """Add a tab beside "Table" in the main area (for "Plots", "Scores", "Setup"...)."""
        self._tab_views.append(view)
        self.tabs.append((title, pn.Column(sizing_mode="stretch_width", margin=0, css_classes=["tab-mount"])))
        self._mount_shown_tab()

    def _mount_shown_tab(self) -> None:
        """Only the shown tab holds its view; the others hold nothing until they are shown again.

        Panel keeps a hidden tab's models to draw it again, but they are no longer in the page's
        document, and it still updates them when their panes change (a step changes the board, the
        log, the score breakdown). When it updates an HTML pane whose model has no document, Panel
        assumes the page loads its resources from Panel's CDN: it sets the stylesheet every part of the
        page shares (``loading.css``) to the CDN's address, and the next part drawn in the document sets
        it back. Each change made the browser fetch cdn.holoviz.org (a server outside this one, from a
        page meant to work offline) and put the stylesheets of every part of the page in again: a
        position file loaded on the what-if tab (four such changes) showed after 1.6 to 1.9 s instead of
        0.36 s. A view taken out of its tab is cleaned up by Panel (its models forgotten), updated only
        in Python while hidden, and drawn afresh from the session when its tab is shown again."""
        shown = self.tabs.active
        for index, (mount, view) in enumerate(zip(self.tabs, self._tab_views)):
            objects = [view] if index == shown else []
            if list(mount) != objects:
                mount.objects = objects

    def _build_template(self) -> pn.template.BaseTemplate:
        t = self._text
        c = self.controls
        sidebar = [
            self.rules_links,
            heading(t("explorer.setup"), margin=(0, 10)),
            c["game"], c["players"], c["players_fixed"], c["seed"],
            pn.pane.Markdown(t("explorer.variants"), margin=(6, 10, 0, 10)),
            self.variant_box,
            pn.pane.Markdown(t("explorer.bots_heading"), margin=(6, 10, 0, 10)), c["bot"],
            c["new_game"], c["new_game_human"],
            pn.layout.Divider(),
            pn.pane.Markdown(t("explorer.played_by"), margin=(0, 10)),
            self.seat_controllers,
            pn.layout.Divider(),
            c["view_as"],
        ]
        # The advisor (its chart, its settings) is put in its card when the card is first opened: a
        # third of the page's Bokeh models, which a page that never asks for advice need not build
        # (measured per explorer page: the server's time down a fifth, the browser's by 8%).
        self.advisor_card = pn.Card(title=t("explorer.advisor"), collapsed=True,
                                    sizing_mode="stretch_width", css_classes=["advisor-card"], margin=(0, 5, 8, 5))
        self.advisor_card.param.watch(self._on_advisor_card, "collapsed")
        side = pn.Column(
            pn.Card(self.log_view, title=t("explorer.events"), collapsible=False,
                    sizing_mode="stretch_width", css_classes=["log-card"], margin=(0, 0, 8, 0)),
            pn.Card(self.branches, title=t("explorer.lines"), collapsible=False, sizing_mode="stretch_width",
                    css_classes=["branches-card"], margin=(0, 0, 8, 0)),
            styles={"flex": "1 1 300px", "max-width": "440px"}, margin=(0, 5),
        )
        # At the end of a game, its final score breakdown under the board (as on the tables page).
        self.final_scores = FinalScores(session=self.session, lang=self.lang)
        # The advisor sits under the moves it weighs, where the player decides (it was below the lines of play).
        # A click on the board chooses a move too (the picker's offers only; confirmed as a button's).
        self.board_clicks = BoardClicks(on_click=self.picker.choose_on_board, margin=0, width=0, height=0)
        play = pn.Column(self.picker, self.advisor_card, self.board_slot, self.final_scores, self.board_clicks,
                         styles={"flex": "100 1 560px"}, margin=0)
        # The log and lines of play sit right of the board on wide screens and below it on narrow ones.
        table = pn.FlexBox(play, side, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")

        # ---- INTEGRATION POINT: further main-area views ("Plots", "Scores", "Setup") are tabs here,
        # added with self.add_tab(title, view). The stepper and the replay notice stay above the tabs,
        # so every tab follows the cursor. A tab holds its view only while shown (_mount_shown_tab),
        # which keeps the first load fast; hidden views keep their data up to date all the same.
        self.tabs = pn.Tabs(sizing_mode="stretch_width", css_classes=["main-tabs"], dynamic=True)
        self._tab_views: list = []
        self.add_tab(t("explorer.table_tab"), table)
        main = pn.Column(self.replay_problem, self.stepper, self.tabs, sizing_mode="stretch_width", margin=0)
        # (No busy spinner, on any page: a step answers in milliseconds, and the spinner's own updates,
        # sent from Panel's event bookkeeping, were seen to trip Bokeh's document lock under load.)
        return PageTemplate(page="explorer", lang=self.lang, switch=self._switch_args(),
                            title=t("explorer.title"), sidebar=sidebar, main=[main], sidebar_width=330)

    def _on_advisor_card(self, event) -> None:
        if not event.new and not self.advisor_card.objects:
            self.advisor_card.objects = [self.advisor]

    def __panel__(self):
        return self.template


def create_app(session: GameSession | None = None) -> pn.template.BaseTemplate:
    """The explorer page. Without a session: a bot-played 4-player Subastral game at step 0, the game
    the address names (``/explorer?game=biome_blitz&players=3&seed=7``, ``&cards=NAME`` for a saved card file,
    see :func:`addressed_session`),
    or, for ``/explorer?table=ID``, that finished playtest table's game with every hand shown. With
    ``&resume=KEY`` (the language switch's links), a copy of the game of the page that gave out the
    key (:func:`resumed_session`); when no page has it, the page says so and opens as the rest of its
    address asks."""
    use_page_design()
    notice = alert = card_file = None
    table_id = query_arg("table") if session is None else None
    resume = query_arg("resume") if session is None and table_id is None else None
    if resume is not None:
        session, card_file = resumed_session(resume)
        if session is None:
            notice, alert = text("explorer.address.resume", page_language()), "resume-refused"
    if table_id is not None:
        try:
            session = GameSession()
            session.load(review_replay(table_id, lang=page_language()), cursor=0)
        except TableError as error:
            session, notice, alert = None, f"Table review: {error}.", "review-refused"
    elif session is None:
        session, refused = addressed_session(query_arg, page_language())
        if refused is not None:         # (after a refused key: both said, both marked)
            notice = f"{notice} {refused}" if notice else refused
            alert = f"{alert} address-refused" if alert else "address-refused"
        card_file = query_arg("cards") if session is not None and refused is None else None
    template = ExplorerApp(session=session, lang=page_language(), card_file=card_file).template
    if notice:
        # (it holds the address's values: shown as they are, never read as HTML or Markdown)
        template.main.insert(0, pn.pane.Alert(literal(notice), alert_type="warning", css_classes=alert.split(),
                                              styles=LONG_WORDS_WRAP))
    return template


def resumed_session(token: str) -> tuple[GameSession | None, str | None]:
    """A copy of the game the page that gave out ``token`` holds (its language switch's ``resume``,
    ``explorer.core.carry``) and the card file's name its address named; (None, None) when no page
    has that key (never given, or let go: an hour after its page closed, or a restart)."""
    carried = CARRIED.find(token, Carried)
    if carried is None:
        return None, None
    try:
        return restored(carried), carried.card_file
    except RulesError:          # (it loaded when it was played: only a change of rules since stops it)
        return None, None


def addressed_session(arg, lang: str) -> tuple[GameSession | None, str | None]:
    """The game the page's address asks for with ``game``, ``players`` and ``seed`` (``arg(name)``
    gives each, or None), opened as the default page is (``bot_session``), and None; or (None, why
    not) in ``lang`` when a value cannot be played, so the page opens as usual and says which value
    it could not take. (None, None): nothing asked."""
    game, players, seed, cards = arg("game"), arg("players"), arg("seed"), arg("cards")
    if game is None and players is None and seed is None and cards is None:
        return None, None
    if game is not None and game not in rules.GAMES:
        return None, text("explorer.address.game", lang, game=shown_value(game), games=", ".join(rules.GAMES))
    spec = rules.get_game(game or rules.GAMES[0])
    params = {"game": spec.id}
    if players is not None:
        count = whole_number(players, min(spec.player_counts), max(spec.player_counts))
        if count not in spec.player_counts:
            counts = ", ".join(map(str, spec.player_counts))
            return None, text("explorer.address.players", lang, title=spec.title, counts=counts, players=shown_value(players))
        params["players"] = count
    if seed is not None:
        number = whole_number(seed, -SEED_LIMIT + 1, SEED_LIMIT - 1)
        if number is None:
            return None, text("explorer.address.seed", lang, seed=shown_value(seed), limit=f"{SEED_LIMIT - 1:,}")
        params["seed"] = number
    if cards is not None:
        return card_file_session(spec, cards, params, lang, arg("moves"))
    return bot_session(**params), None


def card_file_session(spec, name: str, params: dict, lang: str, moves: str | None = None) -> tuple[GameSession, str | None]:
    """``/explorer?game=...&cards=NAME``: a game dealt with the card file saved as ``NAME`` in the card
    library (``explorer/cardfiles.py``; a name, never a path), opened as :func:`addressed_session` opens
    a game; the standard cards and why not when there is no such file or the game refuses it.
    ``&moves=`` (a replay's ``actions``, as JSON: a tutorial stopped by the file links so) opens the game
    after those moves, each checked by the engine; the standard cards and why not when one is refused."""
    try:
        game = spec.with_card_file(served_library().load(spec.id, name))
    except (CardFileError, InvalidPosition) as error:
        return bot_session(**params), text("workshop.address.cards", lang, name=shown_value(name), problem=error.problem_in(lang))
    seed = params.get("seed", GameSession.param.seed.default)
    # The players asked for; else the page's usual count, or the nearest the file can deal (a file can
    # hold too few cards for four: the editor's link to the explorer names no count).
    default = GameSession._default_players(spec)
    counts = [params["players"]] if "players" in params else sorted(spec.player_counts, key=lambda n: (abs(n - default), n))
    for players in counts:
        try:
            first = game.new_game(players, seed)
            break
        except InvalidPosition as error:
            refused = error
    else:
        return bot_session(**params), text("workshop.address.cards", lang, name=shown_value(name), problem=refused.problem_in(lang))
    session = GameSession(game=spec.id, players=players, seed=seed)
    data = record(game, players, seed, None, [], state=first)
    try:
        if moves is not None:
            data["actions"] = load_json(moves, what="moves")
        session.load(data)
    except InvalidPosition as error:
        return bot_session(**params), text("explorer.address.moves", lang, name=shown_value(name), problem=error.problem_in(lang))
    session.seat_players = {seat: session.bot for seat in range(session.players)}
    session.autoplay(then_goto=len(data["actions"]))
    return session, None
