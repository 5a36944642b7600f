"""Live plots of a game session: scores, cards drawn, what is left in the deck, the end card (docs/architecture.md, "Explorer").

Everything here reads what the page's session gives through its viewpoint, never a state: each
step's public ``scores`` and ``score_breakdown`` (``session.public_view``) for the score curves, the
events of each step's observation with the line's public card data (``session.card_data()``:
``inventory`` and ``card_info``, from the card file alone) for the cards drawn and revealed, and
``session.deck_knowledge(seat)`` (checked against the page's viewpoint, like an observation) for
the unseen cards and the end card. A game that answers ``None`` to ``card_info`` or
``deck_knowledge`` gets a note in place of the card plots.

Two layers, as in docs/architecture.md, "Plots":

* data functions, from a session (or the plain dicts it answers: events, card data, deck
  knowledge) to plain dicts of columns: pure and cheap to test;
* figures (:class:`ScoreFigure`, and a :class:`LiveFigure` per card plot): plain Bokeh figures
  drawn once, whose glyphs read ``ColumnDataSource`` objects with this module's own column names (the
  data's); ``show(data)`` gives the same figure new columns, title, ranges and ticks in place.
  :class:`explorer.plots.live.LivePlots`, a Panel ``Viewer``, watches a session and shows them
  (``live.py`` says why plain Bokeh rather than HoloViews streams).

What a viewing seat sees
    The deck-draw plot takes the events of the teacher (every card) or of the viewing seat's
    observation. A card another seat drew in secret has no name in that observation: it is drawn
    as a grey "hidden card" marker on a row of its own (the seat knows *that* a card was drawn, not
    which). The deck composition is ``session.deck_knowledge(seat)``; the teacher (``None``) gets the
    spectator's inference (no hand seen). Scores are public: the same for every seat; but only the
    teacher sees the line after the step shown (issue #22: a seat's page shows no future).

Each game in its own terms
    The texts of an axis or title may have a version per game (``plots.axis.number.starligned``:
    "Value of the half face up"; :func:`game_text`); a game whose cards' numbers make no scale
    (Jump Gate's 0 and 1) has its cards drawn by group, and no plot by number; a game without an end
    card no end-card plot. Card groups are named in the page's language: ``card_info``'s
    ``group_names`` (``{"en": "Savanna", "ja": "サバンナ"}``, :func:`group_label`), its ``group_name``
    where a game gives no name in that language.

Caching
    Per-step values (each step's scores and breakdown text, each step's draw points per seat) are
    kept in a :class:`StepCache` keyed by step *and the session's key for that step*
    (``session.step_key(step)``, an opaque object that changes exactly when the state there does), so
    a changed log (a new branch, a variant replay, a new deal) invalidates exactly the steps that
    changed, and stepping the cursor never recomputes the whole line.
"""

from __future__ import annotations

import colorsys
import html
import re
from collections import Counter
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import math

from bokeh.core.properties import field
from bokeh.models import ColumnDataSource, FactorRange, FixedTicker, HoverTool, Range1d, Span
from bokeh.plotting import figure

from explorer.core.palette import PLAYER_COLOURS, biome_colours, player_colour  # noqa: F401  (the plots' colours)
from explorer.core.i18n import text, texts
from explorer.core.session import GameSession, player_label
from explorer.core.stylesheets import stylesheet
from rules.protocol import ALL
from rules.registry import get_game

HIDDEN_CARD = "hidden card"          # the English of text("plots.hidden_card")
HIDDEN_COLOUR = "#a3adb8"
CURSOR_COLOUR = "#ffb703"
PLOT_SIZE = {"width": 460, "height": 260}
#: The plots' tools (every plot's, the Analysis page's too) and text sizes. The wheel zoom is one of
#: them but not active until chosen in the toolbar: active, a page scrolled with the mouse over a plot
#: zoomed the plot instead (its bars' axis went to -60, their labels piled up).
TOOLS = "pan,wheel_zoom,box_zoom,reset,save"
FONT_SIZES = {"title": "11.4pt", "axis_label": "12.35px", "major_label": "10.45px"}
#: Keys of a score breakdown that are never a sub-total or a tie-break figure.
BREAKDOWN_FRAME = ("categories", "total", "seat")


# ---------------------------------------------------------------------------- small helpers
def new_figure(size: Mapping, xlabel: str, ylabel: str, tooltips: list, x_range=None, y_range=None) -> figure:
    """A live plot's empty figure: fixed ranges (``Range1d``, or ``x_range``/``y_range`` given), a hover with
    ``tooltips`` if any (for the glyphs its maker names), the toolbar shown on mouse-over."""
    fig = figure(x_range=x_range or Range1d(0, 1), y_range=y_range or Range1d(0, 1), tools=TOOLS,
                 active_scroll=None, min_border=5, min_border_left=10, **{**PLOT_SIZE, **size})
    fig.xaxis.axis_label, fig.yaxis.axis_label = xlabel, ylabel
    if tooltips:
        fig.add_tools(HoverTool(tooltips=tooltips, renderers=[], mode="mouse"))
    fig.toolbar.autohide = True
    fig.title.text_font_size = FONT_SIZES["title"]
    for axis in (*fig.xaxis, *fig.yaxis):
        axis.axis_label_text_font_size = FONT_SIZES["axis_label"]
        axis.major_label_text_font_size = FONT_SIZES["major_label"]
    return fig


