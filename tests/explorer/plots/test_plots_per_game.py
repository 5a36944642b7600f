"""The live plots fitted to each game, and what a viewpoint may see of the line (issue #22, items 6 and 9).

Each game shows the plots that mean something for it, with axes in its own terms, in English and
Japanese: the end card's chances only in a game with an end card (Subastral), the cards drawn along
a number only where the numbers make a scale (Jump Gate's cards carry 0 or 1, the black-hole icon:
its resources revealed are plotted by type, its NavComp cards drawn on a row of their own), the
card groups named in the page's language, and the score legend beside the plot, never over a curve.
A seat (or a spectator) sees no step after the one shown; the teacher sees the whole line, the
step shown marked. Everything is read from the rendered Bokeh models.
"""

from __future__ import annotations

import re

import panel as pn
import pytest
from bokeh.models import FactorRange, GlyphRenderer, HoverTool, Legend, Span
from bokeh.plotting import figure

import rules
from explorer.core.session import FixedViewSession, GameSession
from explorer.plots.live import LivePlots

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: What each game's deck-draw plot says it plots along its y axis, in each language.
DRAWN = {
    "subastral": ("Card number", "カードの数字"),
    "starligned": ("Value of the half face up", "上になった半分の値"),
    "stellar": ("Card number", "カードの数字"),
    "biome_blitz": ("Stars (0: resource card)", "★の数（0：リソースカード）"),
    "jump_gate": ("Resource or NavComp card", "資源または手札カード"),
}
CURSOR = 20


@pytest.fixture(scope="module", params=rules.GAMES)
def played(request) -> GameSession:
    """A whole greedy game of each game, the cursor at step ``CURSOR``."""
    session = GameSession(game=request.param, seed=3)
    session.autoplay("greedy", then_goto=CURSOR)
    assert len(session.log) > CURSOR + 10
    return session


@pytest.fixture
def session(played) -> GameSession:
    played.viewing_seat = None
    played.goto(CURSOR)
    yield played
    played.viewing_seat = None


def drawn_plots(session: GameSession, lang: str = "en") -> tuple[LivePlots, dict[str, figure]]:
    """The session's live plots, drawn, and each plot's figure by name (only the plots shown)."""
    plots = LivePlots(session=session, lang=lang)
    pn.panel(plots).get_root()
    return plots, {name: plots.figures[name].figure for name, pane in plots.panes.items() if pane.visible}


def glyph_data(fig: figure) -> list[dict]:
    return [dict(r.data_source.data) for r in fig.renderers if isinstance(r, GlyphRenderer)]


def words(fig: figure) -> list[str]:
    shown = [fig.title.text]
    for axis in [*fig.xaxis, *fig.yaxis]:
        shown += [axis.axis_label or "", *(str(v) for v in (axis.major_label_overrides or {}).values())]
    if isinstance(fig.y_range, FactorRange):
        shown += list(fig.y_range.factors)
    for tool in fig.tools:
        if isinstance(tool, HoverTool):
            shown += [label for label, _ in tool.tooltips]
    for legend in fig.select({"type": Legend}):
        shown += [str(item.label.value) for item in legend.items]
    return [s for s in shown if s]


# ------------------------------------------------------------------ plots that mean something per game


def test_only_a_game_with_an_end_card_shows_the_end_card_plot(session):
    _, shown = drawn_plots(session)
    has_end_card = session.deck_knowledge(None)["end_card_depths"] is not None
    assert ("end_card" in shown) == has_end_card == (session.game == "subastral")
    assert not any("has no end card" in fig.title.text for fig in shown.values())


def test_the_cards_drawn_are_plotted_along_what_the_game_prints_on_them(session):
    for lang, label in zip(("en", "ja"), DRAWN[session.game]):
        plots, shown = drawn_plots(session, lang)
        draws = shown["draws"]
        assert draws.yaxis[0].axis_label == label
        if session.game == "jump_gate":
            assert not {"Card number", "カードの数字"} & {word for fig in shown.values() for word in words(fig)}
            # No number scale (0 or 1: the black-hole icon): one row per resource type revealed and
            # one for the NavComp cards drawn, the icon ringed.
            assert isinstance(draws.y_range, FactorRange)
            [data] = glyph_data(draws)
            navcomp = ("NavComp card", "手札カード")[lang == "ja"]
            assert set(draws.y_range.factors) == set(data["y"]) and navcomp in draws.y_range.factors
            assert {2.5, 0.5} == set(data["ring"]) and "by_number" not in shown
            assert re.search("black hole icon|ブラックホールのアイコン付き", plots.legend.object)
        else:
            assert not isinstance(draws.y_range, FactorRange) and "by_number" in shown
            assert shown["by_number"].xaxis[0].axis_label in (label, "Value of the high half", "値の高い側の半分の値")


