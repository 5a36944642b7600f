"""The Analysis page in real Chromium: a small Subastral disturbance A/B run, watched live.

The plots are checked inside the page (the Bokeh models BokehJS holds, i.e. what the browser
draws), and the numbers against the server-side run they came from and ``play.sweep.compare``.
"""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import Page, expect

from explorer.pages.analysis import create_page
from play.sweep import compare
from tests.helpers.explorer_page import shot, wait_until
from tests.helpers.tiers import slow

pytestmark = pytest.mark.browser

LOAD_TIMEOUT = 30_000

# Record, every 20 ms, how many games the convergence plot's data covers (its largest "games"),
# and how many points the mean-score plot holds (their sources are named analysis-<plot>-...):
# every distinct value the browser has drawn.
RECORD_JS = """
() => {
  window.__analysisSeen = [];
  const read = () => {
    let games = 0, points = 0;
    for (const doc of window.Bokeh.documents) {
      for (const model of doc.all_models) {
        if (model.type !== "ColumnDataSource") continue;
        const data = model.data instanceof Map ? model.data : new Map(Object.entries(model.data));
        const name = model.name || "";
        if (name.startsWith("analysis-difference-")) {
          for (const g of Array.from(data.get("games"))) games = Math.max(games, g);
        }
        if (name.startsWith("analysis-scores-")) points += Array.from(data.get("x")).length;
      }
    }
    const key = games + ":" + points;
    const seen = window.__analysisSeen;
    if (!seen.length || seen[seen.length - 1] !== key) seen.push(key);
  };
  read();
  // Every change the server sends is read as it is applied (a timer alone misses updates that arrive
  // back to back while the browser is busy drawing a new figure); the timer only adds samples.
  for (const doc of window.Bokeh.documents) doc.on_change(() => read(), true);
  window.__analysisTimer = setInterval(read, 20);
}
"""


@pytest.fixture
def served(serve_app):
    """``(url, pages)``: the analysis app's URL and the server-side AnalysisPage of every page opened."""
    pages = []

    def factory():
        template = create_page()
        pages.append(template.analysis)
        return template

    return serve_app(factory, path="analysis"), pages


def set_number(page: Page, css_class: str, value: int) -> None:
    field = page.locator(f".{css_class} input")
    field.fill(str(value))
    field.press("Enter")


@slow   # long by nature: a simulation run (the quick tier: tests/explorer/pages/test_explorer_analysis.py, the page's model)
def test_a_disturbance_run_updates_its_plots_live_and_offers_its_numbers(page: Page, served, tmp_path):
    url, pages = served
    page.set_viewport_size({"width": 1500, "height": 1100})
    page.goto(url)
    expect(page.locator(".analysis-run button")).to_be_visible(timeout=LOAD_TIMEOUT)
    analysis = pages[-1]
    expect(page.locator(".analysis-question")).to_contain_text("Does disturbance change the scores at 4 players?")

    # 3 players, 60 games in chunks of 10, greedy bots on both sides (slow enough to watch).
    page.locator(".analysis-players select").select_option("3")
    page.locator(".analysis-bot-a select").select_option("greedy")
    page.locator(".analysis-bot-b select").select_option("greedy")
    set_number(page, "analysis-games", 60)
    set_number(page, "analysis-chunk", 10)
    wait_until(lambda: (analysis.players, analysis.games, analysis.chunk, analysis.bot_a, analysis.bot_b)
               == (3, 60, 10, "greedy", "greedy"), what="the settings to reach the server")
    expect(page.locator(".analysis-question")).to_contain_text("Does disturbance change the scores at 3 players?")
    settings = analysis.settings()
    assert settings.variants_a == {"disturbance": False} and settings.variants_b == {"disturbance": True}

    page.evaluate(RECORD_JS)
    page.locator(".analysis-run button").click()
    wait_until(lambda: analysis.run.status in ("done", "stopped", "failed"), timeout=120, what="the run to finish")
    assert analysis.run.status == "done", analysis.run.error
    expect(page.locator(".analysis-progress")).to_contain_text("60 / 60 games", timeout=10_000)
    expect(page.locator(".analysis-progress")).to_contain_text("done", timeout=10_000)
    wait_until(lambda: page.evaluate("window.__analysisSeen.at(-1)").startswith("60:"),
               what="the browser to draw the final data")
    seen = page.evaluate("clearInterval(window.__analysisTimer), window.__analysisSeen")
    live = [key for key in seen if key.split(":")[0] not in ("0", "60")]
    assert len(live) >= 2, f"the plots took data more than once while the run was going: {seen}"
    shot(page, "analysis-done")

    # The final numbers: the page's are compare's with the same arguments.
    expected = compare(**settings.compare_arguments())["results"]
    assert analysis.run.result["results"] == expected
    summary = page.locator(".analysis-summary")
    for seat in expected["difference_b_minus_a"]:
        expect(summary).to_contain_text(f"{seat['score_difference']['mean']:.2f} [")
    expect(summary).to_contain_text("60 games")

    # A working download: the CSV holds the same numbers.
    with page.expect_download() as download_info:
        page.locator(".analysis-csv").click()
    path = tmp_path / "analysis.csv"
    download_info.value.save_as(path)
    text = path.read_text()
    rows = list(csv.DictReader(io.StringIO("\n".join(line for line in text.splitlines() if not line.startswith("#")))))
    differences = {int(r["seat"]): float(r["value"]) for r in rows if r["statistic"] == "score_difference"}
    assert differences == {s["seat"] + 1: s["score_difference"]["mean"] for s in expected["difference_b_minus_a"]}


def test_runs_that_change_the_plots_seats_throw_no_javascript_error(page: Page, served):
    """A run whose seats differ from the last one's makes new figures (and legends) in place: the page
    once threw ``cannot find a view for Legend(...)`` at every run. Nothing is logged as an error."""
    url, pages = served
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 1500, "height": 1100})
    page.goto(url)
    expect(page.locator(".analysis-run button")).to_be_visible(timeout=LOAD_TIMEOUT)
    analysis = pages[-1]
    set_number(page, "analysis-games", 20)
    set_number(page, "analysis-chunk", 10)
    wait_until(lambda: (analysis.games, analysis.chunk) == (20, 10), what="the settings to reach the server")
    for game, players in (("Subastral", 4), ("Subastral", 3), ("Stellar", 2)):
        page.locator(".analysis-game select").select_option(label=game)
        page.locator(".analysis-players select").select_option(str(players))
        wait_until(lambda: analysis.players == players and analysis.game == game.lower(), what=f"{game} at {players}")
        page.locator(".analysis-run button").click()
        wait_until(lambda: analysis.run.settings is not None and analysis.run.settings.game == game.lower()
                   and analysis.run.settings.players == players and analysis.run.status in ("done", "failed"),
                   timeout=60, what=f"the {game} run at {players} players")
        expect(page.locator(".analysis-progress")).to_contain_text("20 / 20 games")
    assert not errors, errors