def set_range(axis_range, limits) -> None:
    """Fix a numeric axis to ``limits`` (its reset too), touching it only when they changed."""
    if limits is not None and (axis_range.start, axis_range.end) != tuple(limits):
        axis_range.update(start=limits[0], end=limits[1], reset_start=limits[0], reset_end=limits[1])


def set_ticks(axis, ticks: Sequence[tuple]) -> None:
    """Ticks only at ``ticks`` (``(value, label)``), labelled so, when they changed."""
    values, labels = [value for value, _ in ticks], {value: label for value, label in ticks}
    if not isinstance(axis.ticker, FixedTicker) or list(axis.ticker.ticks) != values:
        axis.ticker = FixedTicker(ticks=values)
    if axis.major_label_overrides != labels:
        axis.major_label_overrides = labels


def cursor_line(fig: figure, step: int) -> Span:
    """The cursor's dashed line on ``fig``, at ``step`` (the step shown)."""
    line = Span(location=step, dimension="height", line_color=CURSOR_COLOUR, line_width=2, line_dash="dashed")
    fig.add_layout(line)
    return line


def move_cursor(line: Span, step: int) -> None:
    if line.location != step:
        line.location = step


class LiveFigure:
    """One live plot: a plain Bokeh figure drawn once, its glyph reading a ``ColumnDataSource``
    whose columns are this module's own (``COLUMNS``, named like the plot data's); :meth:`show`
    gives the same figure new data, title, ranges and ticks in place.

    The card plots' data all have one shape: ``{"columns": the glyph's data, "title", "xlim",
    "ylim" (None: categorical), "structure": what else the drawing depends on (the ticks)}``, and
    optionally ``"xlabel"``/``"ylabel"`` (the axes in the game's own terms); ``None`` (a game
    without card information, or without this plot) shows an empty plot, whose pane is hidden.
    """

    COLUMNS: tuple[str, ...] = ()
    XLABEL = YLABEL = ""
    TOOLTIPS: tuple[tuple[str, str], ...] = ()      # (label: a text key "plots...." or the label itself, field)

    def __init__(self, data: Mapping | None, lang: str = "en", **size):
        self.lang = lang
        self.source = ColumnDataSource({name: [] for name in self.COLUMNS})
        self.figure = new_figure(size, text(self.XLABEL, lang), text(self.YLABEL, lang),
                                 [(text(key, lang) if "." in key else key, field) for key, field in self.TOOLTIPS],
                                 x_range=self.x_range(), y_range=self.y_range())
        hover = self.figure.select_one({"type": HoverTool})
        hover.renderers = [self.draw(self.figure, self.source)]
        self.show(data)

    def x_range(self):
        """The figure's x range (None: a numeric ``Range1d``; a ``FactorRange`` for categories)."""
        return None

    def y_range(self):
        """The figure's y range, as :meth:`x_range`."""
        return None

    def draw(self, fig: figure, source: ColumnDataSource):
        """Add the glyph reading ``source`` to ``fig``; returns its renderer."""
        raise NotImplementedError

    def show(self, data: Mapping | None) -> bool:
        """The figure shows ``data`` (always in place: True)."""
        if data is None:
            self.source.data = {name: [] for name in self.COLUMNS}
            return True
        columns = data["columns"]
        self.source.data = {name: columns[name] for name in self.COLUMNS}
        if self.figure.title.text != data["title"]:
            self.figure.title.text = data["title"]
        for axis, label in ((self.figure.xaxis[0], data.get("xlabel")), (self.figure.yaxis[0], data.get("ylabel"))):
            if label is not None and axis.axis_label != label:
                axis.axis_label = label
        set_range(self.figure.x_range, data["xlim"])
        set_range(self.figure.y_range, data["ylim"])
        self.structure(data["structure"])
        return True

    def structure(self, structure) -> None:
        """What the figure shows apart from its glyph's data (ticks, categories)."""


def group_colour(group: str) -> str:
    """The board's colour for a card group (a Subastral biome), as a hex colour Bokeh accepts."""
    colour = biome_colours(group)[0]
    match = re.fullmatch(r"hsl\((\d+),\s*(\d+)%,\s*(\d+)%\)", colour)
    if match:      # the board's stable fallback colour for a group it does not know
        hue, saturation, lightness = (int(v) for v in match.groups())
        red, green, blue = colorsys.hls_to_rgb(hue / 360, lightness / 100, saturation / 100)
        colour = "#{:02x}{:02x}{:02x}".format(*(round(v * 255) for v in (red, green, blue)))
    return colour


