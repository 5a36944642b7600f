"""The Analysis page's plots: A against B, per seat, as games accumulate, and the score distributions.

Pure functions from :func:`play.sweep.paired_stats` output to plot columns (here the final-score
distribution and the provisional-score envelopes; the per-seat columns are ``explorer/pages/analysis.py``'s),
and one figure class per plot: a plain Bokeh figure drawn once whose glyphs read
``ColumnDataSource`` objects with the data's own column names, and whose ``show(data)`` gives the
same figure new columns, title, fixed ranges and ticks in place -- the live plots' mechanism
(``explorer/plots/live.py`` says why), so the page sends only changed values per chunk. Scores of
every seat are pooled per setting in the distributions: the question is how the rule changes the
game's scores, not one seat's. Each source is named (``analysis-<plot>-<setting or seat>``) for
the browser test to find.
"""

from __future__ import annotations

from typing import Mapping

from bokeh.models import ColumnDataSource, HoverTool, Legend, LegendItem, Span, Title, Whisker
from bokeh.plotting import figure

from explorer.core.i18n import text
from explorer.plots.game import FONT_SIZES, new_figure, player_colour, seat_label, set_range, set_ticks

#: The two settings' colours, the same in every plot of the page (blue and orange: told apart also
#: by most colour-blind readers); A's band is filled, B's hatched, so that where the bands overlap both show.
SETTING_COLOURS = {"A": "#1f77b4", "B": "#ff7f0e"}
BAND = {"A": {"fill_alpha": 0.22},
        "B": {"fill_alpha": 0, "hatch_pattern": "/", "hatch_alpha": 0.6, "hatch_scale": 14, "hatch_weight": 1.2}}
INTERVAL_COLUMNS = ("setting", "x", "value", "low", "high")
#: The angle of the seats' names under a per-seat plot of four seats or more (radians, about 30 degrees).
SLANTED = 0.5
DIFFERENCE_COLUMNS = ("games", "mean", "low", "high")


def score_distribution_data(stats: Mapping | None) -> dict:
    """Per setting, the share of final scores (all seats pooled) at each score.

    >>> stats = {"a": {"score_histogram": [[[10, 1], [12, 1]], [[12, 2]]]}, "b": {"score_histogram": [[[14, 2]], [[14, 2]]]}}
    >>> score_distribution_data(stats)["A"]
    {'score': [10, 12], 'share': [0.25, 0.75]}
    """
    out = {}
    for key, label in (("a", "A"), ("b", "B")):
        counts: dict[int, int] = {}
        for seat in (stats or {}).get(key, {}).get("score_histogram", []):
            for score, count in seat:
                counts[score] = counts.get(score, 0) + count
        total = sum(counts.values())
        scores = sorted(counts)
        out[label] = {"score": scores, "share": [round(counts[s] / total, 6) for s in scores]}
    return out


def envelope_data(stats: Mapping | None) -> dict:
    """Per setting, by decision: the provisional score averaged over seats and games still going,
    and the lowest and highest any seat had (empty when the curves were not recorded).

    >>> curve = {"decision": [1, 2], "games": [2, 2], "mean": [[0, 4], [2, 6]], "low": [[0, 1], [0, 2]], "high": [[0, 8], [4, 9]]}
    >>> envelope_data({"a": {"score_curve": curve}, "b": {"score_curve": None}})["A"]
    {'decision': [1, 2], 'mean': [1.0, 5.0], 'low': [0, 1], 'high': [4, 9]}
    """
    out = {}
    for key, label in (("a", "A"), ("b", "B")):
        curve = (stats or {}).get(key, {}).get("score_curve")
        if not curve:
            out[label] = {"decision": [], "mean": [], "low": [], "high": []}
            continue
        seats = len(curve["mean"])
        steps = range(len(curve["decision"]))
        out[label] = {"decision": list(curve["decision"]),
                      "mean": [round(sum(curve["mean"][s][k] for s in range(seats)) / seats, 3) for k in steps],
                      "low": [min(curve["low"][s][k] for s in range(seats)) for k in steps],
                      "high": [max(curve["high"][s][k] for s in range(seats)) for k in steps]}
    return out


# ---------------------------------------------------------------------------- ranges and columns (pure)
def padded(values, pad: float = 0.1, default: tuple = (0, 1)) -> tuple:
    """The range that holds ``values`` with ``pad`` of its span on each side (half a unit when flat).

    >>> padded([0, 10]), padded([3, 3]), padded([])
    ((-1.0, 11.0), (2.5, 3.5), (0, 1))
    """
    values = [value for value in values if value is not None]
    if not values:
        return default
    low, high = min(values), max(values)
    margin = pad * (high - low) if high > low else 0.5
    return (low - margin, high + margin)


def setting_columns(columns: Mapping, setting: str) -> dict:
    """The rows of one setting ("A" or "B") of interval columns (``INTERVAL_COLUMNS``)."""
    rows = [i for i, s in enumerate(columns["setting"]) if s == setting]
    return {name: [columns[name][i] for i in rows] for name in INTERVAL_COLUMNS}


