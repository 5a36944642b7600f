"""The plots and the score breakdown in English and Japanese.

English is the default and reads exactly as before the texts moved to ``locales/*/plots.json``
(known strings, byte for byte); in Japanese every label, title, axis, hover and note of the part is
Japanese and none of its English static labels is left. The game's own words (score categories and
their details, card names and groups, the game's title) stay as the game writes them.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import panel as pn
import pytest

import rules
from bokeh.models import HoverTool, Legend, Title
from bokeh.plotting import figure

from explorer.plots.analysis import DistributionFigure, EnvelopeFigure, envelope_data, score_distribution_data
from explorer.core.i18n import LOCALES, text
from explorer.plots.live import PLACEHOLDER, LivePlots
from explorer.plots.game import figure_name
from explorer.plots.game import (ByGroupFigure, ByNumberFigure, DrawsFigure, EndCardFigure, ScoreFigure, breakdown_text,
                            card_catalogue, deck_composition, draws_plot_data, end_card_data, group_legend_html,
                            session_draw_data, session_score_data)
from explorer.components.scores import ScoreBreakdown, breakdown_table_html, score_tables_html
from explorer.core.session import GameSession

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ENGLISH = json.loads((LOCALES / "en" / "plots.json").read_text(encoding="utf-8"))
#: The English static words of each text (the parts around its placeholders), 4 letters or more.
ENGLISH_WORDS = sorted({part.strip(" *:()`/,") for template in ENGLISH.values()
                        for part in re.split(r"\{[^}]*\}|`[^`]*`", template)} - {""}, key=len, reverse=True)
ENGLISH_WORDS = [word for word in ENGLISH_WORDS if len(word) >= 4]
STATS = {"a": {"score_histogram": [[[10, 1], [12, 1]], [[12, 2]]],
               "score_curve": {"decision": [1, 2], "games": [2, 2], "mean": [[0, 4], [2, 6]], "low": [[0, 1], [0, 2]],
                               "high": [[0, 8], [4, 9]]}},
         "b": {"score_histogram": [[[14, 2]], [[14, 2]]], "score_curve": None}}
BREAKDOWN = {"categories": [{"category": "mixed set 1", "detail": "a, b", "points": 3}], "total": 3, "mixed": 3,
             "journal_cards": 4}


@pytest.fixture(scope="module")
def game() -> GameSession:
    session = GameSession(game="subastral", players=4, seed=7)
    session.autoplay("greedy", then_goto=25)
    return session


def words(fig: figure) -> list[str]:
    """Every text a figure shows: title, axis labels, tick labels, hover labels, legend labels."""
    shown = [fig.title.text]
    for axis in [*fig.xaxis, *fig.yaxis]:
        shown += [axis.axis_label or "", *(str(v) for v in (axis.major_label_overrides or {}).values())]
    for tool in fig.tools:
        if isinstance(tool, HoverTool) and isinstance(tool.tooltips, list):
            shown += [label for label, _ in tool.tooltips]
    for legend in fig.select({"type": Legend}):
        shown += [str(item.label.value) for item in legend.items if item.label is not None]
    return [s for s in shown if s]


def subtitles(fig: figure) -> list[str]:
    """The texts a figure shows under its title (a key to what its glyphs mean)."""
    return [title.text for title in fig.above if isinstance(title, Title)]


def html_text(markup: str) -> str:
    """The visible text of some HTML (not its attributes: classes such as ``winner`` are no label)."""
    parts: list[str] = []
    parser = HTMLParser()
    parser.handle_data = parts.append
    parser.feed(markup)
    return " | ".join(parts)


def no_english(shown: str) -> list[str]:
    return [word for word in ENGLISH_WORDS if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", shown)]


def card_plots(session: GameSession, lang: str) -> list[figure]:
    catalogue = card_catalogue(session.card_data())
    seat = session.viewing_seat
    draws = draws_plot_data(session_draw_data(session, seat, lang=lang), catalogue, len(session.log), seat,
                            teacher=session.teacher, lang=lang, game=session.game)
    knowledge = session.deck_knowledge(seat)
    composition = deck_composition(knowledge, seat, catalogue, lang=lang, game=session.game)
    return [shown.figure for shown in (
        DrawsFigure(draws, lang=lang), ByGroupFigure(composition["by_group"], lang=lang),
        ByNumberFigure(composition["by_number"], lang=lang),
        EndCardFigure(end_card_data(knowledge, lang=lang), lang=lang),
        ScoreFigure(session_score_data(session, lang=lang), lang=lang))]


# ------------------------------------------------------------------ English, as it was


def test_the_english_score_table_is_unchanged():
    assert breakdown_table_html({"categories": [], "total": 0}, seat=2, winner=True, viewer=True) == (
        '<table class="score-table seat-2 winner viewer" data-seat="2" data-total="0" style="--seat-colour:#2a9d5c">'
        '<caption>Player 3<span class="badge">winner</span><span class="you">(viewing)</span></caption><tbody>'
        '<tr class="empty"><td colspan="2">no points yet</td></tr><tr class="total"><td>Total</td>'
        '<td class="points">0</td></tr></tbody></table>')
    assert breakdown_table_html(BREAKDOWN, seat=0, lang="en", game="subastral") == (
        '<table class="score-table seat-0" data-seat="0" data-total="3" style="--seat-colour:#2f6fdb">'
        '<caption>Player 1</caption><tbody><tr class="category"><td>mixed set 1<div class="detail">a, b</div></td>'
        '<td class="points">3</td></tr><tr class="total"><td>Total</td><td class="points">3</td></tr>'
        '<tr class="subtotals"><td colspan="2">mixed 3 = 3</td></tr><tr class="tie-break" data-key="journal_cards">'
        '<td>tie-break: journal cards (fewest wins)</td><td class="points">4</td></tr></tbody></table>')
    assert breakdown_text({}) == "no points yet"


def test_the_english_plots_are_unchanged(game):
    draws, by_group, by_number, end_card, scores = card_plots(game, "en")
    assert words(draws)[:4] == ["Cards drawn and revealed\n(the teacher: every card)", "Step", "Card number", "1"]
    assert [label for label, _ in draws.select_one({"type": HoverTool}).tooltips] == ["", "step", ""]
    assert re.fullmatch(r"\d+ unseen cards:\n\d+ in the deck, \d+ in hands", by_group.title.text)
    assert words(by_group)[1:3] == ["Biome", "Unseen cards"]
    assert [label for label, _ in by_group.select_one({"type": HoverTool}).tooltips] == ["", "unseen"]
    assert (by_number.title.text, by_number.xaxis[0].axis_label, by_number.yaxis[0].axis_label) == (
        "Unseen cards by number,\nstacked by group", "Card number", "Unseen cards")
    assert [label for label, _ in by_number.select_one({"type": HoverTool}).tooltips] == ["number", "", "unseen"]
    assert re.fullmatch(r"End card: draw \d+ from now \(\d+ cards above it\)", end_card.title.text)
    assert words(end_card)[1:3] == ["Within the next k draws", "Chance"]
    assert [label for label, _ in end_card.select_one({"type": HoverTool}).tooltips] == ["k", "chance"]
    assert words(scores)[:3] == ["Provisional scores\n(dashed line: the step shown)", "Step", "Score"]
    assert [label for label, _ in scores.select_one({"type": HoverTool}).tooltips] == ["", "step", "score", ""]
    assert words(scores)[-4:] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    game.viewing_seat = 1
    try:
        seats = card_plots(game, "en")[0]
        assert seats.title.text == "Cards drawn and revealed\n(as Player 2 sees them)"
        assert words(seats)[:4] == [seats.title.text, "Step", "Card number", "hidden"]     # another's secret draws
        composition = deck_composition(game.deck_knowledge(1), 1, card_catalogue(game.card_data()))
        assert re.fullmatch(r"\d+ unseen cards:\n\d+ in the deck, \d+ in other hands", composition["by_group"]["title"])
    finally:
        game.viewing_seat = None
    catalogue = card_catalogue(game.card_data())
    assert group_legend_html(catalogue).startswith('<div class="group-legend"><span class="legend-title">Card colours:'
                                                   '</span><span class="legend-item">')
    assert group_legend_html(catalogue).endswith('<span class="swatch" style="background:#a3adb8"></span>hidden card'
                                                 '</span></div>')
    assert PLACEHOLDER.format(title="Subastral") == (
        "*Subastral does not say which cards are which (its rules answer no `card_info` / `deck_knowledge`), "
        "so only the score curves are shown.*")


def test_the_english_analysis_plots_are_unchanged():
    distribution = DistributionFigure(score_distribution_data(STATS)).figure
    assert words(distribution) == ["Final scores (all seats), A and B", "final score", "share of scores",
                                   "Setting A", "Setting B"]
    envelope = EnvelopeFigure(envelope_data(STATS)).figure
    assert words(envelope) == ["Provisional scores during the game", "decision", "provisional score", "Setting A",
                               "Setting B"]
    assert subtitles(envelope) == ["line: mean · band: lowest to highest of any seat"]


def test_the_english_live_plots_and_score_breakdown_are_unchanged(game):
    plots = LivePlots(session=game)
    titles = sorted(fig.title.text for fig in pn.panel(plots).get_root().select({"type": figure}))
    assert titles[1:] == ["Cards drawn and revealed\n(the teacher: every card)",
                          titles[2], "Provisional scores\n(dashed line: the step shown)",
                          "Unseen cards by number,\nstacked by group"]
    assert titles[2].startswith("End card: draw ") and " unseen cards:\n" in titles[0]
    assert "Card colours:" in plots.legend.object
    assert ScoreBreakdown(session=game)._pane.object == score_tables_html(game.view(), None)


# ------------------------------------------------------------------ Japanese


def test_the_score_table_in_japanese():
    shown = html_text(breakdown_table_html({"categories": [], "total": 0}, seat=2, winner=True, viewer=True, lang="ja"))
    assert shown == "プレイヤー3 | 勝者 | （表示中） | まだ得点なし | 合計 | 0"
    shown = html_text(breakdown_table_html(BREAKDOWN, seat=0, lang="ja", game="subastral"))
    # (The figures' names were the English keys, and mixed, a part of the total, was called a tie-break.)
    assert "プレイヤー1" in shown and "合計" in shown and "ミックスセット 3 = 3" in shown
    assert "同点時の比較：ジャーナルのカード枚数（少ない方が上位）" in shown and "同点時の比較：ミックス" not in shown
    assert no_english(shown.replace("mixed set 1", "")) == []     # (the category: the game's own words)
    assert breakdown_text({}, "ja") == "まだ得点なし"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", rules.GAMES)
def test_every_games_score_table_names_its_figures_in_the_pages_language(game_id, lang):
    """Each figure of a breakdown beside the total is either a part of it (the game's score_parts) or a
    tie-break figure, named in the page's language. (Japanese tables showed "同点時の比較：mixed 53":
    English keys, and Subastral's parts called tie-breaks; Jump Gate's English table gave its count of
    planets as a part of the total, "planets 3 = 41", for its category "planets".)"""
    session = GameSession(game=game_id, seed=3)
    session.autoplay("random", limit=60)
    view = session.view()
    shown = html_text(score_tables_html(view, None, lang))
    parts = session.spec.score_parts
    for breakdown in view["score_breakdown"][lang]:
        figures = {key for key, value in breakdown.items()
                   if key not in ("categories", "total", "seat") and isinstance(value, int) and not isinstance(value, bool)}
        tie_breaks = figures - set(parts)
        for key in tie_breaks:
            assert text("plots.table.tie_break", lang, figure=figure_name(key, game_id, lang)) in shown
            assert figure_name(key, game_id, lang) != key.replace("_", " ") or lang == "en"
        if parts:
            assert " + ".join(f"{figure_name(key, game_id, lang)} {breakdown[key]}" for key in parts) in shown
    assert ('class="subtotals"' in score_tables_html(view, None, lang)) == bool(parts)


def test_the_plots_in_japanese(game):
    for seat in (None, 1):
        game.viewing_seat = seat
        try:
            figures = card_plots(game, "ja")
        finally:
            game.viewing_seat = None
        for fig in figures:
            shown = [word for word in words(fig) if word not in ("k", "")]
            assert all(JAPANESE.search(word) for word in shown if not word.isdigit()), shown
            assert no_english(" | ".join(shown)) == [], shown
        assert words(figures[0])[0] == ("引いたカードと公開されたカード\n（先生：すべてのカード）" if seat is None
                                        else "引いたカードと公開されたカード\n（プレイヤー2から見たもの）")
        assert words(figures[-1])[-4:] == ["プレイヤー1", "プレイヤー2", "プレイヤー3", "プレイヤー4"]
    legend = html_text(group_legend_html(card_catalogue(game.card_data()), "ja"))
    assert legend.startswith("カードの色：") and legend.endswith("伏せたカード")
    assert text("plots.placeholder", "ja", title="Subastral").startswith("*Subastralは")


def test_the_analysis_plots_in_japanese():
    for fig in (DistributionFigure(score_distribution_data(STATS), lang="ja").figure,
                EnvelopeFigure(envelope_data(STATS), lang="ja").figure):
        shown = [word for word in words(fig) + subtitles(fig) if word not in ("A", "B")]
        assert all(JAPANESE.search(word) for word in shown), shown
        assert no_english(" | ".join(shown)) == [], shown


def test_live_plots_and_score_breakdown_in_japanese_and_switching_language(game):
    plots = LivePlots(session=game, lang="ja")
    root = pn.panel(plots).get_root()

    def shown() -> str:
        return " | ".join(word for fig in root.select({"type": figure}) for word in words(fig))

    assert "途中の得点\n（破線：表示中の手）" in shown() and no_english(shown()) == []
    assert "カードの色：" in plots.legend.object
    breakdown = ScoreBreakdown(session=game, lang="ja")
    assert "合計" in breakdown._pane.object and ">Total<" not in breakdown._pane.object
    plots.lang = "en"
    root = pn.panel(plots).get_root()
    assert "Provisional scores\n(dashed line: the step shown)" in shown() and not JAPANESE.search(shown())
    breakdown.lang = "en"
    assert breakdown._pane.object == score_tables_html(game.view(), None)
