"""The Analysis page in real Chromium: a small Subastral disturbance A/B run, watched live.

The plots are checked inside the page (the Bokeh models BokehJS holds, i.e. what the browser
draws), and the numbers against the server-side run they came from and ``play.sweep.compare``.
"""

from __future__ import annotations

import csv
import io
import queue
import re
import threading

import pytest
from playwright.sync_api import Page, expect

from explorer.pages.analysis import create_page
from play.sweep import compare
from tests.helpers.explorer_page import shot, wait_until
from tests.helpers.tiers import slow
from tests.helpers.workshop_pages import FORGE_JS, FORGE_MESSAGE_JS, open_biome_blitz, set_number

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


@slow   # long by nature: a simulation run (the quick tier: tests/explorer/pages/test_explorer_analysis.py, the page's model)
def test_a_disturbance_run_updates_its_plots_live_and_offers_its_numbers(page: Page, served, tmp_path):
    url, pages = served
    page.set_viewport_size({"width": 1500, "height": 1100})
    page.goto(url)
    expect(page.locator(".analysis-run button")).to_be_visible(timeout=LOAD_TIMEOUT)
    analysis = pages[-1]
    expect(page.locator(".analysis-question")).to_contain_text("Does disturbance change the scores at 4 players?")

    # 3 players, 60 games in chunks of 10, greedy bots on both sides.
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

    # The run is held after each chunk it reports until the browser has drawn that chunk: the page must
    # show a run's numbers while it goes on. A quick machine plays these 120 games in less time than the
    # page waits between two redraws (PLOTS_SECONDS), so without the hold the browser could see only the
    # start and the end (it did, in CI). A hold is a state to wait for, not a time.
    holds: queue.Queue = queue.Queue()

    def hold(event) -> None:            # (in the run's thread, after the page's own watcher)
        if 0 < event.new < 60:
            release = threading.Event()
            holds.put((event.new, release))
            if not release.wait(timeout=120):
                raise AssertionError(f"the test never let the run go on after {event.new} games")
    watcher = analysis.run.param.watch(hold, ["games_done"])
    page.evaluate(RECORD_JS)
    page.locator(".analysis-run button").click()
    drawn_live = []
    try:
        while True:
            wait_until(lambda: not holds.empty() or analysis.run.status in ("done", "stopped", "failed"),
                       timeout=120, what="the run's next chunk or its end")
            if holds.empty():
                break
            games, release = holds.get()
            wait_until(lambda: any(key.startswith(f"{games}:") for key in page.evaluate("window.__analysisSeen")),
                       timeout=60, what=f"the browser to draw the first {games} games while the run waits")
            assert analysis.run.status == "running"
            expect(page.locator(".analysis-progress")).to_contain_text(f"{games} / 60 games")
            drawn_live.append(games)
            release.set()
    finally:
        while not holds.empty():
            holds.get()[1].set()
        analysis.run.param.unwatch(watcher)
    # Six chunks on two workers come back nearly in order: a page given its numbers only at the end fails here.
    assert len(drawn_live) >= 2, f"the run reported fewer than two chunks before its end: {drawn_live}"
    assert analysis.run.status == "done", analysis.run.error
    expect(page.locator(".analysis-progress")).to_contain_text("60 / 60 games", timeout=10_000)
    expect(page.locator(".analysis-progress")).to_contain_text("done", timeout=10_000)
    wait_until(lambda: page.evaluate("window.__analysisSeen.at(-1)").startswith("60:"),
               what="the browser to draw the final data")
    seen = page.evaluate("clearInterval(window.__analysisTimer), window.__analysisSeen")
    drawn = [int(key.split(":")[0]) for key in seen]
    assert drawn == sorted(drawn), f"the plots went back to fewer games: {seen}"
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


def choose_deck_b_run_and_read(page: Page, analysis, games: int) -> None:
    """Biome Blitz at 2 players, ``games`` deals in this process, B's card file chosen already."""
    set_number(page, "analysis-games", games)
    set_number(page, "analysis-chunk", 10)
    page.locator(".analysis-executor select").select_option(label="In this process")
    wait_until(lambda: (analysis.games, analysis.executor) == (games, "inprocess"), what="the settings")
    before = analysis.run.result
    page.locator(".analysis-run button").click()
    wait_until(lambda: analysis.run.status == "failed" or (analysis.run.status == "done" and analysis.run.result is not before),
               timeout=120, what="this run to finish")
    assert analysis.run.status == "done", analysis.run.error


