"""The Analysis page's distribution plots: final scores and provisional-score envelopes, A against B.

Pure functions from :func:`rules.sweep.paired_stats` output to plot columns, and from columns to
HoloViews elements, so they are tested without a browser. Scores of every seat are pooled per
setting: the question is how the rule changes the game's scores, not one seat's.
"""

from __future__ import annotations

from typing import Mapping

import holoviews as hv

from explorer.i18n import text

if "bokeh" not in hv.Store.renderers:
    hv.extension("bokeh", logo=False)

COLOURS = {"A": "#1f77b4", "B": "#d62728"}


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


def score_distribution_plot(data: Mapping, lang: str = "en", **size) -> hv.Overlay:
    score = hv.Dimension("final score", label=text("plots.analysis.final_score", lang))
    share = hv.Dimension("share of scores", label=text("plots.analysis.share", lang))
    curves = [hv.Curve((d["score"], d["share"]), score, share, label=label).opts(
        interpolation="steps-mid", color=COLOURS[label], line_width=2, framewise=True) for label, d in data.items()]
    return hv.Overlay(curves).opts(title=text("plots.analysis.distribution_title", lang), width=size.get("width", 420),
                                   height=size.get("height", 260), legend_position="top_right", framewise=True)


def envelope_plot(data: Mapping, lang: str = "en", **size) -> hv.Overlay:
    decision = hv.Dimension("decision", label=text("plots.analysis.decision", lang))
    score = hv.Dimension("provisional score", label=text("plots.analysis.provisional", lang))
    highest = hv.Dimension("highest", label=text("plots.analysis.highest", lang))
    layers = []
    for label, d in data.items():
        layers.append(hv.Area((d["decision"], d["low"], d["high"]), decision, [score, highest],
                              label=text("plots.analysis.range", lang, setting=label)).opts(
                                  color=COLOURS[label], alpha=0.15, line_alpha=0, framewise=True))
        layers.append(hv.Curve((d["decision"], d["mean"]), decision, score,
                               label=text("plots.analysis.mean", lang, setting=label)).opts(
                                   color=COLOURS[label], line_width=2, framewise=True))
    return hv.Overlay(layers).opts(title=text("plots.analysis.envelope_title", lang), width=size.get("width", 420),
                                   height=size.get("height", 260), legend_position="top_left", framewise=True)