def group_label(info: Mapping, lang: str = "en") -> str:
    """A card group's name in ``lang``, from a card's ``card_info``: its ``group_names[lang]`` where the
    game words one, else its ``group_name`` (the English), else its ``group`` id."""
    names = info.get("group_names")
    found = names.get(lang) if isinstance(names, Mapping) else None
    return found or info.get("group_name") or str(info.get("group", "?"))


def humanize(key: str) -> str:
    return key.replace("_", " ")


def seat_label(seat: int, lang: str = "en") -> str:
    """A player's name on screen: ``"Player 1"`` (:func:`explorer.core.session.player_label`), ``"プレイヤー1"``."""
    return player_label(seat) if lang == "en" else text("explorer.player", lang, n=seat + 1)


def game_text(keys: str | Sequence[str], game: str, lang: str = "en", **values) -> str:
    """A text in ``game``'s own terms where the plots' texts have them (``<key>.<game id>``, e.g.
    ``plots.axis.number.starligned``: "Value of the half face up"), else the general one: the first
    of ``keys`` the game words, else the first there is."""
    keys = (keys,) if isinstance(keys, str) else tuple(keys)
    known = texts(lang)
    found = next(name for name in (*(f"{key}.{game}" for key in keys), *keys) if name in known)
    return text(found, lang, **values)


class StepCache:
    """Values computed for one step of the line, kept while that step's state is unchanged.

    ``get(key, version, compute)``: the cached value for ``key`` if it was computed for ``version``
    (the same object: ``session.step_key(step)``), else ``compute()``. Session states are immutable
    and replaced when the line changes, and so is their key: an identity check is a complete
    invalidation rule.
    """

    def __init__(self):
        self._entries: dict[Hashable, tuple[Any, Any]] = {}

    def get(self, key: Hashable, version: Any, compute: Callable[[], Any]) -> Any:
        entry = self._entries.get(key)
        if entry is not None and entry[0] is version:
            return entry[1]
        value = compute()
        self._entries[key] = (version, value)
        return value

    def trim(self, keep: Callable[[Hashable], bool]) -> None:
        """Forget entries whose key ``keep`` rejects (e.g. steps past the end of a shorter log)."""
        self._entries = {key: entry for key, entry in self._entries.items() if keep(key)}


# ---------------------------------------------------------------------------- (a) scores
def score_parts(game: str | None) -> tuple[str, ...]:
    """The keys of ``game``'s score breakdowns that are parts of the total (``GameSpec.score_parts``)."""
    return get_game(game).score_parts if game else ()


def figure_name(key: str, game: str | None = None, lang: str = "en") -> str:
    """A breakdown figure's name in ``lang``: ``plots.figure.<key>.<game>`` or ``plots.figure.<key>``
    ("journal cards", "ジャーナルのカード枚数"), else the key in words."""
    known = texts(lang)
    found = next((name for name in (f"plots.figure.{key}.{game}", f"plots.figure.{key}") if name in known), None)
    return text(found, lang) if found else humanize(key)


def _figures(breakdown: Mapping) -> list[tuple[str, int]]:
    return [(key, value) for key, value in breakdown.items()
            if key not in BREAKDOWN_FRAME and isinstance(value, (int, float)) and not isinstance(value, bool)]


def subtotals(breakdown: Mapping, game: str | None = None) -> list[tuple[str, int]]:
    """The sub-totals of one seat's breakdown: the figures ``game`` declares parts of its total
    (Subastral: ``[("mixed", 21), ("matching", 12)]``); none before anything has scored (no category)."""
    if not breakdown.get("categories"):
        return []
    parts = score_parts(game)
    return [(key, value) for key, value in _figures(breakdown) if key in parts]


def tie_break_figures(breakdown: Mapping, game: str | None = None) -> list[tuple[str, int]]:
    """The other figures of a breakdown (Subastral: ``journal_cards``), when it has categories.

    Without any category (nothing scored yet) none is shown: every figure is then zero in the games we have.
    """
    if not breakdown.get("categories"):
        return []
    parts = score_parts(game)
    return [(key, value) for key, value in _figures(breakdown) if key not in parts]


def breakdown_text(breakdown: Mapping, lang: str = "en", game: str | None = None) -> str:
    """A short line for a hover: ``"mixed 21 + matching 12"`` (``"no points yet"`` without categories)."""
    parts = [(figure_name(key, game, lang), value) for key, value in subtotals(breakdown, game)]
    if not parts:
        grouped: dict[str, int] = {}
        for category in breakdown.get("categories", ()):
            name = re.sub(r"\s*\d+$", "", humanize(str(category.get("category", "points"))))
            grouped[name] = grouped.get(name, 0) + category.get("points", 0)
        parts = list(grouped.items())
    if not parts:
        return text("plots.no_points_yet", lang)
    return " + ".join(f"{name} {points}" for name, points in parts)