# (A value forged outside a menu's options is refused by Panel itself, which logs it: "... not in list".)
@pytest.mark.server_errors(r"not in list")
def test_b_plays_an_uploaded_or_saved_card_file_and_the_page_says_what_changed(page: Page, served, tmp_path,
                                                                                monkeypatch):
    """Setting B's card file: an upload the engine refuses shows its message and changes nothing; a good
    one is used; a saved one from the card library too; the sentence, the pairing and a run file that
    ``compare --run`` reproduces."""
    import json

    from explorer.cardfiles import CardLibrary
    from explorer.pages.analysis_decks import verdict_text
    from play.run_file import rerun
    from tests.helpers.biome_blitz import EXTRA_ANIMALS, base_card_file

    library = CardLibrary(tmp_path / "cards")
    stronger = base_card_file()
    stronger["animals"][0]["stars"] += 3
    library.save("biome_blitz", "stronger", stronger)
    monkeypatch.setenv("RULES_EXPLORER_CARDS_DIR", str(tmp_path / "cards"))
    analysis = open_biome_blitz(page, served)

    bad = base_card_file()
    bad["animals"][0]["stars"] = "<i>many</i>"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    page.locator(".analysis-cards-upload-b input[type=file]").set_input_files(str(tmp_path / "bad.json"))
    expect(page.locator(".analysis-cards-error-b")).to_contain_text("This card file cannot be used")
    expect(page.locator(".analysis-cards-error-b")).to_contain_text("<i>many</i>")      # (shown as text)
    assert analysis.deck_b.data is None

    more = base_card_file()
    more["animals"] = more["animals"] + EXTRA_ANIMALS[:1]
    (tmp_path / "more.json").write_text(json.dumps(more))
    page.locator(".analysis-cards-upload-b input[type=file]").set_input_files(str(tmp_path / "more.json"))
    expect(page.locator(".analysis-cards-shown-b")).to_contain_text("B plays with: Uploaded file")
    expect(page.locator(".analysis-cards-error-b")).to_have_text("")
    choose_deck_b_run_and_read(page, analysis, 20)
    said = verdict_text(analysis.run.result["results"], analysis.run.result["pairing"])
    assert "on the same 20 seeds" in said.lower()
    expect(page.locator(".analysis-verdict")).to_have_text(said, timeout=30_000)
    expect(page.locator(".analysis-pairing")).to_contain_text(
        "Paired on the same 20 seeds, not the same deals: the card files differ in mole (0 in A, 1 in B).")
    expect(page.locator(".analysis-cards summary")).to_be_visible()
    with page.expect_download() as download_info:
        page.locator(".analysis-run-file").click()
    path = tmp_path / "run.json"
    download_info.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["b"]["cards"] == more and rerun(data, executor="inprocess")[2] is None
    # The command line plays the downloaded file again: the same results, to the last figure.
    from tests.helpers.cli import cli
    again = cli("compare", "--run", path, "--workers", 1, "--out", tmp_path / "again.json").stdout
    assert f"reproduced {path}: the same results" in again
    assert json.loads((tmp_path / "again.json").read_text()) == data

    page.locator(".analysis-cards-b select").select_option(label="Saved: stronger")
    expect(page.locator(".analysis-cards-shown-b")).to_contain_text("B plays with: stronger")
    choose_deck_b_run_and_read(page, analysis, 20)
    expect(page.locator(".analysis-pairing")).to_have_text("Paired on the same 20 deals.", timeout=30_000)
    said = verdict_text(analysis.run.result["results"], analysis.run.result["pairing"])
    assert "on the same 20 deals" in said.lower()
    expect(page.locator(".analysis-verdict")).to_have_text(said, timeout=30_000)
    shot(page, "analysis-deck-b-1366")

    # Forged from the browser's console: a file the game refuses, a choice not on the menu. Nothing changes.
    # (The files first: Panel drops a component's message queued behind a menu value it refused.)
    forged = {"name": "<b>forged</b>.json", "text": '{"animals": 1}'}
    assert page.evaluate(FORGE_MESSAGE_JS, ["analysis-cards-upload-b", forged])
    assert page.evaluate(FORGE_MESSAGE_JS, ["analysis-cards-upload-a", forged])         # and A's chooser
    # The server refused both files (its state first: what the page shows follows, and under a CI run
    # beside another, A's message once came more than 5 s after B's).
    wait_until(lambda: all("This card file cannot be used" in deck.error for deck in (analysis.deck_a, analysis.deck_b)),
               timeout=30, what="both forged files refused")
    # What a file held is not a property the browser can set: only the message above reaches the server.
    assert not page.evaluate(FORGE_JS, ["analysis-cards-upload-a", "value", '{"animals": 1}'])
    assert page.evaluate(FORGE_JS, ["analysis-cards-b", "value", "<img src=x onerror=alert(1)>"])
    assert page.evaluate(FORGE_JS, ["analysis-cards-a", "value", "saved:../../etc/passwd"])
    set_number(page, "analysis-games", 21)          # (a round trip: the forged values have arrived before it)
    wait_until(lambda: analysis.games == 21, what="the round trip")
    assert analysis.deck_b.label == "saved:stronger" and analysis.deck_b.data == stronger
    assert analysis.settings().cards_b == stronger
    expect(page.locator(".analysis-cards-error-b")).to_contain_text("This card file cannot be used", timeout=LOAD_TIMEOUT)
    expect(page.locator(".analysis-cards-error-a")).to_contain_text("This card file cannot be used", timeout=LOAD_TIMEOUT)
    assert analysis.deck_a.label == "standard" and analysis.settings().cards_a is None


