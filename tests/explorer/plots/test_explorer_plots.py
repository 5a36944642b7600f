"""The explorer's live plots and score table in plain pytest (no browser).

The data functions are checked against the rules' own answers (``spec.scores``, ``events``,
``deck_knowledge``) on seeded bot games; :class:`LivePlots` is rendered to Bokeh models with
``get_root()`` and must update those same models in place when the session moves: what each figure
shows is read from the rendered Bokeh models (their data sources, titles, ranges), never from the
component's own bookkeeping.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import panel as pn
import param
import pytest
from bokeh.models import ColumnDataSource, GlyphRenderer, Span
from bokeh.plotting import figure

from explorer.plots.live import LivePlots
from explorer.plots.game import (HIDDEN_CARD, LiveFigure, ScoreFigure, StepCache, breakdown_text, card_catalogue,
                            deck_composition, end_card_chances, end_card_data, session_draw_data, session_score_data)
from explorer.components.scores import ScoreBreakdown, score_tables_html
from explorer.core.session import FixedViewSession, GameSession
from tests.helpers.state_scan import STATE_QUESTIONS, state_uses
from tests.helpers.seeded_games import autoplay_as_before

SEED = 7
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "subastral-scoring-example.json"


@pytest.fixture
def game() -> GameSession:
    """A complete 4-player greedy game, cursor back at the deal."""
    session = GameSession(game="subastral", players=4, seed=SEED)
    autoplay_as_before(session, "greedy", then_goto=0)
    return session


def source_of(fig: figure) -> ColumnDataSource:
    """The data source of the figure's (single) data glyph."""
    renderers = [r for r in fig.renderers if isinstance(r, GlyphRenderer)]
    assert len(renderers) == 1, renderers
    return renderers[0].data_source


def figure_ids(root) -> set[int]:
    return {id(fig) for fig in root.select({"type": figure})}


def figure_titled(root, start: str) -> figure:
    """The one figure under ``root`` (a Bokeh model, or the list of its figures already selected: a
    selection walks every model) whose title starts with ``start``."""
    figures = root if isinstance(root, list) else list(root.select({"type": figure}))
    found = [fig for fig in figures if fig.title.text.startswith(start)]
    assert len(found) == 1, [fig.title.text for fig in figures]
    return found[0]


def draw_events_seen(session: GameSession, step: int, seat: int | None) -> tuple[Counter, int]:
    """Cards of draw/reveal events that ``seat`` may see at ``step``, and how many such events it may not."""
    seen: Counter = Counter()
    hidden = 0
    for event in session.spec.events(session.state_at(step)):
        if event.kind not in ("draw", "reveal"):
            continue
        if event.visible_to is None or seat is None or seat in event.visible_to:
            seen.update(event.cards)
        else:
            hidden += 1
    return seen, hidden


# ------------------------------------------------------------------ data: scores


def test_score_curves_give_spec_scores_at_every_step_of_the_whole_line(game):
    """Read from each step's observation, they are the spec's scores and breakdown, for every viewpoint."""
    data = session_score_data(game)
    spec = game.spec
    assert data["steps"] == len(game.log) and game.cursor == 0       # the whole line, not just up to the cursor
    assert list(data["players"]) == ["Player 1", "Player 2", "Player 3", "Player 4"]
    for label, columns in data["players"].items():
        seat = data["seats"][label]
        assert columns["step"] == list(range(len(game.log) + 1))
        assert columns["score"] == [spec.scores(game.state_at(step))[seat] for step in columns["step"]]
    final = data["players"]["Player 1"]["breakdown"][-1]
    breakdown = spec.score_breakdown(game.state_at(len(game.log)))[0]
    assert final == f"mixed {breakdown['mixed']} + matching {breakdown['matching']}"
    assert data["players"]["Player 1"]["breakdown"][0] == "no points yet"
    for seat in (0, 3):
        game.viewing_seat = seat
        assert session_score_data(game) == data


