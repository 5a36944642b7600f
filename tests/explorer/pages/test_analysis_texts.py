"""The Analysis page's texts in English and Japanese (explorer/pages/analysis.py, locales/*/analysis.json).

The English must stay exactly what it was before the texts moved to the locale files (other tests
and the browser test compare it); in Japanese the page shows Japanese, and none of its English
static labels. The plot data's column names are the same in both languages (only labels change).
"""

from __future__ import annotations

import re
import string

import pytest
from bokeh.models import HoverTool, Span

import rules
from explorer.pages.analysis import (
    AnalysisPage, AnalysisRun, RunSettings, create_page, difference_points, progress_line, question, summary_markdown,
)
from explorer.core.i18n import texts
from tests.helpers.analysis import known_stats  # (two games per setting, scores chosen by hand)

SETTINGS = RunSettings(game="subastral", players=3, games=40, seed=11, variants_a={"disturbance": False},
                       variants_b={"disturbance": True}, chunk=10)
BASE = dict(game="subastral", players=4, games=10, seed=1)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def figure_texts(fig) -> dict:
    """What a plot's figure shows in words: title, axis labels, tick labels, legend, hover labels; and
    the column names of its data (the data's own)."""
    return {"title": fig.title.text if fig.title else None,
            "axes": [axis.axis_label for axis in fig.xaxis + fig.yaxis],
            "ticks": [dict(axis.major_label_overrides) for axis in fig.xaxis],
            "legend": [item.label.value for legend in fig.legend for item in legend.items],
            "hover": [label for tool in fig.tools if isinstance(tool, HoverTool) for label, _ in tool.tooltips],
            "columns": sorted({column for r in fig.renderers if hasattr(r, "data_source") for column in r.data_source.data})}


def page_plots(page: AnalysisPage) -> dict:
    """The page's own four plots as drawn now (the distribution plots are explorer/plots/analysis.py's)."""
    return {name: figure_texts(page.figures[name].figure) for name in ("scores", "win_rates", "length", "difference")}


def widget_texts(page: AnalysisPage) -> dict:
    """The settings column's widgets by css class: (label, tooltip, menu names)."""
    found = {}
    for item in page.controls.objects:
        if hasattr(item, "value") and item.css_classes:
            options = getattr(item, "options", None)
            found[item.css_classes[0]] = (item.name, getattr(item, "description", None),
                                          list(options) if isinstance(options, dict) else None)
    return found


# ---------------------------------------------------------------------------- English: exactly as before
ENGLISH_WIDGETS = {
    "analysis-game": ("Game", "Which game's rules.", ["Subastral", "Stellar", "Jump Gate", "Starligned", "Biome Blitz"]),
    "analysis-players": ("Players", "Number of players.", ["2", "3", "4", "5"]),
    "analysis-bot-a": ("Bots in A", None, ["random", "greedy", "MCTS"]),
    "analysis-bot-b": ("Bots in B", None, ["random", "greedy", "MCTS"]),
    "analysis-games": ("Games", "Games per setting (each deal is played under A and B).", None),
    "analysis-seed": ("Seed", "Game i is dealt from seed + i.", None),
    "analysis-chunk": ("Chunk size", "Games per chunk (the plots update per chunk).", None),
    "analysis-executor": ("Executor", "Where the games are played.", ["In this process", "Local processes"]),
    "analysis-workers": ("Workers", "Local processes.", None),
    "analysis-stop-when-precise": ("Stop when precise", None, None),
    "analysis-ci-half-width": ("± points", "Half-width of the difference interval that is precise enough.", None),
}

ENGLISH_SUMMARY = """\
| Seat | Score A | Score B | B − A | Win rate A | Win rate B |
|---|---|---|---|---|---|
| Player 1 | 11.00 [9.04, 12.96] | 15.00 [13.04, 16.96] | 4.00 [4.00, 4.00] * | 0.0% [0.0%, 65.8%] | 0.0% [0.0%, 65.8%] |
| Player 2 | 19.00 [17.04, 20.96] | 19.00 [17.04, 20.96] | 0.00 [0.00, 0.00] | 100.0% [34.2%, 100.0%] | 100.0% [34.2%, 100.0%] |

Game length (decisions): A 31.00 [29.04, 32.96], B 32.00 [30.04, 33.96]. Score spread (best − worst): A 8.00 [4.08, \
11.92], B 4.00 [0.08, 7.92]. First player's win rate (the deal's start player): A 50.0% [9.4%, 90.5%], B 50.0% \
[9.4%, 90.5%]; B − A +0.0 [+0.0, +0.0] points (a fair share: 50.0%). 95% intervals; * the difference's interval \
excludes 0. 2 games."""