def _source(name: str, columns) -> ColumnDataSource:
    return ColumnDataSource({column: [] for column in columns}, name=f"analysis-{name}")


def _distribution_figure(size: Mapping, xlabel: str, ylabel: str, title: str, lang: str) -> figure:
    """A distribution plot's figure (no hover), its texts ``plots.analysis.<name>`` in ``lang``."""
    fig = new_figure({"width": 420, **size}, text(f"plots.analysis.{xlabel}", lang), text(f"plots.analysis.{ylabel}", lang), [])
    fig.title.text = text(f"plots.analysis.{title}", lang)
    return fig


def _legend_beside(fig: figure, items: list[LegendItem] | None = None) -> None:
    """The figure's legend (or one of ``items``) to the right of the plot, where it hides no data; a
    click on an entry hides what it names."""
    legend = fig.legend[0] if items is None else Legend(items=items)
    legend.update(click_policy="hide", label_text_font_size=FONT_SIZES["major_label"], padding=4, margin=4, spacing=2,
                  glyph_width=18, border_line_alpha=0)
    fig.add_layout(legend, "right")


def _setting_label(setting: str, lang: str) -> str:
    return text("analysis.plot.setting", lang, setting=setting)


# ---------------------------------------------------------------------------- figures
class IntervalFigure:
    """A mean (or rate) with its 95% interval for A and B side by side: one mark and whisker per row.

    ``IntervalFigure(data, name=..., title=..., ylabel=..., lang=...)``; ``data`` holds ``columns``
    (``INTERVAL_COLUMNS``, both settings) and ``games``; a seat plot also ``players`` (its ticks) and
    ``fair_share`` (drawn as a dashed line when ``fair_share=True``). Without ``players`` the two
    settings are the ticks (the game length). ``value``: the hover's name of the value (``ylabel``).
    """

    def __init__(self, data: Mapping, *, name: str, title: str, ylabel: str, value: str | None = None, lang: str = "en",
                 fair_share: bool = False, **size):
        self.title, self.lang, self.seats = title, lang, "players" in data
        self.figure = fig = new_figure(size, "", ylabel, [("", "@setting"), (value or ylabel, "@value{0.00}"),
                                                          ("", "[@low{0.00}, @high{0.00}]")])
        self.sources = {setting: _source(f"{name}-{setting}", INTERVAL_COLUMNS) for setting in SETTING_COLOURS}
        marks = []
        for setting, source in self.sources.items():
            colour = SETTING_COLOURS[setting]
            whisker = Whisker(source=source, base="x", lower="low", upper="high", line_color=colour, line_width=2)
            whisker.upper_head.line_color = whisker.lower_head.line_color = colour
            fig.add_layout(whisker)
            legend = {"legend_label": _setting_label(setting, lang)} if self.seats else {}
            marks.append(fig.scatter("x", "value", source=source, size=9, color=colour, **legend))
        fig.select_one({"type": HoverTool}).renderers = marks
        if self.seats:
            _legend_beside(fig)
        self.fair_share = Span(dimension="width", line_color="#888888", line_dash="dashed", line_width=1,
                               visible=False) if fair_share else None
        if self.fair_share is not None:
            fig.add_layout(self.fair_share)
        self.show(data)

    def show(self, data: Mapping) -> bool:
        for setting, source in self.sources.items():
            source.data = setting_columns(data["columns"], setting)
        games = data["games"]
        if self.seats:
            self.figure.title.text = text("analysis.plot.title_games", self.lang, title=self.title, games=games)
            players = data["players"]
            set_ticks(self.figure.xaxis[0], [(seat, seat_label(seat, self.lang)) for seat in range(players)])
            set_range(self.figure.x_range, (-0.5, max(players, 1) - 0.5))
            # Four names or more slanted: level, on a phone they ran into one ("プレイヤー1プレイヤー2...").
            orientation = SLANTED if players >= 4 else "horizontal"
            if self.figure.xaxis[0].major_label_orientation != orientation:
                self.figure.xaxis[0].major_label_orientation = orientation
        else:
            self.figure.title.text = text("analysis.plot.length", self.lang, games=games)
            set_ticks(self.figure.xaxis[0], [(0, "A"), (1, "B")])
            set_range(self.figure.x_range, (-0.5, 1.5))
        shown = [*data["columns"]["low"], *data["columns"]["high"]]
        if self.fair_share is not None:
            fair = data.get("fair_share")
            self.fair_share.update(location=fair if fair is not None else 0, visible=fair is not None)
            shown += [fair] if fair is not None else []
        set_range(self.figure.y_range, padded(shown))
        return True