def step_scores(view: Mapping, lang: str = "en", game: str | None = None) -> list[tuple[int, str]]:
    """``(score, breakdown text)`` per seat from one observation (its public ``scores`` and
    ``score_breakdown``)."""
    breakdowns = {entry.get("seat", seat): entry for seat, entry in enumerate(view["score_breakdown"][lang])}
    game = game or view.get("game")
    return [(score, breakdown_text(breakdowns.get(seat, {}), lang, game)) for seat, score in enumerate(view["scores"])]


def score_curve_data(steps: int, per_step: Callable[[int], list], lang: str = "en") -> dict:
    """Columns of a score curve per player over steps 0 to ``steps`` of a line.

    Returns ``{"steps": last step, "seats": {"Player 1": 0...}, "players": {"Player 1": {"step",
    "score", "player", "breakdown"}...}}``. ``per_step(step)`` gives :func:`step_scores` of that
    step's observation. ``lang``: the players' names and the breakdown texts (``"プレイヤー1"`` in Japanese).
    """
    players: dict[str, dict[str, list]] = {}
    seats: dict[str, int] = {}
    for step in range(steps + 1):
        for seat, (score, said) in enumerate(per_step(step)):
            label = seat_label(seat, lang)
            seats[label] = seat
            columns = players.setdefault(label, {"step": [], "score": [], "player": [], "breakdown": []})
            columns["step"].append(step)
            columns["score"].append(score)
            columns["player"].append(label)
            columns["breakdown"].append(said)
    return {"steps": steps, "seats": seats, "players": players}


def session_score_data(session: GameSession, cache: StepCache | None = None, lang: str = "en",
                       upto: int | None = None) -> dict:
    """:func:`score_curve_data` over the session's current line up to step ``upto`` (default: the
    whole line, not only up to the cursor: the teacher's curves), from the public part of each
    step's observation (``session.public_view``: the same for every viewpoint)."""
    cache = cache if cache is not None else StepCache()
    steps = len(session.log) if upto is None else upto
    return score_curve_data(steps, lambda step: cache.get(("scores", step, lang), session.step_key(step),
                                                          lambda: step_scores(session.public_view(step), lang, session.game)), lang=lang)


SCORE_COLUMNS = ("step", "score", "player", "breakdown")


class ScoreFigure:
    """The score curves, one line per player (its own ``ColumnDataSource`` of ``SCORE_COLUMNS``),
    and the cursor's dashed line (``cursor``, a ``Span``) at the step shown.

    :meth:`show` gives each line its new columns and the figure its new ranges in place while the
    same players are drawn; another set of players needs a new figure (it returns False).
    """

    def __init__(self, data: Mapping, cursor: int = 0, lang: str = "en", **size):
        self.lang = lang
        tooltips = [("", "@player"), (text("plots.tip.step", lang), "@step"), (text("plots.tip.score", lang), "@score"),
                    ("", "@breakdown")]
        self.figure = fig = new_figure(size, text("plots.axis.step", lang), text("plots.axis.score", lang), tooltips)
        fig.title.text = text("plots.scores.title", lang)
        self.sources = {label: ColumnDataSource({name: [] for name in SCORE_COLUMNS}) for label in data["players"]}
        lines = [fig.line("step", "score", source=source, legend_label=label, line_width=2,
                          color=player_colour(data["seats"][label])) for label, source in self.sources.items()]
        fig.select_one({"type": HoverTool}).renderers = lines
        if lines:      # beside the plot, never over a curve; a click on a name hides its curve
            legend = fig.legend[0]
            legend.update(click_policy="hide", label_text_font_size=FONT_SIZES["major_label"], spacing=0, padding=4,
                          margin=4, glyph_width=16, border_line_alpha=0)
            fig.add_layout(legend, "right")
        self.cursor = cursor_line(fig, cursor)
        self.show(data)

    def show(self, data: Mapping) -> bool:
        """The curves show ``data`` in place; False if its players are not the ones drawn."""
        if list(data["players"]) != list(self.sources):
            return False
        for label, source in self.sources.items():
            source.data = dict(data["players"][label])
        scores = [score for columns in data["players"].values() for score in columns["score"]] or [0]
        low, high = min(scores), max(scores)
        pad = 0.1 * (high - low) if high > low else 0.5
        set_range(self.figure.x_range, (0, max(data["steps"], 1)))
        set_range(self.figure.y_range, (low - pad, high + pad))
        return True

    def show_cursor(self, step: int) -> None:
        move_cursor(self.cursor, step)