def test_breakdown_text_names_the_categories_of_the_rulebook_example():
    session = GameSession(game="subastral")
    session.load_position(json.loads(EXAMPLE.read_text()))
    assert breakdown_text(session.spec.score_breakdown(session.state)[0], "en", "subastral") == "mixed 47 + matching 31"
    assert breakdown_text(session.spec.score_breakdown(session.state, "ja")[0], "ja", "subastral") == "ミックスセット 47 + マッチングセット 31"
    without_subtotals = {"categories": [{"category": "mixed set 1", "points": 36}, {"category": "mixed set 2", "points": 10},
                                        {"category": "matching set 1", "points": 28}], "total": 74}
    assert breakdown_text(without_subtotals) == "mixed set 46 + matching set 28"


def test_scores_per_step_are_cached_so_stepping_does_not_recompute_the_line(game, monkeypatch):
    calls = []
    original = type(game.spec).public_scores
    monkeypatch.setattr(type(game.spec), "public_scores", lambda self, state: calls.append(state) or original(self, state))
    cache = StepCache()
    first = session_score_data(game, cache)
    assert len(calls) == len(game.log) + 1
    calls.clear()
    assert session_score_data(game, cache) == first and calls == []
    # A new move at step 5 starts a new line: only the steps after it are new states.
    game.goto(5)
    seat = game.spec.to_move(game.state)[0]
    other = next(a for a in game.spec.legal_actions(game.state, seat) if (seat, a) != game.log[5])
    game.play(seat, other)
    session_score_data(game, cache)
    assert len(calls) == 1 and calls[0] is game.state_at(6)


# ------------------------------------------------------------------ data: cards drawn and revealed


def test_teacher_sees_every_card_drawn_or_revealed_with_its_number(game):
    end = len(game.log)
    columns = session_draw_data(game, seat=None, upto=end)
    assert HIDDEN_CARD not in columns["card"]
    for step in range(end + 1):
        expected, _ = draw_events_seen(game, step, None)
        cards = [card for card, at in zip(columns["card"], columns["step"]) if at == step]
        assert Counter(cards) == expected
    for card, number, group in zip(columns["card"], columns["number"], columns["group"]):
        info = game.spec.card_info(game.state, card)
        assert (number, group) == (info["number"], info["group"])
    assert columns["step"] == sorted(columns["step"]) and set(columns["kind"]) == {"draw", "reveal"}


def test_a_seat_sees_no_card_another_seat_drew_in_secret(game):
    game.viewing_seat = 1
    end = len(game.log)
    columns = session_draw_data(game, upto=end)
    secret_draws_of_others = 0
    for step in range(end + 1):
        expected, hidden = draw_events_seen(game, step, 1)
        at_step = [card for card, at in zip(columns["card"], columns["step"]) if at == step]
        assert Counter(card for card in at_step if card != HIDDEN_CARD) == expected, step
        assert at_step.count(HIDDEN_CARD) == hidden      # a grey marker per secret draw, nothing more
        secret_draws_of_others += hidden
    assert secret_draws_of_others > 0                   # the game did have draws Player 2 may not see
    hidden_numbers = {number for card, number in zip(columns["card"], columns["number"]) if card == HIDDEN_CARD}
    assert hidden_numbers == {0}


def test_draws_stop_at_the_cursor(game):
    game.goto(30)
    assert max(session_draw_data(game, seat=None)["step"]) <= 30


# ------------------------------------------------------------------ data: unseen cards and the end card


def test_deck_composition_counts_what_the_seat_cannot_see(game):
    game.goto(20)
    spec, state = game.spec, game.state
    knowledge = spec.deck_knowledge(state, 2)
    composition = deck_composition(game.deck_knowledge(2), 2, card_catalogue(game.card_data()))
    by_group = composition["by_group"]
    assert composition["total"] == sum(knowledge["unseen"].values()) == sum(by_group["columns"]["count"])
    assert by_group["title"] == (f"{composition['total']} unseen cards:\n{knowledge['deck_count']} in the deck, "
                                 f"{knowledge['unseen_in_hands']} in other hands")
    per_number = Counter()
    for card, copies in knowledge["unseen"].items():
        per_number[spec.card_info(state, card)["number"]] += copies
    stacks = composition["by_number"]["columns"]
    for number, copies in per_number.items():
        tops = [top for top, n in zip(stacks["y1"], stacks["number"]) if n == number]
        assert max(tops) == copies
    teachers = deck_composition(game.deck_knowledge(None), None, card_catalogue(game.card_data()))
    assert teachers["by_group"]["title"].endswith("in hands")