def test_a_card_file_far_over_the_limit_is_refused_unread_in_the_pages_language_and_the_page_goes_on(
        page: Page, served, tmp_path):
    """Read whole and sent (as Panel's FileInput did here), a 50 MB file exceeded the websocket's message
    limit: the connection closed, and the page with its settings and run went dead without a word. The
    file control speaks the page's language (the browser's own said "Choose File")."""
    url, pages = served
    sent: list[int] = []
    closed: list[int] = []

    def watch(socket) -> None:
        socket.on("framesent", lambda payload: sent.append(len(payload)))
        socket.on("close", lambda _: closed.append(1))
    page.on("websocket", watch)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url + "?lang=ja")
    upload = page.locator(".analysis-cards-upload-b")
    expect(upload.locator("button.file-choose")).to_have_text("ファイルを選ぶ…", timeout=LOAD_TIMEOUT)
    analysis = pages[-1]
    huge = tmp_path / "huge.json"       # (sparse: the page sees a 50 MB file, Playwright carries only its path)
    with huge.open("wb") as file:
        file.truncate(50_000_000)
    upload.locator("input[type=file]").set_input_files(huge)
    expect(page.locator(".analysis-cards-error-b")).to_have_text(
        "huge.jsonは50,000,000バイトです：ここで使えるカードファイルは1,000,000バイトまでです。何も変わっていません。",
        timeout=LOAD_TIMEOUT)
    assert analysis.deck_b.data is None and analysis.deck_b.label == "standard"
    assert sent and max(sent) < 1_000_000, max(sent)
    assert not closed
    # The page goes on: the menu still answers (a round trip through the same connection), and a card
    # file saved as UTF-16 (its byte order mark first, as Windows' Notepad saves) is read.
    page.locator(".analysis-players select").select_option("2")
    wait_until(lambda: analysis.players == 2, what="the players' menu after the refusal")
    import json
    from explorer.cardfiles import standard_file
    (tmp_path / "utf16.json").write_text(json.dumps(standard_file("subastral"), ensure_ascii=False), encoding="utf-16")
    upload.locator("input[type=file]").set_input_files(tmp_path / "utf16.json")
    expect(page.locator(".analysis-cards-shown-b")).to_have_text("Bで使うカード：アップロードしたファイル（utf16.json）",
                                                                timeout=LOAD_TIMEOUT)
    assert analysis.deck_b.data == standard_file("subastral") and analysis.deck_b.error == ""
    # A file that is not UTF-8 (Latin-1): refused, naming its first unreadable byte; it was read with the
    # letter turned into U+FFFD without a word. B keeps the file it had.
    latin = {**standard_file("subastral"), "name": "Thömson"}
    (tmp_path / "latin1.json").write_bytes(json.dumps(latin).replace("\\u00f6", "ö").encode("latin-1"))
    upload.locator("input[type=file]").set_input_files(tmp_path / "latin1.json")
    expect(page.locator(".analysis-cards-error-b")).to_contain_text("UTF-8のテキストではありません", timeout=LOAD_TIMEOUT)
    expect(page.locator(".analysis-cards-error-b")).to_contain_text("0xF6")
    assert analysis.deck_b.data == standard_file("subastral")
    box = upload.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, box       # (within a phone's width)
    shot(page, "analysis-upload-too-big-ja-390")


@pytest.fixture
def served_mcts(serve_app):
    """``(url, pages)``: the analysis app, each page set to MCTS bots in A, one worker process and chunks
    of 50 paired 4-player games (the first chunk takes minutes)."""
    pages = []

    def factory():
        template = create_page()
        template.analysis.param.update(players=4, games=500, chunk=50, bot_a="mcts", executor="processes", workers=1)
        pages.append(template.analysis)
        return template

    return serve_app(factory, path="analysis"), pages


def test_the_elapsed_time_counts_on_while_a_long_chunk_plays_and_stop_ends_it(page: Page, served_mcts):
    """The progress line's time changed only when a chunk finished: with MCTS bots the page said
    "0 / 500 games · 0.0 s elapsed · running" for minutes, as if nothing ran. It now counts every
    second while the first chunk plays; Stop ends the run, and the time stays where it stopped."""
    url, pages = served_mcts
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(url)
    expect(page.locator(".analysis-run button")).to_be_visible(timeout=LOAD_TIMEOUT)
    analysis = pages[-1]
    page.locator(".analysis-run button").click()
    progress = page.locator(".analysis-progress")
    # (no chunk of 50 MCTS deals ends in seconds: the time shown is counted, not a chunk's)
    expect(progress).to_contain_text(re.compile(r"^0 / 500 games .* · ([2-9]|[1-9]\d+)\.\d s elapsed · "),
                                     timeout=60_000)
    assert analysis.run.running and analysis.run.games_done == 0
    page.locator(".analysis-stop button").click()
    wait_until(lambda: analysis.run.status == "stopped", timeout=120, what="the run to stop")
    shown = f"{analysis.run.elapsed:.1f} s elapsed · stopped"
    expect(progress).to_contain_text(shown)
    wait_until(lambda: not analysis._ticking.running, what="the ticking to end")
    assert shown in analysis.progress.object          # (what the page was last sent)