# ---------------------------------------------------------------------------- (b) cards drawn
def visible_events(session: GameSession, step: int, seat: int | None) -> list[dict]:
    """The events of ``step`` as ``seat`` may read them; the teacher (``None``) reads them all in full,
    a spectator (``None`` in a session without a teacher) only what everybody may read. ``texts``:
    the text in each language, when the game writes them."""
    return session.observation(ALL if seat is None and session.teacher else seat, step)["events"]


def draw_points(cards: Mapping[str, Mapping | None], step: int, events: Iterable[Mapping],
                kinds: Sequence[str] = ("draw", "reveal"), lang: str = "en") -> list[dict]:
    """One point per card drawn or revealed at ``step``; a hidden draw (no ``cards``) is one grey point at 0.

    ``cards``: each card's ``card_info`` (``session.card_info(card)``). ``lang``: the event texts
    (in ``lang`` where the game writes them), the groups' names (:func:`group_label`) and the hidden
    card's name."""
    points = []
    hidden = text("plots.hidden_card", lang)
    for event in events:
        if event.get("kind") not in kinds:
            continue
        shown = event.get("cards") or ()
        said = event.get("text", "") if lang == "en" else (event.get("texts") or {}).get(lang, event.get("text", ""))
        if not shown:
            points.append({"step": step, "card": hidden, "number": 0, "group": "hidden", "group_name": hidden,
                           "colour": HIDDEN_COLOUR, "kind": event["kind"], "text": said})
        for card in shown:
            info = cards.get(card) or {}
            group = info.get("group", "?")
            points.append({"step": step, "card": card, "number": info.get("number", 0), "group": group,
                           "group_name": group_label(info, lang), "colour": group_colour(group),
                           "kind": event["kind"], "text": said})
    return points


DRAW_COLUMNS = ("position", "step", "number", "card", "group", "group_name", "colour", "kind", "text")


def draw_columns(points_per_step: Iterable[list[dict]]) -> dict[str, list]:
    """Points of many steps as columns; cards of one step sit side by side around their step."""
    columns: dict[str, list] = {name: [] for name in DRAW_COLUMNS}
    for points in points_per_step:
        width = len(points)
        for index, point in enumerate(points):
            columns["position"].append(point["step"] + (index - (width - 1) / 2) * min(0.16, 0.8 / max(width, 1)))
            for name in DRAW_COLUMNS[1:]:
                columns[name].append(point[name])
    return columns


def session_draw_data(session: GameSession, seat: Any = "viewing", upto: int | None = None,
                      cache: StepCache | None = None, lang: str = "en") -> dict[str, list]:
    """Columns of every card drawn or revealed from the deal to ``upto`` (default: the cursor), as
    ``seat`` sees them: the cards of the events its game lists in ``deck_event_kinds``."""
    seat = session.viewing_seat if seat == "viewing" else seat
    upto = session.cursor if upto is None else upto
    kinds = tuple(session.spec.deck_event_kinds)
    cache = cache if cache is not None else StepCache()

    def compute(step: int) -> list[dict]:
        events = visible_events(session, step, seat)
        cards = {card: session.card_info(card) for event in events if event.get("kind") in kinds
                 for card in event.get("cards") or ()}
        return draw_points(cards, step, events, kinds=kinds, lang=lang)

    def points(step: int) -> list[dict]:
        return cache.get(("draws", step, seat, lang), session.step_key(step), lambda: compute(step))

    return draw_columns(points(step) for step in range(upto + 1))


def card_catalogue(cards: Mapping | None) -> dict | None:
    """Every kind of card of the game with its ``card_info`` and copies, or None if the game does not answer.

    ``cards``: the line's public card data, ``session.card_data()`` (copies from ``inventory``, every
    card on the table, when the game answers it, else from the spectator's unseen cards at the deal).
    Its groups (in order), numbers and copies fix the card plots' colours and axes for the whole game.
    ``groups``: each group's ``card_info`` (of its first card), which names it in every language the
    game words (:func:`group_names`).
    """
    if cards is None:
        return None
    copies, info = cards["copies"], cards["info"]
    if not info or any(value is None for value in info.values()):
        return None
    groups: dict[str, Mapping] = {}
    per_group: Counter = Counter()
    per_number: Counter = Counter()
    printed: dict[int, set] = {}
    for card, value in info.items():
        groups.setdefault(value["group"], value)
        per_group[value["group"]] += copies[card]
        per_number[value["number"]] += copies[card]
        printed.setdefault(value["number"], set()).add(value.get("label", str(value["number"])))
    numbers = sorted(per_number)
    return {"cards": info, "groups": groups, "numbers": numbers,
            "number_labels": {number: next(iter(labels)) if len(labels) == 1 else str(number)
                              for number, labels in printed.items()},
            "by_number": len(numbers) >= NUMBERS_FOR_A_SCALE,
            "most_in_a_group": max(per_group.values()), "most_of_a_number": max(per_number.values())}