def test_the_y_ticks_of_the_cards_drawn_are_the_numbers_as_printed(session):
    plots, shown = drawn_plots(session)
    session.goto(len(session.log))
    if session.game == "jump_gate":         # plotted by group: every card drawn sits on a row of its group
        [data] = glyph_data(shown["draws"])
        assert set(data["y"]) == set(shown["draws"].y_range.factors) >= {"NavComp card", "Sand"}
        assert shown["draws"].yaxis[0].major_label_overrides == {}
        return
    ticks = shown["draws"].yaxis[0].major_label_overrides
    [data] = glyph_data(shown["draws"])
    assert set(data["y"]) <= set(ticks), "every card drawn sits on a labelled row"
    if session.game == "stellar":
        assert ticks[6] == "6/0" and shown["by_number"].xaxis[0].major_label_overrides[6] == "6/0"
    if session.game == "starligned":        # a card dealt low half up shows its low value (1 to 5)
        assert min(data["y"]) < 6 and set(range(min(data["y"]), 11)) <= set(ticks)


def test_the_score_legend_sits_beside_the_plot_not_over_the_curves(session):
    _, shown = drawn_plots(session)
    scores = shown["scores"]
    assert not any(isinstance(model, Legend) for model in scores.center)
    [legend] = [model for model in scores.right if isinstance(model, Legend)]
    assert [item.label.value for item in legend.items] == [f"Player {seat + 1}" for seat in range(session.players)]


def test_every_plots_words_are_japanese_on_a_japanese_page(session):
    for seat in (None, 1):
        session.viewing_seat = seat
        _, shown = drawn_plots(session, "ja")
        # (the groups too: in Japanese, as the game's card_info names them in each language)
        own = {"k"}
        for name, fig in shown.items():
            labels = [word for word in words(fig) if word not in own and not word.replace("/", "").isdigit()]
            assert all(JAPANESE.search(word) for word in labels), (name, labels)


# ------------------------------------------------------------------ a seat sees no future


def test_a_seats_plots_stop_at_the_step_shown(session):
    plots, shown = drawn_plots(session)
    session.viewing_seat = 1
    for step in (CURSOR, CURSOR + 5):
        session.goto(step)
        curves = glyph_data(shown["scores"])
        assert curves and all(max(curve["step"]) == step for curve in curves)
        [draws] = glyph_data(shown["draws"])
        assert max(draws["step"], default=0) <= step
        for fig in (shown["scores"], shown["draws"]):
            assert fig.x_range.end <= step + 0.5, "the x axis does not tell how long the line goes on"
        assert [span.location for name in ("scores", "draws") for span in shown[name].select({"type": Span})] == [step, step]


def test_a_spectator_at_a_table_sees_no_step_after_the_one_shown(session):
    spectator = FixedViewSession(game=session.game, seed=3, seat=None)
    spectator.load(session.replay(), cursor=CURSOR)
    plots, shown = drawn_plots(spectator)
    assert all(max(curve["step"]) == CURSOR for curve in glyph_data(shown["scores"]))
    assert max(glyph_data(shown["draws"])[0]["step"], default=0) <= CURSOR


def test_the_teacher_sees_the_whole_line_with_the_step_shown_marked(session):
    plots, shown = drawn_plots(session)
    end = len(session.log)
    curves = glyph_data(shown["scores"])
    assert all(max(curve["step"]) == end for curve in curves) and shown["scores"].x_range.end == end
    assert shown["draws"].x_range.end == end + 0.5        # (the cards drawn up to the step shown)
    assert [span.location for name in ("scores", "draws") for span in shown[name].select({"type": Span})] == [CURSOR] * 2


def test_a_plot_left_out_for_one_game_comes_back_for_the_next():
    session = GameSession(game="subastral", seed=3)
    session.autoplay("greedy", then_goto=5)
    plots, _ = drawn_plots(session)
    session.game = "jump_gate"
    assert {name for name, pane in plots.panes.items() if not pane.visible} == {"by_number", "end_card"}
    session.game = "subastral"
    assert all(pane.visible and pane.object.visible for pane in plots.panes.values())
    assert plots.panes["end_card"].object.title.text.startswith("End card")
