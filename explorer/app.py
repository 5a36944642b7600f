"""The explorer web app, "Foundation" stepper: deal a game, let bots play it, step through it.

The sidebar holds the set-up (game, players, seed, variant switches), the point of view ("View
as") and the stepper; the main area shows the board and the log of every event up to the cursor.
All state lives in one :class:`~explorer.session.GameSession`; the widgets are made per app (one
app per browser session) and only assign to the session, the views only watch it.

``create_app()`` returns the Panel template; ``apps/explorer.py`` serves it. The
:class:`ExplorerApp` behind the template is reachable as ``template.explorer`` (tests drive its
widgets in Python through ``controls``).
"""

from __future__ import annotations

import random

import panel as pn
import param

import rules
from explorer.board import EventLog, board_for
from explorer.session import GameSession, VariantSwitches, player_label

NOTE_STYLE = {"font-size": "0.8em", "color": "#5a6878", "margin-top": "-4px"}


TEACHER = -1  # the "View as" widget's value for the teacher (a Select cannot show None as chosen)


def _options_for_seats(players: int) -> dict[str, int]:
    return {"Teacher (everything)": TEACHER, **{player_label(seat): seat for seat in range(players)}}


class ExplorerApp(pn.viewable.Viewer):
    """Widgets, board and log around one session. One instance per browser session."""

    session = param.ClassSelector(class_=GameSession, constant=True)

    def __init__(self, session: GameSession | None = None, **params):
        if session is None:
            session = GameSession(game="subastral", players=4, seed=1)
            session.autoplay(then_goto=0)
        super().__init__(session=session, **params)
        self.controls: dict[str, pn.widgets.Widget] = {}
        self._build_controls()
        self.board = board_for(session)
        self.log_view = EventLog(session=session)
        session.param.watch(self._sync_stepper, ["cursor", "log"])
        session.param.watch(self._sync_seats, ["players", "viewing_seat"])
        session.param.watch(self._sync_variants, ["variant_switches"])
        self._sync_stepper()
        self.template = self._build_template()
        self.template.explorer = self

    # ------------------------------------------------------------------ widgets
    def _build_controls(self) -> None:
        session = self.session
        c = self.controls
        c["game"] = pn.widgets.Select.from_param(
            session.param.game, label="Game",
            options={rules.get_game(game).title: game for game in rules.GAMES})
        c["players"] = pn.widgets.IntSlider.from_param(session.param.players, label="Players")
        c["seed"] = pn.widgets.IntInput.from_param(session.param.seed, label="Seed")
        c["random_seed"] = pn.widgets.Button(label="Random seed", css_classes=["random-seed"], width=130)
        c["random_seed"].on_click(lambda event: setattr(self.session, "seed", random.randrange(1_000_000)))
        c["bot"] = pn.widgets.RadioButtonGroup.from_param(session.param.bot, label="Bots")
        c["new_game"] = pn.widgets.Button(label="New game (bots)", color="primary", css_classes=["new-game"],
                                          sizing_mode="stretch_width")
        c["new_game"].on_click(self._new_bot_game)
        self.variant_box = pn.Column(sizing_mode="stretch_width", margin=0)
        self._sync_variants()
        c["view_as"] = pn.widgets.Select(label="View as", options=_options_for_seats(session.players),
                                         value=self._seat_value(), css_classes=["view-as"])
        c["view_as"].param.watch(self._on_view_as, "value")

        for name, label, action in (("start", "|◀", self._to_start), ("back", "◀", self._back),
                                    ("forward", "▶", self._forward), ("end", "▶|", self._to_end)):
            button = pn.widgets.Button(label=label, css_classes=[f"step-{name}"], width=52,
                                       description={"start": "first step (the deal)", "back": "one action back",
                                                    "forward": "one action forward", "end": "last step"}[name])
            button.on_click(action)
            c[name] = button
        c["step"] = pn.widgets.IntSlider(label="Step", start=0, end=max(1, len(session.log)), value=session.cursor,
                                         css_classes=["step-slider"], sizing_mode="stretch_width")
        c["step"].param.watch(self._on_slider, "value")

    def _sync_variants(self, *events) -> None:
        switches: VariantSwitches = self.session.variant_switches
        widgets = []
        for name, parameter in switches.param.objects("existing").items():
            if name == "name":
                continue
            if isinstance(parameter, param.Boolean):
                widget = pn.widgets.Checkbox.from_param(switches.param[name], label=f"{parameter.label} variant",
                                                        css_classes=[f"variant-{name}"])
            else:
                widget = pn.widgets.Select.from_param(switches.param[name], css_classes=[f"variant-{name}"])
            self.controls[f"variant:{name}"] = widget
            widgets.append(widget)
            widgets.append(pn.pane.Markdown(parameter.doc, styles=NOTE_STYLE, margin=(0, 10)))
        self.variant_box.objects = widgets or [pn.pane.Markdown("*This game has no variants.*")]

    def _sync_seats(self, *events) -> None:
        options = _options_for_seats(self.session.players)
        view_as = self.controls["view_as"]
        if list(view_as.options.values()) != list(options.values()):
            view_as.options = options
        view_as.value = self._seat_value()

    def _seat_value(self) -> int:
        return TEACHER if self.session.viewing_seat is None else self.session.viewing_seat

    def _on_view_as(self, event) -> None:
        self.session.viewing_seat = None if event.new == TEACHER else event.new

    def _sync_stepper(self, *events) -> None:
        session, c = self.session, self.controls
        moves = len(session.log)
        c["step"].param.update(end=max(1, moves), value=session.cursor, disabled=moves == 0)
        c["start"].disabled = c["back"].disabled = session.cursor == 0
        c["forward"].disabled = c["end"].disabled = session.cursor >= moves

    # ------------------------------------------------------------------ actions
    def _new_bot_game(self, event=None) -> None:
        self.session.reset()
        self.session.autoplay(then_goto=0)

    def _to_start(self, event=None) -> None:
        self.session.goto(0)

    def _back(self, event=None) -> None:
        self.session.undo()

    def _forward(self, event=None) -> None:
        self.session.redo()

    def _to_end(self, event=None) -> None:
        self.session.goto(len(self.session.log))

    def _on_slider(self, event) -> None:
        if event.new != self.session.cursor and event.new <= len(self.session.log):
            self.session.goto(event.new)

    # ------------------------------------------------------------------ layout
    def _build_template(self) -> pn.template.BaseTemplate:
        c = self.controls
        stepper = pn.Column(
            pn.pane.Markdown("### Step through the game", margin=(0, 10)),
            pn.Row(c["start"], c["back"], c["forward"], c["end"], margin=(0, 5)),
            c["step"],
            sizing_mode="stretch_width", margin=0,
        )
        sidebar = [
            pn.pane.Markdown("### Set-up", margin=(0, 10)),
            c["game"], c["players"], c["seed"], c["random_seed"],
            pn.pane.Markdown("**Variants**", margin=(6, 10, 0, 10)),
            self.variant_box,
            pn.pane.Markdown("**Bots**", margin=(6, 10, 0, 10)), c["bot"],
            c["new_game"],
            pn.layout.Divider(),
            c["view_as"],
            pn.layout.Divider(),
            stepper,
        ]
        log = pn.Column(
            pn.pane.Markdown("### Events up to this step", margin=(0, 10)),
            pn.Column(self.log_view, scroll=True, max_height=760, sizing_mode="stretch_width", css_classes=["log-scroll"]),
            styles={"flex": "1 1 280px", "max-width": "420px"}, margin=(0, 5),
        )
        board = pn.Column(self.board, styles={"flex": "100 1 560px"}, margin=0)
        # The log sits right of the board on wide screens and below it on narrow ones.
        main = pn.FlexBox(board, log, flex_wrap="wrap", align_items="flex-start", sizing_mode="stretch_width")
        # BootstrapTemplate rather than FastListTemplate: the Fast design pulls a Google web font,
        # and the page must work offline, asking nothing of any server but its own.
        return pn.template.BootstrapTemplate(
            title="Rules Explorer",
            sidebar=sidebar,
            main=[main],
            sidebar_width=330,
            header_background="#24406b",
        )

    def __panel__(self):
        return self.template


def create_app(session: GameSession | None = None) -> pn.template.BaseTemplate:
    """The explorer page. Without a session: a bot-played 4-player Subastral game at step 0."""
    return ExplorerApp(session=session).template