#: A game whose cards carry fewer numbers than this (Jump Gate's 0 and 1: a resource's black-hole
#: icon) has no number scale to plot cards along: its cards are plotted by group, and the card
#: plots by number are left out.
NUMBERS_FOR_A_SCALE = 3


def group_names(catalogue: Mapping, lang: str = "en") -> dict[str, str]:
    """Group id -> its name in ``lang`` (:func:`group_label`), in the game's order. Names are the plots'
    categories, which must differ: a card file may give two groups one name, so a name met again is
    followed by its group's id."""
    named: dict[str, str] = {}
    for group, info in catalogue["groups"].items():
        name = group_label(info, lang)
        named[group] = f"{name} ({group})" if name in named.values() else name
    return named


def group_cmap(catalogue: Mapping, lang: str = "en") -> dict[str, str]:
    """Group name (in ``lang``) -> colour, plus the grey of hidden cards: the same in every plot."""
    cmap = {name: group_colour(group) for group, name in group_names(catalogue, lang).items()}
    cmap[text("plots.hidden_card", lang)] = HIDDEN_COLOUR
    return cmap


def group_legend_html(catalogue: Mapping, lang: str = "en", game: str = "") -> str:
    """The card plots' shared colour key: one swatch per group, and the grey of a card drawn in secret;
    in a game plotted by group (no number scale), what a ringed dot means, in ``game``'s terms."""
    swatches = "".join(f'<span class="legend-item"><span class="swatch" style="background:{colour}"></span>'
                       f'{html.escape(name)}</span>' for name, colour in group_cmap(catalogue, lang).items())
    if not catalogue["by_number"]:
        swatches += (f'<span class="legend-item ring"><span class="swatch ringed"></span>'
                     f'{html.escape(game_text("plots.legend.ring", game, lang))}</span>')
    return (f'<div class="group-legend"><span class="legend-title">{html.escape(text("plots.legend.title", lang))}</span>'
            f'{swatches}</div>')


LEGEND_CSS = stylesheet("plots/group_legend")

# The card plots' data all have the shape LiveFigure.show takes.


def draws_plot_data(columns: Mapping, catalogue: Mapping, steps: int, seat: int | None, teacher: bool = True,
                    lang: str = "en", game: str = "") -> dict:
    """:func:`session_draw_data` columns as the deck-draw plot's data, in ``game``'s terms.

    ``steps``: the last step of the x axis (the end of the line for the teacher, the step shown for
    anyone else, whose axis tells nothing of how the line goes on).

    A game whose numbers make a scale (:data:`NUMBERS_FOR_A_SCALE`) plots each card at its number
    (ticks as printed: Stellar's ``6/0``), a card drawn in secret one row below the lowest; any
    other (Jump Gate: its resource types revealed, its NavComp cards drawn) by group, one row per
    group drawn so far (the first at the top, each named in ``lang``), a card whose number is above
    the lowest (a resource with the black-hole icon) ringed (``ring``: the outline's width). The y axis says what is drawn in the game's terms (``plots.axis.number.<game>``).
    """
    who = (text("plots.draws.who_seat", lang, player=seat_label(seat, lang)) if seat is not None
           else text("plots.draws.who_teacher", lang) if teacher else text("plots.draws.who_spectator", lang))
    hidden = seat is not None or not teacher         # a teacher sees every card
    shown = dict(columns)
    lowest = min(catalogue["numbers"], default=0)
    if catalogue["by_number"]:
        drawn = [number for number, group in zip(columns["number"], columns["group"]) if group != "hidden"]
        low, high = min([lowest, *drawn]), max([*catalogue["numbers"], *drawn], default=1)
        hidden_row = low - 1
        shown["y"] = [hidden_row if group == "hidden" else number for number, group in zip(columns["number"], columns["group"])]
        shown["ring"] = [0.5] * len(columns["step"])
        labels = catalogue["number_labels"]
        ticks = [(hidden_row, text("plots.draws.hidden_tick", lang))] * hidden + [
            (number, labels.get(number, str(number))) for number in range(low, high + 1)]
        ylim, ylabel = (low - (1.6 if hidden else 0.6), high + 0.6), game_text("plots.axis.number", game, lang)
        structure = ("draws", "number", tuple(ticks))
    else:
        hidden_name = text("plots.hidden_card", lang)
        drawn_groups = set(columns["group_name"])
        names = list(group_names(catalogue, lang).values())
        rows = [name for name in names if name in drawn_groups] or names
        shown["y"] = list(columns["group_name"])
        shown["ring"] = [2.5 if group != "hidden" and number > lowest else 0.5
                         for number, group in zip(columns["number"], columns["group"])]
        factors = ([hidden_name] if hidden else []) + rows[::-1]
        ylim, ylabel = None, game_text("plots.draws.axis", game, lang)
        structure = ("draws", "group", tuple(factors))
    return {"columns": shown, "title": game_text("plots.draws.title", game, lang, who=who), "xlim": (-0.5, max(steps, 1) + 0.5),
            "ylim": ylim, "ylabel": ylabel, "structure": structure}