def test_end_card_chance_is_0_within_its_depth_and_1_after():
    chances = end_card_chances({7: 1.0}, 20)
    assert chances["draws"] == list(range(1, 21))
    assert all(p == 0 for k, p in zip(chances["draws"], chances["probability"]) if k <= 7)
    assert all(p == 1 for k, p in zip(chances["draws"], chances["probability"]) if k > 7)
    spread = end_card_chances({2: 0.5, 4: 0.5}, 6)["probability"]
    assert spread == [0, 0, 0.5, 0.5, 1.0, 1.0]


def test_end_card_data_follows_the_deck_and_says_when_it_is_out(game):
    game.goto(10)
    depth = game.observation(0)["deck"]["cards_above_end_card"]
    chances = end_card_data(game.deck_knowledge(0))["chances"]
    assert chances["probability"][depth - 1] == 0 and chances["probability"][depth] == 1
    assert chances["draws"][-1] == game.observation(0)["deck"]["count"] + 1
    out = next(step for step in range(len(game.log) + 1) if not game.observation(None, step)["deck"]["end_card_in_deck"])
    revealed = end_card_data(game.deck_knowledge(0, out))
    # Shown already, it has shown within any k: a line at 1, not an empty frame under the title.
    assert "revealed" in revealed["title"] and len(revealed["chances"]["draws"]) >= 10
    assert set(revealed["chances"]["probability"]) == set(revealed["columns"]["probability"]) == {1.0}


# ------------------------------------------------------------------ the live component


def cursor_lines(root) -> list[int]:
    """Where the cursor's dashed lines stand (the score curves' and the cards drawn's)."""
    return [span.location for span in root.select({"type": Span})]


def test_live_plots_update_the_same_figures_in_place(game):
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    figs_before = figure_ids(root)
    assert len(figs_before) == 5
    draws = figure_titled(root, "Cards drawn")
    draws_source = source_of(draws)
    assert draws_source.data["card"] == []         # nothing drawn at the deal
    assert cursor_lines(root) == [0, 0]            # the score curves' and the cards drawn's

    # goto: new draws, moved cursor lines, same models
    game.goto(40)
    assert figure_ids(root) == figs_before
    assert source_of(draws) is draws_source
    assert draws_source.data["card"] == session_draw_data(game, seat=None)["card"] != []
    assert cursor_lines(root) == [40, 40] and draws.x_range.end == len(game.log) + 0.5

    # redo: one step on
    game.redo()
    assert cursor_lines(root) == [41, 41]
    assert draws_source.data["card"] == session_draw_data(game, seat=None)["card"]

    # viewing seat: what Player 2 may see, still the same figures
    game.viewing_seat = 1
    seen = session_draw_data(game, seat=1)
    assert figure_ids(root) == figs_before
    assert draws.title.text == "Cards drawn and revealed\n(as Player 2 sees them)"
    assert {name: draws_source.data[name] for name in ("position", "card", "colour")} == {
        name: seen[name] for name in ("position", "card", "colour")}
    assert draws_source.data["y"] == seen["number"]      # (a hidden card: the row below 1, Subastral's lowest)
    assert HIDDEN_CARD in draws_source.data["card"] and draws.x_range.end == 41.5

    # play a different move: a shorter line, so the score curves change; the cursor line follows
    scores_fig = figure_titled(root, "Provisional scores")
    curve_sources = [r.data_source for r in scores_fig.renderers if isinstance(r, GlyphRenderer)]
    seat = game.spec.to_move(game.state)[0]
    other = next(a for a in game.spec.legal_actions(game.state, seat) if (seat, a) != game.log[game.cursor])
    game.play(seat, other)
    assert figure_ids(root) == figs_before
    assert [r.data_source for r in scores_fig.renderers if isinstance(r, GlyphRenderer)] == curve_sources
    assert len(curve_sources) == 4 and all(len(s.data["step"]) == 43 for s in curve_sources)
    assert cursor_lines(root) == [42, 42]


