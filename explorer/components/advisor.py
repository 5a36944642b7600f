"""The move advisor's Panel component (the numbers: ``play/advise.py``, rollouts from what the seat knows).

``MoveAdvisor(session=session, lang=...)``: a budget, a seed, a button, and a
ranked horizontal bar chart (mean with a 95% whisker) computed in a background thread. Its texts are
in English or Japanese (``lang``; locale files ``explorer/locales/<lang>/advisor.json``), the moves
named as the rules name them in that language (``spec.action_label``).
"""

from __future__ import annotations

import threading
from typing import Sequence

import holoviews as hv
import panel as pn
import param

from play.advise import OBJECTIVES, CannotResample, MoveValue, advise  # noqa: F401  (advise: the numbers shown)
from rules.protocol import IllegalAction
from rules.rulebook import LANGUAGES
from explorer.core.i18n import text
from explorer.plots.live import OnLoop
from explorer.plots.game import frame, player_colour
from explorer.core.session import GameSession

if "bokeh" not in hv.Store.renderers:
    hv.extension("bokeh", logo=False)

#: Each objective's key in the locale files (``advisor.objective.<key>``, ``advisor.plot.<key>``).
OBJECTIVE_KEYS = {"score": "score", "win share": "win_share"}


def _t(key: str, lang: str, **values) -> str:
    """The advisor's interface text ``advisor.<key>`` in ``lang``."""
    return text(f"advisor.{key}", lang, **values)


def player_name(seat: int, lang: str = "en") -> str:
    """``"Player 1"`` / ``"プレイヤー1"`` for seat 0 (as :func:`explorer.core.session.player_label`)."""
    return text("explorer.player", lang, n=seat + 1)


# ---------------------------------------------------------------------------- plot
def advice_plot_data(values: Sequence[MoveValue]) -> dict:
    """Columns for the bar chart, best move last (a horizontal chart draws the last category on top)."""
    ordered = list(reversed(values))
    return {"move": [v.label for v in ordered], "value": [v.mean for v in ordered],
            "below": [v.mean - v.low for v in ordered], "above": [v.high - v.mean for v in ordered]}


def advice_plot(data: dict, *, seat: int | None = None, objective: str = "score", lang: str = "en",
                **size) -> hv.Overlay:
    """The ranked bar chart; its title and axis labels in ``lang`` (the dimensions keep their English
    names, so the chart's columns are the same in every language)."""
    colour = player_colour(seat) if seat is not None else "#1f77b4"
    key = "plot.score" if objective == "score" else "plot.win_share"
    value = hv.Dimension(_t(key, "en"), label=_t(key, lang))
    move = hv.Dimension("move", label=_t("plot.move", lang))
    bars = hv.Bars((data["move"], data["value"]), kdims=[move], vdims=[value]).opts(
        color=colour, alpha=0.7, tools=["hover"])
    whiskers = hv.ErrorBars((data["move"], data["value"], data["below"], data["above"]), kdims=[move],
                            vdims=[value, "below", "above"]).opts(color="#333333", line_width=2)
    height = max(size.pop("height", 0), 160, 60 + 28 * len(data["move"]))
    return (bars * whiskers).opts(hv.opts.Overlay(invert_axes=True, title=_t("plot.title", lang),
                                                  **frame({**size, "height": height})))


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
        # Possibly from the advisor's thread: once, on the document's own loop (it holds the lock).
        self._on_values_change = OnLoop(self.refresh)
        self.plot_data = advice_plot_data([])
        # Replaced whole on each advice (not streamed): the chart's height follows the number of moves.
        self.plot = pn.pane.HoloViews(self._chart(), linked_axes=False, css_classes=["advisor-plot"])
        self.button = pn.widgets.Button(label=_t("advise", self.lang), color="primary", css_classes=["advisor-run"])
        self.button.on_click(lambda event: self.start())
        self.message = pn.pane.Markdown("", css_classes=["advisor-status"])
        lang = self.lang
        self.inputs = {
            "budget": pn.widgets.IntInput.from_param(self.param.budget, width=140, name=_t("budget", lang),
                                                     description=_t("budget_tip", lang)),
            "seed": pn.widgets.IntInput.from_param(self.param.seed, width=100, name=_t("seed", lang),
                                                   description=_t("seed_tip", lang)),
            "objective": pn.widgets.Select.from_param(self.param.objective, width=120, name=_t("objective", lang),
                                                      description=_t("objective_tip", lang),
                                                      options=self._objective_options()),
        }
        self._layout = pn.Column(
            pn.Row(self.inputs["budget"], self.inputs["seed"], self.inputs["objective"]),
            pn.Row(self.button, self.message),
            self.plot,
            css_classes=["move-advisor"])
        self.session.param.watch(self._on_position_change, ["state", "viewing_seat"])
        self.param.watch(self._on_values_change, ["values", "status", "busy"])
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
        self.advised = None
        if self.values:
            self.values = []
        self.plot_data = advice_plot_data([])
        self.plot.object = self._chart()
        if not self.busy:
            self.status = self._prompt()

    def _chart(self) -> hv.Overlay:
        return advice_plot(self.plot_data, seat=self.seat(), objective=self.objective, lang=self.lang)

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
            reason = error.reason_in(lang)
        else:
            reason = str(error)
        return _t("failed", lang, error=reason)

    def compute(self) -> list[MoveValue]:
        """Advice for the current position, computed in this thread (assigned to ``values``)."""
        spec, state, seat, lang = self.session.spec, self.session.state, self.seat(), self.lang
        self.busy = True
        try:
            self.status = (_t("playing", lang, budget=self.budget, player=player_name(seat, lang)) if seat is not None
                           else self._prompt())
            values = [] if seat is None else advise(spec, state, seat, budget=self.budget, seed=self.seed,
                                                    objective=self.objective, lang=lang)
        except Exception as error:  # noqa: BLE001 - shown in place of the advice
            self.param.update(status=self._failure(error), busy=False)
            return []
        if (self.session.state, self.seat()) != (state, seat) or self.lang != lang:
            self.busy = False
            return values          # the position moved on meanwhile: this advice is for another one
        self.advised = (state, seat)
        self.values = values
        if values:
            self.status = _t("done", lang, player=player_name(seat, lang), per_move=values[0].rollouts,
                             total=values[0].rollouts * len(values), seed=self.seed, best=values[0].label)
        else:
            self.status = self._prompt()
        self.busy = False
        return values

    def start(self) -> threading.Thread | None:
        if self.busy:
            return None
        self.busy = True          # the button is disabled before the thread's first rollout
        self.thread = threading.Thread(target=self.compute, daemon=True, name="move-advisor")
        self.thread.start()
        return self.thread

    def _on_position_change(self, *events) -> None:
        if self.advised is not None and self.advised != (self.session.state, self.seat()):
            self.advised = None
            self.values = []
        self.status = self._prompt()

    def refresh(self) -> None:
        with pn.io.hold():
            data = advice_plot_data(self.values)
            if data != self.plot_data:
                self.plot_data = data
                self.plot.object = self._chart()
            self.message.object = self.status
            self.button.disabled = self.busy

    def __panel__(self):
        return self._layout
