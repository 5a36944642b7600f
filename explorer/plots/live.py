"""The live part of the plots: one ``Pipe``-fed ``DynamicMap`` per plot, updated in place.

The data and element functions are in ``explorer/plots/game.py`` (see its docstring for why and how plots
are updated in place); this module holds the Panel component that watches a session and keeps its
Bokeh figures up to date, and the small machinery that writes into drawn figures safely.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from functools import partial
from typing import Any, Callable, Mapping

import holoviews as hv
import panel as pn
import param
from panel.io.document import unlocked
from panel.io.state import set_curdoc

from explorer.core.i18n import text
from explorer.plots.game import (
    PLOT_SIZE, StepCache, card_catalogue, cursor_marker, deck_composition, deck_draws, draws_plot_data,
    end_card_curve, end_card_data, group_legend_html, LEGEND_CSS, score_curves, session_draw_data,
    session_score_data, unseen_by_group, unseen_by_number,
)
from explorer.core.session import GameSession
from rules.rulebook import LANGUAGES

#: Columns HoloViews adds to a glyph's data source, and the data column each one repeats.
DERIVED_COLUMNS = {"color": "colour", "left": "x0", "right": "x1", "bottom": "y0", "top": "y1"}


class PlotFeed:
    """One live plot: a ``Pipe``, the ``DynamicMap`` it feeds, and the Bokeh views drawn from it.

    :meth:`update_in_place` gives the drawn views new data directly when only values changed (the
    same ``structure`` as before): their data sources, titles and axis ranges are set as HoloViews
    sets them, and the pipe takes the data quietly. :meth:`redraw` sends it down the pipe for
    HoloViews to redraw. A view drawn later, from an older frame, is brought up to date as it
    appears. ``in_place=False`` (the score curves): always redrawn.
    """

    def __init__(self, element: Callable[..., hv.Element], empty: type, data: Any, size: Mapping,
                 in_place: bool = True):
        self.element, self.empty, self.size, self.data, self.in_place = element, empty, dict(size), data, in_place
        self.pipe = hv.streams.Pipe(data=data)
        self.dmap = hv.DynamicMap(self._render, streams=[self.pipe])
        self._views: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # figure -> its glyph renderer
        self._drawn_from = data

    def _render(self, data):
        self._drawn_from = data
        element = self.element(data, **self.size) if data is not None else self.empty([]).opts(**self.size)
        return element.opts(hooks=[self._keep_view]) if self.in_place else element

    def _keep_view(self, plot, element) -> None:
        view = plot.handles["plot"]
        new = view not in self._views
        self._views[view] = plot.handles.get("glyph_renderer")
        if new and self._drawn_from is not self.data and self.data is not None:
            self._apply(self._updates(self.data, [(view, self._views[view])]) or [])

    def update_in_place(self, data) -> bool:
        """Give every drawn view ``data`` directly, if only values changed; False: it needs :meth:`redraw`."""
        old, self.data = self.data, data
        if not self.in_place or old is None or data is None or old["structure"] != data["structure"]:
            return False
        updates = self._updates(data, list(self._views.items()))
        if updates is None:
            return False
        self._apply(updates)
        self.pipe.update(data=data)      # quietly: the DynamicMap's next drawing reads it
        return True

    def redraw(self, data) -> None:
        """Send ``data`` down the pipe: HoloViews redraws every view."""
        self.data = data
        self.pipe.send(data)

    @staticmethod
    def _updates(data: Mapping, views: list) -> list | None:
        """What each view needs for ``data``, or None if a view has a column the data cannot fill,
        or lacks one the data maps (a view drawn from no points draws its colour as a constant)."""
        columns = data["columns"]
        updates = []
        for view, renderer in views:
            if renderer is None:
                return None
            drawn = renderer.data_source.data
            if any(name in columns and key not in drawn and name not in drawn for key, name in DERIVED_COLUMNS.items()):
                return None
            source = {}
            for key in renderer.data_source.data:
                name = key if key in columns else DERIVED_COLUMNS.get(key)
                if name not in columns:
                    return None
                source[key] = columns[name]
            updates.append((view, renderer, source, data))
        return updates

    @staticmethod
    def _apply(updates: list) -> None:
        for view, renderer, source, data in updates:
            on_document(view, partial(_write_view, view, renderer, source, data))


def _write_view(view, renderer, source, data) -> None:
    renderer.data_source.data = source
    if data["title"] is not None and view.title.text != data["title"]:
        view.title.text = data["title"]
    for axis_range, limits in ((view.x_range, data["xlim"]), (view.y_range, data["ylim"])):
        if limits is not None and (axis_range.start, axis_range.end) != tuple(limits):
            axis_range.update(start=limits[0], end=limits[1], reset_start=limits[0], reset_end=limits[1])


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


def on_document(model, change) -> None:
    """Make ``change`` to a drawn Bokeh model the way Panel changes its own models.

    Now, when this thread may touch the model's document (a callback of that document, or no
    server at all); otherwise scheduled on the document's own loop, which holds its lock. Changing a
    served document from outside its lock breaks the Bokeh session.
    """
    document = model.document
    if document is None or not document.session_context or pn.state._unblocked(document):
        with unlocked():
            change()
    else:
        with set_curdoc(document):
            pn.state.execute(change, schedule=True)


class ScoreFeed(PlotFeed):
    """The score curves, one line per player: in place while the same players are drawn.

    A move changes the whole line (its length, every later score), so each player's drawn line
    takes its new columns and the figure its new x range (the y range is recomputed by the figure,
    the plot being ``framewise``); a new set of players is redrawn.
    """

    def __init__(self, data: Any, size: Mapping, lang: str = "en"):
        super().__init__(score_curves, hv.NdOverlay, data, size)
        self.lang = lang      # of the axis labels, title and hover labels
        self._lines: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # figure -> {player: renderer}

    def _render(self, data):
        self._drawn_from = data
        return score_curves(data, curve_hooks=[self._keep_line], lang=self.lang, **self.size)

    def _keep_line(self, plot, element) -> None:
        view = plot.handles["plot"]
        lines = self._lines.setdefault(view, {})
        lines[element.label] = plot.handles.get("glyph_renderer")
        if self._drawn_from is not self.data and self.data is not None:
            self._apply(self._line_updates(self.data, [(view, {element.label: lines[element.label]})]) or [])

    def update_in_place(self, data) -> bool:
        old, self.data = self.data, data
        if old is None or data is None or set(old["players"]) != set(data["players"]):
            return False
        updates = self._line_updates(data, list(self._lines.items()))
        if updates is None:
            return False
        self._apply(updates)
        self.pipe.update(data=data)      # quietly: the DynamicMap's next drawing reads it
        return True

    @staticmethod
    def _line_updates(data: Mapping, views: list) -> list | None:
        updates = []
        scores = [score for columns in data["players"].values() for score in columns["score"]] or [0]
        low, high = min(scores), max(scores)
        pad = 0.1 * (high - low) if high > low else 0.5      # HoloViews' default padding of a curve
        frame_data = {"title": None, "xlim": (0, max(data["steps"], 1)), "ylim": (low - pad, high + pad)}
        for view, lines in views:
            for label, renderer in lines.items():
                columns = data["players"].get(label)
                if renderer is None or columns is None:
                    return None
                # The overlay adds its key dimension ("Player") as a column of its own.
                columns = {**columns, "Player": [label] * len(columns["step"])}
                if not set(renderer.data_source.data) <= set(columns):
                    return None
                source = {key: columns[key] for key in renderer.data_source.data}
                updates.append((view, renderer, source, frame_data))
        return updates


CARD_PLOTS = {"draws": (deck_draws, hv.Scatter), "by_group": (unseen_by_group, hv.Bars),
              "by_number": (unseen_by_number, hv.Rectangles), "end_card": (end_card_curve, hv.Curve)}
#: The step the score curves mark: a parameter stream, so it can be updated without a redraw.
CursorStream = hv.streams.Stream.define("CursorStream", step=0)
#: The note shown in place of the card plots (English; ``text("plots.placeholder", lang)``).
PLACEHOLDER = text("plots.placeholder")


class LivePlots(pn.viewable.Viewer):
    """Score curves, cards drawn, unseen cards and the end card of a session, updated in place.

    ``LivePlots(session=session)``; ``width``/``height`` size each plot. Each plot is a
    :class:`PlotFeed` (``feeds``: ``scores``, ``draws``, ``by_group``, ``by_number``,
    ``end_card``): a ``Pipe`` (``pipes``) feeding a ``DynamicMap`` (``dmaps``) shown by a
    ``pn.pane.HoloViews`` (``panes``), all made once. A change of the session's line, cursor or
    viewing seat gives each plot whose data changed its new data; ``sent`` holds the latest.

    The cursor's dashed line is an ``hv.VLine`` from the ``cursor`` stream (parameter ``step``)
    over the score curves. The stream is updated quietly and the drawn lines (Bokeh ``Span``s,
    collected by a plot hook) are moved directly: redrawing the overlay would cost ~10 ms a step.
    The curves themselves are redrawn only when the line of play changes.

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
        # loop (plot updates inside a widget's callback upset Bokeh's session).
        self._on_session_change = OnLoop(self.refresh)
        self._catalogue_key: tuple | None = None
        self._catalogue: dict | None = None
        self._line: tuple | None = None          # (log, first state, spec) the score curves were made for
        self._cursor_lines: weakref.WeakSet = weakref.WeakSet()   # the drawn cursor Spans, one per view
        self.sent: dict[str, Any] = {}
        self.updated: dict[str, str] = {}         # how the last refresh updated each changed plot
        data = self.sent = self._collect()
        self._make_plots(data)
        self.placeholder = pn.pane.Markdown("", css_classes=["plots-placeholder"], margin=(5, 10))
        self.legend = pn.pane.HTML("", stylesheets=[LEGEND_CSS], sizing_mode="stretch_width", margin=(0, 10),
                                   css_classes=["plots-legend"])
        self._show_card_plots(data["card_plots"])
        self._plots_box = pn.FlexBox(*self.panes.values(), self.placeholder, flex_wrap="wrap",
                                     sizing_mode="stretch_width")
        self._layout = pn.Column(self.legend, self._plots_box, sizing_mode="stretch_width", css_classes=["live-plots"])
        # Not "spec": a session assigns a new spec on its own, just before the batch with the new line.
        self.session.param.watch(self._on_session_change, ["state", "log", "viewing_seat"])
        self.param.watch(OnLoop(self._relabel), "lang")

    def _make_plots(self, data: Mapping) -> None:
        """The feeds, their DynamicMaps and panes, for ``data`` in ``lang``."""
        size = {"width": self.width, "height": self.height}
        self.cursor = CursorStream(step=data["cursor"])
        self.feeds = {"scores": ScoreFeed(data["scores"], size, lang=self.lang)}
        for name, (element, empty) in CARD_PLOTS.items():
            self.feeds[name] = PlotFeed(partial(element, lang=self.lang), empty, data[name], size)
        self.pipes = {name: feed.pipe for name, feed in self.feeds.items()}
        self.dmaps = {name: feed.dmap for name, feed in self.feeds.items()}
        self.dmaps["scores"] = self.dmaps["scores"] * hv.DynamicMap(
            lambda step: cursor_marker(step, hooks=[self._keep_cursor_line]), streams=[self.cursor])
        self.panes = {name: pn.pane.HoloViews(dmap, linked_axes=False, margin=(5, 10),
                                              css_classes=[f"plot-{name.replace('_', '-')}"])
                      for name, dmap in self.dmaps.items()}

    def _keep_cursor_line(self, plot, element) -> None:
        line = plot.handles["glyph"]
        self._cursor_lines.add(line)
        line.location = self.cursor.step      # a view drawn from an older frame

    # ------------------------------------------------------------------ data
    def catalogue(self) -> dict | None:
        """The card catalogue of the current line (recomputed only when the line's first state changes)."""
        session = self.session
        key = (session.spec, session.state_at(0))
        if self._catalogue_key is None or any(a is not b for a, b in zip(self._catalogue_key, key)):
            self._catalogue_key = key
            self._catalogue = card_catalogue(*key) if session.spec.deck_knowledge(key[1], None) is not None else None
        return self._catalogue

    def _collect(self) -> dict[str, Any]:
        """Every plot's data for the session as it is now (the score curves only when the line changed)."""
        session = self.session
        line = (session.log, session.state_at(0), session.spec)
        data: dict[str, Any] = {"cursor": session.cursor}
        if self._line is not None and all(a is b for a, b in zip(self._line, line)):
            data["scores"] = self.sent["scores"]
        else:
            self._line = line
            moves = len(session.log)
            self.cache.trim(lambda key: key[1] <= moves)
            data["scores"] = session_score_data(session, self.cache, lang=self.lang)
        catalogue = data["catalogue"] = self.catalogue()
        data["card_plots"] = catalogue is not None
        if catalogue is None:
            data.update(dict.fromkeys(CARD_PLOTS))
            return data
        seat, lang = session.viewing_seat, self.lang
        data["draws"] = draws_plot_data(session_draw_data(session, seat, cache=self.cache, lang=lang), catalogue,
                                        len(session.log), seat, teacher=session.teacher, lang=lang)
        composition = deck_composition(session.spec, session.state, seat, catalogue, lang=lang)
        data["by_group"], data["by_number"] = composition["by_group"], composition["by_number"]
        data["end_card"] = end_card_data(session.spec, session.state, seat, lang=lang)
        return data

    # ------------------------------------------------------------------ updating
    def _show_card_plots(self, shown: bool) -> None:
        for name in CARD_PLOTS:
            self.panes[name].visible = shown
        self.legend.object = group_legend_html(self._catalogue, self.lang) if shown else ""
        self.legend.visible = shown
        self.placeholder.object = "" if shown else text("plots.placeholder", self.lang, title=self.session.spec.title)
        self.placeholder.visible = not shown

    def _relabel(self) -> None:
        """Every plot, the colour key and the note again in the new ``lang``: new plots (the score
        curves' players are named in the language, and HoloViews cannot rename an overlay's lines)."""
        self._line = None
        data = self.sent = self._collect()
        self._cursor_lines = weakref.WeakSet()
        self._make_plots(data)
        self._show_card_plots(data["card_plots"])
        self._plots_box.objects = [*self.panes.values(), self.placeholder]
        self.updated = dict.fromkeys(self.feeds, "new")

    def refresh(self) -> dict[str, str]:
        """Bring every plot up to date with the session; returns how each changed plot was updated."""
        data = self._collect()
        changed = [name for name in self.feeds if data[name] is not self.sent[name] and data[name] != self.sent[name]]
        if data["card_plots"] != self.sent["card_plots"] or data["catalogue"] is not self.sent["catalogue"]:
            self._show_card_plots(data["card_plots"])
        self.sent = data
        lines = list(self._cursor_lines)
        how = {}
        with contextlib.ExitStack() as held:
            held.enter_context(pn.io.hold())
            self.cursor.update(step=data["cursor"])      # quietly: a later drawing reads it
            for name in changed:
                how[name] = "in place" if self.feeds[name].update_in_place(data[name]) else "redraw"
            redraw = [name for name in changed if how[name] == "redraw"]
            if redraw:
                # A HoloViews redraw ends with Bokeh walking its whole document's model graph; frozen,
                # each document showing these plots is walked once, after every redraw.
                for document in {id(line.document): line.document for line in lines if line.document}.values():
                    held.enter_context(document.models.freeze())
                for name in redraw:
                    self.feeds[name].redraw(data[name])
            for line in lines:       # (HoloViews leaves the line alone when only the scores change)
                on_document(line, partial(setattr, line, "location", data["cursor"]))
        self.updated = how
        return how

    def __panel__(self):
        return self._layout