def test_plots_first_shown_after_some_steps_show_the_step_then_and_follow_on(game):
    plots = LivePlots(session=game)          # (its figures are made when first shown)
    game.goto(20)
    game.viewing_seat = 2
    root = pn.panel(plots).get_root()
    assert cursor_lines(root) == [20, 20]
    draws = figure_titled(root, "Cards drawn and revealed\n(as Player 3 sees them)")
    assert source_of(draws).data["card"] == session_draw_data(game, seat=2)["card"] != []
    game.redo()
    assert cursor_lines(root) == [21, 21] and source_of(draws).data["card"] == session_draw_data(game, seat=2)["card"]


def test_a_plot_lets_the_page_scroll_under_the_mouse_wheel(game):
    """Every live plot has a wheel zoom, not active until chosen in its toolbar: active, a page
    scrolled with the mouse over a plot zoomed the plot instead (the bars' axis went to -60)."""
    from bokeh.models import WheelZoomTool
    root = pn.panel(LivePlots(session=game)).get_root()
    figures = list(root.select({"type": figure}))
    assert len(figures) >= 3
    for fig in figures:
        assert fig.toolbar.active_scroll is None, fig.title.text
        assert any(isinstance(tool, WheelZoomTool) for tool in fig.tools), fig.title.text


def test_live_plots_send_only_the_data_that_changed(game):
    plots = LivePlots(session=game)
    pn.panel(plots).get_root()
    sent: list[tuple[int, str]] = []
    for _ in range(30):
        game.redo()
        sent += [(game.cursor, name) for name in plots.updated]
    assert not any(name == "scores" for _, name in sent)    # stepping never redoes the curves
    draws_sent = {step for step, name in sent if name == "draws"}
    with_draws = {step for step in range(1, 31) if sum(draw_events_seen(game, step, None)[0].values())}
    assert draws_sent and draws_sent == with_draws
    assert plots.refresh() == {}      # nothing left to send


def plain(values) -> list:
    return [value.item() if hasattr(value, "item") else value for value in values]


def snapshot(root) -> list:
    """What each figure shows: title, axis ranges and every glyph's data, in plain Python values."""
    shown = []
    for fig in root.select({"type": figure}):
        ranges = [plain(r.factors) if hasattr(r, "factors") else plain([r.start, r.end]) for r in (fig.x_range, fig.y_range)]
        sources = [{key: plain(values) for key, values in r.data_source.data.items()}
                   for r in fig.renderers if isinstance(r, GlyphRenderer)]
        shown.append((fig.title.text, ranges, sources))
    return sorted(shown, key=lambda figure_shown: figure_shown[0])


def test_plots_updated_in_place_show_what_a_fresh_drawing_shows(game):
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    how: Counter = Counter()
    for step in range(1, 60):
        game.redo()
        how.update(plots.updated.values())
        if step in (17, 33, 59):
            assert snapshot(root) == snapshot(pn.panel(LivePlots(session=game)).get_root()), step
    assert how["in place"] > 50 and how["redraw"] == 0
    game.viewing_seat = 2         # another title, the same shapes: still in place
    assert set(plots.updated.values()) == {"in place"}
    assert snapshot(root) == snapshot(pn.panel(LivePlots(session=game)).get_root())
    # The page drawn again shows the same, up-to-date figures.
    again = pn.panel(plots).get_root()
    assert figure_ids(again) == figure_ids(root) and snapshot(again) == snapshot(root)


