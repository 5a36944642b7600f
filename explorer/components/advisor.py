"""The move advisor's Panel component (the numbers: ``play/advise.py``, rollouts from what the seat knows).

``MoveAdvisor(session=session, lang=...)``: a budget, a seed, a button, and a
ranked dot chart (mean with a 95% whisker) computed in a background thread. Its texts are
in English or Japanese (``lang``; locale files ``explorer/locales/<lang>/advisor.json``), the moves
named as the rules name them in that language (``spec.action_label``).

The chart is an :class:`AdviceFigure`, a plain Bokeh figure patched in place like every other plot
of the explorer (``explorer/plots/live.py`` says why): new advice, a cleared one or another language
give the same figure new columns, title, labels and height. Without advice the figure is hidden
(its own ``visible``, not its pane's: see ``MoveAdvisor.__init__``).
"""

from __future__ import annotations

import threading
from typing import Sequence

import panel as pn
import param
from bokeh.models import FactorRange, HoverTool, LabelSet, Whisker
from bokeh.core.properties import field

from play.advise import OBJECTIVES, CannotResample, MoveValue, advise  # noqa: F401  (advise: the numbers shown)
from rules.protocol import IllegalAction
from rules.rulebook import LANGUAGES
from explorer.core.i18n import literal, text
from explorer.core.limits import RunsAtOnce
from explorer.plots.analysis import padded
from explorer.plots.live import OnLoop, figure_pane
from explorer.plots.game import LiveFigure, player_colour
from explorer.core.session import GameSession

MAX_ADVICE_RUNS_ENV, DEFAULT_MAX_ADVICE_RUNS = "RULES_EXPLORER_MAX_ADVICE_RUNS", 2
#: Advice being worked out, over every page of this server's process: each takes a core while it lasts
#: (Jump Gate: some 50 rollouts a second, so the largest budget is minutes of work).
_advising = RunsAtOnce(MAX_ADVICE_RUNS_ENV, DEFAULT_MAX_ADVICE_RUNS)

#: Each objective's key in the locale files (``advisor.objective.<key>``, ``advisor.plot.<key>``).
OBJECTIVE_KEYS = {"score": "score", "win share": "win_share"}


def _t(key: str, lang: str, **values) -> str:
    """The advisor's interface text ``advisor.<key>`` in ``lang``."""
    return text(f"advisor.{key}", lang, **values)


def player_name(seat: int, lang: str = "en") -> str:
    """``"Player 1"`` / ``"プレイヤー1"`` for seat 0 (as :func:`explorer.core.session.player_label`)."""
    return text("explorer.player", lang, n=seat + 1)


# ---------------------------------------------------------------------------- plot
#: The chart's mark colour when no seat is advised (the game is over).
NO_SEAT_COLOUR = "#1f77b4"


def advice_plot_data(values: Sequence[MoveValue]) -> dict:
    """Columns for the bar chart, best move last (a categorical axis draws its last factor on top):
    each move's label, its mean and the ends of its 95% interval."""
    ordered = list(reversed(values))
    return {"move": [v.label for v in ordered], "value": [v.mean for v in ordered],
            "low": [v.low for v in ordered], "high": [v.high for v in ordered]}


#: Each move's row of the chart: its name on a line of its own, its dot and interval below it.
ROW_HEIGHT = 40


def chart_height(moves: int, least: int = 0) -> int:
    """The chart's height for ``moves`` rows (``ROW_HEIGHT`` each) and room for the title and the axis."""
    return max(least, 160, 70 + ROW_HEIGHT * moves)


def advice_plot(data: dict, *, seat: int | None = None, objective: str = "score", lang: str = "en",
                **size) -> dict:
    """What :class:`AdviceFigure` shows for ``data`` (:func:`advice_plot_data`), in the shape
    :class:`explorer.plots.game.LiveFigure` takes: the columns (with each mark's colour, the seat's),
    the title and the labels in ``lang``, the value axis holding every interval and no more (moves
    worth 40.1 and 41.3 points look apart, not as two bars of almost the same length from 0), and the
    moves as the categories, their number setting the height (``height``: at least that)."""
    colour = player_colour(seat) if seat is not None else NO_SEAT_COLOUR
    value = _t("plot.score" if objective == "score" else "plot.win_share", lang)
    moves = tuple(data["move"])
    low, high = padded([*data["low"], *data["high"]], pad=0.1)
    return {"columns": {**data, "colour": [colour] * len(moves)}, "title": _t("plot.title", lang),
            "xlim": (low, high), "ylim": None,
            "structure": {"moves": moves, "height": chart_height(len(moves), size.get("height", 0)),
                          "value": value, "move": _t("plot.move", lang), "interval": _t("plot.interval", lang)}}