class DrawsFigure(LiveFigure):
    """Cards drawn or revealed per step, in their group's colour: by number (hidden draws grey on the
    row below, "hidden") or, in a game without a number scale, by group; and the cursor's dashed line.

    Which of the two the y axis is (a number range or the groups as categories) is fixed when the
    figure is made: :meth:`show` returns False for data of the other kind (a new figure is needed).
    """

    COLUMNS = ("position", "y", "step", "card", "group_name", "colour", "ring", "text")
    XLABEL, YLABEL = "plots.axis.step", "plots.axis.number"
    TOOLTIPS = (("", "@group_name"), ("plots.tip.step", "@step"), ("", "@text"))

    def __init__(self, data: Mapping | None, lang: str = "en", cursor: int = 0, **size):
        self.kind = data["structure"][1] if data else "number"
        super().__init__(data, lang=lang, **size)
        self.cursor = cursor_line(self.figure, cursor)

    def y_range(self):
        return FactorRange() if self.kind == "group" else None

    def draw(self, fig, source):
        return fig.scatter("position", "y", source=source, size=8, fill_color=field("colour"), line_color="#1d2733",
                           line_width=field("ring"))

    def show(self, data: Mapping | None) -> bool:
        if data is not None and data["structure"][1] != self.kind:
            return False
        return super().show(data)

    def structure(self, structure) -> None:
        if self.kind == "group":
            if list(self.figure.y_range.factors) != list(structure[2]):
                self.figure.y_range.factors = list(structure[2])
        else:
            set_ticks(self.figure.yaxis[0], structure[2])

    def show_cursor(self, step: int) -> None:
        move_cursor(self.cursor, step)


# ---------------------------------------------------------------------------- (c) unseen cards
def deck_composition(knowledge: Mapping | None, seat: int | None, catalogue: Mapping | None,
                     lang: str = "en", game: str = "") -> dict | None:
    """What ``seat`` can infer about the unseen cards: counts by group, stacks by number, and a title.

    ``knowledge``: ``session.deck_knowledge(seat)``; ``catalogue``: :func:`card_catalogue`; ``game``:
    its id, for the axes in its own terms (``plots.axis.group.<game>``, ``plots.axis.number.<game>``).

    ``by_group`` has one bar per group of the game (in the game's order, empty ones too, so bars
    keep their place); ``by_number`` one stacked block per (number, group) with unseen cards, or
    None in a game whose numbers make no scale (``catalogue["by_number"]``). The y ranges hold the
    most cards a group or number has in the game: the bars shrink as it goes on.
    """
    if knowledge is None or catalogue is None:
        return None
    info = catalogue["cards"]
    by_group: Counter = Counter()
    by_number: Counter = Counter()
    for card, count in knowledge["unseen"].items():
        card_data = info[card]
        by_group[card_data["group"]] += count
        by_number[(card_data["number"], card_data["group"])] += count
    named = group_names(catalogue, lang)          # group id -> its name on this page
    numbers = tuple(catalogue["numbers"])
    stacks: dict[str, list] = {name: [] for name in ("x0", "x1", "y0", "y1", "number", "group_name", "count", "colour")}
    for number in numbers:
        height = 0
        for group, name in named.items():
            count = by_number[(number, group)]
            if count:
                for key, value in (("x0", number - 0.4), ("x1", number + 0.4), ("y0", height), ("y1", height + count),
                                   ("number", number), ("group_name", name), ("count", count),
                                   ("colour", group_colour(group))):
                    stacks[key].append(value)
                height += count
    total = sum(by_group.values())
    title = text("plots.unseen.title_seat" if seat is not None else "plots.unseen.title_all", lang, total=total,
                 deck=knowledge["deck_count"], in_hands=knowledge["unseen_in_hands"])
    tallest_group = max([catalogue["most_in_a_group"], *by_group.values()])
    tallest_number = max([catalogue["most_of_a_number"], *(sum(c for (n, _), c in by_number.items() if n == number)
                                                          for number in numbers)])
    return {
        "total": total, "deck_count": knowledge["deck_count"], "in_hands": knowledge["unseen_in_hands"],
        "by_group": {"columns": {"group_name": list(named.values()), "count": [by_group[group] for group in named],
                                 "colour": [group_colour(group) for group in named]},
                     "title": title, "xlim": None, "ylim": (0, tallest_group * 1.05),
                     "structure": ("groups", tuple(named.values())),
                     "xlabel": game_text("plots.axis.group", game, lang)},
        "by_number": {"columns": stacks, "title": text("plots.unseen.by_number_title", lang),
                      "xlim": (min(numbers, default=1) - 0.6, max(numbers, default=1) + 0.6),
                      "ylim": (0, tallest_number * 1.05),
                      "structure": ("numbers", tuple((number, catalogue["number_labels"][number]) for number in numbers)),
                      "xlabel": game_text(("plots.unseen.number_axis", "plots.axis.number"), game, lang)}
        if catalogue["by_number"] else None,
    }