def test_composition_and_end_card_plots_show_the_viewing_seats_knowledge(game):
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    game.goto(25)
    game.viewing_seat = 3
    knowledge = game.spec.deck_knowledge(game.state, 3)
    total = sum(knowledge["unseen"].values())
    by_group = figure_titled(root, f"{total} unseen cards")
    assert by_group.title.text.endswith(f"{knowledge['unseen_in_hands']} in other hands")
    assert sum(source_of(by_group).data["count"]) == total
    depth = next(iter(knowledge["end_card_depths"]))
    assert figure_titled(root, "End card").title.text == f"End card: draw {depth + 1} from now ({depth} cards above it)"


def test_a_game_without_card_info_gets_a_note_instead_of_card_plots(game):
    class NoCardInfo(type(game.spec)):
        def card_info(self, state, card):
            return None

    with param.edit_constant(game):
        game.spec = NoCardInfo()
    plots = LivePlots(session=game)
    assert plots.placeholder.visible and "card_info" in plots.placeholder.object
    assert not any(plots.panes[name].visible for name in ("draws", "by_group", "by_number", "end_card"))
    assert plots.panes["scores"].visible
    pn.panel(plots).get_root()
    game.goto(10)                     # the score curves still follow
    [cursor_line] = plots.figures["scores"].figure.select({"type": Span})
    assert cursor_line.location == 10


# ------------------------------------------------------------------ the score table


class Tables(HTMLParser):
    """Rows of each ``score-table`` as lists of cell texts, and each table's classes."""

    def __init__(self, html: str):
        super().__init__()
        self.tables: list[dict] = []
        self.in_cell = False
        self.skip = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"classes": attrs["class"].split(), "total": attrs["data-total"], "rows": []})
        elif tag == "tr":
            self.tables[-1]["rows"].append({"class": attrs.get("class", ""), "cells": []})
        elif tag == "td":
            self.tables[-1]["rows"][-1]["cells"].append("")
            self.in_cell = True
        elif tag == "div" and self.in_cell:
            self.skip += 1           # the detail line under a category name

    def handle_endtag(self, tag):
        if tag == "td":
            self.in_cell = False
        elif tag == "div" and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if self.in_cell and not self.skip:
            self.tables[-1]["rows"][-1]["cells"][-1] += data


def test_score_breakdown_shows_the_rulebook_example():
    session = GameSession(game="subastral")
    session.load_position(json.loads(EXAMPLE.read_text()))
    table = ScoreBreakdown(session=session)
    parsed = Tables(table.__panel__().object)
    player_1 = parsed.tables[0]
    categories = [(row["cells"][0], int(row["cells"][1])) for row in player_1["rows"] if row["class"] == "category"]
    assert categories == [("mixed set 1", 36), ("mixed set 2", 10), ("mixed set 3", 1),
                          ("matching set 1", 28), ("matching set 2", 3)]
    total = [row["cells"] for row in player_1["rows"] if row["class"] == "total"]
    assert total == [["Total", "78"]] and player_1["total"] == "78"
    tie_break = [row["cells"] for row in player_1["rows"] if row["class"] == "tie-break"]
    assert tie_break == [["tie-break: journal cards (fewest wins)", "19"]]
    assert "winner" in player_1["classes"] and "seat-0" in player_1["classes"]
    assert not any("winner" in t["classes"] for t in parsed.tables[1:])


def test_score_breakdown_follows_the_cursor(game):
    table = ScoreBreakdown(session=game)
    pane = table.__panel__()
    at_start = pane.object
    assert all(t["total"] == "0" for t in Tables(at_start).tables)
    game.goto(len(game.log))
    parsed = Tables(pane.object)
    final = game.spec.scores(game.state)
    assert [int(t["total"]) for t in parsed.tables] == list(final)
    winners = [i for i, t in enumerate(parsed.tables) if "winner" in t["classes"]]
    assert winners == list(game.spec.winners(game.state))
    game.goto(30)
    assert not any("winner" in t["classes"] for t in Tables(pane.object).tables)      # not over yet
    assert pane.object == score_tables_html(game.view(), None)