def test_the_english_widgets_buttons_and_headings_are_unchanged(monkeypatch):
    page = AnalysisPage()
    assert widget_texts(page) == ENGLISH_WIDGETS
    assert page.controls.objects[0].object == "### Comparison"
    assert [box.objects[0].object for box in page.variant_box] == ["**Variants in A**", "**Variants in B**"]
    assert (page.run_button.name, page.stop_button.name) == ("Run", "Stop")
    assert (page.csv_download.label, page.json_download.label) == ("Download CSV", "Download JSON")
    assert (page.csv_download.filename, page.json_download.filename) == ("analysis.csv", "analysis.json")
    assert page.progress.object == "Not run yet: choose the settings (beside this, or below it on a small screen), then Run. The plots appear here as the games are played."
    assert page.question.object == "### Does disturbance change the scores at 4 players?"
    # (every game has switches now: one is shown without them)
    monkeypatch.setattr(type(rules.get_game("biome_blitz")), "variants", ())
    page.game = "biome_blitz"
    assert [box.objects[1].object for box in page.variant_box] == ["*(this game has no variants)*"] * 2
    assert create_page().title == "Rules Explorer – analysis"
    assert create_page("en").analysis.lang == "en"


def test_the_english_questions_name_settings_in_words():
    assert question(RunSettings(**BASE, variants_a={"disturbance": True}, variants_b={"disturbance": False})) \
        == "Does turning disturbance off change the scores at 4 players?"
    assert question(RunSettings(**BASE, variants_a={"disturbance": False}, variants_b={"disturbance": True},
                                bots_a=("random",), bots_b=("greedy",))) \
        == "Do disturbance and playing greedy bots instead of random change the scores at 4 players?"
    assert question(RunSettings(**BASE)) \
        == "A and B are the same setting at 4 players: do the differences stay within their noise?"
    a = {"fifth_starter_to_box": False, "satellite_clear": "before_refill", "face_down_row_number": "printed"}
    b = {"fifth_starter_to_box": True, "satellite_clear": "after_take", "face_down_row_number": "three"}
    assert question(RunSettings(game="stellar", players=2, games=10, seed=1, variants_a=a, variants_b=b)) == (
        "Do face down row number = the face-down value 3 (instead of the printed number), fifth starter to box and "
        "satellite clear = right after the take (instead of before the refill (phase 4)) change the scores at 2 players?")


def test_the_english_progress_lines_and_summary_are_unchanged(monkeypatch):
    import explorer.pages.analysis as analysis

    run = AnalysisRun()
    assert progress_line(run) == "Not run yet: choose the settings (beside this, or below it on a small screen), then Run. The plots appear here as the games are played."
    expected = {"idle": "", "done": "done", "stopped": "stopped: partial results kept", "failed": "failed: boom"}
    for status, state in expected.items():
        run.param.update(settings=SETTINGS, status=status, games_done=20, elapsed=3.14159, error="boom")
        assert progress_line(run) == f"20 / 40 games (each played under A and under B) · 3.1 s elapsed · {state}"
    # While it runs, the time since it began (a chunk can take minutes: the time of the last one stood still).
    now = [1000.0]
    monkeypatch.setattr(analysis.time, "perf_counter", lambda: now[0])
    run.begin(SETTINGS)
    run.param.update(games_done=20, elapsed=1.5)        # (a chunk finished after 1.5 s)
    now[0] += 7.25
    assert progress_line(run) == "20 / 40 games (each played under A and under B) · 7.2 s elapsed · running"
    run.param.update(status="done", elapsed=8.0)
    now[0] += 100
    assert progress_line(run).endswith(" · 8.0 s elapsed · done")
    # An error's own message (it may name a card file's cards) is literal text in the Markdown line.
    run.param.update(status="failed", error="IllegalAction: <img src=x onerror=alert(1)> *bold*")
    assert progress_line(run).endswith("failed: IllegalAction: &lt;img src=x onerror=alert(1)&gt; \\*bold\\*")
    assert summary_markdown(None) == ""
    assert summary_markdown(known_stats()) == ENGLISH_SUMMARY


