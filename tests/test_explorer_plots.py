"""The explorer's live plots and score table in plain pytest (no browser).

The data functions are checked against the rules' own answers (``spec.scores``, ``events``,
``deck_knowledge``) on seeded bot games; :class:`LivePlots` is rendered to Bokeh models with
``get_root()`` and must update those same models in place when the session moves.
"""

from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import panel as pn
import param
import pytest
from bokeh.models import ColumnDataSource, GlyphRenderer, Span
from bokeh.plotting import figure

from explorer.plots.live import LivePlots
from explorer.plots.game import (HIDDEN_CARD, StepCache, breakdown_text, deck_composition, end_card_chances,
                            end_card_data, session_draw_data, session_score_data)
from explorer.components.scores import ScoreBreakdown, score_tables_html
from explorer.core.session import GameSession
from seeded_games import autoplay_as_before

SEED = 7
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "subastral-scoring-example.json"


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
    found = [fig for fig in root.select({"type": figure}) if fig.title.text.startswith(start)]
    assert len(found) == 1, [fig.title.text for fig in root.select({"type": figure})]
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


def test_breakdown_text_names_the_categories_of_the_rulebook_example():
    session = GameSession(game="subastral")
    session.load_position(json.loads(EXAMPLE.read_text()))
    assert breakdown_text(session.spec.score_breakdown(session.state)[0]) == "mixed 47 + matching 31"
    without_subtotals = {"categories": [{"category": "mixed set 1", "points": 36}, {"category": "mixed set 2", "points": 10},
                                        {"category": "matching set 1", "points": 28}], "total": 74}
    assert breakdown_text(without_subtotals) == "mixed set 46 + matching set 28"


def test_scores_per_step_are_cached_so_stepping_does_not_recompute_the_line(game, monkeypatch):
    calls = []
    original = type(game.spec).score_breakdown
    monkeypatch.setattr(type(game.spec), "score_breakdown", lambda self, state: calls.append(state) or original(self, state))
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
    composition = deck_composition(spec, state, 2)
    by_group = composition["by_group"]
    assert composition["total"] == sum(knowledge["unseen"].values()) == sum(by_group["columns"]["count"])
    assert by_group["title"] == (f"{composition['total']} unseen cards: {knowledge['deck_count']} in the deck, "
                                 f"{knowledge['unseen_in_hands']} in other hands")
    per_number = Counter()
    for card, copies in knowledge["unseen"].items():
        per_number[spec.card_info(state, card)["number"]] += copies
    stacks = composition["by_number"]["columns"]
    for number, copies in per_number.items():
        tops = [top for top, n in zip(stacks["y1"], stacks["number"]) if n == number]
        assert max(tops) == copies
    assert deck_composition(spec, state, None)["by_group"]["title"].endswith("in hands")


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
    chances = end_card_data(game.spec, game.state, 0)["chances"]
    assert chances["probability"][depth - 1] == 0 and chances["probability"][depth] == 1
    assert chances["draws"][-1] == game.observation(0)["deck"]["count"] + 1
    out = next(step for step in range(len(game.log) + 1) if not game.observation(None, step)["deck"]["end_card_in_deck"])
    revealed = end_card_data(game.spec, game.state_at(out), 0)
    assert revealed["chances"]["draws"] == revealed["columns"]["draws"] == [] and "revealed" in revealed["title"]


# ------------------------------------------------------------------ the live component


def without_anchors(columns) -> dict:
    """A deck-draw plot's columns without its two invisible colour anchors (the last two rows)."""
    return {name: values[:-2] for name, values in columns.items()}


def shown(cards) -> list:
    """The cards a deck-draw plot shows (without its two invisible colour anchors)."""
    return [card for card in cards if card]


def test_live_plots_update_the_same_figures_in_place(game):
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    figs_before = figure_ids(root)
    assert len(figs_before) == 5
    dmaps = dict(plots.dmaps)
    draws = figure_titled(root, "Cards drawn")
    draws_source = source_of(draws)
    assert shown(draws_source.data["card"]) == []         # nothing drawn at the deal
    [cursor_line] = root.select({"type": Span})
    assert cursor_line.location == 0

    # goto: new draws, a moved cursor line, same models
    pipe_data = plots.pipes["draws"].data
    game.goto(40)
    assert plots.pipes["draws"].data is not pipe_data
    assert shown(plots.pipes["draws"].data["columns"]["card"])
    assert figure_ids(root) == figs_before and all(plots.dmaps[name] is dmap for name, dmap in dmaps.items())
    assert source_of(draws) is draws_source
    assert shown(draws_source.data["card"]) == shown(plots.pipes["draws"].data["columns"]["card"]) != []
    assert cursor_line.location == 40

    # redo: one step on
    game.redo()
    assert cursor_line.location == 41
    assert shown(draws_source.data["card"]) == session_draw_data(game, seat=None)["card"]

    # viewing seat: what Player 2 may see, still the same figures
    game.viewing_seat = 1
    assert without_anchors(plots.pipes["draws"].data["columns"]) == session_draw_data(game, seat=1)
    assert figure_ids(root) == figs_before
    assert draws.title.text == "Cards drawn and revealed (as Player 2 sees them)"
    assert shown(draws_source.data["card"]) == session_draw_data(game, seat=1)["card"]
    assert HIDDEN_CARD in draws_source.data["card"]

    # play a different move: a shorter line, so the score curves change; the cursor line follows
    scores_before = plots.pipes["scores"].data
    seat = game.spec.to_move(game.state)[0]
    other = next(a for a in game.spec.legal_actions(game.state, seat) if (seat, a) != game.log[game.cursor])
    game.play(seat, other)
    assert plots.pipes["scores"].data is not scores_before
    assert figure_ids(root) == figs_before
    scores_fig = figure_titled(root, "Provisional scores")
    curve_sources = [r.data_source for r in scores_fig.renderers if isinstance(r, GlyphRenderer)]
    assert len(curve_sources) == 4 and all(len(s.data["step"]) == 43 for s in curve_sources)
    assert [span.location for span in root.select({"type": Span})] == [42]


def test_live_plots_send_only_the_data_that_changed(game):
    plots = LivePlots(session=game)
    pn.panel(plots).get_root()
    sent: list[tuple[int, str]] = []
    for name, pipe in plots.pipes.items():
        pipe.param.watch(lambda event, name=name: sent.append((game.cursor, name)), "data")
    scores = plots.pipes["scores"].data
    for _ in range(30):
        game.redo()
    assert plots.pipes["scores"].data is scores and (1, "scores") not in sent    # stepping never redoes the curves
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
    # A view drawn now, from the DynamicMaps' older frames, is brought up to date as it appears.
    assert snapshot(pn.panel(plots).get_root()) == snapshot(root)


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
    assert plots.cursor.step == 10


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
    assert tie_break == [["tie-break: journal cards", "19"]]
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
    assert pane.object == score_tables_html(game.spec, game.state, None)


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
    from bokeh.models import ColorMapper

    # At the deal nothing is drawn yet; the cards drawn later must keep their group colours, not be
    # painted grey by a colour mapper HoloViews set up for an empty plot.
    plots = LivePlots(session=game)
    root = pn.panel(plots).get_root()
    game.goto(12)
    draws = figure_titled(root, "Cards drawn")
    renderer = next(r for r in draws.renderers if isinstance(r, GlyphRenderer))
    assert len(set(renderer.data_source.data["color"])) > 1
    assert not isinstance(renderer.glyph.fill_color.transform, ColorMapper), "colours are drawn as given, not mapped"