class AdviceFigure(LiveFigure):
    """The advisor's ranked chart: a dot per move (its mean) in the seat's colour, the best on top,
    with a whisker for its 95% interval, on an axis that spans the intervals only; the hover names the move, its value and
    interval. :meth:`show` takes :func:`advice_plot`'s data: the same figure gets the new bars,
    moves, title, labels (of the objective and language given) and height, in place.

    Each move's name is written above its dot, from the plot's left edge, not beside the axis: beside
    it, long names ("swap S103r (3, exchange) and S201 (9, swap) in Player 1's row") took a phone's
    whole width, squeezed the dots into some 40 pixels with their numbers printed over each other,
    and in Japanese made the page 525 pixels wide on a 390-pixel screen.

    Its height follows the number of moves (``figure.height``, changed in place like the rest).
    """

    COLUMNS = ("move", "value", "low", "high", "colour")
    XLABEL, YLABEL = "advisor.plot.score", "advisor.plot.move"
    FIELDS = ("@move", "@value{0.00}", "[@low{0.00}, @high{0.00}]")     # the hover's, named in show()
    TOOLTIPS = tuple(zip(("advisor.plot.move", "advisor.plot.score", "advisor.plot.interval"), FIELDS))

    def __init__(self, data, lang: str = "en", **size):
        super().__init__(data, lang=lang, **{**size, "height": data["structure"]["height"]})

    def y_range(self):
        return FactorRange()

    def draw(self, fig, source):
        fig.ygrid.grid_line_color = None
        fig.y_range.range_padding, fig.y_range.range_padding_units = 0.5, "absolute"   # (the top name's room)
        fig.yaxis.major_label_text_font_size = "0px"         # (the names are above the dots)
        fig.yaxis.major_tick_line_color = None
        fig.add_layout(LabelSet(source=source, x=6, x_units="screen", y="move", y_offset=9, text="move",
                                text_font_size="11.5px", text_baseline="bottom", text_color="#333333"))
        whisker = Whisker(source=source, base="move", lower="low", upper="high", dimension="width",
                          line_color="#333333", line_width=2, level="annotation")
        whisker.upper_head.line_color = whisker.lower_head.line_color = "#333333"
        whisker.upper_head.size = whisker.lower_head.size = 8
        marks = fig.scatter(x="value", y="move", size=12, source=source, fill_color=field("colour"),
                            line_color=field("colour"), level="overlay")
        fig.add_layout(whisker)
        return marks

    def structure(self, structure) -> None:
        fig = self.figure
        if list(fig.y_range.factors) != list(structure["moves"]):
            fig.y_range.factors = list(structure["moves"])
        if fig.height != structure["height"]:
            fig.height = structure["height"]
        if (fig.xaxis[0].axis_label, fig.yaxis[0].axis_label) != (structure["value"], structure["move"]):
            fig.xaxis[0].axis_label, fig.yaxis[0].axis_label = structure["value"], structure["move"]
        hover = fig.select_one({"type": HoverTool})
        tooltips = list(zip((structure["move"], structure["value"], structure["interval"]), self.FIELDS))
        if list(hover.tooltips) != tooltips:
            hover.tooltips = tooltips


