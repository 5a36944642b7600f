"""The live part of the plots: a Panel component that keeps one plain Bokeh figure per plot up to date.

The data functions and the figures are in ``explorer/plots/game.py``; this module holds
:class:`LivePlots`, which watches a session and gives each figure its new data, and :class:`OnLoop`,
which runs such updates on a served page's own loop.

One mechanism: plain Bokeh figures, patched in place
    Each plot is a Bokeh ``figure`` made once (``explorer/plots/game.py``: ``ScoreFigure``,
    ``DrawsFigure``...) whose glyph reads a ``ColumnDataSource`` with our own column names (those of
    the plot data: ``step``, ``score``, ``card``, ``number``...), shown by a ``pn.pane.Bokeh``. A
    move or a step assigns each changed plot's source its new ``data`` and sets its title, fixed
    ranges (``Range1d``) and ticks: Bokeh sends only those changes, the browser redraws the same
    figure (no flicker, no new models), and the cursor's dashed line (a ``Span``) only moves.
    A step costs about a millisecond of server time.

    Why not HoloViews streams (a ``Pipe`` per plot feeding a ``DynamicMap``), the other mechanism
    the libraries support: every ``Pipe.send`` makes HoloViews build the element and update the
    whole plot (5-15 ms a plot), and a served document then re-walks its models; measured on a
    Subastral game, a step took ~60 ms of server time that way against ~1 ms in place, beyond the
    explorer's 30 ms budget per step (``benchmarks/ui.py``). Writing into the figures HoloViews
    draws would need its internal column names (``color``, ``left``, an overlay's key column), so
    the live plots draw their own figures and every name they write is theirs. The Analysis page's
    plots (``explorer/plots/analysis.py``) work the same way, per finished chunk, and so does the move
    advisor's chart (``AdviceFigure``, ``explorer/components/advisor.py``), per advice. No explorer
    module imports HoloViews (``tests/explorer/plots/test_explorer_plots.py`` checks the source).

    A served page changes its figures only in callbacks on its own loop (:class:`OnLoop`), which
    hold the document's lock; outside a server (tests, notebooks) the changes are made at once.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Mapping

import panel as pn
import param
from bokeh.plotting import figure
from panel.io.state import set_curdoc

from explorer.core.i18n import text
from explorer.plots.game import (
    PLOT_SIZE, ByGroupFigure, ByNumberFigure, DrawsFigure, EndCardFigure, ScoreFigure, StepCache, card_catalogue,
    deck_composition, draws_plot_data, end_card_data, group_legend_html, LEGEND_CSS, session_draw_data,
    session_score_data,
)
from explorer.core.session import GameSession
from rules.rulebook import LANGUAGES


def figure_pane(fig: figure, css_class: str) -> pn.pane.Bokeh:
    """A pane showing ``fig`` (:func:`show_figure`), with ``css_class``."""
    pane = pn.pane.Bokeh(css_classes=[css_class])
    show_figure(pane, fig)
    return pane


def show_figure(pane: pn.pane.Bokeh, fig: figure) -> None:
    """``pane`` shows ``fig``, the figure itself carrying the pane's class and margin (a Bokeh pane
    does not pass them on to the figure it is made with)."""
    fig.update(css_classes=list(pane.css_classes), margin=(5, 10))
    pane.object = fig


def show_pane(pane: pn.pane.Bokeh, visible: bool) -> None:
    """Show or hide ``pane`` and its figure. The figure's own ``visible`` shows or hides it on the page
    (a Bokeh pane's model is its figure); the pane's is set to agree, for a page drawn later, without
    Panel's reaction to it: a change of a Bokeh pane's layout parameter copies its figure's properties
    back onto the pane, its stylesheets too, and once the page's design has made those
    ``ImportedStyleSheet`` models that raised a TypeError, on the page's loop, only logged, and the
    page's update stopped there (the move advisor's chart hidden that way kept its advice from the
    page)."""
    if pane.visible != visible or (pane.object is not None and pane.object.visible != visible):
        if pane.object is not None:
            pane.object.visible = visible
        with param.discard_events(pane):
            pane.visible = visible


class OnLoop:
    """``callback`` run on a served page's own loop (which holds its document's lock), once for any
    number of calls made before it runs, from any thread; at once outside a server.

    For updates that come from elsewhere (another thread, another page's move) or that must wait
    for the widget callback that caused them to end. ``document``: the page's (default: the current
    document when made).

    A call while the callback runs runs it once more, scheduled when it ends: after the messages
    it sent are on their way (a run scheduled meanwhile would go first and hold them back, run
    after run, while a background thread keeps calling). From another thread the run is handed
    to the loop (``IOLoop.add_callback``, thread-safe), never added to the document there: the
    document may be held at that moment, and the loop thread takes its held events without a lock.
    """

    def __init__(self, callback: Callable[[], Any], document=None):
        document = document if document is not None else pn.state.curdoc
        self.document = document if document is not None and document.session_context else None
        self.callback = callback
        self._lock = threading.Lock()
        self._pending = False          # a run is scheduled or running
        self._again = False            # called during the run: run once more after it
        application = self.document.session_context.server_context.application_context if self.document else None
        self._loop = getattr(application, "io_loop", None)

    def __call__(self, *events) -> None:
        if self.document is None:
            self.callback()
            return
        with self._lock:
            if self._pending:
                self._again = True
                return
            self._pending = True
        if self._loop is not None and not self._on_loop():
            self._loop.add_callback(self._schedule)
        else:
            self._schedule()

    def _on_loop(self) -> bool:
        try:
            return asyncio.get_running_loop() is self._loop.asyncio_loop
        except RuntimeError:
            return False

    def _schedule(self) -> None:
        with set_curdoc(self.document):
            pn.state.execute(self._run, schedule=True)

    def _run(self) -> None:
        with self._lock:
            self._again = False
        try:
            self.callback()
        finally:
            with self._lock:
                again = self._again
                self._pending = self._again = again
            if again:
                self._schedule()



CARD_PLOTS = {"draws": DrawsFigure, "by_group": ByGroupFigure, "by_number": ByNumberFigure, "end_card": EndCardFigure}
#: The note shown in place of the card plots (English; ``text("plots.placeholder", lang)``).
PLACEHOLDER = text("plots.placeholder")


def shown_plots(data: Mapping) -> set[str]:
    """The plots shown for ``data`` (:meth:`LivePlots._collect`'s): the score curves, and each card
    plot with data when the game tells which cards are which."""
    return {"scores"} | {name for name in CARD_PLOTS if data["card_plots"] and data[name] is not None}


class LivePlots(pn.viewable.Viewer):
    """Score curves, cards drawn, unseen cards and the end card of a session, updated in place.

    What is shown follows the page's viewpoint: the teacher sees the score curves of the whole line
    (and the cards drawn up to the step shown, on an axis as long as the line), the step shown marked
    by the cursor's dashed line; a seat (or a spectator) sees no future: every plot stops at the step
    shown, and no axis tells how long the line goes on.
    A plot that means nothing for the game is left out: the end card's in a game without one, the
    unseen cards by number in a game whose numbers make no scale (Jump Gate's).

    ``LivePlots(session=session)``; ``width``/``height`` size each plot. ``figures`` holds each plot's
    figure object (``scores``: a :class:`explorer.plots.ScoreFigure`; ``draws``, ``by_group``,
    ``by_number``, ``end_card``: :class:`explorer.plots.LiveFigure` objects), each with its Bokeh
    ``figure``, shown by a ``pn.pane.Bokeh`` in ``panes``, made once, when first shown (or asked
    for: a page whose plots tab stays closed never makes them). A change of the session's
    line, cursor or viewing seat gives each plot whose data changed its new data in place; ``sent``
    holds the latest data, ``updated`` how the last refresh updated each changed plot ("in place";
    "redraw": a new figure, when the score curves' players or the deck-draw plot's kind of y axis
    change; "new": after a language change).

    A Bokeh model lives in one document at a time: show a ``LivePlots`` on one page (each page makes
    its own).

    ``lang``: the titles, axis labels, hovers and notes (``"en"``, ``"ja"``); changing it makes the plots anew.
    """

    session = param.ClassSelector(class_=GameSession, constant=True)
    width = param.Integer(default=PLOT_SIZE["width"], bounds=(200, None), constant=True, doc="Each plot's width in pixels.")
    height = param.Integer(default=PLOT_SIZE["height"], bounds=(150, None), constant=True, doc="Each plot's height.")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the plots' texts.")

    def __init__(self, **params):
        super().__init__(**params)
        self.cache = StepCache()
        # In a served page: once, after the callback that changed the session, on the document's own
        # loop, which holds the document's lock while the figures change.
        self._on_session_change = OnLoop(self.refresh)
        self._catalogue_key: tuple | None = None
        self._catalogue: dict | None = None
        self._line: tuple | None = None          # (log, first step's key, spec, last step) of the score curves
        self.sent: dict[str, Any] = {}
        self.updated: dict[str, str] = {}
        data = self.sent = self._collect()
        # The figures are made when first shown or asked for (~20 ms each: a page that never shows
        # its plots tab should not pay for them); until then only the data are kept up to date.
        self._figures: dict[str, Any] | None = None
        self._panes: dict[str, pn.pane.Bokeh] = {}
        self.placeholder = pn.pane.Markdown("", css_classes=["plots-placeholder"], margin=(5, 10))
        self.legend = pn.pane.HTML("", stylesheets=[LEGEND_CSS], sizing_mode="stretch_width", margin=(0, 10),
                                   css_classes=["plots-legend"])
        self._plots_box = pn.FlexBox(self.placeholder, flex_wrap="wrap", sizing_mode="stretch_width")
        self._show_card_plots(data)
        drawn = pn.param.ParamFunction(lambda: self.figures and self._plots_box, lazy=True, sizing_mode="stretch_width")
        self._layout = pn.Column(self.legend, drawn, sizing_mode="stretch_width", css_classes=["live-plots"])
        # Not "spec": a session assigns a new spec on its own, just before the batch with the new line.
        self.session.param.watch(self._on_session_change, ["state", "log", "viewing_seat"])
        self.param.watch(OnLoop(self._relabel), "lang")

    @property
    def size(self) -> dict:
        return {"width": self.width, "height": self.height}

    @property
    def figures(self) -> dict[str, Any]:
        """Each plot's figure object (made now if not yet)."""
        if self._figures is None:
            self._make_plots()
        return self._figures

    @property
    def panes(self) -> dict[str, pn.pane.Bokeh]:
        """The pane showing each plot's figure."""
        return self.figures and self._panes

    def _make_plots(self) -> None:
        """The figures and their panes, for the latest data in ``lang``."""
        data = self.sent
        self._figures = figures = {name: self._new_figure(name, data) for name in ("scores", *CARD_PLOTS)}
        self._panes = {name: figure_pane(shown.figure, f"plot-{name.replace('_', '-')}") for name, shown in figures.items()}
        self._plots_box.objects = [*self._panes.values(), self.placeholder]
        self._show_card_plots(data)

    def _new_figure(self, name: str, data: Mapping):
        """A new figure for the plot ``name`` showing its part of ``data``, in ``lang``."""
        if name == "scores":
            return ScoreFigure(data["scores"], data["cursor"], lang=self.lang, **self.size)
        if name == "draws":
            return DrawsFigure(data["draws"], lang=self.lang, cursor=data["cursor"], **self.size)
        return CARD_PLOTS[name](data[name], lang=self.lang, **self.size)

    # ------------------------------------------------------------------ data
    def catalogue(self) -> dict | None:
        """The card catalogue of the current line (recomputed only when the line's first state changes),
        from its public card data; None when the game tells no deck knowledge (asked, as every plot
        asks, from the page's viewing seat)."""
        session = self.session
        key = (session.spec, session.step_key(0))
        if self._catalogue_key is None or any(a is not b for a, b in zip(self._catalogue_key, key)):
            self._catalogue_key = key
            knows = session.deck_knowledge(session.viewing_seat, 0) is not None
            self._catalogue = card_catalogue(session.card_data()) if knows else None
        return self._catalogue

    def _collect(self) -> dict[str, Any]:
        """Every plot's data for the session as it is now (the score curves only when the line, or
        for anyone but the teacher the step shown, changed)."""
        session = self.session
        # The teacher sees the whole line's scores; a seat or a spectator nothing after the step shown.
        last = len(session.log) if session.sees_all else session.cursor
        line = (session.log, session.step_key(0), session.spec)
        data: dict[str, Any] = {"cursor": session.cursor}
        if self._line is not None and all(a is b for a, b in zip(self._line, line)) and self._line[3] == last:
            data["scores"] = self.sent["scores"]
        else:
            self._line = (*line, last)
            moves = len(session.log)
            self.cache.trim(lambda key: key[1] <= moves)
            data["scores"] = session_score_data(session, self.cache, lang=self.lang, upto=last)
        catalogue = data["catalogue"] = self.catalogue()
        data["card_plots"] = catalogue is not None
        if catalogue is None:
            data.update(dict.fromkeys(CARD_PLOTS))
            return data
        seat, lang, game = session.viewing_seat, self.lang, session.spec.id
        data["draws"] = draws_plot_data(session_draw_data(session, seat, cache=self.cache, lang=lang), catalogue, last,
                                        seat, teacher=session.teacher, lang=lang, game=game)
        knowledge = session.deck_knowledge(seat)
        composition = deck_composition(knowledge, seat, catalogue, lang=lang, game=game)
        data["by_group"], data["by_number"] = composition["by_group"], composition["by_number"]
        data["end_card"] = end_card_data(knowledge, lang=lang)
        return data

    # ------------------------------------------------------------------ updating
    def _show_card_plots(self, data: Mapping) -> None:
        """Show the plots that mean something for the game (a card plot with data), the colour key
        with the card plots, else the note."""
        shown = data["card_plots"]
        visible = shown_plots(data)
        for name, pane in self._panes.items():
            show_pane(pane, name in visible)
        self.legend.object = group_legend_html(self._catalogue, self.lang, self.session.spec.id) if shown else ""
        self.legend.visible = shown
        self.placeholder.object = "" if shown else text("plots.placeholder", self.lang, title=self.session.spec.title)
        self.placeholder.visible = not shown

    def _relabel(self) -> None:
        """Every plot, the colour key and the note again in the new ``lang``: new figures."""
        self._line = None
        data = self.sent = self._collect()
        self._show_card_plots(data)
        if self._figures is not None:
            self._make_plots()
            self.updated = dict.fromkeys(self._figures, "new")
        self._push_to_notebook()

    def refresh(self) -> dict[str, str]:
        """Bring every plot up to date with the session; returns how each changed plot was updated."""
        data = self._collect()
        figures = self._figures or {}
        changed = [name for name in figures if data[name] is not self.sent[name] and data[name] != self.sent[name]]
        how = {}
        with pn.io.hold():
            if data["catalogue"] is not self.sent["catalogue"] or shown_plots(data) != shown_plots(self.sent):
                self._show_card_plots(data)
            self.sent = data
            for name in changed:
                how[name] = "in place" if figures[name].show(data[name]) else "redraw"
                if how[name] == "redraw":     # other players' curves, another kind of y axis: a new figure
                    figures[name] = self._new_figure(name, data)
                    show_figure(self._panes[name], figures[name].figure)
            if figures:
                figures["scores"].show_cursor(data["cursor"])
                figures["draws"].show_cursor(data["cursor"])
        self._push_to_notebook()
        self.updated = how
        return how

    def _push_to_notebook(self) -> None:
        """Send the figures' changes to a notebook's page now (a served page: nothing to do).

        The figures are plain Bokeh models changed in place, which Panel does not send by itself
        (only its own components' changes): in a notebook they went with the next message Panel sent
        for one of its own. After a change made in the browser (the stepper's slider, Arrow keys on
        it) there was none: Panel runs the callbacks under a ``hold`` of the output's document which,
        the document having no server session, drops the changes held when it ends
        (``panel/io/document.py``, ``hold``); the board moved, the cursor lines and data did not.
        ``pn.io.push_notebook`` is Panel's call for Bokeh models changed directly in a notebook."""
        if self._panes:
            pn.io.push_notebook(*self._panes.values())

    def __panel__(self):
        return self._layout