def test_the_english_plots_are_unchanged():
    stats = known_stats()
    page = AnalysisPage()
    page.run.param.update(stats=stats, history=difference_points(stats))
    page.refresh_plots()
    columns = ["high", "low", "setting", "value", "x"]
    scores = figure_texts(page.figures["scores"].figure)
    assert scores == {"title": "Mean score per seat (2 games)", "axes": ["", "score"],
                      "ticks": [{0: "Player 1", 1: "Player 2"}], "legend": ["Setting A", "Setting B"],
                      "hover": ["", "score", ""], "columns": columns}
    rates = figure_texts(page.figures["win_rates"].figure)
    assert rates["title"] == "Win rate per seat (2 games)" and rates["axes"] == ["", "win rate"]
    assert rates["hover"] == ["", "win rate", ""] and rates["columns"] == columns
    length = figure_texts(page.figures["length"].figure)
    assert length == {"title": "Game length (2 games)", "axes": ["", "decisions per game"], "ticks": [{0: "A", 1: "B"}],
                      "legend": [], "hover": ["", "decisions", ""], "columns": columns}
    difference = figure_texts(page.figures["difference"].figure)
    assert difference["title"] == "Score difference B − A (2 games)"
    assert difference["axes"] == ["games", "points (B − A)"] and difference["legend"] == ["Player 1", "Player 2"]
    assert difference["hover"] == ["games", "difference"]
    # The page draws the same as these functions (before any run: no games).
    assert page_plots(AnalysisPage())["scores"]["title"] == "Mean score per seat (0 games)"


# ---------------------------------------------------------------------------- Japanese
def static_parts(template: str) -> list[str]:
    """The words of a text outside its placeholders (the pieces that would show if left in English)."""
    return [literal.strip() for literal, _, _, _ in string.Formatter().parse(template)
            if re.search(r"[A-Za-z]{2}", literal)]


def english_labels() -> set[str]:
    return {part for key, value in texts("en").items() if key.startswith("analysis.") for part in static_parts(value)}


def shows(blob: str, part: str) -> bool:
    pattern = (r"\b" if part[0].isalnum() else "") + re.escape(part) + (r"\b" if part[-1].isalnum() else "")
    return re.search(pattern, blob) is not None


@pytest.fixture(scope="module")
def japanese_page():
    """A Japanese page after a short run (20 games in chunks of 10)."""
    template = create_page("ja")
    page = template.analysis
    page.players, page.games, page.seed, page.chunk = 3, 20, 11, 10
    page.start().join(60)
    page.refresh()
    return template


def japanese_texts(template) -> list[str]:
    """Every text the Japanese page shows that is this part's (not the variants' own labels and notes)."""
    page = template.analysis
    shown = [template.title, page.question.object, page.progress.object, page.summary.object,
             page.run_button.name, page.stop_button.name, page.csv_download.label, page.json_download.label,
             template.site_header.object, template.language_switch.object, page.controls.objects[0].object]
    shown += [box.objects[0].object for box in page.variant_box]
    for label, description, options in widget_texts(page).values():
        shown += [label, description or ""] + (options or [])
    for plot in page_plots(page).values():
        shown += [plot["title"], *plot["axes"], *plot["legend"], *plot["hover"]]
        shown += [label for ticks in plot["ticks"] for label in ticks.values()]
    run = AnalysisRun()
    shown.append(progress_line(run, "ja"))
    for status in ("running", "done", "stopped", "failed"):
        run.param.update(settings=SETTINGS, status=status, games_done=20, elapsed=1.0, error="x")
        shown.append(progress_line(run, "ja"))
    base = RunSettings(**BASE)
    shown += [question(base, "ja"),
              question(RunSettings(**BASE, variants_a={"disturbance": True}, variants_b={"disturbance": False}), "ja"),
              question(RunSettings(**BASE, variants_a={"disturbance": False}, variants_b={"disturbance": True},
                                   bots_a=("random",), bots_b=("greedy",)), "ja"),
              question(RunSettings(game="stellar", players=2, games=10, seed=1, variants_a={"satellite_clear": "before_refill"},
                                   variants_b={"satellite_clear": "after_take"}), "ja")]
    return shown


def test_the_japanese_page_shows_japanese_and_none_of_the_english_labels(japanese_page):
    shown = japanese_texts(japanese_page)
    blob = "\n".join(shown)
    left = sorted(part for part in english_labels() if shows(blob, part))
    assert not left, f"English labels on the Japanese page: {left}"
    words = [item for item in shown if item and re.search(r"[A-Za-z]{3}", item) and not JAPANESE.search(item)]
    # What may stay as it is: game titles, bot names (their ids) and the language switch's "English".
    allowed = {"Subastral", "Stellar", "Jump Gate", "Starligned", "Biome Blitz", "MCTS"}
    assert not [w for w in words if w not in allowed], words