def test_score_curves_follow_a_new_move_in_place_and_show_what_a_fresh_drawing_shows(game):
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    figs_before = figure_ids(root)
    game.goto(10)
    for _ in range(3):        # a different move at a past step, two more at the new line's end, then the bots
        seat = game.spec.to_move(game.state)[0]
        here = game.log[game.cursor] if game.cursor < len(game.log) else None
        game.play(seat, next(a for a in game.spec.legal_actions(game.state, seat) if (seat, a) != here))
        assert plots.updated.get("scores") == "in place"
        assert figure_ids(root) == figs_before
        assert snapshot(root) == snapshot(pn.panel(LivePlots(session=game)).get_root())
    game.autoplay("greedy")
    assert plots.updated.get("scores") == "in place"
    assert snapshot(root) == snapshot(pn.panel(LivePlots(session=game)).get_root())


def test_cards_drawn_after_an_empty_start_get_their_group_colours(game):
    from bokeh.core.property.vectorization import Field
    from bokeh.models import ColorMapper

    # At the deal nothing is drawn yet; the cards drawn later must keep their group colours, drawn
    # from the data's own colour column, not mapped.
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    game.goto(12)
    draws = figure_titled(root, "Cards drawn")
    renderer = next(r for r in draws.renderers if isinstance(r, GlyphRenderer))
    assert isinstance(renderer.glyph.fill_color, Field) and renderer.glyph.fill_color.field == "colour"
    assert len(set(renderer.data_source.data["colour"])) > 1
    assert not isinstance(renderer.glyph.fill_color.transform, ColorMapper), "colours are drawn as given, not mapped"


# ------------------------------------------------------------------ one mechanism: our own figures, patched in place


def figure_data(root) -> dict:
    """What the rendered figures show, read from the Bokeh models (title -> every glyph's data); ``root``
    as for :func:`figure_titled`."""
    figures = root if isinstance(root, list) else root.select({"type": figure})
    return {fig.title.text: [dict(r.data_source.data) for r in fig.renderers if isinstance(r, GlyphRenderer)]
            for fig in figures}


def test_every_plot_follows_every_step_forward_back_and_jump(game):
    """Each figure shows the state at the cursor after every step: a plot that stopped updating fails here."""
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    figures = figure_ids(root)
    catalogue = card_catalogue(game.card_data())
    moves = [game.redo] * 25 + [game.undo] * 5 + [lambda: game.goto(60), lambda: game.goto(3)]
    changed = Counter()
    before = figure_data(root)
    for move in moves:
        move()
        step = game.cursor
        composition = deck_composition(game.deck_knowledge(None), None, catalogue)
        end_card = end_card_data(game.deck_knowledge(None))
        assert cursor_lines(root) == [step, step]
        shown = list(root.select({"type": figure}))
        assert source_of(figure_titled(shown, "Cards drawn")).data["card"] == session_draw_data(game, seat=None)["card"]
        by_group = figure_titled(shown, composition["by_group"]["title"])
        assert source_of(by_group).data["count"] == composition["by_group"]["columns"]["count"]
        by_number = figure_titled(shown, "Unseen cards by number")
        assert source_of(by_number).data["y1"] == composition["by_number"]["columns"]["y1"]
        end_figure = figure_titled(shown, end_card["title"])
        assert source_of(end_figure).data["probability"] == end_card["columns"]["probability"]
        assert tuple(end_figure.x_range.start for _ in "x") == (end_card["xlim"][0],)
        now = figure_data(shown)
        changed.update(title.split(":")[0] for title in now if now[title] != before.get(title))
        before = now
    assert figure_ids(root) == figures
    assert changed["Cards drawn and revealed\n(the teacher"] >= 10 and changed["Unseen cards by number,\nstacked by group"] >= 10
    # A new move changes the line: every player's curve takes the line's scores.
    seat = game.spec.to_move(game.state)[0]
    game.play(seat, next(a for a in game.spec.legal_actions(game.state, seat) if (seat, a) != game.log[game.cursor]))
    game.autoplay("greedy")
    scores = figure_titled(root, "Provisional scores")
    curves = {r.data_source.data["player"][0]: r.data_source.data["score"] for r in scores.renderers
              if isinstance(r, GlyphRenderer)}
    assert curves == {f"Player {seat + 1}": [game.spec.scores(game.state_at(step))[seat] for step in range(len(game.log) + 1)]
                      for seat in range(4)}
    assert (scores.x_range.start, scores.x_range.end) == (0, len(game.log))