class ByGroupFigure(LiveFigure):
    """Unseen cards per group, in the group's colour (a bar per group of the game, empty ones too)."""

    COLUMNS = ("group_name", "count", "colour")
    XLABEL, YLABEL = "plots.axis.group", "plots.axis.unseen"
    TOOLTIPS = (("", "@group_name"), ("plots.tip.unseen", "@count"))

    def x_range(self):
        return FactorRange()

    def draw(self, fig, source):
        fig.xaxis.major_label_orientation = math.radians(30)
        return fig.vbar(x="group_name", top="count", width=0.8, source=source, fill_color=field("colour"), line_color="black")

    def structure(self, structure) -> None:
        if list(self.figure.x_range.factors) != list(structure[1]):
            self.figure.x_range.factors = list(structure[1])


class ByNumberFigure(LiveFigure):
    """Unseen cards per number, each bar stacked by group (one rectangle per number and group)."""

    COLUMNS = ("x0", "x1", "y0", "y1", "number", "group_name", "count", "colour")
    XLABEL, YLABEL = "plots.axis.number", "plots.axis.unseen"
    TOOLTIPS = (("plots.tip.number", "@number"), ("", "@group_name"), ("plots.tip.unseen", "@count"))

    def draw(self, fig, source):
        return fig.quad(left="x0", right="x1", bottom="y0", top="y1", source=source, fill_color=field("colour"),
                        line_color="white", line_width=0.5)

    def structure(self, structure) -> None:
        set_ticks(self.figure.xaxis[0], structure[1])


# ---------------------------------------------------------------------------- (d) the end card
def end_card_chances(depths: Mapping[int, float], max_draws: int) -> dict[str, list]:
    """Chance that the end card has shown within the next k draws, k = 1..max_draws.

    Depth d means d cards lie above it: it is the (d + 1)-th draw, so it shows within k draws when
    d < k.

    >>> end_card_chances({2: 1.0}, 4)["probability"]
    [0.0, 0.0, 1.0, 1.0]
    """
    draws = list(range(1, max_draws + 1))
    return {"draws": draws, "probability": [sum((p for depth, p in depths.items() if depth < k), 0.0) for k in draws]}


def end_card_data(knowledge: Mapping | None, lang: str = "en") -> dict | None:
    """The end-card plot's data from a seat's ``knowledge`` (``session.deck_knowledge(seat)``): the
    chance for every k up to the whole deck, as a step line; None for a game without an end card
    (``end_card_depths`` None: no plot is shown).

    ``chances`` holds :func:`end_card_chances`; ``columns`` the step line drawn from it (each k is
    a flat stretch from k to k + 1, ``k`` naming it for the hover).
    """
    if knowledge is None or knowledge["end_card_depths"] is None:
        return None
    depths = {int(depth): probability for depth, probability in knowledge["end_card_depths"].items()}
    if depths:
        chances = end_card_chances(depths, max(knowledge["deck_count"] + 1, max(depths) + 1))
        if len(depths) == 1:
            depth = next(iter(depths))
            title = text("plots.end.known", lang, draw=depth + 1, depth=depth)
        else:
            expected = sum((depth + 1) * p for depth, p in depths.items())
            title = text("plots.end.expected", lang, expected=f"{expected:.1f}")
    else:   # shown already: it has shown within any number of draws (the figure was an empty frame)
        draws = list(range(1, max(knowledge["deck_count"] + 1, 10) + 1))
        chances, title = {"draws": draws, "probability": [1.0] * len(draws)}, text("plots.end.revealed", lang)
    columns: dict[str, list] = {"draws": [], "probability": [], "k": []}
    for k, probability in zip(chances["draws"], chances["probability"]):
        columns["draws"] += [k, k + 1]
        columns["probability"] += [probability, probability]
        columns["k"] += [k, k]
    return {"chances": chances, "columns": columns, "title": title, "xlim": (0.5, max(chances["draws"], default=10) + 1.5),
            "ylim": (-0.05, 1.05), "structure": "end card"}


class EndCardFigure(LiveFigure):
    """The chance that the end card shows within the next k draws, as a step line."""

    COLUMNS = ("draws", "probability", "k")
    XLABEL, YLABEL = "plots.axis.within", "plots.axis.chance"
    TOOLTIPS = (("k", "@k"), ("plots.tip.chance", "@probability{0.00}"))

    def draw(self, fig, source):
        return fig.line("draws", "probability", source=source, color="#24406b", line_width=2)