def test_the_japanese_page_in_detail(japanese_page):
    page = japanese_page.analysis
    assert japanese_page.title == "ルール・エクスプローラー：分析"
    assert page.lang == "ja"
    assert widget_texts(page)["analysis-executor"][2] == ["このプロセス内", "ローカルの複数プロセス"]
    assert page.executor == "processes" and page.settings().executor == "processes"
    assert page.progress.object.startswith("20 / 20ゲーム") and page.progress.object.endswith("完了")
    assert "| プレイヤー1 |" in page.summary.object and "プレイヤー3" in page.summary.object
    switch = japanese_page.language_switch.object
    assert 'href="?lang=en"' in switch and "<b>日本語</b>" in switch
    assert 'href="/analysis?lang=ja" aria-current="page"' in japanese_page.site_header.object
    assert question(RunSettings(**BASE), "ja") == "AとBは同じ設定（4人）：差はばらつきの範囲に収まるか？"
    plots = page_plots(page)
    assert plots["scores"]["title"] == "席ごとの平均スコア（20ゲーム）"
    assert plots["difference"]["legend"] == ["プレイヤー1", "プレイヤー2", "プレイヤー3"]
    # The data keep their column names (the browser test reads them); the fair share is still drawn.
    english = AnalysisPage(players=3)
    english.run.param.update(stats=page.run.stats, history=page.run.history)
    english.refresh()
    assert {k: v["columns"] for k, v in page_plots(english).items()} == {k: v["columns"] for k, v in plots.items()}
    fair_share = page.figures["win_rates"].figure.select_one({"type": Span})
    assert fair_share.visible and fair_share.location == page.run.stats["a"]["first_player_advantage"]["fair_share"]


def test_a_japanese_page_leaves_english_pages_english():
    AnalysisPage(lang="ja")
    assert widget_texts(AnalysisPage())["analysis-executor"] == ENGLISH_WIDGETS["analysis-executor"]
    assert AnalysisPage.param.executor.names == {"In this process": "inprocess", "Local processes": "processes",
                                                 "Dask cluster": "dask"}


def test_the_distribution_plots_are_drawn_in_the_page_s_language():
    for lang, title in (("ja", "最終得点"), ("en", "Final scores")):
        for name in ("distribution", "envelope"):
            drawn = AnalysisPage(lang=lang).figures[name].figure
            assert (JAPANESE.search(drawn.title.text) is not None) == (lang == "ja"), drawn.title.text
        assert title in AnalysisPage(lang=lang).figures["distribution"].figure.title.text


def test_the_downloads_stay_english_data():
    """The CSV and JSON are data (column names, the question as recorded): the same in both languages."""
    run = AnalysisRun()
    result = run.run(RunSettings(**{**SETTINGS.__dict__, "games": 10}))
    assert result["question"] == "Does disturbance change the scores at 3 players?"


def test_the_page_answers_its_question_in_sentences():
    from explorer.pages.analysis import answer

    def seat(n, mean, low, high):
        return {"seat": n, "significant": low > 0 or high < 0,
                "score_difference": {"mean": mean, "low": low, "high": high}}

    stats = {"games": 200, "difference_b_minus_a": [seat(0, 1.4, 1.3, 1.5), seat(1, -0.8, -1.2, -0.4),
                                                    seat(2, 0.1, -0.3, 0.5), seat(3, 0.0, -0.2, 0.2)]}
    settings = RunSettings(**BASE, variants_a={"disturbance": False}, variants_b={"disturbance": True})
    assert answer(settings, stats) == (
        "Disturbance raises Player 1's score by 1.4 points (95% CI 1.3 to 1.5) on the same deals.\n\n"
        "Disturbance lowers Player 2's score by 0.8 points (95% CI 0.4 to 1.2) on the same deals.\n\n"
        "Player 3 and Player 4: no difference beyond the noise of 200 games (the 95% CI includes 0).")
    japanese = answer(settings, stats, "ja")
    assert "同じ配札でのプレイヤー1の得点は1.4点上がります（95%信頼区間 1.3〜1.5）" in japanese
    assert answer(settings, None) == "" and answer(None, stats) == ""
    same = RunSettings(**BASE, variants_a={"disturbance": True}, variants_b={"disturbance": True})
    assert answer(same, stats).startswith("Setting B raises Player 1's score")