def test_score_curves_for_another_number_of_players_are_a_new_figure_showing_them(game):
    plots = LivePlots(session=game)
    pn.panel(plots).get_root()
    game.players = 3
    assert plots.updated["scores"] == "redraw"
    game.autoplay("greedy")
    assert plots.updated["scores"] == "in place"
    shown = plots.panes["scores"].object
    curves = {r.data_source.data["player"][0]: r.data_source.data["score"] for r in shown.renderers
              if isinstance(r, GlyphRenderer)}
    assert curves == {f"Player {seat + 1}": [game.spec.scores(game.state_at(step))[seat] for step in range(len(game.log) + 1)]
                      for seat in range(3)}
    game.goto(5)
    [cursor_line] = shown.select({"type": Span})
    assert cursor_line.location == 5


def test_every_column_a_live_plot_holds_is_a_column_of_its_own_data(game):
    """The figures' sources hold the plot data's own columns, under the data's names: nothing a
    plotting library derived or renamed (HoloViews would add ``color``, ``left``, ``Player``...)."""
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    game.goto(30)
    data = plots.sent
    for name, shown in plots.figures.items():
        sources = [r.data_source for r in shown.figure.renderers if isinstance(r, GlyphRenderer)]
        assert sources, name
        for source in sources:
            if name == "scores":
                player = source.data["player"][0]
                assert dict(source.data) == data["scores"]["players"][player]
            else:
                assert isinstance(shown, LiveFigure)
                assert set(source.data) <= set(data[name]["columns"]), name
                assert all(source.data[column] == data[name]["columns"][column] for column in source.data), name
    assert {id(fig) for fig in root.select({"type": figure})} == {id(shown.figure) for shown in plots.figures.values()}
    assert isinstance(plots.figures["scores"], ScoreFigure)


#: What reaches into a drawing HoloViews made: its plot handles and hooks run on its Bokeh plot,
#: the renderer's plots, the data sources of drawn glyphs (filled under HoloViews' column names).
HOLOVIEWS_INTERNALS = {"handles", "data_source", "glyph_renderer", "get_plot", "hooks"}
#: The libraries that draw through HoloViews' elements (or streams) rather than plain Bokeh figures.
HOLOVIEWS_DRAWING = {"holoviews", "hvplot", "geoviews"}
EXPLORER = Path(__file__).resolve().parents[3] / "explorer"


def test_every_explorer_plot_is_a_plain_bokeh_figure_and_none_reaches_into_what_holoviews_drew():
    """One mechanism: every plot of the explorer is a Bokeh figure of its own, patched in place; no
    module draws with HoloViews (nor imports it: not even ``hv.extension``), and none reaches into
    a drawn plot's Bokeh models through HoloViews' handles, hooks or sources."""
    drawing_with_bokeh = set()
    for path in sorted(EXPLORER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        reached = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)} & HOLOVIEWS_INTERNALS
        reached |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.keyword)} & HOLOVIEWS_INTERNALS
        assert not reached, f"{path.name} reaches into drawn plots: {sorted(reached)}"
        assert not imported & HOLOVIEWS_DRAWING, f"{path.name} draws with HoloViews: {sorted(imported & HOLOVIEWS_DRAWING)}"
        if "bokeh" in imported:
            drawing_with_bokeh.add(path.relative_to(EXPLORER).as_posix())
    # (the scan saw the modules that draw: the live plots, the Analysis page's and the advisor's chart)
    assert {"plots/game.py", "plots/analysis.py", "components/advisor.py"} <= drawing_with_bokeh