# ---------------------------------------------------------------------------- component
class MoveAdvisor(pn.viewable.Viewer):
    """Rollout values of the legal moves at the session's position, for the viewing seat (or the seat to move).

    ``values`` holds the last advice (best first) and ``advised`` the (state, seat) it is for; a
    change of position or seat makes it stale (cleared). ``compute()`` runs it here; the button runs
    it in a background thread (``thread``). ``lang`` is the language of its texts and of the moves'
    names (a change of language relabels it and clears the advice).
    """

    session = param.ClassSelector(class_=GameSession, constant=True)
    # The English labels and tips (locale files); the widgets show them in ``lang``.
    budget = param.Integer(default=300, bounds=(1, 100_000), label=_t("budget", "en"), doc=_t("budget_tip", "en"))
    seed = param.Integer(default=0, label=_t("seed", "en"), doc=_t("seed_tip", "en"))
    objective = param.Selector(default="score", objects=list(OBJECTIVES), label=_t("objective", "en"),
                               doc=_t("objective_tip", "en"))
    values = param.List(default=[], doc="The last advice, best first (MoveValue); replaced, never mutated.")
    status = param.String(default="")
    busy = param.Boolean(default=False, doc="Rollouts are being played.")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the advisor's texts.")

    def __init__(self, **params):
        super().__init__(**params)
        self.advised: tuple | None = None
        self.thread: threading.Thread | None = None
        # Set to end the rollouts early: the advice they work out is no longer wanted (its page closed,
        # the position or the seat changed, the language too; see ``should_stop``).
        self._stop = threading.Event()
        # Possibly from the advisor's thread: once, on the document's own loop (it holds the lock).
        self._on_values_change = OnLoop(self.refresh)
        self.advised_objective = self.objective     # the objective the advice shown was worked out for
        self.plot_data = advice_plot_data([])
        self.chart_data = self._chart_data()
        self.chart = AdviceFigure(self.chart_data, lang=self.lang)
        # Shows self.chart.figure, always the same one; as wide as the card it sits in (a narrow side column).
        self.plot = figure_pane(self.chart.figure, "advisor-plot")
        self.plot.sizing_mode = self.chart.figure.sizing_mode = "stretch_width"
        # No empty chart before the first advice: the figure hides itself (``_show_chart``). Never the
        # pane's own ``visible``: a Bokeh pane's model is the figure, and a change of any of its layout
        # parameters once shown copies the figure's properties back onto the pane (Panel's
        # ``Bokeh._sync_properties``), its stylesheets too, which the page's design had made
        # ``ImportedStyleSheet`` models: a TypeError in ``refresh``, on the page's loop, only logged;
        # the bars, the status and the button never reached the page (it stayed at "Playing…").
        self.chart.figure.visible = False
        self.button = pn.widgets.Button(label=_t("advise", self.lang), color="primary", css_classes=["advisor-run"])
        self.button.on_click(lambda event: self.start())
        self.message = pn.pane.Markdown("", css_classes=["advisor-status"], sizing_mode="stretch_width")
        lang = self.lang
        self.inputs = {
            "budget": pn.widgets.IntInput.from_param(self.param.budget, width=140, name=_t("budget", lang),
                                                     description=_t("budget_tip", lang), css_classes=["advisor-budget"]),
            "seed": pn.widgets.IntInput.from_param(self.param.seed, width=100, name=_t("seed", lang),
                                                   description=_t("seed_tip", lang), css_classes=["advisor-seed"]),
            "objective": pn.widgets.Select.from_param(self.param.objective, width=120, name=_t("objective", lang),
                                                      description=_t("objective_tip", lang),
                                                      options=self._objective_options(), css_classes=["advisor-objective"]),
        }
        self._layout = pn.Column(
            # (wrapped: the three side by side are wider than a phone's page, which then scrolled sideways)
            pn.Row(self.inputs["budget"], self.inputs["seed"], self.inputs["objective"], styles={"flex-wrap": "wrap"},
                   sizing_mode="stretch_width"),
            pn.Row(self.button, self.message, sizing_mode="stretch_width"),
            self.plot,
            sizing_mode="stretch_width", css_classes=["move-advisor"])
        document = self._on_values_change.document
        if document is not None:        # (advice is its page's: it ends with it)
            document.on_session_destroyed(lambda context: self._stop.set())
        self.session.param.watch(self._on_position_change, ["state", "viewing_seat"])
        self.param.watch(self._on_values_change, ["values", "status", "busy", "objective"])
        self.param.watch(self._relabel, "lang")
        self.status = self._prompt()

    def _objective_options(self) -> dict[str, str]:
        return {_t(f"objective.{OBJECTIVE_KEYS[objective]}", self.lang): objective for objective in OBJECTIVES}

    def _relabel(self, event) -> None:
        """A new language: the inputs and the button relabelled; the advice (its moves named in the old
        language) cleared."""
        lang = self.lang
        for key in ("budget", "seed", "objective"):
            self.inputs[key].param.update(name=_t(key, lang), description=_t(f"{key}_tip", lang))
        self.inputs["objective"].options = self._objective_options()
        self.button.label = _t("advise", lang)
        self._stop.set()
        self.advised = None
        if self.values:
            self.values = []
        self._show_chart()
        if not self.busy:
            self.status = self._prompt()

    def _chart_data(self) -> dict:
        """What the chart shows now: the advice, labelled by the objective it was worked out for
        (without advice, the one chosen), in the seat's colour and ``lang``."""
        objective = self.advised_objective if self.values else self.objective
        return advice_plot(self.plot_data, seat=self.seat(), objective=objective, lang=self.lang)

    def _show_chart(self) -> None:
        """The chart brought up to date with ``values``, in place (only what changed is sent)."""
        self.plot_data = advice_plot_data(self.values)
        data = self._chart_data()
        if data != self.chart_data:
            self.chart_data = data
            self.chart.show(data)
        if self.chart.figure.visible != bool(self.values):    # (shown with advice only; see __init__)
            self.chart.figure.visible = bool(self.values)

    def seat(self) -> int | None:
        """The seat advised: the viewing seat, or else the first seat to move."""
        if self.session.viewing_seat is not None:
            return self.session.viewing_seat
        seats = self.session.spec.to_move(self.session.state)
        return seats[0] if seats else None

    def _prompt(self) -> str:
        seat, lang = self.seat(), self.lang
        if seat is None:
            return _t("game_over", lang)
        if not self.session.spec.legal_actions(self.session.state, seat):
            return _t("no_move", lang, player=player_name(seat, lang))
        return _t("prompt", lang, player=player_name(seat, lang))

    def _failure(self, error: Exception) -> str:
        """``"No advice: ..."``: why, in the advisor's language where the reason is known in it."""
        lang = self.lang
        if isinstance(error, CannotResample):
            reason = _t("cannot_resample", lang, game=error.game)
        elif isinstance(error, IllegalAction) and lang != "en":
            reason = literal(error.reason_in(lang))     # (a move's words, hence a card file's: literal text)
        else:
            reason = literal(str(error))
        return _t("failed", lang, error=reason)

    def compute(self) -> list[MoveValue]:
        """Advice for the current position, computed in this thread (assigned to ``values``). At most
        :data:`_advising`'s limit of advice is worked out at once on a server; the rollouts end early
        when the advice is no longer wanted (``_stop``)."""
        self._stop.clear()      # (before the position is read: a change from now on stops these rollouts)
        spec, state, seat, lang, objective = self.session.spec, self.session.state, self.seat(), self.lang, self.objective
        self.busy = True
        if not _advising.take(self):
            limit = _advising.limit
            self.param.update(status=_t("busy" if limit else "busy_none", lang, limit=limit), busy=False)
            return []
        try:
            self.status = (_t("playing", lang, budget=self.budget, player=player_name(seat, lang)) if seat is not None
                           else self._prompt())
            values = [] if seat is None else advise(spec, state, seat, budget=self.budget, seed=self.seed,
                                                    objective=objective, lang=lang, should_stop=self._stop.is_set)
        except Exception as error:  # noqa: BLE001 - shown in place of the advice
            self.param.update(status=self._failure(error), busy=False)
            return []
        finally:
            _advising.give_back(self)
        if (self.session.state, self.seat()) != (state, seat) or self.lang != lang or self._stop.is_set():
            self.busy = False
            return values          # the position moved on meanwhile (or the page closed): advice for no one
        self.advised = (state, seat)
        self.advised_objective = objective
        status = (_t("done", lang, player=player_name(seat, lang), per_move=values[0].rollouts,
                     total=values[0].rollouts * len(values), seed=self.seed, best=literal(values[0].label))
                  if values else self._prompt())
        # One batch: a refresh on the page's loop, running meanwhile, never reads the new advice with the
        # old "Playing…" status (seen under load: the chart drawn, the status and button left behind).
        self.param.update(values=values, status=status, busy=False)
        return values

    def start(self) -> threading.Thread | None:
        if self.busy:
            return None
        self.busy = True          # the button is disabled before the thread's first rollout
        self.thread = threading.Thread(target=self.compute, daemon=True, name="move-advisor")
        self.thread.start()
        return self.thread

    def _on_position_change(self, *events) -> None:
        self._stop.set()        # (rollouts for the position left: their advice would be thrown away)
        if self.advised is not None and self.advised != (self.session.state, self.seat()):
            self.advised = None
            self.values = []
        self.status = self._prompt()

    def refresh(self) -> None:
        with pn.io.hold():
            self._show_chart()
            self.message.object = self.status
            self.button.disabled = self.busy

    def __panel__(self):
        return self._layout