class DifferenceFigure:
    """The paired score difference B - A per seat as games accumulate: a line per seat, its
    interval a band around it, over a dashed line at zero; the x axis covers the whole run (``planned``
    games, the line growing along it). Each update is also a dot with its interval as a bar: a run whose
    chunks all finished before the page drew one has a single point, which a line and a band do not
    show (the plot was empty). Another set of seats needs a new figure (:meth:`show` returns False)."""

    def __init__(self, data: Mapping, lang: str = "en", **size):
        self.lang = lang
        games, difference = text("analysis.axis.games", lang), text("analysis.axis.difference", lang)
        self.figure = fig = new_figure(size, games, text("analysis.axis.points_difference", lang),
                                       [(games, "@games"), (difference, "@mean{0.00}")])
        fig.add_layout(Span(location=0, dimension="width", line_color="#888888", line_dash="dashed", line_width=1))
        self.sources = {seat: _source(f"difference-{seat}", DIFFERENCE_COLUMNS) for seat in data["seats"]}
        lines, items = [], []
        for seat, source in self.sources.items():
            colour = player_colour(seat)
            band = fig.varea("games", "low", "high", source=source, color=colour, alpha=0.12)
            bars = fig.segment("games", "low", "games", "high", source=source, color=colour, line_width=1.5, alpha=0.6)
            dots = fig.scatter("games", "mean", source=source, color=colour, size=6)
            lines.append(fig.line("games", "mean", source=source, color=colour, line_width=2))
            items.append(LegendItem(label=seat_label(seat, lang), renderers=[band, bars, dots, lines[-1]]))
        fig.select_one({"type": HoverTool}).renderers = lines
        if lines:
            _legend_beside(fig, items)
        self.show(data)

    def show(self, data: Mapping) -> bool:
        if list(data["seats"]) != list(self.sources):
            return False
        for seat, source in self.sources.items():
            source.data = dict(data["seats"][seat])
        self.figure.title.text = text("analysis.plot.difference", self.lang, games=data["games"])
        seats = data["seats"].values()
        set_range(self.figure.x_range, (0, max(data.get("planned") or 0, data["games"], 1)))
        set_range(self.figure.y_range, padded([0, *(v for columns in seats for v in columns["low"] + columns["high"])]))
        return True


class SettingsFigure:
    """A plot of A and B, one source each (``sources``, the data's columns): :meth:`show` fills them
    and fixes the x range around column ``X`` (from ``X_FROM`` when given) and the y range around
    the ``Y`` columns (and ``Y_FROM``)."""

    X, Y, Y_FROM, PAD, X_FROM = "", (), (), 0.05, None

    def show(self, data: Mapping) -> bool:
        for label, source in self.sources.items():
            source.data = dict(data[label])
        xs = [x for columns in data.values() for x in columns[self.X]]
        set_range(self.figure.x_range, (self.X_FROM, max(xs, default=1)) if self.X_FROM is not None else padded(xs, pad=0.02))
        set_range(self.figure.y_range, padded([*self.Y_FROM, *(y for columns in data.values() for name in self.Y
                                                              for y in columns[name])], pad=self.PAD))
        return True


class DistributionFigure(SettingsFigure):
    """The share of final scores (all seats pooled) at each score, A and B, as step lines (B dashed)."""

    X, Y, Y_FROM = "score", ("share",), (0,)

    def __init__(self, data: Mapping, lang: str = "en", **size):
        self.figure = fig = _distribution_figure(size, "final_score", "share", "distribution_title", lang)
        self.sources = {label: _source(f"distribution-{label}", ("score", "share")) for label in SETTING_COLOURS}
        for label, source in self.sources.items():
            fig.step("score", "share", source=source, mode="center", color=SETTING_COLOURS[label], line_width=2,
                     line_dash="solid" if label == "A" else "dashed", legend_label=_setting_label(label, lang))
        _legend_beside(fig)
        self.show(data)


class EnvelopeFigure(SettingsFigure):
    """Per setting, by decision: the mean provisional score (a line), and the band from the lowest
    to the highest any seat had (A filled, B hatched, each edged in its colour), from the first
    decision to the last of the longest game."""

    X, Y, PAD, X_FROM = "decision", ("low", "high"), 0.1, 0

    def __init__(self, data: Mapping, lang: str = "en", **size):
        self.figure = fig = _distribution_figure(size, "decision", "provisional", "envelope_title", lang)
        fig.add_layout(Title(text=text("plots.analysis.envelope_key", lang), text_font_size=FONT_SIZES["major_label"],
                             text_font_style="italic", text_color="#55606e"), "above")
        self.sources = {label: _source(f"envelope-{label}", ("decision", "mean", "low", "high")) for label in SETTING_COLOURS}
        items = []
        for label, source in self.sources.items():
            colour = SETTING_COLOURS[label]
            band = fig.varea("decision", "low", "high", source=source, fill_color=colour, hatch_color=colour, **BAND[label])
            edges = [fig.line("decision", edge, source=source, color=colour, line_width=1, line_alpha=0.7,
                              line_dash="solid" if label == "A" else "dashed") for edge in ("low", "high")]
            mean = fig.line("decision", "mean", source=source, color=colour, line_width=2.5,
                            line_dash="solid" if label == "A" else "dashed")
            items.append(LegendItem(label=_setting_label(label, lang), renderers=[band, *edges, mean]))
        _legend_beside(fig, items)
        self.show(data)