def test_the_plots_never_touch_a_state():
    """Plots draw what the page's session answers through its viewpoint (observations, events, public
    card data, ``session.deck_knowledge(seat)``), never a state: none reads one, asks the spec about
    one or takes one (docs/architecture.md, "One viewpoint per page")."""
    assert {"card_info", "deck_knowledge", "inventory", "observe"} <= STATE_QUESTIONS
    caught = state_uses("def draw(spec, state, session):\n    spec.card_info(state, 'x')\n"
                        "    session.spec.deck_knowledge(session.state_at(0), None)\n    pn.state.curdoc\n")
    assert len(caught) == 4, caught           # the scan does see what the plots used to do
    assert state_uses("session.deck_knowledge(1)\nsession.card_info('x')\npn.state.curdoc\n") == []
    plots = sorted((EXPLORER / "plots").glob("*.py"))
    assert {path.name for path in plots} >= {"game.py", "live.py", "analysis.py"}
    for path in plots:
        assert state_uses(path.read_text(encoding="utf-8")) == [], path.name


def test_a_seats_plots_ask_for_that_seats_deck_knowledge_only(monkeypatch):
    """A seat's page's plots (their card catalogue included) ask the rules what that seat can infer,
    never what the spectator or another seat can; every seat's card data is the same, public."""
    session = FixedViewSession(game="subastral", players=3, seed=4, seat=1)
    session.autoplay("greedy", then_goto=12)
    asked = []
    knowledge = type(session.spec).deck_knowledge
    monkeypatch.setattr(type(session.spec), "deck_knowledge",
                        lambda self, state, seat: asked.append(seat) or knowledge(self, state, seat))
    plots = LivePlots(session=session)
    pn.panel(plots).get_root()
    session.redo()
    assert asked and set(asked) == {1}
    assert plots.sent["by_group"]["title"].endswith("in other hands")
    teacher = GameSession(game="subastral", players=3, seed=4)
    assert session.card_data() == teacher.card_data() == FixedViewSession(game="subastral", players=3, seed=4,
                                                                          seat=None).card_data()


def test_the_score_tables_read_the_pages_observation(game, monkeypatch):
    """The tables show the observation's ``score_breakdown`` (public, decided in ``rules``), never a
    breakdown computed from the state."""
    real_observe = game.spec.observe

    def observe(state, seat):
        view = real_observe(state, seat)
        shown = [dict(entry, categories=[{"category": "From the observation", "detail": "", "points": 41}], total=41)
                 for entry in view["score_breakdown"]["en"]]
        return dict(view, score_breakdown={"en": shown, "ja": shown})

    monkeypatch.setattr(game.spec, "observe", observe)
    game._observations.clear()
    tables = Tables(ScoreBreakdown(session=game).__panel__().object).tables
    assert tables and [t["total"] for t in tables] == ["41"] * game.players
    assert "From the observation" in score_tables_html(game.view(), None)


def test_the_score_curves_read_the_public_part_of_each_steps_observation(game, monkeypatch):
    real = game.spec.public_scores
    monkeypatch.setattr(game.spec, "public_scores", lambda state: dict(
        real(state), scores=[7] * game.players,
        score_breakdown={lang: [{"seat": s, "categories": [{"category": "seen", "points": 7}], "total": 7}
                                for s in range(game.players)] for lang in ("en", "ja")}))
    data = session_score_data(game)
    assert all(columns["score"] == [7] * (len(game.log) + 1) for columns in data["players"].values())
    assert set(data["players"]["Player 1"]["breakdown"]) == {"seen 7"}


def test_a_plot_hides_and_shows_once_the_page_styled_its_figure():
    """A served page's design makes a figure's stylesheets ``ImportedStyleSheet`` models; a Bokeh
    pane's own ``visible`` changed then raised a TypeError (Panel copies the figure's properties back
    onto the pane), only logged on the page's loop, and the page's update stopped there. ``show_pane``
    hides the figure itself and keeps the pane's parameter in agreement."""
    from bokeh.models import ImportedStyleSheet
    from bokeh.plotting import figure as new_figure
    from explorer.plots.live import figure_pane, show_pane

    shown = new_figure()
    pane = figure_pane(shown, "plot-test")
    shown.stylesheets = [ImportedStyleSheet(url="bundled/theme/bootstrap.css")]
    for visible in (False, True, False):
        show_pane(pane, visible)
        assert shown.visible is visible and pane.visible is visible
