"""The score table: each player's scoring categories at the viewed step (docs/architecture.md, "Explorer").

Drawn from the page's observation only (``session.view()``: its ``score_breakdown``, ``winners`` and
``to_move``; ``rules.protocol.GameSpec.public_score_breakdown``), so it works for any game: one table per seat with
a row per category (name, detail, points), the total, and the breakdown's other figures: the
sub-totals (numeric keys that name a kind of category, e.g. Subastral's ``mixed``/``matching``)
and the tie-break figures (the remaining numeric keys, e.g. ``journal_cards``). When the game is
over (nobody to move), the observation's ``winners`` are highlighted. Scores are public, so every seat sees the same table;
the viewing seat's table is marked.

CSS classes: ``score-tables``, ``score-table seat-<s>`` (plus ``winner``, ``viewer``),
``category``, ``total``, ``subtotals``, ``tie-break``; ``data-total`` holds each seat's total.
"""

from __future__ import annotations

import html

import panel as pn
import param

from explorer.core.i18n import text
from explorer.plots.game import breakdown_text, figure_name, player_colour, seat_label, subtotals, tie_break_figures
from explorer.core.session import GameSession
from explorer.core.stylesheets import stylesheet
from explorer.web.shell import heading
from rules.rulebook import LANGUAGES

esc = html.escape

SCORES_CSS = stylesheet("components/scores")


def breakdown_table_html(breakdown: dict, *, seat: int, winner: bool = False, viewer: bool = False,
                         lang: str = "en", game: str | None = None) -> str:
    """One seat's table as HTML; ``lang``: its labels (the categories are the game's own words);
    ``game``: whose breakdown it is (which figures are parts of the total, and their names)."""
    classes = ["score-table", f"seat-{seat}"] + (["winner"] if winner else []) + (["viewer"] if viewer else [])
    badge = f'<span class="badge">{esc(text("plots.table.winner", lang))}</span>' if winner else ""
    you = f'<span class="you">{esc(text("plots.table.viewing", lang))}</span>' if viewer else ""
    rows = []
    for category in breakdown.get("categories", ()):
        rows.append(f'<tr class="category"><td>{esc(str(category.get("category", "")))}'
                    f'<div class="detail">{esc(str(category.get("detail", "")))}</div></td>'
                    f'<td class="points">{category.get("points", 0)}</td></tr>')
    if not rows:
        rows.append(f'<tr class="empty"><td colspan="2">{esc(text("plots.no_points_yet", lang))}</td></tr>')
    total = breakdown.get("total", 0)
    rows.append(f'<tr class="total"><td>{esc(text("plots.table.total", lang))}</td><td class="points">{total}</td></tr>')
    if subtotals(breakdown, game):
        rows.append(f'<tr class="subtotals"><td colspan="2">{esc(breakdown_text(breakdown, lang, game))} = {total}</td></tr>')
    for key, value in tie_break_figures(breakdown, game):
        rows.append(f'<tr class="tie-break" data-key="{esc(key)}">'
                    f'<td>{esc(text("plots.table.tie_break", lang, figure=figure_name(key, game, lang)))}</td>'
                    f'<td class="points">{value}</td></tr>')
    return (f'<table class="{" ".join(classes)}" data-seat="{seat}" data-total="{total}" '
            f'style="--seat-colour:{player_colour(seat)}"><caption>{esc(seat_label(seat, lang))}{badge}{you}</caption>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def score_tables_html(view: dict, viewing_seat: int | None = None, lang: str = "en") -> str:
    """Every seat's table from one observation (``view``); winners highlighted once the game is over."""
    winners = set(view["winners"]) if not view["to_move"] else set()
    tables = []
    for index, breakdown in enumerate(view["score_breakdown"][lang]):
        seat = breakdown.get("seat", index)
        tables.append(breakdown_table_html(breakdown, seat=seat, winner=seat in winners, viewer=seat == viewing_seat,
                                           lang=lang, game=view.get("game")))
    return f'<div class="score-tables">{"".join(tables)}</div>'


class ScoreBreakdown(pn.viewable.Viewer):
    """Each player's score breakdown at the session's cursor, redrawn in place when it moves."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the tables' labels.")

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(self.html, stylesheets=[SCORES_CSS], sizing_mode="stretch_width",
                                  css_classes=["score-breakdown"], margin=(5, 10))

    @param.depends("session.state", "session.viewing_seat", "lang")
    def html(self) -> str:
        session = self.session
        return score_tables_html(session.view(), session.viewing_seat, self.lang)

    def __panel__(self):
        return self._pane


class FinalScores(pn.viewable.Viewer):
    """The final score breakdown under the explorer's board while the step shown ends the game, as the
    tables page shows it; hidden (and not drawn) at every other step."""

    session = param.ClassSelector(class_=GameSession, constant=True)
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES), doc="The language of the tables' labels.")

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML("", stylesheets=[SCORES_CSS], sizing_mode="stretch_width",
                                  css_classes=["score-breakdown"], margin=(0, 10))
        self._layout = pn.Column(heading(f"### {text('explorer.final_scores', self.lang)}", margin=(0, 10)),
                                 self._pane, visible=False, sizing_mode="stretch_width", css_classes=["final-scores"])
        self.session.param.watch(self._sync, ["state", "viewing_seat"])
        self._sync()

    def _sync(self, *events) -> None:
        session = self.session
        over = session.spec.is_over(session.state)
        if over:
            shown = score_tables_html(session.view(), session.viewing_seat, self.lang)
            if self._pane.object != shown:
                self._pane.object = shown
        if self._layout.visible != over:
            self._layout.visible = over

    def __panel__(self):
        return self._layout
